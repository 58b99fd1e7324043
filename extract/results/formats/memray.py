"""memray's `memray stats` output (Bloomberg's memory profiler for Python): returns one
table per report.

Recognises the report's totals as `memray stats` prints them (its `StatsReporter`,
src/memray/reporters/stats.py): a title line, `📏 Total allocations:`, `📦 Total memory
allocated:`, `📈 Peak memory usage:` (the emoji may be lost on the way, or turned into
`?`s or Latin-1 debris), and the
number under it on an indented line (`\t31.614MB`, sizes as memray's `size_fmt` writes
them: `B`, `kB`, `MB`, `GB`, ...). The sections after the totals (the histogram of
allocation sizes, the allocator types, the top locations and modules) belong to the
report's table, so that none of their numbers is read as a result of its own.

Measurements: metric = the total (`total allocations`, a count; `total memory
allocated`, `peak memory usage`, sizes), and the histogram's `min allocation size` and
`max allocation size`; label = None; variant = the heading above the report (`After
this change:`).
"""

from __future__ import annotations

import re

from extract.results.formats._layout import NUM
from extract.results.formats._rows import Rows, numbers, read
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="memray",
    description="memray stats: total allocations, memory allocated, peak memory",
    signature="`📦 Total memory allocated:` over `\\t174.422MB`",
    priority=14,
    heading="block",
    trigger=r"(?-i:Total memory allocated:|Peak memory usage:|Total allocations:)",
    needles=("Total memory allocated:", "Peak memory usage:", "Total allocations:"),
)

_TOTALS = {
    "Total allocations": ("total allocations", "count"),
    "Total memory allocated": ("total memory allocated", None),
    "Peak memory usage": ("peak memory usage", None),
}
# What leads a title: its emoji, or what a mail made of it (`?`s, Latin-1 debris), or
# nothing, once lost.
_LEAD = r"(?:[^\x00-\x7f\n]{1,4}|\?{1,4})?[ \t]*"
# A total: its title, its number on the indented line under it. (From the title's
# first letter: what leads it is left out of the row, which a search could otherwise
# start at every blank of a long run)
_ROW = (
    "(?P<key>"
    + "|".join(_TOTALS)
    + rf"):[ \t]*\r?\n[ \t]++(?P<v>{NUM})[ \t]*(?P<u>[kMGTP]?B)?(?![\w.])"
)
# The titles of the report's sections after the totals.
_SECTION = (
    r"(?:Histogram of allocation size|Allocator type distribution"
    r"|Top \d+ (?:largest )?allocating (?:locations|modules) \(by (?:size|number of allocations)\))"
)
# What follows the totals in a report: blank lines, its sections' titles, and the
# indented lines under them (a number; the histogram's `min:`, rules and `< 4.000B :
# 4` bars; an allocator's `MALLOC: 81`; a top location's or module's `- ...`).
_REST = (
    r"(?:\r?\n(?:[ \t\r]*+(?=\n|$)|[ \t]++(?:min:|max:|-{3}|<|- |[A-Z_]+: \d|\d)[^\n]*+"
    + r"|[ \t]*"
    + _LEAD
    + "(?:"
    + "|".join(_TOTALS)
    + "|"
    + _SECTION
    + r"):[ \t\r]*+))*+"
)


def _total(m: re.Match) -> list[tuple[str, str, str]]:
    metric, unit = _TOTALS[m["key"]]
    return [(metric, m["v"], unit or m["u"] or "B")]


ROWS = Rows(
    row=_ROW,
    fields=_total,
    # (between two totals: blank lines and what leads the next title)
    gap=r"\s*+(?:[^\x00-\x7f\s]{1,4}|\?{1,4})?[ \t]*+",
    label=lambda m: None,  # (a report's totals: its heading names it)
    columns=("metric", "value"),
    cells=lambda m, label: [m["key"], m["v"] + (m["u"] or "")],
    tail=_REST,
)


# The histogram's smallest and largest allocation (`min: 1.000B`, `max: 64.000MB`), on
# indented lines of the report.
_EXTREME = re.compile(
    rf"^[ \t]+(?P<key>min|max):[ \t]*(?P<v>{NUM})[ \t]*(?P<u>[kMGTP]?B)[ \t\r]*$", re.M
)


def parse(text: str) -> list[ResultTable]:
    tables = read(ROWS, text)
    for t in tables:
        # (the table starts at its first title's line, emoji and all: the heading above
        # that line names it)
        line = text.rfind("\n", 0, t.span[0]) + 1
        if not any(ch.isascii() and ch.isalnum() for ch in text[line : t.span[0]]):
            t.span = (line, t.span[1])
        for m in _EXTREME.finditer(text, *t.span):
            metric = f"{m['key']} allocation size"
            found = numbers([(metric, m["v"], m["u"])], None)
            for meas in found:  # (where it stands: the histogram's bounds repeat it)
                meas.span = m.span("v")
            t.add_row([metric, m["v"] + m["u"]], found)
    return tables
