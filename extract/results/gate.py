"""The gate: could this message be a benchmark report at all? Decided before any
reader runs, from one scan of its text.

Most list mail is ordinary; the readers, the number model and the verdict cost
hundreds of microseconds a message, most of it on mail that reports nothing. One
Hyperscan pass over the text counts what reports are made of (numbers with time,
rate, factor and percent units, performance words, rows of numbers, tool output's
marks, comparisons, the format readers' triggers) and what ordinary traffic is made
of (CI results, votes, stack traces, dates, many e-mail addresses), and which of
the format readers' triggers are there (the tools' and the generic layouts'); a logistic
model fitted on the labelled mail (`make fit`, weights in `gate_weights.py`) turns
the counts into a score. Below its threshold, chosen so that at least 99.5 % of the
labelled reports pass (cross-validated by thread), the message is not a report and
nothing else looks at it.

`gate(text)` returns (passes, score); `counts(text)` the features it weighs (each
family's count, and whether it is there at all; the triggers found).
"""

from __future__ import annotations

import functools
import math
import os
import threading

import hyperscan

from extract.results import formats, prefilter
from extract.results.prefilter import cached_database

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
# (name, pattern) of what is counted: Hyperscan syntax, searched case-insensitively in
# the UTF-8 text. A number's pattern starts with its digit, so a long text of digits
# is still one linear pass.
PATTERNS = (
    ("num_time", r"\d(?:[.,]\d+)?[ \t]?(?:(?:ns|us|µs|μs|ms|msecs?|s|secs?|seconds?)\b|毫秒|秒)"),
    ("num_long_time", r"\d[ \t]?(?:(?:mins?|minutes?|h|hrs?|hours?|days?)\b|分钟|小时)"),
    ("num_row", r"\d[ \t]*[,;\t|][ \t]*[\d.]+[ \t]*[,;\t|][ \t]*[\d.]+[ \t]*[,;\t|][ \t]*\d"
                r"|\d[ \t]{2,}[\d.]+[ \t]{2,}[\d.]+[ \t]{2,}\d"),
    ("num_rate", r"\d[ \t]?(?:(?:[kmg]?[ \t]?(?:ops?|req|reqs|requests|rows?|records?|msgs?"
                 r"|messages|queries|tx|txns?|events?|i|it|docs?|items?|writes|reads)[ \t]?"
                 r"(?:/|per[ \t])[ \t]?(?:s|sec|second|ms|min)|qps|tps|rps|iops|tpm(?:c|total)?"
                 r"|nopm|qphh|tpse|[kmgt]i?b/s|[kmgt]i?bps|mb/sec|gflops|cps|ops)\b"
                 # (in words, things counted or bytes a second, the clause ending there)
                 r"|(?:[a-z]{2,11}s|[kmgt]i?b)[ \t](?:an?|each|every)[ \t]"
                 r"(?:second|sec|minute|min|hour)[ \t]*[.,;:!?)\r\n])"),
    ("num_factor", r"\d[ \t]?(?:x|times)\b|\d[ \t]?×|(?:x|×)\d|factor of"),
    ("num_percent", r"\d[ \t]?(?:%|％)"),
    ("perf_word", r"latency|throughput|benchmark|perf|faster|slower|speed-?up|elapsed"
                  r"|regression|improv|qps|tps|jmh|耗时|吞吐|提升|性能|延迟|压测"),
    ("took", r"took|takes|taking|spent|went from|reduced|dropped|increased|down to|up to"),
    ("compare", r"before|after|\bvs\b|versus|baseline|with(?:out)? (?:the )?patch|master"
                r"|trunk|->|→|=>|compared"),
    ("pipe_row", r"\|[^\n|]*\d[^\n|]*\|"),
    # (a column's unit in its header, as hand-written tables put it: `write (s)`, `RSS (MB)`;
    # a blank before it: `file(s)` is a plural)
    ("unit_header", r"[a-z][ \t][(\[](?:ns|us|µs|ms|s|sec|secs|min|mins|h|[kmgt]i?b|%|x"
                    r"|[kmgt]i?b/s|ops/s|op/s|req/s|msg/s|rows/s|qps|tps|rps)[)\]]"),
    ("json_num", r"\"[a-z_][\w.]*\"[ \t]*:[ \t]*-?\d"),
    ("kv_num", r"[a-z_][\w.]*[ \t]?[=:][ \t]?-?\d"),
    ("aligned_row", r"[a-z_][^\n]{0,80}\d[ \t]{2,}[\d.,]+[ \t]{2,}[\d.,]"),
    ("tool_mark", r"benchmark[ \t]+mode|ns/op|ms/op|us/op|s/op|ops/ms|requests/sec"
                  r"|\[overall\]|iteration[ \t]+\d+:|result \"|real[ \t]+\d+m\d|i/s"
                  r"|best time\(ms\)|\btime:[ \t]+\[|thrpt|avgt"),
    ("ci", r"\+1 overall|-1 overall|jenkins|hadoop qa|yetus|codecov|build (?:failed|success)"
           r"|tests run:|total time taken|workflow run|dependabot|sonar"),
    ("vote", r"\[vote\]|\+1 \(binding\)|release candidate|sha512|\.asc\b|signatures?"),
    ("stack", r"\n[ \t]+at [a-z_$][\w$.]*\(|exception|caused by:"),
    # (what a conversation carries and a report rarely does: dates, and the addresses
    # of a commit's people, of a thread's quoted headers, of a vote tally)
    ("date", r"\b(?:19|20)\d\d[-/]\d\d[-/]\d\d\b|\b" + _MONTH + r"[ \t]+\d{1,2}\b"
             r"|\b\d{1,2}[ \t]+" + _MONTH + r"\b"),
    ("emails", r"[a-z0-9._-]+@[a-z0-9-]+\.[a-z]"),
)  # fmt: skip
NAMES = tuple(name for name, _ in PATTERNS)
CAP = 12  # counts are capped: the tenth number says little the third did not
# The length is capped too: past a few pages a text's length says no more about what it
# is, and uncapped it outweighs any capped count (a long JMH run's 20 KB table scored as
# a log would).
LENGTH_CAP = 8000
# Families whose first few matches count for nothing: a report, too, is signed with
# its sender's address or quotes one (the mail's own header, a reply's "wrote:"); a
# sentence names a thing by its letters in brackets (`English (US)`, `Great Britain
# (GB)`), a table's header names the units of its columns, several.
FREE = {"emails": 2, "unit_header": 1}
_FREE = [(i, FREE[name]) for i, name in enumerate(NAMES) if name in FREE]

_local = threading.local()

# The format readers' triggers, counted in the same scan: a format is there when one
# of its trigger's parts is (the part's needles and its pattern, as the prefilter
# declares them to the readers). Each of those names is reported once, however often
# it matches. (Read from the readers' own declarations, so that the gate never pays
# for the prefilter's scan of a message it turns away: that scan decides more,
# exactly, and costs twice the gate's; here a non-ASCII text is read as its UTF-8
# bytes. Hyperscan's logical combinations, which would say "this format" in one
# match, take neither prefilter-mode patterns nor some of the triggers. The database
# is 3.7 MB where the families alone were 0.3 MB: the pipeline gates a batch of
# messages in a row, and the prefilter's automaton is not needed for any of them.)
_NAME_BASE = 1_000
_LAYOUT = 2  # bump when the rows below are made differently

# Each generic layout whose trigger is there is a feature of its own (`layout:<format>`),
# besides how many are there: they say "report" unequally. In the labelled mail, prose's
# trigger (a number with a unit in a sentence) is in 88 % of the reports and 22 % of the
# other messages, records' (`name: number unit`) in 66 % and 24 %. The ascii table's
# parts are layouts of their own and each is weighed (`layout:ascii-table:<part>`, by
# its place in the reader's trigger): two values in a row (`38.4 s 29.9 s`, the trigger
# of a table run onto one line) is in 87 % and 41 %, two lines with aligned gaps in 55 %
# and 18 %, a box's bar lines in 18 % and 15 %. (Weighed as one count, a short note with
# two numbers in a row passed as a table would.)
BY_PART = frozenset({"ascii-table"})


def _formats() -> list[tuple[str, bool, tuple[tuple[str, ...], ...]]]:
    """(name, generic, parts) of each format that reads results
    (`formats.trigger_parts`)."""
    return formats.trigger_parts()


def _names(fmts) -> list[str]:
    return sorted({name for _, _, parts in fmts for part in parts for name in part})


def _rows() -> list[tuple[bytes, int, int]]:
    flags = hyperscan.HS_FLAG_CASELESS | hyperscan.HS_FLAG_UTF8 | hyperscan.HS_FLAG_ALLOWEMPTY
    rows = [(p.encode("utf-8"), i, flags) for i, (_, p) in enumerate(PATTERNS)]
    once = hyperscan.HS_FLAG_SINGLEMATCH
    for j, name in enumerate(_names(_formats())):
        # (a name the scan cannot rule out is there in every text: the empty match)
        found = prefilter.expressions(name) or [(b"", hyperscan.HS_FLAG_ALLOWEMPTY)]
        rows += [(expression, _NAME_BASE + j, flag | once) for expression, flag in found]
    return rows


@functools.cache
def _parts() -> tuple[
    tuple[tuple[bool, tuple[frozenset[int], ...], tuple[int, ...]], ...], tuple[str, ...]
]:
    """(generic, parts, layouts) of each format that reads results, each part as the
    ids its names are found with and as the index of the layout feature it stands for
    (a generic format's: `BY_PART`); and the names of those features."""
    fmts = _formats()
    index = {name: _NAME_BASE + j for j, name in enumerate(_names(fmts))}
    out, names = [], []
    for name, generic, parts in fmts:
        layouts: tuple[int, ...] = ()
        if generic and name in BY_PART:
            layouts = tuple(range(len(names), len(names) + len(parts)))
            names += [f"layout:{name}:{j}" for j in range(len(parts))]
        elif generic:
            layouts = (len(names),) * len(parts)
            names.append(f"layout:{name}")
        ids = tuple(frozenset(index[n] for n in part) for part in parts)
        out.append((generic, ids, layouts))
    return tuple(out), tuple(names)


def layout_names() -> tuple[str, ...]:
    """The generic layouts' features (`BY_PART`), in the order the gate finds them."""
    return _parts()[1]


@functools.lru_cache(maxsize=4096)
def _triggered(found: frozenset[int]) -> tuple[int, int, tuple[int, ...]]:
    """(tool formats, generic formats) whose trigger is there, given the ids found, and
    the generic layouts there (their indexes in `layout_names()`). (Most mail finds one
    of a few such sets.)"""
    tools = generic = 0
    layouts: set[int] = set()
    for is_generic, parts, features in _parts()[0]:
        there = [k for k, part in enumerate(parts) if part <= found]
        if there and is_generic:
            generic += 1
            layouts.update(features[k] for k in there)
        elif there:
            tools += 1
    return tools, generic, tuple(sorted(layouts))


def _database() -> hyperscan.Database:
    db = getattr(_local, "db", None)
    if db is None:
        fmts = _formats()
        # (what the rows are made of: a new declaration makes another database)
        key = repr((_LAYOUT, PATTERNS, [(n, prefilter.needs_of(n)) for n in _names(fmts)]))
        # (compiling took every worker process seconds; read back from the cache in ms)
        db = _local.db = cached_database("gate", _rows, key=key)
    return db


def warm() -> None:
    """Read (or compile, the first time) the gate's database now, outside any
    message's time budget."""
    _database()


def _scan(text: str) -> tuple[list[int], int, int, tuple[int, ...]]:
    """Each family's count in `text`, how many tool formats and generic formats the
    readers' triggers find, and which generic layouts, in one pass."""
    found = [0] * len(PATTERNS)
    names: list[int] = []
    n_families = len(PATTERNS)

    def on_match(i: int, start: int, end: int, flags: int, context: object) -> None:
        if i < n_families:
            found[i] += 1
        else:
            names.append(i)

    _database().scan(text.encode("utf-8", "surrogatepass"), match_event_handler=on_match)
    for i, free in _FREE:
        found[i] = max(0, found[i] - free)
    return found, *_triggered(frozenset(names))


def counts(text: str) -> dict[str, float]:
    """The features the gate weighs: each pattern family's count in `text` (capped at
    CAP) as log(1 + count), and whether it is there at all; the text's length; the
    readers' triggers found, and each generic layout's (`BY_PART`)."""
    found, tools, generic, layouts = _scan(text)
    out = {name: math.log1p(min(CAP, n)) for name, n in zip(NAMES, found, strict=True)}
    # (whether a family is there at all: a report has a few of each kind of mark, and
    # one stray mark in a long message weighs little on the log scale)
    out.update((f"{name}:any", 1.0) for name, n in zip(NAMES, found, strict=True) if n)
    out["length"] = _length(text)
    # (the format readers' triggers found: tools' and generic layouts')
    out["trigger_tool"] = math.log1p(tools)
    out["trigger_generic"] = math.log1p(generic)
    names = layout_names()
    out.update((names[k], 1.0) for k in layouts)
    return out


def _length(text: str) -> float:
    return math.log1p(min(len(text), LENGTH_CAP) / 1000)


def load_model():
    try:
        from extract.results import gate_weights
    except ImportError:
        return None
    return gate_weights.WEIGHTS, gate_weights.BIAS, gate_weights.THRESHOLD


_MODEL = None


def score(feats: dict[str, float], model) -> float:
    weights, bias, _ = model
    z = bias + sum(weights.get(k, 0.0) * v for k, v in feats.items())
    return _logistic(z)


def _logistic(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


class _Tables:
    """A model's weights laid out for `_scan`'s counts: `score(counts(text))` without
    the features' dict, in the same order of additions (the same float)."""

    def __init__(self, model) -> None:
        weights, self.bias, self.threshold = model
        logs = [math.log1p(n) for n in range(CAP + 1)]
        self.family = [[weights.get(name, 0.0) * v for v in logs] for name in NAMES]
        self.any = [weights.get(f"{name}:any", 0.0) * 1.0 for name in NAMES]
        self.length = weights.get("length", 0.0)
        self.tool = weights.get("trigger_tool", 0.0)
        self.generic = weights.get("trigger_generic", 0.0)
        self.layout = [weights.get(name, 0.0) * 1.0 for name in layout_names()]

    def score(self, text: str) -> float:
        found, tools, generic, layouts = _scan(text)
        # (a family not found adds nothing: most are not, in most mail)
        there = [i for i, n in enumerate(found) if n]
        z = 0
        for i in there:
            z += self.family[i][min(CAP, found[i])]
        for i in there:
            z += self.any[i]
        z += self.length * _length(text)
        z += self.tool * math.log1p(tools)
        z += self.generic * math.log1p(generic)
        for k in layouts:
            z += self.layout[k]
        return _logistic(self.bias + z)


def gate(text: str, model=None) -> tuple[bool, float]:
    """(whether `text` may be a report, the gate's score). Without a fitted gate, or
    with the environment's `EXTRACT_GATE=off` (to measure what the gate costs), every
    text passes."""
    global _MODEL
    if model is not None:
        p = score(counts(text), model)
        return p >= model[2], p
    if _MODEL is None:
        off = os.environ.get("EXTRACT_GATE", "").lower() in ("0", "off", "no", "false")
        fitted = None if off else load_model()
        _MODEL = _Tables(fitted) if fitted is not None else False
    if _MODEL is False:
        return True, 1.0
    p = _MODEL.score(text)
    return p >= _MODEL.threshold, p
