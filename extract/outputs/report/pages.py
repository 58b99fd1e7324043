"""The report's HTML pages: pure functions from query results (dicts) to HTML strings.

Every value that comes from mail goes through `esc` (html.escape with quotes) and
every link through `extract.outputs.report.links`; pages carry a Content-Security-Policy that
only allows their own inline style sheet and script (by hash), so even a missed escape
could not run a script.
"""

from __future__ import annotations

import base64
import hashlib
import re
from datetime import UTC, datetime
from html import escape

from extract.db.views import NOISE_DEFAULT
from extract.outputs.numbers import count_text, rounded
from extract.outputs.report import links, svg

CSS = """
:root { --fg:#1d2329; --muted:#5b6570; --line:#d8dde3; --bg:#fff; --accent:#0072B2; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
       background: var(--bg); margin: 0; padding: 16px 24px 48px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; }
a { color: var(--accent); } .muted { color: var(--muted); }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 12px 0; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 120px; }
.card b { display: block; font-size: 20px; }
.charts { display: flex; flex-wrap: wrap; gap: 24px; }
.charts figure { margin: 0; } figcaption { font-weight: 600; margin-bottom: 4px; }
svg.chart { display: block; max-width: 100%; height: auto; font-family: inherit; }
table.data { border-collapse: collapse; width: 100%; }
table#projects { width: auto; min-width: 40%; }
/* Numbers never break ("9714.47", "12 ms/op"): a value column is as wide as its widest
   number. Label cells (text) wrap, at spaces and after . / _ : first and anywhere in a
   word as a last resort, so the value columns of a table fit the page's width; headers
   wrap between words only. A table still too wide scrolls sideways in its own box. */
table.data th, table.data td { border-bottom: 1px solid var(--line); padding: 4px 8px;
       text-align: left; vertical-align: top; overflow-wrap: normal; word-break: normal; }
table.data td.num, table.data td.date { white-space: nowrap; }
.scroll { overflow-x: auto; max-width: 100%; }
#messages { table-layout: fixed; min-width: 72em; }
#messages th { white-space: nowrap; }
#messages td { overflow: hidden; text-overflow: ellipsis; }
table.data td.label { min-width: 6em; max-width: 22em; overflow-wrap: break-word; }
table.result-table { width: auto; }
table.result-table td.text { min-width: 4em; overflow-wrap: break-word; }
#messages th:nth-child(1) { width: 7.5em; } #messages th:nth-child(2) { width: 16em; }
#messages th:nth-child(3) { width: 10em; } #messages th:nth-child(4) { width: 10em; }
#messages th:nth-child(6) { width: 10em; } #messages th:nth-child(7) { width: 9.5em; }
#messages th:nth-child(8) { width: 9.5em; }
table.data td.num, table.data th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.data th[data-sort] { cursor: pointer; user-select: none; white-space: nowrap; }
table.data th[aria-sort=ascending]::after { content: " ▲"; }
table.data th[aria-sort=descending]::after { content: " ▼"; }
#search { font: inherit; padding: 6px 10px; width: min(480px, 100%); margin: 4px 0 8px; }
pre.source { white-space: pre-wrap; word-break: break-word; background: #f6f8fa;
       border: 1px solid var(--line); padding: 10px; font-size: 12px; max-height: 80vh;
       overflow: auto; }
mark.num { background: #fff1a8; border-radius: 2px; padding: 0 1px; }
.result { margin-bottom: 20px; overflow-x: auto; }
.tag { display: inline-block; background: #eef3f8; border-radius: 3px; padding: 0 5px;
       margin: 1px 2px 1px 0; font-size: 12px; }
.better { color: #007a4d; } .worse { color: #b3261e; }
dl.meta { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 12px; }
code.msg-key { overflow-wrap: anywhere; } /* identifiers, not numbers: may break */
dl.meta dt { color: var(--muted); } dl.meta dd { margin: 0; min-width: 0; }
pre.sql { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f8fa; margin: 0;
       border: 1px solid var(--line); padding: 6px 10px; font-size: 12px; }
"""

# Search filters rows on every word typed; header clicks sort by data-v (numbers
# numerically, text in natural order: q2 before q10). Written against the DOM only: no
# data from mail is in the script.
JS = """
(function () {
  var table = document.getElementById('messages');
  if (!table) return;
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  rows.forEach(function (row) { row.searchText = row.textContent.toLowerCase(); });
  var search = document.getElementById('search');
  var count = document.getElementById('count');
  var more = document.getElementById('more');
  // Only the first `page` matching rows are shown, and `more` shows a page more:
  // a browser lays out a table of thousands of rows for seconds.
  var page = parseInt(table.getAttribute('data-page'), 10) || rows.length;
  var limit = page;
  function filter() {
    var words = search.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var matched = 0;
    rows.forEach(function (row) {
      var ok = words.every(function (w) { return row.searchText.indexOf(w) >= 0; });
      if (ok) matched++;
      row.hidden = !ok || matched > limit;
    });
    var shown = Math.min(matched, limit);
    count.textContent = matched + ' of ' + rows.length +
      (shown < matched ? ' (the first ' + shown + ' shown)' : '');
    more.hidden = shown >= matched;
  }
  search.addEventListener('input', function () { limit = page; filter(); });
  more.addEventListener('click', function () { limit += page; filter(); });
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
    if (!th.hasAttribute('data-sort')) return;
    th.addEventListener('click', function () {
      var asc = th.getAttribute('aria-sort') !== 'ascending';
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) {
        c.removeAttribute('aria-sort');
      });
      th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
      var numeric = th.getAttribute('data-sort') === 'num';
      rows.sort(function (a, b) {
        var x = a.cells[col].getAttribute('data-v') || '';
        var y = b.cells[col].getAttribute('data-v') || '';
        var d = numeric ? (parseFloat(x) || 0) - (parseFloat(y) || 0)
                        : x.localeCompare(y, undefined, {numeric: true});
        return asc ? d : -d;
      });
      rows.forEach(function (row) { body.appendChild(row); });
      filter();
    });
  });
  filter();
})();
"""


PAGE_ROWS = 500  # the index shows this many benchmark messages, then more on request
MAX_LISTS_CHARTED = 40  # the lists chart shows this many lists, largest share first
MAX_PAIRS_CHARTED = 30  # a message page charts this many before/after pairs (all in the table)
MAX_ERRORS_LISTED = 2000  # the errors page lists this many errors (and counts them all)


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def esc(value: object) -> str:
    """Text from anywhere (mail included) as HTML text or attribute value."""
    return "" if value is None else escape(str(value), quote=True)


_DIGITS = re.compile(r"([0-9]+)")


def natural_key(value: object) -> tuple:
    """Sort key for labels in natural order: q1, q2, q10 (not q1, q10, q2); None first.
    Digit runs compare by value without int() (so a 5,000-digit run is fine)."""
    if value is None:
        return ()
    key = []
    for part in _DIGITS.split(str(value)):
        if not part:
            continue
        if part[0].isascii() and part[0].isdigit():
            digits = part.lstrip("0") or "0"
            key.append((0, len(digits), digits, len(part)))
        else:
            key.append((1, 0, part.casefold(), 0))
    return tuple(key)


def sql_literal(value: str) -> str:
    """A SQL string literal: single quotes doubled (the page escapes it for HTML too)."""
    return "'" + str(value).replace("'", "''") + "'"


def _hash(source: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(source.encode()).digest()).decode()


def page(title: str, body: str, *, script: bool = False) -> str:
    """A whole, self-contained HTML document."""
    csp = f"default-src 'none'; style-src '{_hash(CSS)}'; img-src 'none'; " + (
        f"script-src '{_hash(JS)}'" if script else "script-src 'none'"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{esc(csp)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title><style>{CSS}</style></head>\n<body>\n{body}\n"
        + (f"<script>{JS}</script>" if script else "")
        + "</body></html>\n"
    )


def _a(url: str | None, text: str, css_class: str = "") -> str:
    if not url:
        return ""
    cls = f' class="{css_class}"' if css_class else ""
    return f'<a{cls} href="{esc(url)}" rel="noopener noreferrer">{esc(text)}</a>'


def sender_title(msg: dict) -> str:
    """The sender's tooltip: the mail's own From, which for gateway mail ("GitBox",
    "ASF GitHub Bot") differs from the actor shown."""
    name, address = msg.get("from_name") or "", msg.get("from_address") or ""
    return f"{name} <{address}>" if name and address else name or address


def day(value: datetime | None) -> str:
    if value is None:
        return ""
    if value.tzinfo is not None:
        value = value.astimezone(UTC)
    return value.strftime("%Y-%m-%d")


def issue_links(msg: dict) -> str:
    """Links to the JIRA issue and the pull request of a message."""
    parts = [
        _a(
            links.issue_url(msg.get("issue_key"), msg.get("repo")),
            msg.get("issue_key") or "",
            "issue",
        ),
        _a(
            links.pr_url(msg.get("repo"), msg.get("pr_number")),
            f"{msg.get('repo')}#{msg.get('pr_number')}",
            "pr",
        ),
    ]
    return " ".join(p for p in parts if p)


def index_page(data: dict, page_rows: int = PAGE_ROWS) -> str:
    """The overview: totals, charts and the table of benchmark messages, of which
    the first `page_rows` are shown until the reader asks for more."""
    t = data["totals"]
    cards = "".join(
        f'<div class="card"><b>{esc(count_text(v))}</b>{esc(k)}</div>'
        for k, v in (
            ("lists searched", t["lists"]),
            ("messages", t["messages"]),
            ("benchmark messages", t["benchmark_messages"]),
            ("result tables", t["tables"]),
            ("measurements", t["measurements"]),
            ("projects with benchmarks", t["projects"]),
        )
    )
    n_errors = t.get("errors") or 0
    cards += (
        f'<div class="card"><b><a href="errors.html">{esc(count_text(n_errors))}</a></b>'
        f"{'error' if n_errors == 1 else 'errors'} recorded</div>"
    )
    years = data["years"]
    per_year = svg.stacked_columns(
        years,
        data["year_series"],
        title="Benchmark messages per project per year",
        css_class="per-year",
    )
    formats = svg.hbar_chart(
        [(f, n, f"{_n(n, 'table')} in {_n(m, 'message')}") for f, n, m in data["formats"]],
        title="Result formats found in benchmark messages",
        css_class="formats",
    )
    lists_chart = svg.hbar_chart(
        [
            (row["list"], row["share"], f"{row['share']:.0%} ({row['bench']} of {row['n']})")
            for row in data["lists"][:MAX_LISTS_CHARTED]
        ],
        title="Lists searched: share of their messages that report benchmarks",
        max_value=1.0,
        css_class="lists",
    )
    n_lists = len(data["lists"])
    lists_note = (
        f'<span class="muted">(the {MAX_LISTS_CHARTED} largest shares of {n_lists} lists)</span>'
        if n_lists > MAX_LISTS_CHARTED
        else ""
    )
    head = (
        '<tr><th data-sort="str">date</th><th data-sort="str">list</th>'
        '<th data-sort="str">issue / PR</th><th data-sort="str">sender</th>'
        '<th data-sort="str">subject</th><th data-sort="str">formats</th>'
        '<th data-sort="num" class="num">measurements</th><th>archive</th></tr>'
    )
    rows = []
    for i, msg in enumerate(data["messages"]):
        formats_cell = "".join(f'<span class="tag">{esc(f)}</span>' for f in msg["formats"])
        issue = msg.get("issue_key") or (
            f"{msg['repo']}#{msg['pr_number']}" if msg.get("pr_number") else ""
        )
        rows.append(
            ("<tr hidden>" if i >= page_rows else "<tr>")  # (until the script runs)
            + f'<td class="date" data-v="{esc(msg["sent_iso"])}">{esc(day(msg["sent_at"]))}</td>'
            f'<td data-v="{esc(msg["list"])}" title="{esc(msg["list"])}">{esc(msg["list"])}</td>'
            f'<td data-v="{esc(issue)}" title="{esc(issue)}">{issue_links(msg)}</td>'
            f'<td data-v="{esc(msg["sender"])}" title="{esc(sender_title(msg))}">'
            f"{esc(msg['sender'])}</td>"
            f'<td data-v="{esc(msg["subject"])}" title="{esc(msg["subject"])}"><a class="page" '
            f'href="messages/{esc(msg["page"])}">{esc(msg["subject"] or "(no subject)")}</a></td>'
            f'<td data-v="{esc(" ".join(msg["formats"]))}">{formats_cell}</td>'
            f'<td class="num" data-v="{msg["n_measurements"]}">{msg["n_measurements"]}</td>'
            f"<td>{_a(links.permalink(msg.get('permalink')), 'lists.apache.org', 'permalink')}"
            "</td></tr>"
        )
    projects = "".join(
        f"<tr><td>{esc(p['project'])}</td><td class='num'>{p['lists']}</td>"
        f"<td class='num'>{p['messages']}</td><td class='num'>{p['benchmark_messages']}</td>"
        f"<td class='num'>{float(p['benchmark_share'] or 0):.0%}</td>"
        f"<td class='num'>{p['measurements']}</td></tr>"
        for p in data.get("projects", [])
    )
    body = f"""
<h1>Benchmark results on Apache mailing lists</h1>
<p class="muted">Built {esc(data["built"])} from {esc(data["db_name"])}.</p>
<div class="cards">{cards}</div>
{data.get("findings_links", "")}
<h2>Overview</h2>
<div class="charts">
<figure><figcaption>Benchmark messages per project per year</figcaption>{per_year}</figure>
<figure><figcaption>Formats found</figcaption>{formats}</figure>
<figure><figcaption>Lists searched and the share of their messages that report benchmarks
{lists_note}</figcaption>{lists_chart}</figure>
</div>
<h2>Projects</h2>
<div class="scroll"><table id="projects" class="data"><thead><tr><th>project</th>
<th class="num">lists</th>
<th class="num">messages</th><th class="num">benchmark messages</th><th class="num">share</th>
<th class="num">measurements</th></tr></thead><tbody>{projects}</tbody></table></div>
<h2>Benchmark messages</h2>
<label>Search <input id="search" type="search" placeholder="project, issue, sender, format…"
autocomplete="off"></label> <span id="count" class="muted"></span>
<div class="scroll"><table id="messages" class="data" data-page="{page_rows}"><thead>{head}</thead>
<tbody>
{"".join(rows)}
</tbody></table></div>
<p><button id="more" type="button" hidden>Show {page_rows} more</button></p>
"""
    return page("Benchmark results on Apache mailing lists", body, script=True)


def errors_page(kinds: list[dict], rows: list[dict], total: int) -> str:
    """What the extraction could not read or store (the `errors` table): counts by
    stage and kind, then the errors themselves (their text comes from mail and paths:
    escaped)."""
    if not total:
        body = "<p>No errors were recorded: every message and archive was read and stored.</p>"
    else:
        summary = "".join(
            f"<tr><td>{esc(k['stage'])}</td><td>{esc(k['kind'])}</td>"
            f"<td class='num'>{k['n']}</td><td class='num'>{k['archives']}</td></tr>"
            for k in kinds
        )
        listed = "".join(
            f"<tr><td>{esc(r['archive'])}</td>"
            f"<td class='num'>{esc('' if r['position'] is None else r['position'])}</td>"
            f"<td>{esc(r['message_id'])}</td><td>{esc(r['stage'])}</td>"
            f"<td>{esc(r['reason'])}</td></tr>"
            for r in rows
        )
        more = (
            f'<p class="muted">The first {len(rows)} of {total} errors by archive; '
            "all of them are in the <code>errors</code> table (<code>make sql</code>).</p>"
            if len(rows) < total
            else ""
        )
        body = f"""
<p>{_n(total, "error")} recorded. A message in <code>errors</code> was not stored; an
archive-level error (no position) stopped its whole archive, which the next
<code>make extract</code> tries again.</p>
<h2>By stage and kind</h2>
<div class="scroll"><table class="data"><thead><tr><th>stage</th><th>kind</th>
<th class="num">errors</th><th class="num">archives</th></tr></thead><tbody>{summary}</tbody>
</table></div>
<h2>Errors</h2>{more}
<div class="scroll"><table class="data"><thead><tr><th>archive</th><th class="num">position</th>
<th>Message-ID</th><th>stage</th><th>reason</th></tr></thead><tbody>{listed}</tbody></table></div>
"""
    return page(
        "Errors recorded by the extraction",
        f'<h1>Errors recorded by the extraction</h1>\n<p><a href="index.html">← the report</a></p>'
        f"\n{body}",
    )


# A cell that is a number, maybe signed, with a unit or %, maybe with its error
# ("9714.47", "-3.2 %", "12 ms/op", "51697.288 ± 1234.5"): never broken.
_NUMBER = r"[-+\u2212~≈<>]?\s?[0-9][0-9.,'_]*(?:[eE][-+]?[0-9]+)?"
_NUMBER_CELL = re.compile(
    rf"{_NUMBER}(?:\s?[%×A-Za-zµμ/]{{1,12}})?"
    rf"(?:\s?(?:±|\+/-|\+-)\s?{_NUMBER}(?:\s?[%A-Za-zµμ/]{{1,12}})?)?"
)
# Where a long word of a label may break: after / _ : = \ and after . , before a letter
# (a class name, a path, a setting; never inside a number such as 1.5) and between the
# humps of a camelCase name (measure|Iterator|For|Batch).
_SOFT_BREAK = re.compile(r"(?<=[/_:=\\])(?=\S)|(?<=[.,])(?=[^\s0-9])|(?<=[a-z]{2})(?=[A-Z][a-z])")
_LONG_WORD = 16


def is_number_cell(cell: object) -> bool:
    text = "" if cell is None else str(cell).strip()
    return len(text) <= 40 and bool(_NUMBER_CELL.fullmatch(text))


def breakable(value: object) -> str:
    """`text` escaped, with a <wbr> where its long words may break (after dots, slashes,
    underscores, between camelCase humps), so a narrow column breaks
    `RecordBatchBenchmark.measureValidation` there rather than anywhere."""
    text = "" if value is None else str(value)
    if not any(len(word) > _LONG_WORD for word in text.split()):
        return esc(text)
    return "<wbr>".join(esc(part) for part in _SOFT_BREAK.split(text))


def _cell(cell: object) -> str:
    text = "" if cell is None else str(cell)
    if is_number_cell(text):
        return f"<td class='num'>{esc(text)}</td>"
    return f"<td class='text'>{breakable(text)}</td>"


def _result_table(table: dict) -> str:
    rows = table["rows"]
    numeric = [
        any(is_number_cell(row[i]) for row in rows if i < len(row))
        for i in range(len(table["columns"]))
    ]
    head = "".join(
        f"<th class='num'>{breakable(c)}</th>" if num else f"<th>{breakable(c)}</th>"
        for c, num in zip(table["columns"], numeric, strict=True)
    )
    body = "".join("<tr>" + "".join(_cell(c) for c in row) + "</tr>" for row in rows)
    title = " · ".join(
        esc(x) for x in (table["format"], table.get("caption"), table.get("variant")) if x
    )
    return (
        f'<div class="result"><h3>{title}</h3>'
        f'<table class="data result-table"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
        f'<details><summary>source</summary><pre class="source">{esc(table["source"])}</pre>'
        "</details></div>"
    )


def _ratio_text(ratio: float | None) -> str:
    return "" if ratio is None else f"×{rounded(ratio, 3)}"


_CHANGE_CLASS = {
    "improvement": "better",
    "regression": "worse",
    "within noise": "muted",
    "no noise stated": "muted",
}
_CLAIM_CLASS = {"agrees": "better", "contradicts": "worse", "unconfirmed": "muted"}


def _claim_cell(row: dict) -> str:
    """What the message's words state for a pair, and whether its numbers agree."""
    factor = row.get("claimed_factor")
    if factor is None:
        return "<td class='claimed'></td>"
    words = row.get("claimed_words") or ""
    check = row.get("claim") or ""
    return (
        f"<td class='claimed' title='{esc(words)}'>{esc(_ratio_text(factor))} "
        f'<span class="{_CLAIM_CLASS.get(check, "")}">{esc(check)}</span></td>'
    )


def _noise_text(noise: float | None) -> str:
    return "" if noise is None else f"±{rounded(100 * noise, 2)}%"


def pair_order(row: dict) -> tuple:
    """Pairs in natural order of table, label, parameters, metric and sides (q2 before
    q10), which SQL's ORDER BY on text does not give."""
    return tuple(
        natural_key(row.get(k))
        for k in ("table_id", "label", "params", "metric", "before", "after")
    )


def _label_cell(value: object) -> str:
    """A label, wrapped to fit (after its dots and slashes first)."""
    return f"<td class='label'>{breakable(value)}</td>"


def comparisons_table(rows: list[dict]) -> str:
    """Before/after pairs (rows of the `comparisons` view) as a table: per pair its
    sides, ratio, change, noise, which way is better and the verdict. The message pages
    and the findings pages both show pairs with it."""
    lines = []
    for r in sorted(rows, key=pair_order):
        verdict = r.get("change")
        verdict_cell = (
            f'<span class="{_CHANGE_CLASS.get(verdict, "")}">{esc(verdict)}</span>'
            if verdict
            else '<span class="muted">unknown</span>'
        )
        pct = r.get("change_pct")
        change = "" if pct is None else f"{pct:+.1f}%"
        direction = {"lower": "lower", "higher": "higher"}.get(r.get("direction"), "")
        lines.append(
            f"<tr>{_label_cell(r['label'])}{_label_cell(r.get('params'))}"
            f"{_label_cell(r['metric'])}"
            f"{_label_cell(r['before'])}<td class='num'>{esc(svg.fmt(r['before_value']))}</td>"
            f"{_label_cell(r['after'])}<td class='num'>{esc(svg.fmt(r['after_value']))}</td>"
            f"<td>{esc(r['unit'])}</td><td class='num ratio'>{esc(_ratio_text(r['ratio']))}</td>"
            f"<td class='num pct'>{esc(change)}</td>"
            f"<td class='num noise'>{esc(_noise_text(r.get('noise')))}</td>"
            f"<td class='direction'>{esc(direction)}</td>"
            f"<td class='change'>{verdict_cell}</td>{_claim_cell(r)}</tr>"
        )
    return (
        '<div class="scroll"><table class="data comparisons"><thead><tr>'
        "<th>label</th><th>params</th><th>metric</th><th>before</th><th class='num'>value</th>"
        "<th>after</th><th class='num'>value</th><th>unit</th><th class='num'>ratio</th>"
        "<th class='num'>change</th><th class='num'>noise</th><th>better when</th>"
        "<th>verdict</th><th>in words</th></tr></thead><tbody>"
        + "".join(lines)
        + "</tbody></table></div>"
        + '<p class="muted">Noise: the stated error (Error, ±, StdDev) or the spread of '
        "repeated runs of both sides; a change within it is <em>within noise</em>. Where "
        f"the message states none, a change within {100 * NOISE_DEFAULT:g} % gets no "
        "verdict either (<em>no noise stated</em>). Better when: lower (times) or higher "
        "(rates) is better, from the unit and metric. In words: the speed-up the "
        "message's own words state for the pair, and whether the numbers agree.</p>"
    )


def _comparisons(rows: list[dict]) -> str:
    """The message's before/after pairs: a chart, then the table."""
    if not rows:
        return ""
    rows = sorted(rows, key=pair_order)
    pairs = [
        (
            " / ".join(x for x in (r["label"], r.get("params"), r["metric"]) if x) or "value",
            r["before"] or "",
            r["before_value"],
            r["after"] or "",
            r["after_value"],
            _ratio_text(r["ratio"]),
        )
        for r in rows[:MAX_PAIRS_CHARTED]
    ]
    chart = svg.pair_bars(pairs, title="Before and after", css_class="comparison")
    if len(rows) > MAX_PAIRS_CHARTED:
        chart += f'<p class="muted">The first {MAX_PAIRS_CHARTED} of {len(rows)} pairs.</p>'
    return "<h2>Before / after</h2>" + chart + comparisons_table(rows)


def sql_snippet(msg_key: str) -> str:
    """Queries for this message's rows, ready to paste into `make sql`."""
    key = sql_literal(msg_key)
    return (
        f"SELECT * FROM measurements WHERE msg_key = {key};\n"
        f"SELECT * FROM comparisons WHERE msg_key = {key};"
    )


def _from(msg: dict) -> str:
    """The sender: the actor (JIRA commenter, GitHub user) when known; the mail's own
    From when it differs, as for gateway mail ("GitBox"), after it."""
    shown, mail = msg["sender"], sender_title(msg)
    if not mail or mail == shown or (msg.get("from_name") or "").startswith(shown + " ("):
        return esc(shown)
    return f'{esc(shown)} <span class="muted">(mail from {esc(mail)})</span>'


def marked_body(body: str | None, numbers: list[dict]) -> str:
    """The message's text, escaped, with each number the pipeline stored marked where
    it stands (`<mark>`, its label and metric as the tooltip). Spans that do not fit
    the text (overlapping, out of range) are left unmarked; nothing of the text
    becomes markup."""
    if not body:
        return ""
    out, pos = [], 0
    for n in sorted(numbers, key=lambda n: (n["span_start"], n["span_end"])):
        start, end = n["span_start"], n["span_end"]
        if start is None or end is None or start < pos or end > len(body) or end <= start:
            continue
        tip = " · ".join(str(x) for x in (n.get("label"), n.get("metric"), n.get("unit")) if x)
        out.append(esc(body[pos:start]))
        out.append(f'<mark class="num" title="{esc(tip)}">{esc(body[start:end])}</mark>')
        pos = end
    out.append(esc(body[pos:]))
    return "".join(out)


def _marked_note(msg: dict) -> str:
    n = len(msg.get("numbers") or [])
    if not n:
        return ""
    return f'<p class="muted">The {_n(n, "number")} stored from it are marked in the text.</p>'


def message_page(msg: dict, tables: list[dict], comparisons: list[dict]) -> str:
    """One benchmark message: its metadata and links, its result tables as HTML tables
    then its text, and the before/after chart and ratios when it has any."""
    link_items = [
        _a(links.permalink(msg.get("permalink")), "message on lists.apache.org", "permalink"),
        issue_links(msg),
        _a(links.known_url(msg.get("url")), "link given in the message", "url"),
    ]
    meta = "".join(
        f"<dt>{k}</dt><dd>{v}</dd>"
        for k, v in (
            ("date", esc(day(msg["sent_at"]))),
            ("list", esc(msg["list"])),
            ("from", _from(msg)),
            ("kind", esc(msg.get("kind"))),
            ("formats", esc(", ".join(msg["formats"]))),
            ("measurements", esc(msg["n_measurements"])),
            ("links", " · ".join(x for x in link_items if x)),
            ("msg_key", f'<code class="msg-key">{esc(msg["msg_key"])}</code>'),
            ("in SQL", f'<pre class="sql">{esc(sql_snippet(msg["msg_key"]))}</pre>'),
        )
    )
    results = "".join(_result_table(t) for t in tables) or '<p class="muted">No tables.</p>'
    text = marked_body(msg.get("body"), msg.get("numbers") or [])
    body = f"""
<p><a href="../index.html">← all benchmark messages</a></p>
<h1>{esc(msg["subject"] or "(no subject)")}</h1>
<dl class="meta">{meta}</dl>
{_comparisons(comparisons)}
<section><h2>Extracted tables</h2>{results}</section>
<section><h2>Message text</h2>{_marked_note(msg)}
<pre class="source" id="body">{text}</pre></section>
"""
    return page(msg["subject"] or "(no subject)", body)
