"""What holds for every registered format: fixtures named after it, and the shared
properties (never raises, silent on text with no results). The recipe a format
follows is checked in test_recipe.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from extract.results.formats import PARSERS, run
from tests.conftest import seed, time_limit
from tests.formats.golden import FIXTURES, cases

HERE = Path(__file__).resolve().parent
NAMES = sorted(mod.INFO.name for mod in PARSERS)


def test_every_fixture_is_named_after_a_registered_format():
    prefixes = {c.split("--", 1)[0] for c in cases()}
    assert prefixes <= set(NAMES), sorted(prefixes - set(NAMES))


def test_every_fixture_has_its_expected_rows():
    lonely = [c for c in cases() if not (FIXTURES / f"{c}.expect.json").is_file()]
    assert not lonely


# Degenerate text: no exception, and no runaway regex backtracking on long runs of
# one character (the registry blanks claimed spans with spaces, and mail has 10 MB
# lines). The bound is generous: it catches quadratic blow-ups, not speed.
DEGENERATE = {
    "spaces": " " * 60000,
    "numbers": "1 " * 30000,
    "dashes": "-" * 60000,
    "pipes": "| " * 30000,
    "digits": "1234567890" * 6000,
    "dots": "1." * 30000,
    "padded-lines": ("x" + " " * 200 + "\n") * 300,
    "binary": "".join(chr(c) for c in range(1, 2000)) * 5,
    "hashes": "#" * 60000,
    # one long sentence of numbers (prose once split it whole for every number)
    "rates": "1.5 ops/s " * 10000,
    "percents": "1% " * 30000,
    "newlines": "\n" * 60000,
    # blanks then anything between two result rows (go-bench once took 2^n steps here)
    "gap-between-rows": "BenchmarkA 10 5 ns/op" + " " * 60 + "x\nBenchmarkB 10 6 ns/op\n",
    "key-values": "a: 1 " * 20000,
    "markdown-rules": "-- | " * 12000,
}
# At the pipeline's input cap, the shapes that were once quadratic in a reader: a line
# of Markdown rules (35 s at 20 kB), header/rule pairs, rows of every table markup.
CAP = 100_000


def _up_to_cap(piece: str) -> str:
    return (piece * (CAP // len(piece) + 1))[:CAP]


DEGENERATE |= {
    "markdown-rule-line": _up_to_cap("-- | -- "),
    "markdown-header-rule-pairs": _up_to_cap("a | b\n-- | --\n"),
    "markdown-bar-rules": _up_to_cap("|--|--|"),
    "markdown-table-rows": "| a | b |\n|---|---|\n" + _up_to_cap("| x | 1 ms |\n"),
    "jira-rows": _up_to_cap("||a||b||\n|x|1|\n"),
    "box-rows": _up_to_cap("+----+----+\n| a  | 1  |\n"),
    "html-cells": _up_to_cap("<table><tr><td>1</td></tr>"),
    "json-open": _up_to_cap('{"a_ms": 1, '),
    "plus-minus": _up_to_cap("1 ± 2 "),
    "label-value-unit-runs": _up_to_cap("a 1 s b c 2 s d e f 3 s "),
    "timing-records-in-a-line": _up_to_cap("step one: 1 ms "),
    # a compiler's location, then a caret line of blanks (compiler-diagnostics once read
    # each blank two ways), and its gutter lines
    "caret-then-blanks": "scan.c:4:49: error: x\n    ^" + " " * 80000 + "y\n",
    "gutter-lines": "scan.c:4:49: error: x\n" + _up_to_cap("    4 |" + " " * 300 + "|\n"),
    # a test target's path as one long token (bazel-log once backtracked over it at
    # every `//`), and runs of a session's output marks
    "long-target-path": "ERROR: Build did NOT complete successfully\n//" + _up_to_cap("a//"),
    "reprex-marks": _up_to_cap("#> 1\n"),
}


@pytest.mark.parametrize("parser", PARSERS, ids=lambda mod: mod.INFO.name)
def test_degenerate_text(parser):
    for name, text in DEGENERATE.items():
        with time_limit(10, f"{parser.INFO.name} on {name!r} ({len(text)} chars)"):
            run(parser, text)


# Text with numbers in it and no result: every parser stays silent.
NOT_RESULTS = {
    "release vote": "+1 (binding)\n\nChecked sha512 of apache-foo-2.3.1-src.tar.gz, built on "
    "JDK 17 with 8 threads, ran 1204 tests.\n",
    "schedule": "The 2.3.1 release is planned for 2024-05-01; the branch cut is 2024-04-20.\n",
    "stack trace": "java.io.IOException: closed\n\tat org.foo.Bar.run(Bar.java:120)\n"
    "\tat org.foo.Main.main(Main.java:42)\n",
    "config": "```\nnum.partitions=8\nreplica.lag.time.max.ms=30000\nport=9092\n```\n",
    "versions": "| module | version |\n|---|---|\n| core | 3.4.1 |\n| client | 3.4.0 |\n",
}


@pytest.mark.parametrize("name", sorted(NOT_RESULTS))
def test_no_measurements_where_nothing_is_measured(name):
    from extract.results.formats import extract_results

    found = [(t.format, m.metric, m.value) for t in extract_results(NOT_RESULTS[name])
             for m in t.measurements]  # fmt: skip
    assert found == [], found


@pytest.mark.parametrize("prefix", ["000", "001", "002", "003", "004"])
def test_no_parser_raises_on_the_seeds(prefix):
    from extract.results.formats import extract_results

    extract_results(seed(prefix), strict=True)


@pytest.mark.parametrize("name", sorted(DEGENERATE))
def test_the_cleaner_and_the_classifier_are_linear_too(name):
    from extract.mail.clean import clean_body
    from extract.results.classify import classify

    with time_limit(10, f"clean_body + classify on {name!r}"):
        classify(clean_body(DEGENERATE[name], "github"), [])


@pytest.mark.parametrize("name", NAMES)
def test_fixtures_cut_anywhere_parse_with_spans_inside_the_piece(name):
    """A fixture cut at any of nine points (an archive or a mail truncated mid-output)
    parses without raising, every table's span inside the piece it was read from."""
    from tests.formats.golden import text_of

    parse = next(m for m in PARSERS if m.INFO.name == name).parse
    for case in cases(name):
        text = text_of(case)
        for cut in range(0, len(text), max(1, len(text) // 9)):
            for piece in (text[:cut], text[cut:]):
                for table in parse(piece):
                    assert 0 <= table.span[0] <= table.span[1] <= len(piece), (case, cut)


# What the user's seeds hold, by format (their golden rows are checked in test_seeds.py):
# no other format may find anything in them.
SEED_FORMATS = {
    "000": {"jmh", "markdown-table", "prose"},
    "001": {"bash-time", "prose"},
    "002": {"hbase-pe"},
    "003": {"gnu-time"},
    "004": {"jira-table"},
}


@pytest.mark.parametrize("prefix", sorted(SEED_FORMATS))
def test_no_format_finds_rows_in_a_seed_that_holds_none_of_its_output(prefix):
    from extract.results.formats import extract_results

    found = {t.format for t in extract_results(seed(prefix)) if t.measurements}
    assert found <= SEED_FORMATS[prefix], found - SEED_FORMATS[prefix]


# The readers of sentences and records may find numbers in mail that reports none (the
# classifier weighs them); every other format stays silent on the labelled negatives.
MAY_READ_NEGATIVES = {"prose", "records"}


@pytest.mark.shared
@pytest.mark.parametrize("corpus", ["dev", "dev2"])
def test_formats_are_silent_on_the_labelled_negatives(corpus):
    import json

    from extract.results.formats import extract_results
    from tests.conftest import shared_path

    root = shared_path("corpus", corpus)
    loud = []
    for line in (root / "labels.jsonl").read_text(encoding="utf-8").splitlines():
        label = json.loads(line)
        if label["is_benchmark"]:
            continue
        text = (root / f"{label['id']}.txt").read_text(encoding="utf-8").split("\n\n", 1)[-1]
        loud += [
            (label["id"], t.format)
            for t in extract_results(text)
            if t.measurements and t.format not in MAY_READ_NEGATIVES
        ]
    assert not loud
