"""The report and the exports take any value the database can hold: NULL in every
column, infinities and NaN, numbers as big as a DOUBLE gets (a 400-digit number or
`1e999` written in a before/after table), timestamps outside Python's years, empty
tables; and the CSV export neutralises text cells that a spreadsheet would run as a
formula (OWASP: a leading `'` before `=`, `+`, `-`, `@`, tab, CR), never numbers."""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path

import duckdb
import pytest

from extract.db.schema import TABLES, create_statements
from extract.outputs.export import export
from extract.outputs.report import build_report, svg
from extract.pipeline import _finite
from tests.outputs.report_db import make_db, measurement, message

INF = float("inf")
NAN = float("nan")
HUGE = 1.7976931348623157e308  # the largest DOUBLE


def _row(key: str, variant: str, value, ordinal: int, **more) -> dict:
    return measurement(key, ordinal, label="q1", variant=variant, value=value, unit="ms",
                       value_si=None if value is None else value, unit_si="s", **more)  # fmt: skip


def hostile_db(path: Path) -> Path:
    """Messages whose before/after pairs hold every awkward number, and one message
    whose every column but its key is NULL."""
    values = [
        (None, 1.0),  # NULL before (a number the pipeline could not store)
        (1.0, None),
        (INF, 1.0),
        (1.0, -INF),
        (NAN, 2.0),
        (HUGE, -HUGE),
        (0.0, 0.0),
        (5e-324, HUGE),
    ]
    messages, tables, rows = [], [], []
    for i, (before, after) in enumerate(values):
        key = f"m{i}"
        messages.append(message(key, formats=["jmh"]))
        table = {"table_id": f"{key}#0", "msg_key": key, "ordinal": 0, "format": "jmh"}
        tables.append({**table, "columns": ["a", None], "rows": [["1", None], None]})
        rows += [_row(key, "before", before, 0), _row(key, "after", after, 1)]
    # every column NULL but the key and the benchmark flag
    messages.append({"msg_key": "nulls", "is_benchmark": True})
    tables.append({"table_id": "nulls#0", "msg_key": "nulls"})
    rows += [{"msg_key": "nulls", "ordinal": 0}, {"msg_key": "nulls", "ordinal": 1}]
    rows += [{"msg_key": "nulls", "variant": "before", "value": 1.0, "ordinal": 2},
             {"msg_key": "nulls", "variant": "after", "value": None, "ordinal": 3}]  # fmt: skip
    db = make_db(path, messages, tables, rows)
    con = duckdb.connect(str(db))
    try:  # dates Python cannot hold, and infinite ones
        con.execute("""INSERT INTO messages (msg_key, list, is_benchmark, sent_at, subject)
                       VALUES ('far', 'a@b.apache.org', true, '294000-01-01'::TIMESTAMPTZ, '=1+1'),
                              ('inf', NULL, true, 'infinity'::TIMESTAMPTZ, NULL),
                              ('ninf', 'c@d.apache.org', true, '-infinity'::TIMESTAMPTZ, '@x')""")
        con.execute("INSERT INTO archives (path, size, n_messages) VALUES ('=cmd', NULL, -5)")
    finally:
        con.close()
    return db


def test_pair_chart_takes_any_number():
    numbers = [None, INF, -INF, NAN, HUGE, -HUGE, 0.0, 5e-324, 1e308]
    pairs = [("x", "before", a, "after", b, "") for a in numbers for b in numbers]
    chart = svg.pair_bars(pairs, title="t")
    _assert_drawable(chart)
    chart_width = _widths(chart)[0]  # the <svg>'s own
    for w in _widths(chart):
        assert 0 <= w <= chart_width


def _widths(chart: str) -> list[float]:
    return [float(x) for x in re.findall(r' width="([^"]+)"', chart)]


def _assert_drawable(chart: str) -> None:
    """Every coordinate a finite number."""
    coords = re.findall(r' (?:x|y|x1|x2|y1|y2|width|height)="([^"]*)"', chart)
    assert coords and all(math.isfinite(float(c)) for c in coords), coords


def test_other_charts_take_any_number():
    numbers = [None, INF, -INF, NAN, HUGE, 0.0]
    bars = svg.hbar_chart([(None, v, None) for v in numbers], title="t")
    cols = svg.stacked_columns(["2020", None], [("a", [INF, None]), (None, [NAN, HUGE])], title="t")
    for chart in (bars, cols):
        _assert_drawable(chart)
    for v in numbers:
        svg.fmt(v)  # no exception


def test_report_takes_any_stored_value(tmp_path):
    db = hostile_db(tmp_path / "h.duckdb")
    summary = build_report(db, tmp_path / "report")
    assert summary.n_messages == 12
    index = summary.index.read_text(encoding="utf-8")
    assert "=1+1" in index  # the message with a date Python cannot hold is listed
    for page in (tmp_path / "report" / "messages").glob("*.html"):
        for chart in re.findall(r"<svg.*?</svg>", page.read_text(encoding="utf-8")):
            _assert_drawable(chart)


def test_report_and_export_of_an_empty_database(tmp_path):
    db = make_db(tmp_path / "empty.duckdb", [])
    summary = build_report(db, tmp_path / "report")
    assert summary.n_messages == 0 and "no data" in summary.index.read_text(encoding="utf-8")
    written = export(duckdb.connect(str(db)), tmp_path / "export")
    assert written and all(n == 0 for _, n in written)


def test_export_takes_any_value_and_neutralises_formulas(tmp_path):
    db = hostile_db(tmp_path / "h.duckdb")
    con = duckdb.connect(str(db))
    try:
        con.execute("""INSERT INTO messages (msg_key, subject, from_name, body, size,
                                             benchmark_score, refs)
                       VALUES ('-k', '+SUM(A1)', '@evil', '=HYPERLINK(1)', -3, -1.5,
                               ['=in a list']),
                              ('tabs', e'\\tx', e'\\rcr', 'plain', 0, NULL, NULL)""")
        written = dict(export(con, tmp_path / "export"))
    finally:
        con.close()
    assert written[tmp_path / "export" / "messages.csv"] == 14
    with open(tmp_path / "export" / "messages.csv", newline="", encoding="utf-8") as f:
        rows = {r["msg_key"]: r for r in csv.DictReader(f)}
    k = rows["'-k"]  # text cells: neutralised ...
    assert (k["subject"], k["from_name"], k["body"]) == ("'+SUM(A1)", "'@evil", "'=HYPERLINK(1)")
    assert rows["tabs"]["subject"] == "'\tx" and rows["tabs"]["from_name"] == "'\rcr"
    assert (k["size"], k["benchmark_score"]) == ("-3", "-1.5")  # ... numbers never
    assert rows["far"]["subject"] == "'=1+1"
    with open(tmp_path / "export" / "archives.csv", newline="", encoding="utf-8") as f:
        (arch,) = list(csv.DictReader(f))
    assert arch["path"] == "'=cmd" and arch["n_messages"] == "-5"
    # Parquet keeps every value as it is stored
    parquet = str(tmp_path / "export" / "messages.parquet")
    stored = dict(duckdb.sql(f"SELECT msg_key, subject FROM '{parquet}'").fetchall())
    assert stored["-k"] == "+SUM(A1)" and stored["far"] == "=1+1" and "nulls" in stored


@pytest.mark.parametrize("written", ["1e999", "9" * 400, "-1e999", "nan"])
def test_numbers_a_double_cannot_hold_are_stored_as_null(written):
    assert _finite(float(written)) is None


def test_schema_covers_every_table():
    assert len(create_statements()) == len(TABLES)
