"""bazel-log (noise): Bazel's output of a failed build or of a test run pasted into
mail. The fixtures are written from Bazel's documented console output; the recogniser
claims a run of Bazel's lines that holds a failure or a test's result, so that no
elapsed time, action count or test time reads as a measurement, and leaves a
successful build's run, which people paste to say how long a build takes, to the
readers."""

from __future__ import annotations

from extract.results.formats import by_name, run
from extract.results.message import message_results
from tests.formats.golden import claimed_text, rows_of, text_of

PARSER = by_name("bazel-log")


def test_a_failed_build_is_claimed_with_what_its_action_printed():
    text = text_of("bazel-log--failed-build")
    claimed = claimed_text(PARSER, text)
    for line in ("INFO: Analyzed target", "reader.cc:88:10: error", "Elapsed time: 27.482s",
                 "214 processes", "Build did NOT complete successfully"):  # fmt: skip
        assert line in claimed, line
    assert "$ bazel build" not in claimed and "This PR sets" not in claimed
    found = message_results(text, kind="github", gated=False)
    assert not found.verdict.is_benchmark


def test_a_test_run_is_claimed():
    text = text_of("bazel-log--test-run")
    claimed = claimed_text(PARSER, text)
    assert "bloom_filter_test" in claimed and "Executed 2 out of 3 tests" in claimed
    assert rows_of(text) == []


def test_a_successful_build_s_time_is_left_to_the_readers():
    text = text_of("bazel-log--build-time-kept")
    assert run(PARSER, text) == []
    assert {412.338, 263.907} <= {r["value"] for r in rows_of(text)}


def test_an_action_s_output_is_not_carried_past_its_reach():
    # (an `ERROR:` of a failed action carries the run only to Bazel's next line, if near)
    text = "ERROR: x/BUILD:1:1: Compiling a.cc failed\n" + "own line 12 ms\n" * 80
    text += "ERROR: Build did NOT complete successfully\n"
    claimed = claimed_text(PARSER, text)
    assert "own line" not in claimed and "NOT complete" in claimed


def test_what_follows_a_failed_action_s_block_is_left_to_the_readers():
    # (the action's output ends with its code block: the table after the block, and a
    # test run in another block, are not carried into one run)
    text = (
        "```\nERROR: /src/BUILD:3:1: Compiling reader.cc failed: (Exit 1)\n"
        "reader.cc:88:10: error: no member named 'span'\n```\n\n"
        "With gcc 13 it builds, and the new reader is much faster:\n\n"
        "| case | main | PR |\n|---|---|---|\n| scan | 41.2 ms | 28.0 ms |\n\n"
        "```\n//cpp:reader_test   PASSED in 3.1s\n```\n"
    )
    claimed = claimed_text(PARSER, text)
    assert "41.2 ms" not in claimed and "much faster" not in claimed
    assert "PASSED in 3.1s" in claimed
    assert {41.2, 28.0} <= {r["value"] for r in rows_of(text)}
