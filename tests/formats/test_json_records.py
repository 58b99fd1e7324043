"""JSON objects with numeric fields: one measurement per measured field, named by its
path, its unit from the field name, its label from a name field or the record above."""

from __future__ import annotations

import pytest

from extract.results.formats import extract_results
from extract.results.formats.json_records import _unit


@pytest.mark.parametrize(
    ("key", "unit"),
    [
        ("p99_ms", "ms"),
        ("records_per_sec", "records/s"),
        ("mb_per_sec", "MB/s"),
        ("elapsed_seconds", "s"),
        ("cpu_pct", "%"),
        ("throughput", None),
    ],
)
def test_units_from_field_names(key, unit):
    assert _unit(key) == unit


def test_flattened_onto_one_line_reads_the_same_fields():
    text = (
        'run A: {"latency_ms": 5.5, "ops_per_sec": 1200} and '
        'run B: {"latency_ms": 6.5, "ops_per_sec": 1100}'
    )
    got = [(m.metric, m.value) for t in extract_results(text) for m in t.measurements]
    assert ("latency_ms", 5.5) in got


def test_the_name_record_before_an_object_labels_it_on_its_line_or_the_line_above():
    lines = (
        "test_id: suite.bench.codec=zstd\nstatus: PASS\n"
        '{"encode": {"records_per_sec": 5100.5, "mb_per_sec": 48.5}}\n'
        "test_id: suite.bench.codec=lz4\nstatus: PASS\n"
        '{"encode": {"records_per_sec": 7200.5, "mb_per_sec": 66.5}}\n'
    )
    for text in (lines, " ".join(lines.split())):  # as written, and flattened
        got = [
            (m.label, m.value)
            for t in extract_results(text)
            if t.format == "json"
            for m in t.measurements
            if m.metric == "encode records_per_sec"
        ]
        assert got == [("suite.bench.codec=zstd", 5100.5), ("suite.bench.codec=lz4", 7200.5)]


def test_broken_json_and_huge_objects_give_nothing():
    assert extract_results('{"latency_ms": 5.5, "ops_per_sec": ') == []
    big = "{" + ", ".join(f'"k{i}_ms": {i}' for i in range(3000)) + "}"
    assert [t for t in extract_results(big) if t.format == "json"] == []


def test_an_integer_past_any_double_is_no_measurement_and_no_error():
    text = '{"benchmark": "consume", "throughput": 900.1, "latency_ms": 4.2, "ops": %s}\n' % (
        "9" * 400
    )
    got = [(m.metric, m.value) for t in extract_results(text, strict=True) for m in t.measurements]
    assert ("throughput", 900.1) in got and all(m != "ops" for m, _ in got)
