"""What a message says in words about a change: "4.81x slower", "an easy 7% speedup
relative to the STL map", "latency down by 30 %", "three times faster", "faster by a
factor of 3", "性能提升 2 倍". `stated_claims(text)` returns them in text order;
`references(text)` the runs a message names as what it compares with ("Compare the
results to `hdfs dfs -text`").

Each `StatedClaim` has:

- `words`, `span`: the phrase as written and where it is;
- `factor`: the speed-up the words give the thing they describe (the sentence's
  subject) over what it is compared with: "3x faster" 3, "3x slower" 1/3, "20 %
  faster" 1.2, "20 % slower" 1/1.2, "30 % less time" 1/0.7, "30 % less throughput"
  0.7; None when the words give no direction ("30 % more" of nothing named);
- `line`, `subject`, `object`: the text that names what is described (the phrase's
  line before it, as in a table row; else its sentence before it, where what is named
  last is closest) and what it is compared with (after `than`, `relative to`,
  `compared to`, `over`, `vs`);
- `subject_side`, `object_side`: `before` or `after` when that text names a baseline
  ("before the patch", "master", "the old code") or the change ("this PR", "with the
  patch", "after"), else None (the last mention in the subject, the first in the
  object);
- `speedup`: `factor` as the speed-up of the changed side over its baseline, whichever
  side the words describe: "before: 4.81x slower" is a 4.81x speed-up, "master is 2x
  faster than this PR" a 0.5x one. Words that name no side are taken as said of the
  change.

`extract.results.comparisons` ties them to the message's pairs; `CLAIM_PATTERN` (the
phrases, RE2 syntax as well) is what the `claims` view lists as `claimed_words`.
Pure functions; time linear in the text.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass

from extract.results.prefilter import lowered

_NUM = r"\d+(?:\.\d+)?"
_PM = r"(?:[ \t]*(?:±|\+/-)[ \t]*\d+(?:\.\d+)?)?"  # hyperfine: `1.23 ± 0.02 times faster`
_TIMES = r"(?:x|×|times|-?fold)"
_FASTER = r"faster|quicker|speed-?ups?|improvements?|better|gains?|boost"
_SLOWER = r"slower|worse|regressions?|degradations?|slow-?downs?|penalty"
_LESS = r"less|lower|fewer|smaller|shorter|reductions?|decreases?|drops?"
_MORE = r"more|higher|larger|bigger|longer|increases?"
_APPROX = r"(?:(?:about|around|roughly|nearly|almost|over|up[ \t]+to|~)[ \t]*)?"
# Between a multiple's unit and its words: blanks, maybe an article (`2x a speedup`); each
# run of blanks read one way only (`[ \t]*` then `\s+` then `\s*` took a long run of
# blanks after `3x` in quadratic time)
_BETWEEN = r"(?:\s+(?:(?:an?|the)[ \t]\s*)?)?"
# A verb or noun, then `by`/`of` and the amount: "down by 30%", "improvement of 2x".
_V_FASTER = r"improv(?:ed|es|ing|ement)|sped[ \t]+up|speeds?[ \t]+up|boost(?:ed|s)?|gain(?:ed|s)?"
_V_SLOWER = r"regress(?:ed|es|ion)|degrad(?:ed|es|ation)|slow(?:ed|s)[ \t]+down"
_V_LESS = r"reduc(?:ed|es|ing|tion)|decreas(?:ed|es|ing|e)|dropp?(?:ed|s)?|cut|down|fell|lowered"
_V_MORE = r"increas(?:ed|es|ing|e)|up|grew|rose|raised"
# CJK: 快 faster, 慢 slower, 提升/提高/加速 improved, 下降/降低/减少/缩短 down, 增加/增长 up.
_C_FASTER = r"快|提升|提高|加速"
_C_SLOWER = r"慢"
_C_LESS = r"下降|降低|减少|缩短"
_C_MORE = r"增加|增长"
# A multiple written in words: `three times faster`, `a tenfold gain`, `twice as fast`,
# `an order of magnitude slower` (two to ten, twenty, and round hundreds and
# thousands: the multiples people write out rather than in digits)
_NUMERALS = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twenty",
    "hundred", "thousand",
)  # fmt: skip
_NUMERAL = "|".join(_NUMERALS)
_WORD_VALUES = dict(
    zip((*_NUMERALS, "twice"), (2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 100, 1000, 2), strict=True)
)
_MAGNITUDE = 10  # `an order of magnitude`
# (a numeral that ends a compound before the one a phrase starts with: `twenty-`,
# `two hundred `)
_IN_A_COMPOUND = re.compile(
    rf"(?:-|\b(?:{_NUMERAL}|thirty|forty|fifty|sixty|seventy|eighty|ninety)[ \t]+)$"
)
_NAMED_NEXT = 40  # (where the two words after a multiple in words are looked for)
_ROUND_WORDS = math.log(1.25)  # (`a hundred times` for 80x to 125x)


def _claim_pattern(num: str, num4: str) -> str:
    return (
        r"(?i)"
        # `4.81x slower`, `7% speedup`, `1.23 ± 0.02 times faster`, `30 % less`
        rf"\b(?P<n1>{num}){_PM}[ \t]*(?P<u1>{_TIMES}|%){_BETWEEN}"
        rf"(?P<w1>{_FASTER}|{_SLOWER}|{_LESS}|{_MORE})\b"
        # `down by 30%`, `improvement of 2x`
        rf"|\b(?P<w2>{_V_FASTER}|{_V_SLOWER}|{_V_LESS}|{_V_MORE})[ \t]+(?:by|of)[ \t]+{_APPROX}"
        rf"(?P<n2>{num})[ \t]*(?P<u2>{_TIMES}|%)"
        # `提升了 30%`, `快 2 倍`, `3倍的提升`
        rf"|(?P<w3>{_C_FASTER}|{_C_SLOWER}|{_C_LESS}|{_C_MORE})了?[ \t]*"
        r"(?:(?:约|近|超过|大约)[ \t]*)?"
        rf"(?P<n3>{num}|[一两二三四五六七八九十])[ \t]*(?P<u3>倍|%|％)"
        rf"|(?P<n4>{num4})[ \t]*(?P<u4>倍)的?(?:性能)?(?P<w4>{_C_FASTER})"
        # `three times faster`, `a tenfold speedup`, `twice as fast`, `an order of
        # magnitude slower`
        rf"|\b(?P<n5>{_NUMERAL})[ \t]*(?P<u5>times|-?fold){_BETWEEN}"
        rf"(?P<w5>{_FASTER}|{_SLOWER}|{_LESS}|{_MORE})\b"
        r"|\b(?P<n6>twice)[ \t]+as[ \t]+(?P<w6>fast|quick|slow)\b"
        r"|\b(?P<n7>an)[ \t]+order[ \t]+of[ \t]+magnitude[ \t]+"
        rf"(?P<w7>{_FASTER}|{_SLOWER}|{_LESS}|{_MORE})\b"
        # `faster by a factor of 3`, `memory reduced by a factor of ten`
        rf"|\b(?P<w8>{_V_FASTER}|{_V_SLOWER}|{_V_LESS}|{_V_MORE}|{_FASTER}|{_SLOWER}|{_LESS}"
        rf"|{_MORE})[ \t]+(?:(?:by|of)[ \t]+)?(?:a[ \t]+)?factor[ \t]+of[ \t]+{_APPROX}"
        rf"(?P<n8>{num}|{_NUMERAL})\b"
    )


# (RE2's syntax, for the `claims` view's SQL; RE2 is linear by construction)
CLAIM_PATTERN = _claim_pattern(_NUM, _NUM)
# Python's: the same phrases, its digits possessive and the CJK form starting at a
# run's first digit, so that a long run of digits is read once (linear time); led by
# a lookahead of what a phrase starts with (a digit, the first letter of a verb of
# `w2` or of a numeral, `twice` or `an`, the first character of a CJK word of `w3`):
# a position where none starts is turned away in one step, not once an alternative
_PY_NUM = r"\d++(?:\.\d++)?"
_PY_PHRASES = _claim_pattern(_PY_NUM, r"(?<!\d)" + _PY_NUM).removeprefix("(?i)")
_CLAIM = re.compile(r"(?=[\dabcdefghilmnpqrstuw快提加慢下降减缩增])(?:" + _PY_PHRASES + ")", re.I)
# (`_CLAIM` without re.I, which tries a letter's cases at every step, for the text as
# `prefilter.lowered` writes it: it matches there where and as `_CLAIM` does in the
# text, offsets kept. The phrases are found in that copy, then matched in the text
# for their words as written)
_CLAIM_LOWERED = re.compile(_CLAIM.pattern)
# Every phrase holds a number's unit right after its digits (`7%`, `2 x`, `3-fold`) or
# its numeral (`three times`, `tenfold`), or `倍` (`快一倍` has no digit), `twice`,
# `magnitude` or `factor`: a text with none of them holds no claim (`_unit_lines` finds where,
# `_MAY_CLAIM` says the same). A phrase's unit is `%` or `％` also after
# a numeral written in Chinese (`提升三%`), and all of a phrase before its unit stands
# on the unit's line (the blanks of its pattern before the unit are `[ \t]`).
_MAY_CLAIM = re.compile(
    r"[\d倍](?:(?<=\d)[ \t]*+(?:[x×%％]|times|-?fold)|(?<=倍))|twice|magnitude|factor"
    rf"|\b(?:{_NUMERAL})[ \t]*+(?:times|-?fold)"
)
_UNITS = ("x", "×", "times", "fold", "%", "％", "倍", "twice", "magnitude", "factor")
_ALWAYS_UNITS = ("%", "％", "倍", "twice", "magnitude", "factor")
# (the units that make a phrase with no digit: `快一倍`, `twice as fast`, `an order of
# magnitude faster`, `faster by a factor of ten`)
_WORD_UNITS = ("倍", "twice", "magnitude", "factor")
_CJK_DIGITS = dict(zip("两二三四五六七八九十", (2, 2, 3, 4, 5, 6, 7, 8, 9, 10), strict=True))

# Which way is better, by the words that name a quantity: times lower, rates higher.
LOWER_WORDS = (
    r"latenc|time|duration|elapsed|wall|cpu|\bgc\b|pause|memory|alloc|footprint|heap|"
    r"overhead|\bcost|\brt\b|\bp\d+|size|miss|lag|resident|\brss\b"
)
HIGHER_WORDS = r"throughput|qps|tps|ops|\brate\b|speed|bandwidth|iops|hit"
_LOWER = re.compile(rf"(?i){LOWER_WORDS}|耗时|延迟|时间|内存|开销")
_HIGHER = re.compile(rf"(?i){HIGHER_WORDS}|performance|吞吐|性能|速度")

# What a sentence says of a side: the baseline or the change, in words.
_OF_CHANGE = r"(?:the|this|that|my|our|your|his|her)[ \t]+(?:patch|change|pr|fix|commit|branch)"
_BASE_MENTION = re.compile(
    rf"(?i)\b(?:(?:before|without|w/o)(?:[ \t]+{_OF_CHANGE})?|old|older|baseline|master|trunk|"
    r"main|original|unpatched|vanilla|stock|upstream|previous(?:ly)?|current[ \t]+code)\b"
    r"|改动前|优化前|之前"
)
_CHANGE_MENTION = re.compile(
    rf"(?i)\b(?:after(?:[ \t]+{_OF_CHANGE})?|(?:with|using)[ \t]+{_OF_CHANGE}|{_OF_CHANGE}|"
    r"new|patched|optimi[sz]ed|proposed|contender|candidate)\b|改动后|优化后|之后"
)
# Where a sentence ends: `.`, `!`, `?` before a space or the end, a blank line.
_END = re.compile(r"[.!?。！？](?=\s|$)|\n[ \t]*\n|[。！？]")
# What the subject is compared with: `than X`, `relative to X`, `compared to X`.
_OBJECT = re.compile(
    r"(?i)\b(?:than|relative[ \t]+to|compared[ \t]+(?:to|with)|over|vs\.?|versus|against)\s+"
)
_REACH = 300  # characters looked at around a phrase for its sentence
SLACK = 0.05  # ln: how loosely people round what they state ("an easy 7 %" for 7.5 %)


@dataclass(frozen=True)
class StatedClaim:
    words: str
    span: tuple[int, int]
    number: float  # as written: 4.81, 7
    sentence: tuple[int, int]
    factor: float | None
    line: str  # the phrase's own line before it (a table row names its side there)
    subject: str
    object: str
    subject_side: str | None
    object_side: str | None
    speedup: float | None
    # how far (in ln) a measured speed-up may be from `factor` and still be what the
    # words say: half the last written digit, and 0.05 for "an easy 7 %" rounding
    tolerance: float


def _factor(kind: str, n: float, unit: str, quantity: str | None) -> float | None:
    """The speed-up the words give their subject; None without a direction."""
    times = unit not in ("%", "％")
    if times and n <= 0:
        return None
    if kind in ("faster", "slower"):
        up = n if times else 1 + n / 100
        return up if kind == "faster" else 1 / up
    if quantity is None:  # "30 % less" of what?
        return None
    # "3x less memory", "30 % more throughput": the quantity itself changes
    if times:
        ratio = 1 / n if kind == "less" else n
    elif kind == "less":
        if n >= 100:
            return None
        ratio = 1 - n / 100
    else:
        ratio = 1 + n / 100
    return ratio if quantity == "higher" else 1 / ratio


_FASTER_WORD = re.compile(f"{_FASTER}|{_V_FASTER}|{_C_FASTER}")
_SLOWER_WORD = re.compile(f"{_SLOWER}|{_V_SLOWER}|{_C_SLOWER}")
_LESS_WORD = re.compile(f"{_LESS}|{_V_LESS}|{_C_LESS}")
_MORE_WORD = re.compile(f"{_MORE}|{_V_MORE}|{_C_MORE}")
_KINDS = (
    ("faster", _FASTER_WORD),
    ("slower", _SLOWER_WORD),
    ("less", _LESS_WORD),
    ("more", _MORE_WORD),
)


def _kind(word: str) -> str:
    word = word.lower()
    if word in ("fast", "quick", "slow"):  # `twice as fast`
        return "slower" if word == "slow" else "faster"
    for kind, pattern in _KINDS:
        if pattern.fullmatch(word):
            return kind
    return "more"


def quantity_direction(text: str, *, last: bool = False) -> str | None:
    """`lower` or `higher` is better, by the first (or last) quantity word in `text`."""
    found = [(m.start(), "lower") for m in _LOWER.finditer(text)]
    found += [(m.start(), "higher") for m in _HIGHER.finditer(text)]
    if not found:
        return None
    found.sort()
    return found[-1][1] if last else found[0][1]


def sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """[start, end) of the sentence around text[start:end]."""
    lo = max(0, start - _REACH)
    ends = [m.end() for m in _END.finditer(text, lo, start)]
    first = ends[-1] if ends else lo
    after = _END.search(text, end, min(len(text), end + _REACH))
    return first, after.start() if after else min(len(text), end + _REACH)


def side_named(text: str, *, last: bool) -> str | None:
    """`before` or `after`: the baseline or the change as `text` names it in words (its
    last mention, or its first); "before the patch" is one mention, of the baseline."""
    found = [(m.start(), m.end(), "before") for m in _BASE_MENTION.finditer(text)]
    found += [(m.start(), m.end(), "after") for m in _CHANGE_MENTION.finditer(text)]
    found = [f for f in found if not any(g != f and g[0] <= f[0] and f[1] <= g[1] for g in found)]
    if not found:
        return None
    found.sort()
    return found[-1][2] if last else found[0][2]


def orient(factor: float | None, subject_side: str | None, object_side: str | None):
    """`factor` as the change's speed-up over the baseline."""
    if factor is None:
        return None
    if subject_side == "before" or (subject_side is None and object_side == "after"):
        return 1 / factor
    return factor


def _word_tolerance(m: re.Match, n_text: str, unit: str) -> float:
    """How loosely a multiple in words is meant: `an order of magnitude` is 3x to 30x,
    `a hundred times` is round; `three times` as loosely as a written `3`."""
    if m["n7"]:
        return math.log(3)
    return max(_tolerance(n_text, unit), _ROUND_WORDS)


def _tolerance(written: str, unit: str) -> float:
    n = float(written)
    half = 0.5 * 10 ** -len(written.partition(".")[2])
    if unit in ("%", "％"):
        return math.log1p((half / 100) / (1 + n / 100)) + SLACK
    return (math.log((n + half) / n) if n > 0 else 0.0) + SLACK


def stated_claims(text: str) -> list[StatedClaim]:
    """The phrases of `text` that state a change, in text order (see the module
    docstring)."""
    return list(_stated_claims(text))


# (the verdict reads a message's claims, then its comparisons read them again from the
# same text: found once. Claims are frozen; a text is kept only while the next two
# messages are read)
@functools.lru_cache(maxsize=2)
def _stated_claims(text: str) -> tuple[StatedClaim, ...]:
    claims: list[StatedClaim] = []
    low = lowered(text)
    for found in _phrases_lowered(low):
        m = _CLAIM.match(text, found.start())
        if m is None:  # (cannot be: see `_CLAIM_LOWERED`)
            continue
        n_text = (
            m["n1"] or m["n2"] or m["n3"] or m["n4"] or m["n5"] or m["n6"] or m["n7"] or m["n8"]
        )
        unit = m["u1"] or m["u2"] or m["u3"] or m["u4"] or m["u5"] or "times"
        word = m["w1"] or m["w2"] or m["w3"] or m["w4"] or m["w5"] or m["w6"] or m["w7"] or m["w8"]
        # 快一倍: faster by one fold, twice as fast
        n_text = {"一": "2"}.get(n_text, str(_CJK_DIGITS.get(n_text, n_text)))
        if m["n7"]:
            n_text = str(_MAGNITUDE)
        elif m["n5"] or m["n6"] or (m["n8"] and m["n8"][0].isalpha()):
            # (as the lowered text writes it: `ſix`, `fıve` are `six`, `five` there)
            n_text = str(_WORD_VALUES[found["n5"] or found["n6"] or found["n8"]])
        n = float(n_text)
        if not math.isfinite(n):
            continue
        in_words = bool(m["n5"] or m["n6"] or m["n7"] or (m["n8"] and m["n8"][0].isalpha()))
        if m["n5"] and _IN_A_COMPOUND.search(low, max(0, m.start() - 12), m.start()):
            # (`twenty-five times`, `two hundred times`: read from its last word it
            # says another number; not read at all. The `claims` view's SQL pattern,
            # without a lookbehind, still lists its words)
            continue
        s_start, s_end = sentence_bounds(text, m.start(), m.end())
        kind = _kind(word)
        quantity = None
        if m["n5"] and kind in ("more", "less"):
            # (a count said in words is most often of runs: `I ran it five times more
            # to be sure`: a multiple of a quantity names it in the two words after
            # it, `ten times less memory`, `three times more GC pauses`)
            after = text[m.end() : min(s_end, m.end() + _NAMED_NEXT)]
            quantity = quantity_direction(" ".join(after.split()[:2]))
            if quantity is None:
                continue
        elif kind in ("more", "less"):
            # the quantity named after the words, else before them in the sentence
            quantity = quantity_direction(text[m.end() : s_end]) or quantity_direction(
                text[s_start : m.start()], last=True
            )
        factor = _factor(kind, n, unit, quantity)
        subject = text[s_start : m.start()]
        line = text[max(text.rfind("\n", 0, m.start()) + 1, s_start) : m.start()]
        rest = text[m.end() : s_end]
        obj = _OBJECT.search(rest)
        object_text = rest[obj.end() : obj.end() + 120] if obj else ""
        than = subject.rfind("比")  # A 比 B 快一倍: A is twice as fast as B
        if than >= 0 and not object_text:
            subject, object_text = subject[:than], subject[than + 1 :]
            line = line[: max(0, len(line) - (len(text[s_start : m.start()]) - than))]
        subject_side = side_named(line, last=True) or side_named(subject, last=True)
        object_side = side_named(object_text, last=False) if object_text else None
        claims.append(
            StatedClaim(
                words=m.group(0),
                span=m.span(),
                number=n,
                sentence=(s_start, s_end),
                factor=factor,
                line=line,
                subject=subject,
                object=object_text,
                subject_side=subject_side,
                object_side=object_side,
                speedup=orient(factor, subject_side, object_side),
                tolerance=_word_tolerance(m, n_text, unit)
                if in_words
                else _tolerance(n_text, unit),
            )
        )
    return tuple(claims)


def _unit_lines(low: str) -> list[int]:
    """The starts of the lines of `low` (lowered) where a phrase may start: those with
    a unit after a number's last digit or a numeral (blanks between; `-fold` too), a
    `%`, a `％`, a `倍`, `twice`, `magnitude` or `factor`. None at all when no unit
    follows a digit or a numeral and there is none of the others (where `_MAY_CLAIM`
    finds nothing). (The units are found, then the digit before each looked for: a
    passed message has twenty digits for each unit.)"""
    starts: set[int] = set()
    after_a_digit = False
    for unit in _UNITS:
        always = unit in _ALWAYS_UNITS
        i = low.find(unit)
        while i >= 0:
            j = i - 1 if unit == "fold" and i and low[i - 1] == "-" else i
            while j > 0 and low[j - 1] in " \t":
                j -= 1
            # (after a digit, as `\d` takes it, or a numeral: `three times`)
            if (j > 0 and low[j - 1].isdecimal()) or (
                unit in ("times", "fold") and _after_a_numeral(low, j)
            ):
                after_a_digit = True
            elif not always:
                i = low.find(unit, i + 1)
                continue
            after_a_digit = after_a_digit or unit in _WORD_UNITS
            starts.add(low.rfind("\n", 0, i) + 1)
            i = low.find(unit, i + 1)
    return sorted(starts) if after_a_digit else []


_FILLED = re.compile(r"\S")


def _after_a_numeral(low: str, j: int) -> bool:
    """Whether `low[:j]` ends in a numeral word that starts a word (`three` before
    `times`, where `_MAY_CLAIM` finds one)."""
    for word in _NUMERALS:
        k = j - len(word)
        if k >= 0 and low.startswith(word, k) and not (k and _WORD_CHAR.match(low, k - 1)):
            return True
    return False


_WORD_CHAR = re.compile(r"\w")


def _phrase_reach(low: str, start: int) -> int:
    """Where a phrase that starts on the line at `start` ends at the latest: after
    its unit, the words of `4.81x slower` may stand on the next line that is not
    blank, or on the one after it (`2x a\n\nfaster`, `2x\na\nfaster`)."""
    end = low.find("\n", start) + 1 or len(low)
    for _ in range(2):
        filled = _FILLED.search(low, end)
        if filled is None:
            return len(low)
        end = low.find("\n", filled.start()) + 1 or len(low)
    return end


def _phrases_lowered(low: str) -> Iterator[re.Match[str]]:
    """`_CLAIM_LOWERED.finditer(low)`, searched only in the stretches of `low` a
    phrase may stand in: from each line with a unit (`_unit_lines`) to its reach
    (`_phrase_reach`). No phrase starts elsewhere, and none ends past its reach,
    so each stretch finds what the whole text finds there. (A passed message has a
    few such lines: the phrases' alternatives, tried at every word, cost 0.1 ms on
    all of it.)"""
    stretches: list[list[int]] = []
    for start in _unit_lines(low):
        if stretches and start < stretches[-1][1]:
            stretches[-1][1] = max(stretches[-1][1], _phrase_reach(low, start))
        else:
            stretches.append([start, _phrase_reach(low, start)])
    pos = 0
    for start, end in stretches:
        for found in _CLAIM_LOWERED.finditer(low, max(pos, start), end):
            pos = found.end()
            yield found


# A sentence naming what the message compares with: "Compare the results to X",
# "relative to X", "X is the baseline", "baseline: X".
_REFERENCE = re.compile(
    r"(?i)\b(?:compar(?:e[sd]?|ing)\b[^.\n]{0,40}?\b(?:to|with|against)|relative[ \t]+to|"
    r"(?:baseline|reference)[ \t]*(?:is|=|:))\s+(?P<x>[^\n.;]{1,80})"
    # (the name starts where a sentence or clause does, and the blanks before `is` are
    # bounded: a lazy name tried at every position, followed by an unbounded run of
    # blanks, made a long run of blanks cost quadratic time)
    r"|(?<![^\n.;:])(?P<y>[^\n.;:]{1,80}?)[ \t]{1,3}(?:is|as)[ \t]+(?:the|our)[ \t]+"
    r"(?:baseline|reference)\b"
)


def references(text: str) -> list[tuple[tuple[int, int], str]]:
    """(span, text) of each phrase that names what the message compares with."""
    return [(m.span(), m["x"] or m["y"]) for m in _REFERENCE.finditer(text)]
