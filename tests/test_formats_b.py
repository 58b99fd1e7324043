"""formats-B parsers beyond the shared fixtures: the seeds' blocks, flattened and
hard-wrapped mail, headings as variants, and realistic noise that must stay silent.

Every check runs the whole registry (`extract_results`), as extraction does, unless
it is about one parser's own behaviour (never raising, speed on long lines)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from extract.results.formats import by_name, extract_results
from extract.results.units import parse_number

HERE = Path(__file__).parent
SEEDS = HERE / "fixtures" / "seeds"
CORPUS = HERE / "fixtures" / "corpus" / "dev"

MINE = [
    "gnu-time",
    "bash-time",
    "hbase-pe",
    "ycsb",
    "testdfsio",
    "spark-benchmark",
    "sql-timing",
    "prose",
    "kafka-perf",
    "cassandra-stress",
    "jmeter",
    "doris-bench",
    "conbench",
]


def seed(prefix: str) -> str:
    return next(SEEDS.glob(f"{prefix}_*.txt")).read_text(encoding="utf-8")


def rows(text: str, fmt: str | None = None):
    """(format, label, variant, metric, value, unit) of every measurement found."""
    return [
        (t.format, m.label, m.variant, m.metric, m.value, m.unit)
        for t in extract_results(text)
        for m in t.measurements
        if fmt is None or t.format == fmt
    ]


def flatten(text: str) -> str:
    """What a GitBox notification does to a comment: every whitespace run → one space."""
    return " ".join(text.split())


# --- seed 003 (KNOX-1524): 21 GNU time runs under 7 headings --------------------

SEED3_HEADINGS = [
    "HDFS -text",
    "Beeline binary default fetchSize=1000",
    "Beeline http default fetchSize=1000",
    "Beeline knox http default fetchSize=1000",
    "Beeline binary fetchSize=10000",
    "Beeline http fetchSize=10000",
    "Beeline knox http fetchSize=10000",
]


def test_seed3_gnu_time_runs_grouped_by_heading():
    found = rows(seed("003"), "gnu-time")
    runs = {(variant, label) for _, label, variant, *_ in found}
    assert len(runs) == 21
    assert {v for v, _ in runs} == set(SEED3_HEADINGS)
    assert {lab for _, lab in runs} == {"run 1", "run 2", "run 3"}
    first = {(m, v, u) for _, lab, var, m, v, u in found if var == "HDFS -text" and lab == "run 1"}
    assert first == {
        ("user", 2.43, "s"),
        ("system", 0.39, "s"),
        ("elapsed", 2.10, "s"),
        ("CPU", 134, "%"),
    }
    last = [r for r in found if r[2] == "Beeline knox http fetchSize=10000" and r[1] == "run 3"]
    assert ("gnu-time", "run 3", "Beeline knox http fetchSize=10000", "elapsed", 7.57, "s") in last


def test_seed3_numbers_in_noise_are_not_measurements():
    found = rows(seed("003"))
    values = {r[4] for r in found}
    # commit id digits, KNOX ids, fetchSize, row counts and JIRA version numbers
    for noise in (488, 1524, 1530, 10000, 1000, 200000, 1000000, 1.2, 7.6):
        assert noise not in values, noise
    assert {r[0] for r in found} == {"gnu-time"}


def test_gnu_time_flattened_keeps_inline_headings():
    found = rows(flatten(seed("003")), "gnu-time")
    variants = {r[2] for r in found}
    assert len({(r[1], r[2]) for r in found}) == 21
    assert "Beeline http fetchSize=10000" in variants or any(
        v and v.endswith("Beeline http fetchSize=10000") for v in variants
    )


def test_gnu_time_record_wrapped_by_jira():
    text = (
        "Before:\n35.45user 1.91system 0:38.35elapsed\n"
        "97%CPU (0avgtext+0avgdata 2907344maxresident)k\n"
    )
    found = rows(text, "gnu-time")
    assert (None, "Before", "elapsed", 38.35, "s") in [r[1:] for r in found]
    assert (None, "Before", "max_resident", 2907344, "KB") in [r[1:] for r in found]


def test_gnu_time_verbose_flattened():
    text = (
        'Command being timed: "mvn -q package" User time (seconds): 110.50 System time (seconds): '
        "27.38 Percent of CPU this job got: 296% Elapsed (wall clock) time (h:mm:ss or m:ss): "
        "1:02:03 Maximum resident set size (kbytes): 4572688 Exit status: 0"
    )
    found = {r[3]: (r[1], r[4], r[5]) for r in rows(text, "gnu-time")}
    assert found["Elapsed (wall clock) time"] == ("mvn -q package", 3723.0, "s")
    assert found["Percent of CPU this job got"] == ("mvn -q package", 296, "%")
    assert "Exit status" not in found


# --- seed 001 (KUDU-1930): timed glog lines, hard-wrapped, with wrapped headings ----


def test_seed1_kudu_log_timing_variants():
    found = rows(seed("001"), "bash-time")
    real = {r[2]: r[4] for r in found if r[3] == "real"}
    assert real == {
        "with 1 MM thread": 1140.187,
        "with 4 MM threads": 618.348,
        "with 4 MM threads, hash partition": 1233.386,
        "with 4 MM threads, using dense_hash_map instead of std::unordered_map for "
        "dictionary builder": 1147.478,
    }
    sys_times = sorted(r[4] for r in found if r[3] == "sys")
    assert sys_times == [5.315, 5.437, 6.084, 6.2]
    assert all(r[1].startswith("Time spent by thread") for r in found)
    # glog timestamps, thread ids and source line numbers stay out
    values = {r[4] for r in rows(seed("001"))}
    assert not values & {1568, 8524, 278, 289, 13.0, 1930}


def test_bash_time_blocks_take_the_heading_before_them():
    text = (
        "Without the patch:\n\n```\nreal\t4m19.085s\nuser\t3m15.683s\nsys\t0m5.358s\n```\n\n"
        "With the patch:\n```\nreal\t1m0.500s\nuser\t0m55.000s\nsys\t0m1.000s\n```\n"
    )
    found = rows(text, "bash-time")
    assert ("bash-time", None, "Without the patch", "real", 259.085, "s") in found
    assert ("bash-time", None, "With the patch", "real", 60.5, "s") in found
    assert len(found) == 6


def test_bash_time_flattened_comment():
    text = flatten("After patch: ```\nreal 0m4.085s\nuser 0m3.1s\nsys 0m0.2s\n``` Thanks")
    found = rows(text, "bash-time")
    assert ("bash-time", None, "After patch", "real", 4.085, "s") in found
    assert len(found) == 3


def test_zsh_time_line_labelled_by_its_command():
    text = "With the patch:\nmvn -q package  101.23s user 5.45s system 198% cpu 1:02.712 total\n"
    found = rows(text, "bash-time")
    assert ("bash-time", "mvn -q package", "With the patch", "total", 62.712, "s") in found
    assert ("bash-time", "mvn -q package", "With the patch", "CPU", 198, "%") in found
    assert rows(text) == found  # prose does not count the same numbers again


def test_bare_real_in_a_sentence_is_not_a_time_record():
    text = "The real 5s delay comes from the retry policy, not from user code or sys calls."
    assert rows(text, "bash-time") == []


# --- seed 002 (HBase PR #1858): flattened PE summaries, Before/After patch ---------


def test_seed2_hbase_pe_flattened_before_after():
    found = rows(seed("002"), "hbase-pe")
    by_variant = {}
    for _, label, variant, metric, value, unit in found:
        by_variant.setdefault(variant, []).append((label, metric, value, unit))
    assert set(by_variant) == {"Before patch", "After patch"}
    before = by_variant["Before patch"]
    assert len([r for r in before if r[1] == "timing"]) == 10
    assert ("RandomReadTest client 0", "timing", 141302, "ms") in before
    assert ("RandomReadTest", "duration_avg", 140524, "ms") in before
    assert ("RandomReadTest", "avg_latency", 1403, "us") in before
    assert ("RandomReadTest", "avg_tps", 7117, "rows/s") in before
    assert ("RandomReadTest", "avg_tps", 7114, "rows/s") in by_variant["After patch"]
    # timestamps, node counts and CLI args (--presplit=5, --rows=100000, 10 clients) stay out
    values = {r[4] for r in rows(seed("002"))}
    assert not values & {2020, 5, 100000, 22, 54, 30, 362}


def test_hbase_pe_line_based_log_with_heading():
    text = (
        "After patch:\n"
        "2020-06-07 22:49:25,980 INFO  [main] hbase.PerformanceEvaluation: "
        "[RandomWriteTest duration ]\tMin: 139256ms\tMax: 142181ms\tAvg: 140561ms\n"
        "2020-06-07 22:49:25,980 INFO  [main] hbase.PerformanceEvaluation: "
        "[ Avg latency (us)]\t1403\n"
    )
    found = rows(text, "hbase-pe")
    assert ("hbase-pe", "RandomWriteTest", "After patch", "duration_max", 142181, "ms") in found
    assert ("hbase-pe", "RandomWriteTest", "After patch", "avg_latency", 1403, "us") in found


def test_hbase_pe_older_finished_lines():
    text = (
        "Before patch:\n2014-01-03 10:00:01,123 INFO  [TestClient-1] hbase.PerformanceEvaluation: "
        "Finished class org.apache.hadoop.hbase.PerformanceEvaluation$RandomReadTest in 140524ms "
        "at offset 0 for 100000 rows (12.34 MB/s)\n2014-01-03 10:00:01,124 INFO  [main] "
        "hbase.PerformanceEvaluation: Finished TestClient-1 in 140600ms over 100000 rows\n"
    )
    found = rows(text)
    assert found == [
        ("hbase-pe", "RandomReadTest", "Before patch", "time", 140524, "ms"),
        ("hbase-pe", "RandomReadTest", "Before patch", "throughput", 12.34, "MB/s"),
        ("hbase-pe", "TestClient-1", "Before patch", "time", 140600, "ms"),
    ]


# --- seed 000 (Hive PR #3644): prose next to a markdown table ----------------------


def test_seed0_prose_reads_the_sentences_not_the_table():
    from extract.results.formats import by_name

    text = seed("000")
    tables = extract_results(text)
    table_spans = [t.span for t in tables if t.format != "prose"]
    # Read alone, prose finds the sentences' numbers ...
    alone = [t for t in by_name("prose").parse(text)]
    written = [m.written for t in alone for m in t.measurements]
    assert "9 sec" in written and "around 27 sec" in written and "3x" in written
    # ... but in the registry the table's `9 sec` / `27 sec` are counted once, by the
    # table, and prose keeps only what the table does not say (the 3x).
    prose = [(m.written, m.unit) for t in tables if t.format == "prose" for m in t.measurements]
    assert prose == [("3x", "x")]
    cells = [
        (m.value, m.unit) for t in tables if t.format == "markdown-table" for m in t.measurements
    ]
    assert (9.0, "sec") in cells and (27.0, "sec") in cells
    prose_spans = [t.span for t in tables if t.format == "prose"]
    assert not any(a[0] < b[1] and b[0] < a[1] for a in prose_spans for b in table_spans)


# --- the other tool formats: flattened mail and headings --------------------------

YCSB = """With patch

{code}
2019-10-14 18:07:32:614 50 sec: 1000000 operations; 17966 current ops/sec; [READ: Count=2764, Max=8487]
[OVERALL], RunTime(ms), 50503
[OVERALL], Throughput(ops/sec), 19800.803912638854
[TOTAL_GCS_PS_Scavenge], Count, 81
[READ], Operations, 268606
[READ], AverageLatency(us), 518.1957923501336
[READ], Return=OK, 268606
[UPDATE], 0, 464
{code}
"""  # noqa: E501


def test_ycsb_heading_above_status_line_and_noise_sections():
    found = rows(YCSB, "ycsb")
    assert ("ycsb", "OVERALL", "With patch", "Throughput", 19800.803912638854, "ops/sec") in found
    assert ("ycsb", "READ", "With patch", "AverageLatency", 518.1957923501336, "us") in found
    assert ("ycsb", "READ", "With patch", "Return=OK", 268606, "count") in found
    metrics = {r[3] for r in found}
    assert "Count" not in metrics and "0" not in metrics  # GC stats, histogram buckets
    assert {r[4] for r in found if r[1] == "OVERALL"} == {50503, 19800.803912638854}
    flat = [(r[1], r[3], r[4], r[5]) for r in rows(flatten(YCSB), "ycsb")]
    assert flat == [(r[1], r[3], r[4], r[5]) for r in found]


def test_testdfsio_flattened_with_log_prefixes():
    text = flatten(
        "18/04/16 09:51:05 INFO fs.TestDFSIO: ----- TestDFSIO ----- : write\n"
        "18/04/16 09:51:05 INFO fs.TestDFSIO:            Date & time: Mon Apr 16 09:51:05 EDT"
        " 2018\n"
        "18/04/16 09:51:05 INFO fs.TestDFSIO:        Number of files: 300\n"
        "18/04/16 09:51:05 INFO fs.TestDFSIO:      Throughput mb/sec: 77.07\n"
        "18/04/16 09:51:05 INFO fs.TestDFSIO:     Test exec time sec: 66.1\n"
    )
    found = rows(text, "testdfsio")
    assert ("testdfsio", "TestDFSIO write", None, "Throughput mb/sec", 77.07, "MB/s") in found
    assert ("testdfsio", "TestDFSIO write", None, "Test exec time sec", 66.1, "s") in found
    assert all(r[4] not in (16, 9, 51, 2018) for r in rows(text))


SPARK = """Before:
```
OpenJDK 64-Bit Server VM 17.0.9+9-LTS on Linux 5.15.0-1053-azure
Intel(R) Xeon(R) Platinum 8272CL CPU @ 2.60GHz
encode for 1:                             Best Time(ms)   Avg Time(ms)   Stdev(ms)    Rate(M/s)   Per Row(ns)   Relative
------------------------------------------------------------------------------------------------------------------------
java                                               2161           2194          55          9.3         108.0       1.0X
apache                                            11265          11344          76          1.8         563.2       0.2X
```
"""  # noqa: E501


def test_spark_benchmark_jvm_and_cpu_lines_are_not_measurements():
    found = rows(SPARK)
    assert {r[0] for r in found} == {"spark-benchmark"}
    assert len(found) == 12
    assert not {r[4] for r in found} & {17.0, 9.0, 5.15, 1053, 8272, 2.6}


def test_spark_benchmark_flattened():
    found = rows(flatten(SPARK), "spark-benchmark")
    assert ("spark-benchmark", "java", None, "Best Time(ms)", 2161, "ms") in found
    assert ("spark-benchmark", "apache", None, "Relative", 0.2, "x") in found
    assert len(found) == 12


def test_spark_benchmark_sbt_info_prefix_and_progress():
    text = (
        "[info] Running benchmark: parquet writer benchmark\n"
        "[info]   Running case: Output Single Int Column\n"
        "[info]   Stopped after 2 iterations, 2962 ms\n"
        "[info] parquet writer benchmark:                 Best Time(ms)   Avg Time(ms)   Stdev(ms)"
        "    Rate(M/s)   Per Row(ns)   Relative\n"
        "[info] ---------------------------------------------------------------------------------\n"
        "[info] Output Single Int Column                           1405           1481         107"
        "         11.2          89.4       1.0X\n"
    )
    found = rows(text, "spark-benchmark")
    assert (
        "spark-benchmark",
        "Output Single Int Column",
        None,
        "Stopped after 2 iterations",
        2962,
        "ms",
    ) in found
    assert (
        "spark-benchmark",
        "Output Single Int Column",
        None,
        "Avg Time(ms)",
        1481,
        "ms",
    ) in found
    tables = [t for t in extract_results(text) if t.format == "spark-benchmark"]
    assert "parquet writer benchmark" in {t.caption for t in tables}


def test_kafka_producer_flattened_summary_and_intervals():
    text = flatten(
        "Before:\n1001264 records sent, 199534.5 records/sec (19.03 MB/sec), "
        "1031.4 ms avg latency, 1618.0 max latency.\n"
        "100000000 records sent, 877023.732262 records/sec (83.64 MB/sec), 331.20 ms avg latency, "
        "1618.00 ms max latency, 320 ms 50th, 372 ms 95th, 856 ms 99th, 1461 ms 99.9th."
    )
    found = rows(text, "kafka-perf")
    assert ("kafka-perf", "interval 1", "Before", "max_latency", 1618.0, "ms") in found
    assert ("kafka-perf", "summary", "Before", "p99.9_latency", 1461, "ms") in found


def test_cassandra_stress_results_heading_and_breakdown():
    text = (
        "Cassandra 4.0:\nResults:\n"
        "Op rate                   :  409,767 op/s  [insert: 273,166 op/s]\n"
        "Latency 99th percentile   :    0.5 ms [insert: 0.4 ms]\n"
        "Total operation time      : 02:00:00\nEND\n"
    )
    found = rows(text, "cassandra-stress")
    assert ("cassandra-stress", "total", "Cassandra 4.0", "Op rate", 409767, "op/s") in found
    assert ("cassandra-stress", "insert", "Cassandra 4.0", "Op rate", 273166, "op/s") in found
    assert (
        "cassandra-stress",
        "total",
        "Cassandra 4.0",
        "Total operation time",
        7200,
        "s",
    ) in found


def test_cassandra_stress_results_flattened():
    text = flatten(
        "Results:\nOp rate : 46751 [WRITE:46751]\nLatency mean : 4.3 [WRITE:4.3]\n"
        "total gc count : 18\ntotal gc mb : 10742\nTotal operation time : 00:00:21\nEND\nDone."
    )
    found = rows(text, "cassandra-stress")
    assert ("cassandra-stress", "WRITE", None, "Op rate", 46751, "op/s") in found
    assert ("cassandra-stress", "total", None, "total gc count", 18, "count") in found
    assert ("cassandra-stress", "total", None, "total gc mb", 10742, "MB") in found
    assert ("cassandra-stress", "total", None, "Total operation time", 21, "s") in found


def test_kafka_consumer_csv_flattened():
    text = flatten(
        "=== new\nstart.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, "
        "nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec\n"
        "2023-02-23 11:00:27:431, 2023-02-23 11:00:31:063, 3.2949, 0.9072, 3455, 951.2665, 3557, "
        "75, 43.9326, 46066.6667\nThanks"
    )
    found = rows(text, "kafka-perf")
    assert ("kafka-perf", None, None, "MB.sec", 0.9072, "MB/s") in found
    assert ("kafka-perf", None, None, "fetch.nMsg.sec", 46066.6667, "msg/s") in found
    assert len(found) == 8  # timestamps are not measurements


def test_sql_timing_label_is_the_statement():
    text = (
        "mysql> select count(*) from lineitem;\n+----------+\n| count(*) |\n+----------+\n"
        "| 6001215 |\n+----------+\n1 row in set (1.23 sec)\n"
    )
    found = rows(text, "sql-timing")
    assert ("sql-timing", "select count(*) from lineitem", None, "elapsed", 1.23, "s") in found


def test_doris_rounds_flattened():
    lines = "\n".join(f"q{i}\t{1000 + i}\t{500 + i}\t{400 + i}\t{400 + i}" for i in range(1, 6))
    text = flatten(
        f"------ Round 1 ------\n{lines}\nTotal cold run time: 5015 ms\nTotal hot run time: 2015 ms"
    )
    found = rows(text, "doris-bench")
    assert ("doris-bench", "q3", "Round 1", "cold_run", 1003, "ms") in found
    assert ("doris-bench", "total", "Round 1", "Total hot run time", 2015, "ms") in found


# --- prose: what counts, and what must not ---------------------------------------

PROSE_POSITIVE = [
    (
        "This reduces the build time from 10 min to 2 min.",
        [("10 min", "before"), ("2 min", "after")],
    ),
    (
        "We saw writes go from 320k rows/sec -> 650k rows/sec after this change.",
        [("320k rows/sec", "before"), ("650k rows/sec", "after")],
    ),
    ("The patched build is 2x faster than trunk.", [("2x", None)]),
    ("It improved throughput by 30% on our cluster.", [("30%", None)]),
    (
        "Without the fix the dump took around 27 sec; it takes 9 sec with the patch.",
        [("around 27 sec", None), ("9 sec", "after")],
    ),
    (
        "The build time on some machines is 0:50 min -> 4:40 min.",
        [("0:50 min", "before"), ("4:40 min", "after")],
    ),
]


@pytest.mark.parametrize("text,expected", PROSE_POSITIVE)
def test_prose_finds_measured_numbers(text, expected):
    found = [
        (m.written, m.variant)
        for t in extract_results(text)
        if t.format == "prose"
        for m in t.measurements
    ]
    assert found == expected


def test_prose_values_are_numbers_as_written():
    found = {
        m.written: (m.value, m.unit)
        for t in extract_results(
            "It went from ~6k/ms to ~35k/ms, and the build from 4:40 min to 1,430 ms."
        )
        for m in t.measurements
    }
    assert found["~6k/ms"] == (6000, "/ms")
    assert found["~35k/ms"] == (35000, "/ms")
    assert found["4:40 min"] == (280, "s")
    assert found["1,430 ms"] == (1430, "ms")


PROSE_NEGATIVE = [
    "Released on 2023-05-19 in version 3.4.2 (HDFS-1234), see https://x.test/a%20b for 10 minutes.",
    "This should be 30% faster once the cache is warm.",
    "We expect a 2x speedup from vectorization.",
    "Set the session timeout to 30 seconds and the heartbeat interval to 3 s.",
    "Fixed by pre-generating 10k pairs (100x the cache capacity) and iterating over them.",
    "Run with --warmup 10s -t 16 -c 640 and @Warmup(iterations = 3, time = 1).",
    "Code coverage increased to 85% with 1,234 lines covered.",
    "Can the p99 be < 2ms? Could we get 50% lower latency?",
    "[INFO] BUILD SUCCESS\n[INFO] Total time:  02:05 min\n[INFO] Finished at: 2021-03-22T11:20",
    "> The old build took 10 min to finish.\n> Now it takes 2 min.\n\nThanks, merged.",
    "```\ntook 27 sec\n```",
    "Finished release [optimized] target(s) in 0.23s",
    "Sleeping 2s for propagation. Waiting 5 minutes before retry.",
    "We run the job with a 100 ms poll timeout and a 5 s flush interval.",
]


@pytest.mark.parametrize("text", PROSE_NEGATIVE)
def test_prose_stays_silent_on_noise(text):
    assert rows(text) == []


# --- negatives for the tool parsers ------------------------------------------------


NOISE = [
    "Benchmark runs are scheduled for commit 8ba8308b337b268e744028fdf35137709b4e37fd. Watch https://buildkite.com/x.",
    "[UPDATE], 0, 464\n[UPDATE], 1, 27\n",
    "time: 2023-02-07 17:53:25:127, threadId: 3, total: 4",
    "q1 is about joins. q2 has 3 columns and 4 rows.",
    "Results:\nThe results were good.\nEND",
    "Results:\nThroughput: 1234\nErrors: 0\n",
    "summary + is printed every 30 seconds by default",
]


@pytest.mark.parametrize("text", NOISE)
def test_tool_parsers_silent_on_lookalikes(text):
    assert rows(text) == []


# --- robustness: never raise, never crawl -----------------------------------------

ODD_INPUTS = [
    "",
    "\n\n\n",
    "\x00\x01\ufffd" * 50,
    "real user sys real 0m user 0m",
    "[OVERALL], RunTime(ms), \n[READ], , ,",
    "----- TestDFSIO ----- :\n Throughput mb/sec: NaN\n",
    "Results:\nOp rate : \nEND",
    "Best Time(ms)   Avg Time(ms)   Stdev(ms)    Rate(M/s)   Per Row(ns)   Relative",
    "summary = 1 in 99:99:99 = 1/s Avg: 1 Min: 1 Max: 1 Err: 1 (1%)",
    "1 records sent, 1 records/sec (1 MB/sec), 1 ms avg latency, 1 max latency.",
]


@pytest.mark.parametrize("name", MINE)
def test_parsers_never_raise(name):
    mod = by_name(name)
    for text in ODD_INPUTS:
        assert isinstance(mod.parse(text), list)


@pytest.mark.parametrize("name", MINE)
def test_parsers_are_linear_on_long_flattened_lines(name):
    # a flattened thread is one long line; a quadratic regex would take minutes here
    text = (
        "Some words 12 ms, a table | 3 | and ```code``` plus 2020-01-01 12:00:00,123 INFO x: "
        * 2500
    ) + " " * 20000
    start = time.perf_counter()
    by_name(name).parse(text)
    assert time.perf_counter() - start < 2.0


# --- the labelled corpus -------------------------------------------------------------

MY_CORPUS_FORMATS = {
    "gnu-time",
    "bash-time",
    "hbase-pe",
    "ycsb",
    "testdfsio",
    "spark-benchmark",
    "prose",
}
# formats that only describe transport (a diff around the table, JIRA {code} markup)
TRANSPORT = {"other:diff", "other:jira-code-markup"}


def _labels():
    return [
        json.loads(line)
        for line in (CORPUS / "labels.jsonl").read_text(encoding="utf-8").splitlines()
    ]


def _body(item_id: str) -> str:
    return (CORPUS / f"{item_id}.txt").read_text(encoding="utf-8").split("\n\n", 1)[1]


def _as_written(value: str) -> list[float]:
    """`~3.5` → 3.5, `2-5` → 2 and 5, `29241 / 29279` → both, `4:40` → 280 (clock)."""
    v = re.sub(r"^(?:~|about |more than |within |\+)", "", value.strip())
    out = [parse_number(p) for p in re.split(r"\s*/\s*|(?<=\d)-(?=\d)", v)]
    return [x for x in out if x is not None]


def test_corpus_recall_where_formats_b_carry_the_numbers():
    """Positives whose every format is one of ours: their expected values are found."""
    total = hit = 0
    missed = []
    for item in _labels():
        formats = set(item.get("formats", []))
        if not item["is_benchmark"] or not formats or not formats <= MY_CORPUS_FORMATS | TRANSPORT:
            continue
        values = [m.value for t in extract_results(_body(item["id"])) for m in t.measurements]
        for expect in item["expect"]:
            total += 1
            wanted = _as_written(expect["value"])
            if any(abs(v - w) <= 1e-6 * max(1.0, abs(w)) for v in values for w in wanted):
                hit += 1
            else:
                missed.append((item["id"], expect["value"], expect["unit"]))
    assert total >= 40
    # hdfs-0003 `within 15%` is a bound (`within` reads as a setting word); it is found
    # only because the same message also says `15% improvement`, so allow that one miss
    assert hit >= total - 1, missed


def test_corpus_negatives_get_no_rows_from_formats_b():
    noisy = {}
    for item in _labels():
        if item["is_benchmark"]:
            continue
        found = [
            (t.format, m.written)
            for t in extract_results(_body(item["id"]))
            for m in t.measurements
            if t.format in MINE
        ]
        if found:
            noisy[item["id"]] = found
    assert noisy == {}
