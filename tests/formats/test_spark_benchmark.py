"""Spark's `Benchmark` framework: fixtures written from core/src/test/scala/org/apache/
spark/benchmark/Benchmark.scala as its `*-results.txt` files show it (JVM and CPU lines,
the Spark 3 and Spark 2 headers, rule, rows, `Infinity` rates), reviewers' `-`/`+` diff
lines in a GitBox review mail, sbt's `[info]` progress, and mail damage."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import extract_results, run
from tests.conftest import seed
from tests.formats.damage import FormatChecks, flatten
from tests.formats.golden import text_of

FORMAT = "spark-benchmark"


_checks = FormatChecks(FORMAT)
rows, values, damaged = _checks.rows, _checks.values, _checks.damaged
shared_found, damage_cases = _checks.shared_found, _checks.damage_cases


LIMITS = {
    # A diff line wrapped at 72 columns loses its `-`/`+` on the continuation: the row
    # can no longer be told old from new.
    ("spark-benchmark--review-diff", "wrapped-72"): "continuation lines lose the diff prefix",
    # sbt's `[info]` prefix starts every line; a wrapped row's continuation has none.
    ("spark-benchmark--sbt-progress", "wrapped-80"): "wrapped [info] rows",
    ("spark-benchmark--sbt-progress", "wrapped-72"): "wrapped [info] rows",
}


@pytest.mark.parametrize("case,damage", damage_cases(LIMITS))
def test_survives_mail_damage(case, damage):
    damaged(case, damage)


SPARK = """Before:
```
OpenJDK 64-Bit Server VM 17.0.9+9-LTS on Linux 5.15.0-1053-azure
Intel(R) Xeon(R) Platinum 8272CL CPU @ 2.60GHz
encode for 1:                             Best Time(ms)   Avg Time(ms)   Stdev(ms)    Rate(M/s)   Per Row(ns)   Relative
------------------------------------------------------------------------------------------------------------------------
java                                               2161           2194          55          9.3         108.0       1.0X
apache                                            11265          11344          76          1.8         563.2       0.2X
```
"""  # noqa: E501


def test_jvm_and_cpu_lines_are_not_measurements():
    found = rows(SPARK, None)
    assert len(found) == 12 and found == rows(SPARK)
    assert not {r[3] for r in found} & {17.0, 9.0, 5.15, 1053, 8272, 2.6}


def test_flattened():
    found = rows(flatten(SPARK))
    assert ("java", None, "Best Time(ms)", 2161, "ms") in found
    assert ("apache", None, "Relative", 0.2, "x") in found
    assert len(found) == 12


def test_sbt_info_prefix_and_progress():
    text = (
        "[info] Running benchmark: parquet writer benchmark\n"
        "[info]   Running case: Output Single Int Column\n"
        "[info]   Stopped after 2 iterations, 2962 ms\n"
        "[info] parquet writer benchmark:                 Best Time(ms)   Avg Time(ms)   Stdev(ms)"
        "    Rate(M/s)   Per Row(ns)   Relative\n"
        "[info] ---------------------------------------------------------------------------------\n"
        "[info] Output Single Int Column                           1405           1481         107"
        "         11.2          89.4       1.0X\n"
    )
    found = rows(text)
    assert ("Output Single Int Column", None, "Stopped after 2 iterations", 2962, "ms") in found
    assert ("Output Single Int Column", None, "Avg Time(ms)", 1481, "ms") in found
    tables = [t for t in extract_results(text) if t.format == FORMAT]
    assert "parquet writer benchmark" in {t.caption for t in tables}


@pytest.mark.parametrize(
    "text",
    [
        "Best Time(ms)   Avg Time(ms)   Stdev(ms)    Rate(M/s)   Per Row(ns)   Relative",
        "",
        "Running case:",
    ],
)
def test_never_raises(text):
    assert isinstance(run(FORMAT, text), list)


# --- focused ------------------------------------------------------------------------


def test_review_diff_rows_are_old_and_new():
    found = rows(text_of("spark-benchmark--review-diff"))
    assert {r[1] for r in found} == {"old", "new"}
    assert ("after 1582, noop", "new", "Best Time(ms)", 18211, "ms") in found


def test_caption_is_the_title():
    tables = [t for t in extract_results(text_of("spark-benchmark--results-file"))]
    assert [t.caption for t in tables] == ["Hash For long", "Hash For empty string"]


def test_linear_on_long_flattened_lines():
    text = (
        "x 1 2 3 4 5 6X Best Time(ms) Avg Time(ms) Stdev(ms) Rate(M/s) Per Row(ns) Relative " * 1500
    )
    start = time.perf_counter()
    run(FORMAT, text + " " * 20000)
    assert time.perf_counter() - start < 2.0


@pytest.mark.shared
@pytest.mark.parametrize(
    "sample", ["aggregate-old-bestavg", "base64-jdk21", "spark-pr35046-review-diff"]
)
def test_third_party_samples(sample):
    shared_found("spark-benchmark", sample)


@pytest.mark.parametrize("prefix", ["000", "001", "002", "003", "004"])
def test_silent_on_the_seeds(prefix):
    assert rows(seed(prefix)) == []


def test_a_case_without_its_stop_line_is_not_read_into_the_next():
    # (a case's name stops at the next `Running case:`: a line of them costs linear time)
    text = "Running case: cut short Running case: Scan  Stopped after 3 iterations, 90 ms\n"
    assert rows(text) == [("Scan", None, "Stopped after 3 iterations", 90, "ms")]
