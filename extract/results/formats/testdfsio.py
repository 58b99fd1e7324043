"""Hadoop TestDFSIO and NNBench result blocks: returns one table per block.

TestDFSIO: `----- TestDFSIO ----- : write` (or `append`, `truncate`, `read`, `random
read`, `backward read`, `skip read`) followed by right-aligned `Key: value` lines
(optionally prefixed `INFO fs.TestDFSIO:` and a timestamp: the prefix of the header
line belongs to the block, so the heading above it names the run; or flattened onto
one line; CRLF; a `| ` gutter). Measurements: label `TestDFSIO <operation>`, metric =
the key as written (`Throughput mb/sec`, `Total Throughput mb/sec`, `Average IO rate
mb/sec`, `IO rate std deviation`, `Test exec time sec`, `Number of files`, `Total MBytes
processed`); unit `MB/s` for the rates, `s` for the exec time, `MB` for the volume,
`count` for files.

NNBench: `-------------- NNBench -------------- :` followed by `Key: value` lines.
Measurements: label = `Test Operation` (`create_write`), the result lines
`TPS: Create/Write/Close` (unit `ops/s`), `Avg exec time (ms): ...`,
`Avg Lat (ms): ...` (unit `ms`), `Successful file operations`, `# exceptions`,
`# maps that missed the barrier` (unit `count`). Parameter lines (maps, block size,
replication, ...) and `RAW DATA` lines are not results.

Source: Hadoop's TestDFSIO.analyzeResult and NNBench's result block (hadoop-mapreduce-
client-jobclient tests), as documented; the repository was too large to fetch here.
"""

from __future__ import annotations

import re

from extract.results.formats._context import measure
from extract.results.formats._layout import JAVA, heading_above
from extract.results.formats.base import FormatInfo, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="testdfsio",
    description="Hadoop TestDFSIO / NNBench result blocks",
    signature="`----- TestDFSIO ----- : write` + `Throughput mb/sec:` / `Average IO rate mb/sec:` "
    "lines; `-------------- NNBench -------------- :` + `TPS: Create/Write/Close:` lines",
    priority=10,
    gutter=True,
    kind="result",
    trigger=r"(?-i:-\s*(?:TestDFSIO|NNBench))",
    needles=("TestDFSIO", "NNBench"),
)

# The operation is one word, or two for the read variants (`random read`, `backward read`,
# `skip read`); a log record prefix before the header belongs to the block.
_HEADER = re.compile(
    r"(?P<prefix>(?:\d{2,4}[-/]\d\d[-/]\d\d[ T][\d:,.]+\s+)?(?:INFO|WARN)\s+[\w.]+:\s*)?"
    r"(?<!-)-{3,}+\s*(?P<tool>TestDFSIO|NNBench)\s*-{3,}\s*:"
    # on the header's line any word; on the next (a wrapped mail) only TestType's names
    r"(?:[ \t]*(?P<op>(?:(?:random|backward|skip)\s+(?=read\b))?[\w-]+(?![\w-])(?!\s*:))"
    r"|\s*(?P<op2>(?:write|read|append|truncate|cleanup|(?:random|backward|skip)\s+read)\b)"
    r"(?!\s*:)|)"
)
# `Key: value` where the key may itself contain `(ms):` (NNBench) — value is a number.
_PAIR = re.compile(
    r"(?P<key>[A-Za-z#][\w#&/().\- ]{0,60}?(?::\s*[A-Za-z#][\w/#(). ]{0,40}?)?)"
    rf"\s*:\s*(?P<val>{JAVA})(?![\w.:])"
)
# Text allowed between the lines of a block (log prefixes, non-numeric lines).
_LOG_PREFIX = re.compile(r"(?:\d{2,4}[-/]\d\d[-/]\d\d[ T][\d:,.]+\s+)?(?:INFO|WARN)\s+[\w.]+:")
_NON_NUMERIC_PAIR = re.compile(
    # `Date & time: Tue Feb 20 14:02:11 UTC 2024` (java.util.Date, may be wrapped)
    r"Date\s+&\s+time\s*:\s*[A-Z][a-z]{2}\s+[A-Z][a-z]{2}\s+\d\d?\s+\d\d:\d\d:\d\d(?:\s+[A-Z]{2,5})?"
    r"\s+\d{4}(?!\d)"
    r"|(?:Date & time|Version|Test Operation|Start time|Test\s*type)\s*:"
    r"[^\n]*?(?=\s+(?:INFO\b|[A-Z#][A-Za-z #&/().]*:)|\n|$)"
)

_BLANK = re.compile(r"\s*")
_DFSIO_UNITS = [
    (re.compile(r"throughput", re.I), "MB/s"),
    (re.compile(r"io rate", re.I), "MB/s"),
    (re.compile(r"exec time", re.I), "s"),
    (re.compile(r"mbytes processed", re.I), "MB"),
    (re.compile(r"number of files", re.I), "count"),
]
_NNBENCH_UNITS = [
    (re.compile(r"^TPS\b", re.I), "ops/s"),
    (re.compile(r"\(ms\)", re.I), "ms"),
    (
        re.compile(
            r"^Successful file operations$|^# maps that missed the barrier$|^# exceptions$", re.I
        ),
        "count",
    ),
]


def _unit(tool: str, key: str) -> str | None:
    for pattern, unit in _DFSIO_UNITS if tool == "TestDFSIO" else _NNBENCH_UNITS:
        if pattern.search(key):
            return unit
    return None


def parse(text: str) -> list[ResultTable]:
    tables = []
    headers = list(_HEADER.finditer(text))
    floor = 0
    for i, header in enumerate(headers):
        limit = headers[i + 1].start() if i + 1 < len(headers) else len(text)
        tool = header.group("tool")
        op = " ".join((header.group("op") or header.group("op2") or "").split())
        if tool == "NNBench":
            found = re.search(r"Test Operation\s*:\s*([\w-]+)", text[header.end() : limit])
            op = found.group(1) if found else op
        label = f"{tool} {op}".strip() if tool == "TestDFSIO" else (op or tool)
        table = ResultTable(
            format=INFO.name,
            span=(header.start(), header.end()),
            columns=["key", "value"],
            caption=f"{tool} {op}".strip(),
        )
        pos = header.end()
        while pos < limit:
            gap = _BLANK.match(text, pos, limit)
            at = gap.end()
            for skip in (_LOG_PREFIX, _NON_NUMERIC_PAIR):
                m = skip.match(text, at, limit)
                if m:
                    break
            if m:
                pos = m.end()
                continue
            m = _PAIR.match(text, at, limit)
            if not m:
                break
            pos = m.end()
            key, written = " ".join(m.group("key").split()), m.group("val")
            table.span = (table.span[0], m.end())
            unit = _unit(tool, key)
            if unit is None or key.upper().startswith("RAW DATA"):
                continue
            table.rows.append([key, written])
            meas = measure(
                key, written, parse_number(written), unit, label=label, row=len(table.rows) - 1
            )
            if meas:
                if key.startswith("Total MBytes"):  # the bytes the job moved, not a result
                    meas.role = "total"
                table.measurements.append(meas)
        table.variant = heading_above(text, header.start(), floor)
        floor = table.span[1]
        tables.append(table)
    return tables
