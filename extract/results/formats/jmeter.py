"""JMeter non-GUI Summariser lines: returns one table per block of lines.

Recognises `summary +  76492 in 00:00:21 = 3650.8/s Avg:   506 Min:     1 Max:  6071
Err:  1101 (1.44%) Active: 2000 Started: 2000 Finished: 0` (`summary +` = the last
interval, `summary =` = cumulative totals so far; the last `summary =` is the run's
result), also with a log prefix (`... INFO o.a.j.r.Summariser: summary = ...`, JMeter
2's `INFO 2016-02-01 10:15:02.123 [jmeter.r] (): summary = ...`). JMeter 3 and later
print the duration as `00:00:21`, JMeter 2 as `21s` / `2.2s`.

Measurements: label `summary + (interval N)` or `summary = (cumulative, hh:mm:ss)`;
metrics `samples` (count), `duration` (s), `throughput` (req/s), `avg` / `min` /
`max` (ms: JMeter prints no unit), `errors` (count), `error_pct` (%). Thread counts
(Active/Started/Finished) are settings, not measurements. Variant = the heading
before the block.
"""

from __future__ import annotations

import re

from extract.results.formats._context import measure
from extract.results.formats._layout import heading_above, runs
from extract.results.formats.base import FormatInfo, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="jmeter",
    description="JMeter summariser lines",
    signature="`summary + N in hh:mm:ss = X/s Avg: N Min: N Max: N Err: N (P%)` (JMeter 2: "
    "`in 14.1s`), `summary = ...`",
    priority=10,
    kind="result",
    trigger=r"(?-i:summary [+=])",
    needles=("summary +", "summary ="),
)

_SUMMARY = re.compile(
    r"summary (?P<kind>[+=])\s+(?P<n>\d+) in\s+(?P<dur>\d+:\d\d:\d\d|\d+(?:\.\d+)?(?=s\b))s?"
    r"\s*=\s*(?P<rate>\d+(?:\.\d+)?)/s"
    r"\s+Avg:\s*(?P<avg>\d+)\s+Min:\s*(?P<min>\d+)\s+Max:\s*(?P<max>\d+)"
    r"\s+Err:\s*(?P<err>\d+)\s*\((?P<pct>\d+(?:\.\d+)?)%\)"
    r"(?:\s+Active:\s*\d+\s+Started:\s*\d+\s+Finished:\s*\d+)?"
)
_FIELDS = [
    ("n", "samples", "count"),
    ("dur", "duration", "s"),
    ("rate", "throughput", "req/s"),
    ("avg", "avg", "ms"),
    ("min", "min", "ms"),
    ("max", "max", "ms"),
    ("err", "errors", "count"),
    ("pct", "error_pct", "%"),
]
# Between two summariser lines of one run: log prefixes only.
_GAP = re.compile(
    r"(?:\s|\d{4}-\d\d-\d\d[ T][\d:,.]+|\b(?:INFO|WARN)\b|[\w.]*Summariser:|\[[\w.]+\]|\(\):)*"
)


def parse(text: str) -> list[ResultTable]:
    tables = []
    floor = 0
    for group in runs(_SUMMARY, text, _GAP):
        table = ResultTable(
            format=INFO.name,
            span=(group[0].start(), group[-1].end()),
            columns=["summary"] + [metric for _, metric, _ in _FIELDS],
            caption="jmeter summariser",
            variant=heading_above(text, group[0].start(), floor),
        )
        interval = 0
        for i, m in enumerate(group):
            if m.group("kind") == "+":
                interval += 1
                label = f"summary + (interval {interval})"
            else:
                dur = m.group("dur") + ("" if ":" in m.group("dur") else "s")
                label = f"summary = (cumulative, {dur})"
            table.rows.append([label] + [m.group(g) for g, _, _ in _FIELDS])
            for g, metric, unit in _FIELDS:
                meas = measure(
                    metric, m.group(g), parse_number(m.group(g)), unit, label=label, row=i
                )
                if meas:
                    table.measurements.append(meas)
        floor = group[-1].end()
        tables.append(table)
    return tables
