"""The extraction run, as a library: `run(data_dir, ...)` reads every
DATA_DIR/raw/**/*.mbox.gz into DATA_DIR/asf.duckdb and returns a `RunSummary`.
`python -m extract` (the CLI), the demo and the bench all call it.

Incremental: only archives whose sha256 differs from the one recorded in
`archives` (or that are not recorded), or that other extraction code extracted
(`archives.extractor`), are processed; `full=True` rebuilds everything.
`messages_only=True` stores the messages without looking for benchmark results;
a later run without it processes those archives again to add them.
Workers parse archives in parallel processes (`pipeline.stage_archive`); this
process is the single writer and loads their output in batches (`db.store.Store.load`).
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import duckdb

from extract.db.store import Store
from extract.pipeline import (
    EXTRACTOR_VERSION,
    StagedArchive,
    archive_identity,
    file_sha256,
    stage_archive,
)
from extract.progress import Progress

# A batch is loaded as soon as the previous load is done, and at the latest when it
# holds this many messages or archives, or is this old: loads keep pace with the
# workers, and a killed run loses little work.
BATCH_MESSAGES = 20_000
BATCH_ARCHIVES = 50
BATCH_SECONDS = 2.0


class RunError(Exception):
    """The run could not start: no data dir, no archives, the database is locked."""


@dataclass(slots=True)
class RunSummary:
    archives: int  # archives found under raw/
    processed: int  # archives (re)extracted by this run
    messages: int  # messages read by this run
    errors: int  # errors rows written by this run
    db: Path
    db_messages: int  # messages in the database after the run
    db_errors: int
    line: str  # the closing `key=value` line the CLI prints


def run(
    data_dir: str | Path,
    *,
    db: str | Path | None = None,
    workers: int | None = None,
    full: bool = False,
    messages_only: bool = False,
    progress_stream: TextIO | None = None,
) -> RunSummary:
    """Extract every archive under `data_dir`/raw into `db` (default
    `data_dir`/asf.duckdb) with `workers` processes (default: the machine's cores).
    Raises `RunError` when the run cannot start."""
    data_dir = Path(data_dir)
    workers = workers or os.cpu_count() or 1
    if workers < 1:
        raise RunError("workers must be at least 1")
    if not data_dir.is_dir():
        raise RunError(f"data dir {data_dir} does not exist")
    archives = find_archives(data_dir)
    if not archives:
        raise RunError(
            f"no archives found under {data_dir / 'raw'} "
            "(expected raw/<domain>/<list>/<YYYY-MM>.mbox.gz; run `make crawl` first)"
        )
    db_path = Path(db) if db else data_dir / "asf.duckdb"
    pool = _worker_pool(workers) if len(archives) > 1 else None
    try:
        return _extract(
            data_dir, db_path, archives, pool, workers, full, messages_only, progress_stream
        )
    finally:
        if pool is not None:
            # Not waiting for the workers to exit (half a second): the interpreter
            # joins them before it exits.
            pool.shutdown(wait=False, cancel_futures=True)


def find_archives(data_dir: Path) -> list[Path]:
    return sorted(p for p in (data_dir / "raw").glob("**/*.mbox.gz") if p.is_file())


def _worker_pool(n: int) -> ProcessPoolExecutor:
    """n worker processes, started now, before this process opens DuckDB: forked
    while it runs no other thread (forking a multi-threaded process can deadlock the
    child), they start in milliseconds with every module imported, where spawned
    ones take half a second to import them. Spawned where fork is unavailable."""
    fork = "fork" in multiprocessing.get_all_start_methods() and _single_threaded()
    pool = ProcessPoolExecutor(
        n, mp_context=multiprocessing.get_context("fork" if fork else "spawn")
    )
    if fork:
        pool.submit(os.getpid)  # the first task forks them (spawned ones start on demand)
    return pool


def _single_threaded() -> bool:
    """Whether this process runs one thread, native ones included (DuckDB's threads
    are invisible to `threading`); False where /proc cannot tell."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def _extract(
    data_dir: Path,
    db_path: Path,
    archives: list[Path],
    pool: ProcessPoolExecutor | None,
    workers: int,
    full: bool,
    messages_only: bool,
    progress_stream: TextIO | None,
) -> RunSummary:
    try:
        store = Store(db_path, full=full)
    except duckdb.Error as exc:  # e.g. another process holds the database's lock
        raise RunError(f"cannot open {db_path}: {exc}") from exc
    with store:
        known = store.known_archives()
        results = not messages_only
        todo = []
        for path in archives:
            sha = _sha(path)
            old = known.get(archive_identity(path, data_dir)[0], (None, False, None))
            old_sha, had_results, old_code = old
            if (
                sha is None
                or old_sha != sha
                or old_code != EXTRACTOR_VERSION  # extracted by other code: redo it
                or (results and not had_results)
            ):
                todo.append(path)
        progress = Progress(len(todo), progress_stream)
        staged = _staged(todo, data_dir, store.tmp_dir, pool, workers, results)
        _load_in_batches(staged, store, progress)
        progress.finish()
        n_stored, n_err = store.con.execute(
            "SELECT (SELECT count(*) FROM messages), (SELECT count(*) FROM errors)"
        ).fetchone()
    line = progress.summary(
        unchanged=len(archives) - len(todo), db=db_path, db_messages=n_stored, db_errors=n_err
    )
    return RunSummary(
        archives=len(archives),
        processed=len(todo),
        messages=progress.messages,
        errors=progress.errors,
        db=db_path,
        db_messages=n_stored,
        db_errors=n_err,
        line=line,
    )


def _sha(path: Path) -> str | None:
    """The archive's sha256, or None when it cannot be read (it is then processed, and
    the worker records why it failed)."""
    try:
        return file_sha256(path)
    except OSError:
        return None


def _staged(
    todo: list[Path],
    data_dir: Path,
    stage_dir: Path,
    pool: ProcessPoolExecutor | None,
    n: int,
    results: bool,
) -> Iterator[StagedArchive]:
    """Staged archives as they are done, from the pool's n workers with at most 2n
    archives in flight (bounded memory and disk); a single archive is read right
    here."""
    if pool is None or len(todo) <= 1:
        for path in todo:
            yield stage_archive(path, data_dir, stage_dir, results)
        return
    pending = iter(todo)
    in_flight: set = set()
    # A single worker leaves the JSON encoding to this process, which then has a core
    # of its own; the encoding for several would make it their bottleneck (0.05 ms a
    # message on top of DuckDB's 0.06, against a worker's 0.16 when it only reads).
    encode = not (n == 1 and (os.cpu_count() or 1) > 1)
    while True:
        while len(in_flight) < 2 * n and (path := next(pending, None)) is not None:
            in_flight.add(pool.submit(stage_archive, path, data_dir, stage_dir, results, encode))
        if not in_flight:
            return
        done, in_flight = wait(in_flight, return_when=FIRST_COMPLETED)
        for fut in done:
            yield fut.result()


def _load_in_batches(staged: Iterator[StagedArchive], store: Store, progress: Progress) -> None:
    """The single writer: one transaction per batch of archives. A batch loads in a
    thread of its own while this one collects the next from the workers, so that
    they never wait for the database (DuckDB releases the GIL while it loads)."""
    batch: list[StagedArchive] = []
    batch_messages, batch_started = 0, time.monotonic()
    loader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="load")
    loading: tuple[Future, list[StagedArchive]] | None = None

    def wait_for_load() -> None:
        nonlocal loading
        if loading is not None:
            future, loaded = loading
            loading = None
            future.result()  # a failed load stops the run here, its error intact
            for s in loaded:
                a = s.archive
                progress.update(messages=a["n_messages"], errors=a["n_errors"], size=a["size"] or 0)

    def flush() -> None:
        nonlocal batch, batch_messages, batch_started, loading
        wait_for_load()  # one load at a time: a single writer, and bounded disk
        loading = (loader.submit(store.load, batch), batch)
        batch, batch_messages, batch_started = [], 0, time.monotonic()

    try:
        for s in staged:
            batch.append(s)
            batch_messages += s.archive["n_messages"]
            if loading is not None and loading[0].done():
                wait_for_load()
            # Load as soon as the loader is free (so the batch left at the end is
            # small), and at the latest when the batch is full or old.
            if (
                loading is None
                or batch_messages >= BATCH_MESSAGES
                or len(batch) >= BATCH_ARCHIVES
                or time.monotonic() - batch_started >= BATCH_SECONDS
            ):
                flush()
        if batch:
            flush()
        wait_for_load()
    finally:
        loader.shutdown(wait=True)
