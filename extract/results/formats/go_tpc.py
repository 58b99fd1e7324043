"""go-tpc (PingCAP's TPC-C / TPC-H driver): its summary and interval lines, and the
TPC-C result line.

Recognises go-tpc's plain output (`--output plain`, its default; pkg/util/output.go
RenderString, tpcc/workload.go, pkg/measurement/hist.go): a line an operation,
`[Summary] NEW_ORDER - Takes(s): 600.0, Count: 470993, TPM: 47099.8, Sum(ms):
27810745.6, Avg(ms): 59.0, 50th(ms): 54.5, 90th(ms): 88.1, 95th(ms): 100.7,
99th(ms): 134.2, 99.9th(ms): 201.3, Max(ms): 805.3` (older go-tpc printed fewer
keys, e.g. no `50th` / `95th`: each value is read by its key), `[Current] ...` the
same for the last interval, `NEW_ORDER_ERR` for the failed transactions; then
`tpmC: 47099.8, tpmTotal: 104640.1, efficiency: 366.2%`; TPC-H's `[Summary] Q1:
1.23s` (`[Current] Q1: ...`); also flattened onto one line. The table (`--output
table`) and JSON styles are left to the generic readers.

Measurements: label = the operation (`NEW_ORDER`, `PAYMENT`, `Q1`); metric = go-tpc's
key without its unit (`Takes` as `elapsed`, `Count`, `TPM`, `Sum`, `Avg`, `50th` as
`p50`, `99.9th` as `p99.9`, `Max`), unit from the key (`(s)`, `(ms)`; `TPM` in
`txn/min`); the elapsed time and the summed latency are totals, the count a count; an
`_ERR` line's numbers are errors (role `error`). `[Current]` lines are one interval's
values of what the summary gives for the whole run (role `sample`, variant `current interval`
when they stand beside a summary). The result line: label `TPC-C`, metrics `tpmC`
and `tpmTotal` (`txn/min`) and `efficiency` (%). Variant = the heading above the
block.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from extract.results.formats._layout import NUM
from extract.results.formats._rows import Rows, read
from extract.results.formats.base import FormatInfo, Measurement, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="go-tpc",
    description="go-tpc TPC-C / TPC-H summaries",
    signature="`[Summary] NEW_ORDER - Takes(s): 600.0, Count: 470993, TPM: 47099.8, ..., "
    "99th(ms): 134.2, Max(ms): 805.3`, `tpmC: 47099.8, tpmTotal: 104640.1, efficiency: "
    "366.2%`; TPC-H `[Summary] Q1: 1.23s`",
    priority=10,
    kind="result",
    heading="block",
    trigger=r"(?-i:\[(?:Summary|Current)\] \w|tpmC: \d)",
    needles=("Summary] ", "Current] ", "tpmC: "),
)

# `Takes(s): 600.0`, `Count: 470993`, `99.9th(ms): 201.3`, `Avg(ms): 59.0`
_PAIR = rf"(?<![A-Za-z0-9.])(?P<k>[A-Za-z0-9.]+)(?:\((?P<u>s|ms|us)\))?:[ \t]*+(?P<v>{NUM})"
_PAIR_RE = re.compile(_PAIR)
_KEY = r"[A-Za-z0-9.]+(?:\((?:s|ms|us)\))?:[ \t]*+"
# (a mail wrapped at 72 columns breaks the line after a comma)
_PAIRS = rf"{_KEY}{NUM}(?:,[ \t]*+(?:\r?\n[ \t]*+)?{_KEY}{NUM})*+"
_ROW = (
    r"(?<![\w\]])\[(?P<kind>Summary|Current)\][ \t]++"
    # TPC-C: `NEW_ORDER - Takes(s): ...` (the operation padded to 6 by `%-6s`)
    rf"(?:(?P<op>[A-Z][A-Z0-9_]*+)[ \t]++-[ \t]++(?P<pairs>{_PAIRS})"
    # TPC-H: `Q1: 1.23s`
    rf"|(?P<q>Q\d{{1,2}}|[A-Z][A-Z0-9_]*+):[ \t]++(?P<qv>{NUM})s(?![\w.]))"
    # the TPC-C result of the run
    # (go-tpc before 1.0.4 printed `tpmC: 4881.4` alone)
    rf"|(?<!\S)tpmC:[ \t]*+(?P<tpmc>{NUM})(?:,[ \t]*+tpmTotal:[ \t]*+(?P<tpmt>{NUM}))?"
    rf"(?:,[ \t]*+efficiency:[ \t]*+(?P<eff>{NUM})%)?(?![\w.])"
)

_METRIC = {"Takes": "elapsed"}
_ROLE = {"Takes": "total", "Sum": "total", "Count": "count"}


def _metric(key: str) -> str:
    if m := re.fullmatch(rf"({NUM})th", key):
        return f"p{m.group(1)}"
    return _METRIC.get(key, key)


def _found(m: re.Match) -> Iterator[Measurement]:
    if m["tpmc"]:
        for metric, group, unit in (
            ("tpmC", "tpmc", "txn/min"),
            ("tpmTotal", "tpmt", "txn/min"),
            ("efficiency", "eff", "%"),
        ):
            if m[group]:
                yield _measure(metric, m, group, unit, "result")
        return
    sample = m["kind"] == "Current"
    if m["q"]:
        yield _measure("time", m, "qv", "s", "sample" if sample else "result")
        return
    error = m["op"].endswith("_ERR")
    base = m.start("pairs")
    for p in _PAIR_RE.finditer(m["pairs"]):
        key = p["k"]
        unit = p["u"] or ("txn/min" if key == "TPM" else None)
        role = "error" if error else "sample" if sample else _ROLE.get(key, "result")
        meas = Measurement(_metric(key), parse_number(p["v"]), unit, None, None, p["v"], role=role)
        meas.span = (base + p.start("v"), base + p.end("v"))
        yield meas


def _measure(metric: str, m: re.Match, group: str, unit: str, role: str) -> Measurement:
    meas = Measurement(metric, parse_number(m[group]), unit, None, None, m[group], role=role)
    meas.span = m.span(group)
    return meas


ROWS = Rows(
    row=_ROW,
    # between the interval lines and the summary go-tpc prints `Finished`, and a failed
    # transaction's log line may stand anywhere
    gap=r"(?:\s*+(?:Finished\b[^\n]*+|\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\][^\n]*+))*+\s*+",
    fields=_found,
    label=lambda m: "TPC-C" if m["tpmc"] else (m["op"] or m["q"]),
    columns=("kind", "operation", "values"),
    cells=lambda m, label: [
        m["kind"] or "result",
        label,
        " ".join((m["pairs"] or m["qv"] or m[0]).split()),
    ],
)


def parse(text: str) -> list[ResultTable]:
    tables = read(ROWS, text)
    # A block that holds a summary: its interval lines (pasted above it) are told
    # apart from it by their variant.
    for t in tables:
        kinds = {row[0] for row in t.rows}
        if "Summary" in kinds and "Current" in kinds:
            for meas in t.measurements:
                if t.rows[meas.row][0] == "Current":
                    meas.variant = "current interval"
    return tables
