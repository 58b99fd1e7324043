"""A message's text is stored once (extract/db/schema.py): `messages.text` is a virtual
column computed from the body and what of the text is not the body (`text_rest`,
`text_map`). On real DuckDB files: every text reads back exactly (equal to the body,
the body a part of it, lines rewritten, nothing in common, empty, NULL), the long text
columns are zstd-compressed, and a database of the previous version (a stored `text`)
is upgraded when a Store opens it, in one transaction."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from extract.db import store as store_module
from extract.db.schema import (
    GENERATED,
    STORAGE_ONLY,
    TABLES,
    columns,
    text_of,
    text_parts,
)
from extract.db.store import Store
from extract.mail.message import parse_message
from extract.pipeline import process_archive
from tests.archives import to_mbox, write_archive
from tests.mail.mboxes import make_message

REPLY = (
    "Thanks, the new numbers look good.\n"
    "\n"
    "On Mon, Jan 6, 2020 Bob wrote:\n"
    "> before: 12.5 ms/op\n"
    "> after: 9.1 ms/op\n"
)
FOOTER = "Numbers below.\n\nscan 120 ms\n\n--\nSent from my phone\nunsubscribe: x@example.org\n"

# (text, body): the body is what cleaning keeps of the text
CASES = {
    "equal": ("just the message\n", "just the message\n"),
    "reply below": (REPLY, "Thanks, the new numbers look good.\n"),
    "header above and footer below": (
        "[ https://issues.example.org/X-1 ]\n\nAlice commented:\nIt is 3x faster.\n\n-- \nbot",
        "Alice commented:\nIt is 3x faster.",
    ),
    "lines removed in between": (
        "first\n> quoted one\n> quoted two\nsecond\n\n\n\nthird\n",
        "first\nsecond\n\nthird\n",
    ),
    "lines rewritten": ("a  wrapped\nline of text\nend", "a wrapped line of text\nend"),
    "nothing in common": ("one\ntwo\nthree", "four"),
    "body out of order": ("a\nb\nc\nd", "d\nc\nb\na"),
    "repeated blank lines": ("\n\nx\n\n\ny\n\n", "x\n\ny"),
    "non-ascii": (
        "caf\u00e9 \U0001f600 12 \u00b5s\n> zitiert: \u00e4\u00f6\u00fc\n",
        "caf\u00e9 \U0001f600 12 \u00b5s\n",
    ),
    "carriage returns": ("line one\r\nline two\r\n> q\r\n", "line one\r\nline two\r\n"),
    "empty body": ("only quoted\n> x", ""),
    "empty text": ("", ""),
    "empty text, a body": ("", "x"),
    "null text": (None, "body"),
    "null body": ("text", None),
    "both null": (None, None),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_text_parts_reverse_exactly(case):
    text, body = CASES[case]
    assert text_of(body, *text_parts(text, body)) == text


def test_only_what_is_not_the_body_is_stored():
    assert text_parts("same", "same") == (None, None)
    # the body a part of the text (a reply below it): the rest, and where the body starts
    body = "Thanks, the new numbers look good.\n"
    assert text_parts(REPLY, body) == (REPLY[len(body) :], [0, 0])
    assert text_parts("head\n" + body + "tail", body) == ("head\ntail", [0, 5])
    # lines of the body with lines of the text's own between them: those lines only
    text, body = CASES["lines removed in between"]
    rest, text_map = text_parts(text, body)
    assert rest == "> quoted one\n> quoted two\n\n"
    assert text_map == [1, 6, 7, 2, 3, 8, 9, 4, 5]  # body lines 1..5, rest lines 6..9
    # a text that shares (almost) nothing with the body is kept whole, without a map
    assert text_parts("one\ntwo\nthree", "four") == ("one\ntwo\nthree", None)


def _rows(db) -> dict:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {
            k: (t, b)
            for k, t, b in con.execute("SELECT msg_key, text, body FROM messages").fetchall()
        }
    finally:
        con.close()


def _insert(con, key: str, text: str, body: str) -> None:
    """A message stored as the writer stores it: the body, and the text's rest."""
    rest, text_map = text_parts(text, body)
    con.execute(
        "INSERT INTO messages (msg_key, body, text_rest, text_map) VALUES (?, ?, ?, ?)",
        [key, body, rest, text_map],
    )


def test_every_case_reads_back_from_a_database_file(tmp_path):
    db = tmp_path / "asf.duckdb"
    Store(db).close()
    con = duckdb.connect(str(db))
    try:
        for key, (text, body) in CASES.items():
            _insert(con, key, text, body)
        con.execute("CHECKPOINT")
    finally:
        con.close()
    assert _rows(db) == CASES


def test_the_pipeline_stores_the_decoded_text_once(tmp_path):
    bodies = [REPLY, FOOTER, "short and plain\n", "caf\u00e9 \u00b1 3 ms\n> old: 4 ms\n"]
    raws = [make_message(b, message_id=f"m{i}@x") for i, b in enumerate(bodies)]
    path = write_archive(tmp_path, "dev@x.apache.org", "2020-01", to_mbox(raws))
    db = tmp_path / "asf.duckdb"
    with Store(db) as store:
        store.replace([process_archive(path, tmp_path)])
    con = duckdb.connect(str(db), read_only=True)
    try:
        got = dict(con.execute("SELECT message_id, text FROM messages").fetchall())
        stored, bodies, whole = con.execute(
            "SELECT sum(length(coalesce(text_rest, ''))), sum(length(body)), sum(length(text)) "
            "FROM messages"
        ).fetchone()
    finally:
        con.close()
    assert got == {f"m{i}@x": parse_message(raw).text for i, raw in enumerate(raws)}
    assert stored > 0 and stored + bodies <= whole  # the bodies are not stored twice


def test_long_text_is_compressed_with_zstd(tmp_path):
    db = tmp_path / "asf.duckdb"
    Store(db).close()
    con = duckdb.connect(str(db))
    try:
        con.execute(
            "INSERT INTO messages (msg_key, body, text_rest) SELECT i::VARCHAR, "
            "repeat('run ' || i::VARCHAR || ': 12.5 ms/op\n', 40), "
            "repeat('> quoted ' || i::VARCHAR || '\n', 40) FROM range(3000) r(i)"
        )
        con.execute("CHECKPOINT")
        kinds = dict(
            con.execute(
                "SELECT column_name, list_distinct(list(compression)) "
                "FROM pragma_storage_info('messages') "
                "WHERE column_name IN ('body', 'text_rest') GROUP BY 1"
            ).fetchall()
        )
    finally:
        con.close()
    assert all("ZSTD" in kinds[c] for c in ("body", "text_rest")), kinds


# ------------------------------------------------------------ a database of the previous version


def _old_database(db, **config) -> dict:
    """A database as the previous version wrote it: `messages.text` a stored column, no
    text_rest or text_map, a view reading the text; returns the rows' (text, body)."""
    con = duckdb.connect(str(db), config=config)
    try:
        for table, cols in TABLES.items():
            kept = [
                (c, t)
                for c, t, _ in cols
                if c not in STORAGE_ONLY.get(table, ()) and (table, c) not in GENERATED
            ]
            if table == "messages":
                kept.append(("text", "VARCHAR"))
            con.execute(f"CREATE TABLE {table} (" + ", ".join(f'"{c}" {t}' for c, t in kept) + ")")
        con.execute("CREATE VIEW old_texts AS SELECT msg_key, text FROM messages")
        rows = {
            "same": ("the text\n", "the text\n"),
            "reply": (REPLY, "Thanks, the new numbers look good.\n"),
            "no text": (None, "a body"),
        }
        for key, (text, body) in rows.items():
            con.execute(
                "INSERT INTO messages (msg_key, list, text, body) VALUES (?, 'l@x', ?, ?)",
                [key, text, body],
            )
    finally:
        con.close()
    return rows


def test_a_database_of_the_previous_version_is_upgraded_in_place(tmp_path):
    db = tmp_path / "asf.duckdb"
    rows = _old_database(db)
    with Store(db):
        pass
    assert _rows(db) == rows
    con = duckdb.connect(str(db), read_only=True)
    try:
        (default,) = con.execute(
            "SELECT column_default FROM duckdb_columns() "
            "WHERE table_name = 'messages' AND column_name = 'text'"
        ).fetchone()
        assert default is not None  # now the virtual column
        assert con.execute(
            "SELECT msg_key FROM messages WHERE text_rest IS NULL ORDER BY 1"
        ).fetchall() == [("no text",), ("same",)]  # a text equal to its body: not again
        assert con.execute("SELECT count(*) FROM old_texts").fetchone() == (3,)
        (comment,) = con.execute(
            "SELECT comment FROM duckdb_columns() "
            "WHERE table_name = 'messages' AND column_name = 'text_rest'"
        ).fetchone()
        assert comment.startswith("storage of `text`")
    finally:
        con.close()
    with Store(db):  # opening it again changes nothing
        pass
    assert _rows(db) == rows


def test_an_old_storage_version_is_upgraded_without_zstd(tmp_path):
    db = tmp_path / "asf.duckdb"
    rows = _old_database(db, storage_compatibility_version="v1.0.0")
    with Store(db) as store:
        assert store.zstd is False
    assert _rows(db) == rows


def test_a_failed_upgrade_leaves_the_old_database(tmp_path, monkeypatch):
    db = tmp_path / "asf.duckdb"
    rows = _old_database(db)
    # The copy into the new table fails half-way through the upgrade's transaction.
    monkeypatch.setattr(store_module, "columns", lambda t: [*columns(t), "no_such_column"])
    with pytest.raises(duckdb.Error):
        Store(db)
    assert _rows(db) == rows  # as it was: the stored text, no half-made table
    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        (default,) = con.execute(
            "SELECT column_default FROM duckdb_columns() "
            "WHERE table_name = 'messages' AND column_name = 'text'"
        ).fetchone()
    finally:
        con.close()
    assert tables.isdisjoint({"_messages_new", "_messages_old"}) and default is None
    monkeypatch.undo()
    with Store(db):
        pass
    assert _rows(db) == rows


KILLED_RUN = """
import os, sys
from extract.db.store import Store
from extract.pipeline import process_archive
from pathlib import Path
data_dir = Path(sys.argv[1])
store = Store(data_dir / "asf.duckdb")
store.replace([process_archive(data_dir / sys.argv[2], data_dir)])
os._exit(0)  # killed: no checkpoint, the rows are in the WAL
"""


def test_a_run_killed_after_loading_leaves_a_database_any_client_opens(tmp_path):
    raws = [make_message(REPLY, message_id="m@x")]
    path = write_archive(tmp_path, "dev@x.apache.org", "2020-01", to_mbox(raws))
    db, copy = tmp_path / "asf.duckdb", tmp_path / "asf.duckdb.new"
    for first in (True, False):  # the first run creates the schema, the second finds it
        subprocess.run(
            [sys.executable, "-c", KILLED_RUN, str(tmp_path), str(path.relative_to(tmp_path))],
            check=True,
            cwd=Path(__file__).resolve().parents[2],
        )
        # The database is as the killed run found it (none at first); its copy holds the
        # rows in its log, which a client with DuckDB's defaults replays.
        assert db.exists() is not first and (tmp_path / "asf.duckdb.new.wal").exists()
        for file in (copy, db):
            if file.exists():
                con = duckdb.connect(str(file), read_only=True)  # DuckDB's defaults
                try:
                    assert con.execute("SELECT text FROM messages").fetchall() == [(REPLY,)]
                finally:
                    con.close()
            if first:
                break
        Store(db).close()  # the next run takes the copy up and publishes it
        assert not copy.exists()


def test_exports_carry_the_whole_text_without_its_storage(tmp_path):
    from extract.outputs.export import export

    db = tmp_path / "asf.duckdb"
    Store(db).close()
    con = duckdb.connect(str(db))
    try:
        text, body = CASES["lines removed in between"]
        _insert(con, "k", text, body)
        export(con, tmp_path / "export")
        for fmt in ("parquet", "csv"):
            rel = f"'{tmp_path / 'export' / f'messages.{fmt}'}'"
            got = [r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {rel}").fetchall()]
            assert "text" in got and not set(got) & set(STORAGE_ONLY["messages"])
            assert con.execute(f"SELECT text FROM {rel}").fetchall() == [(text,)]
    finally:
        con.close()
