"""coverage-report (noise): code-coverage reports, whose percentages are not
benchmark results. coverage.py's and pytest-cov's reports come from running them
here (tests/fixtures/tools/coverage.sh); the Codecov, Coveralls and CI comments are
written from their formats. Every fixture expects no rows."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import by_name, extract_results, run
from tests.formats.damage import (
    MAIL_DAMAGE,
    check_damaged,
    check_shared_sample,
    flatten,
    own_cases,
    rows,
)
from tests.formats.golden import cases, expected, text_of


@pytest.mark.parametrize("case", cases("coverage-report"))
def test_fixtures_are_negatives(case):
    assert expected(case)["rows"] == []


@pytest.mark.parametrize("damage", MAIL_DAMAGE)
@pytest.mark.parametrize("case", own_cases("coverage-report"))
def test_fixture_survives_mail_damage(case, damage):
    check_damaged(case, damage)


@pytest.mark.parametrize(
    "case",
    [
        "coverage-report--coverage-py-term",
        "coverage-report--coverage-py-markdown",
        "coverage-report--pytest-cov",
    ],
)
def test_coverage_py_report_is_claimed_whole(case):
    text = text_of(case)
    (table,) = run("coverage-report", text)
    claimed = table.source(text)
    assert "TOTAL" in claimed
    assert not text[table.span[1] :].strip()  # nothing of the report is left over


BENCH = "hyperfine--two-commands"


@pytest.mark.parametrize("case", own_cases("coverage-report"))
def test_noise_next_to_a_benchmark_claims_only_its_block(case):
    noise, bench = text_of(case), text_of(BENCH)
    want = {(r["label"], r["metric"], r["value"]) for r in expected(BENCH)["rows"]}
    before = "Before the patch:\nlatency was high.\n\n"
    for text in (before + noise + "\n" + bench, before + bench + "\n" + noise):
        got = rows(text)
        assert {r[0] for r in got} == {"hyperfine"}
        assert {(r[1], r[3], r[4]) for r in got} == want
    for text in (flatten(noise + "\n" + bench), flatten(bench + "\n" + noise)):
        tables = extract_results(text)
        assert {t.format for t in tables} == {"hyperfine"}, case


ODD = [
    "",
    " ",
    "# [Codecov]() Report",
    "Coverage Report",
    "Name Stmts Miss Cover",
    "Name Stmts Miss Cover\n---\nTOTAL",
    "| Name | Stmts | Miss | Cover |\n|---|",
    "\x00\ufffd" * 50,
    "-" * 5000,
]


def test_never_raises_and_stays_linear():
    parse = by_name("coverage-report").parse
    for text in ODD:
        assert isinstance(parse(text), list)
    for text in (
        "Name Stmts Miss Cover " + "a.py 1 2 3% " * 5000,
        "Coverage Report " * 5000,
        "#" * 60000,
    ):
        start = time.perf_counter()
        parse(text)
        assert time.perf_counter() - start < 2.0


@pytest.mark.shared
@pytest.mark.parametrize(
    "directory, name",
    [
        ("coverage-report", "doris-pr65206-fe-coverage"),
    ],
)
def test_shared_sample(directory, name):
    """A real third-party sample (../shared/formats): its listed rows are found."""
    check_shared_sample(directory, name)


def test_a_version_like_percentage_is_no_coverage_line():
    line = "Coverage increased (+0.02%) to {}% when pulling abc on x:y into z on w."
    assert [t.span for t in run("coverage-report", line.format("65.4"))] == [(0, 73)]
    assert run("coverage-report", line.format("6.5.4")) == []
