"""What a worker process does: `stage_archive(path, data_dir, stage_dir, ...)` reads one
archive through the pipeline (`pipeline.archive_chunks`) and writes its rows as staged
files (extract/db/staging.py) for the run's single writer. The local pool's workers
(extract/runner.py) and a Dask worker's extraction processes (extract/cluster.py) run
it, set up by `init_worker` / `die_with_parent`.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from pathlib import Path

from extract.db.staging import ROW_TABLES, StagedArchive, StageWriter, stage
from extract.pipeline import (
    archive_chunks,
    archive_identity,
    enable_message_budget,
    failed_archive,
)


def stage_archive(
    path: str | Path,
    data_dir: str | Path,
    stage_dir: str | Path,
    results: bool = True,
    encode: bool = True,
) -> StagedArchive:
    """`archive_chunks` written under `stage_dir` as they come, so that neither the
    worker nor the writer holds a whole archive: as newline-delimited JSON, or with
    `encode=False` as row files that the writer encodes (when it has a core of its
    own). If the archive cannot be processed at all (it vanished, cannot be
    opened...), the result is one archive-level `errors` row and an `archives` row
    without sha256, so the run goes on and the next run tries the archive again."""
    try:
        with StageWriter(stage_dir, encode=encode) as writer:
            archive: dict = {}
            for chunk in archive_chunks(path, data_dir, results=results):
                archive = chunk.archive
                for table in ROW_TABLES:
                    writer.write(table, getattr(chunk, table))
            return writer.finish(archive)
    except Exception as exc:
        reason = f"archive not processed: {type(exc).__name__}: {exc}"
        return stage_failed(Path(path), Path(data_dir), reason, results, stage_dir)


def stage_failed(
    path: Path, data_dir: Path, reason: str, results: bool, stage_dir: str | Path, step="read"
) -> StagedArchive:
    """The archive-level `errors` row of an archive that could not be processed
    (`pipeline.failed_archive`), staged."""
    rows = failed_archive(archive_identity(path, data_dir), step, reason, results)
    return stage(stage_dir, rows.archive, {"errors": rows.errors})


def init_worker(parent: int) -> None:
    """In each worker: exit when the parent (the run) dies, however it dies (a
    `kill -9` leaves no one to stop the workers), and take the message budget."""
    die_with_parent(parent)
    # Ctrl-C reaches the whole process group: the run stops the workers itself, without
    # a traceback from each of them.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    enable_message_budget()


PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """This process exits when `parent` does: `PR_SET_PDEATHSIG` on Linux, else a
    thread watching it."""
    armed = False
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)
    if not armed:  # elsewhere: a thread watches the parent

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(1)

        threading.Thread(target=watch, name="watch-parent", daemon=True).start()
