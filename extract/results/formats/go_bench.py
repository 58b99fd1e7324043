"""Go `testing` benchmark output: `BenchmarkX-8  1000000  123 ns/op  45 B/op  2 allocs/op`.

Recognises result lines whose name starts with `Benchmark`, followed by the iteration
count and `value unit` pairs (TABs or runs of spaces, also flattened onto one line or
wrapped by JIRA mail), together with the `goos:`/`goarch:`/`pkg:`/`cpu:` header, bare
`-v` name lines and the closing `PASS` / `ok  pkg  3.1s` lines, which belong to the
block but give no rows.

Returns one ResultTable per block; one table row per result line (`-count` repetitions
stay separate rows with the same label). Measurements, label = the name as printed
(`BenchmarkSet_32-46`, GOMAXPROCS suffix kept): `iterations` (unit `count`), then one
per pair with the unit as printed: `time/op` (ns/op), `alloc/op` (B/op), `allocs/op`,
`speed` (MB/s), and custom `b.ReportMetric` units under their own name.
Variant = the heading before the block (`--- Before`, `After:`), when there is one.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import heading_above, runs
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="go-bench",
    description="Go 'BenchmarkX-8  N  123 ns/op' lines",
    signature="`BenchmarkName/sub-8  <iterations>  44.6 ns/op  336.59 MB/s  16 B/op  1 allocs/op`, "
    "after `goos:` / `goarch:` / `pkg:` / `cpu:` lines",
    priority=10,
    kind="result",
    trigger=r"(?-i:Benchmark\S*[ \t]+\d+\s+[-+]?\d)",
    needles=("Benchmark",),
)

_NUM = r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
_UNIT = r"(?:[^\s/]+/[^\s/]+|%)"  # ns/op, B/op, allocs/op, MB/s, rows/s, %
_ROW = re.compile(
    rf"(?<!\S)(?P<name>Benchmark[^\s]*)[ \t]+(?P<iters>\d+)"
    rf"(?P<pairs>(?:\s+{_NUM}\s+{_UNIT}(?=\s|$))+)"  # \s: JIRA mail wraps long lines
)
_PAIR = re.compile(rf"(?P<v>{_NUM})\s+(?P<u>{_UNIT})")
_GAP = re.compile(
    # (`\s`, not `\s+`, inside the `*`: nested quantifiers backtrack exponentially on a
    # long run of blanks followed by anything else, 0.24 s for 22 blanks)
    r"(?:\s|(?:goos|goarch|pkg|cpu|note|branch):[^\n]*?(?=\s(?:goos|goarch|pkg|cpu|Benchmark)|\n)"
    r"|Benchmark[^\s]*(?=\s)|PASS|FAIL)*"
)
_HEAD_LINE = re.compile(r"^[ \t]*(?:(?:goos|goarch|pkg|cpu|note|branch):.*|Benchmark\S*)[ \t]*$")
_TAIL = re.compile(r"\s+(?:PASS\s+)?ok[ \t]+\S+[ \t]+\d+(?:\.\d+)?s\b|\s+PASS\b")
_METRIC = {"ns/op": "time/op", "B/op": "alloc/op", "allocs/op": "allocs/op", "MB/s": "speed"}


def _block_start(text: str, start: int) -> int:
    """Extend a block upwards over the config header and bare `-v` name lines."""
    line_start = text.rfind("\n", 0, start) + 1
    if text[line_start:start].strip():
        return start  # flattened: something else precedes on the same line
    first = pos = line_start
    for line in reversed(text[:line_start].split("\n")[:-1]):
        pos -= len(line) + 1
        if _HEAD_LINE.match(line):
            first = pos
        elif line.strip():
            break
    return first


def _table(text: str, rows: list[re.Match]) -> ResultTable:
    start = _block_start(text, rows[0].start())
    end = rows[-1].end()
    tail = _TAIL.match(text, end)
    if tail:
        end = tail.end()
    table = ResultTable(
        format=INFO.name, span=(start, end), variant=heading_above(text, start, style="line")
    )
    units: list[str] = []
    for r in rows:
        for p in _PAIR.finditer(r["pairs"]):
            if p["u"] not in units:
                units.append(p["u"])
    table.columns = ["name", "iterations", *units]
    for i, r in enumerate(rows):
        name = r["name"]
        cells = {u: "" for u in units}
        table.measurements.append(
            Measurement("iterations", float(r["iters"]), "count", name, None, r["iters"], i)
        )
        for p in _PAIR.finditer(r["pairs"]):
            cells[p["u"]] = p["v"]
            metric = _METRIC.get(p["u"], p["u"])
            table.measurements.append(
                Measurement(metric, float(p["v"]), p["u"], name, None, p["v"], i)
            )
        table.rows.append([name, r["iters"], *cells.values()])
    return table


def parse(text: str) -> list[ResultTable]:
    return [_table(text, rows) for rows in runs(_ROW, text, _GAP)]
