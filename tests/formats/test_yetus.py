"""yetus-qa-report (noise): Yetus precommit reports, written from apache/yetus's
github.sh and jira.sh. Their runtimes are build bookkeeping: no rows, and the report
is claimed exactly, so that a benchmark next to it is still read."""

import json

import pytest

from extract.results.formats import by_name, extract_results, run
from extract.results.formats._grid import norm_unit
from tests.conftest import shared_path
from tests.formats.golden import rows_of, text_of

PARSER = by_name("yetus-qa-report")


@pytest.mark.parametrize(
    "case", ["github-minus1", "github-minus1-flattened", "github-minus1-gitbox", "jira-plus1",
             "jira-plus1-wrapped72"],
)  # fmt: skip
def test_the_report_is_claimed_whole(case):
    """Not silent by luck: the recogniser's spans cover every runtime of the report."""
    text = text_of(f"yetus-qa-report--{case}")
    spans = [t.span for t in run(PARSER, text)]
    runtimes = [i for i in range(len(text)) if text.startswith("m ", i) and text[i - 1].isdigit()]
    assert runtimes
    assert all(any(a <= i < b for a, b in spans) for i in runtimes)
    assert "automatically generated." in text[spans[-1][0] : spans[-1][1]]


def test_a_benchmark_after_the_report_is_still_read():
    text = text_of("yetus-qa-report--with-benchmark")
    assert {r["format"] for r in rows_of(text)} == {"go-bench"}
    assert len(rows_of(text)) == 12


def test_noise_spans_stop_at_the_block():

    report = text_of("yetus-qa-report--github-minus1")
    text = "Results below.\n\n" + report + "\nThanks, I measured 120 ms before and 80 ms after.\n"
    (span,) = [t.span for t in run(PARSER, text)]
    assert text[span[0] :].startswith(":broken_heart:")
    assert text[span[1] :].strip().startswith("Thanks, I measured")


def test_jira_wiki_form_with_wrapped_rows():

    text = (
        text_of("yetus-qa-report--jira-plus1-wrapped72") + "\nMeanwhile: 35 s before, 20 s after.\n"
    )
    spans = [t.span for t in run(PARSER, text)]
    assert text[spans[-1][1] :].strip().startswith("Meanwhile")


def test_hadoop_qa_plain_form_is_noise():

    text = (
        "{color:red}-1 overall{color}.  Here are the results of testing the latest attachment\n"
        "  https://issues.example.org/jira/secure/attachment/4242/EXAMPLE-7.patch\n"
        "  against trunk revision 7654321.\n\n"
        "    {color:green}+1 @author{color}.  The patch does not contain any @author tags.\n\n"
        "    {color:red}-1 core tests{color}.  The patch failed these unit tests:\n"
        "                  org.example.TestBar\n\n"
        "Test results: https://ci.example.org/job/PreCommit-Build/77//testReport/\n\n"
        "This message is automatically generated.\n"
    )
    (table,) = run(PARSER, text)
    assert table.span == (0, len(text) - 1)
    assert extract_results(text) == []


@pytest.mark.shared
@pytest.mark.parametrize(
    "folder,sample",
    [
        ("yetus-qa-report", "hadoop-pr6744-logfile-col"),
        ("yetus-qa-report", "hbase-pr2499-plus1"),
        ("yetus-qa-report", "hbase-pr615-emoji-votes"),
    ],
)
def test_third_party_samples(folder, sample):
    """Real pastes, read where they live (../shared/formats; not copied here): the
    values their expect file lists come from this format (a negative gives nothing)."""
    path = shared_path("formats", folder, f"{sample}.txt")
    expect = json.loads(path.with_suffix(".expect.json").read_text(encoding="utf-8"))
    rows = rows_of(path.read_text(encoding="utf-8"))
    if expect.get("negative"):
        assert rows == []
        return
    found = {(round(r["value"], 6), norm_unit(r["unit"]) or "") for r in rows
             if r["format"] in ()}  # fmt: skip
    missing = [
        r
        for r in expect["rows"]
        if (round(r["value"], 6), norm_unit(r.get("unit")) or "") not in found
    ]
    assert not missing
