"""`python -m extract.dev.demo --data-dir DIR` (`make demo`): the whole job on the bundled
sample, offline, and a printed summary.

Steps, each the real thing: serve `data/sample/` with the local archive server
(`crawler.archive_server`, a subprocess on 127.0.0.1), `scrapy crawl asf-lists` against
it into DIR/raw/, `python -m extract` into DIR/asf.duckdb, then the report into
DIR/report/. Run again, it reuses what is there (the crawl and the extraction are
incremental). Logs of each step go to DIR/logs/. `summary(con)` returns the counts the
demo prints; `format_summary` returns the text.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import duckdb

import extract
import extract.runner
from extract.outputs.report import build_report

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "data" / "sample"
SERVER_START_TIMEOUT = 30  # seconds for the archive server to print its URL
STEP_TIMEOUT = 300  # seconds for one step (crawl or extraction); the demo takes far less

# Three queries the summary suggests; each works on any database the pipeline writes.
QUERIES = (
    (
        "Which projects post benchmarks?",
        "SELECT project, benchmark_messages, measurements FROM by_project "
        "WHERE benchmark_messages > 0",
    ),
    (
        "Before/after pairs and their ratio",
        "SELECT label, metric, before, after, round(ratio, 3) AS ratio FROM comparisons LIMIT 10",
    ),
    (
        "Formats people use",
        "SELECT format, count(*) AS tables FROM result_tables GROUP BY ALL ORDER BY tables DESC",
    ),
)


class DemoError(RuntimeError):
    """A step failed; the message says which and where its log is."""


@dataclass(frozen=True)
class Counts:
    lists: int
    archives: int
    messages: int
    benchmark_messages: int
    tables: int
    measurements: int
    comparisons: int
    errors: int


def summary(con: duckdb.DuckDBPyConnection) -> Counts:
    """The counts the demo prints, from the database (views must exist)."""
    row = con.execute(
        """SELECT (SELECT count(DISTINCT list) FROM messages),
                  (SELECT count(*) FROM archives),
                  (SELECT count(*) FROM messages),
                  (SELECT count(*) FROM benchmark_messages),
                  (SELECT coalesce(sum(n_tables), 0) FROM benchmark_messages),
                  (SELECT coalesce(sum(n_measurements), 0) FROM benchmark_messages),
                  (SELECT count(*) FROM comparisons),
                  (SELECT count(*) FROM errors)"""
    ).fetchone()
    return Counts(*(int(v) for v in row))


def format_summary(
    counts: Counts, *, data_dir: Path, db: Path, index: Path, timings: dict[str, float]
) -> str:
    steps = ", ".join(f"{k} {v:.1f}s" for k, v in timings.items())
    shown_dir = shlex.quote(_shown(data_dir))
    lines = [
        "",
        "asf-bench-mail demo: done (" + steps + ")",
        "",
        f"  lists searched       {counts.lists:>6}",
        f"  monthly archives     {counts.archives:>6}",
        f"  messages             {counts.messages:>6}",
        f"  benchmark messages   {counts.benchmark_messages:>6}",
        f"  result tables        {counts.tables:>6}   (in benchmark messages)",
        f"  measurements         {counts.measurements:>6}   (in benchmark messages)",
        f"  before/after pairs   {counts.comparisons:>6}",
        f"  errors recorded      {counts.errors:>6}",
        "",
        f"  report:    {index.resolve().as_uri()}",
        f"  database:  {_shown(db)}",
        f"  raw mail:  {_shown(data_dir / 'raw')}",
        "",
        f"Query it: make sql DATA_DIR={shown_dir}   (or make export DATA_DIR={shown_dir})",
        "Three queries to try:",
    ]
    for title, sql in QUERIES:
        lines += [
            f"  -- {title}",
            f'  .venv/bin/python -m extract.outputs.sql --data-dir {shown_dir} -c "{sql}"',
        ]
    return "\n".join(lines)


def _shown(path: Path) -> str:
    """A path relative to the current directory when it is under it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _tail(path: Path, n: int = 15) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-n:])
    except OSError:
        return ""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if "PYTHONPATH" in env else "")
    env["SCRAPY_SETTINGS_MODULE"] = "crawler.settings"
    return env


class ArchiveServerProcess:
    """The local archive server as a subprocess; `.url` once started."""

    def __init__(self, root: Path, log: Path):
        self.root, self.log = root, log
        self.proc: subprocess.Popen | None = None
        self.url = ""

    def __enter__(self) -> ArchiveServerProcess:
        cmd = [sys.executable, "-m", "crawler.archive_server", "--root", str(self.root)]
        cmd += ["--port", "0", "--crawl-delay", "0"]
        self._stderr = open(self.log, "w")  # noqa: SIM115 - closed in __exit__
        self.proc = subprocess.Popen(
            cmd, cwd=REPO, env=_env(), stdout=subprocess.PIPE, stderr=self._stderr, text=True
        )
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: lines.put(self.proc.stdout.readline()), daemon=True).start()
        try:
            first = lines.get(timeout=SERVER_START_TIMEOUT)
        except queue.Empty:
            first = ""
        if not first.startswith("serving "):
            self.__exit__(None, None, None)
            raise DemoError(f"the archive server did not start; see {self.log}:\n{_tail(self.log)}")
        self.url = first.split()[1]
        return self

    def __exit__(self, *exc) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc and self.proc.stdout:
            self.proc.stdout.close()
        self._stderr.close()


def _stop_group(proc: subprocess.Popen) -> None:
    """End a step and every process it started (extraction workers too)."""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def _run(step: str, cmd: list[str], log: Path) -> None:
    """Run one step in its own process group, its output into `log`."""
    with open(log, "w") as out:
        proc = subprocess.Popen(
            cmd, cwd=REPO, env=_env(), stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        try:
            returncode = proc.wait(timeout=STEP_TIMEOUT)
        except subprocess.TimeoutExpired as exc:
            _stop_group(proc)
            raise DemoError(f"{step} took more than {STEP_TIMEOUT}s; see {log}") from exc
        except BaseException:  # Ctrl-C: leave nothing running behind
            _stop_group(proc)
            raise
    if returncode != 0:
        raise DemoError(
            f"{step} failed (exit {returncode}): {' '.join(cmd)}\nsee {log}:\n{_tail(log)}"
        )


def crawl_command(url: str, data_dir: Path, lists: str) -> list[str]:
    """The real crawl, without the politeness delays a local server does not need."""
    return [
        sys.executable, "-m", "scrapy", "crawl", "asf-lists",
        "-a", f"lists={lists}",
        "-s", f"ARCHIVE_URL={url}",
        "-s", f"DATA_DIR={data_dir}",
        "-s", "DOWNLOAD_DELAY=0",
        "-s", "AUTOTHROTTLE_ENABLED=False",
        "-s", "LOG_LEVEL=INFO",
    ]  # fmt: skip


def _raw_files(data_dir: Path) -> dict[Path, tuple[int, int]]:
    """Raw archives with (size, mtime), to tell what a crawl fetched."""
    return {
        p: (st.st_size, st.st_mtime_ns)
        for p in (data_dir / "raw").rglob("*.mbox.gz")
        if (st := p.stat())
    }


def _extracted_since(db: Path, moment: datetime) -> tuple[int, int]:
    """(archives extracted since `moment`, all archives in the database)."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(
            "SELECT count(*) FILTER (WHERE extracted_at >= ?), count(*) FROM archives", [moment]
        ).fetchone()
    finally:
        con.close()


def run_demo(data_dir: Path, *, sample: Path = SAMPLE, lists: str = "*", out=print) -> Counts:
    """Serve, crawl, extract, report; print progress and the summary through `out`."""
    data_dir = data_dir.resolve()
    if not sample.is_dir() or not any(sample.iterdir()):
        raise DemoError(f"no sample at {sample}: it ships with the repository under data/sample/")
    logs = data_dir / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    db = data_dir / "asf.duckdb"
    timings: dict[str, float] = {}

    t = time.monotonic()
    with ArchiveServerProcess(sample, logs / "archive_server.log") as server:
        out(f"demo: serving {_shown(sample)} at {server.url} (local archive server)")
        out(f"demo: crawling every list with scrapy into {_shown(data_dir / 'raw')} …")
        before = _raw_files(data_dir)
        _run("crawl", crawl_command(server.url, data_dir, lists), logs / "crawl.log")
    after = _raw_files(data_dir)
    fetched = sum(after[p] != before.get(p) for p in after)
    out(f"demo: crawl: {fetched} monthly archives fetched, {len(after) - fetched} already there")
    timings["crawl"] = time.monotonic() - t

    t, started = time.monotonic(), datetime.now(UTC)
    out(f"demo: extracting into {_shown(db)} …")
    with open(logs / "extract.log", "w") as log:
        try:
            log.write(extract.run(data_dir, progress_stream=log).line + "\n")
        except extract.runner.RunError as exc:
            raise DemoError(f"extract failed: {exc}") from exc
    extracted, total = _extracted_since(db, started)
    out(f"demo: extract: {extracted} archives extracted, {total - extracted} already up to date")
    timings["extract"] = time.monotonic() - t

    t = time.monotonic()
    out(f"demo: writing the report into {_shown(data_dir / 'report')} …")
    try:
        report = build_report(db, data_dir / "report")
    except (OSError, duckdb.Error) as exc:
        raise DemoError(f"report failed: {exc}") from exc
    timings["report"] = time.monotonic() - t

    con = duckdb.connect(str(db), read_only=True)
    try:
        counts = summary(con)
    finally:
        con.close()
    out(format_summary(counts, data_dir=data_dir, db=db, index=report.index, timings=timings))
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m extract.dev.demo",
        description="The whole job on the bundled sample, offline: serve, crawl, extract, report.",
    )
    parser.add_argument(
        "--data-dir", type=Path, default=Path("data/demo"), help="default: data/demo"
    )
    parser.add_argument("--sample", type=Path, default=SAMPLE, help="default: data/sample")
    parser.add_argument("--lists", default="*", help="list patterns to crawl (default: all)")
    args = parser.parse_args(argv)
    try:
        run_demo(args.data_dir, sample=args.sample, lists=args.lists)
    except DemoError as exc:
        print(f"demo: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
