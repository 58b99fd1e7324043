"""critcmp: comparison tables, written from BurntSushi/critcmp src/output.rs."""

import json

import pytest

from extract.results.formats._grid import norm_unit
from tests.conftest import shared_path
from tests.formats.golden import rows_of, text_of


@pytest.mark.parametrize("damage", ["flattened", "gitbox", "mojibake", "question"])
def test_mail_damage_reads_like_the_clean_table(damage):
    assert rows_of(text_of(f"critcmp--columns-{damage}")) == rows_of(text_of("critcmp--columns"))


def test_cells_per_baseline():
    got = {(r["label"], r["variant"], r["metric"]): (r["value"], r["unit"]) for r in
           rows_of(text_of("critcmp--columns"))}  # fmt: skip
    assert got[("concat_batches/2_cols", "main", "ratio")] == (1.03, "x")
    assert got[("take/string_1024", "pr-5120", "time")] == (9.9, "ms")
    assert got[("filter/u8_nulls", "main", "stddev")] == (0.39, "µs")
    assert got[("filter/u8_nulls", "pr-5120", "throughput")] == (76.1, "MB/s")
    assert ("parse/ints", "main", "throughput") not in got  # `? ?/sec`


def test_the_baselines_are_named_after_the_last_group_word_of_the_line():
    # (the names are read up to the next `group` word: a line of them costs linear time)
    text = text_of("critcmp--columns").replace("\ngroup ", "\nthe group group ", 1)
    assert {r["variant"] for r in rows_of(text)} == {"main", "pr-5120"}


@pytest.mark.shared
@pytest.mark.parametrize(
    "folder,sample",
    [
        ("critcmp", "arrow-rs-pr6118-critcmp"),
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
             if r["format"] in ('critcmp',)}  # fmt: skip
    missing = [
        r
        for r in expect["rows"]
        if (round(r["value"], 6), norm_unit(r.get("unit")) or "") not in found
    ]
    assert not missing


def test_a_version_like_cell_is_no_time():
    # `48.2.1±0.39µs` is no number as critcmp prints one (`[\d.]+` took it whole, and
    # reading it as a float raised): the table ends before its row, the rows above it
    # are read
    lines = text_of("critcmp--columns").splitlines(keepends=True)
    row = next(k for k, line in enumerate(lines) if line.startswith("filter/u8_nulls"))
    lines[row] = lines[row].replace("48.2±", "48.2.1±")
    rows = [r for r in rows_of("".join(lines)) if r["format"] == "critcmp"]
    assert {r["label"] for r in rows} == {"concat_batches/2_cols"}
    assert {r["variant"] for r in rows} == {"main", "pr-5120"}
