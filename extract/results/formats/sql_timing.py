"""Timing lines printed by SQL shells after a statement: returns one table per line.

Recognises
* Hive CLI / spark-sql: `Time taken: 1.23 seconds[, Fetched: 4 row(s)]`
  → metrics `time_taken` (s) and `rows_fetched` (count);
* MySQL-protocol clients (MySQL, Doris, ShardingSphere): `3 rows in set (0.00 sec)`,
  `Empty set (0.01 sec)`, `Query OK, 5 rows affected (0.02 sec)` → `elapsed` (s),
  `rows_returned` / `rows_affected` (count);
* beeline / sqlline: `4 rows selected (0.301 seconds)`, `No rows affected (0.1 seconds)`;
* impala-shell: `Fetched 4 row(s) in 0.31s`; psql `\\timing`: `Time: 12.345 ms`
  (over a second: `Time: 1201.077 ms (00:01.201)`);
* sqlite3 `.timer on`: `Run Time: real 0.213 user 0.203551 sys 0.008148` → `real`,
  `user`, `sys` (s).

Label = the SQL statement before the line (`select * from tempp`) when one is found
after the previous timing line (psql's command tags such as `SELECT 300000` or
`CREATE INDEX` are not statements); variant = the heading before the block
(`before this change`), kept for the statements that follow it in the same session.
Unit `s` (`ms` for psql), counts `count`.

Not declared as rows: each client prints its timing in a sentence of its own (`Time
taken:`, `rows in set (0.01 sec)`, `Time: 1.2 ms`), named by the statement above it.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import NUM, heading_above, line_end, line_start, overlaps
from extract.results.formats._rows import numbers
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="sql-timing",
    description="SQL CLI timing lines (Time taken, rows in set)",
    signature="`Time taken: 1.23 seconds, Fetched: N row(s)`, `N rows in set (0.01 sec)`, "
    "`Query OK, N rows affected (X sec)`, `N rows selected (X seconds)`, "
    "`Fetched N row(s) in Xs`, `Time: X ms`",
    priority=15,
    kind="result",
    trigger=r"(?-i:Time taken:|rows? in set|Empty set|Query OK|rows? (?:selected|affected)"
    r"|Fetched \d|Time: \d|Run Time: real)",
    needles=(
        "Time taken:",
        "in set",  # row(s) in set
        "Empty set",
        "Query OK",
        "selected",  # row(s) selected
        "affected",  # row(s) affected
        "Fetched ",
        "Time: ",  # also `Run Time: real`
    ),
)

# Each client's timing line: its pattern (`t` the time, `n` the rows), and the metric and
# unit of the time and the metric of the row count.
_LINES = [
    (re.compile(rf"Time taken:\s*(?P<t>{NUM})\s*seconds?(?:,\s*Fetched:\s*(?P<n>\d+)\s*row\(s\))?"),
     "time_taken", "s", "rows_fetched"),
    (re.compile(rf"(?:(?<!\d)(?P<n>\d+) rows? in set|Empty set)(?:,\s*\d+ warnings?)?"
                rf"\s*\((?P<t>{NUM})\s*sec\)"),
     "elapsed", "s", "rows_returned"),
    (re.compile(rf"Query OK,\s*(?P<n>\d+) rows? affected(?:,\s*\d+ warnings?)?"
                rf"\s*\((?P<t>{NUM})\s*sec\)"),
     "elapsed", "s", "rows_affected"),
    (re.compile(rf"(?:(?<!\d)(?P<n>\d+)|No) rows? (?:selected|affected)"
                rf"\s*\((?P<t>{NUM})\s*seconds\)"),
     "elapsed", "s", "rows_returned"),
    (re.compile(rf"Fetched (?P<n>\d+) row\(s\) in (?P<t>{NUM})s\b"),
     "elapsed", "s", "rows_fetched"),
    # (`[ \t]*`, not `\s*`, before `Time:`: `^\s*` retried at every line of a long
    # run of blank lines took quadratic time; the match no longer takes them in)
    (re.compile(rf"(?m)^[ \t]*Time: (?P<t>{NUM}) ms\b(?:[ \t]*\([\d:.]+\))?"), "time", "ms", None),
    (re.compile(rf"Run Time: real (?P<t>{NUM}) user (?P<user>{NUM}) sys (?P<sys>{NUM})"),
     "real", "s", None),
]  # fmt: skip
# the mysql client's line under `Query OK`: bookkeeping, claimed with it
_INFO = re.compile(
    r"\s*(?:Records: \d+\s+(?:Duplicates|Deleted): \d+\s+Warnings: \d+"
    r"|Rows matched: \d+\s+Changed: \d+\s+Warnings: \d+)"
)
# psql's command tag after a statement (`SELECT 300000`, `CREATE INDEX`): not SQL.
_TAG = re.compile(r"[A-Z]+(?: [A-Z]+)*(?: \d+){0,2}")
# A line that switches timing on (`\\timing`, `.timer on`; client settings between a
# statement and its heading), from the first of the blanks before it; the lines of
# them right above a statement are found by _preamble_start.
_PREAMBLE_LINE = re.compile(
    r"(?<![ \t])[ \t]*+(?:\\timing(?: on)?|Timing is on\.|\.timer on)[ \t]*+\r?\n"
)
_SQL = re.compile(
    # (after a prompt: `hive>`, `postgres=#`, `0: jdbc:hive2://host:10000>`, `[host:21000] db>`)
    # (the blanks that open a line are taken whole: neither a prompt nor a statement gains
    # by starting on a blank)
    r"(?im)^[ \t]*+(?:[\w.:=/\[\] -]{0,80}?(?:>|#)[ \t]*)?"
    r"(?P<sql>(?:select|insert|update|delete|create|with|show"
    r"|explain|call|load|alter|drop|analyze|describe|desc|use)\b"
    # up to its `;` when a gateway wrapped it onto more lines, else its line
    r"(?:(?:[^;\n]|\n(?![ \t]*\r?\n)){0,600}?(?=;)|[^\n;]{0,200}))"
)


def _preamble_start(text: str, floor: int, end: int) -> int | None:
    r"""Where the lines that switch timing on, just above `end` (a line start), begin,
    if any: as `(?:[ \t]*(?:\\timing...)[ \t]*\r?\n)+$` searched between `floor` and
    `end` (which read them again from each of their characters), but line by line upwards.
    The first of them may begin inside its line; an empty line just above `end` is left
    out, as `$` allowed."""
    q = end - 1 if end - 2 >= floor and text[end - 2 : end] == "\n\n" else end
    start = None
    while q > floor and text[q - 1] == "\n":
        line_begin = max(text.rfind("\n", floor, q - 1) + 1, floor)
        line = text[line_begin:q]
        if _PREAMBLE_LINE.fullmatch(line):
            start = q = line_begin
            continue
        if m := _PREAMBLE_LINE.search(line):  # (ends at the line's end: its only newline)
            start = line_begin + m.start()
        break
    return start


def parse(text: str) -> list[ResultTable]:
    hits = []
    for pattern, metric, unit, count_metric in _LINES:
        for m in pattern.finditer(text):
            if not overlaps(m.span(), (h[0].span() for h in hits)):
                hits.append((m, metric, unit, count_metric))
    hits.sort(key=lambda h: h[0].start())
    tables = []
    floor = 0
    variant = None
    for m, metric, unit, count_metric in hits:
        statements = [s for s in _SQL.finditer(text, floor, m.start()) if not _is_tag(text, s)]
        label = " ".join(statements[-1].group("sql").split()) if statements else None
        block_start = statements[-1].start() if statements else m.start()
        pre = _preamble_start(text, floor, line_start(text, block_start))
        if pre is not None:
            block_start = pre
        heading = heading_above(text, block_start, floor)
        variant = heading if heading or not tables else variant
        info = _INFO.match(text, m.end()) if count_metric == "rows_affected" else None
        table = ResultTable(
            format=INFO.name,
            span=(m.start(), info.end() if info else m.end()),
            columns=[metric, count_metric] if count_metric else [metric],
            caption=label,
            variant=variant,
        )
        found = [(metric, m["t"], unit)]
        found += [(x, m[x], unit) for x in ("user", "sys") if x in m.re.groupindex]
        if count_metric:
            found.append((count_metric, m["n"], "count"))
        table.add_row([m["t"]] + ([m["n"] or ""] if count_metric else []), numbers(found, label))
        floor = m.end()
        tables.append(table)
    return tables


def _is_tag(text: str, m: re.Match) -> bool:
    """A psql command tag line (`SELECT 300000`), not a statement."""
    line = text[m.start() : line_end(text, m.start("sql"))].strip()
    return _TAG.fullmatch(line) is not None
