"""Go 'BenchmarkX-8  N  123 ns/op' lines.

Rows: TODO (document the measurements this module returns).
"""

from __future__ import annotations

from extract.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="go-bench",
    description="Go 'BenchmarkX-8  N  123 ns/op' lines",
    signature="TODO",
    priority=10,
    kind="result",
)


def parse(text: str) -> list[ResultTable]:
    return []
