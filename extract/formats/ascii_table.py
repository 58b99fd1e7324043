"""'+---+' boxes, box-drawing tables and whitespace-aligned columns.

Rows: TODO (document the measurements this module returns).
"""

from __future__ import annotations

from extract.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="ascii-table",
    description="'+---+' boxes, box-drawing tables and whitespace-aligned columns",
    signature="TODO",
    priority=40,
    kind="result",
)


def parse(text: str) -> list[ResultTable]:
    return []
