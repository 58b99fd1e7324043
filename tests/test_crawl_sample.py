"""The demo archive data/sample: reproducible from the fixtures, bodies unchanged, headers
that a mail parser reads, one hostile test message, and served whole by the archive server."""

from __future__ import annotations

import json
import urllib.request
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from crawler.archive_server import ArchiveServer
from tests import make_sample

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "data" / "sample"
FIXTURES = REPO / "tests" / "fixtures"


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("sample")
    make_sample.build(out)
    return out


def emls(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.eml"))}


def test_committed_sample_is_what_the_script_builds(rebuilt):
    assert emls(rebuilt) == emls(SAMPLE)


def test_every_fixture_becomes_one_message_with_its_body_unchanged(rebuilt):
    messages = emls(rebuilt)
    corpus = sorted((FIXTURES / "corpus" / "dev").glob("*.txt"))
    seeds = sorted((FIXTURES / "seeds").glob("*.txt"))
    assert len(messages) == len(corpus) + len(seeds) + 1  # + the hostile test message
    by_stem = {Path(k).stem: v for k, v in messages.items()}
    for path in seeds:
        assert by_stem[f"seed-{path.stem}"].split(b"\n\n", 1)[1] == path.read_bytes()
    for path in corpus:
        fields, body = make_sample.split_fixture(path.read_bytes())
        message_body = by_stem[path.stem].split(b"\n\n", 1)[1]
        if fields.get("Corpus") == "issues":
            assert body in message_body  # wrapped in the GitBox first lines and footer
        else:
            assert message_body == body


def test_headers_parse_and_match_the_metadata(rebuilt):
    messages = emls(rebuilt)
    ids = set()
    for key, data in messages.items():
        message = message_from_bytes(data, policy=policy.default)
        domain, list_name, _ = key.split("/")
        assert message["List-Id"] == f"<{list_name}.{domain}>"
        assert message["To"] == f"{list_name}@{domain}"
        assert message["Date"].datetime.tzinfo is not None
        assert message["Subject"] and message["From"]
        ids.add(message["Message-ID"])
    assert len(ids) == len(messages)
    seed = message_from_bytes(
        messages["kudu.apache.org/issues/seed-001_422f99c0a270b0d8.eml"], policy=policy.default
    )
    assert seed["From"] == '"Todd Lipcon (JIRA)" <jira@apache.org>'
    assert (
        seed["Subject"]
        == "[jira] [Commented] (KUDU-1930) Improve performance of dictionary builder"
    )
    assert seed["Date"].datetime.isoformat().startswith("2017-03-10")
    pr = message_from_bytes(messages["hbase.apache.org/issues/seed-002_e2f8b5da2f6ad4fc.eml"])
    assert pr["From"] == "GitBox <git@apache.org>"  # 2020: the GitBox era
    hive = message_from_bytes(messages["hive.apache.org/gitbox/seed-000_c3d32744cfdf0fd7.eml"])
    assert hive["From"] == '"atsaonerk (via GitHub)" <git@apache.org>'


def test_hostile_test_message_is_included(rebuilt):
    data = emls(rebuilt)["kudu.apache.org/issues/test-hostile-markup.eml"]
    message = message_from_bytes(data, policy=policy.default)
    assert "<script>alert(1)</script>" in message["Subject"]
    body = message.get_content()
    assert "<script>alert(1)</script>" in body and "<img src=x onerror=alert(1)>" in body


def test_the_server_serves_every_sample_message():
    total = len(emls(SAMPLE))
    with ArchiveServer(SAMPLE, crawl_delay=0) as server:
        with urllib.request.urlopen(server.url + "/api/preferences.lua") as response:
            lists = json.load(response)["lists"]
        served = 0
        for domain, names in lists.items():
            for name in names:
                url = f"{server.url}/api/stats.lua?list={name}&domain={domain}&quick"
                with urllib.request.urlopen(url) as response:
                    served += sum(json.load(response)["active_months"].values())
    assert served == total
