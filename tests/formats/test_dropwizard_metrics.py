"""Dropwizard Metrics: the fixtures (the real reporters of metrics 3.2.6 on a fixed
registry, tests/fixtures/tools/dropwizard.sh) and what they show in general: the
ConsoleReporter blocks, the Slf4jReporter records and the metrics-json form, also as
mail damages them."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import extract_results, run
from tests.formats.damage import flatten
from tests.formats.golden import text_of


def dw(text: str) -> list[tuple]:
    """(label, variant, metric, value, unit) of the dropwizard-metrics measurements."""
    return [
        (m.label, m.variant, m.metric, m.value, m.unit)
        for t in extract_results(text, strict=True)
        if t.format == "dropwizard-metrics"
        for m in t.measurements
    ]


def test_console_timer_meter_and_histogram_blocks():
    got = dw(text_of("dropwizard-metrics--console-report"))
    assert ("loader.put-row", "Timers", "99%", 42.0, "milliseconds") in got
    assert ("loader.put-row", "Timers", "mean rate", 5.0, "calls/second") in got
    assert ("loader.bytes-written", "Meters", "15-minute rate", 28703.65, "events/second") in got
    assert ("loader.batch-size", "Histograms", "98%", 137.98, None) in got
    assert ("loader.put-row", "Timers", "count", 600.0, None) in got


def test_gauges_and_counters_alone_are_not_results():
    got = dw(text_of("dropwizard-metrics--console-report"))
    assert not [r for r in got if r[0] in ("loader.queue-depth", "loader.in-flight")]


@pytest.mark.parametrize(
    "damage",
    [
        flatten,
        lambda t: t.replace("\n", "\r\n"),
        lambda t: "\n".join("   " + line if line.strip() else line for line in t.split("\n")),
    ],
    ids=["flattened", "crlf", "gitbox-indent"],
)
@pytest.mark.parametrize(
    "case",
    [
        "dropwizard-metrics--console-report",
        "dropwizard-metrics--slf4j-records",
        "dropwizard-metrics--json-timer",
    ],
)
def test_reports_survive_mail_damage(case, damage):
    def values(text):
        return sorted((r[0], r[2], r[3], r[4]) for r in dw(text))

    assert values(damage(text_of(case))) == values(text_of(case))


def test_slf4j_record_units_follow_rate_unit_and_duration_unit():
    got = dw(text_of("dropwizard-metrics--slf4j-records"))
    assert ("loader.put-row", "Timers", "p99", 42.0, "milliseconds") in got
    assert ("loader.put-row", "Timers", "m1", 5.031975949215939, "events/second") in got
    assert ("loader.bytes-written", "Meters", "count", 3376640.0, None) in got
    assert not [r for r in got if r[2] in ("rate_unit", "duration_unit")]


def test_slf4j_record_in_a_log_line_wrapped_by_the_mail():
    text = (
        "2020-03-02 12:36:42,910 [Thread-5] INFO metrics: type=TIMER, name=put-block,\n"
        "count=1024, min=26.6439, max=1184.6844, mean=92.647, stddev=94.48, median=72.71,\n"
        "p75=100.37, p95=179.59, p98=211.04, p99=247.92, p999=1163.49, mean_rate=77.87,\n"
        "m1=70.68, m5=70.14, m15=70.04, rate_unit=events/second, duration_unit=milliseconds\n"
    )
    got = dw(text)
    assert ("put-block", "Timers", "p99", 247.92, "milliseconds") in got
    assert ("put-block", "Timers", "mean_rate", 77.87, "events/second") in got
    assert len(got) == 15


def test_json_form_keeps_the_rate_and_duration_units():
    got = dw(text_of("dropwizard-metrics--json-timer"))
    assert ("loader.put-row", "Timers", "p999", 42.0, "milliseconds") in got
    assert ("loader.put-row", "Timers", "m5_rate", 5.138608124017288, "calls/second") in got
    assert ("loader.put-row", "Timers", "count", 600.0, None) in got


def test_named_timer_in_a_section():
    text = (
        "-- Timers ----------------------------------------------------------------------\n"
        "org.apache.hadoop.ozone.freon.OmKeyGenerator.key-create\n"
        "             count = 1000\n"
        "         mean rate = 112.05 calls/second\n"
        "               min = 3.10 milliseconds\n"
        "               max = 98.41 milliseconds\n"
        "              mean = 8.77 milliseconds\n"
        "              99% <= 61.20 milliseconds\n"
    )
    tables = [t for t in extract_results(text) if t.format == "dropwizard-metrics"]
    assert len(tables) == 1 and tables[0].variant == "Timers"
    name = "org.apache.hadoop.ozone.freon.OmKeyGenerator.key-create"
    got = {(m.label, m.metric, m.value, m.unit) for m in tables[0].measurements}
    assert (name, "mean rate", 112.05, "calls/second") in got
    assert (name, "99%", 61.2, "milliseconds") in got


def test_settings_written_key_equals_value_are_not_a_report():
    settings = "count = 10\nmin = 1\nmax = 20\nmean = 5\nvalue = 3\n"
    assert run("dropwizard-metrics", settings) == []
    assert run("dropwizard-metrics", "type=GAUGE, name=x, value=3\n") == []


@pytest.mark.parametrize(
    "text",
    ["", "type=TIMER,", "type=TIMER, name=x", '{"version" : "3.1.3", "timers"', "99% <= x"],
    ids=repr,
)
def test_odd_input_never_raises(text):
    assert isinstance(run("dropwizard-metrics", text), list)


def test_stays_linear_on_pathological_input():
    start = time.perf_counter()
    for text in ("count = 1 " * 20000, "type=TIMER, name=x" + ", a=1" * 20000, "99% <= " * 20000):
        run("dropwizard-metrics", text)
    assert time.perf_counter() - start < 5.0  # quadratic takes minutes


def test_linear_on_a_long_flattened_thread():
    text = (
        "Some words 12 ms, a table | 3 | and ```code``` plus 2020-01-01 12:00:00,123 INFO x: "
        * 2500
    ) + " " * 20000
    start = time.perf_counter()
    run("dropwizard-metrics", text)
    assert time.perf_counter() - start < 5.0  # quadratic takes minutes
