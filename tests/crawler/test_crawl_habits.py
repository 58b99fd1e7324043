"""Issue 28, the crawl: real `scrapy crawl asf-lists` (and `make crawl`) against one local
archive server for the module. The default scope never starts by accident; a misspelt
setting is refused; progress shows months of the total, bytes and an ETA; `-O FILE`
writes the items; a killed and resumed crawl asks for no month twice and counts what
was on disk honestly (the server's own log is the count)."""

from __future__ import annotations

import contextlib
import csv
import json
import signal
import subprocess
import time
from datetime import UTC, datetime
from email.utils import format_datetime
from pathlib import Path

import pytest

from crawler.archive_server import ArchiveServer
from tests.crawler.test_crawl import (
    NOW,
    REPO,
    add,
    crawl,
    crawl_command,
    eml,
    sidecar,
    stored,
)

pytestmark = pytest.mark.e2e

LISTS = [f"issues@p{n}.apache.org" for n in range(4)]  # in the default scope (issues@*)


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    """Four lists, one message in each month of 2015 (48 months in all)."""
    archive = tmp_path_factory.mktemp("archive")
    for address in LISTS:
        for month in range(1, 13):
            date = datetime(2015, month, 12, 10, tzinfo=UTC)
            add(
                archive,
                address,
                f"{date:%Y-%m}.eml",
                eml(f"{address} {month}", format_datetime(date)),
            )
    return archive


@pytest.fixture(scope="module")
def server(root):
    with ArchiveServer(root, now=NOW, crawl_delay=0) as running:
        yield running


@pytest.fixture
def archive(server):
    server.reset_log()
    server.faults.slow = 0.0
    yield server
    server.faults.slow = 0.0


def key_values(line: str) -> dict[str, int]:
    return {k: int(v) for k, v in (field.split("=") for field in line.split())}


# --- the default scope ----------------------------------------------------------------
def test_a_bare_make_crawl_does_not_start_the_default_scope(archive, tmp_path):
    data = tmp_path / "data"
    # `make crawl` with nothing but where to crawl (the local server) and where to write.
    bare = subprocess.run(
        [
            "make",
            "--no-print-directory",
            "crawl",
            f"DATA_DIR={data}",
            f"ARGS=-s ARCHIVE_URL={archive.url}",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert bare.returncode == 2, bare.stderr  # make's status when the command fails
    assert "Error 2" in bare.stderr  # the crawl's own status: a usage error
    assert "no scope given, so nothing is crawled" in bare.stderr
    for advice in ("-a lists=PATTERNS", "make plan", "-a all=1"):
        assert advice in bare.stderr
    assert archive.requests == []  # not even robots.txt
    assert not data.exists()
    # A month range alone is no scope either; lists= and all=1 together are refused.
    for args, message in [
        (["-a", "since=2015-01"], "no scope given, so nothing is crawled"),
        (["-a", "all=1", "-a", "lists=issues@*"], "lists= and all=1 together"),
    ]:
        result = crawl(archive.url, data, *args)
        assert result.returncode == 2 and message in result.log, result.log
        assert "Traceback" not in result.log
    assert archive.requests == [] and not data.exists()
    # all=1 is the explicit way in: the default scope (issues@* here), for one month.
    explicit = crawl(archive.url, data, "-a", "all=1", "-a", "since=2015-03", "-a", "until=2015-03")
    assert explicit.returncode == 0, explicit.log
    assert set(stored(data)) == {f"p{n}.apache.org/issues/2015-03" for n in range(4)}


# --- settings ---------------------------------------------------------------------------
def test_a_misspelt_setting_is_refused(archive, tmp_path):
    # 55e44ca ignored it: the crawl went to lists.apache.org (here: ARCHIVE_URL's server).
    result = crawl(archive.url, tmp_path / "data", "-a", f"lists={LISTS[0]}", "-s", "ARCHIVE_ULR=x")
    assert result.returncode == 2, result.log
    assert "ERROR: bad setting: unknown setting -s ARCHIVE_ULR=x (did you mean ARCHIVE_URL?)" in (
        result.log
    )
    assert "Traceback" not in result.log
    assert archive.requests == []
    assert not (tmp_path / "data").exists()


# --- progress and feeds -----------------------------------------------------------------
def test_progress_and_feed_exports(archive, tmp_path):
    data = tmp_path / "data"
    feeds = ["-O", str(tmp_path / "months.jsonl"), "-O", str(tmp_path / "months.csv")]
    args = ["-a", "lists=issues@p0.apache.org,issues@p1.apache.org", "-s", "PROGRESS_INTERVAL=0"]
    result = crawl(archive.url, data, *args, *feeds, "-s", "SENTRY_DSN=x")
    # 55e44ca: a traceback per month (bytes in the item) and exit 1.
    assert result.returncode == 0, result.log
    assert "Traceback" not in result.log
    # A setting nothing here reads, and that looks like none of ours: named, not refused.
    assert "setting -s SENTRY_DSN=x is neither Scrapy's nor this project's" in result.log
    progress = [
        line.split("INFO: ", 1)[1] for line in result.log.splitlines() if "progress: " in line
    ]
    # Every list's months are read first, so the total is known from the first line on.
    assert [line.split(" (")[0] for line in progress] == [
        f"progress: {n} of 24 months" for n in range(1, 25)
    ]
    assert all("left (ETA 20" in line and " UTC)" in line for line in progress[:-1])
    assert progress[-1].startswith("progress: 24 of 24 months (100 %), ")
    written = key_values(result.out.splitlines()[-1])["bytes"]
    assert f"{written / 1000:.1f} kB" in progress[-1]

    records = [json.loads(line) for line in (tmp_path / "months.jsonl").read_text().splitlines()]
    assert len(records) == 24
    for record in records:
        key = record["path"].removeprefix("raw/").removesuffix(".mbox.gz")
        meta = sidecar(data, key)
        assert {k: record[k] for k in ("sha256", "size", "messages", "urls", "complete")} == {
            k: meta[k] for k in ("sha256", "size", "messages", "urls", "complete")
        }
        assert record["address"] == meta["list"] and record["outcome"] == "stored"
        assert set(record) == {
            "address", "domain", "list_name", "month", "path", "urls", "fetched_at",
            "complete", "sliced", "sha256", "size", "messages", "outcome",
        }  # fmt: skip
    with open(tmp_path / "months.csv", newline="") as table:
        rows = list(csv.DictReader(table))
    assert sorted(r["path"] for r in rows) == sorted(r["path"] for r in records)


# --- kill and resume --------------------------------------------------------------------
def _complete_months(data: Path) -> int:
    # (the sidecar is written before its archive and says `complete` only after it: a
    # month in flight has one too, and one being written may not read as JSON yet)
    done = 0
    for path in (data / "raw").rglob("*.mbox.gz.json"):
        with contextlib.suppress(OSError, ValueError):
            done += bool(json.loads(path.read_text()).get("complete"))
    return done


def _wait_for_months(data: Path, process: subprocess.Popen, count: int) -> None:
    deadline = time.monotonic() + 120
    while _complete_months(data) < count:
        assert process.poll() is None, "crawl ended early"
        assert time.monotonic() < deadline, "too slow"
        time.sleep(0.02)


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "kill-9"])
def test_a_killed_and_resumed_crawl_requests_no_month_twice(archive, tmp_path, stop):
    """Four lists of 12 months with a JOBDIR, stopped after 10 months, then resumed: the
    resumed run asks for exactly the months not on disk, each once, and says how many
    were. (55e44ca, with JOBDIR, asked again for stats and for months in flight, e.g. 177
    month requests for 174 missing months and 10 stats requests for 8 lists, and said
    "skipped (complete on disk) 48" with 15 months on disk.)"""
    data, job = tmp_path / "data", tmp_path / "job"
    args = ["-a", "lists=issues@p*.apache.org", "-s", f"JOBDIR={job}"]
    archive.faults.slow = 0.1  # months slowly, so the stop lands mid-crawl
    with subprocess.Popen(
        crawl_command(archive.url, data, *args),
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    ) as process:
        _wait_for_months(data, process, 10)
        process.send_signal(stop)
        process.wait(timeout=60)
    first_run = archive.requested("mbox")
    assert len(first_run) == len(set(first_run))
    archives = [p.relative_to(data / "raw") for p in (data / "raw").rglob("*.mbox.gz")]
    sidecars = [sidecar(data, str(p).removesuffix(".mbox.gz")) for p in archives]
    on_disk = {f"{meta['list']} {meta['month']}" for meta in sidecars if meta["complete"]}
    assert 10 <= len(on_disk) < 48
    archive.faults.slow = 0.0
    time.sleep(0.5)  # an answer the stopped crawl no longer waits for is logged by now
    archive.reset_log()
    result = crawl(archive.url, data, *args)
    assert result.returncode == 0, result.log
    second_run = archive.requested("mbox")
    asked = [
        f"{p.split('list=')[1].split('&')[0]}@{p.split('domain=')[1].split('&')[0]} "
        f"{p.split('d=')[1]}"
        for p in second_run
    ]
    everything = {f"{address} 2015-{m:02d}" for address in LISTS for m in range(1, 13)}
    assert len(asked) == len(set(asked))  # no month twice
    assert set(asked) == everything - on_disk  # exactly what was missing
    assert len(archive.requested("stats")) == 4  # each list's months read once
    totals = key_values(result.out.splitlines()[-1])
    assert totals["skipped"] == len(on_disk)  # counted honestly
    assert totals["fetched"] == 48 - len(on_disk)
    assert f"skipped (complete on disk) {len(on_disk)}" in result.out
    assert len(stored(data)) == 48
