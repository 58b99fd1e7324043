"""diffstat (noise): `git show --stat` and friends in commit mails. The fixtures are
real git output (tests/fixtures/tools/diffstat.sh); the recogniser claims every file
line and the summary, so the table readers after it never see them, and leaves the
rest of the mail, a benchmark in the commit message included, to the other parsers."""

from __future__ import annotations

import re

import pytest

from extract.results.formats import by_name, run
from tests.formats.golden import rows_of, text_of

PARSER = by_name("diffstat")
STAT_CASES = ["git-show-stat", "compact-summary", "flattened", "next-to-jmh"]


def _claimed(text: str) -> str:
    return "".join(t.source(text) for t in run(PARSER, text))


@pytest.mark.parametrize("case", STAT_CASES)
def test_every_file_line_and_the_summary_are_claimed(case):
    text = text_of(f"diffstat--{case}")
    claimed = _claimed(text)
    files = re.findall(r"(\S+(?: => \S+)?(?: \(new\))?) +\| +(?:\d+|Bin)", text)
    assert len(files) == 5
    for name in files:
        assert name in claimed
    assert re.search(r"5 files changed, \d+ insertions\(\+\), \d+ deletions?\(-\)$", claimed)
    assert all(not t.measurements for t in run(PARSER, text))


def test_the_commit_message_is_left_to_the_other_parsers():
    text = text_of("diffstat--next-to-jmh")
    assert "Benchmark" not in _claimed(text) and "FOO-123" not in _claimed(text)
    assert {r["format"] for r in rows_of(text)} == {"jmh"}


def test_a_summary_alone_is_claimed():
    text = text_of("diffstat--shortstat")
    assert _claimed(text).strip() == text.strip().splitlines()[-1].strip()


@pytest.mark.parametrize(
    "text",
    [
        # a pipe table of results has no summary: not a diffstat
        "| name | 12 |\n| other | 40 ++ |\n",
        "Benchmark | 120\nWith patch | 95\n",
        # a summary-like phrase inside a word or after a decimal point
        "x5 files changed hands",
        "",
    ],
    ids=repr,
)
def test_no_summary_no_claim(text):
    assert run(PARSER, text) == []


def test_table_rows_above_a_blank_free_gap_are_not_taken():
    """Only file lines that run into the summary, blanks between them, are claimed."""
    results = "| query | 120 ms |\n| scan  |  95 ms |\n"
    stat = " src/Main.java | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n"
    text = results + "\nThe change:\n" + stat
    assert _claimed(text) == stat.strip()
