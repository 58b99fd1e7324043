"""Readers never wait for a run, and never make one fail (issue 28): a notebook-like
reader opened before `make extract`, one opened while it runs, and one opened after
each see a whole database (every archive's rows complete: the count invariant; the
archives of before the run or of after it, nothing in between), for an update and
for `ARGS=--full`; and the run succeeds with them open."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tests.archives import write_archive
from tests.mail.mboxes import commits_month, foal_month, users_month

REPO = Path(__file__).resolve().parents[1]

MONTHS = [
    foal_month("commits", "ponymail.apache.org", commits_month(15)),
    foal_month("users", "ponymail.apache.org", users_month("2019-09", 5)),
]

# What a reader sees of the database: the archives, and whether each one's rows are
# whole (messages + message errors = n_messages).
READER = """
import duckdb, sys
con = duckdb.connect(sys.argv[1], read_only=True)
def look():
    archives, whole = con.execute('''
        SELECT count(*), bool_and(n_messages = (SELECT count(*) FROM messages m
                                                WHERE m.archive = a.path)
                                  + (SELECT count(*) FROM errors e
                                     WHERE e.archive = a.path AND e.position IS NOT NULL))
        FROM archives a''').fetchone()
    print(archives, whole, flush=True)
look()
for _ in sys.stdin:  # each line: look again, on the same connection
    look()
"""


class Reader:
    def __init__(self, db: Path):
        self.proc = subprocess.Popen(
            [sys.executable, "-c", READER, str(db)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        self.first = self._read()

    def _read(self) -> tuple[int, bool]:
        line = self.proc.stdout.readline()
        assert line, self.proc.stderr.read()
        archives, whole = line.split()
        return int(archives), whole == "True"

    def again(self) -> tuple[int, bool]:
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)
        self.proc.stdout.close()
        self.proc.stderr.close()


def archives(data_dir: Path, first: int, last: int) -> None:
    for i in range(first, last):
        write_archive(data_dir, f"r{i % 10}@read.apache.org", f"2019-{i // 10 + 1:02d}",
                      MONTHS[i % 2])  # fmt: skip


def make_extract(data_dir: Path, args: str = "") -> subprocess.Popen:
    # -o: the venv counts as installed (the test runs in it), so make never reinstalls.
    return subprocess.Popen(
        ["make", "-s", "-o", ".venv/.installed", "extract", f"DATA_DIR={data_dir}",
         "WORKERS=2", f"ARGS={args}"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def test_readers_before_during_and_after_a_run(tmp_path):
    db = tmp_path / "asf.duckdb"
    archives(tmp_path, 0, 20)
    first = make_extract(tmp_path)
    assert first.wait(timeout=300) == 0, first.stderr.read()
    first.stdout.close()
    first.stderr.close()
    archives(tmp_path, 20, 60)  # 40 more for the update
    for args, after in (("", 60), ("--full", 60)):
        before = Reader(db)  # open before the run, and all along
        assert before.first in ((20, True), (60, True))
        old = before.first[0]
        run = make_extract(tmp_path, args)
        try:
            # during: once the run works on its copy
            deadline = time.monotonic() + 120
            while not (tmp_path / "asf.duckdb.new").exists() and time.monotonic() < deadline:
                time.sleep(0.01)
            during = Reader(db)
            assert run.poll() is None, "the run ended before a reader could open during it"
            assert during.first == (old, True)
            out, err = run.communicate(timeout=300)
            assert run.returncode == 0, err
            assert "db_messages=" in out and "Traceback" not in err
            # Readers keep the database they opened, whole; a new one sees the run's.
            assert before.again() == during.again() == (old, True)
            during.close()
        finally:
            before.close()
            if run.poll() is None:
                run.kill()
        after_reader = Reader(db)
        assert after_reader.first == (after, True)
        after_reader.close()
        assert not (tmp_path / "asf.duckdb.new").exists()
