"""`python -m extract.dev.fit [--write] [--folds K]`: fit the classifier's weights on
the labelled corpora (a logistic regression over `classify.features`) and measure
how well they generalise.

Every labelled message of every set (`extract.dev.eval.corpus_sets`) goes through the
pipeline's path up to the features; the feature values are summed per feature name
(`tool:jmh` and `tool:ycsb` are two `tool` features). The fit is a logistic
regression with a Gaussian prior centred on the designed weights (`fit`; numpy and
scipy, dev-only dependencies). `cross_validate` fits on
k-1 folds and predicts the held-out one, folds split by thread (`eval.thread_of`),
so that a thread's messages never sit on both sides. `--write` stores the weights
fitted on everything in `extract/results/weights.py` (plain numbers).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from extract.dev.corpus import corpus_kind, corpus_sets, read_labels, read_message, thread_of
from extract.mail.clean import clean_body
from extract.results.classify import features
from extract.results.message import message_results
from extract.results.weights import WEIGHTS

# The weights the features were designed with: the fit's starting point and prior.
PRIOR_THRESHOLD = 2.0
PRIOR = {
    "tool": 3.0, "weak_tool": 1.5, "more_tools": 0.5, "perf_table": 2.5,
    "more_perf_tables": 0.5, "plain_table": 0.3, "prose_compared": 2.0, "prose_one": 1.0,
    "text_compared": 2.0, "text_many": 1.5, "text_measured": 1.0, "numeric_block": 2.0,
    "results_cue": 0.5, "ci": -4.0, "maven": 0.0, "maven_alone": -2.0, "release": -3.0,
    "stack": -1.5, "diff": -2.0, "field_change": -3.0, "dump": -1.0,
}  # fmt: skip

WEIGHTS_FILE = Path(__file__).resolve().parents[1] / "results" / "weights.py"
NAMES = [n for n in WEIGHTS if n != "note"]
# The prior's variance: how far the data may pull a weight from its designed value
# (chosen by cross-validation; see the module docstring).
C = 10.0
# Evidence that by design never makes a benchmark report on its own: a table of
# numbers without any performance unit is as often a configuration or a size table.
# The fit keeps their weights at least ALONE_MARGIN below the threshold (a steep
# penalty, as L-BFGS-B takes bounds on single weights only).
NEVER_ALONE = ("plain_table",)
ALONE_MARGIN = 0.5
ALONE_PENALTY = 1e4


def feature_rows(
    sets: dict[str, Path] | None = None,
) -> tuple[list[list[float]], list[int], list[str], list[str]]:
    """(X, y, ids, groups) over every labelled message."""
    X, y, ids, groups = [], [], [], []
    for corpus in (sets or corpus_sets()).values():
        for ident, label in sorted(read_labels(corpus).items()):
            msg = read_message(corpus / f"{ident}.txt")
            kind = corpus_kind(msg)
            # (the readers' tables, unjudged: this verdict is the readers' own)
            results = message_results(clean_body(msg.body, kind), kind=kind, models=(None, None))
            found = features(results.sample, results.tables, msg.headers.get("Subject", ""), kind)
            row = dict.fromkeys(NAMES, 0.0)
            for name, (value, _) in found.items():
                base = name.split(":", 1)[0]
                if base in row:
                    row[base] += value
            X.append([row[n] for n in NAMES])
            y.append(int(bool(label["is_benchmark"])))
            ids.append(ident)
            groups.append(thread_of(msg))
    return X, y, ids, groups


class Model:
    """Weights and threshold of the linear score; `predict` as the classifier decides."""

    def __init__(self, weights: list[float], threshold: float):
        self.weights, self.threshold = weights, threshold

    def predict(self, X) -> list[int]:
        return [
            int(sum(w * x for w, x in zip(self.weights, row, strict=True)) >= self.threshold)
            for row in X
        ]


def fit(X, y, c: float = C, never_alone: tuple[str, ...] = NEVER_ALONE) -> Model:
    """A logistic regression whose weights are pulled towards the hand-set ones
    (`PRIOR`, a Gaussian prior of variance `c`) rather than towards zero: a feature
    the corpora rarely show (a release vote, a stack trace) keeps the weight its
    reasoning gave it, and one they show often takes the weight they say."""
    import numpy as np
    from scipy.optimize import minimize

    Xa, ya = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    prior = np.array([PRIOR[n] for n in NAMES] + [-PRIOR_THRESHOLD])

    weak = [NAMES.index(n) for n in never_alone]

    def loss(theta):
        z = Xa @ theta[:-1] + theta[-1]
        p = 1.0 / (1.0 + np.exp(-z))
        nll = np.sum(np.logaddexp(0.0, z) - ya * z)
        diff = theta - prior
        grad = np.append(Xa.T @ (p - ya), np.sum(p - ya)) + diff / c
        penalty = 0.0
        for i in weak:  # w_i <= threshold - margin, i.e. w_i + theta[-1] + margin <= 0
            excess = theta[i] + theta[-1] + ALONE_MARGIN
            if excess > 0:
                penalty += ALONE_PENALTY * excess**2
                grad[i] += 2 * ALONE_PENALTY * excess
                grad[-1] += 2 * ALONE_PENALTY * excess
        return nll + 0.5 * np.sum(diff**2) / c + penalty, grad

    theta = minimize(loss, prior, jac=True, method="L-BFGS-B").x
    return Model([float(w) for w in theta[:-1]], -float(theta[-1]))


def group_folds(groups: list[str], k: int) -> list[list[int]]:
    """k folds of message indices, no group split across folds: the largest groups
    first, each into the fold that holds the fewest messages so far."""
    members: dict[str, list[int]] = {}
    for i, g in enumerate(groups):
        members.setdefault(g, []).append(i)
    folds: list[list[int]] = [[] for _ in range(k)]
    for g in sorted(members, key=lambda g: (-len(members[g]), g)):
        min(folds, key=len).extend(members[g])
    return folds


def cross_validate(X, y, groups, k: int = 5, c: float = C) -> dict:
    """Held-out precision and recall: each fold predicted by a model fitted on the others."""
    predicted = [0] * len(y)
    for test in group_folds(groups, k):
        held = set(test)
        train = [i for i in range(len(y)) if i not in held]
        model = fit([X[i] for i in train], [y[i] for i in train], c)
        for i, p in zip(test, model.predict([X[i] for i in test]), strict=True):
            predicted[i] = p
    return _scores(y, predicted)


def _scores(y, predicted) -> dict:
    tp = sum(a and b for a, b in zip(y, predicted, strict=True))
    fp = sum((not a) and b for a, b in zip(y, predicted, strict=True))
    fn = sum(a and not b for a, b in zip(y, predicted, strict=True))
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return {
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "tp": tp,
        "fp": fp,
        "fn": fn,
    }


def write_weights(model, path: Path = WEIGHTS_FILE) -> None:
    coef = dict(zip(NAMES, model.weights, strict=True))
    lines = [
        '"""The classifier\'s weights (see `extract.results.classify.features` for what each',
        "feature is). Written by `python -m extract.dev.fit --write` from a logistic",
        'regression on the labelled corpora; do not edit by hand."""',
        "",
        f"THRESHOLD = {round(model.threshold, 4)}",
        "# score = logistic(SCALE * (sum of weights - THRESHOLD))",
        "SCALE = 1.0",
        "",
        "WEIGHTS = {",
        *(f'    "{n}": {round(w, 4)},' for n, w in coef.items()),
        '    "note": 0.0,',
        "}",
        "",
    ]
    path.write_text("\n".join(lines), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m extract.dev.fit", description=__doc__.splitlines()[0]
    )
    ap.add_argument("--write", action="store_true", help="store the fitted weights")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--c", type=float, default=C, help="inverse regularisation strength")
    args = ap.parse_args(argv)
    if not corpus_sets():
        print("fit: no labelled corpus found (see `python -m extract.dev.eval`)", file=sys.stderr)
        return 2
    X, y, _, groups = feature_rows()
    model = fit(X, y, args.c)
    in_sample = _scores(y, model.predict(X))
    held_out = cross_validate(X, y, groups, args.folds, args.c)
    print(f"{len(y)} messages, {len(set(groups))} threads, {len(NAMES)} features")
    print(f"in-sample       P {in_sample['precision']:.3f}  R {in_sample['recall']:.3f}")
    print(f"{args.folds}-fold by thread  P {held_out['precision']:.3f}  R {held_out['recall']:.3f}")
    for name, w in sorted(zip(NAMES, model.weights, strict=True), key=lambda x: -x[1]):
        print(f"  {name:<18} {w:+.3f}   (designed {PRIOR[name]:+.1f})")
    print(f"  {'(threshold)':<18} {model.threshold:+.3f}   (designed {PRIOR_THRESHOLD:+.1f})")
    if args.write:
        write_weights(model)
        print(f"wrote {WEIGHTS_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
