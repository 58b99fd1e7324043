"""cassandra-stress output (tools/stress .../report/StressMetrics.java; the 2.0 tool's
legacy output as documented): one table per results block or progress table.

Recognises
* the `Results:` block (2.1+): `Op rate : 409,767 op/s [insert: 273,166 op/s, ...]`,
  `Latency mean : 0.2 ms [...]`, `Total operation time : 02:00:00`, ... up to `END`
  (2.1-3.0 print no units: rates per second, latencies ms); the legacy (<= 2.0)
  `Averages from the middle 80% of values:` block;
* progress tables: header `type total ops, op/s, pk/s, row/s, mean, med, .95, ...` and
  rows `total, 43148, 42991, ...`; legacy `total,interval_op_rate,...,elapsed_time`;
  the summary of several runs, the same header after `id, ` (label `READ 4 threadCount`).

Measurements: a Results line gives metric = its key (`Op rate`), label `total` (the
operation, `insert`, for the bracketed breakdown), units as printed or by the key
(`02:00:00` → 7200 s). Progress rows: label `<type> @<time>s` (legacy `interval
<elapsed>s`), metrics `op rate`, `latency mean`, `latency p99`, ... Trailing ` | |` of
some pastes is ignored. Variant = the heading above the run, past the tool's own lines
(`Running WRITE with 64 threads ...`) and its progress rows. Progress rows are lines: a
flattened mail keeps only the `Results:` block.

The `Results:` block is declared rows; the progress tables are not: their columns come
from their header, a row is its comma-separated cells while they are as many and numbers.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import FENCE_MARK, JAVA, heading_above, run_matches
from extract.results.formats._rows import Rows, numbers, read
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="cassandra-stress",
    description="cassandra-stress results and progress tables",
    signature="`Results:` + `Op rate : N op/s [...]`, `Latency mean : X ms`, `Total operation "
    "time : hh:mm:ss`, `END`; progress header `type total ops, op/s, pk/s, row/s, mean, med, "
    ".95, .99, .999, max, time, ...`",
    priority=10,
    gutter=True,
    kind="result",
    trigger=r"(?-i:Results:|Averages from the middle|total ops,|interval_op_rate)",
    needles=("Results:", "Averages from the middle", "total ops,", "interval_op_rate"),
)

# The lookbehind keeps this linear on long runs of blanks (masked text).
_TRAILING_PIPES = re.compile(r"(?<![ \t])[ \t]*(?:\|[ \t]*)+$", re.M)
_BLOCK_START = r"(?<![\w:])(?:Results:|Averages from the middle 80% of values:)"
# `Key : value [unit] [per-operation breakdown]`, one per line or flattened onto one.
# (not `END`, which closes the block; the key from the start of its word: linear)
_KV = (
    r"(?<![\w.()%])(?!(?i:end)[ \t]*:)(?P<key>[A-Za-z][\w .()%]{0,40}?)"
    rf"[ \t]*:[ \t]*(?P<val>\d+:\d\d:\d\d|{JAVA})"
    r"(?:[ \t]*(?P<unit>op/s|pk/s|row/s|ms|seconds?|s|[KMG]i?B)(?![\w/]))?"
    r"(?:[ \t]*\[(?P<ops>[^\]\n]*)\])?(?![\w.:])"
)
_END = r"(?<!\s)\s*END\b"  # (from a row's end, not inside blanks: linear)
_STRESS_KEYS = re.compile(r"op rate|partition rate|total operation time|interval_op_rate")
_OP = re.compile(rf"(?P<op>[\w-]+)\s*:\s*(?P<val>{JAVA})(?:\s*(?P<unit>[A-Za-z/%]+))?")
# (_OP where a run of [\w-] starts: each run read once, by `_layout.run_matches`)
_OP_AT_RUN = re.compile(r"(?<![\w-])(?=[\w-])" + _OP.pattern)


# A key's unit when the tool prints none (2.1-3.0): by what the key holds, in this order.
_UNIT_BY_KEY = (
    ("op rate", "op/s"),
    ("interval_op_rate", "op/s"),
    ("partition rate", "pk/s"),
    ("key_rate", "pk/s"),
    ("row rate", "row/s"),
    ("operation time", "s"),
    ("(s)", "s"),
    ("latency", "ms"),
    ("(ms)", "ms"),
)


def _unit(key: str, written_unit: str | None) -> str:
    if written_unit:
        return {"seconds": "s", "second": "s"}.get(written_unit, written_unit)
    k = key.lower()
    said = next((unit for part, unit in _UNIT_BY_KEY if part in k), None)
    return said or ("MB" if k.endswith(" mb") else "count")


def parse(text: str) -> list[ResultTable]:
    # Some pastes end every line with ` | |`; blank it out without moving offsets.
    clean = _TRAILING_PIPES.sub(lambda m: " " * len(m.group()), text)
    tables: list[ResultTable] = []
    for reader in (_results, _progress):
        tables.extend(reader(clean))
    return tables


# What the tool prints around its tables: walked over to find the heading of a run.
_CHATTER = re.compile(
    rf"[ \t]*(?:{FENCE_MARK}"
    r"|(?:Running|Warming up|Sleeping|Created|Connected|Datacenter|Failed to connect|Thread count"
    r"|Improvement over|Insert|Writing|Reading)\b[^\n]*"
    r"|(?:[^\n,]*,)?[ \t]*type[ \t]+total ops,[^\n]*|total,interval_op_rate[^\n]*"
    r"|[\w .=-]*,[ \t]*[-+\d.,: \t]+|\|[ \t|]*)?[ \t]*"
)


def _run_heading(text: str, pos: int, floor: int) -> str | None:
    """The heading above the run whose output contains `pos`: progress tables and the
    tool's status lines (`Running WRITE with 64 threads ...`) are part of the run."""
    start = text.rfind("\n", 0, pos) + 1
    while start > floor:
        above = text.rfind("\n", 0, start - 1) + 1
        if above < floor or not _CHATTER.fullmatch(text, above, start - 1):
            break
        start = above
    return heading_above(text, max(start, floor), floor)


def _numbers(m: re.Match, label: str) -> list[Measurement]:
    """A `Results:` line's number, and those of its per-operation breakdown."""
    key, ops = m["key"].strip(), m["ops"] or ""
    found = numbers([(key, m["val"], _unit(key, m["unit"]))], label)
    for op in run_matches(ops, _OP.match, _OP_AT_RUN.search):
        found += numbers([(key, op["val"], _unit(key, op["unit"]))], op["op"])
    return found


def _results_rows(head: re.Match) -> Rows:
    """The lines of a `Results:` block (legacy: of its averages), up to its `END`."""
    label = "summary" if head[0].startswith("Averages") else "total"
    return Rows(
        row=_KV,
        fields=lambda m: _numbers(m, label),
        label=lambda m: label,
        cells=lambda m, _: [m["key"].strip(), m["val"], m["unit"] or "", m["ops"] or ""],
        columns=("key", "value", "unit", "per operation"),
        tail=_END,
    )


RESULTS = Rows(header=_BLOCK_START, row=None, fields=(), for_header=_results_rows)


def _results(text: str) -> list[ResultTable]:
    tables = []
    floor = 0
    for table in read(RESULTS, text):
        # `Results:` is a common word; the block must speak cassandra-stress
        if not _STRESS_KEYS.search(" ".join(row[0].lower() for row in table.rows)):
            continue
        ops = sorted({m.label for m in table.measurements} - {"total", "summary"})
        if ops:  # the operations the run did name the block (`WRITE`, `insert, singlepost`)
            table.caption = ", ".join(ops)
        table.variant = _run_heading(text, table.span[0], floor)
        floor = table.span[1]
        tables.append(table)
    return tables


# `StressMetrics.HEAD` (the summary of several runs, auto thread count, prefixes `id, `),
# or the legacy (2.0) header.
_PROGRESS_HEADER = re.compile(
    r"(?m)^[ \t]*(?:(?P<progress>(?:id,[ \t]*)?type[ \t]+total ops,[ \t]*op/s,[^\n]*?(?=\r?$))"
    r"|total,interval_op_rate,interval_key_rate,latency,95th,99\.9th,elapsed_time[ \t\r]*$)"
)
_PROGRESS_METRICS = {
    "total ops": ("total ops", "count"),
    "op/s": ("op rate", "op/s"),
    "pk/s": ("partition rate", "pk/s"),
    "row/s": ("row rate", "row/s"),
    "mean": ("latency mean", "ms"),
    "med": ("latency median", "ms"),
    ".95": ("latency p95", "ms"),
    ".99": ("latency p99", "ms"),
    ".999": ("latency p99.9", "ms"),
    "max": ("latency max", "ms"),
    "time": ("time", "s"),
    "errors": ("errors", "count"),
    "gc: #": ("gc count", "count"),
    "max ms": ("gc max", "ms"),
    "sum ms": ("gc sum", "ms"),
    "sdv ms": ("gc sdv", "ms"),
    "mb": ("gc mb", "MB"),
}

_LEGACY_METRICS = {
    "total": ("total", "count"),
    "interval_op_rate": ("interval_op_rate", "op/s"),
    "interval_key_rate": ("interval_key_rate", "pk/s"),
    "latency": ("latency median", "ms"),
    "95th": ("latency p95", "ms"),
    "99.9th": ("latency p99.9", "ms"),
    "elapsed_time": ("elapsed_time", "s"),
}


# A line under a progress header (a row while its cells are as many as the columns).
_LINE = re.compile(r"\r?\n[ \t]*(?P<row>[^\n]*)")


def _progress(text: str) -> list[ResultTable]:
    """The comma-separated rows under each progress header, while they have its columns
    and their cells past the names (type, id) are numbers."""
    tables = []
    for header in _PROGRESS_HEADER.finditer(text):
        head, names = header.group().strip(), 0  # (names: the cells before the numbers)
        if header["progress"]:
            ids = ["id"] if head.startswith("id,") else []
            head = re.sub(r"^id,[ \t]*", "", head)
            columns = ids + ["type"] + [c.strip() for c in head[4:].split(",")]
            metrics, time_column, names = _PROGRESS_METRICS, "time", len(ids) + 1
        else:
            columns, metrics, time_column = head.split(","), _LEGACY_METRICS, "elapsed_time"
        table = ResultTable(format=INFO.name, span=header.span(), columns=columns)
        while line := _LINE.match(text, table.span[1]):
            cells = [c.strip() for c in line["row"].split(",")]
            if len(cells) != len(columns) or not all(re.fullmatch(JAVA, c) for c in cells[names:]):
                break
            row = dict(zip(columns, cells, strict=False))
            if names == 2:  # one row per run and operation: `4 threadCount, READ, ...`
                label = f"{cells[1]} {cells[0]}"
            elif names == 1:
                label = f"{cells[0]} @{row.get(time_column, '?')}s"
            else:
                label = f"interval {row.get(time_column, '?')}s"
            found = [(metrics[c][0], w, metrics[c][1]) for c, w in row.items() if c in metrics]
            table.add_row(cells, numbers(found, label))
            table.span = (header.start(), line.end())
        if table.rows:
            table.variant = _run_heading(text, header.start(), 0)
            tables.append(table)
    return tables
