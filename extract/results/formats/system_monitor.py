"""Noise: a running system's state as its monitors print it - top, ps, vmstat, iostat,
free, df.

A bug report or a question pastes a monitor's screen to show what is wrong (a process
at full CPU, a disk at 100 % util, memory gone); its numbers are the state of one
moment - process ids, sizes, counters, load - not results a run measured. Each tool's
manual page fixes its output:

- top (procps-ng): the summary lines `top - 08:32:11 up 1 day, ...`, `Tasks: 212
  total, ...`, `%Cpu(s): 96.1 us, ...` (`Cpu(s):` in older releases), `MiB Mem : ...`
  / `KiB Swap: ...`, and the task table under `PID USER PR NI VIRT RES SHR S %CPU
  %MEM TIME+ COMMAND`;
- ps (`ps aux`): `USER PID %CPU %MEM VSZ RSS TTY STAT START TIME COMMAND`;
- vmstat: `procs -----------memory---------- ---swap-- -----io---- ...` over ` r  b
  swpd free buff cache si so bi bo in cs us sy id wa st`;
- iostat (sysstat): `avg-cpu:  %user   %nice %system %iowait  %steal   %idle` and
  `Device  r/s  w/s  rkB/s ...` (`-x`), `Device:  tps  kB_read/s ...` (older) with a
  row per device;
- free: `total  used  free  shared  buff/cache  available` over `Mem:` and `Swap:`;
- df: `Filesystem  Size  Used  Avail  Use%  Mounted on` (`1K-blocks` without `-h`).

A table's header and its rows under it (up to a blank line, a code fence or a line
that is no row: a row's fields are at least half numbers, `41.2g`, `95%`, `18231:44`),
and each of top's summary lines, are claimed.

Returns ResultTables without measurements; the registry removes their spans.

Not declared as rows: a noise recogniser: it claims the monitors' lines, and gives no
measurements.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import line_starts
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="system-monitor",
    description="a system's state as top, ps, vmstat, iostat, free and df print it "
    "(a snapshot, not results)",
    signature="`PID USER PR NI VIRT RES SHR S %CPU %MEM TIME+ COMMAND` with its rows; "
    "`procs ---memory---` (vmstat); `avg-cpu: %user` / `Device r/s w/s` (iostat); "
    "`Filesystem Size Used Avail Use%` (df)",
    priority=5,
    kind="noise",
    trigger=r"(?-i:PID +USER|USER +PID|procs -|avg-cpu:|Device:? +(?:r/s|rrqm/s|tps)"
    r"|total +used +free +shared|Filesystem +(?:Size|1K-blocks|1M-blocks)|Cpu\(s\):|Tasks: +\d)",
    needles=(
        "PID",
        "procs -",
        "avg-cpu:",
        "Device",
        "shared",
        "Filesystem",
        "Cpu(s):",
        "Tasks:",
    ),
)

# A table's header, as each monitor prints it (its first columns are enough).
_HEADER = re.compile(
    r"[ \t]*+(?:PID[ \t]+USER[ \t]+PR[ \t]+NI[ \t]+VIRT"
    r"|USER[ \t]+PID[ \t]+%CPU[ \t]+%MEM[ \t]+VSZ"
    r"|procs[ \t]+-+"
    r"|avg-cpu:[ \t]+%user"
    r"|Device:?[ \t]+(?:r/s|rrqm/s|tps|r_await)\b"
    r"|total[ \t]+used[ \t]+free[ \t]+shared"
    r"|Filesystem[ \t]+(?:Size|1K-blocks|1M-blocks)[ \t]+Used[ \t]+Avail)"
)
# top's summary lines, each a line of its own.
_SUMMARY = re.compile(
    r"[ \t]*+(?:top - \d\d:\d\d:\d\d up |Tasks:[ \t]+\d+ total|%?Cpu\(s\):[ \t]+\d"
    r"|(?:KiB|MiB|GiB)[ \t]+(?:Mem|Swap)[ \t]*:[ \t]+\d)"
)
# (a field that is a number as the monitors print them: `41.2g`, `95%`, `18231:44`)
_NUMERIC_FIELD = re.compile(r"[-+]?\d[\d.,:]*[A-Za-z%]?")
_FENCE = re.compile(r"[ \t]*(?:```|~~~|\{code|\{noformat)")
_VMSTAT = re.compile(r"[ \t]*procs[ \t]+-")
_ROWS = 500  # (a screen's rows at most: a longer run is something else)


def _is_row(line: str, width: int) -> bool:
    """A row under a header of `width` fields: the fields a command line adds past the
    last column (`ps` and `top` end with COMMAND, its arguments and all) aside."""
    fields = line.split()[: max(3, width)]
    numeric = sum(_NUMERIC_FIELD.fullmatch(f) is not None for f in fields)
    return len(fields) >= 3 and numeric >= max(2, len(fields) / 2)


def parse(text: str) -> list[ResultTable]:
    lines = text.split("\n")
    starts = line_starts(lines)
    out: list[ResultTable] = []
    k = 0
    while k < len(lines):
        line = lines[k]
        if _SUMMARY.match(line):
            out.append(ResultTable(INFO.name, (starts[k], starts[k] + len(line))))
        elif _HEADER.match(line):
            last = k
            width = len(line.split())
            # (vmstat's second header line, then the rows)
            while (
                last + 1 < len(lines)
                and last - k < _ROWS
                and lines[last + 1].strip()
                and not _FENCE.match(lines[last + 1])
                and (_is_row(lines[last + 1], width) or (last == k and _VMSTAT.match(line)))
            ):
                last += 1
            out.append(ResultTable(INFO.name, (starts[k], starts[last] + len(lines[last]))))
            k = last
        k += 1
    return out
