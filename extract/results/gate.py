"""The gate: could this message be a benchmark report at all? Decided before any
reader runs, from one scan of its text.

Most list mail is ordinary; the readers, the number model and the verdict cost
hundreds of microseconds a message, most of it on mail that reports nothing. One
Hyperscan pass over the text counts what reports are made of (numbers with time,
rate, factor and percent units, performance words, rows of numbers, tool output's
marks, comparisons) and what ordinary traffic is made of (CI results, votes, stack
traces); a logistic model fitted on the labelled mail (`make fit`, weights in
`gate_weights.py`) turns the counts into a score. Below its threshold, chosen so
that at least 99.5 % of the labelled reports pass (cross-validated by thread), the
message is not a report and nothing else looks at it.

`gate(text)` returns (passes, score); `counts(text)` the features it weighs (each
family's count, and whether it is there at all).
"""

from __future__ import annotations

import math
import os
import threading

import hyperscan

from extract.results.formats import triggered
from extract.results.prefilter import cached_database

# (name, pattern) of what is counted: Hyperscan syntax, searched case-insensitively in
# the UTF-8 text. A number's pattern starts with its digit, so a long text of digits
# is still one linear pass.
PATTERNS = (
    ("num_time", r"\d(?:[.,]\d+)?[ \t]?(?:(?:ns|us|µs|μs|ms|msecs?|s|secs?|seconds?)\b|毫秒|秒)"),
    ("num_long_time", r"\d[ \t]?(?:(?:mins?|minutes?|h|hrs?|hours?|days?)\b|分钟|小时)"),
    ("num_row", r"\d[ \t]*[,;\t|][ \t]*[\d.]+[ \t]*[,;\t|][ \t]*[\d.]+[ \t]*[,;\t|][ \t]*\d"
                r"|\d[ \t]{2,}[\d.]+[ \t]{2,}[\d.]+[ \t]{2,}\d"),
    ("num_rate", r"\d[ \t]?(?:[kmg]?[ \t]?(?:ops?|req|reqs|requests|rows?|records?|msgs?|messages"
                 r"|queries|tx|txns?|events?|i|it|docs?|items?|writes|reads)[ \t]?(?:/|per[ \t])"
                 r"[ \t]?(?:s|sec|second|ms|min)|qps|tps|rps|iops|[kmgt]i?b/s|[kmgt]i?bps|mb/sec"
                 r"|gflops|cps|ops)\b"),
    ("num_factor", r"\d[ \t]?(?:x|times)\b|\d[ \t]?×|(?:x|×)\d|factor of"),
    ("num_percent", r"\d[ \t]?(?:%|％)"),
    ("perf_word", r"latency|throughput|benchmark|perf|faster|slower|speed-?up|elapsed"
                  r"|regression|improv|qps|tps|jmh|耗时|吞吐|提升|性能|延迟|压测"),
    ("took", r"took|takes|taking|spent|went from|reduced|dropped|increased|down to|up to"),
    ("compare", r"before|after|\bvs\b|versus|baseline|with(?:out)? (?:the )?patch|master"
                r"|trunk|->|→|=>|compared"),
    ("pipe_row", r"\|[^\n|]*\d[^\n|]*\|"),
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
)  # fmt: skip
NAMES = tuple(name for name, _ in PATTERNS)
CAP = 12  # counts are capped: the tenth number says little the third did not

_local = threading.local()


def _database() -> hyperscan.Database:
    db = getattr(_local, "db", None)
    if db is None:
        flags = hyperscan.HS_FLAG_CASELESS | hyperscan.HS_FLAG_UTF8 | hyperscan.HS_FLAG_ALLOWEMPTY
        rows = [(p.encode("utf-8"), i, flags) for i, (_, p) in enumerate(PATTERNS)]
        # (compiling took every worker process 0.2 s; read back from the cache in ms)
        db = _local.db = cached_database("gate", rows)
    return db


def warm() -> None:
    """Read (or compile, the first time) the gate's database now, outside any
    message's time budget."""
    _database()


def counts(text: str) -> dict[str, float]:
    """Each pattern family's count in `text` (capped at CAP), as log(1 + count)."""
    db = _database()
    found = [0] * len(PATTERNS)

    def on_match(i: int, start: int, end: int, flags: int, context: object) -> None:
        found[i] += 1

    db.scan(text.encode("utf-8", "surrogatepass"), match_event_handler=on_match)
    out = {name: math.log1p(min(CAP, n)) for name, n in zip(NAMES, found, strict=True)}
    # (whether a family is there at all: a report has a few of each kind of mark, and
    # one stray mark in a long message weighs little on the log scale)
    out.update((f"{name}:any", 1.0) for name, n in zip(NAMES, found, strict=True) if n)
    out["length"] = math.log1p(len(text) / 1000)
    # (the format readers' triggers, from the prefilter's scan the readers reuse)
    tools, generic = triggered(text)
    out["trigger_tool"] = math.log1p(tools)
    out["trigger_generic"] = math.log1p(generic)
    return out


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
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def gate(text: str, model=None) -> tuple[bool, float]:
    """(whether `text` may be a report, the gate's score). Without a fitted gate, or
    with the environment's `EXTRACT_GATE=off` (to measure what the gate costs), every
    text passes."""
    global _MODEL
    if model is None:
        if _MODEL is None:
            off = os.environ.get("EXTRACT_GATE", "").lower() in ("0", "off", "no", "false")
            _MODEL = None if off else load_model()
            _MODEL = _MODEL or ({}, 0.0, -1.0)
        model = _MODEL
    if model[2] < 0:
        return True, 1.0
    p = score(counts(text), model)
    return p >= model[2], p
