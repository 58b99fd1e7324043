"""hyperfine: terminal blocks, summary, and the markdown/CSV/JSON exports, from
running hyperfine 1.15 here (tests/fixtures/tools/hyperfine.sh); the forms newer
hyperfine prints (unquoted commands, `As fast`, `--sort command`) are written from
its source (src/benchmark/scheduler.rs)."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import extract_results, run
from tests.formats.damage import (
    MAIL_DAMAGE,
    VALUES,
    check_damaged,
    check_shared_sample,
    crlf,
    gitbox,
    own_cases,
    rows,
    wrap72,
)
from tests.formats.golden import expected, text_of

# flattened, the export's heading line runs into the JSON/CSV; the values stay
FLAT_KEYS = {"flattened": ("format", "label", "metric", "value", "unit")}


@pytest.mark.parametrize("damage", MAIL_DAMAGE)
@pytest.mark.parametrize("case", own_cases("hyperfine"))
def test_fixture_survives_mail_damage(case, damage):
    check_damaged(case, damage, FLAT_KEYS.get(damage))


def _by(case: str) -> dict[tuple[str, str], tuple[float, str]]:
    return {(r[1], r[3]): (r[4], r[5]) for r in rows(text_of(case))}


SCALE = {"s": 1.0, "ms": 1e-3, "µs": 1e-6}


@pytest.mark.parametrize(
    "console, export",
    [
        ("hyperfine--two-commands", "hyperfine--two-commands-json"),
        ("hyperfine--two-commands-markdown", "hyperfine--two-commands-csv"),
        ("hyperfine--two-commands-asciidoc", "hyperfine--two-commands-csv"),
        ("hyperfine--two-commands-orgmode", "hyperfine--two-commands-json"),
        ("hyperfine--parameter-scan", "hyperfine--parameter-scan-json"),
        ("hyperfine--parameter-scan-markdown", "hyperfine--parameter-scan-csv"),
    ],
)
def test_console_agrees_with_the_export_of_the_same_run(console, export):
    """The printed numbers are the export's seconds, rounded to the digit shown."""
    shown, exact = _by(console), _by(export)
    compared = 0
    for (cmd, metric), (value, unit) in shown.items():
        if unit not in SCALE or (cmd, metric) not in exact:
            continue
        truth, truth_unit = exact[(cmd, metric)]
        assert truth_unit == "s"
        assert abs(value * SCALE[unit] - truth) <= 0.05 * SCALE[unit] + 1e-12, (cmd, metric)
        compared += 1
    assert compared >= 8
    runs = {k: v for k, v in shown.items() if k[1] == "runs"}
    assert all(exact.get(k, v) == v for k, v in runs.items())


def test_summary_ratio_and_its_stddev():
    got = _by("hyperfine--two-commands")
    ratio, unit = got[("sleep 0.02", "times faster than sleep 0.05")]
    assert unit == "x" and ratio > 1
    assert got[("sleep 0.02", "times faster than sleep 0.05 stddev")][1] == "x"


def test_one_run_prints_abs_and_no_range():
    got = _by("hyperfine--single-run")
    assert set(got) == {("sleep 0.01", m) for m in ("mean", "user", "system")}
    assert got[("sleep 0.01", "mean")][1] == "ms"


def test_ansi_debris_is_read_and_spans_cover_it():
    text = text_of("hyperfine--ansi-debris")
    tables = run("hyperfine", text)
    assert tables[0].source(text).startswith("[1mBenchmark [0m[1m1[0m: sleep 0.01")
    stripped = text.replace("[0m", "").replace("[1;32m", "").replace("[1m", "")
    assert "[User:" in stripped


# --- forms of newer hyperfine, written from its source ---------------------------

UNQUOTED = """\
Benchmark 1: fd -e rs
  Time (mean ± σ):      21.4 ms ±   1.1 ms    [User: 30.2 ms, System: 25.9 ms]
  Range (min … max):    19.8 ms …  24.6 ms    131 runs

Benchmark 2: find . -name '*.rs'
  Time (mean ± σ):      88.0 ms ±   2.3 ms    [User: 35.1 ms, System: 52.4 ms]
  Range (min … max):    84.9 ms …  93.0 ms    33 runs

Summary
  fd -e rs ran
    4.11 ± 0.23 times faster than find . -name '*.rs'
"""


def test_summary_without_quotes():
    found = {(r[1], r[3]): r[4] for r in rows(UNQUOTED)}
    assert found[("fd -e rs", "times faster than find . -name '*.rs'")] == 4.11
    flat = {(r[1], r[3]): r[4] for r in rows(" ".join(UNQUOTED.split()) + " Nice speedup!")}
    assert flat[("fd -e rs", "times faster than find . -name '*.rs'")] == 4.11
    assert flat[("find . -name '*.rs'", "runs")] == 33


def test_reference_slower_and_as_fast():
    text = (
        "Summary\n  'old' ran\n    1.20 ± 0.05 times slower than 'new'\n"
        "    As fast (1.00 ± 0.02) as 'same'\n"
    )
    found = {r[3]: r[4] for r in rows(text)}
    assert found == {
        "times slower than new": 1.2,
        "times slower than new stddev": 0.05,
        "as fast as same": 1.0,
        "as fast as same stddev": 0.02,
    }


def test_relative_speed_comparison_of_sort_command():
    text = (
        "Relative speed comparison\n"
        "        1.00          gzip -1 data.bin\n"
        "        3.48 ±  0.12  gzip -9 data.bin\n"
    )
    found = [(r[1], r[3], r[4]) for r in rows(text)]
    assert found == [
        ("gzip -1 data.bin", "relative", 1.0),
        ("gzip -9 data.bin", "relative", 3.48),
        ("gzip -9 data.bin", "relative stddev", 0.12),
    ]


def test_heading_names_the_run():
    text = "Before the patch:\n\n" + text_of("hyperfine--two-commands")
    assert {r[2] for r in rows(text)} == {"Before the patch"}


def test_export_json_needs_hyperfine_fields():
    assert rows('{"results": [{"name": "a", "value": 3}]}') == []
    assert rows('{"results": [{"command": "a", "mean": 1.5}]}') == [
        ("hyperfine", "a", None, "mean", 1.5, "s")
    ]


def test_hyperfine_single_run_in_ms():
    text = (
        "Benchmark 1: sleep 0.3\n"
        "  Time (abs ≡):        302.1 ms               [User: 0.6 ms, System: 1.2 ms]\n"
    )
    assert ("hyperfine", "sleep 0.3", None, "mean", 302.1, "ms") in rows(text)


ODD = [
    "",
    "|",
    "||",
    "| a |\n|---|",
    "Time (mean ± σ):",
    "Benchmark 1:\n  Time (abs ≡):",
    "Summary\n  'a' ran\n",
    '{"results": [',
    '{"results": [{"command": 1}]}',
    "command,mean,stddev,median,user,system,min,max\nx,1,2",
    "-- | -- " * 50,
    "\x00\ufffd" * 100,
    "[0m" * 1000,
]


def test_survives_odd_input():
    for text in ODD:
        assert isinstance(run("hyperfine", text), list)


@pytest.mark.parametrize(
    "text",
    [
        " " * 60000 + "| Command | Mean [s] |",
        "Benchmark 1: " * 6000,
        "Time (mean ± σ): " * 5000,
        "[1;32m" * 20000,
        '{"results": [' * 5000,
        "command,mean,stddev,median,user,system,min,max\n" + "a,1,2,3\n" * 5000,
    ],
)
def test_linear_on_pathological_input(text):
    start = time.perf_counter()
    run("hyperfine", text)
    assert time.perf_counter() - start < 2.0


def test_values_survive_wrapping_crlf_and_indent_together():
    case = "hyperfine--two-commands"
    text = gitbox(crlf(wrap72(text_of(case))))
    want = {tuple(r[k] for k in VALUES) for r in expected(case)["rows"]}
    assert {(r[0], r[3], r[4], r[5]) for r in rows(text)} == want


@pytest.mark.shared
@pytest.mark.parametrize(
    "directory, name",
    [
        ("hyperfine", "readme-export-markdown"),
        ("hyperfine", "uv-pr819-terminal"),
    ],
)
def test_shared_sample(directory, name):
    """A real third-party sample (../shared/formats): its listed rows are found."""
    check_shared_sample(directory, name)


def test_numbers_point_into_the_text_as_written_around_colour_codes():
    # the rows are read from the text with its colour codes removed: each number's span
    # is moved back onto the text as written
    text = (
        "\x1b[1;32mhyperfine\x1b[0m --export-csv, then \x1b[1mRelative\x1b[0m:\n"
        "command,mean,stddev,median,user,system,min,max\n"
        "sleep 0.1,0.102,0.001,0.102,0.001,0.001,0.101,0.104\n"
        "\x1b[1mRelative speed comparison\x1b[0m\n"
        "        1.00          sleep 0.1\n"
        "        2.50 ±  0.05  sleep 0.25\n"
    )
    found = [m for t in extract_results(text, strict=True) for m in t.measurements]
    assert {m.metric for m in found} >= {"mean", "max", "relative", "relative stddev"}
    assert all(text[m.span[0] : m.span[1]] == m.written for m in found)
