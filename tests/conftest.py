"""Shared helpers and fixtures for the whole suite.

Shared data: tests marked `shared` read third-party material where it lives, in
`../shared` beside the repository (or `$SHARED_DIR`): the labelled corpus, the format
samples, peer archives. Where it is missing (a user's clone) they are skipped, and
the skip says why; with `REQUIRE_SHARED=1` (CI) a missing directory fails them
instead, so a green CI run has run them all.

Markers: `e2e` (real crawls, servers, the browser: `make test-fast` leaves them out),
`shared` (needs ../shared), `slow`.
"""

from __future__ import annotations

import gzip
import os
import re
import signal
from contextlib import contextmanager
from email import message_from_bytes
from email.utils import parsedate_to_datetime
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SEEDS = REPO / "tests" / "fixtures" / "seeds"
SHARED = Path(os.environ.get("SHARED_DIR") or REPO.parent / "shared")


def shared_path(*parts: str) -> Path:
    """A path under ../shared; skips the calling test (fails it under REQUIRE_SHARED=1)
    when that is not there."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        reason = f"shared data not found: {path} (clone beside ../shared or set SHARED_DIR)"
        if os.environ.get("REQUIRE_SHARED"):
            pytest.fail(reason)
        pytest.skip(reason)
    return path


def shared_available(*parts: str) -> bool:
    return SHARED.joinpath(*parts).exists()


class _TooSlow(BaseException):  # not Exception: parsers catch those to stay alive
    pass


def _alarm(*_):
    raise _TooSlow


@contextmanager
def time_limit(seconds: int, what: str):
    """Fail the test when the block runs longer than `seconds` (SIGALRM)."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        yield
    except _TooSlow:
        pytest.fail(f"{what} takes over {seconds} s")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def seed(prefix: str) -> str:
    """The text of seed `prefix` (`000` … `004`), the user's own messages."""
    return next(SEEDS.glob(f"{prefix}_*.txt")).read_text(encoding="utf-8")


def write_mboxrd(eml: Path, data_dir: Path) -> None:
    """Append one .eml to its month's archive, as lists.apache.org serves it."""
    data = eml.read_bytes()
    sent = parsedate_to_datetime(message_from_bytes(data)["Date"])
    domain, list_name = eml.parent.parent.name, eml.parent.name
    dest = data_dir / "raw" / domain / list_name / f"{sent:%Y-%m}.mbox.gz"
    dest.parent.mkdir(parents=True, exist_ok=True)
    escaped = re.sub(rb"^(>*From )", rb">\1", data, flags=re.M)
    envelope = f"From {eml.stem}@sample {sent:%a %b %d %H:%M:%S %Y}\n".encode()
    with gzip.open(dest, "ab") as f:
        f.write(envelope + escaped.rstrip(b"\n") + b"\n\n")


def pytest_collection_modifyitems(config, items):
    for item in items:  # the browser tests are end-to-end tests
        if item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.e2e)
    # A test that reads ../shared says so by its marker; skip it up front when the
    # data is missing, so it is reported as not run with the reason.
    if SHARED.is_dir():
        return
    reason = f"shared data not found: {SHARED} (clone beside ../shared or set SHARED_DIR)"
    needing = [item for item in items if item.get_closest_marker("shared")]
    if needing and os.environ.get("REQUIRE_SHARED"):
        raise pytest.UsageError(f"REQUIRE_SHARED=1 but {reason}: {len(needing)} tests need it")
    for item in needing:
        item.add_marker(pytest.mark.skip(reason=reason))


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter):
    def reason(report) -> str:
        longrepr = report.longrepr
        return longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)

    skipped = [
        r for r in terminalreporter.stats.get("skipped", []) if "shared data not found" in reason(r)
    ]
    if skipped:
        terminalreporter.write_line(
            f"{len(skipped)} test(s) that need ../shared did not run: {SHARED} is missing",
            yellow=True,
        )
