"""cassandra-stress: fixtures written from the stress tool's StressMetrics.java
(progress header and rows, the `Results:` block, the `id, type ...` summary of an
auto thread-count run) and the 2.0 tool's legacy CSV and averages, and mail damage."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import run
from tests.conftest import seed
from tests.formats.damage import FormatChecks, flatten
from tests.formats.golden import text_of

FORMAT = "cassandra-stress"


_checks = FormatChecks(FORMAT)
rows, values, damaged = _checks.rows, _checks.values, _checks.damaged
shared_found, damage_cases = _checks.shared_found, _checks.damage_cases


PROGRESS = "progress tables are line-based CSV rows: a flattened or wrapped mail loses them"
LIMITS = {
    ("cassandra-stress--legacy-2-0", "flattened"): PROGRESS,
    ("cassandra-stress--threadcount-summary", "flattened"): PROGRESS,
    ("cassandra-stress--threadcount-summary", "wrapped-80"): PROGRESS,
    ("cassandra-stress--threadcount-summary", "wrapped-72"): PROGRESS,
    ("cassandra-stress--v4-progress-results", "flattened"): PROGRESS,
    ("cassandra-stress--v4-progress-results", "wrapped-80"): PROGRESS,
    ("cassandra-stress--v4-progress-results", "wrapped-72"): PROGRESS,
    # the per-operation breakdown `[read: ..., write: ...]` must stay on one line
    ("cassandra-stress--flattened-mixed", "wrapped-80"): "breakdown split over lines",
    ("cassandra-stress--flattened-mixed", "wrapped-72"): "breakdown split over lines",
}


@pytest.mark.parametrize("case,damage", damage_cases(LIMITS))
def test_survives_mail_damage(case, damage):
    damaged(case, damage)


def test_results_block_survives_flattening():
    """What the progress rows lose, the `Results:` block keeps."""
    text = text_of("cassandra-stress--v4-progress-results")
    block = text[text.index("Results:") :]
    assert values(flatten(block)) == values(block) != []


def test_results_heading_and_breakdown():
    text = (
        "Cassandra 4.0:\nResults:\n"
        "Op rate                   :  409,767 op/s  [insert: 273,166 op/s]\n"
        "Latency 99th percentile   :    0.5 ms [insert: 0.4 ms]\n"
        "Total operation time      : 02:00:00\nEND\n"
    )
    found = rows(text)
    assert ("total", "Cassandra 4.0", "Op rate", 409767, "op/s") in found
    assert ("insert", "Cassandra 4.0", "Op rate", 273166, "op/s") in found
    assert ("total", "Cassandra 4.0", "Total operation time", 7200, "s") in found


def test_results_flattened():
    text = flatten(
        "Results:\nOp rate : 46751 [WRITE:46751]\nLatency mean : 4.3 [WRITE:4.3]\n"
        "total gc count : 18\ntotal gc mb : 10742\nTotal operation time : 00:00:21\nEND\nDone."
    )
    found = rows(text)
    assert ("WRITE", None, "Op rate", 46751, "op/s") in found
    assert ("total", None, "total gc count", 18, "count") in found
    assert ("total", None, "total gc mb", 10742, "MB") in found
    assert ("total", None, "Total operation time", 21, "s") in found


@pytest.mark.parametrize(
    "text", ["Results:\nThe results were good.\nEND", "Results:\nThroughput: 1234\nErrors: 0\n"]
)
def test_silent_on_lookalikes(text):
    assert rows(text) == []


def test_never_raises():
    for text in ["", "Results:\nOp rate : \nEND", "type total ops, op/s,\ntotal, x"]:
        assert isinstance(run(FORMAT, text), list)


# --- focused ------------------------------------------------------------------------


def test_run_heading_reaches_over_the_tool_chatter():
    found = rows(text_of("cassandra-stress--v4-progress-results"))
    assert {r[1] for r in found} == {
        "cassandra-stress write n=2000000 -rate threads=64, trunk with the patch"
    }


def test_thread_count_summary_rows():
    found = [
        (r[0], r[2], r[3], r[4]) for r in rows(text_of("cassandra-stress--threadcount-summary"))
    ]
    assert ("READ 8 threadCount", "op rate", 5395, "op/s") in found
    assert ("total 4 threadCount", "latency p99", 2.9, "ms") in found


def test_gc_memory_unit_as_printed():
    found = [(r[2], r[3], r[4]) for r in rows(text_of("cassandra-stress--v4-progress-results"))]
    assert ("Total GC memory", 5.512, "GiB") in found
    assert ("Total GC time", 0.4, "s") in found


def test_linear_on_long_flattened_lines():
    text = ("Results: Op rate : 1 op/s [a: 1 op/s] total, 1, 2 " * 2000) + " " * 20000
    start = time.perf_counter()
    run(FORMAT, text)
    assert time.perf_counter() - start < 2.0


@pytest.mark.shared
@pytest.mark.parametrize(
    "sample",
    [
        "datastax-c22-doc-results",
        "gist-dikanggu-c4-results",
        "mantl-issue467-legacy-stress",
        "scylla-tools-pr313-interval",
    ],
)
def test_third_party_samples(sample):
    shared_found("cassandra-stress", sample)


@pytest.mark.parametrize("prefix", ["000", "001", "002", "003", "004"])
def test_silent_on_the_seeds(prefix):
    assert rows(seed(prefix)) == []
