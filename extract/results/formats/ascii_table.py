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
  is not data;
- lists with no header, two lines or more of `name  value` or `name  from -> to`
  (two blanks or more after the name), under a title that states their one unit
  (`Results (ops/sec):`, `Query times (s):`) and names no settings.

Measurements as `_grid` reads a grid (unit from the cell, the header: `Time(ms)`, or
`s` in a time table); tables without units or benchmark words (query results, plain
data) are claimed but give none.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import partial
from itertools import accumulate, count, groupby, islice, takewhile
from operator import add, itemgetter

from extract.results.formats._grid import grid_table, is_unit, numeric_free, read_cell, said_unit
from extract.results.formats._layout import (
    ARROW,
    DIGIT,
    FLOAT,
    GROUPED,
    LETTER,
    line_caption,
    overlaps,
)
from extract.results.formats.base import FormatInfo, ResultTable

# Where str.splitlines breaks a line besides "\n" (a test checks the list against Python).
LINE_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
# (for the trigger, written as characters: the prefilter's Hyperscan reads no `\u` escapes)
_BREAK = "\n" + LINE_BREAKS
_ROW_LINE = rf"(?:^|[{_BREAK}])[ \t]*[|│┃║][^{_BREAK}]*[|│┃║][ \t]*(?:$|[{_BREAK}])"
_GAP = r"\S(?:[^\S\n]{2}|[^\S \n])[^\S\n]*\S"
_TWO_GAPS = rf"{_GAP}[^{_BREAK}]*[{_BREAK}](?s:.)*?{_GAP}"

# Two lines in a row with column bars, or a bar line over a rule with a junction
# (psql's ` a | b ` over `---+---`, divan's tree under its header).
_BARS = "|│┃║"
_BAR_LINES = (
    rf"(?:^|[{_BREAK}])[^{_BREAK}{_BARS}]*[{_BARS}][^{_BREAK}]*[{_BREAK}]"
    rf"[^{_BREAK}{_BARS}+┼╋╪┿╬╇]*[{_BARS}+┼╋╪┿╬╇]"
)

# (from the last digit of a word: it matches where, and only where, a value read from
# any of its digits would, and a search does not read a long word from each digit)
_TWO_VALUES = r"\d[^\s\d]*\s+(?:\S+\s+)?[*_`]*[-+−]?\.?\d"
# A box's rule (also run into a line): box-drawing characters (U+2500-U+257F, written
# out) or `+|-=:`, with three horizontals in a row. (From the last corner, bar or box
# character before the three: the same places, and each character read once.)
_BOX_CHARS = "".join(map(chr, range(0x2500, 0x2580)))
_RULE_RUN = rf"[+|{_BOX_CHARS}][-=:]*[-─━═]{{3}}"
_TRIGGER_PARTS = (_ROW_LINE, _BAR_LINES, _TWO_GAPS, _TWO_VALUES, _RULE_RUN)

INFO = FormatInfo(
    name="ascii-table",
    description="'+---+' boxes, box-drawing tables and whitespace-aligned columns",
    signature=(
        "'+----+----+' rules with '| a | b |' rows; box drawing '┌─┬─┐ │ a │', also "
        "without outer bars (psql ' a │ b '); divan's tree; "
        "whitespace-aligned columns under a header line (names 2+ spaces apart)"
    ),
    priority=40,
    generic=True,
    kind="result",
    # A box: a row line (`| a | b |`) or two bar lines; or whitespace columns: two
    # lines (as `str.splitlines` parts them) with a gap of two blanks, or of a blank
    # other than a space, between two words.
    # An aligned table run onto one line has two values in a row, maybe with a unit
    # after the first (`38.4 s 29.9 s`).
    trigger="|".join(_TRIGGER_PARTS),
    trigger_parts=tuple((part, (), ()) for part in _TRIGGER_PARTS),
)

# A rule: box-drawing characters (U+2500-U+257F), `+-=:|` and blanks, with a run of
# three horizontals: `+----+`, `|----+----|` (psql, org), `----+----` (psql without
# a border), `├──┼──┤`, `╞══╪══╡`, `┡━━╇━━┩` (rich), `╶──┼──╴` (rich's minimal box).
# (the leading blanks possessive: given back one by one, each rescanned the line for the
# three horizontals, and 20 kB of blanks before a `|` took 14 s)
_RULE = re.compile(r"^[ \t]*+(?=[^\n]*[-─━═]{3})[-=+:|\u2500-\u257f \t]*$")
# A row: a line with a column bar in it, with or without outer bars (`| a | b |`,
# `│ a │ b │`, psql's ` a │ b `, ` a | b `).
_ROW = re.compile(r"[|│┃║]|[├╰└]─")
_AS_PIPES = str.maketrans(dict.fromkeys(_BARS, "|"))  # (then split at "|")
# A cell: words joined by single spaces. Two cells are apart by any other whitespace.
_TOKEN = re.compile(r"\S+(?: \S+)*")
# The line has two cells or more (a run of whitespace other than one space inside it).
_TWO_TOKENS = re.compile(r"\S(?:\s\s|[^\S ])\s*\S")
# (also rich's SIMPLE, SIMPLE_HEAVY and HORIZONTALS boxes: `─────`, `━━━━━` under the header)
_DASH_RULE = re.compile(r"[ \t]*[-─━═]{3,}[-─━═ \t]*")

# The whitespace other than " " that `\s` matches, line breaks aside (a test checks it).
# A "plain" text has none of these nor LINE_BREAKS: its lines are `text.split("\n")`
# and a two-cell line has "  " in it.
OTHER_SPACES = "\t\x1f\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u202f\u205f\u3000"
_ASCII_ODD = [c for c in LINE_BREAKS + OTHER_SPACES if c.isascii()]
_ODD = LINE_BREAKS + OTHER_SPACES
# In plain text: a line with two cells, apart by two spaces or more (`_TWO_TOKENS`),
# from the first gap to the line's end; and a rule line (`_RULE`) or a row line
# (`_ROW`) after a line break, searched in the text after one more (a regex that
# starts with "\n" skips to line breaks; each match ends on the line it starts).
_PLAIN_GAP = re.compile(r"  (?<=[^ \n]  ) *[^ \n][^\n]*")
_PLAIN_BOX = re.compile(
    r"\n(?: *+(?=[^\n]*[-─━═]{3})[-=+:|\u2500-\u257f ]*(?=\n|\Z)|[^\n]*(?:[|│┃║]|[├╰└]─))"
)


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
    lines = text.splitlines(keepends=True)
    starts = accumulate(map(len, lines), initial=0)
    return [(pos, line.rstrip("\r\n")) for pos, line in zip(starts, lines, strict=False)]


def _may_have_box(text: str) -> bool:
    """A box, a tree or a table of bars has two lines with bars: without one, none."""
    return any(c in text for c in _BARS)


def _box_lines(text: str, lines: list[tuple[int, str]], plain: bool) -> list[int]:
    """Indexes of the rule and row lines: in plain text found by regexes over the
    whole text (that skip to line breaks), else line by line."""
    if not plain:
        return [
            i for i, (_, x) in enumerate(lines) if (_RULE.match(x) and x.strip()) or _ROW.search(x)
        ]
    starts = [pos for pos, _ in lines]
    # (a match's line break is the one before its line: where that line starts, once
    # the text has one more break before it)
    return sorted({bisect_right(starts, m.start()) - 1 for m in _PLAIN_BOX.finditer("\n" + text)})


def _cells(line: str, outer_left: bool, outer_right: bool) -> list[str]:
    parts = line.strip().translate(_AS_PIPES).split("|")
    if outer_left and len(parts) > 1 and not parts[0].strip():
        parts = parts[1:]
    if outer_right and len(parts) > 1 and not parts[-1].strip():
        parts = parts[:-1]
    return [c.strip() for c in parts]


def _outer_bars(lines: list[str]) -> tuple[bool, bool]:
    """Whether most of the lines start, and end, with a bar (`| a | b |`)."""
    stripped = [x.strip() for x in lines]
    left = sum(x[:1] in _BARS for x in stripped) * 2 > len(stripped)
    right = sum(x[-1:] in _BARS for x in stripped) * 2 > len(stripped)
    return left, right


def _join_cells(rows: list[list[str]]) -> list[str]:
    """Lines of one wrapped row (a header or a cell written over two lines) as one."""
    return [" ".join(c for c in col if c) for col in zip(*rows, strict=True)]


def _box_rows(block: list[str], kinds: list[str]):
    """([header], rows, first line, last line, {}) of the table in a block of rule and
    row lines, or None. Outer bars are optional (psql's ` a │ b `, rich's minimal box);
    prose lines with a bar at the block's ends are not the table's."""
    row_lines = [x for x, k in zip(block, kinds, strict=True) if k == "row"]
    if len(row_lines) < 2:
        return None
    outer_left, outer_right = _outer_bars(row_lines)
    cells = [
        _cells(x, outer_left, outer_right) if k == "row" else None
        for x, k in zip(block, kinds, strict=True)
    ]
    counts = [len(c) for c in cells if c is not None]
    ncol = max(set(counts), key=counts.count)
    if ncol < 2:
        return None

    def foreign(k: int) -> bool:
        x = block[k].strip()
        return cells[k] is not None and (
            len(cells[k]) != ncol
            or (outer_left and x[:1] not in _BARS)
            or (outer_right and x[-1:] not in _BARS)
        )

    lo, hi = 0, len(block)
    while lo < hi and foreign(lo):
        lo += 1
    while hi > lo and foreign(hi - 1):
        hi -= 1
    if any(c is not None and len(c) != ncol for c in cells[lo:hi]) or "rule" not in kinds[lo:hi]:
        return None
    # segments of row lines between rules
    segments = [list(s) for rule, s in groupby(cells[lo:hi], lambda c: c is None) if not rule]
    first = segments[0]
    ruled_header = len(segments) > 1
    header_rows = 1
    # a header wrapped over lines: the lines under its first that hold no number
    while (
        header_rows < len(first) and numeric_free(first[header_rows]) and not first[header_rows][0]
    ):
        header_rows += 1
    if not (ruled_header and header_rows == len(first)) and header_rows > 1:
        header_rows = 1
    named = ruled_header and len(first) == header_rows or numeric_free(first[0])
    header = _join_cells(first[:header_rows]) if named else []
    data_lines = [r for s in segments for r in s][header_rows if named else 0 :]
    # a data cell wrapped onto the next line: that line has no name and no number
    rows: list[list[str]] = []
    for r in data_lines:
        if rows and not r[0] and any(r) and numeric_free(r):
            rows[-1] = _join_cells([rows[-1], r])
        else:
            rows.append(r)
    if len(rows) + bool(header) < 2:
        return None
    return [header], rows, lo, hi, {}


# A cell written left of a bar-less margin: `mean   2113.4` (a label, blanks, a number)
_FUSED_LABEL = re.compile(r"^(?P<label>\S.*?)\s{2,}(?P<value>\S+(?: \S+)?)$")


def _bare_pipe_rows(block: list[str]):
    """A table of `a | b | c` lines with no rule (a spreadsheet or a script pasted
    into mail, with or without outer bars): a header line of names, rows under it
    with numbers, the same number of cells in each (the last row may be cut short).
    A line of fewer names above the header, dividing it evenly, names column groups
    (`RocksDB | MySQL` over four columns each). A row whose first cell is a label and
    a number apart by blanks (`mean   2113.4`) has its label outside the bars.
    Cells are parted by the bars, not by position: CJK text is twice as wide."""
    if sum("||" in x for x in block) * 2 > len(block):
        return None  # JIRA markup
    outer_left, outer_right = _outer_bars(block)
    cells = [_cells(x, outer_left, outer_right) for x in block]
    for h, head in enumerate(cells[:-1]):  # names over a row of as many cells, with values
        if (
            len(head) >= 2
            and sum(bool(x) for x in head) >= max(2, len(head) - 1)
            and all(len(x) <= 40 for x in head)
            and numeric_free(head)
            and len(cells[h + 1]) == len(head)
            and not numeric_free(cells[h + 1])
        ):
            break
    else:
        return None
    ncol = len(head)
    body: list[list[str]] = []
    for k in range(h + 1, len(cells)):
        row = cells[k]
        short = k == len(cells) - 1 and 2 <= len(row) < ncol
        if (len(row) != ncol and not short) or numeric_free(row):
            break
        body.append(row + [""] * (ncol - len(row)))
    end = h + 1 + len(body)
    if len(body) < 2:
        return None
    levels, lo = [head], h
    above = cells[h - 1] if h else []
    if 2 <= len(above) < ncol and ncol % len(above) == 0 and numeric_free(above):
        levels, lo = [[g for g in above for _ in range(ncol // len(above))], head], h - 1
    # labels written left of the bars, when the first column holds numbers
    if read_cell(body[0][0]) is not None or not body[0][0]:
        fused = [_FUSED_LABEL.match(r[0]) for r in body]
        if any(f and read_cell(f["value"]) is not None for f in fused):
            for r, f in zip(body, fused, strict=True):
                label = ""
                if f and read_cell(f["value"]) is not None:
                    label, r[0] = f["label"], f["value"]
                r.insert(0, label)
            levels = [["", *lv] for lv in levels]
    return levels, body, lo, end, {}


def _box_tables(text: str, lines: list[tuple[int, str]], plain: bool) -> list[ResultTable]:
    tables = []
    # a block: a run of consecutive rule and row lines
    for _, run in groupby(enumerate(_box_lines(text, lines, plain)), lambda p: p[1] - p[0]):
        at = [n for _, n in run]
        i, j = at[0], at[-1] + 1
        block = [line for _, line in lines[i:j]]
        kinds = ["rule" if _RULE.match(x) else "row" for x in block]
        ruled = "rule" in kinds or _TREE_BRANCH.search(" ".join(block))
        found = (_tree_rows(block) or _box_rows(block, kinds)) if ruled else _bare_pipe_rows(block)
        if found is None:
            continue
        levels, body, lo, hi, notes = found
        start = lines[i + lo][0]
        end = lines[i + hi - 1][0] + len(lines[i + hi - 1][1])
        caption = line_caption(text, start)
        table = grid_table(INFO.name, text, (start, end), levels, body, caption=caption, clean=True)
        if not levels[-1]:
            table.measurements = []  # (rows without names for their numbers)
        for m in table.measurements:
            if m.row in notes:
                m.metric = f"{m.metric} ({notes[m.row]})"
            if not ruled and m.label is None and m.row is not None:
                m.label = f"row {m.row + 1}"  # rows of numbers only: their place
        tables.append(table)
    return tables


# A tree of benchmark names in the first column (divan): `├─ read`, `│  ╰─ 4 KiB`.
_TREE_BRANCH = re.compile(r"(?:^|\s)[├╰└]─")
_TREE_PREFIX = re.compile(r"^([│ ]*)((?:[├╰└]─+) ?)?")
_WIDE_GAP = re.compile(r"\s{2,}")


def _tree_rows(block: list[str]):
    """A tree table (divan): a header `name  fastest │ slowest │ …` over rows whose
    first column is a tree of names (`├─ read`, `│  ╰─ 4 KiB  1.2 µs │ …`), the
    first value apart from the name by blanks only. A line under a row with a value
    and no name (divan's throughput line) or a name without a branch (`max alloc:`)
    is a second reading of the row above. Labels are the tree's paths (`read/4 KiB`)."""
    if len(block) < 2 or _TREE_BRANCH.match(block[0].strip()):
        return None
    head = [c.strip() for c in block[0].split("│")]
    first = _WIDE_GAP.split(head[0])
    if len(first) != 2 or len(head) < 2 or not all(head[1:]):
        return None
    if not _TREE_PREFIX.match(block[1]).group(2):
        return None
    nval = len(head)
    header = [*first, *head[1:]]
    path: list[str] = []
    rows: list[list[str]] = []
    notes: dict[int, str] = {}
    waiting = False  # the last row has a name and no value yet (wrapped, or a group)
    for line in block[1:]:
        m = _TREE_PREFIX.match(line)
        parts = [c.strip() for c in line[m.end() :].split("│")]
        parts = (parts + [""] * nval)[:nval]
        pieces = _WIDE_GAP.split(parts[0]) if parts[0] else []
        branch = m.group(2)
        if branch:
            path = [*path[: len(m.group(1)) // 3], pieces[0] if pieces else ""]  # (3 per level)
            values = [pieces[1] if len(pieces) > 1 else "", *parts[1:]]
            rows.append(["/".join(path), *values])
            waiting = not any(values)
            continue
        if not rows:
            return None
        if len(pieces) == 1 and read_cell(pieces[0]) is not None:
            name, values = None, [pieces[0], *parts[1:]]
        elif len(pieces) == 2:
            name, values = pieces[0], [pieces[1], *parts[1:]]
        else:
            continue
        if name is None and waiting:  # the values of a name the mail wrapped
            rows[-1] = [rows[-1][0], *values]
            waiting = False
            continue
        if name is None:
            unit = next((c.unit for v in values if (c := read_cell(v)) and c.unit), None)
            name = "throughput" if unit and unit.endswith(("/s", "/sec")) else "second line"
        notes[len(rows)] = name.rstrip(":")
        rows.append(["/".join(path), *values])
    # the groups' own lines have no values: their names are in the paths
    kept = [k for k, r in enumerate(rows) if any(r[1:])]
    if not kept:
        return None
    notes = {n: notes[k] for n, k in enumerate(kept) if k in notes}
    return [header], [rows[k] for k in kept], 0, len(block), notes


def _is_header(line: str) -> bool:
    toks = _TOKEN.findall(line)
    if len(toks) < 2 or len(line.strip()) > 200:
        return False
    # read_cell reads nothing without a digit
    return all(LETTER.search(t) and (not DIGIT.search(t) or read_cell(t) is None) for t in toks)


def _is_row(line: str, ncol: int) -> bool:
    toks = _TOKEN.findall(line)
    if not (2 <= len(toks) <= ncol + 2) or len(line) > 250:
        return False
    return any(read_cell(t) is not None for t in toks)


def _segments(lines: list[str]) -> list[tuple[int, int]]:
    width = max(len(x) for x in lines)
    blank = [all(i >= len(x) or x[i] == " " for x in lines) for i in range(width)]
    return _true_runs(not b for b in blank)


def _true_runs(flags) -> list[tuple[int, int]]:
    """(start, end) of each run of true flags."""
    out, pos = [], 0
    for flag, run in groupby(flags):
        n = len(list(run))
        if flag:
            out.append((pos, pos + n))
        pos += n
    return out


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
        # (no row past the last line;) the first row has a number, which read_cell
        # reads only with a digit
        if first_row not in two or not DIGIT.search(lines[first_row][1]):
            continue
        line = lines[i][1].replace("\t", "    ")
        if not _is_header(line):
            continue
        head_toks = [t.span() for t in _TOKEN.finditer(line)]
        below = (lines[k][1].replace("\t", "    ") for k in range(first_row, len(lines)))
        body_lines = list(takewhile(partial(_is_row, ncol=len(head_toks)), below))
        if not body_lines:
            continue
        j = first_row + len(body_lines)

        def names(s, e, head_toks=head_toks):
            return {k for k, (hs, he) in enumerate(head_toks) if hs < e and s < he}

        merged: list[list[int]] = []
        for s, e in _segments([line, *body_lines]):
            here, last = names(s, e), names(*merged[-1]) if merged else set()
            # one header name over both (`change %` over `-22.1` and a blank `%`), or a
            # nameless segment right after the last
            if merged and (here & last or (not (here and last) and s - merged[-1][1] <= 1)):
                merged[-1][1] = e
            else:
                merged.append([s, e])
        header = [line[s:e].strip() for s, e in merged]
        body = [[x[s:e].strip() for s, e in merged] for x in body_lines]
        if len(merged) >= 2 and sum(1 for h in header if h) >= 2:
            start = lines[i][0]
            end = lines[j - 1][0] + len(lines[j - 1][1])
            caption = line_caption(text, start)
            tables.append(
                grid_table(INFO.name, text, (start, end), [header], body, caption=caption)
            )
        next_i = j
    return tables


# ---------------------------------------------------------------- columns with no header

# A row of a two-column list typed with no header: a short name, two blanks or more,
# and one value, or the value it went from and the one it went to (`q1   8.21 -> 6.95`);
# a change in brackets may follow (`patched  14,210  (+15.1%)`), which is not read.
_BARE_ROW = re.compile(
    rf"[ \t]*(?P<name>[A-Za-z][^\s|:=]*(?: [^\s|:=]+){{0,3}})[ \t]{{2,}}(?P<a>{GROUPED})"
    rf"(?:[ \t]*(?:{ARROW})[ \t]*(?P<b>{GROUPED}))?[ \t]*(?:\([ \t]*[-+]?[\d.,]+[ \t]*%[ \t]*\))?"
    r"[ \t]*"
)


# A title over settings, not results (`Timeouts (ms):`, `New defaults (s):`).
_SETTINGS_TITLE = re.compile(
    r"(?i)\b(?:time-?outs?|intervals?|defaults?|limits?|settings?|config\w*|thresholds?|ttls?"
    r"|delays?|retention|deadlines?|backoffs?)\b"
)


def _headerless_tables(text: str, lines: list[tuple[int, str]]) -> list[ResultTable]:
    """Two or more lines of `name  value` (or `name  from -> to`) under a title that
    states their one unit (`Results (ops/sec, higher is better):`, `Query times (s):`):
    the title is what the missing header would have said. Without a stated unit such
    a list is as often settings or counts as results, and is left alone; so is one
    whose title names settings."""
    tables = []
    k = 0
    while k < len(lines):
        m = _BARE_ROW.fullmatch(lines[k][1]) if DIGIT.search(lines[k][1]) else None
        if m is None:
            k += 1
            continue
        arrow = m.group("b") is not None
        run = [m]
        j = k + 1
        while j < len(lines) and (n := _BARE_ROW.fullmatch(lines[j][1])) is not None:
            if (n.group("b") is not None) != arrow:
                break
            run.append(n)
            j += 1
        caption = line_caption(text, lines[k][0]) if len(run) >= 2 else None
        unit = said_unit(caption) if caption and not _SETTINGS_TITLE.search(caption) else None
        if unit is not None:
            header = ["", "before", "after"] if arrow else ["", unit]
            body = [[r["name"], r["a"], r["b"]] if arrow else [r["name"], r["a"]] for r in run]
            start, end = lines[k][0], lines[j - 1][0] + len(lines[j - 1][1])
            tables.append(
                grid_table(INFO.name, text, (start, end), [header], body, caption=caption)
            )
        k = j
    return tables


# ---------------------------------------------------------------- aligned tables run onto one line

_WORD_TOKEN = re.compile(r"\S+")
# (one match in each word that has a digit, none in the others)
_DIGIT_RUN = re.compile(r"(?<!\S)\S*?\d")
_PLAIN_NUMBER = re.compile(FLOAT)
# What a word that ends a sentence ends with.
_SENTENCE_END = (".", ":", ";", "!", "?", ")")
# A word of these characters only (`=====`, `---`, `+`, `##`: `not word.strip(_MARKS)`)
# is a rule line or a diff mark run into the line, where a table's structure breaks.
_MARKS = "-=+#*~|_`:"
_FLAT_MIN_LINE = 80


def _flat_cells(line: str) -> list[tuple[int, int, str, bool]]:
    """A line's words as cells (start, end, text, is a value): a number and the unit
    after it are one value (`38.4 s`), a unit after a word is part of it (`change %`)."""
    toks = [(m.start(), m.end(), m.group(0)) for m in _WORD_TOKEN.finditer(line)]
    out: list[tuple[int, int, str, bool]] = []
    k = 0
    while k < len(toks):
        s, e, t = toks[k]
        if not DIGIT.search(t):
            value = unitless = False  # read_cell reads nothing without a digit
        elif _PLAIN_NUMBER.fullmatch(t):
            value = unitless = True
        else:
            cell = read_cell(t)
            value, unitless = cell is not None, cell is not None and not cell.unit
        if unitless and k + 1 < len(toks):
            nxt = toks[k + 1][2]
            if not DIGIT.search(nxt) and nxt not in ("x", "X", "#") and is_unit(nxt):
                out.append((s, toks[k + 1][1], f"{t} {nxt}", True))
                k += 2
                continue
        if not value and out and not out[-1][3] and t in ("%", "(%)", "[%]"):
            ps, _, pt, _ = out[-1]
            out[-1] = (ps, e, f"{pt} {t}", False)
        else:
            out.append((s, e, t, value))
        k += 1
    return out


def _flat_rows(cells: list[tuple[int, int, str, bool]]):
    """Tables in a run of cells: rows of a label (1-4 words) and K values (K >= 2,
    the same in every row), two rows or more, under K column names. A row's extra
    values (past K) begin the next row's label (`878 8 threads memory 7662 …`); a
    label shorter than the first of its group keeps that one's leading words (the
    blank cells of a first column that repeat the value above)."""
    runs = _true_runs(map(itemgetter(3), cells))  # (the runs of values)
    found = []
    r = 0
    while r < len(runs):
        a, b = runs[r]
        ncol = b - a
        if ncol < 2 or a == 0:
            r += 1
            continue
        rows = [(a, a + ncol)]  # value spans; labels before them
        starts = [None]  # where each row's label starts (None: found below)
        carry = a + ncol  # where the next label starts
        q = r + 1
        while q < len(runs):
            c, d = runs[q]
            gap = [x for x in cells[carry:c] if not x[3]]
            if not 1 <= len(gap) <= 4 or any(x[2].endswith(_SENTENCE_END) for x in gap[:-1]):
                break
            if any(not x[2].strip(_MARKS) for x in gap):
                break
            if d - c < ncol:
                break
            rows.append((c, c + ncol))
            starts.append(carry)
            carry = c + ncol
            if d - c - ncol > 2:
                break
            q += 1
        if len(rows) < 2:
            r += 1
            continue
        longest = max(rows[n][0] - starts[n] for n in range(1, len(rows)))
        first_start = rows[0][0] - min(longest, 4)
        # the first label is as long as the longest after it; names are before it
        names = []
        k = first_start - 1
        if any(not x[2].strip(_MARKS) for x in cells[first_start : rows[0][0]]):
            r = q
            continue
        while k >= 0 and len(names) < ncol + 1 and not cells[k][3]:
            if len(names) >= ncol and cells[k][2].endswith(_SENTENCE_END):
                break
            if not cells[k][2].strip(_MARKS):
                if names:
                    break
                k -= 1  # the dashed rule under the header
                continue
            names.insert(0, cells[k][2])
            k -= 1
        if len(names) < ncol or any(x.endswith(_SENTENCE_END) for x in names[-ncol:]):
            r = q
            continue
        label_name = names[0] if len(names) > ncol else ""
        header = [label_name, *names[-ncol:]]
        body, group = [], []
        for n, (vs, ve) in enumerate(rows):
            ls = first_start if n == 0 else starts[n]
            words = [x[2] for x in cells[ls:vs]]
            if not group or len(words) >= len(group):
                group = words
            else:
                words = group[: len(group) - len(words)] + words
            body.append([" ".join(words), *(x[2] for x in cells[vs:ve])])
        found.append((header, body, cells[k + 1][0], cells[rows[-1][1] - 1][1]))
        r = q
    return found


_BREAKS_AS_BLANKS = str.maketrans(dict.fromkeys(_BREAK, " "))


def _paragraphs(text: str, lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Lines, except that a paragraph a gateway hard-wrapped (every line but its last
    60 characters or more, none with a gap of two blanks) is one line: its breaks
    become blanks, so offsets stay those of the text."""
    out: list[tuple[int, str]] = []
    k = 0
    while k < len(lines):
        j = k
        while (
            j + 1 < len(lines)
            and len(lines[j][1]) >= 60
            and lines[j + 1][1].strip()
            and "  " not in lines[j][1].strip()
            and "  " not in lines[j + 1][1].strip()
        ):
            j += 1
        if j == k:
            out.append(lines[k])
        else:
            start, end = lines[k][0], lines[j][0] + len(lines[j][1])
            out.append((start, text[start:end].translate(_BREAKS_AS_BLANKS)))
        k = j + 1
    return out


def _flat_tables(text: str, lines: list[tuple[int, str]]) -> list[ResultTable]:
    tables = []
    for pos, line in _paragraphs(text, lines):
        # (two rows of two values or more: four words with a digit, before any cells)
        if len(line) < _FLAT_MIN_LINE or sum(1 for _ in islice(_DIGIT_RUN.finditer(line), 4)) < 4:
            continue
        for header, body, s, e in _flat_rows(_flat_cells(line)):
            start, end = pos + s, pos + e
            context = text[max(pos, start - 1500) : start]
            table = grid_table(
                INFO.name, text, (start, end), [header], body, context=context, guess_time=False
            )
            if table.measurements:
                tables.append(table)
    return tables


# A rule of a box run into a line: `┡━━━━╇━━━━┩`, `+------+------+`, `╞════╪════╡`.
_FLAT_RULE = re.compile(
    r"(?<!\S)[+|\u2500-\u257f](?=[-=+:|\u2500-\u257f]*[-─━═]{3})[-=+:|\u2500-\u257f]*(?!\S)"
)
_HORIZONTAL = set("-─━═=:")


def _flat_box_tables(text: str, lines: list[tuple[int, str]]) -> list[ResultTable]:
    """Boxes with outer bars (rich, tabulate's grids, psql and mysql boxes,
    prettytable) run onto one line: between the rules, rows `│ a │ b │` follow each
    other; the rule's junctions give the number of columns, so a row ends where the
    bars close it (`│ a │ b │ │ c │ d │`)."""
    tables = []
    for pos, line in lines:
        if len(line) < _FLAT_MIN_LINE or not any(c in line for c in _BARS):
            continue
        rules = list(_FLAT_RULE.finditer(line))
        k = 0
        while k < len(rules):
            rule = rules[k].group(0)
            ncol = sum(c not in _HORIZONTAL for c in rule[1:-1]) + 1
            if ncol < 2:  # (a box of one column is a query's answer, as on its lines)
                k += 1
                continue
            segments: list[list[list[str]]] = []
            start, end, j = rules[k].start(), rules[k].end(), k
            while j < len(rules):
                nxt = rules[j + 1].start() if j + 1 < len(rules) else len(line)
                rows = _flat_box_rows(line[rules[j].end() : nxt].strip(), ncol)
                if rows is None:
                    break
                segments.append(rows)
                end = rules[j + 1].end() if j + 1 < len(rules) else len(line)
                j += 1
            k = max(j, k + 1)
            if len(segments) < 2 or not segments[0]:
                continue
            data = [r for s in segments[1:] for r in s]
            if not data or not all(numeric_free(r) for r in segments[0]):
                continue
            header = _join_cells(segments[0])
            span = (pos + start, pos + end)
            context = text[max(pos, span[0] - 400) : span[0]]
            table = grid_table(INFO.name, text, span, [header], data, context=context, clean=True)
            tables.append(table)
    return tables


def _flat_box_rows(piece: str, ncol: int) -> list[list[str]] | None:
    """Rows of `│ a │ b │ │ c │ d │` (ncol cells each), None when it is not that."""
    if not piece or piece[0] not in _BARS or piece[-1] not in _BARS:
        return None
    parts = piece.translate(_AS_PIPES).split("|")[1:-1]
    if (len(parts) + 1) % (ncol + 1):
        return None
    if any(parts[r].strip() for r in range(ncol, len(parts), ncol + 1)):
        return None  # not a boundary between two rows
    return [[c.strip() for c in parts[r : r + ncol]] for r in range(0, len(parts), ncol + 1)]


_HEAD_STOP = re.compile(r"[:.,](?!\S)")


def _spaced_tables(text: str, lines: list[tuple[int, str]]) -> list[ResultTable]:
    """Columns apart by single blanks (typed by hand, or a tool's plain output):
    a header line of N names (N >= 2), then two lines or more of N cells each
    (a number and its unit are one cell: `12 ms`), with values in the same columns
    in every row and at least one. Labels are one word (`put`, `small`)."""
    tables = []
    k = 0
    while k < len(lines) - 2:
        pos, line = lines[k]
        if not (3 <= len(line) <= 200) or not line.strip() or not LETTER.search(line):
            k += 1
            continue
        # (the two rows under the header have values, so digits: before any cells)
        if not (DIGIT.search(lines[k + 1][1]) and DIGIT.search(lines[k + 2][1])):
            k += 1
            continue
        # (a word that ends with `:`, `.` or `,` ends a header cell, which rules the line
        # out below, or is a number, whose cell is a value, which does too: no need to
        # read the cells of such a line, most lines of prose)
        if _HEAD_STOP.search(line):
            k += 1
            continue
        head = _flat_cells(line)
        ncol = len(head)
        if not (2 <= ncol <= 12) or any(v for *_, v in head):
            k += 1
            continue
        if any(not c[2].strip(_MARKS) or c[2].endswith((":", ".", ",")) for c in head):
            k += 1
            continue
        body, shape, j = [], None, k + 1
        while j < len(lines) and len(lines[j][1]) <= 200:
            cells = _flat_cells(lines[j][1])
            values = tuple(n for n, c in enumerate(cells) if c[3])
            if len(cells) != ncol or not values or (shape is not None and values != shape):
                break
            shape = values
            body.append([c[2] for c in cells])
            j += 1
        if len(body) >= 2:
            start = pos
            end = lines[j - 1][0] + len(lines[j - 1][1])
            header = [c[2] for c in head]
            caption = line_caption(text, start)
            table = grid_table(INFO.name, text, (start, end), [header], body, caption=caption)
            if table.measurements:
                tables.append(table)
                k = j
                continue
        k += 1
    return tables


def parse(text: str) -> list[ResultTable]:
    plain = is_plain(text)
    gaps = [m.start() for m in _PLAIN_GAP.finditer(text)] if plain else None
    boxes = _may_have_box(text)
    # a whitespace table has two lines with two cells or more
    columns = gaps is None or len(gaps) > 1
    # (a flattened table has a long line; one typed with single blanks, three lines)
    if not boxes and not columns and len(text) < _FLAT_MIN_LINE and text.count("\n") < 2:
        return []
    lines = _lines(text, plain)
    tables = _box_tables(text, lines, plain) if boxes else []
    claimed = [t.span for t in tables]
    whitespace = _whitespace_tables(text, lines, gaps) if columns else []
    flat = _flat_box_tables(text, lines) + _flat_tables(text, lines)
    headerless = _headerless_tables(text, lines) if columns else []
    for t in whitespace + flat + _spaced_tables(text, lines) + headerless:
        # (the first of overlapping ones)
        if not overlaps(t.span, claimed):
            tables.append(t)
            claimed.append(t.span)
    return tables
