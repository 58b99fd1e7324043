"""pulsar-perf: fixtures written from pulsar-testclient's PerformanceProducer and
PerformanceConsumer log statements (periodic throughput/latency records with their
log4j prefix, the aggregated throughput and latency stats), and mail damage."""

from __future__ import annotations

import json
import math
import textwrap
import time

import pytest

from extract.results.formats import by_name, extract_results
from tests.conftest import seed, shared_path
from tests.formats.golden import cases, check, text_of

FORMAT = "pulsar-perf"


@pytest.mark.parametrize("case", cases(FORMAT))
def test_fixture(case):
    check(case)


def rows(text: str, fmt: str | None = FORMAT):
    """(label, variant, metric, value, unit) of every measurement the registry finds."""
    return [
        (m.label, m.variant, m.metric, m.value, m.unit)
        for t in extract_results(text, strict=True)
        for m in t.measurements
        if fmt is None or t.format == fmt
    ]


def values(text: str) -> list[tuple]:
    """(label, metric, value, unit), sorted: what damage to the text must not change."""
    return sorted(
        (label or "", metric, -1.0 if math.isnan(value) else round(value, 9), unit or "")
        for label, _, metric, value, unit in rows(text)
    )


def flatten(text: str) -> str:
    """What a GitBox notification does to a comment: every whitespace run → one space."""
    return " ".join(text.split())


def crlf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def gitbox_indent(text: str) -> str:
    """GitBox's review-comment mails indent every line by three spaces."""
    return "".join("   " + line for line in text.splitlines(True))


def pipe_prefixed(text: str) -> str:
    return "".join("| " + line for line in text.splitlines(True))


def hard_wrap(width: int):
    def wrap(text: str) -> str:
        return "\n".join(
            "\n".join(textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False))
            for line in text.splitlines()
        )

    return wrap


DAMAGE = {
    "flattened": flatten,
    "crlf": crlf,
    "gitbox-indent": gitbox_indent,
    "pipe-prefixed": pipe_prefixed,
    "wrapped-80": hard_wrap(80),
    "wrapped-72": hard_wrap(72),
}


def damaged(case: str, damage: str) -> None:
    text = text_of(case)
    expect = values(text)
    assert expect, f"{case} has no pulsar-perf rows"
    assert values(DAMAGE[damage](text)) == expect


def shared_found(directory: str, sample: str) -> None:
    """Every row a third-party sample's expect file lists is found (value and unit)."""
    path = shared_path("formats", directory, f"{sample}.txt")
    expect = json.loads(path.with_suffix(".expect.json").read_text(encoding="utf-8"))
    found = rows(path.read_text(encoding="utf-8"))
    for row in expect["rows"]:
        unit = (row.get("unit") or "").lower()
        assert any(
            math.isclose(value, row["value"], rel_tol=1e-9) and (u or "").lower() == unit
            for *_, value, u in found
        ), row


def damage_cases(limits: dict[tuple[str, str], str]) -> list[tuple[str, str]]:
    """(fixture, damage) pairs to check: every positive fixture, every damage but the
    documented `limits`."""
    return [
        (case, damage)
        for case in cases(FORMAT)
        if values(text_of(case))
        for damage in DAMAGE
        if (case, damage) not in limits
    ]


LIMITS: dict[tuple[str, str], str] = {}


@pytest.mark.parametrize("case,damage", damage_cases(LIMITS))
def test_survives_mail_damage(case, damage):
    damaged(case, damage)


# --- ported from tests/test_formats_d.py ------------------------------------------

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
        assert isinstance(by_name(FORMAT).parse(text), list)


def test_linear_on_long_flattened_lines():
    text = ("Throughput produced: 1 msg/s --- Latency: mean: 1 ms - med: " * 2000) + " " * 20000
    start = time.perf_counter()
    by_name(FORMAT).parse(text)
    assert time.perf_counter() - start < 2.0


@pytest.mark.parametrize("prefix", ["000", "001", "002", "003", "004"])
def test_silent_on_the_seeds(prefix):
    """(Ported from tests/test_formats_d.py::test_silent_on_seeds.)"""
    assert rows(seed(prefix)) == []
