"""Spark Benchmark tables ('Best Time(ms)  Avg Time(ms) ...'), also as +/- diff rows.

Rows: TODO (document the measurements this module returns).
"""

from __future__ import annotations

from extract.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="spark-benchmark",
    description="Spark Benchmark tables ('Best Time(ms)  Avg Time(ms) ...'), also as +/- diff rows",
    signature="TODO",
    priority=10,
    kind="result",
)


def parse(text: str) -> list[ResultTable]:
    return []
