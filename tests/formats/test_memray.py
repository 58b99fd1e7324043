"""memray: `memray stats` reports (tests/fixtures/tools/memray.sh runs memray 1.20 on
this machine). Its totals are read under the report's heading; the histogram, the
allocator counts and the top locations belong to its table and give no result of
their own."""

from __future__ import annotations

import pytest

from extract.results.formats import by_name, run
from extract.results.message import message_results
from tests.formats.damage import MAIL_DAMAGE, check_damaged, own_cases
from tests.formats.golden import expected, text_of

PARSER = by_name("memray")


def test_each_report_s_totals_under_its_heading():
    text = text_of("memray--before-after")
    tables = run(PARSER, text)
    assert [t.variant for t in tables] == ["Before this change", "After this change"]
    totals = {(t.variant, m.metric): m for t in tables for m in t.measurements}
    before, after = (
        totals[(side, "total memory allocated")]
        for side in ("Before this change", "After this change")
    )
    # (the run's sizes, as `memray.sh` made them: the one with the memo allocates less)
    assert before.unit == after.unit == "MB" and before.value > after.value
    assert totals[("After this change", "total allocations")].unit == "count"
    assert {m for (_, m) in totals} == {
        "total allocations", "total memory allocated", "peak memory usage",
        "min allocation size", "max allocation size",
    }  # fmt: skip
    # (the report's sections are its table's: none of their lines is left to the readers)
    assert all("Top 5 allocating modules" in text[t.span[0] : t.span[1]] for t in tables)


def test_no_bucket_count_or_location_is_taken_for_a_result():
    text = text_of("memray--before-after")
    found = message_results(text, kind="github", gated=False)
    assert found.verdict.is_benchmark
    stored = {(m.metric, m.value) for t in found.tables for m in t.measurements}
    want = {(r["metric"], r["value"]) for r in expected("memray--before-after")["rows"]}
    assert stored == want and all(t.format == "memray" for t in found.tables)


def test_a_sentence_naming_a_total_is_not_a_report():
    text = "Total memory allocated: 12 MB, which the old loader doubled.\n"
    assert run(PARSER, text) == []


@pytest.mark.parametrize("damage", [d for d in MAIL_DAMAGE if d not in ("flattened", "wrapped-72")])
@pytest.mark.parametrize("case", own_cases("memray"))
def test_fixture_survives_mail_damage(case, damage):
    # (not yet: flattened onto one line, a report's titles and numbers no longer stand
    # on lines of their own; hard-wrapped, a long top location's tail starts a line of
    # its own, unindented, and ends the report's table early)
    check_damaged(case, damage)
