"""AutoTVM tuning progress (TVM's `autotvm.callback.progress_bar`, printed by every
`tune_*.py` tutorial and script): returns one `ResultTable` per run of task lines.

    [Task  1/15]  Current/Best:  203.76/ 218.31 GFLOPS | Progress: (456/456) | 640.50 s Done.

The bar is redrawn in place; a pasted log may hold several lines of one task, and
the last one is its result. Rows: label = `Task i/n`; metrics `Current` and `Best`
(GFLOPS, as printed), `trials` (the trials done, no unit) and `elapsed` (s).
Variant = the heading above the log.

Lines are matched on the text itself, so a mail flattened onto one line reads the
same.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import NUM
from extract.results.formats._rows import Field, Rows, read
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="autotvm",
    description="AutoTVM tuning progress lines (current/best GFLOPS per task)",
    signature="`[Task  1/15]  Current/Best:  203.76/ 218.31 GFLOPS | Progress: (456/456) | "
    "640.50 s`",
    priority=12,
    heading="block",
    trigger=r"(?-i:Current/Best:)",
    needles=("Current/Best:",),
)


def _last_of_each_task(rows: list[re.Match]) -> list[re.Match]:
    """The bar is redrawn: a task's last line is its result (in the order tasks start)."""
    return list({_task(m): m for m in rows}.values())


def _task(m: re.Match) -> str:
    return f"Task {m['i']}/{m['n']}"


ROWS = Rows(
    row=(
        rf"\[Task\s+(?P<i>\d+)/\s*(?P<n>\d+)\]\s+Current/Best:\s*(?P<cur>{NUM})/\s*(?P<best>{NUM})"
        rf"\s*(?P<u>[GMT]?FLOPS)\s*\|\s*Progress:\s*\((?P<done>\d+)/(?P<all>\d+)\)"
        rf"(?:\s*\|\s*(?P<s>{NUM})\s*s\b)?(?:\s*Done\.)?"
    ),
    fields=(
        Field("Current", "cur", unit_group="u"),
        Field("Best", "best", unit_group="u"),
        Field("trials", "done"),
        Field("elapsed", "s", "s"),
    ),
    label=_task,
    select=_last_of_each_task,
    columns=("task", "Current", "Best", "trials", "elapsed (s)"),
    caption="AutoTVM tuning",
)


def parse(text: str) -> list[ResultTable]:
    return read(ROWS, text)
