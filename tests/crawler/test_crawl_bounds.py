"""Issue 27, crawler bounds: real `scrapy crawl asf-lists` against one local archive server
for the module. A robots.txt Crawl-delay of a billion seconds stops the crawl at once
(exit 3) instead of a silent wait; every week slice is capped at MONTH_MAXSIZE and the
joined month at SLICED_MONTH_MAXSIZE, the slices streamed through disk (memory stays
at one slice); lists whose names differ only in case are stored apart."""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import unquote

import pytest

from crawler.archive_server import ArchiveServer
from tests.crawler.test_crawl import (
    NOW,
    REPO,
    add,
    crawl,
    crawl_command,
    eml,
    fetch,
    sidecar,
    stored,
)

pytestmark = pytest.mark.e2e

JUNE = ["-a", "since=2016-06", "-a", "until=2016-06"]
# Test messages whose bodies are this many bytes of text (gzip folds them to almost nothing).
LINE = "run 1: 12 ms\n"


def bulky(address: str, days: list[int], size: int, root: Path) -> None:
    """One message of about `size` bytes on each of these days of June 2016, so each
    lands in one week slice (the slices end on the 7th, 14th and 21st)."""
    for day in days:
        stamp = f"Thu, {day:02d} Jun 2016 12:00:00 +0000"
        body = LINE * (size // len(LINE))
        add(
            root,
            address,
            f"{address.split('@')[0]}-{day}.eml",
            eml(f"{address} {day}", stamp, body),
        )


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    archive = tmp_path_factory.mktemp("archive")
    # With MONTH_MAXSIZE 5000: each month is over it whole, so it is fetched in slices.
    bulky("joined@big.apache.org", [2, 9, 16, 23], 3800, archive)  # 4 slices of ~4 KB
    bulky("fits@big.apache.org", [2, 9, 16], 2500, archive)  # 3 slices of ~2.6 KB
    bulky("week@big.apache.org", [9], 6000, archive)  # one slice of ~6 KB
    # A busy month: four weeks of ~10 MB each (the memory test).
    bulky("busy@mem.apache.org", [2, 9, 16, 23], 10_000_000, archive)
    # Two lists whose names differ only in case, each with its own messages.
    for name in ("issues", "Issues"):
        for day in (3, 4):
            stamp = f"Fri, {day:02d} Jun 2016 10:00:00 +0000"
            add(archive, f"{name}@clash.apache.org", f"{day}.eml", eml(f"{name} {day}", stamp))
    return archive


@pytest.fixture(scope="module")
def server(root):
    with ArchiveServer(root, now=NOW, crawl_delay=0) as running:
        yield running


@pytest.fixture
def archive(server):
    """The module's server with a clean log and its normal behaviour."""
    server.reset_log()
    server.crawl_delay = 0
    server.faults.gzip = False
    yield server
    server.crawl_delay = 0
    server.faults.gzip = False


def whole_month(server, address: str) -> bytes:
    name, domain = address.split("@")
    return fetch(f"{server.url}/api/mbox.lua?list={name}&domain={domain}&d=2016-06")


def test_a_crawl_delay_beyond_the_maximum_stops_the_crawl_at_once(archive, tmp_path):
    # 55e44ca waited a billion seconds between requests, without a word.
    archive.crawl_delay = 1_000_000_000
    start = time.monotonic()
    result = crawl(archive.url, tmp_path / "data", "-a", "lists=fits@big.apache.org", timeout=60)
    assert time.monotonic() - start < 30
    assert result.returncode == 3, result.log
    netloc = archive.url.removeprefix("http://")
    reason = (
        f"robots.txt of {netloc} asks for Crawl-delay: 1e+09 s, more than "
        "ROBOTSTXT_CRAWL_DELAY_MAX (60 s)"
    )
    assert f"{reason}: not crawling {netloc}" in result.log
    assert "-s ROBOTSTXT_CRAWL_DELAY_MAX=1e+09 accepts it" in result.log
    assert f"fetched nothing because the list of lists could not be read ({reason})" in result.out
    assert [path for path, _ in archive.requests] == ["/robots.txt"]  # nothing else asked
    assert "Traceback" not in result.log
    # (A Crawl-delay within the maximum is kept: test_crawl.py::test_robots_txt_is_obeyed.)


@pytest.mark.parametrize("gzip_encoded", [True, False], ids=["gzip", "plain"])
def test_week_slices_and_joined_months_are_capped(archive, tmp_path, gzip_encoded):
    """MONTH_MAXSIZE 5000, SLICED_MONTH_MAXSIZE 10000: a week of 6 KB is refused, a month
    of four 4 KB weeks (16 KB, over three times MONTH_MAXSIZE) is refused once joined, a month
    of three 2.6 KB weeks is stored. Gzip-encoded, the sizes count inflated: a gzip bomb
    gets no further than plain text. (55e44ca stored all three: slices had no cap, and the
    joined month none but the slices' sum.)"""
    archive.faults.gzip = gzip_encoded
    wanted = {a: whole_month(archive, a) for a in ("fits@big.apache.org", "joined@big.apache.org")}
    assert len(wanted["joined@big.apache.org"]) > 3 * 5000
    data = tmp_path / "data"
    caps = ["-s", "MONTH_MAXSIZE=5000", "-s", "SLICED_MONTH_MAXSIZE=10000"]
    result = crawl(archive.url, data, "-a", "lists=*@big.apache.org", *JUNE, *caps)
    assert result.returncode == 1, result.log
    assert stored(data) == {"big.apache.org/fits/2016-06": wanted["fits@big.apache.org"]}
    assert sidecar(data, "big.apache.org/fits/2016-06")["sliced"] is True
    assert (
        "joined@big.apache.org 2016-06 not stored: its week slices hold more than "
        "SLICED_MONTH_MAXSIZE (10000 B) of the month's messages" in result.log
    )
    cap = "a week slice is held in memory and may not exceed MONTH_MAXSIZE (5000 B"
    assert "week@big.apache.org 2016-06: week slice 1 failed (" in result.log
    assert cap in result.log
    assert "months fetched 1" in result.out and "failed 2," in result.out
    slices = [p for p in map(unquote, archive.requested("mbox")) if "d=dfr=" in p]
    assert len(slices) == 4 + 4 + 2  # fits, joined: every slice; week: up to the big one
    assert list((data / ".crawl-tmp").iterdir()) == []  # no slice left on disk
    assert "Traceback" not in result.log


# Runs a command and prints its peak memory. A process started from pytest would not
# do: Linux counts the parent's memory at the fork in the child's peak (ru_maxrss), and
# this one is small.
MEASURE = (
    "import os, subprocess, sys;"
    "p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL);"
    "_, status, usage = os.wait4(p.pid, 0);"
    "print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)"
)


def _peak_rss_kib(command: list[str]) -> tuple[int, int]:
    """(exit status, peak resident memory in KiB) of one crawl process."""
    result = subprocess.run(
        [sys.executable, "-c", MEASURE, *command],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    status, peak = result.stdout.split()
    return int(status), int(peak)


def test_a_sliced_month_is_joined_on_disk_not_in_memory(archive, tmp_path):
    """A 40 MB month in four 10 MB weeks (MONTH_MAXSIZE 12 MB): the crawl's peak memory is
    that of a crawl of a few KB plus about one slice, not the month over again.
    Measured: +13 MB (a 60 MB month in 15 MB weeks: +19 MB); 55e44ca, which held every
    slice, their messages and the joined month at once: +77 MB (+115 MB)."""
    month = len(whole_month(archive, "busy@mem.apache.org"))
    assert month > 40_000_000
    caps = ["-s", "MONTH_MAXSIZE=12000000"]
    status, small = _peak_rss_kib(
        crawl_command(archive.url, tmp_path / "small", "-a", "lists=fits@big.apache.org", *caps)
    )
    assert status == 0
    data = tmp_path / "busy"
    status, busy = _peak_rss_kib(
        crawl_command(archive.url, data, "-a", "lists=busy@mem.apache.org", *JUNE, *caps)
    )
    assert status == 0
    meta = sidecar(data, "mem.apache.org/busy/2016-06")
    assert meta["sliced"] is True and meta["size"] == month and meta["messages"] == 4
    grown_mb = (busy - small) / 1024
    assert grown_mb < 30, f"the busy crawl peaked {grown_mb:.0f} MB above the small one"


def test_lists_differing_only_in_case_are_kept_apart(archive, tmp_path):
    """`issues@clash` and `Issues@clash` both match `issues@*`: each is stored in its
    own folder with its own messages (55e44ca fetched one of them into raw/clash/issues/
    and never the other, without a word), and the run says so."""
    data = tmp_path / "data"
    result = crawl(archive.url, data, "-a", "lists=issues@clash.apache.org", *JUNE)
    assert result.returncode == 0, result.log
    files = stored(data)
    assert set(files) == {"clash.apache.org/issues/2016-06", "clash.apache.org/Issues/2016-06"}
    for name in ("issues", "Issues"):
        body = files[f"clash.apache.org/{name}/2016-06"]
        assert body == whole_month(archive, f"{name}@clash.apache.org")
        assert body.count(f"Subject: {name} ".encode()) == 2
        assert (
            sidecar(data, f"clash.apache.org/{name}/2016-06")["list"] == f"{name}@clash.apache.org"
        )
    assert (
        "Issues@clash.apache.org differs only in case from issues@clash.apache.org: "
        "kept apart, in raw/clash.apache.org/Issues/" in result.log
    )
    assert (
        "summary: lists whose names differ only in case, kept apart: "
        "Issues@clash.apache.org, issues@clash.apache.org" in result.out
    )
    assert "lists matched 2; months fetched 2" in result.out

    # A folder an older crawl filled with the other list's month (as 55e44ca did) is not
    # taken for this list's: the month is fetched again and put right.
    lower, upper = data / "raw/clash.apache.org/issues", data / "raw/clash.apache.org/Issues"
    for suffix in (".mbox.gz", ".mbox.gz.json"):
        shutil.copyfile(upper / f"2016-06{suffix}", lower / f"2016-06{suffix}")
    archive.reset_log()
    again = crawl(archive.url, data, "-a", "lists=issues@clash.apache.org", *JUNE)
    assert again.returncode == 0, again.log
    assert archive.requested("mbox") == [
        "/api/mbox.lua?list=issues&domain=clash.apache.org&d=2016-06"
    ]
    assert "issues@clash.apache.org 2016-06 replaced" in again.log
    assert gzip.decompress((lower / "2016-06.mbox.gz").read_bytes()).count(b"Subject: issues ") == 2
