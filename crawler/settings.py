"""Scrapy settings for the `asf-lists` crawl: polite defaults, all overridable with `-s`.

Tests turn the delays off on the command line (`-s DOWNLOAD_DELAY=0 -s
AUTOTHROTTLE_ENABLED=False`); nothing here is test-specific.
"""

from importlib import metadata

BOT_NAME = "asf-bench-mail"
SPIDER_MODULES = ["crawler.spiders"]
NEWSPIDER_MODULE = "crawler.spiders"


def _user_agent() -> str:
    """`asf-bench-mail/<version> (+<project URL>)`, read from the installed metadata."""
    try:
        meta = metadata.metadata("asf-bench-mail")
        urls = [u.split(",", 1)[1].strip() for u in meta.get_all("Project-URL") or []]
        return f"asf-bench-mail/{meta['Version']} (+{urls[0] if urls else 'no URL'})"
    except metadata.PackageNotFoundError:
        return "asf-bench-mail (+https://github.com/asf-bench-mail/asf-bench-mail)"


# Where to crawl and where to write (contract.md).
ARCHIVE_URL = "https://lists.apache.org"
DATA_DIR = "data"

# Politeness: ASF blocks Scrapy instances that ignore robots.txt or 429 (archive-api.md §4).
USER_AGENT = _user_agent()
ROBOTSTXT_OBEY = True
ROBOTSTXT_CRAWL_DELAY = True  # also honour robots.txt Crawl-delay (crawler.middlewares)
# A Crawl-delay above this many seconds is not obeyed: the crawl stops, before any
# archive request, with an error naming it (exit 3). At 60 s a request, the default
# scope's ~100,000 months would take 70 days; robots.txt's 86400 would take centuries.
ROBOTSTXT_CRAWL_DELAY_MAX = 60.0
# RFC 9309: a robots.txt answering 5xx/429 or not at all means "disallow everything"; it is
# asked for again this many times, this many seconds apart (doubling), then the host is
# given up on with an error. A 4xx robots.txt allows everything.
ROBOTSTXT_RETRY_TIMES = 3
ROBOTSTXT_RETRY_DELAY = 60
CONCURRENT_REQUESTS = 4
CONCURRENT_REQUESTS_PER_DOMAIN = 1
DOWNLOAD_DELAY = 1.0
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 2.0
AUTOTHROTTLE_MAX_DELAY = 60.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 1.0
COOKIES_ENABLED = False

# Retries: 429 and 5xx, waiting as long as Retry-After asks (crawler.middlewares).
RETRY_ENABLED = True
RETRY_TIMES = 5
RETRY_HTTP_CODES = [500, 502, 503, 504, 522, 524, 408, 429]
RETRY_AFTER_DEFAULT = 120  # seconds to wait after a 429 that gives no Retry-After
RETRY_AFTER_MAX = 900  # never wait longer than this for one Retry-After
# A request's attempts and Retry-After waits together stop after this many seconds
# (DOWNLOAD_TIMEOUT bounds each attempt: connection, headers and whole body); 0: no limit.
REQUEST_TOTAL_TIMEOUT = 1800
# A host that does not resolve or refuses connections will not change its mind in the
# seconds retries take: these are retried only RETRY_FAIL_FAST_TIMES times (robots.txt
# included, 1 s apart), and after ARCHIVE_UNREACHABLE_AFTER such failures in a row the
# crawl stops (exit 3). An empty list retries them like any other error.
RETRY_FAIL_FAST_EXCEPTIONS = [
    "scrapy.exceptions.CannotResolveHostError",
    "scrapy.exceptions.DownloadConnectionRefusedError",
    "twisted.internet.error.DNSLookupError",
    "twisted.internet.error.ConnectionRefusedError",
]
RETRY_FAIL_FAST_TIMES = 0
ARCHIVE_UNREACHABLE_AFTER = 3
DOWNLOADER_MIDDLEWARES = {
    "crawler.middlewares.SameOriginOnly": 50,  # no request, no redirect off ARCHIVE_URL
    "scrapy.downloadermiddlewares.httpcompression.HttpCompressionMiddleware": None,
    "crawler.middlewares.BoundedHttpCompressionMiddleware": 590,
    "scrapy.downloadermiddlewares.retry.RetryMiddleware": None,
    "crawler.middlewares.RetryAfterMiddleware": 550,
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    "crawler.middlewares.CrawlDelayRobotsTxtMiddleware": 100,
    "crawler.middlewares.OnceOnlyFilter": 120,
}

# Busy lists serve mbox months of hundreds of MB; a whole month larger than
# MONTH_MAXSIZE (or one that fails or times out) is fetched again in week slices.
DOWNLOAD_TIMEOUT = 900
DOWNLOAD_MAXSIZE = 2 * 1024**3
DOWNLOAD_WARNSIZE = 256 * 1024**2
MONTH_MAXSIZE = 1024**3
# Each week slice is an answer like a whole month: held in memory, capped at MONTH_MAXSIZE
# (inflated). The slices go to disk as they come and the month is joined from there,
# message by message, so memory stays at one answer; a joined month larger than this
# (a busy month, or a gzip bomb served in slices) is refused with an error.
SLICED_MONTH_MAXSIZE = 2 * 1024**3
# The JSON answers (preferences, stats) and robots.txt are small; a larger one, measured
# after decompression like every size cap here, is refused (a gzip bomb stops here).
API_MAXSIZE = 64 * 1024**2
# A month counts as complete (never fetched again) this long after it ended, so mail
# that reaches the archive late is not missed.
MONTH_GRACE_HOURS = 24
# The archive's clock (stats `unixtime`) is used for "now" only when it is behind ours by
# at most this many seconds; a clock of 1970 or far in the future is ignored.
ARCHIVE_CLOCK_MAX_SKEW = 86400

# A progress line (months done of those to fetch, bytes, ETA) at most this often, in
# seconds, and when the last month is done; 0: after every month.
PROGRESS_INTERVAL = 60

ITEM_PIPELINES = {"crawler.pipelines.ArchiveWriter": 300}
# `scrapy crawl` with the spider's exit status (crawler/commands/crawl.py).
COMMANDS_MODULE = "crawler.commands"

# The dry run (`-a plan=1`) estimates a month's bytes from its message count: the
# average of the list's months already stored in DATA_DIR, else of all stored months,
# else this (real ASF exports: commit mail about 10 KB a message, list mail 5-6 KB).
PLAN_BYTES_PER_MESSAGE = 8000
# The transfer rate the estimate assumes for mbox downloads (bytes per second).
PLAN_BYTES_PER_SECOND = 1_000_000

TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"
FEED_EXPORT_ENCODING = "utf-8"
LOG_LEVEL = "INFO"
TELNETCONSOLE_ENABLED = False
REMOTE_CONTROL_ENABLED = False
