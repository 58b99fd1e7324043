"""Inputs that cannot be archives get `errors` rows that say why: a directory under
raw/ that cannot be listed (a real permission error: as root the run goes without
the capabilities that bypass file modes), and a file named .mbox.gz that is not gzip
(an HTML page saved under the name)."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
from pathlib import Path

import duckdb

from tests.archives import to_mbox, write_archive
from tests.mail.mboxes import users_month

REPO = Path(__file__).resolve().parents[1]
PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH = 24, 1, 2


def _errors(db: Path) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(
            "SELECT archive, position, stage, reason FROM errors ORDER BY archive"
        ).fetchall()
    finally:
        con.close()


def _without_dac_override() -> None:
    """In the child, before exec: root without the capabilities that bypass file
    modes (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH), so a mode of 000 stops it as it
    stops a user."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def _extract(data_dir: Path) -> subprocess.CompletedProcess:
    extra = {"preexec_fn": _without_dac_override} if os.geteuid() == 0 else {}
    return subprocess.run(
        [sys.executable, "-m", "extract", "--data-dir", str(data_dir), "--workers", "1"],
        cwd=REPO, capture_output=True, text=True, timeout=300, **extra,
    )  # fmt: skip


def test_unreadable_directory_and_non_gzip_archive_become_errors_rows(tmp_path):
    data_dir = tmp_path
    try:
        write_archive(data_dir, "dev@ok.apache.org", "2020-01", to_mbox(users_month("2020-01", 2)))
        locked = data_dir / "raw" / "locked.apache.org" / "dev"
        write_archive(
            data_dir, "dev@locked.apache.org", "2020-01", to_mbox(users_month("2020-01", 2))
        )
        html = data_dir / "raw" / "ok.apache.org" / "dev" / "2020-02.mbox.gz"
        html.write_bytes(b"<html><body>502 Bad Gateway</body></html>\n")
        locked.chmod(0o000)

        done = _extract(data_dir)
        assert done.returncode == 0, done.stderr
        errors = _errors(data_dir / "asf.duckdb")
        assert errors == [
            ("raw/locked.apache.org/dev/", None, "read",
             "directory not readable: Permission denied"),
            ("raw/ok.apache.org/dev/2020-02.mbox.gz", None, "read",
             "not a gzip file: it starts with b'<html><body>502 '"),
        ]  # fmt: skip

        # Readable again: its row goes, its archive comes in.
        locked.chmod(0o755)
        again = _extract(data_dir)
        assert again.returncode == 0, again.stderr
        assert [e[0] for e in _errors(data_dir / "asf.duckdb")] == [
            "raw/ok.apache.org/dev/2020-02.mbox.gz"
        ]
    finally:
        with_mode = data_dir / "raw" / "locked.apache.org" / "dev"
        if with_mode.exists():
            with_mode.chmod(0o755)
