"""ascii-table: `+---+` boxes, box-drawing tables and whitespace-aligned columns; and
its fast paths for plain text against the simple per-line checks."""

from __future__ import annotations

import random
import re
import sys
import time

import pytest

from extract.results.formats import ascii_table as A
from extract.results.formats import by_name, extract_results
from tests.conftest import SEEDS
from tests.formats.golden import FIXTURES, cases, check, rows_of, text_of


@pytest.mark.parametrize("case", cases("ascii-table"))
def test_fixture(case):
    check(case)


def rows(text: str, fmt: str = "ascii-table") -> list[tuple]:
    return [
        (t.format, m.label, m.variant, m.metric, m.value, m.unit)
        for t in extract_results(text)
        for m in t.measurements
        if t.format == fmt
    ]


def test_unit_from_the_header_applies_to_every_row():
    text = "case        time (ms)\nsmall       12\nmedium      140\nlarge       1,900\n"
    assert [(r[1], r[4], r[5]) for r in rows(text)] == [
        ("small", 12.0, "ms"),
        ("medium", 140.0, "ms"),
        ("large", 1900.0, "ms"),
    ]


def test_header_name_with_a_space_covers_its_column():
    """`change %` over `-22.1`: one column, named `change`, unit `%`."""
    got = rows(text_of("ascii-table--whitespace-aligned"))
    assert ("ascii-table", "map-side", got[0][2], "change", -22.1, "%") in got
    (table,) = [t for t in extract_results(text_of("ascii-table--whitespace-aligned"))]
    assert table.columns == ["stage", "before", "after", "change %"]


def test_tabs_align_like_spaces():
    text = text_of("ascii-table--dashed-rule")
    assert rows_of(text.replace("   ", "\t")) == rows_of(text)


# ---------------------------------------------------------------- ported from test_formats_a


def test_whitespace_columns_use_alignment_not_single_spaces():
    text = (
        "Numbers from the copy benchmark\n\n"
        "benchmark           before            after\n"
        "copy/1       640.250 MiB/sec    1.210 GiB/sec\n"
        "copy/2       512.004 MiB/sec    0.988 GiB/sec\n"
    )
    got = rows(text)
    run = "Numbers from the copy benchmark"  # the heading line names the run
    assert ("ascii-table", "copy/1", run, "before", 640.25, "MiB/s") in got
    assert ("ascii-table", "copy/2", run, "after", 0.988, "GiB/s") in got


def test_box_drawing_table_with_units_in_cells():
    text = (
        "┌────────┬──────────┐\n│ step   │ time     │\n├────────┼──────────┤\n"
        "│ parse  │ 3.5 ms   │\n│ plan   │ 11 ms    │\n└────────┴──────────┘\n"
    )
    assert ("ascii-table", "plan", None, "time", 11.0, "ms") in rows(text)


NOISE = {
    "mysql data box": (
        "+------+------+\n| colA | colB |\n+------+------+\n|    7 |    2 |\n"
        "|    9 |    1 |\n+------+------+\n"
    ),
    "release vote list": "Checked:\n  sha512   ok\n  asc      ok\n  license  ok\n",
    "whitespace config listing": "Name          Value\nworkers       12\nqueue.size    65536\n",
    "partition listing": (
        "Topic     Partition    Leader\norders    0            2\norders    1            3\n"
    ),
}


@pytest.mark.parametrize("name", sorted(NOISE))
def test_noise_gives_no_rows(name):
    assert rows_of(NOISE[name]) == []


def test_survives_odd_input():
    parse = by_name("ascii-table").parse
    odd = [
        "",
        "+",
        "|",
        "┏━━┳━━┓\n┃ Query ┃",
        "name (time in ms) Min\n",
        "a  b\n1  2  3  4  5  6  7\n",
        "+--+\n|\n+--+",
        "\x00\ufffd" * 100,
    ]
    for text in odd:
        assert isinstance(parse(text), list)


@pytest.mark.parametrize(
    "text",
    [
        " " * 60000 + "a  b\nx  1 ms\n",
        "│ " * 30000,
        "-" * 60000,
        ("a  b  c\n" + "1  2  3\n") * 1000,
        "+--+\n" * 20000,
    ],
    ids=["spaces-before", "box-bars", "dashes", "many-tables", "rules"],
)
def test_stays_linear_on_pathological_input(text):
    start = time.perf_counter()
    by_name("ascii-table").parse(text)
    assert time.perf_counter() - start < 5.0


# ---------------------------------------------------------------- ported from test_formats_fast

_ALL = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000]


def test_line_breaks_and_spaces_are_pythons():
    breaks = {c for c in _ALL if len(("a" + c + "b").splitlines()) == 2}
    spaces = {c for c in _ALL if re.match(r"\s", c)}
    assert breaks == set(A.LINE_BREAKS) | {"\n"}
    assert spaces == set(A.LINE_BREAKS + A.OTHER_SPACES) | {"\n", " "}


def _texts() -> list[str]:
    """Real-form texts: the fixtures and seeds, also flattened onto one line."""
    out = [p.read_text(encoding="utf-8") for p in sorted(FIXTURES.glob("*.txt"))]
    out += [p.read_text(encoding="utf-8") for p in sorted(SEEDS.glob("*.txt"))]
    return out + [" ".join(t.split()) for t in out]


def _random_texts(n: int = 3000) -> list[str]:
    rnd = random.Random(7)
    plain = [" ", " ", " ", "\n", "\n", "a", "Ab", "1", "2.5 ms", "+", "-", "---", "|"]
    plain += ["│", "┌", "─", ":", "=", ".", "x", "é"]
    odd = ["\t", "\r\n", "\xa0", "\x0b", "\x85"]
    out = []
    for k in range(n):
        alphabet = plain if k % 2 else plain + odd
        out.append("".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 60))))
    return out


def _samples() -> list[str]:
    return _texts() + _random_texts()


def test_ascii_table_plain_paths_match_the_per_line_checks():
    for t in _samples():
        lines = A._lines(t)
        plain = A.is_plain(t)
        assert plain == (not re.search(r"[^\S \n]", t))
        if not plain:
            continue
        assert A._lines(t, True) == lines
        gaps = [m.start() for m in A._PLAIN_GAP.finditer(t)]
        assert A._two_cell_lines(lines, gaps) == A._two_cell_lines(lines, None)
        assert A._has_plain_rule(t) == any(A._RULE.match(x) for _, x in lines)
        boxes = A._may_have_box(t, True)
        assert boxes or not A._box_tables(t, lines, True)
        assert A._box_lines(t, lines, True) == A._box_lines(t, lines, False)


def test_ascii_table_header_digit_shortcut():
    for t in _samples():
        for tok in A._TOKEN.findall(t):
            if not A._DIGIT.search(tok):
                assert A.read_cell(tok) is None
