"""Archives you already have (issue 28): `make import SRC=…` lays out plain, gzip and
bzip2 mbox files and `.eml` files, under any names, as the crawler lays out its own,
list and month from the messages' own headers; links where it can, never overwrites,
names every file and message it could not place as given; the extraction then reads
them all, and names (summary and `errors`) whatever under raw/ it does not read.

Inputs are written here (tests/mail/mboxes.py); the acceptance run reads the real
archives of ../shared/mbox where they are, and counts their messages with the
reader's own splitter, independently of the import."""

from __future__ import annotations

import bz2
import gzip
import hashlib
import os
import subprocess
from pathlib import Path

import duckdb
import pytest

from extract.importer import UNLISTED, import_files, list_of, main, mbox_entry, place
from extract.mail.mbox import RawMessage, iter_messages, read_mbox
from tests.archives import to_mbox
from tests.conftest import shared_path
from tests.mail.mboxes import make_message

REPO = Path(__file__).resolve().parents[1]


JAN = "Tue, 14 Jan 2020 10:00:00 +0000"


def msg(
    body: str, *, list_header: str | None = None, to: str = "someone@example.org", date=JAN
) -> bytes:
    head = ["From: Ana <ana@example.org>", f"To: {to}", f"Subject: {body[:20]}"]
    head += [f"Date: {date}"] if date else []
    head += [list_header] if list_header else []
    head += [f"Message-ID: <{hashlib.sha256(body.encode()).hexdigest()[:12]}@example.org>"]
    return ("\n".join(head) + "\n\n" + body + "\n").encode()


def query(db: Path, sql: str) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


# ------------------------------------------------------------------ where a message goes


def test_the_list_comes_from_the_messages_own_headers():
    def where(*headers: str, to: str = "Kim <kim@example.org>") -> tuple | None:
        from email.parser import BytesHeaderParser

        raw = "\n".join([f"To: {to}", *headers]).encode() + b"\n\n"
        return list_of(BytesHeaderParser().parsebytes(raw))

    assert where("List-Post: <mailto:dev@kafka.apache.org>") == ("kafka.apache.org", "dev")
    assert where("List-Id: Kafka dev <dev.kafka.apache.org>") == ("kafka.apache.org", "dev")
    assert where("List-Id: <DEV.Kafka.Apache.ORG>") == ("kafka.apache.org", "dev")
    assert where("Mailing-List: contact users-help@hive.apache.org; run by ezmlm") == (
        "hive.apache.org",
        "users",
    )
    # List-Post first; a list name unfit for a folder is no list; To last
    assert where("List-Id: <a.b.org>", "List-Post: <mailto:c@d.org>") == ("d.org", "c")
    assert where("List-Post: <mailto:../../etc@x.org>", to="issues@x.apache.org") == (
        "x.apache.org",
        "issues",
    )
    assert where("List-Id: <..>", to="not an address") is None


def test_the_month_is_the_date_headers_in_utc_else_the_envelopes():
    unlisted = ("import.invalid", "unlisted")
    late = msg("x", date="Fri, 31 Jan 2020 23:30:00 -0800", to="dev@p.apache.org")
    assert place(RawMessage(0, 0, "", late), unlisted) == (("p.apache.org", "dev", "2020-02"), [])
    undated = msg("x", date=None, to="dev@p.apache.org")
    envelope = "From ana@example.org  Fri Sep 20 12:27:56 2019"
    assert place(RawMessage(0, 0, envelope, undated), unlisted)[0][2] == "2019-09"
    where, notes = place(RawMessage(0, 0, "", b"Subject: no date, no list\n\nx\n"), unlisted)
    assert where == ("import.invalid", "unlisted", "1970-01") and len(notes) == 2


def test_an_entry_reads_back_as_the_same_message():
    data = b"Subject: s\n\nFrom here\n>From there\n>>From elsewhere\nend"
    raws = list(iter_messages([mbox_entry(RawMessage(0, 0, "", data)) * 2]))
    assert [r.data for r in raws] == [data + b"\n"] * 2
    assert raws[0].envelope_line.startswith("From MAILER-DAEMON ")


# ------------------------------------------------------------------ the layout


@pytest.fixture
def sources(tmp_path) -> Path:
    """One of each: a plain month (lists.apache.org's form), a gzip month under an odd
    name, a bzip2 file of two months, a file of two lists, a folder of .eml files of
    one month, a README and an empty file."""
    src = tmp_path / "src"
    (src / "eml").mkdir(parents=True)
    post = "List-Post: <mailto:dev@p.apache.org>"
    (src / "dev_p_apache_org_2020-01.mbox").write_bytes(
        to_mbox([msg(f"plain {i}", list_header=post) for i in range(3)])
    )
    gz = to_mbox([msg(f"gz {i}", list_header="List-Id: <users.p.apache.org>") for i in range(2)])
    (src / "whatever.dat").write_bytes(gzip.compress(gz))
    feb = "Sat, 1 Feb 2020 01:00:00 +0000"
    two_months = [
        msg("jan", to="commits@q.apache.org"),
        msg("f", to="commits@q.apache.org", date=feb),
    ]
    (src / "two.mbox.bz2").write_bytes(bz2.compress(to_mbox(two_months)))
    (src / "mixed").write_bytes(
        to_mbox([msg("a", to="a@r.apache.org"), msg("b", to="b@r.apache.org")])
    )
    for i in range(3):
        (src / "eml" / f"{i}.eml").write_bytes(msg(f"eml {i}", to="issues@s.apache.org"))
    (src / "README").write_text("# notes, not mail\n")
    (src / "empty.mbox").write_bytes(b"")
    return src


EXPECTED = {
    "raw/p.apache.org/dev/2020-01.mbox.gz": 3,
    "raw/p.apache.org/users/2020-01.mbox.gz": 2,
    "raw/q.apache.org/commits/2020-01.mbox.gz": 1,
    "raw/q.apache.org/commits/2020-02.mbox.gz": 1,
    "raw/r.apache.org/a/2020-01.mbox.gz": 1,
    "raw/r.apache.org/b/2020-01.mbox.gz": 1,
    "raw/s.apache.org/issues/2020-01.mbox.gz": 3,
}


def laid_out(data: Path) -> dict[str, int]:
    return {
        p.relative_to(data).as_posix(): len(list(read_mbox(p)))
        for p in sorted((data / "raw").rglob("*.mbox.gz"))
    }


def test_files_are_laid_out_as_the_crawler_does(sources, tmp_path):
    data = tmp_path / "data"
    report = import_files([sources], data)
    assert laid_out(data) == EXPECTED
    placed = {p.relative_to(data).as_posix(): how for p, how in report.placed.items()}
    assert placed["raw/p.apache.org/dev/2020-01.mbox.gz"] == "gzipped"  # plain, whole
    assert placed["raw/p.apache.org/users/2020-01.mbox.gz"] == "linked"  # gzip, whole
    assert placed["raw/q.apache.org/commits/2020-02.mbox.gz"] == "written"  # split
    # a plain month is stored as the crawler stores one: gzip of exactly its bytes
    dev = data / "raw/p.apache.org/dev/2020-01.mbox.gz"
    assert (
        gzip.decompress(dev.read_bytes())
        == (sources / "dev_p_apache_org_2020-01.mbox").read_bytes()
    )
    # no copy where a link will do
    assert os.path.samefile(
        sources / "whatever.dat", data / "raw/p.apache.org/users/2020-01.mbox.gz"
    )
    skipped = {p.name: r for p, r in report.skipped}
    assert skipped == {"README": "not mail: it starts with b'# notes, not mail\\n'",
                       "empty.mbox": "empty"}  # fmt: skip
    # Again: the same bytes would be written, so nothing changes.
    again = import_files([sources], data)
    assert set(again.placed.values()) == {"already there"} and not again.refused
    assert laid_out(data) == EXPECTED


def test_a_month_already_there_with_other_mail_is_never_overwritten(sources, tmp_path):
    data = tmp_path / "data"
    crawled = data / "raw/q.apache.org/commits/2020-01.mbox.gz"
    crawled.parent.mkdir(parents=True)
    crawled.write_bytes(gzip.compress(to_mbox([make_message("crawled", message_id="c@x")])))
    before = crawled.read_bytes()
    report = import_files([sources], data)
    assert crawled.read_bytes() == before
    ((target, reason),) = report.refused
    assert target == crawled and reason.startswith("exists with other content")


def test_make_import_extracts_everything_and_names_what_it_skips(sources, tmp_path):
    data = tmp_path / "data"
    done = subprocess.run(
        ["make", "-s", "-o", ".venv/.installed", "import", f"SRC={sources}",
         f"DATA_DIR={data}", "WORKERS=2"],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert f"import: skipped {sources / 'README'}: not mail" in out
    assert f"import: skipped {sources / 'empty.mbox'}: empty" in out
    line = out.strip().splitlines()[-1]
    fields = dict(kv.split("=", 1) for kv in line.split())
    n = sum(EXPECTED.values())
    assert (fields["archives"], fields["messages"], fields["errors"]) == ("7", str(n), "0")
    db = data / "asf.duckdb"
    assert query(db, "SELECT count(*) FROM messages") == [(n,)]
    assert query(db, "SELECT count(DISTINCT list) FROM messages") == [(6,)]


def test_the_extraction_names_what_under_raw_it_does_not_read(tmp_path, capsys):
    from extract.__main__ import main as extract_main

    data = tmp_path / "data"

    def month(name: str) -> bytes:
        return to_mbox([msg(name, to="dev@p.apache.org", date=f"Sat, 1 {name} 2020 10:00 +0000")])

    (data / "raw/p.apache.org/dev").mkdir(parents=True)
    (data / "raw/p.apache.org/dev/2020-01.mbox.gz").write_bytes(gzip.compress(month("Jan")))
    (data / "raw/p.apache.org/dev/2020-01.mbox.gz.json").write_text("{}")  # the crawler's
    (data / "raw/p.apache.org/dev/2020-02.mbox").write_bytes(month("Feb"))  # plain, as served
    (data / "raw/p.apache.org/dev/2020-03.mbox.bz2").write_bytes(bz2.compress(month("Mar")))
    (data / "raw/notes.txt").write_text("my notes")
    assert extract_main(["--data-dir", str(data), "--workers", "1"]) == 0
    out, err = capsys.readouterr()
    fields = dict(kv.split("=", 1) for kv in out.split())
    assert (fields["unread"], fields["errors"], fields["db_errors"]) == ("3", "3", "3")
    assert "extract: 3 files or folders under raw/ not read" in err
    assert "raw/p.apache.org/dev/2020-02.mbox: an mbox, but only raw/<domain>/" in err
    assert "raw/p.apache.org/dev/2020-03.mbox.bz2: an mbox, bzip2-compressed" in err
    assert "raw/notes.txt: not mail" in err and "2020-01.mbox.gz.json" not in err
    rows = query(data / "asf.duckdb", "SELECT archive, position, stage FROM errors ORDER BY 1")
    assert rows == [("raw/notes.txt", None, "read"),
                    ("raw/p.apache.org/dev/2020-02.mbox", None, "read"),
                    ("raw/p.apache.org/dev/2020-03.mbox.bz2", None, "read")]  # fmt: skip
    # Moved out and imported: read, and their rows gone.
    for name in ("2020-02.mbox", "2020-03.mbox.bz2"):
        (data / "raw/p.apache.org/dev" / name).rename(tmp_path / name)
    assert main([str(tmp_path / "2020-02.mbox"), str(tmp_path / "2020-03.mbox.bz2"),
                 "--data-dir", str(data), "--workers", "1"]) == 0  # fmt: skip
    assert query(data / "asf.duckdb", "SELECT archive FROM errors") == [("raw/notes.txt",)]
    assert query(data / "asf.duckdb", "SELECT count(*) FROM messages") == [(3,)]


# ------------------------------------------------------------------ the shared archives


@pytest.mark.shared
def test_make_import_on_the_shared_mbox_files_extracts_them_all(tmp_path):
    shared = shared_path("mbox")
    before = sorted((p, p.stat().st_mtime_ns) for p in shared.rglob("*"))
    data = tmp_path / "data"
    done = subprocess.run(
        ["make", "-s", "-o", ".venv/.installed", "import", f"SRC={shared}",
         f"DATA_DIR={data}", "WORKERS=2"],
        cwd=REPO, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert sorted((p, p.stat().st_mtime_ns) for p in shared.rglob("*")) == before  # untouched
    out = done.stdout
    # Every file is either read or named: counted here with the reader's own splitter.
    expected = 0
    for path in sorted(p for p in shared.rglob("*") if p.is_file()):
        head = path.read_bytes()[:4096].lstrip(b"\r\n")
        if head.startswith(b"From "):
            expected += len(list(read_mbox(path)))
        elif path.suffix == ".eml":
            expected += 1
        else:
            assert f"import: skipped {path}: " in out, path
    assert expected > 100
    fields = dict(kv.split("=", 1) for kv in out.strip().splitlines()[-1].split())
    assert fields["messages"] == str(expected) and "unread" not in fields
    db = data / "asf.duckdb"
    ((stored, errored),) = query(
        db, "SELECT (SELECT count(*) FROM messages), "
        "(SELECT count(*) FROM errors WHERE position IS NOT NULL)"
    )  # fmt: skip
    assert stored + errored == expected and stored >= expected - 2
    assert int(fields["errors"]) == errored
    # The lists are the archives' own: PonyMail's exports are filed by their List-Id.
    lists = {r[0] for r in query(db, "SELECT DISTINCT list FROM messages")}
    assert {"users@ponymail.apache.org", "dev@ponymail.apache.org"} <= lists
    assert UNLISTED in lists  # the peers' messages that name no list


def test_split_files_keep_every_byte_of_their_messages(tmp_path, monkeypatch):
    """Messages are copied as they are, a message over the reader's size cap too (the
    reader hands over only its head), and a file that ends without a blank line does
    not run into the next one's first message."""
    monkeypatch.setattr("extract.mail.mbox.MAX_MESSAGE_BYTES", 4096)
    big = msg("big\n" + "x" * 50 + "\n" + ">From escaped\n" * 2000, to="dev@p.apache.org")
    feb = msg("feb", to="dev@p.apache.org", date="Sat, 1 Feb 2020 10:00 +0000")
    src = tmp_path / "src"
    src.mkdir()
    (src / "a").write_bytes(to_mbox([big, feb]))
    (src / "b").write_bytes(to_mbox([msg("jan 2", to="dev@p.apache.org")]).rstrip(b"\n"))
    (src / "c").write_bytes(to_mbox([msg("jan 3", to="dev@p.apache.org")]))
    data = tmp_path / "data"
    report = import_files([src], data)
    jan = data / "raw/p.apache.org/dev/2020-01.mbox.gz"
    assert report.placed[jan] == "written"
    got = [r.data for r in read_mbox(jan, max_message_bytes=10**9)]
    want = [r.data for p in ("a", "b", "c") for r in read_mbox(src / p, 10**9)]
    # (a message that ended the file without its line break gains one: mbox needs it)
    want = [w if w.endswith(b"\n") else w + b"\n" for w in want if b"Feb 2020" not in w]
    assert got == want and len(got) == 3
    assert any(len(g) > 20_000 for g in got)  # the big one, whole
