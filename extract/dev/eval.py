"""`make eval`: how well the classifier and the format parsers do on the labelled dev corpus.

Returns (and prints) an `EvalReport`: precision, recall and F1 of `is_benchmark`,
the share of labelled numbers found, and the misses, worst first.

Each corpus file (`tests/fixtures/corpus/dev/<id>.txt`: header block, blank line,
body; labels in `labels.jsonl`) goes through the pipeline's own path:
`clean_body(body, kind)` → `extract_results` → `classify`. The kind comes from the
header block's Subject and From through `extract.mail.kinds`, as the pipeline derives it.
Nothing here knows any corpus file: the corpus only measures.

When is a labelled number "found"? When one measurement of that message has

- the same value: the expected value is read with `extract.results.units.parse_number`
  from its written form after dropping approximation words and signs of change
  (`~6k`, `about 23`, `more than 5`, `within 15`, `≈`, `+1.26x faster` → 1.26);
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

Label and metric are not compared: the share measures whether the numbers are
recovered with their units; `label`/`variant` are checked by the format tests.
As in the pipeline, a message classified as no benchmark keeps no measurements,
so its labelled numbers count as not found.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import signal
import sys
import time
from dataclasses import asdict, dataclass, field
from email.utils import parseaddr
from pathlib import Path

from extract.mail.clean import clean_body
from extract.mail.kinds import message_kind
from extract.results.classify import Verdict, classify
from extract.results.formats import Measurement, ResultTable, extract_results
from extract.results.units import parse_number, to_si

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "corpus" / "dev"


@dataclass(slots=True)
class CorpusMessage:
    id: str
    headers: dict[str, str]
    body: str


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
    seconds: float
    false_positives: list[Outcome]
    false_negatives: list[Outcome]
    number_misses: list[Outcome]
    errors: list[Outcome]
    missed_by_format: dict[str, int] = field(default_factory=dict)


# ---------------------------------------------------------------- corpus reading


def read_message(path: Path) -> CorpusMessage:
    """A corpus file: `Key: value` header lines up to the first empty line, then the body."""
    text = path.read_text(encoding="utf-8", errors="replace")
    head, _, body = text.partition("\n\n")
    headers: dict[str, str] = {}
    for line in head.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            headers[key.strip()] = value.strip()
    return CorpusMessage(path.stem, headers, body)


def read_labels(corpus: Path) -> dict[str, dict]:
    labels = {}
    with open(corpus / "labels.jsonl", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                labels[row["id"]] = row
    return labels


def corpus_kind(msg: CorpusMessage) -> str:
    """jira, github, commit or mail, by the pipeline's own rules (`extract.mail.kinds`) on
    the header block. Two corpus-specific facts: GitHub threads copied from the web
    (`Corpus: issues`) are GitBox mails' bodies, and web archives hide JIRA's
    address (`"Name (JIRA)" <j...@apache.org>`), so the display name says it."""
    if msg.headers.get("Corpus") == "issues":
        return "github"
    subject = msg.headers.get("Subject", "")
    name, address = parseaddr(msg.headers.get("From", ""))
    kind = message_kind(subject, name, address, msg.body).kind
    if (
        kind == "mail"
        and "[jira]" in subject.lower()
        and "(jira)" in msg.headers.get("From", "").lower()
    ):
        return "jira"
    return kind


# ---------------------------------------------------------------- number matching

_QUALIFIERS = re.compile(
    r"^(?:~|≈|about|approx\.?|approximately|around|roughly|nearly|almost|over|under|"
    r"more than|less than|at least|at most|up to|within|>=?|<=?|\s)+",
    re.I,
)
_CHANGE_WORDS = re.compile(
    r"\s*(?:x|×)?\s*(?:faster|slower|better|worse|improvement|regression)?\s*$", re.I
)
# "2-5", "2 to 2.5", and "29241 / 29279" (a best / avg cell): either number
_RANGE = re.compile(r"^\s*([-+]?[\d.,:]+[kKMG]?)\s*(?:-|–|to|~|/)\s*([\d.,:]+[kKMG]?)\s*$")
_NUMBER_TEXT = re.compile(r"[-+]?\d[\d,]*(?::\d\d)*(?:\.\d+)?(?:[eE][-+]?\d+)?")


def expected_values(written: str) -> list[float]:
    """The numbers a written expected value stands for (see the module docstring)."""
    s = written.strip()
    s = _QUALIFIERS.sub("", s)
    s = _CHANGE_WORDS.sub("", s).strip()
    s = s.rstrip("%").strip()
    candidates = [s]
    m = _RANGE.match(s)
    if m:
        candidates = [m.group(1), m.group(2)]
    values: list[float] = []
    for c in candidates:
        c = c.lstrip("+").strip()
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
    return False


# ---------------------------------------------------------------- running


def run_message(msg: CorpusMessage) -> tuple[Verdict, list[ResultTable]]:
    """The pipeline's path for one message body."""
    kind = corpus_kind(msg)
    body = clean_body(msg.body, kind)
    tables = extract_results(body)
    verdict = classify(body, tables, subject=msg.headers.get("Subject"), kind=kind)
    return verdict, tables


def _ratio(a: int, b: int) -> float:
    return a / b if b else 0.0


def evaluate(corpus: Path = DEFAULT_CORPUS) -> EvalReport:
    labels = read_labels(corpus)
    started = time.perf_counter()
    outcomes: list[Outcome] = []
    for ident in sorted(labels):
        label = labels[ident]
        path = corpus / f"{ident}.txt"
        expected = bool(label["is_benchmark"])
        expects = label.get("expect") or []
        try:
            msg = read_message(path)
            verdict, tables = run_message(msg)
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
                )  # fmt: skip
            )
            continue
        # the pipeline stores measurements only for messages classified as benchmarks
        measurements = [m for t in tables for m in t.measurements] if verdict.is_benchmark else []
        missed = [e for e in expects if not number_found(e, measurements)]
        outcomes.append(
            Outcome(
                ident,
                expected,
                verdict.is_benchmark,
                round(verdict.score, 3),
                list(verdict.reasons),
                sorted({t.format for t in tables}),
                len(measurements),
                len(expects),
                missed,
                labelled_formats=list(label.get("formats") or []),
            )
        )
    seconds = time.perf_counter() - started
    tp = sum(o.expected and o.predicted for o in outcomes)
    fp = sum(not o.expected and o.predicted for o in outcomes)
    fn = sum(o.expected and not o.predicted for o in outcomes)
    tn = sum(not o.expected and not o.predicted for o in outcomes)
    precision, recall = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
    f1 = _ratio(2 * tp, 2 * tp + fp + fn)
    n_expected = sum(o.expected_numbers for o in outcomes)
    n_found = n_expected - sum(len(o.missed_numbers) for o in outcomes)
    # worst first: the most confident wrong verdicts, the messages missing most numbers
    fps = sorted((o for o in outcomes if not o.expected and o.predicted), key=lambda o: -o.score)
    fns = sorted((o for o in outcomes if o.expected and not o.predicted), key=lambda o: o.score)
    misses = sorted(
        (o for o in outcomes if o.missed_numbers),
        key=lambda o: (-len(o.missed_numbers) / max(o.expected_numbers, 1), -len(o.missed_numbers)),
    )
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
        seconds=round(seconds, 3),
        false_positives=fps,
        false_negatives=fns,
        number_misses=misses,
        errors=[o for o in outcomes if o.error],
        missed_by_format=_missed_by_format(outcomes),
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


def format_report(r: EvalReport, *, limit: int = 15) -> str:
    out = [
        f"messages: {r.n}  (tp {r.tp}, fp {r.fp}, fn {r.fn}, tn {r.tn})  in {r.seconds:.2f} s",
        f"is_benchmark  precision {r.precision:.3f}  recall {r.recall:.3f}  F1 {r.f1:.3f}",
        f"numbers found {r.numbers_found}/{r.numbers_expected} = {r.numbers_share:.1%}",
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
    n_missed = sum(len(o.missed_numbers) for o in r.number_misses)
    out.append(f"\nnumbers not found ({n_missed} in {len(r.number_misses)} messages), worst first:")
    for o in r.number_misses[:limit]:
        out.append(
            f"  {o.id}  missed {len(o.missed_numbers)}/{o.expected_numbers}"
            f"  (formats found: {','.join(o.formats) or '-'}; {o.n_measurements} measurements)"
        )
        for e in o.missed_numbers[:4]:
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m extract.dev.eval", description=__doc__.splitlines()[0]
    )
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="labelled corpus directory")
    ap.add_argument("--json", action="store_true", help="print the full report as JSON")
    ap.add_argument("--limit", type=int, default=15, help="misses to list per section")
    ap.add_argument("--show", metavar="ID", help="one message: its verdict and measurements")
    args = ap.parse_args(argv)
    if not (args.corpus / "labels.jsonl").is_file():
        print(f"eval: no labels.jsonl in {args.corpus}", file=sys.stderr)
        return 2
    if args.show:
        path = args.corpus / f"{args.show}.txt"
        if not path.is_file():
            print(f"eval: no message {args.show} in {args.corpus}", file=sys.stderr)
            return 2
        print(show_message(read_message(path), read_labels(args.corpus).get(args.show, {})))
        return 0
    report = evaluate(args.corpus)
    if args.json:
        print(json.dumps(asdict(report), indent=1, ensure_ascii=False))
    else:
        print(format_report(report, limit=args.limit))
    return 0


if __name__ == "__main__":
    # `make eval | head` closes the pipe early: stop quietly, as Unix tools do.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
