"""Extraction on a Dask cluster: `python -m extract --scheduler ADDRESS` (see `extract.runner.run`).

Archives are tasks. A Dask worker runs the same per-archive function as the local pool
(`worker.stage_archive`), on the archive's absolute path, so every worker must see
DATA_DIR at the same path (a shared file system); on a running cluster the run checks
that, and that every worker runs the same extraction code, before it opens the database.
A worker that also sees the run's staging directory (DATA_DIR/.staging/..., the same
one: its owner token matches) writes its newline-delimited JSON there, as the pool's
workers do, and only the file names come back through Dask; one that does not sends
the rows back through Dask. This process stays
the single writer (`runner._load_in_batches`): same incremental rules, `errors` rows,
kill-safety and progress as the local pool. A worker that dies mid-task is retried by
Dask (`distributed.scheduler.allowed-failures`); an archive whose task fails for good
becomes an archive-level `errors` row (stage `read`), as with the local pool.

Inside a Dask worker the task runs in a thread, where SIGALRM (the per-message time
budget, `pipeline.MESSAGE_BUDGET_SECONDS`) cannot reach it; so each running task hands
its archive to an idle child process of the worker's (`python -m extract.cluster
--child`, one per worker thread, started with the worker), which has the budget and
dies with the worker. Plain `subprocess`, because Dask's worker
processes are daemonic and multiprocessing refuses them children.

`ADDRESS`: `local:N` starts a `LocalCluster` of N single-threaded worker processes on
this machine (`local`: `--workers` of them), not waited for and not checked (same
machine, same files), with Dask's own monitoring slowed down (`QUIET_LOCAL`), its
scratch beside the database (`.staging/<pid>-dask-<id>/`, removed at the end, or by
the next run when this one is killed) and its dashboard linked on stderr;
`tcp://host:8786` (any address
`distributed.Client` takes) or a scheduler file (`*.json`) joins a running cluster,
after a check that fails at once for a malformed address, an unknown host or a port
where nothing listens (`_check_address`). Dask's log is condensed while a run uses
it (`_DaskLog`): no tracebacks, and a worker's death that the run survives is one
line.
Dask is an optional extra (`pip install '.[cluster]'`, `make install-cluster`): this
module is imported only when `--scheduler` is given.
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from extract.pool import RunError

if TYPE_CHECKING:
    from extract.db.staging import StagedArchive

# The extractor's modules (and Dask's) are imported where they are used (the pool
# protocol, `extract.pool`, is the standard library's only): a Dask worker
# process only hands archives to its extraction processes, and need not spend a second
# of a core importing the extractor too; those processes do not import Dask.

# How long to wait for a scheduler to answer and for a first worker to join.
CONNECT_SECONDS = 30
# Re-read the cluster's size this often: workers may join or leave during a run.
RESIZE_SECONDS = 5.0
INSTALL_HINT = "pip install '.[cluster]' (or make install-cluster)"
# Dask's monitoring of a LocalCluster's scheduler and workers, which takes cores that
# would extract otherwise (measured idle: 2.5 s of CPU per 20 s for two workers, 0.3 s
# so): the statistical profiler samples every thread every 10 ms (a task thread here
# only waits for its extraction process), the event loops check their own health every
# 20 ms, the system monitor polls every 0.5 s and a worker's memory every 0.1 s (still
# checked, every second). A cluster the user runs keeps its own settings.
QUIET_LOCAL = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.admin.system-monitor.disk": False,
    "distributed.worker.memory.monitor-interval": "1s",
}


class _DaskLog(logging.Handler):
    """Dask's log in this process while a run uses it: one line a record, never a
    traceback. A worker's death that the run survives (the nanny restarts the worker,
    the scheduler runs its archives again) is one line at the end, not the dozen
    warnings and errors Dask logs about it; the run's own summary and `errors` rows
    tell what became of the archives."""

    # Dask's words when a worker is lost and its work moved elsewhere.
    LOST = (
        "Restarting worker",
        "Removing worker",
        "lose already computed",
        "Couldn't gather",
        "rescheduling",
        "Worker process",
        "was killed by signal",
        "Connection to",
        "Stream is closed",
    )

    def __init__(self, logger: logging.Logger):
        super().__init__(logging.WARNING)
        self.logger = logger
        self.saved = (list(logger.handlers), logger.propagate)
        self.restarts = 0
        self.lost = 0

    @classmethod
    def install(cls) -> _DaskLog:
        handler = cls(logging.getLogger("distributed"))
        for h in handler.saved[0]:
            handler.logger.removeHandler(h)
        handler.logger.addHandler(handler)
        handler.logger.propagate = False
        return handler

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = (record.getMessage().strip().splitlines() or [""])[0]
        except Exception:  # (a record whose arguments do not format)
            text = str(record.msg)
        if any(word in text for word in self.LOST):
            self.restarts += "Restarting worker" in text
            self.lost += 1
            return
        print(f"extract: dask {record.levelname.lower()}: {text[:300]}", file=sys.stderr)

    def uninstall(self) -> None:
        self.logger.removeHandler(self)
        handlers, self.logger.propagate = self.saved
        for h in handlers:
            self.logger.addHandler(h)
        if self.lost:
            died = (
                f"{self.restarts} time(s), restarted by its nanny"
                if self.restarts
                else "or lost its connection"
            )
            print(
                f"extract: a Dask worker died {died}; Dask ran its archives again "
                "(the summary and the errors table say what became of them)",
                file=sys.stderr,
            )


def _check_address(scheduler: str) -> None:
    """Fail at once, saying what is wrong, for an address no scheduler can answer at:
    a malformed one, an unknown host, a port where nothing listens, a scheduler file
    that is missing or holds no address (Dask itself would wait CONNECT_SECONDS)."""
    import difflib
    import json
    import socket

    where = f"--scheduler {scheduler}"
    if scheduler.endswith(".json"):
        try:
            info = json.loads(Path(scheduler).read_text("utf-8"))
        except FileNotFoundError:
            raise RunError(
                f"{where}: no such scheduler file (`dask scheduler --scheduler-file "
                f"{scheduler}` writes it)"
            ) from None
        except (OSError, ValueError) as exc:
            raise RunError(f"{where}: not a scheduler file: {exc}") from None
        address = info.get("address") if isinstance(info, dict) else None
        if not isinstance(address, str):
            raise RunError(f"{where}: the scheduler file names no address") from None
        where, scheduler = f"{where} (address {address})", address
    protocol, sep, rest = scheduler.rpartition("://")
    protocol = protocol if sep else "tcp"
    if protocol in ("inproc", "ucx"):  # (not a host:port to try)
        return
    hint = ""
    if difflib.get_close_matches(scheduler.split(":")[0], ["local"], cutoff=0.6):
        hint = "; did you mean local:N (N workers on this machine)?"
    if protocol not in ("tcp", "tls", "ws", "wss"):
        raise RunError(
            f"{where}: unknown protocol {protocol!r}: expected local:N, tcp://HOST:PORT "
            f"or a scheduler file (*.json){hint}"
        )
    host, _, port = rest.rstrip("/").rpartition(":")
    host = host.strip("[]")
    if not re.fullmatch(r"[A-Za-z0-9._-]+|[0-9A-Fa-f:.]+", host) or not port.isdigit():
        raise RunError(
            f"{where}: expected local:N, tcp://HOST:PORT or a scheduler file (*.json){hint}"
        )
    try:
        with socket.create_connection((host, int(port)), timeout=5):
            pass
    except socket.gaierror:
        raise RunError(f"{where}: unknown host {host}{hint}") from None
    except ConnectionRefusedError:
        raise RunError(
            f"{where}: nothing listens at {host}:{port} (is `dask scheduler` running "
            f"there? it prints its address){hint}"
        ) from None
    except OSError as exc:  # timed out, unreachable
        raise RunError(f"{where}: cannot reach {host}:{port}: {exc.strerror or exc}") from None


def _import_distributed():

    try:
        import distributed
    except ImportError as exc:
        raise RunError(f"--scheduler needs Dask, an optional extra: {INSTALL_HINT}") from exc
    return distributed


def local_workers(scheduler: str, workers: int | None) -> int | None:
    """N of `local:N` (`local`: `workers`, else the machine's cores); None for an
    address of a running cluster. Raises RunError for a malformed `local:N`."""

    if scheduler == "local":
        return workers or os.cpu_count() or 1
    if not scheduler.startswith("local:"):
        return None
    n = scheduler.removeprefix("local:")
    if not n.isdigit() or int(n) < 1:
        raise RunError(f"--scheduler {scheduler}: expected local:N with N >= 1")
    return int(n)


class Cluster:
    """The Dask side of a run: the client (and the LocalCluster it started), in the
    place of the runner's local pool: an `extract.pool.Pool` (`staged`, `shutdown`)."""

    def __init__(
        self,
        scheduler: str,
        data_dir: Path,
        workers: int | None = None,
        scratch_root: Path | None = None,
    ):
        """`scratch_root`: where a LocalCluster's workers keep their files (the run's
        `.staging/`, beside the database), in a directory of this process's that the
        next run removes if this one is killed."""

        distributed = _import_distributed()
        n_local = local_workers(scheduler, workers)
        self.cluster = None
        self.client = None
        self._quiet = None
        self.scratch: Path | None = None
        self._made: list[Path] = []  # directories made for the scratch, removed at shutdown
        self.dashboard_link: str | None = None
        self.n_local = n_local or 0
        self._log = _DaskLog.install()
        try:
            if n_local is not None:
                self._start_local(distributed, n_local, scratch_root)
                return
            _check_address(scheduler)  # a typo fails now, not after CONNECT_SECONDS
            if scheduler.endswith(".json"):
                self.client = distributed.Client(
                    scheduler_file=scheduler, timeout=CONNECT_SECONDS, set_as_default=False
                )
            else:
                self.client = distributed.Client(
                    scheduler, timeout=CONNECT_SECONDS, set_as_default=False
                )
            self.client.wait_for_workers(1, timeout=CONNECT_SECONDS)
            self.dashboard_link = self.client.dashboard_link
            self._check_workers(Path(data_dir).resolve())
            # Each worker starts its extraction processes now, while this one hashes the
            # archives and opens the database (not waited for).
            self._started = [
                self.client.submit(
                    _start_children,
                    n,
                    key=f"prestart-{uuid.uuid4().hex}",
                    workers=[w],
                    pure=False,
                )
                for w, n in self.client.nthreads().items()
            ]
        except BaseException as exc:
            self.shutdown()
            if isinstance(exc, Exception) and not isinstance(exc, RunError):
                raise RunError(f"cannot use the Dask cluster at {scheduler}: {exc}") from exc
            raise

    def _start_local(self, distributed, n: int, scratch_root: Path | None) -> None:
        """A LocalCluster of `n` single-threaded worker processes, not waited for: they
        start (and start their extraction processes, `_prestart`) while this process
        hashes the archives and opens the database, and the first archives wait on the
        scheduler for the first worker. They run on this machine from this process's
        files, so they see DATA_DIR and run this code: not checked (a check would wait
        for every worker and make each import the extractor)."""
        import dask

        from extract.db.staging import run_directory

        config = dict(QUIET_LOCAL)
        if scratch_root is not None:
            for p in (scratch_root, *scratch_root.parents):
                if p.exists():
                    break
                self._made.insert(0, p)
            scratch_root.mkdir(parents=True, exist_ok=True)
            self.scratch = run_directory(scratch_root, "dask")
            # (Dask's own default is the system's temp dir, which a killed run litters)
            config["temporary-directory"] = str(self.scratch)
        # Set until `shutdown`: read when the scheduler and the nannies start (these in
        # the cluster's thread, after `scale` returns), which pass it on to their workers.
        self._quiet = dask.config.set(config)
        # One thread a worker: the work is pure Python (the GIL), and the worker's
        # thread only waits for its child process.
        self.cluster = distributed.LocalCluster(
            n_workers=0,
            threads_per_worker=1,
            processes=True,
            # The scheduler's HTTP server on a free port: 8787 may be another cluster's.
            dashboard_address=":0",
            local_directory=str(self.scratch) if self.scratch else None,
        )
        self.dashboard_link = self.cluster.dashboard_link
        self.client = distributed.Client(self.cluster, set_as_default=False)
        self.client.register_plugin(_prestart(distributed))
        self.cluster.scale(n)

    def _check_workers(self, data_dir: Path) -> None:
        """Every worker sees DATA_DIR at this path and runs this extraction code (else
        its rows would be extracted again by every later run)."""
        from extract.pipeline import EXTRACTOR_VERSION

        answers = self.client.run(_worker_facts, str(data_dir))
        blind = sorted(w for w, (sees, _) in answers.items() if not sees)
        if blind:
            raise RunError(
                f"Dask workers {', '.join(blind)} cannot read {data_dir}/raw: the archives "
                "must be on a path every worker sees (a shared file system)"
            )
        other = sorted(w for w, (_, code) in answers.items() if code != EXTRACTOR_VERSION)
        if other:
            raise RunError(
                f"Dask workers {', '.join(other)} run other extraction code than this "
                f"process ({EXTRACTOR_VERSION}): install the same version on every worker"
            )

    def threads(self) -> int:
        """Worker threads: those of the cluster, or of the LocalCluster still starting."""
        return max(1, self.n_local, sum(self.client.nthreads().values()))

    def staged(
        self, todo: list[Path], data_dir: Path, stage_dir: Path, results: bool
    ) -> Iterator[StagedArchive]:
        """Staged archives as they are done, at most two per worker thread in flight
        (bounded memory here and on the workers)."""
        from extract.worker import stage_failed

        distributed = _import_distributed()
        data_dir = Path(data_dir)
        root = str(data_dir.resolve())
        stage = str(Path(stage_dir).resolve())
        token = _read_token(stage)
        pending = iter(todo)
        in_flight: dict[str, Path] = {}
        done = distributed.as_completed(loop=self.client.loop)
        limit, sized = 2 * self.threads(), time.monotonic()

        def refill() -> None:
            while len(in_flight) < limit and (path := next(pending, None)) is not None:
                future = self.client.submit(
                    stage_on_worker,
                    str(path.resolve()),
                    root,
                    results,
                    stage,
                    token,
                    key=f"extract-{path.name}-{uuid.uuid4().hex}",
                    pure=False,
                )
                in_flight[future.key] = path
                done.add(future)

        refill()
        if self.n_local:  # (a LocalCluster whose workers cannot start: no waiting forever)
            try:
                self.client.wait_for_workers(1, timeout=CONNECT_SECONDS)
            except TimeoutError as exc:
                raise RunError(f"no Dask worker started in {CONNECT_SECONDS} s") from exc
        try:
            for future in done:
                path = in_flight.pop(future.key)
                try:
                    staged = _staged_here(*future.result(), stage_dir)
                except Exception as exc:  # failed for good (KilledWorker ...), or lost
                    reason = f"archive not processed: {type(exc).__name__}: {exc}"
                    staged = stage_failed(path, data_dir, reason, results, stage_dir)
                future.release()
                if time.monotonic() - sized >= RESIZE_SECONDS:
                    limit, sized = 2 * self.threads(), time.monotonic()
                refill()  # before the writer takes this one: the workers never wait for it
                yield staged
        finally:
            # The run stopped early (an error, Ctrl-C): nothing more to compute.
            with contextlib.suppress(Exception):
                done.clear()

    def shutdown(self) -> None:
        for part in (self.client, self.cluster):
            if part is not None:
                with contextlib.suppress(Exception):
                    part.close()
        self.client = self.cluster = None
        if self._quiet is not None:
            self._quiet.__exit__(None, None, None)
            self._quiet = None
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = None
        for path in reversed(self._made):
            with contextlib.suppress(OSError):
                path.rmdir()  # (only when empty: the store may use it still)
        self._made = []
        if self._log is not None:
            self._log.uninstall()
            self._log = None


def _staged_here(archive: dict, files: dict[str, str | bytes], stage_dir: Path) -> StagedArchive:
    """A worker's answer as staged files of this run: the names of the files it wrote
    in the staging directory, or its rows (JSON bytes, `staging.pack`) staged here."""
    from extract.db import staging

    if all(isinstance(data, str) for data in files.values()):
        return staging.StagedArchive(archive, dict(files))
    return staging.unpack(stage_dir, archive, files)


def _read_token(stage_dir: str) -> str | None:
    """The staging directory's owner token (`db.store`): a worker whose directory of
    that name holds the same one sees this very directory."""
    try:
        return (Path(stage_dir) / "owner").read_text("ascii", "replace")
    except OSError:
        return None


# ---------------------------------------------------------------- on the workers


def _worker_facts(data_dir: str) -> tuple[bool, str]:
    from extract.pipeline import EXTRACTOR_VERSION

    return os.path.isdir(os.path.join(data_dir, "raw")), EXTRACTOR_VERSION


# This worker process's extraction processes that no task uses now.
_idle: list[_Child] = []
_idle_lock = threading.Lock()


def _start_children(n: int, scratch: str | None = None) -> None:
    """Start extraction processes ahead of the first archives (not waiting for them to
    be ready), until this worker has `n` (one per thread) idle."""
    with _idle_lock:
        _idle[:] = [child for child in _idle if child.alive()]
        while len(_idle) < n:
            _idle.append(_Child(scratch))


def _prestart(distributed):
    """A plugin that starts each worker's extraction processes as the worker starts
    (made here: this module does not import Dask, which pickles the class whole)."""

    class Prestart(distributed.WorkerPlugin):
        name = "extract-prestart"

        def setup(self, worker) -> None:
            _start_children(worker.state.nthreads, worker.local_directory)

        def teardown(self, worker) -> None:
            _stop_children()

    return Prestart()


def _stop_children() -> None:
    """Stop the idle extraction processes now: a worker that closes with them running
    takes over a second longer to exit (measured)."""
    with _idle_lock:
        stopping, _idle[:] = list(_idle), []
    for child in stopping:
        child.close()


def _take_child() -> _Child:
    with _idle_lock:
        while _idle:
            child = _idle.pop()
            if child.alive():
                return child
            child.close()
    return _Child()


def stage_on_worker(
    path: str,
    data_dir: str,
    results: bool,
    stage_dir: str | None = None,
    token: str | None = None,
) -> tuple[dict, dict[str, str | bytes]]:
    """The Dask task: one archive's `archives` row and its rows per table, as
    newline-delimited JSON, staged by an extraction process of this worker's (one per
    task running): as files in the run's `stage_dir` (their names) when this worker
    sees it (its owner `token` matches), else as bytes. A child that dies on an archive
    makes it an archive-level `errors` row, as a dying worker of the local pool does."""
    child = _take_child()
    into = stage_dir if stage_dir and token and _sees(stage_dir, token) else None
    try:
        answer = child.call(path, data_dir, results, into)
    except (EOFError, OSError, pickle.UnpicklingError) as exc:
        code = child.close()
        reason = (
            f"archive not processed: the extraction process died (exit status {code}): "
            f"{type(exc).__name__}: {exc}"
        )
        return _fail_on_worker(path, data_dir, reason, results)
    with _idle_lock:
        _idle.append(child)
    return answer


_seen: dict[tuple[str, str], bool] = {}


def _sees(stage_dir: str, token: str) -> bool:
    """Whether this worker can write in the run's staging directory: it finds the
    directory's owner token there (then it is the same directory), once per run."""
    key = (stage_dir, token)
    if key not in _seen:
        _seen[key] = _read_token(stage_dir) == token and os.access(stage_dir, os.W_OK)
    return _seen[key]


class _Child:
    """`python -m extract.cluster --child PID`: reads (path, data_dir, results, into)
    pickles on stdin, answers `_stage` pickles on stdout."""

    def __init__(self, scratch: str | None = None):
        self.stage_dir = tempfile.mkdtemp(prefix="extract-child-", dir=scratch or _scratch_dir())
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "extract.cluster", "--child", str(os.getpid()), self.stage_dir],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=Path(__file__).resolve().parents[1],
        )

    def alive(self) -> bool:
        return self.proc.poll() is None

    def call(self, path: str, data_dir: str, results: bool, into: str | None = None):
        request = (path, data_dir, results, into)
        pickle.dump(request, self.proc.stdin, protocol=pickle.HIGHEST_PROTOCOL)
        self.proc.stdin.flush()
        return pickle.load(self.proc.stdout)

    def close(self) -> int | None:
        with contextlib.suppress(OSError):
            self.proc.kill()
        code = self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(OSError):
                pipe.close()
        shutil.rmtree(self.stage_dir, ignore_errors=True)
        return code


def _scratch_dir() -> str | None:
    """The Dask worker's own directory (Dask removes those of dead workers), else the
    system's temp dir."""
    try:
        from distributed import get_worker

        return get_worker().local_directory
    except (ImportError, ValueError):
        return None


def _stage(path: str, data_dir: str, results: bool, stage_dir: str, into: str | None):
    """The staged archive: its files in `into` (the run's staging directory), or, with
    no `into`, their bytes (staged in this process's own `stage_dir`)."""
    from extract.db.staging import pack
    from extract.worker import stage_archive

    if into is not None:
        staged = stage_archive(path, data_dir, into, results, True)
        return staged.archive, staged.files
    return pack(stage_archive(path, data_dir, stage_dir, results, True))


def _fail_on_worker(path: str, data_dir: str, reason: str, results: bool):
    """An archive-level `errors` row, as `_stage` answers it (bytes)."""
    from extract.db.staging import pack
    from extract.worker import stage_failed

    scratch = tempfile.mkdtemp(prefix="extract-failed-", dir=_scratch_dir())
    try:
        return pack(stage_failed(Path(path), Path(data_dir), reason, results, scratch))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _warm_up() -> None:
    """Set-up done on first use (compiled pattern databases, lazy imports) happens here,
    not in the first message's time budget: a forked worker of the local pool inherits
    it from the run, this fresh process does not."""
    from extract.results.classify import classify
    from extract.results.formats import extract_results

    text = "warm-up: the scan took 12 ms, it was 30 ms\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    classify(text, extract_results(text))


def _child_main(parent: int, stage_dir: str) -> int:
    from extract.pipeline import enable_message_budget
    from extract.worker import die_with_parent

    # The answers go to the original stdout; anything a library prints goes to stderr.
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    die_with_parent(parent)
    _warm_up()
    enable_message_budget()
    requests = sys.stdin.buffer
    while True:
        try:
            path, data_dir, results, into = pickle.load(requests)
        except EOFError:
            return 0
        pickle.dump(
            _stage(path, data_dir, results, stage_dir, into),
            answers,
            protocol=pickle.HIGHEST_PROTOCOL,
        )
        answers.flush()


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        sys.exit(_child_main(int(sys.argv[2]), sys.argv[3]))
    sys.exit("usage: python -m extract --scheduler ADDRESS ... (this module is its worker side)")
