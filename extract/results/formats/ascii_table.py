"""Plain-text tables: `+---+` boxes, box-drawing tables and whitespace-aligned columns.

Recognises
- boxes drawn with `+-----+-----+` rules and `| a | b |` rows (mysql, beeline,
  sqlline, Spark `show()`), the first row being the header when a rule follows it;
- box-drawing tables (`┌─┬─┐ │ a │ b │`, `┏━┳━┓ ┃`, `╒═╤═╕`), also when only the
  row separators `│` are drawn;
- whitespace-aligned columns: a header line whose names are 2+ spaces apart,
  optionally a dashed rule, and rows under it that hold numbers. Columns come from
  the alignment (positions blank in every line), so cells may contain single spaces
  (`6.442 GiB/sec`, `change %`); an unnamed all-integer first column (a pandas index)
  is not data.

Measurements as for markdown tables: one per numeric cell under a header, label =
the row's name cell(s), metric = column header, unit from the cell, the header
(`Time(ms)`) or `s` for unit-less time tables; variant = the heading before the table.
Tables without units or benchmark words (query results, plain data) are claimed but
give no measurements.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate, count
from operator import add

from extract.results.formats._grid import (
    block_heading,
    clean_cell,
    context_before,
    dedupe,
    grid_measurements,
    line_caption,
    read_cell,
)
from extract.results.formats.base import FormatInfo, ResultTable

# (for the trigger; line breaks as `str.splitlines` has them, written as characters:
# the prefilter's Hyperscan reads no `\u` escapes)
_BREAK = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_ROW_LINE = rf"(?:^|[{_BREAK}])[ \t]*[|│┃║][^{_BREAK}]*[|│┃║][ \t]*(?:$|[{_BREAK}])"
_GAP = r"\S(?:[^\S\n]{2}|[^\S \n])[^\S\n]*\S"
_TWO_GAPS = rf"{_GAP}[^{_BREAK}]*[{_BREAK}](?s:.)*?{_GAP}"

INFO = FormatInfo(
    name="ascii-table",
    description="'+---+' boxes, box-drawing tables and whitespace-aligned columns",
    signature=(
        "'+----+----+' rules with '| a | b |' rows; box drawing '┌─┬─┐ │ a │'; "
        "whitespace-aligned columns under a header line (names 2+ spaces apart)"
    ),
    priority=40,
    kind="result",
    # A box: a row line (`| a | b |`); or whitespace columns: two lines (as
    # `str.splitlines` parts them) with a gap of two blanks, or of a blank other than
    # a space, between two words.
    trigger=_ROW_LINE + "|" + _TWO_GAPS,
    trigger_parts=((_ROW_LINE, (), ()), (_TWO_GAPS, (), ())),
)

_RULE = re.compile(r"^[ \t]*[+┌┏╒╔├┣╞╟┡└┗╘╚╭╰][-=+─━═┬┳╤╦┼╋╪╬┴┻╧╩┐┓╕╗┤┫╡╢┩┘┛╛╝╮╯:\s]*$")
_ROW = re.compile(r"^[ \t]*[|│┃║].*[|│┃║][ \t]*$")
_SPLIT = re.compile(r"[|│┃║]")
_ROW_CHARS = "|│┃║"
_RULE_STARTS = "+┌┏╒╔├┣╞╟┡└┗╘╚╭╰"
# A cell: words joined by single spaces. Two cells are apart by any other whitespace.
_TOKEN = re.compile(r"\S+(?: \S+)*")
# The line has two cells or more (a run of whitespace other than one space inside it).
_TWO_TOKENS = re.compile(r"\S(?:\s\s|[^\S ])\s*\S")
_LETTER = re.compile(r"[A-Za-z]")
_DIGIT = re.compile(r"\d")
_DASH_RULE = re.compile(r"[ \t]*-{3,}[- \t]*")

# Where str.splitlines breaks a line besides "\n", and the whitespace other than " "
# that `\s` matches (tests check both lists against Python). A "plain" text has none
# of them: its lines are `text.split("\n")` and a two-cell line has "  " in it.
LINE_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
OTHER_SPACES = "\t\x1f\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u202f\u205f\u3000"
_ASCII_ODD = [c for c in LINE_BREAKS + OTHER_SPACES if c.isascii()]
_ODD = LINE_BREAKS + OTHER_SPACES
# In plain text: a line with two cells, apart by two spaces or more (`_TWO_TOKENS`),
# from the first gap to the line's end; and a rule line (`_RULE`), the first line or
# one after a line break (a regex that starts with "\n" skips to line breaks).
_PLAIN_GAP = re.compile(r"  (?<=[^ \n]  ) *[^ \n][^\n]*")
_PLAIN_RULE_LINE = r" *[+┌┏╒╔├┣╞╟┡└┗╘╚╭╰][-=+─━═┬┳╤╦┼╋╪╬┴┻╧╩┐┓╕╗┤┫╡╢┩┘┛╛╝╮╯: ]*(?=\n|\Z)"
_PLAIN_RULE_FIRST = re.compile(_PLAIN_RULE_LINE)
_PLAIN_RULE_NEXT = re.compile("\n" + _PLAIN_RULE_LINE)
_PLAIN_ROW_LINE = r" *[|│┃║][^\n]*[|│┃║] *(?=\n|\Z)"  # `_ROW`
_PLAIN_ROW_FIRST = re.compile(_PLAIN_ROW_LINE)
_PLAIN_ROW_NEXT = re.compile("\n" + _PLAIN_ROW_LINE)


def _has_plain_rule(text: str) -> bool:
    return bool(_PLAIN_RULE_FIRST.match(text) or _PLAIN_RULE_NEXT.search(text))


def is_plain(text: str) -> bool:
    """No whitespace but " " and "\n" (`in` is a memchr; a regex class scans slower)."""
    return not any(map(text.__contains__, _ASCII_ODD if text.isascii() else _ODD))


def _lines(text: str, plain: bool = False) -> list[tuple[int, str]]:
    """(offset, line) for each line of `str.splitlines`, without its line break."""
    if plain:
        parts = text.split("\n")
        if parts[-1] == "":
            parts.pop()  # splitlines has no empty line after a final break
        # each line starts after the ones before and their breaks (C loops)
        starts = map(add, accumulate(map(len, parts), initial=0), count())
        return list(zip(starts, parts, strict=False))  # (one start more than lines)
    out, pos = [], 0
    for line in text.splitlines(keepends=True):
        out.append((pos, line.rstrip("\r\n")))
        pos += len(line)
    return out


def _may_have_box(text: str, plain: bool) -> bool:
    """A box has a rule line and two rows or more: without their characters, no box."""
    if not any(c in text for c in _ROW_CHARS) or not any(c in text for c in _RULE_STARTS):
        return False
    return not plain or _has_plain_rule(text)


def _box_lines(text: str, lines: list[tuple[int, str]], plain: bool) -> list[int]:
    """Indexes of the rule and row lines: in plain text found by regexes over the
    whole text (that skip to line breaks), else line by line."""
    if not plain:
        return [
            i for i, (_, x) in enumerate(lines) if (_RULE.match(x) and x.strip()) or _ROW.match(x)
        ]
    found = set()
    if _PLAIN_RULE_FIRST.match(text) or _PLAIN_ROW_FIRST.match(text):
        found.add(0)
    starts = [pos for pos, _ in lines]
    for pattern in (_PLAIN_RULE_NEXT, _PLAIN_ROW_NEXT):
        found.update(bisect_right(starts, m.start() + 1) - 1 for m in pattern.finditer(text))
    return sorted(found)


def _box_tables(text: str, lines: list[tuple[int, str]], plain: bool) -> list[ResultTable]:
    box_at = _box_lines(text, lines, plain)
    tables, k = [], 0
    while k < len(box_at):
        # a block: a run of consecutive rule and row lines
        i = j = box_at[k]
        while k < len(box_at) and box_at[k] == j:
            k += 1
            j += 1
        block = [line for _, line in lines[i:j]]
        kinds = ["rule" if _RULE.match(x) else "row" for x in block]
        rows = [
            [c.strip() for c in _SPLIT.split(x.strip())[1:-1]]
            for x, k in zip(block, kinds, strict=True)
            if k == "row"
        ]
        if (
            "rule" in kinds
            and len(rows) >= 2
            and len({len(r) for r in rows}) == 1
            and len(rows[0]) >= 2
        ):
            first_row = kinds.index("row")
            has_header = first_row + 1 < len(kinds) and kinds[first_row + 1] == "rule"
            header = rows[0] if has_header or all(read_cell(c) is None for c in rows[0]) else []
            body = rows[1:] if header else rows
            start = lines[i][0]
            end = lines[j - 1][0] + len(lines[j - 1][1])
            caption = line_caption(text, start)
            table = ResultTable(
                INFO.name,
                (start, end),
                columns=[clean_cell(h) for h in header],
                rows=[[clean_cell(c) for c in r] for r in body],
                caption=caption,
                variant=block_heading(text, start),
            )
            if header:
                table.measurements = grid_measurements(
                    [header], body, caption=caption, context=context_before(text, start)
                )
            tables.append(table)
    return tables


def _tokens(line: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group(0)) for m in _TOKEN.finditer(line)]


def _is_header(line: str) -> bool:
    toks = _TOKEN.findall(line)
    if len(toks) < 2 or len(line.strip()) > 200:
        return False
    # read_cell reads nothing without a digit
    return all(_LETTER.search(t) and (not _DIGIT.search(t) or read_cell(t) is None) for t in toks)


def _is_row(line: str, ncol: int) -> bool:
    toks = _TOKEN.findall(line)
    if not (2 <= len(toks) <= ncol + 2) or len(line) > 250:
        return False
    return any(read_cell(t) is not None for t in toks)


def _segments(lines: list[str]) -> list[tuple[int, int]]:
    width = max(len(x) for x in lines)
    blank = [all(i >= len(x) or x[i] == " " for x in lines) for i in range(width)]
    segs, start = [], None
    for i, b in enumerate([*blank, True]):
        if not b and start is None:
            start = i
        elif b and start is not None:
            segs.append((start, i))
            start = None
    return segs


def _two_cell_lines(lines: list[tuple[int, str]], gaps: list[int] | None) -> list[int]:
    """Indexes of the lines with two cells or more: from `gaps` (`_PLAIN_GAP` offsets in
    plain text) when given, else by `_TWO_TOKENS` on each line."""
    if gaps is None:
        return [i for i, (_, x) in enumerate(lines) if _TWO_TOKENS.search(x)]
    starts = [pos for pos, _ in lines]
    return sorted({bisect_right(starts, g) - 1 for g in gaps})


def _whitespace_tables(
    text: str, lines: list[tuple[int, str]], gaps: list[int] | None = None
) -> list[ResultTable]:
    # The header and the rows have two cells or more: most lines of a mail have not.
    # (Tabs become spaces below; either way they part two cells.)
    two_at = _two_cell_lines(lines, gaps)
    two = set(two_at)
    tables, next_i = [], 0
    for i in two_at:
        if i < next_i:
            continue
        first_row = i + 1
        if first_row < len(lines) and _DASH_RULE.fullmatch(lines[first_row][1]):
            first_row += 1
        if first_row not in two:  # (not in it when past the last line)
            continue
        next_i = i + 1
        # the first row has a number: read_cell reads nothing without a digit
        if not _DIGIT.search(lines[first_row][1]):
            continue
        line = lines[i][1].replace("\t", "    ")
        if not _is_header(line):
            continue
        ncol = len(_tokens(line))
        j = i + 1
        if j < len(lines) and _DASH_RULE.fullmatch(lines[j][1]):
            j += 1
        rows_at = []
        while j < len(lines) and _is_row(lines[j][1].replace("\t", "    "), ncol):
            rows_at.append(j)
            j += 1
        if not rows_at:
            continue
        body_lines = [lines[k][1].replace("\t", "    ") for k in rows_at]
        segs = _segments([line, *body_lines])
        head_toks = _tokens(line)

        def names(seg, head_toks=head_toks):
            return {k for k, (s, e, _) in enumerate(head_toks) if s < seg[1] and seg[0] < e}

        merged: list[list[int]] = []
        for seg in segs:
            if merged and (
                # one header name over both (`change %` over `-22.1` and a blank `%`)
                names(seg) & names(tuple(merged[-1]))
                or (
                    (not names(seg) or not names(tuple(merged[-1]))) and seg[0] - merged[-1][1] <= 1
                )
            ):
                merged[-1][1] = seg[1]
            else:
                merged.append([seg[0], seg[1]])
        header = [line[s:e].strip() for s, e in merged]
        body = [[x[s:e].strip() for s, e in merged] for x in body_lines]
        if len(merged) >= 2 and sum(1 for h in header if h) >= 2:
            start = lines[i][0]
            end = lines[rows_at[-1]][0] + len(lines[rows_at[-1]][1])
            caption = line_caption(text, start)
            table = ResultTable(
                INFO.name, (start, end), columns=header, rows=body, caption=caption,
                variant=block_heading(text, start),
            )  # fmt: skip
            table.measurements = grid_measurements(
                [header], body, caption=caption, context=context_before(text, start)
            )
            tables.append(table)
        next_i = j
    return tables


def parse(text: str) -> list[ResultTable]:
    try:
        plain = is_plain(text)
        gaps = [m.start() for m in _PLAIN_GAP.finditer(text)] if plain else None
        boxes = _may_have_box(text, plain)
        # a whitespace table has two lines with two cells or more
        columns = gaps is None or len(gaps) > 1
        if not boxes and not columns:
            return []
        lines = _lines(text, plain)
        tables = _box_tables(text, lines, plain) if boxes else []
        claimed = [t.span for t in tables]
        whitespace = _whitespace_tables(text, lines, gaps) if columns else []
        for t in whitespace:
            if not any(t.span[0] < e and s < t.span[1] for s, e in claimed):
                tables.append(t)
        tables.sort(key=lambda t: t.span)
        dedupe(tables, text)
        return tables
    except Exception:  # a parser bug must not lose the message; the other formats still run
        return []
