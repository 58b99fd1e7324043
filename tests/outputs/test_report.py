"""The report's HTML, without a browser: links, escaping, pages written, stale pages removed.
(The browser test, on the real pipeline's database, is test_report_browser.py.)"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from html import unescape

import duckdb
import pytest

from extract.outputs.report import build_report, links, svg
from extract.outputs.report.__main__ import main as report_main
from tests.outputs.report_db import insert, make_db, measurement, message

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


def test_report_counts_recorded_errors_and_lists_them_escaped(tmp_path):
    db = make_db(tmp_path / "asf.duckdb", [message("a")])
    con = duckdb.connect(str(db))
    hostile = "<script>alert('x')</script>"
    for i in range(3):
        insert(
            con,
            "errors",
            archive=f"raw/x.apache.org/dev/2020-0{i + 1}.mbox.gz",
            position=i,
            message_id=f"{hostile}@mid",
            stage="parse",
            reason=f"no headers: the message does not start with a header block {hostile}",
        )
    insert(con, "errors", archive="raw/<b>locked</b>/", stage="read",
           reason="directory not readable: Permission denied")  # fmt: skip
    con.close()
    build_report(db, tmp_path / "report")
    index = (tmp_path / "report" / "index.html").read_text()
    card = re.search(r'<div class="card"><b><a href="errors.html">(\d+)</a></b>', index)
    assert card and card.group(1) == "4"
    errors = (tmp_path / "report" / "errors.html").read_text()
    assert "<script>alert" not in errors and "<b>locked" not in errors
    assert errors.count("&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;@mid") == 3
    assert "raw/&lt;b&gt;locked&lt;/b&gt;/" in errors
    kinds = re.findall(r"<tr><td>(\w+)</td><td>([^<]*)</td><td class='num'>(\d+)</td>", errors)
    assert kinds == [("parse", "no headers", "3"), ("read", "directory not readable", "1")]

    # An empty errors table says so.
    build_report(make_db(tmp_path / "clean.duckdb", [message("a")]), tmp_path / "clean")
    assert "No errors were recorded" in (tmp_path / "clean" / "errors.html").read_text()


# ------------------------------------------------------------------ report polish (issue 13)


def _pair(key: str, ordinal: int, label: str, before: float, after: float, **fields) -> list:
    """A before/after pair of one label, as the extractor stores it."""
    common = {"label": label, "unit": "ms", "unit_si": "s", **fields}
    return [
        measurement(key, ordinal, variant="before", value=before, value_si=before / 1e3,
                    **common),
        measurement(key, ordinal + 1, variant="after", value=after, value_si=after / 1e3,
                    **common),
    ]  # fmt: skip


def _polish_db(tmp_path):
    msgs = [
        message("gitbox", from_name="GitBox", from_address="git@apache.org", actor="alice-dev",
                kind="github", subject="queries"),
        message("jira", from_name="Bo Chen (Jira)", from_address="jira@apache.org",
                actor="Bo Chen", kind="jira", sent_at=datetime(2020, 2, 1, tzinfo=UTC)),
        message("plain", from_name="Carla Diaz", sent_at=datetime(2020, 3, 1, tzinfo=UTC)),
    ]  # fmt: skip
    tables = [
        {"table_id": "gitbox#0", "msg_key": "gitbox", "ordinal": 0, "format": "markdown-table",
         "columns": ["query", "Mode", "before (ms)", "after (ms)"],
         "rows": [["q10", "avgt", "9714.47", "8000.5"], ["q2", "avgt", "-3.25 %", "12 ms/op"],
                  ["a long label that may wrap", "avgt", "1,234,567", "1e-05"]],
         "source": "| query | ..."},
    ]  # fmt: skip
    ms = []
    for i, label in enumerate(["q10", "q2", "q1", "q1b"]):  # stored in text order's disorder
        ms += _pair("gitbox", 2 * i, label, 100 + i, 50 + i, table_id="gitbox#0")
    return make_db(tmp_path / "asf.duckdb", msgs, tables, ms)


def test_report_sorts_labels_in_natural_order(tmp_path):
    from extract.outputs.report import pages

    labels = ["q10", "q2", "q1", "Q3", None, "q01", "x" + "9" * 5000]
    assert sorted(labels, key=pages.natural_key) == [
        None, "q1", "q01", "q2", "Q3", "q10", "x" + "9" * 5000,
    ]  # fmt: skip
    db = _polish_db(tmp_path)
    build_report(db, tmp_path / "report")
    page = (tmp_path / "report" / "messages" / links.page_name("gitbox")).read_text()
    table = re.search(r'<table class="data comparisons">.*?</table>', page, re.S).group(0)
    labels = re.findall(r"<tr><td class='label'>([^<]*)</td>", table)
    assert labels == ["q1", "q1b", "q2", "q10"]
    chart = re.search(r'<svg class="chart comparison".*?</svg>', page, re.S).group(0)
    charted = re.findall(r'<g class="label"><title>(q[^<]*) / Score</title>', chart)
    assert charted == labels
    # the index's sorting compares text in natural order too
    index = (tmp_path / "report" / "index.html").read_text()
    assert "localeCompare(y, undefined, {numeric: true})" in index


def test_report_shows_the_actor_as_sender(tmp_path):
    db = _polish_db(tmp_path)
    build_report(db, tmp_path / "report")
    index = (tmp_path / "report" / "index.html").read_text()
    senders = dict(
        (subject, sender)
        for sender, subject in re.findall(
            r'<td data-v="[^"]*" title="[^"]*">([^<]*)</td><td data-v="([^"]*)" title="[^"]*">'
            r'<a class="page"',
            index,
        )
    )
    assert senders == {"queries": "alice-dev", "subject of jira": "Bo Chen",
                       "subject of plain": "Carla Diaz"}  # fmt: skip
    assert 'title="GitBox &lt;git@apache.org&gt;"' in index  # the gateway, on hover
    page = (tmp_path / "report" / "messages" / links.page_name("gitbox")).read_text()
    shown = re.search(r"<dt>from</dt><dd>(.*?)</dd>", page).group(1)
    assert shown.startswith("alice-dev ") and "GitBox" in shown  # gateway after the actor
    page = (tmp_path / "report" / "messages" / links.page_name("jira")).read_text()
    assert re.search(r"<dt>from</dt><dd>(.*?)</dd>", page).group(1) == "Bo Chen"


def test_message_page_shows_msg_key_and_a_ready_sql_snippet(tmp_path):
    import html

    key = "o'brien<b>@x; DROP TABLE messages; --"
    ms = _pair(key, 0, "q1", 10, 5) + _pair(key, 2, "q2", 20, 10)
    db = make_db(tmp_path / "asf.duckdb", [message(key), message("other")], (),
                 ms + _pair("other", 0, "q1", 1, 2))  # fmt: skip
    build_report(db, tmp_path / "report")
    page = (tmp_path / "report" / "messages" / links.page_name(key)).read_text()
    assert "<b>@x" not in page  # escaped for HTML
    assert f'<code class="msg-key">{html.escape(key)}</code>' in page
    snippet = html.unescape(re.search(r'<pre class="sql">(.*?)</pre>', page, re.S).group(1))
    assert "msg_key = 'o''brien<b>@x; DROP TABLE messages; --'" in snippet
    con = duckdb.connect(str(db), read_only=True)
    try:  # the snippet runs as it is and selects exactly this message's rows
        results = [con.execute(stmt).fetchall() for stmt in snippet.split(";\n")]
    finally:
        con.close()
    assert len(results[0]) == 4 and {r[0] for r in results[0]} == {key}
    assert len(results[1]) == 2


def test_numbers_and_headers_never_break_inside_a_token(tmp_path):
    from extract.outputs.report import pages

    db = _polish_db(tmp_path)
    build_report(db, tmp_path / "report")
    page = (tmp_path / "report" / "messages" / links.page_name("gitbox")).read_text()
    result = re.search(r'<table class="data result-table">.*?</table>', page, re.S).group(0)
    for number in ("9714.47", "8000.5", "-3.25 %", "12 ms/op", "1,234,567", "1e-05"):
        assert f"<td class='num'>{number}</td>" in result
    assert "<td class='text'>q10</td>" in result
    assert "<td class='text'>a long label that may wrap</td>" in result
    # no rule for tables lets a cell break inside a word (only code, e.g. the msg_key, may;
    # a label's long words break where the page puts a <wbr>)
    rules = re.findall(r"([^{}]+)\{([^{}]*)\}", re.sub(r"/\*.*?\*/", "", pages.CSS, flags=re.S))
    for selector, decl in rules:
        if re.search(r"\b(table|th|td)\b", selector):
            assert "anywhere" not in decl and "break-all" not in decl, selector
    assert any("anywhere" in decl for _, decl in rules)  # (the rules were found)
    css = pages.CSS
    nowrap = re.search(r"([^{}]*)\{ white-space: nowrap; \}", css).group(1)
    assert {"table.data td.num", "table.data td.date"} <= {s.strip() for s in nowrap.split(",")}
    # headers wrap between words only; a long word of a label breaks at its dots and humps
    assert "<th class='num'>before (ms)</th>" in result
    assert pages.breakable("Bench.measureIt") == "Bench.measureIt"  # short words stay whole
    assert pages.breakable("RecordBatchBenchmark.measureValidation").split("<wbr>") == [
        "Record", "Batch", "Benchmark.", "measure", "Validation"]  # fmt: skip
    assert "<wbr>" not in pages.breakable("version-1.5.0-and-more-words")  # not in numbers
    assert pages.breakable("<script>alert(1)</script>_" * 2).count("<script") == 0
    # the comparisons' numbers are numeric cells too
    table = re.search(r'<table class="data comparisons">.*?</table>', page, re.S).group(0)
    assert re.findall(r"<td class='num ratio'>([^<]*)</td>", table)[0] == "×0.51"  # q1: 52/102


def in_order(shown: str, full: str) -> bool:
    """Every piece of `shown` between its ellipses is in `full`, in that order."""
    at = 0
    for piece in shown.split("…"):
        found = full.find(piece, at)
        if found < 0:
            return False
        at = found + len(piece)
    return True


def _chart_labels(chart: str) -> list[tuple[str, str]]:
    return [
        (unescape(full), unescape(shown))
        for full, shown in re.findall(
            r'<g class="label"><title>([^<]*)</title><text[^>]*>([^<]*)</text>', chart
        )
    ]


def test_chart_labels_keep_the_metric_and_show_the_full_label(tmp_path):
    long_label = "TeraGen 1TB with a very long benchmark name indeed / GCS / Mean Inference Time"
    chart = svg.pair_bars([(long_label, "before", 2, "after", 1, "×0.5")], title="t")
    full, shown = _chart_labels(chart)[0]
    assert full == long_label
    assert shown != long_label and shown.endswith(" / Mean Inference Time") and "…" in shown
    assert shown.startswith("TeraGen") and in_order(shown, full)
    long_list = "common-issues-and-more-issues@hadoop-and-friends.apache.org"
    bars = svg.hbar_chart([(long_list, 1, "100%")], title="t")
    full, shown = _chart_labels(bars)[0]
    assert full == long_list and "…" in shown and len(shown) < len(full)
    assert shown.startswith("common") and in_order(shown, full)
    # a short label is shown whole
    assert "<text" in svg.pair_bars([("q1 / Score", "b", 1, "a", 2, "")], title="t")
    assert ">q1 / Score</text>" in svg.pair_bars([("q1 / Score", "b", 1, "a", 2, "")], title="t")


def test_chart_labels_keep_the_part_that_differs():
    """Labels that differ in the middle (a parameter, a method) stay apart when cut:
    the words all labels of a chart share are left out first."""
    bench = "RecordBatchIterationBenchmark.{} / bufferSupplierStr={}, bytes=RANDOM / Score"
    labels = [bench.format("measureValidation", "CREATE"),
              bench.format("measureValidation", "NO_CACHING"),
              bench.format("measureIteratorForBatchWithSingleMessage", "CREATE")]  # fmt: skip
    for n in (24, 34, 47, 60):
        shown = svg.fit_labels(labels, n)
        assert all(len(s) <= n for s in shown), shown
        assert len(set(shown)) == len(labels), (n, shown)
        assert all(in_order(s, full) for s, full in zip(shown, labels, strict=True))
    shown = svg.fit_labels(labels, 47)
    assert "CREATE" in shown[0] and "NO_CACHING" in shown[1] and "measureValidation" in shown[0]
    # the side names of a pair chart too ("Async flush, with…" twice before)
    chart = svg.pair_bars(
        [("q1", "Async flush, before the change", 2, "Async flush, with the change", 1, "")],
        title="t",
    )
    names = [shown for full, shown in _chart_labels(chart) if full.startswith("Async")]
    assert len(names) == 2 and len(set(names)) == 2
    assert "before" in names[0] and "with" in names[1]
    # labels alike but for their ends stay apart as well
    ends = ["x" * 40 + "-a", "x" * 40 + "-b"]
    assert len(set(svg.fit_labels(ends, 20))) == 2
    # labels that fit are shown whole, and one label alone keeps its start and end
    assert svg.fit_labels(["q1", "q2"], 10) == ["q1", "q2"]
    assert svg.fit_labels([], 10) == []


def test_numbers_are_printed_as_written():
    """No exponent the message did not use: values of a million and more print in full
    (1.80335e+06 before), computed ones to 6 digits, counts with separators."""
    from extract.outputs.numbers import count_text, number_text, rounded

    assert number_text(1803345.402) == "1803345.402"
    assert number_text(1204331.0) == "1204331"
    assert number_text(2e6) == "2000000"
    assert number_text(0.000123) == "0.000123"
    assert number_text(5e-7) == "0.0000005"
    assert number_text(100.00000000000001) == "100"  # float noise does not show
    assert number_text(65.7479751125821) == "65.748"  # computed: 6 digits
    assert number_text(-0.0) == "0" and number_text(None) == ""
    assert number_text(float("nan")) == "NaN" and number_text(float("-inf")) == "−∞"
    assert number_text(1e300) == "1e+300"  # nobody writes 300 digits
    assert rounded(1234.5, 3) == "1230" and rounded(0.01234, 2) == "0.012"
    assert count_text(1073) == "1,073" and count_text(12) == "12"
    assert svg.fmt(3871026.0) == "3871026"


def test_the_message_text_marks_the_numbers_stored_from_it():
    from extract.outputs.report.pages import marked_body

    body = "took <12> ms & 7 s"
    numbers = [
        {"span_start": 6, "span_end": 8, "label": "a<b", "metric": "time", "unit": "ms"},
        {"span_start": 15, "span_end": 16, "label": "x", "metric": "t", "unit": "s"},
        {"span_start": 7, "span_end": 9, "label": "overlaps", "metric": "", "unit": ""},
        {"span_start": 40, "span_end": 45, "label": "outside", "metric": "", "unit": ""},
    ]
    html = marked_body(body, numbers)
    assert html == (
        'took &lt;<mark class="num" title="a&lt;b · time · ms">12</mark>&gt; ms &amp; '
        '<mark class="num" title="x · t · s">7</mark> s'
    )
    assert marked_body(body, []) == "took &lt;12&gt; ms &amp; 7 s"
