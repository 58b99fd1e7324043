"""The demo's database, built once per test session with the real pipeline (archive
server on data/sample → scrapy crawl → extract → report), shared by test_demo.py and
test_report_browser.py. Returns a `DemoRun`."""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class DemoRun:
    data_dir: Path
    stdout: str
    stderr: str
    returncode: int
    seconds: float

    @property
    def db(self) -> Path:
        return self.data_dir / "asf.duckdb"

    @property
    def index(self) -> Path:
        return self.data_dir / "report" / "index.html"


_RUNS: dict[Path, DemoRun] = {}


def run_demo(data_dir: Path) -> DemoRun:
    """`python -m extract.dev.demo --data-dir DIR`, as `make demo` runs it."""
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "extract.dev.demo", "--data-dir", str(data_dir)],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    return DemoRun(data_dir, done.stdout, done.stderr, done.returncode, time.monotonic() - start)


def demo_once(tmp_path_factory) -> DemoRun:
    """The first demo run of this session (made on first use)."""
    base = tmp_path_factory.getbasetemp()
    if base not in _RUNS:
        _RUNS[base] = run_demo(base / "demo")
    run = _RUNS[base]
    assert run.returncode == 0, f"demo failed:\n{run.stdout}\n{run.stderr}"
    return run
