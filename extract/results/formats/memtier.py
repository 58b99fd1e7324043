"""memtier_benchmark (Redis Ltd.'s load generator for Redis and Memcached protocols;
kvrocks and other Redis-compatible servers are measured with it): its stats tables.

Recognises the table `run_stats::print` writes: a title (`ALL STATS`, or one per
run, `BEST RUN RESULTS`, `WORST RUN RESULTS`, `AGGREGATED AVERAGE RESULTS (3 runs)`,
`RUN #2 RESULTS` with `--print-all-runs`),
a rule of `=`, the header `Type  Ops/sec  Hits/sec  Misses/sec  Avg. Latency  p50
Latency  p99 Latency  p99.9 Latency  KB/sec` (which columns, as its options ask:
`MOVED/sec` and `ASK/sec` in cluster mode, a `p<q> Latency` per `--print-percentiles`
quantile, one `Latency` before 1.3), a rule of `-`, then a row per command type
(`Sets`, `Gets`, `Waits`, the commands of `--command`) and `Totals`, a cell `---`
where a column says nothing of the row.

Measurements: label = the row's type, metric = the column as printed, unit: `ops/s`
for `Ops/sec`, `/s` rates as printed (`Hits/s`), `KB/s`, and `ms` for every latency
column (the tool keeps and prints latencies in milliseconds, as its histograms'
`Latency (<= msec)` say). Variant = the heading above the title (`before:`) and the
title of a run of several (`before:, BEST RUN RESULTS`), else the title.

Source: memtier_benchmark's run_stats.cpp (`output_table::print`, the `print_*_column`
functions and their formats).

Each header makes its block's row pattern (a cell per column it names).
"""

from __future__ import annotations

import re

from extract.results.formats._grid import norm_unit
from extract.results.formats._layout import NUM
from extract.results.formats._rows import Rows, read
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="memtier",
    description="memtier_benchmark stats tables",
    signature="`Type  Ops/sec  Hits/sec  Misses/sec  Avg. Latency ... KB/sec` over a rule; "
    "rows `Gets  88277.32  0.00  88277.32  2.03897 ...`",
    priority=12,
    trigger=r"(?-i:\bType[ \t]+Ops/sec\b)",
    needles=("Ops/sec",),
)

# A column of the header: a latency (`Avg. Latency`, `p99.9 Latency`, `Latency`) or
# a rate (`Ops/sec`, `KB/sec`, `MOVED/sec`).
_COLUMN = re.compile(r"(?:Avg\.[ \t]|p\d{1,3}(?:\.\d{1,6})?[ \t])?Latency|[A-Za-z]{2,12}/sec")
# The title and its `=` rule (optional: a mail may cut them), the header, its `-` rule.
_HEADER = (
    # (`AGGREGATED AVERAGE RESULTS (3 runs)`, `RUN #2 RESULTS` with --print-all-runs)
    r"(?m)^(?:[ \t]*(?P<title>[A-Z][A-Z0-9 #]{2,60}(?:\(\d{1,9}[ \t]runs?\))?)[ \t]*\r?\n"
    r"[ \t]*={10,}[ \t]*\r?\n)?"
    r"[ \t]*Type[ \t]++(?P<names>Ops/sec(?:[ \t]++(?:Avg\.[ \t]|p[\d.]{1,10}[ \t])?"
    r"[A-Za-z]{2,12}(?:/sec)?)*+)[ \t]*\r?\n[ \t]*-{10,}[ \t]*\r?$"
)
# What stands above the title in the tool's own output: its settings (`4   Threads`,
# `60   Seconds`) and its progress line (`[RUN #1 100%, 60 secs] ...`): no heading.
_NOT_HEADING = r"^[ \t]*\d+[ \t]{2,}[A-Za-z]|^\[RUN[ \t]#"
_CELL = rf"(?:(?P<c{{i}}>{NUM})|---)"


def _unit(column: str) -> str:
    if column.endswith("Latency"):
        return "ms"
    return "ops/s" if column == "Ops/sec" else norm_unit(column)


def _block(h: re.Match) -> Rows | None:
    """The rows under header `h`: a type, then a cell per column it names."""
    names = _COLUMN.findall(h["names"])
    if len(names) != len(re.findall(r"Latency|/sec", h["names"])):
        return None

    def found(m: re.Match):
        for i, name in enumerate(names):
            if written := m[f"c{i}"]:
                yield Measurement(name, float(written), _unit(name), m["type"], written=written)

    cells = r"[ \t]++".join(_CELL.format(i=i) for i in range(len(names)))
    return Rows(
        # (a type may hold single blanks, `Scan 0s`, `Get (line 3)s`: the shortest one
        # after which the line's cells follow)
        row=rf"(?m)^[ \t]*(?P<type>[A-Za-z](?:[\w.:()#-]|[ ](?=\S)){{0,60}}?)[ \t]++{cells}"
        r"[ \t]*\r?$",
        fields=found,
        label="type",
        # (a cell per column, `---` where the row has no number: under its header)
        cells=lambda m, label: [label, *(m[f"c{i}"] or "---" for i in range(len(names)))],
        columns=["Type", *names],
        caption=lambda _: h["title"],
    )


ROWS = Rows(
    row=None,
    fields=(),
    header=_HEADER,
    for_header=_block,
    heading="block",
    not_heading=_NOT_HEADING,
)


def parse(text: str) -> list[ResultTable]:
    """The tables, each named by the heading above it and its title: `master` and
    `BEST RUN RESULTS` are `master, BEST RUN RESULTS`; `ALL STATS`, the one title of a
    single run, only where there is no heading."""
    tables = read(ROWS, text)
    for t in tables:
        title = t.caption
        if t.variant is None:
            t.variant = title
        elif title and title != "ALL STATS":
            t.variant = f"{t.variant}, {title}"
    return tables
