"""`python -m extract.outputs.report --data-dir DIR [--db FILE] [--out DIR]`: writes the static
report (DIR/report/index.html by default) and prints where it is."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import duckdb

from extract.outputs.connect import DatabaseUnavailable, stale_hint
from extract.outputs.report import build_report
from extract.version import add_version_argument


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m extract.outputs.report",
        description="Build the static HTML report from the database.",
    )
    parser.add_argument("--data-dir", type=Path, default=Path("data"), help="default: data")
    parser.add_argument("--db", type=Path, help="database file (default: DATA_DIR/asf.duckdb)")
    parser.add_argument("--out", type=Path, help="output directory (default: DATA_DIR/report)")
    add_version_argument(parser)
    args = parser.parse_args(argv)
    db = args.db or args.data_dir / "asf.duckdb"
    out = args.out or args.data_dir / "report"
    try:
        summary = build_report(db, out)
    except (DatabaseUnavailable, OSError, duckdb.Error) as exc:
        print(f"report: {exc}{stale_hint(exc)}", file=sys.stderr)
        return 1
    print(f"report: {summary.index} ({summary.n_messages} message pages)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
