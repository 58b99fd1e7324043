"""The findings views (extract/db/findings.py) on archives of JIRA, GitBox and commit
mail built here (laid out as tests/make_sample.py lays out the demo's mail), run through
the real extractor into a real DuckDB file: series keys, claims, commit links, JIRA
resolutions and the `landed` chain from a benchmark comment to a release."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import duckdb
import pytest

from extract.__main__ import main
from extract.db import findings, schema
from extract.db.views import create_views
from tests import make_sample
from tests.archives import to_mbox, write_archive

JMH_BEFORE_AFTER = """Ran the JMH benchmark on my laptop, 3 forks, 5 iterations each.

Before the patch:
{{noformat}}
Benchmark                    (size)  Mode  Cnt     Score    Error  Units
WidgetBench.encode              {size}  thrpt   15  1000.000 ± 10.000  ops/s
WidgetBench.decode              {size}  thrpt   15  2000.000 ± 20.000  ops/s
{{noformat}}

After the patch:
{{noformat}}
Benchmark                    (size)  Mode  Cnt     Score    Error  Units
WidgetBench.encode              {size}  thrpt   15  {encode}  ± 10.000  ops/s
WidgetBench.decode              {size}  thrpt   15  2004.000 ± 20.000  ops/s
{{noformat}}

{words}
"""


def _at(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=UTC)


def jira(key, text, date, *, action="Commented", name="Ana Lopes", extra=None, stem=None):
    fields = {"Issue": key, "From": name, "Subject": "Make widgets faster", "Action": action}
    fields.update(extra or {})
    sender, subject, mid, body, hdrs = make_sample.jira_mail(
        fields, text, _at(date), stem or f"{key}-{date}-{action}"
    )
    return make_sample.build_message(
        "issues@widget.apache.org", sender, subject, _at(date), mid, body.encode(), hdrs
    )


def commit(subject, text, date, *, repo="widget", stem=None):
    fields = {"Repo": repo, "From": "ana", "Subject": subject, "Branch": "main"}
    sender, subj, mid, body, hdrs = make_sample.commit_mail(
        fields, text, _at(date), stem or subject
    )
    return make_sample.build_message(
        "commits@widget.apache.org", sender, subj, _at(date), mid, body.encode(), hdrs
    )


def github(number, text, date, *, title="Make widgets faster", kind="comment", stem=None):
    fields = {"From": "analopes", "Repo": "widget", "PR": str(number), "Subject": title}
    fields["Comment-Kind"] = kind
    address = "issues@widget.apache.org"
    sender, subject, mid, body, hdrs = make_sample.github_mail(
        fields, text, _at(date), address, stem or f"{number}-{date}"
    )
    return make_sample.build_message(address, sender, subject, _at(date), mid, body.encode(), hdrs)


def extract(tmp_path, archives: dict[tuple[str, str], list[bytes]]) -> duckdb.DuckDBPyConnection:
    data = tmp_path / "data"
    for (address, month), messages in archives.items():
        write_archive(data, address, month, to_mbox(messages))
    assert main(["--data-dir", str(data), "--workers", "1"]) == 0
    con = duckdb.connect(str(data / "asf.duckdb"))
    create_views(con)
    return con


def rows(con, sql, params=None) -> list[dict]:
    cur = con.execute(sql, params or [])
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


@pytest.fixture(scope="module")
def chain(tmp_path_factory):
    """WIDGET-12: a benchmark comment, a commit naming the key, a resolution with two
    fix versions. WIDGET-30: a benchmark comment, reopened after it was resolved.
    PR #77: a benchmark comment on GitHub and a commit that says `(#77)`."""
    tmp = tmp_path_factory.mktemp("chain")
    comment = JMH_BEFORE_AFTER.format(
        size=10, encode="2500.000", words="So encoding is about 2.5x faster with the patch."
    )
    second = JMH_BEFORE_AFTER.format(size=10, encode="1100.000", words="Second run, same box.")
    other_param = JMH_BEFORE_AFTER.format(size=100, encode="1000.500", words="")
    slower = JMH_BEFORE_AFTER.format(
        size=10, encode="800.000", words="Encoding got 20% slower, looking into it."
    )
    issues = [
        jira("WIDGET-12", comment, "2021-03-01 10:00"),
        jira("WIDGET-12", second, "2021-03-02 10:00"),
        jira("WIDGET-30", slower, "2021-03-03 10:00"),
        jira(
            "WIDGET-12",
            "Pushed to main, thanks.",
            "2021-03-20 12:00",
            action="Resolved",
            extra={"Resolution": "Fixed", "Fix-Version": "1.2.0, 2.0.0"},
        ),
        jira(
            "WIDGET-30",
            "Done.",
            "2021-03-21 12:00",
            action="Resolved",
            extra={"Resolution": "Fixed", "Fix-Version": "2.0.0"},
        ),
        github(77, other_param, "2021-03-05 09:00"),
    ]
    reopened = (
        "\n     [ https://issues.apache.org/jira/browse/WIDGET-30?page=com.atlassian.jira."
        "plugin.system.issuetabpanels:all-tabpanel ]\n\nAna Lopes reopened WIDGET-30.\n"
        "-----------------------------\n        Resolution:     (was: Fixed)\n\n"
        "Still slower on ARM.\n"
    )
    updated = (
        "\n     [ https://issues.apache.org/jira/browse/WIDGET-60?page=com.atlassian.jira."
        "plugin.system.issuetabpanels:all-tabpanel ]\n\nAna Lopes updated WIDGET-60:\n"
        "----------------------------\n    Fix Version/s: 3.0.0\n"
        "                       (was: 2.0.0)\n\n> Make widgets faster\n> ----\n>\n"
        ">             Fix For: 2.0.0\n"
    )
    issues.append(
        make_sample.build_message(
            "issues@widget.apache.org",
            '"Ana Lopes (Jira)" <jira@apache.org>',
            "[jira] [Updated] (WIDGET-60) Make widgets faster",
            _at("2021-03-25 08:00"),
            "<JIRA.updated.60@Atlassian.JIRA>",
            updated.encode(),
        )
    )
    issues.append(
        jira(
            "WIDGET-60",
            "Released.",
            "2021-03-26 08:00",
            action="Closed",
            extra={"Resolution": "Done"},
        )
    )
    moment = _at("2021-04-02 08:00")
    issues.append(
        make_sample.build_message(
            "issues@widget.apache.org",
            '"Ana Lopes (Jira)" <jira@apache.org>',
            "[jira] [Reopened] (WIDGET-30) Make widgets faster",
            moment,
            "<JIRA.reopened.30@Atlassian.JIRA>",
            reopened.encode(),
        )
    )
    commits = [
        commit("WIDGET-12: encode widgets in place", "Closes #81", "2021-03-19 18:00"),
        commit(
            "Decode widgets lazily (#77)",
            "Also fixes WIDGET-99 on the way.\n\nThis closes #78",
            "2021-03-22 18:00",
        ),
        commit(
            "Trim widget buffers",
            "See https://github.com/apache/widget-site/pull/5 for the docs.",
            "2021-03-23 18:00",
        ),
    ]
    merged = make_sample.build_message(
        "issues@widget.apache.org",
        "GitBox <git@apache.org>",
        "[GitHub] [widget] analopes merged pull request #91: Faster widgets",
        _at("2021-05-02 10:00"),
        "<merged-91@gitbox.apache.org>",
        b"analopes merged pull request #91: Faster widgets\n"
        b"URL: https://github.com/apache/widget/pull/91\n",
    )
    # one JMH benchmark written twice: parameters in another order, label in other case
    params_ab = (
        "Benchmark                     (a)  (b)  Mode  Cnt   Score   Error  Units\n"
        "Bench.run                       1    2  avgt    5  10.000 ± 0.100  ms/op\n"
    )
    params_ba = (
        "Benchmark                     (b)  (a)  Mode  Cnt   Score   Error  Units\n"
        "bench.RUN                       2    1  avgt    5  11.000 ± 0.100  ms/op\n"
    )
    prose = (
        "I reran the import of 40 GB on the same cluster: it took 31 minutes before "
        "and 12 minutes with the patch, so roughly 2.6 times faster. hyperfine on the dry "
        "run says it is 1.50 ± 0.05 times faster.\n"
    )
    con = extract(
        tmp,
        {
            ("issues@widget.apache.org", "2021-03"): issues[:-1],
            ("issues@widget.apache.org", "2021-04"): issues[-1:],
            ("commits@widget.apache.org", "2021-03"): commits,
            ("issues@widget.apache.org", "2021-05"): [merged],
            ("issues@widget.apache.org", "2021-06"): [
                jira("WIDGET-40", params_ab, "2021-06-01 10:00"),
                jira("WIDGET-41", params_ba, "2021-06-02 10:00"),
            ],
            ("issues@widget.apache.org", "2021-07"): [jira("WIDGET-50", prose, "2021-07-01 10:00")],
        },
    )
    yield con
    con.close()


def test_every_findings_view_is_created(chain):
    names = {
        r[0]
        for r in chain.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_type = 'VIEW'"
        ).fetchall()
    }
    assert set(findings.VIEW_NAMES) <= names


def test_the_chain_from_benchmark_comment_to_release(chain):
    """The `landed` row of the WIDGET-12 benchmark comment names the commit that fixed
    the issue and both fix versions of the resolution mail."""
    landed = rows(
        chain,
        "SELECT * FROM landed WHERE issue_key = 'WIDGET-12' ORDER BY sent_at",
    )
    assert len(landed) == 2  # both benchmark comments are claims
    first = landed[0]
    assert first["committed"] and first["n_commits"] == 1
    (c,) = first["commits"]
    assert c["title"] == "WIDGET-12: encode widgets in place"
    assert c["repo"] == "widget" and c["branch"] == "main" and len(c["commit_id"]) == 40
    assert first["first_committed_at"] == _at("2021-03-19 18:00")
    assert first["resolved"] and first["resolution"] == "Fixed"
    assert first["fix_versions"] == ["1.2.0", "2.0.0"]
    assert first["resolved_at"] == _at("2021-03-20 12:00")


def test_a_reopened_issue_is_not_resolved(chain):
    (row,) = rows(chain, "SELECT * FROM landed WHERE issue_key = 'WIDGET-30'")
    assert row["resolved"] is False
    assert not row["committed"]  # no commit names WIDGET-30
    events = rows(
        chain,
        "SELECT status, resolution FROM jira_resolutions WHERE issue_key = 'WIDGET-30' "
        "ORDER BY sent_at",
    )
    assert [e["status"] for e in events] == ["Resolved", "Reopened"]


def test_fix_versions_changed_then_closed(chain):
    events = rows(
        chain,
        "SELECT action, status, resolution, fix_versions FROM jira_resolutions "
        "WHERE issue_key = 'WIDGET-60' ORDER BY sent_at",
    )
    assert events == [
        {"action": "Updated", "status": None, "resolution": None, "fix_versions": ["3.0.0"]},
        {"action": "Closed", "status": "Closed", "resolution": "Done", "fix_versions": None},
    ]
    (issue,) = rows(chain, "SELECT * FROM resolutions WHERE issue_key = 'WIDGET-60'")
    assert issue["resolved"] and issue["resolution"] == "Done"
    assert issue["fix_versions"] == ["3.0.0"] and issue["mails"] == 2


def test_a_pr_claim_lands_through_a_commit_that_names_the_pr(chain):
    (row,) = rows(chain, "SELECT * FROM landed WHERE pr_number = 77")
    assert row["ref"] == "widget#77" and row["committed"]
    assert row["commits"][0]["title"] == "Decode widgets lazily (#77)"
    assert row["resolved"] is False and row["fix_versions"] is None


def test_commit_links_of_each_kind(chain):
    links = {
        (r["link"], r["issue_key"], r["pr_repo"], r["pr_number"], r["found_in"])
        for r in rows(chain, "SELECT * FROM commit_links WHERE kind = 'commit'")
    }
    assert links == {
        ("issue", "WIDGET-12", "widget", None, "subject"),
        ("pr", None, "widget", 81, "closes #N"),
        ("pr", None, "widget", 77, "(#N)"),
        ("issue", "WIDGET-99", "widget", None, "message"),
        ("pr", None, "widget", 78, "closes #N"),
        ("pr", None, "widget-site", 5, "pull link"),
    }


def test_a_merged_notification_links_its_pr(chain):
    (link,) = rows(chain, "SELECT * FROM commit_links WHERE kind = 'github'")
    assert (link["link"], link["pr_repo"], link["pr_number"]) == ("pr", "widget", 91)
    assert link["found_in"] == "merged notification"


def test_same_benchmark_in_two_messages_is_one_series(chain):
    keys = rows(
        chain,
        """SELECT params, count(DISTINCT msg_key) AS messages, list(DISTINCT series_key) AS keys,
                  list(DISTINCT variant) AS variants
           FROM measurement_series
           WHERE label = 'WidgetBench.encode' AND metric = 'Score' GROUP BY params
           ORDER BY params""",
    )
    assert [k["params"] for k in keys] == ["size=10", "size=100"]
    ten, hundred = keys
    assert len(ten["keys"]) == 1 and ten["messages"] == 3  # before and after: one series
    assert len(ten["variants"]) == 2
    assert len(hundred["keys"]) == 1 and hundred["keys"] != ten["keys"]
    (series,) = rows(chain, "SELECT * FROM series WHERE series_key = ?", [ten["keys"][0]])
    assert series["messages"] == 3 and series["measurements"] == 6
    assert series["first_seen"] == _at("2021-03-01 10:00")
    assert series["last_seen"] == _at("2021-03-03 10:00")
    assert series["lists"] == ["issues@widget.apache.org"] and series["unit"] == "1/s"


def test_series_key_ignores_case_spacing_and_parameter_order(chain):
    got = rows(
        chain,
        "SELECT msg_key, label, params, series_key FROM measurement_series "
        "WHERE lower(label) = 'bench.run' AND metric = 'Score'",
    )
    assert len(got) == 2 and len({r["msg_key"] for r in got}) == 2
    assert len({r["series_key"] for r in got}) == 1, got


def test_claims_give_pairs_direction_noise_and_the_messages_words(chain):
    claims = {
        (r["issue_key"] or r["ref"], r["sent_at"]): r for r in rows(chain, "SELECT * FROM claims")
    }
    fast = claims[("WIDGET-12", _at("2021-03-01 10:00"))]
    assert fast["ref"] == "WIDGET-12" and fast["pairs"] == 2
    assert fast["improvements"] == 1 and fast["within_noise"] == 1
    assert fast["direction"] == "improvement"
    assert math.isclose(fast["best_speedup"], 2.5) and math.isclose(fast["best_ratio"], 2.5)
    assert "WidgetBench.encode" in fast["best_pair"]
    assert fast["noise_stated"] and fast["outside_noise"]
    assert fast["claimed_words"] == ["2.5x faster"]
    assert math.isclose(fast["claimed_factor"], 2.5)

    slow = claims[("WIDGET-30", _at("2021-03-03 10:00"))]
    assert slow["direction"] == "regression" and slow["regressions"] == 1
    assert math.isclose(slow["worst_speedup"], 0.8)
    assert slow["claimed_words"] == ["20% slower"]
    assert math.isclose(slow["claimed_factor"], 1 / 1.2)

    quiet = claims[("WIDGET-12", _at("2021-03-02 10:00"))]
    assert quiet["claimed_words"] == [] and quiet["claimed_factor"] is None
    assert math.isclose(quiet["best_speedup"], 1.1)


def test_prose_claims_without_tables(chain):
    (claim,) = rows(chain, "SELECT * FROM claims WHERE issue_key = 'WIDGET-50'")
    # (31 minutes before and 12 with the patch: one pair, and the words agree with it)
    assert claim["pairs"] == 1 and math.isclose(claim["best_speedup"], 31 / 12)
    assert claim["claim_check"] == "agrees"
    assert claim["claimed_words"] == ["2.6 times faster", "1.50 ± 0.05 times faster"]
    assert math.isclose(claim["claimed_factor"], 2.6)  # the largest claim speaks


def test_findings_views_on_an_empty_database():
    con = duckdb.connect(":memory:")
    for sql in schema.create_statements():
        con.execute(sql)
    create_views(con)
    for name in findings.VIEW_NAMES:
        assert con.execute(f"SELECT count(*) FROM {name}").fetchone() == (0,)


def test_the_demo_sample_carries_a_full_chain(tmp_path):
    """data/sample: the JMH comment on KAFKA-7311, the commit naming it and PR #5571,
    the resolution with fix version 2.1.0; the same benchmark again on KAFKA-7524."""
    from tests.archives import sample_as_archives

    data = tmp_path / "data"
    sample_as_archives(data)
    assert main(["--data-dir", str(data), "--workers", "1"]) == 0
    con = duckdb.connect(str(data / "asf.duckdb"), read_only=True)
    try:
        (kafka,) = rows(con, "SELECT * FROM landed WHERE issue_key = 'KAFKA-7311'")
        assert kafka["kind"] == "jira" and kafka["direction"] == "improvement"
        assert kafka["committed"] and kafka["commits"][0]["repo"] == "kafka"
        assert kafka["commits"][0]["committed_at"] > kafka["sent_at"]
        assert kafka["resolved"] and kafka["fix_versions"] == ["2.1.0"]
        assert kafka["resolved_at"] > kafka["commits"][0]["committed_at"]
        (series,) = rows(
            con,
            "SELECT * FROM series WHERE label = 'RecordBatchIterationBenchmark.measureValidation'"
            " AND params = 'bufferSupplierStr=CREATE, bytes=RANDOM' AND metric = 'Score'",
        )
        assert series["messages"] == 2 and series["measurements"] == 4
        landed = rows(
            con, "SELECT ref FROM landed WHERE best_speedup > 2 AND committed AND resolved"
        )
        assert {r["ref"] for r in landed} >= {"LANG-1592"}
    finally:
        con.close()
