"""memray: `memray stats` reports (tests/fixtures/tools/memray.sh runs memray 1.20 on
this machine). Its totals are read under the report's heading; the histogram, the
allocator counts and the top locations belong to its table and give no result of
their own."""

from __future__ import annotations

from extract.results.formats import by_name, run
from extract.results.message import message_results
from tests.formats.golden import text_of

PARSER = by_name("memray")


def test_each_report_s_totals_under_its_heading():
    text = text_of("memray--before-after")
    tables = run(PARSER, text)
    assert [t.variant for t in tables] == ["Before this change", "After this change"]
    totals = {(t.variant, m.metric): (m.value, m.unit) for t in tables for m in t.measurements}
    assert totals[("Before this change", "total memory allocated")] == (31.603, "MB")
    assert totals[("After this change", "peak memory usage")] == (2.816, "MB")
    assert totals[("After this change", "total allocations")] == (185, "count")
    # (the report's sections are its table's: none of their lines is left to the readers)
    assert all("Top 5 allocating modules" in text[t.span[0] : t.span[1]] for t in tables)


def test_no_bucket_count_or_location_is_taken_for_a_result():
    text = text_of("memray--before-after")
    found = message_results(text, kind="github", gated=False)
    assert found.verdict.is_benchmark
    stored = {(m.metric, m.value) for t in found.tables for m in t.measurements}
    assert ("total memory allocated", 31.603) in stored
    assert all(t.format == "memray" for t in found.tables)


def test_a_sentence_naming_a_total_is_not_a_report():
    text = "Total memory allocated: 12 MB, which the old loader doubled.\n"
    assert run(PARSER, text) == []
