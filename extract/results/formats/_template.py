"""<Tool> <what it prints> (copy this module to start a format): returns one table per
block of result lines.

Recognises `<one line as the tool prints it>` (say where the format comes from: the
tool's output code, its documentation), in runs of lines, also flattened onto one line.

Measurements: label = <the row's name>, metrics <...> with their units (<...>).
Variant = the heading above the block.

(A tool whose output cannot be declared as rows says so here, in a paragraph that
starts "Not declared as rows:", with why and how its parsing differs.)

Adding a format:
1. copy this file to `extract/results/formats/<module>.py`; fill in the docstring,
   `INFO`, `ROWS` (`_rows.Rows`: the row pattern, its fields, its label; numbers are
   `_layout.NUM` and its kin) and, only where the tool needs it, a typed step after
   `read` in `parse`;
2. write fixture pairs `tests/fixtures/formats/<name>--<case>.txt` (real output where
   the tool installs, else written from its documentation) and their rows
   (`python -m tests.formats.golden <name>--<case> --write`, then review them);
   include a negative (`rows: []`) and the damage mail does (flattened, CRLF, ...);
3. add one line, the module's name, to `MODULES` in `extract/results/formats/__init__.py`;
4. run `python -m extract.dev.docs --write` (the README's list, the docs' table).
`tests/formats/test_recipe.py` checks each step for every registered format.
"""

from __future__ import annotations

from extract.results.formats._layout import NUM
from extract.results.formats._rows import Field, Rows, read
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="template",  # the `format` column value
    description="<tool> result lines",
    signature="`<name>  12.5 ms  (0.3 ms)`",
    priority=20,  # lower runs first: tool outputs (10-16) before generic tables (30+)
    heading="block",  # the registry names each block by the heading above it
    # a cheap necessary condition (case-insensitive regex), and a substring it needs
    trigger=r"(?-i:\d[ \t]*ms[ \t]+\()",
    needles=("ms",),
)

ROWS = Rows(
    row=(
        # (the name starts a word: from inside one, `[\w.-]*` would rescan it at every
        # letter, quadratic time on a long word)
        rf"(?<![\w.-])(?P<name>[A-Za-z][\w.-]*)[ \t]+(?P<mean>{NUM})[ \t]*(?P<unit>ms|s)"
        rf"[ \t]+\([ \t]*(?P<sd>{NUM})[ \t]*(?P=unit)\)"
    ),
    fields=(Field("mean", "mean", unit_group="unit"), Field("stddev", "sd", unit_group="unit")),
    label="name",
    columns=("name", "mean", "stddev"),
)


def parse(text: str) -> list[ResultTable]:
    return read(ROWS, text)
