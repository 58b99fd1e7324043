"""The static HTML report: `build_report(db, out_dir)` writes `out_dir/index.html`, one
page per benchmark message under `out_dir/messages/` and `out_dir/errors.html` (what
the extraction recorded in `errors`), and returns a `ReportSummary`. The database is
opened read-only.

The site is self-contained (inline CSS, JS and SVG charts, no network), so it opens
from disk. Queries live here (I/O edge); the markup is built by `pages` and `svg`.
"""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import duckdb

from extract.outputs.connect import open_database
from extract.outputs.report import findings, links, pages

TOP_PROJECTS = 7  # the per-year chart stacks this many projects, then "other"

# sent_at as Python can hold it: NULL for infinite dates and years outside 1..9999
# (a TIMESTAMPTZ goes to year 294247), which the report shows without a date.
SENT_AT = """CASE WHEN isfinite(sent_at)
                  AND year(sent_at AT TIME ZONE 'UTC') BETWEEN 1 AND 9998
             THEN sent_at END"""


@dataclass(frozen=True)
class ReportSummary:
    index: Path
    n_messages: int  # benchmark messages, one page each
    n_pages_removed: int  # stale pages of messages no longer in the database


def _dicts(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> list[dict]:
    cur = con.execute(sql, params or [])
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]


def _sender(row: dict) -> str:
    """Who wrote it: the actor (the JIRA commenter, the GitHub user) when the message
    names one, since gateway mail comes "from" GitBox, ASF GitHub Bot or Jira."""
    return (row.get("actor") or "").strip() or row.get("from_name") or row.get("from_address") or ""


# the messages' actor, which benchmark_messages does not carry
ACTOR = "(SELECT m.actor FROM messages m WHERE m.msg_key = benchmark_messages.msg_key) AS actor"


def overview(con: duckdb.DuckDBPyConnection) -> dict:
    """Everything the index page shows, from the views."""
    totals = _dicts(
        con,
        """SELECT (SELECT count(DISTINCT list) FROM messages) AS lists,
                  (SELECT count(*) FROM messages) AS messages,
                  (SELECT count(*) FROM benchmark_messages) AS benchmark_messages,
                  (SELECT coalesce(sum(n_tables), 0) FROM benchmark_messages) AS tables,
                  (SELECT coalesce(sum(n_measurements), 0) FROM benchmark_messages)
                      AS measurements,
                  (SELECT count(DISTINCT project) FROM benchmark_messages) AS projects,
                  (SELECT count(*) FROM errors) AS errors""",
    )[0]
    per_year = con.execute(
        f"""SELECT coalesce(project, '') AS project,
                   CAST(year(sent_at AT TIME ZONE 'UTC') AS VARCHAR) AS year, count(*) AS n
            FROM benchmark_messages WHERE ({SENT_AT}) IS NOT NULL GROUP BY ALL"""
    ).fetchall()
    years = sorted({y for _, y, _ in per_year})
    # every year in the range, so gaps show (unless a broken date stretches it absurdly)
    if years and int(years[-1]) - int(years[0]) <= 40:
        years = [str(y) for y in range(int(years[0]), int(years[-1]) + 1)]
    by_project: dict[str, int] = {}
    for project, _, n in per_year:
        by_project[project] = by_project.get(project, 0) + n
    ranked = sorted(by_project, key=lambda p: (-by_project[p], p))
    top = ranked[:TOP_PROJECTS] if len(ranked) > TOP_PROJECTS + 1 else ranked
    series = {p: [0.0] * len(years) for p in top}
    if len(top) < len(ranked):
        series["other"] = [0.0] * len(years)
    for project, year, n in per_year:
        series[project if project in top else "other"][years.index(year)] += n
    formats = con.execute(
        """SELECT coalesce(t.format, '') AS format, count(*) AS n_tables,
                  count(DISTINCT t.msg_key) AS n_messages
           FROM result_tables t JOIN benchmark_messages b USING (msg_key)
           GROUP BY 1 ORDER BY 2 DESC, 1"""
    ).fetchall()
    by_list = _dicts(
        con, "SELECT * FROM by_list ORDER BY benchmark_share DESC, messages DESC, list"
    )
    lists = [
        {"list": r["list"] or "", "n": r["messages"], "bench": r["benchmark_messages"],
         "share": float(r["benchmark_share"] or 0)}
        for r in by_list
    ]  # fmt: skip
    messages = _dicts(
        con,
        f"""SELECT msg_key, list, {SENT_AT} AS sent_at,
                   strftime(({SENT_AT}) AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S') AS sent_iso,
                   from_name, from_address, {ACTOR}, subject, issue_key, repo, pr_number,
                   permalink,
                   list_filter(coalesce(formats, []), lambda f: f IS NOT NULL) AS formats,
                   coalesce(n_measurements, 0) AS n_measurements
            FROM benchmark_messages ORDER BY 3 DESC NULLS LAST, msg_key""",
    )
    for msg in messages:
        msg["sender"] = _sender(msg)
        msg["page"] = links.page_name(msg["msg_key"])
        msg["sent_iso"] = msg["sent_iso"] or ""
    projects = _dicts(
        con,
        """SELECT coalesce(project, '') AS project, lists, messages, benchmark_messages,
                  benchmark_share, measurements
           FROM by_project WHERE benchmark_messages > 0""",
    )
    return {
        "totals": totals,
        "projects": projects,
        "years": years,
        "year_series": list(series.items()),
        "formats": formats,
        "lists": lists,
        "messages": messages,
        "built": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def recorded_errors(
    con: duckdb.DuckDBPyConnection, limit: int = pages.MAX_ERRORS_LISTED
) -> tuple[list[dict], list[dict], int]:
    """What the errors page shows: counts per stage and reason's first words, the
    first `limit` errors (by archive), and how many there are."""
    (total,) = con.execute("SELECT count(*) FROM errors").fetchone()
    kinds = _dicts(
        con,
        r"""SELECT coalesce(stage, '') AS stage,
                  coalesce(regexp_extract(reason, '^[^:(\[]*'), '') AS kind,
                  count(*) AS n, count(DISTINCT archive) AS archives
           FROM errors GROUP BY ALL ORDER BY n DESC, stage, kind""",
    )
    rows = _dicts(
        con,
        """SELECT archive, position, message_id, stage, reason FROM errors
           ORDER BY archive, position NULLS FIRST LIMIT ?""",
        [limit],
    )
    return kinds, rows, total


def _grouped(cur: duckdb.DuckDBPyConnection, sql: str):
    """(msg_key, rows as dicts) from a query ordered by msg_key, streamed."""
    cur.execute(sql)
    names = [d[0] for d in cur.description]
    key, group = None, []
    while batch := cur.fetchmany(1000):
        for row in batch:
            item = dict(zip(names, row, strict=True))
            if item["msg_key"] != key and group:
                yield key, group
                group = []
            key = item["msg_key"]
            group.append(item)
    if group:
        yield key, group


class _Follower:
    """Walks a msg_key-ordered stream alongside the messages (a merge join), so only one
    message's tables and comparisons are in memory at a time."""

    def __init__(self, stream):
        self.stream = stream
        self.head = next(stream, None)

    def take(self, key: str) -> list[dict]:
        while self.head is not None and self.head[0] < key:
            self.head = next(self.stream, None)
        if self.head is not None and self.head[0] == key:
            rows, self.head = self.head[1], next(self.stream, None)
            return rows
        return []


def _message_pages(con: duckdb.DuckDBPyConnection):
    """(page name, html) for every benchmark message, one message at a time."""
    tables = _Follower(
        _grouped(
            con.cursor(),
            """SELECT t.msg_key, t.format, t.caption, t.variant,
                      coalesce(t.columns, []) AS columns,
                      list_transform(coalesce(t.rows, []), lambda r: coalesce(r, [])) AS rows,
                      t.source
               FROM result_tables t JOIN benchmark_messages b USING (msg_key)
               ORDER BY t.msg_key, t.ordinal""",
        )
    )
    comparisons = _Follower(
        _grouped(
            con.cursor(),
            """SELECT c.* FROM comparisons c JOIN benchmark_messages b USING (msg_key)
               ORDER BY c.msg_key, c.table_id NULLS FIRST, c.label, c.metric, c.after""",
        )
    )
    # where in the text each stored number stands (its span in `body`), to mark it
    spans = _Follower(
        _grouped(
            con.cursor(),
            """SELECT m.msg_key, m.span_start, m.span_end, m.label, m.metric, m.written, m.unit
               FROM measurements m JOIN benchmark_messages b USING (msg_key)
               WHERE m.span_start IS NOT NULL
               ORDER BY m.msg_key, m.span_start""",
        )
    )
    for key, group in _grouped(
        con.cursor(),
        f"""SELECT msg_key, list, {SENT_AT} AS sent_at, from_name, from_address, {ACTOR},
                   subject, kind, issue_key, repo, pr_number, url, permalink,
                   list_filter(coalesce(formats, []), lambda f: f IS NOT NULL) AS formats,
                   coalesce(n_measurements, 0) AS n_measurements, body
            FROM benchmark_messages ORDER BY msg_key""",
    ):
        msg = group[0]  # msg_key is unique
        msg["sender"] = _sender(msg)
        msg["numbers"] = spans.take(key)
        html = pages.message_page(msg, tables.take(key), comparisons.take(key))
        yield links.page_name(key), html


_PAGE_FILE = re.compile(r"[0-9a-f]{24}\.html")


def _write(path: Path, text: str) -> None:
    """Write atomically, so a reader never sees half a page; leave an identical page alone
    (a rebuild then only touches what changed)."""
    with contextlib.suppress(OSError):
        if path.read_text(encoding="utf-8") == text:
            return
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def build_report(
    db: Path | str, out_dir: Path | str, *, page_rows: int = pages.PAGE_ROWS
) -> ReportSummary:
    """Write the report for the database `db` into `out_dir` (the index shows
    `page_rows` benchmark messages at a time)."""
    db, out_dir = Path(db), Path(out_dir)
    con = open_database(db)  # read-only: the report never blocks another reader
    msg_dir = out_dir / "messages"
    try:
        msg_dir.mkdir(parents=True, exist_ok=True)
        data = overview(con)
        data["db_name"] = db.name
        written = set()
        for name, html in _message_pages(con):
            _write(msg_dir / name, html)
            written.add(name)
        _write(out_dir / "errors.html", pages.errors_page(*recorded_errors(con)))
        data["findings_links"] = findings.write_pages(con, out_dir, _write)
    finally:
        con.close()
    stale = [p for p in msg_dir.iterdir() if _PAGE_FILE.fullmatch(p.name) and p.name not in written]
    for p in stale:
        p.unlink()
    index = out_dir / "index.html"
    _write(index, pages.index_page(data, page_rows))
    return ReportSummary(index=index, n_messages=len(written), n_pages_removed=len(stale))
