"""benchstat: v1 and v2 tables, written from golang/perf's benchstat source."""

import json

import pytest

from extract.results.formats import by_name, run
from extract.results.formats._grid import norm_unit
from tests.conftest import shared_path
from tests.formats.golden import rows_of, text_of

PARSER = by_name("benchstat")


@pytest.mark.parametrize(
    "base,damaged",
    [
        ("v1-oldnew", "v1-mojibake"),
        ("v1-oldnew", "v1-question-marks"),
        ("v2-oldnew", "v2-mojibake"),
        ("v2-oldnew", "v2-flattened"),
    ],
)
def test_mangled_text_reads_the_same(base, damaged):
    assert rows_of(text_of(f"benchstat--{damaged}")) == rows_of(text_of(f"benchstat--{base}"))


def test_v1_group_lines_do_not_end_the_table():
    text = text_of("benchstat--v1-oldnew")
    tables = run(PARSER, text)
    assert [len(t.rows) for t in tables] == [5, 2, 1]
    got = {(r["label"], r["variant"], r["metric"]): (r["value"], r["unit"]) for r in rows_of(text)}
    assert got[("Copy4K-2", "old", "time/op")] == (112.0, "ns")  # after `pkg:example.org/bufutil`
    assert got[("Join/n=128-2", "new", "time/op")] == (2.61, "µs")
    assert got[("[Geo mean]", "new vs old", "delta time/op")] == (-2.98, "%")
    assert ("Join/n=8-2", "new vs old", "delta time/op") not in got  # `~`
    assert ("Itoa-2", "new vs old", "delta alloc/op") not in got  # `~ (all equal)`


def test_v1_single_column():
    got = [(r["label"], r["metric"], r["value"], r["unit"]) for r in
           rows_of(text_of("benchstat--v1-single"))]  # fmt: skip
    assert ("Copy4K-2", "speed", 36.5, "GB/s") in got and len(got) == 4


def test_v2_units_deltas_and_footnotes():

    text = text_of("benchstat--v2-oldnew")
    tables = run(PARSER, text)
    assert len(tables) == 3
    got = [(m.label, m.metric, m.value, m.unit, m.variant) for t in tables for m in t.measurements]
    assert ("Itoa-2", "sec/op", 137.4, "ns/op", "before.txt") in got
    assert ("Itoa-2", "delta sec/op", -11.72, "%", "after.txt vs before.txt") in got
    assert ("Join/n=128-2", "sec/op", 2.614, "µs/op", "after.txt") in got
    assert ("geomean", "delta B/op", -7.17, "%", "after.txt vs before.txt") in got
    assert ("Copy4K-2", "B/s", 33.99, "GiB/s", "before.txt") in got
    assert ("Join/n=8-2", "B/op", 48.0, "B/op", "after.txt") in got  # row with a footnote `¹`
    assert not [g for g in got if g[0] == "Join/n=8-2" and g[1].startswith("delta")]
    assert tables[0].source(text).lstrip().startswith("│  before.txt")


@pytest.mark.shared
@pytest.mark.parametrize(
    "folder,sample",
    [
        ("go-benchstat", "cockroach-pr148409-benchstat-v2"),
        ("go-benchstat", "golang-perf-example-v1"),
        ("go-benchstat", "golang-perf-oldnew-v1"),
    ],
)
def test_third_party_samples(folder, sample):
    """Real pastes, read where they live (../shared/formats; not copied here): the
    values their expect file lists come from this format (a negative gives nothing)."""
    path = shared_path("formats", folder, f"{sample}.txt")
    expect = json.loads(path.with_suffix(".expect.json").read_text(encoding="utf-8"))
    rows = rows_of(path.read_text(encoding="utf-8"))
    if expect.get("negative"):
        assert rows == []
        return
    found = {(round(r["value"], 6), norm_unit(r["unit"]) or "") for r in rows
             if r["format"] in ('benchstat',)}  # fmt: skip
    missing = [
        r
        for r in expect["rows"]
        if (round(r["value"], 6), norm_unit(r.get("unit")) or "") not in found
    ]
    assert not missing
