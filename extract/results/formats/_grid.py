"""The cell model of the generic table formats (markdown, JIRA, HTML, ASCII) and the
tool tables built on them: a cell read as value + unit (`read_cell`), a header as
name + unit (`header_unit`), and a grid of cells turned into measurements.

`grid_measurements(header_levels, rows, ...)` returns the measurements of one table:
one per numeric cell of a measurement column, with label = the row's name cells,
metric = the column header (unit stripped), variant = column groups above it, and the
unit from the cell, the header, or (for unit-less time tables) seconds. A table with
no unit and no benchmark word gives none; `grid_table` names it by the heading above.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from extract.results.formats._layout import (
    CELL_NUM,
    DIGIT,
    context_before,
    heading_above,
)
from extract.results.formats.base import Measurement, ResultTable
from extract.results.units import parse_duration, parse_number, scaled, to_si

_SPACED_THOUSANDS = re.compile(r"(?<=\d)[ \u00a0\u202f](?=\d{3}(?:\D|$))")
_UNIT = r"[A-Za-zµμ%#][A-Za-zµμ%/#\d]*(?:/[A-Za-zµμ]+)?"
# value [unit] [± err [unit]] [(ratio)] ; `?` is a mangled ±; the ratio (to the best
# row, pytest-benchmark's) is no value of the cell
_CELL = re.compile(
    rf"""^\s*(?P<num>{CELL_NUM})(?:(?P<mag>[kKM])[ \t]+(?=[A-Za-z]+/))?\s*(?P<unit>{_UNIT})?
        (?:\s*(?:±|\+-|\+/-|Â±)\s*(?P<err>{CELL_NUM})\s*(?P<eunit>{_UNIT}|%)?)?
        \s*(?:\([^()]{{1,12}}\))?\s*$""",
    re.X,
)
# A unit in brackets that ends a column name: `Best Time(ms)`, `Mean [s]`. Searched
# (`header_unit` takes the name before it): it can only begin at a bracket, where
# `^(?P<name>.*?)\s*(...)` tried each length of the name across a run of spaces.
_HEADER_UNIT = re.compile(
    r"(?:\((?:time\s+in\s+)?(?P<u1>[^()]{1,12})\)|\[(?P<u2>[^\[\]]{1,12})\])\s*$", re.I
)
# `CPU, ms`: the name is what precedes the first comma less the spaces before it (at
# least one character); its spaces are taken only when more text follows them, so
# that no run of spaces is read twice.
_COMMA_UNIT = re.compile(
    r"^(?P<name>(?:[^,\s]++|\s++(?=[^,\s]))++|\s)\s*,\s*(?P<unit>[^,\s]{1,10})\s*$"
)
# A unit as the last part of a column name: `time_ms`, `latency-us` (snake or kebab
# case, as CSV exports and scripts name columns), `Score ms/op`, `Throughput ops/s`.
# Times only: `memory_gb`, `disk_tb` name a machine's sizes more often than results.
_SUFFIX_UNIT = re.compile(
    r"^(?P<name>[A-Za-z][\w.]*?)[_-](?P<unit>ns|us|µs|ms|s|sec|secs|seconds|min|"
    r"pct)$"
)
_TRAILING_RATE = re.compile(r"^(?P<name>\S.*?)\s+(?P<unit>[A-Za-zµμ]{1,8}/[A-Za-zµμ]{1,4})$")

_MAGNITUDE = {"k": 1e3, "m": 1e6}

# Units a cell may carry; anything else after a number makes the cell text.
_EXTRA_UNITS = {"%", "x", "#", "count", "counts", "rows", "row", "ops", "op", "iter"}

TIME_WORDS = re.compile(r"(?i)(?:^|[^a-z])(time|duration|elapsed|runtime|took)(?:[^a-z]|$)")
_NOT_TIME_COLUMN = re.compile(
    r"(?i)(?=[%#cfilnprstvx])(?:"  # (every first character: most positions fail at once)
    r"percent|ratio|speed ?up|relative|factor|%|\bx\b|count|rows?\b|#|num|threads?|"
    r"iterations?|size|tables?|parallelism|partitions?|cores?|nodes?|rounds|runs|version)"
)
MEASURE_WORDS = re.compile(
    # (the look-ahead holds every first character: most positions fail at once)
    r"(?i)(?=[a-eghil-t性耗用延时吞速基压测毫秒平均查])"
    r"(?:\b(?:bench\w*|perf\w*|throughput|latency|ops|qps|tps|score|speed\w*|baseline|"
    r"contender|before|after|patch\w*|master|branch|main|improve\w*|regress\w*|diff\w*|"
    r"change|mean|median|avg|average|min|max|p\d\d|stddev|time\w*|duration|elapsed|"
    r"runtime|cpu|memory|mem|heap|gc|rate|result\w*|old|new|trunk|query|q\d+)\b"
    # the same in Chinese: performance, time taken, latency, throughput, speed,
    # benchmark, load test, test results, (milli)seconds, average, query
    r"|性能|耗时|用时|延迟|时延|吞吐|速度|基准|压测|测试结果|毫秒|秒|平均|均值|查询)"
)


# The names of a column that counts (JMH's `Cnt`, `Samples`, `Runs`): its numbers are
# counts, whatever unit a `Unit` column or the table gives the measured ones (and the
# store keeps them as qualifiers, not series: `extract.db.findings.QUALIFIER`).
COUNT_NAMES = r"cnt|count|samples|iterations|iters|n|runs|forks|threads"
COUNT_COLUMN = re.compile(rf"(?i)(?:{COUNT_NAMES}|#)")

_RATE_UNIT = re.compile(r"[A-Za-zµμ]{1,8}/(?:s|sec|ms|us|µs|op|ops|iter|row|call|min)")


@functools.lru_cache(maxsize=4096)  # (the same few units, asked about again and again)
def is_unit(unit: str | None) -> bool:
    """A unit we can recognise: known to `to_si`, a rate, or a plain count/ratio word."""
    if not unit:
        return False
    u = unit.strip()
    if u.lower() in _EXTRA_UNITS:
        return True
    if to_si(1.0, u)[1] is not None:
        return True
    # rates and per-op times: MB/sec, ops/ms, B/op, ns/iter, rows/s
    return bool(_RATE_UNIT.fullmatch(u))


def norm_unit(unit: str | None) -> str | None:
    """Unit as written, but `X/sec` spelled `X/s` (MiB/sec → MiB/s)."""
    if not unit:
        return None
    u = unit.strip()
    if u[-4:].lower() == "/sec" and not u.lower().startswith(("ops", "op/")):
        return u[:-4] + "/s"
    return u


def number(written: str, *, decimal_comma: bool = False) -> float | None:
    """parse_number, tolerant of the unicode minus; None for text."""
    if written is None:
        return None
    return parse_number(
        _SPACED_THOUSANDS.sub("", written.replace("−", "-")), decimal_comma=decimal_comma
    )


class Cell(NamedTuple):
    """A cell read as a number: value, unit, error (±) and written text."""

    value: float
    unit: str | None
    err: float | None
    err_unit: str | None
    written: str
    err_written: str | None


def read_cell(text: str) -> Cell | None:
    """`50.0s`, `2.1 GiB`, `99.06%`, `1,430`, `2.275 ± 0.046`, `1.0080 (1.0)`, `1.21x`.
    None when the cell is not one number (text, dates, versions, several numbers)."""
    if not text or len(text) > 60:
        return None
    return _read_cell(text)


# (a message writes the same few cells many times, and readers of flattened text read
# each of its words; a Cell is immutable, so one read serves them all. Only cells of
# up to 60 characters are kept: no longer text of a message outlives it)
@functools.lru_cache(maxsize=4096)
def _read_cell(text: str) -> Cell | None:
    s = text.strip().strip("*_`").strip()
    m = _CELL.match(s)
    if not m or not DIGIT.search(m.group("num")):
        return None
    unit, mag, err = m["unit"], m["mag"] or "", m["err"]
    if (unit and not is_unit(unit)) or (value := number(m["num"])) is None:
        return None
    value = scaled(value, _MAGNITUDE.get(mag.lower(), 1.0))  # `1.25M rows/s`
    eunit = m["eunit"]
    # (`12.1 ± 0.4 s`: a unit written once, after the error, is the value's too; a
    # relative error's `%` is the error's own)
    unit = norm_unit(unit or (eunit if eunit and eunit != "%" and is_unit(eunit) else None))
    err_value = number(err) if err else None
    return Cell(value, unit, err_value, norm_unit(eunit) or unit, m["num"] + mag, err)


def numeric_free(cells: list[str]) -> bool:
    """No cell reads as a number: a line of names (a header), or of prose."""
    return all(read_cell(c) is None for c in cells)


def header_unit(header: str) -> tuple[str, str | None]:
    """`Best Time(ms)` → (`Best Time`, `ms`); `Mean [s]` → (`Mean`, `s`);
    `Name (time in us)` → (`Name`, `us`); `CPU, ms` → (`CPU`, `ms`);
    `time_ms` → (`time`, `ms`); `Score ms/op` → (`Score`, `ms/op`)."""
    h = (header or "").strip()
    m = _HEADER_UNIT.search(h)
    # (the name before it, with no line break: `^(?P<name>.*?)\s*` as it was matched)
    if m and "\n" not in (name := h[: m.start()].rstrip()):
        u = (m.group("u1") or m.group("u2") or "").strip()
        if is_unit(u):
            return name.strip(), norm_unit(u)
    if len(h) > 2 and h.endswith("%") and not h.endswith(("(%", "[%")):
        return h[:-1].strip().rstrip(",;:").strip(), "%"  # `change %`, `CPU, %`
    m = _COMMA_UNIT.match(h)
    if m and is_unit(m.group("unit")):
        return m.group("name").strip(), norm_unit(m.group("unit"))
    m = _SUFFIX_UNIT.match(h) or _TRAILING_RATE.match(h)
    if m and is_unit(m.group("unit")) and not re.search(r"(?i)(?:^.{0,2}|[_-]per)$", m["name"]):
        unit = "%" if m.group("unit") == "pct" else m.group("unit")
        return m.group("name").strip(), norm_unit(unit)
    if _RATE_UNIT.fullmatch(h) or h in ("ms", "us", "µs", "ns", "sec"):
        return h, norm_unit(h)  # a column named by its unit alone: `ops/s`
    return h, None


_COLOR = re.compile(r"\{color(?::[^}]*)?\}")
_BOLD = re.compile(r"\*(\S(?:.*?\S)?)\*")


def _without_monospace(s: str) -> str:
    """`{{x}}` -> `x`: each `{{` to the first `}}` after it in its line, as a lazy
    regex would replace them, but in time linear in `s` (the regex looked for `}}` to
    the line's end again from each `{{` of a line that has none)."""
    out = []
    done = at = 0
    line_end = -1
    while (start := s.find("{{", at)) >= 0:
        if start > line_end:
            line_end = s.find("\n", start)
            line_end = len(s) if line_end < 0 else line_end
        end = s.find("}}", start + 2, line_end)
        if end < 0:  # no `}}` in the rest of this line: no `{{` of it is closed
            at = line_end + 1
            continue
        out += (s[done:start], s[start + 2 : end])
        done = at = end + 2
    out.append(s[done:])
    return "".join(out)


def clean_cell(text: str) -> str:
    """Cell text without markup decoration: `**x**`, `{{x}}`, `{color:red}x{color}`, `` `x` ``."""
    s = text or ""
    # (each pattern only where its first characters are: most cells have no markup)
    if "{color" in s:
        s = _COLOR.sub("", s)
    if "{{" in s:
        s = _without_monospace(s)
    if "*" in s:
        s = _BOLD.sub(r"\1", s)
    s = s.replace("**", "").replace("`", "")
    return " ".join(s.split())


# A rate named at the start of a sentence before the table: `Batches per second.`
_SAID_UNIT = re.compile(
    r"(?:^|[.!?:]\s+)((?:[A-Z][a-z]+|[A-Z]+)(?: [a-z]+)? per (?:second|sec|minute|min|hour))\b"
)


# A unit named on its own, not after a number (`50k tuples/s` is a rate of a setting):
# `(ops/ms)`, `in ops/sec`, `unit: ms`.
# Rates are `<things>/<time>`; a bare time unit counts only in parentheses or after
# `in`/`unit`.
_UNIT_ALONE = re.compile(
    r"(?<![\d.\w/])(?<!\d )(?<!\d[kKMG] )"
    r"(?P<rate>[A-Za-z]{1,12}/(?:s|sec|second|ms|us|min|op|iter))(?![\w/])"
    r"|(?:[(（]|\b(?:in|units?:?|measured in)\s+|单位[:：]?\s*)"
    r"(?P<time>ns|us|µs|ms|s|sec|seconds|milliseconds"
    r"|microseconds|minutes|min)\b(?!\s*\d)"
    # a time per repetition said in words: `seconds per run`, `ms per query`
    r"|(?<!\d )(?<!\d)\b(?P<per>seconds|secs|milliseconds|ms|microseconds|µs|minutes)(?= per "
    r"(?:run|iteration|query|request|op|operation|call|batch|row)\b)"
)


# An abbreviation defined as a rate: `average tps (transactions per second)`.
_SAID_ABBREVIATION = re.compile(
    r"\b([A-Za-z]{2,8})\s+\((?:[a-z]+\s+)?[a-z]+\s+per\s+(second|sec|minute|min|hour)\)"
)


# Abbreviations that name a rate themselves (else `ops (operations per second)` is ops/s).
_RATE_ABBREVIATIONS = {
    "tps", "qps", "rps", "iops", "fps", "pps", "eps", "mps", "bps", "kbps", "mbps",
}  # fmt: skip
_PER = {"second": "s", "sec": "s", "minute": "min", "min": "min", "hour": "h"}


def said_unit(context: str) -> str | None:
    """The one unit the lines before a table state, if exactly one: a rate said in
    words (`Batches per second.`), a unit named alone (`Throughput (ops/ms):`), or
    an abbreviation defined as a rate (`tps (transactions per second)`)."""
    found = {m.group(1) for m in _SAID_UNIT.finditer(context)}
    found |= {m["rate"] or m["time"] or m["per"] for m in _UNIT_ALONE.finditer(context)}
    for m in _SAID_ABBREVIATION.finditer(context):
        abbr = m.group(1)
        found.add(abbr if abbr.lower() in _RATE_ABBREVIATIONS else f"{abbr}/{_PER[m.group(2)]}")
    return found.pop() if len(found) == 1 else None


def _is_index_column(header: str, cells: list[str]) -> bool:
    return not header.strip() and all(c.strip().isdecimal() for c in cells)


# A column named in brackets and nothing else, as JMH prints its @Param columns
# (`(size)`, `(batchSize)`): the run's parameter, which names the row, not a result.
_PARAMETER = re.compile(r"\(\s*[A-Za-z_][\w.]*\s*\)")


def _is_parameter(header: str, unit: str | None) -> bool:
    return unit is None and _PARAMETER.fullmatch(header.strip()) is not None


def _is_section(cells: list[str]) -> bool:
    return bool(cells) and bool(cells[0].strip()) and not any(c.strip() for c in cells[1:])


def grid_measurements(
    header_levels: list[list[str]],
    rows: list[list[str]],
    *,
    caption: str | None = None,
    context: str | None = None,
    guess_time: bool = True,
) -> list[Measurement]:
    """Measurements of a table. `header_levels[-1]` names the columns; earlier levels
    are column groups (already expanded to one entry per column). Empty when the table
    holds no measurements (no unit anywhere and no benchmark words in it).
    `guess_time=False`: no seconds for unit-less numbers under time words (where the
    context is a long stretch of text, not the lines just above the table)."""
    if not rows:
        return []
    ncol = max(len(r) for r in rows)
    levels = [list(lv) + [""] * (ncol - len(lv)) for lv in header_levels] or [[""] * ncol]
    header = [clean_cell(h) for h in levels[-1][:ncol]]
    rows = [[clean_cell(c) for c in r] + [""] * (ncol - len(r)) for r in rows]
    cols = [[r[i] for r in rows] for i in range(ncol)]
    parsed = [[read_cell(c) for c in col] for col in cols]
    hdr = [header_unit(h) for h in header]

    def numeric(i: int) -> bool:
        filled = [c for c in cols[i] if c not in ("", "-", "N/A", "n/a", "NaN")]  # (cells clean)
        return bool(filled) and sum(p is not None for p in parsed[i]) >= max(1, len(filled) * 0.6)

    numeric_cols = [
        i
        for i in range(ncol)
        if numeric(i)
        and not _is_index_column(header[i], cols[i])
        and not _is_parameter(header[i], hdr[i][1])
    ]
    # a `Unit` column gives each row's unit
    named_unit = (i for i, h in enumerate(header) if h.lower() in ("unit", "units"))
    unit_col = next((i for i in named_unit if i not in numeric_cols), None)
    col_units = [
        r[unit_col].strip() if unit_col is not None and is_unit(r[unit_col]) else None for r in rows
    ]
    has_unit = {i for i in numeric_cols if hdr[i][1] or any(p and p.unit for p in parsed[i])}
    if any(col_units):
        has_unit |= set(numeric_cols)
    row_units = [header_unit(r[0])[1] if r else None for r in rows]
    # `Batches per second.` said once above a table whose cells carry no unit
    stated = None if has_unit or any(row_units) else said_unit(f"{caption or ''} {context or ''}")
    context = " ".join([caption or "", context or "", *(" ".join(lv) for lv in levels)])
    any_unit = bool(has_unit) or any(row_units) or bool(stated)
    written_units = [
        u for i in numeric_cols for u in [hdr[i][1], *(p.unit for p in parsed[i] if p)]
    ]
    explicit_time = any(u and to_si(1.0, u)[1] == "s" for u in written_units)
    default_time = (
        guess_time and not explicit_time and bool(TIME_WORDS.search(context)) and not any(row_units)
    )
    if not (any_unit or default_time or MEASURE_WORDS.search(context)):
        return []

    # Unit-less numeric columns left of unit-bearing ones are settings (No. of Tables = 1000).
    first_unit = -1 if default_time else min(has_unit, default=-1)
    value_cols = [i for i in numeric_cols if i >= first_unit or MEASURE_WORDS.search(header[i])]
    if (
        len(value_cols) == ncol
        and ncol >= 2
        and 0 not in has_unit
        and all(c.strip().isdecimal() for c in cols[0] if c.strip())
    ):
        value_cols = value_cols[1:]  # all numeric: whole numbers first name the row (threads, run)
    if not value_cols:
        return []
    first_value = min(value_cols)
    # (a `Unit` column gives units, not names)
    unit_named = unit_col if any(col_units) else None
    candidates = [i for i in range(first_value) if i not in value_cols and i != unit_named]
    name_cols = [i for i in candidates if not _is_index_column(header[i], cols[i])] or candidates
    # Section rows, as spreadsheets pasted into mail write them: a name in the first
    # cell and nothing else (`PR change |  |`) names the rows below it; a header of
    # that shape (`Baseline |  |`) names the first section, and its columns have no
    # names of their own.
    section = None
    if ncol >= 2 and _is_section(header):
        section, header[0] = header[0], ""
    # each column's groups, those that repeat the caption aside
    groups = [
        [g for lv in levels[:-1] if (g := clean_cell(lv[i])) and g != caption] for i in range(ncol)
    ]
    out: list[Measurement] = []
    for r, row in enumerate(rows):
        if ncol >= 2 and _is_section(row) and read_cell(row[0]) is None:
            section = row[0].strip()
            continue
        names = [(header[i], row[i]) for i in name_cols if row[i].strip()]
        if len(names) > 1:
            label = ", ".join(f"{h}={v}" if h else v for h, v in names)
        elif names and names[0][0] and names[0][1].strip()[:1].isdigit():
            label = f"{names[0][0]}={names[0][1]}"  # (a row named by a number: `threads=8`)
        else:
            label = names[0][1] if names else None
        row_metric, row_unit = header_unit(row[0]) if row and 0 in name_cols else (None, None)
        for i in value_cols:
            cell = parsed[i][r]
            if cell is None:
                continue
            col_name, col_unit = hdr[i]
            if row_unit:  # transposed: rows are metrics ("CPU, ms"), columns are runs
                metric, unit, m_label = (
                    row_metric,
                    cell.unit or row_unit,
                    caption or col_name or label,
                )
                last_group = col_name
            else:
                metric = col_name or f"column {i + 1}"
                unit = cell.unit
                if unit is None and COUNT_COLUMN.fullmatch(col_name.strip()):
                    unit = "count"
                unit = unit or col_units[r] or col_unit or stated
                if unit is None and default_time and not _NOT_TIME_COLUMN.search(col_name):
                    unit = "s"
                m_label, last_group = label, section
            variant = " / ".join([*groups[i], *filter(None, [last_group])]) or None
            found = [(metric, cell.value, unit, cell.written)]
            if cell.err is not None:
                found.append((f"{metric} error", cell.err, cell.err_unit or unit, cell.err_written))
            out += [Measurement(n, v, u, m_label, variant, w, row=r) for n, v, u, w in found]
    return out


# (the look-ahead holds what can begin a pair, the number being optional: a run of
# dashes fails at once)
_PAIR = re.compile(
    rf"(?=[-+−]?[\d.\sA-Za-zµμ%])(?<![\w.])(?P<num>{CELL_NUM})\s?(?P<unit>[A-Za-zµμ%][A-Za-zµμ/]*)(?![\w.])"
)


_CELL_PREFIX = re.compile(r"^([A-Za-z][\w ./-]{0,40}?):\s+(.*)$")
_WORDS_AFTER = re.compile(r"\s*([A-Za-z][\w -]{0,30}?)\s*(?:[()\[\],;]|$)")


def composite_measurements(
    header: list[str], rows: list[list[str]], *, label_col: int | None = None
) -> list[tuple[Measurement, bool, bool]]:
    """Measurements of cells that are prose with several numbers
    (`First run: 9.52s end-to-end (1.64s Spark job)`): each number that carries a unit;
    label = row name / the cell's `Prefix:` (else the column); metric = the words after
    the number, else the column header (`... (in parentheses)` for a parenthesised one).
    Returns (measurement, in parentheses, named explicitly) triples."""
    out: list[tuple[Measurement, bool, bool]] = []
    for r, row in enumerate(rows):
        row_name = (
            clean_cell(row[label_col]) if label_col is not None and label_col < len(row) else None
        )
        for i, raw in enumerate(row):
            if i == label_col:
                continue
            cell = clean_cell(raw)
            m = _CELL_PREFIX.match(cell)
            prefix, offset = (m[1], m.start(2)) if m else (None, 0)
            col = clean_cell(header[i]) if i < len(header) else ""
            label = " / ".join(p for p in (row_name, prefix) if p) or col or None
            if parse_duration(cell) is not None:
                continue  # `0m 00s`: one duration (build step times), not a described result
            for p in _PAIR.finditer(cell, offset):
                unit = p.group("unit")
                if not is_unit(unit) or unit.lower() in ("x",):
                    continue
                value = number(p.group("num"))
                if value is None:
                    continue
                inside = cell[: p.start()].count("(") > cell[: p.start()].count(")")
                after = _WORDS_AFTER.match(cell[p.end() :])
                metric = after.group(1).strip() if after else None
                explicit = bool(metric)
                if not metric:
                    metric = f"{col or 'value'} (in parentheses)" if inside else (col or "value")
                m_ = Measurement(metric, value, norm_unit(unit), label, None, p.group("num"), r)
                out.append((m_, inside, explicit))
    return out


def grid_table(
    fmt: str,
    text: str,
    span: tuple[int, int],
    header_levels: list[list[str]],
    rows: list[list[str]],
    *,
    columns: list[str] | None = None,
    caption: str | None = None,
    context: str | None = None,
    guess_time: bool = True,
    clean: bool = False,
) -> ResultTable:
    """The table of a grid found at `span` of `text`, named by the heading above it,
    with its measurements (`grid_measurements`; `context`: the lines just above it, and
    the note just below it when those state no unit, unless given). `columns` default
    to the last header level; `clean`: the table shows its header and cells without
    markup (`clean_cell`)."""
    start = span[0]
    if columns is None:
        columns = [clean_cell(h) if clean else h for h in header_levels[-1]]
    table = ResultTable(
        fmt,
        span,
        columns=columns,
        rows=[[clean_cell(c) for c in r] for r in rows] if clean else rows,
        caption=caption,
        variant=heading_above(text, start, style="table"),
    )
    if context is None:
        context = context_before(text, start)
        if said_unit(f"{caption or ''} {context}") is None:
            context = f"{context} {_note_below(text, span[1])}"
    table.measurements = grid_measurements(
        header_levels, rows, caption=caption, context=context, guess_time=guess_time
    )
    return table


# A short line of words just below a table, its note: `times in seconds`, `(all in ms)`.
_NOTE_BELOW = re.compile(r"[ \t]*\r?\n(?:[ \t]*\r?\n)?[ \t]*([^\d\n|]{3,60}?)[ \t]*\r?(?:\n|$)")


def _note_below(text: str, end: int) -> str:
    """The note on the line just below a table (or below one blank line), when it is
    a short line without digits: what the lines above say of its unit, said after it."""
    m = _NOTE_BELOW.match(text, end)
    return m.group(1) if m else ""
