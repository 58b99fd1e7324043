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

Declared as rows after a header (`Rows.for_header`: a header of executables makes
a row pattern with a value per executable); the Comparison of several executables (a
benchmark's name on a line, then a row per executable) is read by hand.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import BLANKS, NUM, heading_above, masked
from extract.results.formats._rows import ADJACENT, Rows, numbers, read
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
# (a section's rows: their text declared here, compiled by the Rows that read them)
_ROW = (
    rf"\s*(?P<name>[^\s:][^\n]*?)\s+(?P<ips>{_K})\s+(?:\({_PM}\s*(?P<err>{NUM})%\)\s+)?"
    rf"i/(?:s|100ms)(?:\s+-\s+(?P<iters>{_K})\s+(?:times\s+)?in\s+(?P<secs>{NUM})s"
    rf"(?:\s+\((?P<per>{NUM})(?P<pu>ns|[uµμ]s|ms|s)/i\))?)?"
)
_COMPARISON_ROW = (
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


def _label(m: re.Match) -> str:
    return m["name"].strip()


# benchmark-driver with several executables (`-e ruby-3.1 -e ruby-3.3`): a header of
# context names, rows with one value per context, and a Comparison per job.
_CONTEXTS = re.compile(r"Calculating[ \t]*-{5,}[ \t]*\n(?P<names>[ \t]+[^\s\d][^\n]*?)[ \t]*(?=\n)")
_COMPARISON = re.compile(_COMPARISON_ROW)
_CTX_JOB = re.compile(r"\s*\n[ \t]*(?P<job>[^\s:][^\n:]*?)[ \t]*(?=\n)")


def _per_executable(head: re.Match) -> Rows | None:
    """The rows under a header of executables: a value per executable in each."""
    names = head["names"].split()
    if len(names) < 2 or any(re.fullmatch(rf"{_K}", n) for n in names):
        return None
    k = len(names)

    def found(m: re.Match) -> list[Measurement]:
        vals, secs = m["vals"].split(), (m["secs"] or "").split()
        fields = [("throughput", v, m["unit"], n) for v, n in zip(vals, names, strict=True)]
        fields.append(("iterations", m["iters"], None, None))
        fields += [("time", t.rstrip("s"), "s", n) for t, n in zip(secs, names, strict=True)]
        return _numbers(fields, _label(m))

    return Rows(
        row=rf"\n[ \t]*(?P<name>[^\s:][^\n]*?)[ \t]+(?P<vals>{_K}(?:[ \t]+{_K}){{{k - 1}}})[ \t]+"
        rf"(?P<unit>i/s|s/i|\S+)[ \t]+-[ \t]+(?P<iters>{_K})[ \t]+times"
        rf"(?:[ \t]+in(?P<secs>(?:[ \t]+{NUM}s){{{k}}}))?[ \t]*(?=\n|$)",
        fields=found,
        label=_label,
        cells=lambda m, label: [label, *m["vals"].split(), m["iters"], *(m["secs"] or "").split()],
        columns=("benchmark", *names, "iterations", *(f"time {n}" for n in names)),
        gap=ADJACENT,
    )


EXECUTABLES = Rows(None, (), header=_CONTEXTS, for_header=_per_executable)


def _executables(text: str) -> list[ResultTable]:
    tables = []
    for table in read(EXECUTABLES, text):
        table.caption = heading_above(text, table.span[0], 0)
        table.variant = "Calculating"
        tables.append(table)
        pos = table.span[1]
        at = BLANKS.match(text, pos).end()  # (a Comparison right where the rows end)
        if text.startswith("Comparison:", at):
            names = _CONTEXTS.match(text, table.span[0])["names"].split()
            if found := _context_comparison(text, pos, at + 11, names):
                tables.append(found)
    return tables


def _context_comparison(text: str, start: int, pos: int, names: list[str]) -> ResultTable | None:
    table = ResultTable(format=INFO.name, span=(start, pos), columns=["benchmark", "context",
                        "i/s", "x"], variant="Comparison")  # fmt: skip
    while job := _CTX_JOB.match(text, pos):
        if job["job"].strip() in names:
            break
        pos, label = job.end(), job["job"].strip()
        while (row := _COMPARISON.match(text, pos)) and row["name"].strip() in names:
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


def _section(row: str, fields, columns: tuple, role: str | None = None) -> Rows:
    """A section's rows, each matched where the last one ended (its pattern takes the
    blanks before it); `fields` (metric, group, unit or made from the match) give
    numbers whose role is `role` (a warm-up's) or what their metric is."""

    def found(m: re.Match) -> list[Measurement]:
        warmup = role or ("warmup" if "i/100ms" in m[0] else None)
        found = [(f, m[g], u(m) if callable(u) else u) for f, g, u in fields]
        return _numbers(found, _label(m), warmup)

    def cells(m: re.Match, label: str) -> list[str]:
        return [label, *(m[g] or "" for _, g, _ in fields)]

    return Rows(row, found, label=_label, cells=cells, columns=columns, gap=ADJACENT)


_CALCULATED = (
    ("throughput", "ips", "i/s"),
    ("error", "err", "%"),
    ("iterations", "iters", None),
    ("time", "secs", "s"),
    ("time per iteration", "per", lambda m: m["pu"] and f"{m['pu']}/i"),
)
_COLUMNS = ("benchmark", "i/s", "error %", "iterations", "time (s)", "per iteration")
_COMPARED = (("throughput", "ips", "i/s"), ("slowdown", "x", "x"))


def _rows_of(head: re.Match) -> Rows:
    """The rows of the section that `head` starts."""
    if head["c"]:
        return _section(_COMPARISON_ROW, _COMPARED, ("benchmark", "i/s", "x"))
    return _section(_ROW, _CALCULATED, _COLUMNS, "warmup" if head["s"] == "Warming up" else None)


ROWS = Rows(None, (), header=_SECTION, for_header=_rows_of)


def parse(text: str) -> list[ResultTable]:
    # (a section starts with one of these words; without them, no need to scan)
    if not any(word in text for word in ("Warming up", "Calculating", "Comparison:")):
        return []
    tables = _executables(text)
    # a section's rows end where the next section starts; the executables' are read
    floor = 0
    for table in read(ROWS, masked(text, [t.span for t in tables]) if tables else text):
        sec = _SECTION.match(text, table.span[0])
        table.variant = sec["s"] or sec["c"]
        previous = tables[-1].caption if tables else None
        table.caption = heading_above(text, table.span[0], floor) or previous
        floor = table.span[1]
        tables.append(table)
    return tables
