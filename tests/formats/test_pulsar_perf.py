"""pulsar-perf: fixtures written from pulsar-testclient's PerformanceProducer and
PerformanceConsumer log statements (periodic throughput/latency records with their
log4j prefix, the aggregated throughput and latency stats), and mail damage."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import extract_results, run
from tests.conftest import seed
from tests.formats.damage import FormatChecks, pipe_prefixed
from tests.formats.golden import text_of

FORMAT = "pulsar-perf"


_checks = FormatChecks(FORMAT)
rows, values, damaged = _checks.rows, _checks.values, _checks.damaged
shared_found, damage_cases = _checks.shared_found, _checks.damage_cases


LIMITS: dict[tuple[str, str], str] = {}


@pytest.mark.parametrize("case,damage", damage_cases(LIMITS))
def test_survives_mail_damage(case, damage):
    damaged(case, damage)


PULSAR_CONSUMER = """\
Consumer, 1 partition:
15:47:28.430 [main] INFO  org.apache.pulsar.testclient.PerformanceConsumer - Throughput received: 4017.7 msg/s -- 31.4 Mbit/s --- Latency: mean: 5.263 ms - med: 5 - 95pct: 8 - 99pct: 11 - 99.9pct: 25 - 99.99pct: 29 - Max: 29
15:47:38.437 [main] INFO  org.apache.pulsar.testclient.PerformanceConsumer - Throughput received: 3999.5 msg/s -- 31.2 Mbit/s --- Latency: mean: 5.100 ms - med: 5 - 95pct: 7 - 99pct: 10 - 99.9pct: 19 - 99.99pct: 22 - Max: 22
15:47:40.001 [Thread-1] INFO  org.apache.pulsar.testclient.PerformanceProducer - Aggregated throughput stats --- 1000000 records sent --- 98034.5 msg/s --- 766.0 Mbit/s
"""  # noqa: E501


def test_consumer_and_aggregated_records():
    found = [(r[0], r[2], r[3], r[4]) for r in rows(PULSAR_CONSUMER)]
    assert ("interval 15:47:28", "Throughput", 4017.7, "msg/s") in found
    assert ("interval 15:47:38", "Latency 99pct", 10.0, "ms") in found
    assert ("summary", "Records sent", 1000000.0, "records") in found
    assert ("summary", "Throughput", 766.0, "Mbit/s") in found
    tables = [t for t in extract_results(PULSAR_CONSUMER) if t.format == FORMAT]
    assert len(tables) == 1 and tables[0].variant == "Consumer, 1 partition"


# --- focused ------------------------------------------------------------------------


def test_iso_timestamp_prefix_names_the_interval():
    found = rows(text_of("pulsar-perf--producer-aggregated"))
    assert {r[0] for r in found} == {"interval 08:11:20", "interval 08:11:30", "summary"}
    assert len({r[1] for r in found}) == 1  # one run


def test_records_received_and_the_99999_percentile():
    consumer = [(r[0], r[2], r[3]) for r in rows(text_of("pulsar-perf--consumer-flattened"))]
    assert ("summary", "Records received", 1240102) in consumer
    producer = [(r[0], r[2], r[3]) for r in rows(text_of("pulsar-perf--producer-aggregated"))]
    assert ("summary", "Latency 99.999pct", 40.001) in producer


def test_pipe_gutter_lines_stay_one_run():
    tables = [t for t in extract_results(pipe_prefixed(PULSAR_CONSUMER)) if t.format == FORMAT]
    assert len(tables) == 1


def test_never_raises():
    for text in ["", "Throughput produced:", "Aggregated latency stats --- Latency: mean:"]:
        assert isinstance(run(FORMAT, text), list)


def test_linear_on_long_flattened_lines():
    text = ("Throughput produced: 1 msg/s --- Latency: mean: 1 ms - med: " * 2000) + " " * 20000
    start = time.perf_counter()
    run(FORMAT, text)
    assert time.perf_counter() - start < 2.0


@pytest.mark.parametrize("prefix", ["000", "001", "002", "003", "004"])
def test_silent_on_the_seeds(prefix):
    assert rows(seed(prefix)) == []
