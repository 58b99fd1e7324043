"""Raw messages from one mbox archive: `read_mbox(path)` yields `RawMessage`s
(position, byte offset, envelope line, raw bytes with mboxrd escaping undone),
streaming the file in blocks so that memory stays flat however big it is.

Splitting rule: a line starting with `From ` is an envelope line when it is the
first line of the file or follows a blank line. That covers Postfix's two-space
form (`From list-return-1-...@x  Fri Sep 20 12:27:56 2019`), PonyMail's
`From MAILER-DAEMON ...`, and the bare `From ` of hand-made test files, while
mboxrd-escaped body lines (`>From `, `>>From `) are never separators: exactly one
`>` is removed from them. An empty message (an envelope line, the blank line, the
next envelope line) is one message with empty data: the search for a message's end
starts at the line break that ends its envelope line, whatever the blocks are.

Speed: the stream is cut into messages with one regex search per message over
decompressed blocks of about a megabyte (`\\n\\nFrom `), not line by line: a
Python loop over every line cost as much as parsing the messages.

A file that is not readable to its end (truncated gzip, corrupt deflate stream)
raises `ArchiveReadError` after every complete message read before the damage has
been yielded (a message is complete once the `From ` of the next envelope line has
come, even if that line was cut); the incomplete last message travels in the
exception, so nothing is lost. Text before the first envelope line is yielded as a
message of its own (`envelope_line=""`), so that it is parsed or reported rather
than dropped.

`sniff(path)` tells what a mail file is from its first bytes (gzip, bzip2 or plain;
an mbox or one message), for the importer and the runner alike;
`mail_file_blocks` reads one decompressed, bzip2 included.
"""

from __future__ import annotations

import bz2
import gzip
import os
import queue
import re
import threading
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

_GZIP_MAGIC = b"\x1f\x8b"
# The end of a blank line followed by an envelope line: "\n" + "\n" or "\r\n" + "From ".
_SEPARATOR = re.compile(rb"\n\r?\nFrom ")
_MBOXRD_ESCAPED = re.compile(rb"^>(>*From )", re.M)
_LEADING_BLANK_LINES = re.compile(rb"(?:\r?\n)+")
_BLOCK = 1 << 20  # bytes read from the file at a time
# A message larger than this (its data, uncompressed) is skipped to its end without
# being held, and becomes an `errors` row with its size and offset: no list mail is
# that big (the largest in the ASF archives are attachments of a few MB), and reading
# one into memory costs five times its size. `MAX_MESSAGE_BYTES` in the environment
# sets it.
MAX_MESSAGE_BYTES = int(os.environ.get("MAX_MESSAGE_BYTES") or 64 << 20)
_SKIPPED_HEAD = 1 << 16  # what is kept of a skipped message: its header fields
_GZIP_INPUT = 1 << 16  # compressed bytes per decompress call (bounds a gzip bomb's output)


@dataclass(slots=True)
class RawMessage:
    position: int  # 0-based index in the archive
    offset: int  # byte offset of the envelope line in the uncompressed archive
    envelope_line: str  # without the line break; "" for text before any envelope
    data: bytes  # the message (headers and body), mboxrd escaping undone
    # > 0: the message's size in bytes, over the cap: it was skipped, and `data` is
    # only its first bytes
    skipped: int = 0


class ArchiveReadError(Exception):
    """The archive could not be read to its end. `partial` is the message that
    was being read when it broke (or None). With `complete`, every message was read
    (raised after the last one): only the gzip trailer's check failed."""

    def __init__(self, reason: str, partial: RawMessage | None = None, complete: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.partial = partial
        self.complete = complete


def archive_blocks(path: str | Path) -> Iterator[bytes]:
    """The archive's mbox bytes in blocks: gunzipped (every member) when the file
    starts with the gzip magic number, else the file itself (plain .mbox fixtures).
    A gzip stream that stops before its end raises EOFError after the last bytes
    that could be decompressed; a corrupt one raises zlib.error after every byte that
    decompresses before the first byte zlib refuses (see `_inflatable`); one whose
    data inflated to its end but whose trailer (CRC-32, length) is wrong raises
    `TrailerError` after all of it."""
    with open(path, "rb") as f:
        first = f.read(_GZIP_INPUT)
        if not first.startswith(_GZIP_MAGIC):
            while first:
                yield first
                first = f.read(_BLOCK)
            return
        decompressor = zlib.decompressobj(16 + zlib.MAX_WBITS)
        pending = first
        while pending:
            saved = decompressor.copy()  # (a 32 KiB window: cheap beside inflating 64 KiB)
            try:
                out = decompressor.decompress(pending)
            except zlib.error as exc:
                good, refused = _inflatable(saved, pending)
                if good:
                    yield good
                check = str(exc).rsplit(": ", 1)[-1]
                if check in _TRAILER_CHECKS:
                    # (the length follows the CRC; then the file must end, or pad)
                    rest = pending[refused:] + f.read(_GZIP_INPUT)
                    if not rest[_TRAILER_CHECKS[check] :].strip(b"\x00"):
                        raise TrailerError(f"gzip trailer: {check}") from exc
                raise
            if out:
                yield out
            if decompressor.eof:
                # another gzip member may follow (trailing zero padding is ignored)
                pending = decompressor.unused_data
                if not pending.strip(b"\x00"):
                    return
                decompressor = zlib.decompressobj(16 + zlib.MAX_WBITS)
                continue
            pending = f.read(_GZIP_INPUT)
        if not decompressor.eof:
            raise EOFError("compressed file ended before the end-of-stream marker was reached")


# zlib's messages for a gzip trailer that does not match the data, and how many bytes
# of the trailer follow the one that failed
_TRAILER_CHECKS = {"incorrect data check": 4, "incorrect length check": 0}


class TrailerError(Exception):
    """The gzip data inflated to its end, but its trailer (CRC-32 or length) is wrong."""


def _inflatable(saved, piece: bytes) -> tuple[bytes, int]:
    """(what `piece` inflates to up to the first byte zlib refuses, the length of the
    shortest prefix of `piece` that it refuses), from the decompressor state `saved`
    from before `piece`: the longest prefix that decompresses, found by bisection
    (zlib reads its input in order, so a prefix fails exactly when it holds that byte)."""
    good, bad = 0, len(piece)
    out = b""
    while bad - good > 1:
        middle = (good + bad) // 2
        try:
            attempt = saved.copy().decompress(piece[:middle])
        except zlib.error:
            bad = middle
        else:
            good, out = middle, attempt
    return out, bad


def iter_messages(
    blocks: Iterable[bytes], max_message_bytes: int | None = None
) -> Iterator[RawMessage]:
    """Split an mbox byte stream, given as blocks cut anywhere (lines, file reads),
    into messages (see the module docstring). A message whose data grows over
    `max_message_bytes` (default `MAX_MESSAGE_BYTES`) is skipped to its end without
    being held: it comes as a `RawMessage` with `skipped` = its size and only the
    first `_SKIPPED_HEAD` bytes as `data` (enough for its header fields)."""
    cap = MAX_MESSAGE_BYTES if max_message_bytes is None else max_message_bytes
    # The current message is accumulated in a bytearray (appending to it and cutting
    # its front are amortised O(1) a byte: `bytes + block` copied all that was read for
    # every new block, and one big message took quadratic time) and only the new tail
    # is searched.
    buf = bytearray()
    base = 0  # stream offset of buf[0]
    start = 0  # where the current message's envelope line (or leading text) starts in buf
    data_start = -1  # where its data starts in buf; -1 before the first message
    envelope = ""
    scan = 0  # separators before this point in buf have been handled
    pending = None  # where a next envelope line starts whose line break has not come yet
    position = 0
    # a message over the cap: its offset, first bytes, and the bytes of it dropped
    skip_offset, skip_head, dropped = -1, b"", 0

    def message(end: int) -> RawMessage:
        """The current message, its data ending at buf[end]."""
        if skip_offset < 0 and end - data_start <= cap:
            return RawMessage(position, base + start, envelope, _data(bytes(buf[data_start:end])))
        if skip_offset < 0:  # (over the cap, whole in one block)
            head = _data(bytes(buf[data_start : min(end, data_start + _SKIPPED_HEAD)]))
            return RawMessage(position, base + start, envelope, head, skipped=end - data_start)
        size = dropped + end - data_start
        return RawMessage(position, skip_offset, envelope, skip_head, skipped=size)

    blocks = iter(blocks)
    eof = False
    trailer = None  # the data came whole but its gzip trailer is wrong: why
    while not eof:
        try:
            block = next(blocks, None)
        except TrailerError as exc:
            block, trailer = None, exc
        except (OSError, EOFError, zlib.error) as exc:
            partial = None
            if pending is not None:
                # the next envelope line began before the damage: the message before
                # it is complete, the cut one is that envelope line's
                line_start = pending
                yield message(line_start)
                position += 1
                skip_offset, skip_head, dropped = -1, b"", 0
                envelope = _envelope(bytes(buf[line_start:]))
                start, data_start = line_start, len(buf)
            if data_start >= 0:
                partial = message(len(buf))
            else:
                # cut in the first line: an envelope line or leading text
                lead = _LEADING_BLANK_LINES.match(buf)
                skip = lead.end() if lead else 0
                if skip < len(buf):
                    first = buf.startswith(b"From ", skip)
                    partial = RawMessage(
                        position,
                        base + skip,
                        _envelope(bytes(buf[skip:])) if first else "",
                        b"" if first else _data(bytes(buf[skip:])),
                    )
            raise ArchiveReadError(f"{type(exc).__name__}: {exc}", partial) from exc
        if block is None:
            eof = True
        else:
            # keep only the current message: earlier bytes are done with
            keep = start if data_start >= 0 else 0
            if keep:
                del buf[:keep]
            buf += block
            base += keep
            scan -= keep
            data_start -= keep if data_start >= 0 else 0
            start -= keep
        if data_start < 0:
            # the file's start: blank lines are skipped; an envelope line or any
            # other text begins the first message
            lead = _LEADING_BLANK_LINES.match(buf)
            skip = lead.end() if lead else 0
            if len(buf) - skip < 5 and not eof:
                continue
            if skip == len(buf):
                return  # nothing but blank lines (or nothing): an empty month
            if buf.startswith(b"From ", skip):
                end = buf.find(b"\n", skip)
                if end < 0 and not eof:
                    if len(buf) - skip > cap:  # a first "line" over the cap: a message
                        start = data_start = skip
                        scan = data_start - 1
                    continue
                end = len(buf) if end < 0 else end + 1
                envelope = _envelope(bytes(buf[skip:end]))
                start, data_start = skip, end
            else:
                start = data_start = skip
            scan = data_start - 1
        pending = None
        while True:
            # From the line break that ends the envelope line (or the one before the
            # leading text), never later: an empty message, its envelope line then a
            # blank line then `From `, ends at its own first line, wherever the blocks
            # were cut. (A separator starts with a line break, so none can start
            # before that one: the search cannot go back into the previous message.)
            m = _SEPARATOR.search(buf, max(scan, 0))
            if m is None:
                scan = max(data_start - 1, len(buf) - 8, 0)
                break
            line_start = m.end() - 5
            end = buf.find(b"\n", line_start)
            if end < 0 and not eof:
                scan, pending = m.start(), line_start
                break
            end = len(buf) if end < 0 else end + 1
            yield message(line_start)
            position += 1
            skip_offset, skip_head, dropped = -1, b"", 0
            envelope = _envelope(bytes(buf[line_start:end]))
            start, data_start, scan = line_start, end, end - 1
        if data_start >= 0 and dropped + len(buf) - data_start > cap and not eof:
            # over the cap: what is read of the message is dropped (all but what the
            # next search needs), its size counted
            cut = max(data_start, scan if pending is not None else len(buf) - 8)
            if skip_offset < 0:
                skip_offset = base + start
                skip_head = _data(bytes(buf[data_start : min(cut, data_start + _SKIPPED_HEAD)]))
            dropped += cut - data_start
            del buf[:cut]
            base += cut
            scan -= cut
            if pending is not None:
                pending -= cut
            start = data_start = 0
    yield message(len(buf))
    if trailer is not None:
        raise ArchiveReadError(str(trailer), complete=True) from trailer


def _envelope(line: bytes) -> str:
    return line.rstrip(b"\r\n").decode("utf-8", "replace")


def _data(data: bytes) -> bytes:
    """The message's bytes: mboxrd escaping undone, without the blank separator line
    that ends it in mbox."""
    if b">From " in data:  # every escaped line contains it; a cheap test first
        data = _MBOXRD_ESCAPED.sub(rb"\1", data)
    if data.endswith(b"\n\r\n"):
        return data[:-2]
    if data.endswith(b"\n\n"):
        return data[:-1]
    if data == b"\n" or data == b"\r\n":
        return b""  # an empty message: nothing but its blank separator line
    return data


def read_mbox(path: str | Path, max_message_bytes: int | None = None) -> Iterator[RawMessage]:
    """Every message of the archive at `path`, in order (see `iter_messages`)."""
    try:
        with open(path, "rb"):
            pass
    except OSError as exc:
        raise ArchiveReadError(f"cannot open: {exc}") from exc
    yield from iter_messages(prefetched(archive_blocks(path)), max_message_bytes)


_DONE = object()


def prefetched(blocks: Iterator[bytes], depth: int = 4) -> Iterator[bytes]:
    """`blocks`, produced by a thread of their own up to `depth` blocks ahead: zlib
    releases the GIL while it inflates, so decompressing overlaps the parsing of
    the previous blocks (it is a sixth of the reading path). An exception of
    `blocks` is raised here, where the stream breaks."""
    ready: queue.Queue = queue.Queue(depth)
    stop = threading.Event()

    def put(item) -> bool:
        while not stop.is_set():
            try:
                ready.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for block in blocks:
                if not put(block):
                    return
            put(_DONE)
        except BaseException as exc:  # handed over to the consumer, raised there
            put(exc)
        finally:
            blocks.close()  # (closes the file even when the consumer stopped early)

    thread = threading.Thread(target=produce, name="read-ahead", daemon=True)
    thread.start()
    try:
        while (item := ready.get()) is not _DONE:
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()
        thread.join()


# ------------------------------------------------------------------ what a mail file is

_GZIP = b"\x1f\x8b"
_BZIP2 = b"BZh"
BLOCK = 1 << 20  # bytes read at a time
# A header line: a field name (printable ASCII but ':'), a colon.
_HEADER_LINE = re.compile(rb"[!-9;-~]{1,200}:")


def sniff(path: Path) -> tuple[str | None, bool] | str:
    """(compression, single message) of a mail file, or why it is none."""
    try:
        with open(path, "rb") as f:
            magic = f.read(4)
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    if not magic:
        return "empty"
    compression = "gzip" if magic.startswith(_GZIP) else "bzip2" if magic[:3] == _BZIP2 else None
    try:
        head = b""
        for block in mail_file_blocks(path, compression):
            head += block
            if len(head.lstrip(b"\r\n")) >= 256:
                break
    except (OSError, EOFError, ValueError, gzip.BadGzipFile) as exc:
        head = head or b""
        if not head:
            return f"not readable as {compression}: {exc}"
    text = head.lstrip(b"\r\n")
    if not text:
        return "empty" if compression is None else f"empty once {compression} is undone"
    if text.startswith(b"From "):
        return compression, False
    if _HEADER_LINE.match(text):
        return compression, True
    return f"not mail: it starts with {text[:40]!r}"


def mail_file_blocks(path: Path, compression: str | None) -> Iterator[bytes]:
    """The file's bytes, decompressed, in blocks: gzip and plain through the reader's
    own `archive_blocks` (every gzip member), bzip2 here (every stream)."""
    if compression != "bzip2":
        yield from archive_blocks(path)
        return
    with open(path, "rb") as f:
        decompressor = bz2.BZ2Decompressor()
        data = f.read(BLOCK)
        while True:
            # (at most a block out of each call: a bzip2 bomb cannot fill the memory)
            out = decompressor.decompress(data, BLOCK)
            data = b""
            if out:
                yield out
            if decompressor.eof:
                rest = decompressor.unused_data or f.read(BLOCK)
                if not rest.strip(b"\x00"):
                    return
                decompressor, data = bz2.BZ2Decompressor(), rest  # another stream (pbzip2)
            elif decompressor.needs_input:
                data = f.read(BLOCK)
                if not data:
                    raise EOFError(
                        "compressed file ended before the end-of-stream marker was reached"
                    )
