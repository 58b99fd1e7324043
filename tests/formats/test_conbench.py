"""conbench: ursabot/Conbench status comments (own machine names and numbers)."""

import json

import pytest

from extract.results.formats._grid import norm_unit
from tests.conftest import shared_path
from tests.formats.golden import rows_of, text_of


@pytest.mark.parametrize("damage", ["flattened", "gitbox"])
def test_mail_damage_reads_the_same(damage):
    clean = rows_of(text_of("conbench--ursabot-finished"))
    assert rows_of(text_of(f"conbench--ursabot-finished-{damage}")) == clean


def test_machines_and_shares():
    got = {(r["label"], r["metric"]): r["value"] for r in
           rows_of(text_of("conbench--ursabot-finished"))}  # fmt: skip
    assert got[("bench-mac-m1", "pct_benchmarks_regressed")] == 1.05  # a failed run still counts
    assert got[("bench-i7-8700", "pct_benchmarks_improved")] == 2.4
    assert len(got) == 6  # the Buildkite lines and commit hashes give nothing


@pytest.mark.parametrize("case", ["scheduled-notice", "analysis-no-regressions"])
def test_notices_without_results_give_nothing(case):
    assert rows_of(text_of(f"conbench--{case}")) == []


@pytest.mark.shared
@pytest.mark.parametrize(
    "folder,sample",
    [
        ("conbench-ursabot", "arrow-pr14533-ursabot"),
        ("conbench-ursabot", "arrow-pr37095-ursabot-scheduled"),
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
             if r["format"] in ('conbench',)}  # fmt: skip
    missing = [
        r
        for r in expect["rows"]
        if (round(r["value"], 6), norm_unit(r.get("unit")) or "") not in found
    ]
    assert not missing
