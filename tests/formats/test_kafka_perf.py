"""Kafka's perf tools: fixtures written from tools/src/main/java/org/apache/kafka/tools/
ProducerPerformance.java (window and total lines), ConsumerPerformance.java (the summary
and `--show-detailed-stats` CSV), EndToEndLatency.java and core's TestLinearWriteSpeed,
and mail damage."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import run
from tests.conftest import seed
from tests.formats.damage import FormatChecks, flatten
from tests.formats.golden import text_of

FORMAT = "kafka-perf"


_checks = FormatChecks(FORMAT)
rows, values, damaged = _checks.rows, _checks.values, _checks.damaged
shared_found, damage_cases = _checks.shared_found, _checks.damage_cases


LIMITS: dict[tuple[str, str], str] = {}


@pytest.mark.parametrize("case,damage", damage_cases(LIMITS))
def test_survives_mail_damage(case, damage):
    damaged(case, damage)


def test_producer_flattened_summary_and_intervals():
    text = flatten(
        "Before:\n1001264 records sent, 199534.5 records/sec (19.03 MB/sec), "
        "1031.4 ms avg latency, 1618.0 max latency.\n"
        "100000000 records sent, 877023.732262 records/sec (83.64 MB/sec), 331.20 ms avg latency, "
        "1618.00 ms max latency, 320 ms 50th, 372 ms 95th, 856 ms 99th, 1461 ms 99.9th."
    )
    found = rows(text)
    assert ("interval 1", "Before", "max_latency", 1618.0, "ms") in found
    assert ("summary", "Before", "p99.9_latency", 1461, "ms") in found


def test_consumer_csv_flattened():
    text = flatten(
        "=== new\nstart.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, "
        "nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec\n"
        "2023-02-23 11:00:27:431, 2023-02-23 11:00:31:063, 3.2949, 0.9072, 3455, 951.2665, 3557, "
        "75, 43.9326, 46066.6667\nThanks"
    )
    found = rows(text)
    assert (None, None, "MB.sec", 0.9072, "MB/s") in found
    assert (None, None, "fetch.nMsg.sec", 46066.6667, "msg/s") in found
    assert len(found) == 8  # timestamps are not measurements


@pytest.mark.parametrize(
    "text",
    [
        "time: 2023-02-07 17:53:25:127, threadId: 3, total: 4",
        "1 records sent, 1 records/sec (1 MB/sec), 1 ms avg latency",
    ],
)
def test_silent_on_lookalikes(text):
    assert rows(text) == []


def test_never_raises():
    for text in [
        "",
        "1 records sent, 1 records/sec (1 MB/sec), 1 ms avg latency, 1 max latency.",
        "start.time, end.time,",
    ]:
        assert isinstance(run(FORMAT, text), list)


# --- focused ------------------------------------------------------------------------


def test_detailed_consumer_rows_are_intervals():
    found = rows(text_of("kafka-perf--consumer-csv"))
    labels = {r[0] for r in found}
    assert labels == {None, "interval 10:13:01:412", "interval 10:13:06:412"}


def test_end_to_end_progress_lines_are_not_results():
    found = rows(text_of("kafka-perf--e2e-and-linear-write"))
    assert 31.402 not in {r[3] for r in found} and 1000 not in {r[3] for r in found}
    assert ("end-to-end", "p99.9_latency", 12, "ms") in [(r[0], r[2], r[3], r[4]) for r in found]


def test_the_command_line_belongs_to_the_run():
    found = rows(text_of("kafka-perf--producer-intervals"))
    assert {r[1] for r in found} == {"acks=all, batch.size=64KB, 3 brokers. Trunk"}
    assert 20000000 in {r[3] for r in found}  # the summary's count, not the --num-records flag


def test_linear_on_long_flattened_lines():
    text = ("1 records sent, 2 records/sec (3 MB/sec), 4 ms avg latency, x " * 3000) + " " * 20000
    start = time.perf_counter()
    run(FORMAT, text)
    assert time.perf_counter() - start < 2.0


@pytest.mark.shared
@pytest.mark.parametrize(
    "directory,sample",
    [
        ("kafka-consumer-perf", "apache-kafka-pr13215-consumer"),
        ("kafka-producer-perf", "apache-kafka-pr17340-interval"),
        ("kafka-producer-perf", "smf-pr196-summary"),
    ],
)
def test_third_party_samples(directory, sample):
    shared_found(directory, sample)


@pytest.mark.parametrize("prefix", ["000", "001", "002", "003", "004"])
def test_silent_on_the_seeds(prefix):
    assert rows(seed(prefix)) == []
