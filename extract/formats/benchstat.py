"""benchstat v1/v2 old/new comparison tables.

Rows: TODO (document the measurements this module returns).
"""

from __future__ import annotations

from extract.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="benchstat",
    description="benchstat v1/v2 old/new comparison tables",
    signature="TODO",
    priority=10,
    kind="result",
)


def parse(text: str) -> list[ResultTable]:
    return []
