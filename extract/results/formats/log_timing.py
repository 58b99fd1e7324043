"""Timings that tools write into their logs: returns one `ResultTable` per summary
block or per run of log records.

- Hive's summaries (`hive.tez.exec.print.summary`, HIVE-27751's compile summary): a
  `... Summary` title over a rule, optionally an `OPERATION  DURATION` header, then
  one `step  <duration>` line each (beeline: every line after `INFO  : `):

      Query Compilation Summary
      ----------------------------------------------------------------
      Compile Step - 1 parse                                       1ms
      Compile Step - 3 Logical Plan and hive Operator Tree       142ms

  Rows: label = the step; metric `time`; unit `ms` or `s` as printed.
- Hive's PerfLogger records `</PERFLOG method=compile start=.. end=.. duration=142
  from=..>`: label = the method, metric `duration` (ms).
- zkbenchmark (ZooKeeper's load generator) results `READ finished, time elapsed
  (sec): 30.0 operations: 171305 avg rate: 5710.16`: label = the operation, metrics
  `time elapsed` (sec), `operations` (no unit), `avg rate` (ops/sec).

- Timing lines a script prints, two or more in a row, each wholly
  `<what was timed>: <number> <time unit>` (`TVM latency for batch 1 and seq length
  128: 732.59 ms`): label = the text before the colon, metric `time`, unit as printed.
  Lines naming a setting (timeout, interval, delay, ...) are not timings, nor is one
  label over and over (`Total time for which application threads were stopped: ...`
  of a GC log): a run needs two different labels.

Variant = the heading above the block (or above its code fence, for log records).
Records are matched on the text itself, so a mail flattened onto one line reads
the same; timing lines flattened onto one line are read where two or more records
stand one after the other in it.

Hive's summaries, PerfLogger records and zkbenchmark results are declared rows
(`_rows.Rows`). Not declared as rows: a run of timing lines comes from two patterns
(lines, and records one after the other on a line), needs two different labels and
skips settings in it.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import NUM, heading_above, line_start, runs
from extract.results.formats._rows import Rows, disjoint, name_blocks, numbers, read
from extract.results.formats.base import FormatInfo, ResultTable

_TIME_UNITS = "ns|us|µs|μs|ms|s|sec|secs|seconds|min|mins|minutes"
# Two records `name: 12 ms` one under the other, or one after the other on a line
# (a flattened mail).
_TIMED_LINES = (
    rf":[ \t]*\d[\d.]*[ \t]*(?:{_TIME_UNITS})[ \t]*(?:\r?\n|[ \t])"
    rf"[ \t]*[A-Za-z][^:\n]*:[ \t]*\d[\d.]*[ \t]*(?:{_TIME_UNITS})(?!\w)"
)

# One trigger part per alternative, each starting with a literal (the regex engine skips
# to it), the first three searched only when their words are in the text.
_TRIGGER_PARTS = (
    (r"(?m-i:Summary[ \t]*:?\s*(?:(?:INFO|WARN|DEBUG)[ \t]*:\s*)?-{10})", ("Summary",), ()),
    (r"(?m-i:</PERFLOG)", ("</PERFLOG",), ()),
    (r"(?m-i:finished, time elapsed)", ("finished, time elapsed",), ()),
    (rf"(?m-i:{_TIMED_LINES})", (":",), ()),
)
INFO = FormatInfo(
    name="log-timing",
    description="timings in tool logs: Hive summaries and PerfLogger, zkbenchmark results, "
    "runs of timing lines",
    signature="`Query Compilation Summary` / `Query Execution Summary` over a rule then "
    "`step  142ms`; `</PERFLOG method=.. duration=N`; `READ finished, time elapsed (sec): N`; "
    "two or more `<what>: 12.5 ms` records, one per line or one after the other",
    priority=16,
    trigger="|".join(part for part, _, _ in _TRIGGER_PARTS),
    trigger_parts=_TRIGGER_PARTS,
)

# beeline prints the summary through its log: `INFO  : ` before every line
_LP = r"(?:[ \t]*(?:INFO|WARN|DEBUG)[ \t]*:\s*)?"
_SUMMARY = (
    r"(?P<title>(?<![\w-])[A-Z][A-Za-z]*(?:[ \t]+[A-Za-z]+){0,3}[ \t]+Summary)[ \t]*:?\s*"
    + _LP
    + r"-{10,}(?:\s*"
    + _LP
    + r"OPERATION\s+DURATION\s*"
    + _LP
    + r"-{10,})?"
)
_PREFIX_BEFORE = re.compile(r"(?:^|(?<=\s))(?:INFO|WARN|DEBUG)[ \t]*:[ \t]*$", re.M)
_PERFLOG = (
    r"</PERFLOG\s+method=(?P<method>[\w.$-]+)\s+start=\d+\s+end=\d+\s+duration=(?P<d>\d+)"
    r"(?:\s+from=[\w.$]+)?\s*>"
)
_ZK = (
    rf"(?P<op>[A-Z][A-Z_]*) finished, time elapsed \(sec\):\s*(?P<t>{NUM})\s+operations:\s*"
    rf"(?P<ops>\d+)\s+avg rate:\s*(?P<rate>{NUM})"
)
_TIMING_RECORD = (
    rf"(?P<label>[A-Za-z][^:|\n]{{2,100}}?):[ \t]*(?P<v>{NUM})[ \t]*"
    rf"(?P<u>{_TIME_UNITS})"
)
_TIMING_LINE = re.compile(rf"^[ \t]*{_TIMING_RECORD}[ \t]*\r?$", re.MULTILINE)
# ... and the same records one after the other on a line (a flattened mail), only ever
# matched where a label may start: searched, it would scan up to 100 characters for a
# colon from every word of a long line (see _records_in_line).
_TIMING_IN_LINE = re.compile(rf"(?:^|(?<=[ \t])){_TIMING_RECORD}(?=[ \t\r]|$)", re.MULTILINE)
# The colon that ends a record's label, where its value and time unit follow.
_RECORD_COLON = re.compile(rf":(?=[ \t]*{NUM}[ \t]*(?:{_TIME_UNITS})(?:[ \t\r]|$))", re.MULTILINE)
_LABEL_MAX = 101  # a label's longest: a letter and 2 to 100 more characters
_RECORD_END = re.compile(rf":[ \t]*{NUM}[ \t]*(?:{_TIME_UNITS})[ \t]+$")
# A line that states a setting, not something measured.
_SETTING = re.compile(
    r"timeout|interval|delay|ttl|retention|period|wait|sleep|backoff|expir|limit|max\b|"
    r"min\b|default|config|setting|threshold|duration\s*=",
    re.IGNORECASE,
)
# What opens a fence; a `{code...}` one runs to its `}` (see _fence_starts).
_FENCE_OPENER = re.compile(r"```|\{noformat\}|\{code")


def parse(text: str) -> list[ResultTable]:
    tables = _summaries(text)
    for found in (read(PERFLOG, text), read(ZKBENCHMARK, text), _timing_lines(text)):
        tables.extend(_named_by_fence(text, found))
    return disjoint(tables)


SUMMARIES = Rows(
    header=_SUMMARY,
    # (the blanks before a step are taken whole: the prefix's own blanks add nothing; a
    # rule inside the summary, `---` in what would be a step's name, ends it)
    row=(
        rf"\s*+{_LP}(?P<label>[A-Za-z](?:(?!---)[^\n]){{0,100}}?)[ \t]+(?P<v>{NUM})"
        r"(?P<u>ms|s)(?=\s|$)"
    ),
    fields=lambda m: [("time", m["v"], m["u"])],
    label=lambda m: m["label"].strip(),
    cells=lambda m, label: [label, m["v"] + m["u"]],
    columns=("step", "time"),
    caption=lambda head: head["title"],
)


def _summaries(text: str) -> list[ResultTable]:
    tables = read(SUMMARIES, text)
    floor = 0
    for t in tables:
        prefix = _PREFIX_BEFORE.search(text, max(floor, t.span[0] - 20), t.span[0])
        if prefix:  # the title's own `INFO  : `
            t.span = (prefix.start(), t.span[1])
        floor = t.span[1]
    name_blocks(tables, text, "block")
    return tables


def _fence_starts(text: str, start: int, end: int) -> list[int]:
    r"""Where the fences between `start` and `end` start: the matches of
    ```` ```|\{code[^}]*\}|\{noformat\} ````, whose `[^}]*` read the rest of the text
    again from each `{code` that no `}` follows; here the first such one ends the look
    for `}` (no later one has a `}` either)."""
    out: list[int] = []
    pos, closes = start, True
    while m := _FENCE_OPENER.search(text, pos, end):
        pos = m.end()
        if m.group() == "{code":
            close = text.find("}", pos, end) if closes else -1
            if close < 0:
                closes = False
                continue
            pos = close + 1
        out.append(m.start())
    return out


def _log_lines(gap: str) -> bool:
    """Whether only log lines stand between two records (no fence, no two blank lines)."""
    return "\n\n\n" not in gap and not _fence_starts(gap, 0, len(gap))


def _named_by_fence(text: str, tables: list[ResultTable]) -> list[ResultTable]:
    """Each table of log records named by the heading above the code fence that holds
    it (an odd number of fences opened before it), else above its first line."""
    floor = 0
    for t in tables:
        fences = _fence_starts(text, floor, t.span[0])
        at = fences[-1] if len(fences) % 2 else line_start(text, t.span[0])
        t.variant = heading_above(text, at, floor)
        floor = t.span[1]
    return tables


PERFLOG = Rows(
    row=_PERFLOG,
    gap=_log_lines,
    fields=lambda m: [("duration", m["d"], "ms")],
    label="method",
    columns=("method", "duration (ms)"),
    caption="Hive PerfLogger",
)
# The run's set length and its operation count: the rate is the result.
_ZK_ROLE = {"time elapsed": "setting", "operations": "count", "avg rate": "result"}


def _zk_numbers(m: re.Match):
    fields = [("time elapsed", m["t"], "sec"), ("operations", m["ops"], None),
              ("avg rate", m["rate"], "ops/sec")]  # fmt: skip
    for meas in numbers(fields, m["op"]):
        meas.role = _ZK_ROLE[meas.metric]
        yield meas


ZKBENCHMARK = Rows(
    row=_ZK,
    gap=_log_lines,
    fields=_zk_numbers,
    label="op",
    cells=("op", "t", "ops", "rate"),
    columns=("operation", "time elapsed (sec)", "operations", "avg rate"),
    caption="zkbenchmark",
)


def _in_line_run(text: str, m: re.Match) -> bool:
    """Whether a record has another one just after or just before it on its line."""
    rest = text[m.end() : m.end() + 8]
    nxt = m.end() + len(rest) - len(rest.lstrip(" \t"))
    if nxt > m.end() and _TIMING_IN_LINE.match(text, nxt):
        return True
    return _RECORD_END.search(text, max(0, m.start() - 40), m.start()) is not None


def _records_in_line(text: str):
    """The matches `_TIMING_IN_LINE.finditer(text)` gives, found from the colon back:
    a label has no colon in it, so each candidate colon has a window of at most
    `_LABEL_MAX` characters where its label may start, and its leftmost start wins."""
    end = 0
    for colon in _RECORD_COLON.finditer(text):
        at = colon.start()
        lo = max(end, at - _LABEL_MAX)
        lo = max(lo, *(text.rfind(stop, lo, at) + 1 for stop in ":|\n"))
        for start in range(lo, at - 2):
            before = text[start - 1] if start else "\n"
            if before in " \t\n" and (m := _TIMING_IN_LINE.match(text, start)):
                yield m
                end = m.end()
                break


def _timing_lines(text: str) -> list[ResultTable]:
    found = list(_TIMING_LINE.finditer(text))
    found += [m for m in _records_in_line(text) if _in_line_run(text, m)]
    records, end = [], -1
    for m in sorted(found, key=lambda m: m.start()):
        if not _SETTING.search(m.group("label")) and m.start() >= end:
            records.append(m)
            end = m.end()
    tables = []
    # (one run: a record on the next line, or after only blanks on the same line)
    for run in runs(records, text, lambda gap: gap in ("\n", "\r\n") or not gap.strip(" \t")):
        # one label over and over is a log of the same event (GC pauses), not timings
        if len({m.group("label").strip() for m in run}) < 2:
            continue
        span = (run[0].start("label"), run[-1].end())  # (not the blanks before it)
        table = ResultTable(INFO.name, span, columns=["what", "time"], caption="timing lines")
        for rec in run:
            label, written, unit = rec.group("label").strip(), rec.group("v"), rec.group("u")
            table.add_row([label, f"{written} {unit}"], numbers([("time", written, unit)], label))
        tables.append(table)
    return tables
