"""The report in a real browser: headless Debian Chromium driven by Selenium, loading the
report of the real pipeline's database (the demo on data/sample) from disk.

Checks: charts render, search filters rows, sorting works, links resolve, and the
hostile message of the sample (<script>, <img onerror>) shows as text. Saves
tests/artifacts/report.png.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import duckdb
import pytest
from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from extract.outputs.report import build_report, links
from tests.outputs.report_pipeline import demo_once
from tests.outputs.test_report import in_order

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--window-size=1400,1000",
)  # fmt: skip


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    run = demo_once(tmp_path_factory)
    con = duckdb.connect(str(run.db), read_only=True)
    try:
        rows = con.execute(
            "SELECT msg_key, subject, list, permalink, issue_key, repo, n_measurements, body "
            "FROM benchmark_messages"
        ).fetchall()
    finally:
        con.close()
    keys = ("msg_key", "subject", "list", "permalink", "issue_key", "repo", "n_measurements",
            "body")  # fmt: skip
    return run, [dict(zip(keys, r, strict=True)) for r in rows]


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    chromium, driver_bin = shutil.which("chromium"), shutil.which("chromedriver")
    assert chromium and driver_bin, "run `make browser` (Debian's chromium and chromium-driver)"
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(dir=tmp_path_factory.getbasetemp())
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(service=Service(driver_bin), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def _open(driver, path: Path):
    driver.get(path.resolve().as_uri())
    _no_alert(driver)


def _no_alert(driver):
    with pytest.raises(NoAlertPresentException):
        driver.switch_to.alert.text  # noqa: B018 - raises when no alert is open


def _rows(driver):
    return driver.find_elements(By.CSS_SELECTOR, "#messages tbody tr")


def _visible_rows(driver):
    return [r for r in _rows(driver) if r.is_displayed()]


def test_charts_render_and_screenshot(site, browser):
    run, messages = site
    _open(browser, run.index)
    charts = browser.find_elements(By.CSS_SELECTOR, "svg.chart")
    assert {c.get_attribute("class") for c in charts} >= {
        "chart per-year",
        "chart formats",
        "chart lists",
    }
    for chart in charts:
        assert chart.size["width"] > 100 and chart.size["height"] > 20
        bars = chart.find_elements(By.CSS_SELECTOR, "rect")
        assert bars and any(b.size["width"] > 0 and b.size["height"] > 0 for b in bars)
    assert len(_rows(browser)) == len(messages) > 0
    ARTIFACTS.mkdir(exist_ok=True)
    assert browser.save_screenshot(str(ARTIFACTS / "report.png"))
    assert (ARTIFACTS / "report.png").stat().st_size > 10_000


def test_search_filters_rows(site, browser):
    run, messages = site
    _open(browser, run.index)
    search = browser.find_element(By.ID, "search")
    # the list with the fewest benchmark messages; expected rows computed from the page
    target = min({m["list"] for m in messages}, key=lambda lst: (
        sum(m["list"] == lst for m in messages), lst))  # fmt: skip
    expected = [
        r for r in _rows(browser) if target.lower() in r.get_attribute("textContent").lower()
    ]
    search.send_keys(target)
    visible = _visible_rows(browser)
    assert visible == expected
    assert all(target in r.text for r in visible)
    if len({m["list"] for m in messages}) > 1:
        assert len(visible) < len(messages)
    assert browser.find_element(By.ID, "count").text == f"{len(visible)} of {len(messages)}"
    search.clear()
    search.send_keys("no message says zzqqxx")
    assert _visible_rows(browser) == []
    search.clear()
    search.send_keys(" ")  # an input event with nothing to match: every row is back
    assert len(_visible_rows(browser)) == len(messages)


def test_sorting_by_measurements_and_date(site, browser):
    run, messages = site
    _open(browser, run.index)
    header = browser.find_element(By.XPATH, "//table[@id='messages']//th[.='measurements']")
    header.click()
    values = [int(r.find_elements(By.TAG_NAME, "td")[6].text) for r in _rows(browser)]
    assert values == sorted(m["n_measurements"] for m in messages)
    header.click()
    values = [int(r.find_elements(By.TAG_NAME, "td")[6].text) for r in _rows(browser)]
    assert values == sorted((m["n_measurements"] for m in messages), reverse=True)
    browser.find_element(By.XPATH, "//table[@id='messages']//th[.='date']").click()
    dates = [r.find_element(By.TAG_NAME, "td").get_attribute("data-v") for r in _rows(browser)]
    assert dates == sorted(dates)


def test_links_resolve(site, browser):
    run, messages = site
    _open(browser, run.index)
    by_page = {links.page_name(m["msg_key"]): m for m in messages}
    pages = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "a.page")]
    assert len(pages) == len(messages)
    for href in pages:
        assert href.startswith("file://")
        name = href.rsplit("/", 1)[1]
        assert (run.index.parent / "messages" / name).is_file()
        assert name in by_page
    permalinks = {
        a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "a.permalink")
    }
    assert permalinks == {m["permalink"] for m in messages if links.permalink(m["permalink"])}
    assert permalinks, "the sample's benchmark messages have lists.apache.org permalinks"
    issues = {a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "a.issue")}
    expected = {links.issue_url(m["issue_key"], m["repo"]) for m in messages}
    assert issues == expected - {None}
    assert any(i.startswith("https://issues.apache.org/jira/browse/") for i in issues)
    # follow a page link and come back
    first = browser.find_element(By.CSS_SELECTOR, "a.page")
    message = by_page[first.get_attribute("href").rsplit("/", 1)[1]]
    first.click()
    assert browser.find_element(By.TAG_NAME, "h1").text == (message["subject"] or "(no subject)")
    assert browser.find_element(By.ID, "body").text.strip()
    browser.find_element(By.LINK_TEXT, "← all benchmark messages").click()
    assert browser.find_element(By.ID, "messages")


def test_message_pages_show_tables_next_to_text(site, browser):
    run, messages = site
    con = duckdb.connect(str(run.db), read_only=True)
    try:
        key, n_tables, columns = con.execute(
            "SELECT b.msg_key, b.n_tables, t.columns FROM benchmark_messages b "
            "JOIN result_tables t ON t.msg_key = b.msg_key AND t.ordinal = 0 "
            "WHERE b.n_tables > 0 ORDER BY b.n_tables DESC, b.msg_key LIMIT 1"
        ).fetchone()
        compared = con.execute(
            "SELECT msg_key, count(*) FROM comparisons GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1"
        ).fetchone()
    finally:
        con.close()
    _open(browser, run.index.parent / "messages" / links.page_name(key))
    tables = browser.find_elements(By.CSS_SELECTOR, "table.result-table")
    assert len(tables) == n_tables
    heads = [th.text for th in tables[0].find_elements(By.CSS_SELECTOR, "thead th")]
    assert heads == [" ".join(c.split()) for c in columns]
    assert browser.find_element(By.ID, "body").is_displayed()
    if compared:  # the sample has before/after results: chart and ratios
        _open(browser, run.index.parent / "messages" / links.page_name(compared[0]))
        chart = browser.find_element(By.CSS_SELECTOR, "svg.comparison")
        assert chart.size["width"] > 100 and chart.size["height"] > 20
        ratios = browser.find_elements(By.CSS_SELECTOR, "table.comparisons td.ratio")
        assert len(ratios) == compared[1] and all(r.text.startswith("×") for r in ratios)


def test_hostile_message_shows_as_text(site, browser):
    run, messages = site
    hostile = [m for m in messages if "<script" in (m["body"] or "") + (m["subject"] or "")]
    assert hostile, "the sample's hostile message (<script>, <img onerror>) is in the report"
    _open(browser, run.index)
    assert len(browser.find_elements(By.TAG_NAME, "script")) == 1  # the report's own
    assert browser.find_elements(By.TAG_NAME, "img") == []
    for m in hostile:
        _open(browser, run.index.parent / "messages" / links.page_name(m["msg_key"]))
        assert browser.find_elements(By.TAG_NAME, "script") == []
        assert browser.find_elements(By.TAG_NAME, "img") == []
        assert browser.find_elements(By.CSS_SELECTOR, "[onerror]") == []
        shown = (
            browser.find_element(By.ID, "body").text + browser.find_element(By.TAG_NAME, "h1").text
        )
        assert "<script" in shown  # the literal text is visible
        _no_alert(browser)


def test_a_long_table_is_shown_a_page_at_a_time(site, browser, tmp_path):
    """The index shows the first page of matching rows (a browser lays out thousands
    of rows for seconds); `more` shows another page; search and sorting page too."""
    run, messages = site
    page = 7
    assert len(messages) > 2 * page
    out = tmp_path / "paged"
    build_report(run.db, out, page_rows=page)
    _open(browser, out / "index.html")
    assert len(_rows(browser)) == len(messages)  # every row is there, most hidden
    assert len(_visible_rows(browser)) == page
    count = browser.find_element(By.ID, "count")
    assert count.text == f"{len(messages)} of {len(messages)} (the first {page} shown)"
    more = browser.find_element(By.ID, "more")
    more.click()
    assert len(_visible_rows(browser)) == 2 * page
    assert _visible_rows(browser) == _rows(browser)[: 2 * page]
    header = browser.find_element(By.XPATH, "//table[@id='messages']//th[.='measurements']")
    header.click()  # sorted: the visible rows are the smallest
    values = [int(r.find_elements(By.TAG_NAME, "td")[6].text) for r in _visible_rows(browser)]
    assert values == sorted(m["n_measurements"] for m in messages)[: 2 * page]
    search = browser.find_element(By.ID, "search")
    search.send_keys(" ")  # a new search starts from the first page again
    assert len(_visible_rows(browser)) == page and more.is_displayed()
    while more.is_displayed():
        more.click()
    assert len(_visible_rows(browser)) == len(messages)
    assert count.text == f"{len(messages)} of {len(messages)}"


# A text's lines: its range's height over its line height (1 when it does not wrap).
LINES_JS = """
var out = [];
document.querySelectorAll(arguments[0]).forEach(function (el) {
  var text = el.textContent.trim();
  if (!text || el.getClientRects().length === 0) return;
  var range = document.createRange();
  range.selectNodeContents(el);
  var lh = parseFloat(getComputedStyle(el).lineHeight);
  out.push([text, range.getBoundingClientRect().height / lh]);
});
return out;
"""
ONE_LINE = "table.data td.num, table.data td.date"
# The words of the elements that are split over two lines (a header may wrap between
# its words, after a hyphen and where the page put a <wbr>, never inside a word).
SPLIT_WORDS_JS = """
var out = [];
document.querySelectorAll(arguments[0]).forEach(function (el) {
  var walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (var node = walker.nextNode(); node; node = walker.nextNode()) {
    var re = /[^\\s-]+/g, m;
    while ((m = re.exec(node.data)) !== null) {
      var range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      var tops = {};
      Array.prototype.forEach.call(range.getClientRects(), function (r) {
        if (r.width > 0) tops[Math.round(r.top)] = true;
      });
      if (Object.keys(tops).length > 1) out.push(m[0]);
    }
  }
});
return out;
"""
# Every value cell (a numeric cell: td.num) of every table whose box is not wholly in
# view: past the window's right edge or cut by a scrolling ancestor (a table that
# scrolls sideways hides its columns past the box's edge until one scrolls).
HIDDEN_VALUES_JS = """
var out = [], view = document.documentElement.clientWidth;
document.querySelectorAll('table').forEach(function (table) {
  table.querySelectorAll('tbody td.num').forEach(function (td) {
    var r = td.getBoundingClientRect(), left = 0, right = view;
    for (var p = td.parentElement; p; p = p.parentElement) {
      if (getComputedStyle(p).overflowX === 'visible') continue;
      var b = p.getBoundingClientRect();
      left = Math.max(left, b.left); right = Math.min(right, b.right);
    }
    if (r.width > 0 && (r.left < left - 1 || r.right > right + 1)) {
      var head = table.tHead && table.tHead.rows[0].cells[td.cellIndex];
      out.push([head ? head.textContent : '', td.textContent, Math.round(r.left),
                Math.round(r.right), Math.round(right)]);
    }
  });
});
return out;
"""


def _pages_with_most(run, sql: str) -> Path:
    con = duckdb.connect(str(run.db), read_only=True)
    try:
        (key,) = con.execute(sql).fetchone()
    finally:
        con.close()
    return run.index.parent / "messages" / links.page_name(key)


@pytest.fixture
def narrow(browser):
    """A phone-sized window, where a table is squeezed hardest."""
    browser.set_window_size(480, 900)
    try:
        yield browser
    finally:
        browser.set_window_size(1400, 1000)


@pytest.fixture
def at_1280(browser):
    """A laptop-sized window: 1280 px wide."""
    browser.set_window_size(1280, 900)
    try:
        yield browser
    finally:
        browser.set_window_size(1400, 1000)


def test_no_value_column_is_off_screen_at_1280_px_on_any_page(site, at_1280):
    """Every page of the demo's report (index, errors, each message, the findings):
    each number of each table is in view at 1280 px, none past the window's edge or
    behind a sideways scroll. Label columns wrap to make room."""
    run, _ = site
    report = run.index.parent
    paths = sorted(report.rglob("*.html"))
    assert len(paths) > 60 and (report / "messages").is_dir()
    hidden, checked = {}, 0
    for path in paths:
        _open(at_1280, path)
        checked += at_1280.execute_script("return document.querySelectorAll('td.num').length")
        if cells := at_1280.execute_script(HIDDEN_VALUES_JS):
            hidden[str(path.relative_to(report))] = cells[:3]
    assert checked > 1000  # (the pages have numbers to check)
    assert hidden == {}
    # the measurement is sensitive: the widest message table, with labels that may not
    # wrap and beside the message text (the old layout), hides its numbers
    widest = _pages_with_most(
        run,
        "SELECT msg_key FROM result_tables t JOIN benchmark_messages USING (msg_key) "
        "ORDER BY len(t.columns) DESC, msg_key LIMIT 1",
    )
    _open(at_1280, widest)
    at_1280.execute_script(
        "document.querySelectorAll('td.text, td.label').forEach(function (e) {"
        " e.style.whiteSpace = 'nowrap'; });"
        "document.querySelectorAll('section').forEach(function (e) {"
        " e.style.maxWidth = '50%'; });"
        "document.querySelectorAll('.result').forEach(function (e) {"
        " e.style.overflowX = 'auto'; });"
    )
    assert at_1280.execute_script(HIDDEN_VALUES_JS)


def test_numbers_and_headers_stay_on_one_line_in_a_narrow_window(site, narrow):
    run, _ = site
    compared = _pages_with_most(
        run, "SELECT msg_key FROM comparisons GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1"
    )
    tabled = _pages_with_most(
        run, "SELECT msg_key FROM benchmark_messages ORDER BY n_tables DESC, msg_key LIMIT 1"
    )
    for path in (run.index, compared, tabled, run.index.parent / "findings" / "claims.html"):
        _open(narrow, path)
        cells = narrow.execute_script(LINES_JS, ONE_LINE)
        assert cells, path
        wrapped = [(text, round(n, 2)) for text, n in cells if n > 1.2]
        assert wrapped == [], path
        assert narrow.execute_script(SPLIT_WORDS_JS, "table.data th") == [], path
    # numbers are numeric cells (they are what the rule keeps whole), e.g. the ratios
    _open(narrow, compared)
    ratios = narrow.execute_script(LINES_JS, "table.comparisons td.ratio")
    assert ratios and all(n <= 1.2 and text.startswith("×") for text, n in ratios)
    # the measurement is sensitive: with cells allowed to break anywhere (the old
    # style sheet), the same page has numbers and headers on two lines or more
    narrow.execute_script(
        "document.querySelectorAll('table.data th, table.data td').forEach(function (e) {"
        " e.style.whiteSpace = 'normal'; e.style.overflowWrap = 'anywhere'; });"
        "document.querySelectorAll('.scroll').forEach(function (e) {"
        " e.style.overflowX = 'visible'; });"
    )
    cells = narrow.execute_script(LINES_JS, ONE_LINE)
    assert any(n > 1.2 for _, n in cells)
    assert narrow.execute_script(SPLIT_WORDS_JS, "table.data th")


def test_chart_labels_fit_and_carry_their_full_text(site, browser):
    run, _ = site
    compared = _pages_with_most(
        run, "SELECT msg_key FROM comparisons GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1"
    )
    seen = 0
    pages = [run.index, compared, *sorted((run.index.parent / "messages").glob("*.html"))]
    for path in pages:
        _open(browser, path)
        labels = browser.execute_script("""
            var out = [];
            var charts = Array.prototype.slice.call(document.querySelectorAll('svg.chart'));
            document.querySelectorAll('svg.chart g.label').forEach(function (g) {
              var svg = g.ownerSVGElement, text = g.querySelector('text');
              var box = text.getBBox();
              out.push([charts.indexOf(svg), g.querySelector('title').textContent,
                        text.textContent, box.x, box.x + box.width,
                        svg.viewBox.baseVal.width]);
            });
            return out;""")
        for _chart, full, shown, left, right, width in labels:
            # whole, or cut with a visible ellipsis where words were left out
            assert shown == full or ("…" in shown and in_order(shown, full)), (full, shown)
            assert left >= 0 and right <= width + 0.5, (shown, left, right, width)
        # in one chart, labels that differ are shown differently (the part that
        # differs is kept)
        by_chart: dict[tuple[int, str], set[str]] = {}
        for chart, full, shown, *_ in labels:
            by_chart.setdefault((chart, shown), set()).add(full)
        assert [fulls for fulls in by_chart.values() if len(fulls) > 1] == [], path
        seen += len(labels)
    assert seen > 0


def test_cut_cells_of_the_index_show_their_full_text_on_hover(site, browser):
    run, _ = site
    _open(browser, run.index)
    cells = browser.execute_script("""
        var out = [];
        document.querySelectorAll('#messages tbody tr').forEach(function (tr) {
          [1, 2, 3, 4].forEach(function (i) {
            var td = tr.cells[i];
            out.push([td.getAttribute('title'), td.textContent.trim(),
                      td.scrollWidth > td.clientWidth, getComputedStyle(td).textOverflow]);
          });
        });
        return out;""")
    assert cells
    for title, text, cut, overflow in cells:
        assert overflow == "ellipsis"
        if cut:
            assert title is not None and text in title, (title, text)
