"""A disk that fills up during `python -m extract`: a real tmpfs too small for the
database (mounted by the test; skipped where it may not mount one). The run ends with
one line on stderr naming the place and the space needed, exit status 3, no staged
or temporary file left; once there is room a rerun completes, and a --full rebuild
that runs out of space leaves the old database as it was."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from extract.mail.mbox import read_mbox
from tests.archives import sample_as_archives

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def small_disk(tmp_path):
    mnt = tmp_path / "small"
    mnt.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(mnt)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace')}")

    def resize(nbytes: int) -> None:
        size = f"size={max(nbytes // 1024, 64)}k"
        subprocess.run(["mount", "-o", f"remount,{size}", str(mnt)], check=True)

    try:
        yield mnt, resize
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def _extract(data_dir: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "extract", "--data-dir", str(data_dir), "--workers", "1", *args],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def _used(path: Path) -> int:
    return shutil.disk_usage(path).used  # in the tmpfs's pages, as it counts them


def _leftovers(data_dir: Path) -> list[str]:
    """What a run may not leave behind: staged files, DuckDB's spill directory, a
    half-built --full database."""
    staged = list((data_dir / ".staging").glob("**/*"))  # the empty directory may stay
    return sorted(
        [str(p.relative_to(data_dir)) for p in staged]
        + [
            str(p.relative_to(data_dir))
            for p in data_dir.iterdir()
            if p.name == "asf.duckdb.tmp" or p.name.startswith("asf.duckdb.new")
        ]
    )


def _messages(db: Path) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT count(*) FROM messages").fetchone()[0]
    finally:
        con.close()


def _assert_one_line_disk_full(done: subprocess.CompletedProcess, where: Path) -> None:
    assert done.returncode == 3, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"extract: disk full under {where}: the rest needs about ")
    assert "free now" in lines[0] and "Traceback" not in done.stderr


def test_disk_full_is_one_line_leaves_nothing_and_a_rerun_completes(small_disk):
    mnt, resize = small_disk
    sample_as_archives(mnt)
    for extra in sorted((mnt / "raw").glob("*/*/*.mbox.gz"))[12:]:  # a dozen are enough
        extra.unlink()
    n = sum(len(list(read_mbox(p))) for p in (mnt / "raw").glob("*/*/*.mbox.gz"))
    raw = _used(mnt)
    # Room for the archives and a part of the database (3x their size in the end).
    resize(2 * raw)
    done = _extract(mnt)
    _assert_one_line_disk_full(done, mnt)
    assert _leftovers(mnt) == []
    # What it committed was published when the last checkpoint found room, and the
    # line says which.
    kept = done.stderr.strip().endswith("what was committed is kept")
    assert kept == (mnt / "asf.duckdb").exists(), done.stderr
    assert kept or done.stderr.strip().endswith("the database is as it was")

    resize(64 * 2**20)
    again = _extract(mnt)
    assert again.returncode == 0, again.stderr
    assert _messages(mnt / "asf.duckdb") == n
    assert _leftovers(mnt) == []

    # A --full rebuild needs room for a second database: without it the old one stays.
    resize(_used(mnt) + raw // 2)
    full = _extract(mnt, "--full")
    _assert_one_line_disk_full(full, mnt)
    assert full.stderr.strip().endswith("the database is as it was")
    assert _leftovers(mnt) == []
    assert _messages(mnt / "asf.duckdb") == n
