"""Typing JIRA, GitHub and commit mail: a commits@ month and GitHub bridge mails built
in tests/mail/mboxes.py and here, the subject/body templates of design/archive-api.md
§5.2-5.4 for every era, and (marked `shared`) the real mails of ../shared/mbox."""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import format_datetime
from urllib.parse import quote

import pytest

from extract.mail.kinds import _quote_all, message_kind, permalink
from extract.mail.mbox import iter_messages, read_mbox
from extract.mail.message import parse_message
from tests.conftest import shared_path
from tests.mail import mboxes


def kind_of(pm):
    return message_kind(pm.subject, pm.from_name, pm.from_address, pm.text, pm.headers)


def _parsed_month(data: bytes):
    for raw in iter_messages(iter(data.splitlines(keepends=True))):
        yield raw.position, parse_message(raw.data, raw.envelope_line)


def test_commits_month():
    kinds = {pos: (pm.subject, kind_of(pm)) for pos, pm in _parsed_month(
        mboxes.EDGE_ARCHIVES["commits-2016-06"])}  # fmt: skip
    sources = mboxes.commits_month()
    assert len(kinds) == len(sources)
    subject, k = kinds[0]
    assert subject.startswith(f"[1/2] {mboxes.COMMITS_REPO} git commit:")
    assert (k.kind, k.repo, k.branch, k.actor) == (
        "commit",
        mboxes.COMMITS_REPO,
        mboxes.COMMITS_BRANCH,
        mboxes.COMMITS_ACTOR,
    )
    assert k.commit_id == mboxes.commit_sha(0)
    assert k.url.endswith(f"/{mboxes.COMMITS_REPO}/commit/{mboxes.commit_sha(0)[:8]}")
    subject, k = kinds[len(sources) - 1]
    rev = f"r{13000 + len(sources) - 1}"
    assert subject.startswith(f"svn commit: {rev}")
    assert (k.kind, k.commit_id, k.actor) == ("commit", rev, mboxes.COMMITS_ACTOR)
    subject, k = kinds[len(sources) // 2]  # a person's reply to a commit mail
    assert subject.startswith("Re: [01/11]") and k.kind == "mail"
    counts = {}
    for _, k in kinds.values():
        counts[k.kind] = counts.get(k.kind, 0) + 1
    assert counts == {"commit": len(sources) - 1, "mail": 1}


@pytest.mark.shared
def test_real_commits_month():
    path = shared_path(
        "mbox", "ponymail-classic", "pass", "commits_ponymail_apache_org_2016-06.mbox"
    )
    kinds = {}
    for raw in read_mbox(path):
        pm = parse_message(raw.data, raw.envelope_line)
        kinds[raw.position] = (pm.subject, kind_of(pm))
    subject, k = kinds[0]
    assert subject.startswith("[1/2] incubator-ponymail-site git commit:")
    assert (k.kind, k.repo, k.branch, k.actor) == (
        "commit",
        "incubator-ponymail-site",
        "asf-site",
        "humbedooh",
    )
    assert k.commit_id == "93465c223e279718638d8a3a91e5e11f7b196c0f"
    assert k.url.endswith("/incubator-ponymail-site/commit/93465c22")
    subject, k = kinds[49]
    assert subject.startswith("svn commit: r13887")
    assert (k.kind, k.commit_id, k.actor) == ("commit", "r13887", "humbedooh")
    subject, k = kinds[24]  # a person's reply to a commit mail
    assert subject.startswith("Re: [01/11]") and k.kind == "mail"
    counts = {}
    for _, k in kinds.values():
        counts[k.kind] = counts.get(k.kind, 0) + 1
    assert counts == {"commit": 81, "mail": 1}


def bridge_mail(login: str, repo: str, number: int, title: str) -> bytes:
    """A GitHub bridge mail of era (a), before 2018 (design/archive-api.md §5.3)."""
    return mboxes.raw_message(
        f"From: {login} <git@git.apache.org>\nTo: dev@{repo.split('-')[0]}.apache.org\n"
        f"Subject: [GitHub] {repo} pull request: {title}\n"
        f"Date: {format_datetime(datetime(2015, 11, 3, 14, 2, tzinfo=UTC))}\n"
        f"Message-ID: <git-pr-{number}-{repo}@git.apache.org>",
        f"GitHub user {login} opened a pull request:\n\n"
        f"    https://github.com/apache/{repo}/pull/{number}\n\n    {title}\n\n"
        "You can merge this pull request into a Git repository by running:\n\n"
        f"    $ git pull https://github.com/{login}/{repo} topic\n",
    )


@pytest.mark.parametrize(
    "login,number", [("mkowalczyk", 262), ("rtanaka", 517)], ids=["first", "second"]
)
def test_github_bridge_mail_2015(login, number):
    k = kind_of(parse_message(bridge_mail(login, "activemq-artemis", number, "Speed up paging")))
    assert (k.kind, k.repo, k.action) == ("github", "activemq-artemis", "opened a pull request")
    assert (k.pr_number, k.url) == (
        number,
        f"https://github.com/apache/activemq-artemis/pull/{number}",
    )
    assert k.actor == login


@pytest.mark.shared
@pytest.mark.parametrize(
    "name", ["dev.activemq.apache.org-51149.eml", "dev.activemq.apache.org-52937.eml"]
)
def test_real_github_bridge_mail_2015(name):
    (raw,) = read_mbox(shared_path("mbox", "ponymail-foal", name))
    k = kind_of(parse_message(raw.data))
    assert (k.kind, k.repo, k.action) == ("github", "activemq-artemis", "opened a pull request")
    assert (
        k.pr_number is not None
        and k.url == f"https://github.com/apache/activemq-artemis/pull/{k.pr_number}"
    )
    assert k.actor in ("thiagokronig", "clebertsuconic")


def test_user_mail_is_mail():
    for _, pm in _parsed_month(mboxes.EDGE_ARCHIVES["users-2019-09"]):
        assert kind_of(pm).kind == "mail"


@pytest.mark.shared
def test_real_user_mail_is_mail():
    (raw,) = read_mbox(shared_path("mbox", "ponymail-foal", "users.kafka.apache.org-43276.eml"))
    assert kind_of(parse_message(raw.data)).kind == "mail"


JIRA_BODY = (
    "\n    [ https://issues.apache.org/jira/browse/ZOOKEEPER-2024?page=com.atlassian.jira."
    "plugin.system.issuetabpanels:comment-tabpanel&focusedCommentId=15255796#comment-15255796 ]"
    " \n\nKfir Lev-Ari commented on ZOOKEEPER-2024:\n------------------------------------------\n\n"
    "throughput went from 10k to 14k ops/s\n"
)


@pytest.mark.parametrize(
    "subject,sender,body,expected",
    [
        (
            "[jira] [Commented] (ZOOKEEPER-2024) Major throughput improvement with mixed workloads",
            ("Kfir Lev-Ari (JIRA)", "jira@apache.org"),
            JIRA_BODY,
            dict(kind="jira", action="Commented", issue_key="ZOOKEEPER-2024", actor="Kfir Lev-Ari"),
        ),
        (
            "[jira] [Work logged] (HADOOP-17125) Using snappy-java in SnappyCodec",
            ("ASF GitHub Bot (Jira)", "jira@apache.org"),
            "ASF GitHub Bot logged work on HADOOP-17125:\n----\n",
            dict(
                kind="jira", action="Work logged", issue_key="HADOOP-17125", actor="ASF GitHub Bot"
            ),
        ),
        (
            "[jira] Created: (HBASE-1) old style subject",
            ("Jim (JIRA)", "jira@apache.org"),
            "",
            dict(kind="jira", action="Created", issue_key="HBASE-1", actor="Jim"),
        ),
        (
            "Re: [jira] [Commented] (KUDU-1930) Improve performance",
            ("Todd Lipcon", "todd@apache.org"),
            "I agree.",
            dict(kind="mail", issue_key="KUDU-1930"),
        ),
        (  # era (b)
            "[GitHub] [ozone] szetszwo commented on a change in pull request #2495: HDDS-5488. Fix",
            ("GitBox", "git@apache.org"),
            "szetszwo commented on a change in pull request #2495:\n"
            "URL: https://github.com/apache/ozone/pull/2495#discussion_r684004522\n",
            dict(
                kind="github",
                repo="ozone",
                pr_number=2495,
                actor="szetszwo",
                action="commented on a change in pull request",
                issue_key="HDDS-5488",
                url="https://github.com/apache/ozone/pull/2495#discussion_r684004522",
            ),
        ),
        (  # era (c)
            "[GitHub] [incubator-devlake-website] Startrekzky opened a new pull request, #453: doc",
            ("GitBox", "git@apache.org"),
            "Startrekzky opened a new pull request, #453:\n"
            "URL: https://github.com/apache/incubator-devlake-website/pull/453\n",
            dict(
                kind="github", repo="incubator-devlake-website", pr_number=453, actor="Startrekzky"
            ),
        ),
        (  # era (d), square brackets
            "Re: [PR] HDDS-9999. Speed up reads [ozone]",
            ("adoroszlai (via GitHub)", "git@apache.org"),
            "adoroszlai commented on PR #5000:\nURL: https://github.com/apache/ozone/pull/5000#issuecomment-1\n",
            dict(
                kind="github",
                repo="ozone",
                pr_number=5000,
                actor="adoroszlai",
                issue_key="HDDS-9999",
            ),
        ),
        (  # era (d), parentheses and an issue
            "[I] Dashboard is slow (superset)",
            ("bob (via GitHub)", "git@apache.org"),
            "bob opened a new issue, #12:\n\n   ## slow\n",
            dict(
                kind="github",
                repo="superset",
                pr_number=12,
                actor="bob",
                action="opened a new issue",
            ),
        ),
        (  # git-multimail single commit
            "[ozone] branch master updated: HDDS-7263. Add a handler (#3785)",
            ("", "sodonnell@apache.org"),
            "This is an automated email from the ASF dual-hosted git repository.\n\n"
            "sodonnell pushed a commit to branch master\n"
            "in repository https://gitbox.apache.org/repos/asf/ozone.git\n\n\n"
            "commit c96a342448f0c5c03d8b824b471b9f21fcd475d6\nAuthor: S <s@x>\n",
            dict(
                kind="commit",
                repo="ozone",
                branch="master",
                actor="sodonnell",
                commit_id="c96a342448f0c5c03d8b824b471b9f21fcd475d6",
                issue_key="HDDS-7263",
            ),
        ),
        (  # git-multimail, one commit of a multi-commit push
            "[james-project] 02/05: JAMES-3500 Cassandra tuning",
            ("", "btellier@apache.org"),
            "btellier pushed a commit to branch master\n"
            "in repository https://gitbox.apache.org/repos/asf/james-project.git\n\n"
            "commit 0123456789abcdef0123456789abcdef01234567\n",
            dict(kind="commit", repo="james-project", branch="master", issue_key="JAMES-3500"),
        ),
        (
            "Re: UTF-8 trouble after KAFKA-123",
            ("Joe", "joe@example.org"),
            "see https://github.com/apache/kafka/pull/77",
            dict(kind="mail", issue_key="KAFKA-123", repo="kafka", pr_number=77),
        ),
    ],
)
def test_templates(subject, sender, body, expected):
    k = message_kind(subject, sender[0] or None, sender[1], body, {})
    assert {f: getattr(k, f) for f in expected} == expected


def test_multimail_headers_win():
    k = message_kind(
        "[hive] branch master updated: x",
        None,
        "x@apache.org",
        "",
        {"x-git-repo": "hive", "x-git-refname": "refs/heads/master", "x-git-rev": "abc123"},
    )
    assert (k.kind, k.repo, k.branch, k.commit_id) == ("commit", "hive", "master", "abc123")


def test_message_ids_are_quoted_as_urllib_quotes_them():
    """`_quote_all` replaces urllib's quote(s, safe="") for speed: same output on every
    ASCII character, on real Message-ID forms, and on non-ASCII text."""
    ids = ["".join(map(chr, range(128))), "<CAOq8KR+U0b9Ks_xyL=5Bw3pQaP3zA@mail.gmail.com>",
           "<JIRA.13056172.1490734453000.126591.1490734541870@Atlassian.JIRA>",
           "<a b/c?d#e%f&g~h>", "<\u00e9t\u00e9@x.org>", ""]  # fmt: skip
    for value in ids:
        assert _quote_all(value) == quote(value, safe=""), value


def test_permalink():
    assert permalink("dev@kafka.apache.org", "abc@host") == (
        "https://lists.apache.org/thread/%3Cabc%40host%3E?%3Cdev.kafka.apache.org%3E"
    )
    assert permalink("dev@kafka.apache.org", None, "2023-01") == (
        "https://lists.apache.org/list.html?dev@kafka.apache.org:2023-1"
    )


@pytest.mark.parametrize(
    ("sender", "actor"),
    [
        ('"Konstantin Shvachko (JIRA)" <j...@apache.org>', "Konstantin Shvachko"),
        ('"Teddy Choi (JIRA)"', None),  # (no address at all)
        ("Walter Su (JIRA)", None),  # (unquoted: `(JIRA)` parses as the name)
        ("star (Jira) (inferred)", None),
    ],
)
def test_a_jira_notification_whose_archive_hid_the_address_is_jira(sender, actor):
    raw = (
        f"From: {sender}\nTo: hdfs-dev@hadoop.apache.org\n"
        "Subject: [jira] [Commented] (HDFS-1070) Speedup NameNode image loading\n"
        "Message-ID: <1@x>\nDate: Mon, 01 Jun 2020 12:00:00 +0000\n\nLoad time went down.\n"
    ).encode()
    pm = parse_message(raw)
    k = message_kind(pm.subject, pm.from_name, pm.from_address, pm.text, pm.headers)
    assert (k.kind, k.issue_key, k.actor) == ("jira", "HDFS-1070", actor)
    # a person's reply, or a person with the word in their name, stays mail
    for person in ("Todd Lipcon <todd@apache.org>", "Jira Fan <jirafan@example.org>"):
        pm = parse_message(raw.replace(sender.encode(), person.encode()))
        k = message_kind(pm.subject, pm.from_name, pm.from_address, pm.text, pm.headers)
        assert k.kind == "mail", person


# Issue 27: the JIRA actor pattern backtracked cubically across line breaks: a forged
# JIRA mail of 4 kB of whitespace lines took 10 s (and was lost to the message budget).
@pytest.mark.parametrize("filler", [" \n", "\n", " ", " \t\n", "a \n"])
def test_a_forged_jira_mail_of_whitespace_lines_is_typed_at_once(filler):
    import time

    text = filler * (4000 // len(filler)) + "Ana Lopes commented on KUDU-1:\n"
    started = time.perf_counter()
    k = message_kind("[jira] [Commented] (KUDU-1) x", "Ana Lopes (Jira)", "jira@apache.org",
                     text, {})  # fmt: skip
    assert time.perf_counter() - started < 0.2
    assert (k.kind, k.actor) == ("jira", "Ana Lopes")
    # (the actor is read on its line, whatever blanks are around it)
    text = "\n\n   Bo Chen   commented on KUDU-2:\n"
    assert kind_of_text("[jira] [Commented] (KUDU-2) x", text).actor == "Bo Chen"


def kind_of_text(subject: str, text: str):
    return message_kind(subject, "x (Jira)", "jira@apache.org", text, {})
