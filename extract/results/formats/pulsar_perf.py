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

The log prefix is log4j2's (`09:33:20.976 [main] INFO  org.apache.pulsar.testclient.
PerformanceProducer - ` or with an ISO date and offset, `2023-03-07T08:11:20,518+0000 ...`).
Rows: label = `interval HH:MM:SS` (the record's time; `interval N` without one) or
`summary` for the aggregated stats; metrics `Messages` (msg, the running total),
`Records sent` / `Records received` (records), `Throughput` (msg/s and Mbit/s, as
printed), `Failure rate` (msg/s), `Latency mean|med|95pct|99pct|99.9pct|99.99pct|Max`
(ms: the tool prints the unit once, after the mean). Variant = the heading above the
run (`1 thread:`).

Records are matched on the text itself, so a mail flattened onto one line reads the
same, and a record wrapped over lines ends at its `Max: N`.

Source: pulsar-testclient PerformanceProducer / PerformanceConsumer log statements (the
repository was too large to fetch here; written from their documented output).

Declared as rows, a record each (its kind and log prefix); since a record ends at its
last `Max:` (mail may wrap it over lines), its fields are read from its match to that
end, the gap between two is what follows it, and a table is made a row per number.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import NUM, last
from extract.results.formats._rows import log_records, read_records
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="pulsar-perf",
    description="pulsar-perf producer/consumer throughput and latency log records",
    signature="`Throughput produced: N msg/s --- N Mbit/s --- Latency: mean: N ms - med: N - "
    "95pct: N ...`; `Aggregated throughput stats --- N records sent --- N msg/s`",
    priority=12,
    gutter=True,
    trigger=r"(?-i:Throughput\s+(?:produced|received|acked)|Aggregated\s+(?:throughput|latency)\s+stats)",
    needles=("Throughput", "Aggregated"),
)

# The optional log prefix carries the time that names the interval.
# (log4j2 `%d{ISO8601_OFFSET_DATE_TIME_HHMM}` or `%d{HH:mm:ss.SSS}`, thread, level, logger)
_PREFIX = (
    r"(?:(?:\d{4}-\d\d-\d\d[T ])?(?P<time>\d\d:\d\d:\d\d)(?:[.,]\d+)?(?:[+-]\d\d:?\d\d|Z)?"
    r"\s+\[[^\]\n]*\]\s+(?:INFO|WARN)\s+[\w.$]*Performance\w*\s+-\s+)?"
)
_RECORD = re.compile(
    _PREFIX + r"(?P<kind>Throughput\s+(?:produced|received|acked)|Aggregated\s+throughput\s+stats"
    r"|Aggregated\s+latency\s+stats)\b"
)
# One `---`-separated field of the throughput part.
_RATE = re.compile(
    # (a number is tried from the first digit of its run: a later start fails where it does)
    rf"(?P<failure>failure\s+)?(?<!\d)(?P<v>{NUM})\s*(?P<u>records\s+(?:sent|received)|msg/s|Mbit/s|msg)"
    r"(?![\w/])"
)
_LATENCY = re.compile(rf"\b(?P<k>mean|med|{NUM}pct|Max):\s*(?P<v>{NUM})(?:\s*ms\b)?")
_LATENCY_END = re.compile(rf"-\s*Max:\s*{NUM}")
_CONTINUED = re.compile(r"\r?\n[ \t]*--+[ \t][^\n]*")


def _record_end(text: str, pos: int, next_start: int) -> int:
    """Where the record whose kind ends at `pos` ends: after its `Max: N` (also when a
    mail wrapped it over lines: not past a blank line or the next record), else at the
    end of its line."""
    line_end = text.find("\n", pos, next_start)
    line_end = line_end if line_end >= 0 else next_start
    para_end = text.find("\n\n", pos, next_start)
    limit = para_end if para_end >= 0 else next_start
    if latency_end := last(_LATENCY_END, text, pos, limit):
        return latency_end.end()
    # no latency part: the line, and lines a mail wrapped it onto (they start with `---`)
    while line_end < next_start:
        more = _CONTINUED.match(text, line_end, next_start)
        if not more:
            break
        line_end = more.end()
    return line_end


def _end(text: str, pos: int) -> int:
    """The end of the record whose kind ends at `pos` (the next one starts after it)."""
    following = _RECORD.search(text, pos)
    return _record_end(text, pos, following.start() if following else len(text))


def _fields(m: re.Match):
    """A record's `---`-separated throughput fields, then its latencies."""
    throughput, _, latency = m.string[m.end() : _end(m.string, m.end())].partition("Latency:")
    for r in filter(None, map(_RATE.search, throughput.split("--"))):
        unit = " ".join(r["u"].split())
        metric = "Failure rate" if r["failure"] else "Throughput"
        if unit.startswith("records "):  # (`records sent`: metric `Records sent`)
            metric, unit = unit.capitalize(), "records"
        elif unit == "msg":
            metric = "Messages"
        yield metric, r["v"], unit
    yield from ((f"Latency {lat['k']}", lat["v"], "ms") for lat in _LATENCY.finditer(latency))


ROWS = log_records(_RECORD, _fields, _record_end, "pulsar-perf")


def parse(text: str) -> list[ResultTable]:
    return read_records(ROWS, text, _end)
