"""YCSB '[OVERALL], Throughput(ops/sec), N' summaries.

Rows: TODO (document the measurements this module returns).
"""

from __future__ import annotations

from extract.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="ycsb",
    description="YCSB '[OVERALL], Throughput(ops/sec), N' summaries",
    signature="TODO",
    priority=10,
    kind="result",
)


def parse(text: str) -> list[ResultTable]:
    return []
