"""`python -m extract` end to end on archives built in code (tests/mail/mboxes.py)
under tmp DATA_DIRs, checked with SQL on the DuckDB file it writes: the built
archives without errors, broken inputs as errors rows, the count invariant, the
seeds, idempotence, incremental reruns, kill -9. One test (`shared`) runs the same
checks on the real PonyMail and peer archives in ../shared/mbox."""

from __future__ import annotations

import gzip
import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import pytest

from extract.__main__ import main
from extract.mail.mbox import read_mbox
from extract.pipeline import MAX_STORED_CHARS
from tests.archives import sample_as_archives, to_mbox, write_archive
from tests.conftest import shared_path
from tests.mail.mboxes import (
    EDGE_ARCHIVES,
    commits_month,
    foal_month,
    make_message,
    no_headers_message,
    raw_message,
    users_month,
)
from tests.mail.test_message import MUST_PASS

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "data" / "sample"


def query(db: Path, sql: str, params=None, config=None) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True, config=config or {})
    try:
        return con.execute(sql, params or []).fetchall()
    finally:
        con.close()


def run(data_dir: Path, *args: str) -> int:
    return main(["--data-dir", str(data_dir), *args])


def archive_bytes(path: Path) -> bytes:
    """An mbox file as an archive: as is when it has envelope lines, else wrapped."""
    raw = path.read_bytes()
    return raw if raw.startswith(b"From ") else to_mbox([raw])


def _not_gzip(db: Path, path: str) -> bool:
    """Whether the file was recorded as no archive at all (neither gzip nor mbox): it has
    no messages, only the archive-level error that says so."""
    return bool(
        query(
            db,
            "SELECT 1 FROM errors WHERE archive = ? AND position IS NULL "
            "AND reason LIKE 'not a gzip file: %'",
            [path],
        )
    )


def assert_count_invariant(db: Path, data_dir: Path) -> None:
    rows = query(
        db,
        """SELECT a.path, a.n_messages, a.n_errors,
                  (SELECT count(*) FROM messages m WHERE m.archive = a.path),
                  (SELECT count(*) FROM errors e
                   WHERE e.archive = a.path AND e.position IS NOT NULL)
           FROM archives a""",
    )
    assert rows
    for path, n_messages, n_errors, stored, errored in rows:
        assert stored + errored == n_messages, path
        assert errored == n_errors, path
        # n_messages is what the reader sees in the file (complete or cut off).
        try:
            seen = len(list(read_mbox(data_dir / path)))
        except Exception:
            seen = None
        if seen is not None and not _not_gzip(db, path):
            assert n_messages == seen, path


# ------------------------------------------------------------------ built archives


def github_notification() -> bytes:
    """A GitBox comment notification (2018-2023 form): kind github."""
    return raw_message(
        "From: GitBox <git@apache.org>\nTo: github@arrow.apache.org\n"
        "Subject: [GitHub] [arrow] alice commented on pull request #1234: faster scans\n"
        "Date: Wed, 15 Jun 2016 10:00:00 +0000\nMessage-ID: <gh-1234-1@gitbox.apache.org>\n"
        "Content-Type: text/plain; charset=utf-8",
        "alice commented on pull request #1234:\n"
        "URL: https://github.com/apache/arrow/pull/1234#issuecomment-1\n\n"
        "The scan takes 12 ms now, it was 30 ms.\n",
    )


def jira_notification() -> bytes:
    """A JIRA comment notification: kind jira."""
    return raw_message(
        'From: "Bo Chen (JIRA)" <jira@apache.org>\nTo: issues@kudu.apache.org\n'
        "Subject: [jira] [Commented] (KUDU-42) Scans are slow\n"
        "Date: Thu, 16 Jun 2016 11:00:00 +0000\nMessage-ID: <JIRA.42.1@Atlassian.JIRA>\n"
        "Content-Type: text/plain; charset=utf-8",
        "\n    [ https://issues.apache.org/jira/browse/KUDU-42 ]\n\n"
        "Bo Chen commented on KUDU-42:\n-----------------------------\n\nStill 30 ms here.\n",
    )


# The message kinds the built archives hold: `commit` and `mail` from commits-2016-06
# (git/svn commit mails and a person's reply), the users months and the edge messages
# (mail); `github` and `jira` from the notifications archive.
NOTIFICATIONS = {"github": github_notification(), "jira": jira_notification()}
BUILT_KINDS = sorted({"commit", "mail", *NOTIFICATIONS})

# A message with no headers at all, in two forms: an envelope line and nothing after
# it (PonyMail's NoList case), and text right after the envelope line.
HEADERLESS = [b"", no_headers_message()]
# What the crawler may store instead of an mbox: an error page of the web server.
NOT_AN_MBOX = (
    b"<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n"
    b"<body><h1>Bad Gateway</h1><p>The proxy server received an invalid response.</p>"
    b"</body></html>\n"
)


def broken_archives() -> dict[str, tuple[bytes, int, list[int]]]:
    """name → (archive, its number of messages, positions of those that must be
    errors rows)."""
    good = [
        make_message(f"fine {i}\n", subject=f"fine {i}", message_id=f"fine{i}@x") for i in range(3)
    ]
    mixed = [good[0], HEADERLESS[0], good[1], HEADERLESS[1], good[2]]
    return {
        "fail-no-headers": (
            to_mbox(mixed),
            len(mixed),
            [i for i, m in enumerate(mixed) if m in HEADERLESS],
        ),
        # an empty month: no message, no error
        "fail-empty": (b"", 0, []),
        # no envelope line: the whole file is one message (position 0) without headers
        "fail-not-mbox": (NOT_AN_MBOX, 1, [0]),
    }


BROKEN = broken_archives()


def fixture_archive(name: str) -> str:
    return f"raw/fixtures.apache.org/{name}/2016-06.mbox.gz"


@pytest.fixture(scope="module")
def fixtures_db(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("fixtures")
    passing = {name: EDGE_ARCHIVES[name] for name in MUST_PASS}
    passing["notifications"] = to_mbox(list(NOTIFICATIONS.values()))
    for name, data in passing.items():
        write_archive(data_dir, f"{name}@fixtures.apache.org", "2016-06", data)
    for name, (data, _, _) in BROKEN.items():
        write_archive(data_dir, f"{name}@fixtures.apache.org", "2016-06", data)
    assert run(data_dir, "--workers", "2") == 0
    return data_dir, data_dir / "asf.duckdb", sorted(passing)


def test_fixture_archives_have_no_errors(fixtures_db):
    data_dir, db, names = fixtures_db
    errors = query(db, "SELECT archive, position, stage, reason FROM errors ORDER BY ALL")
    expected = sorted(
        (fixture_archive(name), position, "parse")
        for name, (_, _, positions) in BROKEN.items()
        for position in positions
    )
    assert expected  # the broken archives do break
    assert [e[:3] for e in errors] == expected
    assert all("no headers" in e[3] for e in errors), errors
    stored = sum(len(list(read_mbox(data_dir / fixture_archive(n)))) for n in names)
    assert query(db, "SELECT count(*) FROM messages WHERE list NOT LIKE 'fail-%'") == [(stored,)]
    for name, (_, n_messages, positions) in BROKEN.items():
        assert query(
            db,
            "SELECT n_messages, n_errors, "
            "(SELECT count(*) FROM messages m WHERE m.archive = a.path) "
            "FROM archives a WHERE a.path = ?",
            [fixture_archive(name)],
        ) == [(n_messages, len(positions), n_messages - len(positions))], name
    assert query(
        db, "SELECT n_messages FROM archives WHERE list = 'fail-empty@fixtures.apache.org'"
    ) == [(0,)]
    assert_count_invariant(db, data_dir)


def test_fixture_rows_are_complete(fixtures_db):
    _, db, _ = fixtures_db
    (n, n_keys, no_text, kinds) = query(
        db,
        """SELECT count(*), count(DISTINCT msg_key), count(*) FILTER (WHERE text IS NULL),
                  list(DISTINCT kind ORDER BY kind) FROM messages""",
    )[0]
    assert n == n_keys and no_text == 0
    assert kinds == BUILT_KINDS
    link = query(db, "SELECT permalink FROM messages WHERE message_id IS NOT NULL LIMIT 1")[0][0]
    assert link.startswith("https://lists.apache.org/thread/%3C")


REAL_PASS = ("ponymail-classic/pass", "ponymail-classic/valid", "ponymail-classic/roundtrip",
             "ponymail-foal", "peers")  # fmt: skip


@pytest.mark.shared
def test_real_archives_end_to_end(tmp_path):
    """The peer tools' archives (../shared/mbox) through the CLI: every archive a
    correct importer must read gives no errors row; of PonyMail's `fail/` files, the
    empty one is an empty month and NoList (an envelope line alone) one errors row."""
    root = shared_path("mbox")
    lists = {}
    for folder in REAL_PASS:
        for path in sorted((root / folder).glob("*.mbox")) + sorted((root / folder).glob("*.eml")):
            name = f"{path.parent.name}-{len(lists):02d}"
            lists[name] = path
            write_archive(tmp_path, f"{name}@real.apache.org", "2016-06", archive_bytes(path))
    fail = sorted((root / "ponymail-classic" / "fail").glob("*.mbox"))
    assert [p.name for p in fail] == ["NoList.mbox", "empty.mbox"]
    for path in fail:
        write_archive(tmp_path, f"fail-{path.stem}@real.apache.org", "2016-06", path.read_bytes())
    assert run(tmp_path, "--workers", "2") == 0
    db = tmp_path / "asf.duckdb"
    errors = query(db, "SELECT archive, position, stage FROM errors ORDER BY ALL")
    assert errors == [("raw/real.apache.org/fail-NoList/2016-06.mbox.gz", 0, "parse")]
    expected = sum(len(list(read_mbox(p))) for p in lists.values())
    assert query(db, "SELECT count(*) FROM messages WHERE list NOT LIKE 'fail-%'") == [(expected,)]
    assert query(
        db, "SELECT n_messages FROM archives WHERE list = 'fail-empty@real.apache.org'"
    ) == [(0,)]
    kinds = query(db, "SELECT list(DISTINCT kind ORDER BY kind) FROM messages")[0][0]
    assert kinds == ["commit", "github", "mail"]
    assert query(db, "SELECT count(*) FILTER (WHERE text IS NULL) FROM messages") == [(0,)]
    assert_count_invariant(db, tmp_path)


def test_repeated_message_ids_get_distinct_stable_keys(tmp_path):
    same = make_message("copy", message_id="dup@x")
    anon = make_message("no id", message_id=None)
    write_archive(tmp_path, "d@x.apache.org", "2020-05", to_mbox([same, anon, same, anon, same]))
    assert run(tmp_path, "--workers", "1") == 0
    keys = query(tmp_path / "asf.duckdb", "SELECT msg_key FROM messages ORDER BY position")
    base = "d@x.apache.org/2020-05/"
    anon_key = keys[1][0]
    assert anon_key.startswith(base + "sha256:") and len(anon_key) == len(base) + 7 + 16
    assert [k[0] for k in keys] == [
        base + "dup@x",
        anon_key,
        base + "dup@x#2",
        anon_key + "#2",
        base + "dup@x#3",
    ]


def test_broken_inputs_become_errors_rows(tmp_path):
    good = [make_message(f"fine {i}", message_id=f"g{i}@x") for i in range(3)]
    lst = "broken@x.apache.org"
    # 1. truncated gzip: the messages before the cut are kept.
    many = [make_message(f"message {i}\n" + "z" * 3000, message_id=f"t{i}@x") for i in range(40)]
    full = gzip.compress(to_mbox(many), mtime=0)
    cut = write_archive(tmp_path, lst, "2020-01", b"")
    cut.write_bytes(full[: len(full) // 2])
    # 2. not gzip at all: binary junk under a .mbox.gz name.
    junk = write_archive(tmp_path, lst, "2020-02", b"")
    junk.write_bytes(bytes(range(256)) * 64)
    # 3. gzip of binary junk.
    write_archive(tmp_path, lst, "2020-03", bytes(range(256)) * 64)
    # 4. one mbox with a 10 MB line, a message without headers, an unknown charset,
    #    a pathologically nested multipart and a normal multipart, between good ones.
    deep = b"From: a@b.org\nSubject: deep\nMIME-Version: 1.0\n" + b"".join(
        b'Content-Type: multipart/mixed; boundary="b%d"\n\n--b%d\n' % (i, i) for i in range(3000)
    )
    nested = (
        b"From: a@b.org\nSubject: nested\nMIME-Version: 1.0\n"
        b'Content-Type: multipart/mixed; boundary="o"\n\n'
        b'--o\nContent-Type: multipart/alternative; boundary="i"\n\n'
        b"--i\nContent-Type: text/plain\n\n"
        b"plain\n--i--\n--o--\n"
    )
    odd = [
        good[0],
        make_message("a\n" + "y" * (10 * 1024 * 1024), message_id="long@x"),
        b"no headers at all, just a line of text\n",
        make_message("", content_type="text/plain; charset=x-unknown")
        + "Caf\u00e9".encode("cp1252"),
        deep,
        nested,
        good[1],
    ]
    write_archive(tmp_path, lst, "2020-04", to_mbox(odd))
    assert run(tmp_path, "--workers", "2") == 0
    db = tmp_path / "asf.duckdb"
    assert_count_invariant(db, tmp_path)
    archive_errors = query(
        db, "SELECT archive, stage FROM errors WHERE position IS NULL ORDER BY archive"
    )
    assert archive_errors == [
        ("raw/x.apache.org/broken/2020-01.mbox.gz", "read"),
        # binary junk under a .mbox.gz name is no archive: one error that says so
        ("raw/x.apache.org/broken/2020-02.mbox.gz", "read"),
    ]
    (reason,) = query(db, "SELECT reason FROM errors WHERE archive LIKE '%2020-02%'")[0]
    assert reason == f"not a gzip file: it starts with {bytes(range(16))!r}"
    kept = query(db, "SELECT count(*) FROM messages WHERE archive LIKE '%2020-01%'")[0][0]
    assert 0 < kept < 40
    junk_rows = query(db, "SELECT count(*), min(stage) FROM errors WHERE archive LIKE '%2020-03%'")
    assert junk_rows[0][0] >= 1 and junk_rows[0][1] == "parse"
    odd_rows = dict(
        query(db, "SELECT subject, length(text) FROM messages WHERE archive LIKE '%2020-04%'")
    )
    # Stored text is capped (pipeline.MAX_STORED_CHARS) with a note where the rest is.
    long_text, offset = query(
        db, "SELECT text, \"offset\" FROM messages WHERE message_id = 'long@x'"
    )[0]
    assert long_text.startswith("a\nyyyy") and len(long_text) > MAX_STORED_CHARS
    assert len(long_text) < MAX_STORED_CHARS + 200
    assert long_text.endswith(f"more characters: see the archive at {offset}]") and offset > 0
    assert "nested" in odd_rows
    assert query(
        db, "SELECT text FROM messages WHERE message_id = 'm1@example.org' AND text LIKE 'Caf%'"
    )
    no_header = query(db, "SELECT stage, reason FROM errors WHERE archive LIKE '%2020-04%'")
    assert ("parse", "no headers: the message does not start with a header block") in no_header


SEEDS = {
    # seed file prefix: (list, kind, issue_key, pr_number, from_name, sent_at, body start)
    "seed-000": ("gitbox@hive.apache.org", "github", None, 3644, "atsaonerk (via GitHub)",
                 datetime(2022, 11, 1, 10, 24, tzinfo=UTC), "<meta charset"),
    "seed-001": ("issues@kudu.apache.org", "jira", "KUDU-1930", None, "Todd Lipcon (JIRA)",
                 datetime(2017, 3, 10, 22, 49, tzinfo=UTC), "Tested with commands like:"),
    "seed-002": ("issues@hbase.apache.org", "github", None, 1858, "GitBox",
                 datetime(2020, 6, 7, 13, 31, tzinfo=UTC), "Set up a 5 nodes cluster"),
    "seed-003": ("dev@knox.apache.org", "jira", "KNOX-1524", None, "Kevin Risden (JIRA)",
                 datetime(2018, 11, 2, 19, 57, tzinfo=UTC), "Here are the results from Knox"),
    "seed-004": ("common-issues@hadoop.apache.org", "jira", "HADOOP-15124", None,
                 "Igor Dvorzhak (JIRA)", datetime(2017, 12, 22, 2, 31, tzinfo=UTC),
                 "I have added a draft implementation"),
}  # fmt: skip


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("sample")
    n = sample_as_archives(data_dir)
    assert run(data_dir, "--workers", "2") == 0
    return data_dir, data_dir / "asf.duckdb", n


def test_sample_is_stored_whole(sample_db):
    data_dir, db, n = sample_db
    assert query(db, "SELECT count(*) FROM messages") == [(n,)]
    assert query(db, "SELECT count(*) FROM errors") == [(0,)]
    assert_count_invariant(db, data_dir)


@pytest.mark.parametrize("seed", sorted(SEEDS))
def test_seed_messages(sample_db, seed):
    _, db, _ = sample_db
    lst, kind, key, pr, sender, sent_at, start = SEEDS[seed]
    from email.parser import BytesHeaderParser

    (eml,) = SAMPLE.glob(f"*/*/{seed}_*.eml")
    message_id = BytesHeaderParser().parsebytes(eml.read_bytes())["Message-ID"].strip("<> ")
    seed_rows = query(
        db,
        """SELECT list, kind, issue_key, pr_number, from_name, sent_at, body, text, permalink
           FROM messages WHERE message_id = ?""",
        [message_id],
    )
    assert len(seed_rows) == 1
    got = seed_rows[0]
    assert got[:5] == (lst, kind, key, pr, sender)
    assert got[5] == sent_at
    body, text = got[6], got[7]
    assert body.startswith(start)
    for noise in ("This message was sent by Atlassian", "automated message from the Apache Git",
                  "was (Author:", "> Key:"):  # fmt: skip
        assert noise not in body
    assert len(text) > len(body)  # the full text is kept too
    assert got[8].startswith("https://lists.apache.org/thread/")


def snapshot(db: Path) -> tuple:
    return (
        query(db, "SELECT * EXCLUDE (sent_at), sent_at::VARCHAR FROM messages ORDER BY msg_key"),
        query(db, "SELECT * FROM errors ORDER BY ALL"),
        query(db, "SELECT * FROM archives ORDER BY path"),
        query(db, "SELECT * FROM result_tables ORDER BY table_id"),
        query(db, "SELECT * FROM measurements ORDER BY msg_key, ordinal"),
    )


# Three small months as lists.apache.org serves them: users@ questions and replies,
# a second users@ month, and every edge-case message in one archive.
USERS_2019_09 = users_month("2019-09", 5)
SMALL = [
    foal_month("users", "ponymail.apache.org", USERS_2019_09),
    EDGE_ARCHIVES["users-2022-01"],
    EDGE_ARCHIVES["edge-messages"],
]


def test_rerun_is_idempotent_and_incremental(tmp_path, capsys):
    paths = [
        write_archive(tmp_path, f"l{i}@p.apache.org", "2020-01", data)
        for i, data in enumerate(SMALL)
    ]
    db = tmp_path / "asf.duckdb"
    assert run(tmp_path, "--workers", "1") == 0
    first = snapshot(db)
    capsys.readouterr()
    assert run(tmp_path, "--workers", "2") == 0
    assert "archives=0 " in capsys.readouterr().out
    assert snapshot(db) == first  # nothing changed, not even extracted_at

    # One archive gains a message: only its rows are replaced.
    paths[0].write_bytes(
        gzip.compress(SMALL[0] + to_mbox([make_message("late", message_id="late@x")]))
    )
    assert run(tmp_path) == 0
    assert "archives=1 " in capsys.readouterr().out
    second = snapshot(db)
    changed_path = "raw/p.apache.org/l0/2020-01.mbox.gz"
    assert [a for a in second[2] if a[0] != changed_path] == [
        a for a in first[2] if a[0] != changed_path
    ]
    old_keys = {m[0] for m in first[0]}
    new_keys = {m[0] for m in second[0]}
    assert new_keys - old_keys == {"l0@p.apache.org/2020-01/late@x"} and old_keys <= new_keys

    # --full rebuilds the same rows.
    assert run(tmp_path, "--full", "--workers", "2") == 0
    rebuilt = snapshot(db)
    assert rebuilt[0] == second[0] and rebuilt[1] == second[1]


def test_messages_only_then_a_full_run_adds_the_results(tmp_path, capsys):
    for i, seed in enumerate(sorted((REPO / "tests" / "fixtures" / "seeds").glob("*.txt"))):
        msg = make_message(seed.read_text(encoding="utf-8"), message_id=f"seed{i}@x")
        write_archive(tmp_path, f"s{i}@seeds.apache.org", "2017-03", to_mbox([msg]))
    db = tmp_path / "asf.duckdb"
    assert run(tmp_path, "--messages-only") == 0
    assert query(db, "SELECT count(*), count(is_benchmark) FROM messages") == [(5, 0)]
    assert query(db, "SELECT count(*) FROM result_tables") == [(0,)]
    assert query(db, "SELECT bool_or(results) FROM archives") == [(False,)]
    capsys.readouterr()
    assert run(tmp_path, "--messages-only") == 0  # nothing new for a messages-only run
    assert "archives=0 " in capsys.readouterr().out

    assert run(tmp_path) == 0  # the same archives again, now with their results
    assert "archives=5 " in capsys.readouterr().out
    assert query(db, "SELECT count(*), count(*) FILTER (is_benchmark) FROM messages") == [(5, 5)]
    assert query(db, "SELECT count(*) > 5 FROM result_tables") == [(True,)]
    assert query(db, "SELECT bool_and(results) FROM archives") == [(True,)]
    assert run(tmp_path, "--messages-only") == 0  # results stay: they are not thrown away
    assert "archives=0 " in capsys.readouterr().out


def test_archives_extracted_by_other_code_are_extracted_again(tmp_path, capsys):
    for i, data in enumerate(SMALL):
        write_archive(tmp_path, f"l{i}@p.apache.org", "2020-01", data)
    db = tmp_path / "asf.duckdb"
    assert run(tmp_path) == 0
    first = snapshot(db)
    capsys.readouterr()
    con = duckdb.connect(str(db))
    con.execute("UPDATE archives SET extractor = 'older code' WHERE path LIKE '%/l1/%'")
    con.close()
    assert run(tmp_path) == 0  # an upgrade: that archive's rows are made again
    assert "archives=1 " in capsys.readouterr().out
    assert snapshot(db)[:2] == first[:2]
    assert query(db, "SELECT count(DISTINCT extractor) FROM archives") == [(1,)]


# The kill test's months: the small ones and a commits@ month, whose long commit
# mails make the first committed batch big early on, so the run is still going (a
# third of the way in) when it is killed.
KILL = [foal_month("commits", "ponymail.apache.org", commits_month(15)), *SMALL]


@pytest.mark.e2e
def test_kill_9_then_rerun_is_consistent_and_complete(tmp_path, capsys):
    for i in range(120):
        write_archive(tmp_path, f"k{i % 12}@kill.apache.org", f"2019-{i // 12 + 1:02d}",
                      KILL[i % len(KILL)])  # fmt: skip
    db = tmp_path / "asf.duckdb"
    copy = tmp_path / "asf.duckdb.new"  # the run's own copy, published when it ends
    wal = tmp_path / "asf.duckdb.new.wal"
    proc = subprocess.Popen(
        [sys.executable, "-m", "extract", "--data-dir", str(tmp_path), "--workers", "2"],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: the workers die with it
    )
    deadline = time.monotonic() + 120
    # Kill once rows are being written (the log holds more than the schema, or the
    # copy grew past its empty schema), else after a while.
    while proc.poll() is None and time.monotonic() < deadline:
        if (wal.exists() and wal.stat().st_size > 50_000) or (
            copy.exists() and copy.stat().st_size > 2_000_000
        ):
            break
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the run ended before it could be killed"
    assert not db.exists()  # readers never see a run's half-done work
    # (the copy's log may hold the schema's statements, whose replay needs functions
    # DuckDB loads later: built in, not to be downloaded; the store opens it so too)
    offline = {"autoinstall_known_extensions": False}
    try:
        done_before = query(copy, "SELECT count(*) FROM archives", config=offline)[0][0]
    except duckdb.Error:  # killed before the copy was whole: the rerun starts anew
        done_before = 0
    assert done_before < 120

    capsys.readouterr()
    assert run(tmp_path, "--workers", "2") == 0
    # the rerun took the killed run's copy up: it did only the rest
    assert f"archives={120 - done_before} " in capsys.readouterr().out
    assert query(db, "SELECT count(*) FROM archives") == [(120,)]
    assert not copy.exists()
    assert_count_invariant(db, tmp_path)
    keys = {r[0] for r in query(db, "SELECT msg_key FROM messages")}

    reference = tmp_path / "reference"
    for p in (tmp_path / "raw").glob("**/*.mbox.gz"):
        target = reference / p.relative_to(tmp_path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(p.read_bytes())
    assert run(reference, "--workers", "2") == 0
    assert keys == {r[0] for r in query(reference / "asf.duckdb", "SELECT msg_key FROM messages")}


def test_cli_errors(tmp_path, capsys):
    assert run(tmp_path / "missing") == 2
    err = capsys.readouterr().err
    assert "does not exist" in err and "`make crawl` fetches archives" in err
    assert run(tmp_path) == 2
    assert "no archives found" in capsys.readouterr().err
    (tmp_path / "a-file").write_text("not a directory")
    assert run(tmp_path / "a-file") == 2
    assert f"data dir {tmp_path / 'a-file'} is a file, not a directory" in capsys.readouterr().err


def test_errors_point_to_the_data_dir_that_has_archives(tmp_path, capsys):
    """After `make demo` (data/demo/raw/...), `make extract` and `make sql` on the
    default data/ say where the demo's archives and database are, not "run make demo"."""
    from extract.outputs.sql import main as sql_main

    data = tmp_path / "data"
    write_archive(data / "demo", "q@p.apache.org", "2020-01", SMALL[0])
    assert run(data) == 2
    err = capsys.readouterr().err
    assert f"archives are under {data / 'demo' / 'raw'}: DATA_DIR={data / 'demo'}" in err
    assert run(data / "typo") == 2  # beside it, too
    assert f"DATA_DIR={data / 'demo'}" in capsys.readouterr().err
    assert sql_main(["--data-dir", str(data), "-c", "SELECT 1"]) != 0
    assert "make demo" in capsys.readouterr().err  # no database anywhere yet
    assert run(data / "demo") == 0
    capsys.readouterr()
    assert sql_main(["--data-dir", str(data), "-c", "SELECT 1"]) != 0
    err = capsys.readouterr().err
    assert f"the demo's is {data / 'demo' / 'asf.duckdb'}: add DATA_DIR={data / 'demo'}" in err
    assert "make demo" not in err


@pytest.mark.e2e
def test_quiet_parseable_output_when_not_a_tty(tmp_path):
    write_archive(tmp_path, "q@p.apache.org", "2020-01", SMALL[0])
    out = subprocess.run(
        [sys.executable, "-m", "extract", "--data-dir", str(tmp_path), "--workers", "1"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stderr == ""
    (line,) = out.stdout.splitlines()
    fields = dict(kv.split("=", 1) for kv in line.split())
    assert (fields["archives"], fields["messages"], fields["errors"]) == (
        "1",
        str(len(USERS_2019_09)),
        "0",
    )


@pytest.mark.e2e
def test_a_writer_in_place_is_a_clear_error(tmp_path):
    """A process that has the database open for writing (not a reader: those never
    stop a run) makes the run stop before it starts, saying who to close."""
    write_archive(tmp_path, "q@p.apache.org", "2020-01", SMALL[0])
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import duckdb, sys; c = duckdb.connect(sys.argv[1]); print('ready', flush=True); "
         "sys.stdin.read()", str(tmp_path / "asf.duckdb")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout.readline().strip() == "ready"
        out = subprocess.run(
            [sys.executable, "-m", "extract", "--data-dir", str(tmp_path), "--workers", "1"],
            cwd=REPO,
            capture_output=True,
            text=True,
        )
    finally:
        holder.stdin.close()
        holder.wait()
        holder.stdout.close()
    assert out.returncode == 2
    assert out.stderr.startswith(f"extract: {tmp_path / 'asf.duckdb'} is open for writing in ")
    assert "make sql --write" in out.stderr and "Traceback" not in out.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["asf.duckdb", "raw"]  # nothing new


def test_workers_are_forked_only_while_no_other_thread_runs():
    """Workers fork from a process without other threads (fast start-up, safe), and
    are spawned once DuckDB runs its native threads (forking those can deadlock)."""
    code = (
        "import duckdb\n"
        "from extract.runner import _worker_pool\n"
        "before = _worker_pool(1)\n"
        "duckdb.connect().execute('SELECT 1')\n"
        "after = _worker_pool(1)\n"
        "print(before._mp_context.get_start_method(), after._mp_context.get_start_method())\n"
        "print(before.submit(sum, [1, 2]).result(), after.submit(sum, [3, 4]).result())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.split() == ["fork", "spawn", "3", "7"]


def test_a_read_only_data_dir_is_extracted_with_the_database_elsewhere(tmp_path):
    """Everything the run writes goes beside the database: with --db elsewhere the
    data dir is only read (made read-only here; compared file by file, since root
    writes anyway), and nothing goes to the system's temp dir."""
    data, elsewhere, tmp = tmp_path / "data", tmp_path / "elsewhere", tmp_path / "tmp"
    for i, mbox in enumerate(SMALL):
        write_archive(data, f"small{i}@p.apache.org", "2020-01", mbox)
    tmp.mkdir()
    before = sorted((p.relative_to(data), p.stat().st_mtime_ns) for p in data.rglob("*"))
    for p in [data, *data.rglob("*")]:
        p.chmod(p.stat().st_mode & ~0o222)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "extract", "--data-dir", str(data),
             "--db", str(elsewhere / "asf.duckdb"), "--workers", "2"],
            cwd=REPO, capture_output=True, text=True, timeout=300,
            env={**os.environ, "TMPDIR": str(tmp)},
        )  # fmt: skip
    finally:
        for p in [data, *data.rglob("*")]:
            p.chmod(p.stat().st_mode | 0o200)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert sorted((p.relative_to(data), p.stat().st_mtime_ns) for p in data.rglob("*")) == before
    assert list(tmp.iterdir()) == []
    assert sorted(p.relative_to(elsewhere).as_posix() for p in elsewhere.rglob("*")) == [
        ".staging",
        "asf.duckdb",
    ]
    assert query(elsewhere / "asf.duckdb", "SELECT count(DISTINCT archive) FROM messages") == [
        (len(SMALL),)
    ]
