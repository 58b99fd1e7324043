"""The tables as a hive-partitioned Parquet dataset that DuckDB, pandas (pyarrow) or
Spark read in place, from disk, HTTP or S3, without copying the database:

    OUT/<table>/domain=<list domain>/year=<YYYY>/data_0.parquet

`write_dataset(con, OUT)` writes every table (`messages`, `result_tables`,
`measurements`, `errors`, `archives`) with DuckDB's `COPY ... (FORMAT parquet,
PARTITION_BY (domain, year))`; `make export` calls it for DATA_DIR/export/dataset.
The partition columns: `domain` is the list address's domain (`kudu.apache.org`);
`year` is the year of `sent_at` in UTC for messages, the year of their message for
`result_tables` and `measurements` (so a message and its rows sit in the same
partition), and the year of the archive's month for `archives` and `errors`. Columns
that are storage only (`messages.text_rest`, `text_map`) are left out: `messages.text`
is written whole. A NULL
(a message without a date) is DuckDB's `__HIVE_DEFAULT_PARTITION__`, read back as NULL.
Read it with, e.g.:

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
_DOMAIN = "nullif(split_part({list}, '@', 2), '')"
_MONTH_YEAR = "try_cast(left({month}, 4) AS INTEGER)"
_MESSAGE_PARTS = (
    f"SELECT msg_key, {_DOMAIN.format(list='list')} AS domain, "
    "year(sent_at AT TIME ZONE 'UTC') AS year FROM messages"
)
# table -> the SELECT of its rows with their partition columns
DATASET = {
    "messages": f"SELECT {{columns}}, {_DOMAIN.format(list='list')} AS domain, "
    "year(sent_at AT TIME ZONE 'UTC') AS year FROM messages",
    "result_tables": f"SELECT t.*, p.domain, p.year FROM result_tables t "
    f"LEFT JOIN ({_MESSAGE_PARTS}) p ON p.msg_key = t.msg_key",
    "measurements": f"SELECT t.*, p.domain, p.year FROM measurements t "
    f"LEFT JOIN ({_MESSAGE_PARTS}) p ON p.msg_key = t.msg_key",
    "archives": f"SELECT a.*, {_DOMAIN.format(list='a.list')} AS domain, "
    f"{_MONTH_YEAR.format(month='a.month')} AS year FROM archives a",
    "errors": f"SELECT e.*, {_DOMAIN.format(list='a.list')} AS domain, "
    f"{_MONTH_YEAR.format(month='a.month')} AS year FROM errors e "
    "LEFT JOIN archives a ON a.path = e.archive",
}


def _literal(text: str) -> str:
    # COPY takes no bound parameter for its path.
    return "'" + text.replace("'", "''") + "'"


def write_dataset(con: duckdb.DuckDBPyConnection, out_dir: Path) -> list[tuple[Path, int]]:
    """Write the dataset into `out_dir` (replacing the one there); returns each table's
    directory with its row count."""
    out_dir = Path(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    _remove_leftovers(out_dir)
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
            (n,) = con.execute(f'SELECT count(*) FROM "{table}"').fetchone()
            target = tmp / table
            if n:
                con.execute(
                    f"COPY ({select}) TO {_literal(str(target))} (FORMAT parquet, "
                    f"PARTITION_BY ({', '.join(PARTITION_COLUMNS)}), COMPRESSION zstd)"
                )
            else:
                # No partition to write: one empty file keeps the glob and the columns.
                target.mkdir()
                con.execute(
                    f"COPY ({select}) TO {_literal(str(target / 'data_0.parquet'))} "
                    "(FORMAT parquet, COMPRESSION zstd)"
                )
            written.append((out_dir / table, n))
        _swap_in(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return written


def _swap_in(new: Path, final: Path) -> None:
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


def _remove_leftovers(final: Path) -> None:
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
