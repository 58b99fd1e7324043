"""Google Benchmark console tables, tools/compare.py output and the JSON / CSV exports.

Recognises rows `name  <t> <unit>  <t> <unit>  <iterations> [counters]` (with or without
the `Benchmark  Time  CPU  Iterations [UserCounters...]` header and its rules, also
flattened onto one line), the compare.py table under `Benchmark  Time  CPU  Time Old
Time New  CPU Old  CPU New` (with its U-test rows `BM_x_pvalue  0.0286  0.0286  U Test,
Repetitions: 4 vs 4`), and the exports of `--benchmark_format=json` (`"context"`,
`"benchmarks"`) and `=csv` (`name,iterations,real_time,cpu_time,time_unit,...`).

Measurements, label = the benchmark; variant = the heading line before the table:
- console rows: `time`, `cpu` (unit as printed), `iterations` (count), one per counter
  `k=v`: IEC byte rates become `GiB/s`, other rates keep their suffix (`13.4684G/s`,
  also 1.7's `bytes_per_second=10.3G/s` though it counts in 1024s), plain counters get
  their SI suffix applied (`1024m` → 1.024); the old bare rate `211.669MB/s` is
  `bytes_per_second`;
- compare.py rows: `time_change`, `cpu_change` (`fraction`) and `time_old` ... `cpu_new`
  in the unit of that benchmark's console row printed before (`OVERALL_GEOMEAN`: the
  changes only, its times are rounded to 0); `_pvalue` rows `time_pvalue`, `cpu_pvalue`.
  `_old` / `_new` are the `before` / `after` sides of `time` and `cpu`;
- JSON / CSV: `time`, `cpu` (in `time_unit`), `iterations`, and every other number of
  the run by its name (`bytes_per_second` `B/s`, `items_per_second` `/s`); the `_cv`
  aggregate's fractions (`"aggregate_unit": "percentage"`) in `fraction`. Runs that
  report an error give nothing.

Not declared as rows: a console row's counters vary per row (`name=value` with SI
suffixes), rows group under headers with context lines between, and compare.py's table
and the exports are separate readers.
"""

from __future__ import annotations

import csv
import re

from extract.results.formats._layout import FLOAT, NUM, NUM_END, UNSIGNED, json_at, overlaps, runs
from extract.results.formats._rows import Rows, chatter, json_numbers, name_blocks, numbers, read
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

# After `s` or `%` (the end of a row's name or a time): two times or percentages.
_TIMES = rf"\s+{UNSIGNED}\s*(?:[nuµμm]?s|%)\s+\d"

INFO = FormatInfo(
    name="google-benchmark",
    description="Google Benchmark console tables and compare.py output",
    signature="`Benchmark  Time  CPU  Iterations [UserCounters...]` with rows "
    "`name  19.5 us  19.5 us  35854 bytes_per_second=50.2Gi/s`; compare.py "
    "`Time Old  Time New  CPU Old  CPU New` tables",
    priority=10,
    kind="result",
    trigger=rf"(?-i:[s%Tr])(?:(?<=T)ime Old|(?<=[s%]){_TIMES}|(?<=r)eal_time\W)",
    # one part per first character: a regex that starts with a literal is searched
    # fast, one that starts with a class (`[s%T]`) is not
    trigger_parts=(
        (r"(?-i:T)ime Old", (), ("me old",)),
        (rf"(?-i:s){_TIMES}", (), ()),
        (rf"(?-i:%){_TIMES}", ("%",), ()),
        (r"(?-i:r)eal_time\W", ("real_time",), ()),
    ),
)

_TUNIT = r"(?:ns|us|µs|μs|ms|s|%)"  # `%`: the `_cv` aggregate row of --benchmark_repetitions
_HEADER = re.compile(r"Benchmark[ \t]+Time[ \t]+CPU[ \t]+Iterations(?:[ \t]+UserCounters\.{3})?")
_CMP_HEADER = r"Benchmark[ \t]+Time[ \t]+CPU[ \t]+Time Old[ \t]+Time New[ \t]+CPU Old[ \t]+CPU New"
_RULE = re.compile(r"-{10,}")
_ROW = re.compile(
    rf"""(?<!\S)(?P<name>[A-Za-z_][^\s]*)[ \t]+  # \s below: JIRA mail wraps long rows
        (?P<time>{FLOAT})\s*(?P<tu>{_TUNIT})\s+
        (?P<cpu>{FLOAT})\s*(?P<cu>{_TUNIT})\s+
        (?P<iters>\d+)
        (?P<counters>(?:\s+[\w.]+=\S+|[ \t]+(?:{FLOAT}[kMGT]?i?B/s|{FLOAT}[kMGT]?\ items/s))*)
        (?:[ \t]+(?P<extra>[^\s=]+)(?=[ \t]*(?:\n|$)))?""",
    re.X,
)
_CMP_ROW = re.compile(
    rf"""(?<!\S)(?P<name>[A-Za-z_][^\s]*)[ \t]+
        (?P<tc>[-+]?{FLOAT})[ \t]+(?P<cc>[-+]?{FLOAT})[ \t]+
        (?:(?P<to>{FLOAT})[ \t]+(?P<tn>{FLOAT})[ \t]+(?P<co>{FLOAT})[ \t]+(?P<cn>{FLOAT})(?=\s|$)
          |(?P<utest>U\ Test,\ Repetitions:\ \d+\ vs\ \d+\.?[^\n]*))""",
    re.X,
)
_CONTEXT = re.compile(
    rf"""Run\ on\ \(\d+\ X\ {NUM}\ MHz\ CPUs?\ ?s?\)
      |CPU\ Caches:(?:\s+L\d\ (?:Data|Instruction|Unified)\ {NUM}\ [KMG]i?B\ \(x\d+\))*
      |Load\ Average:\ {NUM}(?:,\ {NUM})*{NUM_END}
      |(?m:^\d{{4}}-\d{{2}}-\d{{2}}[T\ ][\d:]+(?:[+-]\d{{2}}:\d{{2}})?[ \t]*$)
      |\*{{3}}WARNING\*{{3}}\ [^\n]*""",
    re.X,
)
_SI = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "m": 1e-3, "u": 1e-6,
       "n": 1e-9}  # fmt: skip
_COUNTER_VALUE = re.compile(rf"(?P<num>[-+]?{FLOAT})(?P<si>[kKMGTmun]?)(?P<iec>i?)(?P<rest>\S*)")


def _counter(name: str, raw: str) -> tuple[float, str] | None:
    """(value, unit) of a counter value as Google Benchmark prints it."""
    m = _COUNTER_VALUE.fullmatch(raw)
    if not m:
        return None
    num = float(m.group("num"))
    si, iec, rest = m.group("si"), m.group("iec"), m.group("rest")
    if rest == "/s":
        # bytes_per_second=50.17Gi/s: IEC prefixes are byte rates. (Before 1.8 the byte
        # rate, always counted in 1024s, was printed without the `i`, `10.3G/s`: that
        # keeps its unit as printed, `G/s`, as the labelled corpus reads it.)
        if iec:
            return num, f"{si.upper()}iB/s"
        return num, f"{si}/s"
    if rest or iec:
        return num, f"{si}{iec}{rest}"
    return num * _SI[si], ""


def _is_noise_only(gap: str) -> bool:
    """True when the text between two rows is only whitespace, rules and headers."""
    rest = _RULE.sub("", _HEADER.sub("", gap))
    return not rest.strip(" \t\n`")


def _console_tables(text: str) -> list[ResultTable]:
    headers = [m.start() for m in _HEADER.finditer(text)]
    tables = []
    for rows in runs(_ROW, text, _is_noise_only):
        start, end = rows[0].start(), rows[-1].end()
        header = next((h for h in reversed(headers) if h < start), None)
        if header is not None and _is_noise_only(text[header:start]):
            rule_before = re.search(r"-{10,}[ \t]*\n?[ \t]*$", text[:header])
            start = rule_before.start() if rule_before else header
        elif len(rows) < 2 and not headers:
            continue  # a lone headerless row could be prose
        table = ResultTable(
            format=INFO.name,
            span=(start, end),
            columns=["Benchmark", "Time", "CPU", "Iterations", "UserCounters"],
        )
        for r in rows:
            name, counters = r["name"], r["counters"].split()
            time, cpu = f"{r['time']} {r['tu']}", f"{r['cpu']} {r['cu']}"
            ms = numbers([("time", time, r["tu"], float(r["time"])),
                          ("cpu", cpu, r["cu"], float(r["cpu"])),
                          ("iterations", r["iters"], "count")], name)  # fmt: skip
            for tok in counters:
                key, sep, raw = tok.partition("=")
                if not sep:  # old style `211.669MB/s`: the bytes rate, `12M items/s`
                    key, raw = (
                        ("bytes_per_second" if tok.endswith("B/s") else "items_per_second"),
                        tok,
                    )
                parsed = _counter(key, raw.replace(" items", ""))
                if parsed:
                    ms.append(Measurement(key, parsed[0], parsed[1], name, None, raw))
            counters += [r["extra"]] if r["extra"] else []
            table.add_row([name, time, cpu, r["iters"], " ".join(counters)], ms)
        tables.append(table)
    return tables


def _compare_fields(m: re.Match, units: dict[str, str]):
    """A compare.py row's changes, and its old and new times in the unit of the console
    row of that benchmark printed before the table; a U-test row's p-values."""
    name = m["name"]
    fields = [("time_change", "tc", "fraction"), ("cpu_change", "cc", "fraction")]
    if m["utest"]:
        fields = [("time_pvalue", "tc", None), ("cpu_pvalue", "cc", None)]
    elif name != "OVERALL_GEOMEAN":  # (its times are seconds printed as `0`)
        unit = units.get(name) or units.get(_AGGREGATE.sub("", name))
        fields += [("time_old", "to", unit), ("time_new", "tn", unit),
                   ("cpu_old", "co", unit), ("cpu_new", "cn", unit)]  # fmt: skip
    # (what only looks like a number, `--12`, gives none)
    for meas in numbers([(metric, m[key], u) for metric, key, u in fields], name):
        quantity, _, run = meas.metric.rpartition("_")
        if run in ("old", "new"):  # the sides (extract.results.comparisons)
            meas.side = "before" if run == "old" else "after"
            meas.side_name, meas.quantity = run, quantity
        yield meas


def _compare_rows(head: re.Match) -> Rows:
    text = head.string
    units = {m["name"]: m["tu"] for m in _ROW.finditer(text, 0, head.start())}
    line = text[: head.start()].rstrip().rsplit("\n", 1)[-1].strip()
    return Rows(
        row=_CMP_ROW,
        gap=_CMP_GAP,
        fields=lambda m: _compare_fields(m, units),
        label="name",
        cells=lambda m, name: (
            [name, m["tc"], m["cc"], m["utest"], "", "", ""]
            if m["utest"]
            else [name, m["tc"], m["cc"], m["to"], m["tn"], m["co"], m["cn"]]
        ),
        columns=("Benchmark", "Time", "CPU", "Time Old", "Time New", "CPU Old", "CPU New"),
        caption=line if line.startswith("Comparing ") else None,
    )


_CMP_GAP = r"\s*(?:-{10,}\s*)?"  # (rules between the rows)
COMPARE = Rows(header=_CMP_HEADER, row=None, fields=(), for_header=_compare_rows)
_AGGREGATE = re.compile(r"_(?:mean|median|stddev|cv|pvalue|BigO|RMS)$")


_NOT_HEADING = re.compile(
    r"^(?:Run on |CPU Caches|L\d |Load Average|Running |RUNNING: |\*{3}WARNING|\d{4}-\d\d-\d\d)"
)


def _names_nothing(heading: str) -> bool:
    """Whether the line above a table is the run's context or a row."""
    return bool(_NOT_HEADING.match(heading) or _ROW.search(heading) or _CMP_ROW.search(heading))


_JSON_START = re.compile(r'\{\s*"(?:context|benchmarks)"\s*:')
_CSV_HEADER = re.compile(
    r"^[ \t]*name,iterations,real_time,cpu_time,time_unit(?P<rest>(?:,[^\n]*)?)\r?$", re.M
)
_CSV_ROW = re.compile(r"\n[ \t]*(\"[^\"\n]*\",[^\n]*?)\r?(?=\n|$)")
_STANDARD = {"real_time", "cpu_time", "iterations", "repetitions", "repetition_index", "threads",
             "family_index", "per_family_instance_index"}  # fmt: skip
_JSON_UNITS = {"bytes_per_second": "B/s", "items_per_second": "/s"}


def _export_row(table: ResultTable, name: str, fields: dict, fraction: bool = False) -> None:
    """One run of a JSON or CSV export: its times, iterations and other numbers."""
    unit = "fraction" if fraction else str(fields.get("time_unit") or "") or None
    found = [
        ("time", fields.get("real_time"), unit),
        ("cpu", fields.get("cpu_time"), unit),
        ("iterations", fields.get("iterations"), "count"),
    ]
    for key, value in fields.items():
        if key not in _STANDARD:
            found.append((key, value, "fraction" if fraction else _JSON_UNITS.get(key, "")))
    ms = json_numbers(found, name)
    table.add_row([name, *(m.written or "" for m in ms)], ms)


def _json_tables(text: str) -> list[ResultTable]:
    tables, done = [], 0
    for m in _JSON_START.finditer(text):
        if m.start() < done or (found := json_at(text, m.start())) is None:
            continue
        data, end = found
        runs = data.get("benchmarks") if isinstance(data, dict) else None
        if not isinstance(runs, list):
            continue
        table = ResultTable(
            format=INFO.name,
            span=(m.start(), end),
            columns=["name", "time", "cpu", "iterations", "counters"],
        )
        for run in runs:
            if not isinstance(run, dict) or not isinstance(run.get("name"), str):
                continue
            if run.get("error_occurred"):
                continue
            fields = {k: v for k, v in run.items() if k not in ("aggregate_unit",)}
            _export_row(table, run["name"], fields, run.get("aggregate_unit") == "percentage")
        tables.append(table)
        done = end
    return tables


def _csv_tables(text: str) -> list[ResultTable]:
    tables = []
    for h in _CSV_HEADER.finditer(text):
        names = [c.strip().strip('"') for c in h.group(0).strip().split(",")]
        table = ResultTable(format=INFO.name, span=h.span(), columns=names)
        pos = h.end()
        while row := _CSV_ROW.match(text, pos):
            cells = next(csv.reader([row.group(1)]))
            if len(cells) != len(names):
                break
            pos = row.end()
            table.span = (h.start(), pos)
            fields: dict = dict(zip(names, cells, strict=True))
            if fields.get("error_occurred", "").strip().lower() == "true":
                continue
            for key, cell in list(fields.items()):
                if key in ("name", "time_unit", "label", "error_occurred", "error_message"):
                    continue
                try:
                    fields[key] = float(cell) if cell.strip() else None
                except ValueError:
                    fields[key] = None
            _export_row(table, fields.pop("name"), fields)
        tables.append(table)
    return tables


def parse(text: str) -> list[ResultTable]:
    def free(found: list[ResultTable], taken: list[ResultTable]) -> list[ResultTable]:
        return [t for t in found if not overlaps(t.span, [u.span for u in taken])]

    exports = _json_tables(text)
    exports += free(_csv_tables(text), exports)
    compare = free(read(COMPARE, text), exports)
    console = free(_console_tables(text), compare + exports)
    name_blocks(exports + console, text, "line", _names_nothing)  # (a comparison: none)
    tables = exports + compare + console
    if tables:
        tables += chatter(_CONTEXT, text, tables)  # the run's context: CPU, caches, load, date
    return tables
