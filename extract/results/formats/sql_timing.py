"""Timing lines printed by SQL shells after a statement: returns one table per line.

Recognises
* Hive CLI / spark-sql: `Time taken: 1.23 seconds[, Fetched: 4 row(s)]`
  → metrics `time_taken` (s) and `rows_fetched` (count);
* MySQL-protocol clients (MySQL, Doris, ShardingSphere): `3 rows in set (0.00 sec)`,
  `Empty set (0.01 sec)`, `Query OK, 5 rows affected (0.02 sec)` → `elapsed` (s),
  `rows_returned` / `rows_affected` (count);
* beeline / sqlline: `4 rows selected (0.301 seconds)`, `No rows affected (0.1 seconds)`;
* impala-shell: `Fetched 4 row(s) in 0.31s`; psql `\\timing`: `Time: 12.345 ms`.

Label = the SQL statement before the line (`select * from tempp`) when one is found
after the previous timing line; variant = the heading before the block
(`before this change`). Unit `s` (`ms` for psql), counts `count`.
"""

from __future__ import annotations

import re

from extract.results.formats._context import block_heading, measure
from extract.results.formats.base import FormatInfo, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="sql-timing",
    description="SQL CLI timing lines (Time taken, rows in set)",
    signature="`Time taken: 1.23 seconds, Fetched: N row(s)`, `N rows in set (0.01 sec)`, "
    "`Query OK, N rows affected (X sec)`, `N rows selected (X seconds)`, "
    "`Fetched N row(s) in Xs`, `Time: X ms`",
    priority=15,
    kind="result",
    trigger=r"(?-i:Time taken:|rows? in set|Empty set|Query OK|rows? (?:selected|affected)"
    r"|Fetched \d|Time: \d)",
    needles=(
        "Time taken:",
        "in set",  # row(s) in set
        "Empty set",
        "Query OK",
        "selected",  # row(s) selected
        "affected",  # row(s) affected
        "Fetched ",
        "Time: ",
    ),
)

_N = r"\d+(?:\.\d+)?"
_LINES = [
    (
        re.compile(
            rf"Time taken:\s*(?P<t>{_N})\s*seconds?(?:,\s*Fetched:\s*(?P<n>\d+)\s*row\(s\))?"
        ),
        "time_taken",
        "s",
        "rows_fetched",
    ),
    (
        re.compile(
            rf"(?:(?<!\d)(?P<n>\d+) rows? in set|Empty set)(?:,\s*\d+ warnings?)?"
            rf"\s*\((?P<t>{_N})\s*sec\)"
        ),
        "elapsed",
        "s",
        "rows_returned",
    ),
    (
        re.compile(
            rf"Query OK,\s*(?P<n>\d+) rows? affected(?:,\s*\d+ warnings?)?\s*\((?P<t>{_N})\s*sec\)"
        ),
        "elapsed",
        "s",
        "rows_affected",
    ),
    (
        re.compile(
            rf"(?:(?<!\d)(?P<n>\d+)|No) rows? (?:selected|affected)\s*\((?P<t>{_N})\s*seconds\)"
        ),
        "elapsed",
        "s",
        "rows_returned",
    ),
    (
        re.compile(rf"Fetched (?P<n>\d+) row\(s\) in (?P<t>{_N})s\b"),
        "elapsed",
        "s",
        "rows_fetched",
    ),
    # (`[ \t]*`, not `\s*`, before `Time:`: `^\s*` retried at every line of a long
    # run of blank lines took quadratic time; the match no longer takes them in)
    (re.compile(rf"(?m)^[ \t]*Time: (?P<t>{_N}) ms\b(?P<n>)"), "time", "ms", ""),
]
_SQL = re.compile(
    r"(?im)^[ \t]*(?:[\w.:-]*(?:>|#)[ \t]*)?(?P<sql>(?:select|insert|update|delete|create|with|show"
    r"|explain|call|load|alter|drop|analyze|describe|desc|use)\b[^\n;]{0,200})"
)


def parse(text: str) -> list[ResultTable]:
    hits = []
    for pattern, metric, unit, count_metric in _LINES:
        for m in pattern.finditer(text):
            if not any(m.start() < h[0].end() and h[0].start() < m.end() for h in hits):
                hits.append((m, metric, unit, count_metric))
    hits.sort(key=lambda h: h[0].start())
    tables = []
    floor = 0
    for m, metric, unit, count_metric in hits:
        statements = list(_SQL.finditer(text, floor, m.start()))
        label = " ".join(statements[-1].group("sql").split()) if statements else None
        block_start = statements[-1].start("sql") if statements else m.start()
        table = ResultTable(
            format=INFO.name,
            span=m.span(),
            columns=[metric, count_metric] if count_metric else [metric],
            rows=[[m.group("t")] + ([m.group("n") or ""] if count_metric else [])],
            caption=label,
            variant=block_heading(text, block_start, floor),
        )
        found = [
            measure(metric, m.group("t"), parse_number(m.group("t")), unit, label=label, row=0)
        ]
        if count_metric and m.group("n"):
            found.append(
                measure(
                    count_metric,
                    m.group("n"),
                    parse_number(m.group("n")),
                    "count",
                    label=label,
                    row=0,
                )
            )
        table.measurements = [x for x in found if x]
        floor = m.end()
        tables.append(table)
    return tables
