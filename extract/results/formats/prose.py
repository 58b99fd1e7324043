"""Measured numbers written in sentences: returns one table per sentence that has any.

Runs last (priority 90), on the text the table and tool parsers left unclaimed, and
outside code fences. A number counts only when it carries a performance unit and,
for units that also name settings, sits near a performance word:
* durations (`27 sec`, `~3.5 minutes`, `0.4s`, `4:40 min` → 280 s, `1 min 5 sec` and
  `4m30s` → seconds) with a cue such as took / takes / time / latency / faster /
  reduced / saves / average / from ... to / `->`, set against another (`A vs B`), or
  the time of a counted amount of work (`1 million messages in 75 seconds`);
* rates (`320k rows/sec`, `~6k/ms`, `7117 QPS`, `131 MB/s`, `3 million rows per
  second`): always performance, but for a machine part's in a hardware list;
* ratios (`3x improvement`, `2-5x latency improvement`, `a factor of more than 5`,
  `x10 times throughput`, `a bit over 2x in startup time`, `increased ... by 3x`,
  `we saw up to 17x`) followed or preceded by a speed word; unit `x`;
* percentages (`4.2% performance degrade`, `improved throughput by 30%`, `load time is
  down 60%`, `40% smaller`, `within 15% of X`) next to a change word, and measured
  shares of the time (`responsible for 30% of the time`).
Numbers may touch CJK letters (`util飙到95%`, `耗时20ms左右`) and be written with a
decimal comma (`3,5 s`). Never: dates, versions, ids, list items, CLI args, config
values (`timeout of 30 s`, `set to`, `=`), bounds (`< 2ms`, `up to 30 s`),
conditions (`if it takes more than 10 s`), expectations and claims (`should be 30%
faster`, `claims up to 10x`, `10x, in theory`, `as much as`, questions).

The `-` and `+` lines of a ```diff fence (a change to a README or a doc) are read as
sentences too (with the lines a mailer wrapped out of them), their measurements'
variant `[-]` (old text) or `[+]` (new).

Sentences end at `.!?` before a capital (after `!?` also before a lowercase word), at
blank lines, bullets, `|` and lines that start with a capital, unless the line before
is a long one cut after a plain word or a comma (hard-wrapped mail).

Measurements: value = the number as written (`320k` → 320000, `~2` → 2, a range
`2-5` → its lower bound; `written` keeps the text, qualifier included), unit as
written (`sec`, `minutes`, `rows/sec`, `x`, `%`; clock times and glued durations
become `s`); metric = the performance word nearest to the number (`build time`,
`latency`, `improvement`) or the unit's kind (`time`, `throughput`, `speedup`,
`change`, `share of time`); label = the clause before the number (`This reduces the
ambari metrics build time`); caption = the sentence, after the end of the one before
when it opens with a pronoun (`It was 14149ms vs 3169ms`); variant = `before` /
`after` for `from A to B` (`从A降到B`), `A -> B`, `A, down from B`, `A (was B)`,
`A instead of B`, numbers after `with(out) the patch` and numbers followed by before
/ after / with(out) the patch. A list's bare values take the unit written after its last
(`took 41 and 29 seconds`, `2,310 vs 2,170 qps`); the values of a list in one unit (`took
52.1s, 53.4s and 51.8s`) share the first's label and side; after as many slashed names
(`p50/p99/p999 latencies are 1.2 ms, 4.8 ms and 12.1 ms`) each is its name's.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from extract.results.formats._context import measure
from extract.results.formats._layout import ARROW, NUM, TIME_OF_DAY
from extract.results.formats.base import FormatInfo, Measurement, ResultTable
from extract.results.units import parse_number, scaled, to_si

# Chinese, Japanese and Korean text writes numbers against its letters (`util飙到95%`,
# `耗时20ms左右`): a letter of these scripts does not glue a number to a word.
_CJK = "\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af"
_NOT_GLUED = rf"(?!(?![{_CJK}])[\w/])"  # no word character or `/` follows (CJK may)
# More things counted per unit of time (`120k writes/s`, `3k inserts/sec`).
_RATE_THINGS = (
    r"writes|reads|inserts|updates|deletes|puts|gets|lookups|commits|batches|tuples|keys"
    r"|entries|items|elements|calls|invocations|hits|jobs|tasks|pages|packets|samples|spans"
    r"|points|bytes|lines|tokens|images|frames"
)
# What is counted per second in words (`1.2 million events per second`).
_PER_SECOND_THINGS = (
    r"ops?|operations?|lookups?|calls|queries|requests|reqs|rows|records|messages|msgs"
    r"|transactions|txns?|events|docs|documents|files"
)
# A number with a unit (the trigger's first part): a digit, then `_AFTER_DIGIT`.
_AFTER_DIGIT = (
    r"[kKM]?(?:\s(?:thousand|million|billion))?\s?"
    r"(?=[%×/ptxXorqmefdiIFKMGBkgQTRCnuµμshlcwj毫秒分小倍条次个笔行])"
    r"(?:%|percent\b|[xX]"
    rf"(?!(?![{_CJK}])\w)|×"
    r"|times\s|(?:(?:ops?|rows|records|reqs?|requests|queries|msgs?|messages|tx|txns?"
    r"|transactions|events|files|docs|documents|i|it|iter|[KMG]?i?B|[kmg]b"
    rf"|{_RATE_THINGS})/(?:s|sec|second|ms|min)|/(?:s|sec|ms)"
    rf"|(?:{_PER_SECOND_THINGS}|{_RATE_THINGS}) per sec(?:ond)?"
    r"|QPS|TPS|RPS|CPS|qps|tps|rps|cps|ops|MBps|GBps|IOPS|iops|[GT]?FLOPS|[gt]?flops"
    r"|ns|nano ?seconds?|us|µs|μs|micro ?seconds?|ms|msecs?"
    r"|millis(?:econds?)?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?"
    r"|毫秒|秒钟?|分钟|小时|倍|(?:条|次|个|笔|行)/(?:秒|s))"
    rf"{_NOT_GLUED})"
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
# What a duration written as a clock (`_CLOCK_TIME`) needs: one of its verbs, then a
# clock further on (the first verb only: `(?>...)`, so a text is read once), not
# any clock at all (times of day are in most mail).
_CLOCK_VERBS = ("tak", "took", "last", "down", "went", "goes", "reduced", "brought", "vs", "versus")
_CLOCK_NEED = rf"\A(?>[\s\S]*?(?:{'|'.join(_CLOCK_VERBS)}))[\s\S]*?(?-i:\d:[0-5]\d)"

# Two bare minutes set against each other (`~6m down to ~3m`, see `_BARE_MINUTES`).
_BARE_PAIR = r"\dm (?:down to|up to|to|->|→|vs)"  # (so that each needs a needle below)

INFO = FormatInfo(
    name="prose",
    description="numbers with units in sentences ('took 27 sec ... 9 sec with the patch')",
    signature="a number with a duration, rate, `x` or `%` unit next to a performance word "
    "(took, faster, latency, improvement, from ... to ...)",
    priority=90,
    generic=True,
    kind="result",
    trigger=rf"(?-i:{_NUMBER_UNIT}|factor of\s|(?:^|[^A-Za-z])(?:{_RATE_NAMES})|[xX×]\d"
    rf"|{_BARE_PAIR})|吞吐"
    rf"|{_CLOCK_NEED}",
    # One part per ASCII digit: a regex that starts with a literal is searched much
    # faster than one that starts with `\d`. Other digits only when the text has one.
    trigger_parts=(
        *((rf"(?-i:{digit}{_AFTER_DIGIT})", (), ()) for digit in "0123456789"),
        (rf"(?-i:(?![0-9])\d{_AFTER_DIGIT})", tuple(WIDE_DIGITS), ()),
        (r"(?-i:factor of\s)", ("factor of",), ()),
        # (`_RATE_LED`'s rate names: not the `tps` of `https`. The letter before is
        # ruled out by a class, not a lookbehind, so that the prefilter decides it)
        (
            rf"(?-i:(?:^|[^A-Za-z])(?:{_RATE_NAMES}))",
            ("TPS", "QPS", "RPS", "tps", "qps", "rps", "hroughput"),
            (),
        ),
        (r"吞吐", ("吞吐",), ()),
        (_CLOCK_NEED, (), _CLOCK_VERBS),
        (r"(?-i:[xX×]\d)", ("x", "X", "×"), ()),
        (rf"(?-i:{_BARE_PAIR})", ("m down to", "m up to", "m to", "m ->", "m →", "m vs"), ()),
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
    r"(?:(?<=[.!?]\s)\s*(?=[A-Z`*(\[\"'])|(?<=[!?]\s)\s*(?=[a-z])|(?<=\n)[ \t]*\n"
    r"|(?<=\n)(?=[ \t]*(?:[-*•>#]|\d+[.)])\s)|\|\s|(?<=\n)[ \t]*(?=[A-Z#])"
    # a Markdown heading in a flattened mail (`... 2 min ## How was this tested?`)
    r"|(?=#{2,6}[ \t]))"
)
_SENTENCE_END = re.compile(r"\s" + _ENDS)
# The same, where it starts at a line break, and the other places where it can start:
# a space after `.`, `!` or `?`, or before `|` (`_ends` reads the text with these; a
# regex that starts with a literal skips to it, one with `\s` stops at every space).
_SENTENCE_END_NL = re.compile(r"\n" + _ENDS)
_AFTER_STOP = [re.compile(re.escape(c) + r"(?=[^\S\n])") for c in ".!?"]
# (a `|`, or a Markdown heading's `#`, after a blank)
_BAR_OR_HEADING = re.compile(r"\|(?<=[^\S\n]\|)|#(?<=[^\S\n]#)(?=#{1,5}[ \t])")
# A full-width stop ends a sentence with no blank after it: Chinese puts none
# (`TPS 从 3万 降到 1万。请问是什么原因？`: the question is the next sentence's)
# (not before a line break, a bar or a heading, which end sentences of their own)
_CJK_STOP = re.compile(r"[。！？]")
_CJK_END = re.compile(r"(?<=[。！？])[ \t]*+(?![\s|#])")

_DURATION = (
    r"ns|nano ?seconds?|us|µs|μs|micro ?seconds?|ms|msecs?|millis(?:econds?)?|milli seconds?"
    r"|s|secs?|seconds?"
    r"|mins?|minutes?|h|hrs?|hours?"
    # (in Chinese: milliseconds, seconds, minutes, hours)
    r"|毫秒|秒钟?|分钟|小时"
)
_RATE = (
    r"(?:ops|op|rows|records|req|reqs|requests|queries|msgs?|messages|tx|txns?|transactions|events"
    r"|files|docs|documents|i|it|iter|B|KB|MB|GB|KiB|MiB|GiB|kb|mb|gb"
    rf"|{_RATE_THINGS})/(?:s|sec|second|ms|min)"
    rf"|/(?:s|sec|ms)|(?:{_PER_SECOND_THINGS}|{_RATE_THINGS}) per sec(?:ond)?"
    r"|QPS|TPS|RPS|CPS|qps|tps|rps|cps|ops|MBps|GBps|IOPS|iops|[GT]?FLOPS|[gt]?flops"
    # (things counted per second in Chinese: items, times, records, rows)
    r"|(?:条|次|个|笔|行)/(?:秒|s)"
)
# What may stand before a number in `_CANDIDATE` (its group `q`, without the spaces);
# of those matching at one place only one is followed by the number: their order is free.
_QUALIFIERS = (
    "~", "≈", "about", "around", "approximately", "approx.", "approx", "roughly", "nearly",
    "almost", "more than", "over", "less than", "under", "only", "just", "up to",
    *(f"{a} {b}" for a in ("a bit", "a little", "slightly", "just", "well")
      for b in ("over", "more than", "under", "less than")),
    *(f"{a} {b}" for a in ("something", "somewhere") for b in ("around", "like")),
)  # fmt: skip
_CANDIDATE = re.compile(
    # (a sign glued to a number is an expression's or a flag's, `x+1`, `-Xmx4`, but a
    # percentage's after a blank: `+45% throughput`, `(-30%)`)
    # (nor a number right after a `%`: a printf conversion's width, `%14s`, or a
    # percentage written sign first, `%30`, which no unit follows)
    r"(?:(?<![^\s(])(?P<sign>[+\-−])(?=\d[\d.,]{0,12}\s?%)|(?<![.\-/=:#@$+%]))"
    rf"(?<!(?![{_CJK}])\w)(?<!\d,)"  # (`1000,1ms`: a list's item)
    rf"(?P<q>(?:(?P<between>between)|{'|'.join(map(re.escape, _QUALIFIERS))})\s*)?"
    r"(?P<n>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d,.])"
    # a decimal comma (`3,5 s`, `1,25x`): one or two digits after it (`1000,1ms` is a list)
    r"|\d{1,3},\d{1,2}(?![\d,])"
    rf"|{NUM}(?::\d\d(?:\.\d+)?)?)"
    # (a range's end is no key: in `avg: 2.1 - 50%: 1.9`, `50%` names the next value)
    rf"(?P<range>\s?[-–~]\s?{NUM}(?!\d|\s?%?[ \t]*[:：][ \t]*\d)"
    rf"|[xX×]?\s(?:to|or)\s{NUM}(?=\s?[xX×%])"
    # (`between 30 and 40 ms`: a range)
    rf"|(?(between)\sand\s{NUM}|(?!)))?"
    r"(?P<suf>[kKM](?=\s?/|\s?(?:rows|records|ops|req|QPS|TPS|qps|tps|msg)\b|\b)"
    r"|\s(?:thousand|million|billion)(?=\s))?"
    rf"(?:\s?(?P<unit>%|percent\b|[xX×](?!(?![{_CJK}])\w)"
    r"|times(?=\s+(?:faster|slower|better|more|less))|倍"
    rf"|(?:{_RATE}){_NOT_GLUED}|(?:{_DURATION}){_NOT_GLUED}))"
    # (nor is the number itself: `50%: 1.9`, `99.9%: 9.8` name percentiles)
    r"(?![ \t]*[:：][ \t]*\d)"
)
# By last character, longest first (so the earliest start is tried first).
_QUALIFIERS_BY_LAST: dict[str, list[str]] = {}
for _q in sorted((*_QUALIFIERS, "between"), key=len, reverse=True):
    _QUALIFIERS_BY_LAST.setdefault(_q[-1], []).append(_q)
# A run of digits; `\d\d*`, not `\d+`: a pattern that starts with a class is scanned
# fast.
_DIGITS = re.compile(r"\d\d*")
_NUMBER_UNIT_RE = re.compile(_NUMBER_UNIT)
_QUOTE_MARK = re.compile(r">(?<=\s>)(?=\s)")  # `(?<=\s)>(?=\s)`, found from its literal
# A factor written with its `x` first: `up to x10 times throughput`, `×4 faster`.
_X_FIRST = re.compile(
    r"(?<![\w.])(?P<q>(?:up to|about|around|~|over|more than|nearly|almost|roughly)\s*)?"
    rf"[xX×](?P<n>{NUM})(?:\s*times)?(?![\w.%])"
)
_X_DIGIT = re.compile(r"[xX×]\d")
# A duration in glued units, as `time` and CI logs print it: `4m30s`, `1h 20m`,
# `2h5m10s`; a bare `35m` only in a sentence that has such a duration already.
# `compile time ~6m down to ~3m`: two bare `Nm` set against each other in a sentence
# about time are minutes.
_BARE_MINUTES = re.compile(
    r"(?i)\b(?:times?|took|takes|taking|duration|minutes)\b[^.;!?]{0,80}?(?<![\w.])~?\d+m\s*"
    r"(?:down to|up to|to|->|→|vs\.?)\s*~?\d+m(?![\w/])"
)
_BARE_PAIR_RE = re.compile(_BARE_PAIR)
_HMS = re.compile(
    r"(?<![A-Za-z0-9_.])(?P<q>(?:~|about|around|roughly|under|over|almost|nearly)\s*)?"
    rf"(?P<n>(?P<h>\d+)h\s?(?P<hm>\d+)m(?:in)?(?:\s?(?P<hs>{NUM})s)?"
    rf"|(?P<m>\d+)m\s?(?P<ms>{NUM})s|(?P<bare>\d+)m"
    # (in Chinese: `4分12秒`, 4 min 12 s; `2小时15分`, 2 h 15 min)
    rf"|(?P<cm>\d+)[ \t]?分钟?[ \t]?(?P<cs>{NUM})[ \t]?秒"
    r"|(?P<ch>\d+)[ \t]?个?小时[ \t]?(?P<chm>\d+)[ \t]?分钟?)(?![A-Za-z0-9_/])"
)
_FACTOR = re.compile(
    rf"\bfactor of\s+(?P<q>(?:more than|over|about|around|~|almost|nearly)\s*)?(?P<n>{NUM})"
)

_PERF = re.compile(
    # (the look-ahead holds every first character: most positions fail at once)
    r"(?i)(?=[a-z→耗用延时性提降加从升响]|->)(?:"
    r"\b(?:took|takes?|taking|took around|time[sd]?|timings?|runtime|run|runs|ran|running"
    r"|latenc(?:y|ies)|lag|elapsed|spent|duration|faster|slower|quicker|speed(?:s|up|-up)?"
    r"|improve\w*|reduc\w*|degrad\w*|regress\w*|benchmark\w*|perf\w*|throughput|build|startup"
    r"|start-up|load(?:ing|ed)?|finish\w*|complete[sd]?|wall|cpu|went|goes|from"
    r"|sav(?:e|es|ed|ing|ings)|cuts?|shav(?:e|es|ed|ing)|dropp?(?:s|ed|ing)?"
    # the runs a timing compares
    r"|with(?:out)? (?:the |this |my |a )?(?:patch|change|fix))\b|->|→"
    # a time named in camel case, as tools and APIs name it (`QTime`, `responseTime`)
    r"|(?-i:\b[A-Za-z][a-z]*Time)\b"
    # in Chinese: time taken, time used, latency, response time, performance, raise,
    # lower, speed-up; from (`从 3ms`), went up / down to (`升到`, `降至`)
    r"|耗时|用时|延迟|时延|响应时间|性能|提升|降低|加速|从|[升降](?:到|至))"
)
_SPEED_WORD = re.compile(
    r"(?i)^\W{0,3}(?:\w+\s+){0,2}(?:faster|slower|quicker|speed-?ups?|improve\w*|better|worse"
    r"|latency|throughput|perf\w*|reduction|regression|degradation|gains?|more throughput|less"
    r"|increase[sd]?|decrease[sd]?|boost|longer|shorter|(?:more|less) (?:time|cpu))\b"
    # `a bit over 2x in regular startup time`: the factor of a timed quantity
    r"|^\W{0,3}(?:in|on|of)\s+(?:[\w-]+\s+){0,3}?(?:(?:build|startup|start-up|load(?:ing)?"
    r"|run|execution|response|compile|query|wall|cpu)[ -]?times?|runtime|latency|throughput)\b"
)
# `we saw up to 17x`: a factor that was seen, in a sentence about gains (`_CHANGE_WORD`).
# A verb that reports what a run did, just before `up to`: `reached`, `shows`, `peaked at`.
RESULT_VERBS = (
    "saw", "seen", "see", "observe", "observed", "measured", "got", "get", "gets", "achieve",
    "achieved", "achieves", "reach", "reached", "reaches", "show", "shows", "showed", "shown",
    "hit", "hits", "peak", "peaks", "peaked", "sustained", "sustains", "recorded",
)  # fmt: skip
_RESULT_VERB = re.compile(r"(?i)\b(?:" + "|".join(RESULT_VERBS) + r")(?: at)?\s*$")
_RESULT_WORD = re.compile(r"(?i)\b(?:" + "|".join(RESULT_VERBS) + r")\b")
_SEEN_BEFORE = re.compile(
    r"(?i)\b(?:saw|seen|see|seeing|observed?|observing|measured|got|getting|achieved?|reached)\s*$"
)
_SPEED_BEFORE = re.compile(
    r"(?i)(?:speed-?up|improvement|gain|factor) (?:of|by)\s*$"
    # `increased write throughput by 3x`, `sped the scan up by ~2x`
    r"|\b(?:improv|increas|reduc|decreas|boost|cut|drop|grow|grew|speed|sped|lower|rais)\w*"
    r"\b[^.;!?]{0,40}?\bby\s*$"
    # (in Chinese the change comes first: `性能提升了 4 倍`, improved 4 times; `快了 3 倍`)
    r"|(?:提升|提高|加快|快|慢|降低|减少|缩短|增加|增长|改善)了?\s*(?:约|大约|近|将近|超过)?\s*$"
)
# `load time is down 60%`, `up 12%`: a change stated by its direction, which must be
# about a measured quantity (not `downloads are up 20%`).
_PERF_NOUN = re.compile(
    r"(?i)\b(?:time|times|latenc(?:y|ies)|throughput|perf\w*|cpu|qps|tps|speed|runtime|duration"
    r"|memory|heap|gc|p\d\d)\b"
)
# (after a verb of being or going, or a measured noun: not the particle of `pick up`)
_DIRECTION_BEFORE = re.compile(
    r"(?i)(?:\b(?:is|are|was|were|been|went|goes|go|gone|got|now|time|latency|throughput|cpu"
    r"|usage|qps|tps)|['’]s)\s+(?:down|up)\s*(?:by\s*)?$"
)
_CHANGE_WORD = re.compile(
    r"(?i)\b(?:improv\w*|faster|slower|speed\w*|degrad\w*|regress\w*|reduc\w*|decreas\w*|increas\w*"
    r"|drop\w*|gain\w*|overhead|less|fewer|more|better|worse|saving\w*|lower|higher|latency"
    r"|throughput|[qtr]ps|i?ops|cpu|slowdown|perf\w*|smaller|larger|shorter|longer)\b"
    # the same in Chinese: performance, raise, lower, drop, reduce, add, optimise,
    # time taken, latency, throughput, speed-up, bottleneck
    r"|性能|提升|提高|降低|下降|减少|增加|优化|耗时|延迟|吞吐|加速|瓶颈"
)
# `responsible for 30% of the time`, `spends 40% of its time in GC`: a measured share of
# the time (a profile), when a verb of cost comes before it (not `90% of the time it
# works`).
_TIME_SHARE_AFTER = re.compile(
    r"(?i)\s*of (?:the |its |our |all )?(?:total |overall |whole |execution |cpu |run |wall )?"
    r"(?:time|runtime|run time|cpu(?: time)?|samples)\b"
)
_COST_BEFORE = re.compile(
    r"(?i)\b(?:spen[dt]\w*|responsible|accounts? for|accounted for|takes?|took|taking|consum\w*"
    r"|dominat\w*|eats?|ate|uses?|used)\b"
)
_NOT_PERF_PERCENT = re.compile(
    r"(?i)\b(?:coverage|covered|complete|completed|done|progress|probability|chance|share|of users"
    r"|p-?value|confidence|accuracy|precision|recall|disk usage|utili[sz]ation of the disk)\b"
    # (`the disk is 90% full`; not `the full scan is 20% slower`)
    r"|(?i:%\s*full)\b"
)
# Words just before a number that make it a setting, a limit or a schedule.
_SETTING_BEFORE = re.compile(
    r"(?i)(?:\b(?:timeout|time-out|interval|every|wait(?:ing)?|sleep(?:ing)?|delay|retry|retries|ttl"
    r"|expir\w*|heartbeat|session|deadline|period|after|within|last|default|set to|configured"
    r"|config|limit(?:ed)?|maximum|minimum|max\.|min\.|up to|at most|at least|as much as|for|per)"
    r"|=|(?:^|\s)--?[A-Za-z][\w.-]*"
    # (in Chinese: every, timeout, interval, wait, sleep, delay, schedule)
    r"|(?:每|超时(?:时间)?|间隔|等待|休眠|延时|定时)(?:为|是)?)\s*(?:of\s*|is\s*|to\s*|at\s*|:\s*)?$"
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
    r"|budget|limit|cap|threshold|backoff|retention|expiry|grace period)s?\b"
)
_EXPECTATION = re.compile(
    r"(?i)\b(?:should|expect\w*|would|could|might|may|hope\w*|target\w*|goal|estimat\w*|assum\w*"
    # (`plan to`, `planned`, not a query's `planner` or `planning`, which takes time)
    r"|aim\w*|want|wish|plan(?:s|ning)? to|planned|predict\w*|theoretical\w*|can we|need to"
    r"|must|will"
    r"|believe|think|guess|probably|likely|possibl\w*|potential\w*|ideally"
    # someone else's figure, or one in theory: `claims up to 10x`, `in theory 3x`
    # (the verbs: not `promising`, `a claim`)
    r"|in theory|claim(?:s|ed)|promise[sd]|advertised|supposed to|maybe|perhaps|hopefully)\b"
)
_EXPECTATION_PIECES = (
    "should", "expect", "would", "could", "might", "may", "hope", "target", "goal",
    "estimat", "assum", "aim", "want", "wish", "plan", "predict", "theoretical", "can we",
    "need to", "must", "will", "believe", "think", "guess", "probably", "likely",
    "possibl", "potential", "ideally", "in theory", "claim", "promise", "advertised",
    "supposed to", "maybe", "perhaps", "hopefully",
)  # fmt: skip
# Build tool bookkeeping (Maven's `Total time: 02:05 min`, cargo's `Finished ... target(s)
# in 0.23s`) is not a benchmark.
_BOOKKEEPING = re.compile(
    r"\[INFO\]|BUILD (?:SUCCESS|FAILURE)|Reactor Summary|Finished at:|target\(s\) in \d"
)
# What a number measures, when named near it (the metric).
_METRIC_WORDS = re.compile(
    r"(?i)(?=[a-z])\b(?:(?:build|startup|start-up|loading|load|run|running|execution|wall|cpu|query|"
    r"response|compile|compilation|test|dump|write|read|image loading)\s+time|latency|throughput"
    r"|runtime|speed|speedup|improvement|degradation|degrade|regression|overhead|slowdown"
    r"|reduction|cpu|duration|qps|tps|rt|p\d{2,3}(?:\.\d+)?)\b"
    # (as Chinese names them, with no word boundary around: latency, time taken,
    # throughput, speed, response time)
    r"|延迟|时延|耗时|响应时间|吞吐量?|速度|速率"
)
# Metric words that name a rate, and those that name a time: a duration is never a
# `throughput`, whichever word stands nearer (`avg throughput 137 MB/s, p99 48 ms`).
_RATE_METRICS = frozenset(("throughput", "qps", "tps", "speed"))
_PERCENTILE = re.compile(r"p\d{1,3}(?:\.\d{1,4})?")
_CONFLICTS = {
    "duration": _RATE_METRICS | frozenset(("吞吐", "吞吐量", "速度", "速率")),
    "rate": frozenset(("latency", "runtime", "duration", "延迟", "时延", "耗时", "响应时间", "rt")),
}
# Who had a value, after the side it names: `before it was 380 ms`, `before, we got 41 s`.
_WHO_HAD = r"[ \t]+(?:(?:it|we|this|that|I)[ \t]+(?:was|were|had|got|took|takes|is|did|ran)|it's)"
_BEFORE_AFTER = re.compile(
    r"(?i)^\W{0,3}(?:\)?\s*)?(?P<w>before|after"
    r"|with(?:out)? (?:the |this |my )?(?:patch|change|fix)|baseline|patched|unpatched|old|new)\b"
    # (`Before: 12 s, After: 9 s`, `before 12 s, after 9 s`: a side named with a colon,
    # or just before a number, or before who had it (`510 ms, before it was 380 ms`),
    # names the number after it)
    rf"(?![ \t]*[:：]|[ \t]+[~≈]?\d|,?{_WHO_HAD}\b)"
)


# A rate named before its number, without a unit after it: `TPS reached 38k`,
# `the QPS of A is 18000`, `tps stabilised at about 10w`, `TPS打到3.8万`. The
# magnitudes: k, and the CJK 万 (10^4) and 亿 (10^8) with their romanised w/W.
_RATE_LED = re.compile(
    # (not a number's own unit: `300 rps already get 503`)
    rf"(?P<kw>(?<![A-Za-z-])(?<!\d)(?<!\d[ \t])(?:{_RATE_NAMES})(?![A-Za-z])|吞吐量?)"
    # (not across the end of a clause, CJK's `；。！？` included)
    r"(?P<link>[^\d.!?;:\n；。！？]{0,24}?|\s*[:：]\s*)"
    r"(?P<q>(?:about|around|approximately|nearly|almost|over|more than|~|约|大约)\s*)?"
    rf"(?<![A-Za-z0-9_.])(?P<n>{NUM})"
    # a CJK magnitude ends the number (`3.8万 after the fix`); else no unit may follow
    r"(?:[ \t]?(?P<cjk>万|亿)|(?P<suf>[wWkK](?![A-Za-z]))?"
    # (`2、` numbers an item of a list)
    r"(?![\d]|[.,]\d|、|\s?(?:%|[xX×/](?!\w)|[A-Za-zµ]+/|(?:ns|us|µs|ms|s|secs?|seconds?|mins?"
    r"|minutes?|h|hrs?|hours?|[kKMGT]?i?B|ops|qps|tps|QPS|TPS)(?![A-Za-z])))"
    # a word after a bare number counts something else (`1 thread`, `20 JVMs`), unless
    # it only goes on with the sentence (`38k on one broker`, `18000 now`)
    r"(?(suf)|(?!\s?(?!(?:on|in|at|with|after|before|and|now|for|from|per|during|when|while"
    r"|which|that|but|or|vs|than|of|to|here|there|again|too)\b)[A-Za-z])))"
)
# What a rate named before its number went to (`... 1.2万 提升到 3.5万`, `38k to 52k`).
_RATE_LED_NEXT = re.compile(
    r"\s*(?P<link>(?:[,，]\s*)?(?:提升|提高|降低|下降|增加|减少|缩短|增长|上升|涨|降|升|减)?(?:到了?|至)"
    rf"|(?:->|→|to))\s*(?P<n>{NUM})(?:[ \t]?(?P<cjk>万|亿)|(?P<suf>[wWkK](?![A-Za-z]))?)"
    # (no unit may follow: `to 52k on two brokers` is one, `to 5 ms` another quantity)
    r"(?![\d%]|[.,]\d|[A-Za-zµ/]|\s?(?:[xX×/]|[nµu]?s|ms|secs?|seconds?|mins?|[KMG]i?B)\b)"
)
# A duration written as a clock, with no unit, after a verb that times something:
# `takes ~3:20`, `brought it down to 2:40` (m:ss, or h:mm:ss; stored in seconds). A
# time of day (`at 10:30`, `10:30 am`, `UTC`) is none.
# (led by a lookahead of its words' first letters, as `_RATE_LED_PIECES`: a position
# no word starts at is turned away in one step, not once a word)
_CLOCK_TIME = re.compile(
    r"(?i)(?=[abdglortvw])\b(?:takes?|took|taking|lasts?|lasted|down to|went to|goes to|reduced to"
    r"|brought (?:it |this |that )?(?:down )?to|(?P<vs>vs\.?|versus|and|or|then))\s+"
    r"(?P<q>~|about |around |roughly |approximately )?"
    r"(?P<n>\d{1,2}:[0-5]\d(?::[0-5]\d)?)(?![\d:]|\s*(?:am|pm|a\.m|p\.m|utc|gmt|[+-]\d{2}))"
)
_RATE_LED_PIECES = re.compile(r"(?i)(?=[tqr吞])(?:tps|qps|rps|throughput|吞吐)")
_MAGNITUDE = {"": 1.0, "k": 1e3, "K": 1e3, "w": 1e4, "W": 1e4, "万": 1e4, "亿": 1e8}


def _unit_kind(unit: str) -> str:
    if unit in ("%", "percent"):
        return "percent"
    if unit in ("x", "X", "×", "times", "倍"):
        return "ratio"
    if _DURATION_RE.fullmatch(unit):
        return "duration"
    return "rate"


# The seconds of the units a compound duration is written in (`1 min 5 sec`, `2h 30min`),
# and a clock's first field (`1:02:03 h`).
_SECONDS = {
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), 3600.0),
    **dict.fromkeys(("m", "min", "mins", "minute", "minutes"), 60.0),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), 1.0),
    **dict.fromkeys(
        ("ms", "msec", "msecs", "millis", "millisecond", "milliseconds", "milli second",
         "milli seconds"),
        0.001,
    ),
}  # fmt: skip


def _value(m: re.Match) -> tuple[float | None, str]:
    """(value, unit) as written; clock times (`4:40 min`) become seconds."""
    n = m.group("n")
    unit = m.group("unit")
    if ":" in n:
        parts = [float(p) for p in n.split(":")]
        # `4:40 min` is 4 min 40 s; `1:02:03 h` is h:m:s
        first = 3600.0 if _SECONDS.get(unit) == 3600.0 else 60.0
        seconds = parts[0] * first + sum(
            p * 60.0 ** (len(parts) - 2 - i) for i, p in enumerate(parts[1:])
        )
        return seconds, "s"
    if _DECIMAL_COMMA.fullmatch(n):
        n = n.replace(",", ".")
    suffix = (m.group("suf") or "").strip()
    suffix = {"thousand": "k", "million": "M", "billion": "G"}.get(suffix, suffix)
    value = parse_number(re.sub(r"[ \u00a0\u202f]", "", n) + suffix)
    if value is not None and "sign" in m.re.groupindex and m.group("sign") in ("-", "−"):
        value = -value
    if unit == "×":
        unit = "x"
    return value, unit


_DECIMAL_COMMA = re.compile(r"\d{1,3},\d{1,2}")
# The first number of `from A to B unit`, with no unit of its own (searched in the
# text right before B)
# (the words of approximation a bare value may carry, `from ~120 to 45 ms`)
_BARE_Q = r"(?P<q>~|about\s+|around\s+|roughly\s+)?"
_FROM_BARE = re.compile(
    rf"(?i)\bfrom\s+{_BARE_Q}(?P<n>{NUM})(?P<suf>[kM](?![A-Za-z]))?(?=\s*(?:to|->|→)\s*~?\s*$)"
)
# The bare values of a list whose last value has the unit (`3 and 12 ms`, `4, 5 and 9
# seconds`, `2,310 vs 2,170 qps`): each, with what follows it up to the last one
# (searched in the text right before the last).
_LIST_BARE = re.compile(
    rf"(?<![\w.,/~-]){_BARE_Q}(?P<n>\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|{NUM})"
    r"(?P<suf>[kKM](?![A-Za-z]))?(?![\d,.]\d)"
    # (the items between: `, 5`; a list ends with its conjunction: `RF 3, about 40 MB/s`
    # is no list, and a thousands separator is no item's comma)
    rf"(?=(?:[ \t]*,[ \t]+~?{NUM}[kKM]?)*(?:[ \t]*,)?[ \t]+(?:and|or|vs\.?|versus)[ \t]+~?$)"
)
# A bare old value after a new one (`_NEW_THEN_OLD` between them): no unit after it.
_OLD_BARE = re.compile(
    rf"(?i){_BARE_Q}(?P<n>{NUM})(?P<suf>[kKM](?![A-Za-z]))?"
    r"(?=\s*(?:[);）。，；]|[.,](?!\d)|$)|\s+(?:before|earlier|previously|originally)\b"
    # (or the side it was on, `347 with the old code`, `3900 on master`: a word that
    # brings no number of its own)
    r"|\s+(?:on|with|without|in|using|for)\s+(?:the\s+|this\s+|our\s+|my\s+)?[a-z])"
)
_LINK_WORD = re.compile(
    r"(?i)[\s(](?:from|is|was|are|were|of|by|takes?|took|to|at|in|:|->|→)\s*$"
    r"|(?:从|为|是|在|达到|到了?|约|大约)\s*$"  # (Chinese links with no blank before them)
)
_CLAUSE_BREAK = re.compile(r"[.;!?]\s|[;,]\s|\[|[，。；！？、]")
# (a piece names something when it has a word: Latin letters or Chinese characters,
# `平均延迟从 12ms 降到 5ms` is named by `平均延迟`)
_WORDY = re.compile(r"[A-Za-z\u4e00-\u9fff]")


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
    elif sentence[end - 1 : end] in (":", "："):
        # (`2.5.5: 41,233 ops/s`, `v3.1: 12 s`: a version that opens its line names it)
        version = _VERSION_KEY.search(sentence, max(0, end - 41), end - 1)
        if version is not None:
            return version.group(1)
    # (a line that ends with a value is a row of a list of results, not the start of
    # this one's clause: `small 1.2 GB/s -> 4.8 GB/s` / `medium 1.3 GB/s`)
    lo = sentence.rfind("\n", 0, end) + 1
    value = _ENDS_WITH_VALUE.search(sentence, max(0, lo - 32), lo - 1) if lo else None
    if value is not None and (not value.group(1) or to_si(1.0, value.group(1))[1] is not None):
        words = _last_piece_words(sentence[lo:end], end - lo)
    else:
        words = _last_piece_words(sentence, end)
    text = " ".join(words[-10:]).strip(" `*:-(：")
    # (a log line's time, and what stands before it, name nothing: `INFO [main]
    # 2024-05-01 10:00:01,123 Completed 1000000 writes` is named `Completed ... writes`)
    if ":" in text:
        ends = [stamp.end() for stamp in _LOG_TIME.finditer(text)]
        if ends:  # (after the last one)
            text = text[ends[-1] :].strip(" `*:-(：]") or text
    return text or None


# The time of day a log line was written at (with its fraction), and what follows it
# up to the message.
_LOG_TIME = re.compile(rf"{TIME_OF_DAY}(?:[.,]\d+)?[^A-Za-z]*")


# A line that ends a sentence, just before a line break.
_ENDED_LINE = re.compile(r"[.!?。！？][ \t]*\n$")
_VERSION_KEY = re.compile(r"(?:^|\n)[ \t*>-]*+([vV]?\d++(?:\.\d++)++(?:[-.][\w.]++)?)$")
_ENDS_WITH_VALUE = re.compile(
    r"(?<![\w.])\d[\d,]*+(?:\.\d++)?[ \t]*+([A-Za-zµ%/]{0,8}+)\)?[ \t]*+$"
)


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
                if len(words) > 10 and _WORDY.search(pieces[0]):
                    return words
                break
            if _WORDY.search(pieces[i]):
                return pieces[i].split()
        if start == 0:
            return []
        window *= 4


def _candidates(sentence: str):
    """`_CANDIDATE.finditer(sentence)`, but the regex is tried only where a match can
    start: at a qualifier that only spaces part from a run of digits, at its sign, else
    at the run's first digit (a digit after a digit fails the lookbehind). Matches do not
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
        if m is None and digit > pos and sentence[digit - 1] in "+-−":
            m = match(sentence, digit - 1)  # (a signed percentage, `+45%`)
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


# Where a sentence's next clause starts (`…, and the p99 went…`): a metric word on the
# other side names that clause's numbers, not this one's. (Not `;`: it parts clauses
# of one shape, the second naming its numbers by the first's words, `a p99 of 14.8 ms;
# with direct IO it was 6.1 ms`.)
_NEXT_CLAUSE = re.compile(r"(?i),\s*(?:and|but|while|whereas)\b")


def _metric(
    sentence: str, start: int, end: int, kind: str, words: list[re.Match], ends: list[int]
) -> str:
    """The metric word nearest to the number at `start:end` in its clause (`words`: the
    sentence's `_METRIC_WORDS`, `ends` their ends: only those near the number are looked
    at), else the name of the unit's kind."""
    best = None
    for m in words[bisect.bisect_left(ends, start - 80) :]:
        if m.start() > end + 60:
            break
        # a word before the number names it more often than one after it
        distance = start - m.end() if m.end() <= start else m.start() - end + 20
        if distance < 0 or distance > 80:
            continue
        between = (m.end(), start) if m.end() <= start else (end, m.start())
        if _NEXT_CLAUSE.search(sentence, *between) or (
            # (a Chinese comma parts clauses: the words after it name what follows it)
            m.start() > end and "，" in sentence[end : m.start()]
        ):
            continue
        word = m.group().lower()
        if word in _CONFLICTS.get(kind, ()) or (
            # (a percentile is of a latency's distribution: `88k ops/sec, p99 5.1 ms`)
            kind == "rate" and (word.endswith(" time") or _PERCENTILE.fullmatch(word))
        ):
            continue
        if best is None or distance < best[0]:
            best = (distance, word)
    if best:
        return best[1]
    return {"duration": "time", "rate": "throughput", "ratio": "speedup", "percent": "change"}[kind]


_DURATION_RE = re.compile(_DURATION)
_SPACES = re.compile(r"\s+")
_FROM_BEFORE = re.compile(r"(?i)\bfrom\s*$|->\s*$|→\s*$")
_GLUED_AFTER = re.compile(rf"(?:\s*=|:\d|/\d|\.\d|(?![{_CJK}])\w)")


# A clause of reason opens with its own subject: what it says is so, whatever the
# main clause hopes (`would be great to ship, as there's a 3x gain`, `since it is 2x`).
_REASON_CLAUSE = re.compile(
    r"(?i)\b(?:because|since|as|given that|now that)\s+"
    r"(?=(?:there|it|we|i|they|this|that|the)(?:['’]s|\b))"
)


def _clause_before(sentence: str, start: int) -> str:
    r"""`re.split(r"[;()\[\]]", sentence[:start])[-1][-150:]`, without splitting all of
    a long sentence: the text after the last of those characters, at most 150; and
    after the last `_REASON_CLAUSE` opening in it."""
    lo = max(0, start - 150)
    cut = max(sentence.rfind(c, lo, start) for c in ";()[]")
    clause = sentence[cut + 1 if cut >= 0 else lo : start]
    reasons = list(_REASON_CLAUSE.finditer(clause))
    return clause[reasons[-1].end() :] if reasons else clause


# A workload named just before `at <rate>` is run at that rate: the rate is the load
# it was given (`the topology at 50k tuples/s`, `with 8 clients at 2000 req/s`), where
# a verb before `at` states one reached (`throughput peaked at 50k/s`).
_LOAD_AT = re.compile(
    r"(?i)\b(?:load|workload|topology|traffic|producers?|consumers?|clients?|threads?)"
    r"\s+at\s*(?:about\s*|~\s*)?$"
)


# A side named just before a number, not a schedule: as a key (`After: 171 MB/s`), or
# as a word (`before 3412 ops/s, after 5120 ops/s`) for all but a time, which `after`
# schedules (`after 30 s the connection closes`).
_SIDE_LEAD = re.compile(r"(?i)\b(?:before|after)[ \t]*(?P<key>[:：][ \t]*[`*~]*)?$")


def _accept(sentence: str, m: re.Match, kind: str) -> bool:
    before = _SPACES.sub(" ", sentence[max(0, m.start() - 45) : m.start()])
    after = sentence[m.end() : m.end() + 40]
    clause = _clause_before(sentence, m.start())
    if (
        (_may_match(clause, _EXPECTATION_PIECES) and _EXPECTATION.search(clause))
        or sentence.rstrip().endswith("?")
        or _HEDGE_AFTER.match(sentence, m.end())
        or _CONDITION.search(clause)
    ):
        return False
    if kind == "percent" and _TIME_SHARE_AFTER.match(after) and _COST_BEFORE.search(before):
        return True  # `accounts for 30% of the time` (`for` is no setting here)
    if (
        _may_match(before, _SETTING_PIECES)
        and _SETTING_BEFORE.search(before)
        and not _FROM_BEFORE.search(before)
        and not ((side := _SIDE_LEAD.search(before)) and (side["key"] or kind != "duration"))
        and not (kind == "percent" and _WITHIN_OF.search(before) and _OF_AFTER.match(after))
    ):
        return False
    if kind == "rate" and "at" in before and _LOAD_AT.search(before):
        return False  # `the topology at 50k tuples/s`: the load it was run at
    if _GLUED_AFTER.match(after):
        return False  # `30s=...`, `10:30`, part of an id or a path
    if _BOUND_BEFORE.search(before):
        return False  # `p99 < 2ms`: a bound, a target
    if _SETTING_AFTER.match(after):
        return False  # `a 100 ms timeout`, `5 s poll interval`
    q = (m.group("q") or "").strip().lower()
    if q == "up to" and kind not in ("ratio", "percent") and not _RESULT_VERB.search(before):
        # `up to 30 s`, `up to 100 MB/s`: a bound; `up to 3x faster`, `we reached up to
        # 3800 gflops` a result
        return False
    if kind == "rate":
        # `Hardware: 176 cores, ..., network bandwidth 10GB/s`: the machine's spec
        return not (
            _SPEC_BEFORE.search(before)
            and _SPEC_HEAD.search(sentence, max(0, m.start() - 150), m.start())
        )
    if kind == "duration":
        window = sentence[max(0, m.start() - 120) : m.end() + 60]
        return bool(_PERF.search(window) or _VS_AFTER.match(after) or _TIMED_BEFORE.search(before))
    if kind == "ratio":
        if _speed_said(before, after):
            return True
        window = sentence[max(0, m.start() - 120) : m.end() + 60]
        return bool(_SEEN_BEFORE.search(before) and _CHANGE_WORD.search(window))
    window = sentence[max(0, m.start() - 60) : m.end() + 40]
    if m.group("sign") and (_RESULT_WORD.search(window) or _PERF.search(window)):
        return True  # `luceneutil shows +12% on AndHighHigh, +9% on ...`: a change, by its sign
    if (
        _DIRECTION_BEFORE.search(before)
        and _PERF_NOUN.search(window)
        and not _NOT_PERF_PERCENT.search(window)
        and not _TIME_SHARE_AFTER.match(after)  # `was down 30% of the time`: uptime
    ):
        return True
    return bool(_CHANGE_WORD.search(window)) and not _NOT_PERF_PERCENT.search(window)


# A list of the machine's parts, and a rate of one of them in it: a spec, not a result.
_SPEC_HEAD = re.compile(
    r"(?i)\b(?:hardware|machines?|environment|specs?|specifications?|setup|testbed|test bed)\s*:"
)
_SPEC_BEFORE = re.compile(
    r"(?i)\b(?:bandwidth|network|nic|link|ethernet|disks?|ssds?|hdds?|nvme)\b[^,;]{0,15}$"
)
# `performance is within 15% of non-checksummed reads`: a gap to a reference, measured.
_WITHIN_OF = re.compile(r"(?i)\bwithin\s*$")
_OF_AFTER = re.compile(r"\s+of\s")
# A condition the number is in (`if it takes more than 10 s, ...`): up to its comma,
# so `if you enable it, the scan took 3 s` still states a result.
_CONDITION = re.compile(r"(?i)\b(?:if|unless|whenever)\b[^,]*$")
_BOUND_BEFORE = re.compile(r"(?:(?<![-=<>])[<>]=?|[≤≥])\s*$")  # (not the arrows `->`, `=>`)
# A hedge after the number, in its clause: `10x slower, in theory`, `2x, I guess`.
_HEDGE_AFTER = re.compile(
    r"(?i)[^.;!?\n]{0,60}?\b(?:in theory|theoretically|I guess|I think|I believe|I hope|maybe"
    r"|perhaps|probably|hopefully|presumably)\b"
)
# `14149ms vs 3169ms`: a duration compared with another is measured.
_VS_AFTER = re.compile(r"[\s`*)]*(?:vs\.?|versus)[\s`*(~]*\d")
# What just before a duration says it was measured: a colon (`build time: 27 s`), the
# other side of a `vs`, a statistic of timings (`the average is 123.4 ms`, `p99: 8 ms`),
# or a counted amount of work and `in` (`processed 1 million 10 byte messages in 75
# seconds`: a number, at most three words, a noun of work items).
_TIMED_BEFORE = re.compile(
    r"(?i):\s*$|\b(?:vs\.?|versus)[\s`*(~]*$"
    r"|\b(?:average|avg|mean|median|stddev|std dev|p\d{2,3}|percentile)\b[^.;,\d\n]{0,20}$"
    # (the count searched from the first digit of a run of digits, dots and commas,
    # which no later start in the run can do better than, and without two runs of spaces)
    r"|(?<![\d.,])[.,]*+\d[\d.,]*+(?:\s*(?:[kKM]|thousand|million|billion))?\s+"
    r"(?:[\w-]+\s+){0,3}?"
    r"(?:messages|msgs|rows|records|requests|reqs|queries|docs|documents|files|events|entries"
    r"|items|keys|objects|operations|ops|transactions|txns|iterations|calls|lookups|inserts"
    r"|writes|reads|puts|gets|tuples|elements)\b[^.;!?\d]{0,30}?\bin\s*$"
)


class _Joined:
    """The match of a duration written in parts (`1 h 12 min 33 s`): the first part's
    groups, the whole's span (so that `48 min 10 sec after` is named by `after`)."""

    def __init__(self, first: re.Match, last_end: int) -> None:
        self.first, self.last_end = first, last_end
        self.re = first.re

    def start(self) -> int:
        return self.first.start()

    def end(self) -> int:
        return self.last_end

    def group(self, *names):
        return self.first.group(*names)


def _join_compound_durations(sentence: str, found: list[tuple[re.Match, Measurement]]) -> None:
    """`1 min 5 sec`, `2 hours and 10 minutes`, `1 hr 12 min 33 sec`: one duration
    written in parts, each in a smaller unit than the one before, becomes one
    measurement in seconds (its `written` the whole)."""
    i = 0
    smallest = None  # (the unit of the last part joined into found[i])
    while i + 1 < len(found):
        (m, meas), (n, nxt) = found[i], found[i + 1]
        big, small = _SECONDS.get(smallest or meas.unit), _SECONDS.get(nxt.unit)
        between = sentence[m.end() : n.start()]
        if (
            big is not None
            and small is not None
            and small < big
            and not (n.group("q") if "q" in n.re.groupindex else None)
            and re.fullmatch(r"\s*(?:and\s+)?", between)
            and meas.value is not None
            and nxt.value is not None
        ):
            meas.value = meas.value * (1.0 if smallest else big) + nxt.value * small
            meas.unit = "s"
            meas.written = sentence[m.start() : n.end()].strip()
            found[i] = (_Joined(m.first if isinstance(m, _Joined) else m, n.end()), meas)
            smallest = nxt.unit
            del found[i + 1]
            continue
        i += 1
        smallest = None


# The side named just before a number: `without patch 12.3s, with patch 8.1s`, or as a
# key: `Before: 123 MB/s, After: 171 MB/s`.
_SIDE_BEFORE = re.compile(
    r"(?i)\bwith(out)? (?:the |this |my |a )?(?:patch|change|fix)(?:es)?(?: applied)?"
    rf"(?:[\s:,=]*|,?{_WHO_HAD}[ \t]+[`*~]*)$"
    r"|\b(?P<key>before|after|baseline|patched|unpatched)(?:[ \t]*[:：=][ \t]*[`*~]*|[ \t]+)$"
    # (`before it was ~380 ms`, `After, we got 41 s`: the side, then who had the value;
    # `after it was` without the comma opens a condition: `after it was idle for 30 min`)
    rf"|\b(?P<key2>before,?|after,){_WHO_HAD}[ \t]+[`*~]*$"
    # (`优化前 TPS：8523`, `修改后：`: before / after the change, in Chinese)
    r"|(?:优化|修改|改进|升级|调整|修复|改动|变更|合入|使用)(?P<cjk>前|后)[^\d\n。，,；;]{0,12}$"
)
_BEFORE_SIDES = ("before", "baseline", "unpatched")
_CJK_TO = re.compile(
    # (`左右`, about, may follow the first value: `从 4 秒左右降到了 300 毫秒`)
    r"\s*+(?:左右\s*+)?(?:[,，]\s*+)?(?:提升|提高|降低|下降|增加|减少|缩短|增长|上升|涨|降|升|减)?"
    r"(?:到了?|至)\s*"
)
# Between a new value and the old one it replaced.
_NEW_THEN_OLD = re.compile(
    # (`[\s`*]*+`: what it gives back the next class takes, so it keeps it)
    r"(?i)[\s`*]*+(?:now)?[\s`*,;]*(?:[(（]\s*)?(?:(?:down|up) from|instead of|rather than"
    r"|(?:(?:where|whereas|while)\s+)?(?:it|this|that|we)\s+used\s+to\s+(?:take|be|get|need)"
    r"|(?<=\s)from"
    r"|(?<=[(,（，])\s*(?:was|were|before:?|previously|formerly|(?:优化|修改|改进|升级)前|之前))"
    r"[\s`*~:：]*"
)


# Between two numbers set against each other, sides unsaid.
_SET_AGAINST = re.compile(
    r"(?i)[\s`*,;(]*+(?:compared (?:with|to)|as against|against|versus|vs\.?)[\s`*~]*"
)


# What joins a value to a clause of its own after it: `480 MB/s and decompresses at`,
# `(12ms → 8ms) and the allocation rate` (not a qualifier of the value: `3:20 on Win7`).
_JOINER = re.compile(r"(?i)^[\s,;:)\]]*(?:and|but|while|whereas)\b[\s,]*")


_BRACKETED = re.compile(r"\([^()]*\)")


# An emoji as GitHub writes it in mail (`:rocket:`), just before a number: it names
# nothing.
_SHORTCODE_BEFORE = re.compile(r"(?:^|\s):[a-z0-9_+-]+:[ \t]*[~≈]?[ \t]*$")
# What a ratio says is faster, after it: `2.3x faster checkpoints with ...`.
_FASTER_WHAT = re.compile(
    r"(?i)[ \t]*(?:faster|slower|quicker|smaller|larger|better|fewer|less|more)[ \t]+"
    r"(?P<what>[A-Za-z][\w-]*(?:[ \t]+(?!(?:with|on|for|in|at|than|when|while|and|but|"
    r"compared|vs|versus|after|before|from|to|of)\b)[A-Za-z][\w-]*){0,3})"
)


def _labels_after_values(found: list[tuple[re.Match, Measurement]]) -> None:
    """A label is the clause before its value; when that clause holds an earlier value
    of the sentence and a clause of its own follows it (`compresses at 480 MB/s and
    decompresses at 1.9 GB/s`), that clause names this one (`decompresses`)."""
    for i, (m, meas) in enumerate(found):
        if not meas.label:
            continue
        cut = -1
        # (only the values just before it can lie in its label, which is the text before
        # it: a sentence of thousands of values is not read once per value)
        reach = m.start() - len(meas.label) - 8
        for j in range(i - 1, -1, -1):
            before, other = found[j]
            if before.end() < reach:
                break
            if other.written and (at := meas.label.rfind(other.written)) >= 0:
                cut = max(cut, at + len(other.written))
        if cut < 0:
            continue
        # (a side named in brackets after the value, `12m31s (trunk),`, names no clause)
        rest = _BRACKETED.sub(" ", meas.label[cut:])
        joined = _JOINER.match(rest)
        if joined is not None and _WORDY.search(rest := rest[joined.end() :].strip(" `*:(")):
            meas.label = rest


# Between the two sides of one quantity: `12 s before and 9 s after`, `12 s with the
# patch, 19 s without`.
_SIDE_THEN_OTHER = re.compile(
    r"(?i)[ \t]+(?:(?:before|after)(?: (?:the|this|that|my|our) (?:patch|change|fix|commit|pr))?"
    r"|with(?:out)? (?:the |this |that |my |our )?(?:patch|change|fix|commit|pr))"
    r"[ \t]*(?:,|;|,?[ \t]+(?:and|but|while|whereas|vs\.?|versus))[ \t]*[`*~]*"
)


_CHANGE_BY = re.compile(r"(?i)\bby\s*(?:~|≈|about\s|around\s|roughly\s)?\s*$")


def _variants(
    sentence: str, found: list[tuple[re.Match, Measurement]], mark: str | None = None
) -> None:
    """`from A to B` / `A -> B`: A is before, B after; `X before`, `Y with the patch`."""
    for i, (m, meas) in enumerate(found):
        after = sentence[m.end() : m.end() + 30]
        lead = _SIDE_BEFORE.search(sentence, max(0, m.start() - 30), m.start())
        word = _BEFORE_AFTER.match(after)
        if lead and mark is None and (not word or re.match(r"\s*[,;]", after)):
            # `without patch 12.3s`, `Before: 123 MB/s`
            key = (lead.group("key") or lead.group("key2") or "").lower().rstrip(",")
            before = lead.group(1) or key in _BEFORE_SIDES or lead.group("cjk") == "前"
            meas.variant = "before" if before else "after"
        elif word and not _CHANGE_BY.search(sentence, max(0, m.start() - 12), m.start()):
            # (`regressed by 15% after the upgrade`: a change is between the sides)
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
            if (
                re.fullmatch(
                    rf"[\s`*]*(?:{ARROW}|to|down to|up to|goes to|went to|before goes to)[\s`*~]*",
                    between,
                )
                or (
                    re.search(r"(?i)\bfrom\s*[`*~]*$", lead)
                    and re.fullmatch(r"[\s`*]*to[\s`*~]*", between)
                )
                or (
                    # `从120ms降到了45ms`: from A (fell, rose) to B
                    re.search(r"从\s*[`*~]*$", lead) and _CJK_TO.fullmatch(between)
                )
            ):
                meas.variant = meas.variant or "before"
                found[i + 1][1].variant = "after"
                found[i + 1][1].label = meas.label  # `B` of `from A to B` is A's quantity
                # (`Throughput (from 1.2k to 2.4k qps)`: the unit written once is A's too)
                meas.unit = meas.unit or found[i + 1][1].unit
            elif re.search(r"(?i)\bto\s*[`*~]*$", lead) and re.fullmatch(
                r"(?i)[\s`*]*from[\s`*~]*", between
            ):
                # `down to 20 ms from 150 ms`: to A (after) from B (before)
                meas.variant = meas.variant or "after"
                found[i + 1][1].variant = "before"
                found[i + 1][1].label = meas.label
            elif _SET_AGAINST.fullmatch(between):
                # `4.2 s, compared with 11.8 s on trunk`, `48s vs 31s`: the other side of
                # the same quantity (which side is which, the words do not say)
                found[i + 1][1].label = meas.label
            elif mark is None and _NEW_THEN_OLD.fullmatch(between) and not found[i + 1][1].variant:
                # `50 ms, down from 300 ms`, `3.2 s (was 5.1 s)`, `A instead of B`
                meas.variant = meas.variant or "after"
                found[i + 1][1].variant = "before"
                found[i + 1][1].label = meas.label
    for (m, meas), (n, nxt) in zip(found, found[1:], strict=False):
        if {meas.variant, nxt.variant} == {"before", "after"} and _SIDE_THEN_OTHER.fullmatch(
            sentence, m.end(), n.start()
        ):
            # `12 s before and 9 s after`: the two sides of one quantity
            nxt.label = meas.label


# What stands between the values of a list (`52.1s, 53.4s and 51.8s`, `1.2 ms, 4.8 ms`).
_LIST_GAP = re.compile(r"[ \t]*(?:,[ \t]*(?:and[ \t]+)?|and[ \t]+)")
# Names written as one slashed word (`p50/p99/p999`, `read/write`): a list's names, in
# order, when the list has as many values.
_SLASHED_NAMES = re.compile(
    r"(?<![\w/])[A-Za-z][\w.]{0,15}(?:/[A-Za-z0-9][\w.]{0,15}){1,7}(?![\w/])"
)


def _enumerations(sentence: str, found: list[tuple[re.Match, Measurement]]) -> None:
    """The values of a list, in one unit (`the runs took 52.1s, 53.4s and 51.8s`),
    are of one quantity: each has the first's label and side. When the words before the
    list name as many things slashed together (`p50/p99/p999 latencies are 1.2 ms,
    4.8 ms and 12.1 ms`), each value is of its own, in order."""
    i = 0
    while i < len(found):
        j = i
        while (
            j + 1 < len(found)
            and _LIST_GAP.fullmatch(sentence, found[j][0].end(), found[j + 1][0].start())
            # (one unit written each time: `6mins, 52sec` is one duration)
            and found[j + 1][1].unit == found[i][1].unit
        ):
            j += 1
        if j > i:
            first = found[i][1]
            members = [meas for _, meas in found[i : j + 1]]
            for meas in members[1:]:
                meas.label = first.label
                meas.variant = meas.variant or first.variant
            names = [
                m.group().split("/")
                for m in _SLASHED_NAMES.finditer(
                    sentence, max(0, found[i][0].start() - 80), found[i][0].start()
                )
            ]
            if names and len(names[-1]) == len(members):
                for meas, name in zip(members, names[-1], strict=True):
                    meas.metric = name
            elif _RESPECTIVELY.match(sentence, found[j][0].end()):
                _name_respectively(sentence, found[i][0].start(), members)
        i = j + 1


# `..., respectively` after a list's last value, and a list of names before its
# values: `p50 and p99 were 12 ms and 48 ms respectively`.
# (possessive, and at most eight names: linear on any text)
_RESPECTIVELY = re.compile(r"[ \t]*+,?[ \t]*+\(?respectively\b")
_NAME_LIST = re.compile(
    r"(?i)(?<![\w.-])([A-Za-z][\w.-]{0,24}+(?:[ \t]*+,[ \t]*+[A-Za-z][\w.-]{0,24}+){0,7})"
    r"(?:[ \t]*+,)?[ \t]++and[ \t]++([A-Za-z][\w.-]{0,24}+)(?![\w.-])"
)
# (a statistic names the metric; anything else what was measured)
_STATISTIC = re.compile(r"(?i)p\d{2,3}(?:\.\d+)?|avg|average|mean|median|max|min|tp\d{2,4}")


def _name_respectively(sentence: str, start: int, members: list[Measurement]) -> None:
    """Name each value of a `respectively` list by the list of as many names before it,
    in order: a statistic (`p50`, `mean`) as its metric, anything else as its label."""
    lists = list(_NAME_LIST.finditer(sentence, max(0, start - 120), start))
    if not lists:
        return
    last = lists[-1]
    names = [n.strip() for n in last.group(1).split(",")] + [last.group(2)]
    # (a clause before the names may run into them: `With the patch, q1, q3 and q9`)
    if len(names) < len(members):
        return
    names = names[-len(members) :]
    for meas, name in zip(members, names, strict=True):
        if _STATISTIC.fullmatch(name):
            meas.metric = name
        else:
            meas.label = name


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
    `_SENTENCE_END_NL`, the others tried only after `.!?` and before `|` or `##`."""
    # ((where, which end is tried there): 0 `_SENTENCE_END`, 1 `_CJK_END`)
    others = sorted(
        {(m.end(), 0) for stop in _AFTER_STOP for m in stop.finditer(text, max(lo - 1, 0), hi)}
        | {(m.start() - 1, 0) for m in _BAR_OR_HEADING.finditer(text, lo, hi)}
        | {(m.end(), 1) for m in _CJK_STOP.finditer(text, max(lo - 1, 0), hi)}
    )
    pos, k = lo, 0
    at_break = _SENTENCE_END_NL.search(text, lo, hi)
    while True:
        other = None
        while k < len(others):
            at, which = others[k]
            if at >= pos:
                other = (_CJK_END if which else _SENTENCE_END).match(text, at, hi)
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
            if _wrapped_on(text, b):
                continue
            yield cut, b.start()
            cut = b.end()
        yield cut, hi


_WRAP_WIDTH = 55  # a line at least this long that stops mid-sentence was hard-wrapped


def _wrapped_on(text: str, end: re.Match) -> bool:
    """A line break before a capital (`... to run in\nApache Beam 2.50 ...`) that only
    continues a hard-wrapped sentence: the line before it is long and stops after a
    plain word or a comma, as a wrapped line does; not after a number, a URL or other
    punctuation."""
    if end.group().count("\n") != 1 or not end.group().startswith("\n"):
        return False
    nxt = text[end.end() : end.end() + 1]
    if not nxt.isupper():
        return False
    if _KEY_AT_START.match(text, end.end()):
        return False  # (`Run 1: 41.2s`: a line of its own, as the one above was)
    start = text.rfind("\n", 0, end.start()) + 1
    line = text[start : end.start()].strip()
    return len(line) >= _WRAP_WIDTH and _WORD_AT_END.search(line) is not None


# A key and a value at a line's start (`Run 1: 41.2s`, `Before: 12 ms`).
_KEY_AT_START = re.compile(r"[A-Z][\w.-]{0,30}(?:[ \t][\w.-]{1,30}){0,3}:[ \t]*[-+~]?\d")


# a plain word (not a URL or a number), or a comma after anything
_WORD_AT_END = re.compile(r"(?:^|\s)[A-Za-z'’-]+$|,$")


# A unified diff of prose in a ```diff fence (a README or doc change in a review):
# its `-` and `+` lines are the old and the new text.
_WORD_RUN = re.compile(r"[A-Za-z]{2,}")
# (its lines indented as the fence is: a fence in an indented mail has them all so)
_DIFF_LINE = re.compile(r"^([ \t]*)([-+])(?![-+]{2})([^\n]*[A-Za-z][^\n]*)$", re.M)


def _diff_prose_lines(text: str) -> list[tuple[int, int, str]]:
    """(start, end, `[-]` or `[+]`) of the removed and added lines of diff fences."""
    if "```diff" not in text:
        return []
    out = []
    for start, lo, hi in _diff_fences(text):
        head = text[text.rfind("\n", 0, start) + 1 : start]
        indent = head if not head.strip() else ""
        for line in _DIFF_LINE.finditer(text, lo, hi):
            if line.group(1) == indent and _is_prose(line.group(3)):
                end = _wrapped_diff_end(text, line.end(3), hi, indent)
                out.append((line.start(3), end, f"[{line.group(2)}]"))
        out += _flat_hunk_lines(text, lo, hi)
    return out


def _diff_fences(text: str) -> Iterator[tuple[int, int, int]]:
    """(start, body start, body end) of each ```` ```diff ```` fence: its body runs from
    the line after to the next ```` ``` ```` or the end. (With str.find, in linear time:
    a regex looked for the line's end again from each ```` ```diff ```` of a line.)"""
    at = 0
    while (start := text.find("```diff", at)) >= 0:
        newline = text.find("\n", start + 7)
        if newline < 0:
            return
        end = text.find("```", newline + 1)
        end = len(text) if end < 0 else end
        yield start, newline + 1, end
        at = end + 3


# A hunk flattened onto its `@@ ... @@` line (a mail flattened onto one line): its
# removed and added lines start with `-`/`+` and a capital, after a sentence's end.
_FLAT_HUNK = re.compile(r"^[ \t]*@@[^@\n]*@@[^\n]+$", re.M)
_FLAT_DIFF_MARK = re.compile(r"(?:(?<=[.!?:])|(?<=@@)) ([-+])(?=[A-Z])")


def _flat_hunk_lines(text: str, lo: int, hi: int) -> list[tuple[int, int, str]]:
    out = []
    for hunk in _FLAT_HUNK.finditer(text, lo, hi):
        marks = list(_FLAT_DIFF_MARK.finditer(text, hunk.start(), hunk.end()))
        for mark, after in zip(marks, [*marks[1:], None], strict=False):
            start, end = mark.end(), after.start() if after else hunk.end()
            if _is_prose(text[start:end]):
                out.append((start, end, f"[{mark.group(1)}]"))
    return out


def _wrapped_diff_end(text: str, end: int, limit: int, indent: str) -> int:
    """Where a diff line ends once the lines a mailer wrapped out of it are added: a
    line of a diff starts with ` `, `-`, `+`, `@` or `\\`; one that does not goes on
    from the line before."""
    while end < limit:
        nxt = text.find("\n", end + 1, limit)
        line = text[end + 1 : nxt if nxt >= 0 else limit]
        body = line[len(indent) :] if line.startswith(indent) else None
        if not body or not body.strip() or body[0] in " -+@\\" or body.startswith("```"):
            return end
        end = end + 1 + len(line)
    return end


def _is_prose(line: str) -> bool:
    """A line of text, not of code: five words or more, and almost only letters,
    digits, blanks and sentence punctuation (code is full of `(){};=%"`)."""
    if len(_WORD_RUN.findall(line)) < 5:
        return False
    code = sum(line.count(c) for c in '(){}[];=%"<>\\')
    return code <= max(2, len(line) // 40)


class _Found(list):
    """A sentence's (match, measurement) pairs, with the matches indexed by the blocks
    of 256 characters they touch: whether a position is claimed is looked up in its
    block, not in every match (a flattened table is one sentence of thousands)."""

    def __init__(self) -> None:
        super().__init__()
        self._blocks: dict[int, list[tuple[re.Match, Measurement]]] = {}

    def append(self, item) -> None:
        super().append(item)
        m = item[0]
        for b in range(m.start() >> 8, (max(m.end() - 1, m.start()) >> 8) + 1):
            self._blocks.setdefault(b, []).append(item)

    def covers(self, pos: int) -> bool:
        return any(f[0].start() <= pos < f[0].end() for f in self._blocks.get(pos >> 8, ()))

    def starting_in(self, lo: int, hi: int) -> list:
        out = []
        for b in range(lo >> 8, (max(hi - 1, lo) >> 8) + 1):
            out += [f for f in self._blocks.get(b, ()) if lo <= f[0].start() < hi and f not in out]
        return out

    def discard(self, items: list) -> None:
        for item in items:
            self.remove(item)
            m = item[0]
            for b in range(m.start() >> 8, (max(m.end() - 1, m.start()) >> 8) + 1):
                self._blocks[b].remove(item)


def _unclaimed_and_stated(sentence: str, m: re.Match, found: _Found) -> bool:
    """The number of `m` (group `n`) is not already part of a measurement of the
    sentence, and the sentence states it: no question, no expectation before it."""
    if found.covers(m.start("n")):
        return False
    clause = _clause_before(sentence, m.start("n"))
    return not (
        sentence.rstrip().endswith(("?", "？"))
        or (_may_match(clause, _EXPECTATION_PIECES) and _EXPECTATION.search(clause))
    )


# A sentence that opens with a pronoun (`It was 14149ms vs 3169ms`, `We have detected a
# regression of around 20%`) goes on from the one before, which names what it measures.
_ANAPHOR = re.compile(
    r"(?i)^[\W_]{0,3}(?:it|it's|this|that|these|those|they|we|i|which|here|there|so"
    r"|with (?:this|these|that|those|it|them))\b"
)


def _states(sentence: str, mark: str | None) -> bool:
    """Whether the sentence is context for the next one: not blank, not a question,
    not a diff line. (Its words are joined only for a sentence that needs them: most
    sentences measure nothing.)"""
    tail = sentence.rstrip()
    return mark is None and bool(tail) and not tail.endswith(("?", "？"))


def _caption(sentence: str, context: str) -> str:
    """The sentence; after the last 150 characters of the sentence before it when it
    opens with a pronoun."""
    words = " ".join(sentence.split())
    if context and _ANAPHOR.match(words):
        return f"{context[-150:]} {words}"[-350:]
    return words[:200]


def parse(text: str) -> list[ResultTable]:
    tables = []
    spans = [(lo, hi, None) for lo, hi in _sentences(text)] + _diff_prose_lines(text)
    previous = None  # (start, end) of the last sentence that states something
    for lo, hi, mark in sorted(spans):
        sentence = text[lo:hi]
        # (the sentence before, when near: not across a code block or a long quote)
        context = previous if previous is not None and lo - previous[1] <= 400 else None
        if _states(sentence, mark):
            previous = lo, hi
        if ">" in sentence:  # flattened quote markers (`as much > as 30%`) are not words
            sentence = _QUOTE_MARK.sub(" ", sentence)
        found = _measurements(text, lo, sentence)
        if not found:
            continue
        found.sort(key=lambda f: f[0].start())
        # (taken before the parts of `1 min 5 sec` are joined: the joined one keeps the
        # first part's match, and the table must still hold its second)
        end = max(f[0].end() for f in found)
        _join_compound_durations(sentence, found)
        _labels_after_values(found)
        _variants(sentence, found, mark)  # (a diff line's side is its mark)
        _enumerations(sentence, found)
        table = ResultTable(
            format=INFO.name,
            span=(lo, lo + end),
            columns=["label", "value", "unit"],
            caption=_caption(sentence, " ".join(text[slice(*context)].split()) if context else ""),
            variant=mark,
        )
        for _, meas in found:
            table.add_row([meas.label or "", meas.written or "", meas.unit or ""], [meas])
        tables.append(table)
    return tables


def _measurements(text: str, lo: int, sentence: str) -> _Found:
    """The measurements of a sentence (at `lo` of `text`), each with its match: numbers
    with a unit, `factor of N`, glued durations (`4m30s`), factors written `x10`,
    clock times (`takes ~3:20`) and rates named before their number (`TPS reached 38k`)."""
    found = _Found()
    # (every measurement below needs a digit, and most sentences have none: one search
    # for a digit spares them the searches for what a measurement is made of)
    if _DIGITS.search(sentence) is None:
        return found
    # A candidate's last digit is followed by its unit (so `_NUMBER_UNIT` matches);
    # without one, only `factor of N` can give a measurement.
    has_unit = _NUMBER_UNIT_RE.search(sentence) is not None
    rate_led = _RATE_LED_PIECES.search(sentence) is not None
    clock = ":" in sentence and _CLOCK_TIME.search(sentence) is not None
    x_first = _X_DIGIT.search(sentence) is not None
    glued = has_unit or (
        _BARE_PAIR_RE.search(sentence) is not None and _BARE_MINUTES.search(sentence)
    )
    if not (glued or rate_led or clock or x_first or "factor of" in sentence):
        return found
    if not (has_unit or _DIGITS.search(sentence)) or _BOOKKEEPING.search(sentence):
        return found

    def named(pos: int) -> str | None:  # the clause before, else the line above
        # (`LGTM.` / `~15% faster ...`: a value that opens its line after a finished
        # sentence is named by nothing before it)
        ls = sentence.rfind("\n", 0, pos) + 1
        if ls and not _WORDY.search(sentence, ls, pos) and _ENDED_LINE.search(sentence, 0, ls):
            return None
        return _label(sentence, pos) or _line_before(text, lo)

    def add(m, metric, written, value, unit, label) -> Measurement | None:
        meas = measure(metric, written, value, unit, label=label)
        if meas:
            found.append((m, meas))
        return meas

    words = ends = None  # the metric words of the sentence (and their ends), found once
    head, head_end = None, -1  # a list of values named after them: its head, its end
    for m in _candidates(sentence) if has_unit else ():
        kind = _unit_kind(m.group("unit"))
        if not _accept(sentence, m, kind):
            continue
        value, unit = _value(m)
        if _is_token_bound(m, value):
            continue
        if words is None:
            words = list(_METRIC_WORDS.finditer(sentence))
            ends = [w.end() for w in words]
        metric = _metric(sentence, m.start(), m.end(), kind, words, ends)
        if kind == "percent" and _TIME_SHARE_AFTER.match(sentence, m.end()):
            metric = "share of time"
        label = named(m.start())
        # (`shows +12% on AndHighHigh, +9% on AndHighMed`: a value named after it; the
        # clause before a list's first value is the head of each one's label)
        after = _NAMED_AFTER.match(sentence, m.end())
        if after is not None:
            if head is None or m.start() - head_end > 40:
                head = label
            label = f"{head}: {after['name']}" if head else after["name"]
            head_end = after.end()
        if kind in ("ratio", "percent") and (
            label is None or _SHORTCODE_BEFORE.search(sentence, max(0, m.start() - 40), m.start())
        ):
            # (`:rocket: ~2.3x faster checkpoints`: what is faster names it)
            what = _FASTER_WHAT.match(sentence, m.end())
            label = what.group("what") if what else label
        meas = add(m, metric, m.group().strip(), value, unit, label)
        # (`from 120 to 45 ms`: the unit written once, after the second number, is the
        # first's too)
        bare = _FROM_BARE.search(sentence, max(0, m.start() - 40), m.start()) if meas else None
        if bare is not None and not found.covers(bare.start("n")) and ":" not in bare.group("n"):
            # (`from 20k to 17k msg/s`: a magnitude is the number's own)
            number = bare.group("n") + (bare.group("suf") or "")
            written = (bare.group("q") or "") + number
            add(bare, metric, written.strip(), parse_number(number), unit, named(bare.start()))
        # (`3 and 12 ms`, `4, 5 and 9 seconds`: the unit written once, after the last
        # value of a list, is each one's)
        for bare in (
            _LIST_BARE.finditer(sentence, max(0, m.start() - 60), m.start()) if meas else ()
        ):
            if not found.covers(bare.start("n")):
                number = bare.group("n") + (bare.group("suf") or "")
                written = (bare.group("q") or "") + number
                add(bare, metric, written.strip(), parse_number(number), unit, named(bare.start()))
        # (`30k msg/s, up from 18k`, `4.2 min (was 9.8)`, `12 ms vs 31 before`: the unit
        # written once, with the first value, is the other's too)
        old = _OLD_BARE.search(sentence, m.end(), m.end() + 40) if meas else None
        if (
            old is not None
            and (
                _NEW_THEN_OLD.fullmatch(sentence, m.end(), old.start())
                or _SET_AGAINST.fullmatch(sentence, m.end(), old.start())
            )
            and not found.covers(old.start("n"))
            and ":" not in old.group("n")
            and (value := parse_number(old.group("n") + (old.group("suf") or ""))) is not None
        ):
            add(old, metric, old.group().strip(), value, unit, named(old.start()))
    for m in _FACTOR.finditer(sentence) if "factor of" in sentence else ():
        hoped = _EXPECTATION.search(sentence[max(0, m.start() - 45) : m.start()])
        if not hoped and not found.covers(m.start("n")):
            written = m.group().removeprefix("factor of").strip()
            add(m, "speedup", written, parse_number(m.group("n")), "x", _label(sentence, m.start()))
    hms_seen = False
    for m in _HMS.finditer(sentence) if glued else ():
        if m.group("bare") and not (hms_seen or _BARE_MINUTES.search(sentence)):
            continue
        window = sentence[max(0, m.start() - 120) : m.end() + 60]
        if not (_PERF.search(window) or _VS_AFTER.match(sentence, m.end())):
            continue
        inside = found.starting_in(m.start(), m.end())
        found.discard(inside)
        if not _unclaimed_and_stated(sentence, m, found):
            for f in inside:
                found.append(f)
            continue
        hms_seen = True
        if m.group("bare"):  # (a bare `6m` is kept as written, in minutes)
            value, unit = float(m.group("bare")), "min"
        elif m.group("h"):
            value = int(m.group("h")) * 3600.0 + int(m.group("hm")) * 60.0
            value, unit = value + float(m.group("hs") or 0), "s"
        elif m.group("cm"):
            value, unit = int(m.group("cm")) * 60.0 + float(m.group("cs")), "s"
        elif m.group("ch"):
            value, unit = int(m.group("ch")) * 3600.0 + int(m.group("chm")) * 60.0, "s"
        else:
            value, unit = int(m.group("m")) * 60.0 + float(m.group("ms")), "s"
        add(m, "time", m.group().strip(), value, unit, named(m.start()))
    for m in _X_FIRST.finditer(sentence) if x_first else ():
        before = sentence[max(0, m.start() - 45) : m.start()]
        after = sentence[m.end() : m.end() + 40]
        if _speed_said(before, after) and _unclaimed_and_stated(sentence, m, found):
            written = sentence[m.start() : m.end("n")].strip()
            add(m, "speedup", written, parse_number(m.group("n")), "x", _label(sentence, m.start()))
    clocks, last_clock = 0, 0
    for m in _CLOCK_TIME.finditer(sentence) if clock else ():
        if not _unclaimed_and_stated(sentence, m, found):
            continue
        if m.group("vs") and not (clocks and m.start() - last_clock <= 30):
            # `3:20 vs. 0:13`, `down to 1:20 and 0:10`: a second timing right after
            # a first; `vs 10:30` or `and 10:30` alone is none
            continue
        clocks += 1
        last_clock = m.end()
        written = (m.group("q") or "") + m.group("n")
        add(m, "time", written, parse_number(m.group("n")), "s", named(m.start()))
    for m in _RATE_LED.finditer(sentence) if rate_led else ():
        if _SETTING_BEFORE.search(m.group("link")) or not _unclaimed_and_stated(sentence, m, found):
            continue
        kw = m.group("kw")
        written, value = _magnified(m)
        metric = kw.lower() if kw.isascii() else "throughput"
        unit = kw.upper() if kw.lower() in ("tps", "qps", "rps") else None
        # (the clause before the rate's name, else, when it opens the sentence, the
        # name and what follows it: `Throughput doubled (from 1.2k to 2.4k qps)`)
        at = m.start("q") if m.group("q") else m.start("n")
        label = _label(sentence, m.start()) or _label(sentence, at) or named(m.start())
        # (`The QPS of A is 18000, and the QPS of B is 160`: what the link names, when
        # the clause before the rate's name names nothing)
        if label is None or _NAMES_NOTHING.fullmatch(label):
            label = _LINK_NAME.fullmatch(m.group("link"))["name"] or label
        meas = add(m, metric, (m.group("q") or "") + written, value, unit, label)
        # `吞吐从 1.2万 提升到 3.5万`, `TPS went from 38k to 52k`: the value it went to
        nxt = _RATE_LED_NEXT.match(sentence, m.end()) if meas else None
        if nxt and not found.covers(nxt.start("n")):
            to = add(nxt, metric, *_magnified(nxt), unit, meas.label)
            if to and re.search(r"(?i)从|\bfrom\b", m.group("link")):
                meas.variant, to.variant = "before", "after"
    return found


# The name of what a value was measured on, right after it: `+12% on AndHighHigh`,
# `1.8x faster for Q72` (not `on average`, `for the`, `on my`: no name).
_NAMED_AFTER = re.compile(
    r"(?:[ \t]+(?:faster|slower|better|worse|higher|lower|more|less|quicker))?"
    r"[ \t]+(?:on|for)[ \t]+(?!(?:average|avg|the|a|an|my|our|your|this|that|these|those|each"
    r"|every|all|both|top|most|some|me|us|it|them|which|what|reads|writes)\b)"
    # (a name of up to three words: `on random indices`, `for the join suite`)
    r"(?P<name>[A-Za-z][\w.\-/]*\w(?:[ \t]+(?!(?:and|or|but|with|vs|than|when|while|on|for"
    r"|in|at|by|to|from|is|was|are|were)\b)[A-Za-z][\w.\-/]*\w){0,2})"
)


# A label of no content words (`The`, `and the`), and the name in a rate's link to its
# number (` of A is `, ` for the old client was `).
_NAMES_NOTHING = re.compile(r"(?i)(?:(?:and|but|while|so|then)\s+)?(?:the|a|an|our|my|its|their)?")
_LINK_NAME = re.compile(
    r"(?i)\s*(?:(?:of|for|on|in|with)\s+)?(?P<name>[^:：=]*?)"
    r"\s*(?:\b(?:is|was|are|were|reached|hit|at|of|around)\b|[:：=])?\s*"
)


def _magnified(m: re.Match) -> tuple[str, float | None]:
    """(written, value) of a number with a magnitude after it: `38k`, `3.8万` (38000)."""
    suffix = m.group("cjk") or m.group("suf") or ""
    value = parse_number(m.group("n"))
    # (as written, a blank before a CJK magnitude kept: `1.5 万`)
    end = m.end("cjk") if m.group("cjk") else m.end("suf") if m.group("suf") else m.end("n")
    written = m.string[m.start("n") : end]
    return written, None if value is None else scaled(value, _MAGNITUDE.get(suffix, 1.0))


def _speed_said(before: str, after: str) -> bool:
    """A factor followed by a speed word (`3x faster`), or led by a change (`sped up by`)."""
    return bool(_SPEED_WORD.search(after) or _SPEED_BEFORE.search(before))
