"""luceneutil (Lucene's benchmark tool, `python src/python/localrun.py`): what
`src/python/benchUtil.py` (`simpleReport`) and `src/main/perf/Indexer.java` print.

* the QPS comparison: a header naming the two checkouts (`baseline`,
  `my_modified_version` by default; names run together when they fill their field:
  `TaskQPS`; older versions have no p-value) and a `%32s%12.2f%12s%12.2f%12s%16s%6.3f`
  row per task:

      Task  QPS baseline  StdDev  QPS my_modified_version  StdDev  Pct diff p-value
      Prefix3  147.12  (6.2%)  129.27  (4.0%)  -12.1% ( -21% -   -2%) 0.000

* the same for JIRA (`-jira`): `||Task||QPS base||StdDev base||QPS cmp||StdDev
  cmp||Pct diff||p-value||`, rows `|Prefix3|147.12|9.12|129.27|5.17|{color:red}21{color}-
  {color:red}2{color}|{color:green}0.000{color}|`: absolute standard deviations (QPS),
  the change only as its range, its sign the colour (red = slower);
* the per-task latency table (`Task P50 B P50 C Diff P90 B ... P100 C Diff`, five
  `%10.3f%10.3f%8.1f%%` triples, ms; JIRA `||Task||P50 Base||P50 Cmp||Diff||...`);
* the indexer's `Indexer: 46.44432470391602 GB/hour plain text` (often grepped from
  several logs: `/l/logs/trunk0:Indexer: ...`).

Measurements: QPS rows (label = the task): `QPS <baseline>` / `QPS <candidate>` (the
`before` / `after` of quantity `QPS`), `StdDev <...>` (`%` in text, `QPS` in JIRA), `Pct
diff` (%), `Pct diff low` / `high`, `p-value`. Latency rows: `P50 Base`, `P50 Cmp` (ms;
the sides of `P50`), `P50 Diff` (%), ... to `P100`. Indexer lines: `Indexer throughput`
(`GB/hour`), label = the grepped log's name (`trunk0`). Variant = the heading above.

The tables are declared rows, matched on the text itself (a flattened mail reads the
same), their metric names taken from the header; the indexer lines are grouped past the
shell commands that grepped them, which no declared gap says (a `^` must hold in the
whole text).
"""

from __future__ import annotations

import re
from dataclasses import replace

from extract.results.formats._layout import FLOAT, NUM, UNSIGNED, overlaps
from extract.results.formats._rows import Field, Rows, name_blocks, numbers, read
from extract.results.formats.base import FormatInfo, ResultTable

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

_QPS_COLUMNS = ("Task", "QPS {base}", "StdDev {base}", "QPS {cand}", "StdDev {cand}", "Pct diff")
_QPS = (
    Field("QPS {base}", "qb", "QPS", side="before", side_name="{base}", quantity="QPS"),
    Field("StdDev {base}", "sb", "%"),
    Field("QPS {cand}", "qc", "QPS", side="after", side_name="{cand}", quantity="QPS"),
    Field("StdDev {cand}", "sc", "%"),
)
_QPS_HEADER = r"Task\s*QPS\s+(?P<base>\S+)\s+StdDev\s*QPS\s+(?P<cand>\S+)\s+StdDev\s+Pct\s+diff"
_QPS_ROW = (
    rf"\s*(?P<task>[A-Za-z][\w.:/-]*)\s+(?P<qb>{NUM})\s+\(\s*(?P<sb>{NUM}|n/a)%\)\s+"
    rf"(?P<qc>{NUM})\s+\(\s*(?P<sc>{NUM}|n/a)%\)\s+(?P<pct>{FLOAT})%\s*"
    rf"\(\s*(?P<lo>{FLOAT})%\s*-\s*(?P<hi>{FLOAT})%\s*\)"
)
_CHANGE = (Field("Pct diff", "pct", "%"), Field("Pct diff low", "lo", "%"),
           Field("Pct diff high", "hi", "%"))  # fmt: skip
_P_VALUE = Field("p-value", "p")


def _qps_text(p_value: bool) -> Rows:
    """The plain-text QPS table; older versions print no p-value column."""
    return Rows(
        header=_QPS_HEADER + (r"\s+p-value" if p_value else r"(?!\s+p-value)"),
        row=_QPS_ROW + (r"\s+(?P<p>[01]\.\d+)(?![\d.%])" if p_value else ""),
        fields=(*_QPS, *_CHANGE, *((_P_VALUE,) if p_value else ())),
        label="task",
        columns=(*_QPS_COLUMNS, "p-value"),
        caption="luceneutil",
        heading="block",
    )


def _colored(group: str, number: str) -> str:
    """A cell `{color:red}21{color}` (the colour optional), the colour in `<group>c`."""
    return rf"(?:\{{color:(?P<{group}c>\w+)\}})?(?P<{group}>{number})%?(?:\{{color\}})?"


def _signed(row: re.Match, group: str) -> str:
    """A JIRA change bound: the tool drops the sign and colours the number red instead."""
    written = row.group(group)
    if row.group(group + "c") == "red" and not written.startswith("-"):
        return "-" + written
    return written


def _jira_change(m: re.Match):
    yield "Pct diff low", _signed(m, "lo"), "%"
    yield "Pct diff high", _signed(m, "hi"), "%"
    if m["p"]:
        yield "p-value", m["p"], None


QPS_JIRA = Rows(
    header=(
        r"\|\|Task\|\|QPS (?P<base>[^|\n]+)\|\|StdDev [^|\n]+\|\|QPS (?P<cand>[^|\n]+)"
        r"\|\|StdDev [^|\n]+\|\|Pct diff\|\|(?P<p>p-value\|\|)?"
    ),
    row=(
        rf"\s*\|(?P<task>[A-Za-z][^|\n]{{0,60}}?)\|(?P<qb>{NUM})\|(?P<sb>{NUM})"
        rf"\|(?P<qc>{NUM})\|(?P<sc>{NUM})\|"
        + _colored("lo", r"-?\d+")
        + r"-"
        + _colored("hi", r"-?\d+")
        + r"(?:\|"
        + _colored("p", r"[01]\.\d+")
        + r")?\|"
    ),  # fmt: skip
    # (the standard deviations in QPS, not %)
    fields=(*(replace(f, unit="QPS") for f in _QPS), _jira_change),
    label=lambda m: m["task"].strip(),
    columns=(*_QPS_COLUMNS, "p-value"),
    caption="luceneutil",
    heading="block",
)

_LAT_KEYS = ("P50", "P90", "P99", "P999", "P100")
_LAT_FIELDS = tuple(
    f
    for i, k in enumerate(_LAT_KEYS)
    for f in (
        Field(f"{k} Base", f"b{i}", "ms", side="before", side_name="Base", quantity=k),
        Field(f"{k} Cmp", f"c{i}", "ms", side="after", side_name="Cmp", quantity=k),
        Field(f"{k} Diff", f"d{i}", "%"),
    )
)


def _latency(jira: bool) -> Rows:
    """The per-task latency table, plain (`P50 B  P50 C  Diff`) or for JIRA."""
    cell = r"\|\|(?P<{c}{i}>{n})" if jira else r"\s+(?P<{c}{i}>{n})"
    return Rows(
        header=(
            r"\|\|Task\|\|" + "".join(rf"{k} Base\|\|{k} Cmp\|\|Diff\|\|" for k in _LAT_KEYS)
            if jira
            else r"Task" + "".join(rf"\s+{k} B\s+{k} C\s+Diff" for k in _LAT_KEYS)
        ),
        row=(
            (
                r"\s*\|\|(?P<task>[A-Za-z][^|\n]{0,60}?)"
                if jira
                else r"\s*(?P<task>[A-Za-z][\w.:/-]*)"
            )
            + "".join(
                cell.format(c="b", i=i, n=FLOAT)
                + cell.format(c="c", i=i, n=FLOAT)
                + cell.format(c="d", i=i, n=FLOAT)
                + "%"
                for i in range(5)
            )
            + (r"\|\|" if jira else "")
        ),  # fmt: skip
        fields=_LAT_FIELDS,
        label=lambda m: m["task"].strip(),
        columns=("Task", *(f.metric for f in _LAT_FIELDS)),
        caption="luceneutil latency",
        heading="block",
    )


READERS = (_qps_text(True), _qps_text(False), QPS_JIRA, _latency(False), _latency(True))


def parse(text: str) -> list[ResultTable]:
    tables: list[ResultTable] = []
    for found in [*(read(spec, text) for spec in READERS), _indexer(text)]:
        tables.extend(t for t in found if not overlaps(t.span, [u.span for u in tables]))
    return tables


_INDEXER = re.compile(
    r"(?:(?<![\w./~-])(?P<path>[\w./~-]+):)?Indexer:\s+"
    rf"(?P<v>{UNSIGNED})\s+GB/hour\s+plain\s+text"
)
# Between grepped lines of one comparison: blanks, a `|` gutter, fences and the shell
# commands that grepped them (`$ grep "GB/hour" /l/logs/trunk?`).
_INDEXER_GAP = re.compile(
    r"(?:[ \t\r\n|]|```\w*|(?m:^[ \t]*(?:\[[^\]\n]*\][ \t]*)?[$#][ \t]+[^\n]*$))*"
)
_PROMPT_BEFORE = re.compile(r"(?m)^[ \t]*(?:\[[^\]\n]*\][ \t]*)?[$#][ \t]+[^\n]*\n[ \t]*\Z")


def _indexer(text: str) -> list[ResultTable]:
    tables: list[ResultTable] = []
    floor = 0  # (the command above a block is looked for after the last block)
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
            )
            tables.append(table)
        label = m["path"].rstrip("/").rsplit("/", 1)[-1] if m["path"] else None
        table.add_row(
            [label or "", m["v"]], numbers([("Indexer throughput", m["v"], "GB/hour")], label)
        )
        table.span = (table.span[0], m.end())
        floor = m.end()
    name_blocks(tables, text, "block")
    return tables
