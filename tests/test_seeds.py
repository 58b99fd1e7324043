"""The five seeds (issue 4) through the real extraction, checked with SQL on the DuckDB file.

The seeds are real list mails: `data/sample/<domain>/<list>/seed-NNN_*.eml` (built
by tests/make_sample.py from tests/fixtures/seeds). Each is written into a tmp
DATA_DIR as the crawler stores archives (`raw/<domain>/<list>/<YYYY-MM>.mbox.gz`,
mboxrd), then `python -m extract --data-dir DIR` runs as a user runs it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from tests.archives import write_mboxrd
from tests.seed_facts import SEED_002_SUMMARY, SEED_002_TIMINGS

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "data" / "sample"


REPLY_LIST = ("kudu.apache.org", "dev")


def quoting_reply(emls: list[Path], where: Path) -> Path:
    """A person's reply on another list that quotes seed 001's results in full."""
    seed = next(e for e in emls if e.name.startswith("seed-001_"))
    body = seed.read_bytes().split(b"\n\n", 1)[1].decode("utf-8")
    quoted = "\n".join("> " + line for line in body.splitlines())
    eml = where / REPLY_LIST[0] / REPLY_LIST[1] / "reply.eml"
    eml.parent.mkdir(parents=True)
    eml.write_text(
        "From: Jane Doe <jane@example.org>\n"
        "To: dev@kudu.apache.org\n"
        "Subject: Re: [jira] [Commented] (KUDU-1930) Improve performance of dictionary builder\n"
        "Date: Sat, 11 Mar 2017 09:00:00 +0000\n"
        "Message-ID: <reply-1@example.org>\n"
        "Content-Type: text/plain; charset=utf-8\n\n"
        "Nice, thanks for measuring! Did you also try the range partitioning?\n\n"
        "On Fri, Mar 10, 2017 at 10:49 PM, Todd Lipcon (JIRA) <jira@apache.org> wrote:\n"
        + quoted
        + "\n",
        encoding="utf-8",
    )
    return eml


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("seeds")
    emls = sorted(SAMPLE.glob("*/*/seed-*.eml"))
    assert len(emls) == 5, emls
    for eml in emls:
        write_mboxrd(eml, data_dir)
    write_mboxrd(quoting_reply(emls, tmp_path_factory.mktemp("reply")), data_dir)
    run = subprocess.run(
        [sys.executable, "-m", "extract", "--data-dir", str(data_dir), "--workers", "1"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    con = duckdb.connect(str(data_dir / "asf.duckdb"), read_only=True)
    yield con
    con.close()


def seed_key(db, seed: str) -> str:
    """msg_key of a seed, found by the archive its list and month gave it."""
    eml = next(SAMPLE.glob(f"*/*/seed-{seed}_*.eml"))
    list_address = f"{eml.parent.name}@{eml.parent.parent.name}"
    rows = db.execute("SELECT msg_key FROM messages WHERE list = ?", [list_address]).fetchall()
    assert len(rows) == 1, (seed, rows)
    return rows[0][0]


def measurements(db, key: str, where: str = "TRUE", params=()) -> list[tuple]:
    return db.execute(
        "SELECT m.label, m.variant, m.metric, m.value, m.written, m.unit, m.value_si, m.unit_si,"
        " t.format FROM measurements m LEFT JOIN result_tables t USING (table_id)"
        f" WHERE m.msg_key = ? AND ({where}) ORDER BY m.ordinal",
        [key, *params],
    ).fetchall()


def test_every_seed_is_stored_and_classified_as_a_benchmark(db):
    assert db.execute("SELECT count(*) FROM errors").fetchone()[0] == 0
    rows = db.execute(
        "SELECT list, is_benchmark, benchmark_score, len(benchmark_reasons) FROM messages"
        " WHERE message_id IS DISTINCT FROM 'reply-1@example.org'"
    ).fetchall()
    assert len(rows) == 5
    for list_address, is_benchmark, score, n_reasons in rows:
        assert is_benchmark, list_address
        assert 0.5 <= score <= 1.0 and n_reasons > 0, list_address


def test_seed_000_jmh_rows(db):
    key = seed_key(db, "000")
    scores = measurements(db, key, "t.format = 'jmh' AND m.metric = 'Score'")
    assert [(r[0].rsplit(".", 1)[-1], r[3], r[5]) for r in scores] == [
        ("parallel", 640.862, "ms/op"),
        ("serial", 51697.322, "ms/op"),
    ]
    # the error and the count qualify their score: columns of it, not rows beside it
    assert not measurements(db, key, "t.format = 'jmh' AND m.metric ILIKE '%error%'")
    stats = db.execute(
        "SELECT m.value, m.error, m.samples, round(m.noise, 4) FROM measurements m"
        " JOIN result_tables t USING (table_id) WHERE m.msg_key = ? AND t.format = 'jmh'"
        " AND m.metric = 'Score' ORDER BY m.value",
        [key],
    ).fetchall()
    assert stats == [(640.862, 113.354, 5.0, 0.1769), (51697.322, 322.747, 5.0, 0.0062)]
    # mode and count, per row, from the stored table
    cells = db.execute(
        "SELECT r[list_position(columns, 'Mode')], r[list_position(columns, 'Cnt')]"
        " FROM result_tables, unnest(rows) AS u(r) WHERE msg_key = ? AND format = 'jmh'",
        [key],
    ).fetchall()
    assert cells == [("ss", "5"), ("ss", "5")]


def export_service_used(context: str) -> str | None:
    """The table's "Export Service used" cell as the row's label/variant carry it."""
    answers = re.findall(r"\b(yes|no)\b(?![.\w])", context, re.I)
    return answers[-1].lower() if answers else None


def test_seed_000_export_table(db):
    key = seed_key(db, "000")
    rows = measurements(
        db, key, "m.table_id IS NOT NULL AND m.unit_si = 's' AND m.value IN (9, 27)"
    )
    found = {(r[3], export_service_used(f"{r[0]} {r[1]}")) for r in rows if r[8] != "jmh"}
    # 9 sec with the export service, 27 sec without
    assert found == {(9.0, "yes"), (27.0, "no")}, rows


def test_seed_001_four_runs_labelled_by_their_heading(db):
    key = seed_key(db, "001")
    rows = measurements(db, key, "m.metric IN ('real', 'user', 'sys')")
    runs: dict[str, dict[str, float]] = {}
    for _label, variant, metric, value, _w, _u, value_si, unit_si, _f in rows:
        assert unit_si == "s" and value_si == pytest.approx(value)
        runs.setdefault(variant, {})[metric] = value
    assert list(runs)[:3] == [
        "with 1 MM thread",
        "with 4 MM threads",
        "with 4 MM threads, hash partition",
    ]
    assert len(runs) == 4 and list(runs)[3].startswith("with 4 MM threads, using dense_hash_map")
    assert [r["real"] for r in runs.values()] == [1140.187, 618.348, 1233.386, 1147.478]
    assert runs["with 1 MM thread"] == {"real": 1140.187, "user": 398.411, "sys": 5.315}


def test_seed_002_before_and_after_pe_summaries(db):
    key = seed_key(db, "002")
    timings, summary = SEED_002_TIMINGS, SEED_002_SUMMARY
    for variant in timings:
        rows = measurements(db, key, "m.variant = ? AND t.format = 'hbase-pe'", [variant])
        assert [r[3] for r in rows if "timing" in r[2].lower()] == timings[variant]
        for word in ("min", "max", "avg"):
            hits = [r for r in rows if word in r[2].lower() and "dur" in r[2].lower()]
            assert [(r[3], r[5]) for r in hits] == [(summary[variant][word], "ms")], (variant, word)
        latency = [r for r in rows if "latency" in r[2].lower()]
        assert [(r[3], r[5]) for r in latency] == [(summary[variant]["latency"], "us")]
        rate = [r for r in rows if r[7] == "1/s"]
        assert [r[3] for r in rate] == [summary[variant]["tps"]]


def test_seed_003_twenty_one_gnu_time_runs_under_seven_headings(db):
    key = seed_key(db, "003")
    rows = measurements(db, key, "t.format = 'gnu-time'")
    headings = [
        "HDFS -text",
        "Beeline binary default fetchSize=1000",
        "Beeline http default fetchSize=1000",
        "Beeline knox http default fetchSize=1000",
        "Beeline binary fetchSize=10000",
        "Beeline http fetchSize=10000",
        "Beeline knox http fetchSize=10000",
    ]
    by_heading: dict[str, list[tuple]] = {}
    for r in rows:
        by_heading.setdefault(r[1], []).append(r)
    assert list(by_heading) == headings
    for heading, runs in by_heading.items():
        metrics = [r[2].lower() for r in runs]
        for m in ("user", "system", "elapsed", "cpu"):
            assert metrics.count(m) == 3, (heading, m)
    first = {r[2].lower(): (r[3], r[6], r[7]) for r in by_heading["HDFS -text"][:4]}
    assert first["user"] == (2.43, 2.43, "s")
    assert first["system"] == (0.39, 0.39, "s")
    assert first["elapsed"][0] == pytest.approx(2.10) and first["elapsed"][2] == "s"
    assert first["cpu"][0] == 134 and first["cpu"][2] == "1"


def test_seed_004_column_group_table_counted_once(db):
    key = seed_key(db, "004")
    assert db.execute("SELECT count(*) FROM result_tables WHERE msg_key = ?", [key]).fetchone() == (
        1,
    )
    rows = measurements(db, key)
    assert len(rows) == 24  # 4 rows × 2 groups × 3 columns, not the `was (Author: …)` copy
    variants = [
        f"{group} / {col}"
        for group in ("GCS", "HDFS")
        for col in ("No changes", "LongAdder + Per-Thread", "LongAdder")
    ]
    assert sorted({r[1] for r in rows}) == sorted(variants)
    assert sum(r[5] == "ms" for r in rows) == 12 and sum(r[5] == "%" for r in rows) == 12
    cpu_ms = [r for r in rows if r[2].lower().startswith("cpu") and r[5] == "ms"]
    assert [(r[1], r[3], r[4]) for r in cpu_ms][0] == ("GCS / No changes", 1430.0, "1,430")
    assert [r[3] for r in cpu_ms] == [1430, 1880, 3.86, 805.85, 349.64, 172.6]
    wall_pct = [r for r in rows if r[2].lower().startswith("wall") and r[5] == "%"]
    assert [r[3] for r in wall_pct] == [6.45, 1.11, 0.002, 6.34, 0.303, 0.146]
    assert db.execute(
        "SELECT count(*) FROM measurements WHERE msg_key = ? AND value = 1430", [key]
    ).fetchone() == (1,)


def test_a_reply_quoting_the_results_is_not_counted_again(db):
    row = db.execute(
        "SELECT msg_key, is_benchmark, len(formats) FROM messages WHERE message_id = ?",
        ["reply-1@example.org"],
    ).fetchone()
    assert row is not None and row[1] is False and row[2] == 0
    assert db.execute(
        "SELECT count(*) FROM measurements WHERE msg_key = ?", [row[0]]
    ).fetchone() == (0,)
    # the seed's own numbers are stored once, for the seed
    assert db.execute("SELECT count(*) FROM measurements WHERE value = 1140.187").fetchone() == (1,)


def test_every_stored_number_says_where_it_stands_and_the_report_marks_it(db, tmp_path):
    """Each measurement's span points at its written text in the stored body; the
    report's message page marks those numbers in the text."""
    from extract.outputs.report import build_report, links

    rows = db.execute(
        "SELECT m.span_start IS NULL, substr(g.body, m.span_start + 1,"
        " m.span_end - m.span_start) = m.written FROM measurements m JOIN messages g"
        " USING (msg_key)"
    ).fetchall()
    located = [same for missing, same in rows if not missing]
    assert len(located) >= 0.9 * len(rows) and all(located)
    path = Path(db.execute("SELECT path FROM duckdb_databases() WHERE NOT internal").fetchone()[0])
    build_report(path, tmp_path / "report")
    page = (tmp_path / "report" / "messages" / links.page_name(seed_key(db, "001"))).read_text()
    assert '<mark class="num" title="' in page and ">1140.187s<" in page
