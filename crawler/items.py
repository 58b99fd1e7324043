"""The one item the spider yields: a list-month of archive, as stored.

Every field is a plain value (text, numbers, a list of URLs), so Scrapy's feed exporters
(`scrapy crawl asf-lists -O months.jsonl`) write one record per month; the served bytes
themselves are never in the item but in the archive file `path` names.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class MonthArchive:
    """One list-month the crawl fetched.

    `sliced` months were fetched in week slices and joined (seams de-duplicated); `urls`
    then holds every slice's URL. `complete` means the month had ended (plus the grace
    period) when it was fetched, so it is never requested again. `sha256`, `size` and
    `messages` describe the served (uncompressed) bytes. `outcome` is what the pipeline
    did: `stored` (new), `replaced` (changed) or `unchanged` (same bytes as on disk).
    """

    address: str  # name@domain, as the archive names the list
    domain: str
    list_name: str
    month: str
    path: str  # raw/<domain>/<list>/<YYYY-MM>.mbox.gz, relative to DATA_DIR
    urls: list[str]
    fetched_at: str
    complete: bool
    sliced: bool
    sha256: str
    size: int
    messages: int
    outcome: str = ""
    # The gzip the spider staged (crawler.storage.Staged.path) until the pipeline moves
    # it into place. Deliberately not annotated: not a dataclass field, so no feed
    # exporter sees it.
    staged = None
