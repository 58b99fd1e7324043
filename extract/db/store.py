"""The only module that writes the DuckDB database. `Store(db_path)` creates the
tables of extract/db/schema.py (adding columns that an older database lacks), their
`COMMENT ON`s and the views of extract/db/views.py, stored in the file so that
read-only clients see them, tells
which archives are already extracted (`known_archives()`: path → sha256 and whether
results were looked for), and `load(staged)` / `replace(rows)` swap in the rows of
a batch of archives: for each archive, delete its old rows and load the
new ones, all in ONE transaction, so a run killed at any point leaves every archive
either wholly old or wholly new (and an archive without its `archives` row is
simply extracted again by the next run).

Loading uses DuckDB's bulk path: rows arrive as staged files, newline-delimited
JSON or row files (pickled chunks) that become JSON here (extract/db/staging.py, the
format and its one writer), and go in with one
`INSERT ... SELECT FROM read_json([...files], columns={schema types})` per table
per batch; never row by row.

Staged files live in a directory of the run's own, `<staging>/<pid>-<hex>/` (the
runner passes DATA_DIR/.staging), never in the system's temp dir; a `Store` removes
the directories of runs whose owner process is gone (killed runs) when it opens, and
its own when it closes.

The schema is written in one transaction checkpointed at its commit, and a new file
is made with it beside its path first (`_write_schema`, `_create_new`); a database of
an older version is upgraded there, `messages` included (its text is now stored once:
extract/db/schema.py), without --full.

`full=True` builds the new database beside the old one (`<db>.new`) while the old one
stays open (and locked) as it was; `close()` swaps the new one in with `os.replace`
only once it is complete, so an interrupted `--full` leaves the old database as it was.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import uuid
from collections.abc import Iterable
from pathlib import Path

import duckdb

from extract.db import staging
from extract.db.schema import (
    GENERATED,
    TABLES,
    columns,
    comment_statements,
    create_statement,
)
from extract.db.staging import ROW_TABLES, StagedArchive, StageWriter
from extract.db.views import create_views

LOADED_TABLES = (*ROW_TABLES, "archives")
# DuckDB's built-in functions are loaded when first needed; a WAL replayed on opening
# may need them before (see `_write_schema`), and DuckDB would then try to download
# them, which fails offline: they are built in, never download.
_CONFIG = {"autoinstall_known_extensions": False}


class Store:
    def __init__(
        self,
        db_path: str | Path,
        *,
        full: bool = False,
        memory_limit: str = "256MB",
        staging: str | Path | None = None,
    ):
        self.db_path = Path(db_path)
        self.db_path.parent.mkdir(parents=True, exist_ok=True)
        self.full = full
        self.committed = 0  # archives whose rows this Store committed
        self.committed_bytes = 0  # and their compressed size
        self._old: duckdb.DuckDBPyConnection | None = None
        if not self.db_path.exists():
            _create_new(self.db_path)
        # (fails when another process holds it)
        self.con = duckdb.connect(str(self.db_path), config=_CONFIG)
        if full:
            # The old database stays open, and so locked, until the new one replaces it.
            self._old, self.con = self.con, None
            try:
                new = self.new_path
                for leftover in (new, _wal(new)):  # of an interrupted --full
                    leftover.unlink(missing_ok=True)
                _create_new(new)
                self.con = duckdb.connect(str(new), config=_CONFIG)
            except BaseException:
                self._old.close()
                raise
        else:
            # This run holds the database, so no --full builds beside it: a `.new` is
            # what an interrupted one left.
            for leftover in (self.new_path, _wal(self.new_path)):
                leftover.unlink(missing_ok=True)
        try:
            self._setup(memory_limit, staging)
        except BaseException:  # e.g. the disk is full: close, and drop a half-made .new
            self.con.close()
            if self._old is not None:
                self._old.close()
                self._old = None
                for leftover in (self.new_path, _wal(self.new_path)):
                    leftover.unlink(missing_ok=True)
            raise

    def _setup(self, memory_limit: str, staging: str | Path | None) -> None:
        # Bounded memory for big batches: DuckDB spills instead of growing.
        self.con.execute(f"SET memory_limit = '{memory_limit}'")
        self.con.execute("SET preserve_insertion_order = false")
        self.zstd = _has_zstd(self.con)
        _write_schema(self.con, self.zstd)
        self.con.execute("CREATE TEMP TABLE IF NOT EXISTS _paths (path VARCHAR)")
        root = Path(staging) if staging is not None else self.db_path.parent / ".staging"
        remove_stale_staging(root)
        self.tmp_dir = root / f"{os.getpid()}-{uuid.uuid4().hex[:12]}"
        self.tmp_dir.mkdir(parents=True)
        (self.tmp_dir / "owner").write_text(_owner_token(os.getpid()), "ascii")

    @property
    def new_path(self) -> Path:
        """Where `full=True` builds the new database."""
        return self.db_path.with_name(self.db_path.name + ".new")

    def known_archives(self) -> dict[str, tuple[str, bool, str | None]]:
        """path -> (sha256, whether its benchmark results were looked for, the digest
        of the code that extracted it)."""
        rows = self.con.execute(
            "SELECT path, sha256, coalesce(results, true), extractor FROM archives"
        )
        return {path: (sha, results, code) for path, sha, results, code in rows.fetchall()}

    def replace(self, batch: Iterable) -> None:
        """Replace the rows of every archive in `batch` (rows in memory: objects with
        an `archive` row and a list of rows per table, `pipeline.ArchiveRows`), in one
        transaction."""
        staged = []
        try:
            for rows in batch:
                tables = {table: getattr(rows, table) for table in ROW_TABLES}
                staged.append(staging.stage(self.tmp_dir, rows.archive, tables))
            self.load(staged)
        finally:
            self.discard(staged)

    def load(self, staged: list[StagedArchive]) -> None:
        """Replace the rows of every staged archive, in ONE transaction: delete what
        the archives had, bulk-insert the staged rows, record the archives. The
        staged files are removed once the batch is stored; when the load fails the
        transaction is rolled back, the error raised and the staged files kept (the
        caller may load the archives one by one, then `discard` them)."""
        if not staged:
            return
        paths = [s.archive["path"] for s in staged]
        batch = StageWriter(self.tmp_dir, "batch")
        try:
            loads = staging.json_files(staged, batch)
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
                self.committed += len(staged)
                self.committed_bytes += sum(s.archive.get("size") or 0 for s in staged)
            except BaseException:
                with contextlib.suppress(duckdb.Error):
                    con.execute("ROLLBACK")
                raise
        finally:
            batch.discard()
        self.discard(staged)

    def set_directory_errors(self, dirs: list[tuple[str, str]]) -> None:
        """Replace the `errors` rows of unreadable directories under raw/ (archive: the
        directory with a trailing '/', position NULL, stage read) with `dirs`:
        (path, reason) pairs. A directory readable again loses its row."""
        con = self.con
        con.execute("BEGIN TRANSACTION")
        try:
            con.execute(
                "DELETE FROM errors WHERE archive LIKE '%/' AND position IS NULL AND stage = 'read'"
            )
            for path, reason in dirs:
                con.execute(
                    "INSERT INTO errors (archive, position, message_id, stage, reason) "
                    "VALUES (?, NULL, NULL, 'read', ?)",
                    [path, reason],
                )
            con.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(duckdb.Error):
                con.execute("ROLLBACK")
            raise

    def discard(self, staged: Iterable[StagedArchive]) -> None:
        """Remove the staged files of these archives."""
        staging.discard(staged)

    def _delete_rows_of_paths(self) -> None:
        con = self.con
        old_keys = "SELECT msg_key FROM messages WHERE archive IN (SELECT path FROM _paths)"
        con.execute(f"DELETE FROM measurements WHERE msg_key IN ({old_keys})")
        con.execute(f"DELETE FROM result_tables WHERE msg_key IN ({old_keys})")
        con.execute("DELETE FROM messages WHERE archive IN (SELECT path FROM _paths)")
        con.execute("DELETE FROM errors WHERE archive IN (SELECT path FROM _paths)")
        con.execute("DELETE FROM archives WHERE path IN (SELECT path FROM _paths)")

    def close(self, *, complete: bool = True) -> None:
        """Checkpoint and close; with `full=True` the new database replaces the old one
        when `complete` (else it is removed and the old one stays as it was)."""
        swapped = False
        try:
            try:
                self.con.execute("CHECKPOINT")
            finally:
                self.con.close()
            if self._old is not None:
                self._old.close()
                self._old = None
                if complete:
                    # The old database's WAL would be replayed onto the new one.
                    _wal(self.db_path).unlink(missing_ok=True)
                    os.replace(self.new_path, self.db_path)
                    swapped = True
        finally:
            if self._old is not None:  # an error above
                self._old.close()
                self._old = None
            if self.full and not swapped:  # interrupted, or the checkpoint failed
                self.new_path.unlink(missing_ok=True)
                _wal(self.new_path).unlink(missing_ok=True)
            shutil.rmtree(self.tmp_dir, ignore_errors=True)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, exc_type, *exc) -> None:
        self.close(complete=exc_type is None)


# ------------------------------------------------------------------ the schema


def _create_new(path: Path) -> None:
    """A new database file at `path` with the schema in the file itself (checkpointed),
    none of it in a WAL (see `_write_schema`): made beside `path` and linked into
    place only where no file is yet (another process may have made one meanwhile)."""
    for leftover in path.parent.glob(f"{path.name}.init-*"):  # of killed runs
        if not _alive(leftover.name.rsplit("-", 2)[-2]):
            leftover.unlink(missing_ok=True)
    tmp = path.with_name(f"{path.name}.init-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    try:
        con = duckdb.connect(str(tmp), config=_CONFIG)
        try:
            _write_schema(con, _has_zstd(con))
            con.execute("CHECKPOINT")
        finally:
            con.close()
        with contextlib.suppress(OSError):  # (a file there already; no hard links here)
            os.link(tmp, path)
    finally:
        for file in (tmp, _wal(tmp)):
            file.unlink(missing_ok=True)


def _write_schema(con: duckdb.DuckDBPyConnection, zstd: bool) -> None:
    """Create what is missing of the tables (adding columns an older database lacks,
    converting its messages), the column comments and the views, in ONE transaction
    whose commit DuckDB checkpoints at once. A WAL that replays a schema change of
    `messages` binds its virtual column with functions DuckDB loads only later (a
    client with DuckDB's defaults then tries to download them, and fails offline), so
    a WAL holds such a change only for the moment of that checkpoint, and a new file
    none (`_create_new`); rows go through the WAL as usual."""
    con.execute("SET checkpoint_threshold = '1B'")
    con.execute("BEGIN TRANSACTION")
    try:
        for table in TABLES:
            con.execute(create_statement(table, compress=zstd))
        _add_new_columns(con)
        _store_text_once(con, zstd)
        # Stored in the file, so that read-only clients (our tools, notebooks, the
        # duckdb CLI) see the views and the column meanings without writing.
        _comment_columns(con)
        create_views(con)
        con.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(duckdb.Error):
            con.execute("ROLLBACK")
        raise
    finally:
        with contextlib.suppress(duckdb.Error):  # (the error above is the one to tell)
            con.execute("RESET checkpoint_threshold")


def _add_new_columns(con: duckdb.DuckDBPyConnection) -> None:
    """A database written by an older version gets the columns added since
    (NULL in its old rows), so that an update never needs a --full rebuild."""
    for table, cols in TABLES.items():
        have = {r[0] for r in con.execute(f'DESCRIBE "{table}"').fetchall()}
        for col, typ, _ in cols:
            # (a virtual column cannot be added: `_store_text_once` rebuilds the table)
            if col not in have and (table, col) not in GENERATED:
                con.execute(f'ALTER TABLE "{table}" ADD COLUMN "{col}" {typ}')


def _comment_columns(con: duckdb.DuckDBPyConnection) -> None:
    """COMMENT ON every column whose stored meaning is not today's."""
    have = dict(
        ((table, col), comment)
        for table, col, comment in con.execute(
            "SELECT table_name, column_name, comment FROM duckdb_columns() "
            "WHERE database_name = current_database() AND schema_name = 'main'"
        ).fetchall()
    )
    wanted = [(table, col, meaning) for table, cols in TABLES.items() for col, _, meaning in cols]
    for (table, col, meaning), stmt in zip(wanted, comment_statements(), strict=True):
        if have.get((table, col)) != meaning:
            con.execute(stmt)


def _has_zstd(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the file's storage version compresses strings with zstd (files of
    DuckDB >= 1.2; an older file keeps its version, and DuckDB's default)."""
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute("CREATE TABLE _zstd_probe (t VARCHAR USING COMPRESSION zstd)")
        return True
    except duckdb.Error:
        return False
    finally:
        con.execute("ROLLBACK")


def _store_text_once(con: duckdb.DuckDBPyConnection, zstd: bool) -> None:
    """A `messages` table of an older version, where `text` was a stored copy,
    becomes today's (extract/db/schema.py: `text` is computed from the body and
    text_rest), in the setup's transaction: the old texts go to text_rest, NULL
    where the text is the body. (Virtual columns cannot be added to a table, so it is
    rebuilt; the next run re-extracts the rows with the code's digest anyway.)"""
    (default,) = con.execute(
        "SELECT max(column_default) FROM duckdb_columns() "
        "WHERE database_name = current_database() AND schema_name = 'main' "
        "AND table_name = 'messages' AND column_name = 'text'"
    ).fetchone()
    if default is not None:  # the virtual column's expression
        return
    have = {r[0] for r in con.execute('DESCRIBE "messages"').fetchall()}
    old_text = "text" if "text" in have else "NULL::VARCHAR"
    derived = {
        "text_rest": f"CASE WHEN {old_text} IS NOT DISTINCT FROM body THEN NULL "
        f"ELSE {old_text} END",
        "text_map": f"CASE WHEN {old_text} IS NULL AND body IS NOT NULL THEN []::INTEGER[] END",
    }
    cols = columns("messages")
    names = ", ".join(f'"{c}"' for c in cols)
    select = ", ".join(derived.get(c, f'"{c}"') for c in cols)
    # (the old table is renamed, not the new one: an ALTER of a table with a
    # virtual column, replayed from a WAL, needs functions not loaded yet)
    con.execute("ALTER TABLE messages RENAME TO _messages_old")
    con.execute(create_statement("messages", compress=zstd))
    con.execute(f"INSERT INTO messages ({names}) SELECT {select} FROM _messages_old")
    con.execute("DROP TABLE _messages_old")


def _wal(db: Path) -> Path:
    return db.with_name(db.name + ".wal")


def _start_time(pid: int) -> str:
    """The process's start time (clock ticks since boot) where /proc tells, else ''."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text("ascii", "replace")
    except OSError:
        return ""
    return stat.rsplit(")", 1)[-1].split()[19]  # field 22 of stat


def _owner_token(pid: int) -> str:
    return f"{pid} {_start_time(pid)}"


def _alive(token: str) -> bool:
    """Whether the process an owner token names still runs (not a later one that got
    its pid)."""
    pid_text, _, start = token.strip().partition(" ")
    try:
        pid = int(pid_text)
    except ValueError:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    except OSError:
        return False
    return not start or _start_time(pid) in ("", start)


def remove_stale_staging(root: Path) -> list[Path]:
    """Remove the staging directories under `root` whose owner process is gone (left by
    killed runs); return them. Directories of running processes are left alone."""
    removed = []
    with contextlib.suppress(OSError):
        for run_dir in root.iterdir():
            if not run_dir.is_dir():
                continue
            try:
                token = (run_dir / "owner").read_text("ascii")
            except OSError:
                # Not written yet (a run starting now) or lost: judge by the pid in the name.
                token = run_dir.name.split("-", 1)[0]
            if not _alive(token):
                shutil.rmtree(run_dir, ignore_errors=True)
                removed.append(run_dir)
    return removed


def _insert_sql(table: str) -> str:
    cols = columns(table)
    types = ", ".join(f"'{c}': '{t}'" for c, t, _ in TABLES[table] if c in cols)
    col_list = ", ".join(f'"{c}"' for c in cols)
    return (
        f'INSERT INTO "{table}" ({col_list}) SELECT {col_list} FROM read_json(?::VARCHAR[], '
        f"format='newline_delimited', columns={{{types}}}, maximum_object_size=16777216)"
    )
