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

Rows: label = the metric name on the line above the block (else the command that
printed it, on the line above, else the heading above
it); metric = the key as printed (`count`, `mean rate`, `1-minute rate`,
`5-minute rate`, `15-minute rate`, `min`, `max`, `mean`, `stddev`, `median`, `75%`,
`95%`, `98%`, `99%`, `99.9%`, `value`); unit as printed (`calls/second`,
`events/second`, `milliseconds`, ...; none for counts). A block is at least four
`key = value` lines and has a rate or a percentile line, as only these reports print.
Variant = the section (`Timers`, `Meters`, `Histograms`) when there is one.

Also the same registry as `Slf4jReporter` (and the Log4j/JUL reporters) logs it,
one record a metric:

    type=TIMER, name=put-block, count=1024, min=26.64, max=1184.68, mean=92.64, ...,
    p99=247.92, p999=1163.49, mean_rate=77.87, m1=70.68, m5=70.14, m15=70.04,
    rate_unit=events/second, duration_unit=milliseconds

and as `metrics-json` writes it (the admin servlet, the JSON reporters):
`{"version": "3.1.3", "gauges": {..}, "counters": {..}, "histograms": {..},
"meters": {..}, "timers": {"name": {"count": .., "p99": .., "m1_rate": ..,
"duration_units": "milliseconds", "rate_units": "calls/second"}}}`. There the keys
are the metrics as written (`p99`, `mean_rate`, `m1`); durations carry the duration
unit, rates the rate unit, histogram values none. Gauges and counters (one number,
a setting or a level) are not read, as in the console form.

Lines are matched on the text itself, so a mail flattened onto one line reads the
same. Pure function; never raises.

Not declared as rows: three report forms (console blocks of `name = value unit` under
section rules, Slf4j records of `key=value` pairs, metrics-json), each named by a line
found above it.
"""

from __future__ import annotations

import re

from extract.results.formats._context import measure
from extract.results.formats._layout import FLOAT, NUM, command_above, heading_above, json_at, runs
from extract.results.formats.base import FormatInfo, Measurement, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="dropwizard-metrics",
    description="Dropwizard Metrics reports: ConsoleReporter blocks, Slf4jReporter records, "
    "metrics-json",
    signature="`count = N`, `mean rate = N calls/second`, `mean = N milliseconds`, "
    "`99% <= N milliseconds` lines (under `-- Timers ---`); `type=TIMER, name=x, count=N, "
    "..., p99=N, mean_rate=N, rate_unit=events/second, duration_unit=milliseconds`; "
    '`{"version": "3.1.3", "gauges": .., "timers": {"x": {"p99": .., "m1_rate": ..}}}`',
    priority=14,
    trigger=(
        r"(?-i:rate[ \t]*<?=|%[ \t]*<=|type=(?:TIMER|METER|HISTOGRAM),"
        r'|"rate_units"|"units")'
    ),
    trigger_parts=(
        (r"(?-i:rate[ \t]*<?=)", ("rate=", "rate<", "rate ", "rate\t"), ()),
        (r"(?-i:%[ \t]*<=)", ("<=",), ()),
        (r"(?-i:type=(?:TIMER|METER|HISTOGRAM),)", ("type=",), ()),
        (r'(?-i:"rate_units"|"units")', ('_units"', '"units"'), ()),
    ),
)

_LINE = re.compile(
    r"(?<![\w%.-])(?P<k>count|mean rate|15-minute rate|1-minute rate|5-minute rate|min|max|mean"
    rf"|stddev|median|value|{NUM}%)[ \t]*(?P<op><=|=)[ \t]*(?P<v>" + FLOAT + r")"
    r"(?:[ \t]+(?P<u>(?:calls|events|bytes|ops|requests)/(?:second|minute|hour|millisecond)"
    r"|nanoseconds|microseconds|milliseconds|seconds|minutes))?(?![\w.])"
)
_SECTION = re.compile(
    r"--[ \t]+(?P<s>Gauges|Counters|Histograms|Meters|Timers)[ \t]+-+", re.IGNORECASE
)
# The metric name printed alone on the line above its block.
_NAME = re.compile(r"(?:^|\n)[ \t]*(?P<name>[A-Za-z][\w.$:/\[\]=,-]*)[ \t]*\n[ \t]*$")
# ... or, in a mail flattened onto one line, the token just before the block, after a
# section rule or the previous block's last value (`-- Timers ---- put-row count = 5`).
# (a rule from its first dash only: searched in a slice, whose first dash is the first)
_INLINE_NAME = re.compile(
    r"(?:(?<!-)-{3,}+|\d|seconds|second|minute|hour|millisecond)[ \t]+"
    r"(?P<name>[A-Za-z][\w.$:/\[\]=,-]*)[ \t]+$"
)


def _is_report(group: list[re.Match]) -> bool:
    keys = {m.group("k") for m in group}
    has_rate = any(m.group("k").endswith("rate") and m.group("u") for m in group)
    has_percentile = any(m.group("op") == "<=" and m.group("k").endswith("%") for m in group)
    return len(keys) >= 4 and len(keys) == len(group) and (has_rate or has_percentile)


_SECTIONS = {"TIMER": "Timers", "METER": "Meters", "HISTOGRAM": "Histograms"}
_RECORD = re.compile(
    r"type=(?P<type>TIMER|METER|HISTOGRAM),\s*name=(?P<name>[^,\s]+)"
    r"(?P<fields>(?:,\s*[A-Za-z]\w*=[^,\s]+)+)"
)
_FIELD = re.compile(r",\s*(?P<k>[A-Za-z]\w*)=(?P<v>[^,\s]+)")
# keys that are rates / durations (the rest are counts or, for histograms, unitless)
_RATE_KEYS = re.compile(r"mean_rate|m(?:1|5|15)(?:_rate)?")
_DURATION_KEYS = re.compile(r"min|max|mean|stddev|median|p\d+")


def _unit_of(key: str, kind: str, rate_unit: str | None, duration_unit: str | None):
    if _RATE_KEYS.fullmatch(key):
        return rate_unit
    if kind == "TIMER" and _DURATION_KEYS.fullmatch(key):
        return duration_unit
    return None


def _records(text: str) -> list[ResultTable]:
    """`type=TIMER, name=x, count=.., ...` records (Slf4jReporter and friends)."""
    tables = []
    for m in _RECORD.finditer(text):
        fields = [(f.group("k"), f.group("v")) for f in _FIELD.finditer(m.group("fields"))]
        units = dict(fields)
        kind, name = m.group("type"), m.group("name")
        table = ResultTable(
            format=INFO.name,
            span=(m.start(), m.end()),
            columns=["metric", "value", "unit"],
            caption=name,
            variant=_SECTIONS[kind],
        )
        for k, v in fields:
            if k in ("rate_unit", "duration_unit"):
                continue
            unit = _unit_of(k, kind, units.get("rate_unit"), units.get("duration_unit"))
            meas = measure(k, v, parse_number(v), unit, label=name, row=len(table.rows))
            table.rows.append([k, v, unit or ""])
            if meas:
                table.measurements.append(meas)
        if table.measurements:
            tables.append(table)
    return tables


_JSON_START = re.compile(
    r'\{\s*"version"\s*:\s*"[^"]*"\s*,\s*"(?:gauges|counters|histograms|meters|timers)"'
)


def _json_reports(text: str) -> list[ResultTable]:
    """The metrics-json form of a registry: one table per timer, meter or histogram."""
    tables = []
    for m in _JSON_START.finditer(text):
        if (found := json_at(text, m.start())) is None:
            continue
        obj, end = found
        first = True
        for section, kind in (
            ("histograms", "HISTOGRAM"),
            ("meters", "METER"),
            ("timers", "TIMER"),
        ):
            metrics = obj.get(section)
            if not isinstance(metrics, dict):
                continue
            for name, fields in metrics.items():
                if not isinstance(fields, dict):
                    continue
                at = max(m.start(), text.find(f'"{name}"', m.start(), end))
                rate_unit = fields.get("rate_units") or fields.get("units")
                duration_unit = fields.get("duration_units")
                table = ResultTable(
                    format=INFO.name,
                    # the whole object is one span; the first table carries it
                    span=(m.start(), end) if first else (at, at),
                    columns=["metric", "value", "unit"],
                    caption=name,
                    variant=_SECTIONS[kind],
                )
                first = False
                for k, v in fields.items():
                    if isinstance(v, bool) or not isinstance(v, (int, float)):
                        continue
                    key = k.removesuffix("_rate") if k != "mean_rate" else k
                    unit = _unit_of(key, kind, rate_unit, duration_unit)
                    table.rows.append([k, str(v), unit or ""])
                    table.measurements.append(
                        Measurement(k, float(v), unit, name, None, str(v), len(table.rows) - 1)
                    )
                if table.measurements:
                    tables.append(table)
    return tables


def parse(text: str) -> list[ResultTable]:
    tables = _json_reports(text) + _records(text) + _console(text)
    return tables


def _console(text: str) -> list[ResultTable]:
    tables = []
    floor = 0
    for group in runs(_LINE, text):
        if not _is_report(group):
            continue
        start = group[0].start()
        window = max(floor, start - 200)
        name = _NAME.search(text, window, start)
        label, head_pos, named = None, start, False
        if name and name.end() == start:
            label, head_pos, named = name.group("name"), name.start("name"), True
        elif (inline := _INLINE_NAME.search(text[window:start])) and window + inline.end() == start:
            label, head_pos, named = inline.group("name"), window + inline.start("name"), True
        sections = [s for s in _SECTION.finditer(text, floor, head_pos)]
        variant = sections[-1].group("s") if sections else None
        if label is None:
            # no metric name: the command that printed the report names it, else the heading
            label = command_above(text, start, floor) or heading_above(text, start, floor)
        table = ResultTable(
            format=INFO.name,
            span=(head_pos if named else start, group[-1].end()),
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
