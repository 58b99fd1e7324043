"""datafusion-bench: compare.py tables (rendered by rich, tests/fixtures/tools/
datafusion_compare.py) and dfbench run lines."""

import json

import pytest

from extract.results.formats import by_name, extract_results, run
from extract.results.formats._grid import norm_unit
from tests.conftest import shared_path
from tests.formats.golden import rows_of, text_of

PARSER = by_name("datafusion-bench")


@pytest.mark.parametrize(
    "base,damaged",
    [("compare", "compare-flattened"), ("compare", "compare-gitbox"),
     ("compare", "compare-mojibake"), ("compare-minmeanmax", "compare-minmeanmax-flattened"),
     ("dfbench-run", "dfbench-run-flattened"), ("dfbench-run", "dfbench-run-wrapped72")],
)  # fmt: skip
def test_mail_damage_reads_the_same(base, damaged):
    clean = rows_of(text_of(f"datafusion-bench--{base}"))
    assert rows_of(text_of(f"datafusion-bench--{damaged}")) == clean


def test_compare_and_summary_are_two_tables():
    text = text_of("datafusion-bench--compare")
    tables = [t for t in run(PARSER, text) if t.measurements]
    assert [t.columns[0] for t in tables] == ["Query", "Benchmark Summary"]
    got = {(m.label, m.metric, m.variant): (m.value, m.unit) for t in tables
           for m in t.measurements}  # fmt: skip
    assert got[("QQuery 3", "change", None)] == (1.21, "x faster")
    assert got[("QQuery 5", "change", None)] == (1.07, "x slower")
    assert not [k for k in got if k[0] == "QQuery 1" and k[1] == "change"]  # `no change`
    assert got[("Total Time (sort-pushdown)", "Total Time", "sort-pushdown")] == (789.43, "ms")
    assert got[("Queries with No Change", "count", None)] == (3.0, "count")


def test_min_mean_max_cells():
    got = {(r["label"], r["variant"], r["metric"]): r["value"] for r in
           rows_of(text_of("datafusion-bench--compare-minmeanmax"))}  # fmt: skip
    assert got[("QQuery 1", "main", "stddev")] == 0.8
    assert got[("QQuery 2", "sort-pushdown", "max")] == 15.33


def test_run_lines():
    rows = rows_of(text_of("datafusion-bench--dfbench-run"))
    assert [r["metric"] for r in rows] == ["iteration 0", "rows returned", "iteration 1",
                                           "iteration 2", "avg time"]  # fmt: skip
    assert {r["label"] for r in rows} == {"tpch Query 3"}


def test_run_lines_in_seconds():

    text = "Query 7 iteration 0 took 1.250 s and returned 10 rows\nQuery 7 avg time: 1.250 s\n"
    got = [(m.label, m.metric, m.value, m.unit) for t in extract_results(text)
           for m in t.measurements]  # fmt: skip
    assert ("Query 7", "avg time", 1.25, "s") in got


@pytest.mark.shared
@pytest.mark.parametrize(
    "folder,sample",
    [
        ("datafusion-compare", "datafusion-pr21084-minmeanmax"),
        ("datafusion-compare", "datafusion-pr24366-summary-box"),
        ("datafusion-compare", "datafusion-pr9015-tpch-mem"),
        ("datafusion-dfbench", "datafusion-issue2706-tpch-q1"),
        ("datafusion-dfbench", "datafusion-pr15381-clickbench-q1"),
    ],
)
def test_third_party_samples(folder, sample):
    """Real pastes, read where they live (../shared/formats; not copied here): the
    values their expect file lists come from this format (a negative gives nothing)."""
    path = shared_path("formats", folder, f"{sample}.txt")
    expect = json.loads(path.with_suffix(".expect.json").read_text(encoding="utf-8"))
    rows = rows_of(path.read_text(encoding="utf-8"))
    if expect.get("negative"):
        assert rows == []
        return
    found = {(round(r["value"], 6), norm_unit(r["unit"]) or "") for r in rows
             if r["format"] in ('datafusion-bench',)}  # fmt: skip
    missing = [
        r
        for r in expect["rows"]
        if (round(r["value"], 6), norm_unit(r.get("unit")) or "") not in found
    ]
    assert not missing
