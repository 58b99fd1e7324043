"""memtier_benchmark's stats tables: the rows as the tool prints them."""

from extract.results.formats import memtier
from tests.formats.golden import text_of


def test_each_cell_stands_under_its_header():
    """A `---` cell is kept: the numbers after it stay under their own columns."""
    [table] = memtier.parse(text_of("memtier--all-stats"))
    assert all(len(row) == len(table.columns) for row in table.rows)
    sets = dict(zip(table.columns, table.rows[0], strict=True))
    assert sets["Hits/sec"] == "---" and sets["Avg. Latency"] == "2.05134"
    assert table.rows[2][1:] == ["0.00", *["---"] * 7]  # Waits


def test_the_titles_of_a_run_of_several_name_the_tables():
    tables = memtier.parse(text_of("memtier--aggregated-per-build"))
    assert [t.caption for t in tables] == [
        "AGGREGATED AVERAGE RESULTS (3 runs)",
        "AGGREGATED AVERAGE RESULTS (3 runs)",
        "RUN #2 RESULTS",
    ]
    assert tables[0].variant == "master, AGGREGATED AVERAGE RESULTS (3 runs)"


def test_a_type_of_several_words_is_a_row():
    """Incremental SCAN and a monitor's lines are types of several words."""
    text = (
        "ALL STATS\n" + "=" * 60 + "\n"
        "Type         Ops/sec    Avg. Latency     p50 Latency       KB/sec\n" + "-" * 60 + "\n"
        "Scan 0s      1210.55         3.10100         2.94300       511.20\n"
        "Get (line 3)s 812.40         1.20100         1.10300        40.20\n"
        "Totals       2022.95         2.34000         2.20700       551.40\n"
    )
    [table] = memtier.parse(text)
    assert [row[0] for row in table.rows] == ["Scan 0s", "Get (line 3)s", "Totals"]
    got = {(m.label, m.metric): m.value for m in table.measurements}
    assert got[("Get (line 3)s", "Ops/sec")] == 812.4
