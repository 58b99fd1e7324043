"""What a number no reader read measures: its label, metric and variant, from its
context (`describe`), and the tables those numbers are stored in (`text_tables`).

The number model (`extract.results.judge`) may take a number that no format module
read: in a log line, a `key=value` pair, a cut JSON fragment or a sentence. Such a
number is labelled by the general ways people write results:
* `"key": 12.5` (JSON): the key, after the key of the object that holds it;
* `key: 12.5` / `key=12.5` (records, logs): the key;
* a cell of a table no reader took (bars, tabs, aligned columns, comma-separated
  rows): the row's label (its first cell) and the column's header as the metric,
  the header as the label when the row has no name;
* a sentence: the clause that names what was measured, up to the number
  (`the full build now takes`), or after it when nothing precedes it in the clause.
The metric is the performance word nearest to the number (`latency`, `throughput`,
`build time`) or else its unit's kind (`time`, `rate`, `speedup`, `change`); the
variant is the heading of the block it stands in (`Before patch`). A slowdown is a
`slowdown`, never a `speedup`.
"""

from __future__ import annotations

import bisect
import functools
import re

from extract.results.formats import Measurement, ResultTable
from extract.results.formats._layout import DIGIT, STAT, heading_above
from extract.results.judge import (
    NUMBER_CELL,
    Candidate,
    column_of,
    comma_cells,
    key_before,
    table_cells,
    time_word,
    unit_class,
)

_JSON_KEY = re.compile(r"\"([^\"\n]{1,60})\"[ \t]*+:[ \t]*+\[?[ \t]*+$")
# (the object's body bounded: a window of many quotes and no brace is read linearly)
_JSON_PARENT = re.compile(r"\"([^\"\n]{1,60})\"[ \t]*+:[ \t]*+\{[^{}]{0,400}+$")
# Where a clause starts: a sentence end, a colon, a semicolon, a bullet, a line break,
# an opening bracket, a conjunction that starts a new claim.
_CLAUSE_START = re.compile(
    r"(?:[.!?;:]\s|[。；：，！？]|\n|^|\(|\[|\||,\s(?:and|but|while|whereas)\s"
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
    r"(p\d{2,3}(?:\.\d+)?|(?<![\d.])\d{2}(?:\.\d+)?th\b|latency|throughput|qps|tps|ops"
    r"|bandwidth|build time|run ?time"
    r"|startup time|response time|execution time|query time|elapsed|duration|memory|heap"
    r"|cpu|gc|speed-?up|slow-?down|improvement|regression|overhead|time"
    r"|per second|per sec|/s\b|/sec\b|吞吐|耗时|延迟|时延)",
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


def _nearest_metric(before: str, after: str, unit: str = "none") -> str:
    """The performance word nearest to the number (`per second` is a throughput), of
    those its unit allows: a time is no throughput, a rate no latency (`41,233 ops/s,
    mean 0.24 ms, 99th 1.12 ms`: the last is the 99th's, not the ops/s')."""
    clash = _CLASHING.get(unit, ())
    last = next(
        (m for m in reversed(list(_PERF_METRIC.finditer(before))) if _kind(m) not in clash), None
    )
    first = next((m for m in _PERF_METRIC.finditer(after) if _kind(m) not in clash), None)
    if last is None and first is None:
        return ""
    if first is None or (last is not None and len(before) - last.end() <= first.start()):
        word = last.group(1)
    else:
        word = first.group(1)
    word = _CJK_METRICS.get(word, word.lower())
    return "throughput" if word in ("per second", "per sec", "/s", "/sec") else word


def _kind(m: re.Match) -> str:
    """Whether a performance word names a rate, a time, or neither."""
    word = _CJK_METRICS.get(m.group(1), m.group(1).lower())
    if word in _RATE_WORDS or word.startswith(("per ", "/")):
        return "rate"
    return "time" if word in _TIME_WORDS else ""


_RATE_WORDS = frozenset(("throughput", "qps", "tps", "ops", "bandwidth"))
_TIME_WORDS = frozenset(
    ("latency", "build time", "run time", "runtime", "startup time", "response time",
     "execution time", "query time", "elapsed", "duration", "time")
)  # fmt: skip
# The kinds of word a number in a unit of this class is not a measure of.
_CLASHING = {"time": ("rate",), "rate": ("time",), "byterate": ("time",)}


_CJK_METRICS = {"吞吐": "throughput", "耗时": "time", "延迟": "latency", "时延": "latency"}


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
    true_start = line_start == 0 or sample[line_start - 1] == "\n"
    block = line_start  # the start of the block whose heading names the number
    tabled = False
    if not label:
        # (a list's key names each of its values: `timings (ms): [141302, 141522]`)
        o = max(before.rfind("["), before.rfind("("))
        opener = o >= 0 and _LIST_BODY.fullmatch(before, o + 1) is not None
        key_window = before[:o].rstrip(" \t") if opener else before
        key = key_before(key_window)
        if key and len(key.split()) <= 8:
            head_end = key_window.rstrip(" \t\"'")[:-1].rstrip(" \t")
            head_end = _without_key(head_end, key)
            name = record_name(head_end)
            key = _clean(key)
            metric, label = key, (name if 1 <= len(name.split()) <= 8 else key)
    if not label and true_start:
        col = column_of(sample, line_start, n.start - line_start, n.end - n.start)
        if col is not None and col.bare:
            tabled = True
            header = _clean(col.header or "")
            if NUMBER_CELL.fullmatch(header) or _VALUE_IN.search(header):
                # (a row of values above is no header: `| 1164.46 |`, `avg=12.3ms`)
                header = ""
            row_label = _clean(col.row_label)
            if (keyed := _VALUE_IN.search(row_label)) is not None:
                row_label = _clean(row_label[: keyed.start()].rstrip(" ."))  # `reqs...: 98231`
            between = _clean(col.between)
            label = row_label or header
            # (what stands between the row's name and the number names it, unless it is
            # other values: `: 2.345 micros/op 426439 ops/sec;`)
            metric = header or ("" if DIGIT.search(between) else between)
            block = _run_start(sample, line_start, _is_table_line)
    if not label and not tabled:
        label = _line_record_name(before) or _sentence_label(sample, n, before, after, previous)
    if not metric and not tabled:
        # (the statistic named right before it: `mean 0.24 ms, 99th 1.12 ms`)
        words = before[-16:].split()
        if words and _STAT_NAME.fullmatch(words[-1]):
            metric = words[-1].lower()
    if not metric and time_word(n):
        metric = time_word(n)  # (`5.36user 0.50system 0:05.54elapsed`)
    if not metric and unit in ("rate", "byterate"):
        metric = "throughput"  # (whatever the words around it: `--- 1520.7 Mbit/s`)
    if not metric and unit == "factor":
        metric = "speedup"  # (a ratio, whatever it is of: `提升约 3.7 倍`, `2.1x`)
    if not metric:
        item = not tabled and _LIST_ITEM.search(before[-5:]) is not None
        # (the words of its own sentence: `19s without it. Memory usage is ...` is no
        # memory, `5k/s. It took 3 s` no throughput)
        near_before = before[-60:]
        if (ended := _last_sentence_end(near_before)) >= 0:
            near_before = near_before[ended:]
        near_after = after[:60]
        if (stop := _SENTENCE_END.search(near_after)) is not None:
            near_after = near_after[: stop.start()]
        metric = _nearest_metric("" if item else near_before, near_after, unit) or {
            "time": "time",
            "rate": "throughput",
            "byterate": "throughput",
            "bytes": "size",
            "percent": "change",
            "factor": "speedup",
        }.get(unit, "value")
    if unit == "factor" and _SLOWER.search(after[:30]):
        metric = "slowdown"
    # (a table's rows and a record's lines are named by the heading above them all)
    if true_start and not tabled and _is_record_line(sample[line_start:line_end]):
        block = _run_start(sample, line_start, _is_record_line)
    variant = _heading(sample, block) if true_start else None
    return label or variant or metric, metric, variant


@functools.lru_cache(maxsize=64)
def _heading(sample: str, line_start: int) -> str | None:
    # (one look up per line, however many of its numbers are described; in a window
    # of bounded size before it: a heading is near its block)
    if _after_a_block(sample, line_start):
        return None  # (the last line of a code block above is the tool's, no heading)
    lo = max(0, line_start - 2000)
    le = sample.find("\n", line_start)
    return heading_above(sample[lo : len(sample) if le < 0 else le], line_start - lo)


# A line that opens or closes a fenced block: the same mark does both (`</pre>` only
# closes one)
_FENCE_LINE = re.compile(r"(?m)^[ \t]*+(?:```|~~~|\{noformat|\{code|</?pre)")


def _after_a_block(sample: str, line_start: int) -> bool:
    """Whether the nearest line above `line_start` that is not blank closes a fenced
    block."""
    fences = _fence_lines(sample)
    k = bisect.bisect_left(fences, (line_start,)) - 1
    if k < 0:
        return False
    start, closes = fences[k]
    # (nothing but blank lines between the fence's line and this one)
    return closes and not sample[start:line_start].strip().count("\n")


@functools.lru_cache(maxsize=4)
def _fence_lines(sample: str) -> list[tuple[int, bool]]:
    """(start, whether it closes a block) of each fence line of `sample`, in order:
    fences of one mark pair up (`</pre>` only closes). Found once a text."""
    out, seen = [], {}
    for m in _FENCE_LINE.finditer(sample):
        mark = m.group().strip()
        mark = "{code" if mark.startswith("{code") else mark
        seen[mark] = seen.get(mark, 0) + 1
        out.append((m.start(), mark == "</pre" or seen[mark] % 2 == 0))
    return out


_RULE_CHARS = frozenset("-=+|:_ ─━┼┿╋\t")
_RECORD_LINE = re.compile(r"[^\n]{0,80}?[\w)%][ \t]*+[<>]?[:=][ \t]*+[-+~]?\d")


# (the run of lines above each number is walked up line by line: a table of 4,000
# numbers asked of the same lines hundreds of times, each split into cells again)
@functools.lru_cache(maxsize=8192)
def _is_table_line(line: str) -> bool:
    return (
        len(table_cells(line)) >= 2
        or len(comma_cells(line, header=True)) >= 2
        or set(line) <= _RULE_CHARS
    )


def _is_record_line(line: str) -> bool:
    return _RECORD_LINE.match(line) is not None


def forget_lines() -> None:
    """Empty the caches of one message's lines (`extract.results.message`)."""
    _run_start.cache_clear()
    _is_table_line.cache_clear()


@functools.lru_cache(maxsize=4096)  # (numbers of one line share it)
def _run_start(sample: str, line_start: int, kind) -> int:
    """Where the run of lines of one `kind` (table lines, records) that holds the line
    at `line_start` begins (50 lines up at most): its heading names them all."""
    start = line_start
    for _ in range(50):
        if start == 0:
            break
        above = sample.rfind("\n", max(0, start - 1000), start - 1) + 1
        line = sample[above : start - 1]
        if not line.strip() or not kind(line):
            break
        start = above
    return start


# A log record's prefix (`08:13:19.005 [main] INFO org.a.b.Producer - `): it names nothing.
_LOG_PREFIX = re.compile(
    r"^[ \t]*+(?:\[?\d[\d/:.,T-]*+\]?[ \t]++){1,3}(?:\[[^\]\n]{0,60}\][ \t]*+)?"
    r"(?:(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE)[ \t]++)?"
    r"(?:[\w.$]{1,120}+(?:[ \t]*+[-:][ \t]++|$))?"
)
_NAME_BREAKS = ("[", "(", ";", "|", " - ", "---", "{", ". ")


def record_name(head: str) -> str:
    """The name of the record a `key=value` stands in, from the text before its key:
    the words before the run of pairs it belongs to (`[READ: Count=20, ` -> READ;
    `Latency: mean: 11.3 ms - med: 6.4 - ` -> Latency; `write latency p99=12.5ms, `
    -> write latency), a log line's prefix left out; '' when there is none."""
    tokens = head.split()[-30:]
    k = len(tokens)
    while k > 0:
        core = tokens[k - 1].strip(",;|-–—")
        if not core or _NUMBERISH.match(core):
            k -= 1  # a separator, a value
            continue
        if core.endswith((":", "=", "：")) or "=" in core:
            # (a key right before another key names the record: `Latency: mean:`)
            nxt = tokens[k] if k < len(tokens) else ":"  # (after the last: the key)
            if "=" not in core and (nxt.endswith((":", "=", "：")) or "=" in nxt):
                break
            k -= 1
            continue
        if k >= 2 and _NUMBERISH.match(tokens[k - 2]) and _UNIT_WORD.fullmatch(core):
            k -= 2  # a value and its unit: `11.303 ms`
            continue
        break
    text = _LOG_PREFIX.sub("", " ".join(tokens[:k]))
    cut = _last_break(text, len(text))
    if cut > len(text) - 2:  # (the name ends with a break: `[READ:` -> `READ`)
        cut = _last_break(text, len(text) - 2)
    text = text[cut:]
    name = _clean(text.rstrip(":=： ]"))
    return " ".join(name.split()[-8:])


def _without_key(head: str, key: str) -> str:
    """`head` without the `key` it ends with, word by word: `key_before` joins the
    key's words with one blank (`Warmup Iteration   1` in the text)."""
    for word in reversed(key.split()):
        head = head.rstrip()
        if not head.endswith(word):
            break
        head = head[: len(head) - len(word)]
    return head


def _last_break(text: str, end: int) -> int:
    """Where the text after the last of the `_NAME_BREAKS` before `end` starts (0: none)."""
    return max((k + len(b) for b in _NAME_BREAKS if (k := text.rfind(b, 0, end)) >= 0), default=0)


_NUMBERISH = re.compile(r"[-+~(]?\d")
# (a key's value: `reqs...: 98231`; from the start of the run of blanks and dots only)
_VALUE_IN = re.compile(r"(?<![ \t.])[ \t.]*+[:=][ \t]*+[-+~]?\d")
_UNIT_WORD = re.compile(r"[A-Za-zµμ%/]{1,10}\)?")

# Words that name nothing measured (pronouns, auxiliaries, prepositions, fillers): a
# label made only of them (`it was`, `with a`) says nothing of what was measured.
_EMPTY_WORDS = frozenset(
    (
        "a", "about", "above", "after", "again", "against", "all", "almost", "also", "am", "an",
        "and", "any", "approx", "are", "around", "as", "at", "be", "been", "before", "being",
        "below", "but", "by", "can", "could", "did", "do", "does", "done", "during", "each",
        "even", "ever", "for", "from", "get", "gets", "got", "had", "has", "have", "having",
        "here", "how", "i", "if", "in", "into", "is", "it", "its", "just", "like", "made", "make",
        "makes", "may", "me", "might", "more", "most", "much", "must", "my", "near", "nearly",
        "new", "now", "of", "off", "on", "once", "one", "only", "or", "other", "our", "out",
        "over", "own", "quite", "rather", "really", "roughly", "same", "saw", "see", "seen",
        "seeing", "seems", "she", "should", "so", "some", "still", "such", "than", "that", "the",
        "their", "them", "then", "there", "these", "they", "this", "those", "though", "through",
        "to", "too", "under", "until", "up", "us", "very", "was", "we", "were", "what", "when",
        "where", "which", "while", "who", "why", "will", "with", "within", "without", "would",
        "yet", "you", "your", "result", "results", "number", "numbers", "value", "values",
        "getting", "shows", "show", "showed", "shown", "measured", "noticed", "observed",
    )
)  # fmt: skip
_WORD_RX = re.compile(
    r"[A-Za-z][A-Za-z0-9_.-]*|[\u4e00-\u9fff]+|(?<![\d.])\d++(?:\.\d++)?(?:th|pct|percentile)\b"
)


def _n_words(text: str) -> int:
    """The words of `text`: its blank-separated ones, and Chinese, which writes no
    blank between its words, by two characters a word (`启动时间`: start-up time)."""
    return len(text.split()) + len(_CJK_CHARS.findall(text)) // 2


_CJK_CHARS = re.compile(r"[\u4e00-\u9fff]")


def _names_something(text: str) -> bool:
    """Whether `text` has a word that names something (not the `_EMPTY_WORDS`, 3+
    letters). (Whether, not which: the first such word answers, the rest is not read)"""
    for m in _WORD_RX.finditer(text):
        w = m.group()
        low = w.lower().strip(".-")
        if (
            w[0] >= "\u4e00"
            or w[0].isdigit()
            or (len(low) >= 3 and low not in _EMPTY_WORDS and unit_class(low) in ("word", "count"))
        ):
            return True
    return False


_NUMBER_START = re.compile(r"(?<![\w.])[-+~]?\d")
# (a row of an aligned list: a name, a run of blanks, a value; not `key: value`, which
# `_layout`'s data lines also are: a sentence that ends `down to 2:40` names its number)
# (a row's last cell: a value, or the dash a tool prints where it has none, `---`)
_ALIGNED_ROW = re.compile(
    r"\S(?:[ \t]{2,}|\t)(?:[-+~]?\d[\d.,]*+[ \t]*+[A-Za-zµ%/]{0,8}+\)?|-{1,3}|n/a)$"
)
# The values of a bracketed list before the number (`[141302, 141522, `)
_LIST_BODY = re.compile(r"(?:[ \t]*+[-+~]?\d[\d.eE+-]*+[ \t]*+[A-Za-z%/µ]{0,6}+[ \t]*+,)*+[ \t]*+")
_LIST_ITEM = re.compile(r"(?:[,;，；]|(?<!\S)-{1,3})[ \t]*+$")
# What a clause after a number says it was measured for (`28 s for the full scan`)
_FOR_WHAT = re.compile(r"(?:for|on|of|per|when|while|in|to|with|without)\b", re.I)
_AFTER_BREAK = re.compile(r"\s-{1,3}\s|[.!?;,]\s|[。；，！？]|\n|\(|\||[.!?]$")
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|[。！？]|\n\s*\n")


def _last_sentence_end(text: str) -> int:
    """Where the last sentence that ends in `text` ends, or -1."""
    end = -1
    for m in _SENTENCE_END.finditer(text):
        end = m.end()
    return end


# Words that set a value against another of the same thing (`120 MB/s (was 85 MB/s)`).
_COMPARED = frozenset(
    ("was", "vs", "vs.", "versus", "before", "from", "previously", "->", "→", "=>")
)


_STAT_NAME = re.compile(rf"(?i)(?:{STAT})")


def _line_record_name(before: str) -> str:
    """The name a line of values opens with, when only values and their units stand
    between it and the number (`fillrandom : 2.345 micros/op 426439 ops/sec`: the
    second value is fillrandom's too; `write: 120 MB/s (was 85 MB/s)`: the old value
    too; `master: 41,233 ops/s, mean 0.24 ms`: a statistic named before its value);
    '' when the line is no such record."""
    line = before[before.rfind("\n") + 1 :]
    k = min((i for i in (line.find(":"), line.find("=")) if i > 0), default=-1)
    if k < 0:
        return ""
    tokens = [t.strip(",;|") for t in line[k + 1 :].split()]
    if not tokens:
        return ""
    for i, token in enumerate(tokens):
        if not token or _NUMBERISH.match(token) or token.strip("()[]:").lower() in _COMPARED:
            continue
        if i > 0 and _NUMBERISH.match(tokens[i - 1]) and _UNIT_WORD.fullmatch(token):
            continue
        # (a word that names the value right after it: `mean 0.24 ms, 99th 1.12 ms`)
        if _STAT_NAME.fullmatch(token) and (
            i + 1 == len(tokens) or _NUMBERISH.match(tokens[i + 1])
        ):
            continue
        return ""
    name = _clean(line[:k])
    return name if 1 <= len(name.split()) <= 6 and _names_something(name) else ""


def _sentence_label(sample: str, n, before: str, after: str, previous: int) -> str:
    """The clause of a sentence that names what the number measured: the clause before
    it (up to the number before it in the same clause: `from 6 m down to 3 m` names
    both); with the words after it when that names nothing (`we saw 28 S for the full
    scan`); the sentence before when neither does (`I ran the codec benchmark. It was
    14149ms vs 3169ms`)."""
    starts = list(_CLAUSE_START.finditer(before))
    clause_at = starts[-1].end() if starts else 0
    first_number = previous - (n.start - len(before))
    if clause_at < first_number < len(before):
        clause = before[clause_at:first_number]
    else:
        clause = before[clause_at:]
    # (a number that starts an item of a list is named after it: `6234.1 records/sec,
    # 149.22 ms avg latency, 1276.00 ms max latency`)
    label = "" if _LIST_ITEM.search(before[-5:]) else _clean(clause)
    tail = _AFTER_BREAK.split(after, maxsplit=1)[0]
    if unit_class(n.unit) == "word":
        tail = f"{n.unit} {tail}"
    more = _clean(tail)
    # (the words after it, but not a run of other values: `0.39system 0:02.10elapsed`)
    if more and _names_something(more) and len(_NUMBER_START.findall(more)) < 2:
        if not _names_something(label):
            # (`149.22 ms avg latency`, `took 28 S for the full scan`: named after it)
            label = more if not label or _NUMBERISH.match(label) else f"{label} {more}"
        elif _n_words(label) < 2 or _FOR_WHAT.match(more):
            label = f"{label} {more}"
    if _names_something(label):
        return label
    lo = max(0, n.start - 400)
    window = sample[lo : n.start - len(before) + clause_at]
    ends = [m.end() for m in _SENTENCE_END.finditer(window)]
    # the subject of its own sentence, named before the sentence's first number (`Cold
    # start is ~7s with the cache enabled, and about 19s without it`)
    own = window[ends[-1] if ends else 0 :]
    if (first := _NUMBER_START.search(own)) is not None and "\n" not in own[: first.start()]:
        subject = _clean(_CLAUSE_START.split(own[: first.start()])[-1])
        if _names_something(subject) and len(subject.split()) <= 12:
            return f"{subject}: {label}".strip(": ") if label else subject
    # the sentence before the one the number stands in (what `it` refers to)
    if ends:
        this_start = ends[-1]
        prev_start = ends[-2] if len(ends) >= 2 else 0
        prev = window[prev_start:this_start]
        # (not a row of values above: `parse_large   301.7 ms` names its own number)
        pieces = [
            p
            for p in re.split(r"[,;:]\s|\n", prev)
            if _names_something(p) and not _ALIGNED_ROW.search(p.rstrip(" .!?。"))
        ]
        if pieces:
            named = " ".join(_clean(pieces[-1].strip(" .!?。")).split()[-12:])
            if named:
                return f"{named}: {label}".strip(": ") if label else named
    return label


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
        if time_word(n) or n.shape == "clock":
            unit = "s"  # (`5.36user`, `0:02.10elapsed`: seconds)
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


def name_vague_labels(sample: str, tables: list[ResultTable], cands: list[Candidate]) -> None:
    """A sentence's measurement whose label names nothing (`it was`, `with a`) is named
    as `describe` names a number: by the words after it, or the sentence before."""
    by_start = {c.number.start: c for c in cands}
    for t in tables:
        if t.format not in ("prose", "text"):
            continue
        previous = -1
        for m in t.measurements:
            c = by_start.get(m.span[0]) if m.span else None
            if c is not None and not _names_something(m.label or ""):
                label = describe(sample, c, previous)[0]
                if _names_something(label):
                    m.label = label
            previous = m.span[0] if m.span else previous


# A shell command above a tool's output (`$ wrk -t4 -c100 http://...`): it names the run.
_COMMAND_LINE = re.compile(r"[ \t]*+[$#>%][ \t]++(\S[^\n]{2,200})")
# (a line of values above a table is not its heading: `Warmup Iteration 5: 2.7 ns/op`)
_VALUE_IN_HEADING = re.compile(r"[:=][ \t]*+[-+~]?\d")
# (a name, then a blank before the value: not a port, `http://127.0.0.1:8080/`)
_VALUE_AFTER_NAME = re.compile(r"\w[ \t]*+[:=][ \t]++[-+~]?\d")
_GENERIC_FORMATS = frozenset(("text", "prose", "records", "json", "log-timing"))


def tell_runs_apart(sample: str, tables: list[ResultTable]) -> None:
    """Several runs of one tool in a message (three wrk runs, two redis-benchmark
    runs) whose measurements carry the same label, metric and variant are told apart
    in `variant`: by the heading above each run, else the command that started it,
    else its ordinal (`run 2`). Tables of sentences and records are left alone."""
    _name_sections(sample, [t for t in tables if t.format in _GENERIC_FORMATS])
    groups: dict[tuple, list] = {}
    for t in tables:
        if t.format in _GENERIC_FORMATS:
            continue
        for m in t.measurements:
            key = (t.format, m.label, m.metric, m.variant or t.variant)
            groups.setdefault(key, []).append((t, m))
    clashes = [g for g in groups.values() if len({id(t) for t, _ in g}) > 1]
    if not clashes:
        return
    runs: list[ResultTable] = []
    for g in clashes:
        for t, _ in g:
            if all(t is not r for r in runs):
                runs.append(t)
    runs.sort(key=lambda t: t.span)
    names = [_run_name(sample, t) for t in runs]
    if None in names or len(set(names)) < len(names):
        names = [f"run {k + 1}" for k in range(len(runs))]
    name_of = {id(t): name for t, name in zip(runs, names, strict=True)}
    for g in clashes:
        for t, m in g:
            base = m.variant or t.variant
            m.variant = f"{base}, {name_of[id(t)]}" if base else name_of[id(t)]


def _name_sections(sample: str, tables: list[ResultTable]) -> None:
    """The same quantity read twice from records, sentences or lines (one label, metric
    and variant), under different headings (`before the change:` ... `after:`): each is
    named by its section's heading; when those are the same (`--- create stats ---`
    under `before:` and under `after:`), by the headings above them. Left alone when
    no heading tells them apart."""
    groups: dict[tuple, list[Measurement]] = {}
    for t in tables:
        for m in t.measurements:
            if m.span:
                groups.setdefault((t.format, m.label, m.metric, m.variant), []).append(m)
    for group in groups.values():
        if len(group) < 2:
            continue
        group.sort(key=lambda m: m.span[0])
        # (a section's headings are looked for above it, not above the one before it)
        floors = [0] + [m.span[0] for m in group[:-1]]
        chains = [
            _section_headings(sample, m.span[0], floor)
            for m, floor in zip(group, floors, strict=True)
        ]
        for level in range(_LEVELS):
            names = [chain[level] if level < len(chain) else None for chain in chains]
            if None not in names and len(set(names)) == len(names):
                for m, name in zip(group, names, strict=True):
                    m.variant = f"{m.variant}, {name}" if m.variant else name
                break
            if None in names:
                break


_LEVELS = 2  # (a section's heading, and the one above it)


def _section_headings(sample: str, pos: int, floor: int = 0) -> list[str]:
    """The headings of the section `pos` stands in, nearest first: the lines above its
    line (30 at most, none before `floor`) that hold no digit and are short (`after:`,
    `Top frames before the change:`), past lines of numbers and blank lines; up to
    `_LEVELS`, and none after a long line without digits (a paragraph: the section
    ends there)."""
    out: list[str] = []
    end = sample.rfind("\n", 0, pos)
    for _ in range(30):
        if end < floor or len(out) == _LEVELS:
            break
        start = sample.rfind("\n", max(0, end - 200), end) + 1
        if start < floor:
            break
        line = sample[start:end].strip()
        if line and not DIGIT.search(line):
            name = _clean(line.rstrip(":：")) if len(line) <= 80 else None
            if not name:
                break
            out.append(name)
        end = start - 1
    return out


def _run_name(sample: str, t: ResultTable) -> str | None:
    """The heading above a table, else the command line just above it (3 lines)."""
    start = sample.rfind("\n", 0, t.span[0]) + 1
    heading = _heading(sample, start)
    if heading and not _VALUE_IN_HEADING.search(heading):
        return heading
    end = start
    for _ in range(3):
        if end <= 0:
            break
        above = sample.rfind("\n", max(0, end - 1000), end - 1) + 1
        m = _COMMAND_LINE.match(sample, above, end)
        # (`# Warmup Iteration 5: 2.7 ns/op`: a tool's comment line of values, no prompt)
        if m and not _VALUE_AFTER_NAME.search(m.group(1)):
            return m.group(1).strip()[:80]
        end = above
    return None
