"""luceneutil (Lucene's benchmark tool, `python src/python/localrun.py`): returns one
`ResultTable` per table or run of log lines.

What `src/python/benchUtil.py` (`simpleReport`) and `src/main/perf/Indexer.java` print:

* the QPS comparison, plain text: a header naming the two checkouts (`baseline`,
  `my_modified_version` by default) and one `%32s%12.2f%12s%12.2f%12s%16s%6.3f` row per
  task (header names run together when they fill their field: `TaskQPS`, `StdDevQPS`;
  older versions have no p-value column):

      Task  QPS baseline  StdDev  QPS my_modified_version  StdDev  Pct diff p-value
      Prefix3  147.12  (6.2%)  129.27  (4.0%)  -12.1% ( -21% -   -2%) 0.000

* the same comparison for JIRA (`-jira`): `||Task||QPS base||StdDev base||QPS cmp||StdDev
  cmp||Pct diff||p-value||` and rows `|Prefix3|147.12|9.12|129.27|5.17|{color:red}21{color}-
  {color:red}2{color}|{color:green}0.000{color}|`: the standard deviations are absolute
  (QPS), the change is only its range, its sign the colour (red = slower);
* the per-task latency table (`Task P50 B P50 C Diff P90 B ... P100 C Diff`, rows
  `%32s` + five `%10.3f%10.3f%8.1f%%` triples, milliseconds; JIRA: `||Task||P50 Base||P50
  Cmp||Diff||...`);
* the indexer's throughput line `Indexer: 46.44432470391602 GB/hour plain text` (often
  grepped from several logs: `/l/logs/trunk0:Indexer: ...`).

Measurements: QPS rows: label = the task; metrics `QPS <baseline>` / `QPS <candidate>`
(unit `QPS`), `StdDev <baseline>` / `StdDev <candidate>` (`%` in text, `QPS` in JIRA),
`Pct diff` (%, the signed change), `Pct diff low` / `Pct diff high` (%, the range),
`p-value` (no unit). Latency rows: `P50 Base`, `P50 Cmp` (ms), `P50 Diff` (%), ... to
`P100`. Indexer lines: metric `Indexer throughput`, unit `GB/hour`, label = the log
file name before `:` when grepped (`trunk0`). Variant = the heading above the table.
The sides of the comparison (`Measurement.side`): `QPS <baseline>` is the `before` of
quantity `QPS`, `QPS <candidate>` its `after`; `P50 Base` / `P50 Cmp` those of `P50`.

Rows are matched on the text itself, not line by line, so a mail flattened onto one
line reads the same. Pure function; never raises.

Not declared as rows: its tables' metric names come from the header (the baseline's and
the candidate's names), the JIRA form colours a sign instead of writing it, and indexer
lines are grouped past the shell commands that grepped them.
"""

from __future__ import annotations

import re

from extract.results.formats._context import measure
from extract.results.formats._layout import FLOAT, NUM, heading_above
from extract.results.formats.base import FormatInfo, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="luceneutil",
    description="luceneutil (Lucene benchmark) QPS / latency comparison and indexer rate",
    signature="header `Task QPS <base> StdDev QPS <cand> StdDev Pct diff [p-value]`; rows "
    "`Prefix3 147.12 (6.2%) 129.27 (4.0%) -12.1% ( -21% - -2%) 0.000`; `||Task||QPS ...`; "
    "`Task P50 B P50 C Diff ...`; `Indexer: 46.4 GB/hour plain text`",
    priority=12,
    gutter=True,
    trigger=r"(?-i:Pct\s+diff|P50 B|P50 Base|GB/hour\s+plain\s+text)",
    needles=("Pct", "P50 B", "GB/hour"),
)

_HEADER = re.compile(
    r"Task\s*QPS\s+(?P<base>\S+)\s+StdDev\s*QPS\s+(?P<cand>\S+)\s+StdDev"
    r"\s+Pct\s+diff(?P<p>\s+p-value)?"
)
_STD = rf"{NUM}|n/a"
_ROW = re.compile(
    rf"\s*(?P<task>[A-Za-z][\w.:/-]*)\s+(?P<qb>{NUM})\s+\(\s*(?P<sb>{_STD})%\)\s+"
    rf"(?P<qc>{NUM})\s+\(\s*(?P<sc>{_STD})%\)\s+(?P<pct>{FLOAT})%\s*"
    rf"\(\s*(?P<lo>{FLOAT})%\s*-\s*(?P<hi>{FLOAT})%\s*\)"
)
_P_VALUE = re.compile(r"\s+(?P<p>[01]\.\d+)(?![\d.%])")

_JIRA_HEADER = re.compile(
    r"\|\|Task\|\|QPS (?P<base>[^|\n]+)\|\|StdDev [^|\n]+\|\|QPS (?P<cand>[^|\n]+)\|\|StdDev "
    r"[^|\n]+\|\|Pct diff\|\|(?P<p>p-value\|\|)?"
)


def _colored(group: str, number: str) -> str:
    """A cell `{color:red}21{color}` (the colour optional), the colour in `<group>c`."""
    return rf"(?:\{{color:(?P<{group}c>\w+)\}})?(?P<{group}>{number})%?(?:\{{color\}})?"


_JIRA_ROW = re.compile(
    rf"\s*\|(?P<task>[A-Za-z][^|\n]{{0,60}}?)\|(?P<qb>{NUM})\|(?P<sb>{NUM})"
    rf"\|(?P<qc>{NUM})\|(?P<sc>{NUM})\|"
    + _colored("lo", r"-?\d+")
    + r"-"
    + _colored("hi", r"-?\d+")
    + r"(?:\|"
    + _colored("p", r"[01]\.\d+")
    + r")?\|"
)

_LAT_KEYS = ("P50", "P90", "P99", "P999", "P100")
_LAT_HEADER = re.compile(
    r"Task"
    + "".join(rf"\s+{k} B\s+{k} C\s+Diff" for k in _LAT_KEYS)
    + r"|\|\|Task\|\|"
    + "".join(rf"{k} Base\|\|{k} Cmp\|\|Diff\|\|" for k in _LAT_KEYS)
)
_LAT_ROW_TEXT = re.compile(
    r"\s*(?P<task>[A-Za-z][\w.:/-]*)"
    + "".join(rf"\s+(?P<b{i}>{FLOAT})\s+(?P<c{i}>{FLOAT})\s+(?P<d{i}>{FLOAT})%" for i in range(5))
)
_LAT_ROW_JIRA = re.compile(
    r"\s*\|\|(?P<task>[A-Za-z][^|\n]{0,60}?)"
    + "".join(
        rf"\|\|(?P<b{i}>{FLOAT})\|\|(?P<c{i}>{FLOAT})\|\|(?P<d{i}>{FLOAT})%" for i in range(5)
    )
    + r"\|\|"
)

_INDEXER = re.compile(
    r"(?:(?<![\w./~-])(?P<path>[\w./~-]+):)?Indexer:\s+"
    rf"(?P<v>{NUM}(?:[eE][-+]?\d+)?)\s+GB/hour\s+plain\s+text"
)


def parse(text: str) -> list[ResultTable]:
    tables: list[ResultTable] = []
    for reader in (_qps_text, _qps_jira, _latency, _indexer):
        found = reader(text)
        tables.extend(t for t in found if not any(_overlap(t.span, u.span) for u in tables))
    return tables


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _add(
    table: ResultTable,
    task: str,
    fields: list[tuple[str, str, str | None]],
    sides: dict[str, tuple[str, str, str]] | None = None,
) -> None:
    """A row; `sides` maps a metric to its (side, side name, quantity): `QPS baseline`
    is the `before` of `QPS`, `P50 Cmp` the `after` of `P50`."""
    index = len(table.rows)
    table.rows.append([task] + [written for _, written, _ in fields])
    for metric, written, unit in fields:
        m = measure(metric, written, parse_number(written), unit, label=task, row=index)
        if m:
            if sides and metric in sides:
                m.side, m.side_name, m.quantity = sides[metric]
            table.measurements.append(m)


def _qps_sides(base: str, cand: str) -> dict[str, tuple[str, str, str]]:
    return {f"QPS {base}": ("before", base, "QPS"), f"QPS {cand}": ("after", cand, "QPS")}


_LAT_SIDES = {
    f"{k} {s}": (side, s, k)
    for k in _LAT_KEYS
    for s, side in (("Base", "before"), ("Cmp", "after"))
}


def _qps_table(head: re.Match) -> ResultTable:
    base, cand = head.group("base").strip(), head.group("cand").strip()
    return ResultTable(
        format=INFO.name,
        span=head.span(),
        columns=[
            "Task",
            f"QPS {base}",
            f"StdDev {base}",
            f"QPS {cand}",
            f"StdDev {cand}",
            "Pct diff",
            "p-value",
        ],
        caption="luceneutil",
    )


def _qps_text(text: str) -> list[ResultTable]:
    tables = []
    floor = 0
    for head in _HEADER.finditer(text):
        if head.start() < floor:
            continue
        base, cand = head.group("base"), head.group("cand")
        table = _qps_table(head)
        pos = head.end()
        while row := _ROW.match(text, pos):
            pos = row.end()
            p_value = _P_VALUE.match(text, pos) if head.group("p") else None
            if p_value:
                pos = p_value.end()
            fields = [
                (f"QPS {base}", row.group("qb"), "QPS"),
                (f"StdDev {base}", row.group("sb"), "%"),
                (f"QPS {cand}", row.group("qc"), "QPS"),
                (f"StdDev {cand}", row.group("sc"), "%"),
                ("Pct diff", row.group("pct"), "%"),
                ("Pct diff low", row.group("lo"), "%"),
                ("Pct diff high", row.group("hi"), "%"),
            ]
            if p_value:
                fields.append(("p-value", p_value.group("p"), None))
            _add(table, row.group("task"), fields, _qps_sides(base, cand))
            table.span = (head.start(), pos)
        if table.rows:  # (the heading is looked for only then: it is not cheap)
            table.variant = heading_above(text, head.start(), floor)
            floor = table.span[1]
            tables.append(table)
    return tables


def _signed(row: re.Match, group: str) -> str:
    """A JIRA change bound: the tool drops the sign and colours the number red instead."""
    written = row.group(group)
    if row.group(group + "c") == "red" and not written.startswith("-"):
        return "-" + written
    return written


def _qps_jira(text: str) -> list[ResultTable]:
    tables = []
    floor = 0
    for head in _JIRA_HEADER.finditer(text):
        if head.start() < floor:
            continue
        base, cand = head.group("base").strip(), head.group("cand").strip()
        table = _qps_table(head)
        pos = head.end()
        while row := _JIRA_ROW.match(text, pos):
            pos = row.end()
            fields = [
                (f"QPS {base}", row.group("qb"), "QPS"),
                (f"StdDev {base}", row.group("sb"), "QPS"),
                (f"QPS {cand}", row.group("qc"), "QPS"),
                (f"StdDev {cand}", row.group("sc"), "QPS"),
                ("Pct diff low", _signed(row, "lo"), "%"),
                ("Pct diff high", _signed(row, "hi"), "%"),
            ]
            if row.group("p"):
                fields.append(("p-value", row.group("p"), None))
            _add(table, row.group("task").strip(), fields, _qps_sides(base, cand))
            table.span = (head.start(), pos)
        if table.rows:  # (the heading is looked for only then: it is not cheap)
            table.variant = heading_above(text, head.start(), floor)
            floor = table.span[1]
            tables.append(table)
    return tables


def _latency(text: str) -> list[ResultTable]:
    tables = []
    floor = 0
    for head in _LAT_HEADER.finditer(text):
        if head.start() < floor:
            continue
        row_re = _LAT_ROW_JIRA if head.group().startswith("||") else _LAT_ROW_TEXT
        table = ResultTable(
            format=INFO.name,
            span=head.span(),
            columns=["Task"] + [f"{k} {s}" for k in _LAT_KEYS for s in ("Base", "Cmp", "Diff")],
            caption="luceneutil latency",
        )
        pos = head.end()
        while row := row_re.match(text, pos):
            pos = row.end()
            fields = []
            for i, key in enumerate(_LAT_KEYS):
                fields += [
                    (f"{key} Base", row.group(f"b{i}"), "ms"),
                    (f"{key} Cmp", row.group(f"c{i}"), "ms"),
                    (f"{key} Diff", row.group(f"d{i}"), "%"),
                ]
            _add(table, row.group("task").strip(), fields, _LAT_SIDES)
            table.span = (head.start(), pos)
        if table.rows:  # (the heading is looked for only then: it is not cheap)
            table.variant = heading_above(text, head.start(), floor)
            floor = table.span[1]
            tables.append(table)
    return tables


# Between grepped lines of one comparison: blanks, a `|` gutter, fences and the shell
# commands that grepped them (`$ grep "GB/hour" /l/logs/trunk?`).
_INDEXER_GAP = re.compile(
    r"(?:[ \t\r\n|]|```\w*|(?m:^[ \t]*(?:\[[^\]\n]*\][ \t]*)?[$#][ \t]+[^\n]*$))*"
)
_PROMPT_BEFORE = re.compile(r"(?m)^[ \t]*(?:\[[^\]\n]*\][ \t]*)?[$#][ \t]+[^\n]*\n[ \t]*\Z")


def _indexer(text: str) -> list[ResultTable]:
    tables: list[ResultTable] = []
    floor = 0
    table: ResultTable | None = None
    for m in _INDEXER.finditer(text):
        if table is None or not _INDEXER_GAP.fullmatch(text, table.span[1], m.start()):
            start = m.start()
            prompt = _PROMPT_BEFORE.search(text, max(floor, start - 300), start)
            if prompt:  # the command that printed the lines opens the block
                start = prompt.start()
            table = ResultTable(
                format=INFO.name,
                span=(start, m.end()),
                columns=["log", "Indexer throughput (GB/hour)"],
                caption="luceneutil Indexer",
                variant=heading_above(text, start, floor),
            )
            tables.append(table)
        path = m.group("path")
        label = path.rstrip("/").rsplit("/", 1)[-1] if path else None
        written = m.group("v")
        index = len(table.rows)
        table.rows.append([label or "", written])
        meas = measure(
            "Indexer throughput", written, parse_number(written), "GB/hour", label=label, row=index
        )
        if meas:
            table.measurements.append(meas)
        table.span = (table.span[0], m.end())
        floor = m.end()
    return tables
