"""The report's HTML, without a browser: links, escaping, pages written, stale pages removed.
(The browser test, on the real pipeline's database, is test_report_browser.py.)"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from extract.outputs.report import build_report, links, svg
from extract.outputs.report.__main__ import main as report_main
from tests.outputs.report_db import make_db, measurement, message

HOSTILE = "<script>alert('x')</script><img src=x onerror=alert(1)>"


def test_links_only_of_known_shapes():
    assert links.issue_url("KUDU-1930") == "https://issues.apache.org/jira/browse/KUDU-1930"
    assert links.issue_url('KUDU-1930"><script>') is None
    assert links.issue_url("GH-41159", "arrow") == "https://github.com/apache/arrow/issues/41159"
    assert links.issue_url("GITHUB-11915", "lucene") == (
        "https://github.com/apache/lucene/issues/11915"
    )
    assert links.issue_url("GH-41159", None) is None
    assert links.pr_url("hive", 3644) == "https://github.com/apache/hive/pull/3644"
    assert links.pr_url("apache/hive", 3644) == "https://github.com/apache/hive/pull/3644"
    assert links.pr_url("../evil", 1) is None and links.pr_url("hive", None) is None
    assert links.permalink("https://lists.apache.org/thread/abc") is not None
    for bad in ("javascript:alert(1)", "http://evil.example/", 'https://lists.apache.org/"x'):
        assert links.permalink(bad) is None and links.known_url(bad) is None
    assert links.known_url("https://github.com/apache/hive/pull/1#issuecomment-2") is not None
    assert re.fullmatch(r"[0-9a-f]{24}\.html", links.page_name("../../etc/passwd"))


def test_charts_escape_labels_and_scale_bars():
    chart = svg.hbar_chart([(HOSTILE, 2, "2"), ("b", 1, "1")], title=HOSTILE)
    assert "<script>" not in chart and "<img" not in chart
    widths = [float(w) for w in re.findall(r'<rect [^>]*width="([\d.]+)"', chart)]
    assert widths[0] == pytest.approx(2 * widths[1])


def _hostile_db(tmp_path):
    msgs = [
        message(
            "evil", subject=HOSTILE, from_name=HOSTILE, body=f"numbers {HOSTILE}",
            issue_key="HIVE-1", repo="hive", pr_number=7, url="javascript:alert(1)",
            formats=["jmh"], sent_at=datetime(2019, 5, 1, tzinfo=UTC),
            list="issues@hive.apache.org",
        ),
        message("plain", list="dev@kudu.apache.org", sent_at=datetime(2021, 2, 1, tzinfo=UTC)),
        message("not-bench", is_benchmark=False),
    ]  # fmt: skip
    tables = [
        {"table_id": "evil#0", "msg_key": "evil", "ordinal": 0, "format": "jmh",
         "columns": [HOSTILE, "Score"], "rows": [[HOSTILE, "1.5"]], "source": HOSTILE},
    ]  # fmt: skip
    ms = [
        measurement("evil", 0, label=HOSTILE, variant="before", value=2, unit="s", value_si=2,
                    unit_si="s"),
        measurement("evil", 1, label=HOSTILE, variant="after", value=1, unit="s", value_si=1,
                    unit_si="s"),
    ]  # fmt: skip
    return make_db(tmp_path / "asf.duckdb", msgs, tables, ms)


def test_report_pages_escape_mail_and_link_out(tmp_path):
    db = _hostile_db(tmp_path)
    summary = build_report(db, tmp_path / "report")
    assert summary.n_messages == 2
    index = (tmp_path / "report" / "index.html").read_text()
    page = (tmp_path / "report" / "messages" / links.page_name("evil")).read_text()
    for html in (index, page):
        assert "<script>alert" not in html and "<img" not in html
        assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html
        assert "javascript:" not in html
        assert 'href="https://issues.apache.org/jira/browse/HIVE-1"' in html
        assert 'href="https://github.com/apache/hive/pull/7"' in html
        # only the report's own script may run (CSP by hash), none on message pages
        assert "Content-Security-Policy" in html
    assert len(re.findall(r"<script", index)) == 1 and "<script" not in page
    assert f'href="messages/{links.page_name("evil")}"' in index
    assert "not-bench" not in index  # only benchmark messages are listed
    projects = re.search(r'<table id="projects".*?</table>', index, re.S).group(0)
    assert re.findall(r"<tr><td>(\w+)</td>", projects) == ["hive", "kudu"]
    # the before/after chart and ratio on the message page
    assert 'class="chart comparison"' in page and "×0.5" in page


def test_report_removes_pages_of_messages_gone_and_cli_errors(tmp_path, capsys):
    db = _hostile_db(tmp_path)
    out = tmp_path / "report"
    stale = out / "messages" / ("0" * 24 + ".html")
    stale.parent.mkdir(parents=True)
    stale.write_text("old")
    keep = out / "messages" / "notes.txt"  # not ours: left alone
    keep.write_text("mine")
    assert report_main(["--db", str(db), "--out", str(out)]) == 0
    assert not stale.exists() and keep.exists()
    assert "2 message pages" in capsys.readouterr().out
    assert report_main(["--data-dir", str(tmp_path / "nowhere")]) == 1
    assert "no database" in capsys.readouterr().err


def test_report_of_a_database_without_benchmarks_says_so(tmp_path):
    db = make_db(tmp_path / "asf.duckdb", [message("a", is_benchmark=False)])
    summary = build_report(db, tmp_path / "report")
    index = summary.index.read_text()
    assert summary.n_messages == 0
    assert index.count("no data") == 2  # per-year and formats charts; the list chart has a bar
    assert re.search(r'<table id="messages".*<tbody>\s*</tbody>', index, re.S)
