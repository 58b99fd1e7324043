"""The staging format: an archive's rows on their way from a worker to the store.

A worker writes each archive's rows into files, one per table, in the run's staging
directory (`<beside the database>/.staging/<pid>-<id>/`, made by `db.store.Store`),
and hands the store a `StagedArchive`: the archive's `archives` row and the paths of
its files. The store bulk-loads them (`INSERT ... SELECT FROM read_json([...])`, one
statement per table per batch) and removes them. Neither side holds a whole archive.

Two encodings, one writer (`StageWriter`, the only code that writes staged files):
- newline-delimited JSON (`<stem>.<table>.ndjson`), what DuckDB's `read_json` loads;
- row files (`<stem>.<table>.rows`): pickled chunks of row dicts. Pickling costs a
  worker a quarter of what JSON costs (0.012 vs 0.046 ms a message); the store turns
  them into JSON (`read_rows`, then a `StageWriter` of its own). That pays when a
  single worker leaves the writer a core of its own; else the workers encode. Row
  files never leave the run's staging directory.

A worker that does not see the staging directory (a Dask worker on another machine)
sends its JSON back as bytes (`pack`), and the run stages them (`unpack`).

Rows are dicts keyed by the columns of extract/db/schema.py. This module knows
nothing of how they are made (extract/pipeline.py) or loaded (extract/db/store.py).
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import shutil
import uuid
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO

# The tables whose rows an archive yields; its `archives` row travels beside them.
ROW_TABLES = ("messages", "result_tables", "measurements", "errors")

_ENCODE = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode


@dataclass(slots=True)
class StagedArchive:
    """An archive's rows written to files: `files` maps a table name to the path of
    its `*.ndjson` or `*.rows` file (tables without rows have none)."""

    archive: dict
    files: dict[str, str]


def new_stem() -> str:
    """A file name stem no other writer of any process uses."""
    return f"{os.getpid()}-{uuid.uuid4().hex[:16]}"


class StageWriter:
    """Appends rows per table to `<stage_dir>/<stem>.<table>.ndjson` (or `.rows` with
    `encode=False`), opening a table's file at its first rows. `finish(archive)`
    closes the files and returns the `StagedArchive`; leaving a `with` block by an
    exception removes them."""

    def __init__(self, stage_dir: str | Path, stem: str | None = None, *, encode: bool = True):
        self.dir = Path(stage_dir)
        self.stem = stem or new_stem()
        self.encode = encode
        self.files: dict[str, str] = {}
        self._handles: dict[str, IO] = {}

    def write(self, table: str, rows: list[dict]) -> None:
        if not rows:
            return
        f = self._handle(table, "ndjson" if self.encode else "rows")
        if self.encode:
            f.writelines(_ENCODE(r) + "\n" for r in rows)
        else:
            pickle.dump(rows, f, protocol=pickle.HIGHEST_PROTOCOL)

    def write_encoded(self, table: str, data: bytes) -> None:
        """Newline-delimited JSON that a writer elsewhere made (`pack`)."""
        if data:
            f = self._handle(table, "ndjson")
            f.flush()
            f.buffer.write(data)

    def _handle(self, table: str, suffix: str) -> IO:
        f = self._handles.get(table)
        if f is None:
            path = self.dir / f"{self.stem}.{table}.{suffix}"
            # (binary for pickles; text for JSON, where a lone surrogate from a broken
            # mail becomes '?' rather than an error)
            f = (
                open(path, "w", encoding="utf-8", errors="replace")  # noqa: SIM115
                if suffix == "ndjson"
                else open(path, "wb")  # noqa: SIM115
            )
            self._handles[table], self.files[table] = f, str(path)
        return f

    def close(self) -> None:
        handles, self._handles = self._handles, {}
        for f in handles.values():
            f.close()

    def finish(self, archive: dict) -> StagedArchive:
        self.close()
        return StagedArchive(archive, dict(self.files))

    def discard(self) -> None:
        """Close and remove the files written so far."""
        self.close()
        for file in self.files.values():
            Path(file).unlink(missing_ok=True)
        self.files = {}

    def __enter__(self) -> StageWriter:
        return self

    def __exit__(self, exc_type, *_) -> None:
        if exc_type is not None:
            self.discard()
        else:
            self.close()


def stage(stage_dir: str | Path, archive: dict, tables: Mapping[str, list[dict]]) -> StagedArchive:
    """Rows held in memory (`tables`: table name -> rows) staged as JSON."""
    with StageWriter(stage_dir) as writer:
        for table in ROW_TABLES:
            writer.write(table, tables.get(table) or [])
        return writer.finish(archive)


def read_rows(path: str | Path) -> Iterator[list[dict]]:
    """The chunks of rows of a row file, in the order they were written."""
    with open(path, "rb") as f:
        while True:
            try:
                yield pickle.load(f)
            except EOFError:
                return


def json_files(staged: list[StagedArchive], batch: StageWriter) -> dict[str, list[Path]]:
    """Per table (and `archives`), the newline-delimited JSON files that hold the rows
    of `staged`, the form DuckDB's read_json loads in bulk: the JSON files as they are,
    plus one file of `batch` with the rows of the row files, written chunk by chunk
    (memory holds one chunk at a time), and one with the `archives` rows. The caller
    discards `batch` once loaded."""
    out: dict[str, list[Path]] = {}
    for table in ROW_TABLES:
        files = [Path(s.files[table]) for s in staged if table in s.files]
        out[table] = [f for f in files if f.suffix == ".ndjson"]
        for file in (f for f in files if f.suffix == ".rows"):
            for rows in read_rows(file):
                batch.write(table, rows)
    batch.write("archives", [s.archive for s in staged])
    batch.close()
    for table, file in batch.files.items():
        out.setdefault(table, []).append(Path(file))
    return out


def pack(staged: StagedArchive) -> tuple[dict, dict[str, bytes]]:
    """A staged archive as (archive row, table -> JSON bytes), to send to a process
    that does not see this staging directory; the files are removed."""
    blobs = {}
    for table, file in staged.files.items():
        path = Path(file)
        if path.suffix == ".rows":
            with StageWriter(path.parent) as writer:
                for rows in read_rows(path):
                    writer.write(table, rows)
            path.unlink()
            path = Path(writer.files[table])
        blobs[table] = path.read_bytes()
        path.unlink()
    return staged.archive, blobs


def unpack(stage_dir: str | Path, archive: dict, blobs: Mapping[str, bytes]) -> StagedArchive:
    """What `pack` made, staged in `stage_dir` again."""
    with StageWriter(stage_dir) as writer:
        for table, data in blobs.items():
            writer.write_encoded(table, data)
        return writer.finish(archive)


# ------------------------------------------------------ the staging directory itself
# `<root>/<pid>-<id>/` per run (and `<pid>-dask-<id>/` for a local Dask cluster's
# scratch), with an `owner` file naming the process; a directory whose owner is gone
# (a killed run) is removed by the next run (`remove_stale`).


def run_directory(root: Path, label: str = "") -> Path:
    """A new directory of this process's under `root` (which must exist)."""
    path = root / f"{os.getpid()}-{label + '-' if label else ''}{uuid.uuid4().hex[:12]}"
    path.mkdir()
    (path / "owner").write_text(owner_token(os.getpid()), "ascii")
    return path


def _start_time(pid: int) -> str:
    """The process's start time (clock ticks since boot) where /proc tells, else ''."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text("ascii", "replace")
    except OSError:
        return ""
    return stat.rsplit(")", 1)[-1].split()[19]  # field 22 of stat


def owner_token(pid: int) -> str:
    """What names a process for good: its pid and start time (a pid is reused)."""
    return f"{pid} {_start_time(pid)}"


def alive(token: str) -> bool:
    """Whether the process an owner token names still runs (not a later one that got
    its pid)."""
    pid_text, _, start = token.strip().partition(" ")
    try:
        pid = int(pid_text)
    except ValueError:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    except OSError:
        return False
    return not start or _start_time(pid) in ("", start)


def remove_stale(root: Path) -> list[Path]:
    """Remove the staging directories under `root` whose owner process is gone (left by
    killed runs); return them. Directories of running processes are left alone."""
    removed = []
    with contextlib.suppress(OSError):
        for run_dir in root.iterdir():
            if not run_dir.is_dir():
                continue
            try:
                token = (run_dir / "owner").read_text("ascii")
            except OSError:
                # Not written yet (a run starting now) or lost: judge by the pid in the name.
                token = run_dir.name.split("-", 1)[0]
            if not alive(token):
                shutil.rmtree(run_dir, ignore_errors=True)
                removed.append(run_dir)
    return removed


def discard(staged: Iterable[StagedArchive]) -> None:
    """Remove the staged files of these archives."""
    for s in staged:
        for file in s.files.values():
            Path(file).unlink(missing_ok=True)
