"""The store on a real DuckDB file: replacing an archive's rows, and a failed load
leaving the previous rows untouched (one transaction per batch)."""

from __future__ import annotations

import duckdb
import pytest

from extract.db.staging import StagedArchive, StageWriter
from extract.db.store import Store
from extract.mail.mbox import read_mbox
from extract.pipeline import EXTRACTOR_VERSION, process_archive
from extract.worker import stage_archive
from tests.mail.mboxes import make_message, mixed_archive, to_mbox, write_archive


def counts(db) -> tuple:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(
            "SELECT (SELECT count(*) FROM messages), (SELECT count(*) FROM archives), "
            "(SELECT list(msg_key ORDER BY msg_key) FROM messages)"
        ).fetchone()
    finally:
        con.close()


def test_replace_swaps_an_archives_rows(tmp_path):
    path = write_archive(
        tmp_path,
        "s@x.apache.org",
        "2021-01",
        mixed_archive(),
    )
    expected = len(list(read_mbox(path)))
    db = tmp_path / "asf.duckdb"
    with Store(db) as store:
        store.replace([process_archive(path, tmp_path)])
        (known,) = store.known_archives().items()
    assert known[0] == "raw/x.apache.org/s/2021-01.mbox.gz" and len(known[1][0]) == 64
    assert known[1][1] is True  # its benchmark results were looked for
    n, n_archives, _ = counts(db)
    assert (n, n_archives) == (expected, 1) and expected > 3

    path.write_bytes(path.read_bytes())  # same bytes, new rows object: not twice as many
    with Store(db) as store:
        store.replace([process_archive(path, tmp_path)])
    assert counts(db)[:2] == (expected, 1)


def test_failed_load_rolls_back_to_the_previous_rows(tmp_path):
    path = write_archive(
        tmp_path, "s@x.apache.org", "2021-01", to_mbox([make_message("one", message_id="1@x")])
    )
    db = tmp_path / "asf.duckdb"
    with Store(db) as store:
        store.replace([process_archive(path, tmp_path)])
    before = counts(db)

    rows = process_archive(path, tmp_path)
    with StageWriter(tmp_path, encode=False) as writer:  # a row DuckDB refuses: the load
        writer.write("messages", [{**rows.messages[0], "position": "not a number"}])  # fails
        broken = writer.finish(rows.archive)
    with Store(db) as store, pytest.raises(duckdb.Error):
        store.load([StagedArchive(rows.archive, broken.files)])
    assert counts(db) == before


def test_an_archive_that_cannot_be_processed_is_recorded_and_retried(tmp_path):
    gone = tmp_path / "raw" / "x.apache.org" / "gone" / "2021-02.mbox.gz"  # never written
    db = tmp_path / "asf.duckdb"
    with Store(db) as store:
        store.load([stage_archive(gone, tmp_path, store.tmp_dir)])
        assert store.known_archives() == {
            "raw/x.apache.org/gone/2021-02.mbox.gz": (None, True, EXTRACTOR_VERSION)
        }
        errors = store.con.execute("SELECT position, stage, reason FROM errors").fetchall()
    assert len(errors) == 1 and errors[0][:2] == (None, "read")
    assert "FileNotFoundError" in errors[0][2]


def test_a_database_from_an_older_version_gets_the_new_columns(tmp_path):
    db = tmp_path / "asf.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE archives (path VARCHAR, sha256 VARCHAR)")
    con.execute("INSERT INTO archives VALUES ('raw/x.apache.org/s/2020-01.mbox.gz', 'abc')")
    con.close()
    with Store(db) as store:
        cols = [r[0] for r in store.con.execute("DESCRIBE archives").fetchall()]
        assert "results" in cols and "n_messages" in cols
        # rows from before --messages-only existed had their results looked for
        # (and no code digest: the next run extracts it again with this code)
        assert store.known_archives() == {"raw/x.apache.org/s/2020-01.mbox.gz": ("abc", True, None)}


def test_rows_encoded_by_the_worker_or_by_the_writer_load_the_same(tmp_path):
    """Workers write JSON themselves or leave it to the writer (row files): the
    database must not tell the difference."""
    raw = mixed_archive()
    contents = []
    for encode in (True, False):
        run = tmp_path / str(encode)
        path = write_archive(run, "s@x.apache.org", "2021-01", raw)
        with Store(run / "asf.duckdb") as store:
            staged = stage_archive(path, run, store.tmp_dir, encode=encode)
            suffixes = {p.rsplit(".", 1)[1] for p in staged.files.values()}
            assert suffixes == {"ndjson" if encode else "rows"}
            store.load([staged])
            contents.append(
                store.con.execute(
                    "SELECT * EXCLUDE (extracted_at) FROM archives, "
                    "(SELECT list(m ORDER BY msg_key) FROM messages m)"
                ).fetchall()
            )
    assert contents[0] == contents[1] and len(contents[0][0][-1]) > 5
