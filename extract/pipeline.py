"""One archive in, rows out: `process_archive(path, data_dir)` returns an
`ArchiveRows` with the archive's `messages`, `result_tables`, `measurements` and
`errors` rows (dicts keyed by the columns of extract/db/schema.py) and its `archive`
row. It has no shared state and its inputs and output pickle, so it can run in a
process pool here or be handed to a cluster scheduler.

Per message: read → parse → kind → clean_body → extract_results → classify. Tables
and measurements are kept only for messages classified as benchmarks. With
`results=False` the last two steps are skipped (`--messages-only`): the messages
are stored with `is_benchmark` NULL, and the archive row says so. A failure in
one message becomes an `errors` row (stage and reason) and the next message goes on;
a message that runs out of its time budget is stored too, with what was computed
before (headers, kind, body; no results), beside its `errors` row. So for every
archive, every message is stored or in errors (or both): n_messages positions.

msg_key rule (stable across runs, unique): `<list>/<YYYY-MM>/<Message-ID>`; a
Message-ID seen again in the same archive gets `#2`, `#3`, ... in archive order; a
message without Message-ID uses `sha256:<first 16 hex digits of its raw bytes>`
instead (with the same `#n` rule for identical copies). The month keeps keys of
different archives apart without any shared state between workers: only the file at
`raw/<domain>/<list>/<YYYY-MM>.mbox.gz` is that month's archive and has that key.
Any other archive file (`2020-01.old.mbox.gz` beside it, a copy in a deeper folder
that maps to the same list and month) puts its own place in the key instead of the
month, percent-encoded as one segment: its name without `.mbox.gz` when it sits in
the list's folder (`<list>/2020-01.old/<Message-ID>`), else its whole relative path
(`<list>/raw%2Fcopy%2F...%2F2020-01.mbox.gz/<Message-ID>`). So keys are unique
across archives too.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import math
import os
import re
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from extract.db.schema import text_parts
from extract.mail.clean import clean_body
from extract.mail.kinds import Kind, message_kind, permalink
from extract.mail.mbox import MAX_MESSAGE_BYTES, ArchiveReadError, read_mbox
from extract.mail.message import ParseError, parse_headers, parse_message
from extract.results import gate, prefilter
from extract.results.comparisons import annotate
from extract.results.formats import ResultTable
from extract.results.message import Gated, MessageResults, gate_body, message_results
from extract.results.numbers import range_end
from extract.results.units import measurement_si

# Which code made an archive's rows: a digest of the stages that decide them (every
# module of `mail`, `results` and `db`, and this one). A run re-extracts the archives
# that other code extracted, so an upgrade never leaves stale results; the digest is
# taken over each module's syntax tree without docstrings, so a commit that only
# changes comments, docstrings or formatting re-extracts nothing.
_ROW_STAGES = ("mail", "results", "db")


def _code_digest(source: str) -> str:
    """The module's code as a canonical string: its syntax tree, docstrings dropped."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree, annotate_fields=False)


def _extractor_version() -> str:
    package = Path(__file__).resolve().parent
    files = [Path(__file__).resolve()]
    for stage in _ROW_STAGES:
        files += sorted((package / stage).rglob("*.py"))
    sources = {path.relative_to(package).as_posix(): path.read_bytes() for path in files}
    # Parsing ~80 modules takes half a second, so the digest is cached beside the
    # bytecode, keyed by the sources' exact bytes (hashing those takes a millisecond).
    exact = hashlib.sha256(b"".join(n.encode() + b"\0" + b + b"\0" for n, b in sources.items()))
    cache = package / "__pycache__" / f"extractor-{exact.hexdigest()[:32]}.digest"
    try:
        return cache.read_text("ascii").strip()
    except OSError:
        pass
    digest = hashlib.sha256()
    for name, source in sources.items():
        digest.update(name.encode() + b"\0" + _code_digest(source.decode("utf-8")).encode())
    version = digest.hexdigest()[:16]
    with contextlib.suppress(OSError):  # a read-only install computes it each time
        cache.parent.mkdir(exist_ok=True)
        for old in cache.parent.glob("extractor-*.digest"):  # other code's digests
            old.unlink(missing_ok=True)
        tmp = cache.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(version, "ascii")
        os.replace(tmp, cache)
    return version


EXTRACTOR_VERSION = _extractor_version()

# A message whose reading takes longer than this (a parser's regex gone quadratic on
# some input) becomes an `errors` row instead of stalling the run. Only enforced
# where `enable_message_budget()` was called (the runner's worker processes): it
# takes SIGALRM, which a library caller may use itself.
MESSAGE_BUDGET_SECONDS = 10.0


class MessageTimeout(BaseException):
    """A message went over its time budget. Not an Exception: parsers catch those to
    stay alive, and this one must reach `_process_message`."""


_budget: float | None = None  # seconds, once enabled in this process
_armed = False  # whether a timer runs for the current message


def _on_alarm(signum, frame) -> None:
    if _armed:  # a late signal after the message was done is ignored
        raise MessageTimeout


def enable_message_budget(seconds: float | None = None) -> bool:
    """Limit every following message's extraction in this process to `seconds`
    (default `MESSAGE_BUDGET_SECONDS`), with SIGALRM (`signal.setitimer`): no thread.
    Only done in the main thread and when nobody else handles SIGALRM; returns
    whether the budget is on."""
    global _budget
    if (
        not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGALRM) not in (signal.SIG_DFL, _on_alarm)
    ):
        return False
    signal.signal(signal.SIGALRM, _on_alarm)
    _budget = seconds or MESSAGE_BUDGET_SECONDS
    return True


@contextlib.contextmanager
def _message_budget(seconds: float | None = None):
    """The budget's timer for one message (`seconds`: what is left of it, when the
    message was begun before)."""
    global _armed
    if _budget is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    _armed = True
    # (a timer of 0 would be none: a message with nothing left runs out at once)
    signal.setitimer(signal.ITIMER_REAL, max(1e-3, _budget if seconds is None else seconds))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        _armed = False


def _timeout_reason(exc: BaseException, stage: str) -> str:
    """Where the budget ran out: the format parser whose code was running."""
    parser = None
    tb = exc.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        module = frame.f_globals.get("__name__", "")
        info = getattr(frame.f_locals.get("mod"), "INFO", None)
        if module == "extract.results.formats" and info is not None:
            parser = getattr(info, "name", None) or parser  # the parser being called
        elif module.startswith("extract.results.formats.") and parser is None:
            parser = module.rsplit(".", 1)[1]
        tb = tb.tb_next
    where = f"parser {parser}" if parser else f"stage {stage}"
    return f"message took over {_budget:g} s (in {where})"


# Messages are taken in batches of this many (or this many bytes of mail): the first
# steps of all, then the rest of each (`archive_chunks`). The prefilter keeps the
# scans of more texts than a batch has (prefilter.RECENT).
BATCH_MESSAGES = 64
BATCH_BYTES = 4 << 20

# Stored `text` and `body` are cut here (with a note saying so) to keep every row
# loadable; the whole message stays in the raw archive at `offset`.
MAX_STORED_CHARS = 2_000_000


@dataclass(slots=True)
class ArchiveRows:
    archive: dict
    messages: list[dict] = field(default_factory=list)
    result_tables: list[dict] = field(default_factory=list)
    measurements: list[dict] = field(default_factory=list)
    errors: list[dict] = field(default_factory=list)


def archive_identity(path: Path, data_dir: Path) -> tuple[str, str, str]:
    """(relative path, list address, month) from DATA_DIR/raw/<domain>/<list>/<YYYY-MM>.mbox.gz.
    The month is the file name's first dot-separated part, so several files may map
    to one list and month; `_key_scope` keeps their message keys apart."""
    try:
        rel = path.resolve().relative_to(data_dir.resolve()).as_posix()
    except ValueError:
        rel = path.as_posix()
    parts = Path(rel).parts
    month = path.name.split(".")[0]
    name = parts[-2] if len(parts) >= 2 else "unknown"
    domain = parts[-3] if len(parts) >= 3 and parts[-3] != "raw" else "unknown"
    return rel, f"{name}@{domain}", month


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def archive_chunks(
    path: str | Path, data_dir: str | Path, chunk_messages: int = 1000, *, results: bool = True
) -> Iterator[ArchiveRows]:
    """The rows of one archive in chunks of about `chunk_messages` messages, so that
    memory stays flat however big the archive is. Every chunk carries the same
    `archive` dict; its counts are final once the last chunk has been yielded."""
    path, data_dir = Path(path), Path(data_dir)
    if results:  # (compiled, or read from their caches, outside any message's time budget)
        prefilter.warm()
        gate.warm()
    rel, list_address, month = archive_identity(path, data_dir)
    archive = {
        "path": rel,
        "list": list_address,
        "month": month,
        "sha256": file_sha256(path),
        "size": os.path.getsize(path),
        "n_messages": 0,
        "n_errors": 0,
        "extracted_at": datetime.now(UTC).isoformat(),
        "results": results,
        "extractor": EXTRACTOR_VERSION,
    }
    out = ArchiveRows(archive)
    seen_keys: dict[str, int] = {}
    n_messages = n_errors = 0

    def error(position: int | None, message_id: str | None, stage: str, reason: str) -> None:
        nonlocal n_errors
        n_errors += position is not None
        out.errors.append(
            {
                "archive": rel,
                "position": position,
                "message_id": message_id,
                "stage": stage,
                "reason": reason[:1000],
            }
        )

    batch: list = []  # messages read, not yet processed
    batch_bytes = 0

    def process_batch() -> Iterator[ArchiveRows]:
        # Each message's first steps (parse, kind, clean, the gate) for the whole batch,
        # then the rest of each, in archive order: the gate's and the prefilter's
        # automata (2.7 MB) stay in the processor's cache for the gate's scans, where
        # the readers and the number model of one passed message between two scans
        # evicted them (the scans took 2-3 times as long).
        nonlocal out, batch, batch_bytes
        fronts = [None if raw.skipped else _message_front(raw, results) for raw in batch]
        for raw, front in zip(batch, fronts, strict=True):
            if raw.skipped:
                error(raw.position, _skipped_id(raw), "read", _skipped_reason(raw))
            else:
                _process_message(
                    raw, rel, list_address, month, seen_keys, out, error, results, front
                )
            if len(out.messages) + len(out.errors) >= chunk_messages:
                yield out
                out = ArchiveRows(archive)
        batch, batch_bytes = [], 0

    try:
        for raw in read_mbox(path):
            n_messages += 1
            batch.append(raw)
            batch_bytes += len(raw.data)
            if len(batch) >= BATCH_MESSAGES or batch_bytes >= BATCH_BYTES:
                yield from process_batch()
        yield from process_batch()
    except ArchiveReadError as exc:
        yield from process_batch()  # (the messages read before it)
        if exc.complete:  # (a note: every message was read and kept)
            reason = f"{exc.reason}: the data inflated to its end, all {n_messages} messages kept"
            error(None, None, "read", reason)
        else:
            if exc.partial is not None:
                n_messages += 1
                error(exc.partial.position, None, "read", f"message cut off: {exc.reason}")
            reason = f"archive unreadable after {n_messages} messages: {exc.reason}"
            error(None, None, "read", reason)
    archive["n_messages"] = n_messages
    archive["n_errors"] = n_errors
    yield out


def _skipped_reason(raw) -> str:
    return (
        f"message of {raw.skipped:,} bytes at offset {raw.offset:,} is over the cap of "
        f"{MAX_MESSAGE_BYTES:,} bytes (MAX_MESSAGE_BYTES): skipped, not read"
    )


def _skipped_id(raw) -> str | None:
    """The Message-ID of a message too big to read, from its first bytes."""
    try:
        return parse_headers(raw.data, raw.envelope_line).message_id
    except Exception:
        return None


def process_archive(path: str | Path, data_dir: str | Path, *, results: bool = True) -> ArchiveRows:
    """Every row that one archive file yields (see the module docstring)."""
    chunks = list(archive_chunks(path, data_dir, results=results))
    rows = ArchiveRows(chunks[-1].archive)
    for chunk in chunks:
        rows.messages += chunk.messages
        rows.result_tables += chunk.result_tables
        rows.measurements += chunk.measurements
        rows.errors += chunk.errors
    return rows


def failed_archive(
    identity: tuple[str, str, str], stage: str, reason: str, results: bool = True
) -> ArchiveRows:
    """The rows of an archive that could not be processed or stored: one archive-level
    `errors` row saying why, and an `archives` row without sha256 (so the next run
    tries the archive again) and without messages (so the count invariant holds).
    `identity` is `archive_identity(path, data_dir)`."""
    rel, list_address, month = identity
    archive = {"path": rel, "list": list_address, "month": month, "sha256": None,
               "size": None, "n_messages": 0, "n_errors": 0,
               "extracted_at": datetime.now(UTC).isoformat(), "results": results,
               "extractor": EXTRACTOR_VERSION}  # fmt: skip
    row = {"archive": rel, "position": None, "message_id": None, "stage": stage,
           "reason": reason[:1000]}  # fmt: skip
    return ArchiveRows(archive, errors=[row])


@dataclass(slots=True)
class _Front:
    """A message's first steps (`_message_front`): what they computed, how long they
    took, or how they failed."""

    pm: object = None
    kind: Kind | None = None
    body: str | None = None
    first: Gated | None = None  # the gate's answer (results only)
    spent: float = 0.0
    failed: BaseException | None = None  # a MessageTimeout or a _MessageFailed


def _message_front(raw, results: bool = True) -> _Front:
    """Parse, kind, clean and (`results`) the gate of a message, under its time
    budget; a failure is kept in the `_Front`, for `_process_message` to record in
    archive order."""
    started = time.monotonic()
    stage = "parse"
    front = _Front()
    try:
        with _message_budget():
            front.pm = parse_message(raw.data, raw.envelope_line)
            stage = "kind"
            k = front.pm
            front.kind = message_kind(k.subject, k.from_name, k.from_address, k.text, k.headers)
            stage = "clean"
            front.body = clean_body(front.pm.text, front.kind.kind)
            if results:
                stage = "extract"
                front.first = gate_body(front.body)
    except ParseError as exc:
        front.failed = _MessageFailed(exc.message_id, "parse", exc.reason)
    except MessageTimeout as exc:
        exc.args = (stage,)
        exc.message_id = front.pm.message_id if front.pm else None
        exc.computed = (front.pm, front.kind, front.body, None)
        front.failed = exc
    except Exception as exc:  # one bad message must not stop the archive
        message_id = front.pm.message_id if front.pm else None
        front.failed = _MessageFailed(message_id, stage, f"{type(exc).__name__}: {exc}")
    front.spent = time.monotonic() - started
    return front


def _process_message(
    raw, rel, list_address, month, seen_keys, out, error, results=True, front=None
) -> None:
    if front is None:
        front = _message_front(raw, results)
    try:
        if front.failed is not None:
            raise front.failed
        # (the budget is the message's: what its first steps left of it)
        with _message_budget(None if _budget is None else _budget - front.spent):
            message, tables_rows, measurement_rows = _message_rows(
                raw, rel, list_address, month, seen_keys, results, front
            )
    except MessageTimeout as exc:
        stage = exc.args[0] if exc.args else "store"
        reason = _timeout_reason(exc, stage)
        message, kept = _late_message(raw, rel, list_address, month, seen_keys, exc)
        message_id = message["message_id"] if message else getattr(exc, "message_id", None)
        error(raw.position, message_id, stage, f"{reason}: {kept}")
        if message is not None:
            out.messages.append(message)
        return
    except _MessageFailed as exc:
        error(raw.position, exc.message_id, exc.stage, exc.reason)
        return
    out.messages.append(message)
    out.result_tables += tables_rows
    out.measurements += measurement_rows


def _late_message(raw, rel, list_address, month, seen_keys, exc) -> tuple[dict | None, str]:
    """(the message row of a message that ran out of time, from what was computed
    before: its headers, kind and body; what that is, said for its `errors` row). A
    message stopped while it was parsed gets its header fields alone, read under a
    budget of their own; when even those cannot be read it is not stored."""
    pm, kind, body, key = getattr(exc, "computed", (None, None, None, None))
    if pm is None:
        try:
            with _message_budget():
                pm = parse_headers(raw.data, raw.envelope_line)
        except (MessageTimeout, Exception):
            return None, "not stored (its headers could not be read either)"
    if key is None:
        key = _msg_key(list_address, month, pm.message_id, raw.data, seen_keys, rel)
    row = _message_row(raw, rel, list_address, month, key, pm, kind, body, None, [])
    kept = "headers" + (", kind" if kind else "") + (" and body" if body is not None else "")
    return row, f"stored with its {kept}, without results"


class _MessageFailed(Exception):
    def __init__(self, message_id, stage, reason):
        super().__init__(reason)
        self.message_id, self.stage, self.reason = message_id, stage, reason


def _message_rows(raw, rel, list_address, month, seen_keys, results, front=None):
    """(message row, table rows, measurement rows), from the message's first steps
    (`_message_front`, taken here when not given); raises _MessageFailed (or
    MessageTimeout, with the stage as its argument, the message id in `message_id`
    and what was computed before in `computed`: parsed message, kind, body, key)."""
    if front is None:
        front = _message_front(raw, results)
        if front.failed is not None:
            raise front.failed
    pm, kind, body, key = front.pm, front.kind, front.body, None
    stage = "extract" if results else "store"
    try:
        found = None  # --messages-only: no results looked for
        if results:

            def on_stage(name: str) -> None:
                nonlocal stage
                stage = name

            found = message_results(
                body, subject=pm.subject, kind=kind.kind, on_stage=on_stage, first=front.first
            )
        tables = found.tables if found else []
        verdict = found.verdict if found else None
        stage = "store"
        key = _msg_key(list_address, month, pm.message_id, raw.data, seen_keys, rel)
        message = _message_row(raw, rel, list_address, month, key, pm, kind, body, verdict, tables)
        tables_rows, measurement_rows = (
            _result_rows(key, found, body) if verdict and verdict.is_benchmark else ([], [])
        )
    except MessageTimeout as exc:
        exc.args = (stage,)
        exc.message_id = pm.message_id if pm else None
        exc.computed = (pm, kind, body, key)
        raise
    except Exception as exc:  # one bad message must not stop the archive
        message_id = pm.message_id if pm else None
        raise _MessageFailed(message_id, stage, f"{type(exc).__name__}: {exc}") from None
    return message, tables_rows, measurement_rows


def _message_row(raw, rel, list_address, month, key, pm, kind, body, verdict, tables) -> dict:
    """The `messages` row; `kind` and `body` are None when they were not computed."""
    # the text is stored once: what of it is not the body (extract/db/schema.py)
    stored_body = _bounded(body, raw.offset) if body is not None else None
    text_rest, text_map = text_parts(_bounded(pm.text, raw.offset), stored_body)
    k = kind or Kind(kind=None)
    return {
        "msg_key": key,
        "list": list_address,
        "archive": rel,
        "position": raw.position,
        "offset": raw.offset,
        "message_id": pm.message_id,
        "in_reply_to": pm.in_reply_to,
        "refs": pm.refs,
        "sent_at": pm.sent_at.isoformat() if pm.sent_at else None,
        "date_source": pm.date_source,
        "notes": pm.notes,
        "from_name": pm.from_name,
        "from_address": pm.from_address,
        "subject": pm.subject,
        "kind": k.kind,
        "action": k.action,
        "actor": k.actor,
        "issue_key": k.issue_key,
        "repo": k.repo,
        "pr_number": k.pr_number,
        "branch": k.branch,
        "commit_id": k.commit_id,
        "url": k.url,
        "permalink": permalink(list_address, pm.message_id, month),
        "content_type": pm.content_type,
        "attachments": pm.attachments,
        "size": len(raw.data),
        "is_benchmark": verdict.is_benchmark if verdict else None,
        "benchmark_score": verdict.score if verdict else None,
        "benchmark_reasons": list(verdict.reasons) if verdict else [],
        "formats": sorted({t.format for t in tables}) if verdict and verdict.is_benchmark else [],
        "body": stored_body,
        "text_rest": text_rest,
        "text_map": text_map,
    }


def _bounded(text: str, offset: int) -> str:
    if len(text) <= MAX_STORED_CHARS:
        return text
    more = len(text) - MAX_STORED_CHARS
    return text[:MAX_STORED_CHARS] + f"\n[... {more} more characters: see the archive at {offset}]"


# The one place of a month's archive: raw/<domain>/<list>/<YYYY-MM>.mbox.gz.
_CANONICAL_ARCHIVE = re.compile(r"raw/([^/]+)/([^/]+)/(\d{4}-\d{2})\.mbox\.gz")
_ARCHIVE_SUFFIX = ".mbox.gz"


@functools.lru_cache(maxsize=256)
def _key_scope(archive: str | None, list_address: str, month: str) -> str:
    """The second segment of the keys of an archive's messages (see the module
    docstring): the month for the month's own file (or when no archive path is
    given), else the file's place, percent-encoded (so it has no `/` and differs from
    every other file's, `quote` being one-to-one)."""
    if archive is None:
        return month
    m = _CANONICAL_ARCHIVE.fullmatch(archive)
    if m is not None and f"{m.group(2)}@{m.group(1)}" == list_address and m.group(3) == month:
        return month
    parts = archive.split("/")
    if (
        len(parts) == 4
        and parts[0] == "raw"
        and f"{parts[2]}@{parts[1]}" == list_address
        and parts[3].endswith(_ARCHIVE_SUFFIX)
    ):
        # beside the month's file: its name is unique in that folder
        return quote(parts[3][: -len(_ARCHIVE_SUFFIX)], safe="")
    # (a name has no `/`, so the form above never has a %2F; this one always has)
    return quote(archive, safe="")


def _msg_key(list_address, month, message_id, data, seen_keys, archive=None) -> str:
    ident = message_id or "sha256:" + hashlib.sha256(data).hexdigest()[:16]
    base = f"{list_address}/{_key_scope(archive, list_address, month)}/{ident}"
    n = seen_keys.get(base, 0) + 1
    seen_keys[base] = n
    return base if n == 1 else f"{base}#{n}"


def _result_rows(key: str, found: MessageResults, body: str) -> tuple[list[dict], list[dict]]:
    """The rows of the tables and measurements the number model took. The comparison
    columns are filled with every number the readers read in view (an error or a
    count it refused still tells the noise of the number beside it), then only the
    taken ones are kept."""
    text = found.sample
    kept = {id(m) for t in found.tables for m in t.measurements}
    tables = read_tables(found)
    table_rows, measurement_rows = [], []
    sources = []  # (table ordinal, Measurement) of each measurement row
    stored = 0
    for n, table in enumerate(tables):
        if any(id(m) in kept for m in table.measurements):
            t_ord, table_id = stored, f"{key}#{stored}"
            stored += 1
            table_rows.append(
                {
                    "table_id": table_id,
                    "msg_key": key,
                    "ordinal": t_ord,
                    "format": table.format,
                    "caption": table.caption,
                    "variant": table.variant,
                    "columns": [str(c) for c in table.columns],
                    "n_rows": len(table.rows),
                    "rows": [[str(c) for c in row] for row in table.rows],
                    "source": table.source(text),
                }
            )
        else:
            t_ord, table_id = -1 - n, None  # (read, not stored: only its noise counts)
        for m in table.measurements:
            value_si, unit_si = measurement_si(m.value, m.unit, m.metric)
            span = _body_span(found, m, body)
            measurement_rows.append(
                {
                    "msg_key": key,
                    "table_id": None if table.format == "prose" else table_id,
                    "ordinal": len(measurement_rows),
                    "label": m.label,
                    "variant": m.variant if m.variant is not None else table.variant,
                    "metric": m.metric,
                    "value": _finite(m.value),
                    "value_max": _finite(range_end(m.written)),
                    "written": m.written,
                    "unit": m.unit,
                    "value_si": _finite(value_si),
                    "unit_si": unit_si,
                    "error": _finite(m.error),
                    "stdev": _finite(m.stdev),
                    "samples": _finite(m.samples),
                    "span_start": span[0] if span else None,
                    "span_end": span[1] if span else None,
                    "score": found.scores.get(id(m)),
                }
            )
            sources.append((t_ord, m))
    annotate(measurement_rows, sources, text)  # the sides the comparisons view pairs
    out = []
    for r, (_, m) in zip(measurement_rows, sources, strict=True):
        if id(m) not in kept:
            continue
        if r["noise"] is None and r["error"] is not None and r["value"]:
            r["noise"] = abs(r["error"] / r["value"])
        r["ordinal"] = len(out)
        out.append(r)
    return table_rows, out


def read_tables(found: MessageResults) -> list[ResultTable]:
    """Every table read in a message, in text order: the readers' (whole, before the
    number model judged their numbers) and the model's own (`text`)."""
    text_tables = [t for t in found.tables if t.format == "text"]
    return sorted([*found.read, *text_tables], key=lambda t: t.span)


def result_rows(key: str, body: str, **kw) -> tuple[list[dict], list[dict]]:
    """The table and measurement rows the pipeline would store for a cleaned body
    (whether or not it is judged a benchmark): for tests and tools."""
    return _result_rows(key, message_results(body, **kw), body)


def _body_span(found: MessageResults, m, body: str) -> tuple[int, int] | None:
    """The measurement's span in the stored body, when the body holds its text there."""
    if m.span is None or len(body) > MAX_STORED_CHARS:
        return None
    start = found.to_body(m.span[0])
    end = start + (m.span[1] - m.span[0])
    return (start, end) if body[start:end] == found.sample[m.span[0] : m.span[1]] else None


def _finite(x: float | None) -> float | None:
    """NaN and infinities are not JSON; store them as NULL."""
    # (`isfinite`, not a comparison with two floats made anew: a row asks six times)
    if x is None or not math.isfinite(x):
        return None
    return float(x)
