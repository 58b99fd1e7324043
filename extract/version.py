"""The project's version, as the CLIs' `--version` prints it: the installed
distribution's (pyproject.toml), with the DuckDB and Python it runs on, which decide
what a database file is and reads."""

from __future__ import annotations

import argparse
import platform
from importlib import metadata

DISTRIBUTION = "asf-bench-mail"


def version() -> str:
    """`asf-bench-mail 0.1.0 (duckdb 2.0.1, python 3.11.7)`."""
    try:
        own = metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:  # run from a checkout that is not installed
        own = "unknown (not installed: make install)"
    try:
        duckdb = metadata.version("duckdb")
    except metadata.PackageNotFoundError:
        duckdb = "not installed"
    return f"{DISTRIBUTION} {own} (duckdb {duckdb}, python {platform.python_version()})"


class _Version(argparse.Action):
    """Prints the version on one line (argparse's own action wraps it) and exits 0."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"{parser.prog}: {version()}")
        parser.exit()


def add_version_argument(parser: argparse.ArgumentParser) -> None:
    """`--version`: print `version()` and exit 0."""
    parser.add_argument("--version", action=_Version, nargs=0, help="print the version and exit")
