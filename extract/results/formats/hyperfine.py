"""hyperfine: terminal output and `--export-markdown` tables.

Recognises `Benchmark 1: <command>` followed by `Time (mean ± σ): 410.3 ms ± 19.9 ms
[User: 173.7 ms, System: 1314.5 ms]` (single run: `Time (abs ≡):`) and `Range (min …
max): 389.7 ms … 452.1 ms  10 runs`; the `Summary` block (`'a' ran  1.02 ± 0.06 times
faster than 'b'`); and the markdown export `| Command | Mean [s] | Min [s] | Max [s] |
Relative |` with cells `2.275 ± 0.046`.

Measurements: label = the command; metrics `mean`, `stddev`, `user`, `system`, `min`,
`max` with the unit printed next to each value (export: from the header), `runs`
(count), `relative` (unit `x`) and, from the summary, `times faster than <command>`
(unit `x`) with its `stddev`. The terminal blocks also read when flattened onto one
line (GitBox mail).
"""

from __future__ import annotations

import re

from extract.results.formats._grid import dedupe
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="hyperfine",
    description="hyperfine 'Time (mean ± σ)' blocks and markdown exports",
    signature=(
        "'Benchmark N: <cmd>' + 'Time (mean ± σ): X ms ± Y ms' + 'Range (min … max):'; "
        "'Summary ... times faster than'; '| Command | Mean [s] | Min [s] | Max [s] | Relative |'"
    ),
    priority=10,
    kind="result",
    trigger=r"(?-i:\((?:mean ± σ|abs ≡)\)|times (?:faster|slower) than|Mean \[)",
    needles=("(mean ± σ)", "(abs ≡)", "times faster than", "times slower than", "Mean ["),
)

_N = r"[\d.]+"
_U = r"(?:ns|µs|μs|us|ms|s)"
_BLOCK = re.compile(
    rf"Benchmark(?: #?\d+)?:[ \t]*(?P<cmd>[^\n]{{1,300}}?)\s+"
    rf"Time \((?:mean ± σ|abs ≡)\):\s*(?P<mean>{_N})\s*(?P<mu>{_U})"
    rf"(?:\s*±\s*(?P<sd>{_N})\s*(?P<su>{_U}))?"
    rf"(?:\s*\[User:\s*(?P<user>{_N})\s*(?P<uu>{_U}),\s*System:\s*(?P<sys>{_N})\s*(?P<yu>{_U})\])?"
    rf"(?:\s*Range \(min … max\):\s*(?P<min>{_N})\s*(?P<minu>{_U})\s*…\s*(?P<max>{_N})\s*"
    rf"(?P<maxu>{_U})(?:\s*(?P<runs>\d+) runs)?)?"
)
_SUMMARY = re.compile(
    r"Summary\s+(?:'(?P<q1>[^'\n]+)'|(?P<p1>[^\n']+?)) ran(?P<rest>(?:\s+"
    rf"{_N}(?:\s*±\s*{_N})? times (?:faster|slower) than (?:'[^'\n]+'|[^\s']+))+)"
)
_VS = re.compile(
    rf"(?P<x>{_N})(?:\s*±\s*(?P<sd>{_N}))? times (?P<dir>faster|slower) than "
    r"(?:'(?P<q>[^'\n]+)'|(?P<p>[^\s']+))"
)
_EXPORT_HEADER = re.compile(
    r"\|\s*Command\s*\|\s*Mean \[(?P<unit>\w+)\]\s*\|\s*Min \[\w+\]\s*\|\s*Max \[\w+\]\s*\|"
    r"\s*Relative\s*\|\s*\|(?:[ \t]*:?-+:?[ \t]*\|)+"
)
_EXPORT_ROW = re.compile(r"\s*\|" + r"([^|\n]*)\|" * 5)


def _m(metric, written, unit, label, row) -> Measurement:
    return Measurement(metric, float(written), unit, label, None, written, row)


def _blocks(text: str) -> list[ResultTable]:
    out = []
    for b in _BLOCK.finditer(text):
        cmd = b.group("cmd").strip()
        table = ResultTable(
            INFO.name,
            b.span(),
            columns=["Command", "mean", "stddev", "user", "system", "min", "max", "runs"],
        )
        pairs = [
            ("mean", "mean", "mu"),
            ("stddev", "sd", "su"),
            ("user", "user", "uu"),
            ("system", "sys", "yu"),
            ("min", "min", "minu"),
            ("max", "max", "maxu"),
        ]
        row = [cmd]
        for metric, key, unit in pairs:
            if b.group(key):
                table.measurements.append(_m(metric, b.group(key), b.group(unit), cmd, 0))
                row.append(f"{b.group(key)} {b.group(unit)}")
            else:
                row.append("")
        if b.group("runs"):
            table.measurements.append(_m("runs", b.group("runs"), "count", cmd, 0))
        row.append(b.group("runs") or "")
        table.rows.append(row)
        out.append(table)
    for s in _SUMMARY.finditer(text):
        fastest = (s.group("q1") or s.group("p1") or "").strip()
        table = ResultTable(INFO.name, s.span(), columns=["Command", "ratio", "stddev", "than"])
        table.caption = "Summary"
        for r, v in enumerate(_VS.finditer(s.group("rest"))):
            other = (v.group("q") or v.group("p") or "").strip()
            metric = f"times {v.group('dir')} than {other}"
            table.rows.append([fastest, v.group("x"), v.group("sd") or "", other])
            table.measurements.append(_m(metric, v.group("x"), "x", fastest, r))
            if v.group("sd"):
                table.measurements.append(_m(f"{metric} stddev", v.group("sd"), "x", fastest, r))
        out.append(table)
    return out


def _exports(text: str) -> list[ResultTable]:
    out = []
    for h in _EXPORT_HEADER.finditer(text):
        unit = h.group("unit")
        table = ResultTable(
            INFO.name,
            h.span(),
            columns=["Command", f"Mean [{unit}]", f"Min [{unit}]", f"Max [{unit}]", "Relative"],
        )
        pos = h.end()
        while (row := _EXPORT_ROW.match(text, pos)) is not None:
            cells = [c.strip() for c in row.groups()]
            cmd = cells[0].strip("`")
            r = len(table.rows)
            table.rows.append(cells)
            mean = re.match(rf"^({_N})(?:\s*±\s*({_N}))?$", cells[1])
            rel = re.match(rf"^({_N})(?:\s*±\s*({_N}))?$", cells[4])
            if not mean:
                table.rows.pop()
                break
            table.measurements.append(_m("mean", mean.group(1), unit, cmd, r))
            if mean.group(2):
                table.measurements.append(_m("stddev", mean.group(2), unit, cmd, r))
            for metric, cell in (("min", cells[2]), ("max", cells[3])):
                if re.fullmatch(_N, cell):
                    table.measurements.append(_m(metric, cell, unit, cmd, r))
            if rel:
                table.measurements.append(_m("relative", rel.group(1), "x", cmd, r))
                if rel.group(2):
                    table.measurements.append(_m("relative stddev", rel.group(2), "x", cmd, r))
            pos = row.end()
        table.span = (h.start(), pos)
        if table.rows:
            out.append(table)
    return out


def parse(text: str) -> list[ResultTable]:
    try:
        tables = sorted(_blocks(text) + _exports(text), key=lambda t: t.span)
        dedupe(tables, text)
        return tables
    except Exception:  # a parser bug must not lose the message; the other formats still run
        return []
