"""What a number no reader read measures: its label, metric and variant, from its
context (`describe`), and the tables those numbers are stored in (`text_tables`).

The number model (`extract.results.judge`) may take a number that no format module
read: in a log line, a `key=value` pair, a cut JSON fragment or a sentence. Such a
number is labelled by the general ways people write results:
* `"key": 12.5` (JSON): the key, after the key of the object that holds it;
* `key: 12.5` / `key=12.5` (records, logs): the key;
* a row of a table no reader took (`name  12.5  13.1`): the row's first words;
* a sentence: the clause that names what was measured, up to the number
  (`the full build now takes`), or after it when nothing precedes it in the clause.
The metric is the performance word nearest to the number (`latency`, `throughput`,
`build time`) or else its unit's kind (`time`, `rate`, `speedup`, `change`); the
variant is the heading of the block it stands in (`Before patch`). A slowdown is a
`slowdown`, never a `speedup`.
"""

from __future__ import annotations

import functools
import re

from extract.results.formats import Measurement, ResultTable
from extract.results.formats._layout import heading_above
from extract.results.judge import Candidate, key_before, unit_class

_JSON_KEY = re.compile(r"\"([^\"\n]{1,60})\"[ \t]*+:[ \t]*+\[?[ \t]*+$")
# (the object's body bounded: a window of many quotes and no brace is read linearly)
_JSON_PARENT = re.compile(r"\"([^\"\n]{1,60})\"[ \t]*+:[ \t]*+\{[^{}]{0,400}+$")
# Where a clause starts: a sentence end, a colon, a semicolon, a bullet, a line break,
# an opening bracket, a conjunction that starts a new claim.
_CLAUSE_START = re.compile(
    r"(?:[.!?;:。；：]\s|\n|^|\(|\[|\||,\s(?:and|but|while|whereas)\s"
    r"|\b(?:and|but)\s(?=\w++\s++(?:is|was|takes|took)))",
)
# The first `key=number` of a line: the words before it name the whole line.
_FIRST_PAIR = re.compile(r"(?<![\w.()/%-])[\w.()/%-]++[ \t]*+[:=][ \t]*+[-+~]?\d|,")
_LEAD_WORDS = re.compile(
    r"^(?:so|and|but|also|then|now|here|thus|hence|overall|that|which|while|with|in|on"
    r"|the|a|an|it|this|we|i)\b\s*",
    re.I,
)
# Words a label does not end with (`the build takes`, `went from`), and marks.
_TAIL_WORDS = frozenset(
    (
        "is", "was", "are", "were", "of", "to", "by", "from", "at", "in", "on", "for", "about",
        "around", "approximately", "roughly", "nearly", "almost", "over", "under", "only",
        "just", "than", "like", "be", "been", "become", "becomes", "became", "take", "takes",
        "took", "with", "as",
    )
)  # fmt: skip
_TAIL_MARKS = "~≈=:<>( \t"
_PERF_METRIC = re.compile(
    r"(p\d{2,3}(?:\.\d+)?|latency|throughput|qps|tps|ops|bandwidth|build time|run ?time"
    r"|startup time|response time|execution time|query time|elapsed|duration|memory|heap"
    r"|cpu|gc|speed-?up|slow-?down|improvement|regression|overhead|time"
    r"|per second|per sec|/s\b|/sec\b)",
    re.I,
)
_SLOWER = re.compile(r"slower|slowdown|regress|worse|degrad|overhead|increase", re.I)
# What says a factor is a slowdown, right after it (`2x slower`, `2-5x longer`)
_SLOWER_AFTER = re.compile(
    r"[ \t]*+(?:times[ \t]++)?(?:slower|longer|worse|slow-?down|regression|more time)", re.I
)
_SPEEDUP_NAMES = frozenset(("speedup", "speed-up", "improvement", "faster", "gain"))


def _clean(label: str) -> str:
    label = " ".join(label.split()).strip(" ,-*#`'\"")
    for _ in range(3):
        label = _LEAD_WORDS.sub("", label)
        label = _without_tail_words(label)
    return label[-90:].strip(" ,-")


def _without_tail_words(label: str) -> str:
    words = label.rstrip(_TAIL_MARKS).split(" ")
    while words and words[-1].lower() in _TAIL_WORDS:
        words.pop()
    return " ".join(words).rstrip(_TAIL_MARKS)


def _nearest_metric(before: str, after: str) -> str:
    """The performance word nearest to the number (`per second` is a throughput)."""
    found = list(_PERF_METRIC.finditer(before))
    last = found[-1] if found else None
    first = _PERF_METRIC.search(after)
    if last is None and first is None:
        return ""
    if first is None or (last is not None and len(before) - last.end() <= first.start()):
        word = last.group(1)
    else:
        word = first.group(1)
    word = word.lower()
    return "throughput" if word in ("per second", "per sec", "/s", "/sec") else word


def describe(sample: str, c: Candidate, previous: int = -1) -> tuple[str, str, str | None]:
    """(label, metric, variant) of a number no reader read; `previous` is where the
    number before it starts (a clause that holds two numbers names the first one)."""
    n = c.number
    # (windows of bounded size: a 100 kB line of numbers must cost linear time)
    line_start = sample.rfind("\n", max(0, n.start - 400), n.start) + 1 or max(0, n.start - 400)
    line_end = sample.find("\n", n.unit_end, n.unit_end + 400)
    line_end = min(len(sample), n.unit_end + 400) if line_end < 0 else line_end
    before = sample[max(line_start, n.start - 160) : n.start]
    after = sample[n.unit_end : min(line_end, n.unit_end + 120)]
    unit = unit_class(n.unit)
    label = metric = ""
    m = _JSON_KEY.search(before)
    if m:
        parent = _JSON_PARENT.search(sample[max(0, n.start - 400) : n.start])
        metric = m.group(1)
        label = metric if not parent else f"{parent.group(1)}.{metric}"
    if not label:
        key = key_before(before)
        if key and len(key.split()) <= 8:
            head_end = before.rstrip(" \t\"'")[:-1].rstrip(" \t")
            head_end = head_end[: len(head_end) - len(key)]
            head = _clean(_FIRST_PAIR.split(head_end, maxsplit=1)[0])
            key = _clean(key)
            metric, label = key, (head if 1 <= len(head.split()) <= 8 else key)
    if not label:
        starts = list(_CLAUSE_START.finditer(before))
        clause_at = starts[-1].end() if starts else 0
        # (the clause of `from 6 m down to 3 m` names both: up to its first number)
        first_number = previous - (n.start - len(before))
        if clause_at < first_number < len(before):
            clause = before[clause_at:first_number]
        else:
            clause = before[clause_at:]
        label = _clean(clause)
        if len(label.split()) < 2:
            tail = re.split(r"[.!?;,。；]\s|\n|\(", after, maxsplit=1)[0]
            if unit == "word":
                tail = f"{n.unit} {tail}"
            more = _clean(tail)
            label = f"{label} {more}".strip() if more else label
    if not metric:
        metric = _nearest_metric(before[-60:], after[:60]) or {
            "time": "time",
            "rate": "throughput",
            "byterate": "throughput",
            "bytes": "size",
            "percent": "change",
            "factor": "speedup",
        }.get(unit, "value")
    if unit == "factor" and _SLOWER.search(after[:30]):
        metric = "slowdown"
    true_start = line_start == 0 or sample[line_start - 1] == "\n"
    variant = _heading(sample, line_start) if true_start else None
    return label or metric, metric, variant


@functools.lru_cache(maxsize=64)
def _heading(sample: str, line_start: int) -> str | None:
    # (one look up per line, however many of its numbers are described)
    return heading_above(sample, line_start)


def text_tables(
    sample: str, cands: list[Candidate], errors: dict[int, float] | None = None
) -> list[ResultTable]:
    """The numbers no reader read, taken by the model: one table per paragraph.
    `errors`: the stated error of a candidate (by `id`), from the number after its `±`."""
    tables: list[ResultTable] = []
    current: ResultTable | None = None
    previous = -1
    for c in cands:
        n = c.number
        if current is not None and n.start < current.span[1]:
            para_start = current.span[0]
        else:
            para_start = sample.rfind("\n\n", current.span[1] if current else 0, n.start)
            para_start = (current.span[1] if current else 0) if para_start < 0 else para_start + 2
        if current is None or para_start >= current.span[1]:
            para_end = sample.find("\n\n", n.end)
            para_end = len(sample) if para_end < 0 else para_end
            current = ResultTable("text", (para_start, para_end), ["label", "metric", "value"])
            tables.append(current)
        label, metric, variant = describe(sample, c, previous)
        previous = n.start
        # (a word after a number is kept as its unit only when it is a known one)
        unit = n.unit if n.unit and unit_class(n.unit) not in ("word", "none") else None
        m = Measurement(metric, n.value, unit, label, variant, n.written, span=(n.start, n.end))
        m.error = (errors or {}).get(id(c))
        current.add_row([label, metric, n.written + (f" {unit}" if unit else "")], [m])
    return tables


def name_slowdowns(sample: str, tables: list[ResultTable]) -> None:
    """A factor written as a slowdown (`2x slower`, `2-5x longer`) is a `slowdown`,
    whatever its reader called it: a slowdown is never a speedup."""
    for t in tables:
        for m in t.measurements:
            if m.span is None or (m.unit or "").strip().lower() not in ("x", "×", "times"):
                continue
            if (m.metric or "").lower() in _SPEEDUP_NAMES and _SLOWER_AFTER.match(
                sample, m.span[1]
            ):
                m.metric = "slowdown"
