"""jira-table: JIRA wiki-markup tables (`||h||` / `|c|`), also flattened onto one line
and hard-wrapped by the notification mail."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import by_name, extract_results, run
from tests.conftest import seed
from tests.formats.damage import flatten
from tests.formats.golden import rows_of, text_of


def rows(text: str, fmt: str = "jira-table") -> list[tuple]:
    return [
        (t.format, m.label, m.variant, m.metric, m.value, m.unit)
        for t in extract_results(text)
        for m in t.measurements
        if t.format == fmt
    ]


def values(text: str) -> list[tuple]:
    """(label, metric, value, unit) of every row: what must survive mail transport."""
    return [(r["label"], r["metric"], r["value"], r["unit"]) for r in rows_of(text)]


def jira_wrap(text: str, width: int = 80) -> str:
    """What a JIRA notification does: hard-wrap long lines at word boundaries."""
    out = []
    for line in text.splitlines():
        while len(line) > width:
            cut = line.rfind(" ", 0, width)
            if cut <= 0:
                break
            out.append(line[:cut])
            line = line[cut + 1 :]
        out.append(line)
    return "\n".join(out)


TABLE = (
    "||Step||Before (s)||After (s)||\n"
    "|read input|12.5|9.0|\n"
    "|sort|40.1|22.7|\n"
    "|write output|8.2|8.0|\n"
)


def test_header_unit_applies_to_every_row():
    got = rows(TABLE)
    assert len(got) == 6
    assert {r[5] for r in got} == {"s"}
    assert ("jira-table", "sort", None, "After", 22.7, "s") in got


@pytest.mark.parametrize("case", ["jira-table--header-unit", "jira-table--markup-cells"])
def test_flattened_gives_the_same_values(case):
    text = text_of(case)
    assert values(flatten(text)) == values(text)


def test_wrapped_rows_are_joined_again():
    long = (
        "||Benchmark name of the partitioned writer case||Time before the change||"
        "Time after the change||\n"
        "|partitioned_writer_with_many_small_files_and_compression|1,204 ms|988 ms|\n"
        "|partitioned_writer_with_few_large_files|3,310 ms|3,005 ms|\n"
    )
    wrapped = jira_wrap(long)
    assert wrapped != long
    assert values(wrapped) == values(long)
    assert len(values(long)) == 4


def test_seed_004_jira_column_groups():
    found = [(t, m) for t in extract_results(seed("004")) for m in t.measurements]
    found = [(t, m) for t, m in found if t.format == "jira-table"]
    assert len(found) == 24  # 4 rows x 6 columns; the quoted previous version counts once
    first = found[0][1]
    assert (first.variant, first.metric, first.value, first.unit, first.written) == (
        "GCS / No changes",
        "CPU",
        1430.0,
        "ms",
        "1,430",
    )
    assert first.label == "TeraGen 1TB"
    seen = {(m.variant, m.metric, m.unit, m.value) for _, m in found}
    assert ("HDFS / LongAdder + Per-Thread", "Wall", "ms", 503.7) in seen
    assert ("HDFS / LongAdder", "Wall", "%", 0.146) in seen
    assert ("GCS / LongAdder", "CPU", "%", 0.057) in seen


def test_jira_table_flattened_onto_one_line():
    text = (
        "I compared both layouts. || ||Flat layout||Nested layout|| % Change || "
        "| Index Size | 4.10GB | 3.02GB | -26% | | Open Time | 81sec | 66sec | -19% | "
        "Looks good to me."
    )
    got = rows(text)
    assert ("jira-table", "Open Time", None, "Nested layout", 66.0, "sec") in got
    assert ("jira-table", "Index Size", None, "% Change", -26.0, "%") in got
    assert len(got) == 6


def test_jira_markup_in_cells():
    text = "||Test||Before||After||\n|{{scan}}|{color:red}1,450 ms{color}|*1,020 ms*|\n"
    assert rows(text) == [
        ("jira-table", "scan", None, "Before", 1450.0, "ms"),
        ("jira-table", "scan", None, "After", 1020.0, "ms"),
    ]


NOISE = {
    "config table": "||Property||Default||\n|dfs.replication|3|\n|io.file.buffer.size|4096|",
    "version table": (
        "Tested on:\n||Component||Version||Nodes||\n|Hadoop|3.3.6|12|\n|ZooKeeper|3.8.4|3|\n"
    ),
    "schedule": "||Release||Freeze||Votes||\n|3.5|2025-04-01|3|\n|3.6|2025-09-15|3|\n",
}


@pytest.mark.parametrize("name", sorted(NOISE))
def test_noise_gives_no_rows(name):
    assert rows_of(NOISE[name]) == []


ODD = [
    "",
    "|",
    "||",
    "||a||",
    "||a||b||\n|",
    "|| ||x|| ||\n||",
    "\x00\ufffd" * 100,
    "-- | -- " * 50,
]


def test_survives_odd_input():
    parse = by_name("jira-table").parse
    for text in ODD:
        assert isinstance(parse(text), list)


@pytest.mark.parametrize(
    "text",
    ["||" * 30000, " " * 60000 + "||a||b||\n|x|1 ms|", "|| a " * 10000, "|x|" * 20000],
    ids=["pipes", "spaces-before", "header-cells", "row-cells"],
)
def test_stays_linear_on_pathological_input(text):
    start = time.perf_counter()
    run("jira-table", text)
    assert time.perf_counter() - start < 5.0
