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
same. The console blocks are declared rows (`_rows.Rows`: a run of `key = value unit`
lines that only these reports print), named after reading by the line above them;
the Slf4j records (one table each, however close) and metrics-json are not rows.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import FLOAT, NUM, command_above, heading_above, json_at, last
from extract.results.formats._rows import Rows, numbers, read
from extract.results.formats.base import FormatInfo, ResultTable

_TRIGGER_PARTS = (
    (r"(?-i:rate[ \t]*<?=)", ("rate=", "rate<", "rate ", "rate\t"), ()),
    (r"(?-i:%[ \t]*<=)", ("<=",), ()),
    (r"(?-i:type=(?:TIMER|METER|HISTOGRAM),)", ("type=",), ()),
    (r'(?-i:"rate_units"|"units")', ('_units"', '"units"'), ()),
)
INFO = FormatInfo(
    name="dropwizard-metrics",
    description="Dropwizard Metrics reports: ConsoleReporter blocks, Slf4jReporter records, "
    "metrics-json",
    signature="`count = N`, `mean rate = N calls/second`, `mean = N milliseconds`, "
    "`99% <= N milliseconds` lines (under `-- Timers ---`); `type=TIMER, name=x, count=N, "
    "..., p99=N, mean_rate=N, rate_unit=events/second, duration_unit=milliseconds`; "
    '`{"version": "3.1.3", "gauges": .., "timers": {"x": {"p99": .., "m1_rate": ..}}}`',
    priority=14,
    trigger="|".join(part for part, _, _ in _TRIGGER_PARTS),
    trigger_parts=_TRIGGER_PARTS,
)

_LINE = (
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


_SECTIONS = {"HISTOGRAM": "Histograms", "METER": "Meters", "TIMER": "Timers"}
_RECORD = re.compile(
    r"type=(?P<type>TIMER|METER|HISTOGRAM),\s*name=(?P<name>[^,\s]+)"
    r"(?P<fields>(?:,\s*[A-Za-z]\w*=[^,\s]+)+)"
)
_FIELD = re.compile(r",\s*(?P<k>[A-Za-z]\w*)=(?P<v>[^,\s]+)")
# keys that are rates / durations (the rest are counts or, for histograms, unitless)
_KEY_KIND = re.compile(
    r"(?P<rate>mean_rate|m(?:1|5|15)(?:_rate)?)|(?P<duration>min|max|mean|stddev|median|p\d+)"
)


def _unit_of(key: str, kind: str, rate_unit: str | None, duration_unit: str | None):
    found = _KEY_KIND.fullmatch(key)
    if found and found.lastgroup == "rate":
        return rate_unit
    return duration_unit if found and kind == "TIMER" else None


def _metric_table(span, name: str, kind: str, rows) -> ResultTable | None:
    """One timer, meter or histogram: a row per (key, number as written, unit[, value])."""
    table = ResultTable(format=INFO.name, span=span, columns=["metric", "value", "unit"],
                        caption=name, variant=_SECTIONS[kind])  # fmt: skip
    for k, v, unit, *value in rows:
        table.add_row([k, v, unit or ""], numbers([(k, v, unit, *value)], name))
    return table if table.measurements else None


def _records(text: str) -> list[ResultTable]:
    """`type=TIMER, name=x, count=.., ...` records (Slf4jReporter and friends)."""
    tables = []
    for m in _RECORD.finditer(text):
        fields = [(f.group("k"), f.group("v")) for f in _FIELD.finditer(m.group("fields"))]
        units, kind = dict(fields), m["type"]
        rows = [
            (k, v, _unit_of(k, kind, units.get("rate_unit"), units.get("duration_unit")))
            for k, v in fields
            if k not in ("rate_unit", "duration_unit")
        ]
        if table := _metric_table(m.span(), m["name"], kind, rows):
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
        for kind, section in _SECTIONS.items():
            metrics = obj.get(section.lower())
            for name, fields in metrics.items() if isinstance(metrics, dict) else ():
                if not isinstance(fields, dict):
                    continue
                at = max(m.start(), text.find(f'"{name}"', m.start(), end))
                rate_unit = fields.get("rate_units") or fields.get("units")
                rows = [
                    (k, str(v), _unit_of(k.removesuffix("_rate") if k != "mean_rate" else k,
                                         kind, rate_unit, fields.get("duration_units")), float(v))
                    for k, v in fields.items()
                    if isinstance(v, (int, float)) and not isinstance(v, bool)
                ]  # fmt: skip
                # the whole object is one span; the first table carries it
                if table := _metric_table(
                    (m.start(), end) if first else (at, at), name, kind, rows
                ):
                    tables.append(table)
                first = False
    return tables


CONSOLE = Rows(
    row=_LINE,
    keep=_is_report,
    fields=lambda m: [(m["k"], m["v"], m["u"])],
    label=lambda m: None,
    cells=("k", "v", "u"),
    columns=("metric", "value", "unit"),
)


def parse(text: str) -> list[ResultTable]:
    return _json_reports(text) + _records(text) + _console(text)


def _console(text: str) -> list[ResultTable]:
    """The console blocks, named by the metric name above them (else the command that
    printed them, else the heading above), their section the variant."""
    tables = read(CONSOLE, text)
    floor = 0
    for table in tables:
        start = table.span[0]
        window = max(floor, start - 200)
        name = _NAME.search(text, window, start)
        label, head_pos = None, start
        if name and name.end() == start:
            label, head_pos = name.group("name"), name.start("name")
        elif (inline := _INLINE_NAME.search(text[window:start])) and window + inline.end() == start:
            label, head_pos = inline.group("name"), window + inline.start("name")
        section = last(_SECTION, text, floor, head_pos)
        table.variant = section["s"] if section else None
        if label is None:
            label = command_above(text, start, floor) or heading_above(text, start, floor)
        table.span, table.caption = (head_pos, table.span[1]), label
        for m in table.measurements:
            m.label = label
        floor = table.span[1]
    return tables
