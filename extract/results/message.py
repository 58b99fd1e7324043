"""What one message reports: the one function that the pipeline, `make eval`, `make fit`
and `make bench` all call per message, so that every figure measures the real path.

`message_results(body, subject=..., kind=...)` takes a message's cleaned body
(`extract.mail.clean.clean_body`) and returns its `MessageResults`: the part of the
body the readers see (`sample`, with `to_body` mapping its offsets back to the body),
the result tables found in it and the classifier's verdict.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from extract.results import describe, judge
from extract.results.classify import Verdict, classify
from extract.results.describe import (
    name_slowdowns,
    name_vague_labels,
    tell_runs_apart,
    text_tables,
)
from extract.results.families import families
from extract.results.formats import ResultTable, extract_results
from extract.results.gate import gate
from extract.results.judge import Candidate, NumberModel, judge_numbers, metric_class, unit_class
from extract.results.judge import load_model as load_number_model
from extract.results.verdict import MessageModel, decide
from extract.results.verdict import load_model as load_verdict_model

# Only this much of a body goes to the format parsers and the classifier: result
# posts are far shorter, and a 10 MB log pasted into a mail must not stall a run.
MAX_EXTRACT_CHARS = 100_000
# Runs of this many non-space characters (base64, hex dumps, a 10 MB line) are cut
# short for the parsers: no table cell is that long, and regexes with nested
# quantifiers take quadratic time or worse on them.
# (only from a token's start: trying every position inside long tokens took 0.1 ms a message)
_LONG_TOKEN = re.compile(r"(?<!\S)\S{1000,}")
_LONG_TOKEN_KEEP = 100
_LONG_TOKEN_MARK = " [...]"

# A file's section of a diff (commit mail): from its first line to the next file's.
# (the line start is checked on each match: a pattern that starts with `^` is tried at
# every position, one that starts with its words is searched for them, 7x faster)
# (git's `diff --git a/x b/x`; svn's `Modified: x` (or `Added:`, `Index:` ...) over a
# rule of `=`, its view's `URL:` line between)
# (two patterns, each searched only in a body with its mark: one alternation of both
# is tried at every capital letter, 120 us a commit mail against 5 for git's alone)
_GIT_FILE = re.compile(r"diff --git a/\S+ b/(\S+)[^\n]*\n")
_SVN_FILE = re.compile(
    r"(?:Modified|Added|Deleted|Removed|Copied|Index): (\S+)\n(?:URL: [^\n]*\n)?={20,}\n"
)
_GIT_MARK, _SVN_MARK = "diff --git ", "\n===================="
# (what a body with a diff holds: most hold neither, and are not searched)
_DIFF_MARKS = (_GIT_MARK, _SVN_MARK)
# Source code and markup: numbers in their hunks are code, not results. (Results
# files, `*-results.txt`, `*.md`, `*.csv`, `*.json`, `*.log`, stay.)
# (every extension starts with a letter: other dots are turned away at once)
_CODE_FILE = re.compile(
    r"\.(?=[a-z])(?:java|scala|kt|groovy|gradle|py|pyx|js|jsx|mjs|ts|tsx|go|rs|c|cc|cpp|cxx|h|hh|hpp"
    r"|cs|rb|php|pl|lua|sh|bash|bat|cmd|ps1|css|scss|less|html?|xml|xsl|xsd|ya?ml|toml"
    r"|properties|proto|thrift|avsc|sql|vue|svg|cmake|mk|r|m|swift|erl|ex|exs|clj|hs"
    r"|png|jpe?g|gif|ico|jar|zip|gz)$|(?:^|/)(?:Makefile|Dockerfile|pom\.xml|BUILD)$",
    re.I,
)


@dataclass(slots=True)
class OffsetMap:
    """Where the characters of a text cut out of another came from: `pieces` are
    (start in the cut text, start in the original), each piece running on unchanged
    to the next piece's start; `then` maps on from that original, when it was itself
    cut out of another. No pieces: the cut text is a prefix of the original."""

    pieces: list[tuple[int, int]] = field(default_factory=list)
    then: OffsetMap | None = None

    def __call__(self, pos: int) -> int:
        k = bisect_right(self.pieces, (pos, float("inf"))) - 1
        if k >= 0:
            cut, original = self.pieces[k]
            pos = original + pos - cut
        return self.then(pos) if self.then is not None else pos


def _without_code_hunks(text: str) -> tuple[str, list[tuple[int, int]]]:
    """`text` with what a diff (git's or svn's) does not say left out: the hunks of
    source files (each file's first line kept, so the classifier still sees a code
    diff: a commit of 40 kB of HTML or Java would otherwise cost the parsers and the
    classifier 10 ms for numbers that are code), and of the other files (results, docs,
    data) the lines the commit removes and the lines it only moves (`_said_lines`).
    Also the pieces of an `OffsetMap` back to `text`."""
    # (a match inside a line ends at that line's end, so it hides none at a line start)
    found = [
        *(_GIT_FILE.finditer(text) if _GIT_MARK in text else ()),
        *(_SVN_FILE.finditer(text) if _SVN_MARK in text else ()),
    ]
    files = sorted(
        (f for f in found if f.start() == 0 or text[f.start() - 1] == "\n"), key=lambda f: f.start()
    )
    if not files:
        return text, []
    spans = [(0, files[0].start())]
    hunks = []
    for f, nxt in zip(files, [*files[1:], None], strict=True):
        end = nxt.start() if nxt else len(text)
        spans.append((f.start(), f.end()))
        if not _CODE_FILE.search(f.group(1)):
            hunks.append((f.end(), end))
    # (the numbers of every line the diff removes, from whichever file)
    removed = Counter(
        n
        for start, end in hunks
        for pos, eol in _lines(text, start, end)
        if _removes(text, pos)
        for n in _DIFF_NUMBER.findall(text, pos, eol)
    )
    for start, end in hunks:
        spans += _said_lines(text, start, end, removed)
    out, pieces, length = [], [], 0
    for start, end in sorted(spans):
        # (a span that runs on from the one before needs no piece of its own)
        if not pieces or pieces[-1][1] + length - pieces[-1][0] != start:
            pieces.append((length, start))
        out.append(text[start:end])
        length += end - start
    return "".join(out), pieces


_DIFF_NUMBER = re.compile(r"\d(?:[\d,.]*\d)?")


def _lines(text: str, start: int, end: int):
    """(start, end) of each line of `text[start:end]`, its break included."""
    pos = start
    while pos < end:
        eol = text.find("\n", pos, end)
        eol = end if eol < 0 else eol + 1
        yield pos, eol
        pos = eol


def _removes(text: str, pos: int) -> bool:
    """Whether the diff line at `pos` is one the diff removes (not `--- a/file`)."""
    return text.startswith("-", pos) and not text.startswith("--- ", pos)


def _said_lines(text: str, start: int, end: int, removed: Counter) -> list[tuple[int, int]]:
    """The spans of the lines of `text[start:end]` (a results or docs file's hunks)
    that the diff says: not those it removes, and not the added lines each of whose
    numbers a removed line held (`removed`, consumed): a page converted to another
    markup, or a table moved to another file, reports nothing new."""
    spans = []
    for pos, eol in _lines(text, start, end):
        if _removes(text, pos):
            continue
        if removed and text.startswith("+", pos) and not text.startswith("+++ ", pos):
            nums = Counter(_DIFF_NUMBER.findall(text, pos, eol))
            if nums and all(removed[n] >= k for n, k in nums.items()):
                removed.subtract(nums)
                continue
        if spans and spans[-1][1] == pos:
            spans[-1] = (spans[-1][0], eol)
        else:
            spans.append((pos, eol))
    return spans


def _shorten_long_tokens(text: str) -> tuple[str, list[tuple[int, int]]]:
    out, pieces, last, length = [], [], 0, 0
    for m in _LONG_TOKEN.finditer(text):
        keep_end = m.start() + _LONG_TOKEN_KEEP
        out.append(text[last:keep_end])
        pieces.append((length, last))
        length += keep_end - last
        out.append(_LONG_TOKEN_MARK)
        # (the mark stands for the cut part: it maps to where the cut begins)
        pieces.append((length, keep_end))
        length += len(_LONG_TOKEN_MARK)
        last = m.end()
    if not out:
        return text, []
    out.append(text[last:])
    pieces.append((length, last))
    return "".join(out), pieces


def extraction_text(body: str) -> str:
    """The part of a cleaned body that the format parsers and the classifier see."""
    return extraction_sample(body)[0]


def extraction_sample(body: str) -> tuple[str, OffsetMap]:
    """`extraction_text(body)` and the map of its offsets back to `body`."""
    to_body = OffsetMap()
    if any(map(body.__contains__, _DIFF_MARKS)):
        body_cut, pieces = _without_code_hunks(body)
        to_body = OffsetMap(pieces)
    else:
        body_cut = body
    sample = body_cut[:MAX_EXTRACT_CHARS]
    # (a token that long needs a line that long: a cheap test spares most bodies the scan)
    if len(sample) < 1000 or max(map(len, sample.splitlines())) < 1000:
        return sample, to_body
    sample, pieces = _shorten_long_tokens(sample)
    return sample, OffsetMap(pieces, then=to_body) if pieces else to_body


@dataclass(slots=True)
class MessageResults:
    sample: str  # what the readers saw: `extraction_text(body)`
    to_body: OffsetMap  # offsets in `sample` -> offsets in the body
    tables: list[ResultTable]
    verdict: Verdict
    noise: list[ResultTable] = field(default_factory=list)  # what noise recognisers took
    numbers: list[Candidate] = field(default_factory=list)  # every number, judged
    read: list[ResultTable] = field(default_factory=list)  # the readers' tables, unjudged
    scores: dict[int, float] = field(default_factory=dict)  # of each measurement, by id


@dataclass(slots=True)
class Gated:
    """A body's first step (`gate_body`): the part the readers see, and whether the
    gate lets it through, with its score."""

    sample: str
    to_body: OffsetMap
    passes: bool
    score: float


def gate_body(body: str, *, gated: bool = True) -> Gated:
    """The sample of a cleaned body and the gate's answer on it (`gated=False`: no
    gate, it passes). `message_results` starts with it; the pipeline takes it for a
    few messages in a row first, while the gate's and the prefilter's automata are
    in the processor's cache (see extract/pipeline.py)."""
    sample, to_body = extraction_sample(body)
    if not gated:
        return Gated(sample, to_body, True, 1.0)
    passes, score = gate(sample)
    return Gated(sample, to_body, passes, score)


@functools.cache
def fitted_models() -> tuple[NumberModel | None, MessageModel | None]:
    """The number model and the verdict model as `make fit` wrote them."""
    return load_number_model(), load_verdict_model()


def message_results(
    body: str,
    *,
    subject: str | None = None,
    kind: str | None = None,
    on_stage: Callable[[str], None] | None = None,
    models: tuple[NumberModel | None, MessageModel | None] | None = None,
    gated: bool = True,
    first: Gated | None = None,
) -> MessageResults:
    """The tables and the verdict of one cleaned message body. `on_stage` is told the
    stage each step starts (`extract`, `classify`), for the pipeline's error rows.
    `models` (number model, verdict model) replace the fitted ones (`make fit`);
    `gated=False` skips the gate (`extract.results.gate`), which otherwise turns away
    a message that has nothing a report is made of before any reader runs. `first`:
    `gate_body(body, gated=gated)`, when the caller took it already."""
    if on_stage:
        on_stage("extract")
    if first is None:
        first = gate_body(body, gated=gated)
    sample, to_body = first.sample, first.to_body
    if not first.passes:
        # (most mail: no reader, number model or verdict looks at it)
        gate_score = first.score
        reason = f"gate: {gate_score:.3f}, under its threshold (nothing a report is made of)"
        return MessageResults(sample, to_body, [], Verdict(False, round(gate_score, 3), [reason]))
    noise: list[ResultTable] = []
    read = extract_results(sample, noise=noise)
    number_model, verdict_model = models if models is not None else fitted_models()
    family = tuple(f"msg={name}" for name in families(sample, subject or ""))
    cands = judge_numbers(sample, read, noise, kind=kind, message=family, model=number_model)
    if on_stage:
        on_stage("classify")
    if number_model is not None and verdict_model is not None:
        verdict = decide(sample, read, cands, subject=subject, kind=kind, model=verdict_model)
    else:
        verdict = classify(sample, read, subject=subject, kind=kind)
    whole_durations(cands)
    tables = taken(sample, read, cands) if number_model else read
    name_slowdowns(sample, tables)
    name_vague_labels(sample, tables, cands)
    tell_runs_apart(sample, tables)
    by_start = {c.number.start: c for c in cands}
    scores = {}
    for t in tables:
        for m in t.measurements:
            c = by_start.get(m.span[0]) if m.span else None
            if c is not None:
                scores[id(m)] = round(c.score, 4)
    _forget_lines()
    return MessageResults(sample, to_body, tables, verdict, noise, cands, read, scores)


def _forget_lines() -> None:
    # (the caches of lines kept while one message was read hold its text: memory
    # stays flat only if no message's text outlives it)
    describe.forget_lines()
    judge.forget_lines()


def whole_durations(cands: list[Candidate]) -> None:
    """A reader that read only the first part of a duration in parts (`Total time: 6
    minutes 41 seconds` as 6 minutes; `12m 5s` as 12 m) measured the whole: its
    measurement takes the duration's value, in seconds, and its span."""
    for c in cands:
        n, m = c.number, c.measurement
        if (
            n.shape == "duration"
            and m is not None
            and m.span is not None
            and m.span[0] == n.start
            and m.span[1] < n.end
            and unit_class(m.unit or "") == "time"
        ):
            m.value, m.unit, m.written, m.span = n.value, "s", n.written, (n.start, n.end)


def taken(sample: str, tables: list[ResultTable], cands: list[Candidate]) -> list[ResultTable]:
    """The measurements the number model takes: the readers' where it takes their
    number (a reader's measurement with no number of its own stays), and the numbers
    no reader read, in tables of their own (`extract.results.describe`). A refused
    number that states an error, a deviation or a sample count of a taken one in the
    same row becomes that one's `error`, `stdev` or `samples`; an unread number that
    repeats a taken one (a summary restating a table) is not taken twice."""
    # (a measurement is kept when one of its numbers is taken: a range's either end;
    # a warm-up, as its tool says, never: its numbers are not results)
    kept_ids = {
        id(c.measurement)
        for c in cands
        if c.measurement and c.taken and c.measurement.role != "warmup"
    }
    refused = {id(c.measurement) for c in cands if c.measurement} - kept_ids
    kept = []
    for t in tables:
        measurements = [m for m in t.measurements if id(m) not in refused]
        _attach_secondary(t.measurements, refused)
        if measurements:
            kept.append(dataclasses.replace(t, measurements=measurements))
    again = {(round(m.value, 9), (m.unit or "").lower()) for t in kept for m in t.measurements}
    unread = []
    for c in cands:
        if c.measurement is not None or c.noise or not c.taken:
            continue
        if (round(c.number.value, 9), c.number.unit.lower()) in again:
            continue
        unread.append(c)
    _attach_unread_errors(cands)
    errors = {
        id(c): nxt.number.value
        for c, nxt in zip(cands, cands[1:], strict=False)
        if "after_plus_minus" in nxt.features and not nxt.taken
    }
    kept += text_tables(sample, unread, errors)
    kept.sort(key=lambda t: t.span)
    return kept


def _attach_secondary(measurements: list, refused: set[int]) -> None:
    by_row: dict[int, list] = {}
    for m in measurements:
        if m.row is not None:
            by_row.setdefault(m.row, []).append(m)
    for row in by_row.values():
        results = [m for m in row if id(m) not in refused]
        if not results:
            continue
        for m in row:
            if id(m) not in refused:
                continue
            what = metric_class(m.metric)
            if what == "count":
                for r in results:
                    r.samples = r.samples if r.samples is not None else m.value
            elif what in ("error", "stdev"):
                # the result it qualifies: the one in its unit, else the one before it
                same = [r for r in results if (r.unit or "") == (m.unit or "")]
                if same:
                    target = same[0]
                else:  # (a row's positions asked only then: `index` compares fields)
                    before = [r for r in results if row.index(r) < row.index(m)]
                    target = (before or results)[-1]
                if what == "error" and target.error is None:
                    target.error = m.value
                elif what == "stdev" and target.stdev is None:
                    target.stdev = m.value


def _attach_unread_errors(cands: list[Candidate]) -> None:
    """`12.5 ± 0.3 ms` where no reader read the 0.3: it is the 12.5's error."""
    for prev, c in zip(cands, cands[1:], strict=False):
        if "after_plus_minus" in c.features and not c.taken:
            m = prev.measurement
            if m is not None and m.error is None and prev.taken:
                m.error = c.number.value
