"""The database views: benchmark_messages, comparisons (the pairing rule), by_project."""

from __future__ import annotations

import duckdb
import pytest

from extract.db import findings
from extract.db.views import VIEW_NAMES, create_views
from tests.outputs.report_db import make_db, measurement, message


def _con(tmp_path, messages, tables=(), measurements=()):
    path = make_db(tmp_path / "t.duckdb", messages, tables, measurements)
    con = duckdb.connect(str(path))
    create_views(con)
    return con


def _pairs(con, key):
    return con.execute(
        "SELECT label, metric, before, after, before_value, after_value, ratio, better, rule "
        "FROM comparisons WHERE msg_key = ? ORDER BY after",
        [key],
    ).fetchall()


def test_views_exist_and_can_be_recreated(tmp_path):
    con = _con(tmp_path, [message("a")])
    create_views(con)  # idempotent: the store, the report and the export all call it
    names = {
        r[0]
        for r in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_type = 'VIEW'"
        ).fetchall()
    }
    assert names == set(VIEW_NAMES) | set(findings.VIEW_NAMES)


def test_before_after_variants_pair_with_ratio_in_si_units(tmp_path):
    ms = [
        measurement("a", 0, label="Foo.bar", variant="Before patch", value=1500, unit="ms",
                    value_si=1.5, unit_si="s"),
        measurement("a", 1, label="Foo.bar", variant="After patch", value=1.2, unit="s",
                    value_si=1.2, unit_si="s"),
    ]  # fmt: skip
    con = _con(tmp_path, [message("a")], measurements=ms)
    [(label, metric, before, after, bv, av, ratio, better, rule)] = _pairs(con, "a")
    assert (label, metric, before, after) == ("Foo.bar", "Score", "Before patch", "After patch")
    assert (bv, av) == (1.5, 1.2)  # in the after's unit (the before was written 1500 ms)
    assert ratio == pytest.approx(0.8)  # compared in seconds
    assert better is True and rule == "variants"


def test_a_variant_named_like_a_baseline_is_the_baseline_even_when_written_second(tmp_path):
    ms = [
        measurement("a", 0, label="q1", variant="PR", value=30, unit="ops/s", value_si=30,
                    unit_si="1/s"),
        measurement("a", 1, label="q1", variant="master", value=20, unit="ops/s", value_si=20,
                    unit_si="1/s"),
    ]  # fmt: skip
    con = _con(tmp_path, [message("a")], measurements=ms)
    [(_, _, before, after, _, _, ratio, better, _)] = _pairs(con, "a")
    assert (before, after) == ("master", "PR")
    assert ratio == pytest.approx(1.5)
    assert better is True  # a rate: higher is better


def test_multi_variant_results_pair_only_against_a_named_baseline(tmp_path):
    def runs(key, names):
        return [
            measurement(key, i, label="write", variant=v, value=x, unit="s", value_si=x,
                        unit_si="s")
            for i, (v, x) in enumerate(zip(names, (8.0, 2.0, 1.0), strict=True))
        ]  # fmt: skip

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    # a table of variants is not ranked against its first row
    con = _con(tmp_path / "a", [message("a")], measurements=runs("a", ["1", "4", "16"]))
    assert _pairs(con, "a") == []
    # one named as the baseline: each other against it
    ms = runs("b", ["baseline", "4 threads", "16 threads"])
    con = _con(tmp_path / "b", [message("b")], measurements=ms)
    assert [(p[2], p[3], p[6]) for p in _pairs(con, "b")] == [
        ("baseline", "16 threads", pytest.approx(0.125)),
        ("baseline", "4 threads", pytest.approx(0.25)),
    ]


def test_before_and_after_columns_of_one_row_pair(tmp_path):
    ms = [
        measurement("a", 0, label="q1", metric="before", value=9, unit="sec", value_si=9,
                    unit_si="s"),
        measurement("a", 1, label="q1", metric="after", value=3, unit="sec", value_si=3,
                    unit_si="s"),
        measurement("a", 2, label="q2", metric="before", value=4, unit="sec", value_si=4,
                    unit_si="s"),
        measurement("a", 3, label="q2", metric="after", value=5, unit="sec", value_si=5,
                    unit_si="s"),
    ]  # fmt: skip
    con = _con(tmp_path, [message("a")], measurements=ms)
    rows = con.execute(
        "SELECT label, ratio, better, rule FROM comparisons WHERE msg_key = 'a' ORDER BY label"
    ).fetchall()
    assert rows == [
        ("q1", pytest.approx(1 / 3), True, "columns"),
        ("q2", pytest.approx(1.25), False, "columns"),
    ]


def test_no_pair_across_units_single_variants_or_messages(tmp_path):
    ms = [
        # different units: no comparison
        measurement("a", 0, label="x", variant="before", value=1, unit="s", value_si=1,
                    unit_si="s"),
        measurement("a", 1, label="x", variant="after", value=1, unit="MB", value_si=1e6,
                    unit_si="B"),
        # one variant only
        measurement("b", 0, label="y", variant="before", value=1, unit="s", value_si=1,
                    unit_si="s"),
        # same label in another message
        measurement("c", 0, label="y", variant="after", value=2, unit="s", value_si=2,
                    unit_si="s"),
    ]  # fmt: skip
    con = _con(tmp_path, [message("a"), message("b"), message("c")], measurements=ms)
    assert con.execute("SELECT count(*) FROM comparisons").fetchone()[0] == 0


def test_benchmark_messages_and_by_project(tmp_path):
    msgs = [
        message("k1", list="issues@kudu.apache.org"),
        message("k2", list="dev@kudu.apache.org", is_benchmark=False),
        message("k3", list="dev@kudu.apache.org", is_benchmark=False),
        message("h1", list="issues@hive.apache.org"),
        message("o1", list="general@apache.org", is_benchmark=False),
    ]
    tables = [{"table_id": "k1#0", "msg_key": "k1", "ordinal": 0, "format": "jmh"}]
    ms = [measurement("k1", i, value=i) for i in range(3)]
    con = _con(tmp_path, msgs, tables, ms)
    bench = con.execute(
        "SELECT msg_key, project, n_tables, n_measurements FROM benchmark_messages ORDER BY 1"
    ).fetchall()
    assert bench == [("h1", "hive", 0, 0), ("k1", "kudu", 1, 3)]
    projects = con.execute(
        "SELECT project, lists, messages, benchmark_messages, benchmark_share, tables, "
        "measurements FROM by_project"
    ).fetchall()
    assert projects == [  # most benchmark messages first, then most messages
        ("kudu", 2, 3, 1, 0.3333, 1, 3),
        ("hive", 1, 1, 1, 1.0, 0, 0),
        ("apache", 1, 1, 0, 0.0, 0, 0),
    ]


def test_run_descriptions_such_as_jmh_cnt_and_error_are_not_compared(tmp_path):
    ms = [
        measurement("a", i, label="Foo.bar", variant=v, metric=metric, value=x, unit=unit)
        for i, (v, metric, x, unit) in enumerate(
            [("before", "Score", 10.0, "ms/op"), ("before", "Cnt", 5, None),
             ("before", "Error", 1.0, "ms/op"), ("after", "Score", 5.0, "ms/op"),
             ("after", "Cnt", 5, None), ("after", "Error", 0.5, "ms/op"),
             ("before", "Stdev(ms)", 3.0, "ms"), ("after", "Stdev(ms)", 1.0, "ms")]
        )
    ]  # fmt: skip
    con = _con(tmp_path, [message("a")], measurements=ms)
    assert con.execute("SELECT metric, ratio FROM comparisons").fetchall() == [("Score", 0.5)]


COMPARISON_COLUMNS = [
    "msg_key", "table_id", "label", "params", "metric", "before", "after", "before_value",
    "after_value", "unit", "unit_si", "ratio", "change_pct", "direction", "change", "noise",
    "comparison", "rule", "better", "threshold", "speedup", "claimed_factor", "claimed_words",
    "claim",
]  # fmt: skip


def test_comparison_columns_are_the_documented_ones(tmp_path):
    """`claims` and the report build on these names (extract/db/views.py docstring)."""
    con = _con(tmp_path, [message("a")])
    got = [r[0] for r in con.execute("DESCRIBE comparisons").fetchall()]
    assert got == COMPARISON_COLUMNS


def test_direction_change_and_noise(tmp_path):
    ms = [
        # a time, with its error: lower is better; 10 % less but ±(0.5 + 0.45) is noise
        measurement("a", 0, label="t", variant="before", value=10.0, unit="s", value_si=10.0,
                    unit_si="s"),
        measurement("a", 1, label="t", variant="before", metric="Score error", value=0.5,
                    unit="s", value_si=0.5, unit_si="s"),
        measurement("a", 2, label="t", variant="after", value=9.0, unit="s", value_si=9.0,
                    unit_si="s"),
        measurement("a", 3, label="t", variant="after", metric="Score error", value=0.45,
                    unit="s", value_si=0.45, unit_si="s"),
        # a rate without an error: higher is better
        measurement("a", 4, label="r", variant="before", value=100.0, unit="ops/s",
                    value_si=100.0, unit_si="1/s"),
        measurement("a", 5, label="r", variant="after", value=90.0, unit="ops/s",
                    value_si=90.0, unit_si="1/s"),
        # a unitless number of unknown meaning: the direction stays unknown
        measurement("a", 6, label="u", variant="before", value=1.0),
        measurement("a", 7, label="u", variant="after", value=2.0),
    ]  # fmt: skip
    con = _con(tmp_path, [message("a")], measurements=ms)
    rows = con.execute(
        "SELECT label, direction, change, noise, comparison, better FROM comparisons ORDER BY label"
    ).fetchall()
    assert rows == [
        ("r", "higher", "regression", None, "before vs after", False),
        ("t", "lower", "within noise", pytest.approx(0.1), "before vs after", None),
        ("u", None, None, None, "before vs after", None),
    ]
