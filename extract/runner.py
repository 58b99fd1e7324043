"""The extraction run, as a library: `run(data_dir, ...)` reads every
DATA_DIR/raw/**/*.mbox.gz into DATA_DIR/asf.duckdb and returns a `RunSummary`.
`python -m extract` (the CLI), the demo and the bench all call it.

Incremental: only archives whose sha256 differs from the one recorded in
`archives` (or that are not recorded), or that other extraction code extracted
(`archives.extractor`), are processed; `full=True` rebuilds everything.
`messages_only=True` stores the messages without looking for benchmark results;
a later run without it processes those archives again to add them.
Workers parse archives in parallel processes (`worker.stage_archive`); this
process is the single writer and loads their output in batches (`db.store.Store.load`)
into its own copy of the database, published when the run ends: readers never wait
for a run (extract/db/store.py).

Nothing in one archive stops the run: an archive that a worker cannot process (or
whose worker dies), or whose rows the database refuses, becomes an archive-level
`errors` row (its batch is loaded again archive by archive to find it), and the run
goes on. `RunSummary.unstored` lists the archives that could not even be recorded
so (the CLI then exits 1). A message over `pipeline.MESSAGE_BUDGET_SECONDS` becomes an
`errors` row in the worker. Workers die with this process (`PR_SET_PDEATHSIG` on
Linux, else a thread watching the parent). Everything the run writes is beside the
database (DATA_DIR unless `db` says otherwise): the copy, and `.staging/` (staged
files, DuckDB's spill files, a local Dask cluster's scratch); each run removes what
killed runs left there.
"""

from __future__ import annotations

import contextlib
import errno
import multiprocessing
import os
import re
import shutil
import sys
import time
from collections import deque
from collections.abc import Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import duckdb

from extract.db.staging import StagedArchive
from extract.db.store import UNREAD_PREFIX, Store, StoreBusy, staging_root
from extract.pipeline import EXTRACTOR_VERSION, archive_identity, failed_archive, file_sha256
from extract.pool import Pool, RunError
from extract.progress import Progress
from extract.worker import init_worker, stage_archive, stage_failed

# A batch is loaded as soon as the previous load is done, and at the latest when it
# holds this many messages or archives, or is this old: loads keep pace with the
# workers, and a killed run loses little work.
BATCH_MESSAGES = 20_000
BATCH_ARCHIVES = 50
BATCH_SECONDS = 2.0


class Interrupted(Exception):
    """Ctrl-C (SIGINT): the batches committed before it are kept (published), unless
    the run was a --full rebuild."""

    def __init__(self, committed: int, total: int, full: bool):
        self.committed, self.total, self.full = committed, total, full
        self.kept = not full  # False once publishing what was committed failed
        super().__init__(committed, total, full)

    def __str__(self) -> str:
        if self.full:
            return "interrupted: --full rebuild dropped, the database is as it was before"
        if not self.kept:
            return "interrupted: the database is as it was before this run"
        return (
            f"interrupted: {self.committed} of {self.total} archives committed; "
            "the next run does the rest"
        )


class DiskFull(Exception):
    """No space left on the device under `path`: the run stopped, the batches committed
    before are kept (an interrupted --full keeps the old database)."""

    def __init__(self, path: Path, needed: int | None):
        self.path, self.needed = path, needed
        self.kept = True  # False when what was committed could not be published
        super().__init__(path, needed)

    def __str__(self) -> str:
        # The free space is measured when the message is shown: after the run removed
        # its staged files.
        free = _free_bytes(self.path)
        need = f"the rest needs about {_mb(self.needed)}" if self.needed else "more space needed"
        have = f", {_mb(free)} free now" if free is not None else ""
        return (
            f"disk full under {self.path}: {need}{have}; free space (or use another "
            "DATA_DIR/--db) and run again: "
            + ("what was committed is kept" if self.kept else "the database is as it was")
        )


# The database takes about this many bytes per compressed archive byte (the demo: 3.2;
# bodies and full text are stored, and the columns compress less than gzip does).
DB_BYTES_PER_ARCHIVE_BYTE = 3


def _mb(n: int | None) -> str:
    return f"{(n or 0) / 1e6:,.0f} MB" if (n or 0) >= 1e6 else f"{(n or 0) / 1e3:,.0f} kB"


def _free_bytes(path: Path) -> int | None:
    for p in (path, *path.parents):
        with contextlib.suppress(OSError):
            return shutil.disk_usage(p).free
    return None


def _is_disk_full(exc: BaseException | None) -> bool:
    """Whether ENOSPC is behind `exc` (an OSError, or DuckDB's text for it), anywhere in
    its chain of causes."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
            return True
        if "No space left on device" in str(exc) or "[Errno 28]" in str(exc):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


@dataclass(slots=True)
class RunSummary:
    archives: int  # archives found under raw/
    processed: int  # archives (re)extracted by this run
    messages: int  # messages read by this run
    errors: int  # errors rows written by this run (its archives', and what it did not read)
    db: Path
    db_messages: int  # messages in the database after the run
    db_errors: int
    line: str  # the closing `key=value` line the CLI prints
    # archives that could not be stored, not even as an `errors` row: "path: reason"
    unstored: list[str] = field(default_factory=list)
    # what under raw/ was not read, (path relative to DATA_DIR, why): in `errors` too
    unread: list[tuple[str, str]] = field(default_factory=list)


def run(
    data_dir: str | Path,
    *,
    db: str | Path | None = None,
    workers: int | None = None,
    full: bool = False,
    messages_only: bool = False,
    progress_stream: TextIO | None = None,
    scheduler: str | None = None,
) -> RunSummary:
    """Extract every archive under `data_dir`/raw into `db` (default
    `data_dir`/asf.duckdb) with `workers` processes (default: the machine's cores),
    or on the Dask cluster at `scheduler` (`local:N`, an address; see `extract.cluster`).
    Raises `RunError` when the run cannot start."""
    data_dir = Path(data_dir)
    workers = workers or os.cpu_count() or 1
    if workers < 1:
        raise RunError("workers must be at least 1")
    if not data_dir.is_dir():
        if data_dir.exists():
            raise RunError(
                f"data dir {data_dir} is a file, not a directory: give the directory the "
                "crawl wrote (it holds raw/), e.g. DATA_DIR=data"
            )
        raise RunError(f"data dir {data_dir} does not exist{_elsewhere_hint(data_dir)}")
    archives = find_archives(data_dir)
    unread = unread_files(data_dir)
    if not archives:
        if unread:
            shown = ", ".join(path for path, _ in unread[:3])
            more = f" and {len(unread) - 3} more" if len(unread) > 3 else ""
            raise RunError(
                f"no archives found under {data_dir / 'raw'}: {len(unread)} files there "
                f"are none ({shown}{more}); only raw/<domain>/<list>/<YYYY-MM>.mbox.gz "
                "are read: move mbox files you have out of raw/ and `make import SRC=…` them"
            )
        raise RunError(
            f"no archives found under {data_dir / 'raw'} "
            f"(expected raw/<domain>/<list>/<YYYY-MM>.mbox.gz){_elsewhere_hint(data_dir)}"
        )
    db_path = Path(db) if db else data_dir / "asf.duckdb"
    if scheduler:
        from extract.cluster import Cluster  # Dask is an optional extra: imported only here

        # (its scratch beside the database too)
        pool: Pool = Cluster(scheduler, data_dir, workers, staging_root(db_path))
        if pool.dashboard_link:
            stream = progress_stream or sys.stderr
            print(f"extract: Dask dashboard: {pool.dashboard_link}", file=stream)
    else:
        # Always a pool, even for one archive: only a worker process may take SIGALRM for
        # the message budget, and a worker that hangs or dies cannot take the run along.
        if not messages_only:  # (compiled once here, forked workers inherit it)
            from extract.results import prefilter

            prefilter.warm()
        pool = _Pool(workers)
    try:
        return _extract(
            data_dir,
            db_path,
            archives,
            unread,
            pool,
            workers,
            full,
            messages_only,
            progress_stream,
        )
    except (KeyboardInterrupt, Interrupted, DiskFull):
        if kill := getattr(pool, "kill", None):
            kill()
        raise
    finally:
        pool.shutdown()


def _elsewhere_hint(data_dir: Path) -> str:
    """What to do when `data_dir` holds no archive: the data dirs in it (or beside it,
    when it does not exist) that do, such as the demo's `data/demo`, else how to get
    archives."""
    root = data_dir if data_dir.is_dir() else data_dir.parent
    found = []
    with contextlib.suppress(OSError):
        found = [d for d in sorted(root.iterdir()) if d.is_dir() and _has_archive(d / "raw")]
    if found:
        where = ", ".join(str(d / "raw") for d in found[:3])
        return f"; archives are under {where}: DATA_DIR={found[0]}"
    return "; `make crawl` fetches archives, `make import SRC=…` lays out mbox files you have"


def _has_archive(raw: Path) -> bool:
    with contextlib.suppress(OSError):
        return next(raw.glob("*/*/*.mbox.gz"), None) is not None
    return False


def find_archives(data_dir: Path) -> list[Path]:
    return sorted(p for p in (data_dir / "raw").glob("**/*.mbox.gz") if p.is_file())


def unreadable_dirs(data_dir: Path) -> list[tuple[str, str]]:
    """(path relative to DATA_DIR with a trailing '/', reason) of every directory under
    raw/ that cannot be listed: the glob skips them silently, their archives would be
    missing without a word."""
    found = []

    def note(exc: OSError) -> None:
        rel = os.path.relpath(exc.filename, data_dir) if exc.filename else "raw"
        found.append((rel.rstrip("/") + "/", f"directory not readable: {exc.strerror or exc}"))

    for _ in os.walk(data_dir / "raw", onerror=note):
        pass
    return sorted(found)


# What the crawler keeps under raw/ beside its archives, which is no mail to read: an
# archive's sidecar (crawler.pipelines.sidecar_path), a running crawl's partial file.
_CRAWLER_FILES = re.compile(r".*\.mbox\.gz\.json|\.partial-.*")


def unread_files(data_dir: Path) -> list[tuple[str, str]]:
    """(path relative to DATA_DIR, why) of every file under raw/ that the run does not
    read: anything but `*.mbox.gz` archives and the crawler's own files. A plain mbox
    month, a `.mbox.bz2`, an `.eml`, a README: none of them is lost without a word."""
    from extract.mail.mbox import sniff  # (what a file is, told from its bytes)

    found = []
    for root, _, names in os.walk(data_dir / "raw"):  # (unreadable_dirs tells the unlistable)
        for name in names:
            if name.endswith(".mbox.gz") or _CRAWLER_FILES.fullmatch(name):
                continue
            path = Path(root) / name
            kind = sniff(path)
            if isinstance(kind, str):
                what = f"no mail ({kind})" if not kind.startswith("not mail") else kind
                found.append((_rel(path, data_dir), f"{UNREAD_PREFIX}{what}"))
                continue
            compression, single = kind
            what = "one message" if single else "an mbox"
            what += f", {compression}-compressed" if compression else ""
            found.append(
                (
                    _rel(path, data_dir),
                    f"{UNREAD_PREFIX}{what}, but only raw/<domain>/<list>/<YYYY-MM>.mbox.gz "
                    "archives are read: move it out of raw/ and `make import SRC=…` it",
                )
            )
    return sorted(found)


def _rel(path: Path, data_dir: Path) -> str:
    return os.path.relpath(path, data_dir).replace(os.sep, "/")


# The first bytes of a gzip file; a plain mbox starts with its envelope line.
GZIP_MAGIC = b"\x1f\x8b"


def not_an_archive(path: Path) -> str | None:
    """Why `path` (named .mbox.gz) cannot be an archive, or None: neither gzip nor a
    plain mbox (an HTML error page saved under the name, say). The reader would take it
    for mail and record every message as 'no headers', hiding the real reason."""
    try:
        with open(path, "rb") as f:
            head = f.read(16)
    except OSError:
        return None  # the worker records why it cannot be read
    if not head or head.startswith(GZIP_MAGIC) or head.startswith(b"From "):
        return None
    return f"not a gzip file: it starts with {head[:16]!r}"


def _worker_pool(n: int) -> ProcessPoolExecutor:
    """n worker processes, started now, before this process opens DuckDB: forked
    while it runs no other thread (forking a multi-threaded process can deadlock the
    child), they start in milliseconds with every module imported, where spawned
    ones take half a second to import them. Spawned where fork is unavailable.
    Each worker dies with this process and has the per-message time budget."""
    fork = "fork" in multiprocessing.get_all_start_methods() and _single_threaded()
    pool = ProcessPoolExecutor(
        n,
        mp_context=multiprocessing.get_context("fork" if fork else "spawn"),
        initializer=init_worker,
        initargs=(os.getpid(),),
    )
    if fork:
        pool.submit(os.getpid)  # the first task forks them (spawned ones start on demand)
    return pool


class _Pool:
    """The local pool (`extract.pool.Pool`): worker processes, made again when a worker
    dies (a broken pool takes every archive in flight with it; they become errors
    rows, the run goes on)."""

    def __init__(self, n: int):
        self.n = n
        self.executor = _worker_pool(n)

    def renew(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.executor = _worker_pool(self.n)  # spawned: DuckDB's threads run now

    def staged(self, todo, data_dir, stage_dir, results) -> Iterator[StagedArchive]:
        return _staged(todo, data_dir, stage_dir, self, self.n, results)

    def shutdown(self) -> None:
        # Waiting for the workers to exit: the interpreter would join them before it
        # exits anyway, and Python 3.11's exit hook races a pool shut down without
        # waiting (it wakes the pool's manager thread through a pipe that thread may be
        # closing: "Exception ignored ... Bad file descriptor" on stderr, seen under load)
        self.executor.shutdown(wait=True, cancel_futures=True)

    def kill(self) -> None:
        """Stop the workers now (Ctrl-C, disk full): the interpreter would otherwise
        wait at exit for the archives they are on. Their staged files go with the
        run's staging directory."""
        for proc in list((getattr(self.executor, "_processes", None) or {}).values()):
            with contextlib.suppress(OSError, AttributeError):
                proc.kill()
        self.shutdown()


def _single_threaded() -> bool:
    """Whether this process runs one thread, native ones included (DuckDB's threads
    are invisible to `threading`); False where /proc cannot tell."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def _extract(
    data_dir: Path,
    db_path: Path,
    archives: list[Path],
    unread: list[tuple[str, str]],
    pool: Pool,
    workers: int,
    full: bool,
    messages_only: bool,
    progress_stream: TextIO | None,
) -> RunSummary:
    try:
        store = Store(db_path, full=full)
    except StoreBusy as exc:
        raise RunError(str(exc)) from None
    except (duckdb.Error, OSError) as exc:
        if _is_disk_full(exc):
            # the run's copy of the database, and the growth (see below)
            need = _size(db_path) + sum(_size(p) for p in archives) * 2 * DB_BYTES_PER_ARCHIVE_BYTE
            nothing = DiskFull(db_path.parent, need)
            nothing.kept = False  # (nothing was committed: the database is as it was)
            raise nothing from None
        hint = "" if full else " (`--full` builds it anew)"
        raise RunError(f"cannot open {db_path}: {_first_line(exc)}{hint}") from exc
    unstored: list[str] = []
    # An update publishes what it committed, whatever stops it (every batch is whole);
    # a --full rebuild only when it is complete.
    complete = not full
    todo: list[Path] = []
    failing = True  # until the body completes: a close error must not hide the first one
    stopped: Interrupted | DiskFull | None = None  # what stops the run, told once closed
    try:
        unread = unreadable_dirs(data_dir) + unread
        store.set_unread(unread)
        known = store.known_archives()
        results = not messages_only
        todo = []
        for path in archives:
            sha = _sha(path)
            old = known.get(archive_identity(path, data_dir)[0], (None, False, None))
            old_sha, had_results, old_code = old
            if (
                sha is None
                or old_sha != sha
                or old_code != EXTRACTOR_VERSION  # extracted by other code: redo it
                or (results and not had_results)
            ):
                todo.append(path)
        progress = Progress(len(todo), progress_stream, total_bytes=sum(map(_size, todo)))
        archives_read = _record_non_archives(todo, data_dir, store, progress, results)
        staged = pool.staged(archives_read, data_dir, store.tmp_dir, results)
        _load_in_batches(staged, store, progress, unstored, results)
        progress.finish()
        n_stored, n_err = store.con.execute(
            "SELECT (SELECT count(*) FROM messages), (SELECT count(*) FROM errors)"
        ).fetchone()
        # the errors rows this run wrote: of the archives it read, and of what it did not
        run_errors = len(unread) + store.count_errors(
            [archive_identity(p, data_dir)[0] for p in todo]
        )
        # A --full rebuild that lost archives keeps the old database.
        complete = not (full and unstored)
        failing = False
    except KeyboardInterrupt:
        stopped = Interrupted(store.committed, len(todo), full)
        raise stopped from None
    except Exception as exc:
        if _is_disk_full(exc):
            left = max(sum(_size(p) for p in todo) - store.committed_bytes, 0)
            # Twice the growth: a batch is in the staging files and the WAL before the
            # checkpoint writes it into the database.
            stopped = DiskFull(db_path.parent, 2 * left * DB_BYTES_PER_ARCHIVE_BYTE)
            raise stopped from None
        raise
    finally:
        published = False
        try:
            published = store.close(complete=complete)
        except Exception as exc:
            if not failing:
                if _is_disk_full(exc):  # the last checkpoint
                    raise DiskFull(db_path.parent, None) from None
                raise
        finally:
            if stopped is not None:
                stopped.kept = published
    extra = {"unstored": len(unstored)} if unstored else {}
    if full and unstored:
        extra["kept_old_db"] = "yes"
    if unread:
        extra["unread"] = len(unread)
    line = progress.summary(
        errors=run_errors,
        unchanged=len(archives) - len(todo),
        db=db_path,
        db_messages=n_stored,
        db_errors=n_err,
        **extra,
    )
    return RunSummary(
        archives=len(archives),
        processed=len(todo),
        messages=progress.messages,
        errors=run_errors,
        db=db_path,
        db_messages=n_stored,
        db_errors=n_err,
        line=line,
        unstored=unstored,
        unread=unread,
    )


def _record_non_archives(
    todo: list[Path], data_dir: Path, store: Store, progress: Progress, results: bool
) -> list[Path]:
    """Record the files of `todo` that cannot be archives as archive-level `errors` rows
    saying why (`not_an_archive`); return the others."""
    rest = []
    for path in todo:
        reason = not_an_archive(path)
        if reason is None:
            rest.append(path)
            continue
        store.replace([failed_archive(archive_identity(path, data_dir), "read", reason, results)])
        progress.update(messages=0, errors=1, size=_size(path))
    return rest


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _sha(path: Path) -> str | None:
    """The archive's sha256, or None when it cannot be read (it is then processed, and
    the worker records why it failed)."""
    try:
        return file_sha256(path)
    except OSError:
        return None


def _staged(
    todo: list[Path],
    data_dir: Path,
    stage_dir: Path,
    pool: Pool,
    n: int,
    results: bool,
) -> Iterator[StagedArchive]:
    """Staged archives as they are done, from the pool's n workers with at most 2n
    archives in flight (bounded memory and disk). A worker that dies breaks the pool,
    and every archive in flight fails with it, though one of them at most killed it:
    those are run again one at a time on a new pool, alone, so that only the one that
    kills its worker again becomes an archive-level `errors` row; the others are
    stored. An archive whose worker fails otherwise is such a row at once."""
    pending = deque(todo)
    suspects: deque[Path] = deque()  # in flight when a worker died: run alone
    in_flight: dict[Future, Path] = {}
    executor_of: dict[Future, object] = {}  # (a pool broken once is renewed once)
    alone: Future | None = None  # the suspect running by itself
    # A single worker leaves the JSON encoding to this process, which then has a core
    # of its own; the encoding for several would make it their bottleneck (0.05 ms a
    # message on top of DuckDB's 0.06, against a worker's 0.16 when it only reads).
    encode = not (n == 1 and (os.cpu_count() or 1) > 1)

    def submit(path: Path) -> Future:
        try:
            fut = pool.executor.submit(stage_archive, path, data_dir, stage_dir, results, encode)
        except BrokenProcessPool:
            pool.renew()
            fut = pool.executor.submit(stage_archive, path, data_dir, stage_dir, results, encode)
        in_flight[fut], executor_of[fut] = path, pool.executor
        return fut

    while True:
        if suspects and not in_flight:
            alone = submit(suspects.popleft())
        while not suspects and len(in_flight) < 2 * n and pending:
            submit(pending.popleft())
        if not in_flight:
            return
        done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
        broken = False
        for fut in done:
            path = in_flight.pop(fut)
            executor = executor_of.pop(fut)
            try:
                result = fut.result()
            except Exception as exc:  # the worker died, or its result did not come back
                if isinstance(exc, BrokenProcessPool):
                    broken |= executor is pool.executor
                    if fut is not alone:
                        suspects.append(path)
                        continue
                reason = f"archive not processed: {type(exc).__name__}: {exc}"
                result = stage_failed(path, data_dir, reason, results, stage_dir)
            yield result
        if broken:
            pool.renew()


def _load_in_batches(
    staged: Iterator[StagedArchive],
    store: Store,
    progress: Progress,
    unstored: list[str],
    results: bool = True,
) -> None:
    """The single writer: one transaction per batch of archives. A batch loads in a
    thread of its own while this one collects the next from the workers, so that
    they never wait for the database (DuckDB releases the GIL while it loads).
    A batch that fails to load is loaded again archive by archive; an archive that
    fails alone is stored as an archive-level `errors` row (stage `store`), and one
    that cannot even be stored so is added to `unstored`."""
    batch: list[StagedArchive] = []
    batch_messages, batch_started = 0, time.monotonic()
    loader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="load")
    loading: tuple[Future, list[StagedArchive]] | None = None

    def wait_for_load() -> None:
        nonlocal loading
        if loading is not None:
            future, loaded = loading
            loading = None
            try:
                future.result()
            except Exception as exc:
                if _is_disk_full(exc):  # one by one would fail the same way
                    raise
                loaded = _load_one_by_one(loaded, store, unstored, results)
            for s in loaded:
                a = s.archive
                progress.update(messages=a["n_messages"], errors=a["n_errors"], size=a["size"] or 0)

    def flush() -> None:
        nonlocal batch, batch_messages, batch_started, loading
        wait_for_load()  # one load at a time: a single writer, and bounded disk
        loading = (loader.submit(store.load, batch), batch)
        batch, batch_messages, batch_started = [], 0, time.monotonic()

    try:
        for s in staged:
            if _failed_for_space(s):  # stop at once: every later archive would fail too
                raise OSError(errno.ENOSPC, "No space left on device", str(store.tmp_dir))
            batch.append(s)
            batch_messages += s.archive["n_messages"]
            if loading is not None and loading[0].done():
                wait_for_load()
            # Load as soon as the loader is free (so the batch left at the end is
            # small), and at the latest when the batch is full or old.
            if (
                loading is None
                or batch_messages >= BATCH_MESSAGES
                or len(batch) >= BATCH_ARCHIVES
                or time.monotonic() - batch_started >= BATCH_SECONDS
            ):
                flush()
        if batch:
            flush()
        wait_for_load()
    finally:
        loader.shutdown(wait=True)


def _failed_for_space(s: StagedArchive) -> bool:
    """Whether a worker could not stage this archive for want of space (its only row
    is an archive-level error saying so; the file is a line)."""
    if s.archive.get("sha256") is not None or set(s.files) != {"errors"}:
        return False
    try:
        with open(s.files["errors"], encoding="utf-8", errors="replace") as f:
            return "[Errno 28]" in f.read(4096)
    except OSError:
        return False


def _load_one_by_one(
    loaded: list[StagedArchive], store: Store, unstored: list[str], results: bool
) -> list[StagedArchive]:
    """Load a failed batch's archives one at a time; returns what was stored for
    each (its rows, or its archive-level `errors` row)."""
    out = []
    for s in loaded:
        try:
            store.load([s])
            out.append(s)
            continue
        except Exception as exc:
            if _is_disk_full(exc):
                raise
            reason = f"archive not stored: {type(exc).__name__}: {exc}"
        finally:
            store.discard([s])
        a = s.archive
        rows = failed_archive((a["path"], a["list"], a["month"]), "store", reason, results)
        try:
            store.replace([rows])
        except Exception as exc:
            unstored.append(f"{a['path']}: {reason} (and then {type(exc).__name__}: {exc})")
            continue
        out.append(StagedArchive(rows.archive, {}))
    return out
