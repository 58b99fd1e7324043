"""Raw messages from one mbox archive: `read_mbox(path)` yields `RawMessage`s
(position, byte offset, envelope line, raw bytes with mboxrd escaping undone),
streaming the file line by line so that memory stays flat however big it is.

Splitting rule: a line starting with `From ` is an envelope line when it is the
first line of the file or follows a blank line. That covers Postfix's two-space
form (`From list-return-1-...@x  Fri Sep 20 12:27:56 2019`), PonyMail's
`From MAILER-DAEMON ...`, and the bare `From ` of hand-made test files, while
mboxrd-escaped body lines (`>From `, `>>From `) are never separators: exactly one
`>` is removed from them.

A file that is not readable to its end (truncated gzip, corrupt deflate stream)
raises `ArchiveReadError` after every complete message read before the damage has
been yielded; the incomplete last message travels in the exception, so nothing is
lost. Text before the first envelope line is yielded as a message of its own
(`envelope_line=""`), so that it is parsed or reported rather than dropped.
"""

from __future__ import annotations

import gzip
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

_GZIP_MAGIC = b"\x1f\x8b"
_MBOXRD_ESCAPED = re.compile(rb"^>+From ")
_BLANK = (b"\n", b"\r\n")


@dataclass(slots=True)
class RawMessage:
    position: int  # 0-based index in the archive
    offset: int  # byte offset of the envelope line in the uncompressed archive
    envelope_line: str  # without the line break; "" for text before any envelope
    data: bytes  # the message (headers and body), mboxrd escaping undone


class ArchiveReadError(Exception):
    """The archive could not be read to its end. `partial` is the message that
    was being read when it broke (or None)."""

    def __init__(self, reason: str, partial: RawMessage | None = None):
        super().__init__(reason)
        self.reason = reason
        self.partial = partial


def open_archive(path: str | Path) -> BinaryIO:
    """A binary stream of the archive's mbox bytes: gunzipped when the file starts
    with the gzip magic number, else the file itself (plain .mbox fixtures)."""
    with open(path, "rb") as f:
        magic = f.read(2)
    if magic == _GZIP_MAGIC:
        return gzip.open(path, "rb")  # type: ignore[return-value]
    return open(path, "rb")  # noqa: SIM115 - handed to the caller, closed by it


def iter_messages(stream: BinaryIO) -> Iterator[RawMessage]:
    """Split an mbox byte stream into messages (see the module docstring)."""
    position = 0
    offset = 0
    start_offset = 0
    envelope = ""
    lines: list[bytes] = []
    previous_blank = True  # the file start counts as "after a blank line"
    started = False  # inside a message (after an envelope or leading text)
    try:
        for line in stream:
            first = line[:1]
            if first == b"F" and previous_blank and line.startswith(b"From "):
                if started:
                    yield RawMessage(position, start_offset, envelope, _join(lines))
                    position += 1
                envelope = line.rstrip(b"\r\n").decode("utf-8", "replace")
                lines = []
                start_offset = offset
                started = True
            else:
                if first == b">" and _MBOXRD_ESCAPED.match(line):
                    line = line[1:]
                if not started:
                    if line in _BLANK:  # blank lines before the first envelope are not a message
                        offset += len(line)
                        continue
                    started = True
                    start_offset = offset
                lines.append(line)
            previous_blank = line in _BLANK
            offset += len(line)
    except (OSError, EOFError, zlib.error) as exc:
        partial = RawMessage(position, start_offset, envelope, _join(lines)) if started else None
        raise ArchiveReadError(f"{type(exc).__name__}: {exc}", partial) from exc
    if started:
        yield RawMessage(position, start_offset, envelope, _join(lines))


def _join(lines: list[bytes]) -> bytes:
    """The message's bytes without the blank separator line that ends it in mbox."""
    data = b"".join(lines)
    if data.endswith(b"\r\n\r\n"):
        return data[:-2]
    if data.endswith(b"\n\n"):
        return data[:-1]
    return data


def read_mbox(path: str | Path) -> Iterator[RawMessage]:
    """Every message of the archive at `path`, in order (see `iter_messages`)."""
    try:
        stream = open_archive(path)
    except OSError as exc:
        raise ArchiveReadError(f"cannot open: {exc}") from exc
    with stream:
        yield from iter_messages(stream)
