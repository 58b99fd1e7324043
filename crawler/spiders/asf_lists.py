"""The `asf-lists` spider: mirrors PonyMail Foal month archives into DATA_DIR/raw.

preferences → the lists (names validated, matched against `-a lists=` patterns) →
stats?quick per list → its active months within `-a since` / `-a until` → mbox per month,
skipping months already stored complete; a month that fails whole is fetched again in
week slices. Yields MonthArchive items (crawler/items.py) that crawler.pipelines writes.

No answer is trusted: names must match whole, months after the current one are never
asked for, the archive's clock counts only when plausible; crawler.middlewares bounds
sizes (inflated too), time per request, redirects (same origin only) and robots.txt errors.
"""

from __future__ import annotations

import json
import logging
import math
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import scrapy
from scrapy.exceptions import IgnoreRequest
from scrapy.spidermiddlewares.httperror import HttpError

from crawler.archive import (
    ArgumentError,
    archive_path,
    join_slices,
    match_lists,
    month_bounds,
    month_in_range,
    month_key,
    month_of,
    parse_month,
    parse_patterns,
    valid_domain,
    valid_list_name,
    week_slices,
)
from crawler.items import MonthArchive
from crawler.middlewares import AlreadyStored, DecompressedTooLarge, OutOfTime
from crawler.pipelines import read_sidecar


def _describe(failure) -> str:
    if failure.check(HttpError):
        response = failure.value.response
        return f"HTTP {response.status}"
    if failure.check(IgnoreRequest):
        return str(failure.value) or "ignored"
    return f"{failure.type.__name__}: {failure.value}"


class AsfListsSpider(scrapy.Spider):
    name = "asf-lists"

    def __init__(self, lists: str | None = None, since=None, until=None, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Checked here, before any request: bad arguments stop the crawl with a clear error.
        try:
            self.patterns = parse_patterns(lists)
            self.since = month_key(*parse_month(since, "since")) if since else None
            self.until = month_key(*parse_month(until, "until")) if until else None
            if self.since and self.until and self.since > self.until:
                raise ArgumentError(f"since={self.since} is after until={self.until}")
            # No archive has months after the current one (by our clock).
            current = month_of(datetime.now(UTC))
            for label, value in (("since", self.since), ("until", self.until)):
                if value and value > current:
                    raise ArgumentError(f"{label}={value} is after the current month {current}")
        except ArgumentError as exc:
            self.logger.error("bad argument: %s", exc)
            # SystemExit, not the exception itself: Scrapy would log the latter as an
            # asyncio "Task exception was never retrieved" traceback after our line.
            raise SystemExit(1) from exc
        self.clock_offset = 0.0  # seconds the archive's clock is behind ours (never ahead)
        self._clock_warned = False
        self.why_nothing: list[str] = []
        self.handled: set[tuple[str, str, str]] = set()  # (list, domain, month) done this run

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        spider = super().from_crawler(crawler, *args, **kwargs)
        settings = crawler.settings
        spider.archive_url = settings.get("ARCHIVE_URL", "https://lists.apache.org").rstrip("/")
        if urlsplit(spider.archive_url).scheme not in ("http", "https"):
            spider.logger.error(
                "bad setting: ARCHIVE_URL=%r is not an http(s) URL", spider.archive_url
            )
            raise SystemExit(1)  # (see __init__)
        spider.data_dir = Path(settings.get("DATA_DIR", "data"))
        spider.month_maxsize = settings.getint("MONTH_MAXSIZE", 0)
        spider.grace = timedelta(hours=settings.getfloat("MONTH_GRACE_HOURS", 24))
        spider.api_maxsize = settings.getint("API_MAXSIZE", 0)
        spider.clock_max_skew = settings.getfloat("ARCHIVE_CLOCK_MAX_SKEW", 86400)
        return spider

    # --- helpers ----------------------------------------------------------------------
    def _count(self, key: str, n: int = 1) -> None:
        self.crawler.stats.inc_value(f"archive/{key}", n)

    def _api(self, endpoint: str, *flags: str, **params: str) -> str:
        """`ARCHIVE_URL/api/<endpoint>.lua?<params>[&<flags>]`; Foal flags take no value."""
        query = "&".join(filter(None, [urlencode(params), *flags]))
        return f"{self.archive_url}/api/{endpoint}.lua" + (f"?{query}" if query else "")

    def _api_meta(self) -> dict:
        """Small JSON answers: refused beyond API_MAXSIZE, compressed or not."""
        return {"download_maxsize": self.api_maxsize} if self.api_maxsize else {}

    def _now(self, before: float = 0.0) -> datetime:
        """Our clock (or the archive's, if it is behind), `before` seconds ago."""
        return datetime.fromtimestamp(time.time() + self.clock_offset - before, UTC)

    def month_done(self, name: str, domain: str, key: str) -> bool:
        """Handled earlier in this run, or stored complete by an earlier one."""
        if (name, domain, key) in self.handled:
            return True
        stored = read_sidecar(self.data_dir / archive_path(domain, name, key))
        return bool(stored and stored.get("complete"))

    def _is_complete(self, month: str, fetched: datetime) -> bool:
        return fetched >= month_bounds(month)[1] + self.grace

    # --- lists ------------------------------------------------------------------------
    async def start(self):
        self.logger.info(
            "crawling %s into %s/raw (lists=%s, since=%s, until=%s)",
            self.archive_url,
            self.data_dir,
            ",".join(self.patterns),
            self.since or "first month",
            self.until or "current month",
        )
        yield scrapy.Request(
            self._api("preferences"),
            callback=self.parse_preferences,
            errback=self.preferences_failed,
            meta=self._api_meta(),
            dont_filter=True,
        )

    def preferences_failed(self, failure):
        self.logger.error(
            "cannot read the lists from %s: %s", failure.request.url, _describe(failure)
        )
        self.why_nothing.append(f"the list of lists could not be read ({_describe(failure)})")

    def parse_preferences(self, response):
        try:
            lists = json.loads(response.text)["lists"]
            if not isinstance(lists, dict):
                raise TypeError("'lists' is not an object")
        except (ValueError, KeyError, TypeError) as exc:
            self.logger.error("unexpected answer from %s: %s", response.url, exc)
            self.why_nothing.append("the archive's list of lists was not understood")
            return
        addresses = {}
        for domain, names in lists.items():
            if not valid_domain(domain) or not isinstance(names, dict):
                self.logger.warning("skipping unsafe or malformed domain name %r", domain)
                self._count("names_rejected")
                continue
            for name in names:
                if not valid_list_name(name):
                    self.logger.warning("skipping unsafe list name %r on %s", name, domain)
                    self._count("names_rejected")
                    continue
                addresses[f"{name}@{domain}".lower()] = (name, domain)
        matched, unmatched = match_lists(list(addresses), self.patterns)
        for pattern in unmatched:
            self.logger.warning("pattern %r matches no list on %s", pattern, self.archive_url)
        self.crawler.stats.set_value("archive/lists_available", len(addresses))
        self.crawler.stats.set_value("archive/lists_matched", len(matched))
        self.crawler.stats.set_value("archive/patterns_unmatched", unmatched)
        self.logger.info("%d of %d lists match %s", len(matched), len(addresses), self.patterns)
        if not matched:
            self.why_nothing.append(f"no list matches lists={','.join(self.patterns)}")
        for address in matched:
            name, domain = addresses[address]
            yield scrapy.Request(
                self._api("stats", "quick", list=name, domain=domain),
                callback=self.parse_stats,
                errback=self.stats_failed,
                cb_kwargs={"name": name, "domain": domain},
                meta=self._api_meta(),
                dont_filter=True,
            )

    # --- months -----------------------------------------------------------------------
    def stats_failed(self, failure):
        self.logger.error(
            "cannot read the months of %s: %s", failure.request.url, _describe(failure)
        )
        self._count("lists_failed")

    def parse_stats(self, response, name: str, domain: str):
        try:
            stats = json.loads(response.text)
            months = stats.get("active_months") or {}
            if isinstance(months, list):  # the shape docs/API.md shows: [{"YYYY-MM": n}, …]
                months = {k: v for entry in months for k, v in entry.items()}
            if not isinstance(months, dict):
                raise TypeError("'active_months' is not an object")
            server_now = stats.get("unixtime")
        except (ValueError, AttributeError, TypeError) as exc:
            self.logger.error("unexpected stats for %s@%s: %s", name, domain, exc)
            self._count("lists_failed")
            return
        self._use_archive_clock(server_now)
        current = month_of(min(self._now(), datetime.now(UTC)))
        wanted = []
        for raw_key, count in sorted(months.items()):
            try:
                key = month_key(*parse_month(raw_key))
            except ArgumentError:
                self.logger.warning("ignoring malformed month %r of %s@%s", raw_key, name, domain)
                continue
            if not count:
                continue
            if key > current:  # a month that has not begun: nothing to fetch, ever
                self.logger.warning(
                    "ignoring month %s of %s@%s: after the current month %s",
                    key,
                    name,
                    domain,
                    current,
                )
                self._count("months_in_future")
                continue
            if not month_in_range(key, self.since, self.until):
                self._count("months_out_of_range")
                continue
            if self.month_done(name, domain, key):
                self._count("months_skipped")
                continue
            wanted.append(key)
        self.logger.info(
            "%s@%s: %d active months, %d to fetch (current month %s)",
            name,
            domain,
            len(months),
            len(wanted),
            month_of(self._now()),
        )
        for key in wanted:
            yield self._month_request(name, domain, key)

    def _use_archive_clock(self, value) -> None:
        """A month is complete only when both clocks agree it has ended, so a plausible
        archive clock that is behind ours moves "now" back; an implausible one (1970, the
        far future, not a number: more than ARCHIVE_CLOCK_MAX_SKEW off) is ignored."""
        local = time.time()
        try:
            server_now = float(value)
        except (TypeError, ValueError):
            return
        if not math.isfinite(server_now) or abs(server_now - local) > self.clock_max_skew:
            if not self._clock_warned:
                self._clock_warned = True
                self.logger.warning(
                    "ignoring the archive's clock (unixtime %r is more than %g s from ours)",
                    value,
                    self.clock_max_skew,
                )
            return
        self.clock_offset = min(self.clock_offset, server_now - local)

    def _month_request(self, name: str, domain: str, key: str) -> scrapy.Request:
        # Giving up on a whole month is not an error yet: week slices follow.
        meta = {"archive": (name, domain, key), "give_up_log_level": logging.WARNING}
        if self.month_maxsize:
            meta["download_maxsize"] = self.month_maxsize
        return scrapy.Request(
            self._api("mbox", list=name, domain=domain, d=key),
            callback=self.parse_month,
            errback=self.month_failed,
            meta=meta,
            dont_filter=True,
        )

    def _fetched_at(self, response) -> datetime:
        return self._now(before=float(response.meta.get("download_latency") or 0.0))

    def parse_month(self, response):
        name, domain, key = response.meta["archive"]
        if response.body and not response.body.startswith(b"From "):
            self.logger.warning("%s@%s %s: the answer is not an mbox", name, domain, key)
            yield from self._slice_fallback(response.request, "the answer is not an mbox")
            return
        fetched = self._fetched_at(response)
        self.handled.add((name, domain, key))
        yield MonthArchive(
            domain=domain,
            list_name=name,
            month=key,
            body=response.body,
            urls=[response.url],
            fetched_at=fetched.isoformat(timespec="seconds"),
            complete=self._is_complete(key, fetched),
        )

    def month_failed(self, failure):
        reason = _describe(failure)
        # HttpError is an IgnoreRequest too, but a refused month is worth slicing, as is one
        # too large once inflated or out of time; a request ignored for another reason
        # (forbidden by robots.txt, an off-host redirect) is not to be insisted on.
        worth_slicing = failure.check(HttpError, DecompressedTooLarge, OutOfTime)
        if failure.check(IgnoreRequest) and not worth_slicing:
            name, domain, key = failure.request.meta["archive"]
            if failure.check(AlreadyStored):  # a replayed duplicate (JOBDIR resume)
                self.logger.debug("%s@%s %s: already stored", name, domain, key)
                return
            self.handled.add((name, domain, key))
            self.logger.error("%s@%s %s not fetched: %s", name, domain, key, reason)
            self._count("months_failed")
            self.why_nothing.append(f"requests were refused ({reason})")
            return
        yield from self._slice_fallback(failure.request, reason)

    # --- week slices ------------------------------------------------------------------
    def _slice_fallback(self, request, reason: str):
        name, domain, key = request.meta["archive"]
        self.logger.warning(
            "%s@%s %s failed whole (%s): fetching it in week slices", name, domain, key, reason
        )
        self._count("months_sliced")
        self.handled.add((name, domain, key))
        yield self._slice_request(name, domain, key, index=0, parts=[], urls=[])

    def _slice_request(self, name, domain, key, index, parts, urls) -> scrapy.Request:
        dfr, dto = week_slices(key)[index]
        return scrapy.Request(
            self._api("mbox", list=name, domain=domain, d=f"dfr={dfr}|dto={dto}"),
            callback=self.parse_slice,
            errback=self.slice_failed,
            meta={"archive": (name, domain, key), "slice": index, "parts": parts, "urls": urls},
            dont_filter=True,
        )

    def parse_slice(self, response):
        name, domain, key = response.meta["archive"]
        index = response.meta["slice"]
        if response.body and not response.body.startswith(b"From "):
            self.logger.error("%s@%s %s: slice %d is not an mbox", name, domain, key, index)
            self._count("months_failed")
            return
        parts = [*response.meta["parts"], response.body]
        urls = [*response.meta["urls"], response.url]
        # The month is as complete as its earliest slice: keep the first slice's time.
        first_fetched = response.meta.get("first_fetched") or self._fetched_at(response).timestamp()
        if index + 1 < len(week_slices(key)):
            request = self._slice_request(name, domain, key, index + 1, parts, urls)
            request.meta["first_fetched"] = first_fetched
            yield request
            return
        fetched = datetime.fromtimestamp(first_fetched, UTC)
        self.handled.add((name, domain, key))
        body = join_slices(parts, key)
        self.logger.info(
            "%s@%s %s: joined %d week slices (%d bytes served, %d kept)",
            name,
            domain,
            key,
            len(parts),
            sum(map(len, parts)),
            len(body),
        )
        yield MonthArchive(
            domain=domain,
            list_name=name,
            month=key,
            body=body,
            urls=urls,
            fetched_at=fetched.isoformat(timespec="seconds"),
            complete=self._is_complete(key, fetched),
            sliced=True,
        )

    def slice_failed(self, failure):
        name, domain, key = failure.request.meta["archive"]
        self.handled.add((name, domain, key))
        self.logger.error(
            "%s@%s %s: week slice %d failed (%s); month not stored",
            name,
            domain,
            key,
            failure.request.meta["slice"],
            _describe(failure),
        )
        self._count("months_failed")

    # --- summary ----------------------------------------------------------------------
    def closed(self, reason):
        stats = self.crawler.stats
        counts = {
            k: stats.get_value(f"archive/{k}", 0)
            for k in (
                "lists_matched",
                "months_fetched",
                "months_unchanged",
                "months_skipped",
                "months_failed",
                "months_out_of_range",
                "months_sliced",
                "names_rejected",
                "bytes",
            )
        }
        self.logger.info(
            "summary: lists matched %(lists_matched)d; months fetched %(months_fetched)d, "
            "unchanged %(months_unchanged)d, skipped (complete on disk) %(months_skipped)d, "
            "failed %(months_failed)d, out of range %(months_out_of_range)d; "
            "week-sliced %(months_sliced)d; unsafe names rejected %(names_rejected)d; "
            "bytes written %(bytes)d",
            counts,
        )
        unmatched = stats.get_value("archive/patterns_unmatched") or []
        if unmatched:
            self.logger.info("summary: patterns that matched no list: %s", ", ".join(unmatched))
        if counts["months_fetched"] == 0:
            why = list(self.why_nothing)
            if counts["months_skipped"] and not counts["months_failed"]:
                why.append("every wanted month is already stored complete")
            if counts["months_unchanged"]:
                why.append("the open month(s) had not changed")
            if counts["lists_matched"] and not any(
                counts[k] for k in ("months_skipped", "months_unchanged", "months_failed")
            ):
                why.append(
                    f"no active month of the matched lists lies in "
                    f"{self.since or 'the beginning'}..{self.until or 'now'}"
                )
            if counts["months_failed"]:
                why.append(f"{counts['months_failed']} month(s) failed (see errors above)")
            if reason != "finished":
                why.append(f"the crawl stopped early ({reason})")
            because = "; ".join(dict.fromkeys(why)) or reason  # each reason once
            self.logger.info("summary: fetched nothing because %s", because)
