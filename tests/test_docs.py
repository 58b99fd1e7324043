"""The README documents every command, every registered format and every column of
the schema, and its outputs are those of the demo, so that the docs cannot drift from
the code (as sqlite-utils does)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import duckdb
import pytest

from extract.db.schema import TABLES, create_statements
from extract.dev import readme
from extract.results.formats import PARSERS
from tests.outputs.report_pipeline import demo_once

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_make_target_is_documented():
    phony = re.search(r"^\.PHONY:(.*)$", (ROOT / "Makefile").read_text(), re.M).group(1).split()
    missing = [t for t in phony if t != "clean" and f"make {t}" not in README]
    assert not missing


def test_make_help_lists_every_target():
    """`make help` (a bare `make` too) names every target of the Makefile."""
    done = subprocess.run(["make", "--no-print-directory", "help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    listed = {line.split()[0] for line in done.stdout.splitlines() if line[:1].isalpha()}
    targets = set(re.findall(r"^([a-z][a-z-]*):", (ROOT / "Makefile").read_text(), re.M))
    assert targets - {"help"} <= listed, targets - listed
    bare = subprocess.run(["make", "--no-print-directory"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert bare.stdout == done.stdout


def test_every_format_is_documented():
    missing = [m.INFO.name for m in PARSERS if f"`{m.INFO.name}`" not in README]
    assert not missing


def test_every_column_is_documented():
    missing = [
        f"{table}.{col}"
        for table, cols in TABLES.items()
        for col, _, _ in cols
        if f"`{col}`" not in README
    ]
    assert not missing


def test_every_column_of_every_table_and_view_carries_its_meaning(tmp_path):
    """Any DuckDB client shows what a column holds (`duckdb_columns().comment`), views
    included (0 of their 175 columns had one): every column has a comment, and every
    meaning declared for a view names a column it has (none left over after a change)."""
    from extract.db.schema import VIEW_COLUMNS
    from extract.db.store import Store

    db = tmp_path / "asf.duckdb"
    Store(db).close()
    con = duckdb.connect(str(db), read_only=True)  # (stored in the file)
    try:
        rows = con.execute(
            "SELECT c.table_name, c.column_name, c.comment, v.view_name IS NOT NULL "
            "FROM duckdb_columns() c LEFT JOIN duckdb_views() v "
            "ON v.view_name = c.table_name AND NOT v.internal "
            "WHERE c.schema_name = 'main' AND NOT c.internal"
        ).fetchall()
    finally:
        con.close()
    views = {(t, c) for t, c, _, is_view in rows if is_view}
    assert len(views) >= 175 and {t for t, _ in views} == set(VIEW_COLUMNS)
    missing = sorted((t, c) for t, c, comment, _ in rows if not (comment or "").strip())
    assert missing == [], "add their meanings to extract/db/schema.py (VIEW_COLUMNS)"
    declared = {(v, c) for v, cols in VIEW_COLUMNS.items() for c in cols}
    assert sorted(declared - views) == [], "VIEW_COLUMNS names columns the views lack"
    assert not [m for t, c, m, _ in rows if m and m.startswith("@")]  # references followed


def test_the_crawl_command_is_documented():
    assert "scrapy crawl asf-lists" in README
    for arg in ("lists=", "since=", "until=", "ARCHIVE_URL", "DATA_DIR", "JOBDIR"):
        assert arg in README, arg


OUTPUT_BLOCKS = readme.blocks(README)


def test_the_readme_has_its_output_blocks():
    kinds = [b.kind for b in OUTPUT_BLOCKS]
    assert kinds.count("sql") >= 16  # the cookbook
    assert {"make demo", "make report", "make sql", "make export"} <= set(kinds)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    from extract.outputs.connect import open_database

    run = demo_once(tmp_path_factory)
    con = open_database(run.db)
    try:
        yield run, con
    finally:
        con.close()


@pytest.mark.e2e
@pytest.mark.parametrize("block", OUTPUT_BLOCKS, ids=lambda b: b.name)
def test_readme_output_is_the_demos(block, demo):
    """Each cookbook query, run on a fresh demo, prints what the README shows; so do
    `make report`, `make export`, the `make sql` session and the demo's counts. On a
    difference: the README's block and the demo's side by side; `make demo && make
    readme` rewrites the README from the demo."""
    run, con = demo
    actual = readme.render(block, run.data_dir, con)
    if actual != block.text:
        query = f"```sql\n{block.source}```\n" if block.kind == "sql" else ""
        pytest.fail(
            f"README.md line {block.line} ({block.name}) is not what the demo prints "
            f"(`make demo && make readme` rewrites it):\n{query}"
            + readme.side_by_side(block.text, actual),
            pytrace=False,
        )


def test_the_side_by_side_view_marks_the_lines_that_differ():
    shown = readme.side_by_side("a | 1\nb | 2\n", "a | 1\nb | 3\nc | 4\n")
    lines = shown.splitlines()
    assert lines[2].startswith("  a | 1") and lines[3].startswith("! b | 2")
    assert lines[3].endswith("| b | 3") and lines[4].startswith("! ") and lines[4].endswith("c | 4")


def test_readme_rewrites_a_stale_block(tmp_path):
    """`make readme` puts the demo's output in place of a stale block (here a cookbook
    query whose output is wrong), leaving the rest of the file as it was."""
    text = (
        "# x\n\n## SQL cookbook\n\n```sql\nSELECT 42 AS answer;\n```\n\n```text\nanswer\n"
        "------\n    41\n(1 row)\n```\n\nafter\n"
    )
    found = readme.blocks(text)
    assert [(b.kind, b.source) for b in found] == [("sql", "SELECT 42 AS answer;\n")]
    import duckdb

    db = tmp_path / "demo" / "asf.duckdb"
    db.parent.mkdir()
    con = duckdb.connect(str(db))
    for statement in create_statements():
        con.execute(statement)
    con.close()
    page = tmp_path / "README.md"
    page.write_text(text)
    said = []
    assert readme.check(page, db.parent, out=said.append) == 1
    assert "!     41" in said[0] and "|     42" in said[0]
    assert readme.check(page, db.parent, write=True, out=said.append) == 1
    assert page.read_text() == text.replace("    41", "    42")
    assert readme.check(page, db.parent, out=said.append) == 0


def test_the_format_list_and_table_are_made_from_the_registry():
    """README's list and docs/internals.md's table of formats are what
    `python -m extract.dev.docs --write` makes from each format's INFO."""
    from extract.dev.docs import stale

    assert stale() == [], "run: python -m extract.dev.docs --write"
