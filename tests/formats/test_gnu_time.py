"""gnu-time: GNU time's default, `-p` and `-v` output (fixtures from the real tool,
tests/fixtures/tools/gnu-time.sh), the mail damage they meet, and the seeds' runs.

This file also holds the mail-damage helpers the other command-timer tests use."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import run
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

# --- mail damage, applied to a fixture's text ---------------------------------------


@pytest.mark.parametrize("damage", MAIL_DAMAGE)
@pytest.mark.parametrize("case", own_cases("gnu-time"))
def test_fixture_survives_mail_damage(case, damage):
    check_damaged(case, damage)


def test_default_format_fields_and_units():
    got = rows(text_of("gnu-time--default-before-after"))
    first = {r[3]: (r[4], r[5]) for r in got if r[1] == "run 1" and "before" in r[2]}
    # (avg_text and avg_data are printed 0: Linux does not measure them, as GNU time's
    # manual says, and a 0 there is no size)
    assert set(first) == {
        "user", "system", "elapsed", "CPU", "max_resident",
        "inputs", "outputs", "major_pagefaults", "minor_pagefaults", "swaps",
    }  # fmt: skip
    assert first["CPU"][1] == "%" and first["max_resident"][1] == "KB"
    assert first["elapsed"][1] == "s"
    assert {r[2] for r in got} == {
        "Compressing the bash binary, before the change",
        "After the change",
    }
    assert {r[1] for r in got} == {"run 1", "run 2"}


def test_exit_status_line_belongs_to_the_record():
    text = text_of("gnu-time--nonzero-exit")
    (table,) = run("gnu-time", text)
    assert table.source(text).startswith("Command exited with non-zero status 3")
    assert table.variant == "The failing run"


def test_verbose_block_is_labelled_by_the_command_and_skips_exit_status():
    got = {r[3]: r for r in rows(text_of("gnu-time--verbose"))}
    assert "Exit status" not in got
    assert got["Maximum resident set size"][5] == "KB"
    assert got["Page size"][4:] == (4096.0, "B")
    assert {r[1] for r in got.values()} == {"sh -c gzip -9 -c /usr/bin/bash >/dev/null"}


SEED3_HEADINGS = {
    "HDFS -text",
    "Beeline binary default fetchSize=1000",
    "Beeline http default fetchSize=1000",
    "Beeline knox http default fetchSize=1000",
    "Beeline binary fetchSize=10000",
    "Beeline http fetchSize=10000",
    "Beeline knox http fetchSize=10000",
}


def test_seed3_gnu_time_runs_grouped_by_heading():
    found = rows(seed("003"), "gnu-time")
    runs = {(variant, label) for _, label, variant, *_ in found}
    assert len(runs) == 21
    assert {v for v, _ in runs} == SEED3_HEADINGS
    assert {lab for _, lab in runs} == {"run 1", "run 2", "run 3"}
    first = {(m, v, u) for _, lab, var, m, v, u in found if var == "HDFS -text" and lab == "run 1"}
    assert first == {("user", 2.43, "s"), ("system", 0.39, "s"), ("elapsed", 2.10, "s"),
                     ("CPU", 134, "%")}  # fmt: skip
    last = [r for r in found if r[2] == "Beeline knox http fetchSize=10000" and r[1] == "run 3"]
    assert ("gnu-time", "run 3", "Beeline knox http fetchSize=10000", "elapsed", 7.57, "s") in last


def test_seed3_numbers_in_noise_are_not_measurements():
    found = rows(seed("003"))
    values = {r[4] for r in found}
    # commit id digits, KNOX ids, fetchSize, row counts and JIRA version numbers
    for noise in (488, 1524, 1530, 10000, 1000, 200000, 1000000, 1.2, 7.6):
        assert noise not in values, noise
    assert {r[0] for r in found} == {"gnu-time"}


def test_gnu_time_flattened_keeps_inline_headings():
    found = rows(flatten(seed("003")), "gnu-time")
    assert len({(r[1], r[2]) for r in found}) == 21
    assert any(v and v.endswith("Beeline http fetchSize=10000") for v in {r[2] for r in found})


def test_gnu_time_record_wrapped_by_jira():
    text = (
        "Before:\n35.45user 1.91system 0:38.35elapsed\n"
        "97%CPU (0avgtext+0avgdata 2907344maxresident)k\n"
    )
    found = [r[1:] for r in rows(text, "gnu-time")]
    assert (None, "Before", "elapsed", 38.35, "s") in found
    assert (None, "Before", "max_resident", 2907344, "KB") in found


def test_gnu_time_verbose_flattened():
    text = (
        'Command being timed: "mvn -q package" User time (seconds): 110.50 System time (seconds): '
        "27.38 Percent of CPU this job got: 296% Elapsed (wall clock) time (h:mm:ss or m:ss): "
        "1:02:03 Maximum resident set size (kbytes): 4572688 Exit status: 0"
    )
    found = {r[3]: (r[1], r[4], r[5]) for r in rows(text, "gnu-time")}
    assert found["Elapsed (wall clock) time"] == ("mvn -q package", 3723.0, "s")
    assert found["Percent of CPU this job got"] == ("mvn -q package", 296, "%")
    assert "Exit status" not in found


# --- real third-party samples (../shared/formats) -----------------------------------


@pytest.mark.shared
@pytest.mark.parametrize(
    "directory, name",
    [
        ("gnu-time", "foreman-pr1855-before-after"),
        ("gnu-time", "jc-fixture-osx-bsd-time"),
        ("gnu-time", "jc-fixture-ubuntu-time-p"),
        ("gnu-time", "jc-fixture-ubuntu-time"),
        ("gnu-time-verbose", "benchee-issue325-time-v"),
        ("gnu-time-verbose", "jc-fixture-ubuntu-time-verbose"),
    ],
)
def test_shared_sample(directory, name):
    check_shared_sample(directory, name)


# --- robustness --------------------------------

ODD = [
    "",
    "\n\n\n",
    "\x00\x01\ufffd" * 50,
    "real user sys real 0m user 0m",
    "1user 2system",
    "Command being timed:",
    "Swaps: 0",
    "0.00 real",
]


def test_never_raises():
    for text in ODD:
        assert isinstance(run("gnu-time", text), list)


def test_linear_on_long_flattened_lines():
    text = ("1.2user 0.3system words 12 ms, Swaps: 1 status: x real 1 user " * 2500) + " " * 20000
    start = time.perf_counter()
    run("gnu-time", text)
    assert time.perf_counter() - start < 2.0


def test_an_average_size_linux_does_not_measure_is_no_measurement():
    text = (
        "0.01user 0.00system 0:00.02elapsed 90%CPU (0avgtext+0avgdata 2304maxresident)k\n"
        "0inputs+0outputs (0major+110minor)pagefaults 0swaps\n"
        "0.01user 0.00system 0:00.02elapsed 90%CPU (12avgtext+0avgdata 2304maxresident)k\n"
        "0inputs+0outputs (0major+110minor)pagefaults 0swaps\n"
    )
    got = [(m.label, m.metric, m.value) for t in run("gnu-time", text) for m in t.measurements]
    assert ("run 2", "avg_text", 12.0) in got  # (a platform that measures it)
    assert not [g for g in got if g[1] in ("avg_text", "avg_data") and g[2] == 0]
    assert ("run 1", "swaps", 0.0) in got  # (a measured zero stays)
