"""Dropwizard Metrics `ConsoleReporter` reports (printed by Ozone freon, Cassandra and
HBase tools, Kafka/Pulsar load generators, many JMX-less Java benchmarks): returns one
`ResultTable` per block of a timer, meter or histogram.

    -- Timers ----------------------------------------------------------------------
    hsync-generator
                 count = 500000
             mean rate = 2868.67 calls/second
         1-minute rate = 2969.64 calls/second
                   min = 1.63 milliseconds
                  mean = 6.21 milliseconds
                  99% <= 53.12 milliseconds

Rows: label = the metric name on the line above the block (else the heading above
it); metric = the key as printed (`count`, `mean rate`, `1-minute rate`,
`5-minute rate`, `15-minute rate`, `min`, `max`, `mean`, `stddev`, `median`, `75%`,
`95%`, `98%`, `99%`, `99.9%`, `value`); unit as printed (`calls/second`,
`events/second`, `milliseconds`, ...; none for counts). A block is at least four
`key = value` lines and has a rate or a percentile line, as only these reports print.
Variant = the section (`Timers`, `Meters`, `Histograms`) when there is one.

Lines are matched on the text itself, so a mail flattened onto one line reads the
same. Pure function; never raises.
"""

from __future__ import annotations

import re

from extract.results.formats._context import block_heading, measure
from extract.results.formats.base import FormatInfo, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="dropwizard-metrics",
    description="Dropwizard Metrics ConsoleReporter timer/meter/histogram blocks",
    signature="`count = N`, `mean rate = N calls/second`, `mean = N milliseconds`, "
    "`99% <= N milliseconds` lines (under `-- Timers ---`)",
    priority=14,
    trigger=r"(?-i:rate[ \t]*<?=|%[ \t]*<=)",
    trigger_parts=(
        (r"(?-i:rate[ \t]*<?=)", ("rate=", "rate<", "rate ", "rate\t"), ()),
        (r"(?-i:%[ \t]*<=)", ("<=",), ()),
    ),
)

_N = r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
_LINE = re.compile(
    r"(?<![\w%.-])(?P<k>count|mean rate|15-minute rate|1-minute rate|5-minute rate|min|max|mean"
    r"|stddev|median|value|\d+(?:\.\d+)?%)[ \t]*(?P<op><=|=)[ \t]*(?P<v>" + _N + r")"
    r"(?:[ \t]+(?P<u>(?:calls|events|bytes|ops|requests)/(?:second|minute|hour|millisecond)"
    r"|nanoseconds|microseconds|milliseconds|seconds|minutes))?(?![\w.])"
)
_SECTION = re.compile(
    r"--[ \t]+(?P<s>Gauges|Counters|Histograms|Meters|Timers)[ \t]+-+", re.IGNORECASE
)
# The metric name printed alone on the line above its block.
_NAME = re.compile(r"(?:^|\n)[ \t]*(?P<name>[A-Za-z][\w.$:/\[\]=,-]*)[ \t]*\n[ \t]*$")


def _groups(text: str) -> list[list[re.Match]]:
    groups: list[list[re.Match]] = []
    for m in _LINE.finditer(text):
        if groups and not text[groups[-1][-1].end() : m.start()].strip():
            groups[-1].append(m)
        else:
            groups.append([m])
    return groups


def _is_report(group: list[re.Match]) -> bool:
    keys = {m.group("k") for m in group}
    has_rate = any(m.group("k").endswith("rate") and m.group("u") for m in group)
    has_percentile = any(m.group("op") == "<=" and m.group("k").endswith("%") for m in group)
    return len(keys) >= 4 and len(keys) == len(group) and (has_rate or has_percentile)


def parse(text: str) -> list[ResultTable]:
    tables = []
    floor = 0
    for group in _groups(text):
        if not _is_report(group):
            continue
        start = group[0].start()
        name = _NAME.search(text, max(floor, start - 200), start)
        if name and name.end() == start:
            label = name.group("name")
            head_pos = name.start("name")
        else:
            label = None
            head_pos = start
        sections = [s for s in _SECTION.finditer(text, floor, head_pos)]
        variant = sections[-1].group("s") if sections else None
        if label is None:
            label = block_heading(text, start, floor)
        table = ResultTable(
            format=INFO.name,
            span=(head_pos if name and name.end() == start else start, group[-1].end()),
            columns=["metric", "value", "unit"],
            caption=label,
            variant=variant,
        )
        for i, m in enumerate(group):
            key, written, unit = m.group("k"), m.group("v"), m.group("u")
            table.rows.append([key, written, unit or ""])
            meas = measure(key, written, parse_number(written), unit, label=label, row=i)
            if meas:
                table.measurements.append(meas)
        floor = table.span[1]
        tables.append(table)
    return tables
