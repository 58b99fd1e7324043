"""The crawl's files: staging under DATA_DIR/.crawl-tmp, atomic publication into raw/,
sidecars, and the join of week slices, all in bounded memory.

A month is written as gzip to a staging file as it is received (`stage_body`), or, when
it came in week slices, each slice is kept on disk (`stage_slice`) and the month is
joined from those files message by message (`join_slice_files`): memory holds one answer
(at most MONTH_MAXSIZE) at a time, never the whole month. `publish` then renames the
staged file into raw/ (after its sidecar is written: `read_sidecar`), so a crawl killed
at any moment leaves either the old file or the new one there, never a partial one;
temporary files carry TMP_PREFIX and the next run removes them (`remove_stale_partials`).
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import shutil
import tempfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from crawler.archive import message_date, month_bounds

TMP_PREFIX = ".partial-"
STAGING_DIR = ".crawl-tmp"  # under DATA_DIR, beside raw/
CHUNK = 1 << 20  # bytes read or copied at a time
# A message's Date is looked for in its first this many bytes (its headers, as a rule).
HEAD_LIMIT = 256 * 1024
_ENVELOPE = re.compile(rb"\nFrom ")  # a message starts after it (mbox: `^From `)
_GZIP = 31  # zlib wbits for gzip framing, as gzip.compress(…, mtime=0) writes it


class SlicedMonthTooLarge(ValueError):
    """A month joined from week slices would exceed SLICED_MONTH_MAXSIZE."""


@dataclass
class Staged:
    """A month's gzip in staging, with the digest, size and message count of the served
    (uncompressed) bytes it holds."""

    path: Path
    sha256: str
    size: int
    messages: int


def sidecar_path(archive: Path) -> Path:
    return archive.with_name(archive.name + ".json")


def read_sidecar(archive: Path) -> dict | None:
    """The sidecar of an archive file, or None when either is missing or unreadable, or
    when they are out of step: the sidecar is written first, then the archive renamed
    into place, so a crawl killed between the two leaves a sidecar whose `stored_size`
    is not the archive's size (sidecars of older crawls have none)."""
    try:
        stat = archive.stat()
        record = json.loads(sidecar_path(archive).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict):
        return None
    stored_size = record.get("stored_size")
    if stored_size is not None and stored_size != stat.st_size:
        return None
    return record


def _fsync_dir(folder: Path) -> None:
    dir_fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dir_fd)  # make a rename itself durable
    finally:
        os.close(dir_fd)


def _staging_dir(path: Path, staging: Path | None) -> Path:
    """`staging` when it is on the same filesystem as `path` (so a rename moves the file
    into place), else `path`'s own folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if staging is None:
        return path.parent
    staging.mkdir(parents=True, exist_ok=True)
    return staging if staging.stat().st_dev == path.parent.stat().st_dev else path.parent


def write_atomic(path: Path, data: bytes, staging: Path | None = None) -> None:
    """Replace `path` with `data` all at once.

    The temporary file is written in `staging` (outside raw/, so even a kill -9 mid-write
    leaves nothing partial there) when it is on the same filesystem, else beside `path`.
    """
    fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX + path.name + ".", dir=_staging_dir(path, staging))
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def publish(staged: Path, path: Path) -> None:
    """Move a staged file to `path` at once; across filesystems (raw/ on another mount
    than DATA_DIR) it is first copied beside `path`, then renamed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.replace(staged, path)
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise
        fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX + path.name + ".", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as out, open(staged, "rb") as source:
                shutil.copyfileobj(source, out, CHUNK)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        Path(staged).unlink(missing_ok=True)
    _fsync_dir(path.parent)


def case_sensitive(folder: Path) -> bool:
    """Whether the filesystem of `folder` tells `Issues` from `issues` (macOS and Windows
    filesystems, as a rule, do not): a probe file is made there and looked up swapcased."""
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(prefix=TMP_PREFIX + "case-probe-", dir=folder) as probe:
        name = Path(probe.name).name
        return not (folder / name.swapcase()).exists()


def remove_stale_partials(*folders: Path) -> int:
    """Delete temp files left by a killed crawl; returns how many."""
    stale = [p for folder in folders if folder.is_dir() for p in folder.rglob(TMP_PREFIX + "*")]
    for path in stale:
        path.unlink(missing_ok=True)
    return len(stale)


class MonthWriter:
    """Writes a month's bytes as gzip to a new staging file, piece by piece, counting as
    it goes what the sidecar records: sha256, size and `^From ` lines (messages)."""

    def __init__(self, staging: Path):
        staging.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=TMP_PREFIX + "month.", suffix=".gz", dir=staging)
        self.path = Path(name)
        self._out = os.fdopen(fd, "wb")
        self._packer = zlib.compressobj(9, zlib.DEFLATED, _GZIP)
        self._sha256 = hashlib.sha256()
        self._size = 0
        self._messages = 0
        self._tail = b"\n"  # the start of the data counts as the start of a line

    def write(self, data: bytes) -> None:
        if not data:
            return
        # The tail is shorter than b"\nFrom ", so no envelope is counted twice.
        self._messages += len(_ENVELOPE.findall(self._tail + data))
        self._tail = (self._tail + data)[-5:]
        self._sha256.update(data)
        self._size += len(data)
        self._out.write(self._packer.compress(data))

    def close(self) -> Staged:
        self._out.write(self._packer.flush())
        self._out.flush()
        os.fsync(self._out.fileno())
        self._out.close()
        return Staged(self.path, self._sha256.hexdigest(), self._size, self._messages)

    def discard(self) -> None:
        if not self._out.closed:
            self._out.close()
        self.path.unlink(missing_ok=True)


def stage_body(body: bytes, staging: Path) -> Staged:
    """A whole month as served, gzip-compressed into staging."""
    writer = MonthWriter(staging)
    try:
        writer.write(body)
        return writer.close()
    except BaseException:
        writer.discard()
        raise


def stage_slice(body: bytes, staging: Path) -> Path:
    """One week slice as served, kept on disk until its month is joined."""
    staging.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=TMP_PREFIX + "slice.", dir=staging)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(body)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise
    return Path(name)


def scan_messages(path: Path, chunk_size: int = CHUNK) -> Iterator[tuple[int, int, bytes, bytes]]:
    """(offset, length, sha256 digest, first HEAD_LIMIT bytes) of each message of an mbox
    file, split where `crawler.archive.split_mbox` splits (before every `^From ` line),
    reading `chunk_size` bytes at a time: memory does not grow with the file or a message."""
    offset = 0  # file offset of `pending`'s first byte
    start = 0  # where the current message began
    digest, head = hashlib.sha256(), bytearray()

    def finish(end: int):
        nonlocal start, digest, head
        message = (start, end - start, digest.digest(), bytes(head))
        start, digest, head = end, hashlib.sha256(), bytearray()
        return message

    def feed(data: bytes) -> None:
        digest.update(data)
        if len(head) < HEAD_LIMIT:
            head.extend(data[: HEAD_LIMIT - len(head)])

    pending = b""
    with open(path, "rb") as source:
        while True:
            chunk = source.read(chunk_size)
            pending += chunk
            fed = 0
            for match in _ENVELOPE.finditer(pending):
                boundary = match.start() + 1
                feed(pending[fed:boundary])
                fed = boundary
                if offset + boundary > start:
                    yield finish(offset + boundary)
            # Keep the last 5 bytes unfed until more data comes: they may begin an
            # envelope line whose message must not receive them.
            keep = 0 if not chunk else min(5, len(pending) - fed)
            feed(pending[fed : len(pending) - keep])
            offset += len(pending) - keep
            pending = pending[len(pending) - keep :]
            if not chunk:
                break
    if offset > start:
        yield finish(offset)


def join_slice_files(
    paths: list[Path], key: str, staging: Path, max_size: int, chunk_size: int = CHUNK
) -> Staged:
    """One month from its overlapping week slices on disk, streamed into a staging gzip:
    seam duplicates (the same bytes in two slices) and messages dated outside the month
    dropped, as `crawler.archive.join_slices` does in memory. Raises SlicedMonthTooLarge,
    before writing anything, when the month would exceed `max_size` bytes (0: no cap)."""
    first, end = month_bounds(key)
    seen: set[bytes] = set()
    kept: list[tuple[int, int, int]] = []  # (slice, offset, length)
    total = 0
    for index, path in enumerate(paths):
        for offset, length, digest, head in scan_messages(path, chunk_size):
            if digest in seen:
                continue
            seen.add(digest)
            moment = message_date(head)
            if moment is not None and not first <= moment < end:
                continue
            kept.append((index, offset, length))
            total += length
            if max_size and total > max_size:
                raise SlicedMonthTooLarge(
                    f"its week slices hold more than SLICED_MONTH_MAXSIZE ({max_size} B) "
                    f"of the month's messages"
                )
    writer = MonthWriter(staging)
    try:
        sources = [open(path, "rb") for path in paths]  # noqa: SIM115 - closed below
        try:
            for index, offset, length in kept:
                source = sources[index]
                source.seek(offset)
                while length:
                    data = source.read(min(chunk_size, length))
                    if not data:
                        raise OSError(f"{paths[index]} ended early")
                    writer.write(data)
                    length -= len(data)
        finally:
            for source in sources:
                source.close()
        return writer.close()
    except BaseException:
        writer.discard()
        raise
