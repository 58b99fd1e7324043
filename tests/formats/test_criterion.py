"""criterion: criterion.rs console output, written from its src/report.rs."""

import json

import pytest

from extract.results.formats import by_name, extract_results, run
from extract.results.formats._grid import norm_unit
from tests.conftest import shared_path
from tests.formats.golden import FIXTURES, rows_of, text_of

PARSER = by_name("criterion")


@pytest.mark.parametrize("damage", ["flattened", "gitbox", "wrapped72", "mojibake"])
def test_mail_damage_reads_like_the_clean_console(damage):
    clean = rows_of(text_of("criterion--console"))
    assert rows_of(text_of(f"criterion--console-{damage}")) == clean


def test_blocks_names_and_unicode_minus():
    got = {(r["label"], r["metric"]): (r["value"], r["unit"]) for r in
           rows_of(text_of("criterion--console"))}  # fmt: skip
    assert got[("join/8", "change_lower")] == (-1.2034, "%")  # U+2212 minus
    assert got[("join/128", "time")] == (2.614, "µs")
    # a name longer than 23 characters is printed on its own line
    assert got[("copy_4k_into_existing_buffer", "thrpt")] == (36.539, "GiB/s")
    assert got[("copy_4k_into_existing_buffer", "thrpt_change")] == (7.6893, "%")


def test_progress_and_cargo_lines_are_claimed_not_read():
    text = text_of("criterion--console")
    empty = [t.source(text) for t in run(PARSER, text) if not t.measurements]
    assert any("Collecting 100 samples" in s for s in empty)
    assert any(s.lstrip().startswith("Finished bench") for s in empty)
    values = {r["value"] for r in rows_of(text)}
    assert not values & {5.0004, 14.82, 100.0, 4.0, 3.0}
    assert {r["variant"] for r in rows_of(text)} == {None}  # not "Benchmarking x: Analyzing"


def test_a_progress_line_is_read_from_the_last_name_before_its_phase():
    # (a name is read up to the next `Benchmarking `: a line of them costs linear time)
    text = "Benchmarking a Benchmarking b: Analyzing\nBenchmarking c " * 3 + "x\n"
    spans = [t.source(text) for t in run(PARSER, text)]
    assert spans == ["Benchmarking b: Analyzing"] * 3
    assert not run(PARSER, "Benchmarking x " * 5000 + "\nWarning: Unable to complete 1 samples")


def test_throughput_and_noise_lines():

    text = (
        "Benchmarking scan/utf8: Warming up for 3.0000 s\n"
        "Warning: Unable to complete 100 samples in 5.0s. You may wish to increase target time to "
        "7.1s, enable flat sampling, or reduce sample count to 70.\n"
        "scan/utf8               time:   [12.520 µs 12.546 µs 12.575 µs]\n"
        "                        thrpt:  [77.681 MiB/s 77.864 MiB/s 78.025 MiB/s]\n"
    )
    tables = run(PARSER, text)
    assert len(tables) == 3 and len([t for t in tables if t.measurements]) == 1
    values = [m.value for t in extract_results(text) for m in t.measurements]
    assert 7.1 not in values and 70 not in values and 3.0 not in values


def test_heading_is_the_runs_not_the_outlier_line():

    text = "After the patch:\n\n" + text_of("criterion--first-run").split("\n\n", 1)[1]
    variants = [t.variant for t in run(PARSER, text) if t.measurements]
    assert variants == ["After the patch"] * 3


def test_gitbox_crlf_as_sent():
    raw = (FIXTURES / "criterion--console-gitbox.txt").read_bytes().decode("utf-8")
    assert "\r\n   " in raw
    assert rows_of(raw) == rows_of(text_of("criterion--console"))


@pytest.mark.shared
@pytest.mark.parametrize(
    "folder,sample",
    [
        ("rust-criterion", "arrow-rs-pr3299-criterion"),
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
             if r["format"] in ('criterion',)}  # fmt: skip
    missing = [
        r
        for r in expect["rows"]
        if (round(r["value"], 6), norm_unit(r.get("unit")) or "") not in found
    ]
    assert not missing
