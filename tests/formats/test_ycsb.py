"""YCSB: fixtures written from YCSB's core (Client.java, StatusThread.java, the
OneMeasurement* types and the text / JSON exporters): the final report, JSON export,
the raw measurement type's summary, status lines, and mail damage."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import run
from tests.conftest import seed
from tests.formats.damage import FormatChecks, flatten
from tests.formats.golden import text_of

FORMAT = "ycsb"


_checks = FormatChecks(FORMAT)
rows, values, damaged = _checks.rows, _checks.values, _checks.damaged
shared_found, damage_cases = _checks.shared_found, _checks.damage_cases


LIMITS: dict[tuple[str, str], str] = {}


@pytest.mark.parametrize("case,damage", damage_cases(LIMITS))
def test_survives_mail_damage(case, damage):
    damaged(case, damage)


REPORT = """With patch

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


def test_heading_above_status_line_and_noise_sections():
    found = rows(REPORT)
    assert ("OVERALL", "With patch", "Throughput", 19800.803912638854, "ops/sec") in found
    assert ("READ", "With patch", "AverageLatency", 518.1957923501336, "us") in found
    assert ("READ", "With patch", "Return=OK", 268606, "count") in found
    metrics = {r[2] for r in found}
    assert "Count" not in metrics and "0" not in metrics  # GC stats, histogram buckets
    assert {r[3] for r in found if r[0] == "OVERALL"} == {50503, 19800.803912638854}
    flat = [(r[0], r[2], r[3], r[4]) for r in rows(flatten(REPORT))]
    assert flat == [(r[0], r[2], r[3], r[4]) for r in found]


@pytest.mark.parametrize(
    "text", ["[UPDATE], 0, 464\n[UPDATE], 1, 27\n", "[OVERALL], RunTime(ms), \n[READ], , ,"]
)
def test_silent_on_lookalikes(text):
    assert rows(text) == []


# --- focused ------------------------------------------------------------------------


def test_status_line_measures_the_interval():
    found = rows(REPORT)
    assert ("50 sec", "With patch", "current ops/sec", 17966, "ops/sec") in found
    assert ("READ 50 sec", "With patch", "MaxLatency", 8487, "us") in found
    assert ("READ 50 sec", "With patch", "Operations", 2764, "count") in found


def test_empty_interval_summary_gives_nothing():
    """`Count=0` intervals print `Min=9223372036854775807, Avg=NaN`: not measurements."""
    found = rows(text_of("ycsb--text-report-hdr"))
    assert not [r for r in found if r[0] == "READ 61 sec"]
    assert 9223372036854775807 not in {r[3] for r in found}


def test_raw_summary_is_microseconds_and_marker_is_skipped():
    found = rows(text_of("ycsb--json-and-raw"))
    assert ("INSERT", "p99.9", 30011, "us") in [(r[0], r[2], r[3], r[4]) for r in found]
    assert -1 not in {r[3] for r in found}


def test_raw_status_summary():
    text = (
        "2020-01-01 10:00:00:000 10 sec: 500 operations; 50 current ops/sec;"
        " READ count: 500, average latency(us): 812.40"
    )
    found = rows(text)
    assert ("READ 10 sec", None, "AverageLatency", 812.4, "us") in found


def test_a_version_like_value_is_no_latency():
    # `1.2.3` is no number: neither its `1.2` nor anything else of it is read (nor the
    # summary it ends, which is not YCSB's)
    text = (
        "2020-01-01 10:00:00:000 10 sec: 500 operations; 50 current ops/sec;"
        " [READ: Count=500, Max=1.2.3, Min=7] UPDATE count: 9, average latency(us): 4.5.6"
    )
    found = {(r[0], r[2]): r[3] for r in rows(text)}
    assert found[("READ 10 sec", "MinLatency")] == 7
    assert ("READ 10 sec", "MaxLatency") not in found
    assert ("UPDATE 10 sec", "AverageLatency") not in found


def test_never_raises():
    for text in ["", "\n", "[OVERALL], RunTime(ms), ", "10 sec: 5 operations; [READ: Count=]", "{"]:
        assert isinstance(run(FORMAT, text), list)


def test_linear_on_long_flattened_lines():
    text = ("[READ], 1, 2 10 sec: 3 operations; [X: Count=1, " * 3000) + " " * 20000
    start = time.perf_counter()
    run(FORMAT, text)
    assert time.perf_counter() - start < 2.0


@pytest.mark.shared
@pytest.mark.parametrize("sample", ["ycsb-issue1591-redis", "ycsb-issue318-wiki-ms"])
def test_third_party_samples(sample):
    shared_found("ycsb", sample)


@pytest.mark.parametrize("prefix", ["000", "001", "002", "003", "004"])
def test_silent_on_the_seeds(prefix):
    assert rows(seed(prefix)) == []
