"""Any current DuckDB client opens the database (issue 28): the sample's database, as
the extractor writes it, opened read-only by the newest DuckDB 1.x that installs from
the package registry (the Python package and `duckdb-cli`) and by the oldest the
README names (1.2), gives the same rows, views, virtual `text` column and column
comments as the project's own DuckDB.

The clients are installed into a throwaway venv under the test's temp dir (pip, from
the package registry; nothing else is needed). Where they cannot be installed (no
network, no registry) the test is skipped with pip's reason: not run, never passed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import venv
from pathlib import Path

import duckdb
import pytest

from extract.db.findings import VIEW_NAMES as FINDINGS_VIEWS
from extract.db.schema import TABLES, VIEW_COLUMNS
from extract.db.store import STORAGE_VERSION
from extract.db.views import VIEW_NAMES
from extract.runner import run
from tests.archives import sample_as_archives

pytestmark = pytest.mark.slow

# What a client is asked: every table's and view's row count, a few rows of each view,
# the virtual text column, the stored comments. Run by each client's Python.
PROBE = """
import duckdb, json, sys
con = duckdb.connect(sys.argv[1], read_only=True)
out = {"version": duckdb.__version__}
for name in json.loads(sys.argv[2]):
    out[name] = con.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]
    out[name + ":rows"] = con.execute(  # (JSON text: alike in every version, no pytz)
        f'SELECT to_json(COLUMNS(*))::VARCHAR FROM "{name}" ORDER BY ALL LIMIT 5'
    ).fetchall()
out["text"] = con.execute(
    "SELECT md5(string_agg(coalesce(text, '<null>'), '|' ORDER BY msg_key)) FROM messages"
).fetchone()[0]
out["comments"] = con.execute(
    "SELECT count(*) FROM duckdb_columns() WHERE schema_name = 'main' AND comment IS NOT NULL"
).fetchone()[0]
print(json.dumps(out, default=list))
"""
NAMES = [*TABLES, *VIEW_NAMES, *FINDINGS_VIEWS]
# The clients: the newest 1.x (Python and CLI), and the oldest 1.x the README names.
NEWEST = ["duckdb<2", "duckdb-cli<2"]
OLDEST = ["duckdb~=1.2.0"]


def client_venv(where: Path, requirements: list[str]) -> Path:
    """A venv with `requirements` installed by pip from the registry; skips the test
    (with pip's words) when they cannot be installed."""
    venv.create(where, with_pip=False)
    python = where / "bin" / "python"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
         "--disable-pip-version-check", "--no-input", *requirements],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        pytest.skip(f"cannot install {' '.join(requirements)}: {lines[-1] if lines else '?'}")
    return where


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> Path:
    data_dir = tmp_path_factory.mktemp("clients")
    sample_as_archives(data_dir)
    summary = run(data_dir, workers=2)
    assert summary.db_messages > 0 and not summary.unstored
    return summary.db


def probe(python: Path | str, db: Path) -> dict:
    done = subprocess.run(
        [str(python), "-c", PROBE, str(db), json.dumps(NAMES)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("requirements", [NEWEST, OLDEST], ids=["newest-1.x", "1.2"])
def test_duckdb_1x_clients_read_the_database(database, tmp_path, requirements):
    con = duckdb.connect(str(database), read_only=True)
    (tags,) = con.execute(
        "SELECT tags FROM duckdb_databases() WHERE database_name = current_database()"
    ).fetchone()
    con.close()
    assert tags["storage_version"] == STORAGE_VERSION + "+"

    where = client_venv(tmp_path / "venv", requirements)
    theirs = probe(where / "bin" / "python", database)
    ours = probe(sys.executable, database)
    assert theirs.pop("version").startswith("1.") and ours.pop("version").startswith("2.")
    assert ours["messages"] > 0 and ours["comparisons"] > 0
    # every column's, of the tables and of the views
    assert ours["comments"] == sum(map(len, TABLES.values())) + sum(map(len, VIEW_COLUMNS.values()))
    assert theirs == ours

    if "duckdb-cli<2" in requirements:  # the command-line client, as the README shows it
        cli = where / "bin" / "duckdb"
        done = subprocess.run(
            [str(cli), "-readonly", "-csv", str(database), "-c",
             "SELECT count(*) AS n FROM messages; SELECT count(*) AS n FROM comparisons"],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == ["n", str(ours["messages"]), "n", str(ours["comparisons"])]
        version = subprocess.run([str(cli), "-version"], capture_output=True, text=True)
        assert version.stdout.startswith("v1.")
