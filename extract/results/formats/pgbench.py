"""PostgreSQL pgbench summaries, `--progress` lines and the `-i` log.

Recognises the summary lines of any version (`transaction type: <builtin: TPC-B (sort
of)>`, `scaling factor: 10`, ..., `latency average = 11.013 ms` (`:` before PG 9.6),
`tps = 85.18 (including connections establishing)` / `(excluding ...)` (<= PG13) /
`(without initial connection time)` (PG14+)), also flattened, indented or wrapped;
`progress: 5.0 s, 1234.5 tps, lat 8.1 ms stddev 2.3[, 0 failed][, lag 0.6 ms]...`
lines; `statement latencies in milliseconds:` lines (in line form only: flattened, the
statements' own numbers mix in); and the `pgbench -i` log ending `done in 1.04 s (drop
tables 0.00 s, ...)`. Parameter lines, the `pgbench (15.18 ...)` banner, `starting
vacuum...end.`, the `-i` step and `100000 of 200000 tuples (50%) done` lines belong to
the block without rows. A summary's variant is the heading above it, or the short
`name:` just before it on a flattened line; a `pgbench -c 4 ...` command line or the
banner is none.

Measurements: a summary's label is the transaction type (`pgbench` when not printed),
metrics its keys in snake case (`transactions_processed`, `latency_average`,
`initial_connection_time`, ...; `_pct` where printed), `tps_including_connections`,
`tps_excluding_connections` or `tps`; a progress line's label `progress <t> s`; a
statement's label the statement (`latency`, ms); the `-i` log's label `pgbench -i`,
metrics `init_total` and `init_<step>` (s).
"""

from __future__ import annotations

import re

from extract.results.formats._layout import NUM
from extract.results.formats._rows import ADJACENT, Field, Rows, name_blocks, numbers, read
from extract.results.formats.base import FormatInfo, ResultTable

# the steps of `pgbench -i` that its `done in 1.04 s (drop tables 0.00 s, ...)` line times
_STEPS = (
    r"drop tables|create tables|client-side generate|server-side generate|vacuum"
    r"|primary keys|foreign keys"
)

INFO = FormatInfo(
    name="pgbench",
    description="pgbench summaries",
    signature="`transaction type: <builtin: TPC-B (sort of)>`, `latency average = 11.013 ms`, "
    "`tps = 896.967014 (without initial connection time)`",
    priority=10,
    kind="result",
    trigger=r"(?-i:tps(?:[ \t]*=|,[ \t]*lat)|latency average|latency stddev"
    rf"|initial connection time|statement latencies in milliseconds|done in {NUM} s \((?:"
    + _STEPS
    + r") \d)",
    needles=(
        "tps ",
        "tps\t",
        "tps=",
        "tps,",
        "latency average",
        "latency stddev",
        "initial connection time",
        "statement latencies in milliseconds",
        "done in ",
    ),
)

_TTYPE = re.compile(r"transaction type:[ \t]*(?P<tt><[^>\n]*>|\S+)")
_PARAMS = re.compile(
    r"(?:scaling factor|query mode|number of clients|number of threads|maximum number of tries"
    r"|number of transactions per client|duration|maximum try duration|partition method"
    r"|partitions):[ \t]*(?:\S+(?:[ \t]+s\b)?)"
    # `pgbench (15.18 (Debian 15.18-0+deb12u1))`, `pgbench (16.1, server 15.4)`
    r"|(?P<banner>pgbench \(\d+(?:\.\d+)*(?:[^()\n]|\([^()\n]*\))*\))|starting vacuum\.\.\.end\."
)
_RESULTS = re.compile(
    rf"""(?P<key>number\ of\ transactions\ actually\ processed):[ \t]*(?P<v>\d+)(?:/(?P<of>\d+))?
      |(?P<key2>number\ of\ failed\ transactions|number\ of\ transactions\ retried
           |total\ number\ of\ retries|number\ of\ transactions\ skipped
           |number\ of\ transactions\ above\ the\ {NUM}\ ms\ latency\ limit)
         :[ \t]*(?P<v2>\d+)(?:/\d+)?(?:[ \t]*\((?P<pct>{NUM})[ \t]*%\))?
      |(?P<key3>latency\ average|latency\ stddev|initial\ connection\ time)
         [ \t]*[=:][ \t]*(?P<v3>{NUM})[ \t]*ms
      |rate\ limit\ schedule\ lag:[ \t]*avg[ \t]+(?P<lag>{NUM})
         [ \t]*\(max[ \t]+(?P<lagmax>{NUM})\)[ \t]*ms
      |tps[ \t]*=[ \t]*(?P<tps>{NUM})(?:[ \t]*\((?P<q>including|excluding|without)[^)\n]*\))?""",
    re.X,
)
# a shell command line or the banner above the output names no variant
_NOT_HEADING = re.compile(r"^\W{0,3}pgbench\s+-|pgbench \(\d+(?:\.\d+)*(?:[^()\n]|\([^()\n]*\))*\)")
# `pgbench -i`: its progress and step lines, then `done in 1.04 s (drop tables 0.00 s, ...)`
_INIT_STEP = re.compile(
    r"(?:dropping old tables|creating tables|generating data \([^()\n]*\)|vacuuming"
    rf"|creating primary keys|creating foreign keys)\.\.\.|(?<!\d)\d+ of \d+ tuples \({NUM}%\) done"
    rf"(?:[ \t]*\(elapsed {NUM} s, remaining {NUM} s\))?"
)
_INIT_DONE = re.compile(
    rf"done in (?P<t>{NUM}) s \((?P<steps>(?:(?:{_STEPS}) {NUM} s(?:,[ \t]*)?)+)\)\."
)
_INIT_PART = re.compile(rf"(?P<step>{_STEPS}) (?P<t>{NUM}) s")

PROGRESS = Rows(
    row=(
        rf"progress:[ \t]*(?P<t>{NUM})[ \t]*s,[ \t]*(?P<tps>{NUM})[ \t]*tps,"
        rf"[ \t]*lat[ \t]+(?P<lat>{NUM})[ \t]*ms[ \t]+stddev[ \t]+(?P<sd>{NUM})(?:[ \t]*ms)?"
        rf"(?:,[ \t]*(?P<failed>\d+)[ \t]+failed)?"
        rf"(?:,[ \t]*lag[ \t]+(?P<lag>{NUM})[ \t]*ms)?(?:,[ \t]*(?P<skipped>\d+)[ \t]+skipped)?"
        rf"(?:,[ \t]*(?P<retried>\d+)[ \t]+retried,[ \t]*(?P<retries>\d+)[ \t]+retries)?"
    ),
    fields=(
        Field("tps", "tps", "tx/s"),
        Field("latency", "lat", "ms"),
        Field("latency_stddev", "sd", "ms"),
        Field("failed", "failed", "count"),
        Field("lag", "lag", "ms"),
        Field("skipped", "skipped", "count"),
        Field("retried", "retried", "count"),
        Field("retries", "retries", "count"),
    ),
    label=lambda m: f"progress {m['t']} s",
    cells=("t", "tps", "lat", "sd"),
    columns=("time (s)", "tps", "lat (ms)", "stddev (ms)"),
)
# `statement latencies in milliseconds:` and its `  0.183  BEGIN;` lines (line mode only:
# when flattened, the statements' own numbers cannot be told from the latencies)
STATEMENTS = Rows(
    header=r"statement latencies in milliseconds(?: and failures)?:",
    row=r"\n[ \t]+(?P<ms>\d+\.\d+)(?:[ \t]+\d+)?[ \t]+(?P<stmt>[^\n]+)",
    gap=ADJACENT,
    fields=(Field("latency", "ms", "ms"),),
    label=lambda m: m["stmt"].strip(),
    cells=lambda m, statement: [m["ms"], statement],
    columns=("latency (ms)", "statement"),
    caption=lambda head: head[0],
)


def _summaries(text: str) -> list[ResultTable]:
    """One table per run of summary, parameter and banner lines with a tps or latency."""
    items = sorted(
        [*_TTYPE.finditer(text), *_PARAMS.finditer(text), *_RESULTS.finditer(text)],
        key=lambda m: m.start(),
    )
    clusters: list[list[re.Match]] = []
    last = -1
    for m in items:
        if clusters and m.start() >= last and not text[last : m.start()].strip():
            clusters[-1].append(m)
        else:
            clusters.append([m])
        last = max(last, m.end())
    tables = []
    for cl in clusters:
        results = [m for m in cl if m.re is _RESULTS]
        if not results or not any(m["tps"] or m["key3"] for m in results):
            continue  # a lone `number of ...:` line is not a pgbench summary
        if len(cl) < 2 and not results[0]["q"] and "pgbench" not in text:
            continue  # `tps = 1234` alone in prose is not pgbench output
        ttype = next((m["tt"] for m in cl if m.re is _TTYPE), None)
        label = ttype or "pgbench"
        table = ResultTable(
            INFO.name, (cl[0].start(), max(m.end() for m in cl)), ["field", "value", "unit"],
            caption=ttype,
        )  # fmt: skip
        for m in results:
            found = _result(m)
            cells = [
                m.group(0).split("=")[0].split(":")[0].strip(),
                " ".join(f"{v} {u}" for _, v, u in found),
            ]
            table.add_row(cells, numbers(found, label))
        tables.append(table)
    name_blocks(tables, text, "block", _NOT_HEADING)
    return tables


def _result(m: re.Match) -> list[tuple[str, str, str]]:
    if m["key"]:
        return [("transactions_processed", m["v"], "count")]
    if m["key2"]:
        if "latency limit" in m["key2"]:
            name = "transactions_above_latency_limit"
        else:
            name = m["key2"].removeprefix("number of ").replace(" ", "_")
        return [(name, m["v2"], "count")] + ([(f"{name}_pct", m["pct"], "%")] if m["pct"] else [])
    if m["key3"]:
        return [(m["key3"].replace(" ", "_"), m["v3"], "ms")]
    if m["lag"]:
        return [
            ("rate_limit_schedule_lag_avg", m["lag"], "ms"),
            ("rate_limit_schedule_lag_max", m["lagmax"], "ms"),
        ]
    q = {"including": "_including_connections", "excluding": "_excluding_connections"}
    return [("tps" + q.get(m["q"] or "", ""), m["tps"], "tx/s")]


def _init(text: str) -> list[ResultTable]:
    """The `pgbench -i` log: its step and progress lines (no rows) and the timings of
    `done in 1.04 s (drop tables 0.00 s, ...)`."""
    tables = []
    previous_end = 0
    for done in _INIT_DONE.finditer(text):
        first_step = _INIT_STEP.search(text, previous_end, done.start())
        start = min(done.start(), first_step.start()) if first_step else done.start()
        table = ResultTable(
            INFO.name, (start, done.end()), ["step", "time (s)"], caption="pgbench -i"
        )
        parts = [("total", done["t"]), *_INIT_PART.findall(done["steps"])]
        for step, t in parts:
            metric = "init_" + step.replace(" ", "_").replace("-", "_")
            table.add_row([step, t], numbers([(metric, t, "s")], "pgbench -i"))
        previous_end = done.end()
        tables.append(table)
    name_blocks(tables, text, "block", _NOT_HEADING)
    return tables


def parse(text: str) -> list[ResultTable]:
    return _summaries(text) + read(PROGRESS, text) + read(STATEMENTS, text) + _init(text)
