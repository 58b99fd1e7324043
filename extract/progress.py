"""Progress of an extraction run: `Progress(total_archives, stream, total_bytes=...)`
counts messages as archives are done, and estimates what is left from the bytes: the
archives' compressed sizes are known before the run, their messages are not, so the
total number of messages is estimated as messages so far × all bytes / bytes done,
and the time left as elapsed × bytes left / bytes done.

On a terminal it draws a one-line bar (messages done of the estimated total,
messages/s, the time left, archives, errors); on anything else (a log file, a pipe)
it writes a plain line every `log_interval` seconds, so that a run of hours says how
far it is in its log too, and nothing for a run shorter than that. `summary()`
returns the closing line as `key=value` pairs, parseable by scripts in both cases.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


def _duration(seconds: float) -> str:
    seconds = max(int(seconds + 0.5), 0)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m"
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"


class Progress:
    def __init__(
        self,
        total_archives: int,
        stream: TextIO | None = None,
        *,
        total_bytes: int = 0,
        min_interval: float = 0.2,
        log_interval: float = 60.0,
        clock=time.monotonic,
    ):
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.total = total_archives
        self.total_bytes = total_bytes
        self.archives = 0
        self.messages = 0
        self.errors = 0
        self.bytes = 0
        self.clock = clock
        self.started = clock()
        self._last_draw = 0.0
        self._last_log = self.started
        self.min_interval = min_interval
        self.log_interval = log_interval

    def elapsed(self) -> float:
        return max(self.clock() - self.started, 1e-9)

    def update(self, *, messages: int, errors: int, size: int) -> None:
        """One archive done."""
        self.archives += 1
        self.messages += messages
        self.errors += errors
        self.bytes += size
        now = self.clock()
        if self.tty:
            if now - self._last_draw >= self.min_interval or self.archives == self.total:
                self._last_draw = now
                self._draw()
        elif now - self._last_log >= self.log_interval and self.archives < self.total:
            self._last_log = now
            self.stream.write(f"extract: {self.status()}\n")
            self.stream.flush()

    def fraction(self) -> float:
        """How much of the run is done: by bytes, else by archives."""
        if self.total_bytes > 0:
            return min(self.bytes / self.total_bytes, 1.0)
        return self.archives / self.total if self.total else 1.0

    def estimated_messages(self) -> int | None:
        """All the run's messages, estimated from those of the bytes done so far."""
        if self.archives >= self.total:
            return self.messages
        if self.bytes <= 0 or self.total_bytes <= 0:
            return None
        return max(round(self.messages * self.total_bytes / self.bytes), self.messages)

    def eta(self) -> float | None:
        """Seconds left, at the rate so far."""
        done = self.fraction()
        if done <= 0:
            return None
        return self.elapsed() * (1 - done) / done

    def status(self) -> str:
        """`1,234 of ~5,600 messages  56 msg/s  2m10s left  12/66 archives  0 errors`."""
        total = self.estimated_messages()
        of = "" if total is None or self.archives >= self.total else f" of ~{total:,}"
        eta = self.eta()
        left = "" if eta is None or self.archives >= self.total else f"  {_duration(eta)} left"
        rate = self.messages / self.elapsed()
        return (
            f"{self.messages:,}{of} messages  {rate:,.0f} msg/s{left}  "
            f"{self.archives}/{self.total} archives  {self.errors} errors"
        )

    def _draw(self) -> None:
        width = 30
        done = int(width * self.fraction())
        bar = "#" * done + "-" * (width - done)
        self.stream.write(f"\r[{bar}] {self.status()} \033[K")
        self.stream.flush()

    def finish(self) -> None:
        if self.tty and self.total:
            self._draw()
            self.stream.write("\n")
            self.stream.flush()

    def summary(self, **extra) -> str:
        """The closing `key=value` line; `extra` adds fields or replaces counts."""
        fields = {
            "archives": self.archives,
            "messages": self.messages,
            "errors": self.errors,
            "seconds": f"{self.elapsed():.2f}",
            "msgs_per_s": f"{self.messages / self.elapsed():.0f}",
        }
        fields.update(extra)
        return " ".join(f"{k}={v}" for k, v in fields.items())
