"""Comma-, tab- or semicolon-separated tables with a header row, as people paste them
from spreadsheets and tool CSV exports: returns one `ResultTable` per table.

    Metric Name, Min, Max, Mean, Median, P95
    topology-0, 0.038543, 0.362319, 0.099407, 0.084507, 0.234849

A table is a header line and at least one data line, all with the same delimiter
and the same number (three or more) of cells; the header's cells are names (no
numbers); in every data line each cell after the first is a number (the first may
be a name). Rows: label = the first cell (`topology-0`; a number there is a setting
and is labelled with its column's name: `threads 8`); metric =
the column's name; unit = the one the header names (`Time (ms)`, `latency[us]`,
`throughput, ops/s`), else the one unit the heading above states (`latencies in ms`),
else none. A table that names no unit and no measure
(`host,cores,memory_gb`: an inventory) is claimed but gives no measurements.
Variant = the heading above the table.

A table flattened onto one line (records apart by a blank only) is read from the
header's names and the data's numbers (`benchmark,before_ms,after_ms readSmall,12.5,
10.25 readLarge,…`). Pure function; never raises.

Not declared as rows: a table of any CSV/TSV export, whose columns come from its header
line split by whichever delimiter its lines share. (It is a generic layout, but not
marked `generic`: the classifier's weights were fitted with it counted as a tool's
output; marking it changes them, see `make fit`.)
"""

from __future__ import annotations

import csv
import re
from itertools import accumulate, compress, count, repeat
from operator import add

from extract.results.formats._grid import MEASURE_WORDS, header_unit, said_unit
from extract.results.formats._layout import heading_above, overlaps
from extract.results.formats._rows import measure
from extract.results.formats.base import FormatInfo, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="delimited",
    description="CSV/TSV tables with a header row and numeric columns",
    signature="a header line of names and data lines of numbers, all split by the same "
    "`,`, TAB or `;` into the same number (3+) of cells",
    priority=40,
    # a header and the line under it, each with two of one delimiter or more (the
    # classes exclude what follows them: no backtracking, also in a long line)
    trigger=r"(?m:^[^\n,]*,[^\n,]*,[^\n]*\n[^\n,]*,[^\n,]*,"
    r"|^[^\n\t]*\t[^\n\t]*\t[^\n]*\n[^\n\t]*\t[^\n\t]*\t"
    r"|^[^\n;]*;[^\n;]*;[^\n]*\n[^\n;]*;[^\n;]*;"
    # or a table flattened onto one line: six of one delimiter on a line
    r"|^(?:[^\n,]*,){6}|^(?:[^\n\t]*\t){6}|^(?:[^\n;]*;){6})",
)

_DELIMITERS = ("\t", ",", ";")
# A column name: words, with an optional unit in brackets; no digits-only names.
_NAME = re.compile(r"[A-Za-z_%#][\w .,%#/+\-:]*?(?:\s*[(\[][^()\[\]]{1,16}[)\]])?")
# (a comma inside a name came from a quoted cell: `"bulk, no index"`)
_LABEL = re.compile(r"[A-Za-z_][^\t;]{0,80}")
# Cells that read as numbers but are not measurements of a row: dates, times, versions.
# (only searched: a time or a version is tried from the start of its digits, which
# no later start in them can do better than)
_NOT_A_MEASURE = re.compile(r"\d{4}-\d\d-\d\d|(?<!\d)\d++(?::\d\d|\.\d+\.\d+)")


def _cells(line: str, delimiter: str) -> list[str]:
    return [c.strip() for c in next(csv.reader([line], delimiter=delimiter))]


def _number(cell: str) -> float | None:
    if not cell or _NOT_A_MEASURE.search(cell):
        return None
    return parse_number(cell)


def _is_header(cells: list[str]) -> bool:
    return len(cells) >= 3 and all(c and _NAME.fullmatch(c) for c in cells)


def _is_data(cells: list[str], width: int) -> bool:
    if len(cells) != width:
        return False
    first_ok = _number(cells[0]) is not None or bool(_LABEL.fullmatch(cells[0]))
    return first_ok and all(_number(c) is not None for c in cells[1:])


def parse(text: str) -> list[ResultTable]:
    try:
        tables = _tables(text)
    except csv.Error:  # the csv module gave up on some line: the text is no CSV table
        tables = []
    tables += _flat_tables(text, [t.span for t in tables])
    return sorted(tables, key=lambda t: t.span)


def _tables(text: str) -> list[ResultTable]:
    lines = text.split("\n")
    # A header and the data line under it each have three cells or more, so two of
    # the delimiter or more: only such pairs of lines are looked at. (Not when the
    # csv module could raise on some line, "\r" inside it or a field over its size
    # limit: then every line is read, as the error stops the whole parse.)
    if "\r" in text or len(text) > csv.field_size_limit():
        starts = range(len(lines) - 1)
    else:
        starts = _header_candidates(text, lines)
        if not starts:
            return []
    # where each line starts (and one past the end): lengths so far plus line breaks
    offsets = list(map(add, accumulate(map(len, lines), initial=0), count()))
    tables = []
    floor = i = 0  # (the end of the last table, and the line after it)
    for start in starts:
        if start < i or not any(d in lines[start] for d in _DELIMITERS):  # not a header
            continue
        table = _table_at(text, lines, offsets, start, floor)
        if table is None:
            continue
        tables.append(table)
        floor = table.span[1]
        i = 1 + next(k for k in range(start, len(lines)) if offsets[k + 1] - 1 >= floor)
    return tables


def _header_candidates(text: str, lines: list[str]) -> list[int]:
    """The lines that have two of a delimiter or more, and so has the next line."""
    found = set()
    for delimiter in _DELIMITERS:
        if text.count(delimiter) < 4:
            continue
        # (indexes of the lines with two or more, counted and picked in C)
        two = list(compress(count(), map((1).__lt__, map(str.count, lines, repeat(delimiter)))))
        pairs = set(two)
        found.update(i for i in two if i + 1 in pairs)
    return sorted(found)


def _table_at(text, lines, offsets, i, floor) -> ResultTable | None:
    header_line = lines[i]
    for delimiter in _DELIMITERS:
        if delimiter not in header_line:
            continue
        header = _cells(header_line, delimiter)
        if not _is_header(header):
            continue
        data: list[list[str]] = []
        k = i + 1
        while k < len(lines) and delimiter in lines[k]:
            cells = _cells(lines[k], delimiter)
            if not _is_data(cells, len(header)):
                break
            data.append(cells)
            k += 1
        if not data:
            continue
        start = offsets[i] + len(header_line) - len(header_line.lstrip())
        end = offsets[k - 1] + len(lines[k - 1].rstrip())
        return _build(text, header, data, (start, end), floor)
    return None


def _build(
    text: str, header: list[str], data: list[list[str]], span, floor, context: str = ""
) -> ResultTable:
    """The table of a header and its data lines, with its measurements. `context`:
    the text before it on its line, when it was run onto one line."""
    heading = heading_above(text, span[0], floor)
    units = [header_unit(c)[1] for c in header[1:]]
    # plain data (an inventory of hosts and cores) names no unit and no measure
    measured = any(units) or bool(MEASURE_WORDS.search(" ".join([*header, heading or ""])))
    table = ResultTable(format=INFO.name, span=span, columns=header, rows=data, variant=heading)
    # no unit in the header: the one the sentence above states (`latencies in ms`)
    said = None if any(units) else said_unit(heading or "") or said_unit(context)
    for r, cells in enumerate(data if measured else ()):
        # the first column is the row's key: a name, or a setting (threads, size)
        label = cells[0] if _number(cells[0]) is None else f"{header[0]} {cells[0]}"
        for column, unit, written in zip(header[1:], units, cells[1:], strict=True):
            m = measure(column, written, _number(written), unit or said, label=label, row=r)
            if m:
                table.measurements.append(m)
    return table


# ---------------------------------------------------------------- run onto one line

_FLAT_LINE = 80
_LAST_SENTENCE = re.compile(r"[.!?:]\s+")


def _flat_tables(text: str, taken: list[tuple[int, int]]) -> list[ResultTable]:
    """A table flattened onto one line (GitBox mail): the records follow each other,
    so the piece between two delimiters where one record ends holds the last cell of
    one and the first of the next (`after_ms readSmall`, `10.25 readLarge`). The
    header's names and the data's numbers tell the records' width."""
    tables = []
    pos = 0
    for line in text.split("\n"):
        if len(line) >= _FLAT_LINE:
            for delimiter in _DELIMITERS:
                if 6 <= line.count(delimiter) <= 5000:
                    for table in _flat_line(text, pos, line, delimiter):
                        if not overlaps(table.span, taken):
                            tables.append(table)
                            taken.append(table.span)
        pos += len(line) + 1
    return tables


def _split_last(piece: str) -> tuple[str, str] | None:
    """`after_ms readSmall` → (`after_ms`, `readSmall`): at the last blank."""
    parts = piece.strip().rsplit(None, 1)
    return (parts[0], parts[1]) if len(parts) == 2 else None


def _flat_line(text: str, pos: int, line: str, delimiter: str) -> list[ResultTable]:
    pieces = line.split(delimiter)
    offsets = list(accumulate((len(p) + 1 for p in pieces), initial=0))
    # (a header's middle pieces are column names: how many pieces from each one on
    # read as names, each piece matched once, bounds the widths tried at each start)
    names = [0] * (len(pieces) + 1)
    for i in range(len(pieces) - 1, -1, -1):
        piece = pieces[i].strip()
        names[i] = names[i + 1] + 1 if piece and _NAME.fullmatch(piece) else 0
    found: list[ResultTable] = []
    k = 0
    while k < len(pieces) - 5:
        # (the header's first name: the last words of the piece before its second)
        head = _LAST_SENTENCE.split(pieces[k])[-1].strip()
        if len(head.split()) > 3:
            head = head.split()[-1]
        widths = range(3, min(13, names[k + 1] + 3)) if head and _NAME.fullmatch(head) else ()
        at = (_flat_at(text, pos, pieces, offsets, head, k, width) for width in widths)
        table = next((t for t in at if t is not None), None)
        if table is None:
            k += 1
            continue
        found.append(table)
        k = next((n for n, o in enumerate(offsets) if pos + o >= table.span[1]), len(pieces))
    return found


def _flat_at(text, pos, pieces, offsets, head, k, width) -> ResultTable | None:
    # (`head` and the pieces up to the last are names: `_flat_line` tries no other)
    if k + width >= len(pieces):
        return None
    names = [p.strip() for p in pieces[k + 1 : k + width - 1]]
    junction = _split_last(pieces[k + width - 1])
    if junction is None or not _NAME.fullmatch(junction[0]):
        return None
    header = [head, *names, junction[0]]
    data: list[list[str]] = []
    first, n = junction[1], k + width
    while n + width - 2 < len(pieces):
        middle = [p.strip() for p in pieces[n : n + width - 2]]
        last_piece = pieces[n + width - 2].strip()
        cut = _split_last(last_piece)
        if _number(last_piece) is not None:
            last, nxt = last_piece, None
        elif cut and _number(cut[0]) is not None:
            last, nxt = cut
        else:
            lead = last_piece.split(None, 1)
            if not lead or _number(lead[0]) is None:
                break
            last, nxt = lead[0], None  # the table ends in this piece: prose follows
        cells = [first, *middle, last]
        if not _is_data(cells, width):
            break
        data.append(cells)
        end = text.find(last, pos + offsets[n + width - 2]) + len(last)
        if nxt is None:
            break
        first, n = nxt, n + width - 1
    if len(data) < 2:
        return None
    start = pos + offsets[k] + pieces[k].rfind(head)
    context = text[max(pos, start - 400) : start]
    return _build(text, header, data, (start, end), pos, context)
