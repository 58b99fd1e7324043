"""pgbench: fixtures from the real tool against a local PostgreSQL 15
(tests/fixtures/tools/pgbench.sh) and focused cases, some in the older forms."""

from __future__ import annotations

from extract.results.formats import by_name, run
from tests.formats.golden import FIXTURES, rows_of, text_of


def test_banner_and_command_line_are_no_variant():
    rows = rows_of(text_of("pgbench--timed"))
    assert {r["variant"] for r in rows} == {None}
    assert {r["label"] for r in rows} == {"<builtin: TPC-B (sort of)>"}


def test_flattened_runs_keep_their_inline_headings():
    rows = rows_of(text_of("pgbench--flattened-two-runs"))
    assert [r["variant"] for r in rows if r["metric"] == "tps"] == ["before", "after"]


def test_rate_limit_rows_and_crlf_as_stored():
    raw = (FIXTURES / "pgbench--script-rate-gitbox-crlf.txt").read_bytes().decode("utf-8")
    assert "\r\n" in raw
    got = {(r["label"], r["metric"]): (r["value"], r["unit"]) for r in rows_of(raw)}
    assert got == {
        (r["label"], r["metric"]): (r["value"], r["unit"])
        for r in rows_of(raw.replace("\r\n", "\n"))
    }
    assert got[("sleep.sql", "rate_limit_schedule_lag_max")][1] == "ms"
    assert got[("sleep.sql", "transactions_above_latency_limit_pct")][1] == "%"
    assert got[("progress 1.0 s", "lag")][1] == "ms"


def test_init_log_gives_its_step_times_and_claims_its_progress_lines():
    rows = rows_of(text_of("pgbench--init-log"))
    assert {r["format"] for r in rows} == {"pgbench"}
    assert {r["metric"] for r in rows} >= {"init_total", "init_vacuum", "init_primary_keys"}


def test_progress_lines_and_old_colon_form():
    text = (
        "progress: 5.0 s, 1234.5 tps, lat 8.101 ms stddev 2.301\n"
        "progress: 10.0 s, 1300.1 tps, lat 7.690 ms stddev 1.982\n"
        "transaction type: bench.sql\nscaling factor: 1\nnumber of clients: 10\n"
        "latency average: 7.9 ms\ntps = 1266.9 (including connections establishing)\n"
    )
    tables = run("pgbench", text)
    got = [(m.label, m.metric, m.value, m.unit) for t in tables for m in t.measurements]
    assert ("progress 10.0 s", "tps", 1300.1, "tx/s") in got
    assert ("bench.sql", "latency_average", 7.9, "ms") in got
    assert ("bench.sql", "tps_including_connections", 1266.9, "tx/s") in got
    assert not [g for g in got if g[2] in (1.0, 10.0) and g[1] != "tps"]  # settings give no rows


def test_pg13_summary_and_rate_progress():
    # the PostgreSQL <= 13 forms as documented (`including/excluding connections`, `lag`,
    # `(0.150 %)`), own numbers; not checked against pgbench.c here
    text = (
        "starting vacuum...end.\n"
        "progress: 1.0 s, 199.8 tps, lat 2.105 ms stddev 0.512, lag 0.301 ms\n"
        "transaction type: <builtin: select only>\nscaling factor: 10\nquery mode: prepared\n"
        "number of clients: 8\nnumber of threads: 2\nnumber of transactions per client: 1000\n"
        "number of transactions actually processed: 8000/8000\n"
        "number of transactions skipped: 12 (0.150 %)\n"
        "latency average = 0.954 ms\nlatency stddev = 0.211 ms\n"
        "tps = 8370.123456 (including connections establishing)\n"
        "tps = 8391.654321 (excluding connections establishing)\n"
    )
    got = {(m.label, m.metric): (m.value, m.unit) for t in run("pgbench", text)
           for m in t.measurements}  # fmt: skip
    assert got[("progress 1.0 s", "lag")] == (0.301, "ms")
    assert got[("<builtin: select only>", "transactions_skipped_pct")] == (0.15, "%")
    assert got[("<builtin: select only>", "tps_excluding_connections")] == (8391.654321, "tx/s")
    assert got[("<builtin: select only>", "transactions_processed")] == (8000.0, "count")


def test_tps_alone_in_prose_is_not_pgbench():
    assert run("pgbench", "On master we got tps = 1234, on the branch more.") == []


def test_statement_latencies():
    text = (
        "tps = 896.967014 (without initial connection time)\n"
        "statement latencies in milliseconds:\n"
        "         0.002  \\set aid random(1, 100000 * :scale)\n"
        "         0.183  BEGIN;\n"
        "         0.260  UPDATE pgbench_accounts SET abalance = abalance + :delta;\n"
        "         3.148  END;\n"
        "\nThat is all.\n"
    )
    tables = [t for t in run("pgbench", text) if t.caption and "statement" in t.caption]
    (table,) = tables
    assert [(m.label, m.value) for m in table.measurements][1] == ("BEGIN;", 0.183)
    assert len(table.rows) == 4
    assert table.source(text).endswith("END;")


def test_statements_with_failures_column():
    rows = rows_of(text_of("pgbench--progress-statements"))
    statements = [
        r for r in rows if r["metric"] == "latency" and not r["label"].startswith("progress")
    ]
    assert len(statements) == 11 and statements[-1]["label"] == "END;"


ODD = ["", "tps = ", "tps = 1", "progress: 1.0 s, 1 tps, lat", "done in 1.00 s (drop tables",
       "statement latencies in milliseconds:\n", "pgbench (15.1", "-" * 5000,
       "\x00\ufffd"]  # fmt: skip


def test_parse_survives_odd_input():
    parse = by_name("pgbench").parse
    for text in ODD:
        assert isinstance(parse(text), list)


def test_a_version_like_latency_limit_is_no_pgbench_line():
    # `1.2.3 ms` is no limit pgbench prints: the line is not read as its count
    line = "number of transactions above the {} ms latency limit: 5 (0.500 %)\n"
    summary = "transaction type: <builtin: TPC-B (sort of)>\nlatency average = 11.013 ms\n"
    metrics = {r["metric"] for r in rows_of(summary + line.format("50.0"))}
    assert {"transactions_above_latency_limit", "latency_average"} <= metrics
    metrics = {r["metric"] for r in rows_of(summary + line.format("1.2.3"))}
    assert "transactions_above_latency_limit" not in metrics and "latency_average" in metrics
