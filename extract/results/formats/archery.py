"""Arrow `archery benchmark diff` tables.

Recognises the table with header `benchmark  baseline  contender  change [%]
[counters]`: the 2019-20 ursabot reStructuredText form (`====  ====` rules, often in a
```diff fence with `-`/`+` markers) and the 2021+ pandas form under `Non-regressions:
(N)` / `Regressions: (N)` (right-aligned, an optional index column, a Python-dict
`counters` column); also flattened onto one line. The Google Benchmark console table
archery prints before it is left to the google-benchmark format.

Measurements: label = the benchmark (`UniqueInt64/5`), `baseline` and `contender` with
their unit (`570.247 MiB/sec` → `MiB/s`, `812.440M items/sec` → 812.44 `M items/s`; a
bare number, archery's time units, has none), the `before` and `after` sides of
quantity `value`; `change` (%); variant = the section (`Regressions`) when there is one.
"""

from __future__ import annotations

import re

from extract.results.formats._grid import norm_unit
from extract.results.formats._layout import LOOSE, last
from extract.results.formats._rows import Rows, read
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="archery",
    description="Arrow archery benchmark diff tables",
    signature=(
        "header 'benchmark  baseline  contender  change [%] [counters]' (RST '====' rules or "
        "under 'Regressions: (N)' / 'Non-regressions: (N)'); cells '570.247 MiB/sec'"
    ),
    priority=10,
    kind="result",
    trigger=r"(?-i:contender)",
    needles=("contender",),
)

# `570.247 MiB/sec`, `812.440M items/sec`; a bare number when the unit is a time (ns)
_UNIT = r"(?:[KMGT][ \t]?items/sec|[A-Za-z][\w/]*(?:[ \t]items/sec)?)"
_SECTION = re.compile(r"((?:Non-)?[Rr]egressions):\s*\(\d+\)")


def _fields(m: re.Match):
    yield "baseline", m["b"], norm_unit(m["bu"])
    yield "contender", m["c"], norm_unit(m["cu"])
    yield "change", m["ch"], "%"


ROWS = Rows(
    header=(
        r"(?<!\S)benchmark[ \t]+baseline[ \t]+contender[ \t]+change(?:[ \t]*%)?"
        r"(?:[ \t]+counters)?(?!\S)"
    ),
    row=(
        rf"(?:\d+[ \t]+)?(?P<name>[^\s{{}}=]+)[ \t]+(?P<b>{LOOSE})(?:[ \t]*(?P<bu>{_UNIT}))?"
        rf"[ \t]+(?P<c>{LOOSE})(?:[ \t]*(?P<cu>{_UNIT}))?[ \t]+(?P<ch>{LOOSE})[ \t]*%?"
        r"(?:[ \t]+(?P<counters>\{[^{}\n]*\}))?(?![^\s])"
    ),
    gap=r"[\s=+-]*",  # rules, diff markers, line breaks between rows
    fields=_fields,
    label="name",
    cells=lambda m, name: [
        name,
        f"{m['b']} {m['bu'] or ''}".strip(),
        f"{m['c']} {m['cu'] or ''}".strip(),
        m["ch"],
        m["counters"] or "",
    ],  # fmt: skip
    columns=("benchmark", "baseline", "contender", "change %", "counters"),
)


def parse(text: str) -> list[ResultTable]:
    tables = read(ROWS, text)
    for t in tables:
        section = last(_SECTION, text, max(0, t.span[0] - 300), t.span[0])
        t.variant = section.group(1) if section else None
        for m in t.measurements:  # the two sides of the comparison (extract.results.comparisons)
            if m.metric != "change":
                m.side, m.side_name, m.quantity = _SIDE[m.metric], m.metric, "value"
    return tables


_SIDE = {"baseline": "before", "contender": "after"}
