"""Does a message report measured benchmark numbers? (stub: the classifier lands with issue 4)

Interface used by the pipeline and `make eval`:

    classify(body, tables, subject=None, kind=None) -> Verdict

`body` is the message's own, cleaned text (no quoted replies, no JIRA issue block,
no footers); `tables` is `extract.formats.extract_results(body)`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from extract.formats import ResultTable


@dataclass(slots=True)
class Verdict:
    is_benchmark: bool
    score: float  # 0..1
    reasons: list[str] = field(default_factory=list)


def classify(
    body: str, tables: list[ResultTable], *, subject: str | None = None, kind: str | None = None
) -> Verdict:
    n = sum(len(t.measurements) for t in tables)
    return Verdict(n > 0, 0.5 if n else 0.0, [f"{n} measurements"] if n else [])
