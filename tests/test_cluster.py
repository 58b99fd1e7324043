"""Extraction on a Dask cluster (extract/cluster.py, issue 15): a real two-worker
`LocalCluster` (worker processes, as a cluster has) extracts the fixture archives into
a database identical to the local pool's, table by table (SQL EXCEPT ALL both ways;
only `archives.extracted_at` differs, it says when); a worker killed with SIGKILL
mid-run is retried by Dask and the result is still identical; a message that stalls a
parser on a worker becomes an `errors` row (the budget reaches the workers); and
without Dask, `--scheduler` is a clear error while the default install has no Dask.

The tests that need Dask are skipped, with the reason, where it is not installed
(`make install-cluster`; CI installs it).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import signal
import subprocess
import sys
import threading
import time
import tomllib
from pathlib import Path

import duckdb
import pytest

from extract.__main__ import main
from extract.runner import RunError, run
from tests.archives import sample_as_archives, to_mbox, write_archive
from tests.conftest import seed
from tests.mail.mboxes import EDGE_ARCHIVES, make_message
from tests.test_extract_cli import BROKEN, KILL, NOTIFICATIONS, SMALL

REPO = Path(__file__).resolve().parents[1]
HAVE_DASK = all(importlib.util.find_spec(m) for m in ("dask", "distributed"))
needs_dask = pytest.mark.skipif(
    not HAVE_DASK,
    reason="Dask is not installed: it is the optional `cluster` extra "
    "(pip install '.[cluster]' or make install-cluster)",
)
TABLES = ("messages", "result_tables", "measurements", "errors", "archives")


def differences(db_a: Path, db_b: Path) -> dict[str, tuple[int, int, int]]:
    """table -> (rows, rows of a not in b, rows of b not in a), as multisets;
    `archives.extracted_at` left out."""
    con = duckdb.connect()
    try:
        con.execute(f"ATTACH '{db_a}' AS a (READ_ONLY)")
        con.execute(f"ATTACH '{db_b}' AS b (READ_ONLY)")
        out = {}
        for table in TABLES:
            cols = "* EXCLUDE (extracted_at)" if table == "archives" else "*"

            def missing(x, y, table=table, cols=cols):
                return con.execute(
                    f"SELECT count(*) FROM (SELECT {cols} FROM {x}.{table} "
                    f"EXCEPT ALL SELECT {cols} FROM {y}.{table})"
                ).fetchone()[0]

            (n,) = con.execute(f"SELECT count(*) FROM a.{table}").fetchone()
            out[table] = (n, missing("a", "b"), missing("b", "a"))
        return out
    finally:
        con.close()


def assert_identical(db_a: Path, db_b: Path) -> None:
    diff = differences(db_a, db_b)
    assert all(n > 0 for n, _, _ in diff.values()), diff  # every table is exercised
    assert all(only_a == only_b == 0 for _, only_a, only_b in diff.values()), diff


def fixture_archives(data_dir: Path) -> None:
    """The sample (every format and kind: tables and measurements), the broken
    archives (errors rows), the edge-case and notification months."""
    sample_as_archives(data_dir)
    for name, (data, _, _) in BROKEN.items():
        write_archive(data_dir, f"{name}@fixtures.apache.org", "2016-06", data)
    write_archive(data_dir, "edge@fixtures.apache.org", "2016-06", EDGE_ARCHIVES["edge-messages"])
    write_archive(
        data_dir, "notes@fixtures.apache.org", "2016-06", to_mbox([*NOTIFICATIONS.values()])
    )
    for i, data in enumerate(SMALL):
        write_archive(data_dir, f"small{i}@fixtures.apache.org", "2020-01", data)


@pytest.fixture(scope="module")
def fixtures_dir(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("cluster")
    fixture_archives(data_dir)
    reference = data_dir / "pool.duckdb"
    summary = run(data_dir, db=reference, workers=2)
    assert not summary.unstored
    return data_dir, reference, summary


@needs_dask
def test_local_cluster_database_is_identical_to_the_local_pools(fixtures_dir, capsys):
    data_dir, reference, pool = fixtures_dir
    db = data_dir / "dask.duckdb"
    assert main(["--data-dir", str(data_dir), "--db", str(db), "--scheduler", "local:2"]) == 0
    fields = dict(kv.split("=", 1) for kv in capsys.readouterr().out.split())
    assert (fields["archives"], fields["messages"], fields["errors"]) == (
        str(pool.processed),
        str(pool.messages),
        str(pool.errors),
    )
    assert_identical(reference, db)
    # Incremental, as the local pool: a second run finds every archive up to date.
    assert main(["--data-dir", str(data_dir), "--db", str(db), "--scheduler", "local:2"]) == 0
    again = dict(kv.split("=", 1) for kv in capsys.readouterr().out.split())
    assert (again["archives"], again["unchanged"]) == ("0", str(pool.archives))
    assert_identical(reference, db)


@pytest.fixture
def cluster():
    """Two worker processes under nannies (which restart a killed one)."""
    from distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as c,
        Client(c, set_as_default=False) as client,
    ):
        yield c, client


@needs_dask
def test_a_worker_killed_mid_run_is_retried_and_the_result_is_identical(tmp_path, cluster, capfd):
    c, client = cluster
    # Months with long commit mails, so the run is still going when the worker dies.
    for i in range(24):
        write_archive(tmp_path, f"k{i % 6}@kill.apache.org", f"2019-{i // 6 + 1:02d}",
                      KILL[i % len(KILL)])  # fmt: skip
    reference = tmp_path / "pool.duckdb"
    run(tmp_path, db=reference, workers=2)
    pids = client.run(os.getpid)
    outcome: dict = {}

    def extract() -> None:
        try:
            outcome["summary"] = run(tmp_path, scheduler=c.scheduler_address)
        except BaseException as exc:  # reported by the assertion below
            outcome["error"] = exc

    runner = threading.Thread(target=extract)
    runner.start()
    killed = None
    deadline = time.monotonic() + 60
    while runner.is_alive() and killed is None and time.monotonic() < deadline:
        for worker, keys in client.processing().items():
            if keys and any(k.startswith("extract-") for k in keys) and worker in pids:
                os.kill(pids[worker], signal.SIGKILL)  # mid-task: it holds an archive
                killed = worker
                break
        time.sleep(0.01)
    assert killed is not None, "no archive was ever processing on a worker"
    was_running = runner.is_alive()
    runner.join(120)
    assert "error" not in outcome, outcome
    assert was_running, "the run ended before the worker was killed"
    assert client.run(os.getpid) != pids  # the nanny started a new worker
    summary = outcome["summary"]
    assert not summary.unstored
    db = tmp_path / "asf.duckdb"
    diff = differences(reference, db)
    assert all(a == b == 0 for _, a, b in diff.values()), diff
    assert diff["messages"][0] > 0 and diff["measurements"][0] > 0
    assert "Traceback" not in capfd.readouterr().err  # the run survived it: no traceback


def session_processes(sid: int) -> list[int]:
    """The pids of the processes of session `sid` (the run and all it started)."""
    out = subprocess.run(["ps", "-eo", "pid=,sid="], capture_output=True, text=True, check=True)
    return [int(p) for p, s in (line.split() for line in out.stdout.splitlines()) if int(s) == sid]


@needs_dask
@pytest.mark.e2e
def test_kill_9_of_the_run_leaves_no_process_and_a_rerun_completes(tmp_path):
    for i in range(48):
        write_archive(tmp_path, f"k{i % 6}@kill.apache.org", f"2019-{i // 6 + 1:02d}",
                      KILL[i % len(KILL)])  # fmt: skip
    db, copy = tmp_path / "asf.duckdb", tmp_path / "asf.duckdb.new"  # the run's own copy
    wal = tmp_path / "asf.duckdb.new.wal"
    proc = subprocess.Popen(
        [sys.executable, "-m", "extract", "--data-dir", str(tmp_path), "--scheduler", "local:2"],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its session: every process it starts is found by it
    )
    try:
        deadline = time.monotonic() + 180
        while proc.poll() is None and time.monotonic() < deadline:
            # rows are being written: the log, or the copy past its empty schema, grew
            if (wal.exists() and wal.stat().st_size > 50_000) or (
                copy.exists() and copy.stat().st_size > 2_000_000
            ):
                break
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)  # the run alone: the rest must go by itself
        proc.wait()
        assert proc.returncode == -signal.SIGKILL, "the run ended before it could be killed"
        deadline = time.monotonic() + 60
        while session_processes(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert session_processes(proc.pid) == [], "Dask workers or their children outlived the run"
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
    assert not db.exists()  # readers never see a run's half-done work
    # (replays what the killed run committed; built-in functions, never downloaded)
    done_before = 0
    with contextlib.suppress(duckdb.Error):  # (killed before the copy was whole: none)
        con = duckdb.connect(
            str(copy), read_only=True, config={"autoinstall_known_extensions": False}
        )
        try:
            (done_before,) = con.execute("SELECT count(*) FROM archives").fetchone()
        finally:
            con.close()
    summary = run(tmp_path, scheduler="local:2")
    assert not summary.unstored
    assert summary.processed == 48 - done_before  # what was committed stays: taken up
    reference = tmp_path / "pool.duckdb"
    run(tmp_path, db=reference, workers=2)
    diff = differences(reference, db)
    assert all(a == b == 0 for _, a, b in diff.values()), diff
    assert list((tmp_path / ".staging").glob("**/*")) == []  # no staged file left


@needs_dask
def test_a_message_that_stalls_a_parser_on_a_worker_becomes_an_errors_row(tmp_path, monkeypatch):
    # Every Python process started from here (the Dask workers, their children) runs
    # this first: format parsers spin forever on a text with STALL-ME.
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(
        "import os\n"
        "if os.environ.get('STALL'):\n"
        "    import extract.pipeline as p\n"
        "    from extract.results import formats\n"
        "    p.MESSAGE_BUDGET_SECONDS = 1.0\n"
        "    def stall(parse):\n"
        "        def parse_or_stall(text):\n"
        "            while 'STALL-ME' in text:\n"
        "                pass\n"
        "            return parse(text)\n"
        "        return parse_or_stall\n"
        "    for mod in formats.PARSERS:\n"
        "        mod.parse = stall(mod.parse)\n"
    )
    monkeypatch.setenv("STALL", "1")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(hooks), str(REPO)]))
    stalling = make_message("STALL-ME\n\n" + seed("000"), message_id="stall@x")
    fine = [make_message(seed("000"), message_id=f"fine{i}@x") for i in range(2)]
    data_dir = tmp_path / "data"
    write_archive(data_dir, "s@p.apache.org", "2020-01", to_mbox([fine[0], stalling, fine[1]]))
    summary = run(data_dir, scheduler="local:1")
    assert not summary.unstored
    con = duckdb.connect(str(summary.db), read_only=True)
    try:
        ((position, message_id, stage, reason),) = con.execute(
            "SELECT position, message_id, stage, reason FROM errors"
        ).fetchall()
        stored = con.execute("SELECT count(*) FILTER (is_benchmark) FROM messages").fetchone()
    finally:
        con.close()
    assert (position, message_id, stage) == (1, "stall@x", "extract")
    assert reason.startswith("message took over 1 s (in parser ")
    assert stored == (2,)  # (and the late message without results: tests/test_budget.py)


@pytest.fixture
def worker_thread_child():
    """stage_on_worker run in this process, as in a Dask worker's thread: its child
    extraction process is closed afterwards."""
    from extract import cluster

    yield cluster
    cluster._stop_children()


def test_a_worker_that_sees_the_staging_directory_writes_the_rows_there(
    tmp_path, worker_thread_child
):
    cluster = worker_thread_child
    data_dir = tmp_path / "data"
    messages = [make_message(seed("000"), message_id=f"w{i}@x") for i in range(3)]
    path = str(write_archive(data_dir, "w@p.apache.org", "2020-01", to_mbox(messages)))
    stage = tmp_path / "stage"
    stage.mkdir()
    (stage / "owner").write_text("123 456", "ascii")  # the run's owner token
    # The same directory (the token matches): files in it, only their names come back.
    archive, files = cluster.stage_on_worker(path, str(data_dir), True, str(stage), "123 456")
    assert {"messages", "result_tables", "measurements"} <= set(files)
    assert all(isinstance(f, str) and Path(f).parent == stage for f in files.values())
    written = {table: Path(f).read_bytes() for table, f in files.items()}
    # Another directory of that name (another machine's): the rows come back as bytes,
    # the same ones, and this process stages them.
    again, blobs = cluster.stage_on_worker(path, str(data_dir), True, str(stage), "999 1")
    assert blobs == written and again["n_messages"] == archive["n_messages"] == 3
    staged = cluster._staged_here(again, blobs, stage)
    assert {t: Path(f).read_bytes() for t, f in staged.files.items()} == written
    # ... as when the run names no staging directory.
    _, plain = cluster.stage_on_worker(path, str(data_dir), True)
    assert plain == written


@needs_dask
def test_scheduler_errors_are_clear_and_fast(tmp_path, capsys):
    """A typo'd address fails at once, naming the problem (Dask would wait 30 s)."""
    write_archive(tmp_path, "q@p.apache.org", "2020-01", SMALL[0])
    assert main(["--data-dir", str(tmp_path), "--scheduler", "local:0"]) == 2
    assert "expected local:N with N >= 1" in capsys.readouterr().err
    (tmp_path / "notes.json").write_text("{}")
    cases = {
        "tcp://127.0.0.1:9": "nothing listens at 127.0.0.1:9 (is `dask scheduler` running",
        "127.0.0.1:9": "nothing listens at 127.0.0.1:9",
        "locla:2": "unknown host locla; did you mean local:N",
        "tcp://no-such-host.invalid:8786": "unknown host no-such-host.invalid",
        "tcp//sched:8786": "expected local:N, tcp://HOST:PORT or a scheduler file",
        "htp://sched:8786": "unknown protocol 'htp'",
        str(tmp_path / "missing.json"): "no such scheduler file",
        str(tmp_path / "notes.json"): "the scheduler file names no address",
    }
    for address, said in cases.items():
        started = time.monotonic()
        assert main(["--data-dir", str(tmp_path), "--scheduler", address]) == 2, address
        err = capsys.readouterr().err
        assert err.startswith(f"extract: --scheduler {address}") and said in err, err
        assert time.monotonic() - started < 10, address
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.json", "raw"]  # nothing new


@needs_dask
def test_a_local_cluster_writes_only_beside_the_database(tmp_path):
    """With --db elsewhere, nothing is written in the data dir (it may be read-only)
    nor in the system's temp dir: Dask's scratch is beside the database, under
    .staging, and goes with the run. The run links its dashboard, which Dask serves
    (bokeh is in the cluster extra)."""
    data, elsewhere, tmp = tmp_path / "data", tmp_path / "elsewhere", tmp_path / "tmp"
    for i, mbox in enumerate(SMALL):
        write_archive(data, f"small{i}@p.apache.org", "2020-01", mbox)
    tmp.mkdir()
    before = sorted((p.relative_to(data), p.stat().st_mtime_ns) for p in data.rglob("*"))
    for p in [data, *data.rglob("*")]:
        p.chmod(p.stat().st_mode & ~0o222)  # read-only (root writes anyway: compared below)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "extract", "--data-dir", str(data),
             "--db", str(elsewhere / "asf.duckdb"), "--scheduler", "local:1"],
            cwd=REPO, capture_output=True, text=True, timeout=300,
            env={**os.environ, "TMPDIR": str(tmp)},
        )  # fmt: skip
    finally:
        for p in [data, *data.rglob("*")]:
            p.chmod(p.stat().st_mode | 0o200)
    assert done.returncode == 0, done.stderr
    assert sorted((p.relative_to(data), p.stat().st_mtime_ns) for p in data.rglob("*")) == before
    assert list(tmp.iterdir()) == []
    # the database, and at most the staging root, empty
    assert [p.relative_to(elsewhere).as_posix() for p in elsewhere.rglob("*")] in (
        ["asf.duckdb"],
        [".staging", "asf.duckdb"],
    )
    assert done.stderr.startswith("extract: Dask dashboard: http://127.0.0.1:")
    assert "Traceback" not in done.stderr


@needs_dask
def test_the_dashboard_link_shows_the_dashboard(tmp_path):
    import urllib.request

    from extract.cluster import Cluster

    pool = Cluster("local:1", tmp_path, scratch_root=tmp_path / ".staging")
    try:
        assert pool.scratch.parent == tmp_path / ".staging"
        assert pool.dashboard_link.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(pool.dashboard_link, timeout=60) as page:
            html = page.read().decode("utf-8", "replace")
        assert page.status == 200 and "needs bokeh" not in html and "<html" in html.lower()
    finally:
        pool.shutdown()
    assert list(tmp_path.iterdir()) == []  # its scratch went, and the root it made


@needs_dask
def test_workers_must_see_the_data_dir(tmp_path, cluster):
    c, client = cluster
    write_archive(tmp_path, "q@p.apache.org", "2020-01", SMALL[0])
    from extract.cluster import Cluster

    ok = Cluster(c.scheduler_address, tmp_path)
    ok.shutdown()
    with pytest.raises(RunError, match="cannot read .* a path every worker sees"):
        Cluster(c.scheduler_address, tmp_path / "elsewhere")


def test_without_dask_the_scheduler_option_is_a_clear_error(tmp_path):
    write_archive(tmp_path, "q@p.apache.org", "2020-01", SMALL[0])
    code = (
        "import sys\n"
        "sys.modules['distributed'] = None  # as if Dask were not installed\n"
        "from extract.__main__ import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, "--data-dir", str(tmp_path), "--scheduler", "local:2"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert "--scheduler needs Dask" in out.stderr and "pip install '.[cluster]'" in out.stderr
    assert "Traceback" not in out.stderr


def test_the_default_install_has_no_dask():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    names = {r.split("==")[0] for r in project["dependencies"]}
    names |= {r.split("==")[0] for r in project["optional-dependencies"]["dev"]}
    assert not names & {"dask", "distributed", "bokeh"}
    cluster = project["optional-dependencies"]["cluster"]
    assert sorted(r.split("==")[0] for r in cluster) == ["bokeh", "dask", "distributed"]
    assert all("==" in r for r in cluster)  # pinned
    # ... and a local run does not even import it.
    out = subprocess.run(
        [sys.executable, "-c",
         "import sys, extract.__main__, extract.runner; print('distributed' in sys.modules)"],
        cwd=REPO, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    assert out.stdout.strip() == "False"
