"""The declarative row reader: a tool module says what one row of its output looks like
and which numbers it holds; `read` finds the blocks of rows in a text and returns one
table per block, with a measurement per number.

    ROWS = Rows(
        row=rf"(?P<name>\\w+)[ \\t]+(?P<mean>{NUM})[ \\t]*(?P<u>ms|s)",
        fields=(Field("mean", "mean", unit_group="u"),),
        label="name",
        columns=("name", "mean"),
    )

    def parse(text: str) -> list[ResultTable]:
        return read(ROWS, text)

The patterns of a declaration are text, compiled once when it is made (with its
`flags`, or inline ones such as `(?i)`); a compiled pattern is taken as it is.

A block is either a run of rows (with only blank space, or what `gap` allows,
between them), or the rows that follow a `header` (each row right after the last,
past what `gap` allows; or, with `end`, every row up to the end mark). The registry
names each block by the heading above it when the module's `INFO.heading` says so.
What a tool needs beyond this (which rows are warm-ups, which side is the baseline)
is a short typed step of its own module, on the tables `read` returns.

Summaries printed as labelled lines (`User time (seconds): 0.37`) are rows too, whose
metric, unit and role come from the key: with `KEYS = {"User time (seconds)": Key("User
time", "s"), ...}`, the row pattern holds `(?P<key>{one_of(KEYS)})` and its fields are
`keyed(KEYS)`. A report whose lines of several kinds stand among lines that give
none (ab's, wrk's) is read by `report(specs, text, start, end)`, in text order; what a
tool prints around its results (banners, progress) is claimed by `chatter(...)`;
`name_blocks(..., joins=...)` gives the blocks of one output the heading of the first,
and `disjoint` keeps the first of tables that overlap. `ADJACENT` is the `gap` of rows
whose own pattern takes the blanks before them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from extract.results.formats._layout import BLANKS, heading_above, runs, within
from extract.results.formats.base import Measurement, ResultTable
from extract.results.units import parse_number


@dataclass(frozen=True, slots=True)
class Field:
    """One number of a row: the pattern's group that holds it, the metric it
    measures, and its unit as the tool writes it (`unit`) or the group that holds
    the unit (`unit_group`). A row whose group did not match gives no measurement."""

    metric: str
    group: str
    unit: str | None = None
    unit_group: str | None = None
    role: str = "result"  # what the number is (`base.ROLES`): a `count`, a `total`, ...
    # A side of a comparison by construction (`Measurement.side`: "before", "after"),
    # the side as the tool names it, and the quantity compared.
    side: str | None = None
    side_name: str | None = None
    quantity: str | None = None


# The numbers of a row; or, for rows whose numbers vary (`44.6 ns/op  16 B/op`), a
# function giving (metric, number as written, unit[, value when not the written one]);
# such a function may also stand among declared fields.
Found = Callable[[re.Match], Iterable[tuple | Measurement]]
Fields = Sequence[Field | Found] | Found


@dataclass(frozen=True, slots=True)
class Rows:
    """What a tool's rows look like (see the module docstring)."""

    row: re.Pattern | str | None  # (None when `for_header` makes each block's own)
    fields: Fields
    # The row's name: a group of the pattern, or made from the match.
    label: str | Callable[[re.Match], str] = ""
    # The table's columns; after a header, `{group}` names a group of it (`QPS {base}`),
    # in the columns and in the fields' metrics and side names.
    columns: Sequence[str] = ()
    # The row's cells: groups of the pattern (unmatched: ""), or made from the match
    # and its label; default: the label and every field's number.
    cells: Sequence[str] | Callable[[re.Match, str], list[str]] | None = None
    # The table's caption, or made from the header (the first row) of its block.
    caption: str | Callable[[re.Match], str | None] | None = None
    header: re.Pattern | str | None = None
    # What may stand between two rows of one block (default: blank space).
    gap: re.Pattern | str | Callable[[str], object] | None = None
    # After a header: where its block ends at the latest (rows are searched up to it).
    end: re.Pattern | str | None = None
    min_rows: int = 1  # a block of fewer rows is no table
    # Which runs of rows are tables, when more than their number says (no header).
    keep: Callable[[list[re.Match]], bool] | None = None
    keep_empty: bool = False  # a header with no rows is a table (it claims its text)
    # The rows that give measurements, of all the rows of a block (default: all).
    select: Callable[[list[re.Match]], list[re.Match]] | None = None
    # Whole lines above the first row that belong to its block (a tool's header),
    # and what right after the last row still does (a footer).
    lead: re.Pattern | str | None = None
    tail: re.Pattern | str | None = None
    # The heading above each block names it (`_layout.heading_above` in this style),
    # unless `not_heading` finds something in it (the tool's own command line).
    heading: str | None = None
    not_heading: re.Pattern | str | None = None
    # The names of a block's rows at once, instead of `label` (`summary + (interval
    # 2)` counts the rows before it).
    labels: Callable[[list[re.Match]], list[str]] | None = None
    # After a header: the Rows of its block, made from it (a row pattern with a cell
    # per column it names), or None when the header is not the tool's.
    for_header: Callable[[re.Match], Rows | None] | None = None
    flags: int = 0  # of the patterns declared as text (`re.IGNORECASE`, `re.MULTILINE`)

    def __post_init__(self) -> None:
        # (each declaration's text compiled once, here: the reader only sees patterns)
        for name in _PATTERNS:
            value = getattr(self, name)
            if isinstance(value, str):
                object.__setattr__(self, name, re.compile(value, self.flags))


_PATTERNS = ("row", "header", "gap", "end", "lead", "tail", "not_heading")


# The `gap` of rows that follow each other right on: each row's own pattern takes the
# blanks or the line break before it (which the default gap would have taken).
ADJACENT = ""


@dataclass(frozen=True, slots=True)
class Key:
    """What the number of a labelled line is: its metric (default: the key as printed,
    its blanks joined), its unit, and its role (`base.ROLES`)."""

    metric: str | None = None
    unit: str | None = None
    role: str = "result"


def one_of(keys: Iterable[str]) -> str:
    """A pattern matching any of the keys as printed, tried in their order."""
    return "|".join(re.escape(k) for k in keys)


def keyed(keys: Mapping[str, Key], key: str = "key", value: str = "v") -> Found:
    """The fields of a labelled line: its number (group `value`; a `%` after it is the
    unit's), with the metric, unit and role its key (group `key`) has in `keys`."""

    def found(m: re.Match) -> Iterator[Measurement]:
        name = " ".join(m[key].split())
        k = keys[name]
        written = m[value]
        number = parse_number(written.rstrip("%")) if written is not None else None
        if number is not None:
            yield Measurement(k.metric or name, number, k.unit, None, None, written, role=k.role)

    return found


def read(spec: Rows, text: str) -> list[ResultTable]:
    """The tables of `spec`'s blocks in `text`, in text order."""
    if spec.header is None:
        blocks = runs(spec.row, text, spec.gap)
        keep = spec.keep or (lambda b: len(b) >= spec.min_rows)
        tables = [_table(spec, text, b, b[0]) for b in blocks if keep(b)]
    else:
        tables = []
        floor = 0
        heads = list(spec.header.finditer(text))
        for k, head in enumerate(heads):
            if head.start() < floor:
                continue
            limit = heads[k + 1].start() if k + 1 < len(heads) else len(text)
            own = spec.for_header(head) if spec.for_header else spec
            if own is None:
                continue
            block = list(_after(own, text, head.end(), limit))
            if len(block) >= (0 if own.keep_empty else own.min_rows):
                tables.append(_table(own, text, block, head))
                floor = tables[-1].span[1]
    if spec.heading:
        name_blocks(tables, text, spec.heading, spec.not_heading)
    return tables


def report(specs: Sequence[Rows], text: str, start: int, end: int) -> list[tuple[re.Match, Rows]]:
    """The rows of a report between `start` and `end` (a tool's summary, whose lines of
    several kinds stand among lines that give none): every row of each spec there, or
    after the spec's header the rows that follow it; each with its spec, in text order."""
    found = []
    for spec in specs:
        if spec.header is None:
            found += [(m, spec) for m in spec.row.finditer(text, start, end)]
        elif head := spec.header.search(text, start, end):
            found += [(m, spec) for m in _after(spec, text, head.end(), end)]
    found.sort(key=lambda f: f[0].start())
    return found


def chatter(
    pattern: re.Pattern, text: str, tables: list[ResultTable], *, starts_in: bool = False
) -> list[ResultTable]:
    """A table without rows per match of `pattern` (what a tool prints around its
    results: banners, settings, progress) that overlaps none of `tables` (with
    `starts_in`: whose start none of them holds), so that the registry claims its text."""
    spans = [t.span for t in tables]

    def taken(m: re.Match) -> bool:
        if starts_in:
            return within(m.start(), spans)
        return any(a < m.end() and m.start() < b for a, b in spans)

    return [ResultTable("", m.span()) for m in pattern.finditer(text) if not taken(m)]


def disjoint(tables: Iterable[ResultTable]) -> list[ResultTable]:
    """The tables in text order, without those that start inside the one kept before
    them: the registry masks each table's span, so overlapping ones would count twice."""
    kept: list[ResultTable] = []
    for t in sorted(tables, key=lambda t: t.span):
        if not kept or t.span[0] >= kept[-1].span[1]:
            kept.append(t)
    return kept


def interval_labels(records: list[re.Match]) -> list[str]:
    """The names of a run of a tool's periodic log records (pulsar-perf's, the
    OpenMessaging Benchmark's): `summary` for the aggregated stats (group `kind`
    starting `Aggregated`), else the interval: its log time (group `time`), or its
    number."""
    out, intervals = [], 0
    for rec in records:
        summary = rec["kind"].startswith("Aggregated")
        intervals += not summary
        out.append("summary" if summary else f"interval {rec['time'] or intervals}")
    return out


def log_records(
    row: re.Pattern,
    fields: Found,
    record_end: Callable[[str, int, int], int],
    caption: str,
) -> Rows:
    """The rows of a tool's periodic log records: a record each, named by
    `interval_labels`, in runs with only blank lines (and a `|` gutter) between one
    record's end (`record_end(text, pos, limit)`: a mail may wrap a record over lines)
    and the next."""
    return Rows(
        row=row,
        fields=fields,
        labels=interval_labels,
        gap=lambda between: not between[record_end(between, 0, len(between)) :].strip(" \t\r\n|"),
        columns=("interval", "metric", "value", "unit"),
        caption=caption,
    )


def read_records(spec: Rows, text: str, end: Callable[[str, int], int]) -> list[ResultTable]:
    """`read(spec, text)` for log records that run on past their match (a mail wrapped
    them over lines): each table to its last record's `end(text, pos)`, a row per
    number, named by the heading above it."""
    tables = read(spec, text)
    for t in tables:
        t.span = (t.span[0], end(text, t.span[1]))
        t.rows = [[m.label, m.metric, m.written, m.unit] for m in t.measurements]
        for i, m in enumerate(t.measurements):
            m.row = i
    name_blocks(tables, text, "block")  # (before the runs without numbers go)
    return [t for t in tables if t.measurements]


def name_blocks(
    tables: list[ResultTable],
    text: str,
    style: str,
    not_heading: re.Pattern | Callable[[str], object] | None = None,
    joins: Callable[[str, int, int], object] | None = None,
) -> None:
    """Each table's variant: the heading above it, not before the previous table's end,
    unless `not_heading` finds something in it (or says yes to it); or the previous
    table's variant when `joins(text, its end, this start)` says yes (a pattern's
    `fullmatch`): what stands between them keeps them in one output."""
    rejects = not_heading.search if isinstance(not_heading, re.Pattern) else not_heading
    floor, previous = 0, None
    for t in tables:
        if previous is not None and joins is not None and joins(text, floor, t.span[0]):
            t.variant = previous.variant
        else:
            heading = heading_above(text, t.span[0], floor, style=style)
            t.variant = None if heading and rejects and rejects(heading) else heading
        floor, previous = t.span[1], t


def blank_between(text: str, end: int, start: int) -> bool:
    """Whether only blanks stand between `end` and `start` (`joins` of `name_blocks`)."""
    return not text[end:start].strip()


def _after(spec: Rows, text: str, pos: int, limit: int):
    """The rows of the block that starts at `pos` (right after its header), up to the
    next header at `limit`."""
    if spec.end is not None:
        mark = spec.end.search(text, pos)
        yield from spec.row.finditer(text, pos, mark.start() if mark else len(text))
        return
    gap = spec.gap
    while True:
        if gap is not None:
            if (between := gap.match(text, pos, limit)) is None:
                return
            pos = between.end()
        else:
            pos = BLANKS.match(text, pos, limit).end()
        m = spec.row.match(text, pos, limit)
        if m is None:
            return
        yield m
        pos = m.end()


def _table(spec: Rows, text: str, block: list[re.Match], head: re.Match) -> ResultTable:
    start, end = head.start(), block[-1].end() if block else head.end()
    if spec.lead is not None:
        start = _lead_start(text, start, spec.lead)
    if spec.tail is not None and (tail := spec.tail.match(text, end)):
        end = tail.end()
    table = ResultTable(
        format="",  # (the registry sets the format's name)
        span=(start, end),
        columns=list(spec.columns),
        caption=spec.caption(head) if callable(spec.caption) else spec.caption,
    )
    rows = spec.select(block) if spec.select else block
    if spec.labels is not None:
        labels = spec.labels(rows)
    elif isinstance(spec.label, str):
        labels = [m[spec.label] for m in rows]
    else:
        labels = [spec.label(m) for m in rows]
    for m, label in zip(rows, labels, strict=True):
        table.add_row(cells(spec, m, label), measurements(spec.fields, m, label))
    if spec.header is not None and "{" in "".join(spec.columns):
        _name_from_header(table, head)
    return table


def _name_from_header(table: ResultTable, head: re.Match) -> None:
    """Columns, metrics and sides that name a group of the header (`QPS {base}`)."""
    names = {k: (v or "").strip() for k, v in head.groupdict().items()}
    table.columns = [c.format_map(names) for c in table.columns]
    for m in table.measurements:
        m.metric = m.metric.format_map(names)
        if m.side_name:
            m.side_name = m.side_name.format_map(names)


def _lead_start(text: str, start: int, lead: re.Pattern) -> int:
    """`start` moved up over the lines above it that `lead` matches (blank lines
    between them are passed over); not when the block starts mid-line (flattened)."""
    line_start = text.rfind("\n", 0, start) + 1
    if text[line_start:start].strip():
        return start
    first = pos = line_start
    for line in reversed(text[:line_start].split("\n")[:-1]):
        pos -= len(line) + 1
        if lead.match(line):
            first = pos
        elif line.strip():
            break
    return first


def cells(spec: Rows, m: re.Match, label: str) -> list[str]:
    if spec.cells is None:  # the label and every number as written
        return [label, *_written(spec.fields, m)]
    if callable(spec.cells):
        return spec.cells(m, label)
    return [m[g] or "" for g in spec.cells]


def _written(fields: Fields, m: re.Match) -> Iterator[str]:
    for f in [fields] if callable(fields) else fields:
        if callable(f):
            for found in f(m):
                # (a Measurement given as it is, or a (metric, written, unit) tuple)
                yield (found.written if isinstance(found, Measurement) else found[1]) or ""
        else:
            yield m[f.group] or ""


def measurements(fields: Fields, m: re.Match, label: str | None) -> list[Measurement]:
    """A measurement per field of the match that holds a number; a declared field's
    measurement knows its `span` (where its group matched)."""
    if callable(fields):
        return numbers(fields(m), label)
    out = []
    for f in fields:
        if callable(f):  # (numbers given by a function, among declared ones)
            out += numbers(f(m), label)
            continue
        unit = m[f.unit_group] if f.unit_group else f.unit
        for meas in numbers([(f.metric, m[f.group], unit)], label):
            meas.span, meas.role = m.span(f.group), f.role
            if f.side:
                meas.side, meas.side_name, meas.quantity = f.side, f.side_name, f.quantity
            out.append(meas)
    return out


def numbers(
    found: Iterable[
        tuple[str, str | None, str | None] | tuple[str, str | None, str | None, float] | Measurement
    ],
    label: str | None,
) -> list[Measurement]:
    """A measurement per (metric, number as written, unit[, value]) that holds a number;
    a Measurement given as it is (what a tuple cannot say: a variant, a side, a role) is
    kept, with the row's label when it has none."""
    out = []
    for item in found:
        if isinstance(item, Measurement):
            if item.label is None:
                item.label = label
            out.append(item)
            continue
        metric, written, unit, *value = item
        value = value[0] if value else parse_number(written) if written is not None else None
        if value is not None:
            out.append(Measurement(metric, value, unit, label, None, written))
    return out


def json_numbers(
    found: Iterable[tuple[str, object, str | None]], label: str | None, variant: str | None = None
) -> list[Measurement]:
    """A measurement per (metric, JSON value, unit) whose value is a number (not a
    boolean, which Python counts as one), written as Python prints it."""
    return [
        Measurement(metric, float(v), unit, label, variant, str(v))
        for metric, v, unit in found
        if isinstance(v, int | float) and not isinstance(v, bool)
    ]


def measure(
    metric: str,
    written: str,
    value: float | None,
    unit: str | None,
    *,
    label: str | None = None,
    variant: str | None = None,
    row: int | None = None,
) -> Measurement | None:
    """A Measurement, or None when the number could not be read."""
    if value is None:
        return None
    return Measurement(metric, value, unit, label, variant, written, row)
