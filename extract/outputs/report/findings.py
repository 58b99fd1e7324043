"""The report's findings pages, from the views of `extract.db.findings`:

- `findings/claims.html`: the largest claimed speed-ups and regressions, each with
  whether it landed (commits, fix versions);
- `findings/refs/<hash>.html`: one page per issue or PR that had benchmark messages:
  its claims in order, their before/after pairs with direction and noise, the commits
  that name it and its resolution with the fix versions;
- `findings/series.html`: every series seen in more than one message, charted over time.

`write_pages(con, out_dir, write)` queries (the I/O edge) and writes them with `write`
(the report's atomic writer); it returns the index's link HTML, or "" when the database
has no findings views. The page functions are pure: dicts in, HTML out; every value
from mail goes through `pages.esc` and every link through `links`.
"""

from __future__ import annotations

import hashlib
import math
import statistics
from collections.abc import Callable
from datetime import UTC, datetime
from html import escape
from pathlib import Path

import duckdb

from extract.db.views import NOISE_DEFAULT
from extract.outputs.numbers import rounded
from extract.outputs.report import links, pages, svg

TOP_CLAIMS = 25  # rows in each table of the claims page
MAX_SERIES_CHARTED = 100  # the series page charts the series seen most often
MAX_POINTS = 400  # points drawn in one series chart

SENT = """CASE WHEN isfinite({col}) AND year({col} AT TIME ZONE 'UTC') BETWEEN 1 AND 9998
               THEN {col} END"""


def ref_page(ref: str) -> str:
    """File name of an issue's or PR's page: a hash, never a name taken from mail."""
    return (
        hashlib.sha256(("ref:" + ref).encode("utf-8", "surrogatepass")).hexdigest()[:24] + ".html"
    )


def _dicts(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> list[dict]:
    cur = con.execute(sql, params or [])
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]


def _has_views(con: duckdb.DuckDBPyConnection) -> bool:
    from extract.db.findings import VIEW_NAMES

    have = {n for (n,) in con.execute("SELECT view_name FROM duckdb_views()").fetchall()}
    return all(v in have for v in VIEW_NAMES)


# ---------------------------------------------------------------- pure page functions


def _pct(fraction: float) -> str:
    return f"{100 * fraction:g} %"


def _times(value: float | None) -> str:
    if value is None or not math.isfinite(value):
        return ""
    return f"{value:,.0f}×" if abs(value) >= 1000 else f"{rounded(value, 3)}×"


def _ref_link(ref: str | None, prefix: str) -> str:
    if not ref:
        return ""
    return f'<a class="ref" href="{prefix}{esc_name(ref_page(ref))}">{pages.esc(ref)}</a>'


def esc_name(name: str) -> str:
    return escape(name, quote=True)


def _landed_cell(row: dict) -> str:
    parts = []
    if row.get("committed"):
        n = row.get("n_commits") or 0
        parts.append(f"committed ({n} commit{'' if n == 1 else 's'})")
    if row.get("resolved"):
        versions = ", ".join(row.get("fix_versions") or [])
        parts.append(f"fixed in {versions}" if versions else "resolved")
    return pages.esc("; ".join(parts))


def _words(row: dict) -> str:
    words = "".join(
        f'<span class="tag">{pages.esc(w)}</span>' for w in row.get("claimed_words") or []
    )
    check = row.get("claim_check")
    if check:  # the words against the numbers of the pairs they are about
        css = {"agrees": "better", "contradicts": "worse"}.get(check, "muted")
        words += f' <span class="{css}">{pages.esc(_CHECK_TEXT.get(check, check))}</span>'
    return words


_CHECK_TEXT = {
    "agrees": "the numbers agree",
    "contradicts": "the numbers contradict it",
    "unconfirmed": "within the noise of the numbers",
}


def _claim_rows(claims: list[dict], value_key: str, prefix: str) -> str:
    pair_key = "best_pair" if value_key == "best_speedup" else "worst_pair"
    out = []
    for c in claims:
        out.append(
            f"<tr><td class='date'>{pages.esc(pages.day(c['sent_at']))}</td>"
            f"<td>{_ref_link(c['ref'], prefix + 'refs/')}</td>"
            f"<td>{pages.esc(c['project'])}</td>"
            f'<td><a class="page" href="{prefix}../messages/{esc_name(c["page"])}">'
            f"{pages.esc(c['subject'] or '(no subject)')}</a></td>"
            f"<td class='num'>{pages.esc(_times(c[value_key]))}</td>"
            f"<td class='label' title='{pages.esc(c[pair_key])}'>{pages.esc(c[pair_key])}</td>"
            f"<td>{pages.esc(_noise_text(c))}</td><td>{_words(c)}</td>"
            f"<td>{_landed_cell(c)}</td></tr>"
        )
    return "".join(out)


def _noise_text(c: dict) -> str:
    if c.get("outside_noise") is None:
        return "no noise stated (verdicts past the default threshold)"
    return "outside the stated noise" if c["outside_noise"] else "within the stated noise"


_CLAIM_HEAD = (
    "<thead><tr><th>date</th><th>issue / PR</th><th>project</th><th>message</th>"
    "<th class='num'>{what}</th><th>pair</th><th>noise</th><th>in words</th>"
    "<th>landed</th></tr></thead>"
)


def claims_page(speedups: list[dict], regressions: list[dict], n_claims: int) -> str:
    body = f"""
<p><a href="../index.html">← all benchmark messages</a> ·
<a href="series.html">series over time</a></p>
<h1>Largest claimed speed-ups and regressions</h1>
<p class="muted">{n_claims} messages report a comparison (the <code>claims</code> view). A
claim's speed-up is its best before/after pair: before/after for times, after/before for
rates. Only changes past the noise are listed: the noise the message states, else the
default threshold ({_pct(NOISE_DEFAULT)}). "In words" is what the message says, and
whether its numbers agree; "landed" follows the issue or PR to commits that name it and
to its JIRA resolution (the <code>landed</code> view).</p>
<h2>Speed-ups</h2>
<div class="scroll"><table class="data claims" id="speedups">{_CLAIM_HEAD.format(what="speed-up")}
<tbody>{_claim_rows(speedups, "best_speedup", "")}</tbody></table></div>
<h2>Regressions</h2>
<div class="scroll"><table class="data claims" id="regressions">
{_CLAIM_HEAD.format(what="worst pair")}
<tbody>{_claim_rows(regressions, "worst_speedup", "")}</tbody></table></div>
"""
    return pages.page("Largest claimed speed-ups and regressions", body)


def _pairs_table(pairs: list[dict]) -> str:
    if not pairs:
        return '<p class="muted">No before/after pairs (the claim is in words only).</p>'
    # the message pages' table: the same columns (direction, change, noise), same order
    return pages.comparisons_table(pairs)


def _commit_link(commit: dict) -> str:
    text = (commit.get("commit_id") or "")[:10] or "link"
    return pages._a(links.known_url(commit.get("url")), text, "commit") or pages.esc(text)


def ref_page_html(
    ref: str, claims: list[dict], commits: list[dict], resolution: dict | None
) -> str:
    """One issue or PR: its claims in order with their pairs, its commits and resolution."""
    first = claims[0]
    target = links.issue_url(first.get("issue_key"), first.get("repo")) or links.pr_url(
        first.get("repo"), first.get("pr_number")
    )
    parts = []
    for c in claims:
        parts.append(
            f"<section class='claim'><h3>{pages.esc(pages.day(c['sent_at']))} · "
            f"{pages.esc(c.get('actor') or c['from_name'])} · "
            f'<a class="page" href="../../messages/{esc_name(c["page"])}">'
            f"{pages.esc(c['subject'] or '(no subject)')}</a></h3>"
            f"<p>{pages.esc(c['direction'] or 'no direction known')}; best "
            f"{pages.esc(_times(c['best_speedup']) or '–')}, worst "
            f"{pages.esc(_times(c['worst_speedup']) or '–')}; {pages.esc(_noise_text(c))}"
            f" {_words(c)}</p>{_pairs_table(c['pairs_rows'])}</section>"
        )
    commit_rows = "".join(
        f"<tr><td class='date'>{pages.esc(pages.day(k['committed_at']))}</td>"
        f"<td>{pages.esc(k['repo'])}</td><td>{pages.esc(k['branch'])}</td>"
        f"<td>{pages.esc(k['title'])}</td>"
        f"<td>{_commit_link(k)}</td>"
        f"<td>{pages.esc(k['found_in'])}</td></tr>"
        for k in commits
    )
    commits_html = (
        '<div class="scroll"><table class="data commits"><thead><tr><th>date</th><th>repo</th>'
        "<th>branch</th><th>commit</th><th>id</th><th>found in</th></tr></thead>"
        f"<tbody>{commit_rows}</tbody></table></div>"
        if commits
        else '<p class="muted">No commit mail names it.</p>'
    )
    if resolution:
        versions = ", ".join(resolution.get("fix_versions") or []) or "none given"
        state = "resolved" if resolution.get("resolved") else "not resolved (or reopened)"
        res_html = (
            f"<dl class='meta resolution'><dt>status</dt><dd>{pages.esc(state)}</dd>"
            f"<dt>resolution</dt><dd>{pages.esc(resolution.get('resolution'))}</dd>"
            f"<dt>resolved</dt><dd>{pages.esc(pages.day(resolution.get('resolved_at')))}</dd>"
            f"<dt>fix versions</dt><dd>{pages.esc(versions)}</dd></dl>"
        )
    else:
        res_html = '<p class="muted">No JIRA resolution mail for it.</p>'
    body = f"""
<p><a href="../../index.html">← all benchmark messages</a> ·
<a href="../claims.html">largest claims</a></p>
<h1>{pages.esc(ref)}</h1>
<p>{pages._a(target, "the issue / pull request", "target")}</p>
<h2>Claims ({len(claims)})</h2>
{"".join(parts)}
<h2>Commits</h2>
{commits_html}
<h2>Resolution</h2>
{res_html}
"""
    return pages.page(ref, body)


def series_chart(points: list[tuple[datetime | None, float | None, str]], *, title: str) -> str:
    """Values over time: one dot per (date, value, note), a line through the dates'
    medians. NULL dates and values, NaN and infinities are left out."""
    pts = [
        (d, float(v), n)
        for d, v, n in points
        if d is not None and v is not None and math.isfinite(float(v))
    ][:MAX_POINTS]
    width, height, left, right, top, bottom = 640, 200, 64, 16, 12, 28
    plot_w, plot_h = width - left - right, height - top - bottom
    body = []
    if not pts:
        body.append('<text x="10" y="20" font-size="12">no data</text>')
    else:
        ts = [d.timestamp() for d, _, _ in pts]
        vs = [v for _, v, _ in pts]
        t0, t1 = min(ts), max(ts)
        lo, hi = min(min(vs), 0.0), max(vs)
        span_t, span_v = (t1 - t0) or 1.0, (hi - lo) or 1.0

        def xy(t: float, v: float) -> tuple[float, float]:
            # (divided first: huge values stay finite)
            return left + plot_w * ((t - t0) / span_t), top + plot_h * (1 - (v - lo) / span_v)

        by_time: dict[float, list[float]] = {}
        for t, v in zip(ts, vs, strict=True):
            by_time.setdefault(t, []).append(v)
        line = " ".join(
            "{:.1f},{:.1f}".format(*xy(t, statistics.median(vals)))
            for t, vals in sorted(by_time.items())
        )
        body.append(
            f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" '
            'stroke="#666"/>'
            f'<text x="{left - 4}" y="{top + 10}" text-anchor="end" font-size="11">'
            f"{escape(svg.fmt(hi))}</text>"
            f'<text x="{left - 4}" y="{top + plot_h}" text-anchor="end" font-size="11">'
            f"{escape(svg.fmt(lo))}</text>"
            f'<text x="{left}" y="{height - 8}" font-size="11">'
            f"{escape(pages.day(datetime.fromtimestamp(t0, UTC)))}</text>"
            f'<text x="{left + plot_w}" y="{height - 8}" text-anchor="end" font-size="11">'
            f"{escape(pages.day(datetime.fromtimestamp(t1, UTC)))}</text>"
            f'<polyline points="{line}" fill="none" stroke="{svg.PALETTE[0]}" stroke-width="1.5"/>'
        )
        for (d, v, note), t in zip(pts, ts, strict=True):
            x, y = xy(t, v)
            body.append(
                f'<circle class="point" cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{svg.PALETTE[1]}">'
                f"<title>{escape(pages.day(d))}: {escape(svg.fmt(v))} {escape(note)}</title>"
                "</circle>"
            )
    return (
        f'<svg class="chart series" role="img" xmlns="http://www.w3.org/2000/svg" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
        f"<title>{escape(title)}</title>" + "".join(body) + "</svg>"
    )


def series_page(series: list[dict], n_total: int) -> str:
    parts = []
    for s in series:
        name = " / ".join(str(x) for x in (s["label"], s["params"], s["metric"]) if x)
        chart = series_chart(s["points"], title=name)
        parts.append(
            f"<section class='series' id='s-{esc_name(s['series_key'])}'>"
            f"<h3>{pages.esc(name)} <span class='muted'>({pages.esc(s['project'])}, "
            f"{pages.esc(s['unit'])}; {s['messages']} messages, "
            f"{pages.esc(pages.day(s['first_seen']))} to {pages.esc(pages.day(s['last_seen']))})"
            f"</span></h3><p class='muted'>series_key {pages.esc(s['series_key'])}</p>{chart}"
            "</section>"
        )
    more = (
        f'<p class="muted">The {len(series)} series seen most often of {n_total}.</p>'
        if n_total > len(series)
        else ""
    )
    body = f"""
<p><a href="../index.html">← all benchmark messages</a> ·
<a href="claims.html">largest claims</a></p>
<h1>Series over time</h1>
<p class="muted">A series is one benchmark (project, label, parameters, metric, unit; the
<code>series</code> view) followed across messages; these were seen in more than one
message. Values in SI units where known; the line joins each date's median.</p>
{more}
{"".join(parts) or '<p class="muted">No series was seen in more than one message.</p>'}
"""
    return pages.page("Series over time", body)


def index_links() -> str:
    return (
        '<p class="findings"><a href="findings/claims.html">Largest claimed speed-ups and '
        'regressions, and whether they landed</a> · <a href="findings/series.html">Series '
        "over time</a></p>"
    )


# ---------------------------------------------------------------- queries and writing


def write_pages(
    con: duckdb.DuckDBPyConnection, out_dir: Path, write: Callable[[Path, str], None]
) -> str:
    """Write the findings pages under `out_dir/findings/`; returns the index's links."""
    if not _has_views(con):
        return ""
    base = out_dir / "findings"
    refs_dir = base / "refs"
    refs_dir.mkdir(parents=True, exist_ok=True)
    sent = SENT.format(col="sent_at")
    claims = _dicts(
        con,
        f"""SELECT * EXCLUDE (sent_at, first_committed_at, last_committed_at, resolved_at,
                             commits),
                   {sent} AS sent_at,
                   (SELECT m.actor FROM messages m WHERE m.msg_key = landed.msg_key) AS actor,
                   list_transform(commits, lambda k: struct_update(k,
                       committed_at := {SENT.format(col="k.committed_at")})) AS commits
            FROM landed
            ORDER BY landed.sent_at NULLS LAST, msg_key""",
    )
    for c in claims:
        c["page"] = links.page_name(c["msg_key"])
    # only verdicts beyond the noise (stated, else the default threshold) are listed
    speedups = sorted(
        (c for c in claims if c["improvements"] and (c["best_speedup"] or 0) > 1),
        key=lambda c: -c["best_speedup"],
    )[:TOP_CLAIMS]
    regressions = sorted(
        (c for c in claims if c["regressions"] and (c["worst_speedup"] or 1) < 1),
        key=lambda c: c["worst_speedup"],
    )[:TOP_CLAIMS]
    write(base / "claims.html", claims_page(speedups, regressions, len(claims)))

    pairs: dict[str, list[dict]] = {}
    for p in _dicts(
        con,
        """SELECT p.* FROM comparisons p WHERE p.msg_key IN (SELECT unnest(?::VARCHAR[]))
           ORDER BY p.msg_key, p.table_id NULLS FIRST, p.label, p.metric, p.after""",
        [[c["msg_key"] for c in claims if c["ref"]]],
    ):
        pairs.setdefault(p["msg_key"], []).append(p)
    by_ref: dict[str, list[dict]] = {}
    for c in claims:
        if c["ref"]:
            c["pairs_rows"] = pairs.get(c["msg_key"], [])
            by_ref.setdefault(c["ref"], []).append(c)
    commits: dict[str, dict[str, dict]] = {}
    for c in claims:  # the commits of an issue or PR: those of its claims, once each
        for k in c["commits"] or []:
            commits.setdefault(c["ref"], {})[k["msg_key"]] = k
    resolutions = {
        r["issue_key"]: r
        for r in _dicts(
            con,
            f"""SELECT issue_key, resolved, {SENT.format(col="resolved_at")} AS resolved_at,
                       resolution, fix_versions FROM resolutions""",
        )
    }
    written = set()
    for ref, ref_claims in by_ref.items():
        name = ref_page(ref)
        key = ref_claims[0].get("issue_key")
        ref_commits = sorted(
            commits.get(ref, {}).values(),
            key=lambda k: (k["committed_at"] is None, k["committed_at"] or 0, k["msg_key"]),
        )
        write(refs_dir / name, ref_page_html(ref, ref_claims, ref_commits, resolutions.get(key)))
        written.add(name)
    for old in refs_dir.glob("*.html"):  # pages of refs no longer in the database
        if old.name not in written:
            old.unlink()

    charted = _dicts(
        con,
        f"""SELECT series_key, project, label, params, metric, unit, messages,
                   {SENT.format(col="first_seen")} AS first_seen,
                   {SENT.format(col="last_seen")} AS last_seen, count(*) OVER () AS n_total
            FROM series WHERE messages > 1
            ORDER BY messages DESC, measurements DESC, series_key LIMIT ?""",
        [MAX_SERIES_CHARTED],
    )
    points: dict[str, list] = {}
    for key, at, value, variant in con.execute(
        f"""SELECT series_key, {sent}, coalesce(value_si, value), coalesce(variant, '')
            FROM measurement_series
            WHERE series_key IN (SELECT unnest(?::VARCHAR[]))
            ORDER BY sent_at, msg_key, ordinal""",
        [[s["series_key"] for s in charted]],
    ).fetchall():
        points.setdefault(key, []).append((at, value, variant))
    for s in charted:
        s["points"] = points.get(s["series_key"], [])
    n_series = charted[0]["n_total"] if charted else 0
    write(base / "series.html", series_page(charted, n_series))
    return index_links()
