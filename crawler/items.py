"""The one item the spider yields: a list-month of archive, as served."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class MonthArchive:
    """Exactly the bytes the archive served for one list and month (mboxrd).

    `sliced` months were fetched in week slices and joined (seams de-duplicated);
    `urls` then holds every slice's URL. `complete` means the month had ended (plus the
    grace period) when it was fetched, so it is never requested again.
    """

    domain: str
    list_name: str
    month: str
    body: bytes = field(repr=False)
    urls: list[str]
    fetched_at: str
    complete: bool
    sliced: bool = False

    @property
    def address(self) -> str:
        return f"{self.list_name}@{self.domain}"
