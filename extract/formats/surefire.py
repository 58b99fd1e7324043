"""Maven Surefire 'Tests run:' summaries and reactor build times.

Rows: TODO (document the measurements this module returns).
"""

from __future__ import annotations

from extract.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="maven-surefire",
    description="Maven Surefire 'Tests run:' summaries and reactor build times",
    signature="TODO",
    priority=5,
    kind="noise",
)


def parse(text: str) -> list[ResultTable]:
    return []
