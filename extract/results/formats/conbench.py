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

from extract.results.formats._layout import NUM
from extract.results.formats._rows import Field, Rows, read
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="conbench",
    description="ursabot/conbench benchmark comments",
    signature="`[Finished :arrow_down:0.31% :arrow_up:0.03%] [<machine>](<conbench compare link>)`",
    priority=10,
    kind="result",
    trigger=r"(?-i::arrow_down:)",
    needles=(":arrow_down:",),
)

ROWS = Rows(
    row=(
        rf"\[(?P<status>\w+)\s+:arrow_down:\s*(?P<down>{NUM})%\s+:arrow_up:\s*(?P<up>{NUM})%\]"
        r"\s*\[(?P<machine>[^\]\n]{1,80})\](?:\([^)\s]*\))?"
    ),
    fields=(
        Field("pct_benchmarks_regressed", "down", "%"),
        Field("pct_benchmarks_improved", "up", "%"),
    ),
    label=lambda m: m["machine"].strip(),
    cells=lambda m, machine: [machine, m["status"], m["down"], m["up"]],
    columns=("machine", "status", "benchmarks regressed %", "benchmarks improved %"),
    caption="Conbench compare runs",
)


def parse(text: str) -> list[ResultTable]:
    return read(ROWS, text)
