"""ascii-table: `+---+` boxes, box-drawing tables and whitespace-aligned columns; and
its fast paths for plain text against the simple per-line checks."""

from __future__ import annotations

import random
import re
import sys
import time

import pytest

from extract.results.formats import ascii_table as A
from extract.results.formats import by_name, extract_results, run
from tests.conftest import SEEDS
from tests.formats.golden import FIXTURES, rows_of, text_of


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
        "1 2 3 " * 30000,
        "x y z " + "row 1 2 3 " * 20000,
        "├─ a │ 1 │\n" * 20000,
        "| a | b |\n" * 20000,
        "+----+----+ | 1 | 2 | " * 10000,
        ("word " * 14 + "12 ms 13 ms\n") * 5000,
    ],
    ids=[
        "spaces-before",
        "box-bars",
        "dashes",
        "many-tables",
        "rules",
        "numbers",
        "flattened-rows",
        "tree",
        "bar-lines",
        "flattened-boxes",
        "wrapped",
    ],  # fmt: skip
)
def test_stays_linear_on_pathological_input(text):
    start = time.perf_counter()
    run("ascii-table", text)
    assert time.perf_counter() - start < 5.0


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
        boxes = A._may_have_box(t)
        assert boxes or not A._box_tables(t, lines, True)
        assert A._box_lines(t, lines, True) == A._box_lines(t, lines, False)


def test_ascii_table_header_digit_shortcut():
    for t in _samples():
        for tok in A._TOKEN.findall(t):
            if not A.DIGIT.search(tok):
                assert A.read_cell(tok) is None


# ---------------------------------------------------------------- every box style, trees, bars


def parsed(text: str) -> list[tuple]:
    """(label, metric, value, unit) of what ascii-table alone reads in `text`."""
    return [(m.label, m.metric, m.value, m.unit) for t in run(A, text) for m in t.measurements]


_TIMES = [("gzip", "time", 41.5, "ms"), ("zstd", "time", 12.25, "ms")]

# Each box style the table printers draw (rich's boxes, tabulate's grids and
# outlines, psql with and without a border, prettytable), around the same table.
BOX_STYLES = {
    "rich heavy head": (
        "┏━━━━━━┳━━━━━━━━━━┓\n┃ algo ┃ time     ┃\n┡━━━━━━╇━━━━━━━━━━┩\n"
        "│ gzip │ 41.5 ms  │\n│ zstd │ 12.25 ms │\n└──────┴──────────┘\n"
    ),
    "rich heavy edge": (
        "┏━━━━━━┯━━━━━━━━━━┓\n┃ algo │ time     ┃\n┠──────┼──────────┨\n"
        "┃ gzip │ 41.5 ms  ┃\n┃ zstd │ 12.25 ms ┃\n┗━━━━━━┷━━━━━━━━━━┛\n"
    ),
    "rich double edge": (
        "╔══════╤══════════╗\n║ algo │ time     ║\n╟──────┼──────────╢\n"
        "║ gzip │ 41.5 ms  ║\n║ zstd │ 12.25 ms ║\n╚══════╧══════════╝\n"
    ),
    "rich minimal": (
        "       ╷\n  algo │ time\n ╶─────┼──────────╴\n  gzip │ 41.5 ms\n"
        "  zstd │ 12.25 ms\n       ╵\n"
    ),
    "tabulate fancy_grid": (
        "╒════════╤═══════════╕\n│ algo   │   time_ms │\n╞════════╪═══════════╡\n"
        "│ gzip   │     41.5  │\n├────────┼───────────┤\n│ zstd   │     12.25 │\n"
        "╘════════╧═══════════╛\n"
    ),
    "tabulate mixed_grid": (
        "┍━━━━━━━━┯━━━━━━━━━━━┑\n│ algo   │   time_ms │\n┝━━━━━━━━┿━━━━━━━━━━━┥\n"
        "│ gzip   │     41.5  │\n├────────┼───────────┤\n│ zstd   │     12.25 │\n"
        "┕━━━━━━━━┷━━━━━━━━━━━┙\n"
    ),
    "tabulate double_outline": (
        "╔════════╦═══════════╗\n║ algo   ║   time_ms ║\n╠════════╬═══════════╣\n"
        "║ gzip   ║     41.5  ║\n║ zstd   ║     12.25 ║\n╚════════╩═══════════╝\n"
    ),
    "tabulate psql": (
        "+--------+-----------+\n| algo   |   time_ms |\n|--------+-----------|\n"
        "| gzip   |     41.5  |\n| zstd   |     12.25 |\n+--------+-----------+\n"
    ),
    "tabulate orgtbl": (
        "| algo   |   time_ms |\n|--------+-----------|\n| gzip   |     41.5  |\n"
        "| zstd   |     12.25 |\n"
    ),
    "psql aligned (border 1)": (
        " algo | time_ms \n------+---------\n gzip |   41.5\n zstd |  12.25\n(2 rows)\n"
    ),
    "psql unicode (border 1)": (
        " algo │ time_ms \n──────┼─────────\n gzip │   41.5\n zstd │  12.25\n(2 rows)\n"
    ),
    "prettytable double border": (
        "╔══════╦═════════╗\n║ algo ║ time_ms ║\n╠══════╬═════════╣\n"
        "║ gzip ║   41.5  ║\n║ zstd ║  12.25  ║\n╚══════╩═════════╝\n"
    ),
}


@pytest.mark.parametrize("style", sorted(BOX_STYLES))
def test_every_box_style_reads_as_the_same_table(style):
    assert parsed(BOX_STYLES[style]) == _TIMES


def test_a_header_wrapped_inside_its_box_is_one_header():
    """`time` over `(ms)` above the header rule: one column name with its unit."""
    text = (
        "┏━━━━━━┳━━━━━━━┓\n┃ algo ┃ time  ┃\n┃      ┃ (ms)  ┃\n┡━━━━━━╇━━━━━━━┩\n"
        "│ gzip │ 41.5  │\n│ zstd │ 12.25 │\n└──────┴───────┘\n"
    )
    assert parsed(text) == _TIMES


def test_a_cell_wrapped_onto_a_line_without_name_or_number_joins_its_row():
    text = (
        "+---------+---------+\n| case    | time    |\n+---------+---------+\n"
        "| small   | 3.5 ms  |\n|         | (warm)  |\n| large   | 11 ms   |\n"
        "+---------+---------+\n"
    )
    assert parsed(text) == [("small", "time", 3.5, "ms"), ("large", "time", 11.0, "ms")]


def test_prose_lines_with_a_bar_next_to_a_box_are_not_its_rows():
    text = "see a | b below\n" + BOX_STYLES["tabulate psql"]
    assert parsed(text) == _TIMES


DIVAN = """\
bench              fastest       │ slowest       │ median        │ mean          │ samples │ iters
├─ decode                        │               │               │               │         │
│  ├─ 1 KiB        2.5 µs        │ 9.1 µs        │ 2.75 µs       │ 3 µs          │ 100     │ 400
│  │               409.6 MB/s    │ 112.5 MB/s    │ 372.3 MB/s    │ 341.3 MB/s    │         │
│  ╰─ 1 MiB        1.25 ms       │ 2.5 ms        │ 1.5 ms        │ 1.75 ms       │ 100     │ 100
╰─ encode                        │               │               │               │         │
   ╰─ batch    \n4.5 ms        │ 6 ms          │ 5 ms          │ 5.25 ms       │ 100     │ 100
"""


def test_divan_tree_rows_are_labelled_by_their_path():
    got = parsed(DIVAN)
    assert ("decode/1 KiB", "fastest", 2.5, "µs") in got
    assert ("decode/1 KiB", "mean (throughput)", 341.3, "MB/s") in got
    assert ("decode/1 MiB", "median", 1.5, "ms") in got
    # a row the mail wrapped after its name keeps its values
    assert ("encode/batch", "slowest", 6.0, "ms") in got
    assert not any(label in ("decode", "encode") for label, *_ in got)


def test_a_tree_of_names_without_numbers_gives_nothing():
    text = "deps\n├─ core │ 1.2.0\n│  ╰─ util │ 0.3\n╰─ cli │ 2.0\n"
    assert parsed(text) == []


BARE = {
    "without outer bars": (
        "Results on my laptop, times in ms:\n\n"
        "case | before | after\nsmall | 41.5 | 30.25\nlarge | 12.25 | 11.5\n"
    ),
    "with outer bars": (
        "| case | before (ms) | after (ms) |\n| small | 41.5 | 30.25 |\n| large | 12.25 | 11.5 |\n"
    ),
}


@pytest.mark.parametrize("form", sorted(BARE))
def test_bar_tables_without_a_rule_line(form):
    got = [(label, metric, value) for label, metric, value, _ in parsed(BARE[form])]
    assert got == [
        ("small", "before", 41.5),
        ("small", "after", 30.25),
        ("large", "before", 12.25),
        ("large", "after", 11.5),
    ]


def test_bar_table_with_column_groups_wide_text_and_a_label_outside_the_bars():
    """CJK cells are twice as wide, so the bars do not line up: cells are read by
    the bars. `甲库 | 乙库` over four columns names two groups of two; the last row's
    label (`均值`, mean) stands left of the bars."""
    text = (
        "写入和查询耗时（单位 ms）\n\n"
        "        甲库                  | 乙库\n"
        "        写入 | 查询 | 写入 | 查询\n"
        "        2631    | 228     | 3076    | 684\n"
        "        2398     | 266   | 1942   | 516\n"
        "均值   2514.5   | 247   | 2509   | 600\n"
    )
    got = {(m.label, m.variant, m.metric, m.value) for t in run(A, text) for m in t.measurements}
    assert ("row 1", "甲库", "写入", 2631.0) in got
    assert ("row 2", "乙库", "查询", 516.0) in got
    assert ("均值", "甲库", "查询", 247.0) in got
    assert ("均值", "乙库", "写入", 2509.0) in got
    assert all(m.unit == "ms" for t in run(A, text) for m in t.measurements)


BARE_NOISE = {
    "shell pipelines": "cat access.log | grep 500 | wc -l\nps aux | grep java | head -3\n",
    "log lines": (
        "time | level | message\n12:00:01 | INFO | started 3 workers\n"
        "12:00:02 | WARN | queue at 80 percent\n"
    ),
    "git graph": "* 3f2a1b2 fix\n| * 9c8d7e6 wip 2\n| * 1a2b3c4 wip 1\n|/\n* 0a1b2c3 base\n",
    "listing": "name | replicas | port\nweb | 3 | 8080\ndb | 1 | 5432\n",
}


@pytest.mark.parametrize("name", sorted(BARE_NOISE))
def test_bar_lines_that_are_not_result_tables_give_nothing(name):
    assert parsed(BARE_NOISE[name]) == []


# ---------------------------------------------------------------- aligned tables run onto one line

FLAT = (
    "We ran the suite on two boxes. The numbers are average tps (transactions per "
    "second). Box A: read_only read_write insert 1 client memory 1810 950 402 disk 1744 "
    "921 388 8 clients memory 9120 4330 1502 disk 8870 4102 1433 That is all for now."
)


def test_an_aligned_table_flattened_onto_one_line_is_read_by_its_runs_of_values():
    """Rows of a label and K values under K names; the extra value of a row (`8`)
    begins the next label; a short label keeps the leading words of its group's
    first (`8 clients` + `disk`); the unit is the abbreviation the text defines."""
    got = parsed(FLAT)
    assert ("1 client memory", "read_only", 1810.0, "tps") in got
    assert ("1 client disk", "insert", 388.0, "tps") in got
    assert ("8 clients memory", "read_write", 4330.0, "tps") in got
    assert ("8 clients disk", "read_only", 8870.0, "tps") in got
    assert len(got) == 12


def test_a_flattened_aligned_table_reads_as_the_aligned_one():
    text = text_of("ascii-table--whitespace-aligned")
    flat = " ".join(text.split())
    assert parsed(flat) == parsed(text)


FLAT_NOISE = {
    "coverage diff": (
        "Merging #12 into main will increase coverage. ## main #12 +/- ## ======== "
        "+ Coverage 80.91% 89.16% +8.24% ======== Files 145 634 +489 Lines 11399 86525 "
        "+75126 ======== + Hits 9224 77146 + Misses 1939 9379"
    ),
    "prose with numbers": (
        "We moved from version 2 to 3 last year and the cluster has 12 16 or so nodes "
        "depending on the day, and ports 8080 8081 on each, see the wiki for the rest."
    ),
    "list of ports": (
        "Open these before you start the services on the new hosts please: web 8080 8443 "
        "api 9090 9443 admin 7070 7443 and nothing else on the public interface."
    ),
}


@pytest.mark.parametrize("name", sorted(FLAT_NOISE))
def test_runs_of_numbers_in_flattened_text_that_are_no_table(name):
    assert parsed(FLAT_NOISE[name]) == []


def test_header_units_written_into_column_names():
    from extract.results.formats._grid import header_unit

    assert header_unit("time_ms") == ("time", "ms")
    assert header_unit("p99-us") == ("p99", "us")
    assert header_unit("memory_gb") == ("memory_gb", None)  # a size, more often a setting
    assert header_unit("Score ms/op") == ("Score", "ms/op")
    assert header_unit("records_per_sec") == ("records_per_sec", None)
    assert header_unit("read/write") == ("read/write", None)


def test_units_said_in_the_sentence_above():
    from extract.results.formats._grid import said_unit

    assert said_unit("The numbers are average tps (transactions per second).") == "tps"
    assert said_unit("Import times, seconds per run:") == "seconds"
    assert said_unit("结果（单位 ms）") == "ms"
    assert said_unit("it took 12 ms per query") is None


def test_a_flattened_table_that_a_gateway_then_hard_wrapped():
    """The paragraph's lines are joined (offsets kept) and read as one line."""
    import textwrap

    wrapped = "\r\n".join(textwrap.wrap(FLAT, 72)) + "\r\n"
    assert parsed(wrapped) == parsed(FLAT)
    (table,) = run(A, wrapped)
    assert "1 client" in wrapped[table.span[0] : table.span[1]]


def test_a_time_word_far_above_a_flattened_table_is_no_unit():
    text = FLAT.replace("The numbers are average tps (transactions per second). ", "")
    text = "The run time was 60 seconds. " + text
    assert {unit for *_, unit in parsed(text)} == {None}


def test_a_count_abbreviation_defined_per_second_is_a_rate():
    from extract.results.formats._grid import said_unit

    assert said_unit("Figures are average ops (operations per second).") == "ops/s"
    assert said_unit("Figures are qps (queries per second).") == "qps"


@pytest.mark.parametrize(
    "style",
    ["rich heavy head", "tabulate fancy_grid", "tabulate psql", "prettytable double border"],
)
def test_a_box_flattened_onto_one_line_reads_as_the_box(style):
    """The rule's junctions give the number of columns; rows follow each other
    between the rules, each closed by its bars (`│ a │ b │ │ c │ d │`)."""
    flat = "Timings from the run: " + " ".join(BOX_STYLES[style].split()) + " and that is all."
    assert parsed(flat) == _TIMES


def test_a_flattened_box_of_one_column_is_no_table():
    flat = "Query: select count(*) +----------+ | count(*) | +----------+ | 20480 | +------+ ok"
    assert parsed(flat) == []


@pytest.mark.parametrize("rule", ["─", "━", "═", "-"])
def test_columns_under_a_rule_of_any_line_character(rule):
    """rich's SIMPLE, SIMPLE_HEAVY and HORIZONTALS boxes draw no bars, only a rule
    under the header: whitespace-aligned columns."""
    text = f"\n  algo    time\n {rule * 20}\n  gzip    41.5 ms\n  zstd    12.25 ms\n"
    assert parsed(text) == _TIMES


def test_columns_apart_by_single_blanks():
    """A table typed with single blanks: N names, rows of N cells (a number and its
    unit are one cell), the values in the same columns in every row."""
    text = (
        "Results after the patch:\n\ncase time_ms mem_mb\nsmall 12.5 100\n"
        "medium 20.25 ms 180\nlarge 40.1 350\n"
    )
    got = parsed(text)
    assert ("small", "time", 12.5, "ms") in got
    assert ("medium", "time", 20.25, "ms") in got
    assert ("large", "mem_mb", 350.0, None) in got


def test_a_column_named_by_its_unit_alone():
    text = "Load test:\n\nname threads ops/s p99(ms)\nput 1 41000 2.5\nget 8 90000 0.9\n"
    got = parsed(text)
    assert ("name=put, threads=1", "ops/s", 41000.0, "ops/s") in got
    assert ("name=get, threads=8", "p99", 0.9, "ms") in got


SPACED_NOISE = {
    "settings": "Settings:\n\nname value\nworkers 12\nqueue 65536\nretries 3\n",
    "code": "for i in range(3):\n    x = i + 1\n    y = x * 2\n",
    "versions": "component version\nbroker 3.6.1\nclient 3.5.0\n",
    "prose of equal length": "we tried it twice\nit took 3 tries\nand then 2 more\n",
}


@pytest.mark.parametrize("name", sorted(SPACED_NOISE))
def test_single_blank_lines_that_are_no_table(name):
    assert parsed(SPACED_NOISE[name]) == []


# Issue 27: a line of blanks then `|` cost the rule pattern quadratic time (its leading
# blanks were given back one by one, each time rescanning the line): 20 kB took 14 s.
@pytest.mark.parametrize("blanks", [" ", "\t", " \t"])
def test_a_long_line_of_blanks_before_a_bar_is_read_at_once(blanks):
    import time

    from extract.results.formats.ascii_table import parse

    text = "a  b\n" + blanks * (99_000 // len(blanks)) + "|\n| x | 1 ms |\n"
    started = time.perf_counter()
    parse(text)
    assert time.perf_counter() - started < 0.5


def test_a_list_with_no_header_takes_its_unit_from_the_title():
    text = (
        "Results (ops/sec, higher is better), 8 threads:\n\n"
        "  trunk    12,345\n"
        "  patched  14,210  (+15.1%)\n\n"
        "The gain comes from the decoder.\n"
    )
    got = [(r[1], r[3], r[4], r[5]) for r in rows(text)]
    assert got == [
        ("trunk", "ops/sec", 12345.0, "ops/sec"),
        ("patched", "ops/sec", 14210.0, "ops/sec"),
    ]


def test_a_list_with_no_header_of_values_and_what_they_went_to():
    text = "Query times (s) on SF10:\n\nq1   8.21  ->  6.95\nq3   12.40 -> 10.02\n"
    got = [(r[1], r[3], r[4], r[5]) for r in rows(text)]
    assert got == [
        ("q1", "before", 8.21, "s"),
        ("q1", "after", 6.95, "s"),
        ("q3", "before", 12.4, "s"),
        ("q3", "after", 10.02, "s"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        # (no unit stated: versions, counts)
        "The patch bumps these:\n\n  jackson   2.15.2\n  netty     4.1.100\n",
        "Rows per table after the load:\n\n  orders     120\n  lineitem   480\n",
        # (the title names settings)
        "New defaults. Timeouts (ms):\n\n  connect   5000\n  read      30000\n",
        # (one line is no list)
        "Throughput (ops/s):\n\n  trunk    12,345\n\nthat is all.\n",
    ],
    ids=["versions", "counts", "settings", "one-line"],
)
def test_lists_with_no_header_that_are_no_results(text):
    assert rows(text) == []
