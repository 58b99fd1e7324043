"""Ctrl-C, as a terminal sends it (SIGINT to the whole process group): `make extract`
says how many archives it committed and exits 130 without a traceback, and the
database holds exactly those; an interrupted --full leaves the database as it was;
in the SQL prompt Ctrl-C stops the running statement and the prompt goes on."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from extract.db.store import Store
from tests.archives import sample_as_archives

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.e2e


def _many_archives(data_dir: Path, copies: int = 2) -> int:
    """The sample's archives under `copies` list names: enough work to interrupt."""
    sample_as_archives(data_dir)
    raw = data_dir / "raw"
    originals = sorted(raw.glob("*/*/*.mbox.gz"))
    for i in range(1, copies):
        for path in originals:
            target = raw / path.parent.parent.name / f"{path.parent.name}-copy{i}" / path.name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    return len(originals) * copies


def _interrupt_extract(data_dir: Path, *args: str) -> subprocess.CompletedProcess:
    """Start an extraction, Ctrl-C it once it has loaded a first batch: the writer
    removes a batch's staged files once it is committed, so a staged file seen and
    then gone says one is in (a fixed delay says nothing on a slow or a fast machine)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "extract", "--data-dir", str(data_dir), "--workers", "2", *args],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    staging = data_dir / ".staging"
    deadline = time.monotonic() + 120
    seen: set[Path] = set()
    while proc.poll() is None:
        assert time.monotonic() < deadline, "the run never loaded a batch"
        now = {p for p in staging.glob("*/**/*") if p.is_file()} if staging.is_dir() else set()
        if seen - now:
            break
        seen |= now
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _count(db: Path, table: str) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    finally:
        con.close()


def test_ctrl_c_in_extract_keeps_what_it_committed_and_full_keeps_the_old_db(tmp_path):
    total = _many_archives(tmp_path)
    db = tmp_path / "asf.duckdb"
    done = _interrupt_extract(tmp_path)
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("extract: interrupted: ") and line.endswith(
        f" of {total} archives committed; the next run does the rest"
    )
    committed = int(line.split()[2])
    assert _count(db, "archives") == committed < total
    assert not list((tmp_path / ".staging").glob("**/*"))  # no staged file left

    again = subprocess.run(
        [sys.executable, "-m", "extract", "--data-dir", str(tmp_path), "--workers", "2"],
        cwd=REPO, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert f"unchanged={committed}" in again.stdout
    assert _count(db, "archives") == total
    messages = _count(db, "messages")

    full = _interrupt_extract(tmp_path, "--full")
    assert full.returncode == 130, full.stderr
    assert full.stderr.strip() == (
        "extract: interrupted: --full rebuild dropped, the database is as it was before"
    )
    assert (_count(db, "archives"), _count(db, "messages")) == (total, messages)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".staging", "asf.duckdb", "raw"]
    assert not list((tmp_path / ".staging").glob("**/*"))


def test_ctrl_c_in_the_sql_prompt_stops_the_statement_not_the_prompt(tmp_path):
    db = tmp_path / "asf.duckdb"
    Store(db).close()  # an empty database with its tables and views
    # (a child inherits an ignored or blocked SIGINT from the test run, whatever ran
    # before in it: the prompt would never see the Ctrl-C. It is started as a shell
    # starts a command, SIGINT at its default and unblocked)
    handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    mask = signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "extract.outputs.sql", "--db", str(db)],
            cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        signal.signal(signal.SIGINT, handler)
    proc.stdin.write("SELECT count(*) FROM range(1000000000000) a;\n")
    proc.stdin.flush()
    # (the banner: the prompt is up and reads the statement next. A fixed delay from the
    # start raced a loaded machine's slow start: Ctrl-C came before the prompt did)
    assert proc.stdout.readline().startswith("connected to")
    time.sleep(1.5)  # the statement runs (for hours, left alone)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate("SELECT 6 * 7 AS answer;\n.quit\n", timeout=120)
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert "interrupted" in out
    assert "answer" in out and "42" in out.split("interrupted", 1)[1]
