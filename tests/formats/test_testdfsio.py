"""Hadoop TestDFSIO and NNBench: fixtures written from TestDFSIO.analyzeResult and
NNBench's result block (both operations with log prefixes, the two-word read variants,
the results file with CRLF), and mail damage."""

from __future__ import annotations

import json
import math
import textwrap
import time

import pytest

from extract.results.formats import by_name, extract_results
from tests.conftest import seed, shared_path
from tests.formats.golden import cases, check, text_of

FORMAT = "testdfsio"


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
    assert expect, f"{case} has no testdfsio rows"
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


LIMITS = {
    # A log flattened onto one line and then wrapped: a key can end a line and its value
    # start the next one behind a log prefix, in the middle of another record.
    ("testdfsio--flattened", "wrapped-80"): "a flattened log, wrapped: keys split from values",
    ("testdfsio--flattened", "wrapped-72"): "a flattened log, wrapped: keys split from values",
}


@pytest.mark.parametrize("case,damage", damage_cases(LIMITS))
def test_survives_mail_damage(case, damage):
    damaged(case, damage)


# --- ported from tests/test_formats_b.py ------------------------------------------


def test_flattened_with_log_prefixes():
    text = flatten(
        "18/04/16 09:51:05 INFO fs.TestDFSIO: ----- TestDFSIO ----- : write\n"
        "18/04/16 09:51:05 INFO fs.TestDFSIO:            Date & time: Mon Apr 16 09:51:05 EDT"
        " 2018\n"
        "18/04/16 09:51:05 INFO fs.TestDFSIO:        Number of files: 300\n"
        "18/04/16 09:51:05 INFO fs.TestDFSIO:      Throughput mb/sec: 77.07\n"
        "18/04/16 09:51:05 INFO fs.TestDFSIO:     Test exec time sec: 66.1\n"
    )
    found = rows(text)
    assert ("TestDFSIO write", None, "Throughput mb/sec", 77.07, "MB/s") in found
    assert ("TestDFSIO write", None, "Test exec time sec", 66.1, "s") in found
    assert all(r[3] not in (16, 9, 51, 2018) for r in rows(text, None))


def test_nan_throughput_never_raises():
    assert isinstance(
        by_name(FORMAT).parse("----- TestDFSIO ----- :\n Throughput mb/sec: NaN\n"), list
    )


# --- focused ------------------------------------------------------------------------


def test_two_word_operation_and_heading_over_the_log_prefix():
    found = rows(text_of("testdfsio--write-read-log"))
    assert {r[0] for r in found} == {"TestDFSIO write", "TestDFSIO random read"}
    assert ("TestDFSIO write", "Ran TestDFSIO with 64 files of 1GB on the erasure-coded dir "
            "(RS-6-3-1024k)", "Throughput mb/sec", 41.82, "MB/s") in found  # fmt: skip


def test_nnbench_parameters_and_raw_data_are_not_results():
    found = rows(text_of("testdfsio--nnbench"))
    metrics = {r[2] for r in found}
    assert "Maps to run" not in metrics and "Number of files" not in metrics
    assert not [m for m in metrics if m.startswith("RAW DATA")]
    assert ("create_write", "TPS: Create/Write/Close", 1873, "ops/s") in [
        (r[0], r[2], r[3], r[4]) for r in found
    ]


def test_linear_on_long_flattened_lines():
    text = "----- TestDFSIO ----- : write INFO fs.TestDFSIO: Throughput mb/sec: 1 x " * 2000
    start = time.perf_counter()
    by_name(FORMAT).parse(text + " " * 20000)
    assert time.perf_counter() - start < 2.0


@pytest.mark.shared
@pytest.mark.parametrize(
    "directory,sample",
    [
        ("hadoop-testdfsio", "bbva-spark-benchmarks-dfsio-doc"),
        ("hadoop-testdfsio", "blog-hadoop-testdfsio-read-log"),
        ("hadoop-nnbench", "blog-nnbench-results-log"),
    ],
)
def test_third_party_samples(directory, sample):
    shared_found(directory, sample)


@pytest.mark.parametrize("prefix", ["000", "001", "002", "003", "004"])
def test_silent_on_the_seeds(prefix):
    """(Ported from tests/test_formats_d.py::test_silent_on_seeds.)"""
    assert rows(seed(prefix)) == []
