"""DataFusion benchmark output: `compare.py` tables and `dfbench` / `tpch benchmark` runs.

Recognises
- compare.py's rich box (`┏━┳━┓`, `┃ Query ┃ <base> ┃ <branch> ┃ Change ┃`, rows
  `│ QQuery 1 │ 209.82ms │ 208.29ms │ no change │`); cells are `209.82ms` or, newer,
  `45.99 / 46.51 ±0.63 / 47.70 ms`; the same table in markdown pipes;
  and the `Benchmark Summary` box
  (`│ Total Time (HEAD) │ 19310.57ms │`, `│ Queries Faster │ 11 │`);
- run lines `Query 1 iteration 0 took 2630.6 ms and returned 4 rows` and
  `Query 1 avg time: 75.75 ms`.

Measurements: compare rows give label = query, variant = the branch column, metric
`time` (or `min`, `mean`, `stddev`, `max`) in the cell's unit, and `change` with unit
`x faster` / `x slower` (`no change` gives none). Summary rows give label = the row
name, metric = the name without its `(branch)` (or `count`), variant = that branch.
Run lines give label = `<benchmark> Query N`, metric `iteration I` and `avg time`
(ms or s), and `rows returned` (count) once per query.
"""

from __future__ import annotations

import re

from extract.formats._grid import dedupe, line_caption, number
from extract.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="datafusion-bench",
    description="DataFusion compare.py and dfbench output",
    signature=(
        "box '┃ Query ┃ <base> ┃ <branch> ┃ Change ┃' with '│ QQuery N │ 46.51 ms │' rows; "
        "'Benchmark Summary' box; 'Query N iteration I took X ms and returned R rows'"
    ),
    priority=10,
    kind="result",
)

_BOX_TOP = re.compile(r"^[ \t]*[┏┌╭].*$", re.M)
_BOX_LINE = re.compile(r"^[ \t]*[┏┃┡│└├┌╭╰┗┣┠┢╞╘╒╪┼]")
_SIMPLE = re.compile(r"^\s*([\d.,]+)\s*(ns|µs|us|ms|s)\s*$")
_MMM = re.compile(
    r"^\s*(?P<min>[\d.]+)\s*/\s*(?P<mean>[\d.]+)\s*±\s*(?P<sd>[\d.]+)\s*/\s*(?P<max>[\d.]+)\s*"
    r"(?P<unit>ns|µs|us|ms|s)\s*$"
)
_CHANGE = re.compile(r"^\s*\+?(?P<x>[\d.]+)\s*x\s+(?P<dir>faster|slower)\s*$")
_RUN = re.compile(
    r"^[ \t]*Query (?P<q>\d+) (?:iteration (?P<it>\d+) took (?P<t>[\d.]+) ?(?P<u>ms|s)"
    r"(?: and returned (?P<rows>\d+) rows?)?|avg time: (?P<avg>[\d.]+) ?(?P<au>ms|s))[ \t]*$",
    re.M,
)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in re.split(r"[┃│]", line.strip())[1:-1]]


def _box(text: str, start: int) -> tuple[int, list[str]]:
    lines, pos = [], start
    for line in text[start:].splitlines(keepends=True):
        if not _BOX_LINE.match(line):
            break
        lines.append(line.rstrip("\r\n"))
        pos += len(line)
        if line.lstrip().startswith(("└", "╰", "┗")):
            break
    end = start + len("".join(x + "\n" for x in lines)) - 1
    return max(end, start), lines


def _compare_table(text: str, start: int) -> ResultTable | None:
    end, lines = _box(text, start)
    grid = [_cells(x) for x in lines if x.lstrip()[:1] in ("┃", "│")]
    if len(grid) < 2:
        return None
    header = grid[0]
    if not header or not (header[0] == "Query" or header[0].startswith("Benchmark Summary")):
        return None  # another box table: left to the generic ASCII tables
    return _fill(text, start, end, header, [r for r in grid[1:] if len(r) == len(header)])


_PIPE_HEADER = re.compile(r"^[ \t]*\|[ \t]*Query[ \t]*\|.*\|[ \t]*Change[ \t]*\|[ \t]*$", re.M)


def _pipe_table(text: str, header: re.Match) -> ResultTable | None:
    """The same table printed as markdown (`| Query | HEAD | q4 | Change |`)."""
    cols = [c.strip() for c in header.group(0).strip().strip("|").split("|")]
    body, end, pos = [], header.end(), header.end() + 1
    for line in text[pos:].splitlines(keepends=True):
        row = line.strip()
        if not row.startswith("|"):
            break
        pos += len(line)
        if set(row) <= set("|-: "):
            continue
        cells = [c.strip() for c in row.strip("|").split("|")]
        if len(cells) == len(cols):
            body.append(cells)
            end = pos - len(line) + len(line.rstrip("\r\n"))
    return _fill(text, header.start(), end, cols, body) if body else None


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


def parse(text: str) -> list[ResultTable]:
    try:
        tables = []
        for top in _BOX_TOP.finditer(text):
            if "┳" in top.group(0) or "┬" in top.group(0) or "━" in top.group(0):
                table = _compare_table(text, top.start())
                if table is not None:
                    tables.append(table)
        for header in _PIPE_HEADER.finditer(text):
            table = _pipe_table(text, header)
            if table is not None:
                tables.append(table)
        tables += _run_tables(text)
        tables.sort(key=lambda t: t.span)
        dedupe(tables, text)
        return tables
    except Exception:  # a parser bug must not lose the message; the other formats still run
        return []
