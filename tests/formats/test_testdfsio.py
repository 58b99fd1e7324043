"""Hadoop TestDFSIO and NNBench: fixtures written from TestDFSIO.analyzeResult and
NNBench's result block (both operations with log prefixes, the two-word read variants,
the results file with CRLF), and mail damage."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import run
from tests.conftest import seed
from tests.formats.damage import FormatChecks, flatten
from tests.formats.golden import text_of

FORMAT = "testdfsio"


_checks = FormatChecks(FORMAT)
rows, values, damaged = _checks.rows, _checks.values, _checks.damaged
shared_found, damage_cases = _checks.shared_found, _checks.damage_cases


LIMITS = {
    # A log flattened onto one line and then wrapped: a key can end a line and its value
    # start the next one behind a log prefix, in the middle of another record.
    ("testdfsio--flattened", "wrapped-80"): "a flattened log, wrapped: keys split from values",
    ("testdfsio--flattened", "wrapped-72"): "a flattened log, wrapped: keys split from values",
}


@pytest.mark.parametrize("case,damage", damage_cases(LIMITS))
def test_survives_mail_damage(case, damage):
    damaged(case, damage)


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
    assert isinstance(run(FORMAT, "----- TestDFSIO ----- :\n Throughput mb/sec: NaN\n"), list)


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
    run(FORMAT, text + " " * 20000)
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
    assert rows(seed(prefix)) == []
