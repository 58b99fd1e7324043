"""Ruby's benchmark-driver and benchmark-ips reports: returns one `ResultTable` per
section (`Warming up`, `Calculating`, `Comparison`).

benchmark-driver (`benchmark-driver file.yaml`, the ips output):

    Calculating -------------------------------------
               Arrow::Table#save    336.984 i/s -      1.045k times in 3.101035s (2.97ms/i)

benchmark-ips (`Benchmark.ips`):

    Calculating -------------------------------------
                  addition      2.831k (± 2.3%) i/s -     14.331k in   5.064479s

and both end with

    Comparison:
                addition2:  3008742.6 i/s
                 addition:  2831424.1 i/s - 1.06x  (± 0.00) slower

Rows: label = the benchmark name; variant = the section. `Calculating` rows give
`throughput` (i/s, `k`/`M` suffixes applied), `error` (%, benchmark-ips), `iterations`
(no unit), `time` (s, the run's duration) and `time per iteration` (its unit with
`/i`, e.g. `ms/i`); `Comparison` rows give `throughput` (i/s) and `slowdown` (x) when
printed. `Warming up` sections are claimed but give no measurements: warm-up rates
are not results.

Rows are matched from the section header on, not line by line, so a mail
flattened onto one line reads the same. Pure function; never raises.
"""

from __future__ import annotations

import re

from extract.results.formats._context import block_heading, measure
from extract.results.formats.base import FormatInfo, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="benchmark-driver",
    description="Ruby benchmark-driver / benchmark-ips reports (i/s per benchmark)",
    signature="`Calculating -----` then `name  336.984 i/s - 1.045k times in 3.101035s "
    "(2.97ms/i)` or `name  2.831k (± 2.3%) i/s - 14.331k in 5.064479s`; `Comparison:`",
    priority=14,
    trigger=r"(?-i:i/(?:s|100ms))",
    needles=("i/s", "i/100ms"),
)

_N = r"\d+(?:\.\d+)?"
_K = rf"{_N}[kMBG]?"
_SECTION = re.compile(r"(?P<s>Warming up|Calculating)[ \t]*-{5,}|(?P<c>Comparison):")
_ROW = re.compile(
    rf"\s*(?P<name>[^\s:][^\n]*?)\s+(?P<ips>{_K})\s+(?:\(±\s*(?P<err>{_N})%\)\s+)?"
    rf"i/(?:s|100ms)(?:\s+-\s+(?P<iters>{_K})\s+(?:times\s+)?in\s+(?P<secs>{_N})s"
    rf"(?:\s+\((?P<per>{_N})(?P<pu>ns|[uµμ]s|ms|s)/i\))?)?"
)
_COMPARISON_ROW = re.compile(
    rf"\s*(?P<name>[^\s:][^\n]*?):\s+(?P<ips>{_N}[kMBG]?)\s+i/s"
    rf"(?:\s+-\s+(?:(?P<x>{_N})x\s+(?:\(±\s*{_N}\)\s+)?(?P<dir>slower|faster)"
    r"|same-ish: difference falls within error))?"
)


def parse(text: str) -> list[ResultTable]:
    tables = []
    floor = 0
    # (a section starts with one of these words; without them, no need to scan)
    if not any(word in text for word in ("Warming up", "Calculating", "Comparison:")):
        return tables
    for sec in _SECTION.finditer(text):
        if sec.start() < floor:
            continue
        name = sec.group("s") or sec.group("c")
        comparison = bool(sec.group("c"))
        table = ResultTable(
            format=INFO.name,
            span=sec.span(),
            columns=["benchmark", "i/s", "x"]
            if comparison
            else ["benchmark", "i/s", "error %", "iterations", "time (s)", "per iteration"],
            caption=block_heading(text, sec.start(), floor)
            or (tables[-1].caption if tables else None),
            variant=name,
        )
        row_re = _COMPARISON_ROW if comparison else _ROW
        pos = sec.end()
        while (row := row_re.match(text, pos)) and not _SECTION.search(row.group("name")):
            pos = row.end()
            label = row.group("name").strip()
            index = len(table.rows)
            if comparison:
                fields = [
                    ("throughput", row.group("ips"), "i/s"),
                    ("slowdown", row.group("x"), "x"),
                ]
                table.rows.append([label, row.group("ips"), row.group("x") or ""])
            else:
                per_unit = f"{row.group('pu')}/i" if row.group("pu") else None
                fields = [
                    ("throughput", row.group("ips"), "i/s"),
                    ("error", row.group("err"), "%"),
                    ("iterations", row.group("iters"), None),
                    ("time", row.group("secs"), "s"),
                    ("time per iteration", row.group("per"), per_unit),
                ]
                table.rows.append([label] + [f[1] or "" for f in fields])
                if name == "Warming up" or "i/100ms" in row.group(0):
                    continue
            for metric, written, unit in fields:
                if not written:
                    continue
                m = measure(metric, written, parse_number(written), unit, label=label, row=index)
                if m:
                    table.measurements.append(m)
        if table.rows:
            table.span = (sec.start(), pos)
            floor = pos
            tables.append(table)
    return tables
