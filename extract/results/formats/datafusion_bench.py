"""DataFusion benchmark output: `compare.py` tables and `dfbench` / `tpch benchmark` runs.

Recognises
- compare.py's rich box (`┏━┳━┓`, `┃ Query ┃ <base> ┃ <branch> ┃ Change ┃`, rows
  `│ QQuery 1 │ 209.82ms │ 208.29ms │ no change │`); cells are `209.82ms` or, newer,
  `45.99 / 46.51 ±0.63 / 47.70 ms`; the same table in markdown pipes, and either
  flattened onto one line (GitBox mail); and the `Benchmark Summary` box
  (`│ Total Time (HEAD) │ 19310.57ms │`, `│ Queries Faster │ 11 │`);
- run lines `Query 1 iteration 0 took 2630.6 ms and returned 4 rows` and
  `Query 1 avg time: 75.75 ms`.

Box characters mangled by mail (UTF-8 read as cp1252 or Latin-1: `â”‚`) are put back
before reading (same length, so spans hold).

Measurements: compare rows give label = query, variant = the branch column, metric
`time` (or `min`, `mean`, `stddev`, `max`) in the cell's unit, and `change` with unit
`x faster` / `x slower` (`no change` gives none). Summary rows give label = the row
name, metric = the name without its `(branch)` (or `count`), variant = that branch.
Run lines give label = `<benchmark> Query N`, metric `iteration I` and `avg time`
(ms or s), and `rows returned` (count) once per query.

Not declared as rows: box tables drawn in several box-drawing styles (and their
mojibake) are read as a stream of cells, and dfbench's iteration lines are another
reader.
"""

from __future__ import annotations

import re

from extract.results.formats._grid import number
from extract.results.formats._layout import line_caption
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="datafusion-bench",
    description="DataFusion compare.py and dfbench output",
    signature=(
        "box '┃ Query ┃ <base> ┃ <branch> ┃ Change ┃' with '│ QQuery N │ 46.51 ms │' rows; "
        "'Benchmark Summary' box; 'Query N iteration I took X ms and returned R rows'"
    ),
    priority=10,
    kind="result",
    trigger=r"(?-i:Query[ \t]*(?:[┃│|]|â”)|Query \d|Benchmark Summary)",
    needles=("Query", "Benchmark Summary"),
)

_SIMPLE = re.compile(r"^\s*([\d.,]+)\s*(ns|µs|us|ms|s)\s*$")
_MMM = re.compile(
    r"^\s*(?P<min>[\d.]+)\s*/\s*(?P<mean>[\d.]+)\s*±\s*(?P<sd>[\d.]+)\s*/\s*(?P<max>[\d.]+)\s*"
    r"(?P<unit>ns|µs|us|ms|s)\s*$"
)
_CHANGE = re.compile(r"^\s*\+?(?P<x>[\d.]+)\s*x\s+(?P<dir>faster|slower)\s*$")
_RUN = re.compile(
    r"(?<![\w-])Query (?P<q>\d+) (?:iteration (?P<it>\d+) took (?P<t>[\d.]+) ?(?P<u>ms|s)"
    r"(?: and returned (?P<rows>\d+) rows?)?|avg time: (?P<avg>[\d.]+) ?(?P<au>ms|s))(?![\w.])"
)


_SEP = "┃│|"
_JUNCTION = set(" \t\r\n\u00a0─━┡┩╇┼├┤└┘┴┬┌┐┏┓┗┛┳┻╋┣┫╞╡╪═╘╛╧╒╕╤-:+")
_HEADER = re.compile(r"[┃│|][ \t]*(?P<first>Query|Benchmark Summary)[ \t]*(?=[┃│|])")


def _read_cells(text: str, pos: int, ncol: int | None, stop: str | None = None):
    """Cells from a `┃`/`│`/`|` separated run starting at the separator at `pos`:
    `ncol` of them, or up to and including the cell `stop`. (cells, end) or None."""
    cells, i = [], pos + 1
    while ncol is None or len(cells) < ncol:
        j = i
        while j < len(text) and text[j] not in _SEP and text[j] != "\n":
            j += 1
        if j >= len(text) or text[j] == "\n":
            return None
        cells.append(text[i:j].strip())
        i = j + 1
        if stop is not None and cells[-1] == stop:
            break
        if len(cells) > 12:
            return None
    return cells, i


def _stream_rows(text: str, pos: int, ncol: int) -> tuple[list[list[str]], int]:
    """Rows after a header, one a line or flattened onto one line (`│ a │ 1 │ │ b │ 2 │`);
    box rules and markdown `|---|` rows between them are skipped."""
    rows, end = [], pos
    while True:
        i = pos
        while i < len(text) and text[i] in _JUNCTION:
            i += 1
        if i >= len(text) or text[i] not in _SEP or text[i] == "┃":
            break  # (rich draws only header rows with `┃`: the next table starts)
        read = _read_cells(text, i, ncol)
        if read is None:
            break
        cells, pos = read
        if all(set(c) <= set("-: ") for c in cells):
            continue  # markdown separator row
        rows.append(cells)
        end = pos
    return rows, end


def _compare_tables(text: str) -> list[ResultTable]:
    out = []
    for h in _HEADER.finditer(text):
        if out and h.start() < out[-1].span[1]:
            continue
        summary = h.group("first") == "Benchmark Summary"
        read = _read_cells(text, h.start(), 2 if summary else None, None if summary else "Change")
        if read is None or (not summary and read[0][-1] != "Change"):
            continue
        header, pos = read
        body, end = _stream_rows(text, pos, len(header))
        if not body:
            continue
        start = h.start()
        top = text.rfind("\n", 0, start)
        line_start = top + 1
        if text[line_start:start].strip() and set(text[line_start:start].strip()) <= _JUNCTION:
            start = line_start + len(text[line_start:start]) - len(text[line_start:start].lstrip())
        out.append(_fill(text, start, end, header, body))
    return out


def _fill(text: str, start: int, end: int, header: list[str], body: list[list[str]]) -> ResultTable:
    caption = line_caption(text, start)
    table = ResultTable(INFO.name, (start, end), columns=header, rows=body, caption=caption)
    summary = header and header[0].lower().startswith("benchmark summary")
    for r, row in enumerate(body):
        label = row[0]
        if summary and len(row) >= 2:
            m = re.match(r"^(?P<name>.*?)\s*(?:\((?P<variant>[^()]*)\))?$", label)
            cell = _SIMPLE.match(row[1])
            if cell:
                value, unit, written = number(cell.group(1)), cell.group(2), cell.group(1)
            elif re.fullmatch(r"\d+", row[1]):
                value, unit, written = float(row[1]), "count", row[1]
            else:
                continue
            metric = "count" if unit == "count" else m.group("name")
            table.measurements.append(
                Measurement(metric, value, unit, label, m.group("variant"), written, r)
            )
            continue
        for c in range(1, len(row)):
            column, cell = header[c], row[c]
            simple, mmm, change = _SIMPLE.match(cell), _MMM.match(cell), _CHANGE.match(cell)
            if simple:
                table.measurements.append(
                    Measurement("time", number(simple.group(1)), simple.group(2), label, column,
                                simple.group(1), r)
                )  # fmt: skip
            elif mmm:
                for key, metric in (
                    ("min", "min"),
                    ("mean", "mean"),
                    ("sd", "stddev"),
                    ("max", "max"),
                ):
                    table.measurements.append(
                        Measurement(metric, float(mmm.group(key)), mmm.group("unit"), label, column,
                                    mmm.group(key), r)
                    )  # fmt: skip
            elif change:
                table.measurements.append(
                    Measurement("change", float(change.group("x")), f"x {change.group('dir')}",
                                label, None, change.group("x"), r)
                )  # fmt: skip
    return table


def _run_tables(text: str) -> list[ResultTable]:
    out: list[ResultTable] = []
    current: ResultTable | None = None
    last_end = -1
    rows_seen: set[str] = set()
    for m in _RUN.finditer(text):
        if current is None or text[last_end : m.start()].strip():
            bench = re.findall(
                r"(?:dfbench|--bin tpch --|/tpch)\s+(?:--\s+)?([a-z_]\w*)", text[: m.start()]
            )
            name = bench[-1] if bench else ""
            name = "tpch" if name == "benchmark" else name
            current = ResultTable(
                INFO.name,
                (m.start(), m.end()),
                columns=["Query", "metric", "value", "unit", "rows"],
            )
            current.caption = name or None
            out.append(current)
            rows_seen = set()
        label = (
            f"{current.caption} Query {m.group('q')}"
            if current.caption
            else f"Query {m.group('q')}"
        )
        r = len(current.rows)
        if m.group("it") is not None:
            current.rows.append(
                [
                    label,
                    f"iteration {m.group('it')}",
                    m.group("t"),
                    m.group("u"),
                    m.group("rows") or "",
                ]
            )
            current.measurements.append(
                Measurement(
                    f"iteration {m.group('it')}",
                    float(m.group("t")),
                    m.group("u"),
                    label,
                    None,
                    m.group("t"),
                    r,
                )
            )
            if m.group("rows") and label not in rows_seen:
                rows_seen.add(label)
                current.measurements.append(
                    Measurement(
                        "rows returned",
                        float(m.group("rows")),
                        "count",
                        label,
                        None,
                        m.group("rows"),
                        r,
                    )
                )
        else:
            current.rows.append([label, "avg time", m.group("avg"), m.group("au"), ""])
            current.measurements.append(
                Measurement(
                    "avg time", float(m.group("avg")), m.group("au"), label, None, m.group("avg"), r
                )
            )
        current.span = (current.span[0], m.end())
        last_end = m.end()
    return out


def _mojibake() -> dict[str, str]:
    """Box-drawing characters as mail mangled them (UTF-8 read as cp1252 or Latin-1),
    each mapped to the character and two spaces: the same length."""
    out = {}
    for code in range(0x2500, 0x2580):
        raw = chr(code).encode("utf-8")
        for codec in ("cp1252", "latin-1"):
            out.setdefault(raw.decode(codec, errors="replace"), chr(code) + "  ")
    out["â”\ufffd"] = "━  "  # bytes cp1252 lacks: `━` (rich's rules) is the one that matters
    out["Â±"] = " ±"
    return out


_MOJIBAKE = _mojibake()
_MOJIBAKE_RE = re.compile("|".join(sorted(map(re.escape, _MOJIBAKE), key=len, reverse=True)))


def parse(text: str) -> list[ResultTable]:
    if "â”" in text or "â\x94" in text:  # box characters mangled by mail
        text = _MOJIBAKE_RE.sub(lambda m: _MOJIBAKE[m.group(0)], text)
    tables = _compare_tables(text) + _run_tables(text)
    return tables
