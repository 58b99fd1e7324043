"""The one small interface every benchmark format implements (as jc's parsers do).

A format module defines, at its top:

    INFO = FormatInfo(name="jmh", description="...", signature="...", priority=10)

    def parse(text: str) -> list[ResultTable]: ...

`parse` is a pure function from message text to the result tables found in it; odd
input gives what could be read. It catches no exception: a bug raises, the registry
logs it and skips the format for that message (`strict=True`, in the tests, re-raises
it so that it is seen). Each table carries the
`span` of text it came from so that the registry can run specific parsers before
generic ones without counting a block twice, and its `measurements`: one per number.

Noise recognisers (`INFO.kind == "noise"`: CI reports, Surefire summaries, ...) use
the same interface; the spans they return are removed from the text before the
result parsers run, and their tables are not stored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class FormatInfo:
    name: str  # the `format` column value, e.g. "jmh"
    description: str
    signature: str  # what in the text makes this format recognisable
    priority: int = 50  # lower runs first: tool outputs before generic tables
    kind: str = "result"  # "result" or "noise"
    # A cheap necessary condition (regex source, searched case-insensitively): when it
    # does not match, `parse` would return [] and the registry does not call it. Most
    # mail is not benchmark output, so this keeps extraction fast. "" = always run.
    trigger: str = ""
    # Cheaper still: plain substrings, one of which is in the text whenever `trigger`
    # matches (a necessary condition of the trigger regex itself, so checking them
    # first never changes what runs). `needles` are looked for as written,
    # `lower_needles` (lowercase, for the trigger's case-insensitive parts)
    # case-insensitively, as re.I finds them (`ſ` counts as `s`: see
    # `extract.results.prefilter`). Both empty = no pre-check, only the trigger.
    needles: tuple[str, ...] = ()
    lower_needles: tuple[str, ...] = ()
    # Optional, instead of `needles`: the trigger as its top-level alternatives, each
    # `(regex source, needles, lower_needles)` with the needles that part needs. The
    # trigger matches exactly when one of the parts does (a test checks it). The
    # registry searches a part only when one of its needles is in the text (always,
    # when it has none); a part that starts with a literal or a character class is
    # searched much faster than a trigger that has to try every position.
    trigger_parts: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = ()
    # A generic layout (tables, records, sentences), not one tool's output: the
    # classifier asks more of it before it counts as a benchmark report.
    generic: bool = False
    # The heading above each table names it (its `variant`), found by the registry in
    # this style of `_layout.heading_above` ("block", "table", "line"); None: the
    # module names its tables itself.
    heading: str | None = None
    not_heading: re.Pattern | None = None  # found in a heading: it names nothing
    # The tool's lines may carry a `| ` gutter: the registry blanks it (offsets kept).
    gutter: bool = False
    # A block repeated verbatim in one message counts once (the registry empties later
    # copies); True keeps every copy (records: two jobs may print the same lines).
    keeps_repeats: bool = False


# The values of `Measurement.role`. (`sample`: one run's or one client's value of a
# set the tool also summarises: a result, but never paired one by one, the runs of a
# set being in no order the author compares.)
ROLES = ("result", "count", "total", "setting", "warmup", "error", "sample")


@dataclass(slots=True)
class Measurement:
    """One number. `value` is the number as written (separators removed, clock
    times in seconds); `written` is the original text of the number."""

    metric: str
    value: float
    unit: str | None = None
    label: str | None = None  # benchmark or row name
    variant: str | None = None  # the run/setting: "Before patch", "GCS / No changes"
    written: str | None = None
    row: int | None = None  # index into ResultTable.rows, when it comes from a row
    # Set by formats that are comparisons by construction (extract.results.comparisons):
    # `side` "before" / "after" (or "change": a stated relative change from a before
    # the text does not give), `side_name` the side as the text names it ("baseline",
    # "my_modified_version"), `quantity` the metric without the side ("QPS").
    side: str | None = None
    side_name: str | None = None
    quantity: str | None = None
    noise: float | None = None  # stated relative error written with it (`± 2%` → 0.02)
    # [start, end) of `written` in the parsed text: where the number came from. A
    # module may set it; the registry locates the rest (`formats.locate_numbers`).
    span: tuple[int, int] | None = None
    # Secondary statistics of this number (set when the numbers that state them are
    # judged: `extract.results.message.taken`): its stated error (± / interval half
    # width, in its unit), its standard deviation, and the number of samples or
    # iterations behind it.
    error: float | None = None
    stdev: float | None = None
    samples: float | None = None
    # What the number is, for comparisons (extract.results.comparisons): a `result`, or
    # a number that describes the run and is never a side of a comparison: a `count`
    # (iterations, samples, requests), a `total` (the whole run's time or bytes), a
    # `setting` (duration or threads asked for), a `warmup` or an `error` (failures).
    role: str = "result"


@dataclass(slots=True)
class ResultTable:
    format: str
    span: tuple[int, int]  # [start, end) character offsets in the parsed text
    columns: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    measurements: list[Measurement] = field(default_factory=list)
    caption: str | None = None
    variant: str | None = None  # applies to measurements that have none

    def source(self, text: str) -> str:
        return text[self.span[0] : self.span[1]]

    def add_row(self, cells: list[str], measurements: list[Measurement]) -> None:
        """Append a row of cells and the measurements read from it (linked by `row`)."""
        for m in measurements:
            m.row = len(self.rows)
        self.rows.append(cells)
        self.measurements.extend(measurements)
