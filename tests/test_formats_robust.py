"""Every parser survives hostile and degenerate text: no exception, and no runaway
regex backtracking on long runs of one character (the registry blanks claimed spans
with spaces, and mail has 10 MB lines). The bound is generous: it catches quadratic
blow-ups (minutes), not speed."""

from __future__ import annotations

import signal
from contextlib import contextmanager

import pytest

from extract.results.formats import PARSERS

DEGENERATE = {
    "spaces": " " * 60000,
    "numbers": "1 " * 30000,
    "dashes": "-" * 60000,
    "pipes": "| " * 30000,
    "digits": "1234567890" * 6000,
    "dots": "1." * 30000,
    "padded-lines": ("x" + " " * 200 + "\n") * 300,
    "binary": "".join(chr(c) for c in range(1, 2000)) * 5,
    "hashes": "#" * 60000,
    # one long sentence of numbers (prose once split it whole for every number)
    "rates": "1.5 ops/s " * 10000,
    "percents": "1% " * 30000,
    "newlines": "\n" * 60000,
    # blanks then anything between two result rows (go-bench once took 2^n steps here)
    "gap-between-rows": "BenchmarkA 10 5 ns/op" + " " * 60 + "x\nBenchmarkB 10 6 ns/op\n",
}


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


@pytest.mark.parametrize("parser", PARSERS, ids=lambda mod: mod.INFO.name)
def test_degenerate_text(parser):
    for name, text in DEGENERATE.items():
        with time_limit(10, f"{parser.INFO.name} on {name!r} ({len(text)} chars)"):
            parser.parse(text)
