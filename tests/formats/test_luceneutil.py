"""luceneutil: fixtures written from src/python/benchUtil.py (the QPS comparison as text
and `-jira`, with and without the p-value column; the per-task latency table) and
src/main/perf/Indexer.java (the `GB/hour plain text` line, grepped from several logs),
and mail damage."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import extract_results, run
from tests.conftest import seed
from tests.formats.damage import FormatChecks
from tests.formats.golden import text_of

FORMAT = "luceneutil"


_checks = FormatChecks(FORMAT)
rows, values, damaged = _checks.rows, _checks.values, _checks.damaged
shared_found, damage_cases = _checks.shared_found, _checks.damage_cases


LIMITS = {
    # Rows of the 170-column latency table wrapped at 80: a task name lands at the end
    # of the line before its numbers and reads as part of the previous row.
    ("luceneutil--qps-latency", "wrapped-80"): "latency rows wrapped mid-row",
}


@pytest.mark.parametrize("case,damage", damage_cases(LIMITS))
def test_survives_mail_damage(case, damage):
    damaged(case, damage)


LUCENE_OLD = """\
                    Task    QPS base      StdDev    QPS comp      StdDev                Pct diff
                  IntNRQ       12.99      (2.7%)       13.37      (1.9%)    2.9% (  -1% -    7%)
                 Respell       45.51      (1.5%)       47.30      (2.1%)    3.9% (   0% -    7%)
"""


def test_without_p_value_column():
    found = [(r[0], r[2], r[3], r[4]) for r in rows(LUCENE_OLD)]
    assert ("IntNRQ", "QPS base", 12.99, "QPS") in found
    assert ("Respell", "QPS comp", 47.30, "QPS") in found
    assert ("Respell", "Pct diff", 3.9, "%") in found
    assert not [r for r in found if r[1] == "p-value"]


def test_table_claims_its_rows():
    tables = [t for t in extract_results(LUCENE_OLD) if t.measurements]
    assert [t.format for t in tables] == [FORMAT]
    assert len(tables[0].rows) == 2


# --- focused ------------------------------------------------------------------------


def test_jira_form_sign_comes_from_the_colour():
    found = [(r[0], r[2], r[3], r[4]) for r in rows(text_of("luceneutil--jira-old-no-pvalue"))]
    assert ("Fuzzy2", "Pct diff low", -14, "%") in found
    assert ("Fuzzy2", "Pct diff high", 1, "%") in found
    assert ("Fuzzy2", "StdDev trunk", 1.77, "QPS") in found  # absolute in the JIRA form
    assert [t.format for t in extract_results(text_of("luceneutil--jira-old-no-pvalue"))] == [
        FORMAT,
        FORMAT,
    ]


def test_latency_table():
    found = [(r[0], r[2], r[3], r[4]) for r in rows(text_of("luceneutil--qps-latency"))]
    assert ("OrHighHigh", "P99 Cmp", 55.119, "ms") in found
    assert ("PKLookup", "P999 Diff", 4.2, "%") in found


def test_indexer_lines_labelled_by_log_file():
    found = rows(text_of("luceneutil--indexer-grep"))
    assert [r[0] for r in found] == ["base0", "base1", "cand0", "cand1"]
    assert {r[4] for r in found} == {"GB/hour"}
    assert len({r[1] for r in found}) == 1  # one comparison: the shell commands do not split it


def test_indexer_progress_lines_are_not_results():
    assert rows(text_of("luceneutil--negative-logs"), None) == []


def test_never_raises():
    for text in [
        "",
        "Pct diff",
        "||Task||QPS a||StdDev a||QPS b||StdDev b||Pct diff||",
        "Indexer: x GB/hour plain text",
    ]:
        assert isinstance(run(FORMAT, text), list)


def test_linear_on_long_flattened_lines():
    text = ("Task QPS a StdDev QPS b StdDev Pct diff p-value X 1.0 (2%) 3 " * 2000) + " " * 20000
    start = time.perf_counter()
    run(FORMAT, text)
    assert time.perf_counter() - start < 2.0


@pytest.mark.parametrize("prefix", ["000", "001", "002", "003", "004"])
def test_silent_on_the_seeds(prefix):
    assert rows(seed(prefix)) == []
