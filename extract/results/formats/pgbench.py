"""PostgreSQL pgbench summaries, `--progress` lines and the `-i` log.

Recognises the summary lines pgbench prints after a run, in any version (`transaction
type: <builtin: TPC-B (sort of)>`, `scaling factor: 10`, ..., `latency average = 11.013
ms` (`latency average: ...` before PG 9.6), `tps = 85.18 (including connections
establishing)` / `(excluding ...)` (<= PG13) / `(without initial connection time)`
(PG14+)), also when flattened onto one line, indented or hard-wrapped; progress lines
`progress: 5.0 s, 1234.5 tps, lat 8.1 ms stddev 2.3[, 0 failed][, lag 0.6 ms][, 1 skipped]
[, 2 retried, 3 retries]`; and the `pgbench -i` log ending `done in 1.04 s (drop tables
0.00 s, create tables 0.02 s, ...)`. Parameter lines (scaling factor, clients, threads,
duration), the `pgbench (15.18 ...)` banner and `starting vacuum...end.` are part of the
block but give no rows, so are the `-i` step and `100000 of 200000 tuples (50%) done`
lines. A summary's variant is the heading above it (`after:`), or the short `name:`
just before it when the mail flattened everything; a `pgbench -c 4 ...` command line or
the banner there is none.

Returns one ResultTable per summary. Measurements, label = the transaction type
(`<builtin: TPC-B (sort of)>`, a script name; `pgbench` when not printed):
`transactions_processed`, `failed_transactions`, `transactions_skipped`,
`transactions_retried`, `total_number_of_retries`, `transactions_above_latency_limit`
(count; with `_pct` in % where printed), `latency_average`, `latency_stddev`,
`initial_connection_time`, `rate_limit_schedule_lag_avg|max` (ms),
`tps_including_connections`, `tps_excluding_connections` or `tps` (unit `tx/s`);
progress lines give label `progress <t> s`, metrics `tps`, `latency`, `latency_stddev`,
`lag` (ms), `failed`, `skipped`, `retried`, `retries` (count);
`statement latencies in milliseconds:` lines give label = the statement, metric `latency`
(ms) - in line form only, since flattened statements mix their own numbers in (the
failures column of PG15 gives no rows); the `-i` log gives label `pgbench -i`, metrics
`init_total` and `init_<step>` (`init_drop_tables`, `init_client_side_generate`, ...; s).
"""

from __future__ import annotations

import re

from extract.results.formats._layout import heading_above, runs
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

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
    r"|initial connection time|statement latencies in milliseconds|done in \d+(?:\.\d+)? s \((?:"
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

_NUM = r"\d+(?:\.\d+)?"
_TTYPE = re.compile(r"transaction type:[ \t]*(?P<tt><[^>\n]*>|\S+)")
_PARAMS = re.compile(
    r"(?:scaling factor|query mode|number of clients|number of threads|maximum number of tries"
    r"|number of transactions per client|duration|maximum try duration|partition method"
    r"|partitions):[ \t]*(?:\S+(?:[ \t]+s\b)?)"
)
_RESULTS = re.compile(
    rf"""(?P<key>number\ of\ transactions\ actually\ processed):[ \t]*(?P<v>\d+)(?:/(?P<of>\d+))?
      |(?P<key2>number\ of\ failed\ transactions|number\ of\ transactions\ retried
           |total\ number\ of\ retries|number\ of\ transactions\ skipped
           |number\ of\ transactions\ above\ the\ [\d.]+\ ms\ latency\ limit)
         :[ \t]*(?P<v2>\d+)(?:/\d+)?(?:[ \t]*\((?P<pct>{_NUM})[ \t]*%\))?
      |(?P<key3>latency\ average|latency\ stddev|initial\ connection\ time)
         [ \t]*[=:][ \t]*(?P<v3>{_NUM})[ \t]*ms
      |rate\ limit\ schedule\ lag:[ \t]*avg[ \t]+(?P<lag>{_NUM})
         [ \t]*\(max[ \t]+(?P<lagmax>{_NUM})\)[ \t]*ms
      |tps[ \t]*=[ \t]*(?P<tps>{_NUM})(?:[ \t]*\((?P<q>including|excluding|without)[^)\n]*\))?""",
    re.X,
)
_PROGRESS = re.compile(
    rf"progress:[ \t]*(?P<t>{_NUM})[ \t]*s,[ \t]*(?P<tps>{_NUM})[ \t]*tps,"
    rf"[ \t]*lat[ \t]+(?P<lat>{_NUM})"
    rf"[ \t]*ms[ \t]+stddev[ \t]+(?P<sd>{_NUM})(?:[ \t]*ms)?(?:,[ \t]*(?P<failed>\d+)[ \t]+failed)?"
    rf"(?:,[ \t]*lag[ \t]+(?P<lag>{_NUM})[ \t]*ms)?(?:,[ \t]*(?P<skipped>\d+)[ \t]+skipped)?"
    rf"(?:,[ \t]*(?P<retried>\d+)[ \t]+retried,[ \t]*(?P<retries>\d+)[ \t]+retries)?"
)
_STATEMENTS = re.compile(r"statement latencies in milliseconds(?: and failures)?:")
# one line per script statement: latency [failures] statement (line mode only: when
# flattened, the statements' own numbers cannot be told from the latencies)
_STATEMENT_LINE = re.compile(r"\n[ \t]+(?P<ms>\d+\.\d+)(?:[ \t]+\d+)?[ \t]+(?P<stmt>[^\n]+)")
# `pgbench (15.18 (Debian 15.18-0+deb12u1))`, `pgbench (16.1, server 15.4)`
_BANNER = re.compile(r"pgbench \(\d+(?:\.\d+)*(?:[^()\n]|\([^()\n]*\))*\)")
_VACUUM = re.compile(r"starting vacuum\.\.\.end\.")
_GAP = re.compile(r"\s*")
# a shell command line above the output (`$ pgbench -c 4 -T 60 bench`) names no variant
_COMMAND = re.compile(r"^\W{0,3}pgbench\s+-")
# `pgbench -i`: its progress and step lines, then `done in 1.04 s (drop tables 0.00 s, ...)`
_INIT_STEP = re.compile(
    r"(?:dropping old tables|creating tables|generating data \([^)\n]*\)|vacuuming"
    r"|creating primary keys|creating foreign keys)\.\.\.|\d+ of \d+ tuples \([\d.]+%\) done"
    r"(?:[ \t]*\(elapsed [\d.]+ s, remaining [\d.]+ s\))?"
)
_INIT_DONE = re.compile(
    rf"done in (?P<t>{_NUM}) s \((?P<steps>(?:(?:{_STEPS}) {_NUM} s(?:,[ \t]*)?)+)\)\."
)
_INIT_PART = re.compile(rf"(?P<step>{_STEPS}) (?P<t>{_NUM}) s")


def _summaries(text: str) -> list[ResultTable]:
    items = sorted(
        [(m.start(), m.end(), "type", m) for m in _TTYPE.finditer(text)]
        + [(m.start(), m.end(), "param", m) for m in _PARAMS.finditer(text)]
        + [(m.start(), m.end(), "param", m) for m in _BANNER.finditer(text)]
        + [(m.start(), m.end(), "param", m) for m in _VACUUM.finditer(text)]
        + [(m.start(), m.end(), "result", m) for m in _RESULTS.finditer(text)],
        key=lambda t: t[0],
    )
    clusters: list[list[tuple]] = []
    last = -1
    for it in items:
        if clusters and it[0] >= last and _GAP.fullmatch(text, last, it[0]):
            clusters[-1].append(it)
        else:
            clusters.append([it])
        last = max(last, it[1])
    tables = []
    previous_end = 0
    for cl in clusters:
        results = [m for _, _, kind, m in cl if kind == "result"]
        if not results or not any(m["tps"] or m["key3"] for m in results):
            continue  # a lone `number of ...:` line is not a pgbench summary
        if len(cl) < 2 and not results[0]["q"] and "pgbench" not in text:
            continue  # `tps = 1234` alone in prose is not pgbench output
        ttype = next((m["tt"] for _, _, kind, m in cl if kind == "type"), None)
        label = ttype or "pgbench"
        start = cl[0][0]
        table = ResultTable(
            format=INFO.name,
            span=(start, max(e for _, e, _, _ in cl)),
            columns=["field", "value", "unit"],
            caption=ttype,
            variant=_variant(text, start, previous_end),
        )
        previous_end = table.span[1]
        for i, m in enumerate(results):
            for metric, value, unit in _result(m):
                table.measurements.append(
                    Measurement(metric, float(value), unit, label, None, value, i)
                )
            table.rows.append([m.group(0).split("=")[0].split(":")[0].strip(), *_cells(m)])
        tables.append(table)
    return tables


def _variant(text: str, start: int, previous_end: int) -> str | None:
    """The heading of a summary: the line above it (`after:`), or, when the mail put
    everything on one line, the short `name:` just before it; not a command or banner."""
    heading = heading_above(text, start, previous_end)
    if heading and (_COMMAND.match(heading) or _BANNER.search(heading)):
        return None
    return heading


def _result(m: re.Match) -> list[tuple[str, str, str]]:
    if m["key"]:
        return [("transactions_processed", m["v"], "count")]
    if m["key2"]:
        if "latency limit" in m["key2"]:
            name = "transactions_above_latency_limit"
        else:
            name = re.sub(r"^number of ", "", m["key2"]).replace(" ", "_")
        out = [(name, m["v2"], "count")]
        if m["pct"]:
            out.append((f"{name}_pct", m["pct"], "%"))
        return out
    if m["key3"]:
        return [(m["key3"].replace(" ", "_"), m["v3"], "ms")]
    if m["lag"]:
        return [
            ("rate_limit_schedule_lag_avg", m["lag"], "ms"),
            ("rate_limit_schedule_lag_max", m["lagmax"], "ms"),
        ]
    metric = {
        "including": "tps_including_connections",
        "excluding": "tps_excluding_connections",
    }.get(m["q"] or "", "tps")
    return [(metric, m["tps"], "tx/s")]


def _cells(m: re.Match) -> list[str]:
    return [" ".join(f"{v} {u}" for _, v, u in _result(m))]


_PROGRESS_EXTRA = (
    ("failed", "failed", "count"),
    ("lag", "lag", "ms"),
    ("skipped", "skipped", "count"),
    ("retried", "retried", "count"),
    ("retries", "retries", "count"),
)


def _init(text: str) -> list[ResultTable]:
    """The `pgbench -i` log: its step and progress lines (no rows) and the timings of
    `done in 1.04 s (drop tables 0.00 s, ...)`."""
    tables = []
    previous_end = 0
    for done in _INIT_DONE.finditer(text):
        start = done.start()
        for step in _INIT_STEP.finditer(text, previous_end, start):
            start = min(start, step.start())
            break
        label = "pgbench -i"
        table = ResultTable(
            format=INFO.name,
            span=(start, done.end()),
            columns=["step", "time (s)"],
            caption=label,
            variant=_variant(text, start, previous_end),
        )
        table.add_row(
            ["total", done["t"]],
            [Measurement("init_total", float(done["t"]), "s", label, None, done["t"])],  # fmt: skip
        )
        for part in _INIT_PART.finditer(done["steps"]):
            metric = "init_" + part["step"].replace(" ", "_").replace("-", "_")
            table.add_row(
                [part["step"], part["t"]],
                [Measurement(metric, float(part["t"]), "s", label, None, part["t"])],
            )
        previous_end = done.end()
        tables.append(table)
    return tables


def _progress(text: str) -> list[ResultTable]:
    groups = runs(_PROGRESS, text)
    tables = []
    for rows in groups:
        t = ResultTable(format=INFO.name, span=(rows[0].start(), rows[-1].end()),
                        columns=["time (s)", "tps", "lat (ms)", "stddev (ms)"])  # fmt: skip
        for i, m in enumerate(rows):
            label = f"progress {m['t']} s"
            t.rows.append([m["t"], m["tps"], m["lat"], m["sd"]])
            t.measurements += [
                Measurement("tps", float(m["tps"]), "tx/s", label, None, m["tps"], i),
                Measurement("latency", float(m["lat"]), "ms", label, None, m["lat"], i),
                Measurement("latency_stddev", float(m["sd"]), "ms", label, None, m["sd"], i),
            ]
            for key, metric, unit in _PROGRESS_EXTRA:
                if m[key] is not None:
                    t.measurements.append(
                        Measurement(metric, float(m[key]), unit, label, None, m[key], i)
                    )
        tables.append(t)
    return tables


def _statements(text: str) -> list[ResultTable]:
    """`statement latencies in milliseconds:` and its `  0.183  BEGIN;` lines."""
    tables = []
    for head in _STATEMENTS.finditer(text):
        table = ResultTable(
            format=INFO.name,
            span=head.span(),
            columns=["latency (ms)", "statement"],
            caption=head[0],
        )
        pos = head.end()
        while (line := _STATEMENT_LINE.match(text, pos)) is not None:
            statement = line["stmt"].strip()
            row = len(table.rows)
            table.rows.append([line["ms"], statement])
            table.measurements.append(Measurement("latency", float(line["ms"]), "ms", statement,
                                                  None, line["ms"], row))  # fmt: skip
            pos = line.end()
            table.span = (head.start(), pos)
        if table.rows:
            tables.append(table)
    return tables


def parse(text: str) -> list[ResultTable]:
    tables = _summaries(text) + _progress(text) + _statements(text) + _init(text)
    return tables
