"""Fitting the classifier: folds never split a thread, the fit moves weights the data
speaks about and keeps the designed ones where it is silent, and the shipped weights
are the fit's own (on ../shared's corpora)."""

from __future__ import annotations

import pytest

from extract.dev import fit
from extract.results import weights


def test_folds_keep_each_thread_whole_and_cover_everything():
    groups = ["a", "a", "b", "c", "c", "c", "d", "e"]
    folds = fit.group_folds(groups, 3)
    assert sorted(i for f in folds for i in f) == list(range(len(groups)))
    for f in folds:
        for g in {groups[i] for i in f}:
            assert all(i in f for i, x in enumerate(groups) if x == g)


def test_the_fit_follows_the_data_and_keeps_the_prior_where_it_is_silent():
    n = len(fit.NAMES)
    tool = fit.NAMES.index("tool")
    plain = fit.NAMES.index("plain_table")
    release = fit.NAMES.index("release")
    X, y = [], []
    for i in range(40):  # messages with a plain table are benchmarks half of the time...
        row = [0.0] * n
        row[plain] = 1.0
        X.append(row)
        y.append(i % 2)
    for _ in range(40):  # ...and tool output always is
        row = [0.0] * n
        row[tool] = 1.0
        X.append(row)
        y.append(1)
    model = fit.fit(X, y, c=10.0)
    assert model.predict([X[-1]]) == [1]
    assert model.weights[tool] > fit.PRIOR["tool"]
    # no message has a release vote: its weight stays where it was designed
    assert model.weights[release] == pytest.approx(fit.PRIOR["release"], abs=1e-3)


def test_a_plain_table_never_decides_alone_however_often_it_is_a_benchmark():
    n = len(fit.NAMES)
    plain = fit.NAMES.index("plain_table")
    X, y = [], []
    for i in range(60):  # plain tables that are benchmarks nine times in ten
        row = [0.0] * n
        row[plain] = 1.0
        X.append(row)
        y.append(int(i % 10 != 0))
    for _ in range(20):
        X.append([0.0] * n)
        y.append(0)
    model = fit.fit(X, y)
    assert model.weights[plain] <= model.threshold - fit.ALONE_MARGIN + 0.02
    assert model.predict([X[0]]) == [0]
    # without the constraint the data would have it decide alone
    unconstrained = fit.fit(X, y, never_alone=())
    assert unconstrained.predict([X[0]]) == [1]


@pytest.mark.shared
def test_the_shipped_weights_are_the_fit_on_the_corpora():
    X, y, _, _ = fit.feature_rows()
    model = fit.fit(X, y)
    shipped = [weights.WEIGHTS[n] for n in fit.NAMES]
    assert shipped == pytest.approx(model.weights, abs=1e-3)
    assert pytest.approx(model.threshold, abs=1e-3) == weights.THRESHOLD


def test_the_verdict_threshold_is_the_middle_of_the_plateau_of_pools_weighed_alike():
    from extract.dev.fit_judge import best_threshold

    # one pool: reports score 0.6..0.9, others 0.1..0.4: every cut in (0.4, 0.6] is
    # perfect: 0.5, the decision point of a fit that weighs its classes alike, is in
    # that band and kept; a band without it gives its middle, not its first point
    pool = [(x / 10, 1) for x in range(6, 10)] + [(x / 10, 0) for x in range(1, 5)]
    assert best_threshold([pool], out=lambda *a: None) == 0.5
    high = [(x / 10, 1) for x in range(8, 10)] + [(x / 10, 0) for x in range(1, 7)]
    assert abs(best_threshold([high], out=lambda *a: None) - 0.705) <= 0.01
    # a small pool weighs as much as a large one: the large one alone would cut at 0.5,
    # the small one (its reports scoring low, as unseen mail's do) pulls the cut down
    shifted = [(0.35, 1), (0.45, 1), (0.2, 0)]
    assert best_threshold([pool * 50, shifted], out=lambda *a: None) < 0.4


def test_held_out_numbers_are_also_taken_at_the_shipped_thresholds():
    """`make eval` says what the shipped pipeline would take on the held-out folds, and
    the folds' models keep the thresholds their cross-validation chose."""
    from extract.dev.fit_judge import at_shipped_thresholds
    from extract.results.judge import NumberModel, load_model

    shipped = load_model()
    fold_model = NumberModel({}, 0.0, 0.31, blind=NumberModel({}, 0.0, 0.41), unread_threshold=0.71)
    figures, thresholds = at_shipped_thresholds([], [fold_model], [])
    assert thresholds == (shipped.threshold, shipped.blind.threshold, shipped.unread_threshold)
    assert figures is not None and figures.taken == 0
    assert (fold_model.threshold, fold_model.blind.threshold, fold_model.unread_threshold) == (
        0.31,
        0.41,
        0.71,
    )
