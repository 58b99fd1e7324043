"""Extraction on a Dask cluster: `python -m extract --scheduler ADDRESS` (see `extract.runner.run`).

Archives are tasks. A Dask worker runs the same per-archive function as the local pool
(`pipeline.stage_archive`), on the archive's absolute path, so every worker must see
DATA_DIR at the same path (a shared file system); the run checks that, and that every
worker runs the same extraction code, before it opens the database. The rows come back
through Dask as the newline-delimited JSON the store bulk-loads, and this process stays
the single writer (`runner._load_in_batches`): same incremental rules, `errors` rows,
kill-safety and progress as the local pool. A worker that dies mid-task is retried by
Dask (`distributed.scheduler.allowed-failures`); an archive whose task fails for good
becomes an archive-level `errors` row (stage `read`), as with the local pool.

Inside a Dask worker the task runs in a thread, where SIGALRM (the per-message time
budget, `pipeline.MESSAGE_BUDGET_SECONDS`) cannot reach it; so each worker thread hands
its archives to a child process of its own (`python -m extract.cluster --child`), which
has the budget and dies with the worker. Plain `subprocess`, because Dask's worker
processes are daemonic and multiprocessing refuses them children.

`ADDRESS`: `local:N` starts a `LocalCluster` of N single-threaded worker processes on
this machine (`local`: `--workers` of them); `tcp://host:8786` (any address
`distributed.Client` takes) or a scheduler file (`*.json`) joins a running cluster.
Dask is an optional extra (`pip install '.[cluster]'`, `make install-cluster`): this
module is imported only when `--scheduler` is given.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

from extract.pipeline import (
    EXTRACTOR_VERSION,
    StagedArchive,
    archive_identity,
    failed_archive,
    stage_archive,
    write_ndjson,
)
from extract.runner import RunError

# How long to wait for a scheduler to answer and for a first worker to join.
CONNECT_SECONDS = 30
# Re-read the cluster's size this often: workers may join or leave during a run.
RESIZE_SECONDS = 5.0
INSTALL_HINT = "pip install '.[cluster]' (or make install-cluster)"


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
    place of the runner's local pool (`staged`, `shutdown`)."""

    def __init__(self, scheduler: str, data_dir: Path, workers: int | None = None):
        distributed = _import_distributed()
        n_local = local_workers(scheduler, workers)
        self.cluster = None
        self.client = None
        try:
            if n_local is not None:
                # One thread a worker: the work is pure Python (the GIL), and the
                # worker's thread only waits for its child process.
                self.cluster = distributed.LocalCluster(
                    n_workers=n_local,
                    threads_per_worker=1,
                    processes=True,
                    # The scheduler's HTTP server on a free port: 8787 may be another
                    # cluster's. (Its dashboard pages need bokeh, not in the extra.)
                    dashboard_address=":0",
                )
                self.client = distributed.Client(self.cluster, set_as_default=False)
            elif scheduler.endswith(".json"):
                self.client = distributed.Client(
                    scheduler_file=scheduler, timeout=CONNECT_SECONDS, set_as_default=False
                )
            else:
                self.client = distributed.Client(
                    scheduler, timeout=CONNECT_SECONDS, set_as_default=False
                )
            self.client.wait_for_workers(1, timeout=CONNECT_SECONDS)
            self._check_workers(Path(data_dir).resolve())
            # Each worker starts its extraction process now, while this one hashes the
            # archives and opens the database (not waited for).
            self._started = [
                self.client.submit(
                    _start_child, key=f"prestart-{uuid.uuid4().hex}", workers=[w], pure=False
                )
                for w in self.client.nthreads()
            ]
        except BaseException as exc:
            self.shutdown()
            if isinstance(exc, Exception) and not isinstance(exc, RunError):
                raise RunError(f"cannot use the Dask cluster at {scheduler}: {exc}") from exc
            raise

    def _check_workers(self, data_dir: Path) -> None:
        """Every worker sees DATA_DIR at this path and runs this extraction code (else
        its rows would be extracted again by every later run)."""
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
        return max(1, sum(self.client.nthreads().values()))

    def staged(
        self, todo: list[Path], data_dir: Path, stage_dir: Path, results: bool
    ) -> Iterator[StagedArchive]:
        """Staged archives as they are done, at most two per worker thread in flight
        (bounded memory here and on the workers)."""
        distributed = _import_distributed()
        data_dir = Path(data_dir)
        root = str(data_dir.resolve())
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
                    key=f"extract-{path.name}-{uuid.uuid4().hex}",
                    pure=False,
                )
                in_flight[future.key] = path
                done.add(future)

        refill()
        try:
            for future in done:
                path = in_flight.pop(future.key)
                try:
                    archive, blobs = future.result()
                except Exception as exc:  # failed for good (KilledWorker ...), or lost
                    reason = f"archive not processed: {type(exc).__name__}: {exc}"
                    rows = failed_archive(archive_identity(path, data_dir), "read", reason, results)
                    archive, blobs = rows.archive, {"errors": _ndjson(rows.errors)}
                future.release()
                if time.monotonic() - sized >= RESIZE_SECONDS:
                    limit, sized = 2 * self.threads(), time.monotonic()
                refill()  # before the writer takes this one: the workers never wait for it
                yield _write_staged(archive, blobs, stage_dir)
        finally:
            # The run stopped early (an error, Ctrl-C): nothing more to compute.
            with contextlib.suppress(Exception):
                done.clear()

    def shutdown(self) -> None:
        for part in (self.client, self.cluster):
            if part is not None:
                with contextlib.suppress(Exception):
                    part.close()


def _ndjson(rows: list[dict]) -> bytes:
    import io

    buf = io.StringIO()
    write_ndjson(buf, rows)
    return buf.getvalue().encode("utf-8", "replace")


def _write_staged(archive: dict, blobs: dict[str, bytes], stage_dir: Path) -> StagedArchive:
    """A worker's rows as staged files of this run, for the store."""
    files = {}
    stem = uuid.uuid4().hex
    for table, data in blobs.items():
        files[table] = str(Path(stage_dir) / f"dask-{stem}.{table}.ndjson")
        Path(files[table]).write_bytes(data)
    return StagedArchive(archive, files)


# ---------------------------------------------------------------- on the workers


def _worker_facts(data_dir: str) -> tuple[bool, str]:
    return os.path.isdir(os.path.join(data_dir, "raw")), EXTRACTOR_VERSION


_local = threading.local()


def _start_child() -> None:
    """This worker thread's extraction process, started ahead of its first archive."""
    child = getattr(_local, "child", None)
    if child is None or not child.alive():
        _local.child = _Child()


def stage_on_worker(path: str, data_dir: str, results: bool) -> tuple[dict, dict[str, bytes]]:
    """The Dask task: one archive's `archives` row and its rows per table, as
    newline-delimited JSON, staged by this worker thread's child process. A child that
    dies on an archive makes it an archive-level `errors` row, as a dying worker of the
    local pool does."""
    _start_child()
    child = _local.child
    try:
        return child.call(path, data_dir, results)
    except (EOFError, OSError, pickle.UnpicklingError) as exc:
        code = child.close()
        _local.child = None
        reason = (
            f"archive not processed: the extraction process died (exit status {code}): "
            f"{type(exc).__name__}: {exc}"
        )
        rows = failed_archive(archive_identity(Path(path), Path(data_dir)), "read", reason, results)
        return rows.archive, {"errors": _ndjson(rows.errors)}


class _Child:
    """`python -m extract.cluster --child PID`: reads (path, data_dir, results) pickles
    on stdin, answers `_stage_bytes` pickles on stdout."""

    def __init__(self):
        self.stage_dir = tempfile.mkdtemp(prefix="extract-child-", dir=_scratch_dir())
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "extract.cluster", "--child", str(os.getpid()), self.stage_dir],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=Path(__file__).resolve().parents[1],
        )

    def alive(self) -> bool:
        return self.proc.poll() is None

    def call(self, path: str, data_dir: str, results: bool):
        pickle.dump((path, data_dir, results), self.proc.stdin, protocol=pickle.HIGHEST_PROTOCOL)
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


def _stage_bytes(path: str, data_dir: str, results: bool, stage_dir: str):
    staged = stage_archive(path, data_dir, stage_dir, results, True)
    blobs = {}
    for table, file in staged.files.items():
        blobs[table] = Path(file).read_bytes()
        Path(file).unlink()
    return staged.archive, blobs


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
    from extract.runner import _die_with_parent

    # The answers go to the original stdout; anything a library prints goes to stderr.
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    _die_with_parent(parent)
    _warm_up()
    enable_message_budget()
    requests = sys.stdin.buffer
    while True:
        try:
            path, data_dir, results = pickle.load(requests)
        except EOFError:
            return 0
        pickle.dump(
            _stage_bytes(path, data_dir, results, stage_dir),
            answers,
            protocol=pickle.HIGHEST_PROTOCOL,
        )
        answers.flush()


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        sys.exit(_child_main(int(sys.argv[2]), sys.argv[3]))
    sys.exit("usage: python -m extract --scheduler ADDRESS ... (this module is its worker side)")
