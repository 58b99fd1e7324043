"""How the tools that read the database open it: `open_database(db)`.

Read-only by default. DuckDB lets any number of processes open a file read-only at
once, but no writer beside them, so a reader that took the write lock (an open
`make sql` prompt, say) would block every other command. The views are stored in the
file by the extractor (`extract.db.store`). A database that lacks them (written by an
older version, or made without the store) gets them once: opened read-write for the
moment it takes to create them, when no other process has it open.
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from extract.db.views import VIEW_NAMES, create_views


class DatabaseUnavailable(Exception):
    """The database cannot be opened: missing, or held by a writer."""


def _connect(db: Path, read_only: bool) -> duckdb.DuckDBPyConnection:
    try:
        return duckdb.connect(str(db), read_only=read_only)
    except duckdb.Error as exc:
        hint = ""
        if "lock" in str(exc).lower():
            hint = (
                " (another process writes it, e.g. `make extract`: try again when it is done)"
                if read_only
                else " (it lacks the views, and another process has it open: "
                "run `make extract` once when it is free)"
            )
        raise DatabaseUnavailable(f"cannot open {db}: {exc}{hint}") from exc


def _utc(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """Times in UTC whatever the machine's zone: a TIMESTAMPTZ reads back (and prints,
    and exports) as the same text on every machine."""
    con.execute("SET TimeZone = 'UTC'")
    return con


def _create_views(con: duckdb.DuckDBPyConnection) -> None:
    """The views and their column comments in one transaction (one commit, not one per
    comment: 0.07 s instead of 0.95 s)."""
    con.execute("BEGIN TRANSACTION")
    try:
        create_views(con)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def open_database(db: Path, *, write: bool = False) -> duckdb.DuckDBPyConnection:
    """A connection to `db` with the views, its times in UTC; read-only unless `write`."""
    if not db.is_file():
        raise DatabaseUnavailable(missing_database(db))
    con = _connect(db, read_only=not write)
    try:
        if write:
            _create_views(con)
        elif missing_views(con):
            con.close()
            con = _connect(db, read_only=False)
            _create_views(con)
            con.close()
            con = _connect(db, read_only=True)
    except duckdb.Error as exc:
        con.close()
        raise DatabaseUnavailable(f"{db}: cannot create the views: {exc}") from exc
    return _utc(con)


def missing_database(db: Path) -> str:
    """What to say when `db` is not a database file: what is there instead, and the
    command that helps (the demo writes data/demo/asf.duckdb, not data/asf.duckdb)."""
    if db.is_dir():
        return f"{db} is a directory, not a database file: give the file (--db DIR/asf.duckdb)"
    for parent in db.parents:
        if parent.exists() and not parent.is_dir():
            return (
                f"no database at {db}: {parent} is a file, not a directory "
                "(DATA_DIR names the folder that holds asf.duckdb)"
            )
    demo = db.parent / "demo" / db.name
    if demo.is_file():
        return (
            f"no database at {db}; the demo's is {demo}: add DATA_DIR={demo.parent} "
            f"(e.g. make sql DATA_DIR={demo.parent}), or run `make extract` for your own"
        )
    return f"no database at {db}: run `make extract` (or `make demo`, then DATA_DIR=data/demo)"


def missing_views(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The views of `extract.db.views` and `extract.db.findings` that the database does
    not have."""
    from extract.db.findings import VIEW_NAMES as FINDINGS_VIEWS

    have = {
        name
        for (name,) in con.execute(
            "SELECT view_name FROM duckdb_views() WHERE NOT internal"
        ).fetchall()
    }
    return [v for v in (*VIEW_NAMES, *FINDINGS_VIEWS) if v not in have]


def stale_hint(exc: Exception) -> str:
    """What to say after an error that a database older than the code explains."""
    if isinstance(exc, duckdb.BinderException | duckdb.CatalogException):
        return (
            " (a database written by an older version lacks what this code reads: "
            "`make extract` brings it up to date)"
        )
    return ""
