"""Hadoop TestDFSIO and NNBench result logs.

Rows: TODO (document the measurements this module returns).
"""

from __future__ import annotations

from extract.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="testdfsio",
    description="Hadoop TestDFSIO and NNBench result logs",
    signature="TODO",
    priority=10,
    kind="result",
)


def parse(text: str) -> list[ResultTable]:
    return []
