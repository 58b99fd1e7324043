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

Rows: one per line. label = the line's own label, else the heading above the
block; variant = `line N` when several lines repeat the same keys (a series of
samples) and no line has a label of its own; metric = the key; unit as written.
Keys that name settings (threads, port, size, timeout, id, version, ...) are
configuration, not results, and give no rows unless they carry a unit of time
or rate (not even then when they name a time setting: timeout, interval, ttl, ...).
Pure function; never raises.
"""

from __future__ import annotations

import re

from extract.results.formats._context import block_heading, measure
from extract.results.formats.base import FormatInfo, ResultTable
from extract.results.units import parse_number, to_si

INFO = FormatInfo(
    name="records",
    description="runs of key: value / key=value records with numbers",
    signature="`Send TPS: 240 Max RT: 292`, `before: 7806` / `after: 6033`, "
    "`name: 46.4 GB/hour`, `p99=12.5ms`",
    priority=35,
    # a pair (a key whose last word has a letter, a number, then what may follow
    # one: a unit, or no word character, `.`, `:`, `/`, `-`), or a line that ends
    # with a number and a unit (`_UNIT`); the trigger test checks that both together
    # are necessary for a row. (CJK written as characters: the prefilter's
    # Hyperscan reads no `\u` escapes)
    trigger=r"[A-Za-z一-鿿][\w.()%#/-]*[ \t]*[:=：][ \t]*~?[-+]?\d[\d,]*(?:\.\d+)?"
    r"(?:[eE][-+]?\d+)?(?:[^\w.:/-]|[A-Za-zµμ%]|$)"
    r"|(?m:\d[ \t]*(?:%|[kKMGT]?i?B(?:/s(?:ec)?|ps)?|[A-Za-zµμ]+/[A-Za-z]+"
    r"|ns|us|µs|μs|ms|s|secs?|seconds?|msec|millis(?:econds?)?|micros(?:econds?)?|nanos(?:econds?)?|mins?|minutes?|h"
    r"|hours?|qps|tps|rps|[kKM]?ops)[ \t]*\r?$)"
    # or `label - 5.7 min` records run together in a flattened line
    r"|[ \t][-–][ \t]+~?\d[\d,.]*[ \t]*[A-Za-zµμ]",
)

_NUMBER = r"[-+]?\d(?:[\d,]*\d)?(?:\.\d+)?(?:[eE][-+]?\d+)?"
_UNIT = (
    r"%|[kKMGT]?i?B(?:/s(?:ec)?|ps)?|[A-Za-zµμ]+/[A-Za-z]+"
    r"|(?:ns|us|µs|μs|ms|s|sec|secs|seconds?|msec|millis(?:econds?)?|micros(?:econds?)?"
    r"|nanos(?:econds?)?|mins?|minutes?|h|hours?|qps|QPS|tps|TPS|rps|ops|[kKM]?ops)\b"
)
_KEY = r"[A-Za-z\u4e00-\u9fff][\w\u4e00-\u9fff.()%#/-]*(?:[ \t]+[\w\u4e00-\u9fff.()%#/-]+){0,5}?"
_PAIR = re.compile(
    rf"(?P<key>{_KEY})[ \t]*[:=：][ \t]*(?P<num>~?{_NUMBER})(?P<suffix>[kKM](?![A-Za-z]))?"
    rf"(?:[ \t]*(?P<unit>{_UNIT}))?(?![\w.:/-])"
)
# Keys that name a setting or an identifier, not a measured result.
_SETTING = re.compile(
    r"(?i)\b(?:threads?|thread ?count|port|id|version|size|batch|count|timeout|interval|"
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
_DIGIT = re.compile(r"\d")
_RATE = re.compile(r"[A-Za-z]+/(?:s|sec|second|ms|us|min|minute|h|hour)$", re.I)
_NAME_WORD = re.compile(r"[A-Za-z\u4e00-\u9fff]")
_TABLE_LINE = re.compile(r"^\s*[|+]|\|\s*$|^\s*[{\[\"]")
_FENCE = re.compile(r"^\s*(?:```+\s*[\w+-]*|~~~+|\{code(?::[^}]*)?\}|\{noformat\})\s*$")


def _unit_known(unit: str | None) -> bool:
    return bool(unit) and (to_si(1.0, unit)[1] is not None or bool(_RATE.search(unit)))


def _named_pairs(line: str) -> list[re.Match]:
    """The pairs of a line whose key names something: a key whose last word is a
    number is a clock time (`at 10:30`, `is 0:40 min`), and a key glued to a `=`
    before it is part of a value (`servers=b1:9092`: a host and its port)."""
    return [
        m
        for m in _PAIR.finditer(line)
        if _NAME_WORD.search(m.group("key").split()[-1])
        and line[max(0, m.start("key") - 1) : m.start("key")] != "="
    ]


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
        if len(gap.strip(" \t,;|")) > 0:
            return None
    tail = line[found[-1].end() :].strip()
    if len(tail) > 40:
        return None
    head = line[: found[0].start("key")].strip().rstrip(":").strip()
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
    rf"(?P<key>)(?P<num>~?{_NUMBER})(?P<suffix>)[ \t]*(?P<unit>{_UNIT})[ \t]*$"
)


_HEAD_VALUE = re.compile(rf"[ \t]{{2,}}[-+~]?\d|\d[ \t]*(?:{_UNIT})(?![\w/])")
_UNIT_KIND = {"s": "time", "1/s": "throughput", "B/s": "throughput"}


def _labelled(line: str) -> tuple[str, list[re.Match]] | None:
    """(label, [its one value]) for a `label  <number> <unit>` line whose unit is a
    time or a rate."""
    m = _LABELLED.match(line)
    if m is None or not re.search(r"[A-Za-z]", m.group("head")):
        return None
    # a value in the head makes the line a row of an aligned table, the table readers'
    if _HEAD_VALUE.search(m.group("head")):
        return None
    if to_si(1.0, m.group("unit"))[1] not in ("s", "1/s", "B/s"):
        return None
    return m.group("head").strip(), [m]


# A line of `|`-separated cells, each a measured value with its name written around
# it (`Mina3 client : 10bytes msgs in 57.8 secs | 1k msgs in 53.2 secs`): the text
# before the first `:` is the line's label.
_CELL_PAIR = re.compile(
    rf"(?P<key>[\w一-鿿][\w一-鿿 .()/#-]{{0,40}}?)[ \t]*(?:[ \t]in|[ \t]took|:|=)[ \t]*"
    rf"(?P<num>~?{_NUMBER})(?P<suffix>)[ \t]*(?P<unit>{_UNIT})"
)


def _cells(line: str) -> tuple[str, list[re.Match]] | None:
    """(label, one pair per cell) for a line of two or more `|` cells that are each a
    name and a value with its unit, the label before a `:` that opens the line."""
    if line.count("|") < 1 or _TABLE_LINE.search(line):
        return None
    head, sep, rest = line.partition(" : ") if " : " in line else line.partition(":")
    if not sep or len(head) > 60:
        head, rest = "", line
    found = []
    for cell in rest.split("|"):
        m = _CELL_PAIR.fullmatch(cell.strip())
        if m is None or not _unit_known(m.group("unit")):
            return None
        found.append(m)
    return (head.strip(), found) if len(found) >= 2 else None


def _flat_runs(line: str) -> list[list[list[re.Match]]]:
    """In a line that is not a record (a mail flattened onto one line), the runs of
    three or more pairs with only filler between them, each split into rows where
    its first key comes again (a series of samples printed one per line)."""
    found = _named_pairs(line)
    runs: list[list[re.Match]] = []
    for m in found:
        if runs and not line[runs[-1][-1].end() : m.start("key")].strip(" \t,;|`"):
            runs[-1].append(m)
        else:
            runs.append([m])
    out = []
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


# `Insert in 0.8.0 - 5.7 min Insert in 0.10.1 - 12 min ...`: `label - value unit`
# lines that flattening ran together (a capitalised head, ` - `, a number and a unit).
_FLAT_LABELLED = re.compile(
    rf"(?P<head>[A-Z][^\s|:=-][^|:=\n]{{0,60}}?)[ \t]+[-–][ \t]+"
    rf"(?P<key>)(?P<num>~?{_NUMBER})(?P<suffix>)[ \t]*(?P<unit>{_UNIT})(?=[ \t]|$)"
)


_CELL_TEXT = (
    rf"[\w一-鿿][\w一-鿿 .()/#-]{{0,40}}?[ \t]*(?:[ \t]in|[ \t]took|:|=)"
    rf"[ \t]*~?{_NUMBER}[ \t]*(?:{_UNIT})"
)
# `Old client : small msgs in 57.8 secs | 1k msgs in 53.2 secs New client : ...`
_FLAT_CELLS = re.compile(
    rf"(?P<head>[A-Z][^|:\n]{{0,60}}?)[ \t]?:[ \t]?"
    rf"(?P<cells>{_CELL_TEXT}(?:[ \t]*\|[ \t]*{_CELL_TEXT})+)"
)


def _flat_cells(line: str) -> list[tuple[str, list[re.Match]]]:
    """Lines of `|`-separated named values (`_cells`) that flattening ran together,
    when two or more follow one another."""
    found = []
    for m in _FLAT_CELLS.finditer(line):
        pairs = [_CELL_PAIR.fullmatch(c.strip()) for c in m.group("cells").split("|")]
        if all(p is not None and _unit_known(p.group("unit")) for p in pairs):
            found.append((m.group("head").strip(), pairs))
    return found if len(found) >= 2 else []


def _flat_labelled(line: str) -> list[list[re.Match]]:
    """Runs of three or more `label - value unit` records one after the other in a
    flattened line, each in a unit of time or rate."""
    runs: list[list[re.Match]] = []
    for m in _FLAT_LABELLED.finditer(line):
        if to_si(1.0, m.group("unit"))[1] not in ("s", "1/s", "B/s"):
            continue
        if runs and not line[runs[-1][-1].end() : m.start()].strip():
            runs[-1].append(m)
        else:
            runs.append([m])
    return [run for run in runs if len(run) >= 3]


def parse(text: str) -> list[ResultTable]:
    tables: list[ResultTable] = []
    lines = text.split("\n")
    offsets = []
    pos = 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1
    block: list[tuple[int, str, list[re.Match]]] = []
    floor = 0

    def close() -> None:
        nonlocal block, floor
        labelled = [pairs[0] for _, _, pairs in block if not pairs[0].group("key")]
        if labelled and len(labelled) == len(block):
            units = {m.group("unit") for m in labelled}
            if len(labelled) < 2 or len(units) > 1:
                block = []
        if block:
            table = _table(text, block, offsets, lines, floor)
            if table is not None:
                tables.append(table)
                floor = table.span[1]
        block = []

    gap = 0
    for i, line in enumerate(lines):
        if not line.strip() or _FENCE.match(line):
            gap += 1
            if gap > 2:
                close()
            continue
        # (every reader below needs a digit: most lines of ordinary mail have none)
        got = (_pairs(line) or _labelled(line) or _cells(line)) if _DIGIT.search(line) else None
        if got is None:
            close()
            gap = 0
            # flattened mail: its records run inside one long line
            if len(line) > 120 and _DIGIT.search(line):
                for rows in _flat_runs(line):
                    block = [(i, "", pairs) for pairs in rows]
                    close()
                cells = _flat_cells(line)
                if cells:
                    block = [(i, head, pairs) for head, pairs in cells]
                    close()
                for run in _flat_labelled(line):
                    block = [(i, m.group("head").strip(), [m]) for m in run]
                    close()
            continue
        gap = 0
        block.append((i, got[0], got[1]))
    close()
    return tables


def _table(text, block, offsets, lines, floor) -> ResultTable | None:
    rows = []
    for i, head, pairs in block:
        kept = []
        for p in pairs:
            unit = p.group("unit")
            if unit and not _unit_known(unit):
                unit = None
            key = p.group("key").strip()
            if key.count("(") > key.count(")"):
                continue  # a source position, `at a.B.run(B.java:540)`, not a name
            words = _CAMEL.sub(" ", key)  # `threadId` names a thread id
            if _TIME_SETTING.search(words) or (
                _SETTING.search(words) and not (unit and to_si(1.0, unit)[1] in ("s", "1/s", "B/s"))
            ):
                continue
            written = p.group("num").lstrip("~")
            value = parse_number(written + (p.group("suffix") or ""))
            if value is None:
                continue
            kept.append((key, written, value, unit))
        if kept:
            rows.append((i, head, kept))
    n_numbers = sum(len(k) for _, _, k in rows)
    with_unit = any(u for _, _, k in rows for *_, u in k)
    if not rows or (n_numbers < 2 and not with_unit):
        return None
    first, last = rows[0][0], rows[-1][0]
    start, end = offsets[first], offsets[last] + len(lines[last])
    heading = block_heading(text, start, floor)
    keys = [tuple(k for k, *_ in kept) for _, _, kept in rows]
    # a series of samples: every line starts with the same key and none has a label
    series = len(rows) > 1 and len({ks[0] for ks in keys}) == 1 and not any(h for _, h, _ in rows)
    table = ResultTable("records", (start, end), caption=heading)
    table.columns = sorted({k for ks in keys for k in ks})
    for n, (_, head, kept) in enumerate(rows, 1):
        label = head or heading
        variant = f"line {n}" if series else None
        ms = []
        for key, written, value, unit in kept:
            metric = key or _UNIT_KIND.get(to_si(1.0, unit)[1], "value")
            m = measure(metric, written, value, unit, label=label, variant=variant)
            if m is not None:
                ms.append(m)
        table.add_row([head, *(f"{k}: {w}{' ' + u if u else ''}" for k, w, _, u in kept)], ms)
    return table
