"""bash-time: bash's `time` keyword (default TIMEFORMAT, a user's one-line format),
zsh's `time` line and timed log records; fixtures from running bash here
(tests/fixtures/tools/bash-time.sh). bash's `time -p` prints the POSIX form, which
gnu-time reads (bash-time--posix-p)."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import by_name
from tests.conftest import seed
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
@pytest.mark.parametrize("case", own_cases("bash-time"))
def test_fixture_survives_mail_damage(case, damage):
    check_damaged(case, damage)


def test_default_timeformat_values_in_seconds():
    got = rows(text_of("bash-time--three-runs"))
    assert [r[1] for r in got] == ["run 1"] * 3 + ["run 2"] * 3 + ["run 3"] * 3
    assert [r[3] for r in got[:3]] == ["real", "user", "sys"]
    assert {r[5] for r in got} == {"s"}


def test_a_bare_number_timeformat_is_not_a_record():
    assert rows(text_of("bash-time--timeformat-bare-number")) == []


def test_minutes_are_converted():
    text = "Without the patch:\n\nreal\t4m19.085s\nuser\t3m15.683s\nsys\t0m5.358s\n"
    assert ("bash-time", None, "Without the patch", "real", 259.085, "s") in rows(text)
    assert ("bash-time", None, "Without the patch", "user", 195.683, "s") in rows(text)


def test_seed1_kudu_log_timing_variants():
    found = rows(seed("001"), "bash-time")
    real = {r[2]: r[4] for r in found if r[3] == "real"}
    assert real == {
        "with 1 MM thread": 1140.187,
        "with 4 MM threads": 618.348,
        "with 4 MM threads, hash partition": 1233.386,
        "with 4 MM threads, using dense_hash_map instead of std::unordered_map for "
        "dictionary builder": 1147.478,
    }
    assert sorted(r[4] for r in found if r[3] == "sys") == [5.315, 5.437, 6.084, 6.2]
    assert all(r[1].startswith("Time spent by thread") for r in found)
    # glog timestamps, thread ids and source line numbers stay out
    values = {r[4] for r in rows(seed("001"))}
    assert not values & {1568, 8524, 278, 289, 13.0, 1930}


def test_bash_time_blocks_take_the_heading_before_them():
    text = (
        "Without the patch:\n\n```\nreal\t4m19.085s\nuser\t3m15.683s\nsys\t0m5.358s\n```\n\n"
        "With the patch:\n```\nreal\t1m0.500s\nuser\t0m55.000s\nsys\t0m1.000s\n```\n"
    )
    found = rows(text, "bash-time")
    assert ("bash-time", None, "Without the patch", "real", 259.085, "s") in found
    assert ("bash-time", None, "With the patch", "real", 60.5, "s") in found
    assert len(found) == 6


def test_bash_time_flattened_comment():
    found = rows(flatten("After patch: ```\nreal 0m4.085s\nuser 0m3.1s\nsys 0m0.2s\n``` Thanks"))
    assert ("bash-time", None, "After patch", "real", 4.085, "s") in found
    assert len(found) == 3


def test_zsh_time_line_labelled_by_its_command():
    text = "With the patch:\nmvn -q package  101.23s user 5.45s system 198% cpu 1:02.712 total\n"
    found = rows(text, "bash-time")
    assert ("bash-time", "mvn -q package", "With the patch", "total", 62.712, "s") in found
    assert ("bash-time", "mvn -q package", "With the patch", "CPU", 198, "%") in found
    assert rows(text) == found  # prose does not count the same numbers again


def test_bare_real_in_a_sentence_is_not_a_time_record():
    text = "The real 5s delay comes from the retry policy, not from user code or sys calls."
    assert rows(text) == []


def test_never_raises_and_stays_linear():
    parse = by_name("bash-time").parse
    for text in ["", "\x00\ufffd" * 50, "real user sys real 0m user 0m", "real 1", "1s user 2"]:
        assert isinstance(parse(text), list)
    text = ("real 0m1.0s and 2020-01-01 12:00:00,123 INFO x: 1.2s user " * 2500) + " " * 20000
    start = time.perf_counter()
    parse(text)
    assert time.perf_counter() - start < 2.0


def test_the_timed_command_labels_its_record():
    text = (
        "Before,\n```\n$ time ./gradlew assemble\nBUILD SUCCESSFUL in 1m 2s\n\n"
        "real\t1m3.120s\nuser\t2m10.400s\nsys\t0m6.020s\n```\n\n"
        "After,\n```\n$ time ./gradlew assemble --parallel\n\n"
        "real\t0m41.870s\nuser\t2m20.100s\nsys\t0m6.800s\n```\n"
    )
    got = {(r[1], r[2], r[3]): r[4] for r in rows(text, "bash-time")}
    assert got[("./gradlew assemble", "Before", "real")] == 63.12
    assert got[("./gradlew assemble --parallel", "After", "real")] == 41.87


@pytest.mark.shared
@pytest.mark.parametrize(
    "directory, name",
    [
        ("bash-time", "pytest-benchmark-issue187-time"),
        ("bash-time", "wrk-issue409-time"),
        ("kudu-log-timing", "kudu1930-tpch-real-world"),
    ],
)
def test_shared_sample(directory, name):
    """A real third-party sample (../shared/formats): its listed rows are found."""
    check_shared_sample(directory, name)
