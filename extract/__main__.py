"""`python -m extract --data-dir DIR [--db FILE] [--workers N] [--full] [--messages-only]`:
read every DIR/raw/**/*.mbox.gz into DIR/asf.duckdb. Exit status 0 when done (messages that
could not be read are in the `errors` table, not a failure of the run), 2 for
usage errors (no such data dir, no archives found).

Incremental: only archives whose sha256 differs from the one recorded in
`archives` (or that are not recorded), or that other extraction code extracted
(`archives.extractor`), are processed; `--full` rebuilds everything.
`--messages-only` stores the messages without looking for benchmark results (2.7x
as fast on the bench mix, for a first look at a big crawl); a later run without it
processes those archives again to add them.
Workers parse archives in parallel processes (`pipeline.stage_archive`); this
process is the single writer and loads their output in batches (`store.Store.load`).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

import duckdb

from extract.pipeline import (
    EXTRACTOR_VERSION,
    StagedArchive,
    archive_identity,
    file_sha256,
    stage_archive,
)
from extract.progress import Progress
from extract.store import Store

# A batch is committed when it holds this many messages or archives, or is this
# old, whichever comes first: big enough for bulk loads, small enough that a killed
# run loses little work.
BATCH_MESSAGES = 20_000
BATCH_ARCHIVES = 50
BATCH_SECONDS = 2.0


def find_archives(data_dir: Path) -> list[Path]:
    return sorted(p for p in (data_dir / "raw").glob("**/*.mbox.gz") if p.is_file())


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        prog="python -m extract",
        description="Read DATA_DIR/raw/**/*.mbox.gz into a DuckDB database.",
    )
    ap.add_argument("--data-dir", required=True, type=Path, help="the crawl's DATA_DIR")
    ap.add_argument("--db", type=Path, help="database file (default: DATA_DIR/asf.duckdb)")
    ap.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="parallel worker processes (default: the machine's cores)",
    )
    ap.add_argument("--full", action="store_true", help="rebuild instead of updating")
    ap.add_argument(
        "--messages-only",
        action="store_true",
        help="store the messages without looking for benchmark results "
        "(is_benchmark stays NULL; a later run without this flag adds them)",
    )
    args = ap.parse_args(argv)
    if args.workers < 1:
        ap.error("--workers must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    data_dir: Path = args.data_dir
    if not data_dir.is_dir():
        print(f"extract: data dir {data_dir} does not exist", file=sys.stderr)
        return 2
    archives = find_archives(data_dir)
    if not archives:
        print(
            f"extract: no archives found under {data_dir / 'raw'} "
            "(expected raw/<domain>/<list>/<YYYY-MM>.mbox.gz; run `make crawl` first)",
            file=sys.stderr,
        )
        return 2
    db_path = args.db or data_dir / "asf.duckdb"
    try:
        store = Store(db_path, full=args.full)
    except duckdb.Error as exc:  # e.g. another process holds the database's lock
        print(f"extract: cannot open {db_path}: {exc}", file=sys.stderr)
        return 2
    with store:
        known = store.known_archives()
        results = not args.messages_only
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
        progress = Progress(len(todo))
        staged = _staged(todo, data_dir, store.tmp_dir, args.workers, results)
        _load_in_batches(staged, store, progress)
        progress.finish()
        n_stored, n_err = store.con.execute(
            "SELECT (SELECT count(*) FROM messages), (SELECT count(*) FROM errors)"
        ).fetchone()
    print(
        progress.summary(
            unchanged=len(archives) - len(todo),
            db=db_path,
            db_messages=n_stored,
            db_errors=n_err,
        )
    )
    return 0


def _sha(path: Path) -> str | None:
    """The archive's sha256, or None when it cannot be read (it is then processed, and
    the worker records why it failed)."""
    try:
        return file_sha256(path)
    except OSError:
        return None


def _staged(
    todo: list[Path], data_dir: Path, stage_dir: Path, n: int, results: bool
) -> Iterator[StagedArchive]:
    """Staged archives as they are done, from a pool of n worker processes with at most
    2n archives in flight (bounded memory and disk), so that this process loads one
    batch while the workers read the next; a single archive is read right here."""
    if len(todo) <= 1:
        for path in todo:
            yield stage_archive(path, data_dir, stage_dir, results)
        return
    pending = iter(todo)
    in_flight: set = set()
    # Spawned, not forked: this process holds an open DuckDB connection (and its
    # threads), and forking a multi-threaded process can deadlock the child.
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=n, mp_context=ctx) as pool:
        while True:
            while len(in_flight) < 2 * n and (path := next(pending, None)) is not None:
                in_flight.add(pool.submit(stage_archive, path, data_dir, stage_dir, results))
            if not in_flight:
                return
            done, in_flight = wait(in_flight, return_when=FIRST_COMPLETED)
            for fut in done:
                yield fut.result()


def _load_in_batches(staged: Iterator[StagedArchive], store: Store, progress: Progress) -> None:
    """The single writer: one transaction per batch of archives."""
    batch: list[StagedArchive] = []
    batch_messages, batch_started = 0, time.monotonic()

    def flush() -> None:
        nonlocal batch, batch_messages, batch_started
        store.load(batch)
        for s in batch:
            a = s.archive
            progress.update(messages=a["n_messages"], errors=a["n_errors"], size=a["size"] or 0)
        batch, batch_messages, batch_started = [], 0, time.monotonic()

    for s in staged:
        batch.append(s)
        batch_messages += s.archive["n_messages"]
        if (
            batch_messages >= BATCH_MESSAGES
            or len(batch) >= BATCH_ARCHIVES
            or time.monotonic() - batch_started >= BATCH_SECONDS
        ):
            flush()
    if batch:
        flush()


if __name__ == "__main__":
    sys.exit(main())
