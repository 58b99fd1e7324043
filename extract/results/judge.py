"""Which numbers of a message are measurements: every number a candidate, a fitted
model the judge.

`judge_numbers(sample, tables, noise, kind)` takes every number of the text the
readers saw (`extract.results.numbers`), links each to what the readers made of it
(the measurement a tool module or a table reader read from it, the table whose span
holds it, a noise recogniser's span), describes it by general features (its shape,
its unit, the words around it, its line, the message's kind) and scores it with a
logistic model fitted on annotated mail (`make fit`; the weights are plain data in
`number_weights.py`). The readers' knowledge enters as features, never as the only
way a number can be taken: a number in a log line, a `key=value`, a cut JSON
fragment or a sentence nobody wrote a reader for can still be found, and a number a
reader took (an iteration count, a setting) can still be turned down.

A feature is a name (`unit=time`, `reader=jmh`, `left=hedge`, `unit=time&left=took`);
a number's score is the logistic of the sum of its features' weights and the bias.
`explain` lists a number's features with their weights, largest first.
"""

from __future__ import annotations

import functools
import math
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from itertools import accumulate, chain, compress, repeat

from extract.results.formats import Measurement, ResultTable
from extract.results.formats._layout import EPOCH, TIME_NAME
from extract.results.formats.prose import RESULT_VERBS
from extract.results.numbers import Number, numbers
from extract.results.prefilter import lowered
from extract.results.units import to_si

# ---------------------------------------------------------------- what a number is

# At most this many numbers of a message are judged: a report has tens or hundreds (the
# corpora's most, 155); a message with more is a data dump, whose first numbers tell
# what it is. Judging and describing a number costs ~0.3 ms: 4,000 took 1.2-2.3 s, over
# the 2 s a message may take. (A reader's measurement past them is kept unjudged.)
MAX_NUMBERS = 2000


@dataclass(slots=True)
class Candidate:
    number: Number
    measurement: Measurement | None = None  # what a reader read from this number
    table: ResultTable | None = None  # that reader's table, or the table holding it
    noise: bool = False  # inside a noise recogniser's span (a CI report, a build log)
    features: list[str] = field(default_factory=list)
    score: float = 0.0  # the model's probability that it is a measurement
    taken: bool = False  # the score reaches the model's threshold
    # The same number described without the readers' work, and the blind model's score
    blind_features: list[str] = field(default_factory=list)
    blind_score: float = 0.0
    blind_taken: bool = False


# Formats that read any table or sentence (not a tool's own output).
GENERIC = {
    "jira-table": "table", "markdown-table": "table", "html-table": "table",
    "ascii-table": "table", "delimited": "table", "records": "records", "json": "json",
    "prose": "prose", "log-timing": "log",
}  # fmt: skip


def link(sample: str, tables: list[ResultTable], noise: list[ResultTable]) -> list[Candidate]:
    """Every number of `sample` with what the readers made of it."""
    cands = [Candidate(n) for n in numbers(sample, MAX_NUMBERS)]
    starts = [c.number.start for c in cands]

    def at(span: tuple[int, int]) -> list[Candidate]:
        lo = bisect_right(starts, span[0] - 1)
        lo = max(0, lo - 1)
        out = []
        for c in cands[lo:]:
            if c.number.start >= span[1]:
                break
            if c.number.end > span[0]:
                out.append(c)
        return out

    for t in noise:
        for c in at(t.span):
            c.noise = True
    for t in tables:
        for c in at(t.span):
            if c.table is None:
                c.table = t
        for m in t.measurements:
            if m.span is None:
                continue
            # (every number inside it: both ends of a range are the one measurement)
            for c in at(m.span):
                if c.measurement is None:
                    c.measurement, c.table = m, t
    return cands


# ---------------------------------------------------------------- features

_TIME_UNITS = {"s", "1/s", "B", "B/s", "1"}


@functools.lru_cache(maxsize=4096)  # (a message writes a few units many times)
def unit_class(unit: str) -> str:
    """time, rate, bytes, byterate, percent, factor, count, word or none."""
    if not unit:
        return "none"
    u = unit.strip()
    low = u.lower()
    if low in ("%", "percent", "pct", "‰"):
        return "percent"
    if low in ("x", "×", "times", "倍") or low.startswith("x") and low[1:] in ("faster", "slower"):
        return "factor"
    if u in ("秒", "毫秒", "微秒", "纳秒", "分钟", "小时"):
        return "time"
    si = to_si(1.0, u)[1]
    if si == "s":
        return "time"
    if si == "1/s" or low in ("cps", "gflops", "tflops", "iops", "qps", "tps", "rps", "hz"):
        return "rate"
    if si == "B":
        return "bytes"
    if si == "B/s":
        return "byterate"
    if low.rstrip("s") in _COUNT_WORDS:
        return "count"
    return "word"


# Words glued to a time as `time` and shells print it (`5.36user 0.50system
# 0:05.54elapsed`, `real 0m4.1s`): the kind of time, not a count of users.
_TIME_WORDS = frozenset(("user", "system", "sys", "elapsed", "real", "wall", "cpu"))


def time_word(n: Number) -> str | None:
    """The word of a time written glued to it (`5.36user`: user), else None."""
    if not n.unit:
        return None  # (most numbers)
    word = n.unit.lower()
    if word in _TIME_WORDS and n.unit_end - n.end == len(n.unit) and n.shape != "int":
        return word
    return None


_COUNT_WORDS = {
    "row", "record", "file", "test", "thread", "core", "node", "partition", "message",
    "request", "query", "item", "key", "iteration", "run", "time", "op", "operation",
    "event", "task", "job", "client", "connection", "region", "table", "column", "byte",
    "line", "page", "document", "doc", "entrie", "entry", "segment", "batch", "worker",
    "instance", "replica", "user", "host", "server", "cpu", "vcpu", "gb", "commit", "pr",
    "issue", "error", "failure", "sample", "round", "fork", "warmup", "step", "day",
    "week", "month", "year", "char", "character", "digit", "bit",
}  # fmt: skip

# Word families read in the windows around a number: its words (lower-cased ASCII
# tokens, `p99` included), words starting so (`improv` for improved, improvement),
# word pairs, CJK words, and what the window before it ends with.
_FAMILY_WORDS = {
    "took": "took take takes taking spent spend spends elapsed duration wall runtime",
    "time": "time times timing latency latencies lat lag response rt delay wait waits waiting",
    "rate": "throughput qps tps rps iops ops bandwidth speed rate rates",
    "change": "faster slower speedup better worse overhead",
    "stat": "avg average mean median max min percentile total score best worst",
    "compare": "vs versus compared from than before after baseline patch master with without"
    " old new",
    "hedge": "should would could goal might may must sla if timeout timeouts",
    # (verbs that report what a run did: `it reached 410 MB/s`, `shows 9000ms`)
    "result": " ".join(RESULT_VERBS),
    "setting": "thread threads client clients connection connections partition partitions"
    " size row rows record records iteration iterations warmup fork forks node nodes core"
    " cores cpu cpus vcpu vcpus instance instances replica replicas worker workers"
    " concurrency parallelism heap xmx ram memory disk machine machines server servers"
    " broker brokers region regions table tables column columns key keys user users count",
    "version": "version versions ver release releases jdk jvm",
    # (not `ci`: on the lists it is the build, `CI now needs 14m`, far more often than
    # an interval, which tools print in their own columns)
    "error": "stddev stdev std deviation sigma error err variance confidence margin",
    "id": "pr pull issue issues commit id pid tid port jira",
    "date": "jan feb mar apr may jun jul aug sep oct nov dec january february march april"
    " june july august september october november december mon tue wed thu fri sat sun",
    "code": "line",
}
_RESULTS = frozenset(RESULT_VERBS)
_WORD_FAMILIES: dict[str, list[str]] = {}
for _family, _words in _FAMILY_WORDS.items():
    for _w in _words.split():
        _WORD_FAMILIES.setdefault(_w, []).append(_family)
_PREFIXES = (
    ("change", ("improv", "regress", "reduc", "increas", "decreas", "drop", "gain", "sav",
                "boost", "degrad")),
    ("hedge", ("expect", "target", "assum", "estimat", "hope", "aim", "want", "need",
               "requir", "limit", "default", "configur", "setting", "threshold", "budget")),
    ("setting", ("batch",)),
)  # fmt: skip
_PAIRS = {
    ("run", "time"): "took", ("set", "to"): "hedge", ("at", "most"): "hedge",
    ("at", "least"): "hedge", ("up", "to"): "hedge", ("less", "than"): "hedge",
    ("more", "than"): "hedge", ("number", "of"): "setting", ("speed", "up"): "change",
    ("time", "out"): "hedge", ("warm", "up"): "setting",
}  # fmt: skip
_PAIR_FIRSTS = frozenset(first for first, _ in _PAIRS)
_CJK_WORDS = {
    "耗时": "took", "用时": "took", "吞吐": "rate", "提升": "change", "下降": "change",
    "降低": "change", "提高": "change", "年": "date", "月": "date", "日": "date",
    "延迟": "time", "时延": "time", "响应时间": "time", "速度": "rate", "速率": "rate",
}  # fmt: skip
# (a letter and its letters and digits, or a run of CJK: written as one class first, so
# that the search skips to the next token's start instead of trying each alternative)
_TOKEN = re.compile(
    r"([a-z\u4e00-\u9fff](?:(?<=[a-z])[a-z0-9]*|(?<=[\u4e00-\u9fff])[\u4e00-\u9fff]*))"
)
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
# What the window before a number ends with (after blanks).
_TAILS = (
    ("id", re.compile(r"#$")),
    ("hedge", re.compile(r"[<>]=?$")),
    # (a date, or a clock right after one: a timestamp)
    ("date", re.compile(r"(?:\d{4}[-/]\d\d[-/]|[-/]\d\d[-/]|\d{4}[-/]\d\d[-/]\d\d[ T]?)$")),
    # (a source file's line: `Foo.java:329`; a number glued to any other `word:` is a
    # `glued_key`, and `key: 12` is no code at all)
    ("code", re.compile(r"\.(?:java|scala|py|cc|cpp|h|go|rs|js|ts|rb|kt):$")),
    # (a product named right before the number: `JDK 17`, `Spark 3.5`, `kernel 5.10`;
    # hardware by its maker's line: `Xeon Platinum 8175M`, `EPYC 7763`, `RTX 3090`)
    (
        "version",
        re.compile(
            r"(?:^|[^a-z])(?:v|rc\d?|jdk|java|jre|python|scala|go|gcc|ubuntu"
            r"|centos|kernel|openjdk|hotspot|graalvm|spark|hadoop|linux|node"
            r"|xeon|platinum|gold|silver|bronze|epyc|ryzen|opteron|threadripper|graviton\d?"
            r"|rtx|gtx|radeon|tesla|snapdragon"
            r"|(?:upgrad(?:e|ed|ing)|bump(?:ed)?|versions?|releases?)(?: to| from| of)?"
            # (upgraded to, version: in Chinese)
            r"|升级(?:到|至)?|版本)$"
        ),
    ),
)
# The tails a window's last character allows: `#` ends an id, `<`/`>`/`=` a hedge, `:`
# a code line's file or a date's clock, `-`, `/`, `T` and digits a date, letters and
# digits a version.
_TAIL_ENDS = {
    "id": "#",
    "hedge": "<>=",
    "date": "-/T0123456789",
    "code": ":",
    "version": "abcdefghijklmnopqrstuvwxyz0123456789级到至本",
}
# The words a `version` tail ends with (its Latin ones; `rc` and `graviton` may have a
# digit after them, `to`, `from` and `of` end `upgraded to`...).
_VERSION_LASTS = frozenset((
    "v", "rc", "jdk", "java", "jre", "python", "scala", "go", "gcc", "ubuntu", "centos",
    "kernel", "openjdk", "hotspot", "graalvm", "spark", "hadoop", "linux", "node", "xeon",
    "platinum", "gold", "silver", "bronze", "epyc", "ryzen", "opteron", "threadripper",
    "graviton", "rtx", "gtx", "radeon", "tesla", "snapdragon", "upgrade", "upgraded",
    "upgrading", "bump", "bumped", "version", "versions", "release", "releases", "to", "from",
    "of",
))  # fmt: skip
_LATIN = "abcdefghijklmnopqrstuvwxyz"


def _may_be_version(tail: str) -> bool:
    """False when the `version` tail cannot match `tail`: a match ends with one of its
    words, after a non-letter, so the run of Latin letters `tail` ends with (before
    one digit: `rc1`, `graviton2`) is that word. (A set lookup, where the pattern is
    tried at each of its widest match's positions.)"""
    last = tail[-1]
    if last in _LATIN:
        return tail[len(tail.rstrip(_LATIN)) :] in _VERSION_LASTS
    if last in "0123456789":
        head = tail[:-1]
        return head[len(head.rstrip(_LATIN)) :] in ("rc", "graviton")
    return True  # (a Chinese word: the pattern says)


def _may_be_date(tail: str) -> bool:
    """False when the `date` tail cannot match `tail`: ending with a digit, it ends a
    date (`2024-01-15`: a `-` or `/` three characters from its end)."""
    return not tail[-1].isdigit() or tail[-3:-2] in ("-", "/")


_TAIL_MAY = {"version": _may_be_version, "date": _may_be_date}
# (each pattern reads the window's end: a match is at most its widest match long, so
# the search starts that far from the end, not at each of the window's 48 positions;
# `^` holds only at the window's real start, not where a search starts. A pattern is
# tried only where its `_TAIL_MAY` check, if any, allows it)
_TAILS_BY_END = {
    ch: tuple(
        (f, rx, re._parser.parse(rx.pattern, rx.flags).getwidth()[1], _TAIL_MAY.get(f))
        for f, rx in _TAILS
        if ch in _TAIL_ENDS[f]
    )
    for ch in set("".join(_TAIL_ENDS.values()))
}
_TAILS_ANY: tuple = ()
_RIGHT_WORDS = ("change", "compare", "hedge", "setting", "stat", "time", "rate")


def _word_families(word: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the families of a word, `("stat",)` when it is a `pN`, else ())."""
    if word[0] >= "\u4e00":
        return tuple(f for key, f in _CJK_WORDS.items() if key in word), ()
    fams = (*_WORD_FAMILIES.get(word, ()), *(f for f, pre in _PREFIXES if word.startswith(pre)))
    stat = len(word) >= 2 and word[0] == "p" and word[1:].isdigit()
    return fams, ("stat",) if stat else ()


# (a language's words repeat: looked up once each. Bounded, and words only, never a
# message's text: a token is cut at 1000 characters with the sample's long runs)
@functools.lru_cache(maxsize=4096)
def _word_adds(word: str) -> tuple[str, ...]:
    """What a word adds to a window: its families, then `stat`."""
    fams, stat = _word_families(word)
    return fams + stat


class _Words:
    """The words of one line (`text[start:end]`) and the families in any window of it
    (positions in `text`). (The judge reads the words of the lines that hold numbers
    only: most of a message's text is never looked at. No token crosses a line break,
    so a line's tokens are the text's.)"""

    def __init__(self, text: str, start: int = 0, end: int | None = None):
        line = text[start:end]
        # (an ASCII line's lower() is its ASCII lower case, 4x faster than translate)
        low = line.lower() if line.isascii() else line.translate(_ASCII_LOWER)
        self.low = low
        self.offset = start
        # (whether any window of it can hold an arrow or a diff's `@@`: most lines
        # hold neither, and their windows are not searched for them)
        self.marks = "->" in low or "→" in low or "=>" in low or "@@" in low
        # (split at the tokens, `_TOKEN` a group: the line is the gap before each token,
        # the token, ... and the gap after the last, so that the running sum of their
        # lengths is each token's start and end: no Python step a match)
        parts = _TOKEN.split(low)
        at = list(accumulate(map(len, parts), initial=start))
        self.starts = at[1::2]
        self.ends = at[2::2]
        words = parts[1::2]
        # What each token adds to a window: `alone` when it is the window's first
        # token, `paired` when the token before it is in the window too (the family
        # of the pair they make, `run time`, after its own): made once a token, so
        # that a window's families are a walk over a slice of these.
        self.alone = list(map(_word_adds, words))
        self.paired = self.alone  # (copied before a pair changes it)
        # (a line none of whose words is of a family, as a table's row of numbers: no
        # window of it holds one)
        self.silent = not any(self.alone)
        if _PAIR_FIRSTS.isdisjoint(words):
            return  # (most lines: no word that starts a pair)
        pairs = list(map(_PAIRS.get, zip(["", *words], words, strict=False)))
        self.paired = self.alone.copy()
        for k, pair in enumerate(pairs):
            if pair == "hedge" and k >= 2 and words[k - 1] == "up" and words[k - 2] in _RESULTS:
                pair = None  # (`reached up to 410 MB/s`: what a run reached, no bound)
            if pair is not None:  # (rare: the token's own, then the pair's, then `stat`)
                fams, stat = _word_families(words[k])
                self.paired[k] = fams + (pair,) + stat
                self.silent = False

    def families(self, lo: int, hi: int, *, tails: bool = False) -> tuple[str, ...]:
        # (tokens do not overlap: their ends are sorted too, and the tokens the window
        # holds whole are the range found by two bisections)
        out: dict[str, None] = {}
        first, last = 0, 0
        if not self.silent:
            first = bisect_right(self.starts, lo - 1)
            last = bisect_right(self.ends, hi)
        if first < last:
            # (the first token's families, then the others' with their pairs', each
            # family once, where it first comes: one dict made in C)
            out = dict.fromkeys(
                chain(self.alone[first], chain.from_iterable(self.paired[first + 1 : last]))
            )
        if not (self.marks or tails):
            return tuple(out)
        # (a window is within the line: lo and hi are at or after its start)
        window = self.low[lo - self.offset : hi - self.offset]
        if self.marks:
            if "->" in window or "→" in window or "=>" in window:
                out["compare"] = None
            if "@@" in window:
                out["code"] = None
        if tails:
            tail = window.rstrip(" \t")
            # (each pattern reads the window's end: only those its last character allows)
            for family, rx, widest, may in _TAILS_BY_END.get(tail[-1:], _TAILS_ANY):
                if (may is None or may(tail)) and rx.search(tail, max(0, len(tail) - widest)):
                    out[family] = None
        return tuple(out)


# (possessive blanks and words: a line of blanks is read once, never backtracked)
_LOG_LINE = re.compile(
    r"^[ \t]*+(?:\[?\d{4}[-/]\d\d[-/]\d\d[ T]\d|\[?\d\d:\d\d:\d\d|[IWEF]\d{4} \d\d:"
    r"|\S*+[ \t]*+(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL)\b)"
)
_STACK_LINE = re.compile(r"^[ \t]*+(?:at [\w$.<>]++\(|Caused by:|\.\.\. \d++ more)")
_BULLET = re.compile(r"^[ \t]*+(?:[-*•+]|\d{1,2}[.)])\s")
# (a code line ends with `;`, `{` or `}`, or starts with one of these words)
_CODE_START = re.compile(r"[ \t]*+(?:import|public|private|def|return|for|if)\b")
_CLI_LINE = re.compile(
    r"^[ \t]*+(?:[$#>][ \t]*+)?(?:\./|bin/|mvn|java|python|sudo|cd|export|docker)\b"
)
# A run of key characters: letters and digits (`\w` is `str.isalnum` and `_`) and
# blanks and `.()/%-_`.
_KEY_RUN = re.compile(r"[\w .()/%-]*")


# A value with its unit, as a word: a decimal (`12.4ms`, `3.5`) or a count of a unit of
# time, size or share (`10ms`, `4GB`, `50%`); not a key's own start (`95pct`, `99th`).
_VALUE_WORD = re.compile(
    r"\d[\d,]*\.\d+[A-Za-zµ%/]*|\d+(?:ns|us|µs|ms|s|min|h|%|[kKMGT]i?B|x)", re.I
)


def key_before(window: str, reach: int = 48) -> str | None:
    """The key of a `key: number` or `key=number` that `window` ends with (the number
    left out): the words before the `:` or `=` (letters, digits, blanks and `.()/%-_`;
    at most `reach` characters, starting with a letter), or None. (A walk back from the
    end, not a regex: a regex searching for it tries every position of the window.)"""
    tail = window.rstrip(" \t\"'")
    if not tail or tail[-1] not in ":=：":
        return None
    head = tail[:-1].rstrip(" \t")
    # (the run of key characters `head` ends with, at most `reach` long: matched from
    # the start of its last `reach` characters reversed, in C, not a character a step)
    window = head[max(0, len(head) - reach) :] if reach > 0 else ""
    k = len(head) - _KEY_RUN.match(window[::-1]).end()
    words = head[k:].split()
    # (a key ends at a separator, `med: 6.4 - 95pct:`, `Producer - Throughput:`, or at a
    # sentence's last value, `in 45,678ms. Read Throughput =`)
    for i in range(len(words) - 2, -1, -1):
        w = words[i]
        if (
            not any(ch.isalnum() for ch in w)
            or (w.endswith(".") and any(ch.isdigit() for ch in w) and words[i + 1][:1].isupper())
            # (the value of the pair before: `avg=12.4ms p50=`)
            or (w[:1].isdigit() and _VALUE_WORD.fullmatch(w))
        ):
            words = words[i + 1 :]
            break
    key = " ".join(words)
    # (a key starts with a letter, or with a number glued to letters: `95pct`, `99th`)
    while key and not (key[0].isalnum() or key[0] == "_"):
        key = key[1:]
    while key[:1].isdigit() and not any(ch.isalpha() for ch in key.split(" ", 1)[0]):
        key = key.split(" ", 1)[1].lstrip(" .()/%-") if " " in key else ""
    return key.strip() or None


_JSON_KEY = re.compile(r"\"([^\"]{1,60})\"\s*:\s*$")
_TOKEN_AFTER = re.compile(r"\S*")  # (matched at a position: no `^`, no slice)
# A stated error before a number: `± 2.4`, `+- 2.4`, `+/- 2.4`, JMH's `?(99.9%) 2.4`.
_PLUS_MINUS = re.compile(r"(?:±|\+-|\+/-|\(99\.9%\)|σ)\s*$")
# (HTML's block opens with `<pre` and closes with `</pre`: both are fences, as a
# markdown fence's two ``` are, so that the lines after the block are outside it)
_FENCE = re.compile(r"^[ \t]*+(?:```|~~~|\{code|\{noformat|</?pre(?=[\s>]))", re.M)
# (one of which each fence holds: a text without any has none, and is not searched
# for them line start by line start)
_FENCE_MARKS = ("```", "~~~", "{code", "{noformat", "<pre")


def features(
    sample: str,
    cands: list[Candidate],
    *,
    kind: str | None = None,
    message: tuple[str, ...] = (),
    blind: bool = False,
) -> None:
    """Fill each candidate's `features` (see the module docstring), and with `blind`
    its `blind_features` (as if no reader had read the message). `message` are
    message-level features every number shares (`msg=ci`, ...)."""
    # (each line is looked at once, however many numbers it holds: a 100 kB line of
    # numbers must cost linear time. Only the lines that hold numbers are found, from
    # the breaks around their first number: a long message with a few numbers is not
    # split whole)
    lines: dict[int, _Line] = {}
    on_line: list[_Line] = []  # (each candidate's)
    line = None
    for c in cands:
        start = c.number.start
        if line is None or not line.start <= start < line.end:
            ls = sample.rfind("\n", 0, start) + 1
            line = lines.get(ls)
            if line is None:
                le = sample.find("\n", start)
                le = len(sample) if le < 0 else le
                text = sample[ls:le]
                line = lines[ls] = _Line(
                    ls, le, _line_features(text), "(" in text or "[" in text, "<" in text
                )
        line.count += 1
        on_line.append(line)
    fenced = any(map(sample.__contains__, _FENCE_MARKS))
    fences = [m.start() for m in _FENCE.finditer(sample)] if fenced else []
    for line in lines.values():
        line.finish(sample, fences)
    # (what every number of the message ends with: made once)
    tail = [f"kind={kind}"] if kind else []
    tail += message
    prev_end = 0
    words = last = None
    for c, line in zip(cands, on_line, strict=True):
        if line is not last:
            words, last = line.words(sample), line
        c.features, view = _features_of(sample, c, line, words, tail, blind, prev_end)
        if view is not None:
            c.blind_features = view
        prev_end = c.number.unit_end
    _pair_units(sample, cands)
    _siblings(sample, cands, on_line)


# A line's shape with its numbers masked (`#,#.# msec task-clock  # #.# CPUs`): lines of
# one tool's output, or of one list, share it. (Only this much of a line is compared.)
_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")
_SHAPE_CHARS = 200


def _siblings(sample: str, cands: list[Candidate], on_line: list[_Line]) -> None:
    """A number no reader read, whose sibling a reader did read: on the same line in
    the same kind of unit (`sibling=line`: `Before: 123 MB/s, After: 171 MB/s`), or at
    the same place of a line of the same shape (`sibling=shape`: the second of two
    `perf stat` lines). Readers miss parts of what they know; what they read of a
    structure says what its other parts are. `on_line`: each candidate's line."""
    if not any(c.measurement is not None for c in cands):
        return
    by_line: dict[int, list[Candidate]] = {}
    for c, line in zip(cands, on_line, strict=True):
        by_line.setdefault(line.start, []).append(c)

    def shape_of(ls: int) -> str:
        # (of the line's head only: a long line costs no more than a short one)
        end = sample.find("\n", ls, ls + 2 * _SHAPE_CHARS)
        head = sample[ls : end if end >= 0 else ls + 2 * _SHAPE_CHARS]
        return _DIGITS.sub("#", head).strip()[:_SHAPE_CHARS]

    read_at = set()
    for ls, on_line in by_line.items():
        if any(c.measurement is not None for c in on_line):
            shape = shape_of(ls)
            read_at.update((shape, k) for k, c in enumerate(on_line) if c.measurement is not None)
    for ls, on_line in by_line.items():
        read = [c for c in on_line if c.measurement is not None]
        units = {unit_class(c.number.unit) for c in read} - {"none", "word", "count"}
        # (the shape of a line none of whose numbers was read)
        shape = None if read else shape_of(ls)
        for k, c in enumerate(on_line):
            if c.measurement is not None:
                continue
            if units and unit_class(c.number.unit) in units:
                c.features.append("sibling=line")
            if shape is not None and (shape, k) in read_at:
                c.features.append("sibling=shape")


# Words that set two numbers against each other (`12 to 9`, `14 minutes instead of 25`).
_PAIRING = re.compile(
    r"^[\s,;(]*(?:to|vs\.?|versus|->|→|=>|instead of|compared to|compared with|than|from"
    r"|down to|up to|up from|down from|and|or|/)[\s(]*(?:about|~|≈|around)?[\s]*$",
    re.I,
)


def _pair_units(sample: str, cands: list[Candidate]) -> None:
    """Two numbers set against each other (`0:50 min -> 4:40 min`, `from 412 to
    236 s`) are `paired`; one written without a unit, set against a neighbour that has
    one (`14 minutes instead of 25`), is in that unit's kind: `paired_unit=<kind>`."""
    for a, b in zip(cands, cands[1:], strict=False):
        if b.number.start - a.number.unit_end > 24:
            continue  # (not read: too far apart)
        gap = sample[a.number.unit_end : b.number.start]
        if len(gap) > 24 or "\n" in gap or not _PAIRING.match(gap):
            continue
        ua, ub = unit_class(a.number.unit), unit_class(b.number.unit)
        added_a, added_b = [], []
        if ua == ub or "none" in (ua, ub):
            # (the two sides of one comparison: `0:50 min -> 4:40 min`)
            added_a.append("paired")
            added_b.append("paired")
        if ua == "none" and ub not in ("none", "word", "count"):
            added_a.append(f"paired_unit={ub}")
        elif ub == "none" and ua not in ("none", "word", "count"):
            added_b.append(f"paired_unit={ua}")
        # (the numbers' own: the same whatever read them)
        for c, added in ((a, added_a), (b, added_b)):
            c.features += added
            if c.blind_features:
                c.blind_features += added


@dataclass(slots=True)
class _Line:
    start: int
    end: int
    features: list[str]
    # (whether it holds an opening bracket, a `<`: a number's group or tag is looked
    # for on the lines that do)
    brackets: bool
    angles: bool
    count: int = 0  # numbers on it
    # (set by `finish`, once its numbers are counted)
    head: list[str] = field(default_factory=list)  # `line_nums` and its features
    ordinal_reach: int = -1  # a bullet's number stands within this of its start
    tabular: bool = False  # its numbers' columns are looked up
    fenced: bool = False  # inside a code fence
    header: tuple | None | bool = False  # `_line_header`, once looked up (False: not yet)
    _words: _Words | None = None  # its words, once a window on it is read
    bounds: _Bounds | None = None  # its cells' bounds, once its header is looked up

    def finish(self, sample: str, fences: list[int]) -> None:
        """What it says of each of its numbers, made once its numbers are counted.
        `fences`: where the message's fences start, in order."""
        k = self.count
        self.head = [
            "line_nums=" + ("1" if k == 1 else "2" if k == 2 else "3-5" if k <= 5 else "6+"),
            *self.features,
        ]
        if "line=bullet" in self.features:
            lead = sample[self.start : self.start + 48]
            self.ordinal_reach = len(lead) - len(lead.lstrip()) + 3
        self.tabular = k >= 2 and self.end - self.start <= 400
        # (a fence starts a line: the fences before each number of a line are those
        # before the line)
        self.fenced = bisect_right(fences, self.start) % 2 == 1

    def words(self, sample: str) -> _Words:
        if self._words is None:
            self._words = _Words(sample, self.start, self.end)
        return self._words

    def columns(self, sample: str, col: int, width: int) -> list[str]:
        if self.header is False:
            self.header = _line_header(sample, self.start)
            if self.header is not None:
                self.bounds = _Bounds(self.header)
        return _column_features(self.header, col, width, self.bounds)


def _line_features(line: str) -> list[str]:
    """What a line is, whichever of its numbers is looked at."""
    f = []
    if len(line) > 400:
        f.append("long_line")
    lead = line[:48]
    if _LOG_LINE.match(lead):
        f.append("line=log")
    if _STACK_LINE.match(lead):
        f.append("line=stack")
    if line.lstrip().startswith(">"):
        f.append("line=quote")
    if _BULLET.match(lead):
        f.append("line=bullet")
    if line.count("|") >= 2 or line.count("\t") >= 2:
        f.append("line=table")
    if line.rstrip(" \t").endswith((";", "{", "}")) or _CODE_START.match(line):
        f.append("line=code")
    if _CLI_LINE.match(lead):
        f.append("line=cli")
    if '":' in line:
        f.append("line=json")
    if "<" in line and ">" in line and "</" in line:
        f.append("line=markup")
    # (`16 vCPU, 128 GiB, gp3 volumes with 3000 IOPS`: a machine; not a long line, which
    # may be a whole mail flattened, its results beside its machine)
    # (the words as written, lower-cased: `ſsd` is not `ssd`)
    if len(line) <= 400:
        if line.isascii():  # (most lines: lowered as written, each match its word)
            spec = set(_SPEC_WORD.findall(line.lower()))
        else:
            spec = {line[m.start() : m.end()].lower() for m in _SPEC_WORD.finditer(lowered(line))}
        if len(spec) >= 2:
            f.append("line=spec")
    return f


# The words of a machine's description: its processors, memory, disks, network, system.
# (searched in the line lower-cased, `prefilter.lowered`, led by the characters its
# words start with: a position none starts at is turned away in one step)
_SPEC_WORD = re.compile(
    r"(?=[ceghijkmnorsuvx])\b(?:v?cpus?|vcores?|cores|sockets|ram|nvme|ssds?|hdds?|gp[23]|gbps"
    r"|gbit|xeon|epyc|ryzen|graviton\d?|[cmrix]\d[a-z]{0,2}\.\d{0,2}x?large|jdk|openjdk|ubuntu"
    r"|centos|kernel)\b"
)


# (led by the class every split starts with: a position inside a cell's text is
# turned away in one step, not once an alternative)
_CELL_SPLIT = re.compile(r"((?=[\s|│┃])(?:\s*\|\s*|\t+|\s{2,}|\s*[│┃]\s*))")
_COLUMN_WORDS = (
    ("error", re.compile(r"error|stddev|std ?dev|stdev|σ|±|\bci\b|p-?value|deviation", re.I)),
    ("count", re.compile(r"\b(?:cnt|count|samples?|iterations?|iters?|n|runs?|rounds?"
                         r"|forks?|threads?|clients?|#|size|rows|records|partitions?|limit"
                         r"|quota|concurrency|parallelism|workers?)\b|限制|数量|个数|并发|线程",
                         re.I)),
    ("perf", re.compile(r"time|latency|throughput|ops|qps|tps|score|mean|avg|average|median|cpu"
                        r"|p\d\d|max|min|rate|speed|elapsed|duration|bandwidth|/s\b|per sec"
                        r"|\b(?:ms|us|µs|ns|sec|secs|s)\b|\((?:ms|us|µs|ns|s|sec)\)|diff|change"
                        r"|delta|improvement|speedup|relative|before|after|baseline|%", re.I)),
    ("name", re.compile(r"name|benchmark|query|test|case|task|workload|operation", re.I)),
)  # fmt: skip


def table_cells(line: str) -> list[tuple[int, str]]:
    """(start, text) of each cell of a table-like line (split at bars, tabs, 2+ blanks)."""
    # (split, `_CELL_SPLIT` a group: cell, split, cell, ...; a part's start is the
    # running sum of the lengths before it, and the empty cells are left out)
    parts = _CELL_SPLIT.split(line)
    cells = parts[::2]
    starts = list(accumulate(map(len, parts), initial=0))[::2]
    return list(compress(zip(starts, cells, strict=True), cells))


# (a table's rows are split as rows, then again as the header candidates of the rows
# below them: each line's cells are made once. Emptied with `forget_lines`)
@functools.lru_cache(maxsize=1024)
def _line_cells(line: str) -> tuple[tuple[int, str], ...]:
    """`table_cells(line)`, shared: not to be changed."""
    return tuple(table_cells(line))


@dataclass(slots=True)
class Column:
    """Where a number stands in a table-like line: the header cell above its column
    (None when no line above reads as a header; empty when its cell is), the row's
    label (its first cell, when that is not a number) and whether its cell holds
    little but the number."""

    header: str | None
    row_label: str
    index: int
    bare: bool
    between: str = ""  # the words of the cells between the row label and the number


def column_of(sample: str, ls: int, col: int, width: int) -> Column | None:
    """The column of the number at `col` (of `width` characters) on the line starting
    at `ls`, or None when the line is not table-like (see `_line_header`)."""
    return _column(_line_header(sample, ls), col, width)


def forget_lines() -> None:
    """Empty the cache of one message's lines (`extract.results.message`)."""
    _line_header.cache_clear()
    _header_cells.cache_clear()
    _line_cells.cache_clear()


@functools.lru_cache(maxsize=1024)  # (describe asks once a number, of a line of many)
def _line_header(sample: str, ls: int) -> tuple | None:
    """A table-like line's cells, the cells of the header above it and whether its
    cells are aligned by blanks (not bars or commas). The header is the nearest of
    the 6 lines above that reads as one (words, at most one number); None when none
    does, or when one does not fit the bars' or commas' cells. None for the whole
    when the line has fewer than two cells. (Once per line, whatever its numbers.)"""
    le = sample.find("\n", ls)
    line = sample[ls : len(sample) if le < 0 else le]
    barred = line.count("|") >= 2 or "│" in line
    cells = _line_cells(line)
    comma = False
    if len(cells) < 2 and line.count(",") >= 2:
        cells, comma = comma_cells(line), True
    if len(cells) < 2:
        return None
    aligned = not (barred or comma)
    end = ls - 1
    for _ in range(6):
        if end <= 0:
            break
        start = sample.rfind("\n", 0, end) + 1
        head = _header_cells(sample[start:end], comma)
        end = start - 1
        if head is None:
            continue
        if not aligned:
            if len(head) == len(cells) - 1:  # (no name above the row labels)
                head = [(0, ""), *head]
            if len(head) != len(cells):
                head = None
        return cells, head, aligned
    return cells, None, aligned


_RULE_CHARS = frozenset("-=+|:_ ─━┼┿╋")


# (the rows of a table look up through the same lines, up to 6 each: a line's reading
# as a header is made once, keyed by its text; emptied with `forget_lines`)
@functools.lru_cache(maxsize=1024)
def _header_cells(above: str, comma: bool) -> tuple[tuple[int, str], ...] | None:
    """The cells of a line above a table-like line when it reads as a header (words,
    at most one number; cut at commas when the row is), else None."""
    bare = above.strip()
    if not bare or set(bare) <= _RULE_CHARS:
        return None
    head = comma_cells(above, header=True) if comma else _line_cells(above)
    if sum(text[:1].isdigit() for _, text in head) > 1 or len(head) < 2:
        return None
    if comma and any(NUMBER_CELL.fullmatch(text) for _, text in head):
        return None  # (a row like this one: `[READ], Count, 81` has no header)
    return tuple(head)  # (shared by the rows below it: not to be changed)


def _column(header: tuple | None, col: int, width: int) -> Column | None:
    """The column of the number at `col` (of `width` characters) of a line whose
    `_line_header` is `header` (see `_column_place`)."""
    place = _column_place(header, col, width)
    if place is None:
        return None
    index, row_label, head_text = place
    cells = header[0]
    words = [t.strip(" *`") for _, t in cells[1:index] if not NUMBER_CELL.fullmatch(t.strip())]
    between = " ".join(words) if row_label and len(words) == index - 1 else ""
    at, cell = cells[index]
    rest = cell[: col - at] + cell[col - at + width :]
    bare = len(cell) <= 60 and sum(ch.isalpha() for ch in rest) <= 6
    return Column(head_text, row_label, index, bare, between)


def _column_place(
    header: tuple | None, col: int, width: int, bounds: _Bounds | None = None
) -> tuple | None:
    """(the index of its cell, the row's label, the header cell's text or None) of the
    number at `col` (of `width` characters) of a line whose `_line_header` is `header`
    (bar and comma tables: the header cell of the same index; aligned columns: the
    header cell that overlaps the number most, else the one whose end is nearest
    its end). All the judge asks of a column: what else `Column` says costs a
    pattern a cell, once a number. `bounds`: `_Bounds(header)`, when the caller
    keeps it for the line's other numbers."""
    if header is None:
        return None
    if bounds is None:
        bounds = _Bounds(header)
    cells = _cells_of(header, col, width, bounds)
    if cells is None:
        return None
    index, at = cells
    row_label = bounds.label if index > 0 else ""
    return index, row_label, None if at is None else header[1][at][1].strip(" *`")


def _cells_of(header: tuple, col: int, width: int, bounds: _Bounds) -> tuple | None:
    """(the index of the cell holding the number at `col`, of `width` characters, the
    index of its header cell or None; see `_column_place`), or None when no cell
    holds it."""
    cells, head, aligned = header
    # (the cells are in order and do not overlap: the one holding `col` is the last
    # that starts at or before it, if it reaches it. Found by bisection: a line of
    # many numbers asks once a number)
    index = bisect_right(bounds.cell_starts, col) - 1
    if index < 0 or col >= cells[index][0] + len(cells[index][1]):
        return None
    if head is None:
        return index, None
    if not aligned:
        return index, index
    return index, _nearest_cell(bounds.head_starts, bounds.head_ends, col, col + width)


class _Bounds:
    """Where a `_line_header`'s cells start, and where its header's cells start and
    end: made once a line, for the bisections of each of its numbers; and the row's
    label (its first cell, when that is not a number), for the numbers after it."""

    __slots__ = ("cell_starts", "head_starts", "head_ends", "label", "features")

    def __init__(self, header: tuple):
        cells, head, _ = header
        # (`_column_features` by the cells a number is in: a column's numbers share them)
        self.features: dict[tuple, tuple[str, ...]] = {}
        self.cell_starts = [at for at, _ in cells]
        first = cells[0][1].strip(" *`")
        self.label = first if first[:1] and not first[:1].isdigit() else ""
        self.head_starts = [at for at, _ in head] if head else []
        self.head_ends = [at + len(text) for at, text in head] if head else []


def _nearest_cell(starts: list[int], ends: list[int], lo: int, hi: int) -> int:
    """The index of the cell (`starts`, `ends`: in order, not overlapping, none empty)
    that overlaps `[lo, hi)` most, the one whose end is nearest `hi` on a tie; when
    none overlaps it, the one whose end is nearest `hi` (the first of two as near).
    (The first cell that minimises (-overlap, |end - hi|), found by bisection: the
    cells that overlap it are a range, and without one the nearest end is one of the
    two around `hi`.)"""
    first = bisect_right(ends, lo)  # (the first that ends after lo)
    last = bisect_left(starts, hi)  # (those before it start before hi)
    if first < last:  # (each of these overlaps it by at least one character)
        best, best_key = first, None
        for i in range(first, last):
            key = (max(lo, starts[i]) - min(hi, ends[i]), abs(ends[i] - hi))
            if best_key is None or key < best_key:
                best, best_key = i, key
        return best
    j = bisect_left(ends, hi)
    if j == len(ends) or j > 0 and hi - ends[j - 1] <= ends[j] - hi:
        return j - 1
    return j


def comma_cells(line: str, *, header: bool = False) -> list[tuple[int, str]]:
    """The cells of a comma-separated line whose cells are short and, for a row (not
    a `header`), mostly numbers, or three or more ending with one (`[READ], Count,
    81`): a CSV line, not a sentence; else none."""
    out, pos, numeric = [], 0, 0
    for part in line.split(","):
        text = part.strip()
        if not text or len(text) > 40:
            return []
        out.append((pos + part.index(text[0]), text))
        numeric += NUMBER_CELL.fullmatch(text) is not None
        pos += len(part) + 1
    last = NUMBER_CELL.fullmatch(out[-1][1]) is not None
    if not header and not (numeric >= 2 and 2 * numeric >= len(out) or last and len(out) >= 3):
        return []
    return out


NUMBER_CELL = re.compile(r"[-+~]?\d[\d.]*(?:[eE][-+]?\d+)?[ \t]?[A-Za-zµμ%/]{0,8}")


def _column_features(
    header: tuple | None, col: int, width: int, bounds: _Bounds | None
) -> tuple[str, ...]:
    """What the header above a table-like line says of the number's column
    (`_column_place`): `column=<kind>`, and `row_label` when the row starts with a name.
    (Made once for each cell and header cell of the line: `bounds.features`.)"""
    if header is None:
        return ()
    if bounds is None:
        bounds = _Bounds(header)
    cells = _cells_of(header, col, width, bounds)
    if cells is None:
        return ()
    out = bounds.features.get(cells)
    if out is None:
        index, at = cells
        out = ("row_label",) if index > 0 and bounds.label else ()
        if at is not None:
            out += _column_kind(header[1][at][1].strip(" *`"))
        bounds.features[cells] = out
    return out


@functools.lru_cache(maxsize=1024)
def _column_kind(text: str) -> tuple[str, ...]:
    """`column=<kind>` of a header cell, and `header=hedge` when its words say what is
    wanted, set or bounded, not measured (`Target rate`, `current default`, `limit`).
    (A table's cells repeat: asked once each.)"""
    kind = next((f"column={n}" for n, rx in _COLUMN_WORDS if rx.search(text)), "column=other")
    words = _TOKEN.findall(text.translate(_ASCII_LOWER))
    return (kind, "header=hedge") if any("hedge" in _word_adds(w) for w in words) else (kind,)


_DATE_TOKEN = re.compile(r"(?<!\d)(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}/\d{1,2}/\d{2,4})(?!\d)")
# (full-width marks end a clause with no blank after them: Chinese puts none)
_CLAUSE_END = re.compile(r"[,;.!?，；。](?:\s|$)|[。！？]")
_SENTENCE_END = re.compile(r"[;.!?；。](?:\s|$)")
_AS_KEY = re.compile(r"[ \t]*+[:=][ \t]*+[-+~]?\d")
_AS_KEY_FIRSTS = frozenset(" \t:=")
_EPOCH_LENGTHS = (10, 13)
_HEX_LETTERS = re.compile(r"[a-fA-F]+")
_NUMBER_IN_GROUP = re.compile(r"(?<![\w.])[-+]?\d+(?:[.,]\d+)?")


def _group_features(sample: str, ls: int, le: int, n: Number) -> list[str]:
    """Where a number stands among the numbers of the brackets that hold it (on its
    line, 80 characters each way): `group=first|mid|last` and `group_n=2|3+`, when the
    brackets hold two or more (`[1.23 ms 1.25 ms 1.27 ms]`: an estimate and its bounds;
    `( -21% - -2%)`: an interval; `(456/456)`: progress)."""
    lo = max(ls, n.start - 80)
    o = max(sample.rfind("(", lo, n.start), sample.rfind("[", lo, n.start))
    if o < 0 or max(sample.rfind(")", o, n.start), sample.rfind("]", o, n.start)) >= 0:
        return []
    hi = min(le, n.unit_end + 80)
    closers = [
        k for k in (sample.find(")", n.unit_end, hi), sample.find("]", n.unit_end, hi)) if k >= 0
    ]
    if not closers:
        return []
    close = min(closers)
    if max(sample.rfind("(", n.unit_end, close), sample.rfind("[", n.unit_end, close)) >= 0:
        return []
    before = len(_NUMBER_IN_GROUP.findall(sample, o + 1, n.start))
    after = len(_NUMBER_IN_GROUP.findall(sample, n.unit_end, close))
    if before + after == 0:
        return []
    # (numbers and their units, not words: `(6k/ms before goes to 35k/ms)` is a clause)
    letters = sum(map(str.isalpha, sample[o + 1 : close]))
    if letters > 3 * (before + after + 1):
        return []
    pos = "first" if before == 0 else "last" if after == 0 else "mid"
    return [f"group={pos}", "group_n=" + ("2" if before + after == 1 else "3+")]


def _digits_bucket(written: str, shape: str, magnitude: str, value: float) -> str:
    """`digits=<bucket>`: how many digits the integer part of a number has."""
    if shape == "int" and not magnitude:
        # (most numbers: written as digits and a sign at most)
        d = len(written) - (written[0] in "+-−")
    elif shape == "grouped" and not magnitude:
        # (its integer part is all its groups: `12,345.67` has five digits)
        d = len(str(int(abs(value))))
    else:
        head = written.lstrip("+-−~").split(".")[0].split(",")[0]
        d = sum(map(str.isdigit, head))
    return (
        "digits=1" if d <= 1 else "digits=2" if d == 2 else "digits=3-4" if d <= 4 else "digits=5+"
    )


_SHAPE_NAMES = {
    shape: f"shape={shape}"
    for shape in ("int", "decimal", "grouped", "exponent", "clock", "duration")
}


def _features_of(
    sample, c: Candidate, line: _Line, words, tail: list[str], blind: bool, prev_end: int
) -> tuple[list[str], list[str] | None]:
    """The number's features, and (`blind`) the same number's as a message no reader
    read would give them (what the readers made of it left out): the context is
    described once for both. `tail`: the message's features (its kind, ...), last in
    each; `prev_end` is where the number before it ends."""
    n = c.number
    glued = "time" if time_word(n) else unit_class(n.unit)
    ctx, lw, rw, slash = _context(sample, n, glued, line, words, prev_end)
    # (the number's shape and the context's features in the unit glued to it are the
    # same in both views: built once, not once a view)
    shape = _shape_features(n, glued)
    around = _around(glued, lw, rw, slash)
    full = _assemble(
        shape, glued, c.measurement, c.table, c.noise, ctx, lw, rw, slash, around, tail
    )
    if not blind:
        return full, None
    # (the blind view: no measurement, no table, the same noise span; the full one
    # when the readers neither read it nor hold it in a table)
    if c.measurement is None and c.table is None:
        return full, full.copy()
    view = _assemble(shape, glued, None, None, c.noise, ctx, lw, rw, slash, around, tail)
    return full, view


def _shape_features(n: Number, glued: str) -> tuple[str, ...]:
    f = _written_features(
        n.written, n.shape, n.magnitude, n.value, not n.unit, glued in _PLAIN_UNITS
    )
    if n.approx:
        f += ("approx",)
    if n.range_with is not None:
        f += ("range",)
    return f


# (a round number is a setting's mark, when nothing says it was measured: a time or a
# rate written round, `9000ms`, `3800 gflops`, is still a measurement)
_PLAIN_UNITS = frozenset(("none", "count", "word", "bytes"))


# (a message writes the same few numbers many times, `1`, `100`, `0.5`: described once
# each. Bounded, and numbers as written only)
@functools.lru_cache(maxsize=4096)
def _written_features(
    written: str, shape: str, magnitude: str, value: float, unitless: bool, plain: bool
) -> tuple[str, ...]:
    """A number's shape features from how it is written (`plain`: its unit is no time,
    rate or share)."""
    f: list[str] = [
        _SHAPE_NAMES.get(shape) or f"shape={shape}",
        _digits_bucket(written, shape, magnitude, value),
    ]
    v = abs(value)
    if shape == "int" and not magnitude:
        if v <= 10:
            f.append("small_int")
        if v >= 100 and v % 100 == 0:
            f.append("round" if plain else "round_measured")
        if v >= 8 and v <= 1 << 20 and (int(v) & (int(v) - 1)) == 0:
            f.append("pow2")
        if 1990 <= v <= 2035 and len(written.strip("+-")) == 4 and unitless:
            f.append("year")
    if written[:1] in "-−":
        f.append("sign=-")
    elif written[:1] == "+":
        f.append("sign=+")
    if magnitude:
        f.append("magnitude")
    return tuple(f)


def _assemble(
    shape: tuple[str, ...],
    glued: str,
    m: Measurement | None,
    table: ResultTable | None,
    noise: bool,
    ctx: list[str],
    lw,
    rw,
    slash: bool,
    around: tuple[str, ...],
    tail: list[str],
) -> list[str]:
    """A number's features from its shape, its context and what the readers made of it
    (its candidate's `measurement`, `table` and `noise`), the message's `tail` last;
    `around` is `_around` in the `glued` unit (used as is when the readers gave the
    number no other unit). (One list, made once: no part of it is copied.)"""
    f = list(shape)
    # the unit: the one glued to it, else the one the reader gave it
    unit = glued
    if unit == "none" and m is not None and m.unit:
        unit = unit_class(m.unit)
        f.append("unit_from_reader")
    f.append(f"unit={unit}")

    # what the readers made of it
    if noise:
        f.append("noise_span")
    if m is not None:
        f += _reader_features(table.format, m.metric, m.role, m.side, unit)
    elif table is not None:
        fam = GENERIC.get(table.format, "tool")
        f.append(f"in_table={fam}")
    else:
        f.append("reader=none")
    f += ctx
    f += around if unit == glued else _around(unit, lw, rw, slash)
    f += tail
    return f


# (a table's measurements repeat its few formats, metrics, roles and units: the names
# made once each. Bounded, and names only)
@functools.lru_cache(maxsize=4096)
def _reader_features(
    fmt: str, metric: str | None, role: str, side: str | None, unit: str
) -> tuple[str, ...]:
    """The features of what a reader (of format `fmt`) read from a number in `unit`."""
    fam = GENERIC.get(fmt, "tool")
    f = [f"reader={fam}", f"format={fmt}", f"metric={_metric_class(metric)}"]
    if role != "result":
        f.append(f"role={role}")
    f.append(f"reader={fam}&unit={unit}")
    if side in ("before", "after", "change"):
        f.append("side")
    return tuple(f)


def _around(unit: str, lw, rw, slash: bool) -> tuple[str, ...]:
    """What follows the context's features (`_context`) of a number in `unit`: `in_path`
    and the words' features."""
    words = _word_features(unit, tuple(lw), tuple(rw)) if lw or rw else ()
    return ("in_path", *words) if slash and unit in ("none", "word") else words


# (a message's numbers stand among a few sets of word families: each set's names are
# made once, not once a number and a view. Bounded, and names only)
@functools.lru_cache(maxsize=4096)
def _word_features(unit: str, lw: tuple[str, ...], rw: tuple[str, ...]) -> tuple[str, ...]:
    """The features of the word families before (`lw`) and after (`rw`) a number in
    `unit`."""
    f = [f"left={w}" for w in lw]
    f += [f"right={w}" for w in rw]
    for w in lw:
        if w in ("took", "time", "rate", "change", "hedge", "setting", "stat", "compare", "result"):
            f.append(f"unit={unit}&left={w}")
    for w in rw:
        if w in ("change", "hedge", "compare"):
            f.append(f"unit={unit}&right={w}")
    return tuple(f)


def _context(sample, n: Number, glued: str, line: _Line, words, prev_end: int):
    """What stands around a number, whatever read it: (features, the word families
    before it, after it, whether a `/` joins it to a path-like token). `glued` is the
    kind of the unit glued to it."""
    ls, le = line.start, line.end
    # (what its line says of every number on it, made once a line: `_Line.finish`)
    f = line.head.copy()
    if n.start - ls <= line.ordinal_reach:
        f.append("ordinal")
    if line.tabular:
        f += line.columns(sample, n.start - ls, n.end - n.start)
    if line.fenced:
        f.append("fenced")

    # the token it stands in, and the words around it
    lo = n.start - 60 if n.start - 60 > ls else ls
    # (the token before: after the window's last blank, found with rfind, not a regex
    # tried at every position of the window. The window is within the line: it holds
    # no line break)
    cut = max(lo, sample.rfind(" ", lo, n.start) + 1, sample.rfind("\t", lo, n.start) + 1)
    tok_before = sample[cut : n.start]
    # (none when a blank follows, as most often)
    follows = sample[n.unit_end : n.unit_end + 1]
    tok_after = (
        "" if follows.isspace() else _TOKEN_AFTER.match(sample, n.unit_end, n.unit_end + 40).group()
    )
    # (most numbers stand alone, blanks around them: what their token would say is
    # not asked)
    slash = False
    if tok_before or tok_after:
        slash = "/" in tok_before or "/" in tok_after
        if "://" in tok_before + tok_after:
            f.append("in_path")
            slash = False
    if tok_before:
        if tok_before[-1] in "=:" and tok_before[:-1]:
            f.append("glued_key")
        if tok_before[0] == "-" and ("=" in tok_before or len(tok_before) <= 3):
            f.append("cli_arg")
        whole = tok_before + n.written + tok_after
    else:
        whole = n.written + tok_after if tok_after else n.written
    # (a date has two of `-/.` in it: most tokens have fewer, and no search is made)
    if whole.count("-") + whole.count("/") + whole.count(".") >= 2 and _DATE_TOKEN.search(whole):
        f.append("date_part")  # (`2023-12-26`, `26/12/2023`: a date's part)
    elif (
        not n.unit
        and len(n.written) in _EPOCH_LENGTHS  # (`EPOCH` is 10 or 13 digits: most are not)
        and EPOCH.fullmatch(n.written)
        and TIME_NAME.search(sample, max(sample.rfind("\n", 0, n.start) + 1, n.start - 40), n.start)
    ):
        f.append("date_part")  # (`Current Time: 1690000001000`: a date in one number)
    if tok_before:
        last = tok_before[-1]
        if last in "#-" and tok_before[:-1].isalpha():
            f.append("id_like")
        elif last in "-_" and any(ch.isalpha() for ch in tok_before):
            f.append("dash_joined")  # (`ursa-i9-9960x`, `node_12`: a name's part)
        if last in ".:" and n.shape == "int" and tok_before.rstrip(".:").isalpha():
            f.append("after_word_dot")
    # (`_AS_KEY` starts with a blank, a `:` or a `=`: a number followed by none is
    # not tried)
    if follows in _AS_KEY_FIRSTS and _AS_KEY.match(sample, n.unit_end):
        f.append("as_key")  # (`99.99=8487`, `Iteration 1: 2.7 ns/op`: it names a value)
    after = sample[n.end : n.end + 2]
    if after[:1] == "/" and after[1:].isdigit():
        f.append("slash_over")  # (`456/1596`, `Task 1/15`: a count of a total)
    elif n.start >= 2 and sample[n.start - 1] == "/" and sample[n.start - 2].isdigit():
        f.append("slash_under")
    if after[:1] == "-" and after[1:].isalpha():
        f.append("dash_after")  # (`25.152-b16`: a build's name)
    if (
        n.unit
        and n.unit_end - n.end == len(n.unit)
        and _HEX_LETTERS.fullmatch(n.unit)
        and n.unit_end - n.start >= 6
        and glued == "word"
    ):
        f.append("hex")
    if line.brackets:
        f += _group_features(sample, ls, le, n)
    lt = sample.rfind("<", max(ls, n.start - 300), n.start) if line.angles else -1
    if (
        lt >= 0
        and sample[lt + 1 : lt + 2].isalpha()
        and sample.rfind(">", lt, n.start) < 0
        and sample.find(">", n.unit_end, min(le, n.unit_end + 300)) >= 0
    ):
        f.append("in_tag")  # (`<span style="font-size:10.5pt">`: markup, not text)
    lo = n.start - 48 if n.start - 48 > ls else ls
    left = sample[lo : n.start].lower().rstrip(" \t")
    # (each regex only where the window's last character lets it match)
    tail = left.rstrip(" \t\"'")
    if tail.endswith((":", "=", "：")):
        if key_before(left) is not None:
            f.append("key_before")
        if '"' in left and _JSON_KEY.search(sample[max(ls, n.start - 64) : n.start]):
            f.append("json_key")
    # (what follows the number, read only here: after an opening bracket)
    if tail.endswith(("(", "[")) and (
        sample[n.unit_end : min(le, n.unit_end + 32)].lower().lstrip().startswith((")", "]"))
    ):
        f.append("in_parens")
    if tail.endswith(("±", "-", "%)", "σ")) and _PLUS_MINUS.search(left):
        f.append("after_plus_minus")
    # (the words before it, back to the number before it when a clause ends between
    # them: `allows up to 3800 gflops, the old one 2900 gflops` - the hedge is the first's)
    if lo < prev_end and _CLAUSE_END.search(sample, prev_end, n.start):
        lo = prev_end
    lw = words.families(lo, n.start, tails=True)
    # (the words after it, to the end of its sentence: `30k writes per second; the GPU
    # reached up to` - the next sentence's bound is not this number's)
    # (on a line without a word of a family or a mark, as a table's row of numbers,
    # no window holds one: its end is not looked for)
    rw = ()
    if not words.silent or words.marks:
        hi = min(le, n.unit_end + 32)
        if stop := _SENTENCE_END.search(sample, n.unit_end, hi):
            hi = stop.start() + 1
        rw = words.families(n.unit_end, hi)
        if rw:  # (most windows after a number hold no family)
            rw = tuple(filter(_RIGHT_WORDS.__contains__, rw))
    return f, lw, rw, slash


_METRIC_CLASSES = (
    ("count", re.compile(r"\b(?:cnt|count|samples?|iterations?|iters?|n|runs?|rounds?|forks?"
                         r"|threads?|#)\b|^n$", re.I)),
    ("stdev", re.compile(r"stddev|std ?dev|stdev|σ|deviation", re.I)),
    ("error", re.compile(r"error|±|\bci\b|p-?value|confidence|\bvar", re.I)),
    ("perf", re.compile(r"time|latency|throughput|ops|qps|tps|score|mean|avg|average|median|cpu"
                        r"|p\d\d|max|min|rate|speed|elapsed|real|user|sys|duration|bandwidth"
                        r"|/s|per sec|regress|improv|change|diff|delta|gain|pct", re.I)),
)  # fmt: skip


def metric_class(metric: str | None) -> str:
    """count, stdev, error, perf or other: what a reader's metric name says its numbers are."""
    return _metric_class(metric)


@functools.lru_cache(maxsize=4096)  # (a table's rows repeat its few metric names)
def _metric_class(metric: str | None) -> str:
    for name, rx in _METRIC_CLASSES:
        if metric and rx.search(metric):
            return name
    return "other"


# ---------------------------------------------------------------- the model


@dataclass(slots=True)
class NumberModel:
    weights: dict[str, float]
    bias: float
    threshold: float = 0.5
    # The model for a message no reader read anything in (a format nobody wrote a
    # reader for): fitted on the same mail described without the readers' work.
    blind: NumberModel | None = None
    # A number no reader read, in a message whose readers read others, is taken too
    # when the blind model is this sure of it. (This model learns from mail whose
    # readers were written to read its numbers, so "no reader read it" weighs as a
    # refusal; on other mail the readers miss numbers a sentence plainly reports.)
    unread_threshold: float | None = None

    def judge(self, cands: list[Candidate]) -> None:
        """Score each candidate and decide which are taken: by this model, unless it
        takes no number a reader read (the readers did not know the message's format:
        then the blind model decides, from the numbers' context alone); an unread
        number the blind model is sure of (`unread_threshold`) is taken as well."""
        blind = self.blind
        if blind is None:
            for c in cands:
                c.score = self.score(c.features)
                c.taken = c.score >= self.threshold
            return
        # (both models' scores in one pass over the candidates)
        score, threshold = self.score, self.threshold
        blind_score, blind_threshold = blind.score, blind.threshold
        read_taken = False
        for c in cands:
            c.score = score(c.features)
            c.taken = c.score >= threshold
            read_taken = read_taken or c.taken and c.measurement is not None
            c.blind_score = blind_score(c.blind_features)
            c.blind_taken = c.blind_score >= blind_threshold
        if not read_taken:
            for c in cands:
                c.score, c.taken = c.blind_score, c.blind_taken
        elif self.unread_threshold is not None:
            for c in cands:
                if not c.taken and c.measurement is None and c.blind_score >= self.unread_threshold:
                    c.score, c.taken = c.blind_score, True

    def score(self, feats: list[str]) -> float:
        # (the lookups by `map`, in the features' order: the same sum as a generator's,
        # without a Python frame a feature)
        z = self.bias + sum(map(self.weights.get, feats, repeat(0.0)))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def explain(self, feats: list[str]) -> list[tuple[str, float]]:
        pairs = [(name, self.weights.get(name, 0.0)) for name in feats]
        return sorted((p for p in pairs if p[1]), key=lambda p: -abs(p[1]))


def load_model() -> NumberModel | None:
    """The fitted weights (`number_weights.py`), or None before the first fit."""
    try:
        from extract.results import number_weights
    except ImportError:
        return None
    blind = NumberModel(
        number_weights.BLIND_WEIGHTS, number_weights.BLIND_BIAS, number_weights.BLIND_THRESHOLD
    )
    return NumberModel(
        number_weights.WEIGHTS,
        number_weights.BIAS,
        number_weights.THRESHOLD,
        blind,
        getattr(number_weights, "UNREAD_THRESHOLD", None),
    )


def judge_numbers(
    sample: str,
    tables: list[ResultTable],
    noise: list[ResultTable],
    *,
    kind: str | None = None,
    message: tuple[str, ...] = (),
    model: NumberModel | None = None,
) -> list[Candidate]:
    """Every number of `sample`, linked, described and scored."""
    cands = link(sample, tables, noise)
    blind = model is not None and model.blind is not None
    features(sample, cands, kind=kind, message=message, blind=blind)
    if model is not None:
        model.judge(cands)
    return cands
