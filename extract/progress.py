"""Progress of an extraction run: `Progress(total_archives, stream)` draws a one-line
bar on a terminal (archives, messages, messages/s) and, when the stream is not a
terminal, prints nothing while running; `summary()` returns the closing line as
`key=value` pairs, parseable by scripts in both cases.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, total_archives: int, stream: TextIO | None = None, *, min_interval=0.2):
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.total = total_archives
        self.archives = 0
        self.messages = 0
        self.errors = 0
        self.bytes = 0
        self.started = time.monotonic()
        self._last_draw = 0.0
        self.min_interval = min_interval

    def elapsed(self) -> float:
        return max(time.monotonic() - self.started, 1e-9)

    def update(self, *, messages: int, errors: int, size: int) -> None:
        """One archive done."""
        self.archives += 1
        self.messages += messages
        self.errors += errors
        self.bytes += size
        now = time.monotonic()
        if self.tty and (now - self._last_draw >= self.min_interval or self.archives == self.total):
            self._last_draw = now
            self._draw()

    def _draw(self) -> None:
        width = 30
        done = int(width * self.archives / self.total) if self.total else width
        bar = "#" * done + "-" * (width - done)
        rate = self.messages / self.elapsed()
        self.stream.write(
            f"\r[{bar}] {self.archives}/{self.total} archives  {self.messages:,} messages  "
            f"{rate:,.0f} msg/s  {self.errors} errors "
        )
        self.stream.flush()

    def finish(self) -> None:
        if self.tty and self.total:
            self._draw()
            self.stream.write("\n")
            self.stream.flush()

    def summary(self, **extra) -> str:
        fields = {
            "archives": self.archives,
            "messages": self.messages,
            "errors": self.errors,
            "seconds": f"{self.elapsed():.2f}",
            "msgs_per_s": f"{self.messages / self.elapsed():.0f}",
            **extra,
        }
        return " ".join(f"{k}={v}" for k, v in fields.items())
