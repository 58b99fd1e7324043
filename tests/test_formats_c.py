"""formats-C beyond the shared fixtures: flattened and JIRA-wrapped text, headings as
variants, noise recognisers that claim exactly their block, and silence on realistic
noise (corpus negatives, seeds, prose that merely mentions a tool)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from extract.results.formats import by_name, extract_results
from extract.results.units import parse_number
from tests.formats_match import find

FIXTURES = Path(__file__).parent / "fixtures"
FORMATS = FIXTURES / "formats"
CORPUS = FIXTURES / "corpus" / "dev"
MINE = {"google-benchmark", "go-bench", "benchstat", "criterion", "ab", "wrk", "sysbench",
        "pgbench", "benchmark-js"}  # fmt: skip
NOISE = ("yetus-qa-report", "maven-surefire", "coverage-report")


def flatten(text: str) -> str:
    """What a GitHub → list notification does to a comment: one line."""
    return " ".join(text.split())


def jira_wrap(text: str, width: int = 80) -> str:
    """What a JIRA notification does: hard-wrap long lines at word boundaries."""
    out = []
    for line in text.splitlines():
        while len(line) > width:
            cut = line.rfind(" ", 0, width)
            if cut <= 0:
                break
            out.append(line[:cut])
            line = line[cut + 1 :]
        out.append(line)
    return "\n".join(out)


def fixture(case: str) -> tuple[str, dict]:
    text = (FORMATS / f"{case}.txt").read_text(encoding="utf-8")
    return text, json.loads((FORMATS / f"{case}.expect.json").read_text(encoding="utf-8"))


def body(corpus_id: str) -> str:
    return (CORPUS / f"{corpus_id}.txt").read_text(encoding="utf-8").split("\n\n", 1)[1]


def rows(tables, formats=MINE):
    return [(t.format, m.label, m.metric, m.value, m.unit) for t in tables for m in t.measurements
            if t.format in formats]  # fmt: skip


FLATTENABLE = [
    "go-bench--arrow-pr12138-memset-before",
    "go-bench--golang-issue48219-benchmem",
    "go-bench--golang-perf-crc-old",
    "google-benchmark--arrow-issue39664-counters",
    "google-benchmark--user-counters",
    "google-benchmark--tools-compare-py",
    "go-benchstat--golang-perf-example-v1",
    "go-benchstat--golang-perf-oldnew-v1",
    "go-benchstat--cockroach-pr148409-benchstat-v2",
    "rust-criterion--arrow-rs-pr3299-criterion",
    "apachebench-ab--nonocast-issue93-ab",
    "wrk--wrk-readme-basic",
    "wrk--wrk-issue409-latency-and-time",
    "sysbench--sysbench-issue305-summary",
    "sysbench--sysbench-issue311-interval",
    "pgbench--pg10-manpage-typical",
    "benchmark-js--arrow-pr9962-js-perf",
]


@pytest.mark.parametrize("case", FLATTENABLE)
def test_flattened_output_still_parses(case):
    text, expect = fixture(case)
    tables = extract_results(flatten(text))
    missing = [row for row in expect["rows"] if find(row, tables) is None]
    assert not missing, missing


@pytest.mark.parametrize(
    "case",
    [
        "go-bench--golang-perf-crc-old",
        "google-benchmark--arrow-issue39664-counters",
        "go-benchstat--golang-perf-oldnew-v1",
        "rust-criterion--arrow-rs-pr3299-criterion",
    ],
)
def test_jira_wrapped_rows_still_parse(case):
    text, expect = fixture(case)
    wrapped = jira_wrap(text)
    assert wrapped != text
    tables = extract_results(wrapped)
    missing = [row for row in expect["rows"] if find(row, tables) is None]
    assert not missing, missing


def test_go_bench_headings_become_variants_and_blocks_claim_their_footer():
    text = (
        "Benchmark results:\n\n--- Before\ngoos: linux\ngoarch: amd64\n"
        "cpu: Intel(R) Xeon(R) @ 2.20GHz\n"
        "BenchmarkWrite-8   \t 1000000\t      1200 ns/op\t     64 B/op\t       2 allocs/op\n"
        "PASS\nok  \tgithub.com/apache/arrow/go/v15/arrow\t3.107s\n\n"
        "--- After\n"
        "BenchmarkWrite-8   \t 2000000\t       600 ns/op\t     32 B/op\t       1 allocs/op\n"
    )
    tables = by_name("go-bench").parse(text)
    assert [t.variant for t in tables] == ["Before", "After"]
    before, after = tables
    assert before.source(text).startswith("goos: linux")
    assert before.source(text).endswith("3.107s")  # `ok pkg 3.107s` is the test time, not a result
    assert [(m.metric, m.value, m.unit) for m in after.measurements] == [
        ("iterations", 2000000, "count"),
        ("time/op", 600, "ns/op"),
        ("alloc/op", 32, "B/op"),
        ("allocs/op", 1, "allocs/op"),
    ]
    assert before.rows == [["BenchmarkWrite-8", "1000000", "1200", "64", "2"]]


def test_go_bench_count_repetitions_are_separate_rows():
    text, _ = fixture("go-bench--golang-perf-exampleold")
    (table,) = by_name("go-bench").parse(text)
    assert len(table.rows) == 8
    gob = [
        m.value for m in table.measurements if m.label == "BenchmarkGobEncode" and m.unit == "ns/op"
    ]
    assert gob == [13552735, 13553943, 13606356, 13683198]


def test_google_benchmark_counter_units():
    text, _ = fixture("google-benchmark--arrow-issue39664-counters")
    (table,) = by_name("google-benchmark").parse(text)
    first = {m.metric: (m.value, m.unit, m.written) for m in table.measurements if m.row == 0}
    assert first["bytes_per_second"] == (50.1736, "GiB/s", "50.1736Gi/s")
    assert first["items_per_second"] == (13.4684, "G/s", "13.4684G/s")
    assert first["size"] == (pytest.approx(1048580), "", "1.04858M")
    text, _ = fixture("google-benchmark--user-counters")
    (table,) = by_name("google-benchmark").parse(text)
    foo = [m.value for m in table.measurements if m.metric == "Foo"]
    assert foo[1] == pytest.approx(1.024)  # `Foo=1024m`: m is milli in Google Benchmark


def test_google_benchmark_compare_table_takes_the_runs_time_unit():
    text, _ = fixture("google-benchmark--tools-compare-py")
    tables = by_name("google-benchmark").parse(text)
    assert len([t for t in tables if t.measurements]) == 3
    context = [t.source(text) for t in tables if not t.measurements]
    run_on = "Run on (8 X 4000 MHz CPU s)"  # context lines are claimed, without rows
    assert context == [run_on, "2017-11-07 21:16:44", run_on, "2017-11-07 21:16:53"]
    compare = tables[-1]
    assert compare.caption == "Comparing ./a.out to ./a.out"
    units = {m.metric: m.unit for m in compare.measurements}
    assert units == {"time_change": "fraction", "cpu_change": "fraction", "time_old": "ns",
                     "time_new": "ns", "cpu_old": "ns", "cpu_new": "ns"}  # fmt: skip
    assert len(compare.rows) == 10


def test_benchstat_v2_units_and_deltas():
    text = (
        "goos: linux\n"
        "                 │   old.txt   │               new.txt               │\n"
        "                 │   sec/op    │   sec/op     vs base                │\n"
        "Encode/small-8     46.55n ± 2%   44.10n ± 1%   -5.26% (p=0.002 n=6)\n"
        "Encode/large-8     1.701µ ± 0%   1.702µ ± 1%        ~ (p=0.937 n=6)\n"
        "geomean            281.4n        274.0n        -2.64%\n"
        "\n"
        "                 │   old.txt    │               new.txt                │\n"
        "                 │     B/op     │     B/op      vs base                │\n"
        "Encode/small-8     1.500Ki ± 0%   1.000Ki ± 0%  -33.33% (p=0.002 n=6)\n"
    )
    tables = by_name("benchstat").parse(text)
    assert len(tables) == 2
    got = [(m.label, m.metric, m.value, m.unit, m.variant) for m in tables[0].measurements]
    assert ("Encode/small-8", "sec/op", 46.55, "ns/op", "old.txt") in got
    assert ("Encode/small-8", "delta sec/op", -5.26, "%", "new.txt vs old.txt") in got
    assert ("Encode/large-8", "sec/op", 1.702, "µs/op", "new.txt") in got
    assert ("geomean", "delta sec/op", -2.64, "%", "new.txt vs old.txt") in got
    assert not [g for g in got if g[0] == "Encode/large-8" and g[1].startswith("delta")]  # `~`
    assert ("Encode/small-8", "B/op", 1.5, "KiB/op", "old.txt") in [
        (m.label, m.metric, m.value, m.unit, m.variant) for m in tables[1].measurements
    ]
    assert tables[0].source(text).startswith("                 │   old.txt")


def test_criterion_throughput_and_noise_lines():
    text = (
        "Benchmarking parse/utf8: Warming up for 3.0000 s\n"
        "Warning: Unable to complete 100 samples in 5.0s. You may wish to increase target time to "
        "5.3s, enable flat sampling, or reduce sample count to 60.\n"
        "parse/utf8              time:   [10.520 µs 10.546 µs 10.575 µs]\n"
        "                        thrpt:  [90.181 MiB/s 90.430 MiB/s 90.650 MiB/s]\n"
        "                 change:\n"
        "                        time:   [-3.1070% -2.7421% -2.3738%] (p = 0.00 < 0.05)\n"
        "                        thrpt:  [+2.4315% +2.8194% +3.2066%]\n"
        "                        Performance has improved.\n"
    )
    tables = by_name("criterion").parse(text)
    results = [t for t in tables if t.measurements]
    assert len(results) == 1 and len(tables) == 3  # the two progress lines are claimed, empty
    got = {m.metric: (m.value, m.unit) for m in results[0].measurements}
    assert got["time"] == (10.546, "µs")
    assert got["thrpt"] == (90.430, "MiB/s")
    assert got["change"] == (-2.7421, "%")
    assert got["thrpt_change_upper"] == (3.2066, "%")
    assert results[0].measurements[0].label == "parse/utf8"
    values = [m.value for t in extract_results(text) for m in t.measurements]
    assert 5.3 not in values and 60 not in values and 3.0 not in values


def test_ab_without_banner_and_wrk_without_running_line():
    ab = (
        "Concurrency Level:      10\nTime taken for tests:   1.5 seconds\n"
        "Complete requests:      1000\n"
        "Failed requests:        0\nRequests per second:    666.67 [#/sec] (mean)\n"
        "Time per request:       15.000 [ms] (mean)\n"
    )
    (table,) = by_name("ab").parse(ab)
    assert {m.metric: m.value for m in table.measurements}["requests_per_second"] == 666.67
    assert "concurrency" not in " ".join(m.metric for m in table.measurements)
    wrk = (
        "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
        "    Latency     1.20ms  300.00us   5.00ms   80.00%\n"
        "    Req/Sec     4.10k   200.00     4.50k    70.00%\n"
        "  81920 requests in 10.00s, 9.50MB read\n"
        "Requests/sec:   8192.00\nTransfer/sec:    0.95MB\n"
    )
    (table,) = by_name("wrk").parse(wrk)
    got = {m.metric: (m.value, m.unit) for m in table.measurements}
    assert got["latency_stdev"] == (300.0, "us")
    assert got["req_per_sec_per_thread_avg"] == (4100.0, "req/s")
    assert got["duration"] == (10.0, "s")


def test_sysbench_full_latency_block_and_fairness():
    text = (
        "sysbench 1.0.20 (using bundled LuaJIT 2.1.0-beta2)\n\n"
        "General statistics:\n    total time:                          10.0012s\n"
        "    total number of events:              12345\n\n"
        "Latency (ms):\n         min:                                    0.52\n"
        "         avg:                                    0.81\n"
        "         max:                                   12.34\n"
        "         95th percentile:                        1.12\n"
        "         sum:                                 9998.76\n\n"
        "Threads fairness:\n    events (avg/stddev):           12345.0000/0.00\n"
        "    execution time (avg/stddev):   9.9988/0.00\n"
    )
    tables = by_name("sysbench").parse(text)
    got = {(m.label, m.metric): (m.value, m.unit) for t in tables for m in t.measurements}
    assert got[("Latency", "95th_percentile")] == (1.12, "ms")
    assert got[("Latency", "sum")] == (9998.76, "ms")
    assert got[("Threads fairness", "events_avg")] == (12345.0, "count")
    assert got[("General statistics", "total_time")] == (10.0012, "s")
    # `Latency (ms):` alone (no sysbench banner or statistics) is too generic to claim
    assert by_name("sysbench").parse("Latency (ms):\n  min: 3\n  max: 9\n") == []


def test_pgbench_progress_lines_and_old_colon_form():
    text = (
        "progress: 5.0 s, 1234.5 tps, lat 8.101 ms stddev 2.301\n"
        "progress: 10.0 s, 1300.1 tps, lat 7.690 ms stddev 1.982\n"
        "transaction type: bench.sql\nscaling factor: 1\nnumber of clients: 10\n"
        "latency average: 7.9 ms\ntps = 1266.9 (including connections establishing)\n"
    )
    tables = by_name("pgbench").parse(text)
    got = [(m.label, m.metric, m.value, m.unit) for t in tables for m in t.measurements]
    assert ("progress 10.0 s", "tps", 1300.1, "tx/s") in got
    assert ("bench.sql", "latency_average", 7.9, "ms") in got
    assert ("bench.sql", "tps_including_connections", 1266.9, "tx/s") in got
    assert not [g for g in got if g[2] in (1.0, 10.0) and g[1] != "tps"]  # settings give no rows


def test_pgbench_tps_alone_in_prose_is_not_pgbench():
    assert by_name("pgbench").parse("On master we got tps = 1234, on the branch more.") == []


def test_benchmark_js_same_line_names_and_fastest_line():
    text = (
        "RegExp#test x 4,161,532 ops/sec ±0.99% (59 runs sampled)\n"
        "String#indexOf x 6,139,623 ops/sec ±1.00% (131 runs sampled)\n"
        "Fastest is String#indexOf\n"
    )
    (table,) = by_name("benchmark-js").parse(text)
    assert [r[0] for r in table.rows] == ["RegExp#test", "String#indexOf"]
    assert table.measurements[0].value == 4161532
    assert table.source(text).endswith("Fastest is String#indexOf")


# --- noise recognisers -------------------------------------------------------------


@pytest.mark.parametrize(
    "case",
    [
        "yetus-qa-report--hbase-pr2499-plus1",
        "yetus-qa-report--hadoop-pr6744-logfile-col",
        "maven-surefire--surefire-dolphinscheduler6073-reactor",
        "maven-surefire--surefire-issue2076-avro",
        "coverage-report--doris-pr65206-fe-coverage",
    ],
)
def test_noise_next_to_a_benchmark_claims_only_its_block(case):
    noise, _ = fixture(case)
    bench, expect = fixture("go-bench--golang-issue48219-benchmem")
    before = "Before the patch:\nlatency was high.\n\n"
    for text in (before + noise + "\n" + bench, before + bench + "\n" + noise):
        tables = extract_results(text)
        assert all(find(row, tables) for row in expect["rows"])
        assert {t.format for t in tables} == {"go-bench"}
    for text in (flatten(noise + "\n" + bench), flatten(bench + "\n" + noise)):
        tables = extract_results(text)
        assert all(find(row, tables) for row in expect["rows"]), case
        assert {t.format for t in tables} == {"go-bench"}


def test_noise_spans_stop_at_the_block():
    report, _ = fixture("yetus-qa-report--hbase-pr2499-plus1")
    text = "Results below.\n\n" + report + "\nThanks, I measured 120 ms before and 80 ms after.\n"
    (span,) = [t.span for t in by_name("yetus-qa-report").parse(text)]
    assert text[span[0] :].startswith(":confetti_ball:")
    assert text[span[1] :].strip().startswith("Thanks, I measured")


def test_yetus_jira_wiki_form_with_wrapped_rows():
    text = (
        "| (x) *{color:red}-1 overall{color}* |\n\\\\\n\\\\\n"
        "|| Vote || Subsystem || Runtime || Comment ||\n"
        "| {color:blue}0{color} | {color:blue} reexec {color} | {color:blue} 0m\n"
        "43s{color} | {color:blue} Docker mode activated. {color} |\n"
        "| {color:green}+1{color} | {color:green} mvninstall {color} | {color:green} 14m\n"
        "55s{color} | {color:green} trunk passed {color} |\n\n"
        "|| Subsystem || Report/Notes ||\n| Docker | ClientAPI=1.40 ServerAPI=1.40 |\n"
        "| Max. process+thread count | 23 (vs. ulimit of 2000) |\n\n"
        "This message was automatically generated.\n\n"
        "Meanwhile the scan got faster: 35 s before, 20 s after.\n"
    )
    spans = [t.span for t in by_name("yetus-qa-report").parse(text)]
    assert len(spans) == 1
    assert text[spans[0][1] :].strip().startswith("Meanwhile")


def test_maven_footer_alone_is_left_to_other_parsers():
    footer = "[INFO] BUILD SUCCESS\n[INFO] Total time:  28.482 s\n[INFO] Finished at: 2021-03-22\n"
    assert by_name("maven-surefire").parse(footer) == []
    log = "[INFO] Tests run: 5, Failures: 0, Errors: 0, Skipped: 0\n" + footer
    (table,) = by_name("maven-surefire").parse(log)
    assert table.span == (0, len(log) - 1)


def test_prose_mentions_do_not_trigger_my_parsers():
    text = (
        "I'm +1 overall on this. The BenchmarkFoo harness needs 3 runs, see time: later.\n"
        "We could try wrk or ab (ApacheBench) next week with 100 connections.\n"
        "Coverage of the new code is fine; tps = what users care about.\n"
        "Running 5 tests @ lunch\n"
    )
    assert rows(extract_results(text)) == []
    assert by_name("yetus-qa-report").parse(text) == []


# --- corpus and seeds ------------------------------------------------------------------

LABELS = {
    lab["id"]: lab for lab in map(json.loads, (CORPUS / "labels.jsonl").read_text().splitlines())
}
# corpus positives whose labels name one of my formats: how many `expect` values my
# parsers carry (arrow-0002's fourth row is archery's; arrow-0010's criterion log is cut
# before its results, its numbers are prose)
CARRIED = {"arrow-0002": 3, "arrow-0008": 4, "arrow-0015": 4, "datafusion-0007": 4, "arrow-0010": 0}


def test_carried_list_is_complete():
    named = {i for i, lab in LABELS.items() if set(lab.get("formats") or []) & MINE}
    assert named == set(CARRIED)


@pytest.mark.parametrize("corpus_id", sorted(CARRIED))
def test_corpus_positives_carried_by_my_formats(corpus_id):
    tables = [t for t in extract_results(body(corpus_id)) if t.format in MINE]
    found = {m.value for t in tables for m in t.measurements}
    expected = [parse_number(e["value"].lstrip("+")) for e in LABELS[corpus_id]["expect"]]
    assert len([v for v in expected if v is not None and v in found]) == CARRIED[corpus_id]


@pytest.mark.parametrize(
    "corpus_id", sorted(i for i, lab in LABELS.items() if not lab["is_benchmark"])
)
def test_corpus_negatives_give_no_rows_from_my_formats(corpus_id):
    assert rows(extract_results(body(corpus_id))) == []


CI_REPORTS = ["hadoop-0003", "hbase-0003", "hbase-0004", "hadoop-0009", "yetus-0001",
              "streams-0001", "arrow-0006", "spark-0007", "kafka-0003"]  # fmt: skip


@pytest.mark.parametrize("corpus_id", CI_REPORTS)
def test_ci_and_build_reports_are_claimed_as_noise(corpus_id):
    text = body(corpus_id)
    assert [t for name in NOISE for t in by_name(name).parse(text)]
    assert extract_results(text) == []
    assert extract_results(flatten(text)) == []


@pytest.mark.parametrize(
    "seed", sorted((FIXTURES / "seeds").glob("*.txt")), ids=lambda p: p.name[:3]
)
def test_seeds_give_no_rows_from_my_formats(seed):
    assert rows(extract_results(seed.read_text(encoding="utf-8"))) == []


# --- robustness: the unguarded `_parse` must not raise on odd or cut input --------------

MODULES = ["google_benchmark", "go_bench", "benchstat", "criterion", "ab", "wrk", "sysbench",
           "pgbench", "benchmark_js", "yetus", "surefire", "coverage"]  # fmt: skip
ODD = [
    "",
    " ",
    "\n\n",
    "│",
    "│ │",
    "│ a │ b │ │ c │",
    "time: [",
    "time: [1 ms 2 ms 3 ms]",
    "x 1 ops/sec",
    "Benchmark",
    "BenchmarkX 1",
    "BenchmarkX 1 2 ns/op",
    "name old time/op new time/op delta",
    "name old time/op new time/op delta\nA 1 ± 1% 2 ± 1% ~",
    "tps = ",
    "tps = 1",
    "[ 1s ] thds:",
    "Running 1s test @",
    "Thread Stats Avg Stdev Max +/- Stdev\nLatency 1ms 1ms 1ms 1%",
    "This is ApacheBench, Version",
    "Requests per second: 1 [#/sec]",
    "+1 overall",
    "[INFO]",
    "Tests run: 1, Failures: 0, Errors: 0, Skipped: 0",
    "# [Codecov]() Report",
    "\x00�",
    "SQL statistics:\n queries performed:\n read:",
    "-" * 5000,
    " " * 5000 + "│",
]


@pytest.mark.parametrize("module", MODULES)
def test_parse_survives_odd_and_truncated_input(module):
    parse = importlib.import_module(f"extract.results.formats.{module}").parse
    for text in ODD:
        assert isinstance(parse(text), list)
    samples = sorted(FORMATS.glob("*.txt"))[::3]
    for path in samples:
        text = path.read_text(encoding="utf-8")
        for cut in range(0, len(text), max(1, len(text) // 7)):
            for piece in (text[:cut], text[cut:]):
                for table in parse(piece):
                    assert 0 <= table.span[0] <= table.span[1] <= len(piece)


def test_criterion_heading_is_the_runs_not_the_outlier_line():
    text = (
        "After the patch:\n\n"
        + (CORPUS / "arrow-0008.txt")
        .read_text(encoding="utf-8")
        .split("```shell\n", 1)[1]
        .split("...\n", 1)[1]
    )
    tables = by_name("criterion").parse(text)
    assert [t.variant for t in tables] == ["After the patch", "After the patch"]


def test_pgbench_statement_latencies():
    text = (
        "tps = 896.967014 (without initial connection time)\n"
        "statement latencies in milliseconds:\n"
        "         0.002  \\set aid random(1, 100000 * :scale)\n"
        "         0.183  BEGIN;\n"
        "         0.260  UPDATE pgbench_accounts SET abalance = abalance + :delta;\n"
        "         3.148  END;\n"
        "\nThat is all.\n"
    )
    tables = [t for t in by_name("pgbench").parse(text) if t.caption and "statement" in t.caption]
    (table,) = tables
    assert [(m.label, m.value) for m in table.measurements][1] == ("BEGIN;", 0.183)
    assert len(table.rows) == 4
    assert table.source(text).endswith("END;")


def test_hadoop_qa_jira_color_form_is_noise():
    text = (
        "{color:red}-1 overall{color}.  Here are the results of testing the latest attachment\n"
        "  http://issues.apache.org/jira/secure/attachment/12345/HDFS-1.patch\n"
        "  against trunk revision 1234567.\n\n"
        "    {color:green}+1 @author{color}.  The patch does not contain any @author tags.\n\n"
        "    {color:red}-1 core tests{color}.  The patch failed these unit tests:\n"
        "                  org.apache.hadoop.hdfs.TestFoo\n\n"
        "Test results: https://builds.apache.org/job/PreCommit-HDFS-Build/5678//testReport/\n"
        "Console output: https://builds.apache.org/job/PreCommit-HDFS-Build/5678//console\n\n"
        "This message is automatically generated.\n"
    )
    (table,) = by_name("yetus-qa-report").parse(text)
    assert table.span == (0, len(text) - 1)
    assert extract_results(text) == []


def test_google_benchmark_repetition_aggregates_stay_one_table():
    text = (
        "-----------------------------------------------------------\n"
        "Benchmark                 Time             CPU   Iterations\n"
        "-----------------------------------------------------------\n"
        "BM_Sort/1024_mean      8120 ns         8118 ns            3\n"
        "BM_Sort/1024_median    8101 ns         8100 ns            3\n"
        "BM_Sort/1024_stddev    41.2 ns         40.9 ns            3\n"
        "BM_Sort/1024_cv        0.51 %          0.50 %             3\n"
    )
    (table,) = by_name("google-benchmark").parse(text)
    assert len(table.rows) == 4
    assert [(m.value, m.unit) for m in table.measurements if m.label.endswith("_cv")][0] == (
        0.51,
        "%",
    )
