"""GNU/BSD `/usr/bin/time` output: returns one table per group of records.

Recognises
* GNU default: `2.43user 0.39system 0:02.10elapsed 134%CPU (0avgtext+0avgdata
  2064maxresident)k` optionally followed by `0inputs+0outputs (0major+71minor)pagefaults
  0swaps`; also when wrapped or flattened onto one line;
* BSD/macOS default: `0.00 real 0.00 user 0.00 sys`;
* POSIX `time -p`: `real 0.00` / `user 0.00` / `sys 0.00` (no unit suffix: bash's
  `real 0m4.085s` form belongs to bash_time);
* GNU `time -v`: `Command being timed: "cmd"` / `User time (seconds): 110.50` / ...

Measurements: metric = the field (`user`, `system`, `elapsed`, `CPU`, `max_resident`,
`minor_pagefaults`, ...; verbose: the key without its unit, e.g. `User time`);
unit `s` for times (`0:02.10` elapsed → 2.10 s), `%` for CPU, `KB` for memory sizes,
`B` for the page size, `count` for counts. Consecutive records form one table
whose variant is the heading before them (`HDFS -text`, `before change`); label =
`run N` when a group has several records, else the timed command (verbose) or None.

Not declared as rows: GNU's, POSIX's and BSD's one-line forms and the `-v` block of
`key: value` lines, whose units are in the keys, are four readers.
"""

from __future__ import annotations

import re

from extract.results.formats._context import measure
from extract.results.formats._layout import NUM, heading_above, runs
from extract.results.formats.base import FormatInfo, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="gnu-time",
    description="GNU/BSD time output, including -v verbose",
    signature="`2.43user 0.39system 0:02.10elapsed 134%CPU`, `0.00 real 0.00 user 0.00 sys`, "
    "`real 0.00` / `user 0.00` / `sys 0.00`, `Command being timed:` / `User time (seconds):`",
    priority=15,
    kind="result",
    trigger=r"(?-i:sys(?:tem\s+\d|[ \t]+\d)|user\s+\d[\d.]*\s+sys\b|s\)\s*:\s*\d|faults\s*:"
    r"|switches\s*:|Swaps\s*:|inputs\s*:|outputs\s*:|sent\s*:|received\s*:|delivered\s*:"
    r"|got\s*:|status\s*:)",
    # one part per alternative: each starts with a literal and is searched only when
    # its word is in the text
    trigger_parts=(
        (r"(?-i:sys(?:tem\s+\d|[ \t]+\d))", ("sys",), ()),
        (r"(?-i:user\s+\d[\d.]*\s+sys\b)", ("sys",), ()),
        (r"(?-i:s\)\s*:\s*\d)", ("s)",), ()),
        *(
            (rf"(?-i:{word}\s*:)", (needle,), ())
            for word, needle in (
                ("faults", "faults"),
                ("switches", "switches"),
                ("Swaps", "Swaps"),
                ("inputs", "puts"),
                ("outputs", "puts"),
                ("sent", "sent"),
                ("received", "received"),
                ("delivered", "delivered"),
                ("got", "got"),
                ("status", "status"),
            )
        ),
    ),
)

_GNU = re.compile(
    rf"(?<![\w.])(?P<user>{NUM})user\s+(?P<system>{NUM})system\s+"
    rf"(?P<elapsed>\d+(?::\d\d){{1,2}}(?:\.\d+)?)elapsed\s+(?P<cpu>\d+|\?)%CPU"
    rf"(?:\s*\((?P<avgtext>\d+)avgtext\+(?P<avgdata>\d+)avgdata\s+(?P<maxresident>\d+)maxresident\)k)?"
    rf"(?:\s+(?P<inputs>\d+)inputs\+(?P<outputs>\d+)outputs\s*"
    rf"\((?P<major>\d+)major\+(?P<minor>\d+)minor\)pagefaults\s+(?P<swaps>\d+)swaps)?"
)
_BSD = re.compile(
    rf"(?<![\w.])(?P<real>{NUM})\s+real\s+(?P<user>{NUM})\s+user\s+(?P<sys>{NUM})\s+sys\b"
)
_POSIX = re.compile(
    rf"(?<![\w-])real[ \t]+(?P<real>{NUM})\s+user[ \t]+(?P<user>{NUM})"
    rf"\s+sys[ \t]+(?P<sys>{NUM})(?![\w.:])"
)

_GNU_FIELDS = [  # (group, metric, unit)
    ("user", "user", "s"),
    ("system", "system", "s"),
    ("elapsed", "elapsed", "s"),
    ("cpu", "CPU", "%"),
    ("avgtext", "avg_text", "KB"),
    ("avgdata", "avg_data", "KB"),
    ("maxresident", "max_resident", "KB"),
    ("inputs", "inputs", "count"),
    ("outputs", "outputs", "count"),
    ("major", "major_pagefaults", "count"),
    ("minor", "minor_pagefaults", "count"),
    ("swaps", "swaps", "count"),
]
_SHORT_FIELDS = [("real", "real", "s"), ("user", "user", "s"), ("sys", "sys", "s")]

# GNU time -v keys, with the unit their values are in.
_VERBOSE_KEYS = [
    ("User time (seconds)", "s"),
    ("System time (seconds)", "s"),
    ("Percent of CPU this job got", "%"),
    ("Elapsed (wall clock) time (h:mm:ss or m:ss)", "s"),
    ("Average shared text size (kbytes)", "KB"),
    ("Average unshared data size (kbytes)", "KB"),
    ("Average stack size (kbytes)", "KB"),
    ("Average total size (kbytes)", "KB"),
    ("Maximum resident set size (kbytes)", "KB"),
    ("Average resident set size (kbytes)", "KB"),
    ("Major (requiring I/O) page faults", "count"),
    ("Minor (reclaiming a frame) page faults", "count"),
    ("Voluntary context switches", "count"),
    ("Involuntary context switches", "count"),
    ("Swaps", "count"),
    ("File system inputs", "count"),
    ("File system outputs", "count"),
    ("Socket messages sent", "count"),
    ("Socket messages received", "count"),
    ("Signals delivered", "count"),
    ("Page size (bytes)", "B"),
    ("Exit status", None),  # not a measurement; kept so the block stays contiguous
]
_VERBOSE_UNIT = dict(_VERBOSE_KEYS)
# The average sizes GNU time prints but Linux does not measure: its manual says they
# are shown as zero there. A zero in them says nothing was measured, not that a size
# was 0 (and two of them, 0 -> 0, made a pair of nothing).
_UNMEASURED_WHEN_ZERO = frozenset(
    ("avg_text", "avg_data", "Average shared text size", "Average unshared data size",
     "Average stack size", "Average total size", "Average resident set size")
)  # fmt: skip
# What describes the machine, not the run.
_SETTINGS = frozenset(("Page size",))
_VERBOSE = re.compile(
    r"(?P<key>"
    + "|".join(re.escape(k) for k, _ in _VERBOSE_KEYS)
    + r")\s*:\s*(?P<val>\d+(?::\d\d){0,2}(?:\.\d+)?%?)"
)
# GNU time's own line above a record of a command that failed.
_EXIT_LINE = re.compile(
    r"Command (?:exited with non-zero status|terminated by signal) \d+[ \t]*\r?\n?\s*$"
)
_COMMAND = re.compile(r'Command being timed:\s*"(?P<cmd>[^"\n]{0,200})"')
# (from the first blank of a run only: a match from inside it starts at its first blank)
_UNIT_IN_KEY = re.compile(r"(?<!\s)\s*+\((?:seconds|kbytes|bytes|h:mm:ss or m:ss)\)")


def _record_tables(
    text: str, pattern: re.Pattern, fields: list[tuple[str, str, str]]
) -> list[ResultTable]:
    tables = []
    floor = 0
    for group in runs(pattern, text):
        used = [f for f in fields if any(m.group(f[0]) is not None for m in group)]
        start = group[0].start()
        exit_line = _EXIT_LINE.search(text, max(floor, start - 80), start)
        if exit_line:  # `Command exited with non-zero status 3` belongs to the record
            start = exit_line.start()
        table = ResultTable(
            format=INFO.name,
            span=(start, group[-1].end()),
            columns=["run"] + [metric for _, metric, _ in used],
            variant=heading_above(text, start, floor),
        )
        for i, m in enumerate(group):
            label = f"run {i + 1}" if len(group) > 1 else None
            table.rows.append([label or ""] + [m.group(g) or "" for g, _, _ in used])
            for group_name, metric, unit in used:
                written = m.group(group_name)
                if written is None or written == "?":
                    continue
                meas = measure(metric, written, parse_number(written), unit, label=label, row=i)
                if meas and not (metric in _UNMEASURED_WHEN_ZERO and meas.value == 0):
                    table.measurements.append(meas)
        floor = group[-1].end()
        tables.append(table)
    return tables


def _verbose_tables(text: str) -> list[ResultTable]:
    tables = []
    floor = 0
    for group in runs(_VERBOSE, text):
        if len(group) < 3:  # a lone "Swaps: 0" is not a time -v block
            continue
        start = group[0].start()
        command = None
        commands = list(_COMMAND.finditer(text, floor, start))
        cmd = commands[-1] if commands else None
        if cmd and not text[cmd.end() : start].strip():
            command, start = cmd.group("cmd"), cmd.start()
        table = ResultTable(
            format=INFO.name,
            span=(start, group[-1].end()),
            columns=["field", "value"],
            caption=command,
            variant=heading_above(text, start, floor),
        )
        for m in group:
            key, written = m.group("key"), m.group("val")
            unit = _VERBOSE_UNIT[key]
            if unit is None:
                continue
            metric = _UNIT_IN_KEY.sub("", key)
            table.rows.append([metric, written])
            meas = measure(metric, written, parse_number(written.rstrip("%")), unit, label=command)
            if meas and not (metric in _UNMEASURED_WHEN_ZERO and meas.value == 0):
                meas.row = len(table.rows) - 1
                if metric in _SETTINGS:
                    meas.role = "setting"
                table.measurements.append(meas)
        floor = group[-1].end()
        tables.append(table)
    return tables


def parse(text: str) -> list[ResultTable]:
    tables: list[ResultTable] = []
    for reader in (
        lambda t: _record_tables(t, _GNU, _GNU_FIELDS),
        lambda t: _record_tables(t, _BSD, _SHORT_FIELDS),
        lambda t: _record_tables(t, _POSIX, _SHORT_FIELDS),
        _verbose_tables,
    ):
        found = reader(text)
        for table in found:
            if any(_overlaps(table.span, t.span) for t in tables):
                continue
            tables.append(table)
    return tables


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]
