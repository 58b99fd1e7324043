"""The held-out written sets: mail the project wrote for measuring, never for fitting.

`tests/fixtures/heldout/` holds 90 messages a helper session wrote from a brief alone,
without seeing the extractor's code or the labelled corpus: 45 reports in the forms
Apache developers post them (tool output, tables, prose, Chinese, regressions filed as
bugs, a -1 vote, commit messages) and 45 messages that carry numbers and report no
measured result (plans, specs, inventories, estimates, defaults, CI mail, votes, code
under review). Each source declares its verdict (`Expect:`) and, for a report, every
measured number it holds with a few words naming it (`Numbers: 412.3 ms | scan q1
main; ...`). No fit reads them (`extract.dev.fit_judge` reads tests/fixtures/verdict),
so their figures say how the extractor does on mail written apart from it, as the
sealed set's do; `make eval` prints them. `tests/fixtures/heldout2/` holds 70 more,
written the same way by another session from another brief, without the first set.

Scoring follows the sealed score's (`../shared/unseen/score`): a number is found when a
stored measurement has its value, as written or in SI units, and with its label when
the measurement's label, variant or metric shares a distinctive word of its name.
"""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path

from extract.mail.clean import clean_body
from extract.mail.kinds import message_kind
from extract.mail.message import parse_message
from extract.results.message import message_results
from extract.results.units import to_si

REPO = Path(__file__).resolve().parents[2]
HELDOUT = REPO / "tests" / "fixtures" / "heldout"
# A second set, written later by another helper from another brief (more prose reports,
# more kinds of numbers that are not results) without the code, the corpus or the first
# set: read only for its figures, never to find what to fix.
HELDOUT2 = REPO / "tests" / "fixtures" / "heldout2"
SETS = (HELDOUT, HELDOUT2)
# (as the sealed score's: words too common to tell a number's name)
_STOP = frozenset(
    ("the", "and", "for", "with", "per", "none", "total", "value", "score", "time", "avg", "mean")
)
_MAGNITUDE = {"k": 1e3, "m": 1e6, "g": 1e9, "w": 1e4, "万": 1e4, "亿": 1e8}


@dataclass(slots=True)
class Verdicts:
    """A set's messages by what they are and what the extractor said of them."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    def count(self, truth: bool, said: bool) -> None:
        self.tp += truth and said
        self.fp += said and not truth
        self.fn += truth and not said
        self.tn += not (truth or said)

    def precision_recall(self) -> tuple[float, float]:
        """Message precision and recall (0 when there is nothing to divide by)."""
        tp, fp, fn = self.tp, self.fp, self.fn
        return (tp / (tp + fp) if tp + fp else 0.0, tp / (tp + fn) if tp + fn else 0.0)


@dataclass(slots=True)
class HeldOut(Verdicts):
    numbers: int = 0
    found: int = 0
    labelled: int = 0
    stored_for_none: int = 0  # measurements stored for messages that report none

    def line(self) -> str:
        p, r = self.precision_recall()
        n = max(1, self.numbers)
        return (
            f"P {p:.3f}  R {r:.3f}  (tp {self.tp} fp {self.fp} fn {self.fn} tn {self.tn});"
            f" numbers {self.found}/{self.numbers} = {self.found / n:.3f}, with their label"
            f" {self.labelled} = {self.labelled / n:.3f}; measurements stored for the"
            f" non-reports {self.stored_for_none}"
        )


def written_values(written: str) -> list[float]:
    """The numbers a written value may be stored as: as written, scaled by its
    magnitude (`1.2万`, `38k`), or a duration in seconds (`2h 41m`, `00:08:28`,
    `4分12秒`)."""
    w = re.sub(
        r"^(?:~|≈|about|around|just over|over|under|<|>)\s*", "", written.strip(), flags=re.I
    )
    clock = re.fullmatch(r"(?:(\d+)h)?\s*(?:(\d+)m(?!s))?\s*(?:([\d.]+)s)?", w)
    if clock and (clock.group(1) or clock.group(2)):
        h, m, s = (float(g or 0) for g in clock.groups())
        return [h * 3600 + m * 60 + s]
    clock = re.fullmatch(r"(\d+):(\d\d):(\d\d(?:\.\d+)?)", w) or re.fullmatch(
        r"()(\d+)分(\d+(?:\.\d+)?)秒", w
    )
    if clock:
        h, m, s = (float(g or 0) for g in clock.groups())
        return [h * 3600 + m * 60 + s]
    number = re.search(r"[-+]?\d[\d,]*(?:\.\d+)?", w)
    if number is None:
        return []
    value = abs(float(number.group().replace(",", "")))
    rest = w[number.end() :].strip().lower()
    scale = _MAGNITUDE.get(rest[:1])
    # (`38k`, `1.2万`, `0.61k`; not a unit that starts with the letter: `ms`, `MB`, `min`)
    if scale and not re.match(r"(?:ms|mb|min|gb|kb|gib|mib|kib|k?iops)", rest):
        return [value, value * scale]
    return [value]


def _close(a: float | None, b: float) -> bool:
    return a is not None and abs(abs(a) - b) <= 1e-3 * max(1.0, b)


def _make_sample():
    spec = importlib.util.spec_from_file_location("make_sample", REPO / "tests" / "make_sample.py")
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def evaluate(folder: Path = HELDOUT) -> HeldOut | None:
    """The set's figures, each message read the pipeline's way (wrapped as its kind
    arrives, parsed, cleaned, judged); None when the set is not there."""
    sources = sorted(folder.glob("*.txt")) if folder.is_dir() else []
    make_sample = _make_sample() if sources else None
    if make_sample is None:
        return None
    out = HeldOut()
    for src in sources:
        fields, _ = make_sample.split_source(src.read_bytes())
        _, raw = make_sample.sample_message(src)
        pm = parse_message(raw)
        kind = message_kind(pm.subject, pm.from_name, pm.from_address, pm.text, pm.headers).kind
        found = message_results(clean_body(pm.text, kind), subject=pm.subject, kind=kind)
        truth, said = fields.get("Expect") == "benchmark", found.verdict.is_benchmark
        out.count(truth, said)
        rows = [m for t in found.tables for m in t.measurements] if said else []
        if not truth:
            out.stored_for_none += len(rows)
            continue
        for item in filter(str.strip, fields.get("Numbers", "").split(";")):
            written, _, name = item.partition("|")
            values = written_values(written)
            if not values:
                continue
            out.numbers += 1
            hits = [
                m
                for m in rows
                for v in values
                if _close(m.value, v)
                or (m.value is not None and m.unit and _close(to_si(m.value, m.unit)[0], v))
            ]
            words = {w for w in re.findall(r"[a-z][a-z0-9_]{2,}", name.lower()) if w not in _STOP}
            context = " ".join(f"{m.label} {m.variant} {m.metric}".lower() for m in hits)
            out.found += bool(hits)
            out.labelled += bool(hits) and (not words or any(w in context for w in words))
    return out
