"""Before/after pairs: `extract.results.comparisons` (which side each number is on) and the
`comparisons` view that pairs them, on real extraction and real DuckDB files.

Texts go the pipeline's way: the format registry, the pipeline's measurement rows
(`_result_rows`, which fills the side columns), the store's schema and views in a
DuckDB file, then SQL. The seeds go through the whole extraction of their mbox
archives (`process_archive` and the `Store`); the corpus messages (shared) through the
pipeline's clean-and-extract path of `make eval`.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import duckdb
import pytest

from extract.db.schema import columns, create_statements
from extract.db.store import Store
from extract.db.views import create_views
from extract.pipeline import _result_rows, process_archive, read_tables, result_rows
from extract.results.formats.base import ROLES
from extract.results.message import message_results
from tests.archives import write_mboxrd
from tests.conftest import shared_path
from tests.seed_facts import SEED_002_SUMMARY, SEED_002_TIMINGS

# The comparisons are read from the readers' tables as they are: which of their numbers
# the number model takes is its own matter (tests/results/test_judge.py), and these
# tests must not move with each refit of it.
READERS_ONLY = (None, None)

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "data" / "sample"
# What a test compares: the pair's identity and numbers, and its verdict.
PAIR = "label, params, metric, before, after, before_value, after_value, change"
ERROR_WORDS = re.compile(r"(?i)error|±|std\s?dev|stdev|p-?value|\bci\b|\bcnt\b|count|iteration")


def _load(db: Path, rows: list[dict]) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(str(db))
    for sql in create_statements():
        con.execute(sql)
    names = columns("measurements")
    con.executemany(
        f"INSERT INTO measurements ({', '.join(names)}) VALUES ({', '.join('?' for _ in names)})",
        [[r.get(n) for n in names] for r in rows],
    )
    create_views(con)
    return con


def pairs_of(tmp_path: Path, text: str, cols: str = PAIR) -> list[tuple]:
    """The comparisons of one message text, ordered by label, params, metric, after."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    _, rows = result_rows("msg", text, models=READERS_ONLY)
    con = _load(tmp_path / "pairs.duckdb", rows)
    try:
        return con.execute(
            f"SELECT {cols} FROM comparisons ORDER BY label, params, metric, after"
        ).fetchall()
    finally:
        con.close()


def _same(got: list[tuple], want: list[tuple]) -> None:
    """Pairs equal, numbers to 4 significant digits (the expectations are read off
    the messages)."""
    assert len(got) == len(want), (got, want)
    for g, w in zip(got, want, strict=True):
        assert len(g) == len(w)
        for a, b in zip(g, w, strict=True):
            if isinstance(b, float):
                assert a is not None and math.isclose(a, b, rel_tol=1e-3), (g, w)
            else:
                assert a == b, (g, w)


# ---------------------------------------------------------------- formats that compare


LUCENEUTIL = """\
Results on wikimedium10m, 20 JVM runs:

    TaskQPS baseline  StdDev   QPS my_modified_version  StdDev    Pct diff p-value
     Prefix3  147.12  (6.2%)  129.27  (4.0%)  -12.1% ( -21% -   -2%) 0.000
      IntNRQ   20.50  (1.0%)   20.61  (1.2%)    0.5% (  -1% -    2%) 0.541
"""


def test_luceneutil_qps_baseline_against_the_modified_version(tmp_path):
    got = pairs_of(tmp_path, LUCENEUTIL, PAIR + ", noise, direction, rule")
    _same(
        got,
        [
            ("IntNRQ", None, "QPS", "baseline", "my_modified_version", 20.50, 20.61,
             "within noise", 0.022, "higher", "format"),
            ("Prefix3", None, "QPS", "baseline", "my_modified_version", 147.12, 129.27,
             "regression", 0.102, "higher", "format"),
        ],
    )  # fmt: skip


LUCENE_LATENCY = """\
Task P50 B P50 C Diff P90 B P90 C Diff P99 B P99 C Diff P999 B P999 C Diff P100 B P100 C Diff
Term 2.000 1.500 -25.0% 3.000 3.000 0.0% 4.000 4.400 10.0% 5.000 5.000 0.0% 6.000 6.000 0.0%
"""


def test_luceneutil_latency_base_against_cmp_per_percentile(tmp_path):
    got = pairs_of(tmp_path, LUCENE_LATENCY)
    # no noise stated: no change inside the default threshold gets a verdict
    assert [(g[2], g[3], g[4], g[5], g[6], g[7]) for g in got] == [
        ("P100", "Base", "Cmp", 6.0, 6.0, "no noise stated"),
        ("P50", "Base", "Cmp", 2.0, 1.5, "improvement"),
        ("P90", "Base", "Cmp", 3.0, 3.0, "no noise stated"),
        ("P99", "Base", "Cmp", 4.0, 4.4, "regression"),
        ("P999", "Base", "Cmp", 5.0, 5.0, "no noise stated"),
    ]


ARCHERY = """\
Non-regressions: (2)
--------------------------------------------------------------------------------
                  benchmark      baseline      contender  change %  counters
          UniqueInt64/5   6.442 GiB/sec  18.346 GiB/sec   184.797  {'iterations': 10}
     UniqueString10bytes/1  412.120 MiB/sec  420.007 MiB/sec     1.914  {'iterations': 10}

Regressions: (1)
--------------------------------------------------------------------------------
            benchmark      baseline      contender  change %  counters
    ReadColumn/16   2.001 GiB/sec   1.702 GiB/sec   -14.943  {'iterations': 5}
"""


def test_archery_baseline_against_contender(tmp_path):
    got = pairs_of(tmp_path, ARCHERY, PAIR + ", ratio, rule")
    _same(
        got,
        [
            ("ReadColumn/16", None, "value", "baseline", "contender", 2.001, 1.702,
             "regression", 1.702 / 2.001, "format"),
            ("UniqueInt64/5", None, "value", "baseline", "contender", 6.442, 18.346,
             "improvement", 18.346 / 6.442, "format"),
            # +1.9 %, no noise stated: inside the default threshold, no verdict
            ("UniqueString10bytes/1", None, "value", "baseline", "contender", 412.12, 420.007,
             "no noise stated", 420.007 / 412.12, "format"),
        ],
    )  # fmt: skip


CRITERION = """\
Ran `cargo bench` against the saved baseline:

```
parse_json/small        time:   [1.2001 µs 1.2102 µs 1.2203 µs]
                        change: [-12.301% -10.502% -8.7033%] (p = 0.00 < 0.05)
                        Performance has improved.
parse_json/large        time:   [48.110 µs 48.320 µs 48.530 µs]
                        change: [-0.8000% +0.2000% +1.2000%] (p = 0.71 > 0.05)
                        No change in performance detected.
parse_json/cold         time:   [9.0000 ms 9.1000 ms 9.2000 ms]
```
"""


def test_criterion_change_is_a_pair_with_the_saved_baseline(tmp_path):
    got = pairs_of(tmp_path, CRITERION, PAIR + ", change_pct, noise, rule")
    # before = after / (1 + change); the change's interval is the noise; a block
    # without a change has nothing to compare with
    _same(
        got,
        [
            ("parse_json/large", None, "time", "baseline", "new", 48.32 / 1.002, 48.32,
             "within noise", 0.2, 0.01, "stated change"),
            ("parse_json/small", None, "time", "baseline", "new", 1.2102 / (1 - 0.10502),
             1.2102, "improvement", -10.5, 0.0179885, "stated change"),
        ],
    )  # fmt: skip


BENCHSTAT_V1 = """\
name        old time/op  new time/op  delta
GobEncode   13.6ms ± 1%  11.8ms ± 1%  -13.31%  (p=0.016 n=4+5)
JSONEncode  32.1ms ± 2%  32.0ms ± 3%     ~     (p=0.841 n=5+5)
"""

BENCHSTAT_V2 = """\
goos: linux
goarch: amd64
                │   old.txt   │               new.txt               │
                │   sec/op    │   sec/op     vs base                │
Encode-8          46.55n ± 2%   44.10n ± 1%   -5.26% (p=0.002 n=6)
Decode-8          120.0n ± 1%   119.5n ± 2%        ~ (p=0.394 n=6)
geomean           74.74n        72.59n        -2.88%
"""


def test_benchstat_old_against_new_with_the_spread_as_noise(tmp_path):
    got = pairs_of(tmp_path, BENCHSTAT_V1, PAIR + ", noise")
    _same(
        got,
        [
            ("GobEncode", None, "time/op", "old", "new", 13.6, 11.8, "improvement", 0.02),
            ("JSONEncode", None, "time/op", "old", "new", 32.1, 32.0, "within noise", 0.05),
        ],
    )
    got = pairs_of(tmp_path / "v2", BENCHSTAT_V2, PAIR + ", noise")
    _same(
        got,
        [
            ("Decode-8", None, "sec/op", "old.txt", "new.txt", 120.0, 119.5, "within noise",
             0.03),
            ("Encode-8", None, "sec/op", "old.txt", "new.txt", 46.55, 44.10, "improvement",
             0.03),
            ("geomean", None, "sec/op", "old.txt", "new.txt", 74.74, 72.59,
             "no noise stated", None),
        ],
    )  # fmt: skip


GOOGLE_COMPARE = """\
Comparing old.json to new.json
Benchmark        Time       CPU   Time Old   Time New    CPU Old    CPU New
---------------------------------------------------------------------------
BM_Sort/1024  -0.2500   -0.2500       1012        759       1012        759
BM_Sort/4096  +0.1000   +0.1000       4038       4442       4038       4442
"""


def test_google_benchmark_compare_old_against_new(tmp_path):
    got = pairs_of(tmp_path, GOOGLE_COMPARE, PAIR + ", rule")
    assert got == [
        ("BM_Sort/1024", None, "cpu", "old", "new", 1012.0, 759.0, "improvement", "format"),
        ("BM_Sort/1024", None, "time", "old", "new", 1012.0, 759.0, "improvement", "format"),
        ("BM_Sort/4096", None, "cpu", "old", "new", 4038.0, 4442.0, "regression", "format"),
        ("BM_Sort/4096", None, "time", "old", "new", 4038.0, 4442.0, "regression", "format"),
    ]


CRITCMP = """\
group                  master                  this-pr
-----                  ------                  -------
sort 1k                1.00    301.7±1.10µs    ? ?/sec    1.20    362.0±2.00µs    ? ?/sec
sort 10k               1.25    5.0±0.40ms      ? ?/sec    1.00    4.0±0.30ms      ? ?/sec
"""


def test_critcmp_first_baseline_against_the_other(tmp_path):
    got = pairs_of(tmp_path, CRITCMP, PAIR + ", noise, rule")
    _same(
        got,
        [
            ("sort 10k", None, "time", "master", "this-pr", 5.0, 4.0, "improvement",
             0.4 / 5 + 0.3 / 4, "format"),
            ("sort 1k", None, "time", "master", "this-pr", 301.7, 362.0, "regression",
             1.10 / 301.7 + 2.0 / 362.0, "format"),
        ],
    )  # fmt: skip


def test_prose_from_a_to_b_and_diff_lines(tmp_path):
    text = (
        "With the patch the full build went from 10 min to 2 min on my laptop.\n"
        "Query latency dropped from 1.5 s to 900 ms.\n"
    )
    got = pairs_of(tmp_path, text, PAIR + ", ratio")
    assert [g[2:5] for g in got] == [("latency", "before", "after"), ("time", "before", "after")]
    assert got[1][5:8] == (10.0, 2.0, "improvement") and got[1][8] == pytest.approx(0.2)
    # written in other units: compared in seconds, the before shown in the after's unit
    assert got[0][5:8] == (pytest.approx(1500.0), 900.0, "improvement")
    assert got[0][8] == pytest.approx(0.6)
    diff = (
        "Updated the doc:\n```diff\n-The full build takes 12 min on CI.\n"
        "+The full build takes 3 min on CI.\n```\n"
    )
    [pair] = pairs_of(tmp_path / "diff", diff)
    assert pair[3:8] == ("[-]", "[+]", 12.0, 3.0, "improvement")


# ---------------------------------------------------------------- the author's comparison


COMPILERS = """\
Build times of the same tree with each compiler:

gcc 9:
real 10.50s user 9.10s sys 0.40s
gcc 10:
real 9.80s user 8.80s sys 0.40s
clang 12:
real 8.10s user 7.20s sys 0.30s
"""
SIDES = "before, after, metric, before_value, after_value, rule"


def test_a_table_of_variants_is_not_ranked_against_its_first_row(tmp_path):
    assert pairs_of(tmp_path, COMPILERS) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "clang 12 is 30% faster than gcc 9.",  # both named
        "Overall clang 12 is a 30% speedup.",  # one named: its numbers pick gcc 9
        "The best build is 30% faster than the worst.",  # none named: the numbers do
    ],
)
def test_a_sentence_that_states_a_factor_sets_two_runs_against_each_other(tmp_path, sentence):
    got = pairs_of(tmp_path, COMPILERS + "\n" + sentence + "\n", SIDES + ", claimed_factor, claim")
    assert {g[:2] for g in got} == {("gcc 9", "clang 12")}  # gcc 10 is set against nothing
    real = [g for g in got if g[2] == "real"]
    assert real == [("gcc 9", "clang 12", "real", 10.5, 8.1, "claims", 1.3, "agrees")]


def test_a_factor_no_pair_of_runs_makes_true_makes_no_pair(tmp_path):
    # 10x fits none of the runs: no pair, the words stay the message's (`claims`)
    assert pairs_of(tmp_path, COMPILERS + "\nclang 12 is 10x faster.\n") == []


def test_a_run_named_as_the_reference_is_each_others_baseline(tmp_path):
    text = COMPILERS + "\nWe compare everything to gcc 10, our release compiler.\n"
    got = pairs_of(tmp_path, text, SIDES)
    assert {g[:2] for g in got} == {("gcc 10", "gcc 9"), ("gcc 10", "clang 12")}
    assert {g[5] for g in got} == {"reference"} and len(got) == 6


def test_named_sides(tmp_path):
    runs = "real 10.00s user 9.00s sys 1.00s", "real 8.00s user 7.00s sys 1.00s"
    striped = "real 6.00s user 5.00s sys 1.00s"
    # a baseline and two changes: each against the baseline
    text = f"Baseline:\n{runs[0]}\nLongAdder:\n{runs[1]}\nLongAdder + striping:\n{striped}\n"
    got = pairs_of(tmp_path / "a", text, SIDES)
    assert {g[:2] for g in got} == {("Baseline", "LongAdder"), ("Baseline", "LongAdder + striping")}
    # a change beside one run named nothing: that run is its baseline
    text = f"unstable:\n{runs[0]}\nthis PR:\n{runs[1]}\n"
    assert {g[:2] for g in pairs_of(tmp_path / "b", text, SIDES)} == {("unstable", "this PR")}
    # `goes from this:` ... `to this:`
    text = f"The build goes from this:\n{runs[0]}\nto this:\n{runs[1]}\n"
    got = pairs_of(tmp_path / "c", text, SIDES)
    assert {g[1] for g in got} == {"to this"} and len(got) == 3


def test_a_cjk_sentence_sets_the_runs_against_each_other(tmp_path):
    table = "| op | time (ms) |\n|---|---|\n| insert | {} |\n| query | {} |\n"
    text = (
        "Query times:\n\nRocksDB:\n\n"
        + table.format(100, 200)
        + "\nMySQL:\n\n"
        + table.format(110, 400)
        + "\n查询性能rocksdb比mysql快一倍。\n"
    )
    got = pairs_of(tmp_path, text, "label, before, after, change, claimed_factor, claim")
    assert got == [
        ("insert", "MySQL", "RocksDB", "improvement", None, None),
        ("query", "MySQL", "RocksDB", "improvement", 2.0, "agrees"),
    ]


def test_labels_are_sides_only_when_a_sentence_names_both(tmp_path):
    text = (
        "Benchmark 1: ./run-system q23.sql\n"
        "  Time (mean ± σ):      4.812 s ±  0.071 s    [User: 61.204 s, System: 3.118 s]\n"
        "  Range (min … max):    4.731 s …  4.950 s    10 runs\n\n"
        "Benchmark 2: ./run-mimalloc q23.sql\n"
        "  Time (mean ± σ):      3.907 s ±  0.048 s    [User: 49.881 s, System: 2.260 s]\n"
        "  Range (min … max):    3.840 s …  3.992 s    10 runs\n\n"
    )
    assert pairs_of(tmp_path / "a", text) == []
    summary = (
        "Summary\n  './run-mimalloc q23.sql' ran\n"
        "    1.23 ± 0.02 times faster than './run-system q23.sql'\n"
    )
    got = pairs_of(tmp_path / "b", text + summary, "label, " + SIDES + ", claimed_factor")
    mean = [g for g in got if g[3] == "mean"]
    assert mean == [(None, "./run-system q23.sql", "./run-mimalloc q23.sql", "mean", 4.812,
                     3.907, "claims", 1.23)]  # fmt: skip


# ---------------------------------------------------------------- directions


DRIVER = """\
Warming up --------------------------------------
       parse (before)     9.500 i/s -    10.000 times in 1.052632s (105.26ms/i)
        parse (after)    24.000 i/s -    24.000 times in 1.000000s (41.67ms/i)
Calculating -------------------------------------
       parse (before)     10.000 i/s -     30.000 times in 3.000000s (100.00ms/i)
        parse (after)     25.000 i/s -     75.000 times in 3.000000s (40.00ms/i)

Comparison:
        parse (after):        25.0 i/s
       parse (before):        10.0 i/s - 2.50x  slower
"""


def test_benchmark_driver_before_after_and_its_slower_read_right(tmp_path):
    # the headings are no sides, the run's time and iterations no quantities, the
    # Comparison block restates the Calculating one; "2.50x slower" is said of the
    # before: a 2.5x speed-up of the after
    got = pairs_of(tmp_path, DRIVER, SIDES + ", change, claimed_factor, claim")
    assert got == [
        ("parse (before)", "parse (after)", "throughput", 10.0, 25.0, "rows", "improvement",
         2.5, "agrees"),
        ("parse (before)", "parse (after)", "time per iteration", 100.0, 40.0, "rows",
         "improvement", 2.5, "agrees"),
    ]  # fmt: skip


def test_a_warm_up_is_read_but_never_stored_nor_paired(tmp_path):
    """The fitted path: the judge sees every number, but a warm-up row's (its reader
    gives them the role `warmup`) are neither stored as results nor paired."""
    found = message_results(DRIVER, kind="github")
    warm = {9.5, 24.0, 10.0, 1.052632, 1.0, 105.26, 41.67}  # (10 and 24: its counts)
    read = [m for t in found.read for m in t.measurements if m.role == "warmup"]
    assert {m.value for m in read} == warm
    stored = [m for t in found.tables for m in t.measurements if m.variant == "Warming up"]
    assert stored == []
    assert not {m.span for t in found.tables for m in t.measurements} & {m.span for m in read}
    _, rows = result_rows("msg", DRIVER)
    con = _load(tmp_path / "pairs.duckdb", rows)
    try:
        sides = con.execute("SELECT before_value, after_value FROM comparisons").fetchall()
    finally:
        con.close()
    assert sides and not {v for pair in sides for v in pair} & {9.5, 24.0, 1.052632, 105.26}


def test_a_claim_the_numbers_contradict_is_kept_and_flagged(tmp_path):
    text = (
        "| query | before (ms) | after (ms) |\n|---|---|---|\n| q1 | 100 | 150 |\n\n"
        "This patch makes q1 2x faster.\n"
    )
    got = pairs_of(tmp_path, text, "change, claimed_factor, claimed_words, claim")
    assert got == [("regression", 2.0, "2x faster", "contradicts")]
    db = tmp_path / "pairs.duckdb"
    with duckdb.connect(str(db)) as con:
        # (the message row the claims view needs: a benchmark message with this body)
        con.execute(
            "INSERT INTO messages (msg_key, list, is_benchmark, body) VALUES (?, ?, ?, ?)",
            ["msg", "dev@x.apache.org", True, text],
        )
        [(words, factor, check)] = con.execute(
            "SELECT claimed_words, claimed_factor, claim_check FROM claims"
        ).fetchall()
    assert (words, factor, check) == (["2x faster"], 2.0, "contradicts")


# ---------------------------------------------------------------- no verdict inside the noise


def test_no_verdict_inside_the_stated_noise_or_the_default_threshold(tmp_path):
    text = (
        "| query | before (ms) | ± | after (ms) | ± |\n|---|---|---|---|---|\n"
        "| q1 | 100 | 10 | 90 | 10 |\n| q2 | 100 | 1 | 90 | 1 |\n\n"
        "| query | before (ms) | after (ms) |\n|---|---|---|\n"
        "| q3 | 100 | 97 |\n| q4 | 100 | 90 |\n| q5 | 100 | 100 |\n"
    )
    got = pairs_of(tmp_path, text, "label, change, noise, threshold")
    assert got == [
        ("q1", "within noise", 0.211111, 0.211111),  # -10 % inside ±10 % + ±11 %
        ("q2", "improvement", 0.021111, 0.021111),
        ("q3", "no noise stated", None, 0.05),  # -3 %, nothing stated: under 5 %
        ("q4", "improvement", None, 0.05),
        ("q5", "no noise stated", None, 0.05),
    ]
    with duckdb.connect(str(tmp_path / "pairs.duckdb")) as con:
        con.execute("SET VARIABLE noise_default = 0.02")  # a session's own threshold
        assert con.execute("SELECT change FROM comparisons WHERE label = 'q3'").fetchone() == (
            "improvement",
        )


# ---------------------------------------------------------------- what is never compared


JMH = """\
Before patch:
Benchmark                (size)  Mode  Cnt    Score    Error  Units
Foo.bar                     100  avgt    5  100.000 ±  5.000  ms/op
Foo.bar                    1000  avgt    5  900.000 ± 90.000  ms/op

After patch:
Benchmark                (size)  Mode  Cnt    Score    Error  Units
Foo.bar                     100  avgt    5   50.000 ±  2.000  ms/op
Foo.bar                    1000  avgt    5  880.000 ± 50.000  ms/op
"""


def test_jmh_error_is_the_noise_and_params_are_not_crossed(tmp_path):
    got = pairs_of(tmp_path, JMH, PAIR + ", noise")
    # size=100 only with size=100; the errors (CI half-widths) are the pair's noise
    _same(
        got,
        [
            ("Foo.bar", "size=100", "Score", "Before patch", "After patch", 100.0, 50.0,
             "improvement", 0.05 + 0.04),
            ("Foo.bar", "size=1000", "Score", "Before patch", "After patch", 900.0, 880.0,
             "within noise", 0.1 + 50 / 880),
        ],
    )  # fmt: skip


def _never_compares_errors(pairs: list[tuple]) -> None:
    for label, _params, metric, before, after, *_ in pairs:
        for name in (metric, before, after):
            assert not ERROR_WORDS.search(name or ""), (label, metric, before, after)


def test_no_error_count_or_p_value_column_is_compared(tmp_path):
    for i, text in enumerate((LUCENEUTIL, JMH, BENCHSTAT_V1, CRITCMP, CRITERION)):
        _never_compares_errors(pairs_of(tmp_path / str(i), text))
    # a plain table: the ± columns qualify the number before them, runs is a count
    table = (
        "| query | before (ms) | ± | after (ms) | ± | runs |\n|---|---|---|---|---|---|\n"
        "| q1 | 120 | 6 | 80 | 4 | 5 |\n"
    )
    got = pairs_of(tmp_path / "t", table, PAIR + ", noise")
    _same(got, [("q1", None, "value", "before", "after", 120.0, 80.0, "improvement",
                 6 / 120 + 4 / 80)])  # fmt: skip


def test_no_format_fixture_puts_an_error_column_on_a_side():
    """Every format's fixture texts (tests/fixtures/formats): the side columns are
    storable (JSON without NaN) and no error, count, p-value, or number a format
    declares no result (a run total, a setting) is a side."""
    fixtures = sorted((REPO / "tests" / "fixtures" / "formats").glob("*.txt"))
    assert len(fixtures) > 100
    sided = declared = 0
    for path in fixtures:
        text = path.read_text(encoding="utf-8", errors="replace")
        found = message_results(text, models=READERS_ONLY)
        _, rows = _result_rows("k", found, text)
        kept = {id(m) for t in found.tables for m in t.measurements}
        tables = [t for t in read_tables(found) if any(id(m) in kept for m in t.measurements)]
        json.dumps(rows, allow_nan=False)
        taken = [m for t in tables for m in t.measurements if id(m) in kept]
        for r, m in zip(rows, taken, strict=True):
            assert m.role in ROLES, (path.name, m)
            if m.role != "result":
                declared += 1
                assert r["side"] is None, (path.name, r)
            if r["side"] in ("before", "after"):
                sided += 1
                assert not ERROR_WORDS.search(r["metric"]), (path.name, r)
                assert r["quantity_key"], (path.name, r)
    assert sided > 100  # the comparison formats' fixtures have sides
    assert declared > 20  # wrk's totals, benchmark-driver's run times, ...


# ---------------------------------------------------------------- the seeds


@pytest.fixture(scope="module")
def seeds(tmp_path_factory):
    """The five seed mails extracted as the pipeline extracts an archive, stored by the
    Store in a DuckDB file, opened read-only as any client would."""
    data_dir = tmp_path_factory.mktemp("seeds")
    emls = sorted(SAMPLE.glob("*/*/seed-*.eml"))
    assert len(emls) == 5
    for eml in emls:
        write_mboxrd(eml, data_dir)
    db = data_dir / "asf.duckdb"
    with Store(db) as store:
        store.replace(
            process_archive(p, data_dir) for p in sorted((data_dir / "raw").rglob("*.mbox.gz"))
        )
    with duckdb.connect(str(db)) as con:
        create_views(con)
    con = duckdb.connect(str(db), read_only=True)
    yield con
    con.close()


def _seed_pairs(con, list_address: str, cols: str = PAIR) -> list[tuple]:
    return con.execute(
        f"SELECT {cols} FROM comparisons JOIN messages USING (msg_key) WHERE list = ? "
        "ORDER BY label, params, metric, after",
        [list_address],
    ).fetchall()


def test_seed_001_pairs_are_the_authors_own(seeds):
    got = _seed_pairs(
        seeds,
        "issues@kudu.apache.org",
        "before, after, metric, before_value, after_value, change, claimed_factor, claim",
    )
    hash_, range_ = "with 4 MM threads, hash partition", "with 4 MM threads"
    dense = (
        "with 4 MM threads, using dense_hash_map instead of std::unordered_map for "
        "dictionary builder"
    )
    # "dense_hash_map is an easy 7% speedup relative to the STL map" (the hash run's),
    # "inserting in sorted order (range partitioned) is 2x faster than non-sorted
    # order": the four runs are not ranked against the first, and 1 -> 4 threads is
    # not stated
    assert {(g[0], g[1]) for g in got} == {(hash_, dense), (hash_, range_)}
    assert sorted(g[2] for g in got) == ["real", "real", "sys", "sys", "user", "user"]
    real = {g[1]: g[3:] for g in got if g[2] == "real"}
    assert real[dense] == (1233.386, 1147.478, "improvement", pytest.approx(1.07), "agrees")
    assert real[range_] == (1233.386, 618.348, "improvement", 2.0, "agrees")
    # no regression the author did not report: user and sys of dense_hash_map moved
    # less than the default threshold, and no noise is stated
    assert not [g for g in got if g[5] == "regression"]
    assert {(g[1], g[2]) for g in got if g[5] == "no noise stated"} == {
        (dense, "user"),
        (dense, "sys"),
    }
    [(words, factor)] = seeds.execute(
        "SELECT claimed_words, claimed_factor FROM claims WHERE list = 'issues@kudu.apache.org'"
    ).fetchall()
    assert words == ["7%\nspeedup", "2x faster"] and factor == 2.0


def test_seed_002_before_against_after_pe(seeds):
    got = _seed_pairs(
        seeds,
        "issues@hbase.apache.org",
        "label, metric, before, after, before_value, after_value, change",
    )
    # (the summaries, not the per-client timings: the clients ran side by side, and
    # client 3 of one run is no counterpart of client 3 of the other)
    want = set()
    sb, sa = SEED_002_SUMMARY["Before patch"], SEED_002_SUMMARY["After patch"]
    for metric, key in (("duration_min", "min"), ("duration_max", "max"), ("duration_avg", "avg"),
                        ("avg_latency", "latency"), ("avg_tps", "tps")):  # fmt: skip
        want.add(("RandomReadTest", metric, "Before patch", "After patch", sb[key], sa[key]))
    assert {g[:6] for g in got} == want and len(got) == 5
    stored = seeds.execute(
        "SELECT count(*) FROM measurements JOIN messages USING (msg_key)"
        " WHERE list = 'issues@hbase.apache.org' AND metric = 'timing'"
    ).fetchone()[0]
    assert stored == len(SEED_002_TIMINGS["Before patch"]) * 2  # (stored, not paired)
    # "I do not think there is observable performance impact": every change is under
    # 2 %, no noise is stated, so none is called an improvement or a regression
    assert {g[6] for g in got} == {"no noise stated"}


def test_seed_004_no_changes_against_each_longadder_within_each_store(seeds):
    got = _seed_pairs(
        seeds,
        "common-issues@hadoop.apache.org",
        "params, metric, unit, before, after, before_value, after_value, change",
    )
    table = {  # the message's table: per store, No changes, LongAdder + Per-Thread, LongAdder
        ("CPU", "ms"): {"GCS": (1430, 1880, 3.86), "HDFS": (805.85, 349.64, 172.6)},
        ("CPU", "%"): {"GCS": (23.4, 28.4, 0.057), "HDFS": (10.9, 4.61, 2.29)},
        ("Wall", "ms"): {"GCS": (11420, 1900, 3.79), "HDFS": (11270, 503.7, 242.83)},
        ("Wall", "%"): {"GCS": (6.45, 1.11, 0.002), "HDFS": (6.34, 0.303, 0.146)},
    }
    want = set()
    for (metric, unit), stores in table.items():
        for store, (base, per_thread, adder) in stores.items():
            for name, value in (("LongAdder + Per-Thread", per_thread), ("LongAdder", adder)):
                change = "improvement" if value < base else "regression"
                want.add(
                    (store, metric, unit, "No changes", name, float(base), float(value), change)
                )
    assert set(got) == want and len(got) == 16
    # the author: better everywhere but the CPU time of GCS with per-thread statistics
    regressions = [g for g in got if g[-1] == "regression"]
    assert [(g[0], g[1], g[4]) for g in regressions] == [
        ("GCS", "CPU", "LongAdder + Per-Thread")
    ] * 2


def test_seed_003_a_table_of_settings_is_not_ranked_against_its_first_row(seeds):
    # seven ways to fetch the rows, three runs each; the comment names none of them as
    # the baseline and states no factor ("Knox is performing basically the same as HS2
    # HTTP mode"): a table, not a comparison
    assert _seed_pairs(seeds, "dev@knox.apache.org") == []
    assert (
        seeds.execute(
            "SELECT count(*) FROM measurements JOIN messages USING (msg_key) "
            "WHERE list = 'dev@knox.apache.org' AND metric = 'elapsed'"
        ).fetchone()[0]
        == 21
    )


def test_seed_000_the_export_service_setting_is_the_comparison(seeds):
    got = _seed_pairs(
        seeds,
        "gitbox@hive.apache.org",
        "params, metric, before, after, before_value, after_value, change",
    )
    assert got == [
        ("No. of Tables=1000, REPL_TABLE_DUMP_PARALLELISM=100", "Time taken for REPL DUMP",
         "Export Service used=No", "Export Service used=Yes", 27.0, 9.0, "improvement"),
    ]  # fmt: skip


def test_seeds_never_compare_errors(seeds):
    _never_compares_errors(
        seeds.execute("SELECT label, params, metric, before, after FROM comparisons").fetchall()
    )


# ---------------------------------------------------------------- the corpus (shared)


# Read off the messages: every before/after pair each one makes, and its verdict.
BEFORE_0012 = "On my computer, the Python benchmark posted on ARROW-11989 goes from this"
CORPUS = {
    "dev/ambari-0001": [
        ("This reduces the ambari metrics build time", None, "build time", "before", "after",
         10.0, 2.0, "improvement"),
    ],
    "dev/arrow-0001": [  # archery: the before in the contender's unit (812.047 MiB/s)
        ("UniqueInt64/1", None, "value", "baseline", "contender", 2.656, 3.3, "improvement"),
        ("UniqueInt64/10", None, "value", "baseline", "contender", 5.234, 6.294, "improvement"),
        ("UniqueInt64/11", None, "value", "baseline", "contender", 6.5, 18.364, "improvement"),
        ("UniqueInt64/4", None, "value", "baseline", "contender", 5.627, 6.772, "improvement"),
        ("UniqueInt64/5", None, "value", "baseline", "contender", 6.442, 18.346, "improvement"),
        ("UniqueString100bytes/11", None, "value", "baseline", "contender", 26.815, 31.122,
         "improvement"),
        ("UniqueUInt8/1", None, "value", "baseline", "contender", 683.943 / 1024, 1.253,
         "improvement"),
        ("UniqueUInt8/2", None, "value", "baseline", "contender", 659.082, 820.41, "improvement"),
        ("UniqueUInt8/4", None, "value", "baseline", "contender", 762.983, 950.521, "improvement"),
        ("UniqueUInt8/5", None, "value", "baseline", "contender", 812.047 / 1024, 1.755,
         "improvement"),
    ],
    "dev/arrow-0009": [  # critcmp: the ± stddevs are the noise
        ("ilike_utf8 scalar complex", None, "time", "master",
         "starts_with-ends_with-improvements", 301.7, 301.5, "within noise"),
        ("ilike_utf8 scalar contains", None, "time", "master",
         "starts_with-ends_with-improvements", 1554.5, 1595.8, "regression"),
        ("ilike_utf8 scalar ends with", None, "time", "master",
         "starts_with-ends_with-improvements", 218.5, 247.1, "regression"),
        ("ilike_utf8 scalar equals", None, "time", "master",
         "starts_with-ends_with-improvements", 248.8, 214.8, "improvement"),
        ("ilike_utf8 scalar starts with", None, "time", "master",
         "starts_with-ends_with-improvements", 279.4, 298.5, "regression"),
        ("ilike_utf8_scalar_dyn dictionary[10] string[4])", None, "time", "master",
         "starts_with-ends_with-improvements", 88.1, 88.2, "within noise"),
        ("like_utf8 scalar complex", None, "time", "master",
         "starts_with-ends_with-improvements", 283.4, 282.0, "within noise"),
        ("like_utf8 scalar contains", None, "time", "master",
         "starts_with-ends_with-improvements", 347.6, 347.4, "within noise"),
    ],
    "dev/beam-0001": [
        ("but `mvn clean install -pl sdks/java/core` went", None, "time", "before", "after",
         3.5, 2.0, "improvement"),
    ],
    "dev/datafusion-0003": [  # `tpcds — base (merge-base)` and `tpcds — branch` tables; no
        # noise stated, every change under 5 %: no verdict
        ("Avg memory", None, "Value", "tpcds — base (merge-base)", "tpcds — branch", 1.4, 1.4,
         "no noise stated"),
        ("CPU sys", None, "Value", "tpcds — base (merge-base)", "tpcds — branch", 5.5, 5.5,
         "no noise stated"),
        ("CPU user", None, "Value", "tpcds — base (merge-base)", "tpcds — branch", 196.1, 194.7,
         "no noise stated"),
        ("Peak memory", None, "Value", "tpcds — base (merge-base)", "tpcds — branch", 2.1, 2.0,
         "no noise stated"),
        ("Peak spill", None, "Value", "tpcds — base (merge-base)", "tpcds — branch", 0.0, 0.0,
         "no noise stated"),
        ("Wall time", None, "Value", "tpcds — base (merge-base)", "tpcds — branch", 50.0, 50.0,
         "no noise stated"),
    ],
    "dev/flink-0001": [
        ("DataSkewStreamNetworkThroughputBenchmarkExecutor.networkSkewedThroughput", None,
         "Score", "Before the fix", "After the fix", 6014.192, 18609.481, "improvement"),
    ],
    "dev/hdfs-0009": [
        ("the image loading time be reduced", None, "image loading time", "before", "after",
         1210.0, 739.0, "improvement"),
    ],
    "dev/helix-0001": [  # `0:50 min -> 4:40 min`, then `4:40 min -> 0:28 min`
        ("And upgrading the maven plugins completely solves the problem", None, "time",
         "before", "after", 280.0, 28.0, "improvement"),
        ("the build time on some linux machines are ~X5 longer", None, "build time", "before",
         "after", 50.0, 280.0, "regression"),
    ],
    "dev/kafka-0002": [  # `~6k/ms` before goes to `~35k/ms`
        ("more than 5 on a standard 4 core i7", None, "throughput", "before", "after", 6000.0,
         35000.0, "improvement"),
    ],
    "dev/solr-0001": [  # each @Param row with its own; the JMH errors are the noise
        ("CloudIndexing.indexDoc",
         "nodeCount=4, numReplicas=1, numShards=4, preGenerate=50000, useSmallDocs=false",
         "Score", "Before", "After", 961.674, 939.311, "within noise"),
        ("CloudIndexing.indexDoc",
         "nodeCount=4, numReplicas=1, numShards=4, preGenerate=50000, useSmallDocs=true",
         "Score", "Before", "After", 9714.465, 8876.582, "within noise"),
        ("CloudIndexing.indexDoc",
         "nodeCount=4, numReplicas=3, numShards=4, preGenerate=50000, useSmallDocs=true",
         "Score", "Before", "After", 3766.626, 3467.66, "within noise"),
    ],
    "dev/spark-0003": [  # diff rows of a Spark benchmark table; Stdev(ms) is the noise
        ("q22a-v2.7", None, "Avg Time(ms)", "old", "new", 1888.0, 1938.0, "within noise"),
        # +4.2 %, +4.1 %, -4.7 % with no noise stated: no verdict
        ("q22a-v2.7", None, "Best Time(ms)", "old", "new", 1853.0, 1930.0, "no noise stated"),
        ("q22a-v2.7", None, "Per Row(ns)", "old", "new", 156.6, 163.0, "no noise stated"),
        ("q22a-v2.7", None, "Rate(M/s)", "old", "new", 6.4, 6.1, "no noise stated"),
        ("q24-v2.7", None, "Avg Time(ms)", "old", "new", 254.0, 230.0, "within noise"),
        ("q24-v2.7", None, "Best Time(ms)", "old", "new", 212.0, 101.0, "improvement"),
        ("q24-v2.7", None, "Per Row(ns)", "old", "new", 63.5, 30.2, "improvement"),
        ("q24-v2.7", None, "Rate(M/s)", "old", "new", 15.7, 33.2, "improvement"),
    ],
    "dev2/arrow-0012": [  # "goes from this:" (a table), then "to this:" (a table)
        ("Time to access example at i=0%", None, "time", BEFORE_0012, "to this", 5.3, 4.3,
         "improvement"),
        ("Time to access example at i=10%", None, "time", BEFORE_0012, "to this", 4.0, 1.8,
         "improvement"),
        ("Time to access example at i=20%", None, "time", BEFORE_0012, "to this", 5.5, 1.7,
         "improvement"),
        ("Time to access example at i=30%", None, "time", BEFORE_0012, "to this", 7.1, 1.6,
         "improvement"),
        ("Time to access example at i=40%", None, "time", BEFORE_0012, "to this", 8.6, 1.6,
         "improvement"),
        ("Time to access example at i=50%", None, "time", BEFORE_0012, "to this", 10.0, 1.4,
         "improvement"),
        ("Time to access example at i=60%", None, "time", BEFORE_0012, "to this", 12.8, 1.6,
         "improvement"),
        ("Time to access example at i=70%", None, "time", BEFORE_0012, "to this", 13.6, 1.7,
         "improvement"),
        ("Time to access example at i=80%", None, "time", BEFORE_0012, "to this", 15.2, 1.9,
         "improvement"),
        ("Time to access example at i=90%", None, "time", BEFORE_0012, "to this", 16.8, 1.9,
         "improvement"),
    ],
    "dev2/iceberg-0004": [  # rows `main` and `This PR`
        (None, None, "Best", "main", "This PR", 1.467, 0.104, "improvement"),
        (None, None, "Mean", "main", "This PR", 1.491, 0.105, "improvement"),
    ],
    "dev2/kafka-3001": [  # two runs each, Trunk written second: averages, spread as noise
        ("summary", None, "avg_latency", "Trunk", "Patch", (148.20 + 152.59) / 2,
         (149.39 + 149.22) / 2, "within noise"),
        ("summary", None, "max_latency", "Trunk", "Patch", 1395.5, 1449.5, "within noise"),
        ("summary", None, "p50_latency", "Trunk", "Patch", 119.0, 127.5, "within noise"),
        ("summary", None, "p95_latency", "Trunk", "Patch", 409.5, 372.0, "improvement"),
        ("summary", None, "p99.9_latency", "Trunk", "Patch", 808.0, 712.5, "improvement"),
        ("summary", None, "p99_latency", "Trunk", "Patch", 509.0, 457.5, "improvement"),
        ("summary", None, "throughput", "Trunk", "Patch", (203.40 + 197.98) / 2,
         (201.66 + 201.58) / 2, "within noise"),
        ("summary", None, "throughput", "Trunk", "Patch", (833144.487250 + 810927.409022) / 2,
         (826003.925171 + 825684.740355) / 2, "within noise"),
    ],
    "dev2/lucene-0002": [  # Rally's Baseline / Contender columns; Diff is not
        # compared; every change under 5 % and no noise stated: no verdict
        ("Cumulative indexing throttle time of primary shards", None, "value", "Baseline",
         "Contender", 0.0, 0.0, "no noise stated"),
        ("Cumulative indexing time of primary shards", None, "value", "Baseline", "Contender",
         636.355, 618.386, "no noise stated"),
        ("Max cumulative indexing time across primary shard", None, "value", "Baseline",
         "Contender", 514.705, 498.092, "no noise stated"),
        ("Median cumulative indexing time across primary shard", None, "value", "Baseline",
         "Contender", 20.3333, 19.8006, "no noise stated"),
        ("Min cumulative indexing throttle time across primary shard", None, "value",
         "Baseline", "Contender", 0.0, 0.0, "no noise stated"),
        ("Min cumulative indexing time across primary shard", None, "value", "Baseline",
         "Contender", 0.0, 0.0, "no noise stated"),
    ],
    "dev2/phoenix-0001": [
        ("Goes", None, "time", "before", "after", 7.5, 4.0, "improvement"),
    ],
}  # fmt: skip


def corpus_pairs(tmp_path: Path, name: str) -> list[tuple]:
    from extract.dev.corpus import corpus_kind, read_message
    from extract.mail.clean import clean_body

    msg = read_message(shared_path("corpus", f"{name}.txt"))
    kind = corpus_kind(msg)
    _, rows = result_rows(name, clean_body(msg.body, kind), kind=kind, models=READERS_ONLY)
    con = _load(tmp_path / "corpus.duckdb", rows)
    try:
        return con.execute(
            f"SELECT {PAIR} FROM comparisons ORDER BY label, params, metric, after, unit"
        ).fetchall()
    finally:
        con.close()


@pytest.mark.shared
@pytest.mark.parametrize("name", sorted(CORPUS))
def test_corpus_pairs_are_exactly_those_the_message_makes(tmp_path, name):
    got = corpus_pairs(tmp_path, name)
    _never_compares_errors(got)
    _same(got, CORPUS[name])


def test_report_pages_show_direction_change_and_noise(seeds, tmp_path):
    from extract.outputs.report import build_report

    db = Path(seeds.execute("SELECT path FROM duckdb_databases() WHERE NOT internal").fetchone()[0])
    build_report(db, tmp_path / "report")
    pages = {
        p: p.read_text(encoding="utf-8") for p in (tmp_path / "report" / "messages").glob("*.html")
    }
    [hadoop] = [text for text in pages.values() if "LongAdder + Per-Thread" in text]
    table = hadoop[hadoop.index('<table class="data comparisons">') :]
    assert "<th>better when</th>" in table and "<th class='num'>noise</th>" in table
    verdicts = re.findall(r"<td class='change'><span class=\"(\w+)\">([\w ]+)</span>", table)
    assert verdicts.count(("worse", "regression")) == 2  # GCS CPU with per-thread stats
    assert verdicts.count(("better", "improvement")) == 14
    assert table.count("<td class='direction'>lower</td>") == 16
    # seed 002: changes under 2 % with no noise stated get no verdict, shown as such
    [hbase] = [text for text in pages.values() if "RandomReadTest client 9" in text]
    table = hbase[hbase.index('<table class="data comparisons">') :]
    verdicts = re.findall(r"<td class='change'><span class=\"(\w+)\">([\w ]+)</span>", table)
    assert verdicts == [("muted", "no noise stated")] * 5
    # seed 001: the author's words beside the pairs they are about
    [kudu] = [text for text in pages.values() if "dense_hash_map" in text]
    claimed = re.findall(r"<td class='claimed' title='([^']*)'>(×[\d.]+) <span", kudu)
    assert sorted(claimed) == [("2x faster", "×2"), ("7%\nspeedup", "×1.07")]


def test_a_label_read_as_settings_is_a_new_dict_for_each_caller():
    # (`_settings` is read from a cache by label: a caller's dict is its own)
    from extract.results.comparisons import _settings

    first = _settings("No. of Tables=1000, Export Service used=Yes")
    assert first == {"No. of Tables": "1000", "Export Service used": "Yes"}
    first["No. of Tables"] = "changed"
    assert _settings("No. of Tables=1000, Export Service used=Yes")["No. of Tables"] == "1000"
    assert _settings("just a label") is None


def test_a_variant_splits_into_parameters_and_dimensions():
    from extract.results.comparisons import _split_variant

    assert _split_variant("Before patch / size=100 / Run 2") == (("size=100",), ("Before patch",))
    assert _split_variant(None) == ((), ())
