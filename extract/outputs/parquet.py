"""The tables as a hive-partitioned Parquet dataset that DuckDB, pandas (pyarrow) or
Spark read in place, from disk, HTTP or S3, without copying the database:

    OUT/<table>/domain=<list domain>/year=<YYYY>/data_0.parquet

`write_dataset(con, OUT)` writes every table (`messages`, `result_tables`,
`measurements`, `errors`, `archives`) with DuckDB's `COPY ... (FORMAT parquet,
PARTITION_BY (domain, year))`; `make export` calls it for DATA_DIR/export/dataset.
The partition columns: `domain` is the list address's domain (`kudu.apache.org`);
`year` is the year of the monthly archive the row comes from (lists.apache.org files
a message under the month it arrived): for a message and its tables and measurements
the month in its `msg_key` (`<list>/<YYYY-MM>/...`), so a message and its rows sit in
one partition, and for `archives` and `errors` the archive's month. Columns that are
storage only (`messages.text_rest`, `text_map`) are left out: `messages.text` is
written whole. A NULL (an error of a file that is no monthly archive) is DuckDB's
`__HIVE_DEFAULT_PARTITION__`, read back as NULL.

Memory stays flat in the table's size: DuckDB's partitioned write holds what it
writes in memory (it cannot spill it), so each table is written in slices of rows by
`rowid` (a slice of messages about SLICE_BYTES of mail), one COPY each, whose files
(`data_<slice>_<n>.parquet`) land in the partitions they belong to; no partition
needs a join. Read it with, e.g.:

    SELECT year, count(*) FROM read_parquet('OUT/messages/**/*.parquet',
        hive_partitioning = true) WHERE domain = 'kudu.apache.org' GROUP BY year

The dataset is written to a temporary directory beside OUT and renamed into place once
complete, so a reader (or a killed export) never sees half of one.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import uuid
from pathlib import Path

import duckdb

from extract.db.schema import public_select

PARTITION_COLUMNS = ("domain", "year")
# Row groups cut by size as well as rows (a row group is held in memory until written);
# as extract.outputs.export's.
ROW_GROUP_BYTES = "16MB"
SLICE_BYTES = 32 * 1024 * 1024  # mail in one slice of messages (by their raw size)
SLICE_ROWS = 65536  # rows in one slice of the other tables
_DOMAIN = "nullif(split_part({list}, '@', 2), '')"
_MONTH_YEAR = "try_cast(left({month}, 4) AS INTEGER)"
# a row's list and archive month, from its msg_key (`<list>/<YYYY-MM>/<Message-ID>`)
_KEY_DOMAIN = _DOMAIN.format(list="split_part(t.msg_key, '/', 1)")
_KEY_YEAR = _MONTH_YEAR.format(month="split_part(t.msg_key, '/', 2)")
# table -> the SELECT of its rows (alias t) with their partition columns
DATASET = {
    "messages": f"SELECT {{columns}}, {_KEY_DOMAIN} AS domain, {_KEY_YEAR} AS year FROM messages t",
    "result_tables": f"SELECT t.*, {_KEY_DOMAIN} AS domain, {_KEY_YEAR} AS year "
    "FROM result_tables t",
    "measurements": f"SELECT t.*, {_KEY_DOMAIN} AS domain, {_KEY_YEAR} AS year FROM measurements t",
    "archives": f"SELECT t.*, {_DOMAIN.format(list='t.list')} AS domain, "
    f"{_MONTH_YEAR.format(month='t.month')} AS year FROM archives t",
    # (archives is small: one row per monthly archive)
    "errors": f"SELECT t.*, {_DOMAIN.format(list='a.list')} AS domain, "
    f"{_MONTH_YEAR.format(month='a.month')} AS year FROM errors t "
    "LEFT JOIN archives a ON a.path = t.archive",
}


def _literal(text: str) -> str:
    # COPY takes no bound parameter for its path.
    return "'" + text.replace("'", "''") + "'"


def write_dataset(con: duckdb.DuckDBPyConnection, out_dir: Path) -> list[tuple[Path, int]]:
    """Write the dataset into `out_dir` (replacing the one there); returns each table's
    directory with its row count."""
    out_dir = Path(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    remove_leftovers(out_dir)
    tmp = out_dir.with_name(f".{out_dir.name}.tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    written = []
    try:
        tmp.mkdir()
        for table, select in DATASET.items():
            have = {r[0] for r in con.execute(f'DESCRIBE "{table}"').fetchall()}
            if clash := have.intersection(PARTITION_COLUMNS):
                raise ValueError(f"table {table} has a column named {', '.join(clash)}")
            # (storage-only columns left out; an older file may not have them)
            select = select.replace("{columns}", public_select(table, have))
            (n, first, last) = con.execute(
                f'SELECT count(*), min(rowid), max(rowid) FROM "{table}"'
            ).fetchone()
            target = tmp / table
            if n:
                step = _slice_rows(con, table, have)
                for k, start in enumerate(range(first, last + 1, step)):
                    con.execute(
                        f"COPY ({select} WHERE t.rowid >= {start} AND t.rowid < {start + step}) "
                        f"TO {_literal(str(target))} (FORMAT parquet, "
                        f"PARTITION_BY ({', '.join(PARTITION_COLUMNS)}), COMPRESSION zstd, "
                        f"ROW_GROUP_SIZE_BYTES '{ROW_GROUP_BYTES}', OVERWRITE_OR_IGNORE, "
                        f"FILENAME_PATTERN 'data_{k}_{{i}}')"
                    )
            else:
                # No partition to write: one empty file keeps the glob and the columns.
                target.mkdir()
                con.execute(
                    f"COPY ({select}) TO {_literal(str(target / 'data_0.parquet'))} "
                    "(FORMAT parquet, COMPRESSION zstd)"
                )
            written.append((out_dir / table, n))
        swap_in(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return written


def _slice_rows(con: duckdb.DuckDBPyConnection, table: str, have: set[str]) -> int:
    """Rows of `table` per slice: for messages, about SLICE_BYTES of mail by their
    stored size; SLICE_ROWS for the others."""
    if table != "messages" or "size" not in have:
        return SLICE_ROWS
    (average,) = con.execute("SELECT avg(size) FROM messages").fetchone()
    return max(64, min(SLICE_ROWS, int(SLICE_BYTES / max(average or 1, 1))))


def swap_in(new: Path, final: Path) -> None:
    """Rename `new` to `final`; an old `final` is moved aside first and removed after,
    so `final` is always absent or complete."""
    old = None
    if final.exists():
        old = final.with_name(f".{final.name}.old-{os.getpid()}-{uuid.uuid4().hex[:8]}")
        os.rename(final, old)
    try:
        os.rename(new, final)
    except BaseException:
        if old is not None:
            os.rename(old, final)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def remove_leftovers(final: Path) -> None:
    """Temporary and old datasets of exports that were killed (their process is gone)."""
    with contextlib.suppress(OSError):
        for path in final.parent.glob(f".{final.name}.*-*-*"):
            pid = path.name.split("-")[-2]
            if pid.isdigit() and not _alive(int(pid)):
                shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True
