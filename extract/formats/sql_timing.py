"""SQL CLI timings ('Time taken: 1.2 seconds', 'N rows in set (0.01 sec)').

Rows: TODO (document the measurements this module returns).
"""

from __future__ import annotations

from extract.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="sql-timing",
    description="SQL CLI timings ('Time taken: 1.2 seconds', 'N rows in set (0.01 sec)')",
    signature="TODO",
    priority=15,
    kind="result",
)


def parse(text: str) -> list[ResultTable]:
    return []
