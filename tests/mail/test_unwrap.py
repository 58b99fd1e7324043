"""Undoing a mail gateway's hard wrap: table rows and data lines broken at 72-80
columns are joined again; sentences and short lines are left alone."""

from __future__ import annotations

import re

from extract.mail.clean import (
    clean_body,
    rejoin_row_tails,
    rejoin_wrapped_rows,
    unwrap_hard_wrapped,
)

_CELLS = re.compile(r"\s{2,}")


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
    long = "a line of prose that no wrapper broke, " * 3 + "\n" + _wrap(ROWS)
    assert unwrap_hard_wrapped(long) == long


def test_a_line_with_no_space_in_it_does_not_hide_the_wrap():
    # a URL or a dashed rule passes every wrapper unbroken: it says nothing of the width
    for long in ("https://example.org/" + "x" * 100, "-" * 118):
        joined = unwrap_hard_wrapped(long + "\n" + _wrap(ROWS)).split("\n")
        assert [" ".join(x.split()) for x in joined[1:]] == [" ".join(r.split()) for r in ROWS]


def _textwrap(lines, width=72):
    # as textwrap (and most gateways) do: the blanks at the break are dropped
    import textwrap

    return "\n".join(
        w for line in lines for w in (textwrap.wrap(line, width, break_long_words=False) or [""])
    )


def test_a_wide_aligned_table_split_into_names_and_values_is_joined():
    def row(*cells):
        return cells[0].ljust(48) + "".join(c.rjust(15) for c in cells[1:])

    table = [
        row("Scan of one million rows:", "Best Time(ms)", "Avg Time(ms)", "Stdev(ms)", "Rate(M/s)"),
        "-" * 108,
        row("vectorised reader, dictionary pages", "179", "220", "36", "5.6"),
        row("row-at-a-time reader", "171", "219", "70", "5.9"),
        row("row-at-a-time reader, filter pushed down", "140", "178", "63", "7.2"),
    ]
    text = _textwrap(["A run on the new build:", *table, "", "Done."])
    lines = unwrap_hard_wrapped(text).split("\n")
    rows = [x for x in lines if "reader" in x]
    assert len(rows) == 3
    assert all(len(_CELLS.split(r.strip())) == 5 for r in rows)
    head = next(x for x in lines if "Best Time" in x)
    assert len(_CELLS.split(head.strip())) == 5 and "Rate(M/s)" in head


def test_name_lines_each_followed_by_their_value_are_one_row_each():
    steps = [f"Stage {n} of the query plan, {name}" + " " * 50 + f"{ms}ms" for n, name, ms in
             ((1, "parse", 1), (2, "analyse", 6), (3, "optimise", 142))]  # fmt: skip
    intro = "We now measure every stage of the compile and print a summary of it. " * 2
    lines = unwrap_hard_wrapped(_textwrap([intro, "", *steps, "end"])).split("\n")
    assert [x.split()[-1] for x in lines[-4:-1]] == ["1ms", "6ms", "142ms"]
    # one name then one number in a wrapped message is left as it is: it may be prose
    one = _textwrap(["We measured it twice on the cluster and then once more on a laptop", "42 ms"])
    assert unwrap_hard_wrapped(one + "\n" + _wrap(ROWS)).split("\n")[:2] == one.split("\n")


def test_the_tail_of_a_pipe_row_broken_at_a_cell_boundary_goes_back_on_its_row():
    text = "| name | a | b |\nc |\n| --- | --- | --- |\n--- |\n| q1 | 1.5 | 2.5 |\n3.5 |\n"
    assert rejoin_row_tails(text).split("\n")[:3] == [
        "| name | a | b | c |",
        "| --- | --- | --- | --- |",
        "| q1 | 1.5 | 2.5 | 3.5 |",
    ]


def test_cells_of_a_flattened_jira_table_wrapped_at_72_columns_are_joined():
    flat = (
        "I ran the patch against the old image and here is what it gives on the NN. "
        "|| ||Full Path Image||Local Name Image|| % Improvement || | Image Size | 3.07GB "
        "| 2.27GB | -26% | | Load Time | 72sec | 60sec | -17% | A very nice result."
    )
    out = unwrap_hard_wrapped(_textwrap([flat, "", "second paragraph of the note."]))
    assert "|| % Improvement || | Image Size | 3.07GB | 2.27GB | -26% | | Load Time |" in out


def test_clean_body_undoes_the_wrap():
    assert clean_body(_wrap(ROWS)).count("\n") == 1


def test_box_drawn_rows_and_dash_rules_broken_by_the_wrap_are_joined():
    intro = "The comparison of the two branches on the same machine, run one after the other."
    box = [
        "┃ Query     ┃                  main ┃         feature-branch ┃        Change ┃",
        "│ Q1        │ 45.99 / 46.51 ±0.63 ms │ 45.53 / 47.29 ±1.41 ms │     no change │",
        "│ Q2        │ 24.60 / 25.52 ±0.87 ms │ 20.97 / 21.18 ±0.20 ms │ +1.21x faster │",
    ]
    out = clean_body(_textwrap([intro, "", *box])).split("\n")
    assert [" ".join(x.split()) for x in out[2:]] == [" ".join(b.split()) for b in box]
    rule = "-----".ljust(51) + "-" * 6 + "  " + "-" * 34
    groups = [
        rule,
        "kernel one".ljust(51) + "1.00    301.7±1.10µs  ? ?/sec    1.00    301.5±1.04µs",
    ]
    joined = unwrap_hard_wrapped(_textwrap([intro, *groups, groups[1].replace("one", "two")]))
    assert joined.split("\n")[1].split() == rule.split()
    # a row whose values a tool could not give (`? ?/sec`) is still a row of values
    assert len(joined.split("\n")) == 4


def test_a_command_and_a_long_table_name_go_on_after_the_break():
    intro = "Sample usage of the new load generator on the test cluster, and its output."
    cmd = "bin/load-tool write-generator -t 20 --bytes-per-write=1024 --path=/vol1/bucket1/p -n 500"
    name = "org.example.benchmark.NetworkThroughputBenchmarkExecutor.networkSkewedThroughput"
    text = _textwrap([intro, cmd, "", "Case |  |", "-- | --", f"{name} | 51977.13 |"])
    lines = unwrap_hard_wrapped(text).split("\n")
    assert cmd in lines
    assert f"{name} | 51977.13 |" in lines
    # a bullet after a long line is not an option of a command
    bullets = _textwrap([intro + " It is run with -t 20 threads at most.", "- first point"])
    assert unwrap_hard_wrapped(bullets).split("\n")[-1] == "- first point"


def _facts(joined) -> tuple:
    return (
        joined.blank, joined.first_space, joined.opens_bar, joined.length, joined.rlen,
        joined.inner_space, joined.rule, joined.option, joined.bars, joined.digit_runs,
    )  # fmt: skip


def test_a_joined_line_knows_what_the_line_itself_would_say():
    """`_Joined` keeps what the wrap rule asks of a joined line part by part: the facts
    of lines joined one by one are the facts of the joined text read whole."""
    import random

    from extract.mail.clean import _RULE_LINE, _Joined, _rule_of, _rule_parts

    pieces = ["---", "===", "-", "=", "|", "│", " ", "\t", "+", ":", "12", "7", "-x", "--y",
              " -n", "word", "W", "é", "٣", "\u2003"]  # fmt: skip
    rng = random.Random(7)
    for _ in range(3000):
        parts = [
            "".join(rng.choice(pieces) for _ in range(rng.randint(1, 6)))
            for _ in range(rng.randint(1, 4))
        ]
        assert _rule_of(_rule_parts(parts[0])) == bool(_RULE_LINE.match(parts[0])), parts[0]
        # (what `_broken_here` lets through: no blank line joins or is joined)
        parts = [p for p in parts if p.strip()]
        if not parts:
            continue
        joined = _Joined(parts[0])
        for part in parts[1:]:
            joined.add(part)
        whole = _Joined(joined.text())
        assert _facts(joined) == _facts(whole), parts


def test_a_long_run_of_joined_lines_costs_linear_time():
    """A run of lines the wrap rule joins one after another (an undecoded attachment
    whose first line a mangled header indented): 300 kB in well under a second. Asking
    the growing line again after each join took 31 s for this text."""
    import time

    intro = "The attachment below did not decode, so here it is as the gateway sent it:"
    text = intro + "\n\n " + "\n".join("QU" + "x9" * 37 for _ in range(4000)) + "\n"
    start = time.process_time()
    out = unwrap_hard_wrapped(text)
    assert time.process_time() - start < 1.0
    assert out.split("\n")[2] == " " + " ".join("QU" + "x9" * 37 for _ in range(4000))
