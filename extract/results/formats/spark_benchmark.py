"""Spark `Benchmark` framework tables (core/src/test/scala/org/apache/spark/benchmark/
Benchmark.scala, as its `*-results.txt` files and PR comments show them).

Recognises the header `<title>:  Best Time(ms)  Avg Time(ms)  Stdev(ms)  Rate(M/s)
Per Row(ns)  Relative` (Spark 3+) or `<title>:  Best/Avg Time(ms)  Rate(M/s)  Per
Row(ns)  Relative` (Spark 2, cells `40943 / 47670`), an optional dashed rule, then rows
`<case>  2161  2194  55  9.3  108.0  1.0X`, with sbt's `[info] ` prefix or a diff's
`-` / `+` (variant `old` / `new`), also flattened; a header and rule wrapped at 72/80
columns still open the table; a rate `Infinity` (best time 0 ms) is read as such. Also
the sbt progress pairs `Running case: <case>` / `Stopped after 2 iterations, 2962 ms`.

Measurements: one table per title (its caption); label = the case, metric = the column
(`Best Time(ms)` ... `Relative`), unit `ms`, `M/s`, `ns` or `x` (`1.0X` → 1.0). The JVM
and CPU lines are none. Progress pairs give `Stopped after N iterations` (ms).
"""

from __future__ import annotations

import re

from extract.results.formats._layout import JAVA, heading_above, without_line_led
from extract.results.formats._rows import Rows, numbers, read
from extract.results.formats.base import FormatInfo, Measurement, ResultTable
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
    row=(
        r"Running case:[ \t]*(?P<case>(?:(?!Running case:)[^\n])+?)\s+(?:\[info\]\s+)?"
        r"Stopped after (?P<n>\d+) iterations?, (?P<ms>\d+) ms"
    ),
    gap=r"\s*(?:\[info\]\s*)*",
    fields=lambda m: [(f"Stopped after {m['n']} iterations", m["ms"], "ms")],
    label="case",
    cells=lambda m, case: [case, f"Stopped after {m['n']} iterations", m["ms"]],
    columns=("case", "metric", "ms"),
)


def parse(text: str) -> list[ResultTable]:
    return _tables(text) + read(PROGRESS, text)


def _cases(new: bool) -> Rows:
    """Spark 3's table (`Best Time(ms)  Avg Time(ms)  Stdev(ms)`) or Spark 2's (`Best/Avg
    Time(ms)`, cells `40943 / 47670`): the rows after the header and the rule under it."""
    columns = _COLUMNS_NEW if new else _COLUMNS_OLD

    def found(row: re.Match) -> list[Measurement]:
        out = numbers(
            [(metric, row[g] + ("X" if g == "relative" else ""), unit, parse_number(row[g]))
             for g, metric, unit in columns],
            row["label"].strip(),
        )  # fmt: skip
        for m in out if row["diff"] else ():
            m.variant = {"-": "old", "+": "new"}[row["diff"]]
        return out

    return Rows(
        header=(
            (r"Best Time\(ms\)\s+Avg Time\(ms\)\s+Stdev\(ms\)" if new else r"Best/Avg Time\(ms\)")
            + r"\s+Rate\(M/s\)\s+Per\s+Row\(ns\)\s+Relative[ \t]*"
            # the rule under it; a mail that wraps at 72/80 columns splits it over lines
            + r"(?:\s*(?:\[info\][ \t]*)?[-+ ]?-{10,}(?:[ \t\r]*\n?[ \t]*-{3,}(?=\s|$))*)?"
        ),
        # `Infinity` is what `%10.1f` prints for a rate when the best time rounds to 0 ms.
        # (blanks are taken whole: what follows them is not a blank; `Time(ms)` or `---`
        # in what would be a case is the next table's header or rule, which ends this one)
        row=(
            r"\s*+(?:\[info\][ \t]*+)?(?P<diff>[-+](?!-))?[ \t]*+"
            r"(?P<label>(?:(?!Time\(ms\)|---)[^\s\[])(?:(?!Time\(ms\)|---)[^\n]){0,100}?)[ \t]+"
            + (
                rf"(?P<best>{JAVA})\s+(?P<avg>{JAVA})\s+(?P<stdev>{JAVA})"
                if new
                else rf"(?P<best>{JAVA})\s*/\s*(?P<avg>{JAVA})"
            )
            + rf"\s+(?P<rate>{JAVA})\s+(?P<perrow>{JAVA})\s+(?P<relative>{JAVA})X(?![\w.])"
        ),
        fields=found,
        label=lambda row: row["label"].strip(),
        cells=lambda row, label: [(row["diff"] or "") + label, *(row[g] for g, _, _ in columns)],
        columns=("case", *(name for _, name, _ in columns)),
    )


CASES = (_cases(True), _cases(False))


def _tables(text: str) -> list[ResultTable]:
    """The tables, each from the title before its header (its caption; else the heading
    above it names it)."""
    tables = sorted((t for spec in CASES for t in read(spec, text)), key=lambda t: t.span)
    floor = 0
    for t in tables:
        line_start = max(text.rfind("\n", 0, t.span[0]) + 1, floor)
        raw_title = text[line_start : t.span[0]]
        t.caption = _title(raw_title)
        t.span = (line_start + len(raw_title) - len(raw_title.lstrip()), t.span[1])
        t.variant = None if t.caption else heading_above(text, t.span[0], floor)
        floor = t.span[1]
    return tables
