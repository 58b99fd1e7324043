"""`make demo` end to end on the bundled sample, offline: the summary it prints matches the
database, its suggested queries run, every kind of mail the sample holds yields benchmark
messages, and a second run reuses what is there."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys

import duckdb
import pytest

from tests import make_sample
from tests.outputs.report_pipeline import REPO, demo_once, run_demo

pytestmark = [pytest.mark.slow, pytest.mark.e2e]


def _printed(stdout: str) -> dict[str, int]:
    return {
        m.group(1): int(m.group(2)) for m in re.finditer(r"^  ([a-z/ ]+?)\s{2,}(\d+)", stdout, re.M)
    }


def _counts(db) -> dict[str, int]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        row = con.execute(
            """SELECT (SELECT count(DISTINCT list) FROM messages),
                      (SELECT count(*) FROM messages),
                      (SELECT count(*) FROM messages WHERE is_benchmark),
                      (SELECT count(*) FROM result_tables JOIN messages USING (msg_key)
                       WHERE is_benchmark),
                      (SELECT count(*) FROM measurements JOIN messages USING (msg_key)
                       WHERE is_benchmark),
                      (SELECT count(*) FROM archives)"""
        ).fetchone()
    finally:
        con.close()
    names = ("lists searched", "messages", "benchmark messages", "result tables",
             "measurements", "monthly archives")  # fmt: skip
    return dict(zip(names, row, strict=True))


def _state(data_dir):
    """Raw archives (path → bytes, mtime) and extraction times, to see what a rerun redid."""
    raw = {
        p.relative_to(data_dir): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted((data_dir / "raw").rglob("*.mbox.gz"))
    }
    con = duckdb.connect(str(data_dir / "asf.duckdb"), read_only=True)
    try:
        extracted = con.execute("SELECT path, extracted_at FROM archives ORDER BY 1").fetchall()
    finally:
        con.close()
    return raw, extracted


def test_demo_prints_a_summary_that_matches_the_database(tmp_path_factory):
    run = demo_once(tmp_path_factory)
    assert run.seconds < 120, f"the demo took {run.seconds:.0f}s"
    printed = _printed(run.stdout)
    counts = _counts(run.db)
    for name, value in counts.items():
        assert printed[name] == value, name
    assert counts["lists searched"] > 1 and counts["benchmark messages"] > 0
    assert counts["measurements"] > 0 and counts["monthly archives"] > 0
    assert run.index.resolve().as_uri() in run.stdout
    assert run.index.is_file() and (run.data_dir / "raw").is_dir()
    # the three queries it suggests run as printed
    commands = [
        line.strip() for line in run.stdout.splitlines() if "-m extract.outputs.sql" in line
    ]
    assert len(commands) == 3
    for command in commands:
        argv = shlex.split(command)
        assert argv[:3] == [".venv/bin/python", "-m", "extract.outputs.sql"]
        done = subprocess.run(
            [sys.executable, *argv[1:]], cwd=REPO, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        assert re.search(r"\((\d+) rows?\)", done.stdout)


def test_demo_finds_benchmarks_in_every_kind_of_mail_and_many_formats(tmp_path_factory):
    """The sample's demo messages come as JIRA, GitHub, commit and list mail: the demo
    finds benchmark messages of each kind, and tables of many formats."""
    run = demo_once(tmp_path_factory)
    declared_kinds, declared_formats = set(), set()
    for path in sorted(make_sample.SOURCES.glob("*.txt")):
        fields, _ = make_sample.split_source(path.read_bytes())
        if fields["Expect"] == "benchmark":
            declared_kinds.add(fields["Kind"])
            declared_formats.update(make_sample.expected_formats(fields))
    con = duckdb.connect(str(run.db), read_only=True)
    try:
        kinds = {
            k
            for (k,) in con.execute(
                "SELECT DISTINCT kind FROM messages WHERE is_benchmark"
            ).fetchall()
        }
        formats = {
            f for (f,) in con.execute("SELECT DISTINCT format FROM result_tables").fetchall()
        }
    finally:
        con.close()
    assert declared_kinds == set(make_sample.KINDS) and declared_kinds <= kinds
    assert len(formats & declared_formats) >= 0.9 * len(declared_formats), formats


def test_demo_second_run_reuses_what_is_there(tmp_path_factory):
    first = demo_once(tmp_path_factory)
    before = _state(first.data_dir)
    assert before[0], "the crawl wrote raw archives"
    again = run_demo(first.data_dir)
    assert again.returncode == 0, again.stderr
    assert _state(first.data_dir) == before  # nothing fetched or extracted again
    n = len(before[0])
    assert f"crawl: {n} monthly archives fetched, 0 already there" in first.stdout
    assert f"crawl: 0 monthly archives fetched, {n} already there" in again.stdout
    assert f"extract: {n} archives extracted, 0 already up to date" in first.stdout
    assert f"extract: 0 archives extracted, {n} already up to date" in again.stdout
    assert _printed(again.stdout) == _printed(first.stdout)
    assert again.seconds < 120
