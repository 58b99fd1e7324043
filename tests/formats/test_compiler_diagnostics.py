"""compiler-diagnostics (noise): rustc's, gcc's and javac's messages in a build failure
pasted into mail. The fixtures are the real compilers' output
(tests/fixtures/tools/compiler-diagnostics.sh); the recogniser claims each run of
messages, so that no gutter line number or line:column reads as a measurement, and
leaves the text around it, a results table after it included, to the other parsers."""

from __future__ import annotations

import re

import pytest

from extract.results.formats import by_name, run
from extract.results.message import message_results
from tests.formats.golden import claimed_text, rows_of, text_of

PARSER = by_name("compiler-diagnostics")


@pytest.mark.parametrize("case", ["rustc", "gcc-javac", "msvc", "next-to-table"])
def test_every_message_line_is_claimed_and_no_prose(case):
    text = text_of(f"compiler-diagnostics--{case}")
    claimed = claimed_text(PARSER, text)
    # (every location, gutter line and caret line of the compilers' output)
    for line in text.split("\n"):
        if re.match(
            r"\s*(?:-->|\d+ \||\S+:\d+(?::\d+)?: (?:error|warning|note)"
            r"|\S+\(\d+(?:,\d+)?\): (?:error|warning|note))",
            line,
        ):
            assert line in claimed, line
    assert "```" not in claimed and "This fixes" not in claimed and "| q1 |" not in claimed
    assert all(not t.measurements for t in run(PARSER, text))


def test_the_table_after_the_failure_is_left_to_the_readers():
    text = text_of("compiler-diagnostics--next-to-table")
    assert {(r["label"], r["value"]) for r in rows_of(text)} == {
        ("q1", 412.3),
        ("q1", 281.0),
        ("q6", 198.7),
        ("q6", 120.4),
    }


def test_no_line_number_is_taken_for_a_measurement():
    # (a failure in a pull request that speaks of speed: the gutter's numbers are where
    # in the source, not how fast)
    text = "Faster scan: the old path was slow. " + text_of("compiler-diagnostics--rustc")
    found = message_results(text, kind="github", gated=False)
    gutter = {n for n in re.findall(r"^(\d+) \|", text, re.M)}
    assert gutter and not [c for c in found.numbers if c.number.written in gutter and c.score > 0.5]


def test_a_sentence_that_starts_with_error_is_not_claimed():
    text = "error: the run timed out after 30 s\n    | not a gutter\nwarning: retrying\n"
    assert run(PARSER, text) == []


@pytest.mark.parametrize(
    ("after", "kept"),
    [
        # a table straight under the message, no blank between
        ("| query | main | PR |\n|---|---|---|\n| q1 | 412.3 ms | 281.0 ms |\n", "412.3"),
        # after a blank line, a sentence that only starts like a level line
        ("\nerror: none after the fix; scan 412.3 ms -> 281.0 ms\n", "412.3"),
        # a note of the author's own, not the compiler's
        ("note: with the fix q1 takes 281.0 ms\n", "281.0"),
    ],
    ids=["table", "sentence", "note"],
)
def test_what_follows_a_message_and_is_not_the_compilers_is_left(after, kept):
    text = "scan.c:4:49: error: expected ';' before 'return'\n" + after
    claimed = claimed_text(PARSER, text)
    assert claimed.startswith("scan.c:4:49") and kept not in claimed


def test_a_blank_line_carries_a_run_to_the_next_message_only():
    text = text_of("compiler-diagnostics--rustc")
    spans = [t.span for t in run(PARSER, text)]
    assert len(spans) == 1  # (rustc's three errors and its summary, blank lines between)
    assert text[spans[0][0] :].startswith("error[E0433]")
    assert text[: spans[0][1]].endswith("try `rustc --explain E0428`.")
