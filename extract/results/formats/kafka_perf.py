"""Kafka's perf tools (tools/src/main/java/org/apache/kafka/tools/{ProducerPerformance,
ConsumerPerformance,EndToEndLatency}.java, core/src/test/scala/other/kafka/
TestLinearWriteSpeed.scala).

Producer (`kafka-producer-perf-test.sh`): lines `N records sent, X records/sec (Y
MB/sec), Z ms avg latency, W [ms ]max latency[, a ms 50th, b ms 95th, c ms 99th, d ms
99.9th].` The line with percentiles is the final summary (label `summary`; `summary,
run N` when a block holds several runs'), the others interval samples (`interval N`).
Metrics `records_sent`, `throughput` (records/sec and MB/sec), `avg_latency`,
`max_latency`, `p50_latency` ... `p99.9_latency` (ms).

Consumer (`kafka-consumer-perf-test.sh`): the header `start.time, end.time,
data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, ...` (or `time, threadId,
...` with --show-detailed-stats) and its `, `-separated rows. Metric = the column, unit
from it (`MB`, `MB/s`, `msg`, `msg/s`, `ms`); timestamps and thread ids are none; a
detailed row is `interval <time>` (plus ` thread <id>` when several threads report).

TestLinearWriteSpeed: the header `mb_sec avg_latency max_latency`, a row per interval
(`interval N`; `mb_sec` MB/s, latencies ms), then `22.21302268753944 MB per sec` (label
`summary`, metric `throughput`).

EndToEndLatency (`kafka-e2e-latency.sh`): `Avg latency: 1.8712 ms` then `Percentiles:
50th = 1, 99th = 4, 99.9th = 11` (label `end-to-end`, ms); the progress lines before it
are not read.

Variant = the heading before the block; the shell command that ran a producer test
belongs to its block. The producer's lines and the linear-write table are declared rows;
the consumer's rows are declared per header (`Rows.for_header`: a cell per column).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from extract.results.formats._layout import NUM, UNSIGNED, line_start
from extract.results.formats._rows import ADJACENT, Field, Rows, name_blocks, numbers, read
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="kafka-perf",
    description="Kafka producer/consumer perf test output",
    signature="`N records sent, X records/sec (Y MB/sec), Z ms avg latency, W ms max latency`; "
    "consumer CSV header `start.time, end.time, data.consumed.in.MB, MB.sec, ...`",
    priority=10,
    gutter=True,
    kind="result",
    trigger=r"(?-i:records\s+sent,|end\.time,|threadId,|mb_sec[ \t]+avg_latency"
    r"|Percentiles: 50th =)",
    needles=("sent,", "end.time,", "threadId,", "mb_sec", "Percentiles: "),
)

# The shell command that ran the tool (`$ bin/kafka-producer-perf-test.sh ...`), and
# EndToEndLatency's progress lines (`1000<TAB>1.19`): part of the output block.
_PROMPT_LINE = re.compile(r"[ \t]*(?:\[[^\]\n]*\][ \t]*)?[$#][ \t]+[^\n]*\n[ \t]*")
_E2E_PROGRESS = re.compile(rf"[ \t]*\d+\t{NUM}[ \t]*\n[ \t]*")


def _producer_labels(rows: list[re.Match]) -> list[str]:
    """`interval N` for a progress line; `summary` for the final one (`summary, run N`
    when a block holds several runs of the test, one after the other)."""
    summaries, labels, run, interval = sum(1 for m in rows if m["p50"]), [], 0, 0
    for m in rows:
        if m["p50"]:
            run += 1
            labels.append(f"summary, run {run}" if summaries > 1 else "summary")
        else:
            interval += 1
            labels.append(f"interval {interval}")
    return labels


_PRODUCER_FIELDS = (
    Field("records_sent", "sent", "records"),
    Field("throughput", "rps", "records/sec"),
    Field("throughput", "mbs", "MB/sec"),
    Field("avg_latency", "avg", "ms"),
    Field("max_latency", "max", "ms"),
    Field("p50_latency", "p50", "ms"),
    Field("p95_latency", "p95", "ms"),
    Field("p99_latency", "p99", "ms"),
    Field("p99.9_latency", "p999", "ms"),
)
PRODUCER = Rows(
    row=(
        rf"(?<!\d)(?P<sent>\d+)\s+records\s+sent,\s*(?P<rps>{NUM})\s+records/sec\s+"
        rf"\((?P<mbs>{NUM})\s+MB/sec\),\s*(?P<avg>{NUM})\s+ms\s+avg\s+latency,\s*"
        rf"(?P<max>{NUM})(?:\s+ms)?\s+max\s+latency(?:,\s*(?P<p50>{NUM})\s+ms\s+50th,\s*"
        rf"(?P<p95>{NUM})\s+ms\s+95th,\s*(?P<p99>{NUM})\s+ms\s+99th,\s*(?P<p999>{NUM})\s+ms"
        r"\s+99\.9th)?\.?"
    ),
    fields=_PRODUCER_FIELDS,
    labels=_producer_labels,
    columns=("sample", *(f"{f.metric} ({f.unit})" for f in _PRODUCER_FIELDS)),
    caption="kafka producer-perf-test",
)
LINEAR_WRITE = Rows(
    header=r"(?<![\w.])mb_sec[ \t]+avg_latency[ \t]+max_latency(?![\w.])",
    row=rf"\s+(?P<mbs>{NUM})[ \t]+(?P<avg>{NUM})[ \t]+(?P<max>{NUM})(?![\w.])(?!\s+MB per sec)",
    gap=ADJACENT,
    fields=(
        Field("mb_sec", "mbs", "MB/s"),
        Field("avg_latency", "avg", "ms"),
        Field("max_latency", "max", "ms"),
    ),  # fmt: skip
    labels=lambda rows: [f"interval {i + 1}" for i in range(len(rows))],
    columns=("sample", "mb_sec", "avg_latency", "max_latency"),
    caption="kafka TestLinearWriteSpeed",
    keep_empty=True,  # (a summary line alone is a table too)
)
_LINEAR_SUMMARY = re.compile(rf"\s+({UNSIGNED}) MB per sec\b")


def parse(text: str) -> list[ResultTable]:
    # (the producer's runs of summary lines opened by the command that ran them,
    # EndToEndLatency's summaries by their progress lines)
    producer = _opened(read(PRODUCER, text), text, _PROMPT_LINE.fullmatch)
    end_to_end = _opened(read(END_TO_END, text), text, _E2E_PROGRESS.fullmatch)
    return producer + read(CONSUMER, text) + _linear_write(text) + end_to_end


def _opened_by(text: str, start: int, floor: int, line: Callable) -> int:
    """`start` moved back over the whole lines just above it that `line` (a pattern's
    `fullmatch`: each line is read once) accepts."""
    while start > floor:
        above = line_start(text, start - 1)
        if above == start or above < floor or not line(text, above, start):
            break
        start = above
    return start


def _opened(tables: list[ResultTable], text: str, line: Callable) -> list[ResultTable]:
    """The tables, each opened by the lines above it that `line` accepts (not before
    the previous one's end), and named by the heading above that."""
    floor = 0
    for t in tables:
        t.span = (_opened_by(text, t.span[0], floor, line), t.span[1])
        floor = t.span[1]
    name_blocks(tables, text, "block")
    return tables


_CONSUMER_HEADER = re.compile(
    r"(?<![\w.])(?P<h>(?:start\.time|time),\s*(?:end\.time|threadId),\s*[A-Za-z][\w.]*"
    r"(?:,\s*[A-Za-z][\w.]*)+)"
)
# One cell of a data row: a `yyyy-MM-dd HH:mm:ss:SSS` timestamp or a number.
_CELL = rf"(?:\d{{4}}-\d\d-\d\d\s+\d\d:\d\d:\d\d:\d{{3}}|-?{NUM})"
# A column's unit from how its name ends (`fetch.MB.sec`, `data.consumed.in.nMsg`); the
# first column, `MB.sec` whole, too.
_CONSUMER_UNITS = {".MB.sec": "MB/s", "nMsg.sec": "msg/s", ".in.MB": "MB", ".in.nMsg": "msg",
                   ".ms": "ms"}  # fmt: skip


def _consumer_unit(column: str) -> str | None:
    if column == "MB.sec":
        return "MB/s"
    return next((unit for end, unit in _CONSUMER_UNITS.items() if column.endswith(end)), None)


def _cells(m: re.Match, label: str | None = None) -> list[str]:
    return [" ".join(c.split()) for c in m.group(1).split(",")]


def _consumer_rows(header: re.Match) -> Rows:
    """A consumer header's rows: a cell per column, on their own lines or after a space
    when the mail was flattened (from the first blank of a run: a header and a row end
    in no blank); --show-detailed-stats gives a row per interval (and thread, once
    several threads have reported)."""
    columns = [" ".join(c.split()) for c in header.group("h").split(",")]
    units = [_consumer_unit(c) for c in columns]

    def labels(rows: list[re.Match]) -> list[str | None]:
        out, threads = [], set()
        for cells in map(_cells, rows) if columns[0] == "time" else ():
            threads.add(cells[1])
            several = columns[1] == "threadId" and len(threads) > 1
            out.append(f"interval {cells[0].split(' ')[-1]}" + f" thread {cells[1]}" * several)
        return out or [None] * len(rows)

    return Rows(
        row=r"(?<!\s)\s+(" + r",\s*".join([_CELL] * len(columns)) + r")(?![\w.:])",
        fields=lambda m: [f for f in zip(columns, _cells(m), units, strict=False) if f[2]],
        labels=labels,
        cells=_cells,
        columns=columns,
        caption="kafka consumer-perf-test",
        gap=ADJACENT,
    )


CONSUMER = Rows(None, (), header=_CONSUMER_HEADER, for_header=_consumer_rows, heading="block")


def _linear_write(text: str) -> list[ResultTable]:
    """TestLinearWriteSpeed's interval rows, then its `N MB per sec` summary."""
    tables = read(LINEAR_WRITE, text)
    for t in tables:
        if summary := _LINEAR_SUMMARY.match(text, t.span[1]):
            written = summary.group(1)
            found = [("throughput", written, "MB per sec")]
            t.add_row(["summary", written, "", ""], numbers(found, "summary"))
            t.span = (t.span[0], summary.end())
    tables = [t for t in tables if t.rows]
    name_blocks(tables, text, "block")
    return tables


_E2E = (
    rf"(?:Avg latency: (?P<avg>{NUM}) ms\s+)?"
    rf"Percentiles: 50th = (?P<p50>\d+), 99th = (?P<p99>\d+), 99\.9th = (?P<p999>\d+)"
)
_E2E_FIELDS = (("avg", "avg_latency"), ("p50", "p50_latency"), ("p99", "p99_latency"),
               ("p999", "p99.9_latency"))  # fmt: skip
# EndToEndLatency's summary: a table of its own each (`gap` joins none)
END_TO_END = Rows(
    row=_E2E,
    gap=lambda between: False,
    fields=tuple(Field(metric, g, "ms") for g, metric in _E2E_FIELDS),
    label=lambda m: "end-to-end",
    cells=lambda m, label: [label, *(m[g] or "" for g, _ in _E2E_FIELDS)],
    columns=("sample", *(metric for _, metric in _E2E_FIELDS)),
    caption="kafka EndToEndLatency",
)
