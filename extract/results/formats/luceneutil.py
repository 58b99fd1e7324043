"""luceneutil's comparison table (Lucene's benchmark tool, `python src/python/localrun.py`):
returns one `ResultTable` per table.

The tool prints a header naming the two checkouts (`baseline`, `my_modified_version`
by default) and one row per task:

    TaskQPS baseline   StdDevQPS my_modified_version   StdDev      Pct diff p-value
     Prefix3  147.12   (6.2%)   129.27   (4.0%)  -12.1% ( -21% -   -2%) 0.000

(spaces shortened here; the header's right-aligned names often run together:
`TaskQPS`, `StdDevQPS`; older
versions have no p-value column). Rows: label = the task; metrics `QPS <baseline>`
and `QPS <candidate>` (unit `QPS`), `StdDev <baseline>` and `StdDev <candidate>` (%),
`Pct diff` (%, the signed change), `Pct diff low` / `Pct diff high` (%, the
confidence interval), `p-value` (no unit). Variant = the heading above the table.

Rows are matched on the text itself, not line by line, so a mail flattened onto one
line reads the same. Pure function; never raises.
"""

from __future__ import annotations

import re

from extract.results.formats._context import block_heading, measure
from extract.results.formats.base import FormatInfo, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="luceneutil",
    description="luceneutil (Lucene benchmark) QPS comparison table",
    signature="header `Task QPS <base> StdDev QPS <cand> StdDev Pct diff [p-value]`; rows "
    "`Prefix3 147.12 (6.2%) 129.27 (4.0%) -12.1% ( -21% - -2%) 0.000`",
    priority=12,
    trigger=r"(?-i:Pct[ \t]+diff)",
    needles=("Pct",),
)

_N = r"[-+]?\d+(?:\.\d+)?"
_HEADER = re.compile(
    r"Task[ \t]*QPS[ \t]+(?P<base>\S+)[ \t]+StdDev[ \t]*QPS[ \t]+(?P<cand>\S+)[ \t]+StdDev"
    r"[ \t]+Pct[ \t]+diff(?P<p>[ \t]+p-value)?"
)
_ROW = re.compile(
    r"\s*(?P<task>[A-Za-z][\w.:/-]*)\s+(?P<qb>\d+(?:\.\d+)?)\s+\(\s*(?P<sb>\d+(?:\.\d+)?)%\)\s+"
    rf"(?P<qc>\d+(?:\.\d+)?)\s+\(\s*(?P<sc>\d+(?:\.\d+)?)%\)\s+(?P<pct>{_N})%\s*"
    rf"\(\s*(?P<lo>{_N})%\s*-\s*(?P<hi>{_N})%\s*\)"
)
_P_VALUE = re.compile(r"[ \t]+(?P<p>[01]\.\d+)(?![\d.%])")


def parse(text: str) -> list[ResultTable]:
    tables = []
    floor = 0
    for head in _HEADER.finditer(text):
        if head.start() < floor:
            continue
        base, cand = head.group("base"), head.group("cand")
        table = ResultTable(
            format=INFO.name,
            span=head.span(),
            columns=[
                "Task",
                f"QPS {base}",
                f"StdDev {base}",
                f"QPS {cand}",
                f"StdDev {cand}",
                "Pct diff",
                "p-value",
            ],
            caption="luceneutil",
            variant=block_heading(text, head.start(), floor),
        )
        pos = head.end()
        while row := _ROW.match(text, pos):
            pos = row.end()
            p_value = _P_VALUE.match(text, pos) if head.group("p") else None
            if p_value:
                pos = p_value.end()
            task = row.group("task")
            index = len(table.rows)
            cells = [row.group(k) for k in ("qb", "sb", "qc", "sc", "pct")]
            table.rows.append([task, *cells, p_value.group("p") if p_value else ""])
            fields = [
                (f"QPS {base}", row.group("qb"), "QPS"),
                (f"StdDev {base}", row.group("sb"), "%"),
                (f"QPS {cand}", row.group("qc"), "QPS"),
                (f"StdDev {cand}", row.group("sc"), "%"),
                ("Pct diff", row.group("pct"), "%"),
                ("Pct diff low", row.group("lo"), "%"),
                ("Pct diff high", row.group("hi"), "%"),
            ]
            if p_value:
                fields.append(("p-value", p_value.group("p"), None))
            for metric, written, unit in fields:
                m = measure(metric, written, parse_number(written), unit, label=task, row=index)
                if m:
                    table.measurements.append(m)
            table.span = (head.start(), pos)
        if table.rows:
            floor = table.span[1]
            tables.append(table)
    return tables
