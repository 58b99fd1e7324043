"""The classifier on texts written the way list mail writes them, one feature at a time.

Tables are real `ResultTable`s as the format parsers return them, so each test
isolates one feature of `extract.results.classify` from the parsers' progress."""

from __future__ import annotations

import pytest

from extract.results.classify import THRESHOLD, Verdict, classify
from extract.results.formats import Measurement, ResultTable, extract_results
from extract.results.message import MAX_EXTRACT_CHARS


def table(fmt: str, text: str, snippet: str, measurements, columns=()) -> ResultTable:
    start = text.index(snippet)
    return ResultTable(
        format=fmt,
        span=(start, start + len(snippet)),
        columns=list(columns),
        measurements=[Measurement(metric=m, value=v, unit=u) for m, v, u in measurements],
    )


JMH = """Results:
Benchmark                   Mode  Cnt      Score     Error  Units
ExportBench.parallel          ss    5    640.862 ± 113.354  ms/op
ExportBench.serial            ss    5  51697.322 ± 322.747  ms/op
"""


def jmh_tables(text: str = JMH) -> list[ResultTable]:
    rows = text[text.index("Benchmark") :]
    return [table("jmh", text, rows, [("Score", 640.862, "ms/op"), ("Score", 51697.322, "ms/op")])]


def test_tool_output_makes_a_benchmark_and_says_why():
    v = classify(JMH, jmh_tables(), subject="[GitHub] [hive] PR #3644", kind="github")
    assert isinstance(v, Verdict)
    assert v.is_benchmark and v.score > 0.8
    assert any(r.startswith("jmh output: 2 measurements") for r in v.reasons)


def test_no_evidence_is_not_a_benchmark():
    v = classify("Thanks, merged to master.", [])
    assert not v.is_benchmark and v.score < 0.1


def test_talk_about_benchmarks_without_numbers_is_negative():
    v = classify("We should add a JMH benchmark for this and check the throughput.", [])
    assert not v.is_benchmark
    assert any("no numbers" in r for r in v.reasons)


def test_generic_table_counts_only_with_performance_numbers():
    text = "||Query||Before||After||\n|q1|12.5 s|8.1 s|\n|q2|30.2 s|22.9 s|\n"
    perf = table(
        "jira-table",
        text,
        text,
        [("Before", 12.5, "s"), ("After", 8.1, "s"), ("Before", 30.2, "s")],
        ["Query", "Before", "After"],
    )
    assert classify(text, [perf]).is_benchmark

    config = "||Setting||Value||\n|handlers|30|\n|regions|120|\n"
    plain = table(
        "jira-table",
        config,
        config,
        [("Value", 30, None), ("Value", 120, None)],
        ["Setting", "Value"],
    )
    v = classify(config, [plain])
    assert not v.is_benchmark
    assert any("without performance units" in r for r in v.reasons)


@pytest.mark.parametrize(
    "text",
    [
        "Upgrading the plugin reduces the build time from 10 min to 2 min.",
        "the model run on tensorflow is 0.4s and the model run on tvm is 1.2s, tvm is slower.",
        "We saw a speed improvement from writing 320k rows/sec -> 650 rows/sec with this change.",
        "We tested the new optimizer and saw 2-5x latency improvement with 50% less cpu.",
        "The query takes about 23 seconds of CPU.\nThe IN form takes about 153 seconds of CPU.",
    ],
)
def test_measured_prose_is_a_benchmark(text):
    v = classify(text, [])
    assert v.is_benchmark, v.reasons
    assert any(r.startswith("text:") for r in v.reasons)


@pytest.mark.parametrize(
    "text",
    [
        "With this design the scan should be 30% faster and p99 could drop below 2 ms.",
        "Assuming an average speed of 40 to 50 million documents per second, 3 boxes will do.",
        "Can p99 < 2ms be achieved with this setup?",
        "The Throughput mode was always displaying less than 1 op/s. So time is a better mode.",
    ],
)
def test_estimates_and_targets_are_not_measurements(text):
    assert not classify(text, []).is_benchmark


def test_up_to_is_a_maximum_seen_and_only_a_modal_makes_it_a_hope():
    # `up to` and `as much as` bound what was measured; the hedge is in the verb
    seen = (
        "This brings up to 10x higher read throughput on mixed loads, "
        "and up to 17x higher throughput on reads."
    )
    hoped = "We expect up to 2x faster scans with this design, and as much as 3x on wide rows."
    assert classify(seen, extract_results(seen)).is_benchmark
    assert not classify(hoped, extract_results(hoped)).is_benchmark


YETUS = """:confetti_ball: **+1 overall**
| Vote | Subsystem | Runtime |  Logfile | Comment |
|:----:|----------:|--------:|:--------:|:-------:|
| +0 :ok: |  reexec  |   0m 22s |  |  Docker mode activated.  |
| +1 :green_heart: |  mvninstall  |  32m 41s |  |  trunk passed  |
| +1 :green_heart: |  compile  |   0m 20s |  |  trunk passed  |
| +1 :green_heart: |  unit  | 201m 3s |  |  hadoop-common in the patch passed.  |
"""


def test_ci_report_is_rejected_even_when_its_table_parses():
    runtimes = table(
        "markdown-table",
        YETUS,
        YETUS[YETUS.index("| Vote") :],
        [("Runtime", 22, "s"), ("Runtime", 1961, "s"), ("Runtime", 20, "s")],
        ["Vote", "Subsystem", "Runtime"],
    )
    v = classify(YETUS, [runtimes])
    assert not v.is_benchmark
    assert any(r.startswith("CI/build report") for r in v.reasons)


MAVEN = """Results :

Tests run: 25, Failures: 0, Errors: 0, Skipped: 0

[INFO] BUILD SUCCESS
[INFO] Total time: 02:05 min
[INFO] Finished at: 2017-10-27T15:00:26-05:00
[INFO] Final Memory: 59M/742M
"""


def test_maven_summary_is_rejected():
    v = classify(MAVEN, [])
    assert not v.is_benchmark
    assert any(r.startswith("Maven") for r in v.reasons)


def test_measured_build_time_next_to_a_maven_log_still_counts():
    text = "Upgrading the plugins: the build went from 4:40 min to 0:28 min.\n\n" + MAVEN
    assert classify(text, []).is_benchmark


def test_release_vote_is_rejected():
    text = (
        "+1 (binding)\n\n* Verified the sha512 checksums and the signatures (KEYS)\n"
        "* The source tarball builds in 12 min, tests took 35 min\n"
    )
    v = classify(text, [], subject="[VOTE] Release Apache Foo 1.2.0 RC1")
    assert not v.is_benchmark
    assert any(r.startswith("release vote") for r in v.reasons)


def test_stack_trace_is_rejected():
    text = (
        "Test failed after 12.5 s and 3.2 s on retry:\n"
        "java.lang.AssertionError: expected 3\n"
        "\tat org.apache.foo.TestBar.testBaz(TestBar.java:120)\n"
        "\tat java.base/jdk.internal.reflect.Method.invoke(Method.java:566)\n"
        "\tat org.junit.runners.ParentRunner.run(ParentRunner.java:363)\n"
        "Caused by: java.io.IOException: boom\n"
    )
    v = classify(text, [], plain=True)  # (the early exit would skip the negatives)
    assert not v.is_benchmark
    assert any(r.startswith("stack trace") for r in v.reasons)


CODE_DIFF = """```diff
-  @Warmup(iterations = 3, time = 10, timeUnit = TimeUnit.SECONDS)
+  @Warmup(iterations = 5, time = 20, timeUnit = TimeUnit.SECONDS)
-  @Measurement(iterations = 3, time = 10)
+  @Measurement(iterations = 5, time = 20)
```
Why 20 s per iteration here?
"""


def test_code_diff_is_rejected():
    v = classify(CODE_DIFF, [], plain=True)  # (the early exit would skip the negatives)
    assert not v.is_benchmark
    assert any(r.startswith("code diff") for r in v.reasons)


RESULTS_DIFF = """@@ -10,4 +10,4 @@
-q1-v2.7                  1853           1930         109          0.3        3410.0       1.0X
+q1-v2.7                  1930           2011         120          0.3        3552.1       1.0X
"""


def test_diff_of_result_rows_counts():
    rows = table(
        "spark-benchmark",
        RESULTS_DIFF,
        RESULTS_DIFF[RESULTS_DIFF.index("-q1") :],
        [("Best Time(ms)", 1853, "ms"), ("Best Time(ms)", 1930, "ms")],
    )
    v = classify(RESULTS_DIFF, [rows])
    assert v.is_benchmark
    assert any(r.startswith("diff of result rows") for r in v.reasons)


def test_jira_field_change_is_rejected():
    text = "Status: Patch Available  (was: Open)\nFix Version/s: 3.4.0\n"
    subject = "[jira] [Updated] (HDFS-1070) Speedup image loading"
    v = classify(text, [], subject=subject, plain=True)  # (no early exit)
    assert not v.is_benchmark
    assert any(r.startswith("JIRA field-change") for r in v.reasons)


def test_results_only_as_an_image_are_rejected():
    text = "JMH result:\n\n![jmh](https://user-images.githubusercontent.com/1/bench.png)\n"
    v = classify(text, [], plain=True)  # (the early exit would skip this note)
    assert not v.is_benchmark
    assert any("images" in r for r in v.reasons)


def test_quoted_lines_never_count():
    text = "Thanks for the numbers!\n> went from 10 min to 2 min\n> 12.5 ms vs 8.1 ms before\n"
    assert not classify(text, []).is_benchmark


def test_score_is_the_logistic_of_the_evidence():
    strong = classify(JMH, jmh_tables())
    weak = classify("It took 5 s.", [])
    none = classify("ok", [])
    assert 0.0 <= none.score < weak.score < strong.score <= 1.0
    assert (weak.score >= 0.5) == weak.is_benchmark
    assert THRESHOLD > 0


def test_bad_input_never_raises():
    broken = ResultTable(format="prose", span=(50, 10), measurements=[Measurement("x", 1.0)])
    for body, tables in [(None, None), ("", []), ("x" * 10, [broken]), ("\x00\ud800", [])]:
        v = classify(body, tables)  # type: ignore[arg-type]
        assert isinstance(v, Verdict) and 0.0 <= v.score <= 1.0


def test_rows_of_numbers_under_a_performance_header_count():
    text = (
        "Test with `--size 10`\n```\n    mb_sec\tavg_latency\tmax_latency\n"
        "    22.470\t     0.000\t     0.406\n    22.341\t     0.000\t     0.124\n```\n"
    )
    # with no parser's tables, the rows are evidence of their own (how much is fitted)
    v = classify(text, [])
    reason = next(r for r in v.reasons if "rows of numbers under a performance header" in r)
    assert float(reason.rsplit("(", 1)[1].rstrip(")")) > 0
    # the same rows under a header of settings are not results
    config = text.replace("mb_sec\tavg_latency\tmax_latency", "threads\tfiles\tchannels")
    assert not any("rows of numbers" in r for r in classify(config, []).reasons)
    assert classify(text, extract_results(text)).is_benchmark


def test_consecutive_lines_in_one_unit_are_compared_measurements():
    text = (
        "The inference speed:\n"
        "MXNet latency for batch 1 and seq length 128: 159.11 ms\n"
        "TVM latency for batch 1 and seq length 128: 732.59 ms\n"
    )
    v = classify(text, [])
    assert v.is_benchmark
    assert any(r.startswith("text: ") and "compared" in r for r in v.reasons)


def test_a_unitless_table_under_a_benchmark_heading_is_a_performance_table():
    text = (
        "### Write benchmark:\nBatches per second.\n\n"
        "| Iter | A | B |\n|---:|---:|---:|\n| 1 | 4323 | 48.2 |\n"
    )
    grid = text[text.index("| Iter") :]
    t = table(
        "markdown-table", text, grid, [("A", 4323, None), ("B", 48.2, None)], ["Iter", "A", "B"]
    )
    assert classify(text, [t]).is_benchmark
    plain = text.replace("### Write benchmark:\nBatches per second.", "### Cluster layout")
    t2 = table(
        "markdown-table",
        plain,
        plain[plain.index("| Iter") :],
        [("A", 4323, None)],
        ["Iter", "A", "B"],
    )
    assert not classify(plain, [t2]).is_benchmark


@pytest.mark.parametrize(
    "header",
    [
        ["case", "QPS before", "QPS after"],
        ["benchmark", "master (ms)", "PR (ms)"],
        ["场景", "优化前 QPS", "优化后 QPS"],  # before / after the optimisation
    ],
)
def test_a_table_that_sets_two_sides_against_each_other_says_so(header):
    from extract.results.classify import features

    grid = f"| {' | '.join(header)} |\n|---|---|---|\n| point | 12000 | 18500 |\n"
    found = extract_results(grid)
    assert "compared_table" in features(grid, found, "", "mail")
    # (a table of one side sets nothing against anything)
    one_side = grid.replace(header[2], "QPS" if "QPS" in header[2] else "ms")
    assert "compared_table" not in features(one_side, extract_results(one_side), "", "mail")


@pytest.mark.parametrize(
    ("heading", "header"),
    [
        ("两种存储的写入性能对比如下：", ["Iter", "A", "B"]),  # "write performance compared"
        ("测试结果：", ["Iter", "A", "B"]),  # "test results"
        ("两种存储的对比：", ["轮次", "平均耗时", "B"]),  # header: "average time taken"
    ],
)
def test_chinese_words_for_performance_make_a_unitless_table_a_performance_table(heading, header):
    grid = f"| {' | '.join(header)} |\n|---:|---:|---:|\n| 1 | 4323 | 48.2 |\n"
    text = f"{heading}\n\n{grid}"
    t = table("markdown-table", text, grid, [(header[1], 4323, None)], header)
    assert classify(text, [t]).is_benchmark
    plain = f"集群布局：\n\n{grid.replace(header[1], 'A')}"  # "cluster layout"
    t2 = table(
        "markdown-table", plain, plain[plain.index("|") :], [("A", 4323, None)], ["轮次", "A", "B"]
    )
    assert not classify(plain, [t2]).is_benchmark


@pytest.mark.parametrize(
    "text",
    [
        "request.timeout.ms: 30000 ms\nlinger.ms: 5 ms\nbatch: 10 ms\n",
        "spark.network.timeout=600s\nspark.executor.heartbeatInterval=10s\n",
        "Set the session timeout to 30 s and the sync interval to 5 s before the run.",
    ],
)
def test_settings_are_not_measurements(text):
    assert not classify(text, []).is_benchmark


def test_a_mail_flattened_onto_one_line_reads_the_same():
    lines = [
        "Thanks for the review, I think we should look at the reader later.",
        "Before the patch the scan took 12.5 s, after the patch it took 8.1 s.",
        "```",
        "[INFO] BUILD SUCCESS",
        "[INFO] Total time:  02:05 min",
        "```",
    ]
    for text in ("\n".join(lines), " ".join(lines)):
        v = classify(text, [])
        assert v.is_benchmark, (text, v.reasons)
    # flattened CI bookkeeping alone stays out
    flat_maven = " ".join(MAVEN.splitlines())
    assert not classify(flat_maven, []).is_benchmark


def test_two_named_measurements_in_one_flattened_line_are_compared():
    text = (
        "The inference speed result is as followed: ``` MXNet latency for batch 1 and seq "
        "length 128: 159.11 ms TVM latency for batch 1 and seq length 128: 732.59 ms ``` "
        "The inference code is as followed: ``` import time ```"
    )
    assert classify(text, []).is_benchmark


def test_jira_time_tracking_is_bookkeeping():
    text = (
        "Worklog Time Spent: 10m\n      Work Description: LGTM\n\nIssue Time Tracking\n"
        "-------------------\n\n    Time Spent: 1h 40m  (was: 1.5h)\n"
    )
    v = classify(text, [], subject="[jira] [Work logged] (HIVE-1) Speed up foo")
    assert not v.is_benchmark
    assert any("settings" in r for r in v.reasons)


# The shortcuts that make `classify` fast must find exactly what the plain patterns
# find; these texts sit on their edges (re.I letters, a cue after blank lines,
# numbers ending in commas, flattened lines).
TRICKY = [
    "Results:\n1 2",
    "  \n\n  ## Benchmark results :\n",
    "before the patch\n  :",
    "x\nafter\n:",
    "here are our new benchmark numbers",
    "With this patch",
    "ſha512 and the ſignatures, KEYS, binding vote, LICENSE",
    "Tİme elapsed (s): 30.0 avg raTe = 5710.2 timelapsed: 4 tpſ: 3",
    "1,x faster, 2, × slower, 3,% better, 10px wide, 5 %",
    "took 27 sec, should be 5 ms, timeout 30 s, -Xmx1g 3 ms, from 5 ms to 3 ms",
    "MXNet latency: 159.11 ms\n\nTVM latency: 732.59 ms\nnote\nlatency: 1 ms",
    "mb_sec  avg_latency\n1.5  2.5\n\n3.5  4.5\ntext\nMean, P95\n1, 2\n",
    "- item 1, 2\n-  foo();\n+x = 1;\n> quoted 5 ms\n  > 6 ms\n| +1 | x |",
]


@pytest.mark.parametrize("text", TRICKY)
def test_the_shortcuts_find_what_the_patterns_find(text):
    from extract.results import classify as c

    folded = c._fold(text)
    assert len(folded) == len(text)
    assert c._has_results_cue(text, folded) == bool(c._RESULTS_CUE.search(text))
    for pattern, starts in [(c._NAMED_VALUE, c._NAMED_KEYS)] + list(
        zip(c._RELEASE[1:], c._RELEASE_NEEDS, strict=True)
    ):
        expected = [m.span() for m in pattern.finditer(text)]
        assert [m.span() for m in c._matches_from(pattern, text, folded, starts)] == expected
    for pattern, needs in c._NEEDS.items():
        assert not pattern.search(text) or c._mentions(folded, needs), pattern.pattern
    assert not c._FACTOR.search(text) or c._follows_a_digit(text, "x×")
    assert not c._PERCENT.search(text) or c._follows_a_digit(text, "%")
    assert not c._lines_found(c._CODE_ROW, text) or c._may_have_code_rows(text)
    assert not c._PERF_HEADER.search(text) or c._may_name_perf(text)
    assert len(c._LOG_LINE.findall(text)) <= c._log_lines_at_most(text)
    assert len(c._CONFIG_LINE.findall(text)) <= c._config_lines_at_most(text)


@pytest.mark.parametrize(
    "unit", ["1,", "1%", "2x ", "1 ms ", "latency: 1 ms\n", "k=v\n", "| 1 | 2 |\n", "-", " \n"]
)
def test_degenerate_text_is_classified_in_bounded_time(unit):
    """The most text the pipeline hands over, one token repeated: no quadratic regex
    (a comma list once took 6 s at 60 kB)."""
    from tests.conftest import time_limit

    text = (unit * (MAX_EXTRACT_CHARS // len(unit) + 1))[:MAX_EXTRACT_CHARS]
    with time_limit(10, f"classify on {unit!r} x {len(text) // len(unit)}"):
        verdict = classify(text, [])
    assert verdict.reasons is not None


def test_code_hunks_of_a_commit_diff_are_not_read_but_results_files_are():
    """A commit mail's diff: the parsers and the classifier skip the hunks of source
    files (their numbers are code), keep each file's `diff --git` line (a code diff
    still counts against), and read the lines a results file's hunks add (not those
    they remove: the old results are not what the commit reports)."""
    from extract.results.message import extraction_text

    java = "diff --git a/src/Bench.java b/src/Bench.java\n" + CODE_DIFF.split("\n", 1)[1]
    results = "diff --git a/benchmarks/TPCDS-results.txt b/benchmarks/TPCDS-results.txt\n"
    text = extraction_text("commit abc\n\n" + java + results + RESULTS_DIFF)
    assert "@Warmup" not in text and "diff --git a/src/Bench.java" in text
    added, removed = RESULTS_DIFF.splitlines()[2], RESULTS_DIFF.splitlines()[1]
    assert "TPCDS-results.txt" in text and added in text and removed not in text
    only_code = extraction_text("commit abc\n\n" + java)
    verdict = classify(only_code, [], subject="[x] branch master updated", plain=True)
    assert not verdict.is_benchmark and any(r.startswith("code diff") for r in verdict.reasons)


def test_the_sentence_ends_are_found_where_the_slow_pattern_ends_them():
    """`_SENTENCE_END_AFTER` ends a match where `_SENTENCE_END` does: after a line
    break, or after every blank that follows a stop."""
    import itertools

    from extract.results import classify

    pieces = (".", "!", ";", " ", "\n", "\t", "a", "\u2028", "\r", "\xa0", "。")
    written = ["Took 5 s. Then 3 s;\n\n  next line\nand. . end.", "a.\u2028b\r\n. \n"]
    texts = written + ["".join(p) for n in range(1, 5) for p in itertools.product(pieces, repeat=n)]
    for text in texts:
        slow = [m.end() for m in classify._SENTENCE_END.finditer(text)]
        assert [m.end() for m in classify._SENTENCE_END_AFTER.finditer(text)] == slow, repr(text)
