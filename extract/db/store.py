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

Never in place: a `Store` works on its own copy of the database, `<db>.new` (a copy
made by the kernel, `copy_file_range`; with `full=True` a new, empty file), and
`close()` publishes it with one `os.replace`. So readers (`make sql`, the report, a
notebook) open the database read-only before, during and after a run, see it whole
(the old one until the swap, then the new one; an open connection keeps the file it
opened), and never make the run fail. The old file is held read-only meanwhile, so
that a writer in place (`make sql --write`) cannot open it and lose its changes to the
swap. An update publishes whatever it committed, even when stopped (every batch is
whole); a `--full` rebuild only once complete. A run killed with `kill -9` leaves its
copy; the next run takes it up (its committed batches included) when the database has
not changed since (`<staging>/<db>.new.base` says what it was copied from), else
starts a fresh one. Measured on a 1 GB database (2 loaded cores): the copy 1.1 to
10.7 s (page cache or disk), the swap under 0.4 s; a run with nothing to do 6 to 13 s
instead of 3.5 s.

Everything a `Store` writes is beside the database: the copy, and under
`<db's directory>/.staging/` its run directory `<pid>-<hex>/` (staged files, DuckDB's
spill files; extract/db/staging.py), removed when it closes and by the next run when
its process is gone; `flock` on that directory keeps a second run out. A `Store` that
fails to open removes all it made (directories included).

Files are written in DuckDB's storage format `STORAGE_VERSION` (v1.2.0: what
DuckDB 1.2 to 1.5 and 2.x read, zstd for strings included); a file in a newer
format is written again in it once (`_convert`, a user's own tables included). The
schema is written in one transaction checkpointed at its commit (`_write_schema`,
`_create_new`); a database of an older version is upgraded there, `messages`
included (its text is now stored once: extract/db/schema.py), without --full.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
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
from extract.db.staging import (
    ROW_TABLES,
    StagedArchive,
    StageWriter,
    alive,
    remove_stale,
    run_directory,
)
from extract.db.views import create_views

LOADED_TABLES = (*ROW_TABLES, "archives")
# DuckDB's built-in functions are loaded when first needed; a WAL replayed on opening
# may need them before (see `_write_schema`), and DuckDB would then try to download
# them, which fails offline: they are built in, never download.
_CONFIG = {"autoinstall_known_extensions": False}
# The storage format the database is written in: what DuckDB 1.2 and later read
# (DuckDB 2 writes a format no 1.x client opens unless told), and the first one with
# zstd for strings (extract/db/schema.py: COMPRESSED). `duckdb_databases()` tags a
# file of it `v1.2.0+`.
STORAGE_VERSION = "v1.2.0"
# Formats that every DuckDB from 1.2 on reads (`v1.0.0+`: DuckDB 0.10 to 1.1's files,
# kept as they are); any other is written again in STORAGE_VERSION.
_READABLE_TAGS = {"v1.0.0+", STORAGE_VERSION + "+"}
_NEW_CONFIG = {**_CONFIG, "storage_compatibility_version": STORAGE_VERSION}


# The reason of an `errors` row for a file under raw/ that is no archive (`set_unread`).
UNREAD_PREFIX = "not read: "


def staging_root(db_path: Path) -> Path:
    """Where a run on `db_path` writes all it writes but the database's copy: beside it."""
    return Path(db_path).parent / ".staging"


class StoreBusy(Exception):
    """The database cannot be written now: another extraction runs on it, or a process
    has it open for writing (`make sql --write`). Readers never cause it."""


class Store:
    """The run's writer. It never writes the database in place: it works on its own
    copy, `<db>.new` (`full=True`: a new, empty one), and `close()` publishes that
    with one `os.replace`, so a reader (`make sql`, the report, a notebook) opened
    before, during or after a run sees a whole database and never blocks the run.
    Everything it writes is beside the database: the copy, and under
    `<db's directory>/.staging/` its staged files, DuckDB's spill files and the
    lock that keeps a second run out. A `Store` that fails to open leaves nothing
    it made behind."""

    def __init__(
        self,
        db_path: str | Path,
        *,
        full: bool = False,
        memory_limit: str = "256MB",
    ):
        self.db_path = Path(db_path)
        self.full = full
        self.committed = 0  # archives whose rows this Store committed
        self.committed_bytes = 0  # and their compressed size
        self.resumed = False  # whether it goes on with a killed run's copy
        self.con: duckdb.DuckDBPyConnection | None = None
        self._old: duckdb.DuckDBPyConnection | None = None
        self._lock: int | None = None
        self._fresh = False  # whether new_path is this Store's own (else none, or resumed)
        self._made: list[Path] = []  # directories this Store made, removed if it fails
        self.tmp_dir: Path | None = None
        try:
            self._open(memory_limit)
        except BaseException:
            self._abandon()
            raise

    @property
    def new_path(self) -> Path:
        """The copy the run works on, published over `db_path` by `close()`."""
        return self.db_path.with_name(self.db_path.name + ".new")

    @property
    def staging_root(self) -> Path:
        return staging_root(self.db_path)

    @property
    def _base_file(self) -> Path:
        """What `new_path` was copied from (written once the copy is whole): a killed
        run's copy is taken up again when the database has not changed since."""
        return self.staging_root / f"{self.db_path.name}.new.base"

    def _open(self, memory_limit: str) -> None:
        if self.db_path.is_dir():
            raise StoreBusy(f"{self.db_path} is a directory, not a database file")
        self._mkdirs(self.staging_root)
        self._lock = _lock(self.staging_root, self.db_path)
        remove_stale(self.staging_root)
        self.tmp_dir = run_directory(self.staging_root)
        exists = self.db_path.exists()
        if exists:
            # Held read-only until the copy is published: readers open it beside this,
            # a writer in place (`make sql --write`) cannot, so no change made in
            # place is lost by the swap.
            self._old = _open_old(self.db_path, self.full)
        base = _base_of(self.db_path) if exists else None
        if not self.full and self._resumable(base):
            try:
                self._connect(memory_limit)
                self.resumed = True
            except duckdb.Error:  # a copy that does not open (a crash mid-write): anew
                if self.con is not None:
                    self.con.close()
                    self.con = None
        if not self.resumed:
            self._fresh = True
            self._base_file.unlink(missing_ok=True)
            for leftover in (self.new_path, _wal(self.new_path)):
                leftover.unlink(missing_ok=True)
            if exists and not self.full:
                _copy_database(self.db_path, self.new_path)
            else:
                _create_new(self.new_path)
            self._base_file.write_text(json.dumps({"base": base, "full": self.full}), "ascii")
            self._connect(memory_limit)
        _write_schema(self.con, self.zstd)
        if _storage_tag(self.con) not in _READABLE_TAGS:
            # A file in a newer DuckDB's format (DuckDB 2's own, before this version
            # set it) is written again in STORAGE_VERSION, once.
            self.con.execute("CHECKPOINT")
            self.con.close()
            self.con = None
            _convert(self.new_path, memory_limit, self.tmp_dir / "spill")
            self._connect(memory_limit)
        self.con.execute("CREATE TEMP TABLE IF NOT EXISTS _paths (path VARCHAR)")

    def _connect(self, memory_limit: str) -> None:
        self.con = None
        self.con = duckdb.connect(str(self.new_path), config=_CONFIG)
        # Bounded memory for big batches: DuckDB spills (into the run's staging
        # directory, swept with it) instead of growing.
        self.con.execute(f"SET memory_limit = '{memory_limit}'")
        self.con.execute(f"SET temp_directory = '{_sql_text(self.tmp_dir / 'spill')}'")
        self.con.execute("SET preserve_insertion_order = false")
        self.zstd = _has_zstd(self.con)

    def _resumable(self, base) -> bool:
        """Whether a copy left by a killed run (this lock was free) can be taken up:
        an update's copy of the database as it still is, with the batches that run
        committed (each one whole: DuckDB replays its log)."""
        if not self.new_path.exists():
            return False
        try:
            left = json.loads(self._base_file.read_text("ascii"))
        except (OSError, ValueError):
            return False
        return left.get("full") is False and left.get("base") == base

    def _mkdirs(self, path: Path) -> None:
        missing = []
        for p in (path, *path.parents):
            if p.exists():
                break
            missing.append(p)
        path.mkdir(parents=True, exist_ok=True)
        self._made += reversed(missing)

    def _abandon(self) -> None:
        """After a failed open: close, and remove everything this Store made."""
        for con in (self.con, self._old):
            if con is not None:
                with contextlib.suppress(duckdb.Error):
                    con.close()
        self.con = self._old = None
        if self.tmp_dir is not None:
            shutil.rmtree(self.tmp_dir, ignore_errors=True)
        if self._fresh:  # (a killed run's copy that was taken up stays, as it was found)
            for leftover in (self.new_path, _wal(self.new_path), self._base_file):
                leftover.unlink(missing_ok=True)
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None
        for path in reversed(self._made):
            with contextlib.suppress(OSError):
                path.rmdir()  # (only when empty: nothing of anyone else's goes)

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

    def set_unread(self, unread: list[tuple[str, str]]) -> None:
        """Replace the `errors` rows of what the run does not read under raw/ (position
        NULL, stage read): directories that cannot be listed (`archive` ends in '/')
        and files that are no archive (reason `not read: ...`), with `unread`:
        (path, reason) pairs. What is readable again, or gone, loses its row."""
        con = self.con
        con.execute("BEGIN TRANSACTION")
        try:
            con.execute(
                "DELETE FROM errors WHERE position IS NULL AND stage = 'read' "
                f"AND (archive LIKE '%/' OR reason LIKE '{UNREAD_PREFIX}%')"
            )
            if unread:
                paths, reasons = map(list, zip(*unread, strict=True))
                con.execute(
                    "INSERT INTO errors (archive, position, message_id, stage, reason) "
                    "SELECT unnest(?::VARCHAR[]), NULL, NULL, 'read', unnest(?::VARCHAR[])",
                    [paths, reasons],
                )
            con.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(duckdb.Error):
                con.execute("ROLLBACK")
            raise

    def count_errors(self, archives: list[str]) -> int:
        """`errors` rows of these archives (paths relative to DATA_DIR)."""
        (n,) = self.con.execute(
            "SELECT count(*) FROM errors WHERE archive IN (SELECT unnest(?::VARCHAR[]))",
            [archives],
        ).fetchone()
        return n

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

    def close(self, *, complete: bool = True) -> bool:
        """Checkpoint and close the copy, and publish it over the database when
        `complete` (an update's copy holds every batch committed so far; a --full
        one only counts whole): `os.replace`, atomic for every reader. Else, or when
        the checkpoint fails, the copy is dropped and the database stays as it was.
        Returns whether it was published."""
        published = False
        # The staged files go first: a checkpoint after a full disk may then fit.
        for file in self.tmp_dir.glob("*.*"):
            file.unlink(missing_ok=True)
        try:
            try:
                self.con.execute("CHECKPOINT")
            finally:
                self.con.close()
            if complete:
                _fsync(self.new_path)
                # A log of the old file (a writer in place that was killed) was copied
                # and replayed into the copy; left there, it would be replayed again.
                _wal(self.db_path).unlink(missing_ok=True)
                os.replace(self.new_path, self.db_path)
                _fsync(self.db_path.parent)
                published = True
        finally:
            if self._old is not None:
                with contextlib.suppress(duckdb.Error):
                    self._old.close()
                self._old = None
            if not published:
                self.new_path.unlink(missing_ok=True)
            _wal(self.new_path).unlink(missing_ok=True)
            self._base_file.unlink(missing_ok=True)
            shutil.rmtree(self.tmp_dir, ignore_errors=True)
            if self._lock is not None:
                os.close(self._lock)
                self._lock = None
        return published

    def __enter__(self) -> Store:
        return self

    def __exit__(self, exc_type, *exc) -> None:
        self.close(complete=exc_type is None)


# ------------------------------------------------------------------ the schema


def _create_new(path: Path) -> None:
    """A new database file at `path` (the caller holds the run's lock), in
    STORAGE_VERSION, with the schema in the file itself (checkpointed), none of it in
    a WAL (see `_write_schema`): made under a name of its own beside `path` and
    renamed into place whole."""
    tmp = path.with_name(f"{path.name}.init-{os.getpid()}")
    try:
        for file in (tmp, _wal(tmp)):
            file.unlink(missing_ok=True)
        con = duckdb.connect(str(tmp), config=_NEW_CONFIG)
        try:
            _write_schema(con, _has_zstd(con))
            con.execute("CHECKPOINT")
        finally:
            con.close()
        os.replace(tmp, path)
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


def _lock(root: Path, db: Path) -> int | None:
    """An exclusive lock on the staging directory (`flock`, released when the process
    ends however it ends): one run at a time writes the databases of a directory.
    None where the system has no `flock`."""
    try:
        import fcntl
    except ImportError:  # (Windows)
        return None
    fd = os.open(root, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        others = _running_owners(root)
        who = f" (pid {', '.join(others)})" if others else ""
        raise StoreBusy(
            f"another extraction{who} is writing {db} (or another database in "
            f"{db.parent}): wait for it to end; readers need not wait"
        ) from None
    except OSError:  # a file system without flock: run unlocked
        pass
    return fd


def _running_owners(root: Path) -> list[str]:
    pids = []
    with contextlib.suppress(OSError):
        for run_dir in root.iterdir():
            with contextlib.suppress(OSError):
                token = (run_dir / "owner").read_text("ascii")
                if alive(token):
                    pids.append(token.split()[0])
    return sorted(pids)


def _open_old(db: Path, full: bool) -> duckdb.DuckDBPyConnection | None:
    """The database, opened read-only (beside any reader). A writer in place makes it
    fail: StoreBusy. A --full rebuild goes on without a file DuckDB cannot read."""
    try:
        try:
            return duckdb.connect(str(db), read_only=True, config=_CONFIG)
        except duckdb.ConnectionException as exc:
            if "different configuration" not in str(exc):
                raise
            # (this process has it open already, a notebook that runs `extract.run`)
            return duckdb.connect(str(db), read_only=True)
    except duckdb.Error as exc:
        if "lock" in str(exc).lower():
            raise StoreBusy(
                f"{db} is open for writing in another process ({_first_line(exc)}): close "
                "it (`make sql --write`, or a notebook's connection without read_only=True) "
                "and run again; read-only readers may stay open"
            ) from None
        if full:
            return None
        raise


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def _base_of(db: Path) -> list[int]:
    """What identifies the database file as it is: a write in place changes it."""
    st = db.stat()
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns]


def _copy_database(src: Path, dst: Path) -> None:
    """`src` (and its log, if a writer in place left one) copied to `dst`."""
    try:
        _copy_file(src, dst)
        if _wal(src).exists():
            _copy_file(_wal(src), _wal(dst))
    except BaseException:
        dst.unlink(missing_ok=True)
        _wal(dst).unlink(missing_ok=True)
        raise


def _copy_file(src: Path, dst: Path) -> None:
    """A copy made by the kernel (`copy_file_range`: a reflink, no bytes copied, on
    file systems that share blocks, such as Btrfs and XFS), else by `shutil`."""
    with open(src, "rb") as fin, open(dst, "wb") as fout:
        size = os.fstat(fin.fileno()).st_size
        copied = 0
        if hasattr(os, "copy_file_range"):
            with contextlib.suppress(OSError):
                while copied < size:
                    n = os.copy_file_range(fin.fileno(), fout.fileno(), size - copied)
                    if n == 0:
                        break
                    copied += n
        if copied < size:
            if copied:  # (the kernel stopped half-way: start again in Python)
                fin.seek(0)
                fout.seek(0)
                fout.truncate()
            shutil.copyfileobj(fin, fout, 1 << 20)
        fout.flush()
        os.fsync(fout.fileno())


def _fsync(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _storage_tag(con: duckdb.DuckDBPyConnection) -> str | None:
    """The storage format of the connection's database file, as DuckDB names it."""
    (tags,) = con.execute(
        "SELECT tags FROM duckdb_databases() WHERE database_name = current_database()"
    ).fetchone()
    return (tags or {}).get("storage_version")


def _convert(path: Path, memory_limit: str, spill: Path) -> None:
    """The database at `path` (closed) written again in STORAGE_VERSION, whole (a
    user's own tables and views too: DuckDB's COPY FROM DATABASE), and swapped in."""
    conv = path.with_name(path.name + ".convert")
    for leftover in (conv, _wal(conv)):
        leftover.unlink(missing_ok=True)
    try:
        con = duckdb.connect(config=_CONFIG)
        try:
            con.execute(f"SET memory_limit = '{memory_limit}'")
            con.execute(f"SET temp_directory = '{_sql_text(spill)}'")
            con.execute(f"ATTACH '{_sql_text(path)}' AS src (READ_ONLY)")
            con.execute(f"ATTACH '{_sql_text(conv)}' AS dst (STORAGE_VERSION '{STORAGE_VERSION}')")
            con.execute("COPY FROM DATABASE src TO dst")
            con.execute("DETACH src")
            con.execute("CHECKPOINT dst")
            con.execute("DETACH dst")
        finally:
            con.close()
        os.replace(conv, path)
        _wal(path).unlink(missing_ok=True)
    finally:
        for leftover in (conv, _wal(conv)):
            leftover.unlink(missing_ok=True)


def _sql_text(path: Path | str) -> str:
    """A path inside an SQL string literal."""
    return str(path).replace("'", "''")


def _wal(db: Path) -> Path:
    return db.with_name(db.name + ".wal")


def _insert_sql(table: str) -> str:
    cols = columns(table)
    types = ", ".join(f"'{c}': '{t}'" for c, t, _ in TABLES[table] if c in cols)
    col_list = ", ".join(f'"{c}"' for c in cols)
    return (
        f'INSERT INTO "{table}" ({col_list}) SELECT {col_list} FROM read_json(?::VARCHAR[], '
        f"format='newline_delimited', columns={{{types}}}, maximum_object_size=16777216)"
    )
