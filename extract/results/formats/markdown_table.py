"""GitHub-flavoured markdown pipe tables, also when flattened onto one line.

Recognises a header row, a separator row (`|---|:--:|` or `-- | --` without outer
pipes) and the rows after it. A GitBox mail that flattened the comment onto one line
(`a | b -- | -- 1 | 2 3 | 4`) is read using the separator's column count; HTML tags
around it are ignored.

Measurements: one per numeric cell, label = the row's name cell(s) (several name
columns become `header=value, ...`; unit-less numeric columns left of the measured
ones are settings and go into the label), metric = column header (unit stripped:
`Best Time(ms)`), variant = the heading line before the table (`**tpcds — branch**`,
`Without the fix:`), unit from the cell (`9 sec`, `50.0s`, `2.1 GiB`, `99.06%`), else
the header, else `s` in tables whose headers speak of time but print no unit.
Cells that are prose with several numbers (`First run: 9.52s end-to-end (1.64s Spark
job)`) give one measurement per number that carries a unit. Tables without units
or benchmark words (plain data) are claimed but give no measurements.
"""

from __future__ import annotations

import os
import re
from itertools import accumulate

from extract.results.formats._grid import composite_measurements, grid_table, read_cell
from extract.results.formats._layout import GROUPED, line_caption, line_end, mask_tags, overlaps
from extract.results.formats.base import FormatInfo, Measurement, ResultTable
from extract.results.units import to_si

INFO = FormatInfo(
    name="markdown-table",
    description="Markdown pipe tables, also flattened onto one line",
    signature="'| a | b |' header + '|---|---|' (or 'a | b' + '-- | --') separator + pipe rows",
    priority=30,
    generic=True,
    kind="result",
    trigger=r"--:?[ \t]*[|<]|\|:?-:?\|",
    needles=("|", "<"),  # the trigger ends with one of them
)

# The separator row (`|---|:--:|`, `-- | --`): on a line of its own, or inside a line.
_SEP = r"(?:\|[ \t]*)?:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)+\|?"
# (on a line of its own and between bars, one hyphen makes a cell, as GitHub's tables
# allow: `|-|-|-|`; inside a flattened line two are needed)
_SEP_LINE = re.compile(rf"^[ \t>]*(?:{_SEP}|\|(?:[ \t]*:?-:?[ \t]*\|){{2,}})[ \t]*$", re.M)
_SEP_INLINE = re.compile(rf"(?<![\w-]){_SEP}(?![\w-])")


_CELL_BAR = re.compile(r"(?<!\\)\|")


def _long_line_above(view: str, line_start: int) -> bool:
    """The line above has a bar and is 60 characters or more, or this line is one
    long word: a gateway's hard wrap may have cut the header there, leaving its last
    cell alone on this line."""
    if line_start == 0:
        return False
    above_start = view.rfind("\n", 0, line_start - 1) + 1
    if "|" not in view[above_start : line_start - 1]:
        return False
    if line_start - 1 - above_start >= 60:
        return True
    # one word too long to fit after the line above (a link): the wrap moved it down
    word = view[line_start : line_end(view, line_start)].strip()
    return len(word) >= 20 and " " not in word


def _split_row(line: str) -> list[str]:
    s = line.strip().lstrip(">").strip().removeprefix("|")
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    return [c.strip() for c in _CELL_BAR.split(s)]


def _line_tables(view: str) -> list[tuple[tuple[int, int], list[str], list[list[str]]]]:
    found = []
    covered = 0  # the end of the last table found: separators inside it are its rows
    for sep in _SEP_LINE.finditer(view):
        if sep.start() < covered or sep.start() == 0:  # (inside the last table; no header)
            continue
        head_end = sep.start() - 1
        head_start = view.rfind("\n", 0, head_end) + 1
        header_line = view[head_start:head_end]
        if "|" not in header_line and not _long_line_above(view, head_start):
            continue
        ncol = len(_split_row(sep.group(0)))
        header = _split_row(header_line)
        # a table without outer pipes (pasted from a spreadsheet) ends a row whose
        # last cell is empty with a bar: `Baseline |   |` has three cells
        bare = not sep.group(0).strip().lstrip(">").strip().startswith("|")
        if bare and len(header) == ncol - 1 and header_line.rstrip().endswith("|"):
            header.append("")
        # a header a gateway hard-wrapped: the lines above go with it while it has
        # fewer cells than the rule has columns
        for _ in range(4 * ncol):
            if len(header) >= ncol or head_start == 0:
                break
            above_start = view.rfind("\n", 0, head_start - 1) + 1
            above = view[above_start : head_start - 1]
            if not above.strip():
                break
            longer = above.rstrip() + " " + header_line.lstrip()
            if len(joined := _split_row(longer)) > ncol:
                break
            header_line, header, head_start = longer, joined, above_start
        if len(header) != ncol:
            continue
        rows, pos, end = [], sep.end(), sep.end()
        while pos < len(view):
            nl = line_end(view, pos + 1)
            line = view[pos:nl].strip("\n")
            if line.strip() and "|" not in line and nl < len(view):
                # a gateway's wrap before the first bar: the name alone on its line
                nxt_end = line_end(view, nl + 1)
                if view[nl + 1 : nxt_end].lstrip().startswith("|"):
                    line, nl = line.rstrip() + " " + view[nl + 1 : nxt_end].lstrip(), nxt_end
            if "|" not in line or not line.strip():
                break
            cells = _split_row(line)
            # a row broken by a hard wrap: the next lines complete its cells
            while len(cells) < ncol and nl < len(view):
                nxt_end = line_end(view, nl + 1)
                nxt = view[nl + 1 : nxt_end]
                longer = line.rstrip() + " " + nxt.lstrip()
                if not nxt.strip() or len(joined := _split_row(longer)) > ncol:
                    break
                line, cells, nl = longer, joined, nxt_end
            rows.append(cells)
            pos = end = nl
        if rows:
            found.append(((head_start, end), header, rows))
            covered = end
    return found


# A value that opens a piece (`9 sec`, `-1,000`, `1e5 ms`), with its unit.
_VALUE_PREFIX = re.compile(rf"^\s*({GROUPED}(?:\s?[A-Za-zµμ%][A-Za-zµμ/]*)?)(?=\s|$)")


def _split_junction(piece: str) -> tuple[str, str]:
    """`9 sec 1000` → (`9 sec`, `1000`): last cell of a row and first cell of the next."""
    m = _VALUE_PREFIX.match(piece)
    if m and read_cell(m.group(1)) is not None:
        return m.group(1).strip(), piece[m.end() :].strip()
    m2 = re.match(rf"^\s*((?=\d){GROUPED})\s+(\S.*)$", piece)  # (a number, digit first)
    if m2 and read_cell(m2.group(1)) is not None:
        return m2.group(1), m2.group(2).strip()
    parts = piece.strip().rsplit(None, 1)
    return (parts[0], parts[1]) if len(parts) == 2 else (piece.strip(), "")


def _empty_last_cell(piece: str, header: list[str], rows: list[list[str]], first: str) -> bool:
    """Whether a single word between a row's last bar and the next row's first is
    the next row's first cell (its own last cell empty), not its last cell: so when
    it is not a value and the last column has no name (a spreadsheet's empty column),
    it begins as this row's first cell does (`org.example.bench.…`), or the last
    column has held only values so far."""
    if " " in piece or read_cell(piece) is not None:
        return False
    if not header[-1] or len(os.path.commonprefix([piece, first])) >= 6:
        return True
    lasts = [r[-1] for r in rows if r[-1]]
    return bool(lasts) and all(read_cell(c) is not None for c in lasts)


def _header_start(before: str) -> int:
    """Where the first header cell begins in the text before a flattened table."""
    breaks = re.finditer(r"\s{2,}|[.!?:]\s+(?=[A-Z])|\n", before)
    return max((m.end() for m in breaks), default=0)


def _inline_tables(view: str) -> list[tuple[tuple[int, int], list[str], list[list[str]]]]:
    found = []
    covered = 0  # the end of the last table found: separators inside it are its rows
    for sep in _SEP_INLINE.finditer(view):
        if sep.start() < covered:
            continue
        # a header is never longer than this: keeps flattened megabyte lines linear
        line_start = max(view.rfind("\n", 0, sep.start()) + 1, sep.start() - 3000)
        eol = line_end(view, sep.end())
        if not view[line_start : sep.start()].strip() or not view[sep.end() : eol].strip():
            continue  # a separator on a line of its own: the line form handles it
        ncol = len(re.findall(r":?-{2,}:?", sep.group(0)))
        outer = sep.group(0).lstrip().startswith("|")
        read = _inline_outer if outer else _inline_bare
        item = read(view, sep.start(), sep.end(), line_start, eol, ncol)
        if item is None and outer:
            # `Baseline | | -- | -- | --`: the bar before the rule ends a header whose
            # last cell is empty, in a table without outer bars
            item = _inline_bare(view, sep.start() + 1, sep.end(), line_start, eol, ncol)
        if item:
            found.append(item)
            covered = item[0][1]
    return found


def _inline_outer(view, sep_start, sep_end, line_start, line_end, ncol):
    """`| a | b | |---|---| | 1 | 2 | | 3 | 4 |` on one line (the rule at
    `sep_start:sep_end`)."""
    before = view[line_start:sep_start].rstrip()
    if not before.endswith("|"):
        return None
    pipes = [i for i, c in enumerate(before) if c == "|"]
    if len(pipes) < ncol + 1:
        return None
    head_open = pipes[-(ncol + 1)]
    header = [c.strip() for c in before[head_open + 1 : -1].split("|")]
    parts = view[sep_end:line_end].split("|")
    offsets = list(accumulate((len(p) + 1 for p in parts), initial=sep_end))  # (of each part)
    rows, i, end = [], 1, None
    if parts[0].strip():
        return None
    while i + ncol < len(parts):
        rows.append([c.strip() for c in parts[i : i + ncol]])
        end = offsets[i + ncol]  # the closing pipe of this row
        if parts[i + ncol].strip():
            break
        i += ncol + 1
    return ((line_start + head_open, end), header, rows) if rows else None


def _inline_bare(view, sep_start, sep_end, line_start, line_end, ncol):
    """`a | b -- | -- 1 | 2 3 | 4`: rows run into each other (`2 3`)."""
    before = view[line_start:sep_start]
    pieces = before.split("|")
    if len(pieces) < ncol or ncol < 2:
        return None
    first_piece = "|".join(pieces[: len(pieces) - ncol + 1])
    cut = _header_start(first_piece)
    first = first_piece[cut:]
    header = [first.strip()] + [p.strip() for p in pieces[len(pieces) - ncol + 1 :]]
    header_start = line_start + cut + (len(first) - len(first.lstrip()))
    parts = view[sep_end:line_end].split("|")
    nrows = (len(parts) - 1) // (ncol - 1)
    if nrows < 1:
        return None
    rows: list[list[str]] = []
    carry, idx = parts[0].strip(), 1
    for _ in range(nrows):
        cells = [carry] + [p.strip() for p in parts[idx : idx + ncol - 2]]
        idx += ncol - 2
        last, carry = _split_junction(parts[idx])
        piece = parts[idx].strip()
        more = idx + ncol - 1 < len(parts)
        if more and piece and not carry and _empty_last_cell(piece, header, rows, cells[0]):
            last, carry = "", piece
        idx += 1
        rows.append(cells + [last])
        if not carry:
            break
    last_part_start = sep_end + len("|".join(parts[: idx - 1])) + 1
    hit = view.find(rows[-1][-1], last_part_start, line_end) if rows[-1][-1] else -1
    end = hit + len(rows[-1][-1]) if hit >= 0 else last_part_start
    return (header_start, end), header, rows


def parse(text: str) -> list[ResultTable]:
    view = mask_tags(text)
    raw = _line_tables(view)
    taken = [span for span, _, _ in raw]
    raw += [item for item in _inline_tables(view) if not overlaps(item[0], taken)]
    tables = []
    composite_all = []
    for span, header, rows in sorted(raw):
        caption = line_caption(view, span[0])
        table = grid_table(INFO.name, view, span, [header], rows, caption=caption, clean=True)
        if not table.measurements:
            # cells that are prose with several numbers, named by the first column
            named = header[0] and all(read_cell(r[0]) is None and ":" not in r[0] for r in rows)
            comp = composite_measurements(header, rows, label_col=0 if rows and named else None)
            if len(comp) >= 2:
                table.measurements = [m for m, _, _ in comp]
                composite_all += comp
        tables.append(table)
    _name_bare_values(composite_all)
    return tables


def _name_bare_values(found: list[tuple[Measurement, bool, bool]]) -> None:
    """Cells like `9.30s (1.45s)` take the names the author gave the same positions
    elsewhere in the message (`9.52s end-to-end (1.64s Spark job)`)."""
    names: dict[tuple[bool, str | None], str] = {}
    for m, inside, explicit in found:
        if explicit:  # keyed by position and dimension: `1.77 ms` is not `-72% time`
            names.setdefault((inside, to_si(1.0, m.unit)[1]), m.metric)
    for m, inside, explicit in found:
        key = (inside, to_si(1.0, m.unit)[1])
        if not explicit and key in names:
            m.metric = names[key]
