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

Line breaks separate the records, so a mail flattened onto one line gives nothing
here. Pure function; never raises.
"""

from __future__ import annotations

import csv
import re
from itertools import accumulate, compress, count, repeat
from operator import add

from extract.results.formats._context import block_heading, measure
from extract.results.formats._grid import MEASURE_WORDS, header_unit, said_unit
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
    r"|^[^\n;]*;[^\n;]*;[^\n]*\n[^\n;]*;[^\n;]*;)",
)

_DELIMITERS = ("\t", ",", ";")
# A column name: words, with an optional unit in brackets; no digits-only names.
_NAME = re.compile(r"[A-Za-z_%#][\w .,%#/+\-:]*?(?:\s*[(\[][^()\[\]]{1,16}[)\]])?")
# (a comma inside a name came from a quoted cell: `"bulk, no index"`)
_LABEL = re.compile(r"[A-Za-z_][^\t;]{0,80}")
# Cells that read as numbers but are not measurements of a row: dates, times, versions.
_NOT_A_MEASURE = re.compile(r"\d{4}-\d\d-\d\d|\d+:\d\d|\d+\.\d+\.\d+")


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
        return _tables(text)
    except csv.Error:  # the csv module gave up on some line: the text is no CSV table
        return []


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
    floor = 0
    i = 0
    for start in starts:
        if start < i:
            continue
        i = start
        line = lines[i]
        if "," not in line and "\t" not in line and ";" not in line:  # not a header
            continue
        table = _table_at(text, lines, offsets, i, floor)
        if table is None:
            continue
        tables.append(table)
        floor = table.span[1]
        i = 1 + next(k for k in range(i, len(lines)) if offsets[k + 1] - 1 >= floor)
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
        heading = block_heading(text, start, floor)
        # plain data (an inventory of hosts and cores) names no unit and no measure
        measured = any(header_unit(c)[1] for c in header[1:]) or bool(
            MEASURE_WORDS.search(" ".join([*header, heading or ""]))
        )
        table = ResultTable(
            format=INFO.name,
            span=(start, offsets[k - 1] + len(lines[k - 1].rstrip())),
            columns=header,
            rows=data,
            variant=heading,
        )
        # no unit in the header: the one the sentence above states (`latencies in ms`)
        said = None if any(header_unit(c)[1] for c in header[1:]) else said_unit(heading or "")
        for r, cells in enumerate(data if measured else ()):
            # the first column is the row's key: a name, or a setting (threads, size)
            label = cells[0] if _number(cells[0]) is None else f"{header[0]} {cells[0]}"
            for column, written in zip(header[1:], cells[1:], strict=True):
                m = measure(
                    column,
                    written,
                    _number(written),
                    header_unit(column)[1] or said,
                    label=label,
                    row=r,
                )
                if m:
                    table.measurements.append(m)
        return table
    return None
