"""GNU/BSD time output, including -v verbose.

Rows: TODO (document the measurements this module returns).
"""

from __future__ import annotations

from extract.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="gnu-time",
    description="GNU/BSD time output, including -v verbose",
    signature="TODO",
    priority=15,
    kind="result",
)


def parse(text: str) -> list[ResultTable]:
    return []
