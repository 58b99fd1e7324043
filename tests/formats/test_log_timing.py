"""log-timing: Hive's summaries (also as beeline logs them) and PerfLogger records,
zkbenchmark results and runs of `<what>: <n> <unit>` lines. None of these tools runs
here: the fixtures are written from their documented output with our own numbers."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from extract.results.formats import by_name, log_timing, run
from tests.conftest import seed
from tests.formats.damage import MAIL_DAMAGE, check_damaged, own_cases, rows
from tests.formats.golden import text_of

NO_HEADING = ("format", "label", "metric", "value", "unit")
# flattened: log records lose the heading above them (documented in the module)
FLAT_KEYS = {
    "log-timing--hive-perflogger": NO_HEADING,
    "log-timing--zkbenchmark": NO_HEADING,
}


@pytest.mark.parametrize("damage", MAIL_DAMAGE)
@pytest.mark.parametrize("case", own_cases("log-timing"))
def test_fixture_survives_mail_damage(case, damage):
    check_damaged(case, damage, FLAT_KEYS.get(case) if damage == "flattened" else None)


def test_beeline_prefix_is_not_the_heading():
    got = rows(text_of("log-timing--hive-execution-summary"))
    steps = [r for r in got if r[0] == "log-timing"]
    assert [r[1] for r in steps][-1] == "Run DAG"
    assert {r[2] for r in steps} == {"Ran the TPC-DS q17 on the patched build through beeline"}
    # the query's own total is sql-timing's `Time taken`
    assert ("sql-timing", None, "time_taken", 45.41) in {(r[0], r[1], r[3], r[4]) for r in got}


def test_perflog_epochs_are_not_measurements():
    got = rows(text_of("log-timing--hive-perflogger"))
    assert [r[4] for r in got] == [101, 1748, 1905]


def test_settings_are_not_timings():
    text = (
        "Configuration used for the run:\n\nsession timeout: 30 s\nheartbeat interval: 3 s\n"
        "max wait: 10 s\nretry backoff: 500 ms\n"
    )
    assert run("log-timing", text) == []


HIVE_EXECUTION_SUMMARY_PLAIN = """\
Query Execution Summary
-------------------------------------------------------------------------------------
OPERATION                            DURATION
-------------------------------------------------------------------------------------
Compile Query                           0.29s
Prepare Plan                            0.08s
Run DAG                                 7.54s
-------------------------------------------------------------------------------------
"""


def test_hive_execution_summary():
    assert [r[1:2] + r[3:] for r in rows(HIVE_EXECUTION_SUMMARY_PLAIN)] == [
        ("Compile Query", "time", 0.29, "s"),
        ("Prepare Plan", "time", 0.08, "s"),
        ("Run DAG", "time", 7.54, "s"),
    ]


def test_a_summary_title_without_timed_steps_gives_nothing():
    text = "Change Summary\n--------------------\nFixed 3 bugs in 2 files\nSee HIVE-123\n"
    assert run("log-timing", text) == []


def test_timing_lines_need_two_and_no_settings():
    one = "Result:\nTVM latency for batch 1: 732.59 ms\n"
    settings = "session timeout: 30 s\nretry interval: 5 s\nmax wait: 10 s\n"
    assert run("log-timing", one) == []
    assert run("log-timing", settings) == []
    two = "old run: 12.5 s\nnew run: 9.75 s\n"
    assert [(r[0], r[1], r[3], r[4], r[5]) for r in rows(two)] == [
        ("log-timing", "old run", "time", 12.5, "s"),
        ("log-timing", "new run", "time", 9.75, "s"),
    ]


def test_timing_records_one_after_the_other_on_a_line_are_a_run():
    # a flattened mail: the heading and a closing sentence share the line
    flat = "Times of the run: load: 2.5 s index: 41 s merge: 7.25 s It was a cold cache."
    assert [(r[0], r[1], r[3], r[4], r[5]) for r in rows(flat)] == [
        ("log-timing", "load", "time", 2.5, "s"),
        ("log-timing", "index", "time", 41.0, "s"),
        ("log-timing", "merge", "time", 7.25, "s"),
    ]
    # one record inside a sentence is not a run, nor are settings side by side
    assert run("log-timing", "It took: 5 s on the cold cache.") == []
    assert run("log-timing", "connect timeout: 5 s retry interval: 2 s") == []


def test_timings_in_the_cells_of_a_pipe_table_are_the_table_s():
    row = "| First run: 9.5s end-to-end (1.6s job) | First run: 36.6s (28.3s) |\n"
    assert run("log-timing", "| Plain | Split |\n| --- | --- |\n" + row) == []


def test_the_same_label_over_and_over_is_a_log_not_timings():
    pauses = "Threads were stopped: 0.0301 seconds\nThreads were stopped: 0.0046 seconds\n"
    assert run("log-timing", pauses) == []
    assert run("log-timing", pauses.replace("\n", " ")) == []


def test_never_raises_and_stays_fast():
    parse = by_name("log-timing").parse
    odd = [
        "",
        "\x00\ufffd" * 50,
        "X Summary\n----------\n" + "step " * 5000 + "1",
        "INFO  : X Summary\nINFO  : " + "-" * 5000,
        "READ finished, time elapsed (sec): " * 2000,
        "</PERFLOG method=" * 3000,
        "a: 1 s\n" * 3000,
    ]
    start = time.perf_counter()
    for text in odd:
        assert isinstance(parse(text), list)
    assert time.perf_counter() - start < 2.0


@pytest.mark.parametrize("prefix", ["000", "001", "002", "003", "004"])
def test_silent_on_seeds(prefix):
    assert [m for t in run("log-timing", seed(prefix)) for m in t.measurements] == []


def test_a_rule_in_a_step_name_ends_the_summary():
    """`---` in what would be a step's name is a rule inside the summary: it ends it."""
    text = (
        "Query Compilation Summary\n" + "-" * 60 + "\n"
        "Compile Step - 1 parse                 1ms\n"
        "Compile Step - 2 analyze             142ms\n"
        "Other ------------------------------ 3000ms\n"
    )
    assert [r[1] for r in rows(text)] == ["Compile Step - 1 parse", "Compile Step - 2 analyze"]


# Pieces a flattened log line is made of: words, blanks, colons, pipes, numbers, units and
# whole records, some with labels longer than a record's 100 characters.
_PIECES = st.sampled_from(
    ["a", "Zq", " ", "\t", "\n", "\r", ":", "|", "1", "2.5", ".", "ms", "s", " sec", "x" * 98]
    + ["read: 3 ms", " write: 4.5 s", "b" * 120 + ": 1 ms"]
)


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(st.lists(_PIECES, max_size=40).map("".join))
def test_records_in_line_are_what_a_search_finds(text):
    # (found from each colon back, so that a long line is not scanned 100 characters
    # from every word; the matches must be the search's own, span for span)
    searched = [(m.span(), m.groupdict()) for m in log_timing._TIMING_IN_LINE.finditer(text)]
    found = [(m.span(), m.groupdict()) for m in log_timing._records_in_line(text)]
    assert found == searched


def test_records_in_line_on_a_flattened_run():
    text = "step one: 12 ms build  the index: 1.5 s setup: 3 sec"
    found = [(m["label"], m["v"], m["u"]) for m in log_timing._records_in_line(text)]
    assert found == [
        ("step one", "12", "ms"),
        ("build  the index", "1.5", "s"),
        ("setup", "3", "sec"),
    ]
