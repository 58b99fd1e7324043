"""Ruby's benchmark-driver and benchmark-ips reports: one table per section (`Warming
up`, `Calculating`, `Comparison`).

    Calculating -------------------------------------        (benchmark-driver)
               Arrow::Table#save    336.984 i/s -      1.045k times in 3.101035s (2.97ms/i)
    Calculating -------------------------------------        (benchmark-ips)
                  addition      2.831k (± 2.3%) i/s -     14.331k in   5.064479s
    Comparison:
                addition2:  3008742.6 i/s
                 addition:  2831424.1 i/s - 1.06x  (± 0.00) slower

benchmark-driver with several executables (`-e ruby-3.1 -e ruby-3.3`) prints their
names under `Calculating`, a value per executable in each row (`parse_small 43.118k
51.902k i/s - 123.615k times in 2.866900s 2.381680s`) and a `Comparison:` per benchmark
(its name on a line, then `ruby-3.3:  51902.1 i/s`); each measurement's variant is then
the executable.

Rows: label = the benchmark; variant = the section. `Calculating` rows give
`throughput` (i/s, `k`/`M` applied), `error` (%, ips), `iterations`, `time` (s) and
`time per iteration` (`ms/i`); `Comparison` rows `throughput` and `slowdown` (x).
`Warming up` rows give the same with the role `warmup` (never stored nor compared).
Rows are matched from the section header on, so a flattened mail reads the same.

Not declared as rows: a section's rows name their own units (`i/s`, `times in`) and the
Comparison section's rows refer back to them.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import BLANKS, NUM, heading_above, within
from extract.results.formats._rows import numbers
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="benchmark-driver",
    description="Ruby benchmark-driver / benchmark-ips reports (i/s per benchmark)",
    signature="`Calculating -----` then `name  336.984 i/s - 1.045k times in 3.101035s "
    "(2.97ms/i)` or `name  2.831k (± 2.3%) i/s - 14.331k in 5.064479s`; `Comparison:`",
    priority=14,
    trigger=r"(?-i:i/(?:s|100ms))",
    needles=("i/s", "i/100ms"),
)

_K = rf"{NUM}[kMBG]?"
_PM = r"(?:±|Â±|\?)"  # `±`, or as mail mangled it
_SECTION = re.compile(r"(?P<s>Warming up|Calculating)[ \t]*-{5,}|(?P<c>Comparison):")
_ROW = re.compile(
    rf"\s*(?P<name>[^\s:][^\n]*?)\s+(?P<ips>{_K})\s+(?:\({_PM}\s*(?P<err>{NUM})%\)\s+)?"
    rf"i/(?:s|100ms)(?:\s+-\s+(?P<iters>{_K})\s+(?:times\s+)?in\s+(?P<secs>{NUM})s"
    rf"(?:\s+\((?P<per>{NUM})(?P<pu>ns|[uµμ]s|ms|s)/i\))?)?"
)
_COMPARISON_ROW = re.compile(
    rf"\s*(?P<name>[^\s:][^\n]*?):\s+(?P<ips>{NUM}[kMBG]?)\s+i/s"
    rf"(?:\s+-\s+(?:(?P<x>{NUM})x\s+(?:\({_PM}\s*{NUM}\)\s+)?(?P<dir>slower|faster)"
    r"|same-ish: difference falls within error))?"
)

# Not results: the iterations run and the whole run's time (the rate is the result).
_ROLE = {"iterations": "count", "time": "total"}


def _numbers(found, label: str, role: str | None = None) -> list[Measurement]:
    """The measurements of (metric, number as written, unit[, variant]) that hold a
    number, with their role (by default, what the metric is)."""
    out = []
    for metric, written, unit, *variant in found:
        for m in numbers([(metric, written, unit)], label):
            m.variant, m.role = (variant or [None])[0], role or _ROLE.get(metric, "result")
            out.append(m)
    return out


# benchmark-driver with several executables (`-e ruby-3.1 -e ruby-3.3`): a header of
# context names, rows with one value per context, and a Comparison per job.
_CONTEXTS = re.compile(r"Calculating[ \t]*-{5,}[ \t]*\n(?P<names>[ \t]+[^\s\d][^\n]*?)[ \t]*(?=\n)")
_CTX_JOB = re.compile(r"\s*\n[ \t]*(?P<job>[^\s:][^\n:]*?)[ \t]*(?=\n)")


def _executables(text: str) -> list[ResultTable]:
    tables = []
    for head in _CONTEXTS.finditer(text):
        names = head["names"].split()
        if len(names) < 2 or any(re.fullmatch(rf"{_K}", n) for n in names):
            continue
        k = len(names)
        row_re = re.compile(
            rf"\n[ \t]*(?P<name>[^\s:][^\n]*?)[ \t]+(?P<vals>{_K}(?:[ \t]+{_K}){{{k - 1}}})[ \t]+"
            rf"(?P<unit>i/s|s/i|\S+)[ \t]+-[ \t]+(?P<iters>{_K})[ \t]+times"
            rf"(?:[ \t]+in(?P<secs>(?:[ \t]+{NUM}s){{{k}}}))?[ \t]*(?=\n|$)"
        )
        table = ResultTable(
            format=INFO.name,
            span=head.span(),
            columns=["benchmark", *names, "iterations", *(f"time {n}" for n in names)],
            caption=heading_above(text, head.start(), 0),
            variant="Calculating",
        )
        pos = head.end()
        while row := row_re.match(text, pos):
            pos = row.end()
            label = row["name"].strip()
            vals, secs = row["vals"].split(), (row["secs"] or "").split()
            fields = [("throughput", v, row["unit"], n) for v, n in zip(vals, names, strict=True)]
            fields.append(("iterations", row["iters"], None, None))
            fields += [("time", t.rstrip("s"), "s", n) for t, n in zip(secs, names, strict=True)]
            table.add_row([label, *vals, row["iters"], *secs], _numbers(fields, label))
        if not table.rows:
            continue
        table.span = (head.start(), pos)
        tables.append(table)
        at = BLANKS.match(text, pos).end()  # (a Comparison right where the rows end)
        comparison = text.startswith("Comparison:", at)
        if comparison and (found := _context_comparison(text, pos, at + 11, names)):
            tables.append(found)
    return tables


def _context_comparison(text: str, start: int, pos: int, names: list[str]) -> ResultTable | None:
    table = ResultTable(format=INFO.name, span=(start, pos), columns=["benchmark", "context",
                        "i/s", "x"], variant="Comparison")  # fmt: skip
    while job := _CTX_JOB.match(text, pos):
        if job["job"].strip() in names:
            break
        pos, label = job.end(), job["job"].strip()
        while (row := _COMPARISON_ROW.match(text, pos)) and row["name"].strip() in names:
            pos, context = row.end(), row["name"].strip()
            found = [
                ("throughput", row["ips"], "i/s", context),
                ("slowdown", row["x"], "x", context),
            ]
            table.add_row([label, context, row["ips"], row["x"] or ""], _numbers(found, label))
    if not table.rows:
        return None
    table.span = (start, pos)
    return table


def parse(text: str) -> list[ResultTable]:
    tables = []
    floor = 0
    # (a section starts with one of these words; without them, no need to scan)
    if not any(word in text for word in ("Warming up", "Calculating", "Comparison:")):
        return tables
    tables = _executables(text)
    taken = [t.span for t in tables]
    for sec in _SECTION.finditer(text):
        if sec.start() < floor or within(sec.start(), taken):
            continue
        name, comparison = sec["s"] or sec["c"], bool(sec["c"])
        table = ResultTable(
            format=INFO.name,
            span=sec.span(),
            columns=["benchmark", "i/s", "x"]
            if comparison
            else ["benchmark", "i/s", "error %", "iterations", "time (s)", "per iteration"],
            caption=heading_above(text, sec.start(), floor)
            or (tables[-1].caption if tables else None),
            variant=name,
        )
        # (a row is only matched where the last one ended: its leading blanks are read once)
        row_at = _COMPARISON_ROW.match if comparison else _ROW.match
        pos = sec.end()
        while (row := row_at(text, pos)) and not _SECTION.search(row["name"]):
            pos = row.end()
            label = row["name"].strip()
            fields = [("throughput", row["ips"], "i/s")]
            if comparison:
                fields.append(("slowdown", row["x"], "x"))
            else:
                fields += [
                    ("error", row["err"], "%"),
                    ("iterations", row["iters"], None),
                    ("time", row["secs"], "s"),
                    ("time per iteration", row["per"], row["pu"] and f"{row['pu']}/i"),
                ]
            warmup = name == "Warming up" or "i/100ms" in row[0]
            cells = [label, *(f[1] or "" for f in fields)]
            table.add_row(cells, _numbers(fields, label, "warmup" if warmup else None))
        if table.rows:
            table.span = (sec.start(), pos)
            floor = pos
            tables.append(table)
    return tables
