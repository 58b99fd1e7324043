"""JIRA wiki-markup tables: `||header||header||` rows and `|cell|cell|` rows.

Recognises a block of lines starting with `|` that has at least one `||` header row
(no markdown `---` separator), also flattened onto one line (`||h||h|| |a|1| |b|2|`).
Rows that the mail gateway hard-wrapped (a line not ending with `|`) are joined again;
`{color}`, `{{mono}}`, `*bold*` and `[text|link]` markup is removed from the cells.

Several header rows make column groups: a group name written once over its columns
(`|| ||GCS|| || ||HDFS|| ||`) covers them, and a name spanning the whole table
(`TeraGen 1TB`) becomes the caption. Measurements: one per numeric cell. When the row
names carry the unit (`|CPU, ms|1,430|...`), the rows are metrics: metric = `CPU`,
unit = `ms`, variant = the column path (`GCS / No changes`), label = the caption.
Otherwise label = row name, metric = column header (unit from the cell or header),
variant = column groups, else the heading line before the table.
"""

from __future__ import annotations

import re
from itertools import accumulate

from extract.results.formats._grid import clean_cell, grid_table, numeric_free, read_cell
from extract.results.formats._layout import line_caption, overlaps
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="jira-table",
    description="JIRA wiki-markup tables ('||h||' / '|c|')",
    signature="'||h1||h2||' header rows and '|c1|c2|' rows (no '---' separator), wrapped rows",
    priority=30,
    generic=True,
    kind="result",
    trigger=r"\|\|",
    needles=("||",),
)

_LINK = re.compile(r"\[([^\[\]|]*)\|[^\[\]]*\]")


def _cells(row: str) -> list[str]:
    s = _LINK.sub(r"\1", row.strip()).replace("||", "|")  # (a header's bars as a row's)
    return [c.strip() for c in s.removeprefix("|").removesuffix("|").split("|")]


def _blocks(text: str) -> list[tuple[int, int, list[str]]]:
    """(start, end, logical rows) of each run of `|` lines, wrapped rows rejoined."""
    out = []
    lines = text.splitlines(keepends=True)
    offsets = list(accumulate(map(len, lines), initial=0))  # (where each line starts)
    i = 0
    while i < len(lines):
        if not lines[i].lstrip().startswith("|"):
            i += 1
            continue
        start, rows = offsets[i], []
        while i < len(lines) and lines[i].lstrip().startswith("|"):
            row = lines[i].strip()
            for _ in range(4):  # (a row the gateway wrapped: up to four more lines)
                if row.endswith("|") or i + 1 >= len(lines) or not lines[i + 1].strip():
                    break
                i += 1
                nxt = lines[i].strip()
                row += ("" if nxt.startswith("|") else " ") + nxt
            end = offsets[i] + len(lines[i].rstrip("\r\n"))
            rows.append(row)
            i += 1
        out.append((start, end, rows))
    return out


def _expand(level: list[str], first_value: int, ncol: int) -> list[str]:
    """A group name written once over its columns → one entry per column."""
    cols = list(range(first_value, ncol))
    marks = [(i, level[i]) for i in cols if i < len(level) and level[i].strip()]
    out = [""] * ncol
    if not marks:
        return out
    k, m = len(marks), len(cols)
    for j, c in enumerate(cols):
        if m % k == 0:
            out[c] = marks[j // (m // k)][1]
        else:  # nearest mark (names are centred or left-aligned over their group)
            out[c] = min(marks, key=lambda mk: (abs(mk[0] - c), -mk[0]))[1]
    return out


def _table(text: str, start: int, end: int, rows: list[str]) -> ResultTable | None:
    if not any(r.startswith("||") for r in rows):
        return None
    if any(re.fullmatch(r"\|?\s*:?-{2,}.*", r) and set(r) <= set("|-: ") for r in rows):
        return None  # a markdown table
    cells = [_cells(r) for r in rows]
    ncol = max(len(c) for c in cells)
    if ncol > 60:
        return None  # not a table anyone reads
    # header rows: names only, marked `||` (or, under one, filled without a `||`)
    header_levels: list[list[str]] = []
    for raw, row in zip(rows, cells, strict=True):
        rest = [clean_cell(c) for c in row[1:]]
        marked = raw.startswith("||") or (header_levels and rest and all(rest))
        if not (marked and numeric_free(rest)):
            break
        header_levels.append([clean_cell(c) for c in row] + [""] * (ncol - len(row)))
    body = [c + [""] * (ncol - len(c)) for c in cells[len(header_levels) :]]
    if not body or not header_levels:
        return None
    first_value = 1 if any(read_cell(b[0]) is None for b in body) else 0
    caption = None
    levels = [header_levels[-1]]
    for level in header_levels[:-1]:
        expanded = _expand(level, first_value, ncol)
        names = {x for x in expanded[first_value:] if x}
        if len(names) == 1 and all(expanded[first_value:]):
            caption = names.pop()  # spans the whole table
            continue
        levels.insert(len(levels) - 1, expanded)
    columns = [" / ".join(x for x in col if x) for col in zip(*levels, strict=True)]
    caption = caption or line_caption(text, start)
    return grid_table(
        INFO.name, text, (start, end), levels, body, columns=columns, caption=caption, clean=True
    )


_INLINE_HEADER = re.compile(r"\|\|(?:[^|\n]*\|\|){2,}")
# (the spaces before a row are stepped over apart: a row pattern led by `[ \t]*` read
# a run of spaces again from each of them when searched)
_ROW_INDENT = re.compile(r"[ \t]*")


def _inline_blocks(text: str) -> list[tuple[int, int, list[str]]]:
    """A table flattened onto one line: `||h||h|| |a|1| |b|2| more text`."""
    out = []
    for h in _INLINE_HEADER.finditer(text):
        ncol = len(_cells(h.group(0)))
        # a cell may hold a `[text|link]` with its own pipe
        row = re.compile(rf"\|(?!\|)(?:(?:\[[^\[\]\n]*\]|[^|\n])*+\|){{{ncol}}}")
        rows, pos = [h.group(0)], h.end()
        while (m := row.match(text, _ROW_INDENT.match(text, pos).end())) is not None:
            rows.append(m.group())
            pos = m.end()
        if len(rows) >= 2:
            out.append((h.start(), pos, rows))
    return out


def parse(text: str) -> list[ResultTable]:
    inline = _inline_blocks(text)
    taken = [(start, end) for start, end, _ in inline]
    blocks = [b for b in _blocks(text) if not overlaps(b[:2], taken)]
    found = (_table(text, start, end, rows) for start, end, rows in sorted(inline + blocks))
    return [t for t in found if t is not None]
