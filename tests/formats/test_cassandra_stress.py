"""cassandra-stress: fixtures written from the stress tool's StressMetrics.java
(progress header and rows, the `Results:` block, the `id, type ...` summary of an
auto thread-count run) and the 2.0 tool's legacy CSV and averages, and mail damage."""

from __future__ import annotations

import json
import math
import textwrap
import time

import pytest

from extract.results.formats import by_name, extract_results
from tests.conftest import seed, shared_path
from tests.formats.golden import cases, check, text_of

FORMAT = "cassandra-stress"


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
    assert expect, f"{case} has no cassandra-stress rows"
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


PROGRESS = "progress tables are line-based CSV rows: a flattened or wrapped mail loses them"
LIMITS = {
    ("cassandra-stress--legacy-2-0", "flattened"): PROGRESS,
    ("cassandra-stress--threadcount-summary", "flattened"): PROGRESS,
    ("cassandra-stress--threadcount-summary", "wrapped-80"): PROGRESS,
    ("cassandra-stress--threadcount-summary", "wrapped-72"): PROGRESS,
    ("cassandra-stress--v4-progress-results", "flattened"): PROGRESS,
    ("cassandra-stress--v4-progress-results", "wrapped-80"): PROGRESS,
    ("cassandra-stress--v4-progress-results", "wrapped-72"): PROGRESS,
    # the per-operation breakdown `[read: ..., write: ...]` must stay on one line
    ("cassandra-stress--flattened-mixed", "wrapped-80"): "breakdown split over lines",
    ("cassandra-stress--flattened-mixed", "wrapped-72"): "breakdown split over lines",
}


@pytest.mark.parametrize("case,damage", damage_cases(LIMITS))
def test_survives_mail_damage(case, damage):
    damaged(case, damage)


def test_results_block_survives_flattening():
    """What the progress rows lose, the `Results:` block keeps."""
    text = text_of("cassandra-stress--v4-progress-results")
    block = text[text.index("Results:") :]
    assert values(flatten(block)) == values(block) != []


# --- ported from tests/test_formats_b.py ------------------------------------------


def test_results_heading_and_breakdown():
    text = (
        "Cassandra 4.0:\nResults:\n"
        "Op rate                   :  409,767 op/s  [insert: 273,166 op/s]\n"
        "Latency 99th percentile   :    0.5 ms [insert: 0.4 ms]\n"
        "Total operation time      : 02:00:00\nEND\n"
    )
    found = rows(text)
    assert ("total", "Cassandra 4.0", "Op rate", 409767, "op/s") in found
    assert ("insert", "Cassandra 4.0", "Op rate", 273166, "op/s") in found
    assert ("total", "Cassandra 4.0", "Total operation time", 7200, "s") in found


def test_results_flattened():
    text = flatten(
        "Results:\nOp rate : 46751 [WRITE:46751]\nLatency mean : 4.3 [WRITE:4.3]\n"
        "total gc count : 18\ntotal gc mb : 10742\nTotal operation time : 00:00:21\nEND\nDone."
    )
    found = rows(text)
    assert ("WRITE", None, "Op rate", 46751, "op/s") in found
    assert ("total", None, "total gc count", 18, "count") in found
    assert ("total", None, "total gc mb", 10742, "MB") in found
    assert ("total", None, "Total operation time", 21, "s") in found


@pytest.mark.parametrize(
    "text", ["Results:\nThe results were good.\nEND", "Results:\nThroughput: 1234\nErrors: 0\n"]
)
def test_silent_on_lookalikes(text):
    assert rows(text) == []


def test_never_raises():
    for text in ["", "Results:\nOp rate : \nEND", "type total ops, op/s,\ntotal, x"]:
        assert isinstance(by_name(FORMAT).parse(text), list)


# --- focused ------------------------------------------------------------------------


def test_run_heading_reaches_over_the_tool_chatter():
    found = rows(text_of("cassandra-stress--v4-progress-results"))
    assert {r[1] for r in found} == {
        "cassandra-stress write n=2000000 -rate threads=64, trunk with the patch"
    }


def test_thread_count_summary_rows():
    found = [
        (r[0], r[2], r[3], r[4]) for r in rows(text_of("cassandra-stress--threadcount-summary"))
    ]
    assert ("READ 8 threadCount", "op rate", 5395, "op/s") in found
    assert ("total 4 threadCount", "latency p99", 2.9, "ms") in found


def test_gc_memory_unit_as_printed():
    found = [(r[2], r[3], r[4]) for r in rows(text_of("cassandra-stress--v4-progress-results"))]
    assert ("Total GC memory", 5.512, "GiB") in found
    assert ("Total GC time", 0.4, "s") in found


def test_linear_on_long_flattened_lines():
    text = ("Results: Op rate : 1 op/s [a: 1 op/s] total, 1, 2 " * 2000) + " " * 20000
    start = time.perf_counter()
    by_name(FORMAT).parse(text)
    assert time.perf_counter() - start < 2.0


@pytest.mark.shared
@pytest.mark.parametrize(
    "sample",
    [
        "datastax-c22-doc-results",
        "gist-dikanggu-c4-results",
        "mantl-issue467-legacy-stress",
        "scylla-tools-pr313-interval",
    ],
)
def test_third_party_samples(sample):
    shared_found("cassandra-stress", sample)


@pytest.mark.parametrize("prefix", ["000", "001", "002", "003", "004"])
def test_silent_on_the_seeds(prefix):
    """(Ported from tests/test_formats_d.py::test_silent_on_seeds.)"""
    assert rows(seed(prefix)) == []
