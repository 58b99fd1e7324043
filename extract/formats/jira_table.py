"""JIRA wiki-markup tables ('||h||' / '|c|').

Rows: TODO (document the measurements this module returns).
"""

from __future__ import annotations

from extract.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="jira-table",
    description="JIRA wiki-markup tables ('||h||' / '|c|')",
    signature="TODO",
    priority=30,
    kind="result",
)


def parse(text: str) -> list[ResultTable]:
    return []
