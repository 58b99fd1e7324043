"""sql-timing: the timing lines SQL shells print after a statement. From running the
real clients here (tests/fixtures/tools/sql-timing.sh): psql `\\timing` against a
local PostgreSQL, sqlite3 `.timer on`, the MariaDB client; the Hive CLI, beeline and
impala-shell forms are written from their documented output."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import by_name
from tests.formats.damage import (
    MAIL_DAMAGE,
    VALUES,
    check_damaged,
    check_shared_sample,
    own_cases,
    rows,
)
from tests.formats.golden import text_of

# A flattened mail loses the line starts the statements (labels) and psql's
# `Time:` lines are found by: the other clients' values must still come out.
FLAT_KEYS = VALUES
FLAT_UNREADABLE = {"sql-timing--psql-timing"}


@pytest.mark.parametrize("damage", MAIL_DAMAGE)
@pytest.mark.parametrize("case", own_cases("sql-timing"))
def test_fixture_survives_mail_damage(case, damage):
    if damage == "flattened":
        if case in FLAT_UNREADABLE:
            pytest.skip("psql's `Time: N ms` is only read at a line start")
        check_damaged(case, damage, FLAT_KEYS)
    else:
        check_damaged(case, damage)


def test_psql_command_tags_are_not_statements():
    got = rows(text_of("sql-timing--psql-timing"))
    labels = [r[1] for r in got]
    assert labels[0].startswith("CREATE TABLE orders AS SELECT")
    assert "SELECT 300000" not in labels and "CREATE INDEX" not in labels
    assert labels[2] == "CREATE INDEX orders_customer ON orders (customer)"


def test_psql_long_timing_keeps_milliseconds():
    got = rows(text_of("sql-timing--psql-timing"))
    last = got[-1]
    assert last[1] == "SELECT pg_sleep(1.2)" and last[5] == "ms" and last[4] > 1000


def test_the_heading_holds_for_the_whole_session():
    got = rows(text_of("sql-timing--psql-timing"))
    assert {r[2] for r in got} == {"psql session, before adding the index and after"}


def test_sqlite_run_time_has_real_user_sys():
    got = rows(text_of("sql-timing--sqlite-timer"))
    assert [r[3] for r in got[:3]] == ["real", "user", "sys"]
    assert {r[0] for r in got} == {"sql-timing"}  # not read as `time -p`


def test_mysql_info_lines_are_bookkeeping():
    got = rows(text_of("sql-timing--mariadb-client"))
    assert {r[0] for r in got} == {"sql-timing"}
    assert not [r for r in got if r[3] in ("Records", "Duplicates", "Warnings", "Changed")]
    assert ("sql-timing", "SELECT * FROM t WHERE v = 99") in {r[:2] for r in got}


def test_sql_timing_label_is_the_statement():
    text = (
        "mysql> select count(*) from lineitem;\n+----------+\n| count(*) |\n+----------+\n"
        "| 6001215 |\n+----------+\n1 row in set (1.23 sec)\n"
    )
    found = rows(text, "sql-timing")
    assert ("sql-timing", "select count(*) from lineitem", None, "elapsed", 1.23, "s") in found


def test_never_raises_and_stays_linear():
    parse = by_name("sql-timing").parse
    for text in ["", "\n\n\n", "Time taken:", "Run Time: real", "rows in set ()", "\x00" * 50]:
        assert isinstance(parse(text), list)
    text = ("select 1 Time: 1 ms\n" + "\n" * 50 + "Query OK, x ") * 1000 + " " * 20000
    start = time.perf_counter()
    parse(text)
    assert time.perf_counter() - start < 2.0


@pytest.mark.shared
@pytest.mark.parametrize(
    "directory, name",
    [
        ("sql-cli-timing", "mysql-rows-in-set"),
        ("sql-cli-timing", "spark-pr4604-time-taken"),
    ],
)
def test_shared_sample(directory, name):
    """A real third-party sample (../shared/formats): its listed rows are found."""
    check_shared_sample(directory, name)
