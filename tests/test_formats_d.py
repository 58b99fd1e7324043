"""formats-D parsers beyond the shared fixtures: silence where nothing is measured
(every corpus negative, the seeds), the same rows from a mail flattened onto one
line, other real variants of each tool's output, and never raising on odd input."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from extract.dev.eval import read_message
from extract.results.formats import by_name, extract_results
from extract.results.units import to_si

HERE = Path(__file__).parent
CORPUS = HERE / "fixtures" / "corpus" / "dev"
SEEDS = HERE / "fixtures" / "seeds"
FIXTURES = HERE / "fixtures" / "formats"

MINE = [
    "luceneutil",
    "pulsar-perf",
    "dropwizard-metrics",
    "autotvm",
    "tvm-bench",
    "benchmark-driver",
    "log-timing",
    "delimited",
]


# Formats whose records are lines: a flattened mail loses them (documented).
NEED_LINE_BREAKS = ("delimited--", "log-timing--tvm-issue7379-latency-lines")


def labels() -> dict[str, dict]:
    with open(CORPUS / "labels.jsonl", encoding="utf-8") as f:
        return {row["id"]: row for row in map(json.loads, f)}


NEGATIVES = sorted(i for i, row in labels().items() if not row["is_benchmark"])


def flatten(text: str) -> str:
    """What a GitBox notification does to a comment: every whitespace run → one space."""
    return " ".join(text.split())


def mine(text: str, fmt: str | None = None):
    """(format, label, metric, value, unit) of every measurement of formats-D's parsers."""
    return [
        (t.format, m.label, m.metric, m.value, m.unit)
        for t in extract_results(text)
        for m in t.measurements
        if t.format in MINE and (fmt is None or t.format == fmt)
    ]


def test_corpus_has_negatives():
    assert len(NEGATIVES) >= 50


@pytest.mark.parametrize("corpus_id", NEGATIVES)
def test_silent_on_corpus_negatives(corpus_id):
    body = read_message(CORPUS / f"{corpus_id}.txt").body
    for text in (body, flatten(body)):
        for name in MINE:
            tables = by_name(name).parse(text)
            assert [m for t in tables for m in t.measurements] == [], name


@pytest.mark.parametrize("seed", sorted(p.name for p in SEEDS.glob("*.txt")))
def test_silent_on_seeds(seed):
    text = (SEEDS / seed).read_text(encoding="utf-8")
    for name in MINE:
        assert [m for t in by_name(name).parse(text) for m in t.measurements] == [], name


@pytest.mark.parametrize(
    "case",
    sorted(
        p.name.removesuffix(".txt")
        for p in FIXTURES.glob("*--*.txt")
        if p.name.split("--")[0] in MINE and not p.name.startswith(NEED_LINE_BREAKS)
    ),
)
def test_flattened_fixture_reads_the_same(case):
    """(Delimited tables and timing lines need their line breaks: not in this test.)"""
    text = (FIXTURES / f"{case}.txt").read_text(encoding="utf-8")
    fmt = case.split("--")[0]
    as_written = {(m[1], m[2], m[3], m[4]) for m in mine(text, fmt)}
    flat = {(m[1], m[2], m[3], m[4]) for m in mine(flatten(text), fmt)}
    assert as_written and flat == as_written


def test_other_formats_fixtures_stay_with_their_parsers():
    """No fixture of another format is read by formats-D's parsers."""
    for path in FIXTURES.glob("*--*.txt"):
        if path.name.split("--")[0] in MINE:
            continue
        text = path.read_text(encoding="utf-8")
        assert mine(text) == [], path.name


# --- variants of each tool's output ------------------------------------------------

LUCENE_OLD = """\
                    Task    QPS base      StdDev    QPS comp      StdDev                Pct diff
                  IntNRQ       12.99      (2.7%)       13.37      (1.9%)    2.9% (  -1% -    7%)
                 Respell       45.51      (1.5%)       47.30      (2.1%)    3.9% (   0% -    7%)
"""


def test_luceneutil_without_p_value_column():
    rows = mine(LUCENE_OLD, "luceneutil")
    assert ("luceneutil", "IntNRQ", "QPS base", 12.99, "QPS") in rows
    assert ("luceneutil", "Respell", "QPS comp", 47.30, "QPS") in rows
    assert ("luceneutil", "Respell", "Pct diff", 3.9, "%") in rows
    assert not [r for r in rows if r[2] == "p-value"]


def test_luceneutil_table_claims_its_rows():
    tables = [t for t in extract_results(LUCENE_OLD) if t.measurements]
    assert [t.format for t in tables] == ["luceneutil"]
    assert len(tables[0].rows) == 2


PULSAR_CONSUMER = """\
Consumer, 1 partition:
15:47:28.430 [main] INFO  org.apache.pulsar.testclient.PerformanceConsumer - Throughput received: 4017.7 msg/s -- 31.4 Mbit/s --- Latency: mean: 5.263 ms - med: 5 - 95pct: 8 - 99pct: 11 - 99.9pct: 25 - 99.99pct: 29 - Max: 29
15:47:38.437 [main] INFO  org.apache.pulsar.testclient.PerformanceConsumer - Throughput received: 3999.5 msg/s -- 31.2 Mbit/s --- Latency: mean: 5.100 ms - med: 5 - 95pct: 7 - 99pct: 10 - 99.9pct: 19 - 99.99pct: 22 - Max: 22
15:47:40.001 [Thread-1] INFO  org.apache.pulsar.testclient.PerformanceProducer - Aggregated throughput stats --- 1000000 records sent --- 98034.5 msg/s --- 766.0 Mbit/s
"""  # noqa: E501


def test_pulsar_consumer_and_aggregated_records():
    rows = mine(PULSAR_CONSUMER, "pulsar-perf")
    assert ("pulsar-perf", "interval 15:47:28", "Throughput", 4017.7, "msg/s") in rows
    assert ("pulsar-perf", "interval 15:47:38", "Latency 99pct", 10.0, "ms") in rows
    assert ("pulsar-perf", "summary", "Records sent", 1000000.0, "records") in rows
    assert ("pulsar-perf", "summary", "Throughput", 766.0, "Mbit/s") in rows
    tables = [t for t in extract_results(PULSAR_CONSUMER) if t.format == "pulsar-perf"]
    assert len(tables) == 1 and tables[0].variant == "Consumer, 1 partition"


DROPWIZARD_NAMED = """\
-- Timers ----------------------------------------------------------------------
org.apache.hadoop.ozone.freon.OmKeyGenerator.key-create
             count = 1000
         mean rate = 112.05 calls/second
               min = 3.10 milliseconds
               max = 98.41 milliseconds
              mean = 8.77 milliseconds
              99% <= 61.20 milliseconds
"""


def test_dropwizard_named_timer_in_a_section():
    tables = [t for t in extract_results(DROPWIZARD_NAMED) if t.format == "dropwizard-metrics"]
    assert len(tables) == 1
    assert tables[0].variant == "Timers"
    got = {(m.label, m.metric, m.value, m.unit) for m in tables[0].measurements}
    name = "org.apache.hadoop.ozone.freon.OmKeyGenerator.key-create"
    assert (name, "mean rate", 112.05, "calls/second") in got
    assert (name, "99%", 61.2, "milliseconds") in got
    assert (name, "count", 1000.0, None) in got


def test_dropwizard_needs_a_rate_or_percentile():
    """Settings written `key = value` are not a metrics report."""
    settings = "count = 10\nmin = 1\nmax = 20\nmean = 5\nvalue = 3\n"
    assert mine(settings) == []


AUTOTVM_REDRAWN = """\
[Task  1/2]  Current/Best:   10.00/  20.00 GFLOPS | Progress: (10/100) | 5.00 s
[Task  1/2]  Current/Best:   30.00/  35.50 GFLOPS | Progress: (100/100) | 50.00 s Done.
[Task  2/2]  Current/Best:    1.50/   2.25 GFLOPS | Progress: (8/8) | 1.20 s Done.
"""


def test_autotvm_keeps_the_last_line_of_a_task():
    rows = mine(AUTOTVM_REDRAWN, "autotvm")
    assert ("autotvm", "Task 1/2", "Best", 35.5, "GFLOPS") in rows
    assert ("autotvm", "Task 1/2", "elapsed", 50.0, "s") in rows
    assert ("autotvm", "Task 2/2", "Current", 1.5, "GFLOPS") in rows
    assert not [r for r in rows if r[3] in (10.0, 20.0, 5.0)]


BENCHMARK_IPS = """\
Warming up --------------------------------------
            addition   281.000  i/100ms
           addition2   300.000  i/100ms
Calculating -------------------------------------
            addition      2.831k (± 2.3%) i/s -     14.331k in   5.064479s
           addition2      3.009M (± 1.0%) i/s -     15.000M in   5.000000s

Comparison:
           addition2:  3008742.6 i/s
            addition:  2831424.1 i/s - 1.06x  (± 0.00) slower
"""


def test_benchmark_ips_report():
    rows = mine(BENCHMARK_IPS, "benchmark-driver")
    assert ("benchmark-driver", "addition", "throughput", 2831.0, "i/s") in rows
    assert ("benchmark-driver", "addition2", "throughput", 3009000.0, "i/s") in rows
    assert ("benchmark-driver", "addition", "error", 2.3, "%") in rows
    assert ("benchmark-driver", "addition", "slowdown", 1.06, "x") in rows
    # warm-up rates are claimed, not counted
    assert not [r for r in rows if r[3] in (281.0, 300.0)]
    assert not [t for t in extract_results(BENCHMARK_IPS) if t.format == "prose"]


HIVE_EXECUTION_SUMMARY = """\
INFO  : Query Execution Summary
INFO  : -------------------------------------------------------------------------------------
INFO  : OPERATION                            DURATION
INFO  : -------------------------------------------------------------------------------------
INFO  : Compile Query                           0.29s
INFO  : Prepare Plan                            0.08s
INFO  : Run DAG                                 7.54s
INFO  : -------------------------------------------------------------------------------------
"""

HIVE_EXECUTION_SUMMARY_PLAIN = "\n".join(
    line.removeprefix("INFO  : ") for line in HIVE_EXECUTION_SUMMARY.splitlines()
)


def test_hive_execution_summary():
    rows = mine(HIVE_EXECUTION_SUMMARY_PLAIN, "log-timing")
    assert rows == [
        ("log-timing", "Compile Query", "time", 0.29, "s"),
        ("log-timing", "Prepare Plan", "time", 0.08, "s"),
        ("log-timing", "Run DAG", "time", 7.54, "s"),
    ]


PERFLOG = """\
2016-03-01 10:12:01,123 INFO  [main]: log.PerfLogger (PerfLogger.java:PerfLogEnd(148)) - </PERFLOG method=compile start=1456830720900 end=1456830721123 duration=223 from=org.apache.hadoop.hive.ql.Driver>
2016-03-01 10:12:03,456 INFO  [main]: log.PerfLogger (PerfLogger.java:PerfLogEnd(148)) - </PERFLOG method=Driver.execute start=1456830721200 end=1456830723456 duration=2256 from=org.apache.hadoop.hive.ql.Driver>
"""  # noqa: E501


def test_hive_perflogger_records():
    rows = mine(PERFLOG, "log-timing")
    assert rows == [
        ("log-timing", "compile", "duration", 223.0, "ms"),
        ("log-timing", "Driver.execute", "duration", 2256.0, "ms"),
    ]
    # start/end epoch millis are not measurements
    assert not [r for r in rows if r[3] > 1e9]


def test_a_summary_title_without_timed_steps_gives_nothing():
    text = "Change Summary\n--------------------\nFixed 3 bugs in 2 files\nSee HIVE-123\n"
    assert mine(text) == []


TSV_WITH_UNITS = "\n".join(
    [
        "Results per query (pasted from the sheet):",
        "query\tbaseline (ms)\tpatched (ms)\tspeedup [x]",
        "q1\t1,234.5\t1,100.0\t1.12",
        "q2\t88\t71\t1.24",
        "",
    ]
)


def test_tsv_with_units_in_the_header():
    rows = mine(TSV_WITH_UNITS, "delimited")
    assert ("delimited", "q1", "baseline (ms)", 1234.5, "ms") in rows
    assert ("delimited", "q2", "speedup [x]", 1.24, "x") in rows
    assert len(rows) == 6
    table = next(t for t in extract_results(TSV_WITH_UNITS) if t.format == "delimited")
    assert table.variant == "Results per query (pasted from the sheet)"


def test_quoted_csv_and_numeric_first_column():
    text = 'threads,"throughput, ops/s",p99 (ms)\n1,"1,200",3.5\n8,"8,800",4.1\n'
    rows = mine(text, "delimited")
    assert ("delimited", "threads 1", "throughput, ops/s", 1200.0, None) in rows
    assert ("delimited", "threads 8", "throughput, ops/s", 8800.0, None) in rows
    assert ("delimited", "threads 8", "p99 (ms)", 4.1, "ms") in rows
    assert len(rows) == 4  # the thread counts are settings, not measurements


@pytest.mark.parametrize(
    "text",
    [
        # dates, times and versions are not measurements
        "date,time,version\n2024-01-02,10:00,1.2.3\n",
        # a CSV whose rows hold words
        "name,role,team\nalice,committer,hbase\nbob,pmc,hive\n",
        # two columns only: a key/value listing, not a table of results
        "key,value\nthreads,8\n",
        # function calls and code are not headers
        "foo(a, b, c)\n1, 2, 3\n",
        # a header without data
        "Min, Max, Mean\n\nsee above\n",
    ],
)
def test_delimited_stays_silent(text):
    assert mine(text, "delimited") == []


def test_timing_lines_need_two_and_no_settings():
    one = "Result:\nTVM latency for batch 1: 732.59 ms\n"
    settings = "session timeout: 30 s\nretry interval: 5 s\nmax wait: 10 s\n"
    assert mine(one) == [] and mine(settings) == []
    two = "old run: 12.5 s\nnew run: 9.75 s\n"
    assert mine(two, "log-timing") == [
        ("log-timing", "old run", "time", 12.5, "s"),
        ("log-timing", "new run", "time", 9.75, "s"),
    ]


def test_units_of_formats_d_convert_to_si():
    assert to_si(336.984, "i/s") == (336.984, "1/s")
    value, unit = to_si(7.43, "ms/i")
    assert unit == "s" and value == pytest.approx(0.00743)
    assert to_si(87516.3, "msg/s") == (87516.3, "1/s")
    assert to_si(2868.67, "calls/second") == (2868.67, "1/s")
    assert to_si(22.2, "MB per sec") == (22.2e6, "B/s")


@pytest.mark.parametrize("name", MINE)
def test_never_raises_and_stays_fast(name):
    parse = by_name(name).parse
    odd = [
        "",
        "\x00\ufffd" * 50,
        "Task QPS a StdDev QPS b StdDev Pct diff p-value " + "X 1 (" * 2000,
        "Throughput produced: " + "- " * 5000,
        "count = 1 " * 3000,
        "[Task 1/1] Current/Best: " * 2000,
        "Calculating -----\n" + "a " * 5000 + "1 i/s",
        "X Summary\n----------\n" + "step " * 5000 + "1",
        "READ finished, time elapsed (sec): " * 2000,
        "a,b,c\n" + "1,2,3\n" * 3000,
        "Network Name Mean Inference Time (std dev) " + "net 1 ms (" * 3000,
        ",,,\n" * 3000,
    ]
    start = time.perf_counter()
    for text in odd:
        assert isinstance(parse(text), list)
    assert time.perf_counter() - start < 2.0
