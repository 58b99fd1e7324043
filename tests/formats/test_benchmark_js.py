"""benchmark-js: benchmark.js result lines (`String(bench)`) and the suite's
`Fastest is`, from running benchmark.js 2.1.4 with node here
(tests/fixtures/tools/benchmark-js.sh)."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import by_name, run
from tests.formats.damage import (
    MAIL_DAMAGE,
    check_damaged,
    check_shared_sample,
    flatten,
    own_cases,
    rows,
)
from tests.formats.golden import text_of


@pytest.mark.parametrize("damage", MAIL_DAMAGE)
@pytest.mark.parametrize("case", own_cases("benchmark-js"))
def test_fixture_survives_mail_damage(case, damage):
    check_damaged(case, damage)


def test_suite_is_one_table_ending_at_fastest():
    text = text_of("benchmark-js--suite-fastest")
    (table,) = run("benchmark-js", text)
    assert [r[0] for r in table.rows] == ["Array#join", "String concat", "reduce with template"]
    assert table.source(text).rstrip().split("\n")[-1].startswith("Fastest is ")
    assert table.variant.startswith("Joining 200 strings")


def test_slow_rate_keeps_its_decimals_and_an_error_gives_nothing():
    got = rows(text_of("benchmark-js--slow-and-error"))
    assert {r[1] for r in got} == {"sort 200k numbers"}
    ops = next(r for r in got if r[3] == "ops")
    assert ops[5] == "ops/sec" and ops[4] != int(ops[4])


def test_flattened_fastest_line_stops_at_the_names():
    text = flatten(text_of("benchmark-js--suite-fastest")) + " Thanks, merging."
    (table,) = run("benchmark-js", text)
    assert not table.source(text).endswith("merging.")


def test_plus_minus_spelled_out_or_lost():
    for pm in ("+/-", "?", "Â±"):
        text = f"decode x 4,386 ops/sec {pm}17.33% (61 runs sampled)\n"
        assert ("benchmark-js", "decode", None, "rme", 17.33, "%") in rows(text)


def test_benchmark_js_same_line_names_and_fastest_line():
    text = (
        "RegExp#test x 4,161,532 ops/sec ±0.99% (59 runs sampled)\n"
        "String#indexOf x 6,139,623 ops/sec ±1.00% (131 runs sampled)\n"
        "Fastest is String#indexOf\n"
    )
    (table,) = run("benchmark-js", text)
    assert [r[0] for r in table.rows] == ["RegExp#test", "String#indexOf"]
    assert table.measurements[0].value == 4161532
    assert table.source(text).endswith("Fastest is String#indexOf")


def test_never_raises_and_stays_linear():
    parse = by_name("benchmark-js").parse
    for text in ["", " ", "x 1 ops/sec", "x 1 ops/sec ±", "Fastest is", "\x00\ufffd" * 50]:
        assert isinstance(parse(text), list)
    text = "a x 1 ops/sec ±1% (1 run sampled) Fastest is a " * 3000 + "b " * 20000
    start = time.perf_counter()
    parse(text)
    assert time.perf_counter() - start < 2.0


@pytest.mark.shared
@pytest.mark.parametrize(
    "directory, name",
    [
        ("benchmark-js", "arrow-pr9962-js-perf"),
    ],
)
def test_shared_sample(directory, name):
    """A real third-party sample (../shared/formats): its listed rows are found."""
    check_shared_sample(directory, name)
