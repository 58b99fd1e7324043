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

from extract.results.formats._layout import NUM
from extract.results.formats._rows import Field, Rows, read
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="jmeter",
    description="JMeter summariser lines",
    signature="`summary + N in hh:mm:ss = X/s Avg: N Min: N Max: N Err: N (P%)` (JMeter 2: "
    "`in 14.1s`), `summary = ...`",
    priority=10,
    kind="result",
    heading="block",
    trigger=r"(?-i:summary [+=])",
    needles=("summary +", "summary ="),
)


def _labels(rows: list[re.Match]) -> list[str]:
    """`summary + (interval N)`, counted in the block; `summary = (cumulative, 0:00:21)`."""
    labels, interval = [], 0
    for m in rows:
        if m["kind"] == "+":
            interval += 1
            labels.append(f"summary + (interval {interval})")
        else:
            labels.append(f"summary = (cumulative, {m['dur']}{'' if ':' in m['dur'] else 's'})")
    return labels


FIELDS = (
    Field("samples", "n", "count"),
    Field("duration", "dur", "s"),
    Field("throughput", "rate", "req/s"),
    Field("avg", "avg", "ms"),
    Field("min", "min", "ms"),
    Field("max", "max", "ms"),
    Field("errors", "err", "count"),
    Field("error_pct", "pct", "%"),
)
ROWS = Rows(
    row=(
        rf"summary (?P<kind>[+=])\s+(?P<n>\d+) in\s+(?P<dur>\d+:\d\d:\d\d|{NUM}(?=s\b))s?"
        rf"\s*=\s*(?P<rate>{NUM})/s"
        r"\s+Avg:\s*(?P<avg>\d+)\s+Min:\s*(?P<min>\d+)\s+Max:\s*(?P<max>\d+)"
        rf"\s+Err:\s*(?P<err>\d+)\s*\((?P<pct>{NUM})%\)"
        r"(?:\s+Active:\s*\d+\s+Started:\s*\d+\s+Finished:\s*\d+)?"
    ),
    fields=FIELDS,
    labels=_labels,
    columns=("summary", *(f.metric for f in FIELDS)),
    caption="jmeter summariser",
    # between two summariser lines of one run: log prefixes only
    gap=r"(?:\s|\d{4}-\d\d-\d\d[ T][\d:,.]+|\b(?:INFO|WARN)\b|[\w.]*Summariser:|\[[\w.]+\]|\(\):)*",
)


def parse(text: str) -> list[ResultTable]:
    return read(ROWS, text)
