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
from dataclasses import dataclass

from extract.results.claims import stated_claims
from extract.results.classify import Verdict
from extract.results.classify import features as reader_features
from extract.results.families import families
from extract.results.formats import ResultTable
from extract.results.judge import Candidate

_PERF_UNITS = {"time", "rate", "byterate", "factor", "percent"}


def message_features(
    sample: str,
    tables: list[ResultTable],
    cands: list[Candidate],
    *,
    subject: str | None = None,
    kind: str | None = None,
) -> dict[str, float]:
    """name -> value of one message's features (see the module docstring)."""
    out: dict[str, float] = {}
    for name, (value, _) in reader_features(sample, tables, subject or "", kind).items():
        base = name.split(":", 1)[0]
        if base != "note":
            out[f"reader:{base}"] = out.get(f"reader:{base}", 0.0) + value
    own = [c for c in cands if not c.noise]
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
        sum(any(f in c.features for f in _UNIT_FEATURES) for c in taken)
    )
    # the changes the text states (`2x faster`, `30 % less latency`, `提升了 30%`)
    out["claims"] = math.log1p(len(stated_claims(sample)))
    for name, strength in families(sample, subject or "").items():
        out[f"family:{name}"] = strength
    if kind:
        out[f"kind:{kind}"] = 1.0
    return out


_UNIT_FEATURES = tuple(f"unit={u}" for u in _PERF_UNITS)


@dataclass(slots=True)
class MessageModel:
    weights: dict[str, float]
    bias: float
    threshold: float = 0.5

    def score(self, feats: dict[str, float]) -> float:
        z = self.bias + sum(self.weights.get(k, 0.0) * v for k, v in feats.items())
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

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
    feats = message_features(sample, tables, cands, subject=subject, kind=kind)
    p = model.score(feats)
    return Verdict(p >= model.threshold, round(p, 3), model.reasons(feats))
