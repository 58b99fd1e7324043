"""The README documents every command, every registered format and every column of
the schema, so that the docs cannot drift from the code (as sqlite-utils does)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from extract.db.schema import TABLES
from extract.results.formats import PARSERS

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


def test_the_crawl_command_is_documented():
    assert "scrapy crawl asf-lists" in README
    for arg in ("lists=", "since=", "until=", "ARCHIVE_URL", "DATA_DIR", "JOBDIR"):
        assert arg in README, arg
