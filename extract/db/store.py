"""The only module that writes the DuckDB database. `Store(db_path)` creates the
tables of extract/db/schema.py (adding columns that an older database lacks), tells
which archives are already extracted (`known_archives()`: path → sha256 and whether
results were looked for), and `load(staged)` / `replace(rows)` swap in the rows of
a batch of archives: for each archive, delete its old rows and load the
new ones, all in ONE transaction, so a run killed at any point leaves every archive
either wholly old or wholly new (and an archive without its `archives` row is
simply extracted again by the next run).

Loading uses DuckDB's bulk path: rows arrive as newline-delimited JSON files or
as row files (pickled chunks) that become one, both written by the workers (see
`pipeline.stage_archive`), and go in with one
`INSERT ... SELECT FROM read_json([...files], columns={schema types})` per table
per batch; never row by row.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

import duckdb

from extract.db.schema import TABLES, columns, create_statements
from extract.pipeline import (
    ROW_TABLES,
    ArchiveRows,
    StagedArchive,
    read_rows,
    write_ndjson,
)

LOADED_TABLES = (*ROW_TABLES, "archives")


class Store:
    def __init__(self, db_path: str | Path, *, full: bool = False, memory_limit: str = "256MB"):
        self.db_path = Path(db_path)
        self.db_path.parent.mkdir(parents=True, exist_ok=True)
        self.con = duckdb.connect(str(self.db_path))
        # Bounded memory for big batches: DuckDB spills instead of growing.
        self.con.execute(f"SET memory_limit = '{memory_limit}'")
        self.con.execute("SET preserve_insertion_order = false")
        if full:
            for name in LOADED_TABLES:
                self.con.execute(f'DROP TABLE IF EXISTS "{name}"')
        for stmt in create_statements():
            self.con.execute(stmt)
        self._add_new_columns()
        self.con.execute("CREATE TEMP TABLE IF NOT EXISTS _paths (path VARCHAR)")
        self.tmp_dir = Path(tempfile.mkdtemp(prefix="asf-load-"))

    def _add_new_columns(self) -> None:
        """A database written by an older version gets the columns added since
        (NULL in its old rows), so that an update never needs a --full rebuild."""
        for table, cols in TABLES.items():
            have = {r[0] for r in self.con.execute(f'DESCRIBE "{table}"').fetchall()}
            for col, typ, _ in cols:
                if col not in have:
                    self.con.execute(f'ALTER TABLE "{table}" ADD COLUMN "{col}" {typ}')

    def known_archives(self) -> dict[str, tuple[str, bool, str | None]]:
        """path -> (sha256, whether its benchmark results were looked for, the digest
        of the code that extracted it)."""
        rows = self.con.execute(
            "SELECT path, sha256, coalesce(results, true), extractor FROM archives"
        )
        return {path: (sha, results, code) for path, sha, results, code in rows.fetchall()}

    def replace(self, batch: Iterable[ArchiveRows]) -> None:
        """Replace the rows of every archive in `batch` (rows in memory), in one
        transaction."""
        staged = []
        for i, rows in enumerate(batch):
            files = {}
            for table in ROW_TABLES:
                if getattr(rows, table):
                    files[table] = str(self.tmp_dir / f"mem{i}.{table}.ndjson")
                    with open(files[table], "w", encoding="utf-8", errors="replace") as f:
                        write_ndjson(f, getattr(rows, table))
            staged.append(StagedArchive(rows.archive, files))
        self.load(staged)

    def load(self, staged: list[StagedArchive]) -> None:
        """Replace the rows of every staged archive, in ONE transaction: delete what
        the archives had, bulk-insert the staged rows, record the archives. The
        staged files are removed afterwards."""
        if not staged:
            return
        paths = [s.archive["path"] for s in staged]
        try:
            loads = self._ndjson_files(staged)
            con = self.con
            con.execute("BEGIN TRANSACTION")
            try:
                con.execute("DELETE FROM _paths")
                con.execute("INSERT INTO _paths SELECT unnest(?::VARCHAR[])", [paths])
                # Rows of an archive exist only with its `archives` row (both are
                # written in one transaction): new archives need no deletes, which
                # scan the big tables.
                (replaced,) = con.execute(
                    "SELECT count(*) FROM archives WHERE path IN (SELECT path FROM _paths)"
                ).fetchone()
                if replaced:
                    self._delete_rows_of_paths()
                for table, files in loads.items():
                    if files:
                        con.execute(_insert_sql(table), [[str(f) for f in files]])
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
        finally:
            for file in self.tmp_dir.glob("batch.*.ndjson"):
                file.unlink(missing_ok=True)
            for s in staged:
                for file in s.files.values():
                    Path(file).unlink(missing_ok=True)

    def _delete_rows_of_paths(self) -> None:
        con = self.con
        old_keys = "SELECT msg_key FROM messages WHERE archive IN (SELECT path FROM _paths)"
        con.execute(f"DELETE FROM measurements WHERE msg_key IN ({old_keys})")
        con.execute(f"DELETE FROM result_tables WHERE msg_key IN ({old_keys})")
        con.execute("DELETE FROM messages WHERE archive IN (SELECT path FROM _paths)")
        con.execute("DELETE FROM errors WHERE archive IN (SELECT path FROM _paths)")
        con.execute("DELETE FROM archives WHERE path IN (SELECT path FROM _paths)")

    def _ndjson_files(self, staged: list[StagedArchive]) -> dict[str, list[Path]]:
        """The newline-delimited JSON files to load per table (the form DuckDB's
        read_json loads in bulk): the staged ones as they are, plus one file with
        the rows of the batch's row files, written chunk by chunk, so memory holds
        one chunk at a time."""
        out: dict[str, list[Path]] = {}
        for table in ROW_TABLES:
            files = [Path(s.files[table]) for s in staged if table in s.files]
            out[table] = [f for f in files if f.suffix == ".ndjson"]
            if row_files := [f for f in files if f.suffix == ".rows"]:
                out[table].append(self.tmp_dir / f"batch.{table}.ndjson")
                with open(out[table][-1], "w", encoding="utf-8", errors="replace") as f:
                    for file in row_files:
                        for rows in read_rows(file):
                            write_ndjson(f, rows)
        out["archives"] = [self.tmp_dir / "batch.archives.ndjson"]
        with open(out["archives"][0], "w", encoding="utf-8") as f:
            write_ndjson(f, [s.archive for s in staged])
        return out

    def close(self) -> None:
        try:
            self.con.execute("CHECKPOINT")
        finally:
            self.con.close()
            shutil.rmtree(self.tmp_dir, ignore_errors=True)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _insert_sql(table: str) -> str:
    cols = columns(table)
    types = ", ".join(f"'{c}': '{t}'" for c, t, _ in TABLES[table])
    col_list = ", ".join(f'"{c}"' for c in cols)
    return (
        f'INSERT INTO "{table}" ({col_list}) SELECT {col_list} FROM read_json(?::VARCHAR[], '
        f"format='newline_delimited', columns={{{types}}}, maximum_object_size=16777216)"
    )
