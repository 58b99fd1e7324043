"""markdown-table: GitHub pipe tables, with or without outer pipes, also flattened
onto one line and indented as GitBox mail delivers them."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import by_name, extract_results, run
from tests.conftest import seed
from tests.formats.damage import flatten
from tests.formats.golden import rows_of, text_of


def rows(text: str, fmt: str = "markdown-table") -> list[tuple]:
    return [
        (t.format, m.label, m.variant, m.metric, m.value, m.unit)
        for t in extract_results(text)
        for m in t.measurements
        if t.format == fmt
    ]


def values(text: str) -> list[tuple]:
    return [(r["label"], r["metric"], r["value"], r["unit"]) for r in rows_of(text)]


@pytest.mark.parametrize(
    "case",
    [
        "markdown-table--no-outer-pipes",
        "markdown-table--outer-pipes-aligned",
        "markdown-table--unit-column",
    ],
)
def test_flattened_gives_the_same_values(case):
    text = text_of(case)
    assert values(flatten(text)) == values(text)


def test_gitbox_indent_gives_the_same_rows():
    text = text_of("markdown-table--outer-pipes-aligned")
    indented = "\n".join("   " + line if line else line for line in text.splitlines())
    assert rows_of(indented) == rows_of(text)


def test_unit_from_the_header_applies_to_every_row():
    text = "| Case | Time (ms) |\n|---|---|\n| cold | 812 |\n| warm | 140 |\n| hot | 12 |\n"
    assert [(r[1], r[4], r[5]) for r in rows(text)] == [
        ("cold", 812.0, "ms"),
        ("warm", 140.0, "ms"),
        ("hot", 12.0, "ms"),
    ]


@pytest.mark.parametrize("cell", ["12.1 ± 0.4 s", "12.1 +- 0.4 s", "12.1 s ± 0.4 s"])
def test_a_unit_written_once_after_the_error_is_the_value_s_too(cell):
    text = f"| dataset | baseline | patched |\n|---|---|---|\n| small | {cell} | 9.8 s |\n"
    got = {m.metric: (m.value, m.unit) for t in extract_results(text) for m in t.measurements}
    assert got["baseline"] == (12.1, "s") and got["baseline error"] == (0.4, "s")
    # (a relative error's `%` is the error's own)
    text = text.replace(cell, "12.1 ± 3%")
    got = {m.metric: (m.value, m.unit) for t in extract_results(text) for m in t.measurements}
    assert got["baseline"][1] != "%" and got["baseline error"] == (3.0, "%")


def test_flattened_markdown_table_at_the_end_of_the_text():
    text = "No. of Partitions | Time taken -- | -- 500 | 14 sec 4000 | 52 sec "
    got = [(m[1], m[4], m[5]) for m in rows(text)]
    # (a row named by a number is named with its column: `No. of Partitions=500`)
    assert got == [("No. of Partitions=500", 14.0, "sec"), ("No. of Partitions=4000", 52.0, "sec")]


def test_seed_000_flattened_markdown_table():
    found = [
        (t, m)
        for t in extract_results(seed("000"))
        for m in t.measurements
        if t.format == "markdown-table"
    ]
    times = [(m.metric, m.value, m.unit) for _, m in found]
    assert times == [
        ("Time taken for REPL DUMP", 9.0, "sec"),
        ("Time taken for REPL DUMP", 27.0, "sec"),
    ]
    labels = [m.label for _, m in found]
    assert "Export Service used=Yes" in labels[0] and "Export Service used=No" in labels[1]
    table = found[0][0]
    assert table.columns[0] == "No. of Tables" and table.rows[1] == ["1000", "100", "No", "27 sec"]
    assert table.source(seed("000")).endswith("27 sec")


def test_markdown_flattened_with_outer_pipes_stops_at_the_table():
    table = "| Job | Before | After | |---|---|---| | etl | 7.5s | 5.2s | | agg | 3s | 2s |"
    text = f"Timings: {table} cheers!"
    tables = [t for t in extract_results(text) if t.format == "markdown-table"]
    assert len(tables) == 1
    assert tables[0].source(text) == table
    assert ("markdown-table", "agg", "Timings", "After", 2.0, "s") in rows(text)


def test_flattened_bold_heading_names_the_run():
    text = (
        "Report. **ssb — patched** | Metric | Value | |---|---| | Wall time | 33.0s | "
        "| Peak memory | 1.5 GiB | **ssb — trunk** | Metric | Value | |---|---| "
        "| Wall time | 35.5s |"
    )
    got = rows(text)
    assert ("markdown-table", "Peak memory", "ssb — patched", "Value", 1.5, "GiB") in got
    assert ("markdown-table", "Wall time", "ssb — trunk", "Value", 35.5, "s") in got


def test_markdown_heading_names_the_run_and_header_gives_the_unit():
    text = (
        "With 8 scanner threads:\n\n"
        "| Benchmark | Best Time(ms) | Rate(M/s) |\n|---|---:|---:|\n| filter | 2,210 | 14.5 |\n"
    )
    got = rows(text)
    assert ("markdown-table", "filter", "With 8 scanner threads", "Best Time", 2210.0, "ms") in got
    assert ("markdown-table", "filter", "With 8 scanner threads", "Rate", 14.5, "M/s") in got


def test_html_table_rendered_as_pipes_by_the_parser():
    # extract.mail.message renders <table> as pipe rows with a separator after the first row
    text = "| query | before | after |\n|---|---|---|\n| q4 | 20.5 s | 17.25 s |"
    assert ("markdown-table", "q4", None, "after", 17.25, "s") in rows(text)


NOISE = {
    "versions table": "| Component | Version |\n|---|---|\n| Kafka | 3.7.1 |\n| Flink | 1.19.0 |",
    "dates and ids": (
        "| Issue | Created |\n|---|---|\n| FLINK-30100 | 2024-03-05 |\n| FLINK-30101 | 2024-03-09 |"
    ),
    "pr checklist": "| | Check |\n|---|---|\n| 1 | tests pass |\n| 2 | docs |",
    "schedule": (
        "| Release | Code freeze | Votes needed |\n| --- | --- | --- |\n"
        "| 2.4 | 2025-03-01 | 3 |\n| 2.5 | 2025-06-02 | 3 |"
    ),
}


@pytest.mark.parametrize("name", sorted(NOISE))
def test_noise_gives_no_rows(name):
    assert rows_of(NOISE[name]) == []


def test_survives_odd_input():
    parse = by_name("markdown-table").parse
    for text in ["", "|", "| a |\n|---|", "-- | -- " * 50, "\x00\ufffd" * 100, "|---|---|"]:
        assert isinstance(parse(text), list)


@pytest.mark.parametrize(
    "text",
    [
        " " * 60000 + "| a | b |\n|---|---|\n| x | 1 ms |",
        "-" * 60000,
        "-- | " * 15000,
        "a | " * 10000 + "-- | -- " + "1 | " * 10000,
    ],
    ids=["spaces-before", "dashes", "separators", "long-flattened"],
)
def test_stays_linear_on_pathological_input(text):
    start = time.perf_counter()
    run("markdown-table", text)
    assert time.perf_counter() - start < 5.0


def test_a_header_and_rows_broken_by_a_hard_wrap_are_joined_by_their_cell_count():
    from extract.dev.transforms import wrapped_72

    table = (
        "| Benchmark scenario for the write path | Baseline (ms) | Contender (ms) | Diff (ms) |\n"
        "|---|---:|---:|---:|\n"
        "| bulk load of the partitioned fact table with eight writers | 636.4 | 618.4 | -18.0 |\n"
        "| single-row upserts against the primary key index, one writer | 20.3 | 19.8 | -0.5 |\n"
    )
    wrapped = wrapped_72(table).replace("\r\n", "\n")
    assert max(map(len, wrapped.split("\n"))) <= 72 and wrapped.count("\n") > table.count("\n")
    whole = sorted((m.metric, m.value, m.unit) for m in _measurements(table))
    assert whole and sorted((m.metric, m.value, m.unit) for m in _measurements(wrapped)) == whole


def _measurements(text):
    from extract.results.formats import extract_results

    return [
        m for t in extract_results(text) if t.format == "markdown-table" for m in t.measurements
    ]


SHEET = (
    "Nightly numbers, ops/ms:\n\n"
    "Baseline |   |  \n-- | -- | --\n"
    "bench.Codec.encode | 5120.5 |  \n"
    "bench.Codec.decode | 4410.25 | warm\n"
    "bench.Codec.copy | 980.75 |  \n"
    "Patched |   |  \n"
    "bench.Codec.encode | 6002.5 |  \n"
    "bench.Codec.decode | 4399.75 |  \n"
)


def test_flattened_spreadsheet_table_whose_last_column_is_mostly_empty():
    """`Baseline | | -- | -- | --`: the bar before the rule ends a header whose last
    cell is empty; a row with an empty last cell runs into the next row's name."""
    got = {(m.label, m.variant, m.value) for m in values_of(flatten(SHEET))}
    assert got == {(m.label, m.variant, m.value) for m in values_of(SHEET)}
    assert ("bench.Codec.copy", "Baseline", 980.75) in got
    assert ("bench.Codec.decode", "Patched", 4399.75) in got


def values_of(text: str):
    return [
        m for t in extract_results(text) if t.format == "markdown-table" for m in t.measurements
    ]


def test_header_and_row_names_a_gateway_wrapped_before_their_bars():
    """Hard wraps at 72 columns broke the header over several lines and put long row
    names alone on a line, the rest of the row under it starting with a bar."""
    text = (
        "Throughput, higher is better:\n\n"
        "Benchmark | Unit | [run\none](http://ci.example.org/job/bench/101/)\n| [run\n"
        "two](http://ci.example.org/job/bench/102/)\n-- | -- | -- | --\n"
        "org.example.bench.VeryLongBenchmarkClassName.someRatherLongMethodName\n"
        "| ops/ms | 8123.5 | 8410.25 |\n"
        "org.example.bench.Short.run | ops/ms | 912.5 | 930.75 |\n"
    )
    got = {(m.label, m.value, m.unit) for m in values_of(text)}
    long_name = "org.example.bench.VeryLongBenchmarkClassName.someRatherLongMethodName"
    assert (long_name, 8410.25, "ops/ms") in got
    assert ("org.example.bench.Short.run", 930.75, "ops/ms") in got


def test_flattened_row_whose_last_cell_is_empty_runs_into_a_name_like_its_own():
    """The last column (`note`) is empty in most rows: the word after a row's last bar
    begins as that row's name does, so it is the next row's name."""
    text = (
        "Scores, ops/ms: bench | ops/ms | note -- | -- | -- "
        "org.example.Codec.encode | 5120.5 | org.example.Codec.decode | 4410.25 | warm "
        "org.example.Codec.copy | 980.75 | done."
    )
    got = {(m.label, m.value) for m in values_of(text)}
    assert ("org.example.Codec.decode", 4410.25) in got
    assert ("org.example.Codec.copy", 980.75) in got


def test_a_note_just_below_a_table_states_its_unit():
    table = (
        "| rows | master | patch |\n|---|---|---|\n| 1M | 2.31 | 1.87 |\n| 10M | 22.9 | 17.4 |\n"
    )
    below = run(by_name("markdown-table"), "Scan times:\n\n" + table + "all times in seconds\n")
    assert {m.unit for t in below for m in t.measurements} == {"seconds"}
    # (a sentence with numbers below is no note, and a unit stated above wins)
    after = run(by_name("markdown-table"), "Scan times:\n\n" + table + "The 10M run took 3 s.\n")
    assert {m.unit for t in after for m in t.measurements} == {None}
    above = run(by_name("markdown-table"), "Scan times (ms):\n\n" + table + "in seconds\n")
    assert {m.unit for t in above for m in t.measurements} == {"ms"}


def test_a_separator_of_single_hyphens_between_bars():
    """GitHub takes one hyphen for a column (`|-|-|`), as bots write their tables."""
    text = (
        "| Benchmark | Current | Previous | Ratio |\n"
        "|-|-|-|-|\n"
        "| parse | 1523.4 ops/s | 2011.9 ops/s | 1.32 |\n"
    )
    (table,) = [t for t in extract_results(text) if t.format == "markdown-table"]
    assert table.columns == ["Benchmark", "Current", "Previous", "Ratio"]
    assert [(m.label, m.metric, m.value) for m in table.measurements][:2] == [
        ("parse", "Current", 1523.4),
        ("parse", "Previous", 2011.9),
    ]
    # (a line of bars and single hyphens inside other text is no separator)
    assert not [t for t in extract_results("a |-|-| b 12 ms") if t.format == "markdown-table"]


def test_a_junction_of_two_rows_splits_after_the_shared_number_pattern():
    """Where two rows of a flattened table meet, the value that ends the one is a number
    as `_layout.GROUPED` reads it (an exponent too), with its unit; a version
    (`1.2.3`) is no number, so the piece splits at its last blank."""
    from extract.results.formats.markdown_table import _split_junction

    assert _split_junction("1e5 ms 1000") == ("1e5 ms", "1000")
    assert _split_junction("1e5 read small") == ("1e5", "read small")
    assert _split_junction("-1,250 ms readLarge") == ("-1,250 ms", "readLarge")
    assert _split_junction("1.2.3 ms 1000") == ("1.2.3 ms", "1000")
