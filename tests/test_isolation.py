"""Nothing in one archive stops a run, and a killed run leaves no debris (issue 12).

Each finding is tested on its kind of input, through `python -m extract` in a
subprocess (a fresh process forks its workers, so a fault injected by the driver
below reaches them), on archives built with tests/mail/mboxes.py:
- a row DuckDB refuses: its batch is loaded archive by archive, the archive becomes an
  archive-level `errors` row, the others are stored, with and without `--full`;
  an archive that cannot even be recorded makes the run exit 1 and keeps the old
  database under `--full`;
- a message whose parser stalls: an `errors` row naming the parser, within the budget;
- `kill -9` at random points, of the run alone (its workers must exit by themselves)
  and of a `--full` run (the old database stays as it was): after a rerun no staged
  files, no `.new` database and no worker remain, and the database holds the same
  rows as a clean run's.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import duckdb
import pytest

from extract import pipeline
from extract.db.staging import remove_stale
from tests.archives import to_mbox, write_archive
from tests.conftest import seed, time_limit
from tests.mail.mboxes import commits_month, foal_month, make_message, users_month

REPO = Path(__file__).resolve().parents[1]

# Runs `python -m extract` with faults injected first (workers are forked from it, so
# they inherit them): POISON makes the message `poison@x` a row DuckDB refuses,
# UNRECORDABLE makes recording that archive's failure fail too, STALL makes every
# format parser spin forever on a text with STALL-ME, BUDGET sets the message budget.
DRIVER = """
import os, sys
import extract.pipeline as p
from extract.__main__ import main
if os.environ.get("POISON"):
    real_rows = p._message_rows
    def poisoned(raw, *args):
        message, tables, measurements = real_rows(raw, *args)
        if message["message_id"] == "poison@x":
            message = {**message, "position": "not a number"}
        return message, tables, measurements
    p._message_rows = poisoned
if os.environ.get("UNRECORDABLE"):
    from extract.db.store import Store
    real_replace = Store.replace
    def replace(self, batch):
        batch = list(batch)
        if any("poison" in rows.archive["path"] for rows in batch):
            raise OSError("disk full (injected)")
        return real_replace(self, batch)
    Store.replace = replace
if os.environ.get("STALL"):
    from extract.results import formats
    def stall(parse):
        def parse_or_stall(text):
            while "STALL-ME" in text:
                pass
            return parse(text)
        return parse_or_stall
    for mod in formats.PARSERS:
        mod.parse = stall(mod.parse)
if os.environ.get("BUDGET"):
    p.MESSAGE_BUDGET_SECONDS = float(os.environ["BUDGET"])
sys.exit(main(sys.argv[1:]))
"""


def extract(data_dir: Path, *args: str, env: dict | None = None, **kw) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", DRIVER, "--data-dir", str(data_dir), *args],
        cwd=REPO,
        env={**os.environ, **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: cleaned up whatever happens
        **kw,
    )


def finish(proc: subprocess.Popen, timeout: float = 120) -> tuple[int, str, str]:
    try:
        out, err = proc.communicate(timeout=timeout)
    finally:
        _kill_group(proc)
    return proc.returncode, out, err


def _kill_group(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


def query(db: Path, sql: str) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def snapshot(db: Path) -> tuple:
    """Every row of every table (extracted_at aside: it says when)."""
    return (
        query(db, "SELECT * EXCLUDE (sent_at), sent_at::VARCHAR FROM messages ORDER BY msg_key"),
        query(db, "SELECT * FROM errors ORDER BY ALL"),
        query(db, "SELECT * EXCLUDE (extracted_at) FROM archives ORDER BY path"),
        query(db, "SELECT * FROM result_tables ORDER BY table_id"),
        query(db, "SELECT * FROM measurements ORDER BY msg_key, ordinal"),
    )


def count_invariant(db: Path) -> None:
    """Every message of an archive is stored or in `errors`, or both (a message that ran
    out of time is stored with an `errors` row): n_messages positions in all."""
    rows = query(
        db,
        """SELECT a.path, a.n_messages,
                  (SELECT count(DISTINCT position) FROM (
                       SELECT position FROM messages m WHERE m.archive = a.path
                       UNION ALL SELECT position FROM errors e
                       WHERE e.archive = a.path AND e.position IS NOT NULL))
           FROM archives a""",
    )
    assert rows and all(n == seen for _, n, seen in rows), rows


def small_archives(data_dir: Path, poison: bool = True) -> None:
    users = users_month("2019-09", 4)
    for i in range(4):
        write_archive(data_dir, f"l{i}@p.apache.org", "2020-01",
                      foal_month(f"l{i}", "p.apache.org", users))  # fmt: skip
    if poison:
        msgs = [make_message("first", message_id="fine@x"),
                make_message("second", message_id="poison@x")]  # fmt: skip
        write_archive(data_dir, "poison@p.apache.org", "2020-01", to_mbox(msgs))


POISON_PATH = "raw/p.apache.org/poison/2020-01.mbox.gz"


# ------------------------------------------------------------------ a row DuckDB refuses


@pytest.mark.parametrize("full", [False, True])
def test_a_row_the_database_refuses_costs_only_its_archive(tmp_path, full):
    small_archives(tmp_path, poison=False)
    db = tmp_path / "asf.duckdb"
    assert finish(extract(tmp_path, "--workers", "2"))[0] == 0
    before = snapshot(db)
    small_archives(tmp_path)  # now with the poisoned archive
    args = ("--workers", "2", *(["--full"] if full else []))
    code, out, err = finish(extract(tmp_path, *args, env={"POISON": "1"}))
    assert code == 0, err
    assert "Traceback" not in err
    after = snapshot(db)
    # the other archives are all there, as they were
    assert [m for m in after[0] if m[2] != POISON_PATH] == before[0]
    assert [a for a in after[2] if a[0] != POISON_PATH] == before[2]
    ((path, position, _, stage, reason),) = after[1]
    assert (path, position, stage) == (POISON_PATH, None, "store")
    assert reason.startswith("archive not stored:") and "not a number" in reason
    assert query(db, f"SELECT sha256, n_messages FROM archives WHERE path = '{POISON_PATH}'") == [
        (None, 0)
    ]  # retried by the next run
    count_invariant(db)
    # The next run (the fault gone) stores the archive.
    assert finish(extract(tmp_path))[0] == 0
    assert query(db, f"SELECT count(*) FROM messages WHERE archive = '{POISON_PATH}'") == [(2,)]
    assert query(db, "SELECT count(*) FROM errors") == [(0,)]


@pytest.mark.parametrize("full", [False, True])
def test_an_archive_that_cannot_be_recorded_exits_1(tmp_path, full):
    small_archives(tmp_path, poison=False)
    db = tmp_path / "asf.duckdb"
    assert finish(extract(tmp_path))[0] == 0
    before = snapshot(db)
    small_archives(tmp_path)
    if full:  # a --full rebuild that would lose an archive keeps the old database
        (tmp_path / "raw" / "p.apache.org" / "l0" / "2020-01.mbox.gz").unlink()
    env = {"POISON": "1", "UNRECORDABLE": "1"}
    code, out, err = finish(extract(tmp_path, *(["--full"] if full else []), env=env))
    assert code == 1
    assert f"extract: 1 archives could not be stored:\n  {POISON_PATH}: archive not stored" in err
    assert "disk full (injected)" in err and "Traceback" not in err
    assert "unstored=1" in out
    assert snapshot(db) == before  # nothing of the archive, the rest untouched
    assert not (tmp_path / "asf.duckdb.new").exists()
    assert list((tmp_path / ".staging").iterdir()) == []


# ------------------------------------------------------------------ a worker that dies


@pytest.mark.parametrize("times", [1, 2])
def test_a_worker_that_dies_costs_at_most_its_archive_and_prints_no_traceback(tmp_path, times):
    """A worker killed on an archive breaks the pool: the archives it took along are
    tried again, the one it died on too; dying again makes that one an `errors` row."""
    small_archives(tmp_path, poison=False)
    msgs = [make_message("first", message_id="fine@x"), make_message("x", message_id="die@x")]
    write_archive(tmp_path, "die@p.apache.org", "2020-01", to_mbox(msgs))
    deaths = tmp_path / "deaths"
    # Every process started from here (the pool's workers, forked or spawned) runs this
    # first: the worker on message die@x kills itself, `times` times in all.
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(
        "import os, signal\n"
        "import extract.pipeline as p\n"
        "real = p._message_rows\n"
        "def dying(raw, *args):\n"
        f"    died = open({str(deaths)!r}).read() if os.path.exists({str(deaths)!r}) else ''\n"
        f"    if b'die@x' in raw.data and len(died) < {times}:\n"
        f"        open({str(deaths)!r}, 'a').write('x')\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n"
        "    return real(raw, *args)\n"
        "p._message_rows = dying\n"
    )
    env = {"PYTHONPATH": os.pathsep.join([str(hooks), str(REPO)])}
    code, out, err = finish(extract(tmp_path, "--workers", "2", env=env))
    assert deaths.read_text() == "x" * times  # it did die
    assert code == 0 and err == ""  # nothing on stderr: no traceback, the run goes on
    db = tmp_path / "asf.duckdb"
    errors = query(db, "SELECT archive, position, stage, reason FROM errors")
    assert query(db, "SELECT count(DISTINCT archive) FROM messages") == [(5 - len(errors),)]
    if times == 1:
        assert errors == []  # tried again, the whole run is stored
    else:
        ((path, position, stage, reason),) = errors
        assert (path, position, stage) == ("raw/p.apache.org/die/2020-01.mbox.gz", None, "read")
        assert reason.startswith("archive not processed: BrokenProcessPool")
        assert finish(extract(tmp_path, env=env))[0] == 0  # the next run stores it
        assert query(db, "SELECT count(*) FROM messages WHERE archive LIKE '%/die/%'") == [(2,)]
        assert query(db, "SELECT count(*) FROM errors") == [(0,)]


# ------------------------------------------------------------------ the message budget


def test_a_message_that_stalls_a_parser_becomes_an_errors_row(tmp_path):
    stalling = make_message("STALL-ME\n\n" + seed("000"), message_id="stall@x")
    fine = [make_message(seed("000"), message_id=f"fine{i}@x") for i in range(2)]
    write_archive(tmp_path, "s@p.apache.org", "2020-01", to_mbox([fine[0], stalling, fine[1]]))
    started = time.monotonic()
    code, _, err = finish(extract(tmp_path, env={"STALL": "1", "BUDGET": "1"}), timeout=60)
    assert code == 0, err
    assert time.monotonic() - started < 30
    db = tmp_path / "asf.duckdb"
    ((position, message_id, stage, reason),) = query(
        db, "SELECT position, message_id, stage, reason FROM errors"
    )
    assert (position, message_id, stage) == (1, "stall@x", "extract")
    assert reason.startswith("message took over 1 s (in parser ")
    assert reason.endswith("stored with its headers, kind and body, without results")
    # the late message is stored too, without results (issue 27)
    assert query(db, "SELECT count(*), count(*) FILTER (is_benchmark) FROM messages") == [(3, 2)]
    count_invariant(db)


def test_the_budget_is_only_taken_where_it_is_safe(tmp_path):
    """A library caller (this process) gets no timer; nor does a thread, nor a process
    where someone else handles SIGALRM."""
    path = write_archive(tmp_path, "s@p.apache.org", "2020-01", to_mbox([make_message("x")]))
    assert pipeline._budget is None
    with time_limit(60, "reading an archive"):  # SIGALRM handled by the test already
        assert pipeline.enable_message_budget(1) is False
        rows = pipeline.process_archive(path, tmp_path)
    assert len(rows.messages) == 1 and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    result = []
    thread = threading.Thread(target=lambda: result.append(pipeline.enable_message_budget(1)))
    thread.start()
    thread.join()
    assert result == [False] and pipeline._budget is None


# ------------------------------------------------------------------ kill -9


# The kill test's months: a commits@ month of long commit mails and small users@ months.
KILL = [
    foal_month("commits", "ponymail.apache.org", commits_month(15)),
    foal_month("users", "ponymail.apache.org", users_month("2019-09", 5)),
]


def children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")  # a zombie has exited


def kill_at_random(data_dir: Path, rng: random.Random, span: float, *args: str) -> bool:
    """Start a run, kill -9 the run alone (not its workers) at a random point of the
    first `span` seconds, and check that its workers exit by themselves; returns
    whether the run was killed (it may have finished first)."""
    proc = extract(data_dir, "--workers", "3", *args)
    try:
        deadline = time.monotonic() + rng.uniform(0.15, 0.75) * span
        workers: set[int] = set()
        while time.monotonic() < deadline and proc.poll() is None:
            workers |= set(children(proc.pid))
            time.sleep(0.05)
        workers |= set(children(proc.pid))
        with contextlib.suppress(ProcessLookupError):
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGKILL)
        proc.communicate()
        gone_by = time.monotonic() + 10
        while any(map(running, workers)) and time.monotonic() < gone_by:
            time.sleep(0.05)
        assert not [w for w in workers if running(w)], "workers outlived their run"
    finally:
        _kill_group(proc)
    return proc.returncode == -signal.SIGKILL


def asf_load_dirs() -> set[str]:
    return {p.name for p in Path(tempfile.gettempdir()).glob("asf-load-*")}


def assert_no_debris(data_dir: Path) -> None:
    assert [p.name for p in (data_dir / ".staging").iterdir()] == []
    assert not (data_dir / "asf.duckdb.new").exists()
    assert not (data_dir / "asf.duckdb.new.wal").exists()


@pytest.mark.e2e
def test_kill_9_at_random_points_leaves_no_debris_and_a_rerun_completes(tmp_path):
    rng = random.Random(os.environ.get("KILL_SEED") or time.time_ns())
    data = tmp_path / "data"
    for i in range(120):
        write_archive(data, f"k{i % 12}@kill.apache.org", f"2019-{i // 12 + 1:02d}",
                      KILL[i % len(KILL)])  # fmt: skip
    reference = tmp_path / "reference"
    for p in (data / "raw").glob("**/*.mbox.gz"):
        target = reference / p.relative_to(data)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(p.read_bytes())
    temp_before = asf_load_dirs()
    started = time.monotonic()
    assert finish(extract(reference, "--workers", "2"))[0] == 0
    # Kill points are fractions of a whole run's time, so that the first kill lands
    # mid-run on a fast idle machine as on a loaded one.
    span = time.monotonic() - started
    clean = snapshot(reference / "asf.duckdb")

    db = data / "asf.duckdb"
    # killed normal runs; each rerun starts where the last left off
    assert kill_at_random(data, rng, span), "the first run ended before it could be killed"
    kill_at_random(data, rng, span)
    assert finish(extract(data, "--workers", "3"))[0] == 0
    assert_no_debris(data)
    assert snapshot(db) == clean
    count_invariant(db)

    # A killed --full run leaves the old database as it was.
    kill_at_random(data, rng, span, "--full")
    assert snapshot(db) == clean
    assert finish(extract(data, "--workers", "2", "--full"))[0] == 0
    assert_no_debris(data)
    assert snapshot(db) == clean
    assert asf_load_dirs() <= temp_before  # nothing in the system's temp dir


def test_staging_of_killed_runs_is_removed_but_not_of_running_ones(tmp_path):
    root = tmp_path / ".staging"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    dead_pid = int(dead.stdout)
    (root / f"{dead_pid}-aaaa").mkdir(parents=True)
    (root / f"{dead_pid}-aaaa" / "owner").write_text(f"{dead_pid} 1")
    (root / f"{dead_pid}-aaaa" / "x.messages.ndjson").write_text("{}\n")
    (root / f"{os.getpid()}-bbbb").mkdir()  # a running run, its owner file not yet written
    mine = root / f"{os.getpid()}-cccc"
    mine.mkdir()
    (mine / "owner").write_text(f"{os.getpid()} {pipeline_start_time()}")
    reused = root / f"{os.getpid()}-dddd"  # this pid, but a process started at another time
    reused.mkdir()
    (reused / "owner").write_text(f"{os.getpid()} 1")
    removed = remove_stale(root)
    assert sorted(p.name for p in removed) == sorted([f"{dead_pid}-aaaa", reused.name])
    assert sorted(p.name for p in root.iterdir()) == sorted([f"{os.getpid()}-bbbb", mine.name])


def pipeline_start_time() -> str:
    from extract.db.staging import _start_time

    return _start_time(os.getpid())
