"""Numbers from mail that do not fit a column never fail a run: a PR number beyond
BIGINT is stored as NULL and the message is kept."""

from __future__ import annotations

import gzip

import duckdb

import extract
from extract.mail.kinds import message_kind, pr_number

HUGE = "9" * 25


def test_a_pr_number_that_does_not_fit_is_none():
    assert pr_number("2147483648") == 2147483648  # past INTEGER, within BIGINT
    assert pr_number(HUGE) is None and pr_number(None) is None
    kind = message_kind(
        f"[PR] foo commented on pull request #{HUGE}: Speed up reads",
        "GitBox",
        "git@apache.org",
        f"foo commented on PR #{HUGE}:\nURL: https://github.com/apache/hive/pull/{HUGE}\n",
    )
    assert kind.pr_number is None


def test_a_run_stores_the_message_with_a_null_pr_number(tmp_path):
    archive = tmp_path / "raw" / "hive.apache.org" / "gitbox" / "2024-05.mbox.gz"
    archive.parent.mkdir(parents=True)
    body = (
        f"From foo@example.org Wed May  1 10:00:00 2024\n"
        f"From: GitBox <git@apache.org>\nTo: gitbox@hive.apache.org\n"
        f"Subject: [GitHub] [hive] foo commented on pull request #{HUGE}: Faster scans\n"
        f"Message-ID: <huge@example.org>\nDate: Wed, 01 May 2024 10:00:00 +0000\n\n"
        f"foo commented on PR #{HUGE}:\nURL: https://github.com/apache/hive/pull/{HUGE}\n\n"
        "Scans took 27 sec before and 9 sec with the patch.\n\n"
    )
    with gzip.open(archive, "wb") as f:
        f.write(body.encode())
    summary = extract.run(tmp_path, workers=1)
    assert summary.db_messages == 1 and summary.db_errors == 0
    con = duckdb.connect(str(summary.db), read_only=True)
    assert con.execute("SELECT pr_number FROM messages").fetchall() == [(None,)]
    con.close()
