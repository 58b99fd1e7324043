"""Arrow `archery benchmark diff` tables.

Recognises the comparison table with header `benchmark  baseline  contender  change
[%]  [counters]`: the 2019-20 ursabot reStructuredText form (`====  ====` rules, often
inside a ```diff fence with `-`/`+` markers) and the 2021+ pandas form under
`Non-regressions: (N)` / `Regressions: (N)` (right-aligned, an optional index column,
a Python-dict `counters` column).

Measurements: label = benchmark (`UniqueInt64/5`), metrics `baseline` and `contender`
with their unit (`570.247 MiB/sec` → unit `MiB/s`, `812.440M items/sec` → 812.44
`M items/s`; a bare number, which archery prints for time units, has no unit),
`change` in `%`; baseline and contender are the `before` and `after` sides of quantity
`value` (`Measurement.side`); variant = the
section (`Regressions`, `Non-regressions`) when there is one. Rows are read as a stream,
so tables flattened onto one line (GitBox mail) read the same. The Google Benchmark
console table archery prints before it is left to the google-benchmark format.
"""

from __future__ import annotations

import re

from extract.results.formats._grid import norm_unit, number
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

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

_HEADER = re.compile(
    r"(?<!\S)benchmark[ \t]+baseline[ \t]+contender[ \t]+change(?:[ \t]*%)?"
    r"(?:[ \t]+counters)?(?!\S)"
)
_NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
# `570.247 MiB/sec`, `812.440M items/sec`; a bare number when the unit is a time (ns)
_UNIT = r"(?:[KMGT][ \t]?items/sec|[A-Za-z][\w/]*(?:[ \t]items/sec)?)"
_ROW = re.compile(
    rf"(?:\d+[ \t]+)?(?P<name>[^\s{{}}=]+)[ \t]+(?P<b>{_NUM})(?:[ \t]*(?P<bu>{_UNIT}))?"
    rf"[ \t]+(?P<c>{_NUM})(?:[ \t]*(?P<cu>{_UNIT}))?[ \t]+(?P<ch>{_NUM})[ \t]*%?"
    r"(?:[ \t]+(?P<counters>\{[^{}\n]*\}))?(?![^\s])"
)
_SECTION = re.compile(r"((?:Non-)?[Rr]egressions):\s*\(\d+\)")
_JUNK = re.compile(r"[\s=+-]*")  # rules, diff markers, line breaks between rows


def parse(text: str) -> list[ResultTable]:
    tables = []
    for h in _HEADER.finditer(text):
        sections = list(_SECTION.finditer(text, max(0, h.start() - 300), h.start()))
        table = ResultTable(
            INFO.name,
            h.span(),
            columns=["benchmark", "baseline", "contender", "change %", "counters"],
            variant=sections[-1].group(1) if sections else None,
        )
        pos = h.end()
        while (m := _ROW.match(text, _JUNK.match(text, pos).end())) is not None:
            r = len(table.rows)
            name = m.group("name")
            table.rows.append(
                [name, f"{m.group('b')} {m.group('bu') or ''}".strip(),
                 f"{m.group('c')} {m.group('cu') or ''}".strip(), m.group("ch"),
                 m.group("counters") or ""]
            )  # fmt: skip
            for metric, key, unit, side in (
                ("baseline", "b", norm_unit(m.group("bu")), "before"),
                ("contender", "c", norm_unit(m.group("cu")), "after"),
                ("change", "ch", "%", None),
            ):
                value = number(m.group(key))
                if value is not None:
                    meas = Measurement(metric, value, unit, name, None, m.group(key), r)
                    if side:  # the two sides of the comparison (extract.db.comparisons)
                        meas.side, meas.side_name, meas.quantity = side, metric, "value"
                    table.measurements.append(meas)
            pos = m.end()
            table.span = (h.start(), pos)
        if table.rows:
            tables.append(table)
    return tables
