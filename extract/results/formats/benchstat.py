"""benchstat old/new comparison tables (golang.org/x/perf), v1 and v2 layouts.

v1 (before 2023): header `name  old time/op  new time/op  delta` (or `name  time/op`),
rows `GobEncode  13.6ms ± 1%  11.8ms ± 1%  -13.31%  (p=0.016 n=4+5)`. v2: a `│ old.txt
│ new.txt │` header, a `│ sec/op │ sec/op  vs base │` unit row, rows `name  46.55n ± 2%
44.10n ± 1%  -5.26% (p=0.002 n=6)` and `geomean`. Both also flattened onto one line or
wrapped, with mail damage: `Â±`/`Âµ`, `?` for `±` and `µ` (v1), `â”‚` for v2's `│`.

Measurements, label = the benchmark (`geomean` too): one per value cell, metric = the
column's (`time/op`, `speed`), variant = the run (`old`/`new` in v1, the file in v2),
unit as written (v2 folds the SI prefix of time and byte units into the unit, `46.55n`
sec/op → 46.55 `ns/op`, and applies it otherwise, `22.99k` → 22990; `ms/avg` is unit
`ms`, metric `avg`); and `delta <metric>` per significant change (`%`, variant `new vs
old`; `~` gives none). The runs are the sides of the comparison (the first is
`before`), the `± 2%` their noise.

Not declared as rows: v1 and v2 tables are read column by column from their header (one
column per input file, a delta column, the unit in the header cells), not as rows of
fixed fields.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import NUM, UNSIGNED, line_end, line_start, within
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="benchstat",
    description="benchstat v1/v2 old/new comparison tables",
    signature="v1 `name  old time/op  new time/op  delta` with `13.6ms ± 1%` cells; v2 "
    "`│ old.txt │ new.txt │` / `│ sec/op │ sec/op vs base │` with `~ (p=0.314 n=20)`",
    priority=10,
    kind="result",
    trigger=r"(?-i:name[ \t]+(?:old|speed|\S*/)|│|â(?:”‚|\x94\x82))",
    trigger_parts=(
        (r"(?-i:name[ \t]+(?:old|speed|\S*/))", ("name ", "name\t"), ()),
        (r"(?-i:│)", ("│",), ()),
        (r"(?-i:â(?:”‚|\x94\x82))", ("â",), ()),  # `│` mangled by mail
    ),
)

_SUP = "¹²³⁴⁵⁶⁷⁸⁹⁰"
_V1_HEADER = re.compile(
    r"(?<!\S)name[ \t]+"
    r"(?:old[ \t]+(?P<m>\S+)[ \t]+new[ \t]+(?P=m)[ \t]+delta|(?P<single>\S+/\S+|speed))(?=\s|$)"
)
_PM = r"(?:±|Â±|\?|\+/-)"  # `±`, or as mail mangled it
_V1_CELL = (
    rf"(?:(?P<{{p}}>{UNSIGNED})(?P<{{p}}u>\?s|[^\s±?\d.][^\s±]*)?"
    rf"(?:[ \t]*{_PM}[ \t]*(?P<{{p}}v>{UNSIGNED}%|∞))?)"
)
_V1_ROW = re.compile(
    rf"""(?P<name>\[Geo\ mean\]|[^\s\[][^\s]*)[ \t]+{_V1_CELL.format(p="o")}
        (?:\s+{_V1_CELL.format(p="n")}\s+(?P<delta>[-+−]?{UNSIGNED}%|~)
        (?:\s+\((?P<stat>[^)]*)\))?)?(?=\s|$)""",  # \s: JIRA mail wraps long rows
    re.X,
)
_V2_FILES = re.compile(r"^[ \t]*│(?P<cells>[^\n]*│)[ \t]*$", re.M)
_V2_CELL = re.compile(
    rf"(?P<v>{UNSIGNED})(?P<si>[kMGTPnµμumKi]*)?"
    rf"(?:[ \t]*±[ \t]*(?:(?P<var>{UNSIGNED}%)|∞))?[ \t{_SUP}]*"
)
_V2_DELTA = re.compile(rf"(?P<d>[-+−]?{UNSIGNED}%|~)(?:[ \t]*\((?P<stat>[^)\n]*)\))?[ \t{_SUP}]*")
_SI = {"": 1.0, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "m": 1e-3, "µ": 1e-6,
       "μ": 1e-6, "u": 1e-6, "n": 1e-9, "Ki": 1024.0, "Mi": 1024.0**2, "Gi": 1024.0**3}  # fmt: skip
_STAT = re.compile(rf"(?P<u>[^\s/]+)/(?P<stat>min|max|avg|mean|median|p{NUM})")


# A line of v1's group keys between rows: `pkg:encoding/gob`, `goos:linux goarch:amd64`.
_V1_GROUP = re.compile(r"[ \t]*(?:[\w.-]+:[^\s:]\S*[ \t]*)+(?=\n|$)")


def _v1_unit(unit: str) -> str:
    """`Âµs` (UTF-8 read as Latin-1) and `?s` (a console without µ) are `µs`."""
    return unit.replace("Âµ", "µ").replace("?", "µ")


def _unmangle(text: str) -> str:
    """The text with mail-mangled box and Latin-1 characters put back, same length:
    `â”‚` (UTF-8 `│` read as cp1252 or Latin-1) → `│  `, `Â±` → ` ±`, `Âµ` → `µ `
    (the prefix stays on its number)."""
    text = re.sub("â(?:”‚|\x94\x82)", "│  ", text)
    return re.sub("Â([\xa0-\xbf])", lambda m: "µ " if m[1] == "µ" else " " + m[1], text)


def _num(s: str) -> float:
    return float(s.replace("−", "-"))


def _v1_tables(text: str) -> list[ResultTable]:
    tables = []
    for h in _V1_HEADER.finditer(text):
        metric = h["m"] or h["single"]
        pos, rows = h.end(), []
        while True:
            gap = re.match(r"[ \t]*\n?[ \t]*", text[pos:])
            group = _V1_GROUP.match(text, pos + gap.end())
            if group and not _V1_ROW.match(text, pos + gap.end()):
                pos = group.end()
                continue
            m = _V1_ROW.match(text, pos + gap.end())
            if not m or (h["m"] and not m["n"]) or (not h["m"] and m["n"]):
                break
            rows.append(m)
            pos = m.end()
        if not rows:
            continue
        runs = ["old", "new"] if h["m"] else [None]
        columns = ["name", *([f"old {metric}", f"new {metric}", "delta"] if h["m"] else [metric])]
        table = ResultTable(format=INFO.name, span=(h.start(), rows[-1].end()), columns=columns)
        for r in rows:
            name = r["name"]
            cells, ms = [name], []
            for run, p in zip(runs, ("o", "n"), strict=False):
                written = r[p] + (r[p + "u"] or "")
                cells.append(written + (f" ± {r[p + 'v']}" if r[p + "v"] else ""))
                unit = _v1_unit(r[p + "u"] or "") or (
                    metric if "/" in metric and not metric.startswith("time") else None
                )
                ms.append(meas := Measurement(metric, _num(r[p]), unit, name, run, r[p]))
                if run:  # old and new: the sides of the comparison (extract.results.comparisons)
                    meas.side = "before" if run == "old" else "after"
                    meas.side_name, meas.quantity = run, metric
                    meas.noise = _spread(r[p + "v"])
            if h["m"]:
                cells.append(r["delta"] + (f" ({r['stat']})" if r["stat"] else ""))
                if r["delta"] != "~":
                    delta = _num(r["delta"].rstrip("%"))
                    ms.append(
                        Measurement(f"delta {metric}", delta, "%", name, "new vs old", r["delta"])
                    )
            table.add_row(cells, ms)
        tables.append(table)
    return tables


def _spread(written: str | None) -> float | None:
    """`2%` (the ± benchstat prints: the spread of the runs) as a fraction."""
    if not written or not written.endswith("%"):
        return None
    return _num(written.rstrip("%")) / 100


def _split_bars(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("│").split("│")]


def _unit(cell: str) -> str:
    """A units cell without its `vs base` (`sec/op vs base` -> `sec/op`)."""
    if cell.endswith("vs base") and cell[:-7][-1:].isspace():
        cell = cell[:-7]
    return cell.strip()


def _v2_value(raw_num: str, si: str, unit: str) -> tuple[float, str]:
    """v2 cells carry an SI prefix: fold it into time/byte units, apply it otherwise."""
    num = float(raw_num)
    base, sep, per = unit.partition("/")
    if si and si in _SI and base in ("sec", "B"):
        head = "s" if base == "sec" else "B"
        return num, f"{si}{head}{sep}{per}"
    if base == "sec" and not si:
        return num, f"s{sep}{per}"
    return num * _SI.get(si, 1.0), unit


def _v2_table(files: list[str], units: list[str], span: tuple[int, int]) -> ResultTable:
    """A v2 table under its files and units header: a column per file, with its unit."""
    columns = ["name"] + [f"{f} ({u})" for f, u in zip(files, units, strict=True)]
    return ResultTable(format=INFO.name, span=span, columns=columns)


def _v2_tables(text: str) -> list[ResultTable]:
    tables = []
    lines = list(_V2_FILES.finditer(text))
    i = 0
    while i + 1 < len(lines):
        files_line, units_line = lines[i], lines[i + 1]
        if text[files_line.end() : units_line.start()].strip():
            i += 1
            continue
        files = [f for f in _split_bars(files_line.group(0)) if f]
        unit_cells = [u for u in _split_bars(units_line.group(0)) if u]
        if not files or len(unit_cells) != len(files) or "vs base" in files_line.group(0):
            i += 1
            continue
        units = [_unit(u) for u in unit_cells]
        table = _v2_table(files, units, (files_line.start(), units_line.end()))
        pos = units_line.end()
        while True:
            nl = text.find("\n", pos)
            if nl < 0:
                break
            end = line_end(text, nl + 1)
            parsed = _v2_row(text, nl + 1, files, units)
            if parsed is None or text[parsed[2] : end].strip():
                break
            table.add_row(parsed[0], parsed[1])
            table.span = (table.span[0], parsed[2])
            pos = end
        if table.rows:
            tables.append(table)
        i += 2
    return tables


def _v2_flat_tables(text: str, taken: list[tuple[int, int]]) -> list[ResultTable]:
    """v2 tables whose line breaks were lost: `│ a.txt │ b.txt │ │ sec/op │ sec/op vs base │`
    (the empty cell `│ │` is where the file row ended), then the rows."""
    tables: list[ResultTable] = []
    done = 0
    for pivot in re.finditer(r"│[ \t]+│", text):
        if pivot.start() < done or within(pivot.start(), taken):
            continue
        start = max(done, line_start(text, pivot.start()), pivot.start() - 500)
        left = text[start : pivot.start() + 1]
        first_bar = left.find("│")
        files = [c.strip() for c in left[first_bar:].strip("│").split("│")]
        units_m = re.compile(rf"│((?:[^│\n]+│){{{len(files)}}})").match(text, pivot.end() - 1)
        if not units_m or not all(files):
            continue
        unit_cells = [c.strip() for c in units_m.group(1).split("│") if c.strip()]
        if len(unit_cells) != len(files):
            continue
        units = [_unit(u) for u in unit_cells]
        table = _v2_table(files, units, (start + first_bar, units_m.end()))
        pos = units_m.end()
        while (parsed := _v2_row(text, pos, files, units)) is not None:
            table.add_row(parsed[0], parsed[1])
            table.span = (table.span[0], parsed[2])
            pos = parsed[2]
        if table.rows:
            tables.append(table)
            done = pos
    return tables


def _v2_row(text: str, start: int, files: list[str], units: list[str]) -> tuple | None:
    """(cells, measurements, end) of the v2 row at `start`, or None."""
    m = re.compile(r"\s*(?P<name>[^\s│]+)[ \t]+").match(text, start)
    if not m:
        return None
    name, pos = m["name"], m.end()
    cells, ms = [name], []
    for k, (file, unit) in enumerate(zip(files, units, strict=True)):
        c = _V2_CELL.match(text, pos)
        if not c:
            if k == 0:
                return None
            break
        pos = c.end()
        stat = _STAT.fullmatch(unit)
        value, out_unit = _v2_value(c["v"], c["si"] or "", stat["u"] if stat else unit)
        metric = stat["stat"] if stat else unit
        meas = Measurement(metric, value, out_unit, name, file, c.group(0).strip(), None)
        # the first file is the base the others are compared with (`vs base`)
        meas.side, meas.side_name, meas.quantity = ("before" if k == 0 else "after"), file, metric
        meas.noise = _spread(c["var"])
        ms.append(meas)
        cell = c.group(0).strip()
        if k > 0:
            d = _V2_DELTA.match(text, pos)
            if d:
                pos = d.end()
                cell += " " + d.group(0).strip()
                if d["d"] != "~":
                    delta = _num(d["d"].rstrip("%"))
                    variant = f"{file} vs {files[0]}"
                    ms.append(Measurement(f"delta {metric}", delta, "%", name, variant, d["d"]))
        cells.append(cell)
    end = len(text[:pos].rstrip())
    return cells, ms, end


def parse(text: str) -> list[ResultTable]:
    v2_text = _unmangle(text)  # same length: spans hold for `text`
    tables = _v1_tables(text) + _v2_tables(v2_text)
    tables += _v2_flat_tables(v2_text, [t.span for t in tables])
    return tables
