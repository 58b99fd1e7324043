"""Archives you already have: `make import SRC=PATH [DATA_DIR=data]` =
`python -m extract.importer PATH... --data-dir DIR [--no-extract]`.

Takes mbox files (plain, gzip or bzip2) and single messages (`.eml`, or any file that
is one message), alone or in folders, under any names, and lays them out as the
crawler lays out its own: `DATA_DIR/raw/<domain>/<list>/<YYYY-MM>.mbox.gz`
(`crawler.archive.archive_path`), then runs the extraction on DATA_DIR.

What a file is, is read from its bytes, never its name: the gzip or bzip2 magic
number, then an envelope line (`From `, an mbox) or a header line (one message).
Each message's list comes from its own headers, in this order: `List-Post`
(`<mailto:dev@kafka.apache.org>`), `List-Id` (`<dev.kafka.apache.org>`: the first
label is the list), ezmlm's `Mailing-List` (`contact dev-help@...`), then the first
`To` address; names are checked as the crawler checks the archive's (a name that
is not a safe directory name is no list). Its month is its Date header's, in UTC
(`crawler.archive.message_date`, as the crawler files messages), else its envelope
line's date.

No copy where a link will do: a gzip file whose messages are all of one list and
month is hard-linked into place (copied only where no hard link can be made, such
as another file system); a plain or bzip2 file of one month is gzipped as it is;
anything else (several lists or months in one file, several files for one month,
single messages) is written message by message in a fixed order, so that importing
the same files again writes the same bytes: an mbox's messages copied byte for byte
(cut where the reader found each one to start: envelope line and escaping as they
were, a message over the reader's size cap included, never held whole), a single
message with an envelope line made from its sender and date and mboxrd escaping.

Nothing is overwritten: a month file already in place is left alone when it holds
what the import would write ("already there"), and named otherwise ("exists with
other content"). Every file that is not imported, and every message that could not
be placed (no list, no date), is named with the reason in the summary; the source
files are never changed. Time and memory are linear in the input: each file is read
twice as a stream (once to place its messages, once to copy them), holding one block
at a time and 12 bytes a message.
"""

from __future__ import annotations

import argparse
import contextlib
import email.parser
import email.policy
import email.utils
import errno
import filecmp
import gzip
import os
import re
import shutil
import sys
import time
import zlib
from array import array
from collections import Counter, OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from crawler.archive import (
    FIRST_YEAR,
    archive_path,
    message_date,
    month_of,
    valid_domain,
    valid_list_name,
)
from extract.db.staging import remove_stale, run_directory
from extract.mail.mbox import (
    BLOCK,
    ArchiveReadError,
    RawMessage,
    TrailerError,
    archive_blocks,
    iter_messages,
    mail_file_blocks,
    sniff,
)

_FROM_LINE = re.compile(rb"^(>*From )", re.M)
_HEAD_END = re.compile(rb"\r?\n\r?\n")
_MAILTO = re.compile(r"mailto:([^>?\s,;]+)", re.I)
_ANGLED = re.compile(r"<([^<>\s]+)>")
_EZMLM = re.compile(r"contact\s+(\S+?)-help@(\S+?)[;\s]", re.I)
# Bytes of a message's head read to place it: headers are never longer in real mail.
_MAX_HEAD = 256 * 1024
# Month writers open at once (more months are reopened: a new gzip member).
_OPEN_WRITERS = 64
_WRITE_LEVEL = 6


class ImportError_(Exception):
    """The import cannot start: no such SRC, nothing under it, a DATA_DIR that is not
    a directory."""


@dataclass
class Source:
    """A file to import: what it is, and where its messages go."""

    path: Path
    compression: str | None  # "gzip", "bzip2" or None
    single: bool  # one message (an .eml), not an mbox
    months: Counter = field(default_factory=Counter)  # (domain, list, YYYY-MM) -> messages
    made_up: Counter = field(default_factory=Counter)  # what was not in the headers -> messages
    damage: str | None = None  # where reading stopped, when it did
    # Each message's place, for the second reading of an mbox: where it starts in the
    # decompressed bytes, the index of its (domain, list, month) in `wheres`, and the
    # envelope line made for the few that had none (text before the first envelope).
    offsets: array = field(default_factory=lambda: array("q"))
    where_of: array = field(default_factory=lambda: array("i"))
    wheres: list = field(default_factory=list)
    made_envelopes: dict = field(default_factory=dict)

    @property
    def messages(self) -> int:
        return sum(self.months.values())


@dataclass
class Report:
    sources: list[Source] = field(default_factory=list)
    skipped: list[tuple[Path, str]] = field(default_factory=list)  # files not imported
    placed: dict[Path, str] = field(default_factory=dict)  # month file -> what was done
    refused: list[tuple[Path, str]] = field(default_factory=list)  # month files not written


# ------------------------------------------------------------------ what a file is


def messages_of(source: Source) -> Iterator[RawMessage]:
    """The source's messages (an ArchiveReadError after the last readable one, when
    the file is damaged)."""
    if not source.single:
        yield from iter_messages(mail_file_blocks(source.path, source.compression))
        return
    try:
        data = b"".join(mail_file_blocks(source.path, source.compression))
    except (OSError, EOFError, ValueError) as exc:
        raise ArchiveReadError(f"{type(exc).__name__}: {exc}") from exc
    yield RawMessage(0, 0, "", data.lstrip(b"\r\n"))


# ------------------------------------------------------------------ where a message goes

_HEADERS = email.parser.BytesHeaderParser(policy=email.policy.compat32)


def _head(data: bytes) -> email.message.Message:
    window = data[:_MAX_HEAD]
    end = _HEAD_END.search(window)
    return _HEADERS.parsebytes(window[: end.start()] if end else window)


def _address(text: str | None) -> tuple[str, str] | None:
    """(domain, list name) of a list address, when it is one the crawler could file."""
    if not text or "@" not in text:
        return None
    name, _, domain = text.strip().strip("<>").rpartition("@")
    name, domain = name.lower(), domain.lower().rstrip(".")
    return (domain, name) if valid_list_name(name) and valid_domain(domain) else None


def list_of(head: email.message.Message) -> tuple[str, str] | None:
    """(domain, list name) from a message's own headers (see the module docstring)."""
    for value in head.get_all("List-Post") or []:
        if (m := _MAILTO.search(str(value))) and (found := _address(m.group(1))):
            return found
    for value in head.get_all("List-Id") or []:
        text = str(value)
        m = _ANGLED.search(text)
        label = (m.group(1) if m else text).strip().lower()
        if "@" in label and (found := _address(label)):  # (an address, not RFC 2919's form)
            return found
        name, _, domain = label.partition(".")
        if valid_list_name(name) and valid_domain(domain):
            return domain, name
    for value in head.get_all("Mailing-List") or []:
        m = _EZMLM.search(str(value) + " ")
        if m and (found := _address(f"{m.group(1)}@{m.group(2)}")):
            return found
    for _, addr in email.utils.getaddresses([str(v) for v in head.get_all("To") or []]):
        if found := _address(addr):
            return found
    return None


def _envelope_date(line: str) -> datetime | None:
    """The date of an envelope line (`From sender  Fri Sep 20 12:27:56 2019`), as UTC."""
    parts = line.split()
    if len(parts) < 6:
        return None
    try:
        moment = datetime.strptime(" ".join(parts[-5:]), "%a %b %d %H:%M:%S %Y")
    except ValueError:
        return None
    return moment.replace(tzinfo=UTC)


# Where a message goes that names no list, or has no date: it is imported all the
# same (nothing is lost), under a list of a reserved domain (RFC 2606) that no real
# list has, or in the first month any archive can have, and the summary says so.
UNLISTED = "unlisted@import.invalid"
UNDATED = f"{FIRST_YEAR}-01"
NO_LIST = "no list in their headers (List-Post, List-Id, Mailing-List, To)"
NO_DATE = "no date (no readable Date header or envelope date)"


def place(raw: RawMessage, unlisted: tuple[str, str]) -> tuple[tuple[str, str, str], list[str]]:
    """(domain, list, YYYY-MM) of a message, and what of it had to be made up."""
    notes = []
    try:
        found = list_of(_head(raw.data))
    except Exception:  # a header block the parser cannot take: no list to read
        found = None
    if found is None:
        found = unlisted
        notes.append(NO_LIST)
    moment = message_date(raw.data) or _envelope_date(raw.envelope_line)
    if moment is None or not FIRST_YEAR <= moment.year <= 9998:
        month = UNDATED
        notes.append(NO_DATE)
    else:
        month = month_of(moment)
    return (*found, month), notes


# ------------------------------------------------------------------ the import


def find_sources(paths: list[Path], data_dir: Path, report: Report) -> list[Source]:
    """Every mail file under `paths` (files, or folders walked in name order)."""
    raw = (data_dir / "raw").resolve()
    own = data_dir.resolve()
    files: list[Path] = []
    for path in paths:
        if not path.exists():
            raise ImportError_(f"SRC {path} does not exist")
        resolved = path.resolve()
        if resolved == raw or raw in resolved.parents:
            raise ImportError_(
                f"SRC {path} is under {data_dir / 'raw'}, which the import fills: give the "
                "files where they are"
            )
        if path.is_dir():

            def unreadable(exc: OSError, top: Path = path) -> None:
                where = Path(exc.filename) if exc.filename else top
                report.skipped.append((where, f"folder not readable: {exc.strerror}"))

            for root, dirs, names in os.walk(path, onerror=unreadable):
                # (a DATA_DIR inside SRC holds what the import writes, not what it reads)
                dirs[:] = sorted(d for d in dirs if (Path(root) / d).resolve() != own)
                files += [Path(root) / name for name in sorted(names)]
        else:
            files.append(path)
    sources = []
    for file in files:
        if not file.is_file():
            report.skipped.append((file, "not a regular file"))
            continue
        kind = sniff(file)
        if isinstance(kind, str):
            report.skipped.append((file, kind))
        else:
            sources.append(Source(file, *kind))
    return sources


def survey(source: Source, unlisted: tuple[str, str]) -> None:
    """First reading: where each message goes (and, for an mbox, where it starts)."""
    index: dict[tuple[str, str, str], int] = {}
    for raw in _readable(source):
        where, notes = place(raw, unlisted)
        source.months[where] += 1
        source.made_up.update(notes)
        if where not in index:
            index[where] = len(source.wheres)
            source.wheres.append(where)
        if not raw.envelope_line.startswith("From "):
            source.made_envelopes[len(source.offsets)] = _make_envelope(raw.data) + b"\n"
        source.offsets.append(raw.offset)
        source.where_of.append(index[where])


def target_of(data_dir: Path, where: tuple[str, str, str]) -> Path:
    domain, name, month = where
    return data_dir / archive_path(domain, name, month)


def import_files(
    paths: list[Path], data_dir: Path, *, link: bool = True, unlisted: str = UNLISTED
) -> Report:
    """Lay out the mail under `paths` in `data_dir`/raw (see the module docstring);
    messages that name no list go to the list `unlisted`."""
    report = Report()
    if data_dir.exists() and not data_dir.is_dir():
        raise ImportError_(f"data dir {data_dir} is a file, not a directory")
    fallback = _address(unlisted)
    if fallback is None:
        raise ImportError_(f"--list {unlisted}: not a list address (name@domain)")
    sources = find_sources(paths, data_dir, report)
    for source in sources:
        survey(source, fallback)
    report.sources = sources
    contributions: dict[Path, list[Source]] = {}
    for source in sources:
        for where in source.months:
            contributions.setdefault(target_of(data_dir, where), []).append(source)
    if not contributions:
        return report
    staging = data_dir / ".staging"
    staging.mkdir(parents=True, exist_ok=True)
    remove_stale(staging)
    work = run_directory(staging, "import")
    try:
        merged: dict[Path, Path] = {}  # month file -> the file written for it in `work`
        for target, contributors in sorted(contributions.items()):
            whole = len(contributors) == 1 and _whole(contributors[0])
            if whole:
                _lay_whole(contributors[0], target, data_dir, work, report, link, fallback)
            else:
                merged[target] = work / f"{len(merged)}.mbox.gz"
        if merged:
            _write_merged(sources, data_dir, merged, fallback)
            for target, written in sorted(merged.items()):
                _put(written, target, "written", report)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return report


def _whole(source: Source) -> bool:
    """Whether the file is one month of one list and nothing else: laid out whole."""
    return len(source.months) == 1 and source.damage is None


def _lay_whole(
    source: Source,
    target: Path,
    data_dir: Path,
    work: Path,
    report: Report,
    link: bool,
    unlisted: tuple[str, str],
) -> None:
    tmp = work / f"whole-{len(report.placed)}.mbox.gz"
    if source.compression == "gzip" and not source.single:
        if link:
            with contextlib.suppress(OSError):
                if target.exists() and os.path.samefile(source.path, target):
                    report.placed[target] = "already there"
                    return
            try:
                os.link(source.path, tmp)
                _put(tmp, target, "linked", report)
                return
            except OSError as exc:
                if exc.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK, errno.ENOTSUP):
                    raise
        shutil.copyfile(source.path, tmp)
        _put(tmp, target, "copied", report)
        return
    if source.single:  # one message: it needs its envelope line
        _write_merged([source], data_dir, {target: tmp}, unlisted)
        _put(tmp, target, "written", report)
        return
    with open(tmp, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
        for block in mail_file_blocks(source.path, source.compression):
            out.write(block)
    _put(tmp, target, "gzipped" if source.compression is None else "recompressed", report)


def _put(written: Path, target: Path, how: str, report: Report) -> None:
    """`written` into place at `target`, unless a file is there: then nothing changes,
    and the report says whether it held the same."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        same = filecmp.cmp(written, target, shallow=False) or _same_mail(written, target)
        if same:
            report.placed[target] = "already there"
        else:
            report.refused.append(
                (
                    target,
                    "exists with other content (crawled, or imported from other "
                    "files): move it away to import these",
                )  # fmt: skip
            )
        written.unlink(missing_ok=True)
        return
    try:
        os.link(written, target)  # (fails if a file appeared meanwhile: never overwrite)
    except FileExistsError:
        report.refused.append((target, "appeared during the import: left as it is"))
        return
    finally:
        written.unlink(missing_ok=True)
    report.placed[target] = how


def _same_mail(a: Path, b: Path) -> bool:
    """Whether two archives hold the same mbox bytes (compressed differently)."""
    try:
        return all(x == y for x, y in _zip_longest(archive_blocks(a), archive_blocks(b)))
    except (OSError, EOFError, ValueError):
        return False


def _zip_longest(a: Iterator[bytes], b: Iterator[bytes]) -> Iterator[tuple[bytes, bytes]]:
    """Pairs of equal-length pieces of two byte streams (b"" once one ends)."""
    buf_a = buf_b = b""
    a, b = iter(a), iter(b)
    while True:
        while len(buf_a) < BLOCK and (block := next(a, None)) is not None:
            buf_a += block
        while len(buf_b) < BLOCK and (block := next(b, None)) is not None:
            buf_b += block
        n = min(len(buf_a), len(buf_b)) or max(len(buf_a), len(buf_b))
        if n == 0:
            return
        yield buf_a[:n], buf_b[:n]
        buf_a, buf_b = buf_a[n:], buf_b[n:]


def _write_merged(
    sources: list[Source], data_dir: Path, into: dict[Path, Path], unlisted: tuple[str, str]
) -> None:
    """Second reading: each message of `sources` whose month file is in `into` appended
    to the file written for it, in the sources' order. An mbox's messages are copied as
    they are, byte for byte (envelope line, escaping, a message over the reader's size
    cap too), from where each one starts to where the next one does; a single message
    gets an envelope line and mboxrd escaping (`mbox_entry`)."""
    out = _Writers(into)
    try:
        for source in sources:
            targets = [target_of(data_dir, w) for w in source.wheres]
            if not any(t in into for t in targets):
                continue
            if source.single:
                for raw in _readable(source):
                    out.start(target_of(data_dir, place(raw, unlisted)[0]))
                    out.write(mbox_entry(raw))
                continue
            _copy_messages(source, targets, out)
    finally:
        out.close()


class _Writers:
    """The month files being written (at most `_OPEN_WRITERS` open: a file reopened
    gets a new gzip member, which every reader reads on). `start(target)` begins a
    message there, after a blank line; `write` adds its bytes."""

    def __init__(self, into: dict[Path, Path]):
        self.into = into
        self.open: OrderedDict[Path, gzip.GzipFile] = OrderedDict()
        self.tails: dict[Path, bytes] = {}  # the last two bytes written to each
        self.current: Path | None = None

    def start(self, target: Path) -> None:
        self.current = target if target in self.into else None
        if self.current is None:
            return
        tail = self.tails.get(target, b"\n\n")
        if not tail.endswith(b"\n\n"):  # (a message that ended without its blank line)
            self.write(b"\n" if tail.endswith(b"\n") else b"\n\n")

    def write(self, data: bytes) -> None:
        target = self.current
        if target is None or not data:
            return
        writer = self.open.pop(target, None)
        if writer is None:
            if len(self.open) >= _OPEN_WRITERS:
                self.open.popitem(last=False)[1].close()
            writer = gzip.GzipFile(self.into[target], "ab", _WRITE_LEVEL, mtime=0)
        self.open[target] = writer
        writer.write(data)
        self.tails[target] = (self.tails.get(target, b"") + data)[-2:]

    def close(self) -> None:
        for writer in self.open.values():
            writer.close()
        self.open.clear()


def _copy_messages(source: Source, targets: list[Path], out: _Writers) -> None:
    """An mbox's bytes, cut where its messages start (the survey's offsets), each
    message's bytes to its month file; up to the damage, for a damaged file."""
    offsets, where_of = source.offsets, source.where_of
    i, pos = 0, 0  # the next message to start; the stream offset of the block
    out.current = None  # (blank lines before the first message go nowhere)
    try:
        for block in mail_file_blocks(source.path, source.compression):
            start = 0
            while i < len(offsets) and offsets[i] < pos + len(block):
                cut = offsets[i] - pos
                out.write(block[start:cut])
                out.start(targets[where_of[i]])
                out.write(source.made_envelopes.get(i, b""))
                start, i = cut, i + 1
            out.write(block[start:])
            pos += len(block)
    except (OSError, EOFError, ValueError, zlib.error, TrailerError):
        pass  # (the survey noted the damage; what came before it is written)


def _readable(source: Source) -> Iterator[RawMessage]:
    """The source's messages, the one cut by damage included (the damage is noted)."""
    try:
        yield from messages_of(source)
    except ArchiveReadError as exc:
        source.damage = exc.reason
        if exc.partial is not None:
            yield exc.partial


def mbox_entry(raw: RawMessage) -> bytes:
    """One message as an mboxrd entry: its envelope line (made from its sender and date
    when it had none), the message with `>` before each `>*From ` line, a blank line."""
    envelope = raw.envelope_line.encode("utf-8", "surrogateescape")
    if not envelope.startswith(b"From "):
        envelope = _make_envelope(raw.data)
    data = _FROM_LINE.sub(rb">\1", raw.data)
    if data and not data.endswith(b"\n"):
        data += b"\n"
    return envelope + b"\n" + data + b"\n"


def _make_envelope(data: bytes) -> bytes:
    head = _head(data)
    sender = "MAILER-DAEMON"
    for _, addr in email.utils.getaddresses([str(v) for v in head.get_all("From") or []]):
        if addr and re.fullmatch(r"[^\s@]+@[^\s@]+", addr):
            sender = addr
            break
    moment = message_date(data) or datetime(1970, 1, 1, tzinfo=UTC)
    return f"From {sender} {time.asctime(moment.timetuple())}".encode("ascii", "replace")


# ------------------------------------------------------------------ the command


def summary_lines(report: Report, data_dir: Path, unlisted: tuple[str, str]) -> list[str]:
    """What the import did, one line for the totals and one per file or month it did
    not import, and per message it left out."""
    hows = Counter(report.placed.values())
    lists = {p.parent for p in report.placed}
    messages = sum(s.messages for s in report.sources)
    done = ", ".join(f"{n} {how}" for how, n in sorted(hows.items())) or "none"
    lines = [
        f"import: {_n(len(report.sources), 'file')}, {_n(messages, 'message')} -> "
        f"{_n(len(report.placed), 'month file')} of {_n(len(lists), 'list')} under "
        f"{data_dir / 'raw'} ({done})"
    ]
    for path, reason in report.skipped:
        lines.append(f"import: skipped {path}: {reason}")
    for source in report.sources:
        for reason, n in sorted(source.made_up.items()):
            instead = f"filed under {UNDATED}" if reason == NO_DATE else "filed under the list"
            instead += "" if reason == NO_DATE else f" {'@'.join(reversed(unlisted))}"
            lines.append(f"import: {source.path}: {n} message(s) with {reason}: {instead}")
        if source.damage:
            lines.append(f"import: {source.path}: read up to its damage ({source.damage})")
    for target, reason in report.refused:
        lines.append(f"import: not written: {target}: {reason}")
    return lines


def _n(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m extract.importer",
        description="Lay out mbox files (plain, gzip, bzip2) and single messages (.eml) "
        "you already have as DATA_DIR/raw/<domain>/<list>/<YYYY-MM>.mbox.gz, list and "
        "month from the messages' headers, then extract them.",
        epilog="exit status: 0 done (files and messages not imported are named); "
        "2 could not start (no such SRC, nothing to import); else the extraction's",
    )
    ap.add_argument("src", nargs="+", type=Path, metavar="SRC", help="files or folders")
    ap.add_argument("--data-dir", type=Path, default=Path("data"), help="default: data")
    ap.add_argument("--no-extract", action="store_true", help="lay out only")
    ap.add_argument(
        "--copy",
        action="store_true",
        help="copy gzip month files instead of hard-linking them",
    )
    ap.add_argument(
        "--list",
        default=UNLISTED,
        metavar="ADDRESS",
        help=f"the list of messages whose headers name none (default: {UNLISTED})",
    )
    ap.add_argument("--workers", type=int, help="the extraction's worker processes")
    args = ap.parse_args(argv)
    try:
        report = import_files(args.src, args.data_dir, link=not args.copy, unlisted=args.list)
    except ImportError_ as exc:
        print(f"import: {exc}", file=sys.stderr)
        return 2
    for line in summary_lines(report, args.data_dir, _address(args.list)):
        print(line, flush=True)
    if not report.placed:
        print("import: nothing to import", file=sys.stderr)
        return 2
    if args.no_extract:
        return 0
    from extract.__main__ import main as extract_main

    extract_args = ["--data-dir", str(args.data_dir)]
    if args.workers:
        extract_args += ["--workers", str(args.workers)]
    return extract_main(extract_args)


if __name__ == "__main__":
    sys.exit(main())
