"""kafka-producer-perf-test / kafka-consumer-perf-test output.

Rows: TODO (document the measurements this module returns).
"""

from __future__ import annotations

from extract.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="kafka-perf",
    description="kafka-producer-perf-test / kafka-consumer-perf-test output",
    signature="TODO",
    priority=10,
    kind="result",
)


def parse(text: str) -> list[ResultTable]:
    return []
