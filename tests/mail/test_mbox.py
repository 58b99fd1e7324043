"""The mbox reader on archives built in tests/mail/mboxes.py (envelope forms, mboxrd
escaping, truncation, big lines) and, when ../shared is there, on the peer tools'
archives (PonyMail, Perceval, MLStats): our reader against the standard library."""

from __future__ import annotations

import email
import gzip
import mailbox
import random
import threading
from pathlib import Path

import pytest

from extract.mail.mbox import ArchiveReadError, iter_messages, read_mbox
from tests.archives import mboxrd_escape, to_mbox, write_archive
from tests.conftest import shared_path
from tests.mail.mboxes import (
    EDGE_ARCHIVES,
    EDGE_MESSAGES,
    ENVELOPES,
    escaped_archive,
    make_message,
    users_month,
    write_edge_archives,
)

# Archives whose every envelope line starts a message for both readers (the mboxo
# archive with an unescaped body `From ` line is read differently, on purpose).
STDLIB_COMPARABLE = [name for name in EDGE_ARCHIVES if name != "unescaped"]


def lines(data: bytes):
    return iter(data.splitlines(keepends=True))


def _same_as_stdlib(path: Path) -> int:
    ours = list(read_mbox(path))
    box = mailbox.mbox(path, create=False)
    try:
        # get_bytes, not iteration: mailbox itself fails on a non-ASCII envelope line.
        theirs = [box.get_bytes(key) for key in box.iterkeys()]
    finally:
        box.close()
    assert len(ours) == len(theirs), path.name
    assert [m.position for m in ours] == list(range(len(ours)))
    for mine, std in zip(ours, theirs, strict=True):
        assert mine.envelope_line.startswith("From ")
        ours_parsed, std_parsed = email.message_from_bytes(mine.data), email.message_from_bytes(std)
        for header in ("Message-ID", "Subject", "Date"):
            assert ours_parsed[header] == std_parsed[header], (path.name, header)
    return len(ours)


@pytest.mark.parametrize("name", STDLIB_COMPARABLE)
def test_same_messages_as_stdlib_mailbox(name, tmp_path):
    paths = {p.stem: p for p in write_edge_archives(tmp_path)}
    assert _same_as_stdlib(paths[name]) > 0


@pytest.mark.shared
def test_peer_archives_same_messages_as_stdlib_mailbox():
    """The PonyMail, Perceval and MLStats test archives (../shared/mbox): every
    envelope-delimited message becomes one, as the standard library reads them."""
    root = shared_path("mbox")
    paths = sorted(root.glob("*/*.mbox")) + sorted(root.glob("*/*/*.mbox"))
    assert paths
    total = sum(_same_as_stdlib(path) for path in paths)
    assert total > len(paths)


@pytest.mark.shared
def test_peer_month_export_offsets_point_at_postfix_envelopes():
    path = shared_path("mbox", "ponymail-foal", "users_ponymail_apache_org_2022-01.mbox")
    raw = path.read_bytes()
    msgs = list(read_mbox(path))
    assert len(msgs) == raw.count(b"\nFrom users-return-") + raw.startswith(b"From users-")
    for m in msgs:
        assert raw[m.offset :].startswith(b"From users-return-")
        assert "  " in m.envelope_line


def test_offsets_point_at_envelope_lines(tmp_path):
    sources = users_month("2022-01", 6)
    path = tmp_path / "users.mbox"
    path.write_bytes(EDGE_ARCHIVES["users-2022-01"])
    raw = path.read_bytes()
    msgs = list(read_mbox(path))
    assert len(msgs) == len(sources)
    for m, source in zip(msgs, sources, strict=True):
        assert raw[m.offset :].startswith(b"From users-return-")
        assert "  " in m.envelope_line  # Postfix's two spaces before the ctime date
        assert m.data == source  # escaping undone, the blank separator dropped


def test_mboxrd_unescaping_and_envelope_forms():
    data, sources = escaped_archive()
    msgs = list(iter_messages(lines(data)))
    assert [m.envelope_line.split()[1] for m in msgs] == [
        "MAILER-DAEMON",
        "dev-return-7-archive@x.apache.org",
    ]
    assert msgs[0].data == sources[0]  # exactly one ">" removed, blank separator dropped
    assert msgs[1].data == sources[1]
    assert b"\n>>From quoted twice\n" in sources[0]
    assert b"\n>>>From quoted twice\n" in data


def test_every_envelope_form_starts_a_message():
    msgs = list(iter_messages(lines(EDGE_ARCHIVES["envelopes"])))
    assert [m.envelope_line.encode("utf-8", "surrogateescape") for m in msgs] == ENVELOPES
    assert [m.data.rsplit(b"\n\n", 1)[1] for m in msgs] == [
        f"body {i}\n".encode() for i in range(len(ENVELOPES))
    ]


def test_an_unescaped_body_from_line_stays_in_its_message():
    """mboxo writers leave `From the edge` unescaped; it follows a body line, not a
    blank line, so it is no envelope and stays in the first message."""
    msgs = list(iter_messages(lines(EDGE_ARCHIVES["unescaped"])))
    assert len(msgs) == 2
    assert msgs[0].data.endswith(b"first line\nFrom the edge\n")
    assert b"Subject: after" in msgs[1].data


def test_every_edge_message_comes_back_unchanged():
    msgs = list(iter_messages(lines(EDGE_ARCHIVES["edge-messages"])))
    assert len(msgs) == len(EDGE_MESSAGES)
    for m, (name, source) in zip(msgs, EDGE_MESSAGES.items(), strict=True):
        expected = source if source.endswith(b"\n") else source + b"\n"
        assert m.data == expected, name


def test_empty_month_is_valid_and_empty(tmp_path):
    path = write_archive(tmp_path, "dev@x.apache.org", "2020-01", b"")
    assert list(read_mbox(path)) == []
    plain = tmp_path / "empty.mbox"
    plain.write_bytes(b"")
    assert list(read_mbox(plain)) == []


def test_a_truncated_archive_gives_the_cut_message_as_it_is():
    msgs = list(iter_messages(lines(EDGE_ARCHIVES["truncated"])))
    assert len(msgs) == 3
    assert msgs[2].data.endswith(b"mess") and b"Subject: cut 2" in msgs[2].data
    assert all(m.data.endswith(b"message %d\n" % i) for i, m in enumerate(msgs[:2]))


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
    noise = random.Random(7)  # hex noise: a run of "x" would compress into one block
    msgs = [
        make_message(f"message {i}\n" + noise.randbytes(25_000).hex(), message_id=f"{i}@x")
        for i in range(200)
    ]
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
    msgs = list(iter_messages(lines(data)))
    assert [m.envelope_line for m in msgs] == ["", "From x Thu Jan  1 00:00:00 1970"]
    assert msgs[0].data.startswith(b"garbage line")


def test_mboxrd_escape_adds_one_quote_to_every_from_line():
    assert mboxrd_escape(b"From a\n>From b\n>>From c\nFrom: d\nfrom e\n") == (
        b">From a\n>>From b\n>>>From c\nFrom: d\nfrom e\n"
    )


def test_an_empty_message_does_not_swallow_the_next_whatever_the_blocks():
    """Issue 12: an envelope line, a blank line and the next envelope line are one
    empty message; the next message was lost inside it when the blocks fell so
    that the search for its end started after the envelope line's line break."""
    envelope = b"From kim@example.org Thu Jan  1 00:00:00 1970\n"
    one, three = make_message("one", message_id="1@x"), make_message("three", message_id="3@x")
    data = envelope + one + b"\n\n" + envelope + b"\n" + envelope + three + b"\n\n"
    for size in (1, 7, 64, len(data)):
        msgs = list(iter_messages(data[i : i + size] for i in range(0, len(data), size)))
        assert [m.data for m in msgs] == [one + b"\n", b"", three + b"\n"], size
        assert [m.offset for m in msgs] == [
            0,
            len(envelope + one) + 2,
            len(envelope + one) + 2 + len(envelope) + 1,
        ]


def test_a_cut_inside_an_envelope_line_keeps_the_message_before():
    """A stream that breaks in the middle of an envelope line: the message before it
    is complete and is yielded; the cut envelope line is the error's partial."""
    data = to_mbox([make_message(f"message {i}", message_id=f"{i}@x") for i in range(3)])
    cut = data.rfind(b"From MAILER") + len(b"From MAIL")

    def blocks():
        yield data[:cut]
        raise EOFError("compressed file ended before the end-of-stream marker was reached")

    got = []
    with pytest.raises(ArchiveReadError) as err:
        for m in iter_messages(blocks()):
            got.append(m)
    assert len(got) == 2 and got[1].data.startswith(b"From: ") and b"message 1" in got[1].data
    assert got[1].data.endswith(b"\n\nmessage 1\n")  # nothing of the next envelope line
    assert err.value.partial.position == 2 and err.value.partial.data == b""
    assert err.value.partial.offset == cut - len(b"From MAIL")
    assert err.value.partial.envelope_line == "From MAIL"


# ------------------------------------------------------------------ bounded reading (issue 27)


def _capped_archive() -> tuple[bytes, list[bytes]]:
    small = [make_message(f"small {i}\n", message_id=f"s{i}@x") for i in range(3)]
    big = [make_message("x" * 5000 + "\n", message_id=f"big{i}@x") for i in range(2)]
    messages = [small[0], big[0], small[1], small[2], big[1]]
    return to_mbox(messages), messages


@pytest.mark.parametrize("block", [1, 7, 100, 999, 4096, 1 << 20])
def test_a_message_over_the_cap_is_skipped_to_its_end(block):
    data, _ = _capped_archive()
    reference = list(iter_messages([data]))
    blocks = [data[i : i + block] for i in range(0, len(data), block)]
    got = list(iter_messages(iter(blocks), max_message_bytes=2000))
    assert [m.position for m in got] == list(range(5))
    assert [m.offset for m in got] == [m.offset for m in reference]
    assert [m.envelope_line for m in got] == [m.envelope_line for m in reference]
    for mine, ref in zip(got, reference, strict=True):
        if len(ref.data) > 2000:  # skipped: its size, and its first bytes for the headers
            assert mine.skipped == len(ref.data) + 1  # (+ the blank line that ends it)
            assert ref.data.startswith(mine.data) and b"Message-ID: <big" in mine.data
        else:
            assert (mine.skipped, mine.data) == (0, ref.data)


def test_a_message_over_the_cap_cut_by_damage_is_the_partial_one():
    data, _ = _capped_archive()
    cut = data.index(b"x" * 4000)

    def damaged():
        yield data[:cut]
        yield data[cut : cut + 3000]
        raise EOFError("compressed file ended")

    got = []
    with pytest.raises(ArchiveReadError) as broken:
        got.extend(iter_messages(damaged(), max_message_bytes=2000))
    assert [m.position for m in got] == [0]
    assert broken.value.partial.position == 1 and broken.value.partial.skipped > 2000


# The peak is the process's own: VmHWM belongs to its address space, which exec
# replaces, while ru_maxrss keeps the high-water mark of the process it was forked
# from (under a full `make test`, pytest's ~550 MB).
READ_BIG = """
import json, resource, sys, time
def peak_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
from extract.pipeline import process_archive
started = time.monotonic()
rows = process_archive(sys.argv[1], sys.argv[2])
print(json.dumps({
    "seconds": time.monotonic() - started,
    "peak_mb": peak_kib() / 1024,
    "n_messages": rows.archive["n_messages"],
    "stored": [m["message_id"] for m in rows.messages],
    "errors": [[e["position"], e["message_id"], e["stage"], e["reason"]] for e in rows.errors],
}))
"""


@pytest.mark.slow
def test_a_1_gb_message_is_read_in_seconds_in_flat_memory(tmp_path):
    """One message of 1 GB (a sparse file: reading it costs no disk) was read in
    quadratic time (a 256 MB message took 24 s, a 2 GB archive did not finish in
    300 s) with ~5x its size in memory. Now: skipped to its end, counted, recorded."""
    import json
    import subprocess
    import sys

    head = make_message("", message_id="huge@x", subject="a huge one")
    path = tmp_path / "raw" / "p.apache.org" / "big" / "2020-01.mbox"
    path.parent.mkdir(parents=True)
    size = 1 << 30
    with open(path, "wb") as f:
        f.write(b"From MAILER-DAEMON Thu Jan  1 00:00:00 1970\n" + head)
        f.seek(size)  # a hole of zeros: the message's body
        f.write(b"\n\n" + to_mbox([make_message("after it\n", message_id="after@x")]))
    repo = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", READ_BIG, str(path), str(tmp_path)],
                          capture_output=True, text=True, timeout=120, cwd=repo)  # fmt: skip
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    print(got)  # (the figures, with -s)
    assert got["seconds"] < 30 and got["peak_mb"] < 500, got
    assert got["n_messages"] == 2 and got["stored"] == ["after@x"]
    ((position, message_id, stage, reason),) = got["errors"]
    assert (position, message_id, stage) == (0, "huge@x", "read")
    # (its data: from after the 44-byte envelope line to the next one, the blank line too)
    assert reason.startswith(f"message of {size - 44 + 2:,} bytes at offset 0 is over the cap")


# ------------------------------------------------------------------ damaged gzip (issue 27)


def _wordy_messages(rng: random.Random, n: int) -> list[bytes]:
    words = ["bench", "ops/s", "latency", "before", "after", "patch", "p99", "GC", "heap"]
    return [
        make_message(
            "\n".join(
                " ".join(rng.choice(words) + str(rng.randrange(10**6)) for _ in range(12))
                for _ in range(rng.randint(20, 60))
            )
            + "\n",
            message_id=f"w{i}@x",
        )
        for i in range(n)
    ]


def _inflates_to(gz: bytes) -> tuple[bytes, bool]:
    """(the bytes a gzip stream inflates to before the first byte zlib refuses, whether
    zlib refused one before the trailer): fed a byte at a time, independently of the
    reader's bisection."""
    import zlib

    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    out = []
    for i in range(len(gz)):
        try:
            out.append(d.decompress(gz[i : i + 1]))
        except zlib.error as exc:  # (a wrong trailer: the data inflated to its end)
            return b"".join(out), "check" not in str(exc)
        if d.eof:
            break
    return b"".join(out), not d.eof


@pytest.mark.parametrize("where", [-8, -5, -1])  # the CRC-32's first and last byte, the length
def test_a_gzip_whose_only_damage_is_its_trailer_keeps_every_message(tmp_path, where):
    """A file whose only damage was its trailer's checksum yielded 0 of its 3 readable
    messages (the last 64 KiB piece's output was dropped)."""
    from extract.pipeline import process_archive

    messages = [make_message(f"message {i}\n", message_id=f"t{i}@x") for i in range(3)]
    gz = bytearray(gzip.compress(to_mbox(messages), mtime=0))
    gz[where] ^= 0x10
    path = tmp_path / "raw" / "p.apache.org" / "l" / "2020-01.mbox.gz"
    path.parent.mkdir(parents=True)
    path.write_bytes(bytes(gz))
    got = []
    with pytest.raises(ArchiveReadError) as note:
        got.extend(read_mbox(path))
    assert note.value.complete and note.value.partial is None
    assert [m.data for m in got] == [m.replace(b"\r\n", b"\n") for m in messages]
    rows = process_archive(path, tmp_path)
    assert [m["message_id"] for m in rows.messages] == ["t0@x", "t1@x", "t2@x"]
    ((position, stage, reason),) = [(e["position"], e["stage"], e["reason"]) for e in rows.errors]
    assert (position, stage, rows.archive["n_messages"]) == (None, "read", 3)
    check = "incorrect length check" if where == -1 else "incorrect data check"
    assert reason == f"gzip trailer: {check}: the data inflated to its end, all 3 messages kept"


@pytest.mark.parametrize("seed", range(12))
def test_bit_flips_at_random_offsets_lose_no_message_before_the_damage(tmp_path, seed):
    """A damaged gzip lost the whole 64 KiB input piece where zlib failed (65 of 120
    damaged fuzz archives lost readable mail). Every message that ends before the
    first byte zlib refuses is now yielded, byte for byte, against an independent
    count over what inflates."""
    rng = random.Random(seed)
    messages = _wordy_messages(rng, 120)
    mbox = to_mbox(messages)
    gz = bytearray(gzip.compress(mbox, compresslevel=rng.choice([1, 6, 9]), mtime=0))
    assert len(gz) > 3 * (1 << 16)  # several of the reader's 64 KiB input pieces
    for _ in range(rng.randint(1, 3)):
        gz[rng.randrange(len(gz))] ^= 1 << rng.randrange(8)
    path = tmp_path / "damaged.mbox.gz"
    path.write_bytes(bytes(gz))
    prefix, refused = _inflates_to(bytes(gz))
    got, partial = [], None
    try:
        got.extend(read_mbox(path))
    except ArchiveReadError as exc:
        partial = exc.partial
    # each "\n\nFrom " in what inflates ends a message (a flip may change what inflates
    # without zlib noticing: the data is compared with what inflates, not with the mail)
    segments = prefix.split(b"\n\nFrom ")
    expected = [seg.split(b"\n", 1)[1] + b"\n" for seg in segments[:-1]]
    if not refused:  # the last one ends with the file (a blank line ending it is dropped)
        last = segments[-1].split(b"\n", 1)[1]
        expected.append(last[:-1] if last.endswith(b"\n\n") else last)
    assert [m.data for m in got] == expected
    if prefix == mbox:  # (a flip in the header's time stamp, say: nothing to notice)
        assert [m.data for m in got] == messages
    if refused:  # the message being read when zlib refused a byte: an errors row
        assert partial is not None and partial.position == len(got)
