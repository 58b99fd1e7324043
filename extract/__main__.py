"""`python -m extract --data-dir DIR [--db FILE] [--workers N] [--full] [--messages-only]
[--scheduler ADDRESS]`:
read every DIR/raw/**/*.mbox.gz into DIR/asf.duckdb (see `extract.runner`).

Exit status:
  0  the run completed: messages and archives that could not be read or stored are
     rows in the `errors` table, not a failure of the run;
  1  some archives could not be stored, not even as an `errors` row (listed on
     stderr; the next run tries them again; a --full run then keeps the old database);
  2  the run could not start (no such data dir, no archives found, another extraction
     runs, or a process has the database open for writing; readers never stop it);
  3  the disk filled up: one line names where and about how much more space is needed;
     what was committed before is kept, the staged files are removed, a rerun goes on;
130  interrupted (Ctrl-C): says how many archives were committed; a rerun goes on, and
     an interrupted --full leaves the database as it was.

`--messages-only` stores the messages without looking for benchmark results (2.7x as
fast on the bench mix, for a first look at a big crawl).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path


def _interrupted_early(*_) -> None:
    print("extract: interrupted before anything was stored", file=sys.stderr)
    sys.exit(130)


if __name__ == "__main__":
    # Ctrl-C while the modules load (seconds on a busy machine) exits as quietly as
    # Ctrl-C later does; `main` puts Python's handler back.
    signal.signal(signal.SIGINT, _interrupted_early)

from extract.db.store import UNREAD_PREFIX  # noqa: E402
from extract.runner import DiskFull, Interrupted, RunError, run  # noqa: E402

# Unread files named on stderr; the rest are in the errors table.
UNREAD_SHOWN = 50


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        prog="python -m extract",
        description="Read DATA_DIR/raw/**/*.mbox.gz into a DuckDB database.",
        epilog="exit status: 0 completed (what could not be read or stored is in the "
        "errors table); 1 some archives could not be stored (listed on stderr); "
        "2 could not start (no data dir, no archives, another run, a writer in place); "
        "3 disk full (the line says where and how much is needed); "
        "130 interrupted (what was committed is kept)",
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
    ap.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on a Dask cluster: local:N starts N local workers, else the scheduler's "
        "address or file; needs the cluster extra (see extract/cluster.py)",
    )
    args = ap.parse_args(argv)
    if args.workers < 1:
        ap.error("--workers must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    if signal.getsignal(signal.SIGINT) is _interrupted_early:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    args = parse_args(argv)
    try:
        summary = run(
            args.data_dir,
            db=args.db,
            workers=args.workers,
            full=args.full,
            messages_only=args.messages_only,
            scheduler=args.scheduler,
        )
    except RunError as exc:
        print(f"extract: {exc}", file=sys.stderr)
        return 2
    except DiskFull as exc:
        print(f"extract: {exc}", file=sys.stderr)
        return 3
    except Interrupted as exc:
        print(f"extract: {exc}", file=sys.stderr)
        return 130
    except KeyboardInterrupt:  # before the database was opened
        print("extract: interrupted before anything was stored", file=sys.stderr)
        return 130
    print(summary.line)
    if summary.unread:
        print(
            f"extract: {len(summary.unread)} files or folders under raw/ not read "
            "(errors rows, stage read):",
            file=sys.stderr,
        )
        for path, reason in summary.unread[:UNREAD_SHOWN]:
            print(f"  {path}: {reason.removeprefix(UNREAD_PREFIX)}", file=sys.stderr)
        if len(summary.unread) > UNREAD_SHOWN:
            rest = len(summary.unread) - UNREAD_SHOWN
            print(f"  ... and {rest} more: SELECT archive, reason FROM errors", file=sys.stderr)
    if summary.unstored:
        print(f"extract: {len(summary.unstored)} archives could not be stored:", file=sys.stderr)
        for item in summary.unstored:
            print(f"  {item}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
