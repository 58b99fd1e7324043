"""AutoTVM tuning progress (TVM's `autotvm.callback.progress_bar`, printed by every
`tune_*.py` tutorial and script): returns one `ResultTable` per run of task lines.

    [Task  1/15]  Current/Best:  203.76/ 218.31 GFLOPS | Progress: (456/456) | 640.50 s Done.

The bar is redrawn in place; a pasted log may hold several lines of one task, and
the last one is its result. Rows: label = `Task i/n`; metrics `Current` and `Best`
(GFLOPS, as printed), `trials` (the trials done, no unit) and `elapsed` (s).
Variant = the heading above the log.

Lines are matched on the text itself, so a mail flattened onto one line reads the
same. Pure function; never raises.
"""

from __future__ import annotations

import re

from extract.results.formats._context import measure
from extract.results.formats._layout import heading_above, runs
from extract.results.formats.base import FormatInfo, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="autotvm",
    description="AutoTVM tuning progress lines (current/best GFLOPS per task)",
    signature="`[Task  1/15]  Current/Best:  203.76/ 218.31 GFLOPS | Progress: (456/456) | "
    "640.50 s`",
    priority=12,
    trigger=r"(?-i:Current/Best:)",
    needles=("Current/Best:",),
)

_N = r"\d+(?:\.\d+)?"
_LINE = re.compile(
    rf"\[Task\s+(?P<i>\d+)/\s*(?P<n>\d+)\]\s+Current/Best:\s*(?P<cur>{_N})/\s*(?P<best>{_N})"
    rf"\s*(?P<u>[GMT]?FLOPS)\s*\|\s*Progress:\s*\((?P<done>\d+)/(?P<all>\d+)\)"
    rf"(?:\s*\|\s*(?P<s>{_N})\s*s\b)?(?:\s*Done\.)?"
)


def parse(text: str) -> list[ResultTable]:
    tables = []
    floor = 0
    for run in runs(_LINE, text):
        last: dict[str, re.Match] = {}  # the last line of each task is its result
        for m in run:
            last[f"Task {m.group('i')}/{m.group('n')}"] = m
        table = ResultTable(
            format=INFO.name,
            span=(run[0].start(), run[-1].end()),
            columns=["task", "Current", "Best", "trials", "elapsed (s)"],
            caption="AutoTVM tuning",
            variant=heading_above(text, run[0].start(), floor),
        )
        for task, m in last.items():
            index = len(table.rows)
            table.rows.append(
                [task, m.group("cur"), m.group("best"), m.group("done"), m.group("s") or ""]
            )
            fields = [
                ("Current", m.group("cur"), m.group("u")),
                ("Best", m.group("best"), m.group("u")),
                ("trials", m.group("done"), None),
                ("elapsed", m.group("s"), "s"),
            ]
            for metric, written, unit in fields:
                if written is None:
                    continue
                meas = measure(metric, written, parse_number(written), unit, label=task, row=index)
                if meas:
                    table.measurements.append(meas)
        floor = table.span[1]
        tables.append(table)
    return tables
