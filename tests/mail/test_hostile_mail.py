"""Hostile mail (issue 12, point 7): what once became an `errors` row or an absurd
value is read best-effort. MIME nested 1,000 levels deep and HTML with 100,000
nested `<div>`s are read down to a depth cap (a note says so); envelope and Date
header years far outside 1900-2100 give no `sent_at` (a note says why); two archive
files that map to one list and month give unique message keys, the month's own file
keeping its documented key."""

from __future__ import annotations

from datetime import UTC, datetime
from email.parser import BytesParser
from email.policy import compat32
from pathlib import Path

import duckdb
import pytest

from extract.__main__ import main
from extract.mail.message import (
    MAX_HTML_DEPTH,
    MAX_MIME_DEPTH,
    _parse_bytes,
    html_to_text,
    parse_message,
)
from tests.archives import to_mbox, write_archive
from tests.mail.mboxes import make_message, raw_message

HEAD = "From: Ana Lopes <ana@example.org>\nDate: Thu, 10 Mar 2017 22:49:00 +0000\n"


def nested_multipart(depth: int, *, top_text: str | None = None, message_id="deep@x") -> bytes:
    """A message whose body is `depth` multipart/mixed levels, each inside the one
    before, with a text/plain part at the bottom (and `top_text` as a first part of
    the top level, when given)."""
    out = [f"{HEAD}Subject: deep mime\nMessage-ID: <{message_id}>\nMIME-Version: 1.0\n"]
    for level in range(depth):
        out.append(f'Content-Type: multipart/mixed; boundary="b{level}"\n\n')
        if level == 0 and top_text is not None:
            out.append(f"--b0\nContent-Type: text/plain\n\n{top_text}\n")
        out.append(f"--b{level}\n")
    out.append("Content-Type: text/plain\n\nthe innermost text\n")
    out += [f"--b{level}--\n" for level in reversed(range(depth))]
    return "".join(out).encode()


def nested_rfc822(depth: int) -> bytes:
    """message/rfc822 inside message/rfc822, `depth` times, a text at the bottom."""
    out = [f"{HEAD}Subject: deep rfc822\nMessage-ID: <deep822@x>\n"]
    out += ["Content-Type: message/rfc822\n\nSubject: inner\n"] * depth
    out.append("Content-Type: text/plain\n\nthe innermost text\n")
    return "".join(out).encode()


def nested_divs(depth: int, message_id="deephtml@x") -> bytes:
    html = (
        "<html><body><p>Before the divs.</p>"
        + "<div>" * depth
        + "deep inside"
        + "</div>" * depth
        + "<p>After the divs.</p></body></html>\n"
    )
    head = f"{HEAD}Subject: deep html\nMessage-ID: <{message_id}>\nContent-Type: text/html"
    return raw_message(head, html)


# ------------------------------------------------------------------ deep MIME and HTML


def test_multipart_nested_1000_levels_is_read_best_effort():
    pm = parse_message(nested_multipart(1000, top_text="The top-level text."))
    assert pm.parser == "stdlib"
    assert pm.message_id == "deep@x" and pm.subject == "deep mime"
    assert pm.text == "The top-level text."
    assert any(f"deeper than {MAX_MIME_DEPTH} levels" in n for n in pm.notes)


def test_deep_multipart_with_text_only_at_the_bottom_keeps_it_as_raw_text():
    pm = parse_message(nested_multipart(1000))
    assert "the innermost text" in pm.text  # the unsplit rest, as a last resort
    assert pm.content_type == "multipart/mixed"
    assert pm.notes


def test_message_rfc822_nested_1000_levels_is_read():
    pm = parse_message(nested_rfc822(1000))
    assert (pm.message_id, pm.subject) == ("deep822@x", "deep rfc822")
    assert pm.notes


def test_multipart_within_the_cap_is_read_as_before():
    data = nested_multipart(MAX_MIME_DEPTH - 1)
    pm = parse_message(data)
    assert (pm.text, pm.content_type, pm.notes) == ("the innermost text", "text/plain", [])
    # split exactly as the standard library splits it
    ours, std = _parse_bytes(data), BytesParser(policy=compat32).parsebytes(data)
    assert [p.get_content_type() for p in ours.walk()] == [p.get_content_type() for p in std.walk()]
    assert ours.as_bytes() == std.as_bytes()


def test_html_with_100000_nested_divs_is_read_best_effort():
    pm = parse_message(nested_divs(100_000))
    assert pm.content_type == "text/html"
    assert pm.text.split("\n\n") == ["Before the divs.", "deep inside", "After the divs."]
    assert any(f"deeper than {MAX_HTML_DEPTH} elements" in n for n in pm.notes)


def test_html_within_the_cap_keeps_its_layout():
    depth = MAX_HTML_DEPTH // 2
    html = "<div>" * depth + "<p>a</p><table><tr><td>x</td></tr></table>" + "</div>" * depth
    assert html_to_text(html) == "a\n\n| x |\n|---|"
    pm = parse_message(raw_message(f"{HEAD}Content-Type: text/html", html))
    assert pm.notes == []


def test_nested_tables_below_the_cap_are_read():
    html = "<table><tr><td>" * 2000 + "cell" + "</td></tr></table>" * 2000
    assert "cell" in html_to_text(html)


# ------------------------------------------------------------------ dates out of range


def bare(date: str | None = None) -> bytes:
    return raw_message(
        "From: a@example.org\nSubject: s\nMessage-ID: <d@x>" + (f"\nDate: {date}" if date else ""),
        "body\n",
    )


@pytest.mark.parametrize(
    "envelope",
    [
        "From a@example.org Thu Jan  1 00:00:00 0000",
        "From a@example.org Thu Jan  1 00:00:00 99999",
        "From a@example.org Mon Jan  1 00:00:00 0001",
        "From a@example.org Fri Dec 31 23:59:59 9999",
    ],
)
def test_envelope_year_out_of_range_gives_no_date(envelope):
    pm = parse_message(bare(), envelope)
    assert (pm.sent_at, pm.date_source) == (None, None)
    assert any("envelope date not used" in n for n in pm.notes)


@pytest.mark.parametrize(
    "header",
    [
        "Thu, 1 Jan 99999 00:00:00 +0000",
        "Mon, 1 Jan 0001 00:00:00 +0000",
        "Fri, 31 Dec 9999 23:59:59 -1000",
        "Sat, 1 Jan 2500 00:00:00 +0000",
        "0001-01-01T00:00:00",
        "1 Jan 1800 10:00",
    ],
)
def test_date_header_out_of_range_falls_back_or_is_null(header):
    good = "From a@example.org Tue Mar  3 10:00:00 2020"
    pm = parse_message(bare(header), good)  # the envelope is the fallback
    assert (pm.sent_at, pm.date_source) == (datetime(2020, 3, 3, 10, tzinfo=UTC), "envelope")
    assert any("Date header" in n for n in pm.notes)
    pm = parse_message(bare(header), "From a@example.org Thu Jan  1 00:00:00 99999")
    assert (pm.sent_at, pm.date_source) == (None, None)
    assert len(pm.notes) == 2


def test_dates_in_range_have_no_note():
    pm = parse_message(bare("Thu, 10 Mar 2017 22:49:00 +0000"), "From a Thu Jan  1 00:00:00 1970")
    assert (pm.sent_at.year, pm.date_source, pm.notes) == (2017, "header", [])


# ------------------------------------------------------------------ end to end


def query(db: Path, sql: str) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_hostile_mail_is_stored_not_errors(tmp_path):
    dated = [
        ("From a Thu Jan  1 00:00:00 0000", make_message("y0", message_id="y0@x", date=None)),
        ("From a Thu Jan  1 00:00:00 99999", make_message("y9", message_id="y9@x", date=None)),
        ("From a Thu Jan  1 00:00:00 99999", bare("Thu, 1 Jan 99999 00:00:00 +0000")),
    ]
    mbox = to_mbox([nested_multipart(1000), nested_divs(100_000), nested_rfc822(1000)])
    for envelope, raw in dated:
        mbox += to_mbox([raw], envelope=envelope.encode())
    write_archive(tmp_path, "dev@h.apache.org", "2020-01", mbox)
    assert main(["--data-dir", str(tmp_path), "--workers", "1"]) == 0
    db = tmp_path / "asf.duckdb"
    assert query(db, "SELECT count(*) FROM errors") == [(0,)]
    rows = query(db, "SELECT message_id, sent_at, date_source FROM messages ORDER BY position")
    assert [r[0] for r in rows] == ["deep@x", "deephtml@x", "deep822@x", "y0@x", "y9@x", "d@x"]
    assert [r[1:] for r in rows[3:]] == [(None, None)] * 3


def test_two_files_of_one_month_give_unique_keys(tmp_path):
    """The month's file, another name beside it and a copy in a deeper folder all map
    to dev@h.apache.org and 2020-01; the same messages in each get distinct keys, and
    the month's own file keeps `<list>/<YYYY-MM>/<Message-ID>`."""
    messages = [make_message(f"m{i}", message_id=f"m{i}@x") for i in range(3)]
    messages.append(make_message("no id", message_id=None))
    mbox = to_mbox(messages)
    canonical = write_archive(tmp_path, "dev@h.apache.org", "2020-01", mbox)
    (canonical.parent / "2020-01.old.mbox.gz").write_bytes(canonical.read_bytes())
    copy = tmp_path / "raw" / "copy" / "h.apache.org" / "dev" / "2020-01.mbox.gz"
    copy.parent.mkdir(parents=True)
    copy.write_bytes(canonical.read_bytes())
    assert main(["--data-dir", str(tmp_path), "--workers", "2"]) == 0
    db = tmp_path / "asf.duckdb"
    assert query(db, "SELECT count(*), count(DISTINCT msg_key) FROM messages") == [(12, 12)]
    assert query(db, "SELECT count(*) FROM errors") == [(0,)]
    assert query(db, "SELECT DISTINCT list, month FROM archives") == [
        ("dev@h.apache.org", "2020-01")
    ]
    keys = dict(
        query(db, "SELECT archive, list(msg_key ORDER BY position) FROM messages GROUP BY 1")
    )
    month_keys = keys["raw/h.apache.org/dev/2020-01.mbox.gz"]
    assert month_keys[:3] == [f"dev@h.apache.org/2020-01/m{i}@x" for i in range(3)]
    assert month_keys[3].startswith("dev@h.apache.org/2020-01/sha256:")
    assert (
        keys["raw/h.apache.org/dev/2020-01.old.mbox.gz"][0] == "dev@h.apache.org/2020-01.old/m0@x"
    )
    deeper = keys["raw/copy/h.apache.org/dev/2020-01.mbox.gz"][0]
    assert deeper == "dev@h.apache.org/raw%2Fcopy%2Fh.apache.org%2Fdev%2F2020-01.mbox.gz/m0@x"
    # a second run changes nothing: the keys are stable
    assert main(["--data-dir", str(tmp_path), "--workers", "1", "--full"]) == 0
    assert (
        dict(query(db, "SELECT archive, list(msg_key ORDER BY position) FROM messages GROUP BY 1"))
        == keys
    )
