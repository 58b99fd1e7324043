"""pulsar-perf (Apache Pulsar's `bin/pulsar-perf produce|consume`) log records:
returns one `ResultTable` per run of consecutive records.

The tool logs one record (one line, wrapped here) every 10 s and aggregated stats at the end:

    00:12:00.464 [main] INFO  org.apache.pulsar.testclient.PerformanceProducer -
        Throughput produced: 194654.9  msg/s ---   1520.7 Mbit/s --- Latency: mean:  11.303 ms
        - med:   6.485 - 95pct:  45.137 - 99pct:  68.027 - 99.9pct:  92.922 - 99.99pct:  96.613
        - Max:  97.172
    ... Throughput produced:  875381 msg ---  87516.3 msg/s ---    683.7 Mbit/s --- failure
        0.0 msg/s --- Latency: mean: ...
    ... Throughput received: 4017.7 msg/s -- 31.4 Mbit/s --- Latency: mean: 5.2 ms - med: 5 ...
    ... Aggregated throughput stats --- 1000000 records sent --- 98034.5 msg/s --- 766.0 Mbit/s
    ... Aggregated latency stats --- Latency: mean: 5.870 ms - med: 4.950 - 95pct: 10.0 ...

Rows: label = `interval HH:MM:SS` (the record's time; `interval N` without one) or
`summary` for the aggregated stats; metrics `Messages` (msg, the running total),
`Records sent` (records), `Throughput` (msg/s and Mbit/s, as printed), `Failure rate`
(msg/s), `Latency mean|med|95pct|99pct|99.9pct|99.99pct|Max` (ms: the tool prints the
unit once, after the mean). Variant = the heading above the run (`1 thread:`).

Records are matched on the text itself, so a mail flattened onto one line reads the
same. Pure function; never raises.
"""

from __future__ import annotations

import re

from extract.results.formats._context import block_heading, measure
from extract.results.formats.base import FormatInfo, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="pulsar-perf",
    description="pulsar-perf producer/consumer throughput and latency log records",
    signature="`Throughput produced: N msg/s --- N Mbit/s --- Latency: mean: N ms - med: N - "
    "95pct: N ...`; `Aggregated throughput stats --- N records sent --- N msg/s`",
    priority=12,
    trigger=r"(?-i:Throughput (?:produced|received|acked)|Aggregated (?:throughput|latency) stats)",
    needles=("Throughput ", "Aggregated "),
)

_N = r"\d+(?:\.\d+)?"
# The optional log prefix carries the time that names the interval.
_PREFIX = (
    r"(?:(?P<time>\d\d:\d\d:\d\d)(?:[.,]\d+)?[ \t]+\[[^\]\n]*\][ \t]+INFO[ \t]+"
    r"[\w.$]*Performance\w*[ \t]+-[ \t]+)?"
)
_RECORD = re.compile(
    _PREFIX + r"(?P<kind>Throughput (?:produced|received|acked)|Aggregated throughput stats"
    r"|Aggregated latency stats)\b"
)
# One `---`-separated field of the throughput part.
_RATE = re.compile(
    rf"(?P<failure>failure\s+)?(?P<v>{_N})\s*(?P<u>records sent|msg/s|Mbit/s|msg)(?![\w/])"
)
_LATENCY = re.compile(rf"\b(?P<k>mean|med|\d+(?:\.\d+)?pct|Max):\s*(?P<v>{_N})(?:\s*ms\b)?")
_LATENCY_END = re.compile(rf"\s*-\s*Max:\s*{_N}")


def _record_end(text: str, rec: re.Match, next_start: int) -> int:
    """A record ends at the end of its line, before the next record, or after `Max: N`."""
    line_end = text.find("\n", rec.end())
    end = min(next_start, line_end if line_end >= 0 else len(text))
    body = text[rec.end() : end]
    ends = [m.end() for m in _LATENCY_END.finditer(body)]
    if ends:
        end = rec.end() + ends[-1]
    return end


def parse(text: str) -> list[ResultTable]:
    records = list(_RECORD.finditer(text))
    tables: list[ResultTable] = []
    floor = 0
    table: ResultTable | None = None
    for i, rec in enumerate(records):
        next_start = records[i + 1].start() if i + 1 < len(records) else len(text)
        end = _record_end(text, rec, next_start)
        body = text[rec.end() : end]
        if table is not None and text[table.span[1] : rec.start()].strip():
            floor = table.span[1]
            table = None
        if table is None:
            table = ResultTable(
                format=INFO.name,
                span=(rec.start(), end),
                columns=["interval", "metric", "value", "unit"],
                caption="pulsar-perf",
                variant=block_heading(text, rec.start(), floor),
            )
            tables.append(table)
        if rec.group("kind").startswith("Aggregated"):
            label = "summary"
        elif rec.group("time"):
            label = f"interval {rec.group('time')}"
        else:
            label = f"interval {1 + sum(1 for r in table.rows if r[0] != 'summary')}"
        throughput, _, latency = body.partition("Latency:")
        fields: list[tuple[str, str, str]] = []
        for part in throughput.split("--"):
            r = _RATE.search(part)
            if not r:
                continue
            unit = r.group("u")
            if unit == "records sent":
                fields.append(("Records sent", r.group("v"), "records"))
            elif unit == "msg":
                fields.append(("Messages", r.group("v"), "msg"))
            elif r.group("failure"):
                fields.append(("Failure rate", r.group("v"), unit))
            else:
                fields.append(("Throughput", r.group("v"), unit))
        for lat in _LATENCY.finditer(latency):
            fields.append((f"Latency {lat.group('k')}", lat.group("v"), "ms"))
        for metric, written, unit in fields:
            index = len(table.rows)
            table.rows.append([label, metric, written, unit])
            m = measure(metric, written, parse_number(written), unit, label=label, row=index)
            if m:
                table.measurements.append(m)
        table.span = (table.span[0], end)
    return [t for t in tables if t.measurements]
