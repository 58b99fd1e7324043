"""Small databases for the view and report tests: the real schema (extract.db.schema), rows
given by the test. Returns the path of a DuckDB file."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import duckdb

from extract.db.schema import columns, create_statements
from extract.results.comparisons import annotate_stored


def insert(con: duckdb.DuckDBPyConnection, table: str, **row) -> None:
    names = columns(table)
    unknown = set(row) - set(names)
    assert not unknown, f"not columns of {table}: {unknown}"
    con.execute(
        f"INSERT INTO {table} ({', '.join(chr(34) + n + chr(34) for n in names)}) "
        f"VALUES ({', '.join('?' for _ in names)})",
        [row.get(n) for n in names],
    )


def message(key: str, **fields) -> dict:
    """A messages row with defaults for what a test does not care about."""
    base = {
        "msg_key": key,
        "list": "dev@example.apache.org",
        "sent_at": datetime(2020, 1, 1, tzinfo=UTC),
        "from_name": "Someone",
        "from_address": "someone@example.org",
        "subject": f"subject of {key}",
        "kind": "mail",
        "is_benchmark": True,
        "benchmark_score": 0.9,
        "formats": [],
        "body": f"body of {key}",
        "permalink": f"https://lists.apache.org/thread/{key}",
    }
    base.update(fields)
    return base


def measurement(key: str, ordinal: int, **fields) -> dict:
    base = {"msg_key": key, "table_id": f"{key}#0", "ordinal": ordinal, "metric": "Score"}
    base.update(fields)
    return base


def make_db(
    path: Path, messages: list[dict], tables: list[dict] = (), measurements: list[dict] = ()
) -> Path:
    con = duckdb.connect(str(path))
    try:
        for sql in create_statements():
            con.execute(sql)
        for row in messages:
            insert(con, "messages", **row)
        for row in tables:
            insert(con, "result_tables", **row)
        measurements = [dict(row) for row in measurements]
        if not any("side" in row for row in measurements):  # as the extractor fills them
            annotate_stored(measurements)
        for row in measurements:
            insert(con, "measurements", **row)
    finally:
        con.close()
    return path
