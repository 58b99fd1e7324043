"""Every parser survives hostile and degenerate text: no exception, and no runaway
regex backtracking on long runs of one character (the registry blanks claimed spans
with spaces, and mail has 10 MB lines). The bound is generous: it catches quadratic
blow-ups (minutes), not speed."""

from __future__ import annotations

import signal

import pytest

from extract.formats import PARSERS

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


@pytest.mark.parametrize("parser", PARSERS, ids=lambda mod: mod.INFO.name)
def test_degenerate_text(parser):
    old = signal.signal(signal.SIGALRM, _alarm)
    try:
        for name, text in DEGENERATE.items():
            signal.alarm(10)
            try:
                parser.parse(text)
            except _TooSlow:
                pytest.fail(f"{parser.INFO.name} takes over 10 s on {name!r} ({len(text)} chars)")
            finally:
                signal.alarm(0)
    finally:
        signal.signal(signal.SIGALRM, old)
