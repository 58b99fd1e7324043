"""bash 'real/user/sys' timings, also inside log lines.

Rows: TODO (document the measurements this module returns).
"""

from __future__ import annotations

from extract.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="bash-time",
    description="bash 'real/user/sys' timings, also inside log lines",
    signature="TODO",
    priority=15,
    kind="result",
)


def parse(text: str) -> list[ResultTable]:
    return []
