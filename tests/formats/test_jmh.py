"""JMH: the fixtures (runs of the real JMH 1.37, tests/fixtures/tools/jmh/make.sh) and
what they show in general: every form of the output (text table, run log, Result
blocks, CSV/SCSV, JSON) and the damage mail does to it."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import extract_results, run
from tests.conftest import seed
from tests.formats.damage import flatten
from tests.formats.golden import rows_of, text_of


def jmh(text: str) -> list[tuple]:
    """(label, variant, metric, value, unit) of the JMH measurements in `text`."""
    return [
        (m.label, m.variant, m.metric, m.value, m.unit)
        for t in extract_results(text, strict=True)
        if t.format == "jmh"
        for m in t.measurements
    ]


def numbers(text: str) -> list[tuple]:
    """(label, metric, value, unit): what a damaged copy must keep, whatever its heading."""
    return sorted((r[0], r[2], r[3], r[4]) for r in jmh(text))


# ---------------------------------------------------------------- text tables


def test_the_summary_table_gives_score_error_and_count_per_row():
    got = jmh(text_of("jmh--text-thrpt-params"))
    variant = "Throughput with the size @Param / size=64"
    assert ("TextBench.plusConcat", variant, "Score", 0.139, "ops/us") in got
    assert ("TextBench.plusConcat", variant, "Score error", 0.715, "ops/us") in got
    assert ("TextBench.plusConcat", variant, "Cnt", 3.0, "count") in got
    assert len(got) == 4 * 3


@pytest.mark.parametrize(
    "sign", ["±", "?", "Â±", "Ã‚Â±", "\ufffd", "+-", ""], ids=repr
)  # fmt: skip
def test_the_plus_minus_sign_mangled_or_dropped(sign):
    clean = text_of("jmh--text-thrpt-params")
    assert numbers(clean.replace("±", sign)) == numbers(clean)


@pytest.mark.parametrize(
    "case", ["jmh--mangled-question-mark", "jmh--mangled-mojibake", "jmh--mangled-sign-dropped"]
)
def test_mangled_fixtures_give_the_clean_numbers(case):
    assert numbers(text_of(case)) == numbers(text_of("jmh--text-thrpt-params"))


@pytest.mark.parametrize(
    "damage",
    [
        flatten,
        lambda t: t.replace("\n", "\r\n"),
        lambda t: "\n".join("   " + line if line.strip() else line for line in t.split("\n")),
    ],
    ids=["flattened", "crlf", "gitbox-indent"],
)
@pytest.mark.parametrize("case", ["jmh--text-gc-profiler", "jmh--text-sample-percentiles"])
def test_tables_survive_mail_damage(case, damage):
    assert numbers(damage(text_of(case))) == numbers(text_of(case))


def test_rows_hard_wrapped_at_72_columns():
    wrapped = text_of("jmh--wrapped-72")
    assert max(len(line) for line in wrapped.splitlines()) <= 72
    assert numbers(wrapped) == numbers(text_of("jmh--text-gc-profiler"))


def test_profiler_rows_keep_their_own_units_and_a_missing_error_is_no_error():
    got = {(r[0], r[2]): (r[3], r[4]) for r in jmh(text_of("jmh--text-gc-profiler"))}
    assert got["TextBench.builder:gc.alloc.rate.norm", "Score"] == (282.455, "B/op")
    assert got["TextBench.builder:gc.count", "Score"] == (2.0, "counts")
    assert ("TextBench.builder:gc.count", "Score error") not in got


def test_old_and_new_secondary_names_and_scores_too_small_to_print():
    text = (
        "Benchmark                      Mode  Cnt   Score   Error   Units\n"
        "Foo.bar                        avgt    5  12.345 ± 0.100   ns/op\n"
        "Foo.bar:·gc.alloc.rate.norm    avgt    5  ≈ 10⁻⁶            B/op\n"
        "Foo.bar:·gc.count              avgt    5     ≈ 0          counts\n"
        "Foo.bar:gc.time                avgt    5   3.000              ms\n"
        "Foo.baz                        avgt    5  10.000 ± 0.200   ns/op\n"
    )
    got = jmh(text)
    assert ("Foo.baz", None, "Score", 10.0, "ns/op") in got  # the table goes on
    assert ("Foo.bar:gc.time", None, "Score", 3.0, "ms") in got
    assert not [r for r in got if r[0].startswith("Foo.bar:·")]  # `≈ 0` is not a number


def test_a_header_without_the_error_column():
    text = (
        "Benchmark          Mode  Cnt     Score   Units\n"
        "Codec.encode      thrpt    5  1520.330  ops/ms\n"
        "Codec.decode      thrpt    5  1011.004  ops/ms\n"
    )
    assert [r[3] for r in jmh(text) if r[2] == "Score"] == [1520.33, 1011.004]


def test_rows_continued_under_a_heading_without_the_header():
    got = jmh(text_of("jmh--split-by-heading"))
    assert ("TextBench.plusConcat", "with the patch / size=8", "Score", 1.979, "ops/us") in got
    assert ("TextBench.builder", "size=8", "Score", 6.881, "ops/us") in got


def test_a_new_header_is_not_a_heading_of_the_rows_before():
    text = text_of("jmh--text-thrpt-params") + "\n" + text_of("jmh--text-single-shot")
    variants = {r[1] for r in jmh(text)}
    assert "Single shot" in variants and not any(str(v).startswith("Benchmark") for v in variants)


def test_rows_quoted_without_their_header():
    got = jmh(text_of("jmh--headerless-wrapped"))
    assert ("TextBench.builder", "...continuing the runs from above / 64", "Score", 1797.587,
            "ns/op") in got  # fmt: skip
    assert ("TextBench.builder:gc.alloc.rate.norm", "Score", 282.455, "B/op") in [
        (r[0], r[2], r[3], r[4]) for r in got
    ]


def test_headerless_rows_need_a_jmh_unit_and_a_benchmark_name():
    assert jmh("Foo.bar  avgt  5  1.000 ± 0.100  widgets\n") == []
    assert jmh("bar  avgt  5  1.000 ± 0.100  ns/op\n") == []
    assert jmh("Foo.bar  avgt  5  1.000 ± 0.100  ns/op\n") == [
        ("Foo.bar", None, "Score", 1.0, "ns/op"),
        ("Foo.bar", None, "Score error", 0.1, "ns/op"),
        ("Foo.bar", None, "Cnt", 5.0, "count"),
    ]


def test_split_header_words_and_html():
    text = (
        "<p><span>Benchmark </span><span> M ode Cnt Score Error Units</span></p>"
        "<p><span>Foo.bar avgt 5 1.25 ± 0.5 us/op</span></p>"
    )
    assert jmh(text)[0] == ("Foo.bar", None, "Score", 1.25, "us/op")


def test_flattened_gitbox_mail_with_mangled_sign_and_prose_around():
    text = (
        "gitbox commented: Results: Benchmark Mode Cnt Score Error Units "
        "MyBench.read thrpt 10 1234.567 ? 12.345 ops/s MyBench.write thrpt 10 99.5 ? 1.5 ops/s "
        "-- This is an automated message"
    )
    got = jmh(text)
    assert ("MyBench.read", "Score", 1234.567, "ops/s") in [(r[0], r[2], r[3], r[4]) for r in got]
    assert ("MyBench.write", "Score error", 1.5, "ops/s") in [(r[0], r[2], r[3], r[4]) for r in got]
    assert all(r[3] != 10.0 or r[2] == "Cnt" for r in got)


def test_heading_and_params_make_the_variant_with_decimal_commas():
    text = (
        "Before patch:\n\n"
        "Benchmark            (size)  Mode  Cnt   Score   Error  Units\n"
        "Bench.decode            100  avgt    5  12,345 ± 0,678  ns/op\n"
        "Bench.decode           1000  avgt    5  99,000 ± 1,000  ns/op\n"
    )
    got = jmh(text)
    assert ("Bench.decode", "Before patch / size=100", "Score", 12.345, "ns/op") in got
    assert ("Bench.decode", "Before patch / size=1000", "Score", 99.0, "ns/op") in got


def test_heading_above_a_code_fence_names_the_run():
    text = (
        "Before patch:\n{code}\n"
        "Benchmark        Mode  Cnt   Score   Error  Units\n"
        "Bench.read      thrpt    5  10.500 ± 0.100  ops/s\n{code}\n\n"
        "After patch:\n```\n"
        "Benchmark        Mode  Cnt   Score   Error  Units\n"
        "Bench.read      thrpt    5  12.500 ± 0.100  ops/s\n```\n"
    )
    got = [(r[1], r[3]) for r in jmh(text) if r[2] == "Score"]
    assert got == [("Before patch", 10.5), ("After patch", 12.5)]


def test_the_last_line_of_the_run_logs_notes_is_no_heading():
    variants = {r[1] for r in jmh(text_of("jmh--verbose-avgt")) if r[0] == "SumBench.loopSum"}
    assert variants == {None}


# ---------------------------------------------------------------- the run log


def test_verbose_log_counts_each_result_once():
    got = jmh(text_of("jmh--verbose-avgt"))
    scores = [r for r in got if r[2] == "Score" and r[3] == 906.085]
    assert len(scores) == 1  # in the table and the Result block: stored once
    assert ("bench.SumBench.loopSum", None, "stdev", 300.574, "ns/op") in got
    iterations = [(r[0], r[3]) for r in got if r[0].startswith("Iteration")]
    assert iterations == [("Iteration 1", 1246.399), ("Iteration 2", 676.894),
                          ("Iteration 3", 794.964)]  # fmt: skip
    assert 3396.62 not in [r[3] for r in got]  # the warmup iteration


def test_verbose_log_flattened_or_indented_keeps_its_numbers():
    text = text_of("jmh--verbose-avgt")
    indented = "\n".join("   " + line if line.strip() else line for line in text.split("\n"))
    assert numbers(flatten(text)) == numbers(text)
    assert numbers(indented) == numbers(text)


def test_run_log_settings_are_claimed_so_no_other_parser_reads_them():
    assert rows_of(text_of("jmh--run-settings-only")) == []
    tables = run("jmh", text_of("jmh--run-settings-only"))
    assert tables and all(not t.measurements for t in tables)


def test_iterations_need_the_run_logs_benchmark_line():
    text = (
        "# JMH version: 1.37\n# Warmup: 5 iterations, 10 s each\n# Threads: 1 thread\n"
        "# Warmup Iteration   1: 12.3 ops/s\nIteration   1: 13.1 ops/s\n"
    )
    assert jmh(text) == []
    assert not [t for t in run("jmh", text) if t.measurements]


def test_result_block_without_table_and_its_statistics():
    text = (
        "Iteration   1: 136657646.789 ops/s\n\n"
        'Result "com.example.TimeZoneBenchmark.after":\n'
        "  139748082.515 ±(99.9%) 49066138.133 ops/s [Average]\n"
        "  (min, avg, max) = (136657646.789, 139748082.515, 141558274.244), stdev = 2689480.597\n"
    )
    got = {(r[2], r[3]) for r in jmh(text)}
    assert got == {
        ("Score", 139748082.515),
        ("Score error", 49066138.133),
        ("min", 136657646.789),
        ("max", 141558274.244),
        ("stdev", 2689480.597),
    }


@pytest.mark.parametrize("sign", ["±(", "?", "?(", "(", "Â±("], ids=repr)
def test_result_block_with_a_mangled_sign(sign):
    text = (
        'Result "org.example.ChompBench.chompNew":\n'
        f"  3.125 {sign}99.9%) 0.042 ns/op [Average]\n\n"
        "  (min, avg, max) = (3.080, 3.125, 3.201), stdev = 0.031\n"
        "  CI (99.9%): [3.083, 3.167] (assumes normal distribution)\n"
    )
    got = {(r[2], r[3]) for r in jmh(text)}
    assert {("Score", 3.125), ("Score error", 0.042), ("stdev", 0.031)} <= got
    assert 3.083 not in {v for _, v in got}  # the confidence interval is derived


def test_result_block_wrapped_at_72_columns():
    text = (
        'Result "org.example.ChompBench.chompNew":\r\n'
        "  139748082.515 ±(99.9%) 49066138.133 ops/s [Average]\r\n"
        "  (min, avg, max) = (136657646.789, 139748082.515,\r\n141558274.244), stdev\r\n"
        "= 2689480.597\r\n"
    )
    assert ("stdev", 2689480.597) in {(r[2], r[3]) for r in jmh(text)}


def test_secondary_result_blocks_are_read_and_not_counted_twice():
    blocks = text_of("jmh--result-blocks-secondary")
    got = jmh(blocks)
    label = "bench.TextBench.builder:gc.alloc.rate"
    assert (label, None, "Score", 160.869, "MB/sec") in got
    assert (label, None, "stdev", 70.024, "MB/sec") in got
    # with the summary table of the same run, the table's rows are the results
    both = jmh(blocks + "\n\n" + text_of("jmh--text-gc-profiler"))
    assert [r[3] for r in both if r[2] == "Score" and r[3] == 160.869] == [160.869]
    assert (label, None, "stdev", 70.024, "MB/sec") in both


def test_sample_mode_block_gives_its_percentiles_once():
    block = text_of("jmh--result-block-sample")
    got = {(r[2], r[3]) for r in jmh(block)}
    assert {("Cnt", 8948.0), ("p50", 391.0), ("p99.9", 35881.6), ("p100", 40239104.0)} <= got
    assert 8945.0 not in {v for _, v in got}  # histogram counts are not results
    both = jmh(block + "\n\n" + text_of("jmh--text-sample-percentiles"))
    assert [r for r in both if r[2].startswith("p")] == []  # the table has them


# ---------------------------------------------------------------- CSV / SCSV / JSON


def test_csv_params_threads_and_samples():
    got = jmh(text_of("jmh--csv-params"))
    variant = "results.csv / size=64"
    assert ("bench.TextBench.plusConcat", variant, "Score", 8603.246036, "ns/op") in got
    assert ("bench.TextBench.plusConcat", variant, "Threads", 1.0, "count") in got


@pytest.mark.parametrize(
    "damage",
    [
        flatten,
        lambda t: t.replace("\n", "\r\n"),
        lambda t: "\n".join("   " + line if line.strip() else line for line in t.split("\n")),
        lambda t: t.replace('"Score Error (99.9%)"', '"Score Error\n(99.9%)"').replace(
            '"Param: size"', '"Param:\nsize"'
        ),
    ],
    ids=["flattened", "crlf", "gitbox-indent", "wrapped-header"],
)
@pytest.mark.parametrize("case", ["jmh--csv-params", "jmh--scsv-params", "jmh--csv-decimal-comma"])
def test_csv_survives_mail_damage(case, damage):
    assert numbers(damage(text_of(case))) == numbers(text_of(case))


def test_csv_record_cut_off_keeps_the_complete_ones():
    text = text_of("jmh--csv-params")
    cut = text[: text.index("919.691316")]
    got = [r for r in jmh(cut) if r[2] == "Score"]
    assert [r[3] for r in got] == [204.213532, 1752.327392]


def test_json_secondary_metrics_and_nan_errors():
    got = jmh(text_of("jmh--json-gc-profiler"))
    assert ("bench.TextBench.builder:gc.count", "size=64", "Score", 2.0, "counts") in got
    assert not [r for r in got if r[0].endswith("gc.count") and r[2] == "Score error"]  # "NaN"


def test_json_flattened():
    text = text_of("jmh--json-params")
    assert numbers(flatten(text)) == numbers(text)


def test_flat_records_one_a_line_flattened_and_cut():
    text = text_of("jmh--json-flat-records")
    got = jmh(text)
    assert ("org.example.BitsetBench.union", "Throughput-rows-100000", "p99", 3.4, "ops/us") in got
    # the cut record keeps its complete fields, and no more
    cut = [r for r in got if r[1] == "AverageTime-rows-1000"]
    assert {r[2] for r in cut} == {"Score", "Cnt"}
    assert numbers(flatten(text)) == numbers(text)


def test_flattened_rows_continued_under_a_short_heading():
    text = flatten(text_of("jmh--split-by-heading"))
    got = jmh(text)
    assert ("TextBench.plusConcat", "with the patch / size=64", "Score", 0.139, "ops/us") in got
    assert numbers(text) == numbers(text_of("jmh--split-by-heading"))


def test_flattened_rows_without_header():
    text = flatten(text_of("jmh--headerless-wrapped"))
    assert numbers(text) == numbers(text_of("jmh--headerless-wrapped"))


# ---------------------------------------------------------------- seeds and noise


def test_seed_000_results_count_once():
    found = [
        (t, m) for t in extract_results(seed("000")) if t.format == "jmh" for m in t.measurements
    ]
    scores = [(m.label, m.value, m.unit) for _, m in found if m.metric == "Score"]
    assert scores == [
        ("TableAndPartitionExportBench.BaseBench.parallel", 640.862, "ms/op"),
        ("TableAndPartitionExportBench.BaseBench.serial", 51697.322, "ms/op"),
    ]
    errors = {m.label.rsplit(".", 1)[-1]: m.value for _, m in found if m.metric == "Score error"}
    assert errors == {"parallel": 113.354, "serial": 322.747}
    table = next(t for t, _ in found)
    assert [r[1] for r in table.rows] == ["ss", "ss"]  # the mode, kept in the row


ODD = [
    "",
    "|",
    'Result "x": ',
    'Secondary result "x:y": 1.0 ±(99.9%)',
    '{"jmhVersion": ',
    '"Benchmark","Mode","Threads","Samples","Score"',
    '"Benchmark","Mode","Threads","Samples","Score" "unterminated',
    "Benchmark Mode Cnt Score Error Units",
    "# Benchmark:",
    "Iteration 1:",
    "Foo.bar avgt",
    "\x00\ufffd" * 100,
]


@pytest.mark.parametrize("text", ODD, ids=repr)
def test_odd_input_never_raises(text):
    assert isinstance(run("jmh", text), list)
    extract_results(text, strict=True)


PATHOLOGICAL = {
    "spaces before a table": " " * 60000
    + "Benchmark Mode Cnt Score Error Units\nA.b avgt 1 1 ns/op",
    "repeated JMH header word": "Benchmark " * 6000,
    "repeated mode words": "Foo.bar avgt " * 6000,
    "repeated iteration words": "# Benchmark: x Iteration 1: " * 3000,
    "repeated csv fields": '"Benchmark","Mode","Threads","Samples","Score",' + '"x",' * 20000,
    "long dotted name": "a." * 30000 + " avgt 5 1.0 ± 0.1 ns/op",
    "many forks flattened": "# Benchmark: a.B.c "
    + "# Fork: 1 of 1 # Warmup Iteration 1: 2.0 ns/op Iteration 1: 1.0 ns/op " * 3000,
}


@pytest.mark.parametrize("name", sorted(PATHOLOGICAL))
def test_stays_linear_on_pathological_input(name):
    start = time.perf_counter()
    run("jmh", PATHOLOGICAL[name])
    assert time.perf_counter() - start < 5.0  # quadratic takes minutes


def test_linear_on_a_long_flattened_thread():
    text = (
        "Some words 12 ms, a table | 3 | and ```code``` plus 2020-01-01 12:00:00,123 INFO x: "
        * 2500
    ) + " " * 20000
    start = time.perf_counter()
    run("jmh", text)
    assert time.perf_counter() - start < 5.0  # quadratic takes minutes


NOISE = {
    "versions table": "| Component | Version |\n|---|---|\n| Hadoop | 3.3.6 |\n| Hive | 4.0.1 |",
    "dates and ids": "| Issue | Created |\n|---|---|\n| HIVE-12345 | 2023-01-05 |",
    "whitespace config listing": "Name          Value\nthreads       8\nbatch.size    16384\n",
    "jmh options": "Run with -f 3 -wi 5 -i 10 -bm avgt -tu ns, e.g. Foo.bar avgt mode.",
    "gradle jmh config": "jmh {\n  warmupIterations = 2\n  iterations = 5\n  fork = 1\n}\n",
}


@pytest.mark.parametrize("name", sorted(NOISE))
def test_noise_gives_no_jmh_rows(name):
    assert jmh(NOISE[name]) == []


def test_a_score_with_a_decimal_comma_and_a_grouping_point():
    # JMH prints no grouping, so a lone `,` is a decimal comma; where a point groups
    # the thousands before it (`8.653,588`), the comma is still the decimal mark (not
    # 8.653588, as the point read first made it)
    text = text_of("jmh--text-decimal-comma").replace("8653,588", "8.653,588")
    got = {(r["label"], r["metric"]): r["value"] for r in rows_of(text)}
    assert got[("SumBench.loopSum", "Score error")] == 8653.588
    assert got[("SumBench.loopSum", "Score")] == 860.975


def test_a_long_indent_after_a_table_costs_linear_time():
    # the line after a table's rows may be a heading that goes on with the table; a last
    # line of thousands of blanks there took cubic time (4000: seconds)
    text = text_of("jmh--text-decimal-comma").rstrip("\n") + "\n" + " " * 4000 + "x"
    start = time.perf_counter()
    rows = rows_of(text)
    assert time.perf_counter() - start < 1.0
    assert {r["label"] for r in rows} == {"SumBench.loopSum", "SumBench.nothing"}


def test_one_benchmark_in_two_modes_of_one_unit_is_told_apart_by_mode():
    text = (
        "Benchmark          Mode      Cnt  Score   Error  Units\n"
        "Codec.decode       thrpt       5  49.03 ± 6.19  ops/ms\n"
        "Codec.decode        avgt       5   0.67 ± 0.10   ms/op\n"
        "Codec.decode      sample  144584   0.66 ± 0.01   ms/op\n"
    )
    got = {
        (m.value, m.variant)
        for t in extract_results(text)
        for m in t.measurements
        if m.metric == "Score"
    }
    # (thrpt has a unit of its own: no clash, no mode in its variant)
    assert got == {(49.03, None), (0.67, "avgt"), (0.66, "sample")}


def test_a_table_with_jmh_s_first_columns_but_its_own_results_is_no_jmh_table():
    # (`Before | After` where JMH prints `Score | Error`: a table people made, read as
    # a table; only a piped table with JMH's Mode, Score and Units is JMH's)
    text = (
        "Before and after the patch:\n\n"
        "| Benchmark | (size) | Mode | Cnt | Before | After | Units |\n"
        "|---|---|---|---|---|---|---|\n"
        "| DecodeBench.decode | 128 | thrpt | 15 | 412.07 | 268.33 | ops/us |\n\n"
        "| other | table |\n|---|---|\n| a | 1 |\n"
    )
    got = {(r["format"], r["metric"], r["value"], r["unit"]) for r in rows_of(text)}
    assert ("markdown-table", "Before", 412.07, "ops/us") in got
    assert ("markdown-table", "After", 268.33, "ops/us") in got
    assert not any(fmt == "jmh" for fmt, *_ in got)
    # (the @Param column names the row; a count column is counted)
    assert not any(metric == "(size)" for _, metric, _, _ in got)
    assert ("markdown-table", "Cnt", 15.0, "count") in got
