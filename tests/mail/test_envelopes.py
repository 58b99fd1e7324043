"""A report reads the same in every envelope a list delivers it in: as a JIRA comment,
an issue's description or a work log's; as a GitHub comment, indented as the notifier
sends it, or as a review comment under its diff hunk; as a Bugzilla mail, a new bug's
or a comment under the fields it changed. Each mail goes the pipeline's
own way (parse, kind, clean, results), and within one kind every envelope must give
the verdict and the rows of the plainest one. (The envelopes are the notifiers'
layouts, `shared/design/archive-api.md`; names, ids and reports are written here.)"""

from __future__ import annotations

import pytest

from extract.mail.clean import clean_body
from extract.mail.kinds import message_kind
from extract.mail.message import parse_message
from extract.results.message import message_results

REPORTS = {
    "prose": (
        "I did a quick perf test with 1M small files. Listing went from about 40 minutes\n"
        "down to 6 minutes with the new iterator, and memory stayed around 2 GB."
    ),
    "table": (
        "Query times on SF10 (seconds):\n\n"
        "| query | before | after |\n|---|---|---|\n"
        "| q1 | 8.21 | 6.95 |\n| q3 | 12.40 | 10.02 |\n| q9 | 30.11 | 22.47 |"
    ),
    "tool": (
        "wrk on the patched gateway:\n\n"
        "Running 30s test @ http://127.0.0.1:9080/hello\n"
        "  4 threads and 100 connections\n"
        "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
        "    Latency     1.21ms  312.00us   9.87ms   81.23%\n"
        "    Req/Sec    20.51k     1.02k   23.11k    70.12%\n"
        "  2449311 requests in 30.01s, 401.77MB read\n"
        "Requests/sec:  81617.29\n"
        "Transfer/sec:     13.39MB"
    ),
}


def _mail(subject: str, sender: str, body: str) -> bytes:
    return (
        f"From: {sender}\nTo: issues@example.apache.org\nSubject: {subject}\n"
        "Message-ID: <m1@example.org>\nDate: Mon, 7 Dec 2026 10:00:00 +0000\n"
        f"Content-Type: text/plain; charset=utf-8\n\n{body}"
    ).encode()


_JIRA_FROM = '"Ann Dev (Jira)" <jira@apache.org>'
_ISSUE_BLOCK = (
    "\n\n> Faster listing\n> --------------\n>\n>                 Key: FOO-123\n"
    ">             Project: Foo\n\n\n\n--\nThis message was sent by Atlassian Jira\n"
    "(v8.20.10#820010)\n"
)


def jira_comment(text: str) -> bytes:
    head = "Ann Dev commented on FOO-123:"
    return _mail(
        "[jira] [Commented] (FOO-123) Faster listing",
        _JIRA_FROM,
        "\n    [ https://issues.apache.org/jira/browse/FOO-123?focusedCommentId=1#comment-1 ]"
        f" \n\n{head}\n{'-' * len(head)}\n\n{text}{_ISSUE_BLOCK}",
    )


def jira_created(text: str) -> bytes:
    head = "Ann Dev created FOO-123:"
    return _mail(
        "[jira] [Created] (FOO-123) Faster listing",
        _JIRA_FROM,
        f"{head}\n{'-' * len(head)}\n\n             Summary: Faster listing\n"
        "                 Key: FOO-123\n                 URL: https://issues.apache.org/jira/"
        "browse/FOO-123\n             Project: Foo\n    Affects Versions: 3.6.0\n"
        f"            Reporter: Ann Dev\n\n\n{text}\n\n\n\n--\n"
        "This message was sent by Atlassian Jira\n(v8.20.10#820010)\n",
    )


def jira_work_log(text: str) -> bytes:
    head = "ASF GitHub Bot logged work on FOO-123:"
    indented = "\n".join("   " + line if line.strip() else line for line in text.split("\n"))
    return _mail(
        "[jira] [Work logged] (FOO-123) Faster listing",
        '"ASF GitHub Bot (Jira)" <jira@apache.org>',
        "\n     [ https://issues.apache.org/jira/browse/FOO-123?focusedWorklogId=9 ]\n\n"
        f"{head}\n{'-' * len(head)}\n\n                Author: ASF GitHub Bot\n"
        "            Created on: 07/Dec/26 10:00\n            Start Date: 07/Dec/26 10:00\n"
        "    Worklog Time Spent: 10m \n      Work Description: anndev commented on PR #61:\n"
        f"URL: https://github.com/apache/foo/pull/61#issuecomment-1\n\n{indented}\n\n\n"
        "Issue Time Tracking\n-------------------\n\n    Worklog Id:     (was: 8)\n"
        f"    Time Spent: 1h 20m  (was: 1h 10m){_ISSUE_BLOCK}",
    )


_GITHUB_FROM = '"anndev (via GitHub)" <git@apache.org>'
_GITHUB_SUBJECT = "Re: [PR] FOO-123: Faster listing [foo]"
_GITHUB_FOOTER = (
    "\n\n\n-- \nThis is an automated message from the Apache Git Service.\n"
    "To respond to the message, please log on to GitHub and use the\n"
    "URL above to go to the specific comment.\n\n"
    "To unsubscribe, e-mail: issues-unsubscribe@foo.apache.org\n\n"
    "For queries about this service, please contact Infrastructure at:\n"
    "users@infra.apache.org\n"
)


def github_comment(text: str, indent: str = "") -> bytes:
    body = "\n".join(indent + line if line.strip() else line for line in text.split("\n"))
    return _mail(
        _GITHUB_SUBJECT,
        _GITHUB_FROM,
        "anndev commented on PR #61:\nURL: https://github.com/apache/foo/pull/61#issuecomment-1"
        f"\n\n{body}{_GITHUB_FOOTER}",
    )


def github_review_comment(text: str) -> bytes:
    return _mail(
        _GITHUB_SUBJECT,
        _GITHUB_FROM,
        "anndev commented on code in PR #61:\n"
        "URL: https://github.com/apache/foo/pull/61#discussion_r1\n\n\n##########\n"
        "src/main/java/org/apache/foo/Lister.java:\n##########\n"
        "@@ -120,7 +120,9 @@ public class Lister {\n-        int batch = 4096;\n"
        f"+        int batch = 65536;\n\nReview Comment:\n{text}{_GITHUB_FOOTER}",
    )


def plain_mail(text: str) -> bytes:
    return _mail("Faster listing", "Ann Dev <ann@example.org>", f"Hi,\n\n{text}\n\nAnn\n")


_BUGZILLA_URL = "https://bz.example.org/bugzilla/show_bug.cgi?id=69123\n\n"
_BUGZILLA_FOOTER = (
    "\n\n-- \nYou are receiving this mail because:\nYou are the assignee for the bug.\n"
)


def bugzilla_new(text: str) -> bytes:
    fields = (
        ("Bug ID", "69123"), ("Summary", "Faster listing"), ("Product", "Foo"),
        ("Version", "2.4.62"), ("Hardware", "All"), ("OS", "Linux"), ("Status", "NEW"),
        ("Severity", "normal"), ("Priority", "P2"), ("Component", "core"),
        ("Assignee", "bugs@foo.apache.org"), ("Reporter", "ann@example.org"),
        ("Target Milestone", "---"),
    )  # fmt: skip
    block = "".join(f"{name:>18}: {value}\n" for name, value in fields)
    attachment = (
        "Created attachment 39812\n"
        "  --> https://bz.example.org/bugzilla/attachment.cgi?id=39812&action=edit\n"
        "patch for 2.4.x\n\n"
    )
    body = f"{_BUGZILLA_URL}{block}\n{attachment}Hi,\n\n{text}\n\nAnn{_BUGZILLA_FOOTER}"
    return _mail("[Bug 69123] New: Faster listing", "bugzilla@apache.org", body)


def bugzilla_comment(text: str) -> bytes:
    changes = (
        "Ann Dev <ann@example.org> changed:\n\n"
        "           What    |Removed                     |Added\n" + "-" * 76 + "\n"
        "            Status|NEW                         |NEEDINFO\n"
        "          Version|2.4.58                      |2.4.62\n\n"
    )
    body = (
        f"{_BUGZILLA_URL}{changes}--- Comment #4 from Ann Dev <ann@example.org> ---\n"
        f"Hi,\n\n{text}\n\nAnn{_BUGZILLA_FOOTER}"
    )
    return _mail("[Bug 69123] Faster listing", "bugzilla@apache.org", body)


def read(raw: bytes) -> tuple:
    pm = parse_message(raw)
    kind = message_kind(pm.subject, pm.from_name, pm.from_address, pm.text, pm.headers)
    found = message_results(clean_body(pm.text, kind.kind), subject=pm.subject, kind=kind.kind)
    rows = sorted(
        (m.label or "", m.metric or "", m.value, m.unit or "", m.variant or "")
        for t in found.tables
        for m in t.measurements
    )
    return kind.kind, found.verdict.is_benchmark, round(found.verdict.score, 2), rows


ENVELOPES = [
    (jira_comment, jira_created),
    (jira_comment, jira_work_log),
    (github_comment, lambda text: github_comment(text, indent="   ")),
    (github_comment, github_review_comment),
    (plain_mail, bugzilla_new),
    (plain_mail, bugzilla_comment),
]


@pytest.mark.parametrize("report", sorted(REPORTS))
@pytest.mark.parametrize(
    ("plain", "envelope"),
    ENVELOPES,
    ids=[
        "jira-created",
        "jira-work-log",
        "github-indented",
        "github-review-comment",
        "bugzilla-new",
        "bugzilla-comment",
    ],
)
def test_a_report_reads_the_same_in_each_envelope_of_its_kind(plain, envelope, report):
    expected = read(plain(REPORTS[report]))
    assert expected[1], expected  # (a report, with rows: else the test says nothing)
    assert expected[3]
    assert read(envelope(REPORTS[report])) == expected
