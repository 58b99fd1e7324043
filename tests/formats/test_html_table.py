"""html-table: `<table>` markup as GitHub mail and bots carry it: `<th>` headers,
colspan groups, `<details><summary>` around it, a slice cut without its header."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import by_name, extract_results, run
from tests.formats.golden import rows_of, text_of


def rows(text: str, fmt: str = "html-table") -> list[tuple]:
    return [
        (t.format, m.label, m.variant, m.metric, m.value, m.unit)
        for t in extract_results(text)
        for m in t.measurements
        if t.format == fmt
    ]


def test_heading_in_markup_is_read_without_its_tags():
    got = rows(text_of("html-table--th-header"))
    assert {r[2] for r in got} == {"Nightly comparison against the previous release"}


def test_summary_of_details_is_the_caption():
    text = text_of("html-table--details-summary")
    (table,) = [t for t in extract_results(text) if t.format == "html-table"]
    assert table.caption == "Ingest benchmark, 8 writer threads"


def test_slice_without_header_keeps_its_first_row():
    got = rows(text_of("html-table--slice-no-header"))
    assert {r[1] for r in got} == {"sort_strings", "sort_ints", "sort_structs"}
    assert ("html-table", "sort_strings", got[0][2], "column 2", 1.84, "ms") in got


def test_unit_from_the_header_applies_to_every_row():
    text = (
        "<table><tr><th>Case</th><th>Latency (us)</th></tr>"
        "<tr><td>a</td><td>15</td></tr><tr><td>b</td><td>22</td></tr>"
        "<tr><td>c</td><td>9</td></tr></table>"
    )
    assert [(r[1], r[4], r[5]) for r in rows(text)] == [
        ("a", 15.0, "us"),
        ("b", 22.0, "us"),
        ("c", 9.0, "us"),
    ]


def test_table_on_one_line_equals_the_indented_one():
    text = text_of("html-table--colspan-groups")
    one_line = "".join(line.strip() for line in text.splitlines())
    assert rows_of(one_line) == rows_of(text)


def test_magnitude_before_a_rate_unit_in_a_cell():
    text = (
        "<table><tr><th>Mode</th><th>Rate</th></tr>"
        "<tr><td>sync</td><td>3.5k req/s</td></tr><tr><td>async</td><td>1.2M req/s</td></tr>"
        "</table>"
    )
    assert [(r[1], r[4], r[5]) for r in rows(text)] == [
        ("sync", 3500.0, "req/s"),
        ("async", 1200000.0, "req/s"),
    ]


NOISE = {
    "contributors": (
        "<table><tr><th>Name</th><th>Commits</th></tr><tr><td>carol</td><td>31</td></tr>"
        "<tr><td>dave</td><td>8</td></tr></table>"
    ),
    "versions": (
        "<table><tr><th>Module</th><th>Version</th></tr><tr><td>core</td><td>2.3.1</td></tr>"
        "<tr><td>cli</td><td>2.3.0</td></tr></table>"
    ),
    "layout table of text": "<table><tr><td>Hello</td><td>world</td></tr></table>",
}


@pytest.mark.parametrize("name", sorted(NOISE))
def test_noise_gives_no_rows(name):
    assert rows_of(NOISE[name]) == []


def test_survives_odd_input():
    parse = by_name("html-table").parse
    odd = [
        "",
        "<table>",
        "<table><tr><td>1</td>",
        "<table><tr><td colspan='x'>1</td></tr></table>",
        '<table><tr><td colspan="9999">1 ms</td></tr><tr><td>2 ms</td></tr></table>',
        "<table><table></table>",
        "\x00\ufffd" * 100,
    ]
    for text in odd:
        assert isinstance(parse(text), list)


@pytest.mark.parametrize(
    "text",
    ["<table><tr><td>a</td><td>1 ms</td></tr>" * 300, "<table" * 20000, "</td>" * 20000],
    ids=["unclosed-tables", "open-tags", "close-tags"],
)
def test_stays_fast_on_pathological_input(text):
    start = time.perf_counter()
    run("html-table", text)
    assert time.perf_counter() - start < 5.0


def test_rows_outside_any_table_tag_are_a_slice_of_a_table():
    """An excerpt that starts inside a table: its `<tr>` rows are read as one, the
    first naming the columns when it holds no values."""
    text = (
        "rest of the report:\n<tr><td>query</td><td>before</td><td>after</td></tr>\n"
        "<tr><td>scan</td><td>12.5 ms</td><td>10.25 ms</td></tr>\n"
        "<tr><td>point</td><td>0.75 ms</td><td>0.5 ms</td></tr>\n"
    )
    got = [(r[1], r[3], r[4], r[5]) for r in rows(text)]
    assert got == [
        ("scan", "before", 12.5, "ms"),
        ("scan", "after", 10.25, "ms"),
        ("point", "before", 0.75, "ms"),
        ("point", "after", 0.5, "ms"),
    ]


def test_a_single_row_outside_a_table_is_not_a_table():
    assert rows("see <tr><td>scan</td><td>12.5 ms</td></tr> in the template") == []
