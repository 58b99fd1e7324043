"""googletest (noise): a C++ test binary's console output pasted into mail. The
fixtures are written from googletest's printer (googletest/src/gtest.cc); the
recogniser claims the printer's lines, so that no test count or test duration reads as
a measurement, and leaves what a test prints between them to the other readers."""

from __future__ import annotations

from extract.results.formats import by_name, run
from extract.results.message import message_results
from tests.formats.golden import claimed_text, text_of

PARSER = by_name("googletest")


def test_the_printer_s_lines_are_claimed_and_the_test_s_own_are_not():
    text = text_of("googletest--failure")
    claimed = claimed_text(PARSER, text)
    for line in text.split("\n"):
        if line.startswith("[") or line.startswith("Running main()") or "FAILED TEST" in line:
            assert line in claimed, line
    for own in ("Expected equality", "Which is: 1023", "scanner_test.cc:214", "$ ./debug"):
        assert own not in claimed, own
    assert all(not t.measurements for t in run(PARSER, text))


def test_a_failing_run_is_no_report():
    found = message_results(text_of("googletest--failure"), kind="github", gated=False)
    assert not found.verdict.is_benchmark
    assert not [c for c in found.numbers if c.number.written in ("112", "87", "204") and c.taken]


def test_what_a_test_logs_is_left_to_the_readers():
    text = text_of("googletest--perf-log-kept")
    claimed = claimed_text(PARSER, text)
    assert "[       OK ] HashJoinPerfTest.BuildAndProbe (1872 ms)" in claimed
    assert "Probe throughput" not in claimed and "Build side" not in claimed
    found = message_results(text, kind="github", gated=False)
    taken = {c.number.value for c in found.numbers if c.taken}
    assert found.verdict.is_benchmark
    assert {214.6, 38.2e6} <= taken and not taken & {1872, 1873}


def test_a_tag_inside_a_sentence_is_not_a_printer_line():
    text = "The log shows [  FAILED  ] for ScanWithFilter after 87 ms, then stops.\n"
    assert run(PARSER, text) == []
