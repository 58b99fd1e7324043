"""Extraction progress (extract/progress.py): it counts messages, estimates the total
and the time left from the archives' sizes, draws a bar on a terminal and writes a
plain line now and then into a log; the closing line's counts can be replaced."""

from __future__ import annotations

import io

from extract.progress import Progress, _duration


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_it_counts_messages_and_estimates_the_rest_from_the_bytes():
    clock, out = Clock(), Terminal()
    progress = Progress(3, out, total_bytes=4000, min_interval=0, clock=clock)
    clock.now = 10.0
    progress.update(messages=100, errors=0, size=1000)  # a quarter of the bytes in 10 s
    assert progress.estimated_messages() == 400
    assert progress.eta() == 30.0
    assert "100 of ~400 messages  10 msg/s  30s left  1/3 archives  0 errors" in out.getvalue()
    clock.now = 20.0
    progress.update(messages=150, errors=2, size=1000)  # half the bytes, 250 messages
    assert progress.estimated_messages() == 500 and progress.eta() == 20.0
    clock.now = 40.0
    progress.update(messages=260, errors=0, size=2000)  # done: the count, no estimate
    assert progress.estimated_messages() == 510 and progress.status().startswith("510 messages")
    assert "[" + "#" * 30 + "]" in out.getvalue().split("\r")[-1]
    line = progress.summary(errors=5, db_messages=9)
    assert line.startswith("archives=3 messages=510 errors=5 seconds=")
    assert line.endswith(" db_messages=9")


def test_a_log_gets_a_line_a_minute_and_a_short_run_nothing():
    clock, log = Clock(), io.StringIO()
    progress = Progress(3, log, total_bytes=300, clock=clock)
    clock.now = 30.0
    progress.update(messages=10, errors=0, size=100)  # at 30 s: nothing yet
    assert log.getvalue() == ""
    clock.now = 61.0
    progress.update(messages=10, errors=0, size=100)
    assert (
        log.getvalue() == "extract: 20 of ~30 messages  0 msg/s  31s left  2/3 archives  0 errors\n"
    )
    progress.finish()
    assert log.getvalue().count("\n") == 1


def test_durations_read_as_people_write_them():
    assert [_duration(s) for s in (4.4, 65, 3600 * 5 + 120)] == ["4s", "1m05s", "5h02m"]
