"""The local archive server answers like lists.apache.org, over real HTTP on 127.0.0.1;
and the archive rules it shares with the spider (crawler/archive.py)."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

import pytest

from crawler.archive import (
    ArgumentError,
    archive_path,
    case_clashes,
    join_slices,
    list_folders,
    match_lists,
    mboxrd_escape,
    mboxrd_unescape,
    month_bounds,
    parse_month,
    split_mbox,
    valid_domain,
    valid_list_name,
    week_slices,
)
from crawler.archive_server import ArchiveServer, Faults
from tests.conftest import shared_path
from tests.mail.mboxes import EDGE_ARCHIVES

REPO = Path(__file__).resolve().parents[2]
# Month exports built in tests/mail/mboxes.py, in lists.apache.org's own form.
USERS = {m: EDGE_ARCHIVES[f"users-{m}"] for m in ("2019-09", "2022-01")}


def eml(subject: str, date: str, body: str = "Hello.\n", msgid: str | None = None) -> bytes:
    msgid = msgid or f"<{abs(hash((subject, date)))}@test.invalid>"
    return (
        f"From: Jane Doe <jane@example.org>\nTo: dev@demo.apache.org\nSubject: {subject}\n"
        f"Date: {date}\nMessage-ID: {msgid}\n\n{body}"
    ).encode()


@pytest.fixture
def root(tmp_path: Path) -> Path:
    users = tmp_path / "ponymail.apache.org" / "users"
    users.mkdir(parents=True)
    for month, data in USERS.items():
        (users / f"users_ponymail_apache_org_{month}.mbox").write_bytes(data)
    dev = tmp_path / "demo.apache.org" / "dev"
    dev.mkdir(parents=True)
    (dev / "a.eml").write_bytes(eml("first", "Mon, 06 Jun 2016 10:00:00 +0000"))
    (dev / "b.eml").write_bytes(
        eml("from line", "Tue, 07 Jun 2016 00:00:00 +0000", "From the start\n>From quoted\n")
    )
    (dev / "c.eml").write_bytes(eml("late", "Thu, 30 Jun 2016 23:59:59 +0000"))
    (dev / "d.eml").write_bytes(eml("recent", "Sun, 20 Nov 2016 08:00:00 +0000"))
    return tmp_path


def get(url: str) -> tuple[int, dict, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


NOW = datetime(2016, 11, 25, tzinfo=UTC)


@pytest.mark.e2e
def test_preferences_and_robots(root):
    with ArchiveServer(root, now=NOW) as server:
        status, headers, body = get(server.url + "/api/preferences.lua")
        assert status == 200 and headers["Content-Type"] == "application/json"
        prefs = json.loads(body)
        assert list(prefs) == ["login", "versions", "lists"]
        assert prefs["lists"]["demo.apache.org"] == {"dev": 1}  # one mail in the last 90 days
        assert set(prefs["lists"]["ponymail.apache.org"]) == {"users"}
        assert body.startswith(b'{\n  "login"')  # indent=2, like Foal
        status, _, robots = get(server.url + "/robots.txt")
        assert status == 200
        assert b"User-agent: *" in robots and b"Crawl-delay:" in robots
        assert b"Disallow: /api/private" in robots


@pytest.mark.e2e
def test_stats_quick_and_full_shapes(root):
    with ArchiveServer(root, now=NOW) as server:
        q = "list=dev&domain=demo.apache.org"
        quick = json.loads(get(f"{server.url}/api/stats.lua?{q}&d=2016-06&quick")[2])
        assert quick["active_months"] == {"2016-06": 3, "2016-11": 1}
        assert (quick["firstYear"], quick["firstMonth"]) == (2016, 6)
        assert (quick["lastYear"], quick["lastMonth"]) == (2016, 11)
        assert quick["hits"] == 3 and all(set(e) == {"epoch"} for e in quick["emails"])
        assert quick["participants"] == {} and quick["numparts"] == 0
        assert "thread_struct" not in quick and quick["unixtime"] == int(NOW.timestamp())
        full = json.loads(get(f"{server.url}/api/stats?{q}&d=2016-06")[2])
        assert [e["subject"] for e in full["emails"]] == ["first", "from line", "late"]
        assert full["emails"][0]["from"] == '"Jane Doe" <ja...@example.org>'  # masked
        assert len(full["emails"][0]["mid"]) == 32 and "thread_struct" in full
        assert json.loads(get(f"{server.url}/api/stats.json?list=dev")[2]) == {}
        since = int(datetime(2016, 12, 1, tzinfo=UTC).timestamp())
        unchanged = get(f"{server.url}/api/stats.lua?{q}&d=2016-11&since={since}")[2]
        assert json.loads(unchanged) == {"changed": False}


@pytest.mark.e2e
def test_mbox_round_trips_a_month_export_byte_for_byte(root):
    with ArchiveServer(root, now=NOW) as server:
        for month in ("2019-09", "2022-01"):
            url = f"{server.url}/api/mbox.lua?list=users&domain=ponymail.apache.org&d={month}"
            status, headers, body = get(url)
            assert status == 200 and headers["Content-Type"] == "application/mbox"
            assert headers["Transfer-Encoding"] == "chunked"
            assert f"users_ponymail_apache_org_{month}.mbox" in headers["Content-Disposition"]
            assert body == USERS[month]
        # list=a@b without domain, unpadded month
        body = get(f"{server.url}/api/mbox?list=users@ponymail.apache.org&d=2019-9")[2]
        assert body == USERS["2019-09"]


@pytest.mark.shared
@pytest.mark.e2e
def test_mbox_round_trips_a_real_month_export_byte_for_byte(tmp_path):
    """lists.apache.org's own exports (../shared/mbox/ponymail-foal) come back as they are."""
    foal = shared_path("mbox", "ponymail-foal")
    users = tmp_path / "ponymail.apache.org" / "users"
    users.mkdir(parents=True)
    for month in ("2019-09", "2022-01"):
        name = f"users_ponymail_apache_org_{month}.mbox"
        shutil.copy(foal / name, users / name)
    with ArchiveServer(tmp_path, now=NOW) as server:
        for month in ("2019-09", "2022-01"):
            url = f"{server.url}/api/mbox.lua?list=users&domain=ponymail.apache.org&d={month}"
            body = get(url)[2]
            assert body == (foal / f"users_ponymail_apache_org_{month}.mbox").read_bytes()


@pytest.mark.e2e
def test_mbox_envelope_escaping_order_and_empty_month(root):
    with ArchiveServer(root, now=NOW) as server:
        base = f"{server.url}/api/mbox.lua?list=dev&domain=demo.apache.org"
        body = get(base + "&d=2016-06")[2]
        messages = split_mbox(body)
        assert len(messages) == 3
        assert messages[0].startswith(
            b"From dev-return-1-archive-asf-public=cust-asf.ponee.io@demo.apache.org"
            b"  Mon Jun  6 10:00:00 2016\n"
        )
        assert b"\n>From the start\n>>From quoted\n" in messages[1]
        assert [m.split(b"Subject: ")[1].split(b"\n")[0] for m in messages] == [
            b"first",
            b"from line",
            b"late",
        ]
        assert all(m.endswith(b"\n\n") for m in messages)
        status, _, empty = get(base + "&d=2016-07")
        assert (status, empty) == (200, b"")
        # No or a malformed d: the last 30 days before "now" (2016-11-25).
        assert b"Subject: recent" in get(base)[2]
        assert b"Subject: recent" in get(base + "&d=garbage")[2]
        assert b"Subject: first" not in get(base + "&d=garbage")[2]


@pytest.mark.e2e
def test_day_ranges_are_strict_at_both_ends(root):
    with ArchiveServer(root, now=NOW) as server:
        base = f"{server.url}/api/mbox.lua?list=dev&domain=demo.apache.org&d="
        # 2016-06-07 00:00:00 is not after dfr=06-07 00:00:00, so it is left out.
        assert b"from line" not in get(base + "dfr=2016-06-07|dto=2016-06-14")[2]
        assert b"from line" in get(base + "dfr=2016-06-06|dto=2016-06-07")[2]
        # 2016-06-30 23:59:59 is not before dto=06-30 23:59:59.
        assert b"late" not in get(base + "dfr=2016-06-21|dto=2016-06-30")[2]
        assert b"late" in get(base + "dfr=2016-06-21|dto=2016-07-01")[2]


@pytest.mark.e2e
def test_unknown_endpoint_is_404(root):
    with ArchiveServer(root, now=NOW) as server:
        for path in ("/api/nothing.lua", "/api", "/elsewhere"):
            status, _, body = get(server.url + path)
            assert (status, body) == (404, b"API Endpoint not found!")


@pytest.mark.e2e
def test_fault_switches(root):
    faults = Faults(fail_503=2, fail_429=1, retry_after=3, truncate=1)
    with ArchiveServer(root, now=NOW, faults=faults) as server:
        url = f"{server.url}/api/mbox.lua?list=dev&domain=demo.apache.org&d=2016-06"
        assert get(url)[0] == 503
        assert get(url)[0] == 503
        status, headers, _ = get(url)
        assert status == 429 and headers["Retry-After"] == "3"
        with pytest.raises(http.client.IncompleteRead):
            get(url)
        status, _, body = get(url)
        assert status == 200 and body.count(b"\nSubject: ") == 3
        other = url.replace("2016-06", "2016-11")
        assert get(other)[0] == 503  # counted per URL
    with ArchiveServer(root, now=NOW, faults=Faults(refuse_months_over=100)) as server:
        base = f"{server.url}/api/mbox.lua?list=dev&domain=demo.apache.org&d="
        assert get(base + "2016-06")[0] == 503
        assert get(base + "dfr=2016-06-01|dto=2016-06-07")[0] == 200


@pytest.mark.e2e
def test_hostile_names_are_offered_when_asked(root):
    with ArchiveServer(root, now=NOW, faults={"hostile_lists": True}) as server:
        lists = json.loads(get(server.url + "/api/preferences")[2])["lists"]
        names = {name for names in lists.values() for name in names}
        assert {"../evil", "a/b", "/etc/passwd"} <= names
        assert "../../tmp" in lists


@pytest.mark.e2e
def test_cli_prints_its_url_and_stops_on_sigterm(root, tmp_path):
    log = tmp_path / "requests.log"
    command = [sys.executable, "-m", "crawler.archive_server", "--root", str(root)]
    command += ["--now", "2016-11-25", "--log", str(log), "--fail-503", "1"]
    with subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, text=True) as process:
        try:
            first = process.stdout.readline().strip()
            assert first.startswith("serving http://127.0.0.1:")
            assert first.endswith(f" from {root}")
            url = first.split()[1]
            assert get(url + "/api/mbox?list=dev@demo.apache.org&d=2016-06")[0] == 503
            assert get(url + "/api/mbox?list=dev@demo.apache.org&d=2016-06")[0] == 200
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=10) == 0
        finally:
            process.kill()
    assert log.read_text().splitlines() == [
        "503 /api/mbox?list=dev@demo.apache.org&d=2016-06",
        "200 /api/mbox?list=dev@demo.apache.org&d=2016-06",
    ]


@pytest.mark.e2e
def test_cli_rejects_a_missing_root(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "crawler.archive_server", "--root", str(tmp_path / "none")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 2 and "is not a directory" in result.stderr


# --- the archive rules -----------------------------------------------------------------


def test_parse_month_gives_clear_errors():
    assert parse_month("2017-03") == (2017, 3)
    for bad in ("2017-13", "2017-3", "17-03", "march", "2017-00"):
        with pytest.raises(ArgumentError, match="use YYYY-MM"):
            parse_month(bad, "since")


def test_week_slices_overlap_and_cover_the_month():
    slices = week_slices("2016-02")
    assert slices[0] == ("2016-01-31", "2016-02-07")
    assert slices[-1] == ("2016-02-21", "2016-03-01")
    assert all(a[1] == b[0] for a, b in zip(slices, slices[1:], strict=False))
    assert month_bounds("2016-12")[1] == datetime(2017, 1, 1, tzinfo=UTC)


def test_join_slices_drops_seam_duplicates_and_neighbour_months():
    def msg(n, date):
        return f"From x-return-{n}@d  Mon Jan  1 00:00:00 2016\nDate: {date}\n\nbody {n}\n\n"

    inside = msg(1, "Tue, 07 Jun 2016 12:00:00 +0000").encode()
    before = msg(2, "Tue, 31 May 2016 12:00:00 +0000").encode()
    after = msg(3, "Fri, 01 Jul 2016 00:00:00 +0000").encode()
    undated = b"From x-return-4@d  Mon Jan  1 00:00:00 2016\n\nno date\n\n"
    joined = join_slices([before + inside, inside + undated, after], "2016-06")
    assert joined == inside + undated


def test_name_validation_and_paths():
    for bad in ("../evil", "a/b", "/etc/passwd", "..", "", "a.b", "ok\x00name", None):
        assert not valid_list_name(bad)
    for bad in ("../../tmp", "/abs.example.org", "example", "a..b.org", "a/b.org"):
        assert not valid_domain(bad)
    assert valid_list_name("common-issues") and valid_domain("hadoop.apache.org")
    assert str(archive_path("Kudu.apache.org", "issues", "2017-03")) == (
        "raw/kudu.apache.org/issues/2017-03.mbox.gz"
    )
    with pytest.raises(ValueError):
        archive_path("kudu.apache.org", "../evil", "2017-03")


def test_lists_differing_only_in_case_get_folders_of_their_own():
    lists = [("issues", "x.org"), ("Issues", "x.org"), ("dev", "x.org"), ("Dev", "X.org")]
    assert match_lists([f"{n}@{d}" for n, d in lists], ["issues@*"])[0] == [
        "Issues@x.org",
        "issues@x.org",
    ]  # both, whatever their case
    assert case_clashes(lists[:3]) == {
        ("issues", "x.org"): ["Issues@x.org"],
        ("Issues", "x.org"): ["issues@x.org"],
    }
    folders, refused = list_folders(lists[:3])
    assert {k: str(v) for k, v in folders.items()} == {
        ("issues", "x.org"): "raw/x.org/issues",
        ("Issues", "x.org"): "raw/x.org/Issues",
        ("dev", "x.org"): "raw/x.org/dev",
    }
    assert refused == []
    # A filesystem that ignores case: the lower-case name keeps the folder.
    folders, refused = list_folders(lists[:3], case_sensitive=False)
    assert set(folders) == {("issues", "x.org"), ("dev", "x.org")}
    assert refused == [(("Issues", "x.org"), "issues@x.org", "raw/x.org/Issues")]
    # Domains that differ only in case share a folder on any filesystem.
    folders, refused = list_folders([("dev", "x.org"), ("dev", "X.org")])
    assert list(folders) == [("dev", "x.org")] and refused == [
        (("dev", "X.org"), "dev@x.org", "raw/x.org/dev")
    ]


def test_match_lists_reports_unmatched_patterns():
    matched, unmatched = match_lists(
        ["issues@kudu.apache.org", "dev@kudu.apache.org", "common-issues@hadoop.apache.org"],
        ["issues@*", "*-issues@*", "nothing@*"],
    )
    assert matched == ["common-issues@hadoop.apache.org", "issues@kudu.apache.org"]
    assert unmatched == ["nothing@*"]


def test_mboxrd_escape_round_trip():
    source = b"From env  Mon Jan  1 00:00:00 2016\nSubject: x\n\nFrom a\n>From b\nFrom: c\n"
    escaped = mboxrd_escape(source)
    assert (
        escaped == b"From env  Mon Jan  1 00:00:00 2016\nSubject: x\n\n>From a\n>>From b\nFrom: c\n"
    )
    assert mboxrd_unescape(escaped) == source
    assert split_mbox(escaped + escaped) == [escaped, escaped]


@pytest.mark.e2e
def test_server_clock_defaults_to_now(root):
    with ArchiveServer(root) as server:
        stats = json.loads(
            get(f"{server.url}/api/stats.lua?list=dev&domain=demo.apache.org&quick")[2]
        )
        assert abs(stats["unixtime"] - time.time()) < 60


@pytest.mark.e2e
def test_a_message_without_date_takes_its_file_time(root):
    path = root / "demo.apache.org" / "dev" / "undated.eml"
    path.write_bytes(b"From: x@example.org\nSubject: undated\n\nNo Date header.\n")
    moment = datetime(2016, 8, 9, 10, 0, tzinfo=UTC).timestamp()
    os.utime(path, (moment, moment))
    with ArchiveServer(root, now=NOW) as server:
        q = "list=dev&domain=demo.apache.org"
        stats = json.loads(get(f"{server.url}/api/stats.lua?{q}&d=2016-08&emailsOnly")[2])
        assert stats["active_months"]["2016-08"] == 1
        assert [e["subject"] for e in stats["emails"]] == ["undated"]
        assert stats["participants"] == {} and "thread_struct" not in stats
        body = get(f"{server.url}/api/mbox.lua?{q}&d=2016-08")[2]
        assert body.startswith(b"From dev-return-4-archive-asf-public=cust-asf.ponee.io@")
        assert body.split(b"\n", 1)[0].endswith(b"  Tue Aug  9 10:00:00 2016")
