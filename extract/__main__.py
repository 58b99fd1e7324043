"""`python -m extract --data-dir DIR [--db FILE] [--workers N] [--full] [--messages-only]`:
read every DIR/raw/**/*.mbox.gz into DIR/asf.duckdb (see `extract.runner`).

Exit status:
  0  the run completed: messages and archives that could not be read or stored are
     rows in the `errors` table, not a failure of the run;
  1  some archives could not be stored, not even as an `errors` row (listed on
     stderr; the next run tries them again; a --full run then keeps the old database);
  2  the run could not start (no such data dir, no archives found, database locked).

`--messages-only` stores the messages without looking for benchmark results (2.7x as
fast on the bench mix, for a first look at a big crawl).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from extract.runner import RunError, run


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        prog="python -m extract",
        description="Read DATA_DIR/raw/**/*.mbox.gz into a DuckDB database.",
        epilog="exit status: 0 completed (what could not be read or stored is in the "
        "errors table); 1 some archives could not be stored (listed on stderr); "
        "2 could not start (no data dir, no archives, database locked)",
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
    try:
        summary = run(
            args.data_dir,
            db=args.db,
            workers=args.workers,
            full=args.full,
            messages_only=args.messages_only,
        )
    except RunError as exc:
        print(f"extract: {exc}", file=sys.stderr)
        return 2
    print(summary.line)
    if summary.unstored:
        print(f"extract: {len(summary.unstored)} archives could not be stored:", file=sys.stderr)
        for item in summary.unstored:
            print(f"  {item}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
