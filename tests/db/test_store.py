"""The store on a real DuckDB file: replacing an archive's rows, and a failed load
leaving the previous rows untouched (one transaction per batch)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from extract.db.staging import StagedArchive, StageWriter
from extract.db.store import STORAGE_VERSION, Store, StoreBusy
from extract.mail.mbox import read_mbox
from extract.pipeline import EXTRACTOR_VERSION, process_archive
from extract.worker import stage_archive
from tests.archives import to_mbox, write_archive
from tests.mail.mboxes import make_message, mixed_archive

REPO = Path(__file__).resolve().parents[2]


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


# ------------------------------------------------- the run's own copy, published whole


def storage_tag(db) -> str:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(
            "SELECT tags['storage_version'] FROM duckdb_databases() "
            "WHERE database_name = current_database()"
        ).fetchone()[0]
    finally:
        con.close()


def one_archive(data_dir, name: str):
    msgs = [make_message(f"{name} {i}", message_id=f"{name}{i}@x") for i in range(3)]
    return process_archive(write_archive(data_dir, f"{name}@x.apache.org", "2021-01",
                                         to_mbox(msgs)), data_dir)  # fmt: skip


def test_readers_open_beside_a_run_and_see_it_only_once_published(tmp_path):
    db = tmp_path / "asf.duckdb"
    with Store(db) as store:
        store.replace([one_archive(tmp_path, "a")])
    reader = duckdb.connect(str(db), read_only=True)  # a notebook, open all along
    try:
        with Store(db) as store:
            store.replace([one_archive(tmp_path, "b")])
            during = duckdb.connect(str(db), read_only=True)  # opened during the run
            assert during.execute("SELECT count(*) FROM messages").fetchone() == (3,)
            during.close()
        assert reader.execute("SELECT count(*) FROM messages").fetchone() == (3,)
    finally:
        reader.close()
    assert counts(db)[:2] == (6, 2)  # after: the whole run
    assert sorted(p.name for p in tmp_path.iterdir()) == [".staging", "asf.duckdb", "raw"]
    assert list((tmp_path / ".staging").iterdir()) == []
    assert storage_tag(db) == STORAGE_VERSION + "+"


def test_one_run_at_a_time(tmp_path):
    db = tmp_path / "asf.duckdb"
    with Store(db), pytest.raises(StoreBusy, match=r"another extraction \(pid \d+\) is writing"):
        Store(db)
    assert not (tmp_path / "asf.duckdb.new").exists()


KILLED = """
import os, sys
from pathlib import Path
from extract.db.store import Store
from tests.db.test_store import one_archive
store = Store(Path(sys.argv[1]) / "asf.duckdb")
store.replace([one_archive(Path(sys.argv[1]), "b")])
os._exit(0)  # killed after committing a batch
"""


@pytest.mark.parametrize("changed", [False, True], ids=["as-it-was", "changed-since"])
def test_a_killed_runs_copy_is_taken_up_while_the_database_is_unchanged(tmp_path, changed):
    db = tmp_path / "asf.duckdb"
    with Store(db) as store:
        store.replace([one_archive(tmp_path, "a")])
    subprocess.run([sys.executable, "-c", KILLED, str(tmp_path)], check=True, cwd=REPO)
    assert counts(db)[:2] == (3, 1) and (tmp_path / "asf.duckdb.new").exists()
    if changed:  # written in place meanwhile (make sql --write): the copy is stale
        con = duckdb.connect(str(db))
        con.execute("CREATE TABLE mine AS SELECT 1 AS one")
        con.close()
    with Store(db) as store:
        assert store.resumed is not changed
    assert counts(db)[:2] == ((3, 1) if changed else (6, 2))
    assert not (tmp_path / "asf.duckdb.new").exists()


def test_a_failed_open_leaves_nothing_new(tmp_path, monkeypatch):
    def broken(*_):
        raise duckdb.IOException("injected")

    monkeypatch.setattr("extract.db.store._write_schema", broken)
    with pytest.raises(duckdb.IOException):
        Store(tmp_path / "new" / "dir" / "asf.duckdb")
    assert list(tmp_path.iterdir()) == []
    monkeypatch.undo()
    db = tmp_path / "asf.duckdb"
    Store(db).close()
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    monkeypatch.setattr("extract.db.store._write_schema", broken)
    with pytest.raises(duckdb.IOException):
        Store(db)
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_a_database_in_duckdb_2s_own_format_is_written_again_readable(tmp_path):
    """A file written before the store set its format (DuckDB 2's own, which no 1.x
    client reads) is converted once, a user's own table included."""
    db = tmp_path / "asf.duckdb"
    with Store(db) as store:
        store.replace([one_archive(tmp_path, "a")])
    con = duckdb.connect(
        str(tmp_path / "v2.duckdb"), config={"storage_compatibility_version": "latest"}
    )
    con.execute(f"ATTACH '{db}' AS old (READ_ONLY)")
    con.execute("COPY FROM DATABASE old TO v2")
    con.execute("DETACH old")
    con.execute("CREATE TABLE mine AS SELECT 42 AS answer")
    con.close()
    (tmp_path / "v2.duckdb").replace(db)
    assert storage_tag(db) != STORAGE_VERSION + "+"
    Store(db).close()
    assert storage_tag(db) == STORAGE_VERSION + "+"
    assert counts(db)[:2] == (3, 1)
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT answer FROM mine").fetchall() == [(42,)]
    con.close()


def test_a_left_copy_that_does_not_open_is_made_anew(tmp_path):
    db = tmp_path / "asf.duckdb"
    with Store(db) as store:
        store.replace([one_archive(tmp_path, "a")])
    subprocess.run([sys.executable, "-c", KILLED, str(tmp_path)], check=True, cwd=REPO)
    copy = tmp_path / "asf.duckdb.new"
    copy.write_bytes(copy.read_bytes()[:5000])  # cut short, as a crash mid-write leaves it
    (tmp_path / "asf.duckdb.new.wal").unlink(missing_ok=True)
    with Store(db) as store:
        assert store.resumed is False
        store.replace([one_archive(tmp_path, "c")])
    assert counts(db)[:2] == (6, 2)
