"""`python -m extract.outputs.export --data-dir DIR [--db FILE] [--out DIR] [--format parquet,csv]`:
every table and view of the database to DIR/export/<name>.parquet and <name>.csv.

`export(con, out_dir, formats)` returns the written files with their row counts.
The database is opened read-only (`extract.outputs.connect`), so an export runs beside
any other reader. DuckDB's COPY does the writing; files are written to a temporary name
first, so an export that fails half-way never leaves a partial file under the final name.

CSV files are for spreadsheets, which run a cell starting with `=`, `+`, `-`, `@`
(or a tab or carriage return) as a formula: such text cells get a leading `'` (the
OWASP rule against CSV injection). Only text columns (VARCHAR): numbers, `-1.5`
included, are written as they are. Parquet keeps every value as stored. Columns that are
storage only (`messages.text_rest`, `text_map`: see extract/db/schema.py) are left out;
`messages.text` is written whole.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import duckdb

from extract.db.schema import public_select
from extract.outputs import bench_formats
from extract.outputs.connect import DatabaseUnavailable, open_database, stale_hint
from extract.outputs.parquet import write_dataset

FORMATS = {"parquet": "(FORMAT parquet, COMPRESSION zstd)", "csv": "(FORMAT csv, HEADER true)"}
# The first characters that make a spreadsheet read a cell as a formula (OWASP).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


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


def _csv_select(con: duckdb.DuckDBPyConnection, name: str) -> str:
    """SELECT of every column of `name`, text cells that start like a formula prefixed
    with `'`."""
    starts = ", ".join(_literal(c) for c in FORMULA_START)
    quote = _literal("'")
    cols = []
    for col, typ, *_ in con.execute(f"DESCRIBE {_select(con, name)}").fetchall():
        c = _ident(col)
        if typ == "VARCHAR":
            cols.append(
                f"CASE WHEN left({c}, 1) IN ({starts}) THEN {quote} || {c} ELSE {c} END AS {c}"
            )
        else:
            cols.append(c)
    return f"SELECT {', '.join(cols)} FROM ({_select(con, name)})"


def _select(con: duckdb.DuckDBPyConnection, name: str) -> str:
    """The rows of `name` as readers see them: without storage-only columns (the
    `text` of messages is whole; extract/db/schema.py)."""
    have = {r[0] for r in con.execute(f"DESCRIBE {_ident(name)}").fetchall()}
    return f"SELECT {public_select(name, have)} FROM {_ident(name)}"


def export(
    con: duckdb.DuckDBPyConnection, out_dir: Path, formats: tuple[str, ...] = ("parquet", "csv")
) -> list[tuple[Path, int]]:
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name in relations(con):
        n = con.execute(f"SELECT count(*) FROM {_ident(name)}").fetchone()[0]
        for fmt in formats:
            path = out_dir / f"{name}.{fmt}"
            tmp = out_dir / f".{name}.{fmt}.tmp"
            select = _csv_select(con, name) if fmt == "csv" else _select(con, name)
            con.execute(f"COPY ({select}) TO {_literal(str(tmp))} {FORMATS[fmt]}")
            os.replace(tmp, path)
            written.append((path, n))
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
        "--no-dataset",
        action="store_true",
        help="leave out OUT/dataset, the tables as hive-partitioned Parquet "
        "(extract/outputs/parquet.py)",
    )
    args = parser.parse_args(argv)
    db = args.db or args.data_dir / "asf.duckdb"
    out = args.out or args.data_dir / "export"
    formats = tuple(f.strip() for f in args.format.split(",") if f.strip())
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        parser.error(f"unknown format {', '.join(unknown)}; use parquet and/or csv")
    try:
        con = open_database(db)  # read-only: an export never blocks another reader
        try:
            written = export(con, out, formats)
            if not args.no_dataset:
                written += write_dataset(con, out / "dataset")
            written += bench_formats.write_all(con, out)  # BMF JSON and Otava CSV
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
