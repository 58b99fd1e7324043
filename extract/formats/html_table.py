"""HTML <table> markup.

Rows: TODO (document the measurements this module returns).
"""

from __future__ import annotations

from extract.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="html-table",
    description="HTML <table> markup",
    signature="TODO",
    priority=30,
    kind="result",
)


def parse(text: str) -> list[ResultTable]:
    return []
