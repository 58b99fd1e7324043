"""`python -m extract.outputs.export --data-dir DIR [--db FILE] [--out DIR] [--format parquet,csv]`:
every table and view of the database to DIR/export/<name>.parquet and <name>.csv.

`export(con, out_dir, formats)` returns the written files with their row counts.
The database is opened read-only (`extract.outputs.connect`), so an export runs beside
any other reader. DuckDB's COPY does the writing; files are written to a temporary name
first, so an export that fails half-way never leaves a partial file under the final name.

CSV cells are plain text any tool reads back: a list or a struct (`formats`,
`benchmark_reasons`, `rows`, `landed.commits`) is JSON (`["jmh","prose"]`, not
DuckDB's `[jmh, prose]`), and a time is ISO 8601 in UTC with its offset
(`2017-03-10T22:49:00+00:00`; `.ffffff` when it has microseconds), the one format
of every export (`bench_formats` writes the same). CSV files are for spreadsheets,
which run a cell starting with `=`, `+`, `-`, `@` (or a tab or carriage return) as a
formula: such text cells get a leading `'` (the OWASP rule against CSV injection).
Only text columns (VARCHAR): numbers, `-1.5` included, are written as they are.
Parquet keeps every value as stored, typed. Columns that are storage only
(`messages.text_rest`, `text_map`: see extract/db/schema.py) are left out;
`messages.text` is written whole.

Memory stays flat in the database's size: DuckDB streams each COPY and, past
`MEMORY_LIMIT`, spills what it must hold (a sort, a join) to a temporary folder in
the output, removed at the end; the partitioned dataset is written in slices and the
trackers' files a run and a series at a time. A step that needs more than the limit
(a view whose aggregates DuckDB cannot spill) is run again with twice as much, up to
DuckDB's own default, and says so: the export never fails for our limit.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import duckdb

from extract.db.schema import public_select
from extract.outputs import bench_formats
from extract.outputs.connect import DatabaseUnavailable, open_database, stale_hint
from extract.outputs.parquet import write_dataset
from extract.version import add_version_argument

# Parquet row groups are cut at ROW_GROUP_BYTES, not only at DuckDB's 122,880 rows: the
# writer holds a row group in memory, and 122,880 messages with their text is gigabytes.
ROW_GROUP_BYTES = "16MB"
FORMATS = {
    "parquet": f"(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE_BYTES '{ROW_GROUP_BYTES}')",
    "csv": "(FORMAT csv, HEADER true)",
}
# The first characters that make a spreadsheet read a cell as a formula (OWASP).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# DuckDB's memory for an export: past it, sorts and partitioned writes spill to disk.
MEMORY_LIMIT = "512MB"
# A time inside JSON as DuckDB writes it ("2018-01-16 10:00:00+00", the session in UTC):
# the same time in ISO 8601.
T = TypeVar("T")
_JSON_TIME = r'"(\d{4,}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?)\+00"'


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    # COPY takes no bound parameter for its path; the path comes from the command line.
    return "'" + text.replace("'", "''") + "'"


def relations(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Tables then views of the main schema."""
    return [
        name
        for (name,) in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' "
            "ORDER BY table_type, table_name"
        ).fetchall()
    ]


def iso_time(column: str, naive: bool = False) -> str:
    """SQL: a TIMESTAMPTZ (or a TIMESTAMP in UTC, `naive`) as ISO 8601 text in UTC
    with its offset, 2017-03-10T22:49:00+00:00; infinities as DuckDB writes them."""
    utc = column if naive else f"({column} AT TIME ZONE 'UTC')"
    return (
        f"CASE WHEN NOT isfinite({column}) THEN CAST({column} AS VARCHAR) "
        f"ELSE strftime({utc}, '%Y-%m-%dT%H:%M:%S') "
        f"|| CASE WHEN epoch_us({column}) % 1000000 <> 0 THEN strftime({utc}, '.%f') "
        "ELSE '' END || '+00:00' END"
    )


def csv_column(column: str, typ: str) -> str:
    """SQL: how a column of DuckDB type `typ` is written to CSV."""
    c = _ident(column)
    if typ == "VARCHAR":
        starts = ", ".join(_literal(s) for s in FORMULA_START)
        return f"CASE WHEN left({c}, 1) IN ({starts}) THEN {_literal(chr(39))} || {c} ELSE {c} END"
    if typ in ("TIMESTAMP WITH TIME ZONE", "TIMESTAMP"):
        return iso_time(c, naive=typ == "TIMESTAMP")
    if typ.endswith("]") or typ.startswith(("STRUCT", "MAP", "UNION")):
        json = f"CAST(to_json({c}) AS VARCHAR)"
        if "TIMESTAMP" in typ:  # times inside: ISO 8601 as well
            json = f"regexp_replace({json}, {_literal(_JSON_TIME)}, '\"\\1T\\2+00:00\"', 'g')"
        return json
    return c


def _csv_select(con: duckdb.DuckDBPyConnection, name: str) -> str:
    """SELECT of every column of `name` as CSV cells (`csv_column`): lists and structs
    as JSON, times in ISO 8601, text that starts like a formula prefixed with `'`."""
    cols = [
        f"{csv_column(col, typ)} AS {_ident(col)}"
        for col, typ, *_ in con.execute(f"DESCRIBE {_select(con, name)}").fetchall()
    ]
    return f"SELECT {', '.join(cols)} FROM ({_select(con, name)})"


def _select(con: duckdb.DuckDBPyConnection, name: str) -> str:
    """The rows of `name` as readers see them: without storage-only columns (the
    `text` of messages is whole; extract/db/schema.py)."""
    have = {r[0] for r in con.execute(f"DESCRIBE {_ident(name)}").fetchall()}
    return f"SELECT {public_select(name, have)} FROM {_ident(name)}"


class MemoryBudget:
    """DuckDB's memory for an export: `limit` to start with; a step that needs more (a
    view whose aggregates DuckDB cannot spill, as `landed` on a large database) is run
    again with twice as much, up to `ceiling` (DuckDB's own default, most of the RAM),
    and the limit goes back down after it. An export never fails for a limit of ours."""

    def __init__(self, con: duckdb.DuckDBPyConnection, limit: str, ceiling: str, say=None):
        self.con, self.base, self.ceiling = con, _bytes(limit), _bytes(ceiling)
        self.say = say or (lambda text: print(text, file=sys.stderr))
        self._set(self.base)

    def _set(self, n_bytes: int) -> None:
        self.con.execute(f"SET memory_limit = '{n_bytes}B'")

    def run(self, what: str, step: Callable[[], T]) -> T:
        limit = self.base
        try:
            while True:
                try:
                    return step()
                except duckdb.OutOfMemoryException:
                    if limit >= self.ceiling:
                        raise
                    limit = min(limit * 2, self.ceiling)
                    self.say(
                        f"export: {what} needs more memory than DuckDB had; again with "
                        f"{limit / 2**20:,.0f} MiB"
                    )
                    self._set(limit)
        finally:
            if limit != self.base:
                self._set(self.base)


_SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([KMGT]i?B|B|bytes)?\s*", re.I)
_UNITS = {"": 1, "b": 1, "bytes": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
          "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}  # fmt: skip


def _bytes(size: str) -> int:
    """A memory size as DuckDB writes and reads it ('512MB', '18.8 GiB') in bytes."""
    m = _SIZE.fullmatch(size)
    if not m:
        raise ValueError(f"not a memory size: {size!r} (e.g. 512MB, 2GB)")
    return int(float(m.group(1)) * _UNITS[(m.group(2) or "").lower()])


@contextlib.contextmanager
def bounded_memory(
    con: duckdb.DuckDBPyConnection, out_dir: Path, limit: str = MEMORY_LIMIT
) -> Iterator[MemoryBudget]:
    """DuckDB held to `limit` (a `MemoryBudget`), spilling to a temporary folder in
    `out_dir` that is removed afterwards (a read-only database has no spill folder of
    its own)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    spill = Path(tempfile.mkdtemp(prefix=".spill-", dir=out_dir))
    try:
        con.execute(f"SET temp_directory = {_literal(str(spill))}")
        con.execute("SET preserve_insertion_order = false")  # (COPY need not buffer)
        default = con.execute("SELECT current_setting('memory_limit')").fetchone()[0]
        yield MemoryBudget(con, limit, default)
    finally:
        shutil.rmtree(spill, ignore_errors=True)


def export(
    con: duckdb.DuckDBPyConnection,
    out_dir: Path,
    formats: tuple[str, ...] = ("parquet", "csv"),
    budget: MemoryBudget | None = None,
) -> list[tuple[Path, int]]:
    """Every relation to OUT/<name>.<format>; each relation one step of `budget`."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name in relations(con):

        def step(name: str = name) -> list[tuple[Path, int]]:
            done = []
            n = con.execute(f"SELECT count(*) FROM {_ident(name)}").fetchone()[0]
            for fmt in formats:
                path = out_dir / f"{name}.{fmt}"
                tmp = out_dir / f".{name}.{fmt}.tmp"
                select = _csv_select(con, name) if fmt == "csv" else _select(con, name)
                con.execute(f"COPY ({select}) TO {_literal(str(tmp))} {FORMATS[fmt]}")
                os.replace(tmp, path)
                done.append((path, n))
            return done

        written += step() if budget is None else budget.run(name, step)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m extract.outputs.export",
        description="Write every table and view to Parquet and CSV.",
    )
    parser.add_argument("--data-dir", type=Path, default=Path("data"), help="default: data")
    parser.add_argument("--db", type=Path, help="database file (default: DATA_DIR/asf.duckdb)")
    parser.add_argument("--out", type=Path, help="output directory (default: DATA_DIR/export)")
    parser.add_argument(
        "--format",
        default="parquet,csv",
        help="comma-separated: parquet, csv (default: both)",
    )
    parser.add_argument(
        "--memory-limit",
        default=MEMORY_LIMIT,
        help=f"DuckDB's memory for the export, past which it spills to disk; a step that "
        f"needs more gets twice as much, up to DuckDB's default (default: {MEMORY_LIMIT})",
    )
    parser.add_argument(
        "--no-dataset",
        action="store_true",
        help="leave out OUT/dataset, the tables as hive-partitioned Parquet "
        "(extract/outputs/parquet.py)",
    )
    add_version_argument(parser)
    args = parser.parse_args(argv)
    db = args.db or args.data_dir / "asf.duckdb"
    out = args.out or args.data_dir / "export"
    formats = tuple(f.strip() for f in args.format.split(",") if f.strip())
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        parser.error(f"unknown format {', '.join(unknown)}; use parquet and/or csv")
    try:
        _bytes(args.memory_limit)
    except ValueError as exc:
        parser.error(f"--memory-limit: {exc}")
    try:
        con = open_database(db)  # read-only: an export never blocks another reader
        try:
            with bounded_memory(con, out, args.memory_limit) as budget:
                written = export(con, out, formats, budget)
                if not args.no_dataset:
                    written += budget.run("dataset", lambda: write_dataset(con, out / "dataset"))
                # BMF JSON and Otava CSV
                written += budget.run("bmf, otava", lambda: bench_formats.write_all(con, out))
        finally:
            con.close()
    except (DatabaseUnavailable, duckdb.Error) as exc:
        print(f"export: {exc}{stale_hint(exc)}", file=sys.stderr)
        return 1
    for path, n in written:
        print(f"{path}  {n} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
