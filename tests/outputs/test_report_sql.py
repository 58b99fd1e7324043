"""`make sql` (one-shot and the prompt, as a real subprocess) and `make export`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import duckdb

from extract.outputs.export import main as export_main
from extract.outputs.sql import format_table
from tests.outputs.report_db import make_db, measurement, message

REPO = Path(__file__).resolve().parents[2]


def _db(tmp_path):
    msgs = [message("a", list="issues@kudu.apache.org"), message("b", is_benchmark=False)]
    ms = [
        measurement("a", 0, label="x", variant="before", value=4.0, unit="s", value_si=4.0,
                    unit_si="s", side="before", side_name="before", quantity="Score",
                    quantity_key="variants|x|Score"),
        measurement("a", 1, label="x", variant="after", value=1.0, unit="s", value_si=1.0,
                    unit_si="s", side="after", side_name="after", quantity="Score",
                    quantity_key="variants|x|Score"),
    ]  # fmt: skip
    tables = [{"table_id": "a#0", "msg_key": "a", "ordinal": 0, "format": "jmh",
               "columns": ["Benchmark", "Score"], "rows": [["x", "4.0"]]}]  # fmt: skip
    return make_db(tmp_path / "asf.duckdb", msgs, tables, ms)


def _sql(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "extract.outputs.sql", *args],
        cwd=REPO, input=stdin, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_format_table_aligns_numbers_right():
    text = format_table(["name", "n"], [("a", 1), ("bbb", 22.5), (None, None)])
    assert text.splitlines() == [
        "name |    n",
        "-----+-----",
        "a    |    1",
        "bbb  | 22.5",
        "NULL | NULL",
        "(3 rows)",
    ]


def test_sql_one_shot_and_views(tmp_path):
    db = _db(tmp_path)
    done = _sql("--db", str(db), "-c", "SELECT project, ratio FROM comparisons JOIN "
                "benchmark_messages USING (msg_key)")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[2].split() == ["kudu", "|", "0.25"]
    bad = _sql("--db", str(db), "-c", "SELECT nope FROM messages")
    assert bad.returncode == 1 and "nope" in bad.stderr
    missing = _sql("--data-dir", str(tmp_path / "none"))
    assert missing.returncode == 1 and "no database" in missing.stderr


def test_sql_prompt_reads_multi_line_statements_and_dot_commands(tmp_path):
    db = _db(tmp_path)
    script = ".tables\nSELECT count(*)\n  AS n FROM messages;\n.schema by_project\n.quit\n"
    done = _sql("--db", str(db), stdin=script)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for name in ("messages", "measurements", "comparisons", "by_project", "benchmark_messages"):
        assert name in out
    assert "n\n-\n2\n(1 row)" in out.replace("sql> ", "").replace("...> ", "")
    assert "benchmark_share" in out  # from .schema by_project


def test_export_writes_every_table_and_view_as_parquet_and_csv(tmp_path, capsys):
    db = _db(tmp_path)
    assert export_main(["--data-dir", str(tmp_path)]) == 0
    out = tmp_path / "export"
    con = duckdb.connect()
    expected = {"messages": 2, "result_tables": 1, "measurements": 2, "errors": 0,
                "archives": 0, "benchmark_messages": 1, "comparisons": 1, "by_project": 2,
                "by_list": 2}  # fmt: skip
    for name, n in expected.items():
        pq, csv = out / f"{name}.parquet", out / f"{name}.csv"
        assert con.execute("SELECT count(*) FROM read_parquet(?)", [str(pq)]).fetchone()[0] == n
        assert len(csv.read_text().splitlines()) == n + 1  # header + rows
    ratio = con.execute(
        "SELECT ratio FROM read_parquet(?)", [str(out / "comparisons.parquet")]
    ).fetchone()[0]
    assert ratio == 0.25
    assert not list(out.glob(".*.tmp"))
    assert f"{out / 'messages.parquet'}  2 rows" in capsys.readouterr().out
    assert db.exists()


def test_sql_prints_every_statement_in_each_format(tmp_path):
    import csv
    import io
    import json

    db = _db(tmp_path)
    two = "SELECT msg_key FROM messages ORDER BY 1; SELECT 'a|b' AS pipe, 2.5 AS x"
    table = _sql("--db", str(db), "-c", two)
    assert table.returncode == 0, table.stderr
    first, second = table.stdout.strip().split("\n\n")
    assert first.splitlines()[2:] == ["a", "b", "(2 rows)"]
    assert second.splitlines()[2].split() == ["a|b", "|", "2.5"]

    as_csv = _sql("--db", str(db), "--format", "csv", "-c", two)
    first, second = as_csv.stdout.strip().split("\n\n")
    assert list(csv.reader(io.StringIO(first))) == [["msg_key"], ["a"], ["b"]]
    assert list(csv.reader(io.StringIO(second))) == [["pipe", "x"], ["a|b", "2.5"]]

    as_json = _sql("--db", str(db), "--format", "json", "-c", "SELECT msg_key, sent_at "
                   "FROM messages ORDER BY 1")  # fmt: skip
    rows = json.loads(as_json.stdout)
    assert [r["msg_key"] for r in rows] == ["a", "b"] and rows[0]["sent_at"].startswith("2020")

    md = _sql("--db", str(db), "--format", "markdown", "-c", "SELECT 'a|b' AS pipe")
    assert md.stdout.splitlines() == ["| pipe |", "|---|", "| a\\|b |"]

    wide = "SELECT repeat('x', 100) AS long"
    cut = _sql("--db", str(db), "--width", "10", "-c", wide).stdout.splitlines()[2]
    assert cut == "x" * 9 + "…"
    whole = _sql("--db", str(db), "--width", "0", "-c", wide).stdout.splitlines()[2]
    assert whole == "x" * 100
