"""pytest-benchmark: the console tables (groups, --benchmark-compare, --color=yes
debris), from running pytest-benchmark 5.3.1 here
(tests/fixtures/tools/pytest-benchmark.sh); other header forms are written from
src/pytest_benchmark/table.py."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import run
from tests.formats.damage import MAIL_DAMAGE, check_damaged, check_shared_sample, own_cases, rows
from tests.formats.golden import text_of


@pytest.mark.parametrize("damage", MAIL_DAMAGE)
@pytest.mark.parametrize("case", own_cases("pytest-benchmark"))
def test_fixture_survives_mail_damage(case, damage):
    check_damaged(case, damage)


@pytest.mark.parametrize("case", own_cases("pytest-benchmark"))
def test_ops_is_one_over_the_mean(case):
    """The tool's legend: OPS = 1 / Mean. With the header's units (us, Kops/s) the
    product of the two read values is 1000, up to the printed rounding."""
    got = {(r[1], r[2], r[3]): (r[4], r[5]) for r in rows(text_of(case))}
    pairs = [(k, v) for k, v in got.items() if k[2] == "Mean"]
    assert pairs
    for (label, variant, _), (mean, unit) in pairs:
        ops, ops_unit = got[(label, variant, "OPS")]
        assert (unit, ops_unit) == ("us", "Kops/s")
        assert ops * mean == pytest.approx(1000, rel=2e-3), label


def test_groups_become_captions():
    text = text_of("pytest-benchmark--two-groups")
    tables = run("pytest-benchmark", text)
    assert [t.caption for t in tables] == [None, "join"]
    assert [r[0] for r in tables[1].rows] == ["test_join_list", "test_join_gen"]


def test_compare_rows_name_the_saved_run():
    got = rows(text_of("pytest-benchmark--compare"))
    assert {(r[1], r[2]) for r in got} == {
        (name, run)
        for name in ("test_sort_large", "test_sort_small")
        for run in ("0001_unversi", "NOW")
    }
    assert {r[3] for r in got} == {"Min", "Mean", "Median", "OPS", "Rounds"}


def test_ratios_and_outliers_are_not_values():
    got = rows(text_of("pytest-benchmark--two-groups"))
    assert not [r for r in got if r[3] == "Outliers"]
    assert len(got) == 4 * 9  # nine numeric columns, four tests


def test_other_units_from_the_header():
    text = (
        "------- benchmark: 2 tests -------\n"
        "Name (time in ms)        Min      Max     Mean   OPS   Rounds\n"
        "----------------------------------\n"
        "test_load           12.5 (1.0)  14.0 (1.0)  13.1 (1.0)  76.3359 (1.0)  20\n"
        "test_dump           25.0 (2.00)  30.0 (2.14)  27.2 (2.08)  36.7647 (0.48)  10\n"
        "----------------------------------\n"
    )
    got = {(r[1], r[3]): (r[4], r[5]) for r in rows(text)}
    assert got[("test_dump", "Mean")] == (27.2, "ms")
    assert got[("test_dump", "OPS")] == (36.7647, "ops/s")
    assert got[("test_load", "Rounds")] == (20, "count")


NOISE = [
    "| Component | Version |\n|---|---|\n| Hadoop | 3.3.6 |\n| Hive | 4.0.1 |",
    "Name          Value\nthreads       8\nbatch.size    16384\n",
    "name (time in ms) Min\n",
    "pytest -q tests/  4 passed in 1.80s",
]


@pytest.mark.parametrize("text", NOISE)
def test_noise_gives_no_measurements(text):
    assert [r for r in rows(text) if r[0] == "pytest-benchmark"] == []


ODD = [
    "",
    "|",
    "Name (time in us)",
    "Name (time in us) Min\n",
    "Name (time in us) Min Max\ntest_a 1 (1.0)",
    "benchmark: 1 tests",
    "[1m" * 1000,
    "\x00\ufffd" * 100,
]


def test_survives_odd_input():
    for text in ODD:
        assert isinstance(run("pytest-benchmark", text), list)


@pytest.mark.parametrize(
    "text",
    [
        "Name (time in us) " + "Min " * 10000,
        "Name (time in us) Min Max Mean\n" + "test_x 1.0 (1.0) " * 5000,
        "-" * 60000,
        "[33m" * 20000,
    ],
)
def test_linear_on_pathological_input(text):
    start = time.perf_counter()
    run("pytest-benchmark", text)
    assert time.perf_counter() - start < 2.0


@pytest.mark.shared
@pytest.mark.parametrize(
    "directory, name",
    [
        ("pytest-benchmark", "issue120-relative"),
        ("pytest-benchmark", "issue187-single-with-time"),
    ],
)
def test_shared_sample(directory, name):
    """A real third-party sample (../shared/formats): its listed rows are found."""
    check_shared_sample(directory, name)
