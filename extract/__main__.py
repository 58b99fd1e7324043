"""`python -m extract --data-dir DIR [--db FILE] [--workers N] [--full]`: read every
DIR/raw/**/*.mbox.gz into DIR/asf.duckdb. Exit status 0 when done (messages that
could not be read are in the `errors` table, not a failure of the run), 2 for
usage errors (no such data dir, no archives found).

Incremental: only archives whose sha256 differs from the one recorded in
`archives` (or that are not recorded) are processed; `--full` rebuilds everything.
Workers parse archives in parallel processes (`pipeline.stage_archive`); this
process is the single writer and loads their output in batches (`store.Store.load`).
"""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

from extract.pipeline import archive_identity, file_sha256, stage_archive
from extract.progress import Progress
from extract.store import Store

# A batch is committed when it holds this many messages or archives, whichever first.
BATCH_MESSAGES = 20_000
BATCH_ARCHIVES = 200


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
    with Store(db_path, full=args.full) as store:
        known = store.known_archives()
        todo = [
            p for p in archives if known.get(archive_identity(p, data_dir)[0]) != file_sha256(p)
        ]
        progress = Progress(len(todo))
        if args.workers == 1 or len(todo) <= 1:
            for path in todo:
                _load([stage_archive(path, data_dir, store.tmp_dir)], store, progress)
        else:
            _run_pool(todo, data_dir, store, progress, args.workers)
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


def _load(staged, store: Store, progress: Progress) -> None:
    store.load(staged)
    for s in staged:
        a = s.archive
        progress.update(messages=a["n_messages"], errors=a["n_errors"], size=a["size"])


def _run_pool(todo: list[Path], data_dir: Path, store: Store, progress: Progress, n: int) -> None:
    """Workers stage archives; this process loads them in batches. At most 2n archives
    are in flight, so memory and temporary files stay bounded."""
    pending = iter(todo)
    in_flight = set()
    batch, batch_messages = [], 0
    with ProcessPoolExecutor(max_workers=n) as pool:

        def submit_more() -> None:
            while len(in_flight) < 2 * n:
                path = next(pending, None)
                if path is None:
                    return
                in_flight.add(pool.submit(stage_archive, path, data_dir, store.tmp_dir))

        submit_more()
        while in_flight:
            done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            for fut in done:
                in_flight.discard(fut)
                staged = fut.result()
                batch.append(staged)
                batch_messages += staged.archive["n_messages"]
            submit_more()
            if batch_messages >= BATCH_MESSAGES or len(batch) >= BATCH_ARCHIVES or not in_flight:
                _load(batch, store, progress)
                batch, batch_messages = [], 0


if __name__ == "__main__":
    sys.exit(main())
