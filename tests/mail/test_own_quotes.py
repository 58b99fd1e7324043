"""A `>` block in a GitHub comment is the author's own output when no attribution
introduces it and it is mostly machine output; a quotation stays a quotation."""

from __future__ import annotations

from extract.mail.clean import clean_body, unquote_own_output

LOG = (
    "The producer is slower than expected:\n\n"
    "> 10:01:02.100 INFO Producer - Throughput: 5120.4 msg/s --- 40.1 Mbit/s --- mean 3.1 ms\n"
    "> 10:01:12.100 INFO Producer - Throughput: 5098.7 msg/s --- 39.9 Mbit/s --- mean 3.3 ms\n"
)


def test_own_log_lines_set_as_a_blockquote_are_kept():
    body = clean_body(LOG, "github")
    assert "Throughput: 5120.4 msg/s" in body and "> 10:01" not in body


def test_a_quotation_under_an_attribution_is_removed():
    text = "Thanks!\n\nOn Tue, 2 Jan 2024 at 10:00, Ana wrote:\n" + LOG.split("\n\n", 1)[1]
    assert "5120.4" not in clean_body(text, "github")


def test_quoted_prose_is_a_quotation():
    text = "> I think this should be much faster now.\n\nI agree, merging."
    assert unquote_own_output(text) == text
    assert clean_body(text, "github") == "I agree, merging."


def test_only_github_comments_are_read_so():
    assert "5120.4" not in clean_body(LOG, "jira")
    assert "5120.4" not in clean_body(LOG, "mail")


# Gatling's console summary marks its own lines with `> `, in every kind of message.
GATLING = "\n".join(
    (
        "Load test of the branch:",
        "",
        "=" * 80,
        "---- Global Information ".ljust(80, "-"),
        "> request count                                      18000 (OK=18000  KO=-     )",
        "> mean response time                                   96 (OK=96     KO=-     )",
        "---- Response Time Distribution ".ljust(80, "-"),
        "> t < 800 ms                                         17991 (   100%)",
        "=" * 80,
        "",
        "> Is this with the cache enabled?",
        "",
        "Yes, it is.",
        "",
    )
)


def test_a_gatling_summary_keeps_its_lines_in_every_kind():
    for kind in ("mail", "jira", "github", None):
        body = clean_body(GATLING, kind)
        assert "mean response time" in body and "t < 800 ms" in body, kind
        assert "> mean response time" not in body  # (its marks taken off)
        assert "cache enabled" not in body  # (a quotation after it is still one)


def test_a_quoted_gatling_summary_stays_a_quotation():
    quoted = "".join("> " + line + "\n" for line in GATLING.split("\n\n")[1].splitlines())
    text = "On Mon, 3 Jun 2024 at 09:00, Ana wrote:\n" + quoted + "\nNice, merging.\n"
    assert "mean response time" not in clean_body(text, "mail")
