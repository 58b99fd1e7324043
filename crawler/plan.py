"""The dry run (`-a plan=1`): what a crawl would fetch, per list, and what it would cost.

The spider reads the list of lists and each matched list's stats (message counts per
month), as a crawl does, and hands each list's months to fetch to `Plan`; no mbox is
asked for. The estimate:

- bytes = messages x bytes per message: the average of the list's months already stored
  in DATA_DIR (sidecars), else of every stored month, else PLAN_BYTES_PER_MESSAGE;
- time = the requests one after another (CONCURRENT_REQUESTS_PER_DOMAIN is 1): each takes
  the larger of the delay between requests (DOWNLOAD_DELAY, robots.txt Crawl-delay, and
  with AutoThrottle the measured latency / AUTOTHROTTLE_TARGET_CONCURRENCY, at most
  AUTOTHROTTLE_MAX_DELAY) and latency + bytes / PLAN_BYTES_PER_SECOND. The latency is
  the median of this run's stats answers.
"""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

from crawler.archive import ArgumentError, parse_month

_YES = {"1", "true", "yes", "on"}
_NO = {"0", "false", "no", "off", ""}


def parse_flag(value: str | None, name: str) -> bool:
    """`-a plan=1` style yes/no arguments; anything else is a clear ArgumentError."""
    if value is None:
        return False
    text = str(value).strip().lower()
    if text in _YES:
        return True
    if text in _NO:
        return False
    raise ArgumentError(f"{name}={value!r} is not yes or no: use {name}=1")


def as_count(value) -> int:
    """A message count from the archive: a non-negative finite number, else 0."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    if not math.isfinite(value) or value < 0:
        return 0
    return int(value)


def month_ranges(keys: list[str]) -> str:
    """`2017-01..2017-03, 2018-05`: consecutive months as one range."""
    runs: list[list[str]] = []
    previous = None
    for key in sorted(keys):
        year, month = parse_month(key)
        if previous is not None and (year * 12 + month) - previous == 1:
            runs[-1][1] = key
        else:
            runs.append([key, key])
        previous = year * 12 + month
    return ", ".join(a if a == b else f"{a}..{b}" for a, b in runs)


def human_bytes(n: float) -> str:
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n:.0f} B"


def human_seconds(s: float) -> str:
    if s < 90:
        return f"{s:.0f} s"
    if s < 90 * 60:
        return f"{s / 60:.0f} min"
    if s < 48 * 3600:
        return f"{s / 3600:.1f} h"
    return f"{s / 86400:.1f} days"


def _stored_average(sidecars) -> float | None:
    """Bytes per message over stored months (their sidecars), or None without any."""
    size = messages = 0
    for path in sidecars:
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
            size_i, messages_i = as_count(record.get("size")), as_count(record.get("messages"))
        except (OSError, ValueError, AttributeError):
            continue
        size, messages = size + size_i, messages + messages_i
    return size / messages if messages else None


class Plan:
    """Collects each list's months to fetch; `report()` gives the lines to print."""

    def __init__(self, data_dir: Path, settings):
        self.raw = Path(data_dir) / "raw"
        self.default_per_message = settings.getfloat("PLAN_BYTES_PER_MESSAGE", 8000)
        self.rate = max(1.0, settings.getfloat("PLAN_BYTES_PER_SECOND", 1_000_000))
        self.download_delay = settings.getfloat("DOWNLOAD_DELAY", 0)
        self.autothrottle = settings.getbool("AUTOTHROTTLE_ENABLED")
        self.target = max(0.01, settings.getfloat("AUTOTHROTTLE_TARGET_CONCURRENCY", 1.0))
        self.max_delay = settings.getfloat("AUTOTHROTTLE_MAX_DELAY", 60)
        self.months: dict[str, dict[str, int]] = {}  # address → {month: messages}
        self.folders: dict[str, Path] = {}  # address → its folder, relative to DATA_DIR
        self.latencies: list[float] = []
        self.lists_available = 0
        self._all_average: float | None | bool = False  # not computed yet

    def add_list(self, name: str, domain: str, counts: dict, latency, folder: Path) -> None:
        """A list's months to fetch (month → messages) and its folder (raw/<domain>/<list>)."""
        address = f"{name}@{domain}"
        self.months[address] = {key: as_count(n) for key, n in counts.items()}
        self.folders[address] = Path(folder)
        if isinstance(latency, int | float) and math.isfinite(latency) and latency >= 0:
            self.latencies.append(float(latency))

    def per_message(self, address: str) -> tuple[float, str]:
        """(bytes per message, where that figure comes from) for one list."""
        own = _stored_average((self.raw.parent / self.folders[address]).glob("*.mbox.gz.json"))
        if own is not None:
            return own, "its stored months"
        if self._all_average is False:
            self._all_average = _stored_average(self.raw.glob("*/*/*.mbox.gz.json"))
        if self._all_average is not None:
            return self._all_average, "all stored months"
        return self.default_per_message, "PLAN_BYTES_PER_MESSAGE"

    def report(self, ctx: dict) -> list[str]:
        latency = statistics.median(self.latencies) if self.latencies else 0.0
        delay = max(self.download_delay, ctx.get("crawl_delay") or 0.0)
        if self.autothrottle:
            delay = max(delay, min(latency / self.target, self.max_delay))
        one_request = max(delay, latency)  # a small answer: preferences, stats, robots
        rows = []
        total = {"months": 0, "messages": 0, "bytes": 0.0, "seconds": 2 * one_request}
        sources = set()
        for address in sorted(self.months):
            months = self.months[address]
            per_message, source = self.per_message(address)
            size = seconds = 0.0
            for messages in months.values():
                month_bytes = messages * per_message
                size += month_bytes
                seconds += max(delay, latency + month_bytes / self.rate)
            if months:
                sources.add(source)
            seconds += one_request  # the list's stats request
            messages = sum(months.values())
            rows.append(
                f"{address:<44} {len(months):>6} {messages:>9} {human_bytes(size):>10} "
                f"{human_seconds(seconds):>9}  {month_ranges(list(months)) or '-'}"
            )
            total["months"] += len(months)
            total["messages"] += messages
            total["bytes"] += size
            total["seconds"] += seconds
        requests = 2 + len(self.months) + total["months"]  # robots, preferences, stats
        scope = f"since={ctx['since'] or 'first month'} until={ctx['until'] or 'current month'}"
        lines = [
            f"plan: dry run against {ctx['archive_url']}: only the list of lists and each "
            f"list's months were read, nothing fetched",
            f"plan: {len(self.months)} of {self.lists_available} lists match "
            f"lists={','.join(ctx['patterns'])}; {scope}",
        ]
        if rows:
            head = f"{'list':<44} {'months':>6} {'messages':>9} {'est. bytes':>10} {'est. time':>9}"
            lines += [f"{head}  months to fetch", *rows]
            lines.append(
                f"{'total':<44} {total['months']:>6} {total['messages']:>9} "
                f"{human_bytes(total['bytes']):>10} {human_seconds(total['seconds']):>9}"
            )
        throttle = (
            f"AutoThrottle on (target concurrency {self.target:g})"
            if self.autothrottle
            else "AutoThrottle off"
        )
        per_message = ", ".join(sorted(sources)) or "PLAN_BYTES_PER_MESSAGE"
        lines.append(
            f"plan: estimated at the polite rate: {requests} requests, one at a time, each "
            f"at least {delay:.2f} s apart (DOWNLOAD_DELAY {self.download_delay:g} s, "
            f"robots.txt Crawl-delay {ctx.get('crawl_delay') or 0:g} s, {throttle}; "
            f"measured latency {latency:.3f} s); bytes per message from {per_message} "
            f"(default {self.default_per_message:g}); {human_bytes(self.rate)}/s assumed "
            f"(PLAN_BYTES_PER_SECOND)"
        )
        lines.append(
            f"plan: not counted: {ctx['skipped']} month(s) already stored complete, "
            f"{ctx['out_of_range']} out of range"
            + (
                f"; the months of {ctx['lists_failed']} list(s) could not be read"
                if ctx["lists_failed"]
                else ""
            )
        )
        fields = {
            "lists": len(self.months),
            "months": total["months"],
            "messages": total["messages"],
            "bytes": round(total["bytes"]),
            "seconds": round(total["seconds"]),
            "requests": requests,
            "skipped": ctx["skipped"],
            "exit": ctx["exit"],
        }
        lines.append(" ".join(f"{k}={v}" for k, v in fields.items()))
        return lines
