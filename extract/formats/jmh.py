"""JMH text tables, `Result "..."` blocks, CSV/SCSV and JSON results.

Rows: TODO (document the measurements this module returns).
"""

from __future__ import annotations

from extract.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="jmh",
    description="JMH text tables, Result blocks, CSV/SCSV and JSON results",
    signature="TODO",
    priority=10,
    kind="result",
)


def parse(text: str) -> list[ResultTable]:
    return []
