"""Kafka's perf tools: returns one table per block of producer lines and one per
consumer CSV block.

Producer (`kafka-producer-perf-test.sh`, `ProducerPerformance`): lines
`N records sent, X records/sec (Y MB/sec), Z ms avg latency, W [ms ]max latency[, a ms
50th, b ms 95th, c ms 99th, d ms 99.9th].` The line with percentiles is the final
summary (label `summary`; `summary, run N` when a block holds several runs'
summaries); the others are interval samples (label `interval N`, counted within the
block). Metrics `records_sent` (records), `throughput`
(records/sec and MB/sec, as printed), `avg_latency`, `max_latency`, `p50_latency`,
`p95_latency`, `p99_latency`, `p99.9_latency` (ms).

Consumer (`kafka-consumer-perf-test.sh`): the header `start.time, end.time,
data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms,
fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec` (or `time, threadId, ...` with
--show-detailed-stats) and its `, `-separated data rows. Metric = the column name;
unit from it: `MB`, `MB/s`, `msg`, `msg/s`, `ms`. Timestamps and thread ids are not
measurements; rows of `--show-detailed-stats` are labelled `interval <time>` (plus
` thread <id>` when several threads report). Variant = the heading before the block
(`old`, `new`); the shell command that ran a producer test is part of its block.

TestLinearWriteSpeed (`kafka-run-class.sh kafka.TestLinearWriteSpeed`, the disk write
test): the header `mb_sec avg_latency max_latency`, one row of three numbers per
reporting interval (label `interval N`; metrics `mb_sec` (MB/s), `avg_latency` and
`max_latency` (ms)), then `22.21302268753944 MB per sec` (label `summary`, metric
`throughput`, unit `MB per sec` as printed). Variant = the heading before the block.

EndToEndLatency (`kafka-e2e-latency.sh`, `EndToEndLatency.printResults`): `Avg latency:
1.8712 ms` then `Percentiles: 50th = 1, 99th = 4, 99.9th = 11` (label `end-to-end`;
metrics `avg_latency`, `p50_latency`, `p99_latency`, `p99.9_latency`, unit `ms`). The
progress lines before it (`1000<TAB>1.52`: message index, one latency) are not read.

Sources: tools/src/main/java/org/apache/kafka/tools/{ProducerPerformance,
ConsumerPerformance,EndToEndLatency}.java, core/src/test/scala/other/kafka/
TestLinearWriteSpeed.scala.

Not declared as rows: four tools print four shapes (producer summaries and progress, the
consumer's CSV with its header, the linear-write table, end-to-end latency lines), each
named by the command line above it.
"""

from __future__ import annotations

import re

from extract.results.formats._context import measure
from extract.results.formats._layout import NUM, heading_above, runs
from extract.results.formats.base import FormatInfo, ResultTable
from extract.results.units import parse_number

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

_PRODUCER = re.compile(
    rf"(?<!\d)(?P<sent>\d+)\s+records\s+sent,\s*(?P<rps>{NUM})\s+records/sec\s+\((?P<mbs>{NUM})\s+MB/sec\),\s*"
    rf"(?P<avg>{NUM})\s+ms\s+avg\s+latency,\s*(?P<max>{NUM})(?:\s+ms)?\s+max\s+latency"
    rf"(?:,\s*(?P<p50>{NUM})\s+ms\s+50th,\s*(?P<p95>{NUM})\s+ms\s+95th,\s*(?P<p99>{NUM})\s+ms\s+99th"
    rf",\s*(?P<p999>{NUM})\s+ms\s+99\.9th)?\.?"
)
_PRODUCER_FIELDS = [
    ("sent", "records_sent", "records"),
    ("rps", "throughput", "records/sec"),
    ("mbs", "throughput", "MB/sec"),
    ("avg", "avg_latency", "ms"),
    ("max", "max_latency", "ms"),
    ("p50", "p50_latency", "ms"),
    ("p95", "p95_latency", "ms"),
    ("p99", "p99_latency", "ms"),
    ("p999", "p99.9_latency", "ms"),
]
_CONSUMER_HEADER = re.compile(
    r"(?<![\w.])(?P<h>(?:start\.time|time),\s*(?:end\.time|threadId),\s*[A-Za-z][\w.]*"
    r"(?:,\s*[A-Za-z][\w.]*)+)"
)
# One cell of a data row: a `yyyy-MM-dd HH:mm:ss:SSS` timestamp or a number.
_CELL = rf"(?:\d{{4}}-\d\d-\d\d\s+\d\d:\d\d:\d\d:\d{{3}}|-?{NUM})"
_CONSUMER_UNITS = [
    (re.compile(r"(?:^|\.)MB\.sec$"), "MB/s"),
    (re.compile(r"nMsg\.sec$"), "msg/s"),
    (re.compile(r"\.in\.MB$"), "MB"),
    (re.compile(r"\.in\.nMsg$"), "msg"),
    (re.compile(r"\.ms$"), "ms"),
]


def parse(text: str) -> list[ResultTable]:
    tables: list[ResultTable] = []
    for reader in (_producer, _consumer, _linear_write, _end_to_end):
        tables.extend(reader(text))
    return tables


# The shell command that ran the tool (`$ bin/kafka-producer-perf-test.sh ...`), and
# EndToEndLatency's progress lines (`1000<TAB>1.19`): part of the output block.
_PROMPT_LINE = re.compile(r"[ \t]*(?:\[[^\]\n]*\][ \t]*)?[$#][ \t]+[^\n]*\n[ \t]*")
_E2E_PROGRESS = re.compile(rf"[ \t]*\d+\t{NUM}[ \t]*\n[ \t]*")


def _opened_by(text: str, start: int, floor: int, line: re.Pattern) -> int:
    """`start` moved back over the whole lines just above it that match `line`."""
    while start > floor:
        line_start = text.rfind("\n", 0, max(start - 1, 0))
        line_start = 0 if line_start < 0 else line_start + 1
        if line_start == start or line_start < floor:
            break
        if not line.fullmatch(text, line_start, start):
            break
        start = line_start
    return start


def _producer(text: str) -> list[ResultTable]:
    groups = runs(_PRODUCER, text)
    tables = []
    floor = 0
    for group in groups:
        start = _opened_by(text, group[0].start(), floor, _PROMPT_LINE)
        table = ResultTable(
            format=INFO.name,
            span=(start, group[-1].end()),
            columns=["sample"] + [f"{metric} ({unit})" for _, metric, unit in _PRODUCER_FIELDS],
            caption="kafka producer-perf-test",
            variant=heading_above(text, start, floor),
        )
        interval = 0
        # several summaries in one block are several runs of the test, one after the other
        n_runs = sum(1 for m in group if m.group("p50"))
        run = 0
        for i, m in enumerate(group):
            if m.group("p50"):
                run += 1
                label = f"summary, run {run}" if n_runs > 1 else "summary"
            else:
                interval += 1
                label = f"interval {interval}"
            table.rows.append([label] + [m.group(g) or "" for g, _, _ in _PRODUCER_FIELDS])
            for g, metric, unit in _PRODUCER_FIELDS:
                if m.group(g):
                    meas = measure(
                        metric, m.group(g), parse_number(m.group(g)), unit, label=label, row=i
                    )
                    if meas:
                        table.measurements.append(meas)
        floor = group[-1].end()
        tables.append(table)
    return tables


def _consumer_unit(column: str) -> str | None:
    for pattern, unit in _CONSUMER_UNITS:
        if pattern.search(column):
            return unit
    return None


def _consumer(text: str) -> list[ResultTable]:
    tables = []
    floor = 0
    for header in _CONSUMER_HEADER.finditer(text):
        columns = [" ".join(c.split()) for c in header.group("h").split(",")]
        table = ResultTable(
            format=INFO.name,
            span=header.span(),
            columns=columns,
            caption="kafka consumer-perf-test",
        )
        # rows follow on their own lines, or after a space when the mail was flattened
        row_re = re.compile(r"\s+(" + r",\s*".join([_CELL] * len(columns)) + r")(?![\w.:])")
        pos = header.end()
        while True:
            row = row_re.match(text, pos)
            if not row:
                break
            cells = [" ".join(c.split()) for c in row.group(1).split(",")]
            index = len(table.rows)
            table.rows.append(cells)
            # --show-detailed-stats: one row per reporting interval (and thread)
            label = None
            if columns[0] == "time":
                label = f"interval {cells[0].split(' ')[-1]}"
                if columns[1] == "threadId" and len({r[1] for r in table.rows}) > 1:
                    label += f" thread {cells[1]}"
            for column, written in zip(columns, cells, strict=False):
                unit = _consumer_unit(column)
                if unit is None:
                    continue
                meas = measure(column, written, parse_number(written), unit, label=label, row=index)
                if meas:
                    table.measurements.append(meas)
            pos = row.end()
            table.span = (header.start(), pos)
        if table.rows:
            table.variant = heading_above(text, header.start(), floor)
            floor = table.span[1]
            tables.append(table)
    return tables


_LINEAR_HEADER = re.compile(r"(?<![\w.])mb_sec[ \t]+avg_latency[ \t]+max_latency(?![\w.])")
_LINEAR_ROW = re.compile(rf"\s+({NUM})[ \t]+({NUM})[ \t]+({NUM})(?![\w.])(?!\s+MB per sec)")
_LINEAR_SUMMARY = re.compile(rf"\s+({NUM}(?:[eE][-+]?\d+)?) MB per sec\b")


def _linear_write(text: str) -> list[ResultTable]:
    tables = []
    floor = 0
    for header in _LINEAR_HEADER.finditer(text):
        if header.start() < floor:
            continue
        table = ResultTable(
            format=INFO.name,
            span=header.span(),
            columns=["sample", "mb_sec", "avg_latency", "max_latency"],
            caption="kafka TestLinearWriteSpeed",
            variant=heading_above(text, header.start(), floor),
        )
        pos = header.end()
        units = [("mb_sec", "MB/s"), ("avg_latency", "ms"), ("max_latency", "ms")]
        while row := _LINEAR_ROW.match(text, pos):
            pos = row.end()
            index = len(table.rows)
            label = f"interval {index + 1}"
            table.rows.append([label, *row.groups()])
            for (metric, unit), written in zip(units, row.groups(), strict=True):
                m = measure(metric, written, parse_number(written), unit, label=label, row=index)
                if m:
                    table.measurements.append(m)
        summary = _LINEAR_SUMMARY.match(text, pos)
        if summary:
            pos = summary.end()
            written = summary.group(1)
            table.rows.append(["summary", written, "", ""])
            m = measure(
                "throughput", written, parse_number(written), "MB per sec",
                label="summary", row=len(table.rows) - 1,
            )  # fmt: skip
            if m:
                table.measurements.append(m)
        if table.rows:
            table.span = (header.start(), pos)
            floor = pos
            tables.append(table)
    return tables


_E2E = re.compile(
    rf"(?:Avg latency: (?P<avg>{NUM}) ms\s+)?"
    rf"Percentiles: 50th = (?P<p50>\d+), 99th = (?P<p99>\d+), 99\.9th = (?P<p999>\d+)"
)


def _end_to_end(text: str) -> list[ResultTable]:
    tables = []
    floor = 0
    for m in _E2E.finditer(text):
        start = _opened_by(text, m.start(), floor, _E2E_PROGRESS)
        table = ResultTable(
            format=INFO.name,
            span=(start, m.end()),
            columns=["sample", "avg_latency", "p50_latency", "p99_latency", "p99.9_latency"],
            caption="kafka EndToEndLatency",
            variant=heading_above(text, start, floor),
        )
        fields = [
            ("avg", "avg_latency"),
            ("p50", "p50_latency"),
            ("p99", "p99_latency"),
            ("p999", "p99.9_latency"),
        ]
        table.rows.append(["end-to-end"] + [m.group(g) or "" for g, _ in fields])
        for group, metric in fields:
            written = m.group(group)
            if written is None:
                continue
            meas = measure(metric, written, parse_number(written), "ms", label="end-to-end", row=0)
            if meas:
                table.measurements.append(meas)
        floor = m.end()
        tables.append(table)
    return tables
