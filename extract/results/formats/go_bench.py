"""Go `testing` benchmark output: `BenchmarkX-8  1000000  123 ns/op  45 B/op  2 allocs/op`.

Recognises result lines whose name starts with `Benchmark`, the iteration count and
`value unit` pairs (TABs or runs of spaces, also flattened or wrapped by JIRA mail);
the `goos:`/`goarch:`/`pkg:`/`cpu:` header, bare `-v` name lines and the closing `PASS`
/ `ok  pkg  3.1s` lines belong to the block without rows.

One table per block, a row per result line (`-count` repetitions stay separate rows).
Label = the name as printed (`BenchmarkSet_32-46`); `iterations` (count), then one per
pair with the unit as printed: `time/op` (ns/op), `alloc/op` (B/op), `allocs/op`,
`speed` (MB/s), custom `b.ReportMetric` units by their own name. Variant = the heading
before the block (`--- Before`, `After:`).
"""

from __future__ import annotations

import re

from extract.results.formats._layout import FLOAT, NUM
from extract.results.formats._rows import Rows, read
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="go-bench",
    description="Go 'BenchmarkX-8  N  123 ns/op' lines",
    signature="`BenchmarkName/sub-8  <iterations>  44.6 ns/op  336.59 MB/s  16 B/op  1 allocs/op`, "
    "after `goos:` / `goarch:` / `pkg:` / `cpu:` lines",
    priority=10,
    kind="result",
    heading="line",
    # (a name of up to 200 characters after `Benchmark`: a word of many `Benchmark`s
    # is then not read to its end from each of them)
    trigger=r"(?-i:Benchmark\S{0,200}[ \t]+\d+\s+[-+]?\d)",
    needles=("Benchmark",),
)

_UNIT = r"(?:[^\s/]+/[^\s/]+|%)"  # ns/op, B/op, allocs/op, MB/s, rows/s, %
# (an unsigned number is tried from the first digit of its run only: linear)
_PAIR = re.compile(rf"(?P<v>(?:[-+]|(?<!\d))(?=\d){FLOAT})\s+(?P<u>{_UNIT})")
_METRIC = {"ns/op": "time/op", "B/op": "alloc/op", "allocs/op": "allocs/op", "MB/s": "speed"}


def _pairs(m: re.Match):
    yield "iterations", m["iters"], "count"
    for p in _PAIR.finditer(m["pairs"]):
        yield _METRIC.get(p["u"], p["u"]), p["v"], p["u"]


ROWS = Rows(
    row=(
        rf"(?<!\S)(?P<name>Benchmark[^\s]*)[ \t]+(?P<iters>\d+)"
        rf"(?P<pairs>(?:\s+{FLOAT}\s+{_UNIT}(?=\s|$))+)"  # \s: JIRA mail wraps long lines
    ),
    fields=_pairs,
    label="name",
    gap=(
        # (`\s`, not `\s+`, inside the `*`: nested quantifiers backtrack exponentially on a
        # long run of blanks followed by anything else, 0.24 s for 22 blanks)
        r"(?:\s|(?:goos|goarch|pkg|cpu|note|branch):[^\n]*?(?=\s(?:goos|goarch|pkg|cpu|Benchmark)|\n)"
        r"|Benchmark[^\s]*(?=\s)|PASS|FAIL)*"
    ),
    # the config header and bare `-v` name lines; `PASS` and `ok  pkg  3.1s`
    lead=r"^[ \t]*(?:(?:goos|goarch|pkg|cpu|note|branch):.*|Benchmark\S*)[ \t]*$",
    tail=rf"\s+(?:PASS\s+)?ok[ \t]+\S+[ \t]+{NUM}s\b|\s+PASS\b",
)


def parse(text: str) -> list[ResultTable]:
    tables = read(ROWS, text)
    for t in tables:  # a column per unit the block prints
        units = list(dict.fromkeys(m.unit for m in t.measurements if m.metric != "iterations"))
        t.columns = ["name", "iterations", *units]
        written: list[dict[str, str]] = [{} for _ in t.rows]
        for m in t.measurements:
            written[m.row][m.unit] = m.written
        t.rows = [
            [r[0], w["count"], *(w.get(u, "") for u in units)]
            for r, w in zip(t.rows, written, strict=True)
        ]
    return tables
