"""Downloader middlewares: Retry-After on 429/503 and a total time limit per request,
robots.txt with Crawl-delay (bounded by ROBOTSTXT_CRAWL_DELAY_MAX) and RFC 9309's rules
for unreachable files, a filter that refuses requests (redirects) off ARCHIVE_URL's
origin, a decompression cap that says so, and a filter that keeps a resumed crawl from
fetching anything twice.

Those that subclass Scrapy's own middlewares replace them in crawler/settings.py.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit

from scrapy import Request, signals
from scrapy.downloadermiddlewares.httpcompression import HttpCompressionMiddleware
from scrapy.downloadermiddlewares.retry import RetryMiddleware
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.exceptions import IgnoreRequest
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from scrapy.utils.misc import build_from_crawler, load_object
from twisted.internet.defer import Deferred

logger = logging.getLogger(__name__)


class NotNeeded(IgnoreRequest):
    """A request this run does not need: for a month already stored complete, or a
    second copy of a request this run already made (a JOBDIR resume replays the stopped
    run's queue while the spider asks again). Dropped quietly, unlike other ignored
    requests."""


class OffOrigin(IgnoreRequest):
    """A request (a redirect, as a rule) to another scheme, host or port than ARCHIVE_URL's."""


class DecompressedTooLarge(IgnoreRequest):
    """A compressed answer that inflates beyond its download_maxsize."""


class RobotsUnreachable(IgnoreRequest):
    """robots.txt stayed unreachable (5xx, 429, network error): RFC 9309 says disallow."""


class CrawlDelayTooLong(IgnoreRequest):
    """robots.txt asks for a Crawl-delay above ROBOTSTXT_CRAWL_DELAY_MAX: rather than wait
    that long between requests, nothing is asked of the host."""


class OutOfTime(IgnoreRequest):
    """A request that used up REQUEST_TOTAL_TIMEOUT over its attempts and waits."""


def origin(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an http(s) URL, default ports filled in; None if malformed."""
    try:
        parts = urlsplit(url)
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme.lower())
    except ValueError:
        return None
    if not parts.hostname or port is None:
        return None
    return parts.scheme.lower(), parts.hostname.lower(), port


def fail_fast_exceptions(settings) -> tuple[type[BaseException], ...]:
    """RETRY_FAIL_FAST_EXCEPTIONS as classes: errors (DNS, connection refused) that no
    quick retry cures, so they are retried at most RETRY_FAIL_FAST_TIMES times."""
    paths = settings.getlist("RETRY_FAIL_FAST_EXCEPTIONS")
    return tuple(load_object(path) for path in paths if path)  # `-s …=` gives [""]


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
        # DOWNLOAD_TIMEOUT bounds one attempt (connection, headers and the whole body, so
        # also a server that drips a byte at a time); this bounds all attempts together.
        self.total_timeout = settings.getfloat("REQUEST_TOTAL_TIMEOUT", 0)
        self.download_timeout = settings.getfloat("DOWNLOAD_TIMEOUT", 180)
        self.fail_fast = fail_fast_exceptions(settings)
        self.fail_fast_times = settings.getint("RETRY_FAIL_FAST_TIMES", 0)

    def process_exception(self, request, exception, spider=None):
        fail_fast = self.fail_fast and isinstance(exception, self.fail_fast)
        if fail_fast and request.meta.get("retry_times", 0) >= self.fail_fast_times:
            self.crawler.stats.inc_value("retry/fail_fast")
            return None  # straight to the errback: no 5 retries against a dead host
        return super().process_exception(request, exception)

    def _remaining(self, request) -> float:
        """Seconds left of the request's REQUEST_TOTAL_TIMEOUT (inf when there is none)."""
        if not self.total_timeout:
            return float("inf")
        started = request.meta.setdefault("first_attempt_at", time.time())
        return started + self.total_timeout - time.time()

    def process_request(self, request, spider=None):
        remaining = self._remaining(request)
        if remaining == float("inf"):
            return None
        if remaining <= 0:
            raise OutOfTime(self._out_of_time(request))
        # Each attempt gets at most what is left (retries copy meta, so this only shrinks).
        timeout = request.meta.get("download_timeout") or self.download_timeout
        request.meta["download_timeout"] = max(0.1, min(timeout, remaining))
        return None

    def _out_of_time(self, request) -> str:
        return f"REQUEST_TOTAL_TIMEOUT ({self.total_timeout:g} s) used up"

    def _retry(self, request, reason):
        if self._remaining(request) <= 0:
            logger.log(
                request.meta.get("give_up_log_level", logging.ERROR),
                "Gave up retrying %s (failed with %s): %s",
                request,
                reason,
                self._out_of_time(request),
            )
            self.crawler.stats.inc_value("retry/out_of_time")
            return None
        return super()._retry(request, reason)

    async def process_response(self, request, response, spider=None):
        if request.meta.get("dont_retry") or response.status not in self.retry_http_codes:
            return response
        header = response.headers.get(b"Retry-After")
        if response.status == 429 or header:
            default = self.default_wait if response.status == 429 else 0
            wait = retry_after_seconds(header, default, self.max_wait)
        else:
            wait = 0.0
        if wait >= self._remaining(request):
            request.meta["first_attempt_at"] = 0.0  # waiting would overrun the time limit
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


class _Unreachable:
    """Stands for the robots.txt of a host that could not be read: everything disallowed."""

    def __init__(self, reason: str):
        self.reason = reason

    def allowed(self, url, user_agent) -> bool:
        return False


class _TooSlow(_Unreachable):
    """Stands for a robots.txt whose Crawl-delay is above ROBOTSTXT_CRAWL_DELAY_MAX."""


class CrawlDelayRobotsTxtMiddleware(RobotsTxtMiddleware):
    """RobotsTxtMiddleware that follows RFC 9309 on errors and also keeps at least
    robots.txt's Crawl-delay between requests to a host (when ROBOTSTXT_CRAWL_DELAY).

    RFC 9309 §2.3.1: a 4xx robots.txt ("unavailable") allows everything; a 5xx, 429 or
    network error ("unreachable") disallows everything. Scrapy reads the error page of a
    5xx as the rules (allow-all). Here an unreachable robots.txt is asked for again up to
    ROBOTSTXT_RETRY_TIMES times, ROBOTSTXT_RETRY_DELAY seconds apart and doubling (or as
    Retry-After asks), while the host's requests wait; then the crawl gives up on the host
    with one clear error, and its requests fail as RobotsUnreachable.
    """

    def __init__(self, crawler):
        super().__init__(crawler)
        settings = crawler.settings
        self.obey_crawl_delay = settings.getbool("ROBOTSTXT_CRAWL_DELAY", True)
        self.retry_times = settings.getint("ROBOTSTXT_RETRY_TIMES", 3)
        self.retry_delay = settings.getfloat("ROBOTSTXT_RETRY_DELAY", 60)
        self.max_wait = settings.getfloat("RETRY_AFTER_MAX", 900)
        self.max_size = settings.getint("API_MAXSIZE", 0) or settings.getint("DOWNLOAD_MAXSIZE")
        self.fail_fast = fail_fast_exceptions(settings)
        self.fail_fast_times = settings.getint("RETRY_FAIL_FAST_TIMES", 0)
        self.max_crawl_delay = settings.getfloat("ROBOTSTXT_CRAWL_DELAY_MAX", 60)
        self.crawl_delays: dict[str, float] = {}

    def _crawl_delay(self, robotparser, netloc: str) -> _TooSlow | None:
        """Keeps robots.txt's Crawl-delay for the host; a _TooSlow when it is above
        ROBOTSTXT_CRAWL_DELAY_MAX (or not a number), so the host is not crawled at all
        rather than waited on for days without a word."""
        agent = self.crawler.settings.get("USER_AGENT") or "*"
        crawl_delay = getattr(robotparser, "crawl_delay", None)
        delay = crawl_delay(agent) if crawl_delay else None
        if not delay:
            return None
        delay = float(delay)
        logger.info("robots.txt of %s asks for Crawl-delay: %g s", netloc, delay)
        if not self.obey_crawl_delay:
            return None
        if not math.isfinite(delay) or delay > self.max_crawl_delay:
            reason = (
                f"robots.txt of {netloc} asks for Crawl-delay: {delay:g} s, more than "
                f"ROBOTSTXT_CRAWL_DELAY_MAX ({self.max_crawl_delay:g} s)"
            )
            logger.error(
                "%s: not crawling %s rather than waiting that long between requests "
                "(-s ROBOTSTXT_CRAWL_DELAY_MAX=%g accepts it)",
                reason,
                netloc,
                delay,
            )
            self._stats.inc_value("robotstxt/crawl_delay_too_long")
            return _TooSlow(reason)
        self.crawl_delays[netloc] = delay
        self._stats.max_value("archive/crawl_delay", delay)  # for the plan
        return None

    async def robot_parser(self, request):
        netloc = urlparse_cached(request).netloc
        if netloc not in self._parsers:
            self._parsers[netloc] = pending = Deferred()
            parser = None
            try:
                parser = await self._fetch_robots(request)
            finally:
                self._parsers[netloc] = parser
                pending.callback(parser)
            self._stats.inc_value("robotstxt/request_count")
        parser = self._parsers[netloc]
        if isinstance(parser, Deferred):
            return await maybe_deferred_to_future(parser)
        return parser

    async def _fetch_robots(self, request):
        url = urlparse_cached(request)
        netloc = url.netloc
        robots_url = f"{url.scheme}://{netloc}/robots.txt"
        reason = "not asked"
        tries = 0
        wait = 0.0
        fail_fast = False  # the last failure was DNS or connection refused
        for attempt in range(self.retry_times + 1):
            if attempt and fail_fast:
                if attempt > self.fail_fast_times:
                    break
                wait = 1.0  # a host that is not there: no minutes of back-off
            elif attempt:
                wait = max(wait, min(self.retry_delay * 2 ** (attempt - 1), self.max_wait))
            if attempt:
                logger.warning(
                    "robots.txt of %s unreachable (%s): asking again in %.1f s",
                    netloc,
                    reason,
                    wait,
                )
                await asyncio.sleep(wait)
            wait = 0.0
            tries += 1
            robots_request = Request(
                robots_url,
                priority=self.DOWNLOAD_PRIORITY,
                meta={
                    "dont_obey_robotstxt": True,
                    "dont_retry": True,  # retried here, with RFC 9309's back-off
                    "download_maxsize": self.max_size,
                },
                callback=NO_CALLBACK,
                dont_filter=True,
            )
            try:
                response = await self.crawler.engine.download_async(robots_request)
            except OffOrigin as exc:  # asking again changes nothing
                reason = str(exc)
                break
            except Exception as exc:  # noqa: BLE001 - any failure makes it unreachable
                reason = str(exc) if isinstance(exc, IgnoreRequest) else type(exc).__name__
                reason = reason or type(exc).__name__
                fail_fast = bool(self.fail_fast) and isinstance(exc, self.fail_fast)
                continue
            fail_fast = False
            status = response.status
            self._stats.inc_value("robotstxt/response_count")
            self._stats.inc_value(f"robotstxt/response_status_count/{status}")
            if 200 <= status < 300:
                parser = build_from_crawler(self._parserimpl, self.crawler, response.body)
                await self.crawler.signals.send_catch_log_async(
                    signal=signals.robots_parsed, robotparser=parser, request=request
                )
                return self._crawl_delay(parser, netloc) or parser
            if 400 <= status < 500 and status != 429:
                logger.info(
                    "robots.txt of %s: HTTP %d, so no rules (RFC 9309: all allowed)",
                    netloc,
                    status,
                )
                return build_from_crawler(self._parserimpl, self.crawler, b"")
            reason = f"HTTP {status}"
            header = response.headers.get(b"Retry-After")
            if header:
                wait = retry_after_seconds(header, 0, self.max_wait)
        logger.error(
            "robots.txt of %s unreachable (%s) after %d tries: assuming everything is "
            "disallowed (RFC 9309), so nothing is fetched from %s",
            netloc,
            reason,
            tries,
            netloc,
        )
        self._stats.inc_value("robotstxt/unreachable")
        return _Unreachable(reason)

    def process_request_2(self, rp, request):
        if isinstance(rp, _TooSlow):
            raise CrawlDelayTooLong(rp.reason)
        if isinstance(rp, _Unreachable):
            raise RobotsUnreachable(f"robots.txt unreachable ({rp.reason}): all disallowed")
        super().process_request_2(rp, request)

    async def process_request(self, request, spider=None):
        await super().process_request(request)
        if not self.obey_crawl_delay:
            return
        delay = self.crawl_delays.get(urlparse_cached(request).netloc)
        downloader = getattr(self.crawler.engine, "downloader", None)
        if delay and downloader is not None:
            _, slot = downloader._get_slot(request)
            slot.delay = max(slot.delay, delay)


class SameOriginOnly:
    """Refuses any request to another scheme, host or port than ARCHIVE_URL's before it is
    sent: above all the redirects Scrapy's RedirectMiddleware (and meta refresh) would
    follow, so another host's answer is never stored as the archive's."""

    def __init__(self, crawler):
        self.crawler = crawler
        self.origin = origin(crawler.settings.get("ARCHIVE_URL", "https://lists.apache.org"))

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def process_request(self, request, spider=None):
        if self.origin is None or origin(request.url) == self.origin:
            return None
        chain = request.meta.get("redirect_urls") or []
        self.crawler.stats.inc_value("archive/off_origin_refused")
        what = f"redirect from {chain[0]} to {request.url}" if chain else request.url
        scheme, host, port = self.origin
        raise OffOrigin(f"refused {what}: not on {scheme}://{host}:{port} (ARCHIVE_URL)")


class BoundedHttpCompressionMiddleware(HttpCompressionMiddleware):
    """Scrapy's decompression, which stops at the request's download_maxsize (or
    DOWNLOAD_MAXSIZE), raising DecompressedTooLarge so the spider can tell it apart from
    other ignored requests (a whole month too large inflated is fetched in week slices)."""

    def process_response(self, request, response, spider=None):
        try:
            return super().process_response(request, response)
        except IgnoreRequest as exc:
            if "during decompression" not in str(exc):
                raise
            if self.stats:
                self.stats.inc_value("archive/decompressed_too_large")
            raise DecompressedTooLarge(
                f"inflated past {request.meta.get('download_maxsize', self._max_size)} B"
            ) from exc


class OnceOnlyFilter:
    """Asks the spider, just before a request is downloaded, whether this run still needs
    it (`spider.admit`): a month stored complete, or a request for a month, a list's
    stats or the list of lists that this run already makes, is dropped as NotNeeded.

    The spider checks the disk when it plans a month, but a crawl resumed with JOBDIR also
    replays the requests queued by the stopped run; this keeps either copy from being
    fetched twice, whichever comes first (and however many are in the downloader at once).
    """

    @classmethod
    def from_crawler(cls, crawler):
        middleware = cls()
        middleware.crawler = crawler
        return middleware

    def process_request(self, request, spider=None):
        spider = self.crawler.spider
        admit = getattr(spider, "admit", None)
        reason = admit(request) if admit else None
        if reason:
            self.crawler.stats.inc_value("archive/requests_not_needed")
            raise NotNeeded(reason)
        return None
