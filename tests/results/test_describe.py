"""Labels of the numbers no reader read (`extract.results.describe`), on text written
here: a table's row and column, a record's key, a sentence's clause."""

from extract.results.describe import describe
from extract.results.judge import judge_numbers


def described(text):
    """(label, metric, variant) of each number of `text`, by its written form."""
    return {c.number.written: describe(text, c) for c in judge_numbers(text, [], [])}


def test_a_bar_table_cell_is_named_by_its_row_and_column_and_the_heading_above():
    text = (
        "Results before the patch:\n\n"
        "| query | time (ms) | rows |\n"
        "|-------|-----------|------|\n"
        "| q1    | 120.5     | 10   |\n"
        "| q2    | 88.1      | 20   |\n"
    )
    got = described(text)
    assert got["120.5"] == ("q1", "time (ms)", "Results before the patch")
    assert got["88.1"] == ("q2", "time (ms)", "Results before the patch")


def test_an_aligned_table_names_a_cell_by_the_header_above_it():
    text = (
        "Task            QPS base    QPS patch\n"
        "Prefix3           147.12       129.27\n"
        "Wildcard           98.40       101.30\n"
    )
    got = described(text)
    assert got["129.27"][:2] == ("Prefix3", "QPS patch")
    assert got["98.40"][:2] == ("Wildcard", "QPS base")


def test_a_comma_separated_row_is_named_by_its_first_cell_and_the_header():
    text = "Metric Name, Min, Max, Mean\ntopology-0, 0.038, 0.236, 0.082\n"
    got = described(text)
    assert got["0.236"][:2] == ("topology-0", "Max")
    assert got["0.082"][:2] == ("topology-0", "Mean")


def test_a_row_without_a_name_is_named_by_its_column():
    text = "| threads | throughput (ops/s) |\n|---|---|\n| 16 | 5230.5 |\n"
    assert described(text)["5230.5"][:2] == ("throughput (ops/s)", "throughput (ops/s)")


def test_a_sentence_with_two_blanks_inside_is_no_table():
    text = "The build took 12 min before.  With the patch it takes 7 min now."
    label, _, _ = described(text)["7"]
    assert "patch" in label
