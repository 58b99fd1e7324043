"""HBase PerformanceEvaluation (`hbase pe`): fixtures written from PerformanceEvaluation.java
(per-client `Finished ...` lines, `Latency (us) :` histograms and their pretty report,
`[Test] Summary of timings`, duration, avg latency and TPS summaries), the user's seed 002
(a GitBox mail flattened onto one line), and mail damage."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import run
from tests.conftest import seed
from tests.formats.damage import FormatChecks
from tests.formats.golden import text_of

FORMAT = "hbase-pe"


_checks = FormatChecks(FORMAT)
rows, values, damaged = _checks.rows, _checks.values, _checks.damaged
shared_found, damage_cases = _checks.shared_found, _checks.damage_cases


LIMITS: dict[tuple[str, str], str] = {}


@pytest.mark.parametrize("case,damage", damage_cases(LIMITS))
def test_survives_mail_damage(case, damage):
    damaged(case, damage)


def test_seed2_hbase_pe_flattened_before_after():
    found = rows(seed("002"))
    by_variant: dict[str | None, list] = {}
    for label, variant, metric, value, unit in found:
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
    every = {r[3] for r in rows(seed("002"), None)}
    assert not every & {2020, 5, 100000, 22, 54, 30, 362}


def test_line_based_log_with_heading():
    text = (
        "After patch:\n"
        "2020-06-07 22:49:25,980 INFO  [main] hbase.PerformanceEvaluation: "
        "[RandomWriteTest duration ]\tMin: 139256ms\tMax: 142181ms\tAvg: 140561ms\n"
        "2020-06-07 22:49:25,980 INFO  [main] hbase.PerformanceEvaluation: "
        "[ Avg latency (us)]\t1403\n"
    )
    found = rows(text)
    assert ("RandomWriteTest", "After patch", "duration_max", 142181, "ms") in found
    assert ("RandomWriteTest", "After patch", "avg_latency", 1403, "us") in found


def test_older_finished_lines():
    text = (
        "Before patch:\n2014-01-03 10:00:01,123 INFO  [TestClient-1] hbase.PerformanceEvaluation: "
        "Finished class org.apache.hadoop.hbase.PerformanceEvaluation$RandomReadTest in 140524ms "
        "at offset 0 for 100000 rows (12.34 MB/s)\n2014-01-03 10:00:01,124 INFO  [main] "
        "hbase.PerformanceEvaluation: Finished TestClient-1 in 140600ms over 100000 rows\n"
    )
    assert rows(text, None) == [
        ("RandomReadTest", "Before patch", "time", 140524, "ms"),
        ("RandomReadTest", "Before patch", "throughput", 12.34, "MB/s"),
        ("TestClient-1", "Before patch", "time", 140600, "ms"),
    ]


# --- focused ------------------------------------------------------------------------


def test_pretty_histogram_report_keeps_the_run_together():
    """The multi-line `Mean = ... 99.999th = ...` report repeats the `Latency (us)` line:
    no measurements of its own, and the summary after it stays in the same run."""
    text = text_of("hbase-pe--client-log")
    found = rows(text)
    assert {v for _, v, *_ in found} == {"Patched build"}
    assert len([r for r in found if r[2] == "latency_mean"]) == 1
    assert all(r[3] != 2.0 or r[2] != "latency_mean" for r in found)


def test_the_record_counts_are_settings():
    found = rows(text_of("hbase-pe--mapred-finished"), None)
    assert 1048576 not in {r[3] for r in found}


def test_a_long_record_wrapped_by_the_gateway():
    text = (
        "2023-05-02 11:20:41,118 INFO [main] hbase.PerformanceEvaluation: [RandomWriteTest]"
        " Summary\nof timings (ms): [52011, 51870]\n"
    )
    assert [r[3] for r in rows(text)] == [52011, 51870]


def test_a_version_like_value_is_no_timing():
    # `1.2.3` is no number: a list or a histogram holding one is not PE's (neither its
    # `1.2` nor its other values are read); a well-formed one is
    head = "[RandomReadTest] Summary of timings (ms): "
    assert [r[3] for r in rows(head + "[5, 4]")] == [5, 4]
    assert rows(head + "[1.2.3, 4]") == []
    assert [r[3] for r in rows("Latency (us) : mean=12.5, min=3")] == [12.5, 3]
    assert rows("Latency (us) : mean=1.2.3, min=3") == []


ODD = [
    "",
    "\n\n",
    "[X] Summary of timings (ms): []",
    "Latency (us) : mean=, min=",
    "Finished in ms",
]


def test_never_raises():
    for text in ODD:
        assert isinstance(run(FORMAT, text), list)


def test_linear_on_long_flattened_lines():
    text = ("Finished 12 ms [ Avg latency (us)] x Latency (us) : mean=1, " * 3000) + " " * 20000
    start = time.perf_counter()
    run(FORMAT, text)
    assert time.perf_counter() - start < 2.0


@pytest.mark.shared
@pytest.mark.parametrize("sample", ["hbase-pr1858-summary-flattened", "phoronix-issue249-latency"])
def test_third_party_samples(sample):
    shared_found("hbase-pe", sample)


@pytest.mark.parametrize("prefix", ["000", "001", "003", "004"])
def test_silent_on_the_other_seeds(prefix):
    assert rows(seed(prefix)) == []
