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
