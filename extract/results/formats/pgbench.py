"""PostgreSQL pgbench summaries and `--progress` lines.

Recognises the summary lines pgbench prints after a run, in any version (`transaction
type: <builtin: TPC-B (sort of)>`, `scaling factor: 10`, ..., `latency average = 11.013
ms` (`latency average: ...` before PG 9.6), `tps = 85.18 (including connections
establishing)` / `(excluding ...)` (<= PG13) / `(without initial connection time)`
(PG14+)), also when flattened onto one line, and progress lines `progress: 5.0 s, 1234.5
tps, lat 8.1 ms stddev 2.3`. Parameter lines (scaling factor, clients, threads, duration)
are part of the block but give no rows.

Returns one ResultTable per summary. Measurements, label = the transaction type
(`<builtin: TPC-B (sort of)>`, a script name; `pgbench` when not printed):
`transactions_processed` and `failed_transactions` (count; `failed_transactions_pct` in
%), `latency_average`, `latency_stddev`, `initial_connection_time` (ms),
`tps_including_connections`, `tps_excluding_connections` or `tps` (unit `tx/s`);
progress lines give label `progress <t> s`, metrics `tps`, `latency`, `latency_stddev`;
`statement latencies in milliseconds:` lines give label = the statement, metric `latency`
(ms) - in line form only, since flattened statements mix their own numbers in.
"""

from __future__ import annotations

import re

from extract.results.formats.base import FormatInfo, Measurement, ResultTable, heading_before

INFO = FormatInfo(
    name="pgbench",
    description="pgbench summaries",
    signature="`transaction type: <builtin: TPC-B (sort of)>`, `latency average = 11.013 ms`, "
    "`tps = 896.967014 (without initial connection time)`",
    priority=10,
    kind="result",
    trigger=r"(?-i:tps(?:[ \t]*=|,[ \t]*lat)|latency average|latency stddev"
    r"|initial connection time|statement latencies in milliseconds)",
    needles=(
        "tps ",
        "tps\t",
        "tps=",
        "tps,",
        "latency average",
        "latency stddev",
        "initial connection time",
        "statement latencies in milliseconds",
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
         :[ \t]*(?P<v2>\d+)(?:/\d+)?(?:[ \t]*\((?P<pct>{_NUM})%\))?
      |(?P<key3>latency\ average|latency\ stddev|initial\ connection\ time)
         [ \t]*[=:][ \t]*(?P<v3>{_NUM})[ \t]*ms
      |tps[ \t]*=[ \t]*(?P<tps>{_NUM})(?:[ \t]*\((?P<q>including|excluding|without)[^)\n]*\))?""",
    re.X,
)
_PROGRESS = re.compile(
    rf"progress:[ \t]*(?P<t>{_NUM})[ \t]*s,[ \t]*(?P<tps>{_NUM})[ \t]*tps,"
    rf"[ \t]*lat[ \t]+(?P<lat>{_NUM})"
    rf"[ \t]*ms[ \t]+stddev[ \t]+(?P<sd>{_NUM})(?:[ \t]*ms)?(?:,[ \t]*\d+[ \t]+failed)?"
)
_STATEMENTS = re.compile(r"statement latencies in milliseconds(?: and failures)?:")
# one line per script statement: latency [failures] statement (line mode only: when
# flattened, the statements' own numbers cannot be told from the latencies)
_STATEMENT_LINE = re.compile(r"\n[ \t]+(?P<ms>\d+\.\d+)(?:[ \t]+\d+)?[ \t]+(?P<stmt>[^\n]+)")
_GAP = re.compile(r"\s*(?:pgbench \([\d.]+\)\s*|starting vacuum\.\.\.end\.\s*)*")


def _summaries(text: str) -> list[ResultTable]:
    items = sorted(
        [(m.start(), m.end(), "type", m) for m in _TTYPE.finditer(text)]
        + [(m.start(), m.end(), "param", m) for m in _PARAMS.finditer(text)]
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
            variant=heading_before(text, start),
        )
        for i, m in enumerate(results):
            for metric, value, unit in _result(m):
                table.measurements.append(
                    Measurement(metric, float(value), unit, label, None, value, i)
                )
            table.rows.append([m.group(0).split("=")[0].split(":")[0].strip(), *_cells(m)])
        tables.append(table)
    return tables


def _result(m: re.Match) -> list[tuple[str, str, str]]:
    if m["key"]:
        return [("transactions_processed", m["v"], "count")]
    if m["key2"]:
        name = re.sub(r"^number of |\.", "", m["key2"]).replace(" ", "_")
        name = {"failed_transactions": "failed_transactions"}.get(name, name)
        out = [(name, m["v2"], "count")]
        if m["pct"]:
            out.append((f"{name}_pct", m["pct"], "%"))
        return out
    if m["key3"]:
        return [(m["key3"].replace(" ", "_"), m["v3"], "ms")]
    metric = {
        "including": "tps_including_connections",
        "excluding": "tps_excluding_connections",
    }.get(m["q"] or "", "tps")
    return [(metric, m["tps"], "tx/s")]


def _cells(m: re.Match) -> list[str]:
    return [" ".join(f"{v} {u}" for _, v, u in _result(m))]


def _progress(text: str) -> list[ResultTable]:
    groups: list[list[re.Match]] = []
    last = -1
    for m in _PROGRESS.finditer(text):
        if groups and not text[last : m.start()].strip():
            groups[-1].append(m)
        else:
            groups.append([m])
        last = m.end()
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
    tables = _summaries(text) + _progress(text) + _statements(text)
    return sorted(tables, key=lambda t: t.span)
