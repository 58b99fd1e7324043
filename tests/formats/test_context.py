"""The shared helpers of the tool parsers: the heading that names a block and the
command that printed it."""

from __future__ import annotations

from extract.results.formats._context import block_heading, command_above


def test_a_block_inside_the_first_line_of_a_code_block_takes_the_heading_above_it():
    text = "Run with the small records\n```\n> Task :bench:main() mb_sec 22.4 0.1 0.4\n```"
    assert block_heading(text, text.index("mb_sec")) == "Run with the small records"
    # text before the block on a line that no fence opens is not skipped over
    prose = "Run with the small records\nwe saw mb_sec 22.4 0.1 0.4"
    assert block_heading(prose, prose.index("mb_sec")) is None


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
