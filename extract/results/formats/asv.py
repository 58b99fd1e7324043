"""airspeed velocity (asv): the comparison tables of `asv compare` and `asv continuous`,
and the log of `asv run`.

Recognises the table both commands print (asv/commands/compare.py, `print_table`), in
its two layouts:
* asv < 0.6: the header `before  after  ratio`, the commits `[3f2a1b9c]  [9e8d7c6b]`
  and, when asv knows them, their names `<main>  <gil-release>`, then a row a
  benchmark: `-  1.23±0.02s  812±10ms  0.66  io.ReadParquet.time_read_table('snappy')`;
* asv 0.6+: the same rows as a Markdown table, `| Change | Before [3f2a1b9c] <main> |
  After [9e8d7c6b] <gil-release> | Ratio | Benchmark (Parameter) |`.
A row's mark says what changed (`-` better, `+` worse, `!` a new failure, `*` a fixed
one, `x` not comparable); each side is a value as asv's `human_value` writes it: a
time with its unit (`ns`, `μs`, `ms`, `s`, `m` minutes, `h`, `d`), a size in bytes
with a decimal prefix (`800k`, `1.6M`; mem_ and peakmem_ benchmarks), or a number
(track_ benchmarks), with `±` and the half-width of its 99 % confidence interval
(asv_runner's `get_err`); `failed` or `n/a` where there is none; the ratio (after /
before, `~` when the difference is not significant) or `n/a`. The `±` and `μ` as mail
mangles them (`Â±`, `Î¼s`, `?`), and a table flattened onto one line, read the same.
Also the log asv prints while it runs a suite (asv_runner's console; `asv run`, and
`asv continuous` before its table): `[ 50.00%] · For pyarrow commit 9e8d7c6b
<read-opt>:`, then a line a benchmark, `[ 68.75%] ··· suite.mem_list  1.6M`, or `...
ok` over the table of its parameters (`=====` rules, the parameters' names, a row a
combination: `100    1.41±0.2μs`; not when flattened). Fixtures: asv 0.5.1 and 0.6.6
run here on a toy suite (tests/fixtures/tools/asv.sh); `asv continuous`'s summary
lines written from asv/commands/continuous.py.

Measurements: label = the benchmark with its parameters; per side `time` (its unit),
`memory` / `peak memory` (`B`, `kB`, `MB`, ...) or `value` (a track_ benchmark's
number, in the unit its suite declares and asv does not print), with the `±` as its
`error` (and `noise`, relative); variant = the side's name as asv prints it (the
branch, `<main>`), else `before` / `after`; the before side is the `before` of a
comparison, the after side its `after`. The ratio is a measurement too, metric
`ratio`, unit `x` (a factor, no time): it is the figure asv judges the change by and
the one authors quote ("0.66, a third faster"). Variant of the ratio = the heading
above the table. A run's lines give the same measurements without sides (label
`suite.time_x(100)` as compare names it, variant = the commit's name, else its hash);
in a message that also holds the comparison table they repeat its numbers and are
only claimed, so that no other format reads them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from extract.results.formats._layout import FLOAT, NUM
from extract.results.formats._rows import Rows, read
from extract.results.formats.base import FormatInfo, Measurement, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="asv",
    description="airspeed velocity (asv compare / continuous) tables and asv run logs",
    signature="`before  after  ratio` + `[3f2a1b9c]  [9e8d7c6b]` + `<main>  <branch>`, rows "
    "`-  1.23±0.02s  812±10ms  0.66  suite.time_x`; `| Change | Before [hash] <main> | "
    "After [hash] <branch> | Ratio | Benchmark (Parameter) |`; "
    "`[ 68.75%] ··· suite.mem_list  1.6M`",
    priority=10,
    kind="result",
    heading="block",
    # asv's own log lines above the table (`[ 50.00%] · For pyarrow commit ...`)
    not_heading=re.compile(rf"^\s*\[\s*{NUM}%\]|·"),
    trigger=r"(?-i:before[ \t]+after[ \t]+ratio|\|[ \t]*Change[ \t]*\|[ \t]*Before \["
    r"|\d\.\d\d%\][ \t])",
    trigger_parts=(
        (r"(?-i:before[ \t]+after[ \t]+ratio)", ("before",), ()),
        (r"(?-i:\|[ \t]*Change[ \t]*\|[ \t]*Before \[)", ("Change",), ()),
        # the run's log, by its progress (`[ 68.75%] ··· suite.mem_list  1.6M`): ASCII
        # only, as the prefilter's scan decides for a text whose other characters no
        # declaration names (a `·` named here would undecide every mail holding one)
        (r"(?-i:\d\.\d\d%\][ \t])", ("%]",), ()),
    ),
)

# The units of asv's human_time and human_file_size; as mail mangles `μ`: `Î¼` (UTF-8
# read as cp1252), `?` (a console without it); `µ` (the micro sign) as people retype it.
_TIME = {"ns": "ns", "μs": "µs", "µs": "µs", "Î¼s": "µs", "Âµs": "µs", "?s": "µs", "us": "µs",
         "ms": "ms", "s": "s", "m": "min", "h": "h", "d": "d", "w": "w"}  # fmt: skip
_BYTES = {"k": "kB", "M": "MB", "G": "GB", "T": "TB", "P": "PB", "E": "EB"}
_UNIT = "|".join(re.escape(u) for u in sorted({*_TIME, *_BYTES}, key=len, reverse=True))
_PM = r"(?:Â?±|\+-|\?)"  # (`±`, or what mail left of it)

# One side's cell: `1.23±0.02s`, `812±10ms`, `1.6M`, `42`, `failed`, `n/a`.
_CELL = (
    rf"(?P<{{s}}c>(?P<{{s}}>{FLOAT})(?:{_PM}(?P<{{s}}e>{NUM}))?(?P<{{s}}u>{_UNIT})?(?![\w.±?])"
    r"|failed|n/a)"
)
_BEFORE, _AFTER = _CELL.format(s="b"), _CELL.format(s="a")
_RATIO = rf"(?P<rc>(?P<tilde>~)?(?P<r>{NUM})(?![\w.])|n/a)"
_MARK = r"(?P<mark>[-+x!*])"

# A benchmark: a dotted name, its parameters `(100, 'snappy')` and, with several
# machines or environments, `[machine/env]`. (The parameters end at the first `)`
# after which the line ends or the next row starts: `{0,300}?` tries each end once.)
_ENV = r"(?:[ \t]\[[^\[\]\n]{1,200}\])?"
_NEXT_ROW = rf"[ \t]++(?:[-+x!*][ \t]++)?(?:{FLOAT}|failed|n/a)"
_NAME = (
    rf"(?P<name>[A-Za-z_][\w.]*+(?:\([^\n]{{0,300}}?\){_ENV}(?=[ \t]*+(?:\r?\n|$)|{_NEXT_ROW})"
    rf"|{_ENV}))"
)

# asv < 0.6: the console table.
_CONSOLE_HEADER = (
    r"(?<![\w-])before[ \t]++after[ \t]++ratio[ \t]*+"
    r"(?:\s*+\[(?P<h1>[0-9a-f]{4,40})\][ \t]++\[(?P<h2>[0-9a-f]{4,40})\])?"
    r"(?:[ \t]*+\r?\n[ \t]*+|[ \t]++)"
    r"(?:<(?P<n1>[^<>\s]{1,100})>)?[ \t]*+(?:<(?P<n2>[^<>\s]{1,100})>)?"
)
_CONSOLE_ROW = rf"(?:{_MARK}[ \t]++)?{_BEFORE}[ \t]++{_AFTER}[ \t]++(?:{_RATIO})[ \t]++{_NAME}"

# asv 0.6+: the Markdown table (tabulate's "github" format), with its rule. (The
# name's cell is taken whole, its padding too: the label drops it.)
_MARKDOWN_HEADER = (
    r"\|[ \t]*+Change[ \t]*+\|[ \t]*+Before \[(?P<h1>[^\]|\n]{0,40})\][ \t]*+"
    r"(?:<(?P<n1>[^<>|\n]{1,100})>)?[ \t]*+\|[ \t]*+After \[(?P<h2>[^\]|\n]{0,40})\][ \t]*+"
    r"(?:<(?P<n2>[^<>|\n]{1,100})>)?[ \t]*+\|[ \t]*+Ratio[ \t]*+\|[ \t]*+"
    r"Benchmark \(Parameter\)[ \t]*+\|(?:\s*+\|[-:|]{3,400}+)?"
)
_MARKDOWN_ROW = (
    rf"\|[ \t]*+{_MARK}?[ \t]*+\|[ \t]*+{_BEFORE}[ \t]*+\|[ \t]*+{_AFTER}[ \t]*+\|[ \t]*+"
    rf"(?:{_RATIO})[ \t]*+\|[ \t]*+(?P<name>[^|\n]{{1,400}}+)\|"
)


def _side(
    m: re.Match, s: str, side: str | None, name: str | None, label: str
) -> Iterator[Measurement]:
    """One side's measurement: what it is from its unit (a time, a size) or, with
    none, from the benchmark's kind (mem_ / peakmem_ sizes in bytes; else a number)."""
    written = m[s]
    if written is None or (value := parse_number(written)) is None:
        return
    unit = m[s + "u"]
    # (the benchmark's own name: without its parameters and `[machine/env]`)
    kind = re.split(r"[(\[ ]", label, maxsplit=1)[0].rsplit(".", 1)[-1]
    memory = "peak memory" if kind.startswith("peakmem_") else "memory"
    if unit in _TIME:
        metric, unit = "time", _TIME[unit]
    elif unit in _BYTES:
        metric, unit = memory, _BYTES[unit]
    elif kind.startswith(("mem_", "peakmem_")):
        metric, unit = memory, "B"
    else:
        metric, unit = "value", None
    meas = Measurement(metric, value, unit, None, name or side, written, span=m.span(s))
    if side is not None:  # (a side of the comparison; a run's result is none)
        meas.side, meas.side_name, meas.quantity = side, name or side, metric
    if m[s + "e"] is not None and (err := parse_number(m[s + "e"])) is not None:
        meas.error = err
        meas.noise = float(f"{err / value:.6g}") if value else None
    yield meas


def _block(header: re.Match, row: str) -> Rows:
    """The rows under a header: each side named as the header names it."""
    names = [header["n1"], header["n2"]]
    # (the ratio is after / before: named so when asv names both sides, else the
    # table's heading names it)
    compared = f"{names[1]} / {names[0]}" if all(names) else None

    def found(m: re.Match) -> Iterator[Measurement]:
        label = _label(m)
        yield from _side(m, "b", "before", names[0], label)
        yield from _side(m, "a", "after", names[1], label)
        if m["r"] is not None:
            yield Measurement("ratio", float(m["r"]), "x", None, compared, m["r"], span=m.span("r"))

    return Rows(
        row=row,
        fields=found,
        label=_label,
        columns=("change", names[0] or "before", names[1] or "after", "ratio", "benchmark"),
        cells=lambda m, label: [m["mark"] or "", m["bc"], m["ac"], m["rc"], label],
        caption=" / ".join(h for h in (header["h1"], header["h2"]) if h) or None,
    )


def _label(m: re.Match) -> str:
    return " ".join(m["name"].split())


CONSOLE = Rows(
    row=None,
    fields=(),
    header=_CONSOLE_HEADER,
    for_header=lambda h: _block(h, _CONSOLE_ROW),
)
MARKDOWN = Rows(
    row=None,
    fields=(),
    header=_MARKDOWN_HEADER,
    for_header=lambda h: _block(h, _MARKDOWN_ROW),
)


# asv's log while it runs the suite (`asv run`, and `asv continuous` before its table):
# `[ 50.00%] · For pyarrow commit 9e8d7c6b <read-opt>:`, then a line a benchmark
# `[ 68.75%] ··· suite.mem_list   1.6M`, or `... ok` and its parameters' table (`=====`
# rules, the parameters' names, a `-----` rule, a row per combination, a `=====` rule).
_STEP = r"\[[ \t]*+\d{1,3}(?:\.\d\d)?%\][ \t]*+"
_DOT = r"(?:·|Â·|\?)"  # (`·`, or what mail left of it)
_COMMIT = re.compile(
    rf"{_STEP}{_DOT}[ \t]++For [^\n]{{0,200}}? commit (?P<hash>[0-9a-f]{{4,40}})"
    r"(?:[ \t]++<(?P<name>[^<>\s]{1,100})>)?"
)
_RUN_NAME = r"(?P<name>[A-Za-z_][\w.]*+(?:[ \t]\[[^\[\]\n]{1,200}\])?)"
RUN = Rows(
    row=(
        rf"{_STEP}{_DOT}{{3}}[ \t]++{_RUN_NAME}[ \t]++{_BEFORE}"
        r"(?=[ \t]*+(?:\r?\n|$)|[ \t]++\[)"
    ),
    fields=lambda m: _side(m, "b", None, None, _label(m)),
    label=_label,
    columns=("benchmark", "result"),
    cells=("name", "bc"),
)
_RULE = r"=++(?:[ \t]++=++)*+[ \t]*+"
PARAMETERS = Rows(
    row=None,
    fields=(),
    header=(
        rf"{_STEP}{_DOT}{{3}}[ \t]++{_RUN_NAME}[ \t]++ok[ \t]*+\r?\n"
        rf"{_STEP}{_DOT}{{3}}[ \t]++{_RULE}\r?\n[^\n]{{0,400}}\n[ \t]*+-++(?:[ \t]++-++)*+[ \t]*+"
        r"(?=\r?\n)"
    ),
    for_header=lambda h: _parameters(h["name"]),
)


def _parameters(name: str) -> Rows:
    """The rows of a parameterised benchmark's table: its parameters' values, then its
    result; named as asv compare names them, `suite.time_x(100, 'snappy')`."""

    def label(m: re.Match) -> str:
        return f"{name}({', '.join(m['params'].split())})"

    return Rows(
        # (each value is taken whole; at most 8 of them, tried from one)
        row=(
            rf"[ \t]*+(?P<params>(?:[^\s=][^\s]*+[ \t]++){{1,8}}?){_BEFORE}[ \t]*+"
            r"(?=\r?\n|$)"
        ),
        fields=lambda m: _side(m, "b", None, None, label(m)),
        label=label,
        columns=("benchmark", "result"),
        cells=lambda m, lab: [lab, m["bc"]],
    )


def parse(text: str) -> list[ResultTable]:
    compared = read(CONSOLE, text) + read(MARKDOWN, text)
    runs = read(RUN, text) + read(PARAMETERS, text)
    if compared:
        # (the run's lines repeat the numbers of the table after them: claimed, as
        # what the tool printed on its way, not read twice)
        runs = [ResultTable("", t.span) for t in runs]
    commits = list(_COMMIT.finditer(text))
    for t in runs:
        above = [c for c in commits if c.start() < t.span[0]]
        for m in t.measurements if above else ():
            m.variant = above[-1]["name"] or above[-1]["hash"]
    return sorted(compared + runs, key=lambda t: t.span)
