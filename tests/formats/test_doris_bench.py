"""doris-bench: Doris performance-bot comments (own numbers)."""

import json

import pytest

from extract.results.formats import run
from extract.results.formats._grid import norm_unit
from tests.conftest import shared_path
from tests.formats.golden import rows_of, text_of


@pytest.mark.parametrize("damage", ["flattened", "gitbox", "expanded"])
def test_mail_damage_reads_the_same(damage):
    clean = rows_of(text_of("doris-bench--tpch-round"))
    assert rows_of(text_of(f"doris-bench--tpch-round-{damage}")) == clean


def test_round_rows_totals_and_summary():
    text = text_of("doris-bench--tpch-round")
    got = {(r["label"], r["metric"]): (r["value"], r["unit"], r["variant"]) for r in rows_of(text)}
    assert got[("q4", "best_hot")] == (97.0, "ms", "Round 1")
    assert got[("total", "Total hot run time")] == (1339.0, "ms", "Round 1")
    # the collapsed `<summary>` repeats that total: claimed, not counted twice
    assert [r["value"] for r in rows_of(text)].count(1339.0) == 1
    empty = [t.source(text) for t in run("doris-bench", text) if not t.measurements]
    assert any("<summary>TPC-H" in s for s in empty)


def test_tpcds_query_names_and_clickbench_key_values():
    labels = {r["label"] for r in rows_of(text_of("doris-bench--tpcds-queries"))}
    assert labels == {"query1", "query2", "query3", "query4", "total"}
    got = {(r["label"], r["metric"]): (r["value"], r["unit"]) for r in
           rows_of(text_of("doris-bench--clickbench-kv"))}  # fmt: skip
    assert got[("insert into select", "throughput")] == (358000.0, "ops/s")
    assert got[("stream load tsv", "bytes_loaded")] == (74807831229.0, "B")


def test_rounds_flattened():

    lines = "\n".join(f"q{i}\t{1000 + i}\t{500 + i}\t{400 + i}\t{400 + i}" for i in range(1, 6))
    text = " ".join(
        f"------ Round 1 ------\n{lines}\nTotal cold run time: 5015 ms\n"
        "Total hot run time: 2015 ms".split()
    )
    got = [(r["label"], r["variant"], r["metric"], r["value"]) for r in rows_of(text)]
    assert ("q3", "Round 1", "cold_run", 1003) in got
    assert ("total", "Round 1", "Total hot run time", 2015) in got


@pytest.mark.shared
@pytest.mark.parametrize(
    "folder,sample",
    [
        ("doris-tpch-bot", "doris-pr22999-clickbench-kv"),
        ("doris-tpch-bot", "doris-pr65858-tpch"),
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
             if r["format"] in ('doris-bench',)}  # fmt: skip
    missing = [
        r
        for r in expect["rows"]
        if (round(r["value"], 6), norm_unit(r.get("unit")) or "") not in found
    ]
    assert not missing
