"""The hive-partitioned Parquet dataset of `make export` (extract/outputs/parquet.py):
every table reads back with `read_parquet('.../**/*.parquet', hive_partitioning = true)`
to the same rows as the database (SQL EXCEPT ALL both ways), partitioned by the list's
domain and the archive's year, child rows in their message's partition, also when
written in many slices; a rerun replaces it, a failed one leaves the old dataset as it
was and no temporary directory."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from extract.db.schema import STORAGE_ONLY, public_select
from extract.db.store import Store
from extract.outputs.export import main as export_main
from extract.outputs.parquet import DATASET, write_dataset
from extract.runner import run
from tests.archives import sample_as_archives, write_archive
from tests.test_extract_cli import BROKEN


def read_back(con, dataset: Path, table: str) -> str:
    glob = str(dataset / table / "**" / "*.parquet").replace("'", "''")
    return f"read_parquet('{glob}', hive_partitioning = true)"


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("parquet")
    sample_as_archives(data_dir)
    for name, (data, _, _) in BROKEN.items():  # errors rows
        write_archive(data_dir, f"{name}@fixtures.apache.org", "2016-06", data)
    run(data_dir, workers=2)
    assert export_main(["--data-dir", str(data_dir)]) == 0
    return data_dir / "asf.duckdb", data_dir / "export" / "dataset"


@pytest.mark.parametrize("table", sorted(DATASET))
def test_every_table_reads_back_to_the_same_rows(exported, table):
    db, dataset = exported
    con = duckdb.connect(str(db), read_only=True)
    try:
        parquet = f"(SELECT * EXCLUDE (domain, year) FROM {read_back(con, dataset, table)})"
        rows = f"(SELECT {public_select(table)} FROM {table})"  # as readers see them
        (n,) = con.execute(f"SELECT count(*) FROM {table}").fetchone()
        assert n > 0
        assert con.execute(f"SELECT count(*) FROM {parquet}").fetchone() == (n,)
        for a, b in ((rows, parquet), (parquet, rows)):
            assert con.execute(
                f"SELECT count(*) FROM (SELECT * FROM {a} EXCEPT ALL SELECT * FROM {b})"
            ).fetchone() == (0,)
    finally:
        con.close()


def test_partitions_are_the_domain_and_the_year(exported):
    db, dataset = exported
    con = duckdb.connect(str(db), read_only=True)
    try:
        messages = read_back(con, dataset, "messages")
        # The partition values are the list's domain and the year of the monthly
        # archive the message is filed under (the month in its msg_key).
        assert con.execute(
            f"SELECT count(*) FROM {messages} "
            "WHERE domain IS DISTINCT FROM split_part(list, '@', 2) "
            "OR year IS DISTINCT FROM CAST(left(split_part(msg_key, '/', 2), 4) AS INTEGER) "
            "OR year IS DISTINCT FROM CAST(left(split_part(archive, '/', 4), 4) AS INTEGER)"
        ).fetchone() == (0,)
        assert con.execute(f"SELECT count(DISTINCT domain) > 10 FROM {messages}").fetchone()[0]
        # A message's tables and measurements sit in its partition.
        for child in ("result_tables", "measurements"):
            assert (
                con.execute(
                    f"SELECT count(*), count(*) FILTER (c.domain = m.domain AND c.year = m.year) "
                    f"FROM {read_back(con, dataset, child)} c JOIN {messages} m USING (msg_key)"
                ).fetchone()
                == con.execute(f"SELECT count(*), count(*) FROM {child}").fetchone()
            )
        errors = read_back(con, dataset, "errors")
        assert con.execute(f"SELECT DISTINCT domain, year FROM {errors}").fetchall() == [
            ("fixtures.apache.org", 2016)
        ]
    finally:
        con.close()
    files = sorted(p.relative_to(dataset).parts[:3] for p in dataset.glob("**/*.parquet"))
    assert ("messages", "domain=kudu.apache.org", "year=2017") in files
    assert all(d.startswith("domain=") and y.startswith("year=") for _, d, y in files)


def test_a_dataset_written_in_slices_reads_back_whole(exported, tmp_path, monkeypatch):
    """Each table is written a slice of rows at a time (memory flat in its size): with
    slices of a few rows, every row is there once, in its partition."""
    from extract.outputs import parquet

    monkeypatch.setattr(parquet, "SLICE_ROWS", 5)
    monkeypatch.setattr(parquet, "SLICE_BYTES", 1)  # (64 messages a slice at least)
    db, _ = exported
    con = duckdb.connect(str(db), read_only=True)
    try:
        written = dict(write_dataset(con, tmp_path / "dataset"))
        for table in DATASET:
            back = read_back(con, tmp_path / "dataset", table)
            parquet_rows = f"(SELECT * EXCLUDE (domain, year) FROM {back})"
            rows = f"(SELECT {public_select(table)} FROM {table})"
            (n,) = con.execute(f"SELECT count(*) FROM {table}").fetchone()
            assert written[tmp_path / "dataset" / table] == n
            for a, b in ((rows, parquet_rows), (parquet_rows, rows)):
                assert con.execute(
                    f"SELECT count(*) FROM (SELECT * FROM {a} EXCEPT ALL SELECT * FROM {b})"
                ).fetchone() == (0,), table
    finally:
        con.close()
    files = list((tmp_path / "dataset" / "measurements").glob("**/data_*_*.parquet"))
    slices = {int(p.name.split("_")[1]) for p in files}
    assert len(slices) > 5  # (many slices were written)


def test_an_empty_database_gives_an_empty_readable_dataset(tmp_path):
    Store(tmp_path / "asf.duckdb").close()
    con = duckdb.connect(str(tmp_path / "asf.duckdb"))
    try:
        written = write_dataset(con, tmp_path / "dataset")
        assert [n for _, n in written] == [0] * len(DATASET)
        for table in DATASET:
            cols = [r[0] for r in con.execute(f"DESCRIBE {table}").fetchall()]
            cols = [c for c in cols if c not in STORAGE_ONLY.get(table, ())]
            rel = read_back(con, tmp_path / "dataset", table)
            assert con.execute(f"SELECT count(*) FROM {rel}").fetchone() == (0,)
            got = [r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {rel}").fetchall()]
            assert sorted(got) == sorted([*cols, "domain", "year"])
    finally:
        con.close()


def test_a_rerun_replaces_the_dataset_and_a_failed_one_keeps_it(tmp_path):
    sample_as_archives(tmp_path)
    run(tmp_path, workers=1)
    db, dataset = tmp_path / "asf.duckdb", tmp_path / "dataset"
    con = duckdb.connect(str(db))
    try:
        write_dataset(con, dataset)
        stale = dataset / "messages" / "domain=gone.apache.org"
        stale.mkdir()
        write_dataset(con, dataset)  # replaced whole: nothing of the old one stays
        assert not stale.exists()
        before = sorted(p.read_bytes() for p in dataset.glob("**/*.parquet"))
        # A table that cannot be partitioned (a column named like a partition) fails
        # the export after the first tables were written.
        con.execute("ALTER TABLE errors ADD COLUMN domain VARCHAR")
        with pytest.raises(ValueError, match="errors has a column named domain"):
            write_dataset(con, dataset)
    finally:
        con.close()
    assert sorted(p.read_bytes() for p in dataset.glob("**/*.parquet")) == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".dataset")) == []


def test_messages_carry_their_whole_text_not_its_storage(exported):
    db, dataset = exported
    con = duckdb.connect(str(db), read_only=True)
    try:
        rel = read_back(con, dataset, "messages")
        got = {r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {rel}").fetchall()}
        assert "text" in got and not got & set(STORAGE_ONLY["messages"])
        # the text read back is the database's whole text, also where it differs from
        # the body (quoted replies, footers: most sample messages)
        (differs, same) = con.execute(
            f"SELECT count(*) FILTER (m.text <> m.body), "
            f"count(*) FILTER (m.text = p.text AND m.text IS NOT NULL) "
            f"FROM messages m JOIN {rel} p USING (msg_key)"
        ).fetchone()
        assert differs > 0
        assert same == con.execute("SELECT count(*) FROM messages").fetchone()[0]
    finally:
        con.close()
