"""Apache Yetus / Hadoop QA precommit vote tables (build step runtimes, not benchmarks).

Rows: TODO (document the measurements this module returns).
"""

from __future__ import annotations

from extract.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="yetus-qa-report",
    description="Apache Yetus / Hadoop QA precommit vote tables (build step runtimes, not benchmarks)",
    signature="TODO",
    priority=5,
    kind="noise",
)


def parse(text: str) -> list[ResultTable]:
    return []
