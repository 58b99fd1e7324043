"""repl-transcript (noise): interactive sessions that show code at work (R's reprex
output, Python's and IPython's, MATLAB's prompts in a code block). Their numbers are
the example's data; the recogniser claims the session, leaves the text around it (a
results table after it included) to the other parsers, and leaves alone a session that
times what it runs."""

from __future__ import annotations

import pytest

from extract.results.formats import by_name, run
from extract.results.message import message_results
from tests.formats.golden import claimed_text, rows_of, text_of

PARSER = by_name("repl-transcript")


@pytest.mark.parametrize(
    ("case", "inside", "outside"),
    [
        (
            "python-doctest",
            [">>> divmod(86400, 3600)", "[1, 4, 16, 64]", "1.625"],
            ["make doctest"],
        ),
        ("r-reprex", ["#> 3 2024-03-17  4096", "mutate(week = "], ["Created on", "Rationale"]),
        ("matlab-next-to-table", [">> array.NumNulls", "1024.0000", "  null,"], ["| no nulls"]),
    ],
)
def test_the_session_is_claimed_and_the_text_around_it_is_not(case, inside, outside):
    text = text_of(f"repl-transcript--{case}")
    claimed = claimed_text(PARSER, text)
    for line in inside:
        assert line in claimed, line
    for line in outside:
        assert line in text and line not in claimed, line
    assert all(not t.measurements for t in run(PARSER, text))


def test_the_table_after_a_session_is_left_to_the_readers():
    rows = rows_of(text_of("repl-transcript--matlab-next-to-table"))
    assert sorted(r["value"] for r in rows) == [40.8, 41.2, 52.3, 97.5]


def test_a_session_that_times_is_left_to_the_readers():
    text = text_of("repl-transcript--ipython-timeit-kept")
    assert run(PARSER, text) == []
    assert 2.31 in {r["value"] for r in rows_of(text)}


@pytest.mark.parametrize(
    "session",
    [
        "```r\nbench::mark(f(x))\n#>   expression   min median\n#> 1 f(x)       12ms  13ms\n```",
        "```r\nsystem.time(f(x))\n#>    user  system elapsed\n#>   1.204   0.012   1.220\n```",
        "```\n>> tic; y = fft(x); toc\nElapsed time is 0.241 seconds.\n```",
        "```\n>>> timeit.timeit('f()', number=100)\n0.8123\n```",
        "```\nscala> spark.time(df.count())\nTime taken: 2345 ms\nres0: Long = 1000000\n```",
        "```\n>>> t = time.time_ns(); f(); time.time_ns() - t\n812345678\n```",
        "```\n>> t = cputime; f(x); cputime - t\n\nans =\n\n    0.2410\n```",
    ],
    ids=["bench-mark", "system-time", "tic-toc", "timeit-call", "spark-time", "time-ns", "cputime"],
)
def test_sessions_that_time_are_not_claimed(session):
    assert run(PARSER, "Numbers from my laptop:\n\n" + session + "\n") == []


def test_a_quotation_outside_a_code_block_is_no_prompt():
    # (mail quotes with `>` and `>>`: outside a code block they are left as they are)
    text = "> Can you check it?\n>> 3 runs, 12 s each\n\nYes, 3 runs of 12 s.\n"
    assert run(PARSER, text) == []


def test_reprex_output_outside_a_code_block_is_claimed_to_its_last_marked_line():
    text = "head(df)\n#>   id value\n#> 1  1  3.25\n#> 2  2  8.50\nThe scan took 41 ms.\n"
    assert claimed_text(PARSER, text) == "#>   id value\n#> 1  1  3.25\n#> 2  2  8.50"


def test_an_unclosed_code_block_is_read_line_by_line():
    text = "```\n>>> f(3)\n9\n\n| case | time |\n|---|---|\n| a | 41 ms |\n"
    assert run(PARSER, text) == []


def test_the_sessions_numbers_are_not_taken_for_measurements():
    text = text_of("repl-transcript--r-reprex")
    found = message_results(text, kind="github", gated=False)
    assert not found.verdict.is_benchmark
    assert not [m for t in found.tables for m in t.measurements]


def test_a_line_that_opens_with_inline_code_opens_no_code_block():
    # (```x``` is inline code: the fences after it pair as written, and the quotation
    # and the table after them are no session's)
    text = (
        "```spark.sql.shuffle.partitions=64``` fixes it here.\n\n"
        "```\nspark-submit --conf x=1 job.py\n```\n\n"
        "> >> how fast is it?\n\n| case | time |\n|---|---|\n| a | 41 ms |\n"
    )
    assert run(PARSER, text) == []
