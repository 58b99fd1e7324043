"""Measured numbers written in sentences: returns one table per sentence that has any.

Runs last (priority 90), on the text the table and tool parsers left unclaimed, and
outside code fences. A number counts only when it carries a performance unit and,
for units that also name settings, sits near a performance word:
* durations (`27 sec`, `~3.5 minutes`, `0.4s`, `4:40 min` → 280 s) with a cue such
  as took / takes / time / latency / faster / reduced / from ... to / `->`;
* rates (`320k rows/sec`, `~6k/ms`, `7117 QPS`, `131 MB/s`): always performance;
* ratios (`3x improvement`, `2-5x latency improvement`, `a factor of more than 5`)
  followed or preceded by a speed word; unit `x`;
* percentages (`4.2% performance degrade`, `improved throughput by 30%`) next to a
  change word (improvement, faster, degradation, reduced, less cpu, ...).
Never: dates, versions, ids, CLI args, config values (`timeout of 30 s`, `set to`,
`=`), expectations (`should be 30% faster`, `up to`, `as much as`, questions).

The `-` and `+` lines of a ```diff fence (a change to a README or a doc) are read as
sentences too, their measurements' variant `[-]` (old text) or `[+]` (new).

Measurements: value = the number as written (`320k` → 320000, `~2` → 2, a range
`2-5` → its lower bound; `written` keeps the text, qualifier included), unit as
written (`sec`, `minutes`, `rows/sec`, `x`, `%`; clock times become `s`); metric =
the performance word nearest to the number (`build time`, `latency`,
`improvement`) or the unit's kind (`time`, `throughput`, `speedup`, `change`);
label = the clause before the number (`This reduces the ambari metrics build time`);
variant = `before` / `after` for `from A to B`, `A -> B` and numbers followed by
before / after / with(out) the patch.
"""

from __future__ import annotations

import re

from extract.results.formats._context import measure
from extract.results.formats.base import FormatInfo, Measurement, ResultTable
from extract.results.units import parse_number

# A number with a unit (the trigger's first part): a digit, then `_AFTER_DIGIT`.
_AFTER_DIGIT = (
    r"[kKM]?\s?(?=[%×/ptxXorqmefdiKMGBkgQTnuµμshlc])(?:%|percent\b|[xX]\b|×"
    r"|times\s|(?:(?:ops?|rows|records|reqs?|requests|queries|msgs?|messages|tx|txns?"
    r"|transactions|events|files|docs|documents|i|it|iter|[KMG]?i?B|[kmg]b)"
    r"/(?:s|sec|second|ms|min)|/(?:s|sec|ms)"
    r"|(?:ops?|operations?|lookups?|calls|queries|requests|rows|records|messages|transactions)"
    r" per sec(?:ond)?"
    r"|QPS|TPS|qps|tps|ops|MBps|GBps|ns|nano ?seconds?|us|µs|μs|micro ?seconds?|ms|msecs?"
    r"|millis(?:econds?)?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?)(?![\w/]))"
)
_NUMBER_UNIT = r"\d" + _AFTER_DIGIT
# The decimal digits `\d` matches besides 0-9 (a test checks the list): ten from each
# of these code points, fifty (the mathematical digits) from 0x1D7CE.
_WIDE_DIGIT_STARTS = (
    0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66, 0xCE6, 0xD66,
    0xDE6, 0xE50, 0xED0, 0xF20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80,
    0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0,
    0xAA50, 0xABF0, 0xFF10, 0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0,
    0x112F0, 0x11450, 0x114D0, 0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50,
    0x11D50, 0x11DA0, 0x16A60, 0x16AC0, 0x16B50, 0x1D7CE, 0x1E140, 0x1E2F0, 0x1E950,
    0x1FBF0,
)  # fmt: skip
WIDE_DIGITS = "".join(
    chr(start + k) for start in _WIDE_DIGIT_STARTS for k in range(50 if start == 0x1D7CE else 10)
)

# Rates named before their number (see `_RATE_LED`), as they are written.
_RATE_NAMES = r"TPS|QPS|RPS|tps|qps|rps|[Tt]hroughput"

INFO = FormatInfo(
    name="prose",
    description="numbers with units in sentences ('took 27 sec ... 9 sec with the patch')",
    signature="a number with a duration, rate, `x` or `%` unit next to a performance word "
    "(took, faster, latency, improvement, from ... to ...)",
    priority=90,
    kind="result",
    trigger=rf"(?-i:{_NUMBER_UNIT}|factor of\s|{_RATE_NAMES}|\d:[0-5]\d)|吞吐",
    # One part per ASCII digit: a regex that starts with a literal is searched much
    # faster than one that starts with `\d`. Other digits only when the text has one.
    trigger_parts=(
        *((rf"(?-i:{digit}{_AFTER_DIGIT})", (), ()) for digit in "0123456789"),
        (rf"(?-i:(?![0-9])\d{_AFTER_DIGIT})", tuple(WIDE_DIGITS), ()),
        (r"(?-i:factor of\s)", ("factor of",), ()),
        (rf"(?-i:{_RATE_NAMES})", ("TPS", "QPS", "RPS", "tps", "qps", "rps", "hroughput"), ()),
        (r"吞吐", ("吞吐",), ()),
        (r"(?-i:\d:[0-5]\d)", (":",), ()),
    ),
)

_FENCE = re.compile(
    r"```.*?(?:```|\Z)|\{code(?::[^}]*)?\}.*?(?:\{code\}|\Z)|\{noformat\}.*?(?:\{noformat\}|\Z)"
    r"|<pre>.*?(?:</pre>|\Z)",
    re.S,
)
_QUOTE_FIRST = re.compile(r"[ \t]*>[^\n]*")
_QUOTE_NEXT = re.compile(r"\n([ \t]*>[^\n]*)")
_WRAPPED = re.compile(r"\n([ \t]*[^\s>][^\n]*)")
_FENCE_STARTS = ("```", "{code", "{noformat}", "<pre>")  # each alternative starts with one
# Sentence ends: `. ` before a capital, blank lines, bullets, table-ish pipes.
# (Written as `\s(?:...)`, each alternative checking the character it starts with by a
# lookbehind, so that the regex engine skips to whitespace; the same matches as
# `(?<=[.!?])\s+(?=...)|\n[ \t]*\n|\n(?=...)|\s\|\s|\n(?=[A-Z#])`.)
_ENDS = (
    r"(?:(?<=[.!?]\s)\s*(?=[A-Z`*(\[\"'])|(?<=\n)[ \t]*\n"
    r"|(?<=\n)(?=[ \t]*(?:[-*•>#]|\d+[.)])\s)|\|\s|(?<=\n)(?=[A-Z#])"
    # a Markdown heading in a flattened mail (`... 2 min ## How was this tested?`)
    r"|(?=#{2,6}[ \t]))"
)
_SENTENCE_END = re.compile(r"\s" + _ENDS)
# The same, where it starts at a line break, and the other places where it can start:
# a space after `.`, `!` or `?`, or before `|` (`_ends` reads the text with these; a
# regex that starts with a literal skips to it, one with `\s` stops at every space).
_SENTENCE_END_NL = re.compile(r"\n" + _ENDS)
_AFTER_STOP = [re.compile(re.escape(c) + r"(?=[^\S\n])") for c in ".!?"]
_BEFORE_PIPE = re.compile(r"\|(?<=[^\S\n]\|)")
_BEFORE_HEADING = re.compile(r"#(?<=[^\S\n]#)(?=#{1,5}[ \t])")

_DURATION = (
    r"ns|nano ?seconds?|us|µs|μs|micro ?seconds?|ms|msecs?|millis(?:econds?)?|milli seconds?"
    r"|s|secs?|seconds?"
    r"|mins?|minutes?|h|hrs?|hours?"
)
_RATE = (
    r"(?:ops|op|rows|records|req|reqs|requests|queries|msgs?|messages|tx|txns?|transactions|events"
    r"|files|docs|documents|i|it|iter|B|KB|MB|GB|KiB|MiB|GiB|kb|mb|gb)/(?:s|sec|second|ms|min)"
    r"|/(?:s|sec|ms)|(?:ops|op|operations?|lookups?|calls|queries|requests|rows|records|messages"
    r"|transactions) per sec(?:ond)?"
    r"|QPS|TPS|qps|tps|ops|MBps|GBps"
)
_CANDIDATE = re.compile(
    r"(?<![\w.\-/=:#@$+])"
    r"(?P<q>(?:~|≈|about|around|approximately|approx\.?|roughly|nearly|almost|more than|over"
    r"|less than|under|only|just)\s*)?"
    r"(?P<n>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d,.])"
    r"|\d+(?:\.\d+)?(?::\d\d(?:\.\d+)?)?)"
    r"(?P<range>\s?[-–~]\s?\d+(?:\.\d+)?|[xX×]?\s(?:to|or)\s\d+(?:\.\d+)?(?=\s?[xX×%]))?"
    r"(?P<suf>[kKM](?=\s?/|\s?(?:rows|records|ops|req|QPS|TPS|qps|tps|msg)\b|\b))?"
    rf"(?:\s?(?P<unit>%|percent\b|[xX×](?![\w])|times(?=\s+(?:faster|slower|better|more|less))"
    rf"|(?:{_RATE})(?![\w/])|(?:{_DURATION})(?![\w/])))"
)
# What may stand before a number in `_CANDIDATE` (its group `q`, without the spaces).
_QUALIFIERS = (
    "~", "≈", "about", "around", "approximately", "approx.", "approx", "roughly", "nearly",
    "almost", "more than", "over", "less than", "under", "only", "just",
)  # fmt: skip
# By last character, longest first (so the earliest start is tried first).
_QUALIFIERS_BY_LAST: dict[str, list[str]] = {}
for _q in sorted(_QUALIFIERS, key=len, reverse=True):
    _QUALIFIERS_BY_LAST.setdefault(_q[-1], []).append(_q)
# A run of digits; `\d\d*`, not `\d+`: a pattern that starts with a class is scanned
# fast.
_DIGITS = re.compile(r"\d\d*")
_NUMBER_UNIT_RE = re.compile(_NUMBER_UNIT)
_QUOTE_MARK = re.compile(r">(?<=\s>)(?=\s)")  # `(?<=\s)>(?=\s)`, found from its literal
_DIGIT = re.compile(r"\d")
_FACTOR = re.compile(
    r"\bfactor of\s+(?P<q>(?:more than|over|about|around|~|almost|nearly)\s*)?(?P<n>\d+(?:\.\d+)?)"
)

_PERF = re.compile(
    r"(?i)\b(?:took|takes?|taking|took around|time[sd]?|timings?|runtime|run|runs|ran|running"
    r"|latenc(?:y|ies)|elapsed|spent|duration|faster|slower|quicker|speed(?:s|up|-up)?|improve"
    r"\w*|reduc\w*|degrad\w*|regress\w*|benchmark\w*|perf\w*|throughput|build|startup|start-up"
    r"|load(?:ing|ed)?|finish\w*|complete[sd]?|wall|cpu|went|goes|from)\b|->|→"
)
_SPEED_WORD = re.compile(
    r"(?i)^\W{0,3}(?:\w+\s+){0,2}(?:faster|slower|quicker|speed-?ups?|improve\w*|better|worse"
    r"|latency|throughput|perf\w*|reduction|regression|degradation|gain|more throughput|less)\b"
)
_SPEED_BEFORE = re.compile(r"(?i)(?:speed-?up|improvement|gain|factor) (?:of|by)\s*$")
_CHANGE_WORD = re.compile(
    r"(?i)\b(?:improv\w*|faster|slower|speed\w*|degrad\w*|regress\w*|reduc\w*|decreas\w*|increas\w*"
    r"|drop\w*|gain\w*|overhead|less|fewer|more|better|worse|saving\w*|lower|higher|latency"
    r"|throughput|cpu|slowdown|perf\w*)\b"
)
_NOT_PERF_PERCENT = re.compile(
    r"(?i)\b(?:coverage|covered|complete|completed|done|progress|probability|chance|share|of users"
    r"|p-?value|confidence|accuracy|precision|recall|disk usage|full|utili[sz]ation of the disk)\b"
)
# Words just before a number that make it a setting, a limit or a schedule.
_SETTING_BEFORE = re.compile(
    r"(?i)(?:\b(?:timeout|time-out|interval|every|wait(?:ing)?|sleep(?:ing)?|delay|retry|retries|ttl"
    r"|expir\w*|heartbeat|session|deadline|period|after|within|last|default|set to|configured"
    r"|config|limit(?:ed)?|maximum|minimum|max\.|min\.|up to|at most|at least|as much as|for|per)"
    r"|=|(?:^|\s)--?[A-Za-z][\w.-]*)\s*(?:of\s*|is\s*|to\s*|at\s*|:\s*)?$"
)
# In ASCII text (where re.I is ASCII case-insensitivity) every match of these has one
# of these pieces in `text.lower()`: a few `in` checks skip most searches of a
# case-insensitive alternation, which the regex engine tries at every character.
_SETTING_PIECES = (
    "timeout", "interval", "every", "wait", "sleep", "delay", "retr", "ttl", "expir",
    "heartbeat", "session", "deadline", "period", "after", "within", "last", "default",
    "set to", "config", "limit", "maximum", "minimum", "max.", "min.", "up to", "at most",
    "at least", "as much as", "for", "per", "=", "-",
)  # fmt: skip


def _may_match(text: str, pieces: tuple[str, ...]) -> bool:
    if not text.isascii():
        return True
    lower = text.lower()
    return any(p in lower for p in pieces)


# Nouns just after a number that make it a setting: `a 100 ms timeout`.
_SETTING_AFTER = re.compile(
    r"(?i)\s*(?:\w+\s+)?(?:timeout|time-out|interval|delay|sleep|ttl|heartbeat|window|deadline"
    r"|budget|limit|cap|threshold|backoff|retention|expiry|grace period)\b"
)
_EXPECTATION = re.compile(
    r"(?i)\b(?:should|expect\w*|would|could|might|may|hope\w*|target\w*|goal|estimat\w*|assum\w*"
    # (`plan`, `planned`, not the query `planner`)
    r"|aim\w*|want|wish|plan(?:s|ned|ning)?|predict\w*|theoretical\w*|can we|need to|must|will"
    r"|believe|think|guess|probably|likely|possibl\w*|potential\w*|ideally)\b"
)
_EXPECTATION_PIECES = (
    "should", "expect", "would", "could", "might", "may", "hope", "target", "goal",
    "estimat", "assum", "aim", "want", "wish", "plan", "predict", "theoretical", "can we",
    "need to", "must", "will", "believe", "think", "guess", "probably", "likely",
    "possibl", "potential", "ideally",
)  # fmt: skip
# Build tool bookkeeping (Maven's `Total time: 02:05 min`, cargo's `Finished ... target(s)
# in 0.23s`) is not a benchmark.
_BOOKKEEPING = re.compile(
    r"\[INFO\]|BUILD (?:SUCCESS|FAILURE)|Reactor Summary|Finished at:|target\(s\) in \d"
)
# Quoted reply lines, and the lines a gateway wrapped out of them.
_METRIC_WORDS = re.compile(
    r"(?i)\b(?:(?:build|startup|start-up|loading|load|run|running|execution|wall|cpu|query|"
    r"response|compile|compilation|test|dump|write|read|image loading)\s+time|latency|throughput"
    r"|runtime|speed|speedup|improvement|degradation|degrade|regression|overhead|slowdown"
    r"|reduction|cpu|duration|qps|tps)\b"
)
_BEFORE_AFTER = re.compile(
    r"(?i)^\W{0,3}(?:\)?\s*)?(?P<w>before|after"
    r"|with(?:out)? (?:the |this |my )?(?:patch|change|fix)|baseline|patched|unpatched|old|new)\b"
)


# A rate named before its number, without a unit after it: `TPS reached 38k`,
# `the QPS of A is 18000`, `tps stabilised at about 10w`, `TPS打到3.8万`. The
# magnitudes: k, and the CJK 万 (10^4) and 亿 (10^8) with their romanised w/W.
_RATE_LED = re.compile(
    rf"(?P<kw>(?<![A-Za-z-])(?:{_RATE_NAMES})(?![A-Za-z])|吞吐量?)"
    r"(?P<link>[^\d.!?;:\n]{0,24}?|\s*[:：]\s*)"
    r"(?P<q>(?:about|around|approximately|nearly|almost|over|more than|~|约|大约)\s*)?"
    r"(?<![A-Za-z0-9_.])(?P<n>\d+(?:\.\d+)?)"
    # a CJK magnitude ends the number (`3.8万 after the fix`); else no unit may follow
    r"(?:(?P<cjk>万|亿)|(?P<suf>[wWkK](?![A-Za-z]))?"
    r"(?![\d]|[.,]\d|\s?(?:%|[xX×/](?!\w)|[A-Za-zµ]+/|(?:ns|us|µs|ms|s|secs?|seconds?|mins?"
    r"|minutes?|h|hrs?|hours?|[kKMGT]?i?B|ops|qps|tps|QPS|TPS)(?![A-Za-z])))"
    # a word after a bare number counts something else (`1 thread`, `20 JVMs`), unless
    # it only goes on with the sentence (`38k on one broker`, `18000 now`)
    r"(?(suf)|(?!\s?(?!(?:on|in|at|with|after|before|and|now|for|from|per|during|when|while"
    r"|which|that|but|or|vs|than|of|to|here|there|again|too)\b)[A-Za-z])))"
)
# A duration written as a clock, with no unit, after a verb that times something:
# `takes ~3:20`, `brought it down to 2:40` (m:ss, or h:mm:ss; stored in seconds). A
# time of day (`at 10:30`, `10:30 am`, `UTC`) is none.
_CLOCK_TIME = re.compile(
    r"(?i)\b(?:takes?|took|taking|lasts?|lasted|down to|went to|goes to|reduced to"
    r"|brought (?:it |this |that )?(?:down )?to)\s+"
    r"(?P<q>~|about |around |roughly |approximately )?"
    r"(?P<n>\d{1,2}:[0-5]\d(?::[0-5]\d)?)(?![\d:]|\s*(?:am|pm|a\.m|p\.m|utc|gmt|[+-]\d{2}))"
)
_RATE_LED_PIECES = re.compile(r"(?i)tps|qps|rps|throughput|吞吐")
_MAGNITUDE = {"": 1.0, "k": 1e3, "K": 1e3, "w": 1e4, "W": 1e4, "万": 1e4, "亿": 1e8}


def _unit_kind(unit: str) -> str:
    if unit in ("%", "percent"):
        return "percent"
    if unit in ("x", "X", "×", "times"):
        return "ratio"
    if _DURATION_RE.fullmatch(unit):
        return "duration"
    return "rate"


def _value(m: re.Match) -> tuple[float | None, str]:
    """(value, unit) as written; clock times (`4:40 min`) become seconds."""
    n = m.group("n")
    unit = m.group("unit")
    if ":" in n:
        parts = [float(p) for p in n.split(":")]
        scale = {"h": 3600.0, "hr": 3600.0, "hrs": 3600.0, "hour": 3600.0, "hours": 3600.0}
        first = scale.get(unit, 60.0)  # `4:40 min` is 4 min 40 s; `1:02:03 h` is h:m:s
        seconds = parts[0] * first + sum(
            p * 60.0 ** (len(parts) - 2 - i) for i, p in enumerate(parts[1:])
        )
        return seconds, "s"
    value = parse_number(re.sub(r"[ \u00a0\u202f]", "", n) + (m.group("suf") or ""))
    if unit == "×":
        unit = "x"
    return value, unit


_LINK_WORD = re.compile(r"(?i)\s(?:from|is|was|are|were|of|by|takes?|took|to|at|in|:|->|→)\s*$")
_CLAUSE_BREAK = re.compile(r"[.;!?]\s|[;,]\s|\[")
_LETTER = re.compile(r"[A-Za-z]")


def _label(sentence: str, pos: int) -> str | None:
    """The clause before position `pos`: `This reduces the ambari metrics build time`.
    Read from a window before `pos` that grows only when needed, so that a sentence
    with thousands of numbers is not split whole once per number (that was quadratic)."""
    end = pos
    while end > 0 and sentence[end - 1].isspace():  # sentence[:pos].rstrip()
        end -= 1
    # the link word ends the head, so it lies in its last six characters
    link = _LINK_WORD.search(sentence, max(0, end - 6), end)
    if link is not None:
        end = link.start()
    words = _last_piece_words(sentence, end)
    text = " ".join(words[-10:]).strip(" `*:-(")
    return text or None


def _last_piece_words(sentence: str, end: int) -> list[str]:
    """The words of the last piece of `sentence[:end]` (split at clause breaks) that
    has a letter, or [] when none has; only its last ten are ever used."""
    window = 256
    while True:
        start = max(0, end - window)
        pieces = _CLAUSE_BREAK.split(sentence[start:end])
        # (a break is at most two characters and never starts with a blank, so the
        # pieces after the window's first one are exactly those of the whole text)
        for i in range(len(pieces) - 1, -1, -1):
            if i == 0 and start > 0:
                # the tail of a piece that began before the window: enough when it
                # has a letter and over ten words (the first may be cut)
                words = pieces[0].split()
                if len(words) > 10 and _LETTER.search(pieces[0]):
                    return words
                break
            if _LETTER.search(pieces[i]):
                return pieces[i].split()
        if start == 0:
            return []
        window *= 4


def _candidates(sentence: str):
    """`_CANDIDATE.finditer(sentence)`, but the regex is tried only where a match can
    start: at a qualifier that only spaces part from a run of digits, else at the
    run's first digit (a digit after a digit fails the lookbehind). Matches do not
    overlap, so each is looked for from where the last one ended."""
    pos = 0
    match = _CANDIDATE.match
    for run in _DIGITS.finditer(sentence):
        digit = run.start()
        if digit < pos:
            continue
        end = digit
        while end > pos and sentence[end - 1].isspace():  # `\s` is str.isspace
            end -= 1
        m = None
        if end > pos:
            for q in _QUALIFIERS_BY_LAST.get(sentence[end - 1], ()):
                if sentence.endswith(q, pos, end):
                    m = match(sentence, end - len(q))
                    if m is not None:
                        break
        if m is None:
            m = match(sentence, digit)
        if m is not None:
            yield m
            pos = m.end()


def _is_token_bound(m: re.Match, value: float | None) -> bool:
    """`less than 1 op/s`: a bound near zero says "almost nothing", not a result."""
    q = (m.group("q") or "").strip().lower()
    return q in ("less than", "under") and value is not None and value <= 1


def _line_before(text: str, pos: int) -> str | None:
    """The last words of the non-blank line before `pos`: names a sentence such as
    `takes about 23 seconds of CPU` that starts right after the statement it times."""
    lines = [ln for ln in text[max(0, pos - 400) : pos].splitlines() if ln.strip()]
    if not lines or re.search(r"[.!?]$", lines[-1].strip()):
        return None  # a finished sentence does not name the next one
    return " ".join(lines[-1].split()[-10:]).strip(" `*:-(") or None


def _metric(sentence: str, start: int, end: int, kind: str, words=None) -> str:
    """`words`: `_METRIC_WORDS.finditer(sentence)` as a list, when already found."""
    best = None
    for m in _METRIC_WORDS.finditer(sentence) if words is None else words:
        # a word before the number names it more often than one after it
        distance = start - m.end() if m.end() <= start else m.start() - end + 20
        if distance < 0 or distance > 80:
            continue
        if best is None or distance < best[0]:
            best = (distance, m.group().lower())
    if best:
        return best[1]
    return {"duration": "time", "rate": "throughput", "ratio": "speedup", "percent": "change"}[kind]


_DURATION_RE = re.compile(_DURATION)
_SPACES = re.compile(r"\s+")
_FROM_BEFORE = re.compile(r"(?i)\bfrom\s*$|->\s*$|→\s*$")
_GLUED_AFTER = re.compile(r"(?:\s*=|:\d|/\d|\.\d|\w)")


def _clause_before(sentence: str, start: int) -> str:
    r"""`re.split(r"[;()\[\]]", sentence[:start])[-1][-150:]`, without splitting all of
    a long sentence: the text after the last of those characters, at most 150."""
    lo = max(0, start - 150)
    cut = max(sentence.rfind(c, lo, start) for c in ";()[]")
    return sentence[cut + 1 if cut >= 0 else lo : start]


def _accept(sentence: str, m: re.Match, kind: str) -> bool:
    before = _SPACES.sub(" ", sentence[max(0, m.start() - 45) : m.start()])
    after = sentence[m.end() : m.end() + 40]
    clause = _clause_before(sentence, m.start())
    if (
        _may_match(clause, _EXPECTATION_PIECES) and _EXPECTATION.search(clause)
    ) or sentence.rstrip().endswith("?"):
        return False
    if (
        _may_match(before, _SETTING_PIECES)
        and _SETTING_BEFORE.search(before)
        and not _FROM_BEFORE.search(before)
    ):
        return False
    if _GLUED_AFTER.match(after):
        return False  # `30s=...`, `10:30`, part of an id or a path
    if _SETTING_AFTER.match(after):
        return False  # `a 100 ms timeout`, `5 s poll interval`
    if kind == "rate":
        return True
    if kind == "duration":
        window = sentence[max(0, m.start() - 120) : m.end() + 60]
        return bool(_PERF.search(window)) or bool(re.search(r":\s*$", before))
    if kind == "ratio":
        return bool(_SPEED_WORD.search(after) or _SPEED_BEFORE.search(before))
    window = sentence[max(0, m.start() - 60) : m.end() + 40]
    return bool(_CHANGE_WORD.search(window)) and not _NOT_PERF_PERCENT.search(window)


def _variants(sentence: str, found: list[tuple[re.Match, Measurement]]) -> None:
    """`from A to B` / `A -> B`: A is before, B after; `X before`, `Y with the patch`."""
    for i, (m, meas) in enumerate(found):
        after = sentence[m.end() : m.end() + 30]
        word = _BEFORE_AFTER.match(after)
        if word:
            w = word.group("w").lower()
            meas.variant = (
                "before"
                if w in ("before", "baseline", "old", "unpatched") or "without" in w
                else "after"
            )
        if i + 1 < len(found):
            nxt = found[i + 1][0]
            between = sentence[m.end() : nxt.start()]
            lead = sentence[max(0, m.start() - 60) : m.start()]
            if re.fullmatch(
                r"[\s`*]*(?:->|→|=>|to|goes to|went to|before goes to)[\s`*~]*", between
            ) or (
                re.search(r"(?i)\bfrom\s*[`*~]*$", lead)
                and re.fullmatch(r"[\s`*]*to[\s`*~]*", between)
            ):
                meas.variant = meas.variant or "before"
                found[i + 1][1].variant = "after"
                found[i + 1][1].label = meas.label  # `B` of `from A to B` is A's quantity


def _quoted(text: str) -> list[tuple[int, int]]:
    """Quoted reply lines (`> ...`) and the hard-wrapped lines that continue them."""
    spans = []
    if ">" not in text:
        return spans
    # the lines `(?m)^[ \t]*>[^\n]*` matches: the first, and those after a line break
    first = _QUOTE_FIRST.match(text)
    lines = [first.span()] if first else []
    lines += [m.span(1) for m in _QUOTE_NEXT.finditer(text)]
    for start, end in lines:
        line = text[start:end]
        while len(line) >= 70 and end < len(text):  # a wrapped quote goes on below
            nxt = _WRAPPED.match(text, end)
            if not nxt:
                break
            line = nxt.group(1)
            end = nxt.end()
        spans.append((start, end))
    return spans


def _ends(text: str, lo: int, hi: int):
    """`_SENTENCE_END.finditer(text, lo, hi)`: the matches at line breaks found by
    `_SENTENCE_END_NL`, the others tried only after `.!?` and before `|`."""
    others = sorted(
        {m.end() for stop in _AFTER_STOP for m in stop.finditer(text, max(lo - 1, 0), hi)}
        | {m.start() - 1 for m in _BEFORE_PIPE.finditer(text, lo, hi)}
        | {m.start() - 1 for m in _BEFORE_HEADING.finditer(text, lo, hi)}
    )
    pos, k = lo, 0
    at_break = _SENTENCE_END_NL.search(text, lo, hi)
    while True:
        other = None
        while k < len(others):
            if others[k] >= pos:
                other = _SENTENCE_END.match(text, others[k], hi)
                if other is not None:
                    break
            k += 1
        if at_break is not None and at_break.start() < pos:
            at_break = _SENTENCE_END_NL.search(text, pos, hi)
        if at_break is not None and (other is None or at_break.start() < other.start()):
            found = at_break
        elif other is not None:
            found = other
            k += 1
        else:
            return
        yield found
        pos = found.end()


def _sentences(text: str):
    """(start, end) of each sentence outside code fences and quoted replies."""
    fences = _FENCE.finditer(text) if any(f in text for f in _FENCE_STARTS) else ()
    blocked = sorted([f.span() for f in fences] + _quoted(text))
    pieces = []
    pos = 0
    for start, end in blocked + [(len(text), len(text))]:
        if start >= pos:
            pieces.append((pos, start))
        pos = max(pos, end)
    for lo, hi in pieces:
        cut = lo
        for b in _ends(text, lo, hi):
            yield cut, b.start()
            cut = b.end()
        yield cut, hi


# A unified diff of prose in a ```diff fence (a README or doc change in a review):
# its `-` and `+` lines are the old and the new text.
_DIFF_FENCE = re.compile(r"```diff[^\n]*\n(.*?)(?:```|\Z)", re.S)
_WORD_RUN = re.compile(r"[A-Za-z]{2,}")
_DIFF_LINE = re.compile(r"^([-+])(?![-+]{2})([^\n]*[A-Za-z][^\n]*)$", re.M)


def _diff_prose_lines(text: str) -> list[tuple[int, int, str]]:
    """(start, end, `[-]` or `[+]`) of the removed and added lines of diff fences."""
    if "```diff" not in text:
        return []
    return [
        (line.start(2), line.end(2), f"[{line.group(1)}]")
        for fence in _DIFF_FENCE.finditer(text)
        for line in _DIFF_LINE.finditer(text, fence.start(1), fence.end(1))
        if _is_prose(line.group(2))
    ]


def _is_prose(line: str) -> bool:
    """A line of text, not of code: five words or more, and almost only letters,
    digits, blanks and sentence punctuation (code is full of `(){};=%"`)."""
    if len(_WORD_RUN.findall(line)) < 5:
        return False
    code = sum(line.count(c) for c in '(){}[];=%"<>\\')
    return code <= max(2, len(line) // 40)


def _unclaimed_and_stated(sentence: str, m: re.Match, found) -> bool:
    """The number of `m` (group `n`) is not already part of a measurement of the
    sentence, and the sentence states it: no question, no expectation before it."""
    if any(f[0].start() <= m.start("n") < f[0].end() for f in found):
        return False
    clause = _clause_before(sentence, m.start("n"))
    return not (
        sentence.rstrip().endswith(("?", "？"))
        or (_may_match(clause, _EXPECTATION_PIECES) and _EXPECTATION.search(clause))
    )


def parse(text: str) -> list[ResultTable]:
    tables = []
    spans = [(lo, hi, None) for lo, hi in _sentences(text)] + _diff_prose_lines(text)
    for lo, hi, mark in sorted(spans):
        # Flattened quote markers (`as much > as 30%`) are not words.
        sentence = text[lo:hi]
        if ">" in sentence:
            sentence = _QUOTE_MARK.sub(" ", sentence)
        # A candidate's last digit is followed by its unit (so `_NUMBER_UNIT` matches);
        # without one, only `factor of N` can give a measurement.
        has_unit = _NUMBER_UNIT_RE.search(sentence) is not None
        rate_led = _RATE_LED_PIECES.search(sentence) is not None
        clock = ":" in sentence and _CLOCK_TIME.search(sentence) is not None
        if not has_unit and not rate_led and not clock and "factor of" not in sentence:
            continue
        if not (has_unit or _DIGIT.search(sentence)) or _BOOKKEEPING.search(sentence):
            continue
        found: list[tuple[re.Match, Measurement]] = []
        words = None  # the metric words of the sentence, found once for all its numbers
        for m in _candidates(sentence) if has_unit else ():
            kind = _unit_kind(m.group("unit"))
            if not _accept(sentence, m, kind):
                continue
            value, unit = _value(m)
            if _is_token_bound(m, value):
                continue
            written = m.group().strip()
            if words is None:
                words = list(_METRIC_WORDS.finditer(sentence))
            meas = measure(
                _metric(sentence, m.start(), m.end(), kind, words),
                written,
                value,
                unit,
                label=_label(sentence, m.start()) or _line_before(text, lo),
            )
            if meas:
                found.append((m, meas))
        for m in _FACTOR.finditer(sentence) if "factor of" in sentence else ():
            if _EXPECTATION.search(sentence[max(0, m.start() - 45) : m.start()]):
                continue
            written = m.group().removeprefix("factor of").strip()
            meas = measure(
                "speedup",
                written,
                parse_number(m.group("n")),
                "x",
                label=_label(sentence, m.start()),
            )
            if meas and not any(f[0].start() <= m.start("n") < f[0].end() for f in found):
                found.append((m, meas))
        for m in _CLOCK_TIME.finditer(sentence) if clock else ():
            if not _unclaimed_and_stated(sentence, m, found):
                continue
            value = parse_number(m.group("n"))
            meas = measure(
                "time",
                (m.group("q") or "") + m.group("n"),
                value,
                "s",
                label=_label(sentence, m.start()) or _line_before(text, lo),
            )
            if meas:
                found.append((m, meas))
        for m in _RATE_LED.finditer(sentence) if rate_led else ():
            if _SETTING_BEFORE.search(m.group("link")) or not _unclaimed_and_stated(
                sentence, m, found
            ):
                continue
            suffix = m.group("cjk") or m.group("suf") or ""
            written = (m.group("n") + suffix).strip()
            value = parse_number(m.group("n"))
            if value is None:
                continue
            value *= _MAGNITUDE.get(suffix, 1.0)
            kw = m.group("kw")
            meas = measure(
                kw.lower() if kw.isascii() else "throughput",
                (m.group("q") or "") + written,
                value,
                kw.upper() if kw.lower() in ("tps", "qps", "rps") else None,
                label=_label(sentence, m.start()) or _line_before(text, lo),
            )
            if meas:
                found.append((m, meas))
        if not found:
            continue
        found.sort(key=lambda f: f[0].start())
        _variants(sentence, found)
        table = ResultTable(
            format=INFO.name,
            span=(lo, lo + found[-1][0].end()),
            columns=["label", "value", "unit"],
            caption=" ".join(sentence.split())[:200],
            variant=mark,
        )
        for _, meas in found:
            table.add_row([meas.label or "", meas.written or "", meas.unit or ""], [meas])
        tables.append(table)
    return tables
