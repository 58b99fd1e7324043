"""benchmark-driver: benchmark-ips output run here (tests/fixtures/tools/
benchmark_driver.sh) and benchmark-driver's compare output, written from its source."""

import pytest

from tests.formats.golden import rows_of, text_of


@pytest.mark.parametrize("damage", ["flattened", "gitbox", "mojibake"])
def test_mail_damage_reads_like_the_clean_report(damage):
    clean = rows_of(text_of("benchmark-driver--ips"))
    assert rows_of(text_of(f"benchmark-driver--ips-{damage}")) == clean


def test_benchmark_ips_report():

    text = text_of("benchmark-driver--ips")
    rows = rows_of(text)
    assert {r["format"] for r in rows} == {"benchmark-driver"}
    assert {r["variant"] for r in rows} == {"Calculating", "Comparison"}  # warm-up: claimed only
    calc = [r for r in rows if r["variant"] == "Calculating" and r["metric"] == "throughput"]
    assert len(calc) == 3 and all(r["unit"] == "i/s" and r["value"] > 1000 for r in calc)
    assert len([r for r in rows if r["metric"] == "error" and r["unit"] == "%"]) == 3
    assert len([r for r in rows if r["metric"] == "slowdown" and r["unit"] == "x"]) == 2


def test_benchmark_driver_jobs_and_time_per_iteration():
    got = {(r["label"], r["variant"], r["metric"]): (r["value"], r["unit"]) for r in
           rows_of(text_of("benchmark-driver--compare-jobs"))}  # fmt: skip
    assert got[("parse_small", "Calculating", "throughput")] == (43118.0, "i/s")
    assert got[("parse_quoted", "Calculating", "time per iteration")] == (52.62, "μs/i")
    assert got[("parse_quoted", "Comparison", "slowdown")] == (2.27, "x")
    assert not [k for k in got if k[1] == "Warming up"]


def test_benchmark_driver_several_executables():
    got = [(r["label"], r["variant"], r["metric"], r["value"]) for r in
           rows_of(text_of("benchmark-driver--compare-executables"))]  # fmt: skip
    assert ("parse_small", "ruby-3.3", "throughput", 51902.0) in got  # Calculating: `51.902k`
    assert ("parse_small", "ruby-3.3", "throughput", 51902.1) in got  # Comparison
    assert ("parse_quoted", "ruby-3.1", "time", 2.940944) in got
    assert ("parse_quoted", "Calculating", "iterations", 55890.0) in got
    assert ("parse_quoted", "ruby-3.1", "slowdown", 1.12) in got
