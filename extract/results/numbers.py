"""Every number in a message's text, as a candidate measurement.

`numbers(text)` lists each number people write, wherever it stands (a table cell, a
log line, `key=value`, a JSON fragment, a sentence), with its span, its value and
what is glued to it: the unit after it, a magnitude (`k`, `M`, `万`, `w`, `亿`; a
blank apart before what is counted, `24.9 M rows/s`, `2.5 million rows`; a glued `B`
is a billion only before what is counted, `1.5B rows`, else bytes), an
approximation word before it (`~`, `about`, `约`), the other end of a range
(`2-5x`). Whether a number is a measurement is not decided here: the readers and the
fitted number model (`extract.results.judge`) decide that from its context.

What is one number:
* digits with one kind of grouping: `1,234,567`, `1'234`, `1 234` (thin or no-break
  space), a decimal point or a decimal comma (`12,5` when the comma is the only
  separator and not followed by three digits), an exponent (`3.49E8`);
* a clock (`0:02.10`, `1:02:03`) and a duration in parts, glued or one blank apart
  (`1m30s`, `0m4.085s`, `2h15m`, `12m 5s`) or in words, a larger unit then a smaller
  one under 60 (`6 minutes 41 seconds`, `1 hr 18 min`, `32 mins and 12 secs`; not in a
  list or a range), in seconds;
* not a number: digits inside a word or an identifier (`x86`, `p99`, `v1.2`,
  `3f2a9c`, `0x1F`), dotted versions and addresses (`1.2.3`, `10.0.0.1`), anything
  in a URL of any scheme (`https://host:8443/d/9?from=1700000000&panes=%7B%22`,
  `hdfs://nn1:8020/warehouse/2024/05`: a name, however many digits it holds); a comma
  between digit groups that are not thousands (`1,30,1675.3`: CSV) separates numbers.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass

from extract.results.units import scaled

# A run of digits and single separators between digits; what precedes must not be
# an ASCII letter, digit, `_` or `.` (CJK letters may touch a number: `耗时20ms`).
# (that test is made after the run's first character, as a look back over it and the
# one before: a pattern that starts with a character lets the regex engine skip to
# the next digit or dot, where one that starts with the look back tries it at every
# position, twice the time)
_RUN = re.compile(
    r"\d(?<![A-Za-z0-9_.]\d)\d*(?:[.,:'\u2009\u202f\u00a0]\d+)*|\.(?<![A-Za-z0-9_.]\.)\d+"
)
_EXPONENT = re.compile(r"[eE][-+]?\d{1,3}(?![0-9])")
# (between the parts of a duration in words: a blank, `, ` or ` and `)
_AND = r",?[ \t]++(?:and[ \t]++)?"
# (its parts glued or one blank apart, as build tools print them: `1m30s`, `12m 5s`,
# `1h 2m 3s`. Its first digit first, the look back after it, as in `_RUN`: the search
# skips to the next digit)
_DURATION = re.compile(
    r"\d(?<![A-Za-z0-9_.]\d)(?:\d*(?:\.\d+)?h(?: ?\d+(?:\.\d+)?m(?!s))?(?: ?\d+(?:\.\d+)?s)?"
    r"|\d*(?:\.\d+)?m(?!s) ?\d+(?:\.\d+)?s)(?![A-Za-z0-9_])"
    # (or in words, as people and Ant's `Total time:` write it: `6 minutes 41 seconds`,
    # `1 hr 18 min`, `32 mins and 12 secs`, `1 hour, 12 minutes`: a larger unit, then a
    # smaller one)
    r"|\d(?<![A-Za-z0-9_.]\d)\d*+(?:[ \t]++(?:hours?|hrs?)"
    + _AND
    + r"\d++[ \t]++(?:minutes?|mins?)(?:"
    + _AND
    + r"\d++(?:\.\d++)?[ \t]++(?:seconds?|secs?))?"
    r"|[ \t]++(?:minutes?|mins?)" + _AND + r"\d++(?:\.\d++)?[ \t]++(?:seconds?|secs?))\b"
)
# (each part: its number, and the letter its unit starts with, glued or a blank apart)
_DURATION_PART = re.compile(r"(?<![\d.])(\d++(?:\.\d++)?)[ \t]*+([hms])")
_CLOCK = re.compile(r"\d{1,3}(?::[0-5]\d){1,2}(?:\.\d+)?")
_THOUSANDS = re.compile(r"\d{1,3}(?:([,'\u2009\u202f\u00a0])\d{3})(?:\1\d{3})*(?:\.\d+)?")
_IDENTIFIER_TAIL = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
# A printf conversion (C's, Java's `String.format`, Python's `%`): `%`, its flags, then
# the width and precision the run of digits is, then its length and conversion letters.
# (Not the blank flag: `50% 10s` is two numbers; nor a `%` after a digit, a percentage's:
# `30%-40s`.)
_PRINTF_LEAD = re.compile(r"(?<![\d.])%[-+0#]{0,3}$")
_CONVERSION = re.compile(r"[hlLqjzt]{0,2}[sdfFeEgGxXoucib](?![A-Za-z0-9_])")
_CONVERSION_FIRSTS = frozenset("hlLqjztsdfFeEgGxXoucib")
# What is counted in thousands, millions, billions: rows, records, operations, ... (and
# so their rates, `rows/s`, `rows per second`: it is only asked whether the word is
# there), QPS-like names.
_COUNTED = (
    r"(?:rows?|records?|ops?|operations?|requests?|reqs?|queries|query|messages?|msgs?"
    r"|events?|docs?|documents?|keys?|entries|entry|items?|tuples?|transactions?|txns?"
    r"|writes?|reads?|inserts?|updates?|lookups?|calls?|iterations?|instructions?|cycles?"
    r"|tokens?|parameters?|params?|users?|files?|objects?|points?|samples?|elements?|values?)"
    r"\b|qps\b|tps\b|rps\b|iops\b"
)


def _billions(text: str, start: int, end: int) -> bool:
    """Whether the `B` glued to the number `text[start:end - 1]` is a billion, not
    bytes: after a currency's sign (`$2B`), or a fraction before what is counted
    (`1.5B rows`). A whole number's is bytes, the record or key size (`64B records`,
    `16B keys`, as Kafka's and key-value stores' mail writes them)."""
    if start and text[start - 1] in "$€£¥":
        return True
    return "." in text[start : end - 1] and _BILLIONS.match(text, end) is not None


# Magnitudes glued to a number: Latin letters only when no letter follows them
# (`5M rows`, not `5ms`); CJK ones always.
_MAGNITUDE = re.compile(r"(?:([kKMGB])|(mil|bn)|([wW]))(?![A-Za-z])|([万亿千])")
# (a CJK one may stand a blank apart: `约 1.5 万`, as Chinese writers space numbers)
_SPACED_CJK_MAGNITUDE = re.compile(r"[ \t](?P<mag>[万亿])")
_SPACED_MAGNITUDES = ("万", "亿")  # (looked for only when one follows the blank)
# (the characters a magnitude starts with; `""` is in no set, as the end of the text)
_MAGNITUDE_FIRSTS = frozenset("kKMGBmbwW万亿千")
_EXPONENT_MARKS = frozenset("eE")
_SCALE = {"k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "B": 1e9, "mil": 1e6, "bn": 1e9}
_SCALE.update({"w": 1e4, "W": 1e4, "万": 1e4, "亿": 1e8, "千": 1e3})
_SCALE.update({"thousand": 1e3, "million": 1e6, "billion": 1e9, "mln": 1e6})
# A magnitude a blank after the number, before what is counted (`24.9 M rows/s`, `3.1 k
# ops/s`, `2.5 million rows per second`): a letter only before a count or a rate
# (`5 M` alone, `64 MB`, are no magnitude); a word before a unit too, or alone (`1.2
# million`). Not `B` (`64 B` is bytes) nor `G` (`a 2 G file`: gigabytes).
_SPACED_LATIN = re.compile(
    r"[ \t](?P<mag>[kKM](?=[ \t]+(?i:" + _COUNTED + r"))|(?i:thousand|million|billion|mln)\b)"
)
_SPACED_LATIN_FIRSTS = frozenset("kKMmtTbB")
# A glued `B` is a billion before what is counted, or after a currency's sign (`1.5B
# rows`, `$2B`); else bytes.
_BILLIONS = re.compile(r"[ \t]*(?i:" + _COUNTED + r")")
# The unit after a number: one blank at most, then a unit-like token.
_UNIT = re.compile(
    r"[ \t]?(?:(?P<u>%|‰|×|°C|"
    # (TPC-H's composite rate names its scale: `QphH@100GB`, one unit)
    r"QphH@\d{1,6}[A-Za-z]{0,2}\b|"
    # (a rate in words: `1450 inserts a second`, `3 GB an hour`, `40 queries every second`:
    # things counted (a plural, not a verb's `is`, `needs`) or bytes, the clause ending
    # there. `22 queries a second time`, `a second pass`, `a minute ago` are no rate)
    r"(?:(?!(?:is|was|has|does|needs|takes|gets|makes|goes|waits|lasts|seems|looks|comes"
    r"|gives|uses|says|means|costs|runs|times|this|thus|plus|less)\b)[A-Za-z]{1,11}s"
    r"|[kKMGT]i?B|bytes)[ \t](?:an?|each|every)[ \t](?:second|sec|minute|min|hour)\b"
    r"(?=[ \t]*+(?:[.,;:!?)\]|]|$|(?:and|with|on|in|at|for|while|which|when|vs|versus|but|or"
    r"|from|to|under|over|across|during|after|before|using|of|compared)\b))"
    r"|[A-Za-zµμ][A-Za-zµμ]{0,11}(?:/[A-Za-zµμ]{1,8}|[ \t]per[ \t](?:second|sec|s|minute|min"
    r"|hour|h|ms|day)\b)?(?:\([A-Za-z%]{1,6}\))?"
    r"|/(?:s|sec|ms|min|op|ops|iter))"
    # (a count per second as Chinese writes it: `2W 条/秒`, `5万/秒`, `3000 次每秒`)
    r"|(?P<cjk>(?:条|次|个|行|笔)?(?:/秒|每秒)|毫秒|微秒|纳秒|秒|分钟|小时|倍|次|条|个|行|ms))"
)
# (what `_UNIT` may start with besides a letter; "" is in it: the text's end)
_UNIT_MARKS = " \t%‰×°/"
_RANGE_JOIN = re.compile(r"[ \t]?(?:-|–|~|～|to)[ \t]?[~≈]?")
_RANGE_JOIN_WIDEST = re._parser.parse(_RANGE_JOIN.pattern).getwidth()[1]  # (5: ` to ~`)
# Approximation words that may stand right before a number (lower case; `a.endswith`).
_APPROX_WORDS = (
    "~", "≈", "∼", "about", "around", "approx", "approx.", "approximately", "roughly",
    "nearly", "almost", "over", "under", "more than", "less than", "at least", "at most",
    "up to", "约", "大约", "近",
)  # fmt: skip
# (the characters they end with, in either case: the others' numbers have none)
_APPROX_LASTS = frozenset(w[-1] for w in _APPROX_WORDS) | {w[-1].upper() for w in _APPROX_WORDS}
_SIGN_AFTER = " \t\n([|:=,"
_FROM = re.compile(r"\bfrom[ \t]*$|从[ \t]*$", re.I)


@dataclass(slots=True)
class Number:
    start: int  # [start, end): the number as written, sign and magnitude included
    end: int
    written: str
    value: float  # magnitudes applied; clocks and durations in seconds
    unit: str = ""  # the unit glued or next to it, as written (`ms`, `%`, `x`, `ops/s`)
    unit_end: int = 0  # where that unit ends (= end when there is none)
    shape: str = "int"  # int, decimal, grouped, exponent, clock, duration
    magnitude: str = ""  # k, M, 万, w ... when one is glued to it
    approx: str = ""  # the approximation word before it (`~`, `about`)
    range_with: int | None = None  # index of the other end of a range (`2-5`)


def numbers(text: str, limit: int | None = None) -> list[Number]:
    """Every number in `text`, in order (see the module docstring); the first `limit`."""
    out: list[Number] = []
    taken_until = 0
    durations = {m.start(): m for m in _DURATION.finditer(text)} if _has_duration(text) else {}
    urls = _urls(text)
    u = 0
    for run in _RUN.finditer(text):
        if limit is not None and len(out) >= limit:
            del out[limit:]
            break
        start = run.start()
        if start < taken_until:
            continue
        if urls:
            while u < len(urls) and urls[u][1] <= start:
                u += 1
            if u < len(urls) and urls[u][0] <= start:
                taken_until = urls[u][1]  # (a URL's digits name it)
                continue
        d = durations.get(start) if durations else None
        if d is not None and not _one_duration(text, d):
            d = None
        if d is not None:
            seconds = sum(
                float(v) * {"h": 3600.0, "m": 60.0, "s": 1.0}[u]
                for v, u in _DURATION_PART.findall(d.group())
            )
            out.append(
                Number(d.start(), d.end(), d.group(), seconds, "s", d.end(), shape="duration")
            )
            taken_until = d.end()
            continue
        found = [n for n in _read_run(text, start, run.group()) if n is not None]
        out.extend(found)
        taken_until = run.end()
        for n in found:  # (a loop, not a list unpacked into max: this runs once a run)
            # (past its unit too: `QphH@100GB` names its scale, no number of its own)
            if n.unit_end > taken_until:
                taken_until = n.unit_end
    _link_ranges(text, out)
    return out


# (a duration in words is one only where its smaller parts are under 60 and no list or
# range holds it: `1 minute, 30 seconds and 10 seconds`, `between 2 minutes and 50
# seconds` are numbers apart)
_WORD_PARTS = re.compile(r"(?<![\d.])(\d++(?:\.\d++)?)[ \t]++[a-z]")
_LIST_GOES_ON = re.compile(
    r",?[ \t]++(?:and[ \t]++|or[ \t]++)?\d++(?:\.\d++)?[ \t]++(?:hours?|hrs?|minutes?|mins?"
    r"|seconds?|secs?)\b"
)
_BETWEEN = re.compile(r"\b(?:between|from)[ \t]++$", re.I)


def _one_duration(text: str, d: re.Match) -> bool:
    """Whether the duration `d` is one number (see `_WORD_PARTS`); a glued one always."""
    parts = _WORD_PARTS.findall(d.group())
    if not parts:  # (its units glued to its numbers: `1m30s`, `12m 5s`)
        return True
    if any(float(v) >= 60 for v in parts[1:]) or _LIST_GOES_ON.match(text, d.end()):
        return False
    return _BETWEEN.search(text, max(0, d.start() - 12), d.start()) is None


_DIGIT_H_OR_M = re.compile(r"[0-9](?:[hm]|[ \t]++(?:hours?|hrs?|minutes?|mins?)\b)")
# A URL of any scheme (`https://`, `hdfs://nn1:8020/`, `s3a://`, `jdbc:mysql://db:3306`),
# to the first blank or the character that closes what holds it (`<...>`, `(...)` of a
# Markdown link, quotes).
_URL = re.compile(r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*+://[^\s<>\"'`()\[\]{}|]++")


def _urls(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _URL.finditer(text)] if "://" in text else []


def _has_duration(text: str) -> bool:
    # (a glued duration needs `h` or `m` right after a digit, one in words an hour or
    # a minute after it; one regex pass, where twenty substring tests walked the text
    # twenty times)
    return _DIGIT_H_OR_M.search(text) is not None


def _read_run(text: str, start: int, run: str) -> list[Number]:
    """The numbers of one run of digits and separators."""
    end = start + len(run)
    nxt = text[end : end + 1]
    # inside an identifier (`3f2a9c`, `0x1F`, `2nd1`): no number at all
    if nxt and (nxt.isascii() and (nxt.isalpha() or nxt == "_")) and not _EXPONENT.match(text, end):
        tail = _IDENTIFIER_TAIL.match(text, end)
        if tail and any(ch.isdigit() for ch in tail.group()):
            return []
    # a printf conversion's width and precision (`%-50s`, `%10.2f`, `%8lu`): a format,
    # no number
    if (
        nxt in _CONVERSION_FIRSTS
        and _PRINTF_LEAD.search(text, max(0, start - 5), start)
        and _CONVERSION.match(text, end)
    ):
        return []
    if ":" in run:
        if _CLOCK.fullmatch(run):
            return [_finish(text, start, end, _clock_seconds(run), "clock")]
        return _split(text, start, run, ":")
    # (most runs are plain digits: one test, not a set built character by character)
    if run.isdigit():
        return [_finish(text, start, end, float(run), "int")]
    seps = {ch for ch in run if not ch.isdigit()}
    if seps == {"."}:
        if run.count(".") > 1:  # a version or an address
            return []
        return [_finish(text, start, end, float(run), "decimal")]
    if _THOUSANDS.fullmatch(run):
        group = _THOUSANDS.fullmatch(run).group(1)
        value = float(run.replace(group, ""))
        return [_finish(text, start, end, value, "grouped")]
    if seps == {","} and run.count(",") == 1:  # a decimal comma: `12,5`, `0,25`
        return [_finish(text, start, end, float(run.replace(",", ".")), "decimal")]
    for sep in (",", "'", "\u2009", "\u202f", "\u00a0", "."):
        if sep in run and sep != "." or (sep == "." and run.count(".") > 1):
            return _split(text, start, run, sep)
    return []


def _split(text: str, start: int, run: str, sep: str) -> list[Number]:
    out, pos = [], start
    for part in run.split(sep):
        if part:
            out.extend(n for n in (_read_run(text, pos, part) if part != run else []) if n)
        pos += len(part) + 1
    return out


def _clock_seconds(run: str) -> float:
    seconds = 0.0
    for part in run.split(":"):
        seconds = seconds * 60 + float(part)
    return seconds


def _finish(text: str, start: int, end: int, value: float, shape: str) -> Number | None:
    """A number with its sign, exponent, magnitude, unit and approximation word."""
    # (each pattern tried where the character after the number lets it match: most
    # numbers are followed by a blank or a mark, and no pattern is run for them)
    after = text[end : end + 1]
    if shape in ("int", "decimal") and after in _EXPONENT_MARKS:
        e = _EXPONENT.match(text, end)
        tail = _IDENTIFIER_TAIL.match(text, e.end()) if e is not None else None
        if tail is not None and any(ch.isdigit() for ch in tail.group()):
            return None  # (`9e1d0bb6e0`: a hash that starts like an exponent)
        if e is not None:
            exponent = int(e.group()[1:])
            value = value * 10.0**exponent if abs(exponent) < 300 else math.inf * (value > 0)
            end, shape = e.end(), "exponent"
            after = text[end : end + 1]
    magnitude = ""
    m = _MAGNITUDE.match(text, end) if after in _MAGNITUDE_FIRSTS else None
    if m is not None and m.group() == "B" and not _billions(text, start, m.end()):
        m = None  # (`64B`, `1.000B`, `128B/op`: bytes, the unit)
    if m is None and after in " \t":
        nxt = text[end + 1 : end + 2]
        if nxt in _SPACED_MAGNITUDES:
            m = _SPACED_CJK_MAGNITUDE.match(text, end)
        elif nxt in _SPACED_LATIN_FIRSTS:
            m = _SPACED_LATIN.match(text, end)
    if m is not None and shape != "clock":
        # (a spaced one's group is the magnitude without its blank)
        spaced = "mag" in m.re.groupindex
        magnitude = m.group("mag") if spaced else m.group()
        value = scaled(value, _SCALE[magnitude.lower() if len(magnitude) > 1 else magnitude])
        end = m.end("mag") if spaced else m.end()
    if start and text[start - 1] in "-+−" and (start == 1 or text[start - 2] in _SIGN_AFTER):
        start -= 1
        if text[start] != "+":
            value = -value
    unit, unit_end = "", end
    # (`_UNIT` starts with a blank, a letter or one of `_UNIT_MARKS`: most numbers,
    # followed by a digit, a comma or a bracket, are not tried)
    nxt = text[end : end + 1]
    u = _UNIT.match(text, end) if nxt.isalpha() or nxt in _UNIT_MARKS else None
    if u is not None and (u.group("cjk") or _unit_like(u.group("u"))):
        unit = (u.group("u") or u.group("cjk")).strip()
        unit_end = u.end()
        if unit in TIMES_SIGNS and is_product(text, (start, end), (u.start("u"), u.end("u"))):
            unit, unit_end = "", end
    before = text[max(0, start - 16) : start].rstrip(" \t")
    approx = ""
    if before[-1:] in _APPROX_LASTS:
        before = before.lower()
        if before.endswith(_APPROX_WORDS):
            approx = next(w for w in _APPROX_WORDS if before.endswith(w))
        if approx.isalpha() and before[-len(approx) - 1 : -len(approx)].isalpha():
            approx = ""  # (`cover 5`: a word that ends like one)
    if not approx and text.find("左右", unit_end, unit_end + 3) >= 0:
        # (Chinese writes `about` after the number: `1W左右`, `300 ms 左右`)
        approx = "左右"
    return Number(
        start,
        end,
        text[start:end],
        value,
        unit,
        unit_end,
        shape,
        magnitude,
        approx,
    )


# Words that follow numbers but are not their units (`5 of`, `2 and`, `3 is`).
_NOT_UNITS = frozenset(
    (
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "from", "has", "have",
        "if", "in", "into", "is", "it", "no", "not", "of", "on", "or", "so", "than", "that",
        "the", "then", "this", "to", "was", "we", "were", "which", "will", "with",
        "before", "after", "instead", "vs", "versus", "more", "less", "faster", "slower",
        "better", "worse", "higher", "lower", "up", "down", "over", "under", "per", "each",
        "all", "only", "about", "or", "when", "while", "where", "since", "until", "out",
    )
)  # fmt: skip


# A times sign between two whole numbers, spaced alike on both sides, multiplies them
# (`4 x 4`, `a 6 × 4 table`, `1×3`, `16 x 2.5 GHz`): a size or a count, not a speed-up
# factor. Not `1.6x 198 ms` (a factor, then a time), `2x 4 threads`, nor a list of
# factors (`1.5x 2.0x`, the sign after the next number too).
TIMES_SIGNS = frozenset("xX×")
_PRODUCT_NEXT = re.compile(r"[ \t]?(\d[\d.,]*)(?:[ \t]?(?P<sign>[xX×])(?![A-Za-z]))?")


def is_product(text: str, number: tuple[int, int], sign: tuple[int, int]) -> bool:
    """Whether the times sign at `sign` (start, end) after the number at `number` is a
    product's: a whole number before it, the next number after it as far from it."""
    if not text[number[0] : number[1]].isdigit():
        return False
    m = _PRODUCT_NEXT.match(text, sign[1])
    if m is None or m.group("sign") is not None:
        return False
    return text[number[1] : sign[0]] == text[sign[1] : m.start(1)]


def _unit_like(token: str | None) -> bool:
    return bool(token) and token.lower() not in _NOT_UNITS


def _link_ranges(text: str, out: list[Number]) -> None:
    """`2-5x`, `2 to 5 s`, `10~20ms`: each end knows the other."""
    for k in range(len(out) - 1):
        a, b = out[k], out[k + 1]
        if a.range_with is not None or a.unit_end != a.end and a.unit not in ("x", "%"):
            continue
        # (a gap wider than any join is not read)
        if not 0 < b.start - a.end <= _RANGE_JOIN_WIDEST:
            continue
        gap = text[a.end : b.start]
        if _RANGE_JOIN.fullmatch(gap) and not _FROM.search(text, max(0, a.start - 8), a.start):
            a.range_with, b.range_with = k + 1, k
            if b.approx in ("~", "～"):
                b.approx = ""


# (asked of every stored measurement, whose tables repeat their few written forms:
# once a form. Bounded, and numbers as written only)
@functools.lru_cache(maxsize=4096)
def range_end(written: str | None) -> float | None:
    """The upper end of a number written as a range (`2-5x`: 5, `~19 to ~26`: 26), else
    None: a range keeps both its ends."""
    if not written or not any(j in written for j in ("-", "–", "~", "～", "to")):
        return None
    ns = numbers(written, 3)
    if len(ns) == 2 and ns[0].range_with == 1:
        return ns[1].value
    return None
