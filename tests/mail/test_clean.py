"""clean_body on the seeds (the user's real notification bodies) and on built replies."""

from __future__ import annotations

import pytest

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
