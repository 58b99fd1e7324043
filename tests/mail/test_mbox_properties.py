"""Properties of the mbox reader on generated archives (hypothesis): the messages do
not depend on where the stream is cut into blocks, and they are the ones a simple
line-by-line reference reader finds (issue 12: an empty message swallowed the next
one, depending on the block boundaries; a truncated gzip lost the last complete
message before the cut).

The archives mix ordinary messages, empty ones (an envelope line, the blank
separator line, the next envelope line), header-less ones, mboxrd-escaped body lines
(`>From `, `>>From `), unescaped mboxo `From ` body lines that do not follow a blank
line (so they are no envelope lines, even when they look like one), blank lines
anywhere, LF, CRLF or mixed line ends, leading blank lines and leading text.
"""

from __future__ import annotations

import gzip
import tempfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from extract.mail import mbox
from extract.mail.mbox import ArchiveReadError, iter_messages, read_mbox
from extract.pipeline import process_archive
from tests.archives import write_archive
from tests.mail.mboxes import make_message, no_headers_message

BLANK = (b"\n", b"\r\n")
PROPERTY_SETTINGS = settings(max_examples=150, deadline=None, derandomize=True, database=None)

# ------------------------------------------------------------------ reference reader


def _lines(data: bytes) -> list[bytes]:
    """Lines split at "\\n" only (bytes.splitlines also splits at \\r, \\x0c, ...)."""
    pieces = data.split(b"\n")
    return [p + b"\n" for p in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])


def reference_read(data: bytes) -> list[tuple[int, bytes, bytes]]:
    """(offset, envelope line, data) of every message, line by line, by the rules the
    reader documents: blank lines at the start are skipped; the first other line is
    an envelope line if it starts with `From `, else it begins a message of leading
    text (envelope b""); after that a line is an envelope line when it starts with
    `From ` and follows a blank line. A message's last line is dropped when blank
    (the separator), and one `>` is removed from every `>+From ` line."""
    messages: list[list] = []
    offset = 0
    previous_blank = False
    for line in _lines(data):
        blank = line in BLANK
        if not messages and blank:
            pass  # leading blank lines
        elif not messages or (previous_blank and line.startswith(b"From ")):
            envelope = line.startswith(b"From ")
            messages.append([offset, line.rstrip(b"\r\n") if envelope else b"", []])
            if not envelope:
                messages[-1][2].append(line)
        else:
            messages[-1][2].append(line)
        previous_blank = blank
        offset += len(line)
    out = []
    for start, envelope, body in messages:
        if body and body[-1] in BLANK:
            body = body[:-1]
        body = [line[1:] if _escaped(line) else line for line in body]
        out.append((start, envelope, b"".join(body)))
    return out


def _escaped(line: bytes) -> bool:
    return line.startswith(b">") and line.lstrip(b">").startswith(b"From ")


def count_envelope_lines(data: bytes) -> int:
    """Messages in the archive, counted without the reader: envelope lines (plus the
    leading text, when the archive does not start with one)."""
    return len(reference_read(data))


# ------------------------------------------------------------------ generated archives

_TEXT = st.binary(max_size=16).map(lambda b: b.replace(b"\n", b"").replace(b"\r", b""))
_WORDS = st.sampled_from([b"", b" ", b"x", b"From", b"From ", b"From:", b">", b"\xff\xfe", b"a b"])
_LINE_TEXT = st.one_of(_TEXT, _WORDS, st.tuples(_WORDS, _TEXT).map(b"".join))


@st.composite
def envelopes(draw) -> bytes:
    address = draw(
        st.sampled_from(
            [
                b"MAILER-DAEMON",
                b"dev-return-7-archive@x.apache.org",
                b"kim@example.org",
                b"???@???",
                b"john at domain.com",
            ]
        )
    )
    gap = draw(st.sampled_from([b" ", b"  "]))
    day = draw(st.sampled_from([b"Mon", b"Thu", b"Sun"]))
    month = draw(st.sampled_from([b"Jan", b"Sep", b"Dec"]))
    date = b"%s %s %2d %02d:%02d:%02d %d" % (
        day,
        month,
        draw(st.integers(1, 31)),
        draw(st.integers(0, 23)),
        draw(st.integers(0, 59)),
        draw(st.integers(0, 59)),
        draw(st.integers(1970, 2030)),
    )
    return b"From " + address + gap + date


# A message line: (kind, text). "raw-from" is an unescaped mboxo `From ` line, written
# as it is when it follows a line that is not blank (else escaped, as mboxrd does).
_BODY_LINE = st.one_of(
    st.tuples(st.just("text"), _LINE_TEXT),
    st.tuples(st.just("text"), st.just(b"")),  # blank lines
    st.tuples(st.just("text"), _TEXT.map(lambda t: b"From " + t)),  # escaped to >From
    st.tuples(
        st.just("text"),
        st.tuples(st.integers(1, 3), _TEXT).map(lambda q: b">" * q[0] + b"From " + q[1]),
    ),  # escaped once more
    st.tuples(st.just("raw-from"), _TEXT.map(lambda t: b"From " + t)),
    st.tuples(st.just("raw-from"), envelopes()),  # looks like an envelope line
)
_HEADERS = st.lists(
    st.sampled_from([b"Subject: s", b"Message-ID: <m@x>", b"From: a@b", b"X-Long: a"]),
    max_size=3,
)
_MESSAGE = st.one_of(
    st.just(None),  # an empty message
    st.tuples(_HEADERS, st.lists(_BODY_LINE, max_size=8)),
)


def _escape(text: bytes) -> bytes:
    return b">" + text if text.lstrip(b">").startswith(b"From ") else text


@st.composite
def archives(draw, max_messages: int = 8) -> tuple[bytes, list[tuple[int, bytes, bytes]]]:
    """An mbox archive and its messages as written: (offset, envelope line, data)."""
    mode = draw(st.sampled_from(["lf", "crlf", "mixed"]))

    def eol() -> bytes:
        if mode == "mixed":
            return draw(st.sampled_from(BLANK))
        return b"\n" if mode == "lf" else b"\r\n"

    out = b"".join(eol() for _ in range(draw(st.integers(0, 2))))
    expected = []
    if draw(st.integers(0, 9)) == 0:  # text before the first envelope line
        lines = [b"garbage" + draw(_TEXT)] + [
            _escape(t) for t in draw(st.lists(_LINE_TEXT, max_size=3))
        ]
        lines = [line + eol() for line in lines]
        expected.append((len(out), b"", _unescape(b"".join(lines))))
        out += b"".join(lines) + eol()
    for _ in range(draw(st.integers(0, max_messages))):
        envelope = draw(envelopes())
        offset = len(out)
        out += envelope + eol()
        data = b""
        message = draw(_MESSAGE)
        if message is not None:
            headers, body = message
            lines = [("text", h) for h in headers] + ([("text", b"")] if headers else []) + body
            previous_blank = False
            for kind, text in lines:
                end = eol()
                raw = kind == "raw-from" and not previous_blank
                out += (text if raw else _escape(text)) + end
                data += text + end
                previous_blank = text == b""
        out += eol()  # the blank line that ends every message
        expected.append((offset, envelope, data))
    return out, expected


def _unescape(data: bytes) -> bytes:
    return b"".join(line[1:] if _escaped(line) else line for line in _lines(data))


# ------------------------------------------------------------------ reading helpers


def fixed_blocks(data: bytes, size: int) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


def cut_blocks(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({0, len(data), *(c % (len(data) + 1) for c in cuts)})
    return [data[a:b] for a, b in zip(points, points[1:], strict=False)]


def read(blocks) -> list[tuple[int, bytes, bytes]]:
    msgs = list(iter_messages(blocks))
    assert [m.position for m in msgs] == list(range(len(msgs)))
    return [(m.offset, m.envelope_line, m.data) for m in msgs]


def as_read(messages: list[tuple[int, bytes, bytes]]) -> list[tuple[int, str, bytes]]:
    """Expected messages with the envelope line decoded as the reader gives it."""
    return [(o, e.decode("utf-8", "replace"), d) for o, e, d in messages]


def truncated(blocks: list[bytes]) -> Iterator[bytes]:
    """The blocks, then the error a gzip stream that stops early raises."""
    yield from blocks
    raise EOFError("compressed file ended before the end-of-stream marker was reached")


def read_until_error(blocks) -> tuple[list[tuple[int, str, bytes]], ArchiveReadError]:
    got = []
    with pytest.raises(ArchiveReadError) as err:
        for m in iter_messages(blocks):
            got.append(m)
    assert [m.position for m in got] == list(range(len(got)))
    return [(m.offset, m.envelope_line, m.data) for m in got], err.value


# ------------------------------------------------------------------ properties


@PROPERTY_SETTINGS
@given(
    archives(),
    st.integers(1, 64),
    st.lists(st.integers(0, 10_000), max_size=12),
)
def test_every_block_split_gives_the_same_messages(archive, size, cuts):
    data, written = archive
    expected = as_read(written)
    assert as_read(reference_read(data)) == expected  # the reference reader agrees
    assert count_envelope_lines(data) == len(written)
    assert read([data]) == expected  # one block
    assert read(fixed_blocks(data, size)) == expected  # tiny blocks
    assert read(cut_blocks(data, cuts)) == expected  # blocks cut anywhere
    assert read(iter(_lines(data))) == expected  # line by line


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(archives(max_messages=5), st.integers(1, 64))
def test_reading_files_with_tiny_read_blocks(archive, size):
    """read_mbox itself (plain file and gzip, read-ahead thread) with its read sizes
    cut down to a few bytes."""
    data, written = archive
    expected = as_read(written)
    with tempfile.TemporaryDirectory() as tmp:
        plain, packed = Path(tmp) / "a.mbox", Path(tmp) / "a.mbox.gz"
        plain.write_bytes(data)
        packed.write_bytes(gzip.compress(data, mtime=0))
        with (
            mock.patch.object(mbox, "_BLOCK", size),
            mock.patch.object(
                mbox,
                "_GZIP_INPUT",
                max(size, 2),  # (the first read must hold the magic number)
            ),
        ):
            for path in (plain, packed):
                msgs = list(read_mbox(path))
                assert [(m.offset, m.envelope_line, m.data) for m in msgs] == expected


@PROPERTY_SETTINGS
@given(archives(), st.integers(0, 10_000), st.integers(1, 64))
def test_a_cut_stream_keeps_every_complete_message(archive, cut, size):
    """A stream that breaks (truncated gzip) anywhere: every message complete before
    the cut is yielded, the cut one travels in the error, as the reference reader
    reads the bytes that came."""
    data, _ = archive
    prefix = data[: cut % (len(data) + 1)]
    expected = as_read(reference_read(prefix))
    got, err = read_until_error(truncated(fixed_blocks(prefix, size)))
    if not expected:
        assert got == [] and err.partial is None
        return
    assert got == expected[:-1]
    assert err.partial is not None and err.partial.position == len(got)
    assert (err.partial.offset, err.partial.envelope_line, err.partial.data) == expected[-1]
    # and those complete messages are the archive's own, unchanged
    assert got == as_read(reference_read(data))[: len(got)]


# ------------------------------------------------------------------ fixed cases


E = b"From kim@example.org Thu Jan  1 00:00:00 1970"


def _full(subject: str) -> bytes:
    return b"Subject: " + subject.encode() + b"\n\nbody " + subject.encode() + b"\n"


TRICKY = {
    "empty-between": E + b"\n" + _full("1") + b"\n" + E + b"\n\n" + E + b"\n" + _full("3") + b"\n",
    "empty-first": E + b"\n\n" + E + b"\n" + _full("2") + b"\n",
    "empty-last": E + b"\n" + _full("1") + b"\n" + E + b"\n\n",
    "empty-run": (E + b"\n\n") * 4 + E + b"\n" + _full("5") + b"\n",
    "empty-crlf": (E + b"\r\n" + _full("1").replace(b"\n", b"\r\n") + b"\r\n" + E + b"\r\n\r\n")
    * 2,
    "empty-unterminated": E + b"\n\n" + E,
}


@pytest.mark.parametrize("name", TRICKY)
def test_empty_messages_at_every_block_size_and_cut(name):
    data = TRICKY[name]
    expected = as_read(reference_read(data))
    assert len(expected) == data.count(b"From kim")
    assert read([data]) == expected
    for size in range(1, 65):
        assert read(fixed_blocks(data, size)) == expected, size
    for a in range(len(data) + 1):
        assert read([data[:a], data[a:]]) == expected, a


def test_an_empty_message_is_one_empty_message():
    msgs = list(iter_messages([TRICKY["empty-between"]]))
    assert [m.data for m in msgs] == [_full("1"), b"", _full("3")]
    assert msgs[1].envelope_line == E.decode() and msgs[2].data.startswith(b"Subject: 3")


def test_a_truncated_gzip_keeps_every_complete_message(tmp_path):
    """A real gzip file cut at many points: the messages yielded are every message of
    the bytes that could be decompressed but the last, which is the error's partial."""
    msgs = [
        make_message(f"message {i}\n" + "x y " * (30 * i), message_id=f"{i}@x") for i in range(30)
    ]
    data = b"".join(E + b"\n" + m + b"\n" + b"\n" for m in msgs[:10])
    data += (E + b"\n\n") * 2  # empty messages too
    data += b"".join(E + b"\n" + m + b"\n" + b"\n" for m in msgs[10:])
    full = gzip.compress(data, compresslevel=9, mtime=0)
    path = tmp_path / "cut.mbox.gz"
    for cut in range(20, len(full), 37):
        path.write_bytes(full[:cut])
        prefix = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(full[:cut])
        expected = as_read(reference_read(prefix))
        got = []
        with pytest.raises(ArchiveReadError) as err:
            for m in read_mbox(path):
                got.append((m.offset, m.envelope_line, m.data))
        assert got == expected[:-1], cut
        partial = err.value.partial
        if expected:
            assert (partial.offset, partial.envelope_line, partial.data) == expected[-1]
        else:
            assert partial is None


# ------------------------------------------------------------------ the pipeline's count


def _pipeline_counts(data: bytes, tmp: Path, gzipped: bytes | None = None):
    path = write_archive(tmp, "dev@x.apache.org", "2020-01", data)
    if gzipped is not None:
        path.write_bytes(gzipped)
    rows = process_archive(path, tmp, results=False)
    positions = [e["position"] for e in rows.errors if e["position"] is not None]
    assert len(positions) == len(set(positions))  # one error row per failed message
    stored = [m["position"] for m in rows.messages]
    assert not set(stored) & set(positions)
    return rows, len(stored) + len(positions)


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(archives(max_messages=6))
def test_pipeline_counts_every_message_of_the_archive(archive):
    """stored messages + messages in errors = messages in the archive, the latter
    counted by the reference reader, not by the reader under test."""
    data, written = archive
    with tempfile.TemporaryDirectory() as tmp:
        rows, accounted = _pipeline_counts(data, Path(tmp))
    assert accounted == rows.archive["n_messages"] == count_envelope_lines(data) == len(written)
    empty = {i for i, (_, envelope, body) in enumerate(written) if envelope and not body}
    reasons = {e["position"]: e["reason"] for e in rows.errors}
    for position in empty:
        assert "empty message" in reasons[position] or "no headers" in reasons[position]


def test_pipeline_an_empty_message_does_not_swallow_the_next(tmp_path):
    good = [make_message(f"body {i}\n", message_id=f"{i}@x", subject=f"s{i}") for i in range(4)]
    data = (
        E
        + b"\n"
        + good[0]
        + b"\n"
        + E
        + b"\n\n"  # empty
        + E
        + b"\n"
        + good[1]
        + b"\n"
        + E
        + b"\n"
        + no_headers_message()
        + b"\n"
        + E
        + b"\n\n"  # empty
        + E
        + b"\n"
        + good[2]
        + b"\n"
        + E
        + b"\n"
        + good[3]
        + b"\n"
    )
    rows, accounted = _pipeline_counts(data, tmp_path)
    assert accounted == rows.archive["n_messages"] == count_envelope_lines(data) == 7
    assert sorted(m["message_id"] for m in rows.messages) == ["0@x", "1@x", "2@x", "3@x"]
    assert sorted(e["position"] for e in rows.errors) == [1, 3, 4]
    assert "empty message" in {e["position"]: e["reason"] for e in rows.errors}[1]


def test_pipeline_counts_a_truncated_gzip(tmp_path):
    msgs = [make_message(f"message {i}\n" + "w " * 400, message_id=f"{i}@x") for i in range(40)]
    data = b"".join(
        E + b"\n" + m + b"\n" + b"\n" + (E + b"\n\n" if i % 7 == 3 else b"")
        for i, m in enumerate(msgs)
    )
    full = gzip.compress(data, mtime=0)
    for cut in (len(full) // 3, len(full) // 2, len(full) * 4 // 5):
        prefix = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(full[:cut])
        rows, accounted = _pipeline_counts(data, tmp_path, gzipped=full[:cut])
        assert accounted == rows.archive["n_messages"] == count_envelope_lines(prefix)
        reasons = [e["reason"] for e in rows.errors]
        assert any(r.startswith("message cut off") for r in reasons)
        assert any(r.startswith("archive unreadable") for r in reasons)
