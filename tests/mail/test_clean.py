"""clean_body on the seeds (the user's real notification bodies) and on built replies."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from extract.mail import clean
from extract.mail.clean import clean_body
from tests.conftest import seed


def test_jira_comment_keeps_comment_drops_header_block_and_footer():
    body = clean_body(seed("001"), "jira")
    assert body.startswith("Tested with commands like:")
    assert "real 1140.187s" in body
    assert body.endswith("the difference magnifies)")
    for noise in ("commented on KUDU-1930", "Key: KUDU-1930", "Atlassian JIRA", "focusedCommentId"):
        assert noise not in body


def test_edited_jira_comment_keeps_only_the_current_version():
    text = seed("004")
    body = clean_body(text, "jira")
    assert "of the latest\nchanges" in body
    assert "of latest\nchanges" not in body  # the previous version's wording
    assert body.count("|CPU, ms|1,430|") == 1
    assert "was (Author" not in body and "edited comment on" not in body


# A JIRA work-log mail as ASF's Jira sends one for a GitHub comment (the shape of the
# template; names, ids and text written here).
_WORKLOG = (
    "\n     [ https://issues.apache.org/jira/browse/HADOOP-19001?focusedWorklogId=900001"
    "&page=com.atlassian.jira.plugin.system.issuetabpanels:worklog-tabpanel#worklog-900001 ]\n\n"
    "ASF GitHub Bot logged work on HADOOP-19001:\n"
    "--------------------------------------------\n\n"
    "                Author: ASF GitHub Bot\n"
    "            Created on: 07/Dec/26 10:00\n"
    "            Start Date: 07/Dec/26 10:00\n"
    "    Worklog Time Spent: 10m \n"
    "      Work Description: anndev commented on PR #6001:\n"
    "URL: https://github.com/apache/hadoop/pull/6001#issuecomment-1800000001\n\n"
    "   Listing went from 40 minutes down to 6 minutes with the new iterator.\n\n\n"
    "Issue Time Tracking\n-------------------\n\n"
    "    Worklog Id:     (was: 900000)\n"
    "    Time Spent: 1h 20m  (was: 1h 10m)\n\n"
    "> Faster listing\n> --------------\n>\n>                 Key: HADOOP-19001\n\n\n\n"
    "--\nThis message was sent by Atlassian Jira\n(v8.20.10#820010)\n"
)


def test_a_jira_work_log_keeps_only_the_work_s_description():
    body = clean_body(_WORKLOG, "jira")
    assert body == "Listing went from 40 minutes down to 6 minutes with the new iterator."
    # (the fields alone, a log with no description: nothing of them is text)
    bare = re.sub(r"      Work Description.*?(?=Issue Time)", "\n", _WORKLOG, flags=re.S)
    assert "Time Spent: 1h 20m" in bare and "Work Description" not in bare
    assert clean_body(bare, "jira") == ""


def test_flattened_gitbox_comment_drops_header_and_footer():
    body = clean_body(seed("002"), "github")
    assert body.startswith("Set up a 5 nodes cluster")
    assert body.endswith("impact for the patch. Thanks.")
    assert "Apache Git Service" not in body and "URL:" not in body


def test_flattened_html_gitbox_comment_keeps_table_drops_footers():
    body = clean_body(seed("000"))
    assert "1000 | 100 | Yes | 9 sec" in body
    assert "automated message" not in body and "unsubscribe" not in body
    assert not body.startswith("atsaonerk commented")


@pytest.mark.parametrize("kind", [None, "mail"])
def test_reply_drops_quotes_wrote_header_and_list_footer(kind):
    text = (
        "Numbers after the patch:\n\nrun | ops/s\n1 | 100\n\n"
        "On Tue, 3 Mar 2020 at 10:01, Jane Doe <jane@example.org>\nwrote:\n"
        "> before: 50 ops/s\n>> older quote\n\n"
        "-- \nJohn\n"
        "---------------------------------------------------------------------\n"
        "To unsubscribe, e-mail: dev-unsubscribe@kudu.apache.org\n"
        "For additional commands, e-mail: dev-help@kudu.apache.org\n"
    )
    body = clean_body(text, kind)
    assert body.startswith("Numbers after the patch:")
    assert "1 | 100" in body
    assert "wrote:" not in body and "50 ops/s" not in body and "unsubscribe" not in body


def test_modern_gitbox_footer_and_header():
    text = (
        "szetszwo commented on PR #2495:\nURL: https://github.com/apache/ozone/pull/2495#x\n\n"
        "   Benchmark  Mode  Score\n\n\n-- \n"
        "This is an automated message from the Apache Git Service.\n"
        "To respond to the message, please log on to GitHub and use the\n"
        "URL above to go to the specific comment.\n\n"
        "To unsubscribe, e-mail: issues-unsubscribe@ozone.apache.org\n"
    )
    assert clean_body(text, "github") == "Benchmark  Mode  Score"


def test_empty_and_plain_text():
    assert clean_body("") == ""
    assert clean_body("just text\n") == "just text"


# ------------------------------------------------- the joins' necessary conditions

# Line fragments of wrapped and box-drawn rows, blanks, values and prose.
_ROW_PIECES = [
    "| a | b |",
    "| name | 1.5 ms",
    "3 |",
    "c | d |",
    "│ x │ 2 │",
    "y │",
    "┃ z ┃",
    "|",
    "",
    "  ",
    "\f| a",
    "| a\f",
    "\u00a0| v |",
    "| v |\u00a0",
    "|| h || i ||",
    "then the rest",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_ROW_PIECES), min_size=1, max_size=10))
def test_the_row_joins_skip_only_texts_they_would_leave_alone(pieces):
    """`rejoin_wrapped_rows` and `rejoin_row_tails` first look for the two lines
    a join needs (one regex over the text); where there are none they return the
    text untouched. With that check made to pass always, they must give the same."""
    text = "\n".join(pieces)
    quick = (clean.rejoin_wrapped_rows(text), clean.rejoin_row_tails(text))
    with pytest.MonkeyPatch.context() as m:
        m.setattr(clean, "_OPEN_ROW_GOING_ON", re.compile(""))
        m.setattr(clean, "_ROW_THEN_TAIL", re.compile(""))
        assert quick == (clean.rejoin_wrapped_rows(text), clean.rejoin_row_tails(text))


def test_the_row_joins_still_join():
    assert clean.rejoin_wrapped_rows("| a | 1.5\nms |\n") == "| a | 1.5 ms |\n"
    assert clean.rejoin_row_tails("| a | b |\nc | d |") == "| a | b | c | d |"
    assert clean.rejoin_row_tails("│ a │\nb │") == "│ a │ b │"
    assert clean.rejoin_row_tails("| a | b |\n| c | d |") == "| a | b |\n| c | d |"


@pytest.mark.parametrize(
    "quoted",
    [
        # Outlook without its `Original Message` line: the original's header block
        "From: Bob <bob@example.org>\nSent: Monday, May 6, 2024 10:02 AM\n"
        "To: dev@foo.apache.org\nSubject: RE: scan numbers\n\n",
        # an attribution whose quotation lost its `>` marks on the way
        "On Mon, May 6, 2024 at 10:02 AM Bob <bob@example.org> wrote:\n\n",
        # Chinese mail clients' separator
        "------------------ 原始邮件 ------------------\n发件人: Bob;\n主题: Re: scan\n\n",
    ],
)
def test_an_unmarked_quotation_is_not_the_message_s_own_text(quoted):
    body = "Thanks, I'll try it tomorrow.\n\n" + quoted + "Before: 41.2 s\nAfter: 33.8 s\n"
    assert clean_body(body, "mail") == "Thanks, I'll try it tomorrow."


@pytest.mark.parametrize(
    "header",
    [
        # Gmail's forward of mail that went to a list
        "---------- Forwarded message ---------\nFrom: Bob <bob@example.org>\n"
        "Date: Mon, May 6, 2024 at 10:02 AM\nSubject: scan numbers\n"
        "To: <dev@foo.apache.org>\n\n",
        # Apple Mail's, the list in copy
        "Begin forwarded message:\n\nFrom: Bob <bob@example.org>\nSubject: scan numbers\n"
        "Date: 6 May 2024 at 10:02:44 BST\nTo: Jane <jane@example.org>\n"
        "Cc: user@foo.incubator.apache.org\n\n",
        # Outlook's re-sent original (a ping), its subject no reply's
        "From: Bob\nSent: Monday, May 6, 2024 10:02 AM\nTo: dev@foo.apache.org\n"
        "Subject: [PATCH] faster scans\n\n",
        # a Chinese client's
        "发件人: Bob\n发送时间: 2024年5月6日 10:02\n收件人: dev@foo.apache.org\n主题: scan\n\n",
    ],
)
def test_mail_re_sent_from_a_list_is_not_the_message_s_own_text(header):
    body = "Any thoughts on this? Pinging again.\n\n" + header + "Before: 41.2 s\nAfter: 33.8 s\n"
    assert clean_body(body, "mail") == "Any thoughts on this? Pinging again."


def test_a_forward_of_mail_no_list_saw_is_kept():
    # (sent to people, not a list: the list sees the numbers first here)
    fw = (
        "FYI, our perf team's numbers.\n\n---------- Forwarded message ---------\n"
        "From: Bob <bob@corp.example>\nDate: Mon, May 6, 2024\nSubject: scan\n"
        "To: perf-team <perf@corp.example>\n\nBefore: 41.2 s\nAfter: 33.8 s\n"
    )
    assert "41.2 s" in clean_body(fw, "mail")
    # (a person's apache.org address is no list; nor is a `To:` line in running text)
    to_person = fw.replace("perf@corp.example", "jane@apache.org")
    assert "41.2 s" in clean_body(to_person, "mail")
    prose = "Numbers below.\nTo: dev@foo.apache.org readers, the scan got faster.\nBefore: 41.2 s\n"
    assert "41.2 s" in clean_body(prose, "mail")


def test_a_forwarded_message_and_marked_quotes_keep_the_reply():
    fw = "FYI.\n\nFrom: Bob\nSent: Monday\nTo: dev@x\nSubject: FW: scan\n\nBefore: 41.2 s\n"
    assert "41.2 s" in clean_body(fw, "mail")
    inline = "On Mon, Bob wrote:\n> Before: 41.2 s\n\nMine: 12 s\n"
    assert clean_body(inline, "mail") == "Mine: 12 s"


def test_a_code_block_s_lines_are_code_not_quotations():
    # (inside a code block the text opens and closes, `>` starts a prompt or a build
    # tool's step, as written; a quotation's code block is quoted fences and all)
    own = "Example:\n\n```\n>> x = ones(1, 3)\n\nx =\n\n     1     1     1\n```\n> Hi\n"
    assert (
        clean_body(own, "github")
        == "Example:\n\n```\n>> x = ones(1, 3)\n\nx =\n\n     1     1     1\n```"
    )
    quoted = "Agreed.\n\n> ```\n> >>> f(2)\n> 4\n> ```\n"
    assert clean_body(quoted, "github") == "Agreed."
    # (a line that opens with inline code opens no block: the quotation after the
    # block below it is still a quotation)
    inline = "```x=1``` fixes it.\n\n```\nrun.sh\n```\n> >> old numbers: 41 ms\n"
    assert clean_body(inline, "github") == "```x=1``` fixes it.\n\n```\nrun.sh\n```"
    # (a code block never closed keeps nothing quoted after it)
    unclosed = "Log:\n```\n> Task :core:test\n"
    assert clean_body(unclosed, "github") == "Log:\n```"


JIRA_REPLY_QUOTING_RESULTS = """Ravi Iyer commented on FOO-812:
-------------------------------

{quote}
With the patch the scan takes 41 s instead of 96 s, and p99 drops from 210 ms to 88 ms.
{quote}
Thanks for running this. I'll review the patch tomorrow.

bq. Heap usage went from 6.1 GB to 4.4 GB as well.
bq. (same cluster, same data)

Nice, that matters more to us than the scan time.
"""


def test_a_jira_quotation_is_not_the_comment_s_own_text():
    own = clean_body(JIRA_REPLY_QUOTING_RESULTS, "jira")
    assert "Thanks for running this" in own and "matters more to us" in own
    assert "41 s" not in own and "6.1 GB" not in own and "same cluster" not in own
    # (a mail that is no JIRA mail keeps its braces: `{quote}` is JIRA's markup only)
    assert "41 s" in clean_body(JIRA_REPLY_QUOTING_RESULTS, "github")


def test_a_flattened_comment_that_opens_with_a_quotation_keeps_its_reply():
    # (GitBox joins a comment's lines into one: the quotation's end is lost, and the
    # whole line starts with `>`; its first sentence is taken for the quotation)
    quote = "> Did the change help the cold start at all, or only the warm one? " * 5
    reply = "Yes: cold start went from 41 s to 28 s on my laptop, warm one unchanged."
    own = clean_body(quote + reply, "github")
    assert own.endswith(reply) and "Did the change help" not in own
    # (a short quoted line is a quotation whole, as before)
    assert clean_body("> it took 41 s before\nThanks!", "github") == "Thanks!"


@pytest.mark.parametrize(
    "attribution",
    [
        "On Mon, May 6, 2024 at 10:02 AM Bob <bob@example.org> wrote:",
        "Bob 于2024年5月6日周一 写道：",
    ],
)
def test_a_quotation_under_its_attribution_is_quoted_however_long_its_lines(attribution):
    # (a client that does not wrap sends each paragraph as one line: a quoted line
    # longer than a flattened one is still the quoted message's, not a flattened reply)
    paragraph = (
        "I reran the scan benchmark on the 8-node cluster with the patch applied, three "
        "times each, after dropping the page cache between runs so that every run reads "
        "from disk. The full scan went from 41.2 s to 33.8 s, and p99 latency of the point "
        "lookups fell from 210 ms to 88 ms, which is well beyond the run-to-run noise."
    )
    assert len(paragraph) > 300
    body = f"Thanks, I will take a look.\n\n{attribution}\n> {paragraph}\n>\n> Bob\n"
    assert clean_body(body, "mail") == "Thanks, I will take a look."


def test_a_flattened_reply_drops_the_quotation_its_attribution_opens():
    # (an emailed reply to a GitHub comment, flattened by GitBox: the reply, `On ...
    # wrote:`, then the quoted report on the same line, its lines marked with `>`)
    reply = "Nice, merging. "
    quoted = (
        "On Tue, Jun 4, 2024 at 9:00 AM alice <notifications@github.com> wrote: "
        "> I ran the reader benchmark three times each. > Before: 1,234 rows/ms, after: "
        "1,890 rows/ms. > | query | master (s) | PR (s) | > | q1 | 12.1 | 9.8 | "
        "> So roughly 50% better. "
    )
    assert clean_body(reply + quoted, "github") == "Nice, merging."
    # (the reply's own text after the quotation's last sentence stays)
    own = clean_body(reply + quoted + "Could you also run q2?", "github")
    assert own.startswith("Nice, merging.") and own.endswith("Could you also run q2?")
    assert "rows/ms" not in own and "12.1" not in own
    # (an attribution with no `>` after it is left to the other rules)
    assert "wrote" in clean_body("He wrote: the scan took 41 s, twice the old time.", "github")


def _review(rule_path: str, title: str, comment: str) -> str:
    return (
        f"##########\n{rule_path}\n##########\n"
        "@@ -120,7 +120,9 @@ public class Decoder {\n"
        "-        int size = 4096;\n+        int size = 65536;\n\n"
        f"{title}\n{comment}\n"
    )


def test_a_review_comment_keeps_its_text_not_the_diff_above_it():
    text = (
        "anndev commented on code in PR #14001:\n"
        "URL: https://github.com/apache/kafka/pull/14001#discussion_r1400000001\n\n\n"
        + _review("clients/src/main/java/Decoder.java:", "Review Comment:", "Scan: 41 ms -> 29 ms.")
        + "\n"
        + _review("File path: core/Log.scala", "Review comment:", "       Same here, 12% less.")
    )
    body = clean_body(text, "github")
    assert body == "Scan: 41 ms -> 29 ms.\n\n       Same here, 12% less."


def test_rules_that_open_no_review_block_stay():
    text = "Results\n##########\nq1 4.2 s\n\n##########\nnot a diff\n##########\nno comment here"
    assert clean._without_review_diffs(text) == text


# Commit mails in the layouts ASF's tools send (git-multimail's `git log --stat -p`,
# git-wip-us, svn), with a message and a diff written here.
_GITBOX_COMMIT = (
    "This is an automated email from the ASF dual-hosted git repository.\n\n"
    "anndev pushed a commit to branch trunk\n"
    "in repository https://gitbox.apache.org/repos/asf/kafka.git\n\n\n"
    "The following commit(s) were added to refs/heads/trunk by this push:\n"
    "     new 1a2b3c4d5e KAFKA-12345: Faster decoder (#14001)\n"
    "1a2b3c4d5e is described below\n\n"
    "commit 1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d\n"
    "Author: Ann Dev <ann@example.org>\n"
    "AuthorDate: Mon Dec 7 10:00:00 2026 +0000\n\n"
    "    KAFKA-12345: Faster decoder (#14001)\n\n"
    "    Decode in place. Fetch throughput:\n\n"
    "      before  412 MB/s\n"
    "      after   530 MB/s\n"
    "---\n"
    " clients/src/main/java/Decoder.java | 12 +++++++-----\n"
    " 1 file changed, 7 insertions(+), 5 deletions(-)\n\n"
    "diff --git a/clients/src/main/java/Decoder.java b/clients/src/main/java/Decoder.java\n"
    "index fc8666cf21..85bbaf2c77 100644\n"
    "@@ -120,7 +120,9 @@ public class Decoder {\n"
    "-        int size = 4096;\n"
    "+        int size = 65536;\n"
)


def test_a_commit_mail_keeps_its_message_and_diff_not_its_boilerplate():
    body = clean_body(_GITBOX_COMMIT, "commit")
    assert body.startswith(
        "KAFKA-12345: Faster decoder (#14001)\n\n"
        "Decode in place. Fetch throughput:\n\n"
        "  before  412 MB/s\n"
        "  after   530 MB/s\n\n"
        "diff --git a/clients/src/main/java/Decoder.java"
    )
    for boilerplate in ("automated email", "pushed a commit", "AuthorDate", "1 file changed"):
        assert boilerplate not in body


def test_the_commit_messages_of_the_older_layouts():
    wip = (
        "Repository: logging-log4j2\nUpdated Branches:\n"
        "  refs/heads/master c6b4182d8 -> d159edb62\n\n\n"
        "LOG4J2-1: Faster layout, 12% less garbage\n\n\n"
        "Project: http://git-wip-us.apache.org/repos/asf/logging-log4j2/repo\n"
        "Commit: http://git-wip-us.apache.org/repos/asf/logging-log4j2/commit/d159edb6\n\n"
        "Branch: refs/heads/master\n----\n src/Layout.java | 571 +++++\n"
    )
    assert clean.commit_text(wip).strip() == "LOG4J2-1: Faster layout, 12% less garbage"
    svn = (
        "Author: ann\nDate: Mon Dec  7 10:00:00 2026\nNew Revision: 741946\n\n"
        "URL: http://svn.apache.org/viewvc?rev=741946&view=rev\nLog:\n"
        "Faster index merge: 41 s -> 29 s\n\nModified:\n    lucene/java/trunk/Merge.java\n"
    )
    assert clean.commit_text(svn) == (
        "Faster index merge: 41 s -> 29 s\n\nModified:\n    lucene/java/trunk/Merge.java"
    )
    # (a text in none of the layouts is kept whole)
    assert clean.commit_text("just a mail\n\nwith 12 ms in it") == "just a mail\n\nwith 12 ms in it"


def test_a_jira_created_mail_keeps_the_description_not_the_fields():
    text = (
        "\n    [ https://issues.apache.org/jira/browse/KAFKA-12345 ]\n\n"
        "Ann Dev created KAFKA-12345:\n----------------------------\n\n"
        "             Summary: Faster decoder\n"
        "                 Key: KAFKA-12345\n"
        "                 URL: https://issues.apache.org/jira/browse/KAFKA-12345\n"
        "             Project: Kafka\n"
        "    Affects Versions: 3.6.0\n"
        "            Reporter: Ann Dev\n\n\n"
        "The decoder copies twice: 412 MB/s where 530 MB/s is possible.\n\n\n\n"
        "--\nThis message was sent by Atlassian Jira\n(v8.20.10#820010)\n"
    )
    assert (
        clean_body(text, "jira") == "The decoder copies twice: 412 MB/s where 530 MB/s is possible."
    )


def test_the_signature_after_its_separator_is_not_text():
    text = (
        "Ingest on the RC: 1.2M rows/s, up from 950k rows/s.\n\nBest,\nJohn\n\n"
        "-- \nJohn Doe\nStaff Engineer | Acme Corp\nOffice: 100 Main Street, Suite 2400\n"
    )
    assert (
        clean_body(text, "mail")
        == "Ingest on the RC: 1.2M rows/s, up from 950k rows/s.\n\nBest,\nJohn"
    )
    # (`--` without its blank is no separator: a rule, or a row of a table)
    assert "Suite 2400" in clean_body(text.replace("\n-- \n", "\n--\n"), "mail")


def test_phone_lines_of_a_signature_are_not_text():
    text = (
        "Thanks, I'll look next week.\n\nRegards,\nJane Roe\n"
        "Phone: +86 138 0013 8000 | Fax: +86 10 6552 9988\nMobile: +1 (555) 123-4567\n"
        "Tel 555-0100 ext 42\n"
    )
    assert clean_body(text, "mail") == "Thanks, I'll look next week.\n\nRegards,\nJane Roe"
    # (a word of them in a sentence, or a value that is no phone number, stays)
    kept = "Phone apps saw p99 at 12 ms.\nTel: n/a\n"
    assert clean_body(kept, "mail") == kept.strip()


def test_a_templates_html_comments_are_not_the_authors_text():
    # (GitHub does not show them; a template's guidance asks for benchmarks, and the
    # message then read as a request for them)
    body = (
        "## What does this PR do?\n<!-- Describe the purpose of this PR. -->\n"
        "Caches the lookup.\n\n"
        "## Benchmark\n<!--\nIf the PR has an impact on performance, please benchmark it\n"
        "first and attach the benchmark result here.\n-->\nscan: 116 ms -> 98 ms\n"
    )
    cleaned = clean_body(body, "github")
    assert "please benchmark" not in cleaned and "Describe the purpose" not in cleaned
    assert "Caches the lookup." in cleaned and "scan: 116 ms -> 98 ms" in cleaned


def test_an_unclosed_comment_keeps_the_text_after_it():
    # (an opening inside a line that is never closed on it is text, even with an arrow
    # `-->` further on)
    body = "Results below <!-- draft\nscan: 116 ms --> 98 ms\n"
    assert "scan: 116 ms --> 98 ms" in clean_body(body, "github")


def test_a_comment_in_code_or_in_plain_mail_is_kept():
    # (`<!--` in pasted XML is code; a mail that is not GitHub's is not Markdown)
    body = (
        "The profile:\n```xml\n<!-- the bench profile\n<threads>8</threads>\n```\n"
        "| query | time |\n|---|---|\n| q1 | 12 ms |\nthe config path --> docs.\n"
    )
    assert "| q1 | 12 ms |" in clean_body(body, "github")
    mail = "<!-- keep -->\nscan: 116 ms\n"
    assert "<!-- keep -->" in clean_body(mail, "mail")
