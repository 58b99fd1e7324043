"""google-benchmark: console tables, JSON/CSV exports and compare.py, as Google
Benchmark 1.7.1 printed them here (tests/fixtures/tools/google_benchmark.sh)."""

import json
import math

import pytest

from extract.results.formats import by_name, extract_results, run
from extract.results.formats._grid import norm_unit
from tests.conftest import shared_path
from tests.formats.golden import FIXTURES, rows_of, text_of

PARSER = by_name("google-benchmark")


@pytest.mark.parametrize("damage", ["crlf", "gitbox-indent", "flattened", "wrapped72"])
def test_mail_damage_reads_like_the_clean_console(damage):
    clean = rows_of(text_of("google-benchmark--console"))
    assert rows_of(text_of(f"google-benchmark--console-{damage}")) == clean


def _by(rows, label, metric):
    return [r for r in rows if r["label"] == label and r["metric"] == metric]


def test_console_and_json_of_one_run_agree():
    """The console's rounded numbers are the JSON export's, and `G/s` of bytes is GiB/s."""
    text = text_of("google-benchmark--console-with-json")
    console, exported = [t for t in run(PARSER, text) if t.measurements]
    assert "{" not in console.source(text) and exported.source(text).startswith("{")
    data = json.loads(text[text.index("{") :])
    for bench in data["benchmarks"]:
        shown = {m.metric: m for m in console.measurements if m.label == bench["name"]}
        for metric, key in (("time", "real_time"), ("cpu", "cpu_time")):
            assert shown[metric].unit == bench["time_unit"]
            assert math.isclose(shown[metric].value, bench[key], rel_tol=5e-3)
        assert shown["iterations"].value == bench["iterations"]
        if "bytes_per_second" in bench:
            assert shown["bytes_per_second"].unit == "G/s"  # as printed by 1.7, but: 2**30
            assert math.isclose(shown["bytes_per_second"].value * 2**30,
                                bench["bytes_per_second"], rel_tol=1e-4)  # fmt: skip
            assert shown["items_per_second"].unit == "G/s"
            assert math.isclose(shown["items_per_second"].value * 1e9,
                                bench["items_per_second"], rel_tol=1e-4)  # fmt: skip
        if "joins_rate" in bench:
            assert shown["joins_rate"].unit == "k/s"
            assert math.isclose(shown["joins_rate"].value * 1e3, bench["joins_rate"], rel_tol=1e-4)
            assert (shown["parts"].value, shown["parts"].unit) == (bench["parts"], "")


def test_json_export_units():
    rows = rows_of(text_of("google-benchmark--json"))
    (bps,) = _by(rows, "BM_SumVector/64", "bytes_per_second")
    assert bps["unit"] == "B/s" and bps["value"] > 1e9
    assert _by(rows, "BM_SumVector/64", "items_per_second")[0]["unit"] == "/s"
    (parts,) = _by(rows, "BM_StringJoin/16", "parts")
    assert (parts["value"], parts["unit"]) == (16.0, "")
    assert not [r for r in rows if r["metric"] in ("family_index", "threads", "repetitions")]


def test_json_export_flattened_and_cv_fractions():
    text = text_of("google-benchmark--json")
    flat = " ".join(text.split())
    assert rows_of(flat) == rows_of(text)
    export = (
        '{"context": {"date": "x"}, "benchmarks": [{"name": "BM_A_cv", "run_type": "aggregate",'
        ' "aggregate_name": "cv", "aggregate_unit": "percentage", "iterations": 3,'
        ' "real_time": 0.0291, "cpu_time": 0.0263, "time_unit": "ns"},'
        ' {"name": "BM_B", "error_occurred": true, "error_message": "boom", "iterations": 0,'
        ' "real_time": 0, "cpu_time": 0, "time_unit": "ns"}]}'
    )
    got = [
        (m.label, m.metric, m.value, m.unit) for t in run(PARSER, export) for m in t.measurements
    ]
    assert ("BM_A_cv", "time", 0.0291, "fraction") in got
    assert not [g for g in got if g[0] == "BM_B"]  # a run that failed gives nothing


def test_csv_export_with_user_counters():
    rows = rows_of(text_of("google-benchmark--csv"))
    assert {r["label"] for r in rows} == {"BM_StringJoin/16", "BM_StringJoin/256"}
    (rate,) = _by(rows, "BM_StringJoin/16", "joins_rate")
    assert rate["value"] > 1e5 and rate["unit"] == ""
    assert _by(rows, "BM_StringJoin/256", "time")[0]["unit"] == "ns"
    assert not _by(rows, "BM_StringJoin/16", "bytes_per_second")  # empty cell


def test_compare_units_come_from_each_benchmarks_own_run():
    rows = rows_of(text_of("google-benchmark--compare"))
    assert _by(rows, "BM_SortSmall", "time_old")[0]["unit"] == "us"
    assert _by(rows, "BM_SumVector/64", "cpu_new")[0]["unit"] == "ns"
    geo = [r["metric"] for r in rows if r["label"] == "OVERALL_GEOMEAN"]
    assert geo == ["time_change", "cpu_change"]  # its times are seconds printed as 0


def test_compare_utest_rows_do_not_end_the_table():
    tables = [t for t in run(PARSER, text_of("google-benchmark--compare-utest")) if t.measurements]
    (table,) = tables
    got = {(m.label, m.metric): (m.value, m.unit) for m in table.measurements}
    assert got[("BM_SortSmall_pvalue", "cpu_pvalue")][1] is None
    assert ("BM_SortSmall_pvalue", "time_old") not in got
    assert ("BM_SortSmall_cv", "time_change") in got  # rows after a p-value row
    assert table.caption.startswith("Comparing ")


def test_context_lines_are_claimed_and_not_headings():
    text = text_of("google-benchmark--console")
    empty = [t.source(text) for t in run(PARSER, text) if not t.measurements]
    assert any(s.startswith("Run on (") for s in empty)
    assert any(s.startswith("Load Average:") for s in empty)
    release = text.replace("***WARNING*** Library was built as DEBUG. Timings may be affected.\n",
                           "")  # fmt: skip
    assert {r["variant"] for r in rows_of(release)} == {None}  # not "Load Average: ..."
    assert {r["variant"] for r in rows_of("Before:\n" + release.split("\n", 10)[-1])} == {"Before"}


def test_repetition_aggregates_stay_one_table():
    text = text_of("google-benchmark--repetitions")
    (table,) = [t for t in run(PARSER, text) if t.measurements]
    assert len(table.rows) == 14
    cv = [(m.metric, m.unit) for m in table.measurements if m.label == "BM_SortSmall_cv"]
    assert ("time", "%") in cv and ("iterations", "count") in cv


def test_counter_suffixes():

    text = (
        "Benchmark          Time             CPU   Iterations UserCounters...\n"
        "BM_Parse/64     19.5 us         19.5 us        35854 bytes_per_second=50.1736Gi/s "
        "items_per_second=13.4684G/s size=1.04858M Foo=1024m\n"
        "BM_Parse/128    38.1 us         38.0 us        18200 bytes_per_second=51.0301Gi/s "
        "items_per_second=13.6617G/s size=2.09715M Foo=2048m\n"
    )
    first = {m.metric: (m.value, m.unit) for t in run(PARSER, text) for m in t.measurements
             if m.row == 0}  # fmt: skip
    assert first["bytes_per_second"] == (50.1736, "GiB/s")
    assert first["items_per_second"] == (13.4684, "G/s")
    assert first["size"] == (pytest.approx(1048580), "")
    assert first["Foo"] == (pytest.approx(1.024), "")  # `m` is milli in Google Benchmark


def test_a_lone_headerless_row_in_prose_is_not_a_table():
    assert not extract_results("It printed BM_X 12 ns 11 ns 1000 and then crashed.")


def test_crlf_as_sent():
    """The harness reads fixtures with universal newlines; this reads the CRLF bytes."""
    raw = (FIXTURES / "google-benchmark--console-crlf.txt").read_bytes().decode("utf-8")
    assert "\r\n" in raw
    assert rows_of(raw) == rows_of(text_of("google-benchmark--console"))


@pytest.mark.shared
@pytest.mark.parametrize(
    "folder,sample",
    [
        ("google-benchmark", "arrow-issue39664-counters"),
        ("google-benchmark", "tools-compare-py"),
        ("google-benchmark", "user-counters"),
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
             if r["format"] in ('google-benchmark',)}  # fmt: skip
    missing = [
        r
        for r in expect["rows"]
        if (round(r["value"], 6), norm_unit(r.get("unit")) or "") not in found
    ]
    assert not missing


def test_the_run_context_holds_numbers_not_versions():
    # the context lines above a table are claimed with it; `1.2.3` is no load average
    table = (
        "Benchmark         Time             CPU   Iterations\n"
        "---------------------------------------------------\n"
        "BM_Sort        19.5 us         19.5 us        35854\n"
    )
    claimed = [t for t in PARSER.parse("Load Average: 0.52, 0.58\n" + table) if not t.rows]
    assert len(claimed) == 1
    assert [t for t in PARSER.parse("Load Average: 1.2.3\n" + table) if not t.rows] == []


def test_a_change_that_only_looks_like_a_number_gives_none():
    # `--0.2895` is no change compare.py prints: that cell gives nothing, its row's
    # other cells and the other rows are read
    text = text_of("google-benchmark--compare").replace("-0.2895", "--0.2895")
    got = {(r["label"], r["metric"]) for r in rows_of(text) if r["format"] == "google-benchmark"}
    assert ("BM_SumVector/4096", "time_change") not in got
    assert {("BM_SumVector/4096", "cpu_change"), ("BM_SumVector/64", "time_change")} <= got
