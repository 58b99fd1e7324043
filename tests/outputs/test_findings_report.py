"""The report's findings pages (extract/outputs/report/findings.py) on a database the real
extractor wrote from JIRA and commit mail built here: the claims page, a page per issue
with its claims, pairs, commit and fix versions, the series page's charts, escaping."""

from __future__ import annotations

import csv
import html
import json
import re

import pytest

from extract.__main__ import main
from extract.outputs.export import main as export_main
from extract.outputs.report import build_report, links
from extract.outputs.report import findings as report_findings
from tests.archives import to_mbox, write_archive
from tests.db.test_findings import JMH_BEFORE_AFTER, _at, commit, jira

HOSTILE = "<script>alert(1)</script><img src=x onerror=alert(1)>"


def _text(page: str) -> str:
    """The page's visible text, tags removed and entities decoded."""
    page = re.sub(r"<(style|script)>.*?</\1>", "", page, flags=re.S).replace("<wbr>", "")
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("findings-report")
    data = tmp / "data"
    first = JMH_BEFORE_AFTER.format(size=10, encode="3000.000", words="About 3x faster.")
    again = JMH_BEFORE_AFTER.format(size=10, encode="2900.000", words="")
    hostile = (
        f"Timings for {HOSTILE}:\n\n| query | before (ms) | after (ms) |\n|---|---|---|\n"
        f"| {HOSTILE} | 120 | 80 |\n| q2 | 200 | 100 |\n"
    )
    issues = [
        jira("WIDGET-12", first, "2021-03-01 10:00"),
        jira("WIDGET-12", again, "2021-06-01 10:00"),
        jira("WIDGET-13", hostile, "2021-03-02 10:00", extra={"Subject": HOSTILE}),
        jira(
            "WIDGET-12",
            "Pushed, thanks.",
            "2021-06-20 12:00",
            action="Resolved",
            extra={"Resolution": "Fixed", "Fix-Version": "1.2.0, 2.0.0"},
        ),
    ]
    write_archive(data, "issues@widget.apache.org", "2021-03", to_mbox(issues[:1] + issues[2:3]))
    write_archive(data, "issues@widget.apache.org", "2021-06", to_mbox([issues[1], issues[3]]))
    commits = [commit("WIDGET-12: encode widgets in place", "", "2021-06-19 18:00")]
    write_archive(data, "commits@widget.apache.org", "2021-06", to_mbox(commits))
    assert main(["--data-dir", str(data), "--workers", "1"]) == 0
    out = tmp / "report"
    build_report(data / "asf.duckdb", out)
    return out


@pytest.fixture(scope="module")
def exported(report):
    data = report.parent / "data"
    assert export_main(["--data-dir", str(data), "--no-dataset", "--format", "csv"]) == 0
    return data / "export"


def test_the_index_links_the_findings_pages(report):
    index = (report / "index.html").read_text()
    assert 'href="findings/claims.html"' in index and 'href="findings/series.html"' in index


def test_claims_page_lists_the_largest_speed_ups_and_whether_they_landed(report):
    page = (report / "findings" / "claims.html").read_text()
    speedups = page.split('id="speedups"')[1].split('id="regressions"')[0]
    rows = re.findall(r"<tr>(.*?)</tr>", speedups, re.S)
    first = _text(rows[1])  # rows[0] is the header
    assert "WIDGET-12" in first and "3×" in first and "About 3x faster" not in first
    assert "3x faster" in first and "fixed in 1.2.0, 2.0.0" in first
    assert "committed (1 commit)" in first
    # links: the issue's page and the message's page, by hash
    ref = report_findings.ref_page("WIDGET-12")
    assert f'href="refs/{ref}"' in rows[1]
    assert re.search(r'href="\.\./messages/[0-9a-f]{24}\.html"', rows[1])
    assert (report / "findings" / "refs" / ref).exists()


def test_an_issue_page_shows_its_claims_pairs_commits_and_fix_versions(report):
    page = (report / "findings" / "refs" / report_findings.ref_page("WIDGET-12")).read_text()
    text = _text(page)
    assert text.count("[jira] [Commented] (WIDGET-12)") == 2  # both claims, in order
    assert text.index("2021-03-01") < text.index("2021-06-01")
    assert "WidgetBench.encode" in text and "size=10" in text and "improvement" in text
    assert "±1%" in text or "±2%" in text  # the pair's stated noise (Error / Score)
    assert "WIDGET-12: encode widgets in place" in text and "2021-06-19" in text
    assert "1.2.0, 2.0.0" in text and "Fixed" in text
    assert links.issue_url("WIDGET-12") in page


def test_series_page_charts_a_series_seen_twice(report):
    page = (report / "findings" / "series.html").read_text()
    sections = re.findall(r"<section class='series'.*?</section>", page, re.S)
    encode = [s for s in sections if "WidgetBench.encode" in s and "Score" in s]
    assert len(encode) == 1
    # four points: before and after in each of the two messages
    assert encode[0].count("<circle") == 4
    assert "2021-03-01" in encode[0] and "2021-06-01" in encode[0]
    assert all("WIDGET-13" not in s for s in sections)  # seen once: not charted


def test_text_from_mail_is_escaped_on_every_findings_page(report):
    for path in (report / "findings").rglob("*.html"):
        page = path.read_text()
        assert "<script>alert" not in page and "<img src=x" not in page, path
    hostile = (report / "findings" / "refs" / report_findings.ref_page("WIDGET-13")).read_text()
    assert html.escape(HOSTILE, quote=True) in hostile


def test_series_chart_takes_any_value():
    chart = report_findings.series_chart(
        [
            (_at("2021-01-01 00:00"), float("nan"), "x"),
            (_at("2021-01-02 00:00"), float("inf"), "y"),
            (None, 1.0, "z"),
            (_at("2021-01-03 00:00"), 1e308, HOSTILE),
            (_at("2021-01-04 00:00"), 2.0, "w"),
        ],
        title=HOSTILE,
    )
    assert chart.count("<circle") == 2 and "<script>" not in chart
    assert not re.search(r'(?:cx|cy|points)="[^"]*(?:nan|inf)', chart, re.I)
    coords = [float(v) for v in re.findall(r'c[xy]="([-\d.e+]+)"', chart)]
    assert coords and all(abs(c) < 1e6 for c in coords)
    assert "no data" in report_findings.series_chart([], title="t")


def _bmf_runs(exported) -> dict[tuple[str, str], dict]:
    with (exported / "bmf" / "index.csv").open(newline="") as f:
        index = list(csv.DictReader(f))
    return {
        (r["msg_key"].split("/")[1], r["variant"]): json.loads(
            (exported / "bmf" / r["file"]).read_text()
        )
        for r in index
    }


def test_bmf_json_one_file_per_run(exported):
    runs = _bmf_runs(exported)
    after = runs[("2021-03", "After the patch / size=10")]
    before = runs[("2021-03", "Before the patch / size=10")]
    encode = after["WidgetBench.encode [size=10]"]["score-1-s"]
    assert encode["value"] == 3000.0
    # the stated error (± 10 of the row) gives the bounds
    assert encode["lower_value"] == pytest.approx(2990.0)
    assert encode["upper_value"] == pytest.approx(3010.0)
    assert before["WidgetBench.encode [size=10]"]["score-1-s"]["value"] == 1000.0
    # the error and count columns are not benchmarks of their own
    assert set(after["WidgetBench.encode [size=10]"]) == {"score-1-s"}
    assert ("2021-06", "After the patch / size=10") in runs
    with open(exported / "bmf" / "index.csv", newline="") as f:
        index = list(csv.DictReader(f))
    assert len(index) == len(runs) and all((exported / "bmf" / r["file"]).is_file() for r in index)
    assert "2021-03-01T10:00:00+00:00" in {r["sent_at"] for r in index}


def test_otava_csv_and_config_for_series_seen_twice(exported):
    config = (exported / "otava" / "otava.yaml").read_text()
    files = re.findall(r'file: "([^"]+)"', config)
    # paths relative to the folder: the export can be moved, and holds no local path
    assert files and all("/" not in name for name in files)
    assert str(exported) not in config
    by_rows = {}
    for name in files:
        with open(exported / "otava" / name, newline="") as f:
            rows = list(csv.DictReader(f))
        by_rows[name] = rows
    encode = [rows for rows in by_rows.values() if len(rows) == 4 and rows[0]["value"] == "1000"]
    assert encode, by_rows
    rows = encode[0]
    assert [r["value"] for r in rows] == ["1000", "3000", "1000", "2900"]
    assert rows[0]["time"] == "2021-03-01T10:00:00+00:00"  # ISO 8601, as every export
    assert {r["variant"] for r in rows} == {
        "Before the patch / size=10",
        "After the patch / size=10",
    }
    assert "direction: 1" in config and "time_column: time" in config
    assert "attributes: [msg_key, variant]" in config


def test_every_time_of_every_export_file_is_iso_8601(exported):
    """Tables, views (landed's commits inside a list included), the BMF index and
    Otava's CSV: one time format everywhere, ISO 8601 in UTC with its offset."""
    iso = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?\+00:00")
    seen = set()
    for path in sorted(exported.rglob("*.csv")):
        text = path.read_text(encoding="utf-8")
        for value in re.findall(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d[^\",\n]*", text):
            assert iso.fullmatch(value), (path.name, value)
            seen.add(path.relative_to(exported).parts[0])
    assert {"messages.csv", "archives.csv", "landed.csv", "bmf", "otava"} <= seen
    with (exported / "landed.csv").open(newline="") as f:
        landed = [r for r in csv.DictReader(f) if r["commits"]]
    assert any(json.loads(r["commits"]) for r in landed)  # JSON, with its times inside


def test_an_issue_page_shows_pairs_as_the_message_pages_do_and_the_actor(report):
    """The pairs of an issue's claims: the message pages' columns (direction, change,
    noise, verdict), in natural order; the claim's sender is the JIRA commenter."""
    page = (report / "findings" / "refs" / report_findings.ref_page("WIDGET-12")).read_text()
    tables = re.findall(r'<table class="data comparisons">.*?</table>', page, re.S)
    assert len(tables) == 2  # one per claim
    heads = re.findall(r"<th[^>]*>([^<]*)</th>", tables[0])
    assert heads[-5:] == ["change", "noise", "better when", "verdict", "in words"]
    cells = re.findall(r"<td class='(direction|change|noise|num pct|num noise)'>(.*?)</td>",
                       tables[0])  # fmt: skip
    kinds = {k for k, _ in cells}
    assert {"direction", "change", "num pct", "num noise"} <= kinds
    assert any(k == "direction" and v in ("lower", "higher") for k, v in cells)
    h3 = re.findall(r"<section class='claim'><h3>(.*?)</h3>", page)
    assert h3 and all(" · Ana Lopes · " in h and "(Jira)" not in h for h in h3)
