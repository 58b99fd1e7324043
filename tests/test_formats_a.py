"""Formats A (JMH, JIRA / markdown / HTML / ASCII tables, archery, DataFusion, critcmp,
pytest-benchmark, hyperfine) on what the fixture harness does not cover: the seeds'
blocks, flattened and wrapped variants, headings that name the run, and realistic
noise that must give no measurements."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extract.results.formats import by_name, extract_results
from tests.formats_match import find

SEEDS = Path(__file__).parent / "fixtures" / "seeds"


def seed(prefix: str) -> str:
    return next(SEEDS.glob(f"{prefix}_*.txt")).read_text(encoding="utf-8")


def rows(text: str, fmt: str | None = None) -> list[tuple]:
    return [
        (t.format, m.label, m.variant, m.metric, m.value, m.unit)
        for t in extract_results(text)
        for m in t.measurements
        if fmt is None or t.format == fmt
    ]


def by_format(text: str, fmt: str):
    return [(t, m) for t in extract_results(text) for m in t.measurements if t.format == fmt]


# ---------------------------------------------------------------- seed 000 (Hive, HTML)


def test_seed_000_jmh_results_count_once():
    found = by_format(seed("000"), "jmh")
    scores = [(m.label, m.value, m.unit) for _, m in found if m.metric == "Score"]
    assert scores == [
        ("TableAndPartitionExportBench.BaseBench.parallel", 640.862, "ms/op"),
        ("TableAndPartitionExportBench.BaseBench.serial", 51697.322, "ms/op"),
    ]
    errors = {m.label.rsplit(".", 1)[-1]: m.value for _, m in found if m.metric == "Score error"}
    assert errors == {"parallel": 113.354, "serial": 322.747}
    counts = {m.label.rsplit(".", 1)[-1]: (m.value, m.unit) for _, m in found if m.metric == "Cnt"}
    assert counts == {"parallel": (5.0, "count"), "serial": (5.0, "count")}
    table = next(t for t, _ in found)
    assert [r[1] for r in table.rows] == ["ss", "ss"]  # the mode, kept in the row


def test_flattened_markdown_table_at_the_end_of_the_text():
    text = "No. of Tables | Time taken -- | -- 1000 | 9 sec 2000 | 27 sec "
    got = [(m[1], m[4], m[5]) for m in rows(text, "markdown-table")]
    assert got == [("1000", 9.0, "sec"), ("2000", 27.0, "sec")]


def test_seed_000_flattened_markdown_table():
    found = by_format(seed("000"), "markdown-table")
    times = [(m.metric, m.value, m.unit) for _, m in found]
    assert times == [
        ("Time taken for REPL DUMP", 9.0, "sec"),
        ("Time taken for REPL DUMP", 27.0, "sec"),
    ]
    labels = [m.label for _, m in found]
    assert "Export Service used=Yes" in labels[0] and "Export Service used=No" in labels[1]
    table = found[0][0]
    assert table.columns[0] == "No. of Tables" and table.rows[1] == ["1000", "100", "No", "27 sec"]
    assert table.source(seed("000")).endswith("27 sec")


# ---------------------------------------------------------------- seed 004 (JIRA, wrapped)


def test_seed_004_jira_column_groups():
    found = by_format(seed("004"), "jira-table")
    assert len(found) == 24  # 4 rows x 6 columns; the quoted previous version counts once
    first = found[0][1]
    assert (first.variant, first.metric, first.value, first.unit, first.written) == (
        "GCS / No changes",
        "CPU",
        1430.0,
        "ms",
        "1,430",
    )
    assert first.label == "TeraGen 1TB"
    seen = {(m.variant, m.metric, m.unit, m.value) for _, m in found}
    assert ("HDFS / LongAdder + Per-Thread", "Wall", "ms", 503.7) in seen
    assert ("HDFS / LongAdder", "Wall", "%", 0.146) in seen
    assert ("GCS / LongAdder", "CPU", "%", 0.057) in seen


def test_jira_table_flattened_onto_one_line():
    text = (
        "I ran the patches. || ||Full Path Image||Local Name Image|| % Improvement || "
        "| Image Size | 3.07GB | 2.27GB | -26% | | Load Time | 72sec | 60sec | -17% | "
        "A very nice result."
    )
    got = rows(text, "jira-table")
    assert ("jira-table", "Load Time", None, "Local Name Image", 60.0, "sec") in got
    assert ("jira-table", "Image Size", None, "% Improvement", -26.0, "%") in got
    assert len(got) == 6


def test_jira_markup_in_cells():
    text = "||Test||Before||After||\n|{{read}}|{color:red}1,200 ms{color}|*950 ms*|\n"
    assert rows(text, "jira-table") == [
        ("jira-table", "read", None, "Before", 1200.0, "ms"),
        ("jira-table", "read", None, "After", 950.0, "ms"),
    ]


# ---------------------------------------------------------------- JMH variants


FLAT_JMH = (
    "gitbox commented: Results: Benchmark Mode Cnt Score Error Units "
    "MyBench.read thrpt 10 1234.567 ? 12.345 ops/s MyBench.write thrpt 10 99.5 ? 1.5 ops/s "
    "-- This is an automated message"
)


def test_jmh_flattened_with_mangled_plus_minus():
    got = [(m[1], m[3], m[4], m[5]) for m in rows(FLAT_JMH, "jmh")]
    assert ("MyBench.read", "Score", 1234.567, "ops/s") in got
    assert ("MyBench.write", "Score error", 1.5, "ops/s") in got
    assert all(value != 10.0 or metric == "Cnt" for _, metric, value, _ in got)


def test_jmh_split_header_words_and_html():
    text = (
        "<p><span>Benchmark </span><span> M ode Cnt Score Error Units</span></p>"
        "<p><span>Foo.bar avgt 5 1.25 ± 0.5 us/op</span></p>"
    )
    assert rows(text, "jmh")[0] == ("jmh", "Foo.bar", None, "Score", 1.25, "us/op")


def test_jmh_heading_and_params_make_the_variant():
    text = (
        "Before patch:\n\n"
        "Benchmark            (size)  Mode  Cnt   Score   Error  Units\n"
        "Bench.decode            100  avgt    5  12,345 ± 0,678  ns/op\n"
        "Bench.decode           1000  avgt    5  99,000 ± 1,000  ns/op\n"
    )
    got = rows(text, "jmh")
    assert ("jmh", "Bench.decode", "Before patch / size=100", "Score", 12.345, "ns/op") in got
    assert ("jmh", "Bench.decode", "Before patch / size=1000", "Score", 99.0, "ns/op") in got


def test_jmh_old_samples_header_without_plus_minus():
    text = (
        "Benchmark                 Mode   Samples         Score  Score error    Units\n"
        "o.a.Foo.bar              thrpt        20      1234.567       12.345   ops/ms\n"
    )
    got = rows(text, "jmh")
    assert ("jmh", "o.a.Foo.bar", None, "Score", 1234.567, "ops/ms") in got
    assert ("jmh", "o.a.Foo.bar", None, "Score error", 12.345, "ops/ms") in got
    assert ("jmh", "o.a.Foo.bar", None, "Cnt", 20.0, "count") in got


def test_jmh_result_block_without_table_and_its_statistics():
    text = (
        "Iteration   1: 136657646.789 ops/s\n\n"
        'Result "com.example.TimeZoneBenchmark.after":\n'
        "  139748082.515 ±(99.9%) 49066138.133 ops/s [Average]\n"
        "  (min, avg, max) = (136657646.789, 139748082.515, 141558274.244), stdev = 2689480.597\n"
    )
    got = {(m[3], m[4]) for m in rows(text, "jmh")}
    assert got == {
        ("Score", 139748082.515),
        ("Score error", 49066138.133),
        ("min", 136657646.789),
        ("max", 141558274.244),
        ("stdev", 2689480.597),
    }


def test_jmh_rows_too_small_to_print_do_not_end_the_table():
    text = (
        "Benchmark                      Mode  Cnt   Score   Error   Units\n"
        "Foo.bar                        avgt    5  12.345 ± 0.100   ns/op\n"
        "Foo.bar:·gc.alloc.rate.norm    avgt    5  ≈ 10⁻⁶            B/op\n"
        "Foo.bar:·gc.count              avgt    5     ≈ 0          counts\n"
        "Foo.baz                        avgt    5  10.000 ± 0.200   ns/op\n"
    )
    got = rows(text, "jmh")
    assert ("jmh", "Foo.baz", None, "Score", 10.0, "ns/op") in got
    assert not [r for r in got if r[1].startswith("Foo.bar:")]  # `≈ 0` is not a number


def test_jmh_run_log_alone_gives_nothing():
    text = (
        "# JMH version: 1.37\n# Warmup: 5 iterations, 10 s each\n# Threads: 1 thread\n"
        "# Warmup Iteration   1: 12.3 ops/s\nIteration   1: 13.1 ops/s\n"
    )
    assert rows(text, "jmh") == []


# ---------------------------------------------------------------- markdown variants


def test_markdown_flattened_with_outer_pipes_stops_at_the_table():
    table = "| Query | Before | After | |---|---|---| | q1 | 1.5s | 1.2s | | q2 | 2s | 1s |"
    text = f"Results: {table} thanks!"
    tables = [t for t in extract_results(text) if t.format == "markdown-table"]
    assert len(tables) == 1
    assert tables[0].source(text) == table
    assert ("markdown-table", "q2", "Results", "After", 1.0, "s") in rows(text, "markdown-table")


def test_flattened_bold_heading_names_the_run():
    text = (
        "Bot report. **tpcds — branch** | Metric | Value | |---|---| | Wall time | 50.0s | "
        "| Peak memory | 2.0 GiB | **tpcds — base** | Metric | Value | |---|---| "
        "| Wall time | 51.5s |"
    )
    got = rows(text, "markdown-table")
    assert ("markdown-table", "Peak memory", "tpcds — branch", "Value", 2.0, "GiB") in got
    assert ("markdown-table", "Wall time", "tpcds — base", "Value", 51.5, "s") in got


def test_markdown_heading_names_the_run_and_header_gives_the_unit():
    text = (
        "With 4 MM threads:\n\n"
        "| Benchmark | Best Time(ms) | Rate(M/s) |\n|---|---:|---:|\n| scan | 1,430 | 22.5 |\n"
    )
    got = rows(text, "markdown-table")
    assert ("markdown-table", "scan", "With 4 MM threads", "Best Time", 1430.0, "ms") in got
    assert ("markdown-table", "scan", "With 4 MM threads", "Rate", 22.5, "M/s") in got


def test_heading_above_a_code_fence_names_the_run():
    text = (
        "Before patch:\n{code}\n"
        "Benchmark        Mode  Cnt   Score   Error  Units\n"
        "Bench.read      thrpt    5  10.500 ± 0.100  ops/s\n{code}\n\n"
        "After patch:\n```\n"
        "Benchmark        Mode  Cnt   Score   Error  Units\n"
        "Bench.read      thrpt    5  12.500 ± 0.100  ops/s\n```\n"
    )
    got = [(m[2], m[4]) for m in rows(text, "jmh") if m[3] == "Score"]
    assert got == [("Before patch", 10.5), ("After patch", 12.5)]


def test_html_table_rendered_as_pipes_by_the_parser():
    # extract.mail.message renders <table> as pipe rows with a separator after the first row
    text = "| query | before | after |\n|---|---|---|\n| q1 | 10.5 s | 9.1 s |"
    assert ("markdown-table", "q1", None, "after", 9.1, "s") in rows(text)


# ---------------------------------------------------------------- noise: no measurements

NOISE = {
    "versions table": "| Component | Version |\n|---|---|\n| Hadoop | 3.3.6 |\n| Hive | 4.0.1 |",
    "jira config table": "||Property||Default||\n|dfs.replication|3|\n|io.file.buffer.size|4096|",
    "mysql data box": (
        "+-------+-------+\n| side1 | side2 |\n+-------+-------+\n|     3 |     4 |\n"
        "|     6 |     5 |\n+-------+-------+\n"
    ),
    "release vote list": "Checked:\n  sha512   ok\n  gpg      ok\n  build    ok\n",
    "dates and ids": (
        "| Issue | Created |\n|---|---|\n| HIVE-12345 | 2023-01-05 |\n| HIVE-12346 | 2023-02-11 |"
    ),
    "whitespace config listing": "Name          Value\nthreads       8\nbatch.size    16384\n",
    "pr checklist": "| | Check |\n|---|---|\n| 1 | tests pass |\n| 2 | docs |",
}


@pytest.mark.parametrize("name", sorted(NOISE))
def test_noise_gives_no_measurements_from_formats_a(name):
    mine = {
        "jmh",
        "jira-table",
        "markdown-table",
        "html-table",
        "ascii-table",
        "archery",
        "datafusion-bench",
        "critcmp",
        "pytest-benchmark",
        "hyperfine",
    }
    got = [r for r in rows(NOISE[name]) if r[0] in mine]
    assert got == []


# ---------------------------------------------------------------- tool tables


def test_whitespace_columns_use_alignment_not_single_spaces():
    text = (
        "Numbers from the bench run\n\n"
        "benchmark           before            after\n"
        "scan/1       812.047 MiB/sec    1.755 GiB/sec\n"
        "scan/2       683.943 MiB/sec    1.253 GiB/sec\n"
    )
    got = rows(text, "ascii-table")
    run = "Numbers from the bench run"  # the heading line names the run
    assert ("ascii-table", "scan/1", run, "before", 812.047, "MiB/s") in got
    assert ("ascii-table", "scan/2", run, "after", 1.253, "GiB/s") in got


def test_box_drawing_table_with_units_in_cells():
    text = (
        "┌────────┬──────────┐\n│ query  │ time     │\n├────────┼──────────┤\n"
        "│ q1     │ 12.5 ms  │\n│ q2     │ 7 ms     │\n└────────┴──────────┘\n"
    )
    assert ("ascii-table", "q2", None, "time", 7.0, "ms") in rows(text)


def test_hyperfine_single_run_and_dfbench_in_seconds():
    text = (
        "Benchmark 1: sleep 0.3\n"
        "  Time (abs ≡):        302.1 ms               [User: 0.6 ms, System: 1.2 ms]\n\n"
        "Query 7 iteration 0 took 1.250 s and returned 10 rows\nQuery 7 avg time: 1.250 s\n"
    )
    got = rows(text)
    assert ("hyperfine", "sleep 0.3", None, "mean", 302.1, "ms") in got
    assert ("datafusion-bench", "Query 7", None, "avg time", 1.25, "s") in got


@pytest.mark.parametrize(
    "module",
    ["jmh", "jira-table", "markdown-table", "html-table", "ascii-table", "archery",
     "datafusion-bench", "critcmp", "pytest-benchmark", "hyperfine"],
)  # fmt: skip
def test_parsers_survive_odd_input(module):
    parse = by_name(module).parse
    odd = [
        "",
        "|",
        "||",
        "| a |\n|---|",
        "<table><tr><td>1</td>",
        'Result "x": ',
        '{"jmhVersion": ',
        "Benchmark Mode Cnt Score Error Units",
        "┏━━┳━━┓\n┃ Query ┃",
        "name (time in ms) Min\n",
        "-- | -- " * 50,
        "\x00\ufffd" * 100,
    ]
    for text in odd:
        assert isinstance(parse(text), list)


# ---------------------------------------------------------------- flattened GitBox mail

FIXTURES = Path(__file__).parent / "fixtures" / "formats"
FLATTENED_CASES = [
    "archery-benchmark-diff--arrow-pr7316-rst-table",
    "archery-benchmark-diff--arrow-pr9985-nonregressions",
    "whitespace-columns--arrow-pr7516-pandas-table",
    "critcmp--arrow-rs-pr6118-critcmp",
    "datafusion-compare--datafusion-pr21084-minmeanmax",
    "datafusion-compare--datafusion-pr24366-summary-box",
    "datafusion-compare--datafusion-pr9015-tpch-mem",
    "datafusion-dfbench--datafusion-issue2706-tpch-q1",
    "datafusion-dfbench--datafusion-pr15381-clickbench-q1",
    "pytest-benchmark--issue120-relative",
    "pytest-benchmark--issue187-single-with-time",
    "hyperfine--readme-export-markdown",
    "hyperfine--uv-pr819-terminal",
    "jmh--james-mime4j-pr73-gc-profiler",
    "jmh--jmh-golden-text-root",
    "jmh--jmh-golden-text-ru",
    "jmh--log4j2-cloud-md-outputbenchmark",
    "jmh--jmh-golden-json-element",
    "markdown-pipe-table--datafusion-pr25487-resource-usage",
    "markdown-pipe-table--spark-pr1390-composite-cells",
    "markdown-pipe-table--spark-pr40555-tpcds-gfm-no-outer-pipes",
    "markdown-pipe-table--spark-pr40713-tpcds",
]


@pytest.mark.parametrize("case", FLATTENED_CASES)
def test_fixture_flattened_onto_one_line(case):
    """GitBox mail puts a whole GitHub comment on one line: the same rows must be found."""
    text = " ".join((FIXTURES / f"{case}.txt").read_text(encoding="utf-8").split())
    expect = json.loads((FIXTURES / f"{case}.expect.json").read_text(encoding="utf-8"))
    tables = extract_results(text)
    missing = [row for row in expect["rows"] if find(row, tables) is None]
    assert not missing


MINE = ["jmh", "jira-table", "markdown-table", "html-table", "ascii-table", "archery",
        "datafusion-bench", "critcmp", "pytest-benchmark", "hyperfine"]  # fmt: skip
PATHOLOGICAL = {
    # the registry blanks claimed spans, so long runs of spaces are common input
    "spaces before a table": " " * 60000 + "| a | b |\n|---|---|\n| x | 1 ms |",
    "repeated critcmp header word": "group " * 10000,
    "repeated JMH header word": "Benchmark " * 6000,
    "pipes": "||" * 30000,
    "dashes": "-" * 60000,
    "box bars": "│ " * 30000,
}


@pytest.mark.parametrize("name", sorted(PATHOLOGICAL))
def test_parsers_stay_linear_on_pathological_input(name):
    import time

    start = time.perf_counter()
    for module in MINE:
        by_name(module).parse(PATHOLOGICAL[name])
    # quadratic regex backtracking took 10+ s here; linear parsing takes milliseconds
    assert time.perf_counter() - start < 5.0
