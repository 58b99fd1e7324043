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

Four declared readers: GNU's, BSD's and POSIX's one-line records (`_rows.Rows`), and the
`-v` block of `key: value` lines (`_rows.keyed`: the units are in the keys). A table
keeps the columns its records print; the line above a block that belongs to it (GNU
time's `Command exited with non-zero status 1`, `-v`'s `Command being timed:`) is
taken in after reading.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import NUM, last, overlaps
from extract.results.formats._rows import Key, Rows, keyed, name_blocks, numbers, one_of, read
from extract.results.formats.base import FormatInfo, ResultTable

# The trigger, one part per alternative: each starts with a literal and is searched only
# when its word is in the text.
_TRIGGER_PARTS = (
    (r"(?-i:sys(?:tem\s+\d|[ \t]+\d))", ("sys",), ()),
    (r"(?-i:user\s+\d[\d.]*\s+sys\b)", ("sys",), ()),
    (r"(?-i:s\)\s*:\s*\d)", ("s)",), ()),
    *((rf"(?-i:{word}\s*:)", (word,), ()) for word in ("faults", "switches", "Swaps", "inputs",
      "outputs", "sent", "received", "delivered", "got", "status")),
)  # fmt: skip
INFO = FormatInfo(
    name="gnu-time",
    description="GNU/BSD time output, including -v verbose",
    signature="`2.43user 0.39system 0:02.10elapsed 134%CPU`, `0.00 real 0.00 user 0.00 sys`, "
    "`real 0.00` / `user 0.00` / `sys 0.00`, `Command being timed:` / `User time (seconds):`",
    priority=15,
    kind="result",
    trigger="|".join(part for part, _, _ in _TRIGGER_PARTS),
    trigger_parts=_TRIGGER_PARTS,
)

# The one-line records: `(group, metric, unit)` of each number, in the order printed.
_GNU_FIELDS = (
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
)
_SHORT_FIELDS = (("real", "real", "s"), ("user", "user", "s"), ("sys", "sys", "s"))
_GNU = (
    rf"(?<![\w.])(?P<user>{NUM})user\s+(?P<system>{NUM})system\s+"
    rf"(?P<elapsed>\d+(?::\d\d){{1,2}}(?:\.\d+)?)elapsed\s+(?P<cpu>\d+|\?)%CPU"
    rf"(?:\s*\((?P<avgtext>\d+)avgtext\+(?P<avgdata>\d+)avgdata\s+(?P<maxresident>\d+)maxresident\)k)?"
    rf"(?:\s+(?P<inputs>\d+)inputs\+(?P<outputs>\d+)outputs\s*"
    rf"\((?P<major>\d+)major\+(?P<minor>\d+)minor\)pagefaults\s+(?P<swaps>\d+)swaps)?"
)
_BSD = rf"(?<![\w.])(?P<real>{NUM})\s+real\s+(?P<user>{NUM})\s+user\s+(?P<sys>{NUM})\s+sys\b"
_POSIX = (
    rf"(?<![\w-])real[ \t]+(?P<real>{NUM})\s+user[ \t]+(?P<user>{NUM})"
    rf"\s+sys[ \t]+(?P<sys>{NUM})(?![\w.:])"
)

# The average sizes GNU time prints but Linux does not measure: its manual says they
# are shown as zero there. A zero in them says nothing was measured, not that a size
# was 0 (and two of them, 0 -> 0, made a pair of nothing).
_UNMEASURED_WHEN_ZERO = frozenset(
    ("avg_text", "avg_data", "Average shared text size", "Average unshared data size",
     "Average stack size", "Average total size", "Average resident set size")
)  # fmt: skip


def _measured(found):
    return [
        x for x in numbers(found, None) if not (x.metric in _UNMEASURED_WHEN_ZERO and x.value == 0)
    ]


def _record(row: str, fields: tuple[tuple[str, str, str], ...]) -> Rows:
    """Records of one of the one-line forms; consecutive ones make one table."""
    return Rows(
        row=row,
        fields=lambda m: _measured((metric, m[g], unit) for g, metric, unit in fields),
        labels=lambda rows: [f"run {i + 1}" if len(rows) > 1 else None for i in range(len(rows))],
        cells=lambda m, label: [label or "", *(m[g] or "" for g, _, _ in fields)],
        columns=("run", *(metric for _, metric, _ in fields)),
    )


_COUNTS = ("Major (requiring I/O) page faults", "Minor (reclaiming a frame) page faults",
           "Voluntary context switches", "Involuntary context switches", "Swaps",
           "File system inputs", "File system outputs", "Socket messages sent",
           "Socket messages received", "Signals delivered")  # fmt: skip
# GNU time -v's keys, with the metric (the key without its unit) and unit of their values.
_VERBOSE_KEYS = {
    "User time (seconds)": Key("User time", "s"),
    "System time (seconds)": Key("System time", "s"),
    "Percent of CPU this job got": Key(unit="%"),
    "Elapsed (wall clock) time (h:mm:ss or m:ss)": Key("Elapsed (wall clock) time", "s"),
    "Average shared text size (kbytes)": Key("Average shared text size", "KB"),
    "Average unshared data size (kbytes)": Key("Average unshared data size", "KB"),
    "Average stack size (kbytes)": Key("Average stack size", "KB"),
    "Average total size (kbytes)": Key("Average total size", "KB"),
    "Maximum resident set size (kbytes)": Key("Maximum resident set size", "KB"),
    "Average resident set size (kbytes)": Key("Average resident set size", "KB"),
    **{k: Key(unit="count") for k in _COUNTS},
    # (what describes the machine, not the run)
    "Page size (bytes)": Key("Page size", "B", role="setting"),
    "Exit status": Key(),  # not a measurement; kept so the block stays contiguous
}
_VERBOSE_NUMBERS = keyed(_VERBOSE_KEYS, value="val")
VERBOSE = Rows(
    row=rf"(?P<key>{one_of(_VERBOSE_KEYS)})\s*:\s*(?P<val>\d+(?::\d\d){{0,2}}(?:\.\d+)?%?)",
    min_rows=3,  # a lone "Swaps: 0" is not a time -v block
    select=lambda rows: [m for m in rows if m["key"] != "Exit status"],
    fields=lambda m: _measured(_VERBOSE_NUMBERS(m)),
    label=lambda m: None,
    cells=lambda m, _: [_VERBOSE_KEYS[m["key"]].metric or m["key"], m["val"]],
    columns=("field", "value"),
)
READERS = (
    _record(_GNU, _GNU_FIELDS),
    _record(_BSD, _SHORT_FIELDS),
    _record(_POSIX, _SHORT_FIELDS),
    VERBOSE,
)

# The line above a block that belongs to it: GNU time's own line above a record of a
# command that failed (within 80 characters), the command that -v timed.
_EXIT_LINE = re.compile(
    r"Command (?:exited with non-zero status|terminated by signal) \d+[ \t]*\r?\n?\s*$"
)
_COMMAND = re.compile(r'Command being timed:\s*"(?P<cmd>[^"\n]{0,200})"')


def _take_line_above(tables: list[ResultTable], text: str, verbose: bool) -> None:
    floor = 0
    for t in tables:
        start = t.span[0]
        if not verbose and (m := _EXIT_LINE.search(text, max(floor, start - 80), start)):
            t.span = (m.start(), t.span[1])
        elif (
            verbose
            and (m := last(_COMMAND, text, floor, start))
            and not text[m.end() : start].strip()
        ):
            t.span, t.caption = (m.start(), t.span[1]), m["cmd"]
            for x in t.measurements:
                x.label = t.caption
        floor = t.span[1]


def parse(text: str) -> list[ResultTable]:
    tables: list[ResultTable] = []
    for spec in READERS:
        found = read(spec, text)
        _take_line_above(found, text, spec is VERBOSE)
        name_blocks(found, text, "block")
        for t in found:
            if spec is not VERBOSE:  # only the fields some record of the table prints
                used = [i for i, c in enumerate(zip(*t.rows, strict=True)) if i == 0 or any(c)]
                t.columns = [t.columns[i] for i in used]
                t.rows = [[r[i] for i in used] for r in t.rows]
            if not overlaps(t.span, [u.span for u in tables]):
                tables.append(t)
    return tables
