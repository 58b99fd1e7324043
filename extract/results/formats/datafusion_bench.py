"""DataFusion benchmark output: `compare.py` tables and `dfbench` / `tpch benchmark` runs.

Recognises
- compare.py's rich box (`┏━┳━┓`, `┃ Query ┃ <base> ┃ <branch> ┃ Change ┃`, rows
  `│ QQuery 1 │ 209.82ms │ 208.29ms │ no change │`, cells `209.82ms` or, newer,
  `45.99 / 46.51 ±0.63 / 47.70 ms`), the same table in markdown pipes, either one
  flattened onto one line, and the `Benchmark Summary` box (`│ Total Time (HEAD) │
  19310.57ms │`, `│ Queries Faster │ 11 │`); box characters mangled by mail (`â”‚`)
  are put back first (same length: spans hold);
- run lines `Query 1 iteration 0 took 2630.6 ms and returned 4 rows` and `Query 1 avg
  time: 75.75 ms`.

Measurements: compare rows: label = the query, variant = the branch column, `time` (or
`min`, `mean`, `stddev`, `max`) in the cell's unit, `change` in `x faster` / `x slower`
(`no change`: none). Summary rows: label = the row, metric = it without its `(branch)`
(or `count`), variant = that branch. Run lines: label `<benchmark> Query N`, `iteration
I` and `avg time` (ms or s), `rows returned` (count) once per query.

dfbench's run lines are declared rows. Not declared as rows: box tables drawn in
several box-drawing styles (and their mojibake) are read as a stream of cells.
"""

from __future__ import annotations

import re

from extract.results.formats._grid import number
from extract.results.formats._layout import GROUPED, NUM, last, line_caption
from extract.results.formats._rows import Rows, read
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

# A compare.py cell: a time (`209.82ms`), min / mean ±sd / max (newer), or the change.
_CELL = re.compile(
    rf"^\s*(?:(?P<t>{GROUPED})\s*(?P<tu>ns|µs|us|ms|s)"
    rf"|(?P<min>{NUM})\s*/\s*(?P<mean>{NUM})\s*±\s*(?P<sd>{NUM})\s*/\s*(?P<max>{NUM})\s*"
    rf"(?P<unit>ns|µs|us|ms|s)|\+?(?P<x>{NUM})\s*x\s+(?P<dir>faster|slower))\s*$"
)
_SPREAD = (("min", "min"), ("mean", "mean"), ("sd", "stddev"), ("max", "max"))
_RUN = (
    rf"(?<![\w-])Query (?P<q>\d+) (?:iteration (?P<it>\d+) took (?P<t>{NUM}) ?(?P<u>ms|s)"
    rf"(?: and returned (?P<rows>\d+) rows?)?|avg time: (?P<avg>{NUM}) ?(?P<au>ms|s))(?![\w.])"
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
            cell = _CELL.match(row[1])
            if cell and cell["t"]:
                value, unit, written = number(cell["t"]), cell["tu"], cell["t"]
            elif re.fullmatch(r"\d+", row[1]):
                value, unit, written = float(row[1]), "count", row[1]
            else:
                continue
            metric = "count" if unit == "count" else m.group("name")
            table.measurements.append(
                Measurement(metric, value, unit, label, m.group("variant"), written, r)
            )
            continue
        for column, cell in zip(header[1:], row[1:], strict=False):
            if not (c := _CELL.match(cell)):
                continue
            if c["t"]:
                found = [Measurement("time", number(c["t"]), c["tu"], label, column, c["t"], r)]
            elif c["min"]:
                found = [Measurement(metric, float(c[k]), c["unit"], label, column, c[k], r)
                         for k, metric in _SPREAD]  # fmt: skip
            else:
                found = [Measurement("change", float(c["x"]), f"x {c['dir']}", label, None,
                                     c["x"], r)]  # fmt: skip
            table.measurements += found
    return table


def _run_numbers(m: re.Match):
    if m["it"] is None:
        yield "avg time", m["avg"], m["au"]
        return
    yield f"iteration {m['it']}", m["t"], m["u"]
    yield "rows returned", m["rows"], "count"


RUNS = Rows(
    row=_RUN,
    fields=_run_numbers,
    label=lambda m: f"Query {m['q']}",
    cells=lambda m, q: (
        [q, f"iteration {m['it']}", m["t"], m["u"], m["rows"] or ""]
        if m["it"] is not None
        else [q, "avg time", m["avg"], m["au"], ""]
    ),
    columns=("Query", "metric", "value", "unit", "rows"),
)
# The benchmark the run lines come from, on the command line above them.
_BENCH = re.compile(r"(?:dfbench|--bin tpch --|/tpch)\s+(?:--\s+)?(?P<name>[a-z_]\w*)")


def _run_tables(text: str) -> list[ResultTable]:
    """Runs of dfbench lines, their queries named by the benchmark (`tpch Query 1`); the
    rows a query returned count once."""
    tables = read(RUNS, text)
    for t in tables:
        bench = last(_BENCH, text, 0, t.span[0])
        name = {"benchmark": "tpch"}.get(bench["name"], bench["name"]) if bench else None
        t.caption = name or None
        for row in t.rows:
            row[0] = f"{name} {row[0]}" if name else row[0]
        first: dict[str, Measurement] = {}
        for m in t.measurements:
            m.label = t.rows[m.row][0]
        t.measurements = [
            m
            for m in t.measurements
            if m.metric != "rows returned" or first.setdefault(m.label, m) is m
        ]
    return tables


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
