"""Issue 13: a crawler that fails loudly and plans first. Real `scrapy crawl asf-lists`
runs against the local archive server: exit statuses, unknown arguments, fast failure on
connection refused, and the dry run `-a plan=1` (what it prints, that it fetches and
writes nothing)."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from crawler.archive_server import ArchiveServer, Faults
from crawler.plan import month_ranges, parse_flag
from tests.crawler.test_crawl import (
    NOW,
    REPO,
    _many_months,
    _wait_for_first_file,
    add,
    crawl,
    crawl_command,
    eml,
    sidecar,
    stored,
)

pytestmark = pytest.mark.e2e

DEMO = "issues@demo.apache.org"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """issues@demo: one message a month over 2015; users@demo: two messages in 2016-03."""
    archive = tmp_path / "archive"
    _many_months(archive)
    for day in (3, 4):
        add(
            archive,
            "users@demo.apache.org",
            f"u{day}.eml",
            eml(f"u{day}", f"Thu, 0{day} Mar 2016 10:00:00 +0000", "x" * 500 * day),
        )
    return archive


def key_values(line: str) -> dict[str, int]:
    return {k: int(v) for k, v in (field.split("=") for field in line.split())}


@pytest.mark.parametrize(
    "arg, hint",
    [("list=issues@demo.apache.org", " (did you mean lists?)"), ("scope=all", "")],
)
def test_unknown_arguments_are_rejected_with_the_known_ones(root, tmp_path, arg, hint):
    with ArchiveServer(root, now=NOW, crawl_delay=0) as server:
        result = crawl(server.url, tmp_path / "data", "-a", arg)
        assert result.returncode == 2, result.log
        assert (
            f"bad argument: unknown argument -a {arg}{hint}; "
            "known arguments: lists, all, since, until, plan" in result.log
        )
        assert "Traceback" not in result.log
        assert server.requests == []  # not even robots.txt: the default scope is never crawled
    assert not (tmp_path / "data").exists()


def test_months_that_fail_after_the_retries_exit_1(root, tmp_path):
    # Every answer for a month (whole or sliced) is 503: retried, sliced, then failed.
    faults = Faults(fail_503=100)
    args = ["-a", f"lists={DEMO}", "-a", "since=2015-03", "-a", "until=2015-04"]
    with ArchiveServer(root, now=NOW, crawl_delay=0, faults=faults) as server:
        result = crawl(server.url, tmp_path / "data", *args, "-s", "RETRY_TIMES=1")
        assert result.returncode == 1, result.log
        assert server.requested("mbox")  # they were asked for
    assert "failed 2," in result.out
    assert key_values(result.out.splitlines()[-1])["exit"] == 1
    assert "exit status 1: 2 month(s) or list(s) failed; a rerun fetches them" in result.log
    # The rerun against a healthy archive fetches them and exits 0.
    with ArchiveServer(root, now=NOW, crawl_delay=0) as server:
        rerun = crawl(server.url, tmp_path / "data", *args)
        assert rerun.returncode == 0, rerun.log
    assert set(stored(tmp_path / "data")) == {
        "demo.apache.org/issues/2015-03",
        "demo.apache.org/issues/2015-04",
    }


def test_connection_refused_is_not_retried(tmp_path):
    with ArchiveServer(tmp_path) as server:
        url = server.url  # nothing listens there any more
    # The polite defaults (RETRY_TIMES 5, ROBOTSTXT_RETRY_TIMES 3 with 60 s back-off)
    # would wait minutes; a refused connection is tried once.
    result = crawl(url, tmp_path / "data", "-a", "all=1")
    assert result.returncode == 3, result.log
    assert "robots.txt of" in result.log and "(DownloadConnectionRefusedError) after 1 tries" in (
        result.log
    )
    assert "asking again" not in result.log
    # Configurable: one quick retry (1 s), or the ordinary back-off with no fail-fast list.
    once = crawl(url, tmp_path / "data", "-a", "all=1", "-s", "RETRY_FAIL_FAST_TIMES=1")
    assert once.returncode == 3 and "asking again in 1.0 s" in once.log
    assert "after 2 tries" in once.log
    ordinary = crawl(
        url,
        tmp_path / "data",
        "-a",
        "all=1",
        "-s",
        "RETRY_FAIL_FAST_EXCEPTIONS=",
        "-s",
        "ROBOTSTXT_RETRY_DELAY=0.1",
        "-s",
        "ROBOTSTXT_RETRY_TIMES=2",
    )
    assert ordinary.returncode == 3 and "after 3 tries" in ordinary.log


def test_an_archive_that_goes_away_mid_crawl_stops_the_crawl(root, tmp_path):
    data = tmp_path / "data"
    server = ArchiveServer(root, now=NOW, crawl_delay=0, faults=Faults(slow=0.3)).start()
    running = True
    try:
        with subprocess.Popen(
            crawl_command(server.url, data, "-a", f"lists={DEMO}"),
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        ) as process:
            _wait_for_first_file(data, process)
            server.stop()  # connections are refused from now on
            running = False
            out, log = process.communicate(timeout=120)
    finally:
        if running:
            server.stop()
    assert process.returncode == 3, log
    assert "Closing spider (archive_unreachable)" in log
    assert "exit status 3: the archive became unreachable (3 requests in a row:" in log
    assert "DownloadConnectionRefusedError" in log
    assert "'retry/fail_fast'" in log  # refused connections are never retried
    assert "reason_count/scrapy.exceptions.DownloadConnectionRefusedError" not in log
    summary = key_values(out.splitlines()[-1])
    assert summary["exit"] == 3 and summary["failed"] >= 3
    # It stopped instead of failing every other month: what was queued is dropped.
    assert summary["fetched"] + summary["failed"] <= 12
    assert len(stored(data)) == summary["fetched"] >= 1


def test_plan_reads_preferences_and_stats_only(root, tmp_path):
    data = tmp_path / "data"
    with ArchiveServer(root, now=NOW, crawl_delay=0) as server:
        # A first real crawl of one month, so the plan skips it and measures its size.
        first = crawl(server.url, data, "-a", f"lists={DEMO}", "-a", "until=2015-01")
        assert first.returncode == 0, first.log
        per_message = sidecar(data, "demo.apache.org/issues/2015-01")["size"]  # one message
        before = sorted(p.relative_to(data) for p in data.rglob("*"))
        server.reset_log()
        polite = ["-s", "DOWNLOAD_DELAY=2", "-s", "PLAN_BYTES_PER_MESSAGE=1000"]
        plan = crawl(server.url, data, "-a", "lists=*@demo.apache.org", "-a", "plan=1", *polite)
        assert plan.returncode == 0, plan.log
        asked = [path.split("?")[0] for path, _ in server.requests]
        assert sorted(set(asked)) == ["/api/preferences.lua", "/api/stats.lua", "/robots.txt"]
        assert server.requested("mbox") == []
    assert sorted(p.relative_to(data) for p in data.rglob("*")) == before  # nothing written
    lines = plan.out.splitlines()
    rows = {line.split()[0]: line for line in lines if "@demo.apache.org " in line}
    # issues@: 2015-02..12 left (one message each), bytes from its own stored month.
    issues = rows[DEMO].split()
    assert issues[1:4] == ["11", "11", f"{11 * per_message / 1000:.1f}"]
    assert rows[DEMO].endswith("  2015-02..2015-12")
    # users@: nothing stored for it, so the average of all stored months (one here).
    users = rows["users@demo.apache.org"].split()
    assert users[1:3] == ["1", "2"] and rows["users@demo.apache.org"].endswith("  2016-03")
    assert "bytes per message from all stored months, its stored months" in plan.out
    assert "2 of 2 lists match lists=*@demo.apache.org" in plan.out
    assert "not counted: 1 month(s) already stored complete, 0 out of range" in plan.out
    totals = key_values(lines[-1])
    # robots.txt, preferences, two stats, twelve months; each at least DOWNLOAD_DELAY apart.
    assert totals == {
        "lists": 2,
        "months": 12,
        "messages": 13,
        "bytes": 13 * per_message,
        "seconds": 2 * 16,  # the local answers take far less than the 2 s delay
        "requests": 16,
        "skipped": 1,
        "exit": 0,
    }
    assert "DOWNLOAD_DELAY 2 s" in plan.out and "summary:" not in plan.out


def test_plan_estimate_follows_the_transfer_rate_and_default_size(root, tmp_path):
    # Nothing stored: PLAN_BYTES_PER_MESSAGE; a slow assumed rate makes transfer dominate.
    args = ["-a", f"lists={DEMO}", "-a", "plan=yes", "-s", "PLAN_BYTES_PER_MESSAGE=50000"]
    args += ["-s", "PLAN_BYTES_PER_SECOND=10000"]
    with ArchiveServer(root, now=NOW, crawl_delay=0) as server:
        result = crawl(server.url, tmp_path / "data", *args)
        assert result.returncode == 0, result.log
    totals = key_values(result.out.splitlines()[-1])
    assert totals["months"] == 12 and totals["bytes"] == 12 * 50000
    # 12 months of 5 s transfer each, plus three small requests with no delay at all.
    assert 60 <= totals["seconds"] <= 62
    assert "bytes per message from PLAN_BYTES_PER_MESSAGE" in result.out
    assert not (tmp_path / "data").exists()


def test_plan_failures_and_arguments(root, tmp_path):
    with ArchiveServer(tmp_path / "empty") as server:
        url = server.url
    unreachable = crawl(url, tmp_path / "data", "-a", "plan=1")
    assert unreachable.returncode == 3, unreachable.log
    with ArchiveServer(root, now=NOW, crawl_delay=0) as server:
        nothing = crawl(server.url, tmp_path / "data", "-a", "plan=1", "-a", "lists=dev@*")
        assert nothing.returncode == 2 and "0 of 2 lists match lists=dev@*" in nothing.out
        job = crawl(server.url, tmp_path / "data", "-a", "plan=1", "-s", f"JOBDIR={tmp_path}/j")
        assert job.returncode == 2
        assert "plan=1 fetches no archive: run it without JOBDIR" in job.log
        bad = crawl(server.url, tmp_path / "data", "-a", "plan=maybe")
        assert bad.returncode == 2 and "plan='maybe' is not yes or no: use plan=1" in bad.log
        assert server.requested("mbox") == [] and server.requested("stats") == []
    assert not (tmp_path / "j").exists()


def test_since_after_the_current_month_is_rejected_up_front(root, tmp_path):
    next_year = time.gmtime().tm_year + 1
    with ArchiveServer(root, now=NOW, crawl_delay=0) as server:
        result = crawl(server.url, tmp_path / "data", "-a", f"since={next_year}-01")
        assert result.returncode == 2
        assert f"since={next_year}-01 is after the current month" in result.log
        assert server.requests == []


def test_make_plan_runs_the_dry_run():
    dry = subprocess.run(
        ["make", "-n", "plan", "DATA_DIR=/tmp/x", "ARGS=-a lists=issues@kudu.apache.org"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    assert (
        ".venv/bin/scrapy crawl asf-lists -a plan=1 -s DATA_DIR=/tmp/x "
        "-a lists=issues@kudu.apache.org" in dry.stdout
    )


def test_flags_and_month_ranges():
    assert parse_flag("1", "plan") and parse_flag("Yes", "plan") and not parse_flag(None, "plan")
    assert not parse_flag("0", "plan") and not parse_flag("off", "plan")
    assert month_ranges(["2015-12", "2016-01", "2016-02", "2016-05", "2014-07"]) == (
        "2014-07, 2015-12..2016-02, 2016-05"
    )
    assert month_ranges([]) == "" and month_ranges(["2020-01"]) == "2020-01"
