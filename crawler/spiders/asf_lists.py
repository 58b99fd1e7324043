"""The `asf-lists` spider: mirrors PonyMail Foal month archives into DATA_DIR/raw.

preferences → the lists (names validated, matched against `-a lists=` patterns) →
stats?quick per list → its active months within `-a since` / `-a until` → mbox per month,
skipping months already stored complete; a month that fails whole is fetched again in
week slices, kept on disk and joined from there. Each month is staged as gzip under
DATA_DIR/.crawl-tmp (crawler.storage) and yielded as a MonthArchive item
(crawler/items.py) that crawler.pipelines moves into raw/.

The default scope (every tracker, pull-request and commit list: days of requests) is
crawled only when asked for with `-a all=1`; a run with neither `-a lists=` nor
`-a all=1` stops before any request. Settings given with `-s` that nothing reads and
that look like the project's own (`ARCHIVE_ULR`) are refused (crawler.setting_names).

No answer is trusted: names must match whole, months after the current one are never
asked for, the archive's clock counts only when plausible; crawler.middlewares bounds
sizes (inflated too), time per request, redirects (same origin only), robots.txt errors
and its Crawl-delay. Every request is made once per run (`admit`): a JOBDIR resume
replays the stopped run's queue while the spider asks again, and only the first copy
is fetched.

`-a plan=1` reads preferences and stats only and prints what a crawl would fetch
(crawler.plan). Progress (months done of those to fetch, bytes, ETA) goes to the log;
the summary goes to stdout; `exit_code` (EXIT_* below) is what
crawler/commands/crawl.py makes `scrapy crawl` exit with.
"""

from __future__ import annotations

import difflib
import json
import logging
import math
import secrets
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import scrapy
from scrapy.exceptions import CloseSpider, DownloadCancelledError, IgnoreRequest
from scrapy.spidermiddlewares.httperror import HttpError
from twisted.internet.defer import CancelledError

from crawler.archive import (
    DEFAULT_LIST_PATTERNS,
    ArgumentError,
    archive_path,
    case_clashes,
    list_folders,
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
from crawler.middlewares import (
    DecompressedTooLarge,
    NotNeeded,
    OutOfTime,
    fail_fast_exceptions,
)
from crawler.plan import Plan, human_bytes, human_seconds, parse_flag
from crawler.setting_names import check_names, command_line_settings
from crawler.storage import (
    STAGING_DIR,
    SlicedMonthTooLarge,
    Staged,
    case_sensitive,
    join_slice_files,
    read_sidecar,
    stage_body,
    stage_slice,
    write_atomic,
)

# Exit statuses of `scrapy crawl asf-lists` (crawler/commands/crawl.py).
EXIT_OK = 0  # every wanted month stored (or nothing to do)
EXIT_FAILED = 1  # some months or lists failed after the retries; a rerun fetches them
EXIT_USAGE = 2  # bad argument or setting, a JOBDIR of other arguments, no list matched
EXIT_UNREACHABLE = 3  # nothing could be read: the archive is unreachable or refuses
EXIT_INTERRUPTED = 130  # stopped early (Ctrl-C); the same command resumes
KNOWN_ARGUMENTS = ("lists", "all", "since", "until", "plan")
JOB_ARGUMENTS_FILE = "asf-lists.arguments.json"  # in JOBDIR
NO_SCOPE = (
    "no scope given, so nothing is crawled. Without -a lists= the crawl would take the "
    "default scope ({patterns}): every tracker, pull-request and commit list of the ASF "
    "over its whole history, days of requests. Crawl some lists with -a lists=PATTERNS "
    "(make crawl ARGS='-a lists=issues@kudu.apache.org -a since=2017-01'); see the "
    "default scope's size with make plan; crawl it with -a all=1 "
    "(make crawl ARGS='-a all=1 -s JOBDIR=crawls/all')"
)


def _bad(logger, message: str):
    logger.error("bad argument: %s", message)
    # SystemExit, not an exception: Scrapy would log the latter as an asyncio "Task
    # exception was never retrieved" traceback after our line.
    raise SystemExit(EXIT_USAGE)


def _describe(failure) -> str:
    if failure.check(HttpError):
        response = failure.value.response
        return f"HTTP {response.status}"
    if failure.check(IgnoreRequest):
        return str(failure.value) or "ignored"
    return f"{failure.type.__name__}: {failure.value}"


def _too_large(failure) -> bool:
    """An answer given up on for its size: over its download_maxsize as sent
    (DownloadCancelledError, CancelledError) or once inflated (DecompressedTooLarge)."""
    return bool(failure.check(DownloadCancelledError, CancelledError, DecompressedTooLarge))


class AsfListsSpider(scrapy.Spider):
    name = "asf-lists"

    def __init__(self, lists: str | None = None, since=None, until=None, plan=None, **unknown):
        super().__init__()
        everything = unknown.pop("all", None)  # `all` is a builtin: not a parameter name
        # Checked here, before any request: bad arguments stop the crawl with a clear error.
        # An unknown name is never ignored: `-a list=…` would crawl the default scope.
        for name, value in unknown.items():
            close = difflib.get_close_matches(name, KNOWN_ARGUMENTS, n=1, cutoff=0.75)
            hint = f" (did you mean {close[0]}?)" if close else ""
            _bad(
                self.logger,
                f"unknown argument -a {name}={value}{hint}; "
                f"known arguments: {', '.join(KNOWN_ARGUMENTS)}",
            )
        try:
            self.plan_only = parse_flag(plan, "plan")
            self.crawl_all = parse_flag(everything, "all")
            if lists is not None and self.crawl_all:
                raise ArgumentError(
                    "lists= and all=1 together: give the lists, or all=1 for the default scope"
                )
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
            _bad(self.logger, str(exc))
        # The default scope is days of requests: never started by accident (a dry run of
        # it fetches no archive, and is how to see its size).
        if lists is None and not self.crawl_all and not self.plan_only:
            self.logger.error(NO_SCOPE.format(patterns=", ".join(DEFAULT_LIST_PATTERNS)))
            raise SystemExit(EXIT_USAGE)  # (see _bad)
        self.clock_offset = 0.0  # seconds the archive's clock is behind ours (never ahead)
        self._clock_warned = False
        self.why_nothing: list[str] = []
        self.exit_code = EXIT_OK
        self.lists_unread = False  # the list of lists could not be read: nothing was
        self.no_list_matched = False
        self.unreachable: str | None = None  # why the crawl stopped: archive unreachable
        self._unreachable_streak = 0
        self.plan: Plan | None = None
        # What this run asks for, each thing once (see `admit`): request key → the token
        # of the one request (with its retries, redirects and week slices) that fetches it.
        self.claims: dict[tuple, str] = {}
        self.keep_case: set[tuple[str, str]] = set()  # lists whose folder keeps its case
        # Months by (name, domain, month), as sets so that nothing is counted twice.
        self.months_wanted: set[tuple[str, str, str]] = set()  # to fetch this run
        self.months_finished: set[tuple[str, str, str]] = set()  # stored, unchanged, failed
        self.months_skipped: set[tuple[str, str, str]] = set()  # stored complete already
        self.months_out_of_range: set[tuple[str, str, str]] = set()
        self.months_in_future: set[tuple[str, str, str]] = set()
        self.lists_matched = 0
        self.lists_read: set[tuple[str, str]] = set()  # whose months are known (or failed)
        self.bytes_done = 0  # served bytes of the months done
        self._fetch_started: float | None = None  # when the first month was asked for
        self._last_progress = 0.0

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        spider = super().from_crawler(crawler, *args, **kwargs)
        settings = crawler.settings
        errors, warnings = check_names(command_line_settings(settings))
        for warning in warnings:
            spider.logger.warning("%s", warning)
        for error in errors:
            spider.logger.error("bad setting: %s", error)
        if errors:
            raise SystemExit(EXIT_USAGE)  # (see _bad): a typo'd setting would be ignored
        spider.archive_url = settings.get("ARCHIVE_URL", "https://lists.apache.org").rstrip("/")
        if urlsplit(spider.archive_url).scheme not in ("http", "https"):
            spider.logger.error(
                "bad setting: ARCHIVE_URL=%r is not an http(s) URL", spider.archive_url
            )
            raise SystemExit(EXIT_USAGE)  # (see _bad)
        spider.data_dir = Path(settings.get("DATA_DIR", "data"))
        spider.staging = spider.data_dir / STAGING_DIR
        spider.month_maxsize = settings.getint("MONTH_MAXSIZE", 0)
        spider.sliced_month_maxsize = settings.getint("SLICED_MONTH_MAXSIZE", 0)
        spider.progress_interval = settings.getfloat("PROGRESS_INTERVAL", 60)
        spider.grace = timedelta(hours=settings.getfloat("MONTH_GRACE_HOURS", 24))
        spider.api_maxsize = settings.getint("API_MAXSIZE", 0)
        spider.clock_max_skew = settings.getfloat("ARCHIVE_CLOCK_MAX_SKEW", 86400)
        spider.fail_fast = fail_fast_exceptions(settings)
        spider.unreachable_after = settings.getint("ARCHIVE_UNREACHABLE_AFTER", 3)
        spider.log_summary = bool(settings.get("LOG_FILE"))  # else stdout is enough
        spider.job_file = None
        if settings.get("JOBDIR"):
            if spider.plan_only:
                _bad(spider.logger, "plan=1 fetches no archive: run it without JOBDIR")
            spider.job_file = Path(settings["JOBDIR"]) / JOB_ARGUMENTS_FILE
            spider._check_job_arguments()
        if spider.plan_only:
            spider.plan = Plan(spider.data_dir, settings)
        return spider

    # --- JOBDIR -----------------------------------------------------------------------
    def _job_arguments(self) -> dict:
        """What a resumed job must share with the run that queued its requests."""
        return {
            "lists": ",".join(self.patterns),
            "since": self.since,
            "until": self.until,
            "ARCHIVE_URL": self.archive_url,
            "DATA_DIR": str(self.data_dir.resolve()),
        }

    def _check_job_arguments(self) -> None:
        """A JOBDIR replays the queue of the run that started it: refused when that run
        had other arguments (unless it finished, leaving nothing to replay)."""
        wanted = self._job_arguments()
        try:
            stored = json.loads(self.job_file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            stored = None
        except (OSError, ValueError) as exc:
            where = f"JOBDIR={self.job_file.parent}: {self.job_file.name}"
            _bad(self.logger, f"{where} unreadable ({exc}); delete that JOBDIR to start afresh")
        if isinstance(stored, dict) and not stored.get("finished"):
            before = stored.get("arguments") or {}
            changed = [k for k in wanted if before.get(k) != wanted[k]]
            if changed:
                was = ", ".join(f"{k}={before.get(k)}" for k in changed)
                now = ", ".join(f"{k}={wanted[k]}" for k in changed)
                _bad(
                    self.logger,
                    f"JOBDIR={self.job_file.parent} holds a stopped crawl started with "
                    f"{was} (now {now}): resume it with the same arguments, or use "
                    f"another JOBDIR (or delete that one) to start afresh",
                )
        self._write_job_file(finished=False)

    def _write_job_file(self, finished: bool) -> None:
        record = {"arguments": self._job_arguments(), "finished": finished}
        write_atomic(self.job_file, (json.dumps(record, indent=2) + "\n").encode())

    # --- helpers ----------------------------------------------------------------------
    def _count(self, key: str, n: int = 1) -> None:
        self.crawler.stats.inc_value(f"archive/{key}", n)

    def _api(self, endpoint: str, *flags: str, **params: str) -> str:
        """`ARCHIVE_URL/api/<endpoint>.lua?<params>[&<flags>]`; Foal flags take no value."""
        query = "&".join(filter(None, [urlencode(params), *flags]))
        return f"{self.archive_url}/api/{endpoint}.lua" + (f"?{query}" if query else "")

    def _api_meta(self, key: tuple) -> dict:
        """Small JSON answers: refused beyond API_MAXSIZE, compressed or not."""
        meta = {"claim": self._claim(key)}
        if self.api_maxsize:
            meta["download_maxsize"] = self.api_maxsize
        return meta

    def _now(self, before: float = 0.0) -> datetime:
        """Our clock (or the archive's, if it is behind), `before` seconds ago."""
        return datetime.fromtimestamp(time.time() + self.clock_offset - before, UTC)

    def _path(self, name: str, domain: str, key: str) -> Path:
        """Where a month is stored, relative to DATA_DIR."""
        return Path(archive_path(domain, name, key, keep_case=(name, domain) in self.keep_case))

    def stored_complete(self, name: str, domain: str, key: str) -> bool:
        """Stored complete by an earlier run, as this very list (a folder that lists
        differing only in case once shared holds the other list's months)."""
        stored = read_sidecar(self.data_dir / self._path(name, domain, key))
        return bool(stored and stored.get("complete") and stored.get("list") == f"{name}@{domain}")

    def _is_complete(self, month: str, fetched: datetime) -> bool:
        return fetched >= month_bounds(month)[1] + self.grace

    # --- each request once --------------------------------------------------------------
    def _claim(self, key: tuple) -> tuple[tuple, str]:
        """A new fetch of `key` (("month", name, domain, month), ("stats", name, domain) or
        ("preferences",)): its token travels in meta["claim"], copied to its retries,
        redirects and week slices, and through a JOBDIR queue."""
        token = secrets.token_hex(8)
        self.claims[key] = token
        return key, token

    def admit(self, request) -> str | None:
        """Why this run does not need `request` (crawler.middlewares.OnceOnlyFilter drops
        it then), or None. Only one fetch of each thing per run: a copy replayed from a
        stopped run's JOBDIR queue is fetched only if this run has not asked for that thing
        itself (and then this run does not), and a replayed month already stored
        complete, or a replayed week slice (its earlier slices are gone), is dropped."""
        claim = request.meta.get("claim")
        if not claim:
            return None
        key, token = tuple(claim[0]), claim[1]
        owner = self.claims.get(key)
        if owner == token:
            return None
        if owner is not None:
            return "asked for already by this run"
        if "slice" in request.meta:
            return "a week slice of a stopped run's fetch"
        if key[0] == "month":
            archive = key[1:]
            if self.stored_complete(*archive):
                self.months_skipped.add(archive)
                return "month already stored complete"
            self.months_wanted.add(archive)
            self._fetch_started = self._fetch_started or time.monotonic()
        self.claims[key] = token
        return None

    # --- progress -----------------------------------------------------------------------
    def _finish(self, archive: tuple[str, str, str], size: int = 0) -> bool:
        """Marks a month done (stored, unchanged or failed); False if it already was."""
        if archive in self.months_finished:
            return False
        self.months_finished.add(archive)
        self.months_wanted.add(archive)
        self.bytes_done += size
        self._progress()
        return True

    def _progress(self, force: bool = False) -> None:
        """`progress: 37 of 412 months (9 %), 12.3 MB fetched; 3 min so far, about 38 min left
        (ETA …)`, at most every PROGRESS_INTERVAL seconds, and when the last month is done."""
        now = time.monotonic()
        total, done = len(self.months_wanted), len(self.months_finished)
        lists_pending = self.lists_matched - len(self.lists_read)
        last = done >= total and not lists_pending
        if not total and not force:
            return  # nothing to fetch (yet): nothing to report
        if not (last or force) and now - self._last_progress < self.progress_interval:
            return
        self._last_progress = now
        line = f"progress: {done} of {total} months ({100 * done / max(total, 1):.0f} %)"
        line += f", {human_bytes(self.bytes_done)} fetched"
        started = self._fetch_started or now
        elapsed = now - started
        line += f"; {human_seconds(elapsed)} so far"
        if done and total > done:
            left = elapsed / done * (total - done)
            eta = datetime.now(UTC) + timedelta(seconds=left)
            line += f", about {human_seconds(left)} left (ETA {eta:%Y-%m-%d %H:%M} UTC)"
        if lists_pending:
            line += (
                f"; the months of {lists_pending} of {self.lists_matched} lists are not "
                f"read yet, so the total will grow"
            )
        self.logger.info("%s", line)

    # --- unreachable ----------------------------------------------------------------------
    def _reached(self) -> None:
        self._unreachable_streak = 0

    def _fails_fast(self, failure) -> bool:
        """A DNS or connection-refused failure (not retried: crawler.middlewares)."""
        return bool(self.fail_fast and failure.check(*self.fail_fast))

    def _note_unreachable(self, failure) -> None:
        """After ARCHIVE_UNREACHABLE_AFTER fail-fast failures in a row the crawl stops
        instead of failing every remaining month one by one."""
        if self.unreachable or not self._fails_fast(failure):
            return  # (requests in flight when the crawl stopped still fail after it)
        self._unreachable_streak += 1
        if self.unreachable_after and self._unreachable_streak >= self.unreachable_after:
            self.unreachable = f"{self._unreachable_streak} requests in a row: {_describe(failure)}"
            raise CloseSpider("archive_unreachable")

    # --- lists ------------------------------------------------------------------------
    async def start(self):
        self.logger.info(
            "%s %s into %s/raw (lists=%s, since=%s, until=%s)",
            "planning (dry run) a crawl of" if self.plan else "crawling",
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
            meta=self._api_meta(("preferences",)),
            dont_filter=True,
        )

    def preferences_failed(self, failure):
        if failure.check(NotNeeded):
            return
        self.logger.error(
            "cannot read the lists from %s: %s", failure.request.url, _describe(failure)
        )
        self.lists_unread = True
        self.why_nothing.append(f"the list of lists could not be read ({_describe(failure)})")

    def parse_preferences(self, response):
        self._reached()
        try:
            lists = json.loads(response.text)["lists"]
            if not isinstance(lists, dict):
                raise TypeError("'lists' is not an object")
        except (ValueError, KeyError, TypeError) as exc:
            self.logger.error("unexpected answer from %s: %s", response.url, exc)
            self.lists_unread = True
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
                addresses[f"{name}@{domain}"] = (name, domain)
        matched, unmatched = match_lists(list(addresses), self.patterns)
        for pattern in unmatched:
            self.logger.warning("pattern %r matches no list on %s", pattern, self.archive_url)
        matched = self._apart_by_case([addresses[a] for a in matched])
        self.lists_matched = len(matched)
        self.crawler.stats.set_value("archive/lists_available", len(addresses))
        self.crawler.stats.set_value("archive/lists_matched", len(matched))
        self.crawler.stats.set_value("archive/patterns_unmatched", unmatched)
        self.logger.info("%d of %d lists match %s", len(matched), len(addresses), self.patterns)
        if not matched:
            self.no_list_matched = True
            self.why_nothing.append(f"no list matches lists={','.join(self.patterns)}")
        if self.plan:
            self.plan.lists_available = len(addresses)
        for name, domain in matched:
            key = ("stats", name, domain)
            if key in self.claims:  # a replayed request asked for them already
                continue
            yield scrapy.Request(
                self._api("stats", "quick", list=name, domain=domain),
                callback=self.parse_stats,
                errback=self.stats_failed,
                cb_kwargs={"name": name, "domain": domain},
                meta=self._api_meta(key),
                dont_filter=True,
                priority=1,  # every list's months first: the progress then knows the total
            )

    def _apart_by_case(self, matched: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """Lists whose names differ only in case (`issues`, `Issues`) are kept apart, each
        in a folder with its name's case (crawler.archive.list_folders), and a warning says
        so. Where even that cannot keep them apart (a filesystem that ignores case), the
        other list is reported as a failed list, never stored in the first one's folder."""
        clashes = case_clashes(matched)
        if not clashes:
            return matched
        self.keep_case.update(clashes)
        sensitive = self.plan_only or case_sensitive(self.staging)
        folders, refused = list_folders(matched, sensitive)
        for member in sorted(clashes):
            if member in folders:
                self.logger.warning(
                    "%s@%s differs only in case from %s: kept apart, in %s/",
                    *member,
                    ", ".join(clashes[member]),
                    folders[member],
                )
        for (name, domain), owner, folder in refused:
            self.logger.error(
                "%s@%s not crawled: it would share %s/ with %s (the filesystem of DATA_DIR "
                "does not tell names apart by case); crawl it into a DATA_DIR on a "
                "case-sensitive filesystem",
                name,
                domain,
                folder,
                owner,
            )
            self._count("lists_failed")
        self._count("lists_case_clash", len(clashes))
        return sorted(folders, key=lambda m: f"{m[0]}@{m[1]}")

    # --- months -----------------------------------------------------------------------
    def stats_failed(self, failure):
        if failure.check(NotNeeded):
            return
        self.logger.error(
            "cannot read the months of %s: %s", failure.request.url, _describe(failure)
        )
        self._count("lists_failed")
        name, domain = failure.request.cb_kwargs["name"], failure.request.cb_kwargs["domain"]
        self.lists_read.add((name, domain))
        self._note_unreachable(failure)

    def parse_stats(self, response, name: str, domain: str):
        self._reached()
        self.lists_read.add((name, domain))
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
        counts = {}  # month → messages the archive says it holds
        for raw_key, count in sorted(months.items()):
            try:
                key = month_key(*parse_month(raw_key))
            except ArgumentError:
                self.logger.warning("ignoring malformed month %r of %s@%s", raw_key, name, domain)
                continue
            if not count:
                continue
            archive = (name, domain, key)
            if key > current:  # a month that has not begun: nothing to fetch, ever
                self.logger.warning(
                    "ignoring month %s of %s@%s: after the current month %s",
                    key,
                    name,
                    domain,
                    current,
                )
                self.months_in_future.add(archive)
                continue
            if not month_in_range(key, self.since, self.until):
                self.months_out_of_range.add(archive)
                continue
            if ("month", *archive) in self.claims:  # a replayed request fetches it
                continue
            if self.stored_complete(*archive):
                self.months_skipped.add(archive)
                continue
            wanted.append(key)
            counts[key] = count
        self.logger.info(
            "%s@%s: %d active months, %d to fetch (current month %s)",
            name,
            domain,
            len(months),
            len(wanted),
            month_of(self._now()),
        )
        if self.plan:  # the dry run: count what would be fetched, fetch nothing
            latency = response.meta.get("download_latency")
            folder = self._path(name, domain, "1970-01").parent
            self.plan.add_list(name, domain, counts, latency, folder)
            return
        for key in wanted:
            self.months_wanted.add((name, domain, key))
            yield self._month_request(name, domain, key)
        if not wanted:
            self._progress()  # the last list read may leave nothing more to do

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
        self._fetch_started = self._fetch_started or time.monotonic()
        # Giving up on a whole month is not an error yet: week slices follow.
        meta = {
            "archive": (name, domain, key),
            "claim": self._claim(("month", name, domain, key)),
            "give_up_log_level": logging.WARNING,
        }
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

    def _item(self, archive, staged: Staged, urls, fetched: datetime, sliced: bool):
        name, domain, key = archive
        item = MonthArchive(
            address=f"{name}@{domain}",
            domain=domain,
            list_name=name,
            month=key,
            path=self._path(name, domain, key).as_posix(),
            urls=urls,
            fetched_at=fetched.isoformat(timespec="seconds"),
            complete=self._is_complete(key, fetched),
            sliced=sliced,
            sha256=staged.sha256,
            size=staged.size,
            messages=staged.messages,
        )
        item.staged = staged.path
        self._finish(archive, staged.size)
        return item

    def _fail(self, archive, message: str, *args) -> None:
        """A month not stored this run (an error; a rerun asks for it again)."""
        if self._finish(archive):
            self.logger.error(message, *args)
            self._count("months_failed")

    def parse_month(self, response):
        self._reached()
        archive = name, domain, key = response.meta["archive"]
        if response.body and not response.body.startswith(b"From "):
            self.logger.warning("%s@%s %s: the answer is not an mbox", name, domain, key)
            yield from self._slice_fallback(response.request, "the answer is not an mbox")
            return
        fetched = self._fetched_at(response)
        try:
            staged = stage_body(response.body, self.staging)
        except OSError as exc:
            self._fail(archive, "%s@%s %s not stored: %s", name, domain, key, exc)
            return
        yield self._item(archive, staged, [response.url], fetched, sliced=False)

    def month_failed(self, failure):
        if failure.check(NotNeeded):  # a copy this run does not need (see `admit`)
            name, domain, key = failure.request.meta["archive"]
            self.logger.debug("%s@%s %s: %s", name, domain, key, failure.value)
            return
        archive = name, domain, key = failure.request.meta["archive"]
        reason = _describe(failure)
        # HttpError is an IgnoreRequest too, but a refused month is worth slicing, as is one
        # too large once inflated or out of time; a request ignored for another reason
        # (forbidden by robots.txt, an off-host redirect) is not to be insisted on.
        worth_slicing = failure.check(HttpError, DecompressedTooLarge, OutOfTime)
        if self._fails_fast(failure):  # week slices would not fare better
            self._fail(archive, "%s@%s %s not fetched: %s", name, domain, key, reason)
            self._note_unreachable(failure)
            return
        if failure.check(IgnoreRequest) and not worth_slicing:
            self._fail(archive, "%s@%s %s not fetched: %s", name, domain, key, reason)
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
        yield self._slice_request(request.meta, index=0, files=[], urls=[])

    def _slice_request(self, meta: dict, index: int, files: list[str], urls: list[str]):
        """Week slice `index` of the month in `meta`; the slices before it are on disk
        (`files`), so memory holds one slice at a time, at most MONTH_MAXSIZE."""
        name, domain, key = meta["archive"]
        dfr, dto = week_slices(key)[index]
        slice_meta = {
            "archive": meta["archive"],
            "claim": meta["claim"],
            "slice": index,
            "slice_files": files,
            "urls": urls,
        }
        if "first_fetched" in meta:
            slice_meta["first_fetched"] = meta["first_fetched"]
        if self.month_maxsize:
            slice_meta["download_maxsize"] = self.month_maxsize
        return scrapy.Request(
            self._api("mbox", list=name, domain=domain, d=f"dfr={dfr}|dto={dto}"),
            callback=self.parse_slice,
            errback=self.slice_failed,
            meta=slice_meta,
            dont_filter=True,
        )

    @staticmethod
    def _drop_slices(files: list[str]) -> None:
        for path in files:
            Path(path).unlink(missing_ok=True)

    def parse_slice(self, response):
        self._reached()
        meta = response.meta
        archive = name, domain, key = meta["archive"]
        index = meta["slice"]
        files = list(meta["slice_files"])
        if response.body and not response.body.startswith(b"From "):
            self._drop_slices(files)
            self._fail(archive, "%s@%s %s: slice %d is not an mbox", name, domain, key, index)
            return
        try:
            files.append(str(stage_slice(response.body, self.staging)))
        except OSError as exc:
            self._drop_slices(files)
            self._fail(archive, "%s@%s %s not stored: %s", name, domain, key, exc)
            return
        urls = [*meta["urls"], response.url]
        # The month is as complete as its earliest slice: keep the first slice's time.
        first_fetched = meta.get("first_fetched") or self._fetched_at(response).timestamp()
        if index + 1 < len(week_slices(key)):
            request = self._slice_request(meta, index + 1, files, urls)
            request.meta["first_fetched"] = first_fetched
            yield request
            return
        fetched = datetime.fromtimestamp(first_fetched, UTC)
        try:
            served = sum(Path(f).stat().st_size for f in files)
            staged = join_slice_files(
                [Path(f) for f in files], key, self.staging, self.sliced_month_maxsize
            )
        except SlicedMonthTooLarge as exc:
            self._fail(
                archive,
                "%s@%s %s not stored: %s; -s SLICED_MONTH_MAXSIZE=… takes a larger month",
                name,
                domain,
                key,
                exc,
            )
            return
        except OSError as exc:
            self._fail(archive, "%s@%s %s not stored: %s", name, domain, key, exc)
            return
        finally:
            self._drop_slices(files)
        self.logger.info(
            "%s@%s %s: joined %d week slices (%d bytes served, %d kept)",
            name,
            domain,
            key,
            len(files),
            served,
            staged.size,
        )
        yield self._item(archive, staged, urls, fetched, sliced=True)

    def slice_failed(self, failure):
        if failure.check(NotNeeded):
            return
        meta = failure.request.meta
        archive = name, domain, key = meta["archive"]
        self._drop_slices(meta["slice_files"])
        hint = ""
        if _too_large(failure) and self.month_maxsize:
            hint = (
                f"; a week slice is held in memory and may not exceed MONTH_MAXSIZE "
                f"({self.month_maxsize} B, inflated too)"
            )
        self._fail(
            archive,
            "%s@%s %s: week slice %d failed (%s)%s; month not stored",
            name,
            domain,
            key,
            meta["slice"],
            _describe(failure),
            hint,
        )
        self._note_unreachable(failure)

    # --- summary ----------------------------------------------------------------------
    def _say(self, line: str) -> None:
        """A summary line: on stdout (the log is stderr), and in LOG_FILE if there is one."""
        print(line, file=sys.stdout, flush=True)
        if self.log_summary:
            self.logger.info("%s", line)

    def _exit_status(self, reason: str, failed: int) -> tuple[int, str]:
        """(exit status, why) from how the run ended; (0, "") when all went well."""
        if reason == "shutdown":
            return EXIT_INTERRUPTED, "the crawl was stopped early; the same command resumes it"
        if self.unreachable:
            return EXIT_UNREACHABLE, f"the archive became unreachable ({self.unreachable})"
        if self.lists_unread:
            why = "; ".join(self.why_nothing)
            return EXIT_UNREACHABLE, f"nothing could be read from {self.archive_url}: {why}"
        if self.no_list_matched:
            return EXIT_USAGE, f"no list matches lists={','.join(self.patterns)}"
        if failed:
            return EXIT_FAILED, f"{failed} month(s) or list(s) failed; a rerun fetches them"
        if reason != "finished":
            return EXIT_FAILED, f"the crawl stopped early ({reason})"
        errors = self.crawler.stats.get_value("log_count/ERROR", 0)
        if errors:
            return EXIT_FAILED, f"{errors} error(s) logged"
        return EXIT_OK, ""

    def closed(self, reason):
        stats = self.crawler.stats
        # Counted as sets (each month once, however many copies of a request came).
        stats.set_value("archive/months_skipped", len(self.months_skipped))
        stats.set_value("archive/months_out_of_range", len(self.months_out_of_range))
        stats.set_value("archive/months_in_future", len(self.months_in_future))
        if not self.plan and self.months_wanted and reason != "finished":
            self._progress(force=True)  # where a stopped crawl got to
        failed = stats.get_value("archive/months_failed", 0)
        failed += stats.get_value("archive/lists_failed", 0)
        self.exit_code, why = self._exit_status(reason, failed)
        if self.job_file is not None and reason == "finished":
            self._write_job_file(finished=True)  # nothing left to replay: any arguments
        if self.plan:
            for line in self.plan.report(self._plan_settings()):
                self._say(line)
        else:
            self._summary(reason)
        if self.exit_code:
            self.logger.error("exit status %d: %s", self.exit_code, why)

    def _plan_settings(self) -> dict:
        stats = self.crawler.stats
        return {
            "archive_url": self.archive_url,
            "patterns": self.patterns,
            "since": self.since,
            "until": self.until,
            "crawl_delay": stats.get_value("archive/crawl_delay", 0.0),
            "skipped": stats.get_value("archive/months_skipped", 0),
            "out_of_range": stats.get_value("archive/months_out_of_range", 0),
            "lists_failed": stats.get_value("archive/lists_failed", 0),
            "exit": self.exit_code,
        }

    def _summary(self, reason: str) -> None:
        stats = self.crawler.stats
        counts = {
            k: stats.get_value(f"archive/{k}", 0)
            for k in (
                "lists_matched",
                "lists_failed",
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
        self._say(
            "summary: lists matched {lists_matched}; months fetched {months_fetched}, "
            "unchanged {months_unchanged}, skipped (complete on disk) {months_skipped}, "
            "failed {months_failed}, out of range {months_out_of_range}; "
            "week-sliced {months_sliced}; unsafe names rejected {names_rejected}; "
            "bytes written {bytes}".format(**counts)
        )
        unmatched = stats.get_value("archive/patterns_unmatched") or []
        if unmatched:
            self._say(f"summary: patterns that matched no list: {', '.join(unmatched)}")
        if self.keep_case:
            apart = ", ".join(f"{n}@{d}" for n, d in sorted(self.keep_case))
            self._say(f"summary: lists whose names differ only in case, kept apart: {apart}")
        if counts["months_fetched"] == 0:
            why = list(self.why_nothing)
            if counts["months_skipped"] and not counts["months_failed"]:
                why.append("every wanted month is already stored complete")
            if counts["months_unchanged"]:
                why.append("the open month(s) had not changed")
            if counts["lists_matched"] and not any(
                counts[k]
                for k in ("months_skipped", "months_unchanged", "months_failed", "lists_failed")
            ):
                why.append(
                    f"no active month of the matched lists lies in "
                    f"{self.since or 'the beginning'}..{self.until or 'now'}"
                )
            if counts["months_failed"]:
                why.append(f"{counts['months_failed']} month(s) failed (see errors above)")
            if counts["lists_failed"]:
                why.append(f"the months of {counts['lists_failed']} list(s) could not be read")
            if self.unreachable:
                why.append(f"the archive became unreachable ({self.unreachable})")
            if reason != "finished":
                why.append(f"the crawl stopped early ({reason})")
            because = "; ".join(dict.fromkeys(why)) or reason  # each reason once
            self._say(f"summary: fetched nothing because {because}")
        fields = {
            "lists": counts["lists_matched"],
            "lists_failed": counts["lists_failed"],
            "fetched": counts["months_fetched"],
            "unchanged": counts["months_unchanged"],
            "skipped": counts["months_skipped"],
            "failed": counts["months_failed"],
            "out_of_range": counts["months_out_of_range"],
            "sliced": counts["months_sliced"],
            "bytes": counts["bytes"],
            "exit": self.exit_code,
        }
        self._say(" ".join(f"{k}={v}" for k, v in fields.items()))
