"""BenchmarkSQL (the TPC-C driver): the result lines it logs at the end of a run.

Recognises, behind log4j's prefix or without it, BenchmarkSQL 5's end report
(src/client/jTPCC.java `endReport`: `Term-00, Measured tpmC (NewOrders) = 179.55`,
`Measured tpmTOTAL = 329.17`, `Session Start     = 2016-05-25 01:58:07`, `Session End
= ...`, `Transaction Count = 10`) and its status line (`Term-00, Running Average
tpmTOTAL: 27401.55    Current tpmTOTAL: 1801584    Memory Usage: 512MB / 1024MB`);
BenchmarkSQL 6's result table (jTPCCMonkey: `result, | NEW_ORDER    |       470,993 |
44.969 |   0.059 |   0.805 |   0.088 |   1.003 |             0 |` under `TransType
count | mix % | mean max 90th% | rbk% errors`), its `Overall NOPM:  47,099 (366.24% of
the theoretical maximum)` and `Overall TPM:  104,640` lines, and the scheduler's
`Current TPM=104520, NOPM=47040, Progress=10%`; also flattened onto one line.

Measurements: the run's result, label `TPC-C`: `tpmC` and `tpmTOTAL` (5), `NOPM` and
`TPM` (6) in `txn/min`, `efficiency` (% of the theoretical maximum), `transactions`
(a count). BenchmarkSQL 6's table: label = the transaction type, metrics `count`
(count), `mix` (%), `mean`, `max`, `p90` (s), `rollback` (%), `errors` (role
`error`). The status and scheduler lines are one moment of the run (role `sample`,
label `running`): `average tpmTOTAL`, `current tpmTOTAL`; `TPM`, `NOPM`. The session's
start and end, the memory use and the progress give none. Variant = the heading
above the block.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from extract.results.formats._layout import GROUPED, NUM, line_start
from extract.results.formats._rows import Rows, read
from extract.results.formats.base import FormatInfo, Measurement, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="benchmarksql",
    description="BenchmarkSQL TPC-C results",
    signature="`Term-00, Measured tpmC (NewOrders) = 179.55`, `Measured tpmTOTAL = 329.17`, "
    "`Transaction Count = 10`; 6: `| NEW_ORDER | 470,993 | 44.969 | 0.059 | ...`, "
    "`Overall NOPM: 47,099 (366.24% of the theoretical maximum)`",
    priority=10,
    kind="result",
    heading="block",
    trigger=r"(?-i:Measured tpm|Running Average tpmTOTAL|Overall NOPM|Current TPM=\d)",
    needles=("Measured tpm", "Running Average tpmTOTAL", "Overall NOPM", "Current TPM="),
)

_F = rf"[ \t]*+(?P<{{g}}>{NUM}|NaN)[ \t]*+\|"  # a cell of BenchmarkSQL 6's table
_ROW = "|".join(
    (
        # BenchmarkSQL 5
        # (a mail wrapped at 72 columns may break these lines anywhere between words)
        rf"Measured\s++tpmC\s++\(NewOrders\)\s*+=\s*+(?P<tpmc>{NUM}(?:E\d+)?)",
        rf"Measured\s++tpmTOTAL\s*+=\s*+(?P<tpmt>{NUM}(?:E\d+)?)",
        r"Session\s++(?:Start|End)\s*+=\s*+\d{4}-\d\d-\d\d[ \t]++\d\d:\d\d:\d\d",
        r"Transaction\s++Count\s*+=\s*+(?P<count>\d++)",
        rf"Running[ \t]++Average[ \t]++tpmTOTAL:[ \t]*+(?P<avg>{NUM})[ \t]++Current[ \t]++"
        rf"tpmTOTAL:[ \t]*+(?P<cur>\d++)(?:\s++Memory[ \t]++Usage:[ \t]*+\d++MB[ \t]*+/"
        r"[ \t]*+\d++MB)?",
        # BenchmarkSQL 6
        rf"Overall[ \t]++NOPM:[ \t]*+(?P<nopm>{GROUPED})(?:[ \t]*+\((?P<eff>{NUM})%[ \t]++of"
        r"[ \t]++the[ \t]++theoretical[ \t]++maximum\))?",
        rf"Overall[ \t]++TPM:[ \t]*+(?P<tpm>{GROUPED})",
        r"Current[ \t]++TPM=(?P<ctpm>\d++),[ \t]*+NOPM=(?P<cnopm>\d++)"
        r"(?:,[ \t]*+Progress=\d++%)?",
        r"\|[ \t]*+(?P<type>[A-Z][A-Z_]*+)[ \t]*+\|[ \t]*+(?P<n>\d[\d,]*+)[ \t]*+\|"
        + "".join(_F.format(g=g) for g in ("mix", "mean", "max", "p90", "rbk"))
        + r"[ \t]*+(?P<errors>\d[\d,]*+|NaN)[ \t]*+\|",
        # the table's header and rules, which give no number
        r"_{3,}+[ \t]*+latency[ \t]++\(seconds\)[ \t]*+_{3,}+",
        r"TransType[ \t]++count[ \t]*+\|[^\n|]*+\|[^\n|]*+\|[ \t]*+rbk%[ \t]++errors",
        r"\+(?:-{5,}+\+)++",
    )
)
# What stands between two result lines: log4j's prefix (`01:58:09,082 [Thread-1] INFO
# jTPCC : Term-00,`, `2023-05-25 14:26:38,532  INFO - result,`), an empty log line.
_PREFIX = r"[^\n]{0,120}?(?:Term-\d\d|result|Scheduler),[ \t]*+"
_GAP = rf"(?:\s*+{_PREFIX})*+\s*+"

_TABLE = (
    ("mix", "mix", "%", "result"),
    ("mean", "mean", "s", "result"),
    ("max", "max", "s", "result"),
    ("p90", "p90", "s", "result"),
    ("rbk", "rollback", "%", "result"),
)


def _found(m: re.Match) -> Iterator[Measurement]:
    def measure(group: str, metric: str, unit: str | None, role: str = "result"):
        value = parse_number(m[group]) if m[group] and m[group] != "NaN" else None
        if value is not None:
            meas = Measurement(metric, value, unit, None, None, m[group], role=role)
            meas.span = m.span(group)
            yield meas

    yield from measure("tpmc", "tpmC", "txn/min")
    yield from measure("tpmt", "tpmTOTAL", "txn/min")
    yield from measure("count", "transactions", None, "count")
    yield from measure("nopm", "NOPM", "txn/min")
    yield from measure("eff", "efficiency", "%")
    yield from measure("tpm", "TPM", "txn/min")
    yield from measure("avg", "average tpmTOTAL", "txn/min", "sample")
    yield from measure("cur", "current tpmTOTAL", "txn/min", "sample")
    yield from measure("ctpm", "TPM", "txn/min", "sample")
    yield from measure("cnopm", "NOPM", "txn/min", "sample")
    if m["type"]:
        yield from measure("n", "count", None, "count")
        for group, metric, unit, role in _TABLE:
            yield from measure(group, metric, unit, role)
        yield from measure("errors", "errors", None, "error")


def _label(m: re.Match) -> str:
    if m["type"]:
        return m["type"]
    return "running" if m["avg"] or m["ctpm"] else "TPC-C"


ROWS = Rows(
    row=rf"(?<![\w.])(?:{_ROW})",
    fields=_found,
    label=_label,
    gap=_GAP,
    columns=("line", "value"),
    cells=lambda m, label: [label, " ".join(m[0].split())],
    # a block is the tool's when it holds a result, not only its header or dates
    keep=lambda rows: any(
        m["tpmc"] or m["tpmt"] or m["nopm"] or m["tpm"] or m["type"] or m["avg"] or m["ctpm"]
        for m in rows
    ),
)


_LINE_PREFIX = re.compile(rf"[ \t]*+{_PREFIX}\r?")


def parse(text: str) -> list[ResultTable]:
    tables = read(ROWS, text)
    # A block starts at its first line, log prefix and all, and the empty log lines
    # above it: the heading above them (which the registry finds from the block's
    # start) names it.
    for t in tables:
        start = line_start(text, t.span[0])
        if not _LINE_PREFIX.fullmatch(text, start, t.span[0]):
            continue
        while start > 0 and _LINE_PREFIX.fullmatch(
            text, above := line_start(text, start - 1), start - 1
        ):
            start = above
        t.span = (start, t.span[1])
    return tables
