"""HBase PerformanceEvaluation (`hbase pe`): fixtures written from PerformanceEvaluation.java
(per-client `Finished ...` lines, `Latency (us) :` histograms and their pretty report,
`[Test] Summary of timings`, duration, avg latency and TPS summaries), the user's seed 002
(a GitBox mail flattened onto one line), and mail damage."""

from __future__ import annotations

import json
import math
import textwrap
import time

import pytest

from extract.results.formats import by_name, extract_results
from tests.conftest import seed, shared_path
from tests.formats.golden import cases, check, text_of

FORMAT = "hbase-pe"


@pytest.mark.parametrize("case", cases(FORMAT))
def test_fixture(case):
    check(case)


def rows(text: str, fmt: str | None = FORMAT):
    """(label, variant, metric, value, unit) of every measurement the registry finds."""
    return [
        (m.label, m.variant, m.metric, m.value, m.unit)
        for t in extract_results(text, strict=True)
        for m in t.measurements
        if fmt is None or t.format == fmt
    ]


def values(text: str) -> list[tuple]:
    """(label, metric, value, unit), sorted: what damage to the text must not change."""
    return sorted(
        (label or "", metric, -1.0 if math.isnan(value) else round(value, 9), unit or "")
        for label, _, metric, value, unit in rows(text)
    )


def flatten(text: str) -> str:
    """What a GitBox notification does to a comment: every whitespace run → one space."""
    return " ".join(text.split())


def crlf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def gitbox_indent(text: str) -> str:
    """GitBox's review-comment mails indent every line by three spaces."""
    return "".join("   " + line for line in text.splitlines(True))


def pipe_prefixed(text: str) -> str:
    return "".join("| " + line for line in text.splitlines(True))


def hard_wrap(width: int):
    def wrap(text: str) -> str:
        return "\n".join(
            "\n".join(textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False))
            for line in text.splitlines()
        )

    return wrap


DAMAGE = {
    "flattened": flatten,
    "crlf": crlf,
    "gitbox-indent": gitbox_indent,
    "pipe-prefixed": pipe_prefixed,
    "wrapped-80": hard_wrap(80),
    "wrapped-72": hard_wrap(72),
}


def damaged(case: str, damage: str) -> None:
    text = text_of(case)
    expect = values(text)
    assert expect, f"{case} has no hbase-pe rows"
    assert values(DAMAGE[damage](text)) == expect


def shared_found(directory: str, sample: str) -> None:
    """Every row a third-party sample's expect file lists is found (value and unit)."""
    path = shared_path("formats", directory, f"{sample}.txt")
    expect = json.loads(path.with_suffix(".expect.json").read_text(encoding="utf-8"))
    found = rows(path.read_text(encoding="utf-8"))
    for row in expect["rows"]:
        unit = (row.get("unit") or "").lower()
        assert any(
            math.isclose(value, row["value"], rel_tol=1e-9) and (u or "").lower() == unit
            for *_, value, u in found
        ), row


def damage_cases(limits: dict[tuple[str, str], str]) -> list[tuple[str, str]]:
    """(fixture, damage) pairs to check: every positive fixture, every damage but the
    documented `limits`."""
    return [
        (case, damage)
        for case in cases(FORMAT)
        if values(text_of(case))
        for damage in DAMAGE
        if (case, damage) not in limits
    ]


LIMITS: dict[tuple[str, str], str] = {}


@pytest.mark.parametrize("case,damage", damage_cases(LIMITS))
def test_survives_mail_damage(case, damage):
    damaged(case, damage)


# --- ported from tests/test_formats_b.py ------------------------------------------


def test_seed2_hbase_pe_flattened_before_after():
    found = rows(seed("002"))
    by_variant: dict[str | None, list] = {}
    for label, variant, metric, value, unit in found:
        by_variant.setdefault(variant, []).append((label, metric, value, unit))
    assert set(by_variant) == {"Before patch", "After patch"}
    before = by_variant["Before patch"]
    assert len([r for r in before if r[1] == "timing"]) == 10
    assert ("RandomReadTest client 0", "timing", 141302, "ms") in before
    assert ("RandomReadTest", "duration_avg", 140524, "ms") in before
    assert ("RandomReadTest", "avg_latency", 1403, "us") in before
    assert ("RandomReadTest", "avg_tps", 7117, "rows/s") in before
    assert ("RandomReadTest", "avg_tps", 7114, "rows/s") in by_variant["After patch"]
    # timestamps, node counts and CLI args (--presplit=5, --rows=100000, 10 clients) stay out
    every = {r[3] for r in rows(seed("002"), None)}
    assert not every & {2020, 5, 100000, 22, 54, 30, 362}


def test_line_based_log_with_heading():
    text = (
        "After patch:\n"
        "2020-06-07 22:49:25,980 INFO  [main] hbase.PerformanceEvaluation: "
        "[RandomWriteTest duration ]\tMin: 139256ms\tMax: 142181ms\tAvg: 140561ms\n"
        "2020-06-07 22:49:25,980 INFO  [main] hbase.PerformanceEvaluation: "
        "[ Avg latency (us)]\t1403\n"
    )
    found = rows(text)
    assert ("RandomWriteTest", "After patch", "duration_max", 142181, "ms") in found
    assert ("RandomWriteTest", "After patch", "avg_latency", 1403, "us") in found


def test_older_finished_lines():
    text = (
        "Before patch:\n2014-01-03 10:00:01,123 INFO  [TestClient-1] hbase.PerformanceEvaluation: "
        "Finished class org.apache.hadoop.hbase.PerformanceEvaluation$RandomReadTest in 140524ms "
        "at offset 0 for 100000 rows (12.34 MB/s)\n2014-01-03 10:00:01,124 INFO  [main] "
        "hbase.PerformanceEvaluation: Finished TestClient-1 in 140600ms over 100000 rows\n"
    )
    assert rows(text, None) == [
        ("RandomReadTest", "Before patch", "time", 140524, "ms"),
        ("RandomReadTest", "Before patch", "throughput", 12.34, "MB/s"),
        ("TestClient-1", "Before patch", "time", 140600, "ms"),
    ]


# --- focused ------------------------------------------------------------------------


def test_pretty_histogram_report_keeps_the_run_together():
    """The multi-line `Mean = ... 99.999th = ...` report repeats the `Latency (us)` line:
    no measurements of its own, and the summary after it stays in the same run."""
    text = text_of("hbase-pe--client-log")
    found = rows(text)
    assert {v for _, v, *_ in found} == {"Patched build"}
    assert len([r for r in found if r[2] == "latency_mean"]) == 1
    assert all(r[3] != 2.0 or r[2] != "latency_mean" for r in found)


def test_the_record_counts_are_settings():
    found = rows(text_of("hbase-pe--mapred-finished"), None)
    assert 1048576 not in {r[3] for r in found}


def test_a_long_record_wrapped_by_the_gateway():
    text = (
        "2023-05-02 11:20:41,118 INFO [main] hbase.PerformanceEvaluation: [RandomWriteTest]"
        " Summary\nof timings (ms): [52011, 51870]\n"
    )
    assert [r[3] for r in rows(text)] == [52011, 51870]


ODD = [
    "",
    "\n\n",
    "[X] Summary of timings (ms): []",
    "Latency (us) : mean=, min=",
    "Finished in ms",
]


def test_never_raises():
    for text in ODD:
        assert isinstance(by_name(FORMAT).parse(text), list)


def test_linear_on_long_flattened_lines():
    text = ("Finished 12 ms [ Avg latency (us)] x Latency (us) : mean=1, " * 3000) + " " * 20000
    start = time.perf_counter()
    by_name(FORMAT).parse(text)
    assert time.perf_counter() - start < 2.0


@pytest.mark.shared
@pytest.mark.parametrize("sample", ["hbase-pr1858-summary-flattened", "phoronix-issue249-latency"])
def test_third_party_samples(sample):
    shared_found("hbase-pe", sample)


@pytest.mark.parametrize("prefix", ["000", "001", "003", "004"])
def test_silent_on_the_other_seeds(prefix):
    """(Ported from tests/test_formats_d.py::test_silent_on_seeds.)"""
    assert rows(seed(prefix)) == []
