"""Does a message report measured benchmark numbers? A fitted judgement over what its
numbers are and what kind of message it is.

`decide(sample, tables, cands, subject=..., kind=...)` weighs:
* its numbers, as the number model (`extract.results.judge`) scored them: how many it
  takes, how sure it is of the best ones, how many of them no reader read;
* what the readers found (`extract.results.classify.features`: tool output, tables of
  performance numbers, measured prose, CI and build summaries, release votes, stack
  traces, diffs, field changes, dumps);
* which family of ordinary traffic it looks like (`extract.results.families`).
A logistic regression fitted on the labelled mail (`make fit`; the weights are plain
data in `verdict_weights.py`) turns them into a score; the message is a benchmark
report when the score reaches the threshold. `reasons` are the features that weighed
most, with their weights.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate

from extract.results.claims import stated_claims
from extract.results.classify import SKIPPABLE, Verdict
from extract.results.classify import features as reader_features
from extract.results.families import families
from extract.results.formats import ResultTable
from extract.results.judge import Candidate
from extract.results.prefilter import lowered

_PERF_UNITS = {"time", "rate", "byterate", "factor", "percent"}


def message_features(
    sample: str,
    tables: list[ResultTable],
    cands: list[Candidate],
    *,
    subject: str | None = None,
    kind: str | None = None,
    model: MessageModel | None = None,
) -> dict[str, float]:
    """name -> value of one message's features (see the module docstring). With the
    `model` that will weigh them, the readers' features it gives no weight to are
    not looked for (`classify.SKIPPABLE`): its score and reasons are the same."""
    out: dict[str, float] = {}
    unweighed = model.unweighed() if model is not None else frozenset()
    for name, (value, _) in reader_features(
        sample, tables, subject or "", kind, screened=True, unweighed=unweighed
    ).items():
        base = name.split(":", 1)[0]
        # (a commit mail carries its commit's diff: the diff is not what it says)
        if base != "note" and not (base == "diff" and kind == "commit"):
            out[f"reader:{base}"] = out.get(f"reader:{base}", 0.0) + value
    # (each number's features as a set, made once: the shares below ask a dozen names
    # of each number, and a list is searched end to end for every name)
    named = {id(c): frozenset(c.features) for c in cands if not c.noise}
    # (a zero in a performance unit, `Query took 0 seconds`, `0 ops/s`, `0%`, is under
    # the clock's or the counter's resolution or no change at all: no number of them
    # makes a report; the number model still reads them, and a report's table keeps its
    # zeros)
    own = [
        c
        for c in cands
        if not c.noise and (c.number.value != 0 or named[id(c)].isdisjoint(_UNIT_FEATURES))
    ]
    scores = sorted((c.score for c in own), reverse=True)
    taken = [c for c in own if c.taken]
    out["numbers:taken"] = math.log1p(len(taken))
    out["numbers:sure"] = math.log1p(sum(s >= 0.9 for s in scores))
    out["numbers:best"] = scores[0] if scores else 0.0
    out["numbers:top3"] = sum(scores[:3]) / 3
    out["numbers:unread"] = math.log1p(sum(c.measurement is None for c in taken))
    blind = sorted((c.blind_score for c in own), reverse=True)
    out["numbers:blind_best"] = blind[0] if blind else 0.0
    out["numbers:blind_taken"] = math.log1p(sum(c.blind_taken for c in own))
    out["numbers:perf_unit"] = math.log1p(
        sum(not named[id(c)].isdisjoint(_UNIT_FEATURES) for c in taken)
    )
    # the changes the text states (`2x faster`, `30 % less latency`, `提升了 30%`): as
    # told (`we saw up to 17x`), or as supposed (`this should be ~30% faster`)
    claims = stated_claims(sample)
    out["claims"] = math.log1p(len(claims))
    sentences = _Sentences(sample)
    if claims:
        told, supposed = _told_or_supposed(sentences, [c.span[0] for c in claims])
        out["claims:told"] = min(1.0, told / 2)
        out["claims:supposed"] = min(1.0, supposed / 2)
    out.update(_writing(sample, own, taken, sentences, named))
    fam = families(sample, subject or "")
    told_share = out.get("voice:told_share", 0.0)
    for name, strength in fam.items():
        out[f"family:{name}"] = strength
        if name in _TOLD_IN:
            # (a bug report or a design thread whose performance sentences tell what
            # was run and seen reports it: `after the upgrade the scan takes 28 s`)
            out[f"told_in:{name}"] = strength * told_share
    # The evidence of numbers that no family of ordinary traffic explains: a CI summary's
    # forty durations are the CI's, however many they are (an additive weight of the
    # family could not outweigh any number of them)
    unexplained = 1.0 - GATE * max((v for k, v in fam.items() if k not in _CONTAINERS), default=0.0)
    for name in list(out):
        if name.startswith(_EVIDENCE):
            out[name] = out[name] * unexplained
    return out


_UNIT_FEATURES = tuple(f"unit={u}" for u in _PERF_UNITS)


# The families a report may be written in (a regression filed as a bug, results in a
# design thread or a PR's template), unlike CI results, votes or announcements.
_TOLD_IN = ("bug", "design", "template", "request")
# The families that hold a report as well as anything else (a thread about a design,
# a PR's template, the configuration a run used): they weigh against a report, but
# explain none of its numbers (a configuration's own numbers are settings by their
# `key=value`, which the number model reads).
_CONTAINERS = ("design", "template", "config")
GATE = 0.5
_EVIDENCE = (
    "numbers:",
    "voice:",
    "claims",
    "reader:tool",
    "reader:more_tools",
    "reader:perf_table",
    "reader:more_perf_tables",
    "reader:compared_table",
    "reader:prose",
    "reader:text",
    "reader:numeric",
    "reader:results",
)
# What the words around a number say of it (the number model's context features)
_HEDGED = ("left=hedge", "right=hedge", "header=hedge")
_SETTING = ("left=setting",)
# What marks a number as a performance quantity besides its unit: a reader's metric or
# a column header that names one, or a word for a time or a rate just before it. (A
# report's results are times, rates, factors and changes; a spec's, an inventory's, a
# price list's or an accuracy table's numbers are counts, sizes, prices and scores.)
_PERF_MARKS = frozenset(
    (*_UNIT_FEATURES, "metric=perf", "column=perf", "left=rate", "left=time", "left=took")
)
_ON_LOG = ("line=log", "line=stack")
_MEASURED = ("left=took", "left=compare", "right=compare", "left=change", "right=change")
# A line that states a job's or a test's status (a CI summary's, a bot's). (Searched
# in the lower-cased sample (`prefilter.lowered`), where it needs no re.I, and only
# when one of `_STATUS_WORDS` is there: most messages hold none, and the regex tries
# each line's first 200 positions. The lookahead turns away at once a position no
# word starts at.)
_STATUS_LINE = re.compile(
    r"^[^\n]{0,200}?(?=[pfsce✅❌✔✖:])(?:\b(?:passed|failed|succeeded|skipped|success|failure"
    r"|cancell?ed|pending|errors?)\b|✅|❌|✔|✖|:x:|:heavy_check_mark:|:white_check_mark:|:zzz:)",
    re.M,
)
# (each match of `_STATUS_LINE` holds one of these)
_STATUS_WORDS = (
    "passed", "failed", "succeeded", "skipped", "success", "failure", "cancelled", "canceled",
    "pending", "error", "✅", "❌", "✔", "✖", ":x:", ":heavy_check_mark:", ":white_check_mark:",
    ":zzz:",
)  # fmt: skip
_QUESTION = re.compile(r"\?(?:\s|$)")
# (a stop before a blank or the end, or a blank line: written as one class first, so
# that the search skips to the next stop or line break instead of trying every position)
_SENTENCE = re.compile(r"[.!?。！？\n](?:(?<=[.!?。！？])(?:\s|$)|(?<=\n)\s*\n)")


def _writing(
    sample: str,
    own: list[Candidate],
    taken: list[Candidate],
    sentences: _Sentences,
    named: dict[int, frozenset[str]],
) -> dict[str, float]:
    """How the message is written: the share of its lines that hold the numbers taken
    (a report's results fill it; a CI summary's durations are a few lines of many), how
    many of its numbers stand in hedges or settings against those said to be measured
    or compared, and how much of it asks rather than tells. `named`: each number's
    features, by `id`."""
    # (the lines split once: a line's breaks are blanks, so it is blank with them or not)
    # (summed and counted in C: a Python step a line cost more than the rest of it)
    lines = sample.splitlines(keepends=True)
    starts = list(accumulate(map(len, lines), initial=0))
    n_lines = max(1, sum(map(bool, map(str.strip, lines))))
    taken_lines = {bisect_right(starts, c.number.start) for c in taken}
    # (one pass over the numbers for what each is asked of all of them)
    perf = []
    settings = 0
    for c in own:
        features = named[id(c)]
        if not features.isdisjoint(_UNIT_FEATURES):
            perf.append(c)
        settings += not features.isdisjoint(_SETTING)
    n_perf = max(1, len(perf))
    out = {
        "text:results_share": min(1.0, len(taken_lines) / n_lines),
        "numbers:taken_share": len(taken) / len(own) if own else 0.0,
        # (shares, not counts: a long message is not more of a report for its length)
        "numbers:hedged_share": sum(not named[id(c)].isdisjoint(_HEDGED) for c in perf) / n_perf,
        # (of the numbers taken, those nothing marks as a time, a rate or a change)
        "numbers:unmarked_share": (
            sum(named[id(c)].isdisjoint(_PERF_MARKS) for c in taken) / len(taken) if taken else 0.0
        ),
        "numbers:setting_share": settings / len(own) if own else 0.0,
        "numbers:measured_share": (
            sum(not named[id(c)].isdisjoint(_MEASURED) for c in taken) / len(taken)
            if taken
            else 0.0
        ),
    }
    on_log = sum(not named[id(c)].isdisjoint(_ON_LOG) for c in taken)
    out["numbers:log_share"] = on_log / len(taken) if taken else 0.0
    low = sentences.low
    status = len(_STATUS_LINE.findall(low)) if any(map(low.__contains__, _STATUS_WORDS)) else 0
    out["text:status_share"] = min(1.0, status / n_lines)
    # (the sentences counted only when there is a question: most mail asks none)
    if questions := len(_QUESTION.findall(sample)):
        out["text:questions"] = min(1.0, questions / max(1, len(_SENTENCE.findall(sample))))
    else:
        out["text:questions"] = 0.0
    out.update(_voice(sentences, own, perf))
    return out


# How a sentence with a performance number speaks: it tells what was run and seen (a
# report), or what would, could or should be (an estimate, a plan, advice, a limit).
# (The voices and `_PERF_TERM` are searched in a sentence of the lower-cased sample
# (`_Sentences.low`): written in lower case, they need no re.I. Each is led by a
# lookahead of the characters its words start with, and its words share one `\b`: a
# position no word starts at is turned away in one step, not once a word.)
_REPORT_VOICE = re.compile(
    r"(?=[abcdfghimnoprstvw测压结提降下优之以现只])(?:\b(?:(?:i|we|i've|we've) (?:(?:just|now|then"
    r"|also|still|finally|actually|already) )?(?:ran|run"
    r"|measured|tested|benchmarked|tried|got|get|see|saw|observed|noticed|found|compared"
    r"|profiled|deployed|checked)\b|results?\b|(?:demonstrat|show|brought|brings|gave|gives"
    r"|achiev|saw|seeing)|here (?:are|is)\b|(?:took|went|dropped|improved|reduced|regressed"
    r"|reached|peaked|sustained|averaged|measured|observed"
    r"|finishes|finished|completed|now (?:takes|runs|is|gets))\b|from [^.\n]{1,40}? to\b|vs"
    r"|versus\b|before\b[^.\n]{0,80}?\bafter\b|(?:before|after|with|without) (?:the |this |my )?"
    r"(?:patch|change|fix|pr)\b|baseline\b)|测试|压测|结果|提升|提高|降低|下降|降到|优化[前后]"
    r"|之前|之后|以前|现在|只有)|^\W*(?:tested|measured|benchmarked|ran)\b"
)  # (only ever asked whether it is found: `\w{0,6}` after a stem, `\.?` after `vs`, dropped)
_HYPOTHETICAL_VOICE = re.compile(
    r"(?=[acdegilmnprstw预希应需])(?:\b(?:would|could|should|might|expect\w*|estimat\w*"
    r"|assum\w*|theor\w*|roughly|rule of thumb|plan\w*|target\w*|goal|need|want|suppose"
    r"|ideally|probably|will|going to|default|limit|max(?:imum)?)\b|预计|希望|应该|需要)"
)
# The words of supposing that a report's own sentence holds too: the setup it ran
# (`with the default settings`), the statistics it read (`max 40 ms`), what it will
# do next. They suppose only a sentence that tells nothing.
_WEAK_SUPPOSING = frozenset(
    ("default", "limit", "max", "maximum", "need", "want", "will", "roughly")
)
# (a full-width mark ends a sentence with no blank after it: Chinese puts none. One
# class first, so that the search skips to the next stop or line break; an ASCII
# mark then needs a blank after it)
_SENTENCE_STOP = re.compile(r"[.!?;。！？；\n](?:(?<![.!?;])|(?=\s))")
# Words that say a sentence is about performance, whatever unit its numbers have
_PERF_TERM = re.compile(
    r"(?=[bflopqrst/每吞延耗性速慢快])(?:throughput|latency|\b[qtr]ps\b|\bops\b|perf|faster"
    r"|slower|speed|benchmark|\bp\d\d\b|per second|/s(?:ec)?\b|\brt\b|每秒|吞吐|延迟|耗时|性能"
    r"|速度|慢|快)"
)


class _Sentences:
    """A message's sentences (ended by `_SENTENCE_STOP`), found once, and how each
    speaks, asked once: it tells (a report's voice, no supposing one) or supposes."""

    def __init__(self, sample: str):
        self.sample = sample
        self.low = lowered(sample)
        self.stops = [m.end() for m in _SENTENCE_STOP.finditer(sample)]
        self._voices: dict[int, tuple[bool, bool]] = {}

    def at(self, pos: int) -> int:
        """The index of the sentence holding `pos`."""
        return bisect_right(self.stops, pos)

    def text(self, k: int) -> str:
        return self.sample[self._bounds(k)]

    def lowered(self, k: int) -> str:
        """`lowered(self.text(k))`."""
        return self.low[self._bounds(k)]

    def _bounds(self, k: int) -> slice:
        stops = self.stops
        return slice(stops[k - 1] if k else 0, stops[k] if k < len(stops) else None)

    def voice(self, k: int) -> tuple[bool, bool]:
        """(tells, supposes) of sentence `k`."""
        if k not in self._voices:
            bounds = self._bounds(k)
            sentence = self.low[bounds]
            report = _REPORT_VOICE.search(sentence) is not None
            # (read up to its first strong word only: a weak one does not decide. The
            # word as the sentence writes it, lower-cased: `wİll` is no `will`. Sliced
            # from the sample, not from a copy of the sentence made for each word: a
            # long sentence of weak words would be copied once a word)
            supposing = strong = False
            at = bounds.start
            for m in _HYPOTHETICAL_VOICE.finditer(sentence):
                if _in_a_name(sentence, m.start(), m.end()):
                    continue
                supposing = True
                if self.sample[at + m.start() : at + m.end()].lower() not in _WEAK_SUPPOSING:
                    strong = True
                    break
            self._voices[k] = (report and not strong, supposing and not report)
        return self._voices[k]


def _in_a_name(text: str, start: int, end: int) -> bool:
    """Whether the word at `start:end` of `text` is a piece of a dotted name (a setting's
    key, `fetch.max.wait.ms`; a package's): the name's, not the sentence's word."""
    before = text[start - 2 : start] if start >= 2 else ""
    after = text[end : end + 2]
    return (len(before) == 2 and before[1] == "." and before[0].isalnum()) or (
        len(after) == 2 and after[0] == "." and after[1].isalnum()
    )


def _told_or_supposed(sentences: _Sentences, starts: list[int]) -> tuple[int, int]:
    """How many of the sentences at `starts` tell, and how many suppose."""
    told = supposed = 0
    for k in {sentences.at(s) for s in starts}:
        tells, supposes = sentences.voice(k)
        told += tells
        supposed += supposes
    return told, supposed


def _voice(sentences: _Sentences, own: list[Candidate], perf: list[Candidate]) -> dict[str, float]:
    """How many of the sentences that hold a performance number (one in a performance
    unit, or any in a sentence about performance) report it, and how many only
    suppose it."""
    perf_ids = {id(c) for c in perf}
    seen: set[int] = set()
    # (whether a sentence is about performance, asked once a sentence: a long line of
    # numbers without a stop asked it once a number, in time quadratic in its length)
    about_perf: dict[int, bool] = {}
    for c in own:
        k = sentences.at(c.number.start)
        if k in seen:
            continue
        if id(c) not in perf_ids:
            if k not in about_perf:
                about_perf[k] = _PERF_TERM.search(sentences.lowered(k)) is not None
            if not about_perf[k]:
                continue
        seen.add(k)
    if not seen:
        return {}
    told = sum(sentences.voice(k)[0] for k in seen)
    supposed = sum(sentences.voice(k)[1] for k in seen)
    return {
        "voice:told": math.log1p(told),
        "voice:told_share": told / len(seen),
        "voice:supposed_share": supposed / len(seen),
        "voice:perf_sentences": min(1.0, len(seen) / 3),
    }


@dataclass(slots=True)
class MessageModel:
    weights: dict[str, float]
    bias: float
    threshold: float = 0.5

    def score(self, feats: dict[str, float]) -> float:
        z = self.bias + sum(self.weights.get(k, 0.0) * v for k, v in feats.items())
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def unweighed(self) -> frozenset[str]:
        """The readers' features of `classify.SKIPPABLE` this model gives no weight
        (a note never weighs)."""
        return frozenset(
            name
            for name in SKIPPABLE
            if name == "note" or not self.weights.get(f"reader:{name}", 0.0)
        )

    def reasons(self, feats: dict[str, float], n: int = 5) -> list[str]:
        parts = [(k, self.weights.get(k, 0.0) * v) for k, v in feats.items()]
        parts = sorted((p for p in parts if abs(p[1]) >= 0.05), key=lambda p: -abs(p[1]))
        return [f"{k} ({w:+.1f})" for k, w in parts[:n]]


def load_model() -> MessageModel | None:
    try:
        from extract.results import verdict_weights
    except ImportError:
        return None
    return MessageModel(verdict_weights.WEIGHTS, verdict_weights.BIAS, verdict_weights.THRESHOLD)


def decide(
    sample: str,
    tables: list[ResultTable],
    cands: list[Candidate],
    *,
    subject: str | None = None,
    kind: str | None = None,
    model: MessageModel,
) -> Verdict:
    feats = message_features(sample, tables, cands, subject=subject, kind=kind, model=model)
    p = model.score(feats)
    return Verdict(p >= model.threshold, round(p, 3), model.reasons(feats))
