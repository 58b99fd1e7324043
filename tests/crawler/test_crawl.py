"""The real `scrapy crawl asf-lists`, run as a subprocess against the local archive server
on 127.0.0.1: discovery, filtering, storage, incremental runs, retries, faults, kills."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path
from urllib.parse import unquote

import pytest

from crawler.archive import mboxrd_unescape, split_mbox, valid_domain, valid_list_name
from crawler.archive_server import ArchiveServer, Faults
from crawler.middlewares import retry_after_seconds
from tests.mail.mboxes import EDGE_ARCHIVES

pytestmark = pytest.mark.e2e  # real crawls: scrapy against a local archive server

REPO = Path(__file__).resolve().parents[2]
SCRAPY = Path(sys.executable).parent / "scrapy"
# Month exports built in tests/mail/mboxes.py, in lists.apache.org's own form.
USERS = {m: EDGE_ARCHIVES[f"users-{m}"] for m in ("2019-09", "2022-01")}
COMMITS_2016_06 = EDGE_ARCHIVES["commits-2016-06"]
# Test speed only; the polite defaults stay in crawler/settings.py.
FAST = ["-s", "DOWNLOAD_DELAY=0", "-s", "AUTOTHROTTLE_ENABLED=False", "-s", "LOG_LEVEL=INFO"]
NOW = datetime(2022, 1, 20, 12, 0, tzinfo=UTC)  # 2022-01 is the archive's open month
# The crawler ignores an archive clock more than a day off ours; tests that pretend "now"
# is NOW (so 2022-01 is still open) say the archive's clock is to be believed.
TRUST_NOW = ["-s", f"ARCHIVE_CLOCK_MAX_SKEW={10 * 365 * 86400}"]


def crawl_command(url: str, data_dir: Path, *args: str) -> list[str]:
    return [
        str(SCRAPY),
        "crawl",
        "asf-lists",
        "-s",
        f"ARCHIVE_URL={url}",
        "-s",
        f"DATA_DIR={data_dir}",
        *FAST,
        *args,
    ]


def crawl(url: str, data_dir: Path, *args: str, timeout: float = 120):
    result = subprocess.run(
        crawl_command(url, data_dir, *args),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    result.log = result.stderr  # Scrapy logs to stderr
    result.out = result.stdout  # the summary (or the plan)
    return result


def eml(subject: str, date: str, body: str = "Hello.\n") -> bytes:
    msgid = hashlib.sha1(f"{subject}{date}".encode()).hexdigest()[:16]
    return (
        f"From: Jane Doe <jane@example.org>\nTo: issues@demo.apache.org\n"
        f"Subject: {subject}\nDate: {date}\nMessage-ID: <{msgid}@test.invalid>\n\n{body}"
    ).encode()


def add(root: Path, address: str, name: str, data: bytes) -> Path:
    list_name, domain = address.split("@")
    path = root / domain / list_name / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """users@ponymail (two month exports), commits@ponymail (a month of commit mail),
    issues@demo (a few messages over three months)."""
    archive = tmp_path / "archive"
    for month, data in USERS.items():
        add(archive, "users@ponymail.apache.org", f"users_ponymail_apache_org_{month}.mbox", data)
    add(archive, "commits@ponymail.apache.org", "2016-06.mbox", COMMITS_2016_06)
    add(archive, "issues@demo.apache.org", "may.eml", eml("may", "Tue, 10 May 2016 10:00:00 +0000"))
    add(archive, "issues@demo.apache.org", "jun.eml", eml("jun", "Fri, 10 Jun 2016 10:00:00 +0000"))
    add(archive, "issues@demo.apache.org", "jul.eml", eml("jul", "Sun, 10 Jul 2016 10:00:00 +0000"))
    return archive


def stored(data_dir: Path) -> dict[str, bytes]:
    """`domain/list/YYYY-MM` → the decompressed bytes of every stored archive."""
    raw = data_dir / "raw"
    return {
        str(p.relative_to(raw)).removesuffix(".mbox.gz"): gzip.decompress(p.read_bytes())
        for p in sorted(raw.rglob("*.mbox.gz"))
    }


def sidecar(data_dir: Path, key: str) -> dict:
    return json.loads((data_dir / "raw" / f"{key}.mbox.gz.json").read_text())


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read()


def assert_no_partial_files(data_dir: Path, killed: bool = False) -> None:
    for path in (data_dir / "raw").rglob("*"):
        assert not path.name.startswith(".partial-"), path
        if path.name.endswith(".mbox.gz"):
            body = gzip.decompress(path.read_bytes())  # a cut file would raise here
            key = str(path.relative_to(data_dir / "raw"))[: -len(".mbox.gz")]
            if killed and not (data_dir / "raw" / f"{key}.mbox.gz.json").exists():
                continue  # killed between archive and sidecar: fetched again next run
            meta = sidecar(data_dir, key)
            assert hashlib.sha256(body).hexdigest() == meta["sha256"]


def test_discovery_filtering_storage_and_incremental_runs(root, tmp_path):
    data = tmp_path / "data"
    with ArchiveServer(root, now=NOW, crawl_delay=0) as server:
        patterns = "commits@*,users@ponymail.apache.org,nothing@*"
        first = crawl(server.url, data, "-a", f"lists={patterns}", *TRUST_NOW)
        assert first.returncode == 0, first.log
        assert "pattern 'nothing@*' matches no list" in first.log
        assert "patterns that matched no list: nothing@*" in first.out
        files = stored(data)
        assert set(files) == {
            "ponymail.apache.org/commits/2016-06",
            "ponymail.apache.org/users/2019-09",
            "ponymail.apache.org/users/2022-01",
        }
        # Exactly the served bytes, and for exports in Foal's form exactly the export.
        for key, body in files.items():
            meta = sidecar(data, key)
            assert body == fetch(meta["url"])
            assert meta["sha256"] == hashlib.sha256(body).hexdigest()
            assert meta["size"] == len(body) and meta["url"].startswith(server.url + "/api/mbox")
            assert meta["messages"] == len(split_mbox(body))
        assert files["ponymail.apache.org/users/2019-09"] == USERS["2019-09"]
        assert sidecar(data, "ponymail.apache.org/commits/2016-06")["messages"] == len(
            split_mbox(COMMITS_2016_06)
        )
        assert sidecar(data, "ponymail.apache.org/users/2019-09")["complete"] is True
        assert sidecar(data, "ponymail.apache.org/users/2022-01")["complete"] is False
        assert "lists matched 2; months fetched 3" in first.out
        assert first.out.splitlines()[-1] == (
            "lists=2 lists_failed=0 fetched=3 unchanged=0 skipped=0 failed=0 out_of_range=0 "
            f"sliced=0 bytes={sum(map(len, files.values()))} exit=0"
        )
        assert "summary:" not in first.log  # stdout only (no LOG_FILE)

        # Second run, archive unchanged: no closed month is requested again, and the
        # open month is fetched but left as it is.
        open_month = data / "raw/ponymail.apache.org/users/2022-01.mbox.gz"
        before = open_month.stat()
        server.reset_log()
        second = crawl(server.url, data, "-a", f"lists={patterns}", *TRUST_NOW)
        assert second.returncode == 0, second.log
        assert server.requested("mbox") == [
            "/api/mbox.lua?list=users&domain=ponymail.apache.org&d=2022-01"
        ]
        assert "users@ponymail.apache.org 2022-01 unchanged" in second.log
        assert "months fetched 0, unchanged 1, skipped (complete on disk) 2" in second.out
        assert "fetched nothing because" in second.out
        assert (open_month.stat().st_ino, open_month.stat().st_mtime_ns) == (
            before.st_ino,
            before.st_mtime_ns,
        )

        # A new message in the open month: the third run replaces that month only.
        add(
            root,
            "users@ponymail.apache.org",
            "new.eml",
            eml("late news", "Sat, 15 Jan 2022 09:00:00 +0000"),
        )
        server.reset_log()
        third = crawl(server.url, data, "-a", f"lists={patterns}", *TRUST_NOW)
        assert third.returncode == 0, third.log
        assert "users@ponymail.apache.org 2022-01 replaced" in third.log
        assert len(server.requested("mbox")) == 1
        body = stored(data)["ponymail.apache.org/users/2022-01"]
        assert body.count(b"\nSubject: late news\n") == 1
        assert sidecar(data, "ponymail.apache.org/users/2022-01")["messages"] == (
            len(split_mbox(USERS["2022-01"])) + 1
        )
        assert_no_partial_files(data)


def test_default_patterns_and_month_range(root, tmp_path):
    data = tmp_path / "data"
    with ArchiveServer(root, now=NOW, crawl_delay=0) as server:
        result = crawl(
            server.url, data, "-a", "all=1", "-a", "since=2016-06", "-a", "until=2016-06"
        )
        assert result.returncode == 0, result.log
        # Default patterns take commits@ and issues@ but not users@; only June 2016.
        assert set(stored(data)) == {
            "ponymail.apache.org/commits/2016-06",
            "demo.apache.org/issues/2016-06",
        }
        assert all("d=2016-06" in path for path in server.requested("mbox"))
        assert "lists matched 2" in result.out and "out of range 2" in result.out


@pytest.mark.parametrize(
    "args, message",
    [
        (["-a", "since=2016-13"], "since='2016-13' is not a month: use YYYY-MM"),
        (["-a", "until=June"], "until='June' is not a month: use YYYY-MM"),
        (["-a", "since=2017-01", "-a", "until=2016-01"], "since=2017-01 is after until=2016-01"),
        (
            ["-a", "lists=issues@*", "-s", "ARCHIVE_URL=ftp://example.org"],
            "ARCHIVE_URL='ftp://example.org' is not an http",
        ),
        (["-a", "until=9999-12"], "until=9999-12 is after the current month"),
        (["-a", "since=9998-01"], "since=9998-01 is after the current month"),
        (["-a", "since=10000-01"], "since='10000-01' is not a month"),
        (["-a", "since=0000-01"], "since='0000-01' is out of range"),
    ],
)
def test_bad_months_fail_clearly_before_any_request(root, tmp_path, args, message):
    with ArchiveServer(root, now=NOW, crawl_delay=0) as server:
        result = crawl(server.url, tmp_path / "data", *args)
        assert result.returncode == 2  # a usage error, as Scrapy's own
        assert message in result.log
        assert "Traceback" not in result.log  # the one clear line, no stack dump
        assert server.requests == []
    assert not (tmp_path / "data").exists()


def test_a_run_that_fetches_nothing_says_why(root, tmp_path):
    with ArchiveServer(root, now=NOW, crawl_delay=0) as server:
        result = crawl(server.url, tmp_path / "data", "-a", "lists=nothing@*,dev@*")
        assert result.returncode == 2, result.log  # a scope that holds nothing: a usage error
        assert "fetched nothing because no list matches lists=nothing@*,dev@*" in result.out
        assert "exit status 2: no list matches lists=nothing@*,dev@*" in result.log
        assert server.requested("mbox") == [] and server.requested("stats") == []


def test_mboxrd_round_trip_of_from_lines(root, tmp_path):
    body = "Results:\nFrom the benchmark run, 12 ms.\n>From the earlier run, 15 ms.\n"
    source = eml("from lines", "Mon, 13 Jun 2016 10:00:00 +0000", body)
    add(root, "issues@demo.apache.org", "from.eml", source)
    data = tmp_path / "data"
    with ArchiveServer(root, now=NOW, crawl_delay=0) as server:
        result = crawl(
            server.url,
            data,
            "-a",
            "lists=issues@demo.apache.org",
            "-a",
            "since=2016-06",
            "-a",
            "until=2016-06",
        )
        assert result.returncode == 0, result.log
    mbox = stored(data)["demo.apache.org/issues/2016-06"]
    assert b"\n>From the benchmark run, 12 ms.\n>>From the earlier run, 15 ms.\n" in mbox
    messages = [m for m in split_mbox(mbox) if b"Subject: from lines" in m]
    assert len(messages) == 1
    envelope, _, rest = mboxrd_unescape(messages[0]).partition(b"\n")
    assert envelope.startswith(b"From issues-return-")
    assert rest == source + b"\n"  # the writer's blank separator line


def test_retries_on_503_429_and_cut_bodies_succeed(root, tmp_path):
    data = tmp_path / "data"
    faults = Faults(fail_503=2, fail_429=1, retry_after=1, truncate=1)
    with ArchiveServer(root, now=NOW, crawl_delay=0, faults=faults) as server:
        args = ["-a", "lists=issues@demo.apache.org", "-a", "until=2016-06"]
        result = crawl(server.url, data, *args, "-s", "RETRY_TIMES=4")
        assert result.returncode == 0, result.log
        assert set(stored(data)) == {
            "demo.apache.org/issues/2016-05",
            "demo.apache.org/issues/2016-06",
        }
        for month in ("2016-05", "2016-06"):
            url = f"/api/mbox.lua?list=issues&domain=demo.apache.org&d={month}"
            statuses = [s for p, s in server.requests if p == url]
            assert statuses == [503, 503, 429, 200, 200]
            times = [
                t
                for (p, _), t in zip(server.requests, server.request_times, strict=True)
                if p == url
            ]
            assert times[3] - times[2] >= 0.95  # waited as Retry-After asked
        assert "waiting 1 s (Retry-After)" in result.log
        assert_no_partial_files(data)
        for key, body in stored(data).items():
            assert body == fetch(sidecar(data, key)["url"])


def test_week_slices_when_a_month_is_refused_too_big_or_times_out(root, tmp_path):
    # Messages on the seams: first and last second of the month, and midnight of a seam day.
    for stamp in (
        "Wed, 01 Jun 2016 00:00:00 +0000",
        "Tue, 07 Jun 2016 00:00:00 +0000",
        "Tue, 07 Jun 2016 23:59:59 +0000",
        "Thu, 30 Jun 2016 23:59:59 +0000",
        "Tue, 31 May 2016 23:59:59 +0000",
        "Fri, 01 Jul 2016 00:00:00 +0000",
    ):
        add(root, "issues@demo.apache.org", f"{stamp[5:24]}.eml", eml(f"seam {stamp}", stamp))
    # Three bulky messages in three weeks: the month is over 20,000 bytes, no week is
    # (each slice is held in memory and capped at MONTH_MAXSIZE as a whole month is).
    for day in (3, 10, 17):
        stamp = f"Fri, {day:02d} Jun 2016 12:00:00 +0000"
        add(
            root,
            "issues@demo.apache.org",
            f"bulk{day}.eml",
            eml(f"bulk {day}", stamp, "x\n" * 4000),
        )
    with ArchiveServer(root, now=NOW, crawl_delay=0) as plain:
        whole = {
            key: fetch(f"{plain.url}/api/mbox.lua?list={name}&domain={domain}&d=2016-06")
            for key, name, domain in [
                ("ponymail.apache.org/commits/2016-06", "commits", "ponymail.apache.org"),
                ("demo.apache.org/issues/2016-06", "issues", "demo.apache.org"),
            ]
        }
    assert whole["demo.apache.org/issues/2016-06"].count(b"\nSubject: seam ") == 4
    args = ["-a", "lists=commits@ponymail.apache.org,issues@demo.apache.org"]
    args += ["-a", "since=2016-06", "-a", "until=2016-06", "-s", "RETRY_TIMES=1"]
    runs = {
        "refused": (Faults(refuse_months_over=1000), []),
        "too-big": (Faults(), ["-s", "MONTH_MAXSIZE=20000"]),
        "timed-out": (
            Faults(refuse_months_over=1000, refuse_by_timeout=3),
            ["-s", "DOWNLOAD_TIMEOUT=1", "-s", "RETRY_TIMES=0"],
        ),
    }
    for label, (faults, extra) in runs.items():
        data = tmp_path / label
        with ArchiveServer(root, now=NOW, crawl_delay=0, faults=faults) as server:
            result = crawl(server.url, data, *args, *extra)
            assert result.returncode == 0, result.log
            assert "failed whole" in result.log and "fetching it in week slices" in result.log
            slices = [p for p in map(unquote, server.requested("mbox")) if "d=dfr=" in p]
            assert len(slices) == 2 * 4  # June: four overlapping slices per list
        assert stored(data) == whole, label
        meta = sidecar(data, "demo.apache.org/issues/2016-06")
        assert meta["sliced"] is True and len(meta["urls"]) == 4 and meta["messages"] == 8


def test_hostile_list_names_are_rejected(root, tmp_path):
    data = tmp_path / "data"
    with ArchiveServer(root, now=NOW, crawl_delay=0, faults={"hostile_lists": True}) as server:
        result = crawl(server.url, data, "-a", "lists=*", "-a", "until=2016-12")
        assert result.returncode == 0, result.log
        for name in ("'../evil'", "'a/b'", "'/etc/passwd'", "'..'"):
            assert f"skipping unsafe list name {name}" in result.log
        assert "skipping unsafe or malformed domain name '../../tmp'" in result.log
        assert "skipping unsafe list name 'issues\\n'" in result.log
        assert "skipping unsafe or malformed domain name 'apache.org\\n'" in result.log
        assert "unsafe names rejected 9" in result.out
        requested = " ".join(server.requested("stats") + server.requested("mbox"))
        assert "evil" not in requested and "tmp" not in requested
    assert {p.name for p in (data / "raw").iterdir()} == {"ponymail.apache.org", "demo.apache.org"}
    assert not any("evil" in str(p) for p in tmp_path.rglob("*"))


def test_robots_txt_is_obeyed(root, tmp_path):
    with ArchiveServer(root, now=NOW, crawl_delay=1, disallow="/api/mbox") as server:
        start = time.monotonic()
        result = crawl(server.url, tmp_path / "data", "-a", "lists=issues@demo.apache.org")
        assert result.returncode == 1, result.log  # the months were refused: failed
        assert server.requested("mbox") == []
        assert "robots.txt of 127.0.0.1" in result.log and "Crawl-delay: 1" in result.log
        assert (
            "fetched nothing because requests were refused (Forbidden by robots.txt)" in result.out
        )
        # robots.txt, preferences, stats: with Crawl-delay 1, the last one waits a second.
        assert time.monotonic() - start >= 1.0
        assert [p for p, _ in server.requests][:3] == [
            "/robots.txt",
            "/api/preferences.lua",
            "/api/stats.lua?list=issues&domain=demo.apache.org&quick",
        ]


def _many_months(root: Path) -> None:
    """One message in each month of 2015 on issues@demo."""
    for month in range(1, 13):
        date = datetime(2015, month, 12, 10, tzinfo=UTC)
        add(
            root,
            "issues@demo.apache.org",
            f"{date:%Y-%m}.eml",
            eml(f"m{month}", format_datetime(date)),
        )


def _wait_for_first_file(data: Path, process: subprocess.Popen, limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    while not list((data / "raw").rglob("*.mbox.gz")):
        assert process.poll() is None, "crawl ended before storing anything"
        assert time.monotonic() < deadline, "no month stored in time"
        time.sleep(0.05)


def test_kill_9_mid_crawl_then_a_clean_finish(root, tmp_path):
    _many_months(root)
    data = tmp_path / "data"
    args = ["-a", "lists=issues@demo.apache.org"]
    with ArchiveServer(root, now=NOW, crawl_delay=0, faults=Faults(slow=0.3)) as server:
        with subprocess.Popen(
            crawl_command(server.url, data, *args),
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        ) as process:
            _wait_for_first_file(data, process)
            time.sleep(0.4)
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=30)
        interrupted = stored(data)
        assert 1 <= len(interrupted) < 15
        assert_no_partial_files(data, killed=True)  # every file there is whole
    with ArchiveServer(root, now=NOW, crawl_delay=0) as server:
        result = crawl(server.url, data, *args)
        assert result.returncode == 0, result.log
        fetched = server.requested("mbox")
    files = stored(data)
    assert len(files) == 15  # 2015-01..12 and 2016-05..07
    assert len(fetched) == 15 - len(interrupted)  # only what was missing
    assert_no_partial_files(data)
    assert list((data / ".crawl-tmp").iterdir()) == []  # leftovers of the kill cleaned up


def test_jobdir_resumes_a_stopped_crawl(root, tmp_path):
    _many_months(root)
    data, job = tmp_path / "data", tmp_path / "job"
    args = ["-a", "lists=issues@demo.apache.org", "-s", f"JOBDIR={job}"]
    with ArchiveServer(root, now=NOW, crawl_delay=0, faults=Faults(slow=0.3)) as server:
        with subprocess.Popen(
            crawl_command(server.url, data, *args),
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        ) as process:
            _wait_for_first_file(data, process)
            process.send_signal(signal.SIGINT)  # a graceful stop, as Ctrl-C once
            _, log = process.communicate(timeout=60)
        assert (
            "shutting down gracefully" in log.lower() or "closing spider (shutdown)" in log.lower()
        )
        assert process.returncode == 130  # stopped early: not a finished crawl
        assert (job / "requests.queue").exists()
        first = stored(data)
        assert 1 <= len(first) < 15
        port = int(server.url.rsplit(":", 1)[1])
    # Same address as before: the resumed run replays the stopped run's queued requests.
    with ArchiveServer(root, now=NOW, crawl_delay=0, port=port) as server:
        # Other arguments would replay the old queue under a new scope: refused up front.
        other = crawl(server.url, data, *args, "-a", "since=2015-06")
        assert other.returncode == 2, other.log
        assert (
            f"JOBDIR={job} holds a stopped crawl started with since=None (now since=2015-06)"
            in other.log
        )
        assert "use another JOBDIR (or delete that one)" in other.log
        assert server.requests == [] and "Traceback" not in other.log
        result = crawl(server.url, data, *args)
        assert result.returncode == 0, result.log
        fetched = server.requested("mbox")
    assert len(stored(data)) == 15
    assert len(set(fetched)) == len(fetched) == 15 - len(first)  # none twice, none again
    assert "Connection refused" not in result.log
    assert_no_partial_files(data)
    # A finished job leaves nothing to replay: a new scope may reuse its JOBDIR.
    with ArchiveServer(root, now=NOW, crawl_delay=0) as server:
        again = crawl(server.url, data, *args, "-a", "since=2016-01")
        assert again.returncode == 0, again.log
        assert "skipped (complete on disk) 3" in again.out
    arguments = json.loads((job / "asf-lists.arguments.json").read_text())
    assert arguments["arguments"]["since"] == "2016-01" and arguments["finished"] is True
    shutil.rmtree(job)


def test_an_unreachable_archive_is_reported(tmp_path):
    with ArchiveServer(tmp_path) as server:
        url = server.url  # a port that nothing listens on once the server is gone
    # Unreachable, robots.txt included: RFC 9309 disallows all (no asking again here).
    result = crawl(
        url,
        tmp_path / "data",
        "-a",
        "all=1",
        "-s",
        "RETRY_TIMES=0",
        "-s",
        "ROBOTSTXT_RETRY_TIMES=0",
    )
    assert result.returncode == 3, result.log
    assert "unreachable (DownloadConnectionRefusedError) after 1 tries" in result.log
    assert "cannot read the lists from" in result.log
    assert "fetched nothing because the list of lists could not be read" in result.out
    assert f"exit status 3: nothing could be read from {url}" in result.log


def test_retry_after_values():
    assert retry_after_seconds(b"7", 120, 900) == 7
    assert retry_after_seconds(None, 120, 900) == 120
    assert retry_after_seconds("100000", 120, 900) == 900  # capped
    assert retry_after_seconds("soon", 30, 900) == 30
    in_a_minute = format_datetime(datetime.now(UTC) + timedelta(seconds=60), usegmt=True)
    assert 50 <= retry_after_seconds(in_a_minute, 120, 900) <= 60


# --- a hostile archive (issue 12): the crawler trusts no server ------------------------
JUNE = ["-a", "lists=issues@demo.apache.org", "-a", "since=2016-06", "-a", "until=2016-06"]


def test_names_must_match_whole():
    assert valid_list_name("issues") and valid_list_name("dev-issues_2+x=")
    assert valid_domain("apache.org") and valid_domain("kafka.apache.org")
    for name in ("issues\n", "\nissues", "is\x00sues", "a.b", "a/b", "a\\b", "..", "", "x" * 101):
        assert not valid_list_name(name), repr(name)
    for domain in ("apache.org\n", "apache..org", "a/b.org", "org", ".apache.org", "x" * 254):
        assert not valid_domain(domain), repr(domain)
    assert not valid_domain("a" * 64 + ".org") and valid_domain("a" * 63 + ".org")


def test_off_host_redirects_are_refused(root, tmp_path):
    evil = tmp_path / "evil"
    add(evil, "issues@demo.apache.org", "x.eml", eml("evil", "Fri, 10 Jun 2016 10:00:00 +0000"))
    data = tmp_path / "data"
    with ArchiveServer(evil, now=NOW, crawl_delay=0) as other:
        faults = Faults(redirect_to=other.url)
        with ArchiveServer(root, now=NOW, crawl_delay=0, faults=faults) as server:
            result = crawl(server.url, data, *JUNE)
            assert result.returncode == 1, result.log  # the month failed
            month = f"{server.url}/api/mbox.lua?list=issues&domain=demo.apache.org&d=2016-06"
            assert f"refused redirect from {month} to {other.url}/api/mbox?" in result.log
            assert "not fetched: refused redirect" in result.log and "failed 1," in result.out
        assert other.requests == []  # the other host is never even asked
    assert stored(data) == {} if (data / "raw").exists() else True
    # A redirect on the archive's own scheme, host and port is followed.
    with ArchiveServer(root, now=NOW, crawl_delay=0) as server:
        server.faults.redirect_to = server.url
        result = crawl(server.url, tmp_path / "same", *JUNE)
        assert result.returncode == 0, result.log
        assert list(stored(tmp_path / "same")) == ["demo.apache.org/issues/2016-06"]
        meta = sidecar(tmp_path / "same", "demo.apache.org/issues/2016-06")
        assert meta["url"].startswith(f"{server.url}/api/mbox?")


@pytest.mark.parametrize(
    "status, failures, fetched",
    [(503, 0, False), (500, 2, True), (429, 1, True), (404, 0, True), (403, 0, True)],
)
def test_robots_txt_errors_follow_rfc_9309(root, tmp_path, status, failures, fetched):
    data = tmp_path / "data"
    faults = Faults(robots_status=status, robots_fail=failures)
    args = ["-s", "ROBOTSTXT_RETRY_TIMES=2", "-s", "ROBOTSTXT_RETRY_DELAY=0.2"]
    with ArchiveServer(root, now=NOW, crawl_delay=0, faults=faults) as server:
        start = time.monotonic()
        result = crawl(server.url, data, *JUNE, *args)
        assert result.returncode == (0 if fetched else 3), result.log  # 3: nothing readable
        robots = [s for p, s in server.requests if p == "/robots.txt"]
        netloc = server.url.removeprefix("http://")
        if not fetched:  # 5xx every time: asked 3 times with back-off, then disallow all
            assert robots == [status] * 3
            assert time.monotonic() - start >= 0.6  # waited 0.2 s, then 0.4 s
            assert f"robots.txt of {netloc} unreachable (HTTP {status}) after 3 tries" in result.log
            assert "assuming everything is disallowed (RFC 9309)" in result.log
            assert (
                "fetched nothing because the list of lists could not be read "
                f"(robots.txt unreachable (HTTP {status}): all disallowed)" in result.out
            )
            assert [p for p, _ in server.requests if p != "/robots.txt"] == []
            assert not (data / "raw").exists() or stored(data) == {}
        else:  # 4xx: no rules; 5xx or 429 that goes away: the real rules, then the crawl
            assert robots == ([status] * failures + [200] if failures else [status])
            assert list(stored(data)) == ["demo.apache.org/issues/2016-06"]
            assert "Traceback" not in result.log


def test_gzip_bomb_is_cut_at_api_maxsize(root, tmp_path):
    # 512 MiB of zeros in half a MB: the crawler stops inflating at API_MAXSIZE (64 MiB).
    faults = Faults(gzip_bomb=512 * 1024**2)
    with ArchiveServer(root, now=NOW, crawl_delay=0, faults=faults) as server:
        result = crawl(server.url, tmp_path / "data", *JUNE)
        assert result.returncode == 1, result.log  # the list's months could not be read
        assert f"inflated past {64 * 1024**2} B" in result.log
        assert "cannot read the months of" in result.log
        assert server.requested("mbox") == []
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    assert peak_kib < 450 * 1024, f"a crawl peaked at {peak_kib} KiB"


def test_gzip_month_over_month_maxsize_is_sliced(root, tmp_path):
    # 12 KB of text that gzip makes tiny: under MONTH_MAXSIZE on the wire, over it
    # inflated; in three weeks, so that no week slice is over it (each is capped too).
    body = "run 1: 12 ms\n" * 300
    for day in (6, 13, 20):
        stamp = f"Mon, {day:02d} Jun 2016 10:00:00 +0000"
        add(root, "issues@demo.apache.org", f"big{day}.eml", eml(f"big {day}", stamp, body))
    with ArchiveServer(root, now=NOW, crawl_delay=0) as plain:
        whole = fetch(f"{plain.url}/api/mbox.lua?list=issues&domain=demo.apache.org&d=2016-06")
    data = tmp_path / "data"
    with ArchiveServer(root, now=NOW, crawl_delay=0, faults=Faults(gzip=True)) as server:
        result = crawl(server.url, data, *JUNE, "-s", "MONTH_MAXSIZE=5000")
        assert result.returncode == 0, result.log
        assert "failed whole (inflated past 5000 B): fetching it in week slices" in result.log
        slices = [p for p in map(unquote, server.requested("mbox")) if "d=dfr=" in p]
        assert len(slices) == 4
    assert stored(data) == {"demo.apache.org/issues/2016-06": whole}
    assert sidecar(data, "demo.apache.org/issues/2016-06")["sliced"] is True


def test_slow_drip_is_bounded_per_attempt_and_in_total(root, tmp_path):
    data = tmp_path / "data"
    with ArchiveServer(root, now=NOW, crawl_delay=0) as plain:
        whole = fetch(f"{plain.url}/api/mbox.lua?list=issues&domain=demo.apache.org&d=2016-06")
    # One byte every 0.2 s: the month alone would take minutes; the server stops at 20 s.
    faults = Faults(drip=0.2, drip_max=20)
    limits = ["-s", "DOWNLOAD_TIMEOUT=1.5", "-s", "RETRY_TIMES=5", "-s", "REQUEST_TOTAL_TIMEOUT=4"]
    with ArchiveServer(root, now=NOW, crawl_delay=0, faults=faults) as server:
        result = crawl(server.url, data, *JUNE, *limits)
        assert result.returncode == 0, result.log
        month = "/api/mbox.lua?list=issues&domain=demo.apache.org&d=2016-06"
        times = [
            t for (p, _), t in zip(server.requests, server.request_times, strict=True) if p == month
        ]
        # DOWNLOAD_TIMEOUT ends each attempt although bytes keep coming...
        assert 1.3 <= times[1] - times[0] <= 3.5
        # ...and REQUEST_TOTAL_TIMEOUT ends the retries: not the 6 attempts RETRY_TIMES allows.
        assert 2 <= len(times) <= 4 and times[-1] - times[0] <= 4.5
        assert "REQUEST_TOTAL_TIMEOUT (4 s) used up" in result.log
        assert "fetching it in week slices" in result.log
    assert stored(data) == {"demo.apache.org/issues/2016-06": whole}


@pytest.mark.parametrize("clock", [0, 32503680000])  # 1970-01-01 and 3000-01-01
def test_an_implausible_archive_clock_is_ignored(root, tmp_path, clock):
    data = tmp_path / "data"
    with ArchiveServer(root, crawl_delay=0, faults=Faults(clock=clock)) as server:
        result = crawl(server.url, data, *JUNE)
        assert result.returncode == 0, result.log
    assert f"ignoring the archive's clock (unixtime {clock}" in result.log
    assert f"(current month {datetime.now(UTC):%Y-%m})" in result.log
    meta = sidecar(data, "demo.apache.org/issues/2016-06")
    assert meta["complete"] is True
    assert abs(datetime.fromisoformat(meta["fetched_at"]) - datetime.now(UTC)) < timedelta(hours=1)


def test_months_after_the_current_one_are_never_requested(root, tmp_path):
    data = tmp_path / "data"
    with ArchiveServer(root, crawl_delay=0, faults=Faults(future_months=True)) as server:
        result = crawl(server.url, data, "-a", "lists=issues@demo.apache.org")
        assert result.returncode == 0, result.log
        assert "ignoring month 9999-12 of issues@demo.apache.org: after the current month" in (
            result.log
        )
        requested = server.requested("mbox")
        assert len(requested) == 3 and not any("9999" in p for p in requested)
        assert "Traceback" not in result.log
    assert set(stored(data)) == {f"demo.apache.org/issues/2016-0{m}" for m in (5, 6, 7)}
