"""Markdown pipe tables, also flattened onto one line.

Rows: TODO (document the measurements this module returns).
"""

from __future__ import annotations

from extract.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="markdown-table",
    description="Markdown pipe tables, also flattened onto one line",
    signature="TODO",
    priority=30,
    kind="result",
)


def parse(text: str) -> list[ResultTable]:
    return []
