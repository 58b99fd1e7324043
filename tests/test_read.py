"""The mbox reader on the real archives in the fixtures and on built edge cases.
Also home of the small helpers other extract tests use to build DATA_DIR archives."""

from __future__ import annotations

import email
import gzip
import mailbox
import threading
from datetime import UTC, datetime
from email.utils import format_datetime
from pathlib import Path

import pytest

from extract.mail.mbox import ArchiveReadError, iter_messages, read_mbox

FIXTURES = Path(__file__).parent / "fixtures"
MBOX = FIXTURES / "mbox"
ALL_MBOXES = sorted(MBOX.glob("*/*.mbox")) + sorted(MBOX.glob("*/*/*.mbox"))


# ------------------------------------------------------------------ helpers


def mboxrd_escape(raw: bytes) -> bytes:
    """What lists.apache.org does to a message body: one more `>` on `>*From ` lines."""
    out = []
    for line in raw.splitlines(keepends=True):
        if line.lstrip(b">").startswith(b"From "):
            line = b">" + line
        out.append(line)
    return b"".join(out)


def to_mbox(
    messages: list[bytes], envelope: bytes = b"From MAILER-DAEMON Thu Jan  1 00:00:00 1970"
) -> bytes:
    """Messages as one mboxrd archive, each ending with a blank line."""
    out = b""
    for raw in messages:
        body = mboxrd_escape(raw.replace(b"\r\n", b"\n"))
        if not body.endswith(b"\n"):
            body += b"\n"
        out += envelope + b"\n" + body + b"\n"
    return out


def write_archive(data_dir: Path, list_address: str, month: str, mbox: bytes) -> Path:
    """DATA_DIR/raw/<domain>/<list>/<YYYY-MM>.mbox.gz, as the crawler writes it."""
    name, domain = list_address.split("@")
    path = data_dir / "raw" / domain / name / f"{month}.mbox.gz"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(mbox, mtime=0))
    return path


def make_message(
    body: str,
    *,
    subject: str = "Test",
    sender: str = "Jane Doe <jane@example.org>",
    message_id: str | None = "m1@example.org",
    date: datetime | None = datetime(2020, 1, 2, 3, 4, 5, tzinfo=UTC),
    headers: str = "",
    content_type: str = "text/plain; charset=utf-8",
) -> bytes:
    lines = [f"From: {sender}", f"Subject: {subject}"]
    if message_id:
        lines.append(f"Message-ID: <{message_id}>")
    if date:
        lines.append(f"Date: {format_datetime(date)}")
    lines += [f"Content-Type: {content_type}", "MIME-Version: 1.0"]
    head = "\n".join(lines) + ("\n" + headers.strip("\n") if headers else "")
    return (head + "\n\n" + body).encode("utf-8")


# ------------------------------------------------------------------ tests


@pytest.mark.parametrize("path", ALL_MBOXES, ids=lambda p: p.name)
def test_same_messages_as_stdlib_mailbox(path):
    ours = list(read_mbox(path))
    box = mailbox.mbox(path, create=False)
    try:
        # get_bytes, not iteration: mailbox itself fails on a non-ASCII envelope line.
        theirs = [box.get_bytes(key) for key in box.iterkeys()]
    finally:
        box.close()
    assert len(ours) == len(theirs)
    assert [m.position for m in ours] == list(range(len(ours)))
    for mine, std in zip(ours, theirs, strict=True):
        assert mine.envelope_line.startswith("From ")
        ours_parsed, std_parsed = email.message_from_bytes(mine.data), email.message_from_bytes(std)
        for header in ("Message-ID", "Subject", "Date"):
            assert ours_parsed[header] == std_parsed[header]


def test_offsets_point_at_envelope_lines():
    path = MBOX / "ponymail-foal" / "users_ponymail_apache_org_2022-01.mbox"
    raw = path.read_bytes()
    msgs = list(read_mbox(path))
    assert len(msgs) == 6
    for m in msgs:
        assert raw[m.offset :].startswith(b"From users-return-")
        assert "  " in m.envelope_line  # Postfix's two spaces before the ctime date


def test_mboxrd_unescaping_and_envelope_forms():
    body1 = b"Subject: a\n\nFrom the start\n>From quoted\n\nFrom here it goes on\n"
    body2 = b"Subject: b\n\ntext\n"
    data = (
        b"From MAILER-DAEMON Fri Sep 20 12:27:56 2019\n"
        + mboxrd_escape(body1)
        + b"\nFrom dev-return-7-archive@x.apache.org  Fri Sep 20 12:37:59 2019\n"
        + body2
    )
    msgs = list(iter_messages(iter(data.splitlines(keepends=True))))
    assert [m.envelope_line.split()[1] for m in msgs] == [
        "MAILER-DAEMON",
        "dev-return-7-archive@x.apache.org",
    ]
    assert msgs[0].data == body1  # exactly one ">" removed, blank separator dropped
    assert msgs[1].data == body2


def test_empty_month_is_valid_and_empty(tmp_path):
    path = write_archive(tmp_path, "dev@x.apache.org", "2020-01", b"")
    assert list(read_mbox(path)) == []
    assert list(read_mbox(MBOX / "ponymail-classic" / "fail" / "empty.mbox")) == []


def test_truncated_gzip_keeps_messages_before_the_damage(tmp_path):
    msgs = [make_message(f"message {i}\n" + "x" * 2000, message_id=f"{i}@x") for i in range(50)]
    full = gzip.compress(to_mbox(msgs), mtime=0)
    path = tmp_path / "cut.mbox.gz"
    path.write_bytes(full[: len(full) * 2 // 3])
    got = []
    with pytest.raises(ArchiveReadError) as err:
        for m in read_mbox(path):
            got.append(m)
    assert 0 < len(got) < 50
    assert [m.position for m in got] == list(range(len(got)))
    assert err.value.partial is not None and err.value.partial.position == len(got)


def test_reading_ahead_stops_when_the_reader_stops(tmp_path):
    """The read-ahead thread decompresses a few blocks ahead: a reader that stops
    early (an archive abandoned half-way) must not leave it running or the file open."""
    msgs = [make_message(f"message {i}\n" + "x" * 50_000, message_id=f"{i}@x") for i in range(200)]
    path = tmp_path / "big.mbox.gz"
    path.write_bytes(gzip.compress(to_mbox(msgs), compresslevel=1, mtime=0))
    reader = read_mbox(path)
    assert next(reader).position == 0
    assert any(t.name == "read-ahead" for t in threading.enumerate())
    reader.close()
    assert not any(t.name == "read-ahead" for t in threading.enumerate())
    assert [m.position for m in read_mbox(path)] == list(range(200))


def test_ten_megabyte_line_is_read_whole(tmp_path):
    line = b"y" * (10 * 1024 * 1024)
    path = write_archive(
        tmp_path,
        "dev@x.apache.org",
        "2020-01",
        to_mbox([make_message("a\n") + line, make_message("b")]),
    )
    msgs = list(read_mbox(path))
    assert len(msgs) == 2 and line in msgs[0].data


def test_text_before_first_envelope_is_kept_as_a_message():
    data = b"garbage line\n\nFrom x Thu Jan  1 00:00:00 1970\nSubject: s\n\nbody\n"
    msgs = list(iter_messages(iter(data.splitlines(keepends=True))))
    assert [m.envelope_line for m in msgs] == ["", "From x Thu Jan  1 00:00:00 1970"]
    assert msgs[0].data.startswith(b"garbage line")
