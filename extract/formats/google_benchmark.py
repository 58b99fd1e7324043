"""Google Benchmark console tables and compare.py output.

Rows: TODO (document the measurements this module returns).
"""

from __future__ import annotations

from extract.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="google-benchmark",
    description="Google Benchmark console tables and compare.py output",
    signature="TODO",
    priority=10,
    kind="result",
)


def parse(text: str) -> list[ResultTable]:
    return []
