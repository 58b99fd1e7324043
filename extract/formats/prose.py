"""numbers with units in sentences ('took 27 sec ... 9 sec with the patch').

Rows: TODO (document the measurements this module returns).
"""

from __future__ import annotations

from extract.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="prose",
    description="numbers with units in sentences ('took 27 sec ... 9 sec with the patch')",
    signature="TODO",
    priority=90,
    kind="result",
)


def parse(text: str) -> list[ResultTable]:
    return []
