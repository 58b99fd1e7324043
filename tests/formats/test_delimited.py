"""delimited: CSV / TSV / semicolon tables pasted from spreadsheets and tool exports."""

from __future__ import annotations

import csv
import random
import time

import pytest

from extract.results.formats import by_name, extract_results
from extract.results.formats import delimited as D
from tests.conftest import SEEDS
from tests.formats.golden import FIXTURES, cases, rows_of, text_of


def rows(text: str, fmt: str = "delimited") -> list[tuple]:
    """(format, label, metric, value, unit) of the rows of `fmt`."""
    return [
        (t.format, m.label, m.metric, m.value, m.unit)
        for t in extract_results(text)
        for m in t.measurements
        if t.format == fmt
    ]


def test_unit_from_the_header_applies_to_every_row():
    got = rows(text_of("delimited--tsv-brackets"))
    assert {(r[2], r[4]) for r in got} == {
        ("old engine [s]", "s"),
        ("new engine [s]", "s"),
        ("speedup [x]", "x"),
    }


def test_crlf_line_ends_give_the_same_rows():
    text = text_of("delimited--csv-header-units")
    assert rows_of(text.replace("\n", "\r\n")) == rows_of(text)


@pytest.mark.parametrize(
    "case",
    [
        c
        for c in cases("delimited")
        if rows_of(text_of(c)) and "\t" not in text_of(c) and '"' not in text_of(c)
    ],
)
def test_flattened_gives_the_same_values(case):
    """A mail flattened onto one line keeps its records apart by blanks only: the
    header's names and the data's numbers part them again. (Not TSV, whose tabs
    flattening turns into blanks, nor quoted cells, whose commas it cannot tell.)"""

    assert rows(" ".join(text_of(case).split())) == rows(text_of(case))


TSV_WITH_UNITS = "\n".join(
    [
        "Per query (copied from the sheet):",
        "query\tbaseline (ms)\tpatched (ms)\tspeedup [x]",
        "q11\t2,468.0\t2,010.5\t1.23",
        "q12\t95\t80\t1.19",
        "",
    ]
)


def test_tsv_with_units_in_the_header():
    got = rows(TSV_WITH_UNITS)
    assert ("delimited", "q11", "baseline (ms)", 2468.0, "ms") in got
    assert ("delimited", "q12", "speedup [x]", 1.19, "x") in got
    assert len(got) == 6
    table = next(t for t in extract_results(TSV_WITH_UNITS) if t.format == "delimited")
    assert table.variant == "Per query (copied from the sheet)"


def test_quoted_csv_and_numeric_first_column():
    text = 'threads,"throughput, ops/s",p99 (ms)\n2,"2,300",2.5\n16,"15,900",6.8\n'
    got = rows(text)
    # (the old test had unit None here: `throughput, ops/s` names its unit after a comma)
    assert ("delimited", "threads 2", "throughput, ops/s", 2300.0, "ops/s") in got
    assert ("delimited", "threads 16", "throughput, ops/s", 15900.0, "ops/s") in got
    assert ("delimited", "threads 16", "p99 (ms)", 6.8, "ms") in got
    assert len(got) == 4  # the thread counts are settings, not measurements


@pytest.mark.parametrize(
    "text",
    [
        # dates, times and versions are not measurements
        "date,time,version\n2025-02-03,11:30,4.5.6\n",
        # a CSV whose rows hold words
        "name,role,team\nerin,committer,kafka\nfrank,pmc,flink\n",
        # two columns only: a key/value listing, not a table of results
        "key,value\nretries,5\n",
        # function calls and code are not headers
        "bar(x, y, z)\n4, 5, 6\n",
        # a header without data
        "Min, Max, Mean\n\nsee below\n",
        # an inventory: no unit, no measure
        "host,cores,disks\nnode-a,16,4\nnode-b,32,8\n",
    ],
    ids=["dates", "words", "two-columns", "code", "no-data", "inventory"],
)
def test_delimited_stays_silent(text):
    assert rows_of(text) == []


ODD = [
    "",
    "\x00\ufffd" * 50,
    "a,b,c\n" + "1,2,3\n" * 3000,
    ",,,\n" * 3000,
    'a,b,c\n"1,2\n',
    "a;b;c\r\n1;2;3\r\n",
    "x\t" * 5000,
]


def test_never_raises_and_stays_fast():
    parse = by_name("delimited").parse
    start = time.perf_counter()
    for text in ODD:
        assert isinstance(parse(text), list)
    assert time.perf_counter() - start < 2.0


def _texts() -> list[str]:
    """Real-form texts: the fixtures and seeds, also flattened onto one line."""
    out = [p.read_text(encoding="utf-8") for p in sorted(FIXTURES.glob("*.txt"))]
    out += [p.read_text(encoding="utf-8") for p in sorted(SEEDS.glob("*.txt"))]
    return out + [" ".join(t.split()) for t in out]


def _delimited_line_by_line(text: str):
    """delimited's parse as it was: every line with a delimiter tried as a header."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    tables, floor, i = [], 0, 0
    while i < len(lines) - 1:
        line = lines[i]
        if "," not in line and "\t" not in line and ";" not in line:
            i += 1
            continue
        table = D._table_at(text, lines, offsets, i, floor)
        if table is None:
            i += 1
            continue
        tables.append(table)
        floor = table.span[1]
        i = 1 + next(k for k in range(i, len(lines)) if offsets[k + 1] - 1 >= floor)
    return tables


def _delimited_samples() -> list[str]:
    rnd = random.Random(5)
    names = ["Name", "Time (ms)", "a b", "threads", "x", '"q,1"', "", "1"]
    values = ["1", "2.5", "12", "x", "topology-0", "2024-01-02", "", '"3,5"', "1.2.3"]
    out = _texts()
    for _ in range(1500):
        width, d = rnd.randint(2, 5), rnd.choice([",", ";", "\t", ", "])
        lines = [d.join(rnd.choice(names[:4]) for _ in range(width))]
        for _ in range(rnd.randint(0, 5)):
            n = width if rnd.random() < 0.8 else rnd.randint(1, 6)
            pool = values[:3] if rnd.random() < 0.6 else values
            lines.append(d.join(rnd.choice(pool) for _ in range(n)))
            if rnd.random() < 0.2:
                lines.append(rnd.choice(["", "text, more text", d.join(names)]))
        out.append(rnd.choice(["\n", "\n", "\r\n"]).join(lines))
    return out


def test_delimited_reads_the_tables_line_by_line_reading_does():
    def dump(tables):
        return [
            (t.span, t.columns, t.rows, t.variant, [repr(m) for m in t.measurements])
            for t in tables
        ]

    def line_by_line(t):
        try:
            return _delimited_line_by_line(t)
        except Exception:
            return []

    found = 0
    for t in _delimited_samples():
        expected = dump(line_by_line(t))
        found += bool(expected)
        try:
            by_lines = D._tables(t)  # (parse adds the tables run onto one line)
        except csv.Error:
            by_lines = []
        assert dump(by_lines) == expected, t[:200]
    assert found > 100


CSV = (
    "Results with the patch:\n\nbenchmark,before_ms,after_ms\nreadSmall,12.5,10.25\n"
    "readLarge,140.5,120.75\nwriteSmall,20.5,18.25\n"
)


def _values(text: str) -> list[tuple]:
    return [
        (m.label, m.metric, m.value, m.unit)
        for t in extract_results(text)
        if t.format == "delimited"
        for m in t.measurements
    ]


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_a_table_flattened_onto_one_line_reads_as_the_table(delimiter):
    """Records apart by a blank only: the piece where one ends holds its last cell
    and the next one's first (`after_ms readSmall`, `10.25 readLarge`)."""
    text = CSV.replace(",", delimiter)
    flat = " ".join(text.replace("\t", "\x00").split()).replace("\x00", "\t")
    assert _values(flat) == _values(text)
    assert ("readLarge", "after_ms", 120.75, "ms") in _values(flat)


def test_commas_in_a_flattened_sentence_are_no_table():
    text = (
        "We tried it on Linux, macOS, Windows, FreeBSD, and two more, but, as said, "
        "the numbers, 12, 15, 18, were noisy, so, for now, no table."
    )
    assert _values(text) == []
