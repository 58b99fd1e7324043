"""The layout module every format reads through: the heading that names a block, the
command that printed it, a `| ` gutter, runs of lines."""

from __future__ import annotations

import re

from extract.results.formats._layout import command_above, heading_above, runs, trimmed, ungutter


def test_a_block_inside_the_first_line_of_a_code_block_takes_the_heading_above_it():
    text = "Run with the small records\n```\n> Task :bench:main() mb_sec 22.4 0.1 0.4\n```"
    assert heading_above(text, text.index("mb_sec")) == "Run with the small records"
    # text before the block on a line that no fence opens is not skipped over
    prose = "Run with the small records\nwe saw mb_sec 22.4 0.1 0.4"
    assert heading_above(prose, prose.index("mb_sec")) is None


def test_a_build_tool_s_step_line_does_not_name_the_output_under_it():
    # (Gradle's `> Task :module:task` says how the block was run; the line above it says
    # what the block is)
    text = "Test with --size 10\n```\n> Task :bench:Main.main()\n    mb_sec\tmax_latency\n"
    assert heading_above(text, text.index("    mb_sec")) == "Test with --size 10"


def test_the_command_on_the_line_above_names_the_output():
    text = "```\n$ bin/load run-test -t 8 --size=4096\n\n  count = 5\n```"
    assert command_above(text, text.index("count")) == "bin/load run-test -t 8 --size=4096"
    assert command_above("Some words on the line above\ncount = 5", 29) is None


def test_in_a_flattened_mail_the_command_after_the_fence_names_the_output():
    text = "Output of the load tool: ``` $ bin/load run-test -t 8 --size=4096 count = 5 ```"
    assert command_above(text, text.index("count")) == "bin/load run-test -t 8 --size=4096"
    # a sentence that ends before the block is not a command
    said = "We ran it twice. The numbers are below count = 5"
    assert command_above(said, said.index("count")) is None


def test_the_three_heading_styles():
    # a rule between the heading and the block: tool output looks past it, a table not
    text = "Before patch:\n-----\nBenchmarkX 1 2 ns/op"
    pos = text.index("Benchmark")
    assert heading_above(text, pos) == "Before patch"
    assert heading_above(text, pos, style="table") is None
    # the heading of the previous block is not borrowed across `floor`
    assert heading_above(text, pos, floor=text.index("-----")) is None
    # a data line names nothing in tool output; as a line, it is what it is
    data = "count: 12 ms\nBenchmarkX 1 2 ns/op"
    assert heading_above(data, data.index("Benchmark")) is None
    assert heading_above(data, data.index("Benchmark"), style="line") == "count: 12 ms"


def test_a_gutter_is_blanked_and_offsets_are_kept():
    text = "| Throughput: 12 msg/s\n|   Latency: 3 ms\n|\nno gutter | here"
    clean = ungutter(text)
    assert len(clean) == len(text)
    assert clean.splitlines() == [
        "  Throughput: 12 msg/s",
        "    Latency: 3 ms",
        " ",
        "no gutter | here",
    ]


def test_runs_group_lines_by_what_stands_between_them():
    row = re.compile(r"row \d")
    text = "row 1\nrow 2\n\nrow 3 INFO row 4\ntext\nrow 5"
    assert [len(r) for r in runs(row, text)] == [3, 1, 1]  # (blank lines keep a run)
    gap = re.compile(r"\s*(?:INFO\s*)?")
    assert [len(r) for r in runs(row, text, gap)] == [4, 1]


def test_trimmed_drops_a_decimal_s_trailing_zeros_only():
    assert trimmed("99.900") == "99.9" and trimmed("99.900", "_") == "99_9"
    assert trimmed("50.000") == "50" and trimmed("100") == "100" and trimmed("0.103") == "0.103"


def test_a_row_of_values_above_a_block_is_no_heading():
    """`key: 12 ms` and an aligned `name     301.7 ms` are data, not a block's name."""
    for row in ("parse_large     301.7 ms", "parse_large: 301.7 ms", "parse_large\t301.7"):
        text = f"{row}\n\nBefore it was 410.9 ms."
        assert heading_above(text, text.index("Before")) is None, row
    text = "Results with 4 threads\n\nparse_large 301.7 ms"
    assert heading_above(text, text.index("parse")) == "Results with 4 threads"
    # a line of several measured values is a record of results, however it is written
    text = "2.5.5: 41,233 ops/s, mean 0.24 ms\npatch: 47,901 ops/s"
    assert heading_above(text, text.index("patch")) is None
    text = "Runs with 64 MB blocks\npatch: 47,901 ops/s"
    assert heading_above(text, text.index("patch")) == "Runs with 64 MB blocks"


def test_a_jira_wiki_heading_names_its_block_without_its_markup():
    text = "h3. Results\n\n||Task||QPS||\n|Fuzzy2|48.10|"
    assert heading_above(text, text.index("||Task")) == "Results"
    assert heading_above("h3.Results\n\nx 1 2", 13) != "Results"  # (no blank: no heading mark)
