"""go-bench: `go test -bench` output from Debian's go1.19 (tests/fixtures/tools/go_bench.sh)."""

import json

import pytest

from extract.results.formats import by_name, run
from extract.results.formats._grid import norm_unit
from tests.conftest import shared_path
from tests.formats.golden import FIXTURES, rows_of, text_of

PARSER = by_name("go-bench")


@pytest.mark.parametrize("damage", ["expanded", "flattened", "gitbox-crlf", "wrapped72"])
def test_mail_damage_reads_like_the_clean_output(damage):
    clean = rows_of(text_of("go-bench--benchmem"))
    got = rows_of(text_of(f"go-bench--benchmem-{damage}"))
    if damage == "flattened":  # the words before it become the heading
        got = [{**r, "variant": None} for r in got]
    assert got == clean


def test_metrics_and_custom_units():
    got = {(r["label"], r["metric"]): (r["value"], r["unit"]) for r in
           rows_of(text_of("go-bench--benchmem"))}  # fmt: skip
    assert got[("BenchmarkCopy4K-2", "speed")][1] == "MB/s"
    assert got[("BenchmarkSortInts-2", "ints/op")] == (256.0, "ints/op")  # b.ReportMetric
    assert got[("BenchmarkJoin/n=128-2", "alloc/op")] == (640.0, "B/op")
    assert got[("BenchmarkItoa-2", "iterations")][1] == "count"


def test_block_claims_its_header_and_footer():
    text = text_of("go-bench--benchmem")
    (table,) = run(PARSER, text)
    assert table.source(text).startswith("goos: linux")
    assert table.source(text).rstrip().endswith("s")  # `ok  pkg  0.9s`: test time, not a result
    assert not [r for r in rows_of(text) if r["label"] in ("ok", "PASS")]


def test_count_repetitions_are_separate_rows():

    text = text_of("go-bench--count3")
    (table,) = run(PARSER, text)
    assert len(table.rows) == 6
    itoa = [m.value for m in table.measurements if m.label == "BenchmarkItoa-2" and
            m.unit == "ns/op"]  # fmt: skip
    assert len(itoa) == 3


def test_verbose_name_lines_and_cpu_suffixes():
    labels = {r["label"] for r in rows_of(text_of("go-bench--verbose"))}
    assert labels == {"BenchmarkJoin/n=8-2", "BenchmarkJoin/n=128-2"}
    cpu = {r["label"] for r in rows_of(text_of("go-bench--cpu-list"))}
    assert {"BenchmarkItoa", "BenchmarkItoa-4"} <= cpu  # -cpu 1 prints no suffix


def test_headings_become_variants_and_blocks_claim_their_footer():

    runs = text_of("go-bench--count3").split("BenchmarkCopy4K")[0]
    text = "--- Before\n" + runs + "\n--- After\n" + runs.split("cpu: AMD EPYC\n")[1]
    tables = run(PARSER, text)
    assert [t.variant for t in tables] == ["Before", "After"]
    assert tables[0].source(text).startswith("goos: linux")


def test_gitbox_crlf_as_sent():
    """The harness reads fixtures with universal newlines; this reads the CRLF bytes."""
    raw = (FIXTURES / "go-bench--benchmem-gitbox-crlf.txt").read_bytes().decode("utf-8")
    assert "\r\n   goarch:" in raw
    assert rows_of(raw) == rows_of(text_of("go-bench--benchmem"))


@pytest.mark.shared
@pytest.mark.parametrize(
    "folder,sample",
    [
        ("go-bench", "arrow-pr12138-memset-before"),
        ("go-bench", "golang-issue48219-benchmem"),
        ("go-bench", "golang-perf-crc-old"),
        ("go-bench", "golang-perf-exampleold"),
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
             if r["format"] in ('go-bench',)}  # fmt: skip
    missing = [
        r
        for r in expect["rows"]
        if (round(r["value"], 6), norm_unit(r.get("unit")) or "") not in found
    ]
    assert not missing
