"""The tools that only read open the database read-only, so they run side by side:
one process holds the file read-only while `make report`, `make export`,
`make sql -c` and `make extract` run in others, and a plain read-only DuckDB
connection (what a notebook opens) sees the views and the column comments the
extractor stored in the file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from extract.db.schema import TABLES
from extract.db.views import VIEW_NAMES
from tests.archives import sample_as_archives
from tests.test_extract_cli import run

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("readonly")
    sample_as_archives(data_dir)
    assert run(data_dir, "--workers", "2") == 0
    return data_dir


def _make(target: str, data_dir: Path, args: str = "") -> subprocess.CompletedProcess:
    # -o: the venv counts as installed (the test runs in it), so make never reinstalls.
    return subprocess.run(
        ["make", "-s", "-o", ".venv/.installed", target, f"DATA_DIR={data_dir}",
         f"ARGS={args}"],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


class ReadOnlyHolder:
    """Another process with the database open read-only, as a notebook would."""

    def __init__(self, db: Path):
        self.proc = subprocess.Popen(
            [sys.executable, "-c",
             "import duckdb, sys; c = duckdb.connect(sys.argv[1], read_only=True); "
             "print(c.execute('SELECT count(*) FROM comparisons').fetchone()[0], flush=True); "
             "sys.stdin.read()", str(db)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        self.comparisons = int(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)
        self.proc.stdout.close()


def test_readers_run_beside_a_read_only_holder(data_dir):
    db = data_dir / "asf.duckdb"
    holder = ReadOnlyHolder(db)
    try:
        report = _make("report", data_dir)
        assert report.returncode == 0, report.stderr
        assert (data_dir / "report" / "index.html").is_file()

        export = _make("export", data_dir, "--format csv --no-dataset")
        assert export.returncode == 0, export.stderr
        assert (data_dir / "export" / "comparisons.csv").is_file()

        sql = _make("sql", data_dir, "-c 'SELECT count(*) AS n FROM messages; SELECT 7 AS seven'")
        assert sql.returncode == 0, sql.stderr
        first, second = sql.stdout.strip().split("\n\n")  # every statement's result
        assert first.splitlines()[0] == "n"
        assert [line.strip() for line in second.splitlines()] == ["seven", "-----", "7", "(1 row)"]

        # The prompt is read-only unless --write: a mistaken DELETE changes nothing.
        delete = _make("sql", data_dir, "-c 'DELETE FROM messages'")
        assert delete.returncode != 0 and "read-only" in delete.stdout + delete.stderr

        # The extraction runs beside readers too (it works on a copy it publishes).
        for args in ("", "--full"):
            extract = _make("extract", data_dir, args)
            assert extract.returncode == 0, extract.stderr

        # A plain read-only connection, here beside the holder.
        con = duckdb.connect(str(db), read_only=True)
        try:
            (n,) = con.execute("SELECT count(*) FROM comparisons").fetchone()
            views = {v for (v,) in con.execute("SELECT view_name FROM duckdb_views()").fetchall()}
            comments = dict(
                ((t, c), m)
                for t, c, m in con.execute(
                    "SELECT table_name, column_name, comment FROM duckdb_columns() "
                    "WHERE schema_name = 'main'"
                ).fetchall()
            )
            (messages,) = con.execute("SELECT count(*) FROM messages").fetchone()
        finally:
            con.close()
        assert n == holder.comparisons and messages > 0
        assert set(VIEW_NAMES) <= views
        for table, cols in TABLES.items():
            for col, _, meaning in cols:
                assert comments[(table, col)] == meaning, (table, col)
    finally:
        holder.close()
