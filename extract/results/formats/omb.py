"""OpenMessaging Benchmark (`openmessaging/benchmark`, the driver framework Pulsar,
Kafka and RocketMQ runs are compared on) WorkloadGenerator log records: returns one
`ResultTable` per run of consecutive records.

The framework logs one record (one line, wrapped here) every 10 s, and the
aggregated latencies when the test ends:

    10:41:12.115 [main] INFO WorkloadGenerator - Pub rate 49981.2 msg/s /  48.8 MB/s
        | Pub err     0.0 err/s | Cons rate 49979.8 msg/s /  48.8 MB/s | Backlog:  0.0 K
        | Pub Latency (ms) avg:  4.1 - 50%:  3.8 - 99%: 11.2 - 99.9%: 24.5 - Max: 61.0
        | Pub Delay Latency (us) avg: 62.3 - 50%: 58.0 - 99%: 140.0 - 99.9%: 410.0 - Max: 1903.0
    10:46:12.301 [main] INFO WorkloadGenerator - ----- Aggregated Pub Latency (ms) avg:  4.1
        - 50%:  3.8 - 95%:  7.2 - 99%: 11.0 - 99.9%: 23.7 - 99.99%: 48.2 - Max: 61.0
        | Pub Delay (us)  avg: 61.9 - 50%: 57.0 - 95%: 98.0 - ... - Max: 1903.0

Releases before April 2022 print no delay part, before September 2022 no `Pub err`,
and before August 2021 the throughput as `Mb/s`: the same number, MiB per second
(`bytes / 1024 / 1024`). Its numbers are written in the JVM's locale: `4,1` where
the comma is the decimal mark.
The log prefix is the framework's log4j2 pattern (`%d{HH:mm:ss.SSS} [%t] %-4level
%c{1} - `; without `%c{1}` before September 2022).

Rows: label = `interval HH:MM:SS` (the record's time; `interval N` without one) or
`summary` for the aggregated latencies; metrics `Pub rate`, `Cons rate` (msg/s), `Pub
throughput`, `Cons throughput` (MB/s), `Pub errors` (msg/s, role `error`), `Pub latency
avg|50%|95%|99%|99.9%|99.99%|Max` (ms) and `Pub delay avg|...` (µs), each in the unit
its part names; `Backlog` (msg, role `count`: the messages the consumers are behind,
printed in thousands) is the run's state, not a result. Variant = the heading above
the run (`Before:`).

Source: WorkloadGenerator's `printAndCollectStats` log statements and its
`PaddingDecimalFormat` (numbers padded with blanks), log4j2.yaml's pattern.

Declared as rows, a record each; since a record ends at its last `Max: N` (mail may
wrap it over lines), its fields are read from its match to that end, and a table is
made a row per number (as `pulsar_perf`).
"""

from __future__ import annotations

import re

from extract.results.formats._layout import last
from extract.results.formats._rows import log_records, read_records
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="omb",
    description="OpenMessaging Benchmark rate and latency log records",
    signature="`Pub rate N msg/s / N MB/s | ... | Pub Latency (ms) avg: N - 50%: N - ... "
    "- Max: N`; `----- Aggregated Pub Latency (ms) avg: N - ...`",
    priority=12,
    gutter=True,
    trigger=r"(?-i:Pub\s+rate\s|Aggregated\s+Pub\s+Latency)",
    needles=("Pub",),
)

# The optional log prefix carries the time that names the interval. The logger's name
# is in it since September 2022 (`%c{1}`; before, `INFO - Pub rate`); no time where
# slf4j-simple logged (it was on some modules' classpath until #305): `[main] INFO
# io.openmessaging.benchmark.WorkloadGenerator - Pub rate`.
_PREFIX = (
    r"(?:(?:(?P<time>\d\d:\d\d:\d\d)(?:[.,]\d+)?\s+)?\[[^\]\n]{0,80}\]\s+[A-Z]{4,5}\s+"
    r"(?:[\w.$]{1,120}\s+)?-\s+)?"
)
_RECORD = re.compile(
    # (a run of dashes is read from its first only, and whole: from each dash of a long
    # run the rest of it was read again)
    _PREFIX + r"(?:(?<!-)-{3,}+[ \t]*+)?(?P<kind>(?-i:Pub\s+rate|Aggregated\s+Pub\s+Latency))(?=\s)"
)
# One `|`-separated part of a record: a rate and a throughput, an error rate, or the
# latencies of one kind, in the unit the part names.
# A number as `DecimalFormat("0.0")` writes it in the JVM's locale: `4.1`, or `4,1` where
# the comma is the decimal mark (no grouping: a comma is never a thousands separator)
_NUM = r"-?\d++(?:[.,]\d++)?"
_RATES = re.compile(
    rf"(?P<who>Pub|Cons)\s+rate\s+(?P<rate>{_NUM})\s*msg/s(?:\s*/\s*(?P<tp>{_NUM})\s*M[bB]/s)?"
)
_ERRORS = re.compile(rf"Pub\s+err\s+(?P<v>{_NUM})\s*err/s")
_BACKLOG = re.compile(rf"Backlog:\s*(?P<v>{_NUM})\s*K\b")
_LATENCIES = re.compile(
    r"(?P<what>(?:Aggregated\s+)?Pub(?:\s+Delay)?(?:\s+Latency)?)\s*\((?P<unit>ms|us)\)"
)
# (a percentile from the first digit of its run only: from each digit of a long run the
# rest of it was read again)
_LATENCY = re.compile(rf"(?P<k>avg|(?<![\d.])\d++(?:\.\d++)?%|Max):\s*(?P<v>{_NUM})")
_LATENCY_END = re.compile(rf"-\s*Max:\s*{_NUM}")


def _record_end(text: str, pos: int, next_start: int) -> int:
    """Where the record whose kind ends at `pos` ends: after its last `Max: N` (also
    when a mail wrapped it over lines: not past a blank line or the next record), else
    at the end of its line."""
    para_end = text.find("\n\n", pos, next_start)
    limit = para_end if para_end >= 0 else next_start
    if latency_end := last(_LATENCY_END, text, pos, limit):
        return latency_end.end()
    line_end = text.find("\n", pos, next_start)
    return line_end if line_end >= 0 else next_start


def _end(text: str, pos: int) -> int:
    """The end of the record whose kind ends at `pos` (the next one starts after it)."""
    following = _RECORD.search(text, pos)
    return _record_end(text, pos, following.start() if following else len(text))


def _value(written: str) -> float:
    return float(written.replace(",", "."))


def _fields(m: re.Match):
    """A record's measurements: its rates, its errors, then its latencies."""
    text = m.string[m.start("kind") : _end(m.string, m.end())]
    for part in text.split("|"):
        if rates := _RATES.search(part):
            who = rates["who"]
            rate = rates["rate"]
            yield Measurement(f"{who} rate", _value(rate), "msg/s", written=rate)
            if tp := rates["tp"]:
                # (`Mb/s` before 2021: the same bytes / 1024 / 1024 a second)
                yield Measurement(f"{who} throughput", _value(tp), "MB/s", written=tp)
        elif errors := _ERRORS.search(part):
            v = errors["v"]
            yield Measurement("Pub errors", _value(v), "msg/s", written=v, role="error")
        elif backlog := _BACKLOG.search(part):
            v = backlog["v"]
            yield Measurement("Backlog", _value(v) * 1000, "msg", written=v, role="count")
        elif latencies := _LATENCIES.search(part):
            name = "Pub delay" if "Delay" in latencies["what"] else "Pub latency"
            unit = "µs" if latencies["unit"] == "us" else "ms"
            for lat in _LATENCY.finditer(part, latencies.end()):
                v = lat["v"]
                yield Measurement(f"{name} {lat['k']}", _value(v), unit, written=v)


ROWS = log_records(_RECORD, _fields, _record_end, "omb")


def parse(text: str) -> list[ResultTable]:
    return read_records(ROWS, text, _end)
