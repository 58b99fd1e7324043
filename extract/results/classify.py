"""Does a message report measured benchmark numbers? Returns a `Verdict`:
`is_benchmark`, a `score` in 0..1 and the `reasons` (the features that decided it).

    classify(body, tables, *, subject=None, kind=None) -> Verdict

`body` is the message's own, cleaned text (`extract.mail.clean.clean_body`: no quoted
replies, no JIRA issue block, no footers); `tables` is
`extract.results.formats.extract_results(body)`. Pure function; never raises.

A transparent weighted sum (a logistic regression): `features()` says which
features fire, each adds its weight (`extract/results/weights.py`, fitted on the
labelled corpora by `python -m extract.dev.fit`) and one reason such as `jmh
output: 2 measurements (+3.0)`; the message is a benchmark when the sum reaches
`THRESHOLD`, and `score = logistic(SCALE * (sum - THRESHOLD))`.

Evidence for (general features, none tied to a project or a corpus file):

- tool output: a table from a tool-specific format (JMH, HBase PE, YCSB, GNU/bash
  `time`, Google Benchmark, criterion, go test -bench, ...) with measurements;
- a performance table: a generic table (JIRA, Markdown, HTML, ASCII) whose numbers
  carry performance units (time, rates, bytes/s, %), whose header names a
  performance quantity (time, latency, throughput, QPS, before/after, ...), or
  that sits under a heading saying what it measures (`### Write benchmark:`);
- measured prose, from the `prose` parser or our own sentence reading (the
  stronger of the two counts): numbers with performance units (`27 sec`,
  `320k rows/sec`, `~6k/ms`, `2-5x`, `40%` next to faster/slower/latency...) in
  sentences that are not hedged (should/would/expect/target/assume/up to ...);
  more when the numbers are compared (from X to Y, X -> Y, before/after, vs,
  faster/slower), stated as measured (took, went, saw, reduced ...), or given on
  consecutive lines in one unit (`MXNet latency: 159.11 ms` / `TVM latency: 732.59 ms`);
- rows of numbers under a header line naming performance quantities (CSV/TSV or
  aligned tool output that no parser claimed: `mb_sec  avg_latency`, `Mean, P95`);
- a results cue (`Results:`, `before:`/`after:`, `with the patch`, `here are the numbers`).

Evidence against (the hard negatives):

- CI and build reports: Yetus / Hadoop QA vote tables, Jenkins/SparkQA/bot
  notices, Codecov reports, Maven `Tests run:` / `BUILD SUCCESS` / reactor
  summaries (their lines are also removed before the text is read, so their
  runtimes never count; a Maven log weighs only when nothing else speaks);
- release votes (`[VOTE]` subject, or checksums + signatures + vote words);
- stack traces; log or config dumps (most lines log records or key=value);
- code diffs, unless what the diff rewrites are result rows (e.g. a regenerated
  `*-results.txt`: its -/+ rows are old/new results, and parse as results);
- JIRA field-change notifications (`Status: Open (was: Patch Available)`);
- results only as images or links, and talk about benchmarking without numbers,
  which simply find no positive evidence (the reasons say so).
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

from extract.results import prefilter
from extract.results.formats import GENERIC_FORMATS, ResultTable
from extract.results.prefilter import Needs
from extract.results.units import to_si

# The features' weights and the threshold are fitted on the labelled corpora by
# `python -m extract.dev.fit`: plain numbers, in their own module.
from extract.results.weights import SCALE, THRESHOLD, WEIGHTS

WEAK_TOOL_FORMATS = {"sql-timing"}  # "Time taken: 3.2 seconds" also shows up in bug reports


@dataclass(slots=True)
class Verdict:
    is_benchmark: bool
    score: float  # 0..1
    reasons: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- text patterns

# (not after `%`: printf formats such as `%-35s` are not durations)
# (it starts with the digit, so that the regex engine can skip to digits fast; the
# lookbehinds after it check what precedes the number)
# (its digits are possessive, `{0,40}+`: what may follow a number (a unit, an x, a %,
# a space) never starts with a digit or a comma, so giving digits back could not
# make a match, only cost time, once per digit and unit)
# (at most 40 digits and commas: a match may start at any digit after a comma, so an
# unbounded run made a long list such as `1,2,3,...` take quadratic time, 6 s at 60 kB)
_NUM = r"\d(?<![\w.%]\d)(?<!%-\d)[\d,]{0,40}+(?:\.\d++)?"
_TIME_UNIT = (
    r"(?:ns|nanos(?:econds?)?|us|µs|μs|micros(?:econds?)?|ms|msecs?|millis(?:econds?)?|"
    r"s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?)"
)
_RATE_UNIT = (
    r"(?:[kKMG]?(?:ops?|rows?|req(?:uests)?|records?|msgs?|messages?|queries|tx|txns?|events?|"
    r"docs?|documents?|files?|items?|i)\s*/\s*(?:s|sec|second|ms|us|min)|"
    r"[kKMGT]i?B(?:it)?\s*/\s*(?:s|sec)|[kKMGT]i?Bps|qps|QPS|tps|TPS|rps|RPS|GFLOPS|"
    r"(?:ops|ops/s)\b)"
)
# A performance quantity: "27 sec", "1.2ms", "320k rows/sec", "~6k/ms".
_ABSOLUTE = re.compile(
    _NUM + r"\s?[kKM]?\s?(?:" + _TIME_UNIT + r"|" + _RATE_UNIT + r"|/ms|/s|/sec)(?![\w/])"
)
# A relative one: "2x faster", "2-5x", "40%" (kept only next to a performance word).
_FACTOR = re.compile(_NUM + r"(?:\s?-\s?\d+(?:\.\d+)?)?\s?[x×](?![\w])")
_PERCENT = re.compile(_NUM + r"\s?%")
_PERF_WORD = re.compile(
    r"faster|slower|speed|improv|regress|reduc|increas|decreas|throughput|latency|"
    r"\bcpu\b|overhead|better|worse|\btime\b|elapsed|duration|qps|ops|perf|degrad",
    re.I,
)
# (The leading look-aheads below hold every first character of the alternatives: most
# positions are turned away by one test instead of trying each alternative.)
_COMPARE = re.compile(
    r"(?=[abcdfirstvw→]|[-=]>)(?:"
    r"\bfrom\b[^.\n]{0,80}?\bto\b|->|→|=>|\bvs\.?\b|\bversus\b|\bbefore\b|\bafter\b|"
    r"\bcompared\b|\bbaseline\b|faster|slower|speed-?up|improv|regress|degrad|\bthan\b|"
    r"\bwith(?:out)? (?:the |this |my )?(?:patch|change|pr|fix)\b)",
    re.I,
)
_HEDGE = re.compile(
    r"\b(?:should|would|could|might|may|expect(?:ed|s)?|estimat\w*|target\w*|goal|aim|"
    r"assum\w*|hope|theor\w*|potential(?:ly)?|can it|if we|"
    r"i (?:believe|think|guess)|don't think|will be|plan)\b|<\s*\d",
    re.I,
)
_MEASURED = re.compile(
    r"(?=[abdgimorstw])\b(?:took|takes|taken|went|goes|ran|run|runs|measured|observed|saw|see|got|"
    r"result|results|tested|benchmark(?:ed)?|reduced|reduces|improved|improves|"
    r"dropped|increased|is|was|are|were)\b",
    re.I,
)
_RESULTS_CUE = re.compile(
    r"^\s*(?:#+\s*|\*+\s*)?(?:benchmark |perf(?:ormance)? |test )?results?\s*[:：\-]|"
    r"^\s*(?:before|after)(?: (?:the )?(?:patch|change|pr|fix))?\s*[:：]|"
    r"\bwith(?:out)? (?:the |this )?patch\b|"
    r"\bhere (?:are|is) (?:the |some |my |our )?(?:\w+ ){0,2}(?:results?|numbers|timings)\b|"
    r"\bresults? (?:is|are) as follows?\b|\b(?:benchmark|perf) (?:results|numbers)\b",
    re.I | re.M,
)
# "time elapsed (sec): 30.0", "avg rate: 5710.2", "p99 latency = 12.5": a named
# performance quantity and its value, the unit (if any) before the number.
_NAMED_VALUE = re.compile(
    r"(?:\btime\b|elapsed|latency|duration|\brate\b|throughput|\bqps\b|\btps\b|ops/s)"
    r"[\w ]{0,20}(?:\((?:s|sec|secs|seconds|ms|us|µs|ns|min|ops/s|MB/s)\))?\s*[:=]\s*"
    r"\d[\d,]*(?:\.\d+)?(?![\d:/-])",
    re.I,
)
# Whitespace after [.!?;], or a newline: `(?<=[.!?;])\s+|\n`, written to start with
# `\s` so that the regex engine can skip to whitespace fast (the lookbehinds then
# check what precedes it).
_SENTENCE_END = re.compile(r"\s(?:(?<=[.!?;]\s)\s*|(?<=\n))")
# (where its matches end, found twice as fast: led by the stop or the line break, far
# rarer than blanks; the blanks after a stop are its match's as they are `\s*`'s)
_SENTENCE_END_AFTER = re.compile(r"[.!?;\n](?:(?<=\n)|\s+)")

# ---- hard negatives
# (Written in lower case and searched in the folded text (`_fold`), where it needs no
# re.I, which tries a letter's cases at every step; led by a lookahead of the
# characters its alternatives start with: most positions are turned away in one test.
# In `_NOISE`, which reads the text as written, it is matched case aside.)
_CI = re.compile(
    r"(?=[-+|:abchjmrst])(?:[+-]1 overall\b|\|\s*vote\s*\|\s*subsystem\s*\|\s*runtime"
    r"|hadoop qa|hadoop-yetus|apache yetus|:green_heart:|:broken_heart:|test (?:pass|fail)ed\b"
    r"|refer to this link for build results|\bsparkqa\b|test build #\d+ has (?:started|finished)"
    r"|build (?:failed|succeeded|finished)|codecov report|merging #\d+ \(\w+\) into"
    r"|coverage (?:increased|decreased|remained)"
    r"|jenkins(?: build)? (?:is|was)? ?(?:failing|unstable)"
    r"|this message was automatically generated)"
)
_MAVEN = re.compile(
    r"Tests run: \d+, Failures: \d+|\bBUILD (?:SUCCESS|FAILURE)\b|^[^\S\n]*\[INFO\] Total time:|"
    r"Final Memory: \d+|Reactor Summary|"
    r"\b(?:SUCCESS|FAILURE|SKIPPED) \[\s*[\d:.]+\s*(?:s|min)\s*\]|"
    r"\bBUILD SUCCESSFUL in\b",
    re.M,
)
# Each group is one kind of release-vote evidence; two kinds make a release vote.
_RELEASE = [
    re.compile(r"\[VOTE\]", re.I),
    re.compile(r"\bsha-?(?:1|256|512)\b|\.sha\d*\b|\bmd5\b", re.I),
    re.compile(r"\bsignatures?\b|\.asc\b|\bKEYS\b|\bgpg\b", re.I),
    re.compile(r"\bbinding\b|release candidate|\bRC\d\b|staging repo|\bvote\b", re.I),
    re.compile(r"\bLICENSE\b|\bNOTICE\b|source (?:release|tarball)|artifacts?\b", re.I),
]
# Lines of CI and build bookkeeping: their runtimes are not benchmark numbers.
# One piece of CI and build bookkeeping, and the Yetus table rows around it.
_NOISE = re.compile(
    r"(?:" + _CI.pattern + r"|" + _MAVEN.pattern.replace("^[^\\S\\n]*", "") + r")"
    r"|^[^\S\n]*\|\s*[+-][01]\b|^[^\S\n]*\|{3,}",
    re.M | re.I,
)
_YETUS_ROW = re.compile(r"^\s*\|(?:\s*[+-][01]\b|\|\|)", re.M)
# A line a person labelled as one side of a comparison (`before: BUILD SUCCESSFUL in
# 4m 12s`, `with the patch: Total time: 2:51 min`): a build's time measured, not its
# bookkeeping.
_SIDE_LABEL = re.compile(
    r"[ \t>*_-]*+(?i:before|after|baseline|with(?:out)?(?: (?:the|this|my))?"
    r" (?:patch|change|fix|pr)|old|new|master|main|trunk|patched)\b[^:\n]{0,30}:"
)
# In a long (flattened) line, drop only the bookkeeping: its numbers follow it.
_LONG_LINE = 120
_NOISE_BEFORE, _NOISE_AFTER = 10, 60
# (The line patterns led by `\n` are counted in "\n" + the text (`_lines_found`): the
# search skips to the line breaks (and here to an `E` or a `T`), where `^` (re.M) is
# tried at every position. None of their matches ends with a line break: none takes
# the break the next line's match starts with.)
_STACK_LINE = re.compile(
    r"\n[^\S\n]*(?:at [\w$.<>]+\([\w$.]*(?::\d+)?\)|Caused by: |File \"[^\"]+\", line \d+)"
    r"|Exception in thread|Traceback \(most recent call last\)"
)
_DIFF = re.compile(
    r"^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@|^diff --git |^(?:\+\+\+|---) [ab]/|"
    r"^index [0-9a-f]{7,}\.\.",
    re.M,
)
_DIFF_ROW = re.compile(r"^[+-](?![+-]{2})\S?.*$", re.M)
# A changed line of code: "+    printf(...);", "-  @Warmup(iterations = 3)"
_CODE_ROW = re.compile(r"\n[+-](?:\s{2,}\S|[\w@]).*[;{}()=]")
_FIELD_CHANGE = re.compile(r"^[^\S\n]*[\w /.-]{2,40}:\s*[^\n]{0,200}\(was:\s", re.M)
_UPDATED_SUBJECT = re.compile(r"\[jira\]\s*\[(?:Updated|Assigned|Resolved|Closed|Reopened)\]", re.I)
_LOG_LINE = re.compile(
    r"^[^\S\n]*(?:\d{4}-\d\d-\d\d[ T][\d:.,]+|\[?(?:INFO|WARN|WARNING|ERROR|DEBUG)\b)", re.M
)
_CONFIG_LINE = re.compile(r"^[^\S\n]*(?:<property>|<name>|[\w.\-]+\s*[=:]\s*\S+\s*$)", re.M)
_IMAGE = re.compile(
    r"!\[(?:[^\]!]++|!(?!\[))*+\]\(|<img\b|\.(?:png|jpe?g|gif|svg)\b|\bimage-\d", re.I
)
_BENCH_TALK = re.compile(
    r"\bbenchmark|\bperformance\b|\bperf\b|\bjmh\b|\blatency\b|\bthroughput\b", re.I
)


# ---------------------------------------------------------------- features


def _perf_unit(unit: str | None) -> bool:
    """A unit that measures performance: time, rate, bytes per second, percent, factor."""
    if not unit:
        return False
    _, si = to_si(1.0, unit)
    if si in ("s", "1/s", "B/s", "1"):
        return True
    u = unit.strip().lower()
    return bool(re.fullmatch(r"[x×]|ops?/\w+|\w+/op|[kmg]?flops|[a-zµμ]+/(?:op|iter|call|i)", u))


_PERF_HEADER = re.compile(
    r"(?=[abcdegilmopqrstw耗时時延吞平速])(?:"
    r"time|latency|throughput|ops|qps|tps|duration|elapsed|speed|score|\bms\b|\bsec|\brate\b|"
    r"p\d\d|mean|median|\bavg|average|best|before|after|baseline|contender|improv|change|"
    r"diff|runtime|\bcpu\b|wall|rows/s|mb/s|gb/s|"
    # the same in Chinese and Japanese headers: time taken, time, latency, throughput,
    # average, speed
    r"耗时|时间|時間|延迟|延遲|时延|吞吐|平均|速度)",
    re.I,
)


# The two sides of a comparison, as a table names its columns, rows or runs: what was
# before (`before`, `baseline`, `master`, `trunk`, `without patch`, `优化前`) and what
# after (`after`, `patched`, `PR`, `branch`, `contender`, `优化后`).
_OLD_SIDE = re.compile(
    r"(?i)\b(?:before|baseline|master|trunk|old|original|unpatched|without|vanilla)\b"
    r"|(?:优化|修改|改进|升级)前|之前"
)
_NEW_SIDE = re.compile(
    r"(?i)\b(?:after|patched|patch|pr|branch|new|contender|optimi[sz]ed|proposed|with)\b"
    r"|(?:优化|修改|改进|升级)后|之后"
)


def _sides_compared(table: ResultTable) -> bool:
    """A table that sets two sides of a change against each other: one of its names
    (columns, metrics, labels, runs) names the old side and another the new."""
    names = {*table.columns}
    for m in table.measurements:
        names.update((m.metric or "", m.label or "", m.variant or ""))
    old = {n for n in names if n and _OLD_SIDE.search(n)}
    new = {n for n in names if n and _NEW_SIDE.search(n)}
    return bool(old and new and len(old | new) > 1)


_BENCH_HEADING = re.compile(
    r"benchmark|throughput|latency|per second|/s(?:ec)?\b|\bops\b|qps|timings?|"
    r"results?|performance|\bperf\b|elapsed|runtime|speed|"
    # benchmark, performance, throughput, latency, time taken, per second, test
    # results (Chinese, Japanese)
    r"基准|基準|性能|吞吐|延迟|延遲|耗时|每秒|测试结果|測試結果|ベンチマーク",
    re.I,
)


def _table_is_perf(table: ResultTable, body: str) -> bool:
    """Its numbers have performance units, its header names a performance quantity,
    or the lines just before it say what it measures (`### Write benchmark:`)."""
    if any(_perf_unit(m.unit) for m in table.measurements):
        return True
    header = " ".join(table.columns) + " " + " ".join({m.metric or "" for m in table.measurements})
    header += " " + (table.caption or "") + " " + (table.variant or "")
    if _PERF_HEADER.search(header):
        return True
    before = body[max(0, table.span[0] - 400) : table.span[0]].strip().splitlines()[-3:]
    return any(_BENCH_HEADING.search(line) and not _HEDGE.search(line) for line in before)


# Substrings without which a pattern cannot match: a plain `in` test on the
# lower-cased text is far cheaper than running a long alternation over it.
_CI_KEYS = ("overall", "subsystem", "hadoop qa", "yetus", "_heart:", "test pass", "test fail",
            "build result", "sparkqa", "test build #", "build failed", "build succeeded",
            "build finished", "codecov", "merging #", "coverage", "jenkins",
            "automatically generated")  # fmt: skip
_MAVEN_KEYS = ("tests run:", "build success", "build failure", "total time:", "final memory",
               "reactor summary", "success [", "failure [", "skipped [")  # fmt: skip
_RELEASE_KEYS = ("sha", "md5", "signature", ".asc", "keys", "gpg")
# The literals each of _RELEASE[1:] needs and its matches begin with, lower case.
_RELEASE_NEEDS = (
    ("sha1", "sha-1", "sha256", "sha-256", "sha512", "sha-512", ".sha", "md5"),
    ("signature", ".asc", "keys", "gpg"),
    ("binding", "release candidate", "rc", "staging repo", "vote"),
    ("license", "notice", "source release", "source tarball", "artifact"),
)
_DIFF_STARTS = ("@@ -", "diff --git ", "+++ ", "--- ", "index ")
_STACK_KEYS = ("exception", "error", "traceback", "throwable", "caused by")
_IMAGE_KEYS = ("![", "<img", ".png", ".jp", ".gif", ".svg", "image-")
_TALK_KEYS = ("benchmark", "perf", "jmh", "latency", "throughput")
_NAMED_KEYS = (
    "time",
    "elapsed",
    "latency",
    "duration",
    "rate",
    "throughput",
    "qps",
    "tps",
    "ops/s",
)


def _mentions(low: str, keys: tuple[str, ...]) -> bool:
    return any(map(low.__contains__, keys))


# re.IGNORECASE lets these match an ASCII letter, which str.lower() leaves alone
# (İ it even makes two characters long): they are replaced before lower-casing.
_FOLD = {"İ": "i", "ı": "i", "ſ": "s"}


def _fold(text: str) -> str:
    """`text` lower-cased, offset for offset (slices line up with `text`), such that
    whatever an re.I pattern matches in `text` holds the pattern's literals in lower
    case: `key in _fold(text)` is a true necessary condition for the pattern."""
    if not text.isascii():
        for char, letter in _FOLD.items():
            text = text.replace(char, letter)
    return text.lower()


def _find_all(hay: str, key: str) -> list[int]:
    """Every offset where `key` starts in `hay`, overlapping ones too."""
    found = []
    i = hay.find(key)
    while i >= 0:
        found.append(i)
        i = hay.find(key, i + 1)
    return found


def _matches_from(
    pattern: re.Pattern[str], text: str, folded: str, starts: tuple[str, ...]
) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)` for a pattern each of whose matches begins with one
    of the literals `starts` (lower case, found in `folded` = `_fold(text)`): the
    pattern is tried only where one begins. (An re.I pattern cannot skip ahead: a
    scan tries it at every offset.)"""
    end = 0
    for i in sorted({i for key in starts for i in _find_all(folded, key)}):
        if i >= end and (m := pattern.match(text, i)):
            end = m.end()
            yield m


def _lines_found(pattern: re.Pattern[str], text: str) -> int:
    """How many lines of `text` a pattern led by `\n` finds (`_STACK_LINE`)."""
    return len(pattern.findall("\n" + text))


def _may_have_code_rows(text: str) -> bool:
    """False when `_CODE_ROW` cannot match: no line starts with + or - followed by
    a word character, an @ or two blanks (a `- item` list is not code)."""
    starts = [0] if text.startswith(("+", "-")) else []
    starts += [i + 1 for key in ("\n+", "\n-") for i in _find_all(text, key)]
    for i in starts:
        first, two = text[i + 1 : i + 2], text[i + 1 : i + 3]
        if first.isalnum() or first in ("_", "@") or (len(two) == 2 and two.isspace()):
            return True
    return False


def _line_starts_of(text: str, offsets: list[int]) -> list[int]:
    """Where the line of each of the sorted `offsets` starts (one pass over `text`,
    also when it is one long flattened line)."""
    found, start, done = [], 0, 0
    for offset in offsets:
        newline = text.rfind("\n", done, offset)
        if newline >= 0:
            start = newline + 1
        done = offset
        found.append(start)
    return found


def _line_starts_with(text: str, prefixes: tuple[str, ...]) -> bool:
    """Does a line of `text` start with one of `prefixes`? (where re.M `^` can match)"""
    return text.startswith(prefixes) or any("\n" + p in text for p in prefixes)


def _has_results_cue(text: str, folded: str) -> bool:
    """`_RESULTS_CUE.search(text)`, tried only where a match can begin: at the words
    its unanchored alternatives begin with, and at the start of each line holding
    result/before/after for those anchored at a line start (one that begins on a
    blank line above would match from that line's start too)."""
    words = ("result", "here ", "benchmark", "perf") + (("with",) if "patch" in folded else ())
    starts = {i for word in words for i in _find_all(folded, word)}
    anchored = sorted(i for word in ("result", "before", "after") for i in _find_all(folded, word))
    starts.update(_line_starts_of(text, anchored))
    return any(_RESULTS_CUE.match(text, i) for i in starts)


@cache
def _ascii_but(chars: str) -> bytes:
    """Every ASCII character but `chars`: what bytes.translate should delete to
    keep only those."""
    return bytes(c for c in range(128) if chr(c) not in chars)


def _lines_holding(text: str, chars: str, n: int = 1) -> int:
    """How many lines of `text` hold `n` or more of `chars` (at most: for a
    non-ASCII text, their count divided by `n`)."""
    if not text.isascii():
        return sum(map(text.count, chars)) // n
    kept = text.encode("ascii").translate(None, _ascii_but(chars + "\n")).split(b"\n")
    return sum(len(line) >= n for line in kept)


def _log_lines_at_most(text: str) -> int:
    """An upper bound of len(_LOG_LINE.findall(text)), from plain counts: each match
    holds a date (two '-' in one line) or a level name, and no two share a line."""
    return _lines_holding(text, "-", 2) + sum(map(text.count, ("INFO", "WARN", "ERROR", "DEBUG")))


def _config_lines_at_most(text: str) -> int:
    """An upper bound of len(_CONFIG_LINE.findall(text)): each match holds a
    `<property>`, a `<name>`, or a '=' or ':' in a line of its own (a match ends at
    a line end)."""
    return _lines_holding(text, "=:") + text.count("<property>") + text.count("<name>")


def _release_evidence(text: str) -> bool:
    """Three or more of the four kinds of release-vote evidence in `_RELEASE[1:]`.
    A pattern runs only if its literals are there, only where they begin, and only
    while three can still be reached."""
    folded = _fold(text)
    possible = [
        (pattern, keys)
        for pattern, keys in zip(_RELEASE[1:], _RELEASE_NEEDS, strict=True)
        if _mentions(folded, keys)
    ]
    found = 0
    for i, (pattern, keys) in enumerate(possible):
        if found + len(possible) - i < 3:
            return False
        found += next(_matches_from(pattern, text, folded, keys), None) is not None
    return found >= 3


def _without_noise_lines(text: str, ci_or_maven: bool) -> str:
    """`text` less its CI and build bookkeeping lines (cheap when there are none:
    `ci_or_maven` says whether `_CI` or `_MAVEN` matches `text`).
    In a line flattened from a whole mail only the text around them goes."""
    # (a Yetus row can only begin on a line led by `|`; one that begins on a blank
    # line above would match from that line's start too)
    if not (ci_or_maven or any(_YETUS_ROW.match(text, i) for i in _lines_led_by(text, "|"))):
        return text
    kept = []
    for line in text.splitlines(keepends=True):
        if len(line) <= _LONG_LINE:
            if not _NOISE.search(line) or _SIDE_LABEL.match(line):
                kept.append(line)
            continue
        end = 0
        for m in _NOISE.finditer(line):
            if m.start() - _NOISE_BEFORE > end:
                kept.append(line[end : m.start() - _NOISE_BEFORE])
            end = max(end, m.end() + _NOISE_AFTER)
        kept.append(line[end:])
    return "".join(kept)


def _strip_quotes(body: str) -> str:
    """Defensive: the cleaned body has no quotes, but a stray `>` line never counts."""
    lines = body.splitlines()
    text = "\n".join(lines)
    if next(_lines_led_by(text, ">"), None) is None:  # the usual case
        return text
    return "\n".join(line for line in lines if not line.lstrip().startswith(">"))


def _lines_led_by(text: str, char: str) -> Iterator[int]:
    """The offsets of the lines of `text` whose first character after blanks is
    `char`. Only the first `char` of each line that has one is looked at."""
    i = text.find(char)
    while i >= 0:
        start = text.rfind("\n", 0, i) + 1
        if start == i or text[start:i].isspace():
            yield start
        end = text.find("\n", i)
        i = text.find(char, end) if end >= 0 else -1


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(text) if s and s.strip()]


@dataclass(slots=True)
class TextEvidence:
    absolute: int = 0  # numbers with a time/rate unit, not hedged
    relative: int = 0  # factors and percentages next to a performance word
    hedged: int = 0  # numbers in estimates, targets, conditions, settings
    measured: int = 0  # absolute numbers next to words saying they were measured
    compared: bool = False  # numbers set against each other (from/to, vs, before/after)
    parallel: int = 0  # most lines in a row (or in one flat sentence) giving one unit


# Durations that are settings or bookkeeping, not measurements: "a timeout of 30 s",
# "interval=10s", JIRA's "Time Spent: 1h 40m".
_SETTING = re.compile(
    r"time-?out|interval|delay|\bttl\b|retention|expir|heartbeat|\bsleep|\bperiod\b|-X[mxs]\d|"
    r"time spent|estimate:|worklog",  # JIRA time tracking
    re.I,
)
_STRONG_MEASURED = re.compile(
    r"\b(?:took|takes|taken|went|goes|ran|measured|observed|saw|got|results?|reduced|reduces|"
    r"improved|improves|dropped|increased|elapsed|finished|completed|run(?:s)? (?:is|was|in))\b",
    re.I,
)


# How far from a number its words count, in characters. Windows, not whole
# sentences, because web archives and GitBox flatten a mail onto one line.
_HEDGE_REACH = 200  # back to the sentence start at most
_SETTING_REACH = 40
_WORD_REACH = 80
_COMPARE_REACH = 120


# The literals (lower case) without which each word pattern cannot match, to skip
# the pattern where none is (see `_fold`). `\bwith(?:out)? ...` needs "with".
_NEEDS: dict[re.Pattern[str], tuple[str, ...]] = {
    _PERF_WORD: ("faster", "slower", "speed", "improv", "regress", "reduc", "increas", "decreas",
                 "throughput", "latency", "cpu", "overhead", "better", "worse", "time", "elapsed",
                 "duration", "qps", "ops", "perf", "degrad"),
    _COMPARE: ("from", "->", "→", "=>", "vs", "versus", "before", "after", "compared", "baseline",
               "faster", "slower", "speed", "improv", "regress", "degrad", "than", "with"),
    _HEDGE: ("ould", "might", "may", "expect", "estimat", "target", "goal", "aim", "assum", "hope",
             "theor", "potential", "can it", "if we", "i believe",
             "i think", "i guess", "don't think", "will be", "plan", "<"),
    _SETTING: ("timeout", "time-out", "interval", "delay", "ttl", "retention", "expir",
               "heartbeat", "sleep", "period", "-x", "time spent", "estimate:", "worklog"),
    _STRONG_MEASURED: ("took", "take", "went", "goes", "ran", "run", "measured", "observed",
                       "saw", "got", "result", "reduce", "improve", "dropped", "increased",
                       "elapsed", "finished", "completed"),
    _MEASURED: ("took", "take", "went", "goes", "ran", "run", "measured", "observed", "saw",
                "see", "got", "result", "tested", "benchmark", "reduce", "improve", "dropped",
                "increased", "is", "was", "are", "were"),
}  # fmt: skip


def _found(
    pattern: re.Pattern[str], text: str, folded: str, a: int = 0, b: int | None = None
) -> bool:
    """`pattern.search(text[a:b])`, skipped when the window of `folded` (`_fold(text)`)
    lacks every literal the pattern needs."""
    return _mentions(folded[a:b], _NEEDS[pattern]) and pattern.search(text[a:b]) is not None


def _follows_a_digit(text: str, marks: str) -> bool:
    """Is one of `marks` right after a number's last digit (or its trailing commas,
    `[\\d,]*`), a blank between allowed? Else `_FACTOR` (x, ×) or `_PERCENT` (%)
    cannot match: finds are much cheaper than their scans, which start a match at
    every digit ("10px" in CSS)."""
    for mark in marks:
        i = text.find(mark)
        while i >= 0:
            j = i - 1
            if j >= 0 and text[j].isspace():
                j -= 1
            while j >= 0 and text[j] == ",":
                j -= 1
            if j >= 0 and text[j].isdecimal():
                return True
            i = text.find(mark, i + 1)
    return False


def _text_evidence(text: str, named: bool = True) -> TextEvidence:
    """What `text` says with numbers (see the module docstring). The quantity
    patterns run once over the whole text; the word patterns only around the
    quantities found. `named=False`: `_NAMED_VALUE` is known to find nothing (the
    prefilter's scan did not find it)."""
    ev = TextEvidence()
    folded = _fold(text)
    low = folded if text.isascii() else text.lower()
    absolute = [(m.start(), m.group(0)) for m in _ABSOLUTE.finditer(text)]
    if named and _mentions(low, _NAMED_KEYS):
        # `avg rate: 5710.2` counts; `latency: 5 ms` was already counted as `5 ms`
        starts = [a for a, _ in absolute]
        for m in _matches_from(_NAMED_VALUE, text, folded, _NAMED_KEYS):
            i = bisect_left(starts, m.start())
            if not (i < len(starts) and starts[i] < m.end()):
                absolute.append((m.start(), ""))
    quantities = [(pos, "abs", q) for pos, q in absolute]
    if _follows_a_digit(text, "x×"):
        quantities += [(m.start(), "rel", m.group(0)) for m in _FACTOR.finditer(text)]
    if _follows_a_digit(text, "%"):
        quantities += [(m.start(), "rel", m.group(0)) for m in _PERCENT.finditer(text)]
    if not quantities:
        return ev
    quantities.sort()
    bounds = [0, *(m.end() for m in _SENTENCE_END_AFTER.finditer(text)), len(text)]
    kept: list[tuple[int, str, str]] = []
    for pos, kind, quantity in quantities:
        i = bisect_right(bounds, pos)
        s0, s1 = bounds[i - 1], bounds[i] if i < len(bounds) else len(text)
        if kind == "rel":
            a, b = max(s0, pos - _WORD_REACH), min(s1, pos + _WORD_REACH)
            if not _found(_PERF_WORD, text, folded, a, b) or "coverage" in text[a:b].lower():
                continue
        if _found(_HEDGE, text, folded, max(s0, pos - _HEDGE_REACH), pos) or _found(
            _SETTING, text, folded, max(s0, pos - _SETTING_REACH), pos
        ):
            ev.hedged += 1
            continue
        kept.append((pos, kind, quantity))
        if kind == "rel":
            ev.relative += 1
            continue
        ev.absolute += 1
        a, b = max(s0, pos - _WORD_REACH), pos + len(quantity) + 20
        if _found(_STRONG_MEASURED, text, folded, a, b):
            ev.measured += 1
    positions = [p for p, _, _ in kept]
    for pos, kind, _ in kept:
        lo, hi = max(0, pos - _COMPARE_REACH), pos + _COMPARE_REACH
        near = bisect_right(positions, hi) - bisect_left(positions, lo)
        if (kind == "rel" or near >= 2) and _found(_COMPARE, text, folded, lo, hi):
            ev.compared = True
            break
    kept_abs = [(p, q) for p, kind, q in kept if kind == "abs"]
    ev.parallel = max(
        _parallel_lines(text, folded, kept_abs), _same_unit_in_a_sentence(text, kept_abs, bounds)
    )
    return ev


def _same_unit_in_a_sentence(text: str, absolute: list[tuple[int, str]], bounds: list[int]) -> int:
    """How often one unit repeats in one sentence: 3 or more times, or twice after
    the name of what is measured (`MXNet latency ...: 159.11 ms TVM latency ...:
    732.59 ms`): a table or log flattened onto one line. 0 otherwise."""
    counts: dict[tuple[int, str], int] = {}  # (sentence, unit) -> quantities
    keyed: list[tuple[tuple[int, str], int]] = []
    for pos, quantity in absolute:
        unit = _UNIT_OF.search(quantity.strip())
        if unit:
            key = (bisect_right(bounds, pos), unit.group(0).lower())
            counts[key] = counts.get(key, 0) + 1
            keyed.append((key, pos))
    best = max(counts.values(), default=0)
    if best >= 3:
        return best
    # (names are looked for only now, and only for units given twice in a sentence)
    named: dict[tuple[int, str], int] = {}
    for key, pos in keyed:
        if counts[key] >= 2 and _MEASURE_KEY.search(text[max(0, pos - 60) : pos]):
            named[key] = named.get(key, 0) + 1
    return 2 if max(named.values(), default=0) >= 2 else 0


# A number not glued to a word or a dot: `(?<![\w.])[-+]?\d[\d,]*...`, written to
# start with its first character's class, so that the regex engine can skip to
# candidates fast (the lookbehinds then check what precedes it).
_ROW_NUMBER = re.compile(
    r"[-+\d](?:(?<=[-+])(?<![\w.][-+])\d|(?<=\d)(?<![\w.]\d))[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?%?"
)
_ROW_WORD = re.compile(r"[A-Za-z_][\w.:/#-]*")
_CELL_SPLIT = re.compile(r"\t|\s*[,|]\s*|\s{2,}")


_PERF_HEADER_NEEDS = ("time", "latency", "throughput", "ops", "qps", "tps", "duration", "elapsed",
                      "speed", "score", "ms", "sec", "rate", "mean", "median", "avg", "average",
                      "best", "before", "after", "baseline", "contender", "improv", "change",
                      "diff", "cpu", "wall", "rows/s", "mb/s", "gb/s")  # fmt: skip
_P_DIGITS = re.compile(r"p\d\d")


def _may_name_perf(line: str) -> bool:
    """False when `_PERF_HEADER` cannot match `line`: none of its literals is there."""
    folded = _fold(line)
    return _mentions(folded, _PERF_HEADER_NEEDS) or _P_DIGITS.search(folded) is not None


# Each ASCII character as `_row_classes` reads it: a letter or `_` (`_ROW_WORD`
# starts with one), a digit, a dot, another character a word may go on with, anything
# else.
_ROW_CLASSES = bytes(
    ord("a") if chr(c).isalpha() or c == ord("_") else ord("1") if chr(c).isdigit()
    else ord(".") if c == ord(".") else ord("c") if chr(c) in ":/#-"
    else ord("\n") if c == ord("\n") else ord(" ")
    for c in range(128)
) + bytes(128)  # fmt: skip


def _row_classes(lines: list[str]) -> list[bytes] | None:
    """Each line of an ASCII text with its characters reduced to `_ROW_CLASSES`, where
    `a` after a blank begins a `_ROW_WORD` match (`_starts_at_least`) and only `1`
    after a blank or a `c` can begin a `_ROW_NUMBER` one (`_numbers_at_most`); None
    for another text."""
    joined = "\n".join(lines)
    if not joined.isascii():
        return None
    return joined.encode("ascii").translate(_ROW_CLASSES).split(b"\n")


def _starts_at_least(classes: bytes) -> int:
    """At most `len(_ROW_WORD.findall(line))`: the letters after a character no word
    goes on with (or at the start), where a match must begin."""
    return classes.count(b" a") + classes.startswith(b"a")


def _numbers_at_most(classes: bytes) -> int:
    """At least `len(_ROW_NUMBER.findall(line))`: each match has a first digit that
    follows no word character and no dot (a sign, if any, is a `c` or a blank)."""
    return classes.count(b" 1") + classes.count(b"c1") + classes.startswith(b"1")


def _numeric_block(text: str) -> int:
    """Rows of numbers under header lines that name a performance quantity
    (`mb_sec  avg_latency`, `Metric Name, Min, Mean, P95`), all blocks together:
    tables that no parser claimed, as tools print them (TSV, CSV, aligned)."""
    total = 0
    header_ok = False
    lines = text.splitlines()
    rows: set[int] = set()
    # A row has two numbers, and no more words than numbers. Blank lines go on a
    # block; the line above a row (blanks skipped) is a row of the same block, or else
    # the header line of a new one.
    classes = _row_classes(lines)
    for j, line in enumerate(lines):
        # (in an ASCII text, bounds counted in C turn away most lines with digits
        # before the regexes run: `v2.1.0`, `id=42`, a sentence with a date)
        if classes is not None and (
            (at_most := _numbers_at_most(classes[j])) < 2 or _starts_at_least(classes[j]) > at_most
        ):
            continue
        numbers = len(_ROW_NUMBER.findall(line))
        if not (numbers >= 2 and numbers >= len(_ROW_WORD.findall(line))):
            continue
        above = j - 1
        while above >= 0 and not lines[above].strip():
            above -= 1
        if above not in rows:
            header = lines[above] if above >= 0 else ""
            header_ok = (
                _may_name_perf(header)
                and bool(_PERF_HEADER.search(header))
                and len([c for c in _CELL_SPLIT.split(header.strip()) if c]) >= 2
            )
        rows.add(j)
        total += header_ok
    return total


_KEY_VALUE = re.compile(r"^\s*[\w.\-]+\s*[=:]")
_MEASURE_KEY = re.compile(
    r"latency|throughput|time|elapsed|duration|qps|tps|ops|mean|avg|average|median|p\d\d|"
    r"\bmax\b|\bmin\b|rate|speed",
    re.I,
)
_UNIT_OF = re.compile(r"[a-zµμ/%]+$", re.I)


def _parallel_lines(text: str, folded: str, absolute: list[tuple[int, str]]) -> int:
    """The longest run of consecutive lines (blank lines allowed between) that each
    state a time or rate in the same unit: `MXNet latency ...: 159.11 ms` then
    `TVM latency ...: 732.59 ms`. Hedged lines and settings break a run. `absolute` holds the
    (offset, text) of the quantities found in `text`; `folded` is `_fold(text)`."""
    first_unit: dict[int, str] = {}  # line start -> unit of its first quantity
    absolute = sorted(absolute)
    starts = _line_starts_of(text, [offset for offset, _ in absolute])
    for start, (_, quantity) in zip(starts, absolute, strict=True):
        unit = _UNIT_OF.search(quantity.strip())
        if unit:
            first_unit.setdefault(start, unit.group(0))
    best = run = 0
    unit = None
    previous_end = 0
    # Only lines with a quantity can extend a run; any other line that is not blank
    # (between two of them) ends it.
    for start in sorted(first_unit):
        if text[previous_end:start].strip():
            run, unit = 0, None
        end = text.find("\n", start) + 1 or len(text)
        previous_end = end
        line = text[start:end]
        line_unit = first_unit[start]
        # `linger: 5 ms` / `batch.size=10 ms` are settings, unless the key names a
        # performance quantity (`latency: 5 ms`)
        setting = _found(_SETTING, text, folded, start, end) or (
            _KEY_VALUE.match(line) and not _MEASURE_KEY.search(line)
        )
        if line_unit and not (setting or _found(_HEDGE, text, folded, start, end)):
            line_unit = line_unit.lower()
            run = run + 1 if line_unit == unit else 1
            unit = line_unit
            best = max(best, run)
        else:
            run, unit = 0, None
    return best


def _diff_rows_are_results(body: str, tables: list[ResultTable]) -> bool:
    """A diff whose -/+ rows parsed as result rows (a regenerated results file)."""
    for t in tables:
        if t.format == "prose" or not t.measurements:
            continue
        src = body[t.span[0] : t.span[1]] if 0 <= t.span[0] < t.span[1] <= len(body) else ""
        rows = [ln for ln in src.splitlines() if ln.strip()]
        if rows and sum(bool(_DIFF_ROW.match(ln)) for ln in rows) >= max(1, len(rows) // 3):
            return True
        if t.format not in GENERIC_FORMATS and t.format not in WEAK_TOOL_FORMATS:
            return True
    return False


def classify(
    body: str,
    tables: list[ResultTable],
    *,
    subject: str | None = None,
    kind: str | None = None,
    plain: bool = False,
) -> Verdict:
    """`plain=True`: every feature is computed, no early exit (the same verdict)."""
    try:
        return _classify(body or "", tables or [], subject or "", kind, plain)
    except Exception as exc:  # a classifier bug must not lose the message
        return Verdict(False, 0.0, [f"classifier error: {type(exc).__name__}: {exc}"])


# ---------------------------------------------------------------- prefilter
# What the whole-text checks of `features` cannot match without (lower case: found
# case-insensitively), declared to the prefilter, whose one scan of a message serves
# the format triggers too. A new check gated on `name in hits` declares its name here.
for _name, _keys in (
    ("ci", _CI_KEYS),
    ("maven", _MAVEN_KEYS),
    ("release", _RELEASE_KEYS),
    ("image", _IMAGE_KEYS),
    ("talk", _TALK_KEYS),
):
    prefilter.declare(f"classify:{_name}", Needs(lower=_keys))
# (a thread dump's frames name no exception: the frame itself is enough)
prefilter.declare(
    "classify:stack", Needs(lower=_STACK_KEYS, patterns=(r"at [\w$.<>]+\([\w$.]*(?::\d+)?\)",))
)
# Without one of these, `_text_evidence` finds no quantity (it looks for nothing else).
# (None of them ends with `\Z`: they match in `body` wherever they do in `text`)
prefilter.declare(
    "classify:quantity", Needs(patterns=(_ABSOLUTE.pattern, _FACTOR.pattern, _PERCENT.pattern))
)
prefilter.declare("classify:named", Needs(patterns=(_NAMED_VALUE.pattern,), caseless=True))
_QUANTITY_SCREENS = ("classify:quantity", "classify:named")


# ---------------------------------------------------------------- early exit
# The features all decided before `features` calls `_stops_early` (the CI and Maven
# checks among them: the text is read without their lines): when one of them has
# not fired by then, it will not. Any other weighted feature
# (a hard negative, or a feature not listed here) counts as still possible, with
# its weight if positive and a value of at most 1. A new feature computed before
# `_stops_early` is called should be listed (or early exits only get rarer).
EARLY_FEATURES = frozenset({
    "tool", "weak_tool", "more_tools", "perf_table", "more_perf_tables", "compared_table",
    "plain_table",
    "prose_compared", "prose_one", "text_compared", "text_many", "text_measured",
    "numeric_block", "results_cue", "ci", "maven", "maven_alone", "note",
})  # fmt: skip
EARLY_EXIT_REASON = "no positive evidence can reach the threshold"


# (the best the features not in EARLY_FEATURES can add, in WEIGHTS' order)
_LATE_WEIGHTS = [(name, max(0.0, w)) for name, w in WEIGHTS.items() if name not in EARLY_FEATURES]


def _weight(name: str, value: float) -> float:
    return WEIGHTS.get(name.split(":", 1)[0], 0.0) * value


def _stops_early(out: dict[str, tuple[float, str | None]]) -> str | None:
    """The reason to stop before the hard negatives, when even with every feature
    still to come at its best the sum cannot reach `THRESHOLD`; else None."""
    fired = {name.split(":", 1)[0] for name in out}
    best = sum(_weight(name, value) for name, (value, _) in out.items())
    best += sum(w for name, w in _LATE_WEIGHTS if name not in fired)
    if best >= THRESHOLD:
        return None
    return f"{EARLY_EXIT_REASON} (at most {best:+.1f} < {THRESHOLD:.1f}); negatives not checked"


def _classify(
    body: str, tables: list[ResultTable], subject: str, kind: str | None, plain: bool = False
) -> Verdict:
    total = 0.0
    reasons: list[str] = []
    found = features(body, tables, subject, kind, early_exit=not plain)
    for name, (value, reason) in found.items():
        weight = WEIGHTS.get(name.split(":", 1)[0], 0.0) * value
        total += weight
        reasons.append(f"{reason} ({weight:+.1f})")
    score = 1.0 / (1.0 + math.exp(-SCALE * (total - THRESHOLD)))
    return Verdict(total >= THRESHOLD, round(score, 3), reasons)


# The features no other one depends on: a caller that gives them no weight may have
# them left out (`features(unweighed=...)`); `note` stands for every note.
SKIPPABLE = frozenset(("stack", "dump", "note"))

# Which of prose's and our own sentence reading counts, when both found numbers.
_STRENGTH = {"prose_compared": 3, "text_compared": 3, "text_many": 2, "prose_one": 1,
             "text_measured": 1}  # fmt: skip


def features(
    body: str,
    tables: list[ResultTable],
    subject: str = "",
    kind: str | None = None,
    *,
    early_exit: bool = False,
    screened: bool = False,
    unweighed: frozenset[str] = frozenset(),
) -> dict[str, tuple[float, str | None]]:
    """The classifier's features of one message: name -> (value, reason). The
    verdict weighs each by `WEIGHTS[name]` (the part of the name before a `:`);
    `note:` entries weigh nothing and only explain (`talks about performance`).
    `early_exit=True` (the verdict's path): the whole-text checks are skipped where
    the prefilter's scan finds none of their literals, and when the positive
    evidence cannot reach the threshold, the hard negatives are not computed and a
    `note:` says so. `screened=True` (the fitted verdict's path): the checks are
    skipped where the scan finds none of their literals, with no early exit.
    Otherwise every check runs (the same features, slower). `unweighed`: the
    features of `SKIPPABLE` the caller gives no weight (the fitted verdict's), not
    looked for (no other feature depends on them)."""
    text = _strip_quotes(body)
    low = text.lower()
    folded = low if text.isascii() else _fold(text)
    out: dict[str, tuple[float, str | None]] = {}

    # (the whole-text checks' literals and patterns, from the message's one prefilter
    # scan: of `body`, which the registry scanned last when it found nothing, when
    # `text` is the start of `body`, up to a line break (its last one, or quoted
    # lines after it): what is declared below matches in `body` wherever it does in
    # `text`. Else of `text`)
    if not (early_exit or screened):
        hits = prefilter.EVERYTHING
    else:
        hits = prefilter.scan(body if body.startswith(text) else text)

    def add(name: str, value: float, reason: str) -> None:
        out[name] = (value, reason)

    def note(reason: str) -> None:
        out[f"note:{reason}"] = (0.0, reason)

    positive = False
    # (both needed twice: to drop the bookkeeping lines, and as hard negatives)
    ci = _CI.search(folded) if "classify:ci" in hits else None
    maven = "classify:maven" in hits and _MAVEN.search(text)

    # -- what the format parsers found
    tool_seen: set[str] = set()
    perf_tables = plain_tables = compared_tables = 0
    prose_n = 0
    prose_compared = False
    for t in tables:
        n = len(t.measurements)
        if not n:
            continue
        if t.format == "prose":
            src = t.source(body)
            folded_src = _fold(src)
            if _found(_HEDGE, src, folded_src) and not _found(_MEASURED, src, folded_src):
                continue
            prose_n += n
            prose_compared = prose_compared or _found(_COMPARE, src, folded_src)
        elif t.format in GENERIC_FORMATS:
            if _table_is_perf(t, body):
                perf_tables += 1
                compared_tables += _sides_compared(t)
            else:
                plain_tables += 1
        elif t.format not in tool_seen:
            tool_seen.add(t.format)
            count = sum(len(x.measurements) for x in tables if x.format == t.format)
            # one tool output is enough; more only add a little
            if len(tool_seen) > 1:
                name = "more_tools"
            elif t.format in WEAK_TOOL_FORMATS:
                name = "weak_tool"
            else:
                name = "tool"
            out[f"{name}:{t.format}"] = (1.0, f"{t.format} output: {count} measurements")
            positive = True
    if perf_tables:
        add("perf_table", 1.0, f"{perf_tables} table(s) of performance numbers")
        if perf_tables > 1:
            add("more_perf_tables", min(perf_tables - 1, 2), "more tables of performance numbers")
        if compared_tables:
            add(
                "compared_table",
                1.0,
                "a table of performance numbers sets two sides against each other",
            )
        positive = True
    if plain_tables and not perf_tables:
        add("plain_table", 1.0, f"{plain_tables} table(s) of numbers without performance units")
    # prose (the parser's) and text (ours) read the same sentences: the stronger counts
    prose: tuple[str, str] | None = None
    if prose_n >= 2 or (prose_n and prose_compared):
        prose = ("prose_compared", f"prose: {prose_n} measured numbers compared")
    elif prose_n:
        prose = ("prose_one", f"prose: {prose_n} measured number")

    # -- light text features of our own (they back up the parsers)
    # (str.isdigit also takes non-ASCII digits: only those need the slow loop)
    has_digits = any(d in text for d in "0123456789") or (
        not text.isascii() and any(c.isdigit() for c in text)
    )
    if has_digits:
        own_text = _without_noise_lines(text, bool(ci or maven))
        # (no quantity in the text: nothing to weigh. Where lines were left out,
        # their neighbours may join into one)
        may_quantify = own_text is not text or any(name in hits for name in _QUANTITY_SCREENS)
        # (a named value is looked for only where the scan found one: its literals are
        # in most passed mail, `time` in any, and each is tried, 15 us a message)
        named = own_text is not text or "classify:named" in hits
        ev = _text_evidence(own_text, named) if may_quantify else TextEvidence()
        n = ev.absolute + ev.relative
        own: tuple[str, str] | None = None
        if ev.compared or ev.measured >= 2 or ev.parallel >= 2:
            own = ("text_compared", f"text: {n} performance numbers compared")
        elif ev.absolute >= 3:
            own = ("text_many", f"text: {ev.absolute} numbers with performance units")
        elif n:
            own = ("text_measured", f"text: {n} numbers with performance units")
        # (text first: on a tie, our own reading's reason is shown)
        best = max((x for x in (own, prose) if x), key=lambda x: _STRENGTH[x[0]], default=None)
        if best:
            add(best[0], 1.0, best[1])
            positive = True
        if not (tool_seen or perf_tables):
            block = _numeric_block(own_text)
            if block >= 2:
                reason = f"text: {block} rows of numbers under a performance header"
                add("numeric_block", 1.0, reason)
                positive = True
        if ev.hedged and not n:
            note(f"text: {ev.hedged} numbers only in estimates, targets or settings")
        if positive and _has_results_cue(text, folded):
            add("results_cue", 1.0, "results cue")
    elif prose:
        add(prose[0], 1.0, prose[1])
        positive = True
    elif "note" not in unweighed and "classify:talk" in hits and _BENCH_TALK.search(text):
        note("talks about performance, no numbers")

    # -- hard negatives
    if ci:
        add("ci", 1.0, f"CI/build report ({text[ci.start() : ci.end()].strip()})")
    if maven:
        # its own numbers are already left out; it only weighs when nothing else speaks
        add("maven_alone" if not positive else "maven", 1.0, "Maven build/test summary")
    # (the features above are all decided: `EARLY_FEATURES`)
    if early_exit and (stop := _stops_early(out)):
        note(stop)
        return out
    # three kinds of evidence need a hash or a signature among them
    if _RELEASE[0].search(subject) or (
        "classify:release" in hits and _release_evidence(subject + "\n" + text)
    ):
        add("release", 1.0, "release vote (checksums/signatures)")
    stack = 0
    if "stack" not in unweighed and "classify:stack" in hits:
        stack = _lines_found(_STACK_LINE, text)
    if stack >= 3:
        add("stack", 1.0, f"stack trace ({stack} lines)")
    # (both patterns need a line starting with +/-, @@, diff, index)
    code_rows = _lines_found(_CODE_ROW, text) if _may_have_code_rows(text) else 0
    diff = _line_starts_with(text, _DIFF_STARTS) and _DIFF.search(text)
    # (a ```diff fence alone is not a diff: bots use it to colour result tables)
    if diff or code_rows >= 4 or ("```diff" in text and code_rows):
        if _diff_rows_are_results(body, tables):
            note("diff of result rows")
        else:
            add("diff", 1.0, "code diff")
    field_changes = len(_FIELD_CHANGE.findall(text)) if "(was:" in low else 0
    if field_changes or (_UPDATED_SUBJECT.search(subject) and not tables):
        add("field_change", 1.0, "JIRA field-change notification")
    if (
        "dump" not in unweighed
        and not tool_seen
        and (lines := max(1, sum(map(bool, map(str.strip, text.splitlines()))))) >= 8
    ):
        # (counted only when their upper bounds could pass one half)
        logs = len(_LOG_LINE.findall(text)) if _log_lines_at_most(text) > lines / 2 else 0
        configs = len(_CONFIG_LINE.findall(text)) if _config_lines_at_most(text) > lines / 2 else 0
        if logs / lines > 0.5 or configs / lines > 0.5:
            add("dump", 1.0, "log or config dump")
    if (
        not positive
        and "note" not in unweighed
        and ("classify:image" in hits and _IMAGE.search(text))
        and ("classify:talk" in hits and _BENCH_TALK.search(text))
    ):
        note("results only as images/links")
    return out
