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

from extract.results.formats._layout import JAVA
from extract.results.formats._rows import Rows, read
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="testdfsio",
    description="Hadoop TestDFSIO / NNBench result blocks",
    signature="`----- TestDFSIO ----- : write` + `Throughput mb/sec:` / `Average IO rate mb/sec:` "
    "lines; `-------------- NNBench -------------- :` + `TPS: Create/Write/Close:` lines",
    priority=10,
    gutter=True,
    heading="block",
    kind="result",
    trigger=r"(?-i:-\s*(?:TestDFSIO|NNBench))",
    needles=("TestDFSIO", "NNBench"),
)

# The log record prefix: `18/04/16 09:51:05 INFO fs.TestDFSIO:`.
_LOG = r"(?:\d{2,4}[-/]\d\d[-/]\d\d[ T][\d:,.]+\s+)?(?:INFO|WARN)\s+[\w.]+:"
_HEADER = (
    rf"(?P<prefix>{_LOG}\s*)?"
    r"(?<!-)-{3,}+\s*(?P<tool>%s)\s*-{3,}\s*:"
    # on the header's line any word; on the next (a wrapped mail) only TestType's names
    r"(?:[ \t]*(?P<op>(?:(?:random|backward|skip)\s+(?=read\b))?[\w-]+(?![\w-])(?!\s*:))"
    r"|\s*(?P<op2>(?:write|read|append|truncate|cleanup|(?:random|backward|skip)\s+read)\b)"
    r"(?!\s*:)|)"
)
_TEST_OPERATION = re.compile(r"Test Operation\s*:\s*([\w-]+)")
# The unit of a result line, by what its key says; a key that says none is a parameter.
_UNITS = {
    "TestDFSIO": re.compile(
        r"(?P<MB_s>throughput|io rate)|(?P<s>exec time)|(?P<MB>mbytes processed)"
        r"|(?P<count>number of files)",
        re.I,
    ),
    "NNBench": re.compile(
        r"(?P<ops_s>^TPS\b)|(?P<ms>\(ms\))"
        r"|(?P<count>^(?:Successful file operations|# maps that missed the barrier|# exceptions)$)",
        re.I,
    ),
}


def _key(m: re.Match) -> str:
    return " ".join(m["key"].split())


def _unit(tool: str, m: re.Match) -> str | None:
    found = _UNITS[tool].search(_key(m))
    return found.lastgroup.replace("_", "/") if found else None


def _rows(tool: str) -> Rows:
    """The `Key: value` lines under a tool's header; those of parameters (no unit) and
    `RAW DATA` lines are part of the block but give no rows."""
    return Rows(
        header=_HEADER % tool,
        # the key may itself hold `(ms):` (NNBench)
        row=(
            r"(?P<key>[A-Za-z#][\w#&/().\- ]{0,60}?(?::\s*[A-Za-z#][\w/#(). ]{0,40}?)?)"
            rf"\s*:\s*(?P<val>{JAVA})(?![\w.:])"
        ),
        # between the lines: log prefixes, and lines that hold no number
        gap=(
            rf"(?:\s*(?:{_LOG}"
            # `Date & time: Tue Feb 20 14:02:11 UTC 2024` (java.util.Date, may be wrapped)
            r"|Date\s+&\s+time\s*:\s*[A-Z][a-z]{2}\s+[A-Z][a-z]{2}\s+\d\d?\s+\d\d:\d\d:\d\d"
            r"(?:\s+[A-Z]{2,5})?\s+\d{4}(?!\d)"
            r"|(?:Date & time|Version|Test Operation|Start time|Test\s*type)\s*:"
            r"[^\n]*?(?=\s+(?:INFO\b|[A-Z#][A-Za-z #&/().]*:)|\n|$)))*\s*"
        ),
        select=lambda rows: [
            m for m in rows if _unit(tool, m) and not _key(m).upper().startswith("RAW DATA")
        ],
        fields=lambda m: [(_key(m), m["val"], _unit(tool, m))],
        label=_key,
        cells=lambda m, key: [key, m["val"]],
        columns=("key", "value"),
        keep_empty=True,
    )


READERS = (_rows("TestDFSIO"), _rows("NNBench"))


def parse(text: str) -> list[ResultTable]:
    tables = sorted((t for spec in READERS for t in read(spec, text)), key=lambda t: t.span)
    for k, t in enumerate(tables):
        head = READERS[0].header.match(text, t.span[0]) or READERS[1].header.match(text, t.span[0])
        tool, op = head["tool"], " ".join((head["op"] or head["op2"] or "").split())
        if tool == "NNBench":
            limit = tables[k + 1].span[0] if k + 1 < len(tables) else len(text)
            found = _TEST_OPERATION.search(text[head.end() : limit])
            op = found.group(1) if found else op
        t.caption = f"{tool} {op}".strip()
        for m in t.measurements:
            m.label = t.caption if tool == "TestDFSIO" else (op or tool)
            if m.metric.startswith("Total MBytes"):  # the bytes the job moved, not a result
                m.role = "total"
    return tables
