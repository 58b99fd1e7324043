"""code coverage reports (percentages of lines, not performance).

Rows: TODO (document the measurements this module returns).
"""

from __future__ import annotations

from extract.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="coverage-report",
    description="code coverage reports (percentages of lines, not performance)",
    signature="TODO",
    priority=5,
    kind="noise",
)


def parse(text: str) -> list[ResultTable]:
    return []
