"""Doris TPC-H / ClickBench bot comments.

Rows: TODO (document the measurements this module returns).
"""

from __future__ import annotations

from extract.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="doris-bench",
    description="Doris TPC-H / ClickBench bot comments",
    signature="TODO",
    priority=10,
    kind="result",
)


def parse(text: str) -> list[ResultTable]:
    return []
