"""Runs of `key: value` / `key=value` records: the structure many tools print and
people paste when no table is at hand, whatever tool printed them.

    Send TPS:  240 Max RT:  292 AVG RT:2.8 Send Failed: 0
    /logs/run0:Indexer: 46.44 GB/hour plain text
    before: 7806
    after: 6033
    throughput=1520.4 ops/s p99=12.5ms

A record line holds one or more pairs `KEY SEP NUMBER [UNIT]` (SEP `:`, `=`, `：`),
where KEY is a short name (letters first, up to six words) and UNIT a unit the
project knows (`extract.results.units.to_si`) or a rate written `<things>/<time>`;
text before the first pair that is not a key (a file path, a timestamp, a name)
is the line's label. A block is a run of such lines (blank lines and code fences
may separate them); it counts when it holds at least two numbers, or one with a
unit. Tables (`|` rows), JSON and log records of known tools are other parsers'.

In a mail flattened onto one line (a line over 120 characters that is not a record
itself), a run of three or more pairs with only filler between them is a block of its
own, split into rows where its first key comes again.

A line of `|`-separated cells may hold one such value each, its name written around it
(`Mina3 client : 10bytes msgs in 57.8 secs | 1k msgs in 53.2 secs`).

A line may also be `label <number> <unit>` with no `:` or `=` (the unit a time or a
rate, ending the line): its metric is the unit's kind (`time`, `throughput`). A block
of such lines alone counts when it has two or more, all in one unit.

A pair's value may be followed by the value it went to (`p99: 38 ms → 14 ms`: sides
`before`, `after`), or, when it is a change (`%`, `x`), by the values it went between
in brackets (`p99: -22% (41 ms → 32 ms)`: the change, then both sides).

A pair may be wrapped in Markdown (`` `main`: 4.1 us/op ``) and followed by more values
of the same name, each with its unit (`main: 4.1 us/op, 51 allocs/op`): the name is
then the row's label and each value's metric its unit's. A row of `|` cells wrapped
onto two lines is read as one. A profile's lines (`37% apr_file_rename`, the name
like code) are shares (metric `share`), as a run of two or more. A line whose head
ends with a comma is the end of a wrapped sentence, not a record. In a long
(flattened) line, a block claims only its own stretch, so prose reads the rest.

Rows: one per line. label = the line's own label, else the heading above the
block; variant = `line N` when several lines repeat the same keys (a series of
samples) and no line has a label of its own; metric = the key; unit as written, else
the one its key names (`Max RT(ms): 234`, `Ops per sec: 6564.26`), else, when no value
of the block has one, the one unit its heading states (`Query times (seconds):`).
Keys that name settings (threads, port, size, timeout, id, version, ...) are
configuration, not results, and give no rows unless they carry a unit of time
or rate (not even then when they name a time setting: timeout, interval, ttl, ...).
"""

from __future__ import annotations

import re
from itertools import accumulate

from extract.results.formats._grid import said_unit
from extract.results.formats._layout import (
    ARROW,
    DIGIT,
    EPOCH,
    FENCE,
    GROUPED,
    LETTER,
    STAT,
    TIME_NAME,
    heading_above,
    runs,
)
from extract.results.formats.base import FormatInfo, Measurement, ResultTable
from extract.results.numbers import TIMES_SIGNS, is_product
from extract.results.units import parse_number, to_si

INFO = FormatInfo(
    name="records",
    description="runs of key: value / key=value records with numbers",
    signature="`Send TPS: 240 Max RT: 292`, `before: 7806` / `after: 6033`, "
    "`name: 46.4 GB/hour`, `p99=12.5ms`",
    priority=35,
    generic=True,
    # a pair (a key whose last word has a letter, a number, then what may follow
    # one: a unit, or no word character, `.`, `:`, `/`, `-`), or a line that ends
    # with a number and a unit (`_UNIT`); the trigger test checks that both together
    # are necessary for a row. (CJK written as characters: the prefilter's
    # Hyperscan reads no `\u` escapes. The trigger only asks whether a pair is
    # there: so a key is read from the start of its run of key characters, its first
    # letter on, not again from each of its letters; and a number's unit is read once
    # for both places it may stand, its words by their first letter: the Python
    # search, which runs on text not in ASCII, tries them at every digit.)
    trigger=r"(?:^|[^\w.()%#/-])(?:[^\WA-Za-z一-鿿]|[.()%#/-])*[A-Za-z一-鿿][\w.()%#/-]*"
    r"[ \t]*[:=：][ \t]*~?[-+]?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?(?:[^\w.:/-]|[A-Za-zµμ%]|$)"
    # or a number and its unit that end the line, or, for a unit that is no size,
    # `label  <number> <unit>` lines run together (`3.9 sec 101 elements 5.8 sec`)
    r"|\d[ \t]*(?:(?:%|[kKMGT]?i?B(?:ps)?)(?m:[ \t]*\r?$)"
    r"|(?:[A-Za-zµμ]+/[A-Za-z]+|[kKMGT]?i?B/s(?:ec)?|n(?:s|anos(?:econds?)?)|us|[µμ]s"
    r"|m(?:s|sec|illis(?:econds?)?|icros(?:econds?)?|ins?|inutes?)|s(?:ecs?|econds?)?|h(?:ours?)?"
    r"|[qtr]ps|[kKM]?ops)(?:(?m:[ \t]*\r?$)|[ \t]+(?:[^\s.;:!?|=()\[\]]+[ \t]+){1,4}"
    r"\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?[ \t]*[A-Za-zµμ]))"
    # or `label - 5.7 min` records run together in a flattened line
    r"|[ \t][-–][ \t]+~?\d[\d,.]*[ \t]*[A-Za-zµμ]"
    # or `|`-separated named values (`small msgs in 57.8 secs | 1k msgs in 53.2 secs`)
    r"|[ \t](?:in|took)[ \t]+~?\d[\d,.]*[ \t]*[A-Za-zµμ%][A-Za-zµμ/]*[ \t]*\|"
    # or a profile's `37% apr_file_rename` lines (`_SHARE`)
    r"|(?m:^[ \t]*(?:[-*•+][ \t]+)?\d{1,3}(?:\.\d+)?[ \t]*%[ \t]+[A-Za-z_$])"
    # (and run together in a flattened line: `... 37% apr_file_rename / ...`)
    r"|[ \t]\d{1,3}(?:\.\d+)?%[ \t]+[A-Za-z_$][\w$]*[_.(:]",
    keeps_repeats=True,
)

_UNIT = (
    r"%|[xX×](?!\w)|[kKMGT]?i?B(?:/s(?:ec)?|ps)?|[A-Za-zµμ]+/[A-Za-z]+"
    r"|(?:ns|us|µs|μs|ms|s|sec|secs|seconds?|msec|millis(?:econds?)?|micros(?:econds?)?"
    r"|nanos(?:econds?)?|mins?|minutes?|h|hours?|qps|QPS|tps|TPS|rps|ops|[kKM]?ops)\b"
)
_KEY = r"[A-Za-z\u4e00-\u9fff][\w\u4e00-\u9fff.()%#/-]*(?:[ \t]+[\w\u4e00-\u9fff.()%#/-]+){0,5}?"
# (Markdown may wrap the key: `` `origin/main`: 8.53 us/op ``, `**p99**: 12 ms`.)
_PAIR = re.compile(
    rf"(?P<key>{_KEY})[`*_]{{0,3}}[ \t]*[:=：][ \t]*[`*_]{{0,3}}(?P<num>~?{GROUPED})"
    # (a `.` may end the sentence after it: `Before: 12000 msg/s. After: ...`)
    rf"(?P<suffix>[kKM](?![A-Za-z]))?(?:[ \t]*(?P<unit>{_UNIT}))?(?![\w:/-]|\.\w)"
    # (the value it went to: `p99: 38 ms → 14 ms`, `write amplification: 8.2 -> 3.1`)
    rf"(?:[ \t]*(?:{ARROW})[ \t]*(?P<to>~?{GROUPED})(?P<to_suffix>[kKM](?![A-Za-z]))?"
    rf"(?:[ \t]*(?P<to_unit>{_UNIT}))?(?![\w:/-]|\.\w))?"
    # (or the change, then what it went from and to: `p99: -22% (41 ms → 32 ms)`)
    rf"(?:[`*_]{{0,3}}[ \t]*\([ \t]*(?P<was>~?{GROUPED})(?P<was_suffix>[kKM](?![A-Za-z]))?"
    rf"(?:[ \t]*(?P<was_unit>{_UNIT}))?[ \t]*(?:{ARROW})[ \t]*(?P<now>~?{GROUPED})"
    rf"(?P<now_suffix>[kKM](?![A-Za-z]))?(?:[ \t]*(?P<now_unit>{_UNIT}))?[ \t]*\))?"
)
# More values of the same name after a pair, each with its own unit:
# `this branch: 6.38 us/op, 72 allocs/op, 5.01 KB/op`.
# (a statistic may name one, with what it is of: `Before: 4200 req/s, p99 45 ms`,
# `avg latency 3.1 ms`, `latency p99 12 ms`)
_OF_WHAT = r"(?:latency|time|duration|rt)"
_MORE_VALUES = re.compile(
    rf"[ \t]*[,;][ \t]*"
    rf"(?:(?P<stat>(?:{STAT})(?:[ \t]+{_OF_WHAT})?|{_OF_WHAT}[ \t]+(?:{STAT}))[ \t]+)?"
    rf"(?P<key>)(?P<num>~?{GROUPED})(?P<suffix>)[ \t]*(?P<unit>{_UNIT})"
    r"(?![\w:/-]|\.\w)"
)
# Keys that name a setting or an identifier, not a measured result.
_SETTING = re.compile(
    r"(?i)(?=[a-z])\b(?:threads?|thread ?count|port|id|version|size|batch|count|timeout|interval|"
    r"delay|retries|partitions?|replicas?|nodes?|cores?|memory|heap|xmx|buffer|workers?|"
    r"connections?|clients?|concurrency|iterations?|warmups?|forks?|seed|level|step|line|"
    r"pid|uid|year|month|day|date|time ?zone|build|revision|rev|issue|pr|number|num|index|"
    r"offset|width|height|page|limit|max[-_ ]?(?:size|memory|heap)|rate limit)s?\b"
)
# Settings of a time, which their unit of time does not make a result.
_TIME_SETTING = re.compile(
    r"(?i)\b(?:timeout|time-out|interval|ttl|heartbeat|deadline|backoff|retention|expiry"
    r"|grace period|poll|linger)s?\b"
)
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
# A rate, or a count per unit of work (`72 allocs/op`, `3 GCs/iter`) as benchmark
# tools print it. (`(?<![A-Za-z])`: a match begins where its run of letters does, as
# the leftmost one did; so no run of letters is read more than once)
_RATE = re.compile(
    r"(?<![A-Za-z])[A-Za-z]++/(?:(?i:s|sec|second|ms|us|min|minute|h|hour)"
    r"|op|ops|operation|iter|iteration|call|invocation)$"
)
# A letter that a name starts with, or holds.
_NAME_WORD = re.compile(r"[A-Za-z\u4e00-\u9fff]")
_TABLE_LINE = re.compile(r"^\s*[|+]|\|\s*$|^\s*[{\[\"]")


def _unit_known(unit: str | None) -> bool:
    return bool(unit) and (to_si(1.0, unit)[1] is not None or bool(_RATE.search(unit)))


# A pair's key and the blanks after it hold only `_KEY`'s characters, and a number
# follows its separator: a pair can only start in the run of key characters just
# before such a separator, at most six words back. `_pair_matches` tries only
# there and finds what `_PAIR.finditer` does (a test compares them), without
# trying every position of a long line (milliseconds on a long line of prose).
_SEP_NUM = re.compile(r"[:=：][ \t]*[`*_]{0,3}~?[-+]?\d")
# The dots that lead a name to its value (`http_req_duration..........: avg=12.3ms`, as
# k6 and many summaries align them): layout, not part of the name.
_DOT_LEADER = re.compile(r"(?<![ \t.])[ \t]*+\.{3,}+$")
_KEY_RUN = re.compile(r"[\w.()%#/ \t`*-]*")
_LAST_WORDS = re.compile(r"[ \t]*[^ \t]+(?:[ \t]+[^ \t]+){0,5}")


def _pair_matches(line: str, start: int = 0, end: int | None = None) -> list[re.Match]:
    """`list(_PAIR.finditer(line, start, end))`, trying only where a pair can start."""
    end = len(line) if end is None else end
    out = []
    pos = start
    rev = None
    for sep in _SEP_NUM.finditer(line, start, end):
        s = sep.start()
        if s <= pos:
            continue
        if rev is None:
            rev = line[::-1]
        j = len(line) - s  # (in `rev`, the character before the separator)
        back = min(_KEY_RUN.match(rev, j).end(), len(line) - pos)
        words = _LAST_WORDS.match(rev, j, back)
        if words is None:
            continue
        p = s - (words.end() - j)
        while (k := _NAME_WORD.search(line, p, s)) is not None:
            m = _PAIR.match(line, k.start(), end)
            if m is not None:
                out.append(m)
                pos = m.end()
                break
            p = k.start() + 1
    return out


# What the line readers need: `_pairs` a separator and a number (`_SEP_NUM`), `_cells`
# a `|`, `_share` a `%`, `_labelled` a number and a unit that end the line.
_ENDS_WITH_UNIT = re.compile(rf"\d[ \t]*(?:{_UNIT})[ \t]*$")


def _may_hold_a_record(line: str) -> bool:
    return (
        "|" in line
        or "%" in line
        or _SEP_NUM.search(line) is not None
        or _ENDS_WITH_UNIT.search(line) is not None
    )


def _named_pairs(line: str) -> list[re.Match]:
    """The pairs of a line whose key names something: a key whose last word is a
    number is a clock time (`at 10:30`, `is 0:40 min`), and a key glued to a `=`
    before it is part of a value (`servers=b1:9092`: a host and its port)."""
    return [
        m
        for m in _pair_matches(line)
        if _NAME_WORD.search(m.group("key").split()[-1])
        and line[max(0, m.start("key") - 1) : m.start("key")] != "="
    ]


_FIELD_GAP = re.compile(r"\t|[ \t]{2,}")


def _field_start(key: str) -> int:
    """Where the last field of `key` starts: after its last tab or run of blanks (an
    aligned line's fields are set apart by them; a key's own words by one blank)."""
    gaps = [g.end() for g in _FIELD_GAP.finditer(key.rstrip())]
    return gaps[-1] if gaps else 0


def _pairs(line: str) -> tuple[str, list[re.Match]] | None:
    """(the line's own label, its pairs) when the pairs make up the line."""
    if _TABLE_LINE.search(line):
        return None
    found = _named_pairs(line)
    if not found:
        return None
    # what lies between pairs must be short filler (spaces, commas, `|`, `;`)
    for a, b in zip(found, found[1:], strict=False):
        gap = line[a.end() : b.start("key")]
        if len(gap.strip(" \t,;|.")) > 0:
            return None
    more = []
    pos = found[-1].end()
    while m := _MORE_VALUES.match(line, pos):
        more.append(m)
        pos = m.end()
    tail = line[pos:].strip()
    if len(tail) > 40:
        return None
    if more and tail.strip("`*_ .,;"):
        more = []  # the values go on with words: a sentence, not a list of values
    found += more
    # (a key is one field: `read_chunk  iterations=100` is a name, then the key)
    head = line[: found[0].start("key") + _field_start(found[0].group("key"))]
    head = head.strip().rstrip(":").strip()
    head = head.strip("`*_ ").lstrip("-*•+ ").strip()  # a bullet and markup are no label
    head = _DOT_LEADER.sub("", head)
    if head.strip("[]").upper() in _LOG_LEVELS:
        head = ""  # (`INFO: Elapsed time: 41.3s`: a logger's level names nothing measured)
    if head.endswith(","):
        return None  # `collection, initial heap size: 14 minutes`: a wrapped sentence's end
    # a sentence before the pair is prose, not a record
    if len(head) > 60 or (not head.startswith(("/", "[")) and len(head.split()) > 3):
        return None
    return head, found


# `label <number> <unit>` with no `:` or `=`: the name, then blank space or ` - `
# before a number and its unit, which end the line (`   1 element  3.97 sec`,
# `Insert in 0.8.0 - 5.7 min`). The key group is empty: the label is the line's head.
# Such lines count only as a run of two or more in one unit (one alone is a sentence).
_LABELLED = re.compile(
    rf"^[ \t]*(?P<head>[^\s|:=][^|:=\n]{{0,80}}?)(?:[ \t]+[-–][ \t]+|[ \t]+)"
    rf"(?P<key>)(?P<num>~?{GROUPED})(?P<suffix>)[ \t]*(?P<unit>{_UNIT})[ \t]*$"
)


def _unit_metric(unit: str | None) -> str:
    """The metric a value with no name of its own gets from its unit."""
    if unit == "%":
        return "share"
    return _UNIT_KIND.get(to_si(1.0, unit)[1], unit or "value") if unit else "value"


# A profile's lines: the share of the time, then the function or component it went to
# (`37% apr_file_rename / MoveFileExW`, `- 12.5% in io.netty.buffer.PoolArena`). The
# name must look like code (`_`, `.`, `::`, `(`, `/`, `$`, camelCase): `30% of users`
# is no profile. Such lines count only as a run of two or more, as `_LABELLED` lines.
_SHARE = re.compile(
    r"^[ \t]*(?:[-*•+][ \t]+)?(?P<num>\d{1,3}(?:\.\d+)?)(?P<suffix>)[ \t]*(?P<unit>%)"
    r"[ \t]+(?:in[ \t]+)?(?P<key>)(?P<head>[A-Za-z_$][^\s%]*(?:[ \t]+[^\s%]+){0,5})[ \t]*$"
)
_CODE_NAME = re.compile(r"[_(:.$<>/]|[a-z][A-Z]")


def _share(line: str) -> tuple[str, list[re.Match]] | None:
    """(function name, [its share]) for a line of a profile breakdown."""
    m = _SHARE.match(line)
    if m is None or float(m.group("num")) > 100:
        return None
    name = m.group("head").rstrip(".,;")
    if not _CODE_NAME.search(name):
        return None
    return name, [m]


# (a run of spaces is taken whole, from its start: the leftmost match began there)
_HEAD_VALUE = re.compile(rf"(?<![ \t])[ \t]{{2,}}+[-+~]?\d|\d[ \t]*(?:{_UNIT})(?![\w/])")
_UNIT_KIND = {"s": "time", "1/s": "throughput", "B/s": "throughput"}


# The levels loggers print before a message (log4j's, java.util.logging's, Python's,
# Bazel's and Maven's `[INFO]`).
_LOG_LEVELS = frozenset(("TRACE", "DEBUG", "INFO", "WARN", "WARNING", "ERROR", "FATAL", "SEVERE"))


def _time_or_rate(unit: str) -> bool:
    """A unit of time or of a rate (`_UNIT_KIND`): what a lone labelled value needs."""
    return to_si(1.0, unit)[1] in _UNIT_KIND


def _labelled(line: str) -> tuple[str, list[re.Match]] | None:
    """(label, [its one value]) for a `label  <number> <unit>` line whose unit is a
    time or a rate."""
    m = _LABELLED.match(line)
    if m is None or not LETTER.search(m.group("head")):
        return None
    # a value in the head makes the line a row of an aligned table, the table readers'
    if _HEAD_VALUE.search(m.group("head")):
        return None
    if not _time_or_rate(m.group("unit")):
        return None
    return m.group("head").strip(), [m]


# A line of `|`-separated cells, each a measured value with its name written around
# it (`Mina3 client : 10bytes msgs in 57.8 secs | 1k msgs in 53.2 secs`): the text
# before the first `:` is the line's label.
_CELL_PAIR = re.compile(
    rf"(?P<key>[\w一-鿿][\w一-鿿 .()/#-]{{0,40}}?)[ \t]*(?:[ \t]in|[ \t]took|:|=)[ \t]*"
    rf"(?P<num>~?{GROUPED})(?P<suffix>)[ \t]*(?P<unit>{_UNIT})"
)


def _cells(line: str) -> tuple[str, list[re.Match]] | None:
    """(label, one pair per cell) for a line of two or more `|` cells that are each a
    name and a value with its unit, the label before a `:` that opens the line."""
    if "|" not in line or _TABLE_LINE.search(line):
        return None
    head, sep, rest = line.partition(" : ") if " : " in line else line.partition(":")
    if not sep or len(head) > 60:
        head, rest = "", line
    found = _cell_pairs(rest)
    return (head.strip(), found) if found and len(found) >= 2 else None


def _cell_pairs(cells: str) -> list[re.Match] | None:
    """A pair per `|`-separated cell, when each is a name and a value in a known unit."""
    pairs = [_CELL_PAIR.fullmatch(c.strip()) for c in cells.split("|")]
    return pairs if all(p and _unit_known(p.group("unit")) for p in pairs) else None


def _flat_runs(line: str) -> list[list[list[re.Match]]]:
    """In a line that is not a record (a mail flattened onto one line), the runs of
    three or more pairs with only filler between them, each split into rows where
    its first key comes again (a series of samples printed one per line)."""
    found = _named_pairs(line)
    runs: list[list[re.Match]] = []
    for m in found:
        # (a list's bullets ran into the line with it: `... 3.1 - compaction throughput:`)
        if runs and not line[runs[-1][-1].end() : m.start("key")].strip(" \t,;|`-*•"):
            runs[-1].append(m)
        else:
            runs.append([m])
    out = _flat_named_lists(line, found)
    for run in runs:
        # (`f(start=1, runs=10, step=300)`: the arguments of a call are code)
        if len(run) < 3 or line[: run[0].start("key")].rstrip(" \t+").endswith(("(", "[", "{")):
            continue
        first = run[0].group("key").strip()
        rows: list[list[re.Match]] = []
        for m in run:
            if not rows or m.group("key").strip() == first:
                rows.append([])
            rows[-1].append(m)
        out.append(rows)
    return out


def _flat_named_lists(line: str, found: list[re.Match]) -> list[list[list[re.Match]]]:
    """`- main: 4.1 us/op, 51 allocs/op - patched: 3.0 us/op, 40 allocs/op` flattened
    into a line: two or more pairs, each with more values after it (`_MORE_VALUES`),
    with only filler or a bullet between them; one row per pair and its values."""
    groups: list[list[re.Match]] = []
    for m in found:
        if groups and m.start() < groups[-1][-1].end():
            # (its key began in the values before it: `KB/op - this branch: 6.38`)
            within = _pair_matches(line, groups[-1][-1].end(), m.end())
            if not within:
                continue
            m = within[0]
        group = [m]
        while (more := _MORE_VALUES.match(line, group[-1].end())) is not None:
            group.append(more)
        groups.append(group)
    out = []
    run: list[list[re.Match]] = []
    for group in groups + [[]]:
        near = (
            group
            and run
            and not line[run[-1][-1].end() : group[0].start("key")].strip(" \t,;|`*-•")
        )
        if run and not near:
            if len(run) >= 2 and all(len(g) > 1 for g in run):
                out.append(run)
            run = []
        if group:
            run.append(group)
    return out


# `Insert in 0.8.0 - 5.7 min Insert in 0.10.1 - 12 min ...`: `label - value unit`
# lines that flattening ran together (a capitalised head, ` - `, a number and a unit).
_FLAT_LABELLED = re.compile(
    rf"(?P<head>[A-Z][^\s|:=-][^|:=\n]{{0,60}}?)[ \t]+[-–][ \t]+"
    rf"(?P<key>)(?P<num>~?{GROUPED})(?P<suffix>)[ \t]*(?P<unit>{_UNIT})(?=[ \t]|$)"
)


# (`_CELL_PAIR` without its groups)
_CELL_TEXT = re.sub(r"\(\?P<\w+>", "(?:", _CELL_PAIR.pattern)
# `Old client : small msgs in 57.8 secs | 1k msgs in 53.2 secs New client : ...`
_FLAT_CELLS = re.compile(
    rf"(?P<head>[A-Z][^|:\n]{{0,60}}?)[ \t]?:[ \t]?"
    rf"(?P<cells>{_CELL_TEXT}(?:[ \t]*\|[ \t]*{_CELL_TEXT})+)"
)


def _flat_cells(line: str) -> list[tuple[str, list[re.Match], tuple[int, int]]]:
    """Lines of `|`-separated named values (`_cells`) that flattening ran together,
    when two or more follow one another."""
    found = []
    if "|" not in line:  # (a `|` between two cells: the line has none, most long lines)
        return found
    for m in _FLAT_CELLS.finditer(line):
        if pairs := _cell_pairs(m.group("cells")):
            found.append((m.group("head").strip(), pairs, m.span()))
    return found if len(found) >= 2 else []


# A profile's `37% apr_file_rename / MoveFileExW` lines run together in a flattened line.
_FLAT_SHARE = re.compile(
    r"(?<!\S)(?P<num>\d{1,3}(?:\.\d+)?)(?P<suffix>)(?P<unit>%)[ \t]+(?:in[ \t]+)?(?P<key>)"
    r"(?P<head>[A-Za-z_$][\w.:<>$()*-]*(?:[ \t]+/[ \t]+[A-Za-z_$][\w.:<>$()*-]*)?)(?=[ \t]|$)"
)


def _is_share(m: re.Match) -> bool:
    return float(m.group("num")) <= 100 and _CODE_NAME.search(m.group("head")) is not None


# What flattening ran together, one record after the other: `label - value unit`
# records in a unit of time or rate, and profile shares (`_SHARE`). Each with what its
# regex cannot match without (its dash after a blank, its `%`): a line with none of
# these is not searched (a search of a long line cost as much as reading its pairs).
_FLAT_RECORDS = (
    (_FLAT_LABELLED, (" -", "\t-", " –", "\t–"), lambda m: _time_or_rate(m.group("unit"))),
    (_FLAT_SHARE, ("%",), _is_share),
)


# `1 element 3.97 sec 101 elements 5.81 sec ...`: `label  <number> <unit>` lines that
# flattening ran together; the words between two values name the second.
_FLAT_VALUE = re.compile(
    rf"(?<![\w.~])(?P<key>)(?P<num>{GROUPED})(?P<suffix>)[ \t]*(?P<unit>{_UNIT})(?=[ \t]|$)"
)
_FLAT_HEAD = re.compile(r"[^\s.;:!?|=()\[\]]+(?:[ \t]+[^\s.;:!?|=()\[\]]+){0,3}")


def _flat_unit_rows(line: str) -> list[list[tuple[str, re.Match]]]:
    """Runs of three or more `(label, value)` read from such a line: values of one time
    or rate unit, each after a label of one to four words with a letter in it, the
    labels of one shape (as many words, a digit first or not: a tool's rows are
    alike, a sentence's words are not); the first takes as many words before it as
    the second's label has."""
    values = [m for m in _FLAT_VALUE.finditer(line) if _time_or_rate(m.group("unit"))]
    runs: list[list[tuple[str, re.Match]]] = []
    for prev, m in zip(values, values[1:], strict=False):
        head = line[prev.end() : m.start()].strip()
        if not _is_flat_head(head) or m.group("unit") != prev.group("unit"):
            continue
        if runs and runs[-1][-1][1] is prev and _shape(runs[-1][-1][0]) == _shape(head):
            runs[-1].append((head, m))
            continue
        n = len(head.split())
        window = line[max(0, prev.start() - 400) : prev.start()]  # (never the whole line)
        words = window.split()
        first = " ".join(words[-n:]) if len(words) > n or len(window) < 400 else ""
        if _is_flat_head(first) and _shape(first) == _shape(head):
            runs.append([(first, prev), (head, m)])
        else:
            runs.append([(head, m)])
    return [run for run in runs if len(run) >= 3]


def _is_flat_head(words: str) -> bool:
    return _FLAT_HEAD.fullmatch(words) is not None and LETTER.search(words) is not None


def _shape(head: str) -> tuple[int, bool]:
    return len(head.split()), head[:1].isdigit()


def parse(text: str) -> list[ResultTable]:
    tables: list[ResultTable] = []
    lines = text.split("\n")
    offsets = list(accumulate((len(line) + 1 for line in lines[:-1]), initial=0))
    block: list[tuple[int, str, list[re.Match]]] = []
    floor = 0

    def close(rows: list, stretch: tuple[int, int] | None = None) -> None:
        """The table of a block of (line, label, pairs), if it is one."""
        nonlocal floor
        labelled = [pairs[0] for _, _, pairs in rows if not pairs[0].group("key")]
        # (`label <number> <unit>` lines alone: two or more, in one unit)
        units = {m.group("unit") for m in labelled}
        if labelled and len(labelled) == len(rows) and (len(labelled) < 2 or len(units) > 1):
            return
        table = _table(text, rows, offsets, lines, floor, stretch, joined) if rows else None
        if table is not None:
            tables.append(table)
            floor = table.span[1]

    gap = 0
    joined: dict[int, int] = {}  # a row's first line -> its last, when wrapped onto two
    for i, line in enumerate(lines):
        if i in joined.values():
            continue  # the second half of a row read with the line before
        if not line.strip() or FENCE.match(line):
            gap += 1
            if gap > 2:
                close(block)
                block = []
            continue
        # (every reader below needs a digit, and one of what `_may_hold_a_record`
        # looks for: most lines of ordinary mail have neither)
        got = (
            (_pairs(line) or _labelled(line) or _cells(line) or _share(line))
            if DIGIT.search(line) and _may_hold_a_record(line)
            else None
        )
        if got is None and "|" in line and i + 1 < len(lines) and lines[i + 1].strip():
            # a row of `|` cells wrapped onto two lines (`... 1k msgs in 53.2` / `secs | ...`)
            got = _cells(line.rstrip() + " " + lines[i + 1].strip())
            if got is not None:
                joined[i] = i + 1
        if got is None:
            if block:  # (most lines hold no record, and end no block)
                close(block)
            block, gap = [], 0
            # flattened mail: its records run inside one long line
            if len(line) > 120 and DIGIT.search(line):
                for rows in _flat_runs(line):
                    close([(i, "", pairs) for pairs in rows])
                if cells := _flat_cells(line):
                    stretch = (cells[0][2][0], cells[-1][2][1])
                    close([(i, head, pairs) for head, pairs, _ in cells], stretch)
                for pattern, needs, ok in _FLAT_RECORDS:  # (three or more, only blanks between)
                    if not any(map(line.__contains__, needs)):
                        continue
                    for run in runs((m for m in pattern.finditer(line) if ok(m)), line):
                        if len(run) >= 3:
                            close([(i, m.group("head").strip(), [m]) for m in run])
                for run in _flat_unit_rows(line):
                    close([(i, head, [m]) for head, m in run])
            continue
        gap = 0
        block.append((i, got[0], got[1]))
    close(block)
    return tables


def _side(p: re.Match, name: str, default_unit: str | None) -> tuple[str, float | None, str | None]:
    """(as written, value, unit) of the value a pair's group `name` holds, with its
    `<name>_suffix` and `<name>_unit` groups; the unit `default_unit` when it has none
    the project knows."""
    written = p.group(name).lstrip("~")
    unit = p.group(f"{name}_unit")
    unit = unit if unit and _unit_known(unit) else default_unit
    return written, parse_number(written + (p.group(f"{name}_suffix") or "")), unit


def _table(text, block, offsets, lines, floor, stretch=None, joined=None) -> ResultTable | None:
    rows = []
    for i, head, pairs in block:
        kept = []
        for p in pairs:
            unit = p.group("unit")
            if unit and not _unit_known(unit):
                unit = None
            elif unit in TIMES_SIGNS and is_product(p.string, p.span("num"), p.span("unit")):
                unit = None  # (`A tibble: 6 × 4`: a size, not a factor)
            key = p.group("key")
            key = _DOT_LEADER.sub("", key[_field_start(key) :].strip())
            if key.count("(") > key.count(")"):
                continue  # a source position, `at a.B.run(B.java:540)`, not a name
            words = _CAMEL.sub(" ", key)  # `threadId` names a thread id
            if not unit and EPOCH.fullmatch(p.group("num")) and TIME_NAME.search(words):
                continue  # (when the line was printed)
            if _TIME_SETTING.search(words) or (
                _SETTING.search(words) and not (unit and _time_or_rate(unit))
            ):
                continue
            # (a key that names its unit: `Max RT(ms): 234`, `Ops per sec: 6564.26`)
            unit = unit or said_unit(key)
            written = p.group("num").lstrip("~")
            value = parse_number(written + (p.group("suffix") or ""))
            if value is None:
                continue
            stat = p.groupdict().get("stat")
            if p.groupdict().get("was") and unit in ("%", "x", "X", "×"):
                # `p99: -22% (41 ms → 32 ms)`: the change, and the values it is of (the
                # unit written once, after the second, is both's)
                now = _side(p, "now", None)
                was = _side(p, "was", now[2])
                if was[1] is not None and now[1] is not None:
                    kept.append((key, written, value, unit, stat, None))
                    kept += [(key, *was, stat, "before"), (key, *now, stat, "after")]
                    continue
            if p.groupdict().get("to"):
                # `p99: 38 → 14 ms`: the unit written once is both sides'
                to_written, to_value, to_unit = _side(p, "to", unit)
                if to_value is not None:
                    kept.append((key, written, value, unit or to_unit, stat, "before"))
                    kept.append((key, to_written, to_value, to_unit, stat, "after"))
                    continue
            kept.append((key, written, value, unit, stat, None))
        if kept:
            rows.append((i, head, kept))
    n_numbers = sum(len(k) for _, _, k in rows)
    with_unit = any(unit for _, _, k in rows for _, _, _, unit, *_ in k)
    if not rows or (n_numbers < 2 and not with_unit):
        return None
    first, last = rows[0][0], rows[-1][0]
    last = (joined or {}).get(last, last)
    start, end = offsets[first], offsets[last] + len(lines[last])
    if first == last and len(lines[first]) > 120:
        # records run together in a long (flattened) line claim only their own stretch
        # of it: the sentences around them are prose's
        # (`stretch`: where in the line the block is, when its matches are of cells)
        matches = [p for _, _, pairs in block for p in pairs if p.string is lines[first]]
        if stretch is None and matches:
            stretch = (min(p.start() for p in matches), max(p.end() for p in matches))
        if stretch is not None:
            start, end = offsets[first] + stretch[0], offsets[first] + stretch[1]
    heading = heading_above(text, offsets[first], floor)  # (above the line, not in it)
    # (values written bare under a heading that says their one unit: `Query times (s):`)
    stated = None if with_unit or heading is None else said_unit(heading)
    keys = [tuple(k for k, *_ in kept) for _, _, kept in rows]
    # a series of samples: every line starts with the same key and none has a label
    series = len(rows) > 1 and len({ks[0] for ks in keys}) == 1 and not any(h for _, h, _ in rows)
    table = ResultTable("records", (start, end), caption=heading)
    table.columns = sorted({k for ks in keys for k in ks})
    for n, (_, head, kept) in enumerate(rows, 1):
        # `this branch: 6.38 us/op, 72 allocs/op`: one name, several values: the name
        # is the row's, each value's metric its unit's
        one_name = (
            not head and len(kept) > 1 and bool(kept[0][0]) and not any(k for k, *_ in kept[1:])
        )
        label = (kept[0][0] if one_name else head) or heading
        line = f"line {n}" if series else None
        ms = []
        for key, written, value, unit, stat, side in kept:  # (every value was read: numbers)
            unit = unit or stated
            metric = stat or (_unit_metric(unit) if one_name or not key else key)
            variant = ", ".join(v for v in (line, side) if v) or None
            ms.append(Measurement(metric, value, unit, label, variant, written))
        table.add_row(
            [head, *(f"{k or s or ''}: {w}{' ' + u if u else ''}" for k, w, _, u, s, _ in kept)],
            ms,
        )
    return table
