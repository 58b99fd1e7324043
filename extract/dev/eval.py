"""`make eval`: how well the classifier and the format parsers do on the labelled dev corpus.

Returns (and prints) an `EvalReport`: precision, recall and F1 of `is_benchmark`,
the share of labelled numbers found, and the misses, worst first.

The corpora are third-party mail and are read where they are: every set under
`$CORPUS_DIR` (default `../shared/corpus` beside the repository), each a directory
with `labels.jsonl` (`dev`, `dev2`, ...), or one directory named by `--corpus`.
Each corpus file (`<set>/<id>.txt`: header block, blank line, body) goes through
the pipeline's own path: `clean_body(body, kind)` → `message_results` (the readers and
`classify`, as `extract.pipeline` calls them).
The kind comes from the header block's Subject and From through `extract.mail.kinds`,
as the pipeline does.
Nothing here knows any corpus file: the corpus only measures.

When is a labelled number "found"? When one measurement of that message has
(or states, as its `error`, `stdev` or `samples`: secondary statistics are columns of
the number they qualify)

- the same value: the expected value is read with `extract.results.units.parse_number`
  from its written form after dropping approximation words and signs of change
  (`~6k`, `about 23`, `more than 5`, `within 15`, `≈`, `a bit over 3`, `a factor of
  5 or so`, `up to x10`, `+1.26x faster` → 1.26; thousands written apart, `20 000`);
  a range (`2-5`, `2-2.5`) or a pair (`29241 / 29279`) matches either number; a
  suffix (`320k`) matches the scaled (320000) or the bare (320) value; the sign
  is ignored (a change of `-0.012 %` may be stored as -0.012 or as 0.012 with a
  "slower" label); values are compared to 1e-9 relative; or the measurement's
  `written` text is the expected text once spaces, thousands separators and the
  qualifiers are removed;
- and a compatible unit (loose): the expected unit is empty (the message states
  none), or both spell the same unit once normalised (`sec`/`s`/`seconds`,
  `µs`/`us`/`μs`, `ops/sec`/`ops/s`, case ignored), or one is the other with a
  per-operation tail (`ms` ~ `ms/op`), or the measurement has no unit but its
  metric names the expected unit (`Best Time(ms)`);
- or, for clock times, the measurement's `written` number is the expected one
  and both units are of one dimension (`4:40 min` is stored as 280 s).

A number is found *with its label* when, besides, the measurement carries the
labelled row name (`label_found`: half of its words in the measurement's label,
variant, metric, table caption, columns or row cells). Both shares are printed, per
set, for all sets together, and for the same mail after each transformation that
real archives apply (`extract.dev.transforms`); the misses are grouped by cause.
As in the pipeline, a message classified as no benchmark keeps no measurements,
so its labelled numbers count as not found.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from extract.dev import commits, heldout
from extract.dev.corpus import (
    REPO,
    CorpusMessage,
    corpus_kind,
    corpus_root,
    corpus_sets,
    read_labels,
    read_message,
    thread_of,
)
from extract.dev.transforms import QUOTED, TRANSFORMS
from extract.mail.clean import clean_body
from extract.results.classify import Verdict
from extract.results.formats import Measurement, ResultTable
from extract.results.message import message_results
from extract.results.units import parse_number, to_si


@dataclass(slots=True)
class Outcome:
    """What the pipeline made of one labelled message."""

    id: str
    expected: bool
    predicted: bool
    score: float
    reasons: list[str]
    formats: list[str]
    n_measurements: int
    expected_numbers: int = 0
    missed_numbers: list[dict] = field(default_factory=list)
    error: str | None = None
    labelled_formats: list[str] = field(default_factory=list)
    # labelled numbers found by value but not with their label
    unlabelled_numbers: list[dict] = field(default_factory=list)
    # why each missed or unlabelled number was not found with its label
    causes: list[str] = field(default_factory=list)
    thread: str = ""  # the thread it belongs to, for cross-validation folds


@dataclass(slots=True)
class EvalReport:
    n: int
    tp: int
    fp: int
    fn: int
    tn: int
    precision: float
    recall: float
    f1: float
    numbers_expected: int
    numbers_found: int
    numbers_share: float
    numbers_labelled: int
    numbers_labelled_share: float
    seconds: float
    false_positives: list[Outcome]
    false_negatives: list[Outcome]
    number_misses: list[Outcome]
    errors: list[Outcome]
    missed_by_format: dict[str, int] = field(default_factory=dict)
    missed_by_cause: dict[str, int] = field(default_factory=dict)
    name: str = ""


# ---------------------------------------------------------------- number matching

_QUALIFIERS = re.compile(
    r"^(?:~|≈|about|approx\.?|approximately|around|roughly|nearly|almost|over|under|"
    r"more than|less than|at least|at most|up to|within|>=?|<=?|"
    r"(?:a bit|a little|just|slightly|something|somewhere|some)"
    r"(?=\s+(?:over|under|around|about|more|less))|"
    r"a factor of|by|x(?=\s*\d)|\s)+",
    re.I,
)
# a hedge after the number: `5 or so`, `20 or more`
_AFTER_QUALIFIERS = re.compile(r"(?<!\s)\s++or\s++(?:so|more|less)\b", re.I)
_CHANGE_WORDS = re.compile(
    r"\s*(?:x|×)?\s*(?:faster|slower|better|worse|improvement|regression)?\s*$", re.I
)
# "2-5", "2 to 2.5", and "29241 / 29279" (a best / avg cell): either number
_RANGE = re.compile(r"^\s*([-+]?[\d.,:]+[kKMG]?)\s*(?:-|–|to|~|/)\s*([\d.,:]+[kKMG]?)\s*$")
_NUMBER_TEXT = re.compile(r"[-+]?\d[\d,]*(?::\d\d)*(?:\.\d+)?(?:[eE][-+]?\d+)?")


def expected_values(written: str) -> list[float]:
    """The numbers a written expected value stands for (see the module docstring)."""
    s = written.strip()
    s = _AFTER_QUALIFIERS.sub("", _QUALIFIERS.sub("", s))
    s = _CHANGE_WORDS.sub("", s).strip()
    s = s.rstrip("%").strip()
    candidates = [s]
    m = _RANGE.match(s)
    if m:
        candidates = [m.group(1), m.group(2)]
    values: list[float] = []
    for c in candidates:
        c = c.lstrip("+").strip()
        if re.fullmatch(r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?", c):
            c = re.sub(r"[ \u00a0\u202f]", "", c)  # thousands written apart: `20 000`
        v = parse_number(c)
        if v is not None:
            values.append(abs(v))
        bare = re.fullmatch(r"([\d.,]+)[kKMGT]", c)
        if bare:
            b = parse_number(bare.group(1))
            if b is not None:
                values.append(abs(b))
    return values


def _norm_written(s: str | None) -> str:
    if not s:
        return ""
    s = _QUALIFIERS.sub("", s.strip())
    return re.sub(r"[\s,+]", "", s).lower()


_UNIT_SYNONYMS = [
    (r"^(?:seconds?|secs?)$", "s"),
    (r"^(?:milliseconds?|millis|msecs?)$", "ms"),
    (r"^(?:microseconds?|micros|usecs?|µs|μs)$", "us"),
    (r"^(?:nanoseconds?|nanos|nsecs?)$", "ns"),
    (r"^(?:minutes?|mins?)$", "min"),
    (r"^(?:hours?|hrs?)$", "h"),
    (r"^(?:percent|pct)$", "%"),
    # a factor, however the change is worded: `x`, `×`, `times`, `x faster`, `x slower`
    (r"^(?:x|×|times)(?:faster|slower|better|worse|speedup)?$", "x"),
]


def norm_unit(unit: str | None) -> str:
    """A unit's spelling normalised for loose comparison: `Seconds` → `s`, `ops/sec` → `ops/s`."""
    if not unit:
        return ""
    u = unit.strip().lower().replace("μ", "µ").replace(" ", "")
    parts = re.split(r"(/)", u)
    out = []
    for p in parts:
        for pattern, repl in _UNIT_SYNONYMS:
            if re.match(pattern, p):
                p = repl
                break
        out.append(p)
    u = "".join(out).replace("µs", "us")
    return u


def units_compatible(expected: str, m: Measurement) -> bool:
    exp = norm_unit(expected)
    if not exp:
        return True
    got = norm_unit(m.unit)
    if got:
        if got == exp:
            return True
        # ms ~ ms/op, ns ~ ns/iter: the same time unit per operation
        return got.split("/")[0] == exp.split("/")[0] and ("/" in got) != ("/" in exp)
    metric = (m.metric or "").lower()
    return bool(expected.strip()) and expected.strip().lower() in metric


def _number_text(s: str | None) -> str:
    """The first number in a written value, as written: `4:40 min` → `4:40`."""
    found = _NUMBER_TEXT.search(_QUALIFIERS.sub("", (s or "").strip()))
    return found.group(0).lstrip("+").replace(",", "") if found else ""


def _same_dimension(expected: str, m: Measurement) -> bool:
    """Both units are of one kind (time, bytes, rates, %): a clock time written
    `4:40 min` is stored in seconds, as the format interface says."""
    _, a = to_si(1.0, expected)
    _, b = to_si(1.0, m.unit)
    return a is not None and a == b


def number_found(expect: dict, measurements: list[Measurement]) -> bool:
    written = str(expect.get("value", ""))
    unit = str(expect.get("unit", "") or "")
    values = expected_values(written)
    target = _norm_written(written)
    target_number = _number_text(written)
    for m in measurements:
        clock = ":" in target_number
        if clock and _number_text(m.written) == target_number and _same_dimension(unit, m):
            return True
        if not units_compatible(unit, m):
            continue
        if target and _norm_written(m.written) == target:
            return True
        if m.value is None or (isinstance(m.value, float) and math.isnan(m.value)):
            continue
        got = abs(m.value)
        if any(math.isclose(got, v, rel_tol=1e-9, abs_tol=1e-12) for v in values):
            return True
    # an error, deviation or sample count is stored with the number it qualifies
    for m in measurements:
        for stat in (m.error, m.stdev, m.samples):
            if stat is not None and any(
                math.isclose(abs(stat), v, rel_tol=1e-9, abs_tol=1e-12) for v in values
            ):
                return True
    return False


# ---------------------------------------------------------------- labels

_WORD = re.compile(r"[0-9a-z]+|[^\x00-\x7f\s\W_]", re.I)
_MARKS = re.compile(r"\[[-+]\]|\([^()]*\)")


def label_words(text: str | None) -> set[str]:
    """Lowercase words of a name; each CJK character is a word of its own."""
    return {w.lower() for w in _WORD.findall(text or "")}


def label_found(expect: dict, table: ResultTable, m: Measurement) -> bool:
    """The measurement carries the expected label: at least half of the words of
    the label's name (its parenthesised context and diff marks `[-]`/`[+]` left out,
    unless that leaves nothing) are in the measurement's label, variant or metric,
    its table's caption, variant and columns, or the cells of its row."""
    label = str(expect.get("label") or "")
    main = label_words(_MARKS.sub(" ", label)) or label_words(label)
    if not main:
        return True
    cells = table.rows[m.row] if m.row is not None and m.row < len(table.rows) else []
    hay: set[str] = set()
    for text in (m.label, m.variant, m.metric, table.caption, table.variant, *table.columns):
        hay |= label_words(text)
    for cell in cells:
        hay |= label_words(str(cell))
    return 2 * len(main & hay) >= len(main)


@dataclass(slots=True)
class SpanFigures:
    """The annotated numbers of the positives (`extract/dev/annotations`), matched by
    span: found (a stored measurement's span overlaps it, in a message judged a
    report), found with its label (and half the words of the annotation's label in
    the measurement's label, variant, metric, its table's caption and columns or its
    row, as `label_found`), and the stored measurements that are no annotated number."""

    annotated: int = 0
    found: int = 0
    labelled: int = 0
    stored: int = 0
    stored_right: int = 0
    messages: int = 0

    def line(self) -> str:
        def share(a: int, b: int) -> str:
            return f"{a}/{b} = {100 * a / b:.1f}%" if b else "n/a"

        return (
            f"{self.messages} annotated positives: numbers found"
            f" {share(self.found, self.annotated)},"
            f" with their label {share(self.labelled, self.annotated)}; stored measurements"
            f" that are annotated numbers {share(self.stored_right, self.stored)}"
        )


def span_figures(names: list[str] | None = None) -> SpanFigures:
    """`SpanFigures` of the annotated sets, through the pipeline's own path."""
    from extract.dev.annotate import ToRaw, load, message_kind_of, set_messages

    out = SpanFigures()
    for name in names or ["seeds", *corpus_sets()]:
        notes = load(name)
        if not notes:
            continue
        msgs = set_messages(name)
        for ident, row in notes.items():
            msg = msgs.get(ident)
            if msg is None:
                continue
            kind = message_kind_of(msg)
            cleaned = clean_body(msg.body, kind)
            found = message_results(cleaned, subject=msg.headers.get("Subject"), kind=kind)
            to_raw = ToRaw(msg.body, cleaned)
            spans = [tuple(n["span"]) for n in row["numbers"]]
            out.messages += 1
            out.annotated += len(spans)
            if not found.verdict.is_benchmark:
                continue
            got, labelled = set(), set()
            for t in found.tables:
                for m in t.measurements:
                    if m.span is None:
                        continue
                    out.stored += 1
                    a, b = to_raw(found.to_body(m.span[0])), to_raw(found.to_body(m.span[1] - 1))
                    if a is None or b is None:
                        continue
                    hits = [k for k, (s, e) in enumerate(spans) if a < e and b + 1 > s]
                    out.stored_right += bool(hits)
                    for k in hits:
                        got.add(k)
                        if label_found(row["numbers"][k], t, m):
                            labelled.add(k)
            out.found += len(got)
            out.labelled += len(labelled)
    return out


def numbers_found(expect: dict, tables: list[ResultTable]) -> tuple[bool, bool]:
    """(the number is found, the number is found with its label)."""
    pairs = [(t, m) for t in tables for m in t.measurements]
    hits = [(t, m) for t, m in pairs if number_found(expect, [m])]
    return bool(hits), any(label_found(expect, t, m) for t, m in hits)


# ---------------------------------------------------------------- running


def run_message(
    msg: CorpusMessage, transform: Callable[[str], str] | None = None
) -> tuple[Verdict, list[ResultTable]]:
    """The pipeline's path for one message body (after `transform`, if given)."""
    kind = corpus_kind(msg)
    raw = transform(msg.body) if transform else msg.body
    found = message_results(clean_body(raw, kind), subject=msg.headers.get("Subject"), kind=kind)
    return found.verdict, found.tables


def _ratio(a: int, b: int) -> float:
    return a / b if b else 0.0


def _cause(expect: dict, predicted: bool, tables: list[ResultTable]) -> str:
    """Why a labelled number was not found with its label."""
    if not predicted:
        return "message not classified as a benchmark"
    pairs = [(t, m) for t in tables for m in t.measurements]
    written = str(expect.get("value", ""))
    values = expected_values(written)
    same_value = [
        (t, m)
        for t, m in pairs
        if m.value is not None
        and any(math.isclose(abs(m.value), v, rel_tol=1e-9, abs_tol=1e-12) for v in values)
    ]
    if not same_value:
        fmts = "+".join(expect_formats(expect)) or "?"
        return f"value not extracted ({fmts})"
    if not any(units_compatible(str(expect.get("unit") or ""), m) for _, m in same_value):
        return "value found, other unit"
    return "value found, other label"


def expect_formats(expect: dict) -> list[str]:
    return list(expect.get("_formats") or [])


def evaluate(
    corpus: Path, transform: Callable[[str], str] | None = None, *, name: str = ""
) -> EvalReport:
    labels = read_labels(corpus)
    started = time.perf_counter()
    outcomes: list[Outcome] = []
    for ident in sorted(labels):
        label = labels[ident]
        path = corpus / f"{ident}.txt"
        expected = bool(label["is_benchmark"])
        fmts = list(label.get("formats") or [])
        expects = [dict(e, _formats=fmts) for e in label.get("expect") or []]
        try:
            msg = read_message(path)
            verdict, tables = run_message(msg, transform)
        except Exception as exc:  # one bad message never stops the run
            outcomes.append(
                Outcome(
                    ident,
                    expected,
                    False,
                    0.0,
                    [],
                    [],
                    0,
                    len(expects),
                    list(expects),
                    f"{type(exc).__name__}: {exc}",
                    fmts,
                    causes=["error"] * len(expects),
                )  # fmt: skip
            )
            continue
        # the pipeline stores measurements only for messages classified as benchmarks
        kept = tables if verdict.is_benchmark else []
        missed, unlabelled, causes = [], [], []
        for e in expects:
            found, with_label = numbers_found(e, kept)
            if not found:
                missed.append(e)
            elif not with_label:
                unlabelled.append(e)
            if not with_label:
                causes.append(_cause(e, verdict.is_benchmark, tables))
        outcomes.append(
            Outcome(
                ident,
                expected,
                verdict.is_benchmark,
                round(verdict.score, 3),
                list(verdict.reasons),
                sorted({t.format for t in tables}),
                sum(len(t.measurements) for t in kept),
                len(expects),
                missed,
                labelled_formats=fmts,
                unlabelled_numbers=unlabelled,
                causes=causes,
                thread=thread_of(msg),
            )
        )
    return summarise(outcomes, time.perf_counter() - started, name=name)


def summarise(outcomes: list[Outcome], seconds: float = 0.0, *, name: str = "") -> EvalReport:
    tp = sum(o.expected and o.predicted for o in outcomes)
    fp = sum(not o.expected and o.predicted for o in outcomes)
    fn = sum(o.expected and not o.predicted for o in outcomes)
    tn = sum(not o.expected and not o.predicted for o in outcomes)
    precision, recall = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
    f1 = _ratio(2 * tp, 2 * tp + fp + fn)
    n_expected = sum(o.expected_numbers for o in outcomes)
    n_found = n_expected - sum(len(o.missed_numbers) for o in outcomes)
    n_labelled = n_found - sum(len(o.unlabelled_numbers) for o in outcomes)
    # worst first: the most confident wrong verdicts, the messages missing most numbers
    fps = sorted((o for o in outcomes if not o.expected and o.predicted), key=lambda o: -o.score)
    fns = sorted((o for o in outcomes if o.expected and not o.predicted), key=lambda o: o.score)
    misses = sorted(
        (o for o in outcomes if o.missed_numbers or o.unlabelled_numbers),
        key=lambda o: (
            -(len(o.missed_numbers) + len(o.unlabelled_numbers)) / max(o.expected_numbers, 1),
            -len(o.missed_numbers),
        ),
    )
    causes: dict[str, int] = {}
    for o in outcomes:
        for c in o.causes:
            causes[c] = causes.get(c, 0) + 1
    return EvalReport(
        n=len(outcomes),
        tp=tp,
        fp=fp,
        fn=fn,
        tn=tn,
        precision=round(precision, 4),
        recall=round(recall, 4),
        f1=round(f1, 4),
        numbers_expected=n_expected,
        numbers_found=n_found,
        numbers_share=round(_ratio(n_found, n_expected), 4),
        numbers_labelled=n_labelled,
        numbers_labelled_share=round(_ratio(n_labelled, n_expected), 4),
        seconds=round(seconds, 3),
        false_positives=fps,
        false_negatives=fns,
        number_misses=misses,
        errors=[o for o in outcomes if o.error],
        missed_by_format=_missed_by_format(outcomes),
        missed_by_cause=dict(sorted(causes.items(), key=lambda kv: (-kv[1], kv[0]))),
        name=name,
    )


def _missed_by_format(outcomes: list[Outcome]) -> dict[str, int]:
    """Missed numbers per the formats the labels name for their message (`a + b`
    when a message has several), most first: which parser to look at."""
    counts: dict[str, int] = {}
    for o in outcomes:
        if o.missed_numbers:
            key = " + ".join(o.labelled_formats) or "?"
            counts[key] = counts.get(key, 0) + len(o.missed_numbers)
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def headline(r: EvalReport) -> str:
    """One line per set: the figures the issues quote."""
    return (
        f"{r.name or 'corpus':<14} n={r.n:<4} P {r.precision:.3f}  R {r.recall:.3f}  "
        f"F1 {r.f1:.3f}  numbers {r.numbers_found}/{r.numbers_expected} "
        f"= {r.numbers_share:.1%}  with label {r.numbers_labelled} = "
        f"{r.numbers_labelled_share:.1%}"
    )


def format_report(r: EvalReport, *, limit: int = 15) -> str:
    out = [
        f"messages: {r.n}  (tp {r.tp}, fp {r.fp}, fn {r.fn}, tn {r.tn})  in {r.seconds:.2f} s",
        f"is_benchmark  precision {r.precision:.3f}  recall {r.recall:.3f}  F1 {r.f1:.3f}",
        f"numbers found {r.numbers_found}/{r.numbers_expected} = {r.numbers_share:.1%}"
        f"  (with their label {r.numbers_labelled} = {r.numbers_labelled_share:.1%})",
    ]
    if r.errors:
        out.append(f"\nerrors ({len(r.errors)}):")
        out += [f"  {o.id}: {o.error}" for o in r.errors[:limit]]
    out.append(f"\nfalse positives ({len(r.false_positives)}), most confident first:")
    out += [
        f"  {o.id}  score {o.score:.2f}  {'; '.join(o.reasons)}" for o in r.false_positives[:limit]
    ]
    out.append(f"\nfalse negatives ({len(r.false_negatives)}), least confident first:")
    out += [
        f"  {o.id}  score {o.score:.2f}  formats {','.join(o.formats) or '-'}"
        f"  {'; '.join(o.reasons)}"
        for o in r.false_negatives[:limit]
    ]
    if r.missed_by_format:
        out.append("\nnumbers not found, by the formats the labels name:")
        out += [f"  {n:3d}  {fmt}" for fmt, n in r.missed_by_format.items()]
    if r.missed_by_cause:
        out.append("\nnumbers not found with their label, by cause:")
        out += [f"  {n:3d}  {cause}" for cause, n in r.missed_by_cause.items()]
    n_missed = sum(len(o.missed_numbers) + len(o.unlabelled_numbers) for o in r.number_misses)
    out.append(
        f"\nnumbers not found with their label ({n_missed} in {len(r.number_misses)} messages),"
        " worst first:"
    )
    for o in r.number_misses[:limit]:
        out.append(
            f"  {o.id}  missed {len(o.missed_numbers)}, unlabelled {len(o.unlabelled_numbers)}"
            f" of {o.expected_numbers}"
            f"  (formats found: {','.join(o.formats) or '-'}; {o.n_measurements} measurements)"
        )
        for e in (o.missed_numbers + o.unlabelled_numbers)[:4]:
            out.append(
                f"      {e.get('label')!s:.50} | {e.get('metric')!s:.30}"
                f" | {e.get('value')} {e.get('unit') or ''}"
            )
    return "\n".join(out)


def show_message(msg: CorpusMessage, label: dict) -> str:
    """What the pipeline makes of one corpus message, next to its label."""
    verdict, tables = run_message(msg)
    measurements = [m for t in tables for m in t.measurements]
    out = [
        f"{msg.id}: labelled {label.get('is_benchmark')}, classified {verdict.is_benchmark}"
        f" (score {verdict.score:.3f}, kind {corpus_kind(msg)})",
        "reasons: " + ("; ".join(verdict.reasons) or "-"),
        f"tables: {len(tables)}, measurements: {len(measurements)}",
    ]
    for t in tables:
        for m in t.measurements:
            out.append(
                f"  {t.format:<16} {m.label!s:.40} | {m.variant!s:.25} | {m.metric!s:.25}"
                f" | {m.written or m.value} {m.unit or ''}"
            )
    for e in label.get("expect") or []:
        mark = "found" if number_found(e, measurements) else "MISSED"
        out.append(
            f"  expect {mark}: {e.get('label')} | {e.get('metric')}"
            f" | {e.get('value')} {e.get('unit')}"
        )
    return "\n".join(out)


def summarise_counts(reports: list[EvalReport], name: str) -> EvalReport:
    """Add up the counts of several reports (the lists are concatenated)."""
    tp, fp, fn, tn = (sum(getattr(r, k) for r in reports) for k in ("tp", "fp", "fn", "tn"))
    n_exp = sum(r.numbers_expected for r in reports)
    n_found = sum(r.numbers_found for r in reports)
    n_lab = sum(r.numbers_labelled for r in reports)
    causes: dict[str, int] = {}
    by_format: dict[str, int] = {}
    for r in reports:
        for k, v in r.missed_by_cause.items():
            causes[k] = causes.get(k, 0) + v
        for k, v in r.missed_by_format.items():
            by_format[k] = by_format.get(k, 0) + v
    return EvalReport(
        n=sum(r.n for r in reports),
        tp=tp, fp=fp, fn=fn, tn=tn,
        precision=round(_ratio(tp, tp + fp), 4),
        recall=round(_ratio(tp, tp + fn), 4),
        f1=round(_ratio(2 * tp, 2 * tp + fp + fn), 4),
        numbers_expected=n_exp,
        numbers_found=n_found,
        numbers_share=round(_ratio(n_found, n_exp), 4),
        numbers_labelled=n_lab,
        numbers_labelled_share=round(_ratio(n_lab, n_exp), 4),
        seconds=round(sum(r.seconds for r in reports), 3),
        false_positives=[o for r in reports for o in r.false_positives],
        false_negatives=[o for r in reports for o in r.false_negatives],
        number_misses=[o for r in reports for o in r.number_misses],
        errors=[o for r in reports for o in r.errors],
        missed_by_format=dict(sorted(by_format.items(), key=lambda kv: (-kv[1], kv[0]))),
        missed_by_cause=dict(sorted(causes.items(), key=lambda kv: (-kv[1], kv[0]))),
        name=name,
    )  # fmt: skip


def cross_validated(folds: int = 5) -> dict | None:
    """The number model's and the verdict's figures on held-out folds
    (`extract.dev.fit_judge`: every labelled set, the annotations, the peers' and the
    sample's mail), or None where its dev-only dependencies are not installed."""
    try:
        from extract.dev import fit_judge

        fitted = fit_judge.run(folds, out=lambda *_: None)
    except ImportError:
        return None
    return {
        "folds": folds,
        "numbers": fitted.numbers_cv,
        "messages": fitted.messages_cv,
        "examples": fitted.examples,
        "gate": fitted.gate_cv,
        "numbers_shipped": fitted.numbers_cv_shipped,
        "shipped_thresholds": fitted.shipped_thresholds,
    }


def sealed_with_and_without_gate() -> dict[str, str] | None:
    """The sealed set's message line (`../shared/unseen/score`, figures only) with the
    gate on and off: the gate must not cost its recall. None where it is not there."""
    score = REPO.parent / "shared" / "unseen" / "score"
    if not score.exists():
        return None
    out = {}
    for name, value in (("on", ""), ("off", "off")):
        env = {**os.environ, "EXTRACT_GATE": value}
        run = subprocess.run([str(score)], cwd=REPO, env=env, capture_output=True, text=True)
        lines = [ln for ln in run.stdout.splitlines() if ln.startswith("messages:")]
        out[name] = lines[0].removeprefix("messages:").strip() if lines else run.stderr.strip()
    return out


def quoted_leaks(corpus: Path) -> tuple[int, int]:
    """(positives that still give a benchmark verdict or measurements when quoted in
    a reply, positives): quoted text is never the message's own."""
    labels = read_labels(corpus)
    leaks = n = 0
    for ident, label in labels.items():
        if not label["is_benchmark"]:
            continue
        n += 1
        verdict, tables = run_message(read_message(corpus / f"{ident}.txt"), QUOTED)
        leaks += verdict.is_benchmark or any(t.measurements for t in tables)
    return leaks, n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m extract.dev.eval", description=__doc__.splitlines()[0]
    )
    ap.add_argument(
        "--corpus", type=Path, help="one labelled directory (default: every set under CORPUS_DIR)"
    )
    ap.add_argument("--set", action="append", help="only these sets (dev, dev2, ...)")
    ap.add_argument("--json", action="store_true", help="print the full reports as JSON")
    ap.add_argument("--limit", type=int, default=15, help="misses to list per section")
    ap.add_argument("--show", metavar="ID", help="one message: its verdict and measurements")
    ap.add_argument(
        "--no-transforms", action="store_true", help="skip the runs on transformed mail"
    )
    args = ap.parse_args(argv)
    if args.corpus:
        if not (args.corpus / "labels.jsonl").is_file():
            print(f"eval: no labels.jsonl in {args.corpus}", file=sys.stderr)
            return 2
        sets = {args.corpus.name: args.corpus}
    else:
        sets = corpus_sets()
        if args.set:
            sets = {k: v for k, v in sets.items() if k in args.set}
        if not sets:
            print(
                f"eval: no labelled corpus found under {corpus_root()}: the corpora are "
                "third-party mail and are not in the repository; clone the project beside "
                "../shared, or set CORPUS_DIR to a directory of sets (each with labels.jsonl)",
                file=sys.stderr,
            )
            return 2
    if args.show:
        for corpus in sets.values():
            path = corpus / f"{args.show}.txt"
            if path.is_file():
                label = read_labels(corpus).get(args.show, {})
                print(show_message(read_message(path), label))
                return 0
        print(
            f"eval: no message {args.show} in {', '.join(map(str, sets.values()))}", file=sys.stderr
        )
        return 2
    reports = [evaluate(path, name=name) for name, path in sets.items()]
    every = summarise_counts(reports, "+".join(sets)) if len(reports) > 1 else reports[0]
    transformed: list[EvalReport] = []
    quoted = (0, 0)
    if not args.no_transforms:
        for tname, fn in TRANSFORMS.items():
            parts = [evaluate(path, fn, name=name) for name, path in sets.items()]
            transformed.append(summarise_counts(parts, tname))
        q = [quoted_leaks(path) for path in sets.values()]
        quoted = (sum(a for a, _ in q), sum(b for _, b in q))
    cv = cross_validated() if not args.corpus else None
    sealed = sealed_with_and_without_gate() if cv else None
    spans = span_figures() if not args.corpus else None
    if args.json:
        out = {
            "sets": [asdict(r) for r in reports],
            "all": asdict(every),
            "cross_validated": cv
            and {
                **cv,
                "numbers": asdict(cv["numbers"]),
                "numbers_shipped": cv["numbers_shipped"] and asdict(cv["numbers_shipped"]),
            },
            "transforms": [asdict(r) for r in transformed],
            "quoted_reply_leaks": quoted,
        }
        print(json.dumps(out, indent=1, ensure_ascii=False))
        return 0
    print("per set:")
    for r in reports:
        print("  " + headline(r))
    if len(reports) > 1:
        print("  " + headline(every))
    if cv:
        n, m = cv["numbers"], cv["messages"]
        print(
            f"  cross-validated ({cv['folds']} folds by thread; models fitted on the other folds,"
            f" {cv['examples']} messages with the peers' and the sample's):"
        )
        print(
            f"    messages: P {m['P']:.3f}  R {m['R']:.3f}  (threshold {m['threshold']};"
            f" in-sample on these sets P {every.precision:.3f}  R {every.recall:.3f})"
        )
        if (shipped := cv.get("numbers_shipped")) is not None:
            marks = "/".join(str(t) for t in cv["shipped_thresholds"])
            print(f"    numbers of the annotated messages, at the shipped thresholds ({marks}):")
            print(f"      {shipped.line()}")
        print("    numbers of the annotated messages, at the thresholds chosen on these folds:")
        print(f"      {n.line()}")
        g = cv["gate"]
        print(
            f"    the gate lets {g['recall']:.3f} of {g['positives']} reports (labelled ones and"
            f" the format fixtures; {g['mail_recall']:.3f} of the {g['mail_positives']} labelled"
            f" messages) and {g['negatives_passed']:.3f} of {g['negatives']} other"
            " messages through ("
            + ", ".join(f"{k} {v:.2f}" for k, v in sorted(g["negatives_passed_by_set"].items()))
            + ")"
        )
        if sealed:
            print(f"    the sealed set with the gate on:  {sealed['on']}")
            print(f"    the sealed set with the gate off: {sealed['off']}")
    else:
        print("  cross-validated: n/a (needs numpy and scipy: make install)")
    for folder in heldout.SETS if not args.corpus else ():
        if (held := heldout.evaluate(folder)) is not None:
            print(f"  written held-out ({folder.relative_to(heldout.REPO)}, never fitted):")
            print(f"    {held.line()}")
    for which in commits.SETS if not args.corpus else ():
        real = commits.evaluate(which)
        use = (
            "figures only, never fitted"
            if which in commits.UNREAD
            else "read for gaps, fitted on: in-sample"
            if which in commits.FITTED
            else "read for gaps, never fitted"
        )
        where = f"real PR descriptions ({which}, extract/dev/commits.py, {use})"
        if real is None:
            print(f"  {where}: not run (no snapshot under {commits.mirror_dir()})")
        else:
            print(f"  {where}:\n    {real.line()}")
    if spans is not None:
        print(f"  by span, in-sample: {spans.line()}")
    if transformed:
        print("the same mail, transformed (all sets):")
        for r in transformed:
            print("  " + headline(r))
        print(
            f"  quoted in a reply: {quoted[0]} of {quoted[1]} positives still give results "
            "(should be 0)"
        )
    print()
    print(format_report(every, limit=args.limit))
    return 0


if __name__ == "__main__":
    # `make eval | head` closes the pipe early: stop quietly, as Unix tools do.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
