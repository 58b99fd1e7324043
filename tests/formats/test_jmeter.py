"""JMeter's Summariser lines: the fixtures (the real JMeter 2.13 engine,
tests/fixtures/tools/jmeter.sh, and the hh:mm:ss form of JMeter 3+ written from its
output) and what they show in general."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import extract_results, run
from tests.formats.golden import cases, text_of


def jm(text: str) -> list[tuple]:
    return [
        (m.label, m.variant, m.metric, m.value, m.unit)
        for t in extract_results(text, strict=True)
        if t.format == "jmeter"
        for m in t.measurements
    ]


def test_interval_and_cumulative_lines():
    got = jm(text_of("jmeter--summariser-lines"))
    variant = "jmeter -n on the 4-thread plan"
    assert ("summary + (interval 1)", variant, "duration", 2.2, "s") in got
    assert ("summary = (cumulative, 14.1s)", variant, "throughput", 107.9, "req/s") in got
    assert ("summary = (cumulative, 14.1s)", variant, "error_pct", 50.0, "%") in got
    assert not [r for r in got if r[2] in ("Active", "Started", "Finished")]  # settings


def test_both_duration_forms():
    got = {(r[0], r[2]): r[3] for r in jm(text_of("jmeter--summariser-hhmmss"))}
    assert got["summary = (cumulative, 00:01:42)", "duration"] == 102.0
    assert got["summary + (interval 1)", "samples"] == 5207.0


def test_log_prefixes_between_lines_keep_one_block():
    tables = [t for t in extract_results(text_of("jmeter--summariser-log-prefix"))]
    assert len(tables) == 1 and len(tables[0].rows) == 2


@pytest.mark.parametrize(
    "damage",
    [
        lambda t: " ".join(t.split()),
        lambda t: t.replace("\n", "\r\n"),
        lambda t: "\n".join("   " + line if line.strip() else line for line in t.split("\n")),
    ],
    ids=["flattened", "crlf", "gitbox-indent"],
)
@pytest.mark.parametrize("case", cases("jmeter"))
def test_survives_mail_damage(case, damage):
    def values(text):
        return sorted((r[0], r[2], r[3], r[4]) for r in jm(text))

    assert values(damage(text_of(case))) == values(text_of(case))


@pytest.mark.parametrize("text", ["", "summary +", "summary = 5 in", "summary + 1 in 0.4s ="])
def test_odd_input_never_raises(text):
    assert isinstance(run("jmeter", text), list)


def test_stays_linear_on_pathological_input():
    start = time.perf_counter()
    run("jmeter", "summary + 1 in 00:00:01 = " * 10000)
    assert time.perf_counter() - start < 5.0  # quadratic takes minutes


def test_silent_on_lookalikes():
    assert jm("summary + is printed every 30 seconds by default") == []
    assert jm("the summary = what we saw in 5 runs") == []


def test_odd_durations_never_raise():
    run("jmeter", "summary = 1 in 99:99:99 = 1/s Avg: 1 Min: 1 Max: 1 Err: 1 (1%)")


def test_linear_on_a_long_flattened_thread():
    text = (
        "Some words 12 ms, a table | 3 | and ```code``` plus 2020-01-01 12:00:00,123 INFO x: "
        * 2500
    ) + " " * 20000
    start = time.perf_counter()
    run("jmeter", text)
    assert time.perf_counter() - start < 5.0  # quadratic takes minutes
