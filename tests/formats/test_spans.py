"""Every measurement says where in the text it came from (`Measurement.span`)."""

from pathlib import Path

import pytest

from extract.results.formats import Measurement, ResultTable, extract_results, locate_numbers

FIXTURES = sorted((Path(__file__).parents[1] / "fixtures" / "formats").glob("*.txt"))


def _table(text: str, *written: str) -> ResultTable:
    t = ResultTable("test", (0, len(text)))
    t.measurements = [Measurement("m", float(w.replace(",", "")), written=w) for w in written]
    return t


def test_a_number_is_found_where_it_stands_alone():
    text = "112 and 12.5 then 12 and 12"
    t = _table(text, "12", "12")
    locate_numbers(text, t)
    assert [m.span for m in t.measurements] == [(18, 20), (25, 27)]


def test_repeated_values_take_successive_occurrences_from_the_last_one_found():
    text = "| a | 5 | 7 |\n| b | 5 | 5 |"
    t = _table(text, "5", "7", "5", "5")
    locate_numbers(text, t)
    starts = [m.span[0] for m in t.measurements]
    assert starts == sorted(set(starts))
    assert all(text[s:e] == "5" or text[s:e] == "7" for s, e in (m.span for m in t.measurements))


def test_a_number_outside_the_table_is_not_located():
    text = "42 before | 7 |"
    t = ResultTable("test", (10, len(text)))
    t.measurements = [Measurement("m", 42.0, written="42")]
    locate_numbers(text, t)
    assert t.measurements[0].span is None


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_every_fixture_measurement_points_at_its_written_text(path):
    text = path.read_text(encoding="utf-8")
    for table in extract_results(text, strict=True):
        for m in table.measurements:
            if m.span is not None:
                assert text[m.span[0] : m.span[1]] == m.written
