"""JSON objects with numeric fields, whatever tool printed them: result records of
test harnesses (`{"consumer": {"records_per_sec": 570060.4, "mb_per_sec": 54.4}}`),
metric dumps, exported benchmark results that no tool module claimed.

An object counts when it stands on its own (not inside a string or another
object; mid-line too, for mail flattened onto one line) and holds at least
two numeric fields, nested objects included, one of which names a unit or a measured
quantity (time, latency, throughput, rate, score, mean, p99...): configuration
objects do not. Tool formats with JSON exports of their
own (JMH, Google Benchmark, hyperfine, pytest-benchmark) run first and claim theirs.

Rows: one measurement per numeric field: metric = the field's path (`consumer
records_per_sec`), unit from the field name's suffix where it names one (`_ms` →
ms, `_sec`/`_seconds` → s, `_per_sec` → `/s` rates, `mb_per_sec` → MB/s, `_pct`
→ %), else none; label = a name field of the object (`name`, `benchmark`, `test`,
`id`...) or of the `key: value` lines just above it (`test_id: ...`; in a flattened
line, the last such record before it, its value one token), variant = the
heading above the block. Fields that name settings or identifiers (port, threads,
id, version, timestamp...) give no rows.
"""

from __future__ import annotations

import json
import re

from extract.results.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="json",
    description="JSON objects with numeric fields (result records, metric dumps)",
    signature='`{"consumer": {"records_per_sec": 570060.4, "mb_per_sec": 54.4}}` on a line',
    priority=36,
    generic=True,
    trigger=r'\{\s*"',
    needles=("{",),
)

# An object's start: `{"` that no word, quote or bracket is glued to (a mail flattened
# onto one line has its records mid-line)
_START = re.compile(r'(?<![\w"\]}{])\{\s*"')
_DECODE = json.JSONDecoder()
_NAME_KEYS = ("name", "benchmark", "bench", "test", "test_id", "testid", "case", "id", "label")
# A `name: value` record above an object names it: a line of its own (`test_id: ...`) ...
_NAME_KEY = r"(?:test_?id|test|name|benchmark|case)[ \t]*[:=][ \t]*"
_NAME_LINE = re.compile(rf"(?im)^[ \t]*{_NAME_KEY}(?P<v>\S[^\n]{{0,200}})$")
# ... or, in a mail flattened onto one line, such a record inside the line: its value
# is then one token (`test_id: kafkatest.benchmarks....compression_type=none status: PASS`).
_NAME_IN_LINE = re.compile(rf"(?i)(?<![\w.-]){_NAME_KEY}(?P<v>[^\s{{}}\[\]\"]{{3,200}})")
_SETTING = re.compile(
    r"(?i)(?:^|[_.-])(?:port|pid|id|version|threads?|partitions?|replicas?|nodes?|workers?|seed|"
    r"timestamp|ts|epoch|date|year|start|end|offset|index|batch_size|size|count_limit|limit|"
    r"timeout|interval)(?:$|[_.-])"
)
# A field that measures something (else the object is configuration or data).
_PERF_KEY = re.compile(
    r"(?i)time|latency|throughput|rate|per_?sec|ops|qps|tps|score|mean|median|avg|p\d\d|"
    r"duration|elapsed|speed|bandwidth"
)
# Field-name suffixes that name a unit: a rate of bytes (`mb_per_sec`), of anything else
# (`records_per_sec`; the name after the first `_` of the last run of word characters,
# or the whole run at the start: the leftmost `(?:^|_)(\w+?)` that can succeed, tried
# once per run instead of from each `_` of it), a time or a share (`_ms`, `_pct`).
_BYTE_RATE = re.compile(r"(?i)(?:^|_)(mb|kb|gb|b|bytes)_?per_?(?:sec|second|s)$")
_RATE = re.compile(r"(?i)(?:^|(?<!\w)[^\W_]*+_)(\w+?)_?per_?(?:sec|second|s)$")
_SUFFIX = re.compile(
    r"(?i)(?:^|_)(?:(?P<ms>ms|millis|milliseconds)|(?P<us>us|micros|microseconds)"
    r"|(?P<ns>ns|nanos|nanoseconds)|(?P<s>s|sec|secs|seconds)|(?P<pct>pct|percent))$"
)
_BYTE_UNITS = {"mb": "MB/s", "kb": "KB/s", "gb": "GB/s", "b": "B/s", "bytes": "B/s"}
_MAX_OBJECT = 20_000  # characters: a bigger object is a data dump, not a result


def _unit(key: str) -> str | None:
    if m := _BYTE_RATE.search(key):
        return _BYTE_UNITS[m.group(1).lower()]
    if m := _RATE.search(key):
        return f"{m.group(1)}/s"
    if m := _SUFFIX.search(key):
        return "%" if m.lastgroup == "pct" else m.lastgroup
    return None


def _leaves(obj, path: tuple[str, ...] = ()):
    """(path, number) of every numeric field, depth first, in the object's order."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _leaves(v, (*path, str(k)))
    elif isinstance(obj, list) and len(obj) <= 50:
        for i, v in enumerate(obj):
            yield from _leaves(v, (*path, str(i)))
    elif isinstance(obj, int | float) and not isinstance(obj, bool):
        try:
            yield path, float(obj)
        except OverflowError:  # an integer past any double: no measurement
            return


def _name_of(obj) -> str | None:
    if isinstance(obj, dict):
        for k in _NAME_KEYS:
            v = obj.get(k)
            if isinstance(v, str) and v.strip():
                return v.strip()
    return None


_SECTION = re.compile(
    r"^\s*(?:\*\*(?P<b>[^*\n]{1,60})\*\*|#{1,6}\s+(?P<h>[^\n]{1,60}?)|(?P<c>[A-Za-z][^:\n]{0,60}):)\s*$"
)


def _section_heading(text: str, start: int, floor: int) -> str | None:
    """The nearest heading line above `start` (`**BEFORE**`, `## Results`, `With
    the patch:`), looking no further up than `floor` or 2 kB."""
    lines = text[max(floor, start - 2000) : start].split("\n")
    for line in reversed(lines[:-1]):
        m = _SECTION.match(line)
        if m:
            return (m.group("b") or m.group("h") or m.group("c")).strip()
    return None


def parse(text: str) -> list[ResultTable]:
    tables: list[ResultTable] = []
    pos = 0
    floor = 0
    while True:
        m = _START.search(text, pos)
        if m is None:
            break
        start = m.start()
        # (decoded in a window, and resumed past the point where decoding failed:
        # every character is read a bounded number of times however the text is)
        window = text[start : start + _MAX_OBJECT]
        try:
            obj, length = _DECODE.raw_decode(window)
        except json.JSONDecodeError as exc:
            pos = start + max(exc.pos, 2)
            continue
        except RecursionError:  # nested past any result record: skip the window
            pos = start + len(window)
            continue
        except ValueError:
            pos = m.end()
            continue
        end = pos = start + length
        if not isinstance(obj, dict):
            continue
        leaves = [
            (p, v) for p, v in _leaves(obj) if p and not any(_SETTING.search(k) for k in p[-1:])
        ]
        if len(leaves) < 2 or not any(_PERF_KEY.search(p[-1]) or _unit(p[-1]) for p, _ in leaves):
            continue
        above = text[max(floor, start - 600) : m.start()]
        own_line = above.rfind("\n") + 1  # (where the object's own line starts)
        names = list(_NAME_LINE.finditer(above, 0, own_line))
        if not names:
            names = list(_NAME_IN_LINE.finditer(above, own_line))
        label = _name_of(obj) or (names[-1].group("v").strip() if names else None)
        heading = _section_heading(text, start, 0)
        table = ResultTable(
            "json", (start, end), [" ".join(p) for p, _ in leaves], caption=heading, variant=heading
        )
        written = [str(int(v)) if v.is_integer() else repr(v) for _, v in leaves]
        ms = [
            Measurement(" ".join(p), v, _unit(p[-1]), label, None, w)
            for (p, v), w in zip(leaves, written, strict=True)
        ]
        table.add_row([label or "", *(str(v) for _, v in leaves)], ms)
        tables.append(table)
        floor = end
    return tables
