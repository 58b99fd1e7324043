"""Spark `Benchmark` framework tables (`*-results.txt`, PR comments): returns one
table per title.

Recognises the header `<title>:  Best Time(ms)  Avg Time(ms)  Stdev(ms)  Rate(M/s)
Per Row(ns)  Relative` (Spark 3+) or `<title>:  Best/Avg Time(ms)  Rate(M/s)  Per
Row(ns)  Relative` (Spark 2, cells `40943 / 47670`), an optional dashed rule, then
rows `<case>  2161  2194  55  9.3  108.0  1.0X`. Rows may carry sbt's `[info] `
prefix, or a unified-diff prefix (`-` old results, `+` new results: variant
`old` / `new`), and may be flattened onto one line. Also the sbt progress pairs
`Running case: <case>` / `Stopped after 2 iterations, 2962 ms`. A rate printed as
`Infinity` (best time 0 ms) is read as such; a header and rule that a mail wrapped at
72/80 columns (`Per` / `Row(ns)`, the rule over two lines) still open the table.

Source: core/src/test/scala/org/apache/spark/benchmark/Benchmark.scala (as its
`*-results.txt` files show it).

Measurements: label = the case (`java`, `Select 100 columns`), caption = the title
(`encode for 1`); metric = the column (`Best Time(ms)`, `Avg Time(ms)`, `Stdev(ms)`,
`Rate(M/s)`, `Per Row(ns)`, `Relative`); unit `ms`, `ms`, `ms`, `M/s`, `ns`, `x`
(`1.0X` → 1.0). The JVM and CPU lines are not measurements. Progress pairs give
metric `Stopped after N iterations`, unit `ms`.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import JAVA, heading_above, without_line_led
from extract.results.formats._rows import Rows, numbers, read
from extract.results.formats.base import FormatInfo, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="spark-benchmark",
    description="Spark Benchmark framework result tables",
    signature="`<title>: Best Time(ms) Avg Time(ms) Stdev(ms) Rate(M/s) Per Row(ns) Relative` "
    "(or `Best/Avg Time(ms)`), dashed rule, `<case> 2161 2194 55 9.3 108.0 1.0X` rows",
    priority=10,
    gutter=True,
    kind="result",
    trigger=r"(?-i:Best(?: |/Avg )Time\(ms\)|Running case:)",
    needles=("Time(ms)", "Running case:"),
)

_HEADER = re.compile(
    r"(?:(?P<new>Best Time\(ms\)\s+Avg Time\(ms\)\s+Stdev\(ms\))|(?P<old>Best/Avg Time\(ms\)))"
    r"\s+Rate\(M/s\)\s+Per\s+Row\(ns\)\s+Relative[ \t]*"
)
# The rule under the header; a mail that wraps at 72/80 columns splits it over lines.
_RULE = re.compile(r"\s*(?:\[info\][ \t]*)?[-+ ]?-{10,}(?:[ \t\r]*\n?[ \t]*-{3,}(?=\s|$))*")
# `Infinity` is what `%10.1f` prints for a rate when the best time rounds to 0 ms.
# (blanks are taken whole: what follows them is not a blank)
_ROW_NEW = re.compile(
    r"\s*+(?:\[info\][ \t]*+)?(?P<diff>[-+](?!-))?[ \t]*+(?P<label>[^\s\[][^\n]{0,100}?)[ \t]+"
    rf"(?P<best>{JAVA})\s+(?P<avg>{JAVA})\s+(?P<stdev>{JAVA})\s+(?P<rate>{JAVA})\s+"
    rf"(?P<perrow>{JAVA})\s+(?P<relative>{JAVA})X(?![\w.])"
)
_ROW_OLD = re.compile(
    r"\s*+(?:\[info\][ \t]*+)?(?P<diff>[-+](?!-))?[ \t]*+(?P<label>[^\s\[][^\n]{0,100}?)[ \t]+"
    rf"(?P<best>{JAVA})\s*/\s*(?P<avg>{JAVA})\s+(?P<rate>{JAVA})\s+"
    rf"(?P<perrow>{JAVA})\s+(?P<relative>{JAVA})X(?![\w.])"
)
_COLUMNS_NEW = [
    ("best", "Best Time(ms)", "ms"),
    ("avg", "Avg Time(ms)", "ms"),
    ("stdev", "Stdev(ms)", "ms"),
    ("rate", "Rate(M/s)", "M/s"),
    ("perrow", "Per Row(ns)", "ns"),
    ("relative", "Relative", "x"),
]
_COLUMNS_OLD = [c for c in _COLUMNS_NEW if c[0] != "stdev"]
# In a flattened mail, the title follows the CPU line or a fence on the same line.
# (searched from line starts and matched where a removal ended: see without_line_led)
_TITLE_BREAK = re.compile(r"(?m)^.*(?:GHz|Processor|```\w*|\[info\])\s+")
_TITLE_BREAK_AT = re.compile(r".*(?:GHz|Processor|```\w*|\[info\])\s+")


def _title(raw: str) -> str:
    title = raw.strip()
    if len(title) > 80:
        title = without_line_led(title, _TITLE_BREAK.search, _TITLE_BREAK_AT.match)
    return re.sub(r"^(?:\[info\]\s*|[-+]\s*)", "", title).strip().rstrip(":").strip()


# (a case's name stops at the next `Running case:`, so that a line of them is not read
# again from each)
PROGRESS = Rows(
    row=re.compile(
        r"Running case:[ \t]*(?P<case>(?:(?!Running case:)[^\n])+?)\s+(?:\[info\]\s+)?"
        r"Stopped after (?P<n>\d+) iterations?, (?P<ms>\d+) ms"
    ),
    gap=re.compile(r"\s*(?:\[info\]\s*)*"),
    fields=lambda m: [(f"Stopped after {m['n']} iterations", m["ms"], "ms")],
    label="case",
    cells=lambda m, case: [case, f"Stopped after {m['n']} iterations", m["ms"]],
    columns=("case", "metric", "ms"),
)


def parse(text: str) -> list[ResultTable]:
    return _tables(text) + read(PROGRESS, text)


def _tables(text: str) -> list[ResultTable]:
    tables = []
    floor = 0
    for header in _HEADER.finditer(text):
        if header.start() < floor:
            continue
        line_start = max(text.rfind("\n", 0, header.start()) + 1, floor)
        raw_title = text[line_start : header.start()]
        title = _title(raw_title)
        # (a row is only matched where the last one ended: its leading blanks are read once)
        row_at, columns = (
            (_ROW_NEW.match, _COLUMNS_NEW)
            if header.group("new")
            else (_ROW_OLD.match, _COLUMNS_OLD)
        )
        table = ResultTable(
            INFO.name,
            (line_start + len(raw_title) - len(raw_title.lstrip()), header.end()),
            ["case"] + [name for _, name, _ in columns],
            caption=title,
        )
        pos = rule.end() if (rule := _RULE.match(text, header.end())) else header.end()
        while (row := row_at(text, pos)) and not re.search(r"Time\(ms\)|---", row["label"]):
            pos = row.end()
            table.span = (table.span[0], row.end())
            diff = row["diff"] or ""
            label = row["label"].strip()
            found = [(metric, row[g] + ("X" if g == "relative" else ""), unit, parse_number(row[g]))
                     for g, metric, unit in columns]  # fmt: skip
            table.add_row([diff + label, *(row[g] for g, _, _ in columns)],
                          numbers(found, label))  # fmt: skip
            for m in table.measurements[-len(columns) :] if diff else ():
                m.variant = {"-": "old", "+": "new"}[diff]
        if table.rows:
            table.variant = None if title else heading_above(text, table.span[0], floor)
            floor = table.span[1]
            tables.append(table)
    return tables
