"""Maven Surefire (a noise recogniser): the fixtures are real `mvn test` logs
(tests/fixtures/tools/surefire.sh), and none of their numbers (test counts, times
elapsed, module build times) may come out as results; a benchmark next to them still
must, whole."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import extract_results, run
from tests.formats.damage import flatten
from tests.formats.golden import expected, rows_of, text_of


def surefire(text: str):
    return run("maven-surefire", text)


@pytest.mark.parametrize("case", ["maven-surefire--build-success", "maven-surefire--build-failure"])
@pytest.mark.parametrize(
    "damage",
    [
        lambda t: t,
        flatten,
        lambda t: t.replace("\n", "\r\n"),
        lambda t: "\n".join("   " + line if line.strip() else line for line in t.split("\n")),
    ],
    ids=["as-is", "flattened", "crlf", "gitbox-indent"],
)
def test_build_logs_give_no_results(case, damage):
    assert rows_of(damage(text_of(case))) == []


def test_the_log_is_claimed_as_noise_without_measurements():
    tables = surefire(text_of("maven-surefire--build-failure"))
    assert tables and all(not t.measurements for t in tables)
    claimed = "".join(t.source(text_of("maven-surefire--build-failure")) for t in tables)
    for item in ("Tests run: 2, Failures: 1", "Reactor Summary", "FAILURE [", "Total time:"):
        assert item in claimed


@pytest.mark.parametrize("where", ["before", "after"])
def test_a_benchmark_next_to_the_log_keeps_all_its_rows(where):
    log = text_of("maven-surefire--build-success")
    bench = text_of("jmh--text-single-shot")
    text = log + "\n" + bench if where == "before" else bench + "\n" + log
    got = rows_of(text)
    assert sorted(map(str, got)) == sorted(map(str, rows_of(bench)))
    assert {r["format"] for r in got} == {"jmh"}
    assert sorted(map(str, rows_of(flatten(text)))) == sorted(map(str, rows_of(flatten(bench))))


def test_next_to_jmh_fixture_has_only_the_jmh_rows():
    rows = expected("maven-surefire--next-to-jmh")["rows"]
    assert rows and {r["format"] for r in rows} == {"jmh"}


def test_a_lone_build_footer_is_left_to_other_parsers():
    footer = "[INFO] BUILD SUCCESS\n[INFO] Total time:  28.482 s\n[INFO] Finished at: 2021-03-22\n"
    assert surefire(footer) == []
    log = "[INFO] Tests run: 5, Failures: 0, Errors: 0, Skipped: 0\n" + footer
    (table,) = surefire(log)
    assert table.span == (0, len(log) - 1)


@pytest.mark.parametrize(
    "text",
    ["", "Tests run:", "Tests run: 1, Failures", "[INFO] " * 50, "Reactor Summary:"],
    ids=repr,
)
def test_odd_input_never_raises(text):
    assert isinstance(surefire(text), list)
    extract_results(text, strict=True)


def test_stays_linear_on_pathological_input():
    start = time.perf_counter()
    long_word = "a." * 30000 + " Time elapsed"
    for text in (
        "[INFO] " * 20000,
        "Tests run: 1, " * 10000,
        "a " * 30000 + "Reactor Summary",
        long_word,
    ):
        surefire(text)
    assert time.perf_counter() - start < 5.0  # quadratic takes minutes


def test_linear_on_a_long_flattened_thread():
    text = (
        "Some words 12 ms, a table | 3 | and ```code``` plus 2020-01-01 12:00:00,123 INFO x: "
        * 2500
    ) + " " * 20000
    start = time.perf_counter()
    run("maven-surefire", text)
    assert time.perf_counter() - start < 5.0  # quadratic takes minutes
