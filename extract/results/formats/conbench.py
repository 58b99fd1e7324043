"""ursabot / Conbench status comments (Arrow, DataFusion 2021-23): returns one table
per comment.

Recognises the per-machine lines `[Finished :arrow_down:0.31% :arrow_up:0.03%]
[ursa-thinkcentre-m75q](https://conbench.ursa.dev/compare/runs/...)` under
`Conbench compare runs links:`. The two percentages are the share of benchmarks that
regressed / improved on that machine (not a speed change).

Measurements: label = the machine, metrics `pct_benchmarks_regressed` and
`pct_benchmarks_improved`, unit `%`. Scheduling notices (`Benchmark runs are
scheduled for commit ...`) and Buildkite links carry no numbers and give nothing;
commit hashes and run ids are never read.
"""

from __future__ import annotations

import re

from extract.results.formats._context import measure
from extract.results.formats._layout import runs
from extract.results.formats.base import FormatInfo, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="conbench",
    description="ursabot/conbench benchmark comments",
    signature="`[Finished :arrow_down:0.31% :arrow_up:0.03%] [<machine>](<conbench compare link>)`",
    priority=10,
    kind="result",
    trigger=r"(?-i::arrow_down:)",
    needles=(":arrow_down:",),
)

_MACHINE = re.compile(
    r"\[(?P<status>\w+)\s+:arrow_down:\s*(?P<down>\d+(?:\.\d+)?)%\s+:arrow_up:\s*"
    r"(?P<up>\d+(?:\.\d+)?)%\]\s*\[(?P<machine>[^\]\n]{1,80})\](?:\([^)\s]*\))?"
)


def parse(text: str) -> list[ResultTable]:
    tables = []
    for group in runs(_MACHINE, text):
        table = ResultTable(
            format=INFO.name,
            span=(group[0].start(), group[-1].end()),
            columns=["machine", "status", "benchmarks regressed %", "benchmarks improved %"],
            caption="Conbench compare runs",
        )
        for i, m in enumerate(group):
            machine = m.group("machine").strip()
            table.rows.append([machine, m.group("status"), m.group("down"), m.group("up")])
            for g, metric in (
                ("down", "pct_benchmarks_regressed"),
                ("up", "pct_benchmarks_improved"),
            ):
                meas = measure(
                    metric, m.group(g), parse_number(m.group(g)), "%", label=machine, row=i
                )
                if meas:
                    table.measurements.append(meas)
        tables.append(table)
    return tables
