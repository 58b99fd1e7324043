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

from extract.results.formats._context import measure
from extract.results.formats._layout import JAVA, heading_above
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
_ROW_NEW = re.compile(
    r"\s*(?:\[info\][ \t]*)?(?P<diff>[-+](?!-))?[ \t]*(?P<label>[^\s\[][^\n]{0,100}?)[ \t]+"
    rf"(?P<best>{JAVA})\s+(?P<avg>{JAVA})\s+(?P<stdev>{JAVA})\s+(?P<rate>{JAVA})\s+"
    rf"(?P<perrow>{JAVA})\s+(?P<relative>{JAVA})X(?![\w.])"
)
_ROW_OLD = re.compile(
    r"\s*(?:\[info\][ \t]*)?(?P<diff>[-+](?!-))?[ \t]*(?P<label>[^\s\[][^\n]{0,100}?)[ \t]+"
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
_PROGRESS = re.compile(
    r"Running case:[ \t]*(?P<case>[^\n]+?)\s+(?:\[info\]\s+)?"
    r"Stopped after (?P<n>\d+) iterations?, (?P<ms>\d+) ms"
)
# In a flattened mail, the title follows the CPU line or a fence on the same line.
_TITLE_BREAK = re.compile(r".*(?:GHz|Processor|```\w*|\[info\])\s+")


def _title(raw: str) -> str:
    title = raw.strip()
    if len(title) > 80:
        title = _TITLE_BREAK.sub("", title)
    return re.sub(r"^(?:\[info\]\s*|[-+]\s*)", "", title).strip().rstrip(":").strip()


def parse(text: str) -> list[ResultTable]:
    tables: list[ResultTable] = []
    for reader in (_tables, _progress):
        tables.extend(reader(text))
    return tables


def _tables(text: str) -> list[ResultTable]:
    tables = []
    floor = 0
    for header in _HEADER.finditer(text):
        if header.start() < floor:
            continue
        line_start = max(text.rfind("\n", 0, header.start()) + 1, floor)
        raw_title = text[line_start : header.start()]
        title = _title(raw_title)
        row_re, columns = (
            (_ROW_NEW, _COLUMNS_NEW) if header.group("new") else (_ROW_OLD, _COLUMNS_OLD)
        )
        table = ResultTable(
            format=INFO.name,
            span=(line_start + len(raw_title) - len(raw_title.lstrip()), header.end()),
            columns=["case"] + [name for _, name, _ in columns],
            caption=title,
        )
        pos = header.end()
        rule = _RULE.match(text, pos)
        if rule:
            pos = rule.end()
        while True:
            row = row_re.match(text, pos)
            if not row or "Time(ms)" in row.group("label") or "---" in row.group("label"):
                break
            pos = row.end()
            table.span = (table.span[0], row.end())
            diff = row.group("diff")
            variant = {"-": "old", "+": "new"}.get(diff or "")
            label = row.group("label").strip()
            index = len(table.rows)
            table.rows.append([(diff or "") + label] + [row.group(g) for g, _, _ in columns])
            for group, metric, unit in columns:
                written = row.group(group)
                if group == "relative":
                    written += "X"
                value = parse_number(written.rstrip("X"))
                meas = measure(
                    metric, written, value, unit, label=label, variant=variant, row=index
                )
                if meas:
                    table.measurements.append(meas)
        if table.rows:
            table.variant = None if title else heading_above(text, table.span[0], floor)
            floor = table.span[1]
            tables.append(table)
    return tables


def _progress(text: str) -> list[ResultTable]:
    tables: list[ResultTable] = []
    for m in _PROGRESS.finditer(text):
        if (
            tables
            and not re.fullmatch(r"\s*(?:\[info\]\s*)*", text[tables[-1].span[1] : m.start()])
            or not tables
        ):
            tables.append(
                ResultTable(
                    format=INFO.name, span=(m.start(), m.end()), columns=["case", "metric", "ms"]
                )
            )
        table = tables[-1]
        table.span = (table.span[0], m.end())
        metric = f"Stopped after {m.group('n')} iterations"
        table.rows.append([m.group("case"), metric, m.group("ms")])
        meas = measure(
            metric,
            m.group("ms"),
            parse_number(m.group("ms")),
            "ms",
            label=m.group("case"),
            row=len(table.rows) - 1,
        )
        if meas:
            table.measurements.append(meas)
    return tables
