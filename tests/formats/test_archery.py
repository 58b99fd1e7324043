"""archery: `archery benchmark diff` tables, written from apache/arrow dev/archery."""

import json

import pytest

from extract.results.formats import run
from extract.results.formats._grid import norm_unit
from tests.conftest import shared_path
from tests.formats.golden import rows_of, text_of


@pytest.mark.parametrize(
    "base,damaged",
    [("pandas-diff", "pandas-diff-flattened"), ("pandas-diff", "pandas-diff-gitbox"),
     ("rst-diff", "rst-diff-flattened")],
)  # fmt: skip
def test_mail_damage_reads_the_same(base, damaged):
    assert rows_of(text_of(f"archery--{damaged}")) == rows_of(text_of(f"archery--{base}"))


def test_sections_units_and_bare_time_values():
    got = {(r["label"], r["metric"]): (r["value"], r["unit"], r["variant"]) for r in
           rows_of(text_of("archery--pandas-diff"))}  # fmt: skip
    assert got[("ReadStringColumn/1024", "baseline")] == (1.482, "GiB/s", "Non-regressions")
    assert got[("HashInt64/32768", "contender")] == (829.01, "M items/s", "Non-regressions")
    # time units are printed as bare numbers: read, without a unit, and the table goes on
    assert got[("SortIndices/int32/4096", "baseline")] == (18422.5, None, "Non-regressions")
    assert got[("CastDictToDense/65536", "change")] == (-0.38, "%", "Non-regressions")
    assert got[("MergeChunks/8", "change")] == (12.497, "%", "Regressions")


def test_rst_table_in_a_diff_fence():
    text = text_of("archery--rst-diff")
    (table,) = run("archery", text)
    assert [row[0] for row in table.rows] == ["ReadStringColumn/1024", "FilterNulls/0.5"]
    assert table.rows[1][3] == "-14.315"


@pytest.mark.shared
@pytest.mark.parametrize(
    "folder,sample",
    [
        ("archery-benchmark-diff", "arrow-pr7316-rst-table"),
        ("archery-benchmark-diff", "arrow-pr9985-nonregressions"),
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
             if r["format"] in ('archery', 'google-benchmark')}  # fmt: skip
    missing = [
        r
        for r in expect["rows"]
        if (round(r["value"], 6), norm_unit(r.get("unit")) or "") not in found
    ]
    assert not missing
