"""Downloader middlewares: Retry-After on 429/503, robots.txt Crawl-delay, and a filter
that keeps a resumed crawl from fetching a month twice.

The first two subclass Scrapy's own middlewares and replace them in crawler/settings.py.
"""

from __future__ import annotations

import asyncio
import logging
import time
from email.utils import parsedate_to_datetime

from scrapy import signals
from scrapy.downloadermiddlewares.retry import RetryMiddleware
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.exceptions import IgnoreRequest
from scrapy.utils.httpobj import urlparse_cached

logger = logging.getLogger(__name__)


class AlreadyStored(IgnoreRequest):
    """A request for a month that is already stored (a duplicate replayed from a
    JOBDIR queue): dropped quietly, unlike other ignored requests."""


ALREADY_STORED = "month already stored"


def retry_after_seconds(value: bytes | str | None, default: float, ceiling: float) -> float:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP date)."""
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    if not value:
        return min(default, ceiling)
    value = value.strip()
    if value.isdigit():
        return min(float(value), ceiling)
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return min(default, ceiling)
    return max(0.0, min(moment.timestamp() - time.time(), ceiling))


class RetryAfterMiddleware(RetryMiddleware):
    """RetryMiddleware that waits as the server asks before retrying 429 and 503.

    The retried request waits, and the host's download slot is held back for as long,
    so other requests to the same host do not hammer it meanwhile (effective whenever a
    download delay is set).
    """

    def __init__(self, settings):
        super().__init__(settings)
        self.default_wait = settings.getfloat("RETRY_AFTER_DEFAULT", 120)
        self.max_wait = settings.getfloat("RETRY_AFTER_MAX", 900)

    async def process_response(self, request, response, spider=None):
        if request.meta.get("dont_retry") or response.status not in self.retry_http_codes:
            return response
        header = response.headers.get(b"Retry-After")
        if response.status == 429 or header:
            default = self.default_wait if response.status == 429 else 0
            wait = retry_after_seconds(header, default, self.max_wait)
        else:
            wait = 0.0
        retry = self._retry(request, f"HTTP {response.status}")
        if retry is None:
            return response
        if wait > 0:
            logger.info(
                "HTTP %s from %s: waiting %.0f s (Retry-After) before retrying",
                response.status,
                request.url,
                wait,
            )
            self._hold_slot(request, wait)
            await asyncio.sleep(wait)
        return retry

    def _hold_slot(self, request, wait: float) -> None:
        downloader = getattr(self.crawler.engine, "downloader", None)
        if downloader is None:
            return
        slot = downloader.slots.get(downloader.get_slot_key(request))
        if slot is not None:
            slot.lastseen = max(slot.lastseen, time.time() + wait)


class CrawlDelayRobotsTxtMiddleware(RobotsTxtMiddleware):
    """RobotsTxtMiddleware that also keeps at least robots.txt's Crawl-delay between
    requests to a host (when ROBOTSTXT_CRAWL_DELAY is true)."""

    def __init__(self, crawler):
        super().__init__(crawler)
        self.obey_crawl_delay = crawler.settings.getbool("ROBOTSTXT_CRAWL_DELAY", True)
        self.crawl_delays: dict[str, float] = {}
        crawler.signals.connect(self._robots_parsed, signal=signals.robots_parsed)

    def _robots_parsed(self, robotparser, request):
        agent = self.crawler.settings.get("USER_AGENT") or "*"
        crawl_delay = getattr(robotparser, "crawl_delay", None)
        delay = crawl_delay(agent) if crawl_delay else None
        if delay:
            netloc = urlparse_cached(request).netloc
            self.crawl_delays[netloc] = float(delay)
            logger.info("robots.txt of %s asks for Crawl-delay: %s s", netloc, delay)

    async def process_request(self, request, spider=None):
        await super().process_request(request)
        if not self.obey_crawl_delay:
            return
        delay = self.crawl_delays.get(urlparse_cached(request).netloc)
        downloader = getattr(self.crawler.engine, "downloader", None)
        if delay and downloader is not None:
            _, slot = downloader._get_slot(request)
            slot.delay = max(slot.delay, delay)


class StoredMonthFilter:
    """Drops a month request whose month this run already handled or that is stored
    complete on disk, just before it would be downloaded.

    The spider checks the disk when it plans a month, but a crawl resumed with JOBDIR also
    replays the requests queued by the stopped run; this keeps those from being fetched
    twice, whichever copy comes first.
    """

    @classmethod
    def from_crawler(cls, crawler):
        middleware = cls()
        middleware.crawler = crawler
        return middleware

    def process_request(self, request, spider=None):
        spider = self.crawler.spider
        archive = request.meta.get("archive")
        if archive is None or "slice" in request.meta or not hasattr(spider, "month_done"):
            return None
        if spider.month_done(*archive):
            raise AlreadyStored(ALREADY_STORED)
        return None
