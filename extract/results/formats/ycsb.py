"""YCSB (Yahoo! Cloud Serving Benchmark) final report: returns one table per report.

Recognises the text exporter's lines `[OVERALL], RunTime(ms), 10110`,
`[OVERALL], Throughput(ops/sec), 98.9`, `[READ], AverageLatency(us), 1657.3`,
`[READ], 95thPercentileLatency(us), 4000`, `[READ], Operations, 499304`,
`[READ], Return=OK, 499304` (one per line, or flattened onto one line; stray
leading spaces and missing spaces after commas are fine). The status lines that
precede a report (`50 sec: 1000000 operations; 17966 current ops/sec; ...`) belong
to its block but give no measurements (intermediate values).

Measurements: label = the section (`OVERALL`, `READ`, `UPDATE`), metric = the name
without its unit (`RunTime`, `Throughput`, `AverageLatency`, `Return=OK`), unit =
the one in parentheses as written (`ms`, `us`, `ops/sec`, `%`) or `count` for
Operations / Return= / Count lines; Java doubles (`3.489955785875464E8`) are read.
Variant = the heading before the block (`With patch`). Not measurements: histogram
buckets (`[UPDATE], 0, 464`) and JVM GC sections (`[TOTAL_GC_TIME_PS_Scavenge]`).
"""

from __future__ import annotations

import re

from extract.results.formats._context import block_heading, measure
from extract.results.formats.base import FormatInfo, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="ycsb",
    description="YCSB [OVERALL]/[READ] result lines",
    signature="`[OVERALL], RunTime(ms), N`, `[OVERALL], Throughput(ops/sec), N`, "
    "`[READ], AverageLatency(us), N`",
    priority=10,
    kind="result",
    trigger=r"(?-i:\]\s*,\s*(?:RunTime|Throughput|Operations|AverageLatency|MinLatency|MaxLatency"
    r"|LatencyVariance|\d+thPercentileLatency|Return=))",
    needles=("RunTime", "Throughput", "Operations", "Latency", "Return="),
)

_LINE = re.compile(
    r"\[(?P<section>[A-Za-z][\w%\-]*)\]\s*,\s*(?P<metric>[A-Za-z0-9][^,\[\]\n]{0,60}?)\s*,\s*"
    r"(?P<val>-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|NaN|Infinity)(?![\w.])"
)
_UNIT = re.compile(r"^(?P<name>.*?)\((?P<unit>[^)]+)\)$")
# Metrics YCSB writes in a workload section; one of them must occur in a block.
_KNOWN = re.compile(
    r"^(?:RunTime|Throughput|Operations|AverageLatency|MinLatency|MaxLatency|LatencyVariance"
    r"|\d+thPercentileLatency|Return=\w+)",
)
_STATUS = re.compile(r"[^\n]*\b\d+ sec: \d+ operations;[^\n]*")


def _blocks(text: str) -> list[list[re.Match]]:
    blocks: list[list[re.Match]] = []
    for m in _LINE.finditer(text):
        if blocks and not text[blocks[-1][-1].end() : m.start()].strip():
            blocks[-1].append(m)
        else:
            blocks.append([m])
    return [b for b in blocks if any(_KNOWN.match(m.group("metric")) for m in b)]


def parse(text: str) -> list[ResultTable]:
    tables = []
    floor = 0
    for block in _blocks(text):
        start = block[0].start()
        # Status lines just above the report belong to the run.
        while True:
            line_start = text.rfind("\n", 0, max(start - 1, 0)) + 1
            above = text[line_start:start]
            if start > 0 and line_start >= floor and _STATUS.fullmatch(above.rstrip("\n").rstrip()):
                start = line_start
                continue
            break
        table = ResultTable(
            format=INFO.name,
            span=(start, block[-1].end()),
            columns=["section", "metric", "value"],
            variant=block_heading(text, start, floor),
        )
        for m in block:
            section, metric, written = m.group("section"), m.group("metric").strip(), m.group("val")
            if section.upper().startswith("TOTAL_GC") or re.fullmatch(r"[\d.]+", metric):
                continue
            unit_m = _UNIT.match(metric)
            if unit_m:
                name, unit = unit_m.group("name").strip(), unit_m.group("unit").strip()
            else:
                name, unit = metric, "count"
            table.rows.append([section, metric, written])
            meas = measure(
                name, written, parse_number(written), unit, label=section, row=len(table.rows) - 1
            )
            if meas:
                table.measurements.append(meas)
        floor = block[-1].end()
        tables.append(table)
    return tables
