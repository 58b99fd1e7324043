"""The demo archive data/sample: reproducible from what the project wrote (the seeds,
tests/fixtures/sample/*.txt and one hostile test message), each text carried as its
kind of mail carries it, headers a mail parser reads, and served whole by the archive
server."""

from __future__ import annotations

import json
import urllib.request
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from crawler.archive_server import ArchiveServer
from extract.mail.kinds import message_kind
from extract.mail.message import parse_message
from tests import make_sample

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "data" / "sample"
SEEDS = REPO / "tests" / "fixtures" / "seeds"
SOURCES = sorted(make_sample.SOURCES.glob("*.txt"))


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("sample")
    make_sample.build(out)
    return out


def emls(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.eml"))}


def test_committed_sample_is_what_the_script_builds(rebuilt):
    assert emls(rebuilt) == emls(SAMPLE)


def test_every_source_becomes_one_message_on_its_list(rebuilt):
    messages = emls(rebuilt)
    seeds = sorted(SEEDS.glob("*.txt"))
    assert len(SOURCES) >= 45
    assert len(messages) == len(SOURCES) + len(seeds) + 1  # + the hostile test message
    by_stem = {Path(k).stem: k for k in messages}
    for path in seeds:
        body = messages[by_stem[f"seed-{path.stem}"]].split(b"\n\n", 1)[1]
        assert body == path.read_bytes()
    for path in SOURCES:
        fields, text = make_sample.split_source(path.read_bytes())
        key = by_stem[path.stem]
        name, domain = fields["List"].split("@")
        assert key.startswith(f"{domain}/{name}/")
        body = message_from_bytes(messages[key], policy=policy.default).get_content()
        if fields.get("Flatten") == "yes":
            assert make_sample.flatten(text).strip() in body.splitlines()  # on one line
        elif fields["Kind"] == "commit":  # the commit message, indented by git log
            assert all("    " + line in body for line in text.splitlines() if line.strip())
        else:
            assert text.strip() in body


def test_each_kind_is_typed_as_that_kind(rebuilt):
    """JIRA, GitBox (each era), commit and list mail are read back as their kind, with
    the issue, repository and PR the source names."""
    by_stem = {p.stem: p for p in rebuilt.rglob("*.eml")}
    eras = set()
    for path in SOURCES:
        fields, _ = make_sample.split_source(path.read_bytes())
        pm = parse_message(by_stem[path.stem].read_bytes())
        k = message_kind(pm.subject, pm.from_name, pm.from_address, pm.text, pm.headers)
        assert k.kind == fields["Kind"], path.name
        if k.kind == "jira":
            assert k.issue_key == fields["Issue"]
            assert k.action == fields.get("Action", "Commented")
        elif k.kind == "github":
            assert (k.repo, k.pr_number) == (
                fields["Repo"],
                int(fields.get("PR") or fields["Issue"]),
            )
            eras.add(make_sample.github_era(pm.sent_at))
        elif k.kind == "commit":
            assert (k.repo, k.branch) == (fields["Repo"], fields["Branch"])
    assert eras == {"a", "b", "c", "d"}


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


def test_sources_declare_what_the_tests_check():
    kinds = set()
    for path in SOURCES:
        fields, text = make_sample.split_source(path.read_bytes())
        assert fields["Kind"] in make_sample.KINDS and fields["Expect"] in ("benchmark", "none")
        assert text.strip(), path.name
        kinds.add(fields["Kind"])
    assert kinds == set(make_sample.KINDS)


def test_hostile_test_message_is_included(rebuilt):
    data = emls(rebuilt)["kudu.apache.org/issues/test-hostile-markup.eml"]
    message = message_from_bytes(data, policy=policy.default)
    assert "<script>alert(1)</script>" in message["Subject"]
    body = message.get_content()
    assert "<script>alert(1)</script>" in body and "<img src=x onerror=alert(1)>" in body


@pytest.mark.e2e
def test_the_server_serves_every_sample_message():
    total = len(SOURCES) + len(list(SEEDS.glob("*.txt"))) + 1
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
