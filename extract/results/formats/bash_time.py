"""bash's `time` keyword and log lines that time a step the same way: returns one
table per group of records.

Also zsh's form `./run.sh  1.23s user 0.45s system 98% cpu 1.712 total` (metrics
`user`, `system`, `total` in s, `CPU` in %; label = the command; consecutive lines
share the heading above the first).

Recognises `real 0m4.085s` / `user 0m3.1s` / `sys 0m0.2s` (tab or spaces, one per
line, or flattened onto one line), and the same fields inside a log line, e.g. Kudu's
glog `... load generated data into the database: real 1140.187s user 398.411s sys
5.315s` (also when a mail gateway hard-wrapped it). A record needs `real` with a
unit suffix and either `user`/`sys` or the `XmY.YYYs` form (a bare `real 5s` in a
sentence is not one).

Measurements: metric `real` / `user` / `sys`, value in seconds (`4m19.085s` → 259.085),
unit `s`, written = the text as printed. Variant = the heading before the record
(`with 4 MM threads, hash partition`, `Before patch`), looked up above the log line
a record sits in; label = the log message (`Time spent by thread 2 to load generated
data into the database`) when there is one, `run N` when a group has several
records, else None.

Not declared as rows: `real` / `user` / `sys` come as three lines or at the end of a log
line, named by the command or heading above them; zsh's one-line form is another reader.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import NUM, heading_above, last
from extract.results.formats._rows import numbers
from extract.results.formats.base import FormatInfo, ResultTable
from extract.results.units import parse_duration

INFO = FormatInfo(
    name="bash-time",
    description="bash `time` real/user/sys blocks",
    signature="`real 0m4.085s` / `user 0m3.1s` / `sys 0m0.2s`; log lines ending "
    "`: real 1140.187s user 398.411s sys 5.315s`",
    priority=15,
    kind="result",
    trigger=r"(?-i:real\s+\d|s user \d)",
    needles=("real", "s user "),
)

_DUR = r"(?:\d+h)?(?:\d+m)?\d+(?:[.,]\d+)?s"
_RECORD = re.compile(
    rf"(?<![\w-])real\s+(?P<real>{_DUR})(?![\w.])"
    rf"(?:\s+user\s+(?P<user>{_DUR})(?![\w.]))?"
    rf"(?:\s+sys\s+(?P<sys>{_DUR})(?![\w.]))?"
)
# The start of a log record: glog `I0310 13:53:38.925390 1568 file.cc:278]`, or an
# ISO/log4j timestamp.
_LOG_START = re.compile(
    r"^\s*(?:[IWEF]\d{4}\s+\d\d:\d\d:\d\d|\d{4}-\d\d-\d\d[ T]\d\d:\d\d|\[?\d\d:\d\d:\d\d[.,]\d+)"
)
_LOG_PREFIX = re.compile(
    r"^\s*(?:[IWEF]\d{4}\s+\d\d:\d\d:\d\d\.\d+\s+\d+\s+[\w./-]+:\d+\]"
    r"|\d{4}-\d\d-\d\d[ T][\d:,.]+\s+(?:\w+\s+)?(?:\[[^\]]*\]\s+)?(?:[\w.$]+:)?)\s*"
)
_FIELDS = ("real", "user", "sys")  # (each group is its metric)


def _seconds(written: str) -> float | None:
    return parse_duration(written.replace(",", "."))


def _is_record(m: re.Match) -> bool:
    return bool(m.group("user") or m.group("sys") or re.match(r"\d+m", m.group("real")))


def _log_start(text: str, pos: int) -> tuple[int, str | None]:
    """Where the log line holding the record at `pos` starts, and its message."""
    line_start = text.rfind("\n", 0, pos) + 1
    if not text[line_start:pos].strip():
        return pos, None
    start = line_start
    # Walk up through lines a gateway wrapped (long lines), to the log record start.
    for _ in range(3):
        if _LOG_START.match(text[start : start + 40]):
            break
        prev = text.rfind("\n", 0, start - 1) + 1 if start > 0 else 0
        above = text[prev : max(start - 1, prev)]
        if start == 0 or len(above.strip()) < 60 or above.rstrip().endswith(":"):
            break
        start = prev
    if not _LOG_START.match(text[start : start + 40]):
        return pos, None  # not a log line: the text before names the block instead
    message = " ".join(text[start:pos].split())
    message = _LOG_PREFIX.sub("", message).strip().rstrip(":").strip()
    return start, message or None


# zsh's `time`: `./run.sh  1.23s user 0.45s system 98% cpu 1.712 total`.
_ZSH = re.compile(
    rf"(?<![\w.])(?P<user>{NUM})s\s+user\s+(?P<system>{NUM})s\s+system\s+"
    rf"(?P<cpu>\d+)%\s+cpu\s+(?P<total>(?:\d+:)?{NUM})\s+total\b"
)
# a flattened mail: `Heading: <command>` on the line before the timing
_HEAD_CMD = re.compile(r"(?s)(?P<head>.*[^\s:]):[ \t]+(?=[^:]+$)")
_ZSH_FIELDS = [
    ("user", "user", "s"),
    ("system", "system", "s"),
    ("cpu", "CPU", "%"),
    ("total", "total", "s"),
]


def parse(text: str) -> list[ResultTable]:
    return _parse(text) + _zsh(text)


def _zsh(text: str) -> list[ResultTable]:
    tables = []
    floor = 0
    for m in _ZSH.finditer(text):
        line_start = max(text.rfind("\n", 0, m.start()) + 1, floor)
        head = _HEAD_CMD.match(text, line_start, m.start())
        if head and len(head.group("head")) <= 200:
            line_start = head.end()
        command = " ".join(text[line_start : m.start()].split()) or None
        table = ResultTable(
            format=INFO.name,
            span=m.span(),
            columns=["command"] + [metric for _, metric, _ in _ZSH_FIELDS],
            caption=command,
            variant=heading_above(text, line_start, floor),
        )
        if tables and not text[floor:line_start].strip():  # the next line of one block
            table.variant = tables[-1].variant
        table.add_row(
            [command or ""] + [m[g] for g, _, _ in _ZSH_FIELDS],
            numbers([(metric, m[g], unit) for g, metric, unit in _ZSH_FIELDS], command),
        )
        floor = m.end()
        tables.append(table)
    return tables


# the shell line that ran the timed command: `$ time mvn package -DskipTests`
# (blanks are taken whole where what follows is no blank; the shortest command never
# ends in a blank, so only ends before a blank try the run of blanks after them)
_TIME_CMD = re.compile(
    r"(?m)^[ \t]*+(?:[$#%>]|[\w.-]+@[^\s$#]*[$#])?[ \t]*+time[ \t]++"
    r"(?P<cmd>[^\s-][^\n]{0,200}?)(?<![ \t])[ \t]*+\r?$"
)
# a short heading that ends in a comma (`From,` / `To,`), which base.heading_before
# leaves out; looked at only above a fenced block
_COMMA_HEADING = re.compile(r"[ \t]*(?P<h>[A-Z][\w .()/-]{0,40}?),[ \t]*\r?")
_FENCE_LINE = re.compile(r"[ \t]*(?:```\w*|\{code[^}]*\}|\{noformat\})[ \t]*\r?")


def _comma_heading(text: str, pos: int, floor: int) -> str | None:
    """`From` from `From,` on the line above the code fence that holds `pos`."""
    lines = text[floor:pos].split("\n")[:-1]
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines or not _FENCE_LINE.fullmatch(lines[-1]):
        return None
    lines.pop()
    while lines and not lines[-1].strip():
        lines.pop()
    m = _COMMA_HEADING.fullmatch(lines[-1]) if lines else None
    return m.group("h") if m else None


def _parse(text: str) -> list[ResultTable]:
    groups: list[list[tuple[re.Match, int, str | None]]] = []
    for m in _RECORD.finditer(text):
        if not _is_record(m):
            continue
        start, message = _log_start(text, m.start())
        # (a record follows the one before when only blanks part them; a timed log
        # line is a block of its own, with its own heading)
        prev = groups[-1][-1] if groups else None
        if prev and not (message or prev[2] or text[prev[0].end() : start].strip()):
            groups[-1].append((m, start, message))
        else:
            groups.append([(m, start, message)])
    tables: list[ResultTable] = []
    floor = 0
    for group in groups:
        first_start = group[0][1]
        # `$ time mvn package` above the record (its output between): the command
        timed = None
        if len(group) == 1 and group[0][2] is None:
            timed = last(_TIME_CMD, text, max(floor, first_start - 2000), first_start)
        heading_at = timed.start() if timed else first_start
        table = ResultTable(
            format=INFO.name,
            span=(group[0][0].start(), group[-1][0].end()),
            columns=["run", "real", "user", "sys"],
            caption=timed.group("cmd") if timed else None,
            variant=heading_above(text, heading_at, floor)
            or _comma_heading(text, heading_at, floor),
        )
        for i, (m, _, message) in enumerate(group):
            label = message or (f"run {i + 1}" if len(group) > 1 else None)
            if timed:
                label = " ".join(timed.group("cmd").split())
            table.add_row(
                [label or ""] + [m[g] or "" for g in _FIELDS],
                numbers([(g, m[g], "s", _seconds(m[g])) for g in _FIELDS if m[g]], label),
            )
        tables.append(table)
        floor = group[-1][0].end()
    return tables
