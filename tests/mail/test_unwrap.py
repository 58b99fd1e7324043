"""Undoing a mail gateway's hard wrap: table rows and data lines broken at 72-80
columns are joined again; sentences and short lines are left alone."""

from __future__ import annotations

from extract.mail.clean import clean_body, rejoin_wrapped_rows, unwrap_hard_wrapped


def test_a_pipe_row_broken_by_the_wrap_is_joined():
    text = "| case | old | new |\n| scan q1 | 1.50 ms | 2.50\nms |\n| scan q2 | 3 | 4 |"
    assert rejoin_wrapped_rows(text).split("\n")[1] == "| scan q1 | 1.50 ms | 2.50 ms |"


def test_rows_without_outer_pipes_and_unclosed_rows_stay():
    assert rejoin_wrapped_rows("a | b\n-- | --\nx | 1") == "a | b\n-- | --\nx | 1"
    assert rejoin_wrapped_rows("| q1 | 1.5 ms\nplain text") == "| q1 | 1.5 ms\nplain text"


ROWS = [
    "          indexFlat      147.12      (6.2%)      129.27      (4.0%)  -12.1% ( -21% -   -2%)",
    "         searchTerm      271.72      (3.3%)      257.32      (3.4%)   -5.3% ( -11% -    1%)",
]


def _wrap(lines, width=72):
    out = []
    for line in lines:
        while len(line) > width:
            cut = line.rfind(" ", 0, width + 1)
            out.append(line[:cut].rstrip())
            line = line[cut:].lstrip()
        out.append(line)
    return "\n".join(out)


def test_aligned_rows_wrapped_at_72_columns_are_joined():
    wrapped = _wrap(ROWS)
    assert wrapped.count("\n") == 3
    joined = unwrap_hard_wrapped(wrapped).split("\n")
    assert [" ".join(x.split()) for x in joined] == [" ".join(r.split()) for r in ROWS]


def test_sentences_and_mail_with_long_lines_are_left_alone():
    para = (
        "We ran the whole suite again on the new cluster and the numbers are in\n"
        "Line two starts with a capital and begins a new thought about 3 things\n"
        "- and a bullet follows it.\n"
    )
    assert unwrap_hard_wrapped(para) == para
    long = "x" * 120 + "\n" + _wrap(ROWS)
    assert unwrap_hard_wrapped(long) == long


def test_clean_body_undoes_the_wrap():
    assert clean_body(_wrap(ROWS)).count("\n") == 1
