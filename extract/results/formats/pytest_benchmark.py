"""pytest-benchmark result tables.

Recognises the header `Name (time in us)  Min  Max  Mean  StdDev  Median  IQR
Outliers  OPS  Rounds  Iterations` (any subset/order of those columns), usually under a
`--- benchmark: N tests ---` or `--- benchmark 'group': N tests ---` banner, and the
rows under it; cells are `1.0080 (1.0)` (value and ratio to the best row), `1,450.3254`,
Outliers `a;b`.

Measurements: label = test name, metric = column (`Min` ... `IQR` in the header's time
unit; `OPS` in `ops/s`, or the unit the header gives, e.g. `OPS (Kops/s)`; `Rounds`,
`Iterations` as `count`); the parenthesised ratio is not a value. Variant = the heading
before the banner (`baseline:`), or the saved run a `--benchmark-compare` row names
(`test_sort (0001_unversi)` -> label `test_sort`, variant `0001_unversi`; `NOW` for
the current run); caption = the banner's group. Rows are read as a stream, so a
table flattened onto one line (GitBox mail) or hard-wrapped reads the same; so does
one whose colour codes (`--color=yes`) were left as `[1m` debris, or had CRs.

Not declared as rows: its columns come from the header (their order and units vary with
options and `--benchmark-columns`), so rows are split cell by cell under it.
"""

from __future__ import annotations

import re

from extract.results.formats._grid import number
from extract.results.formats._layout import GROUPED, heading_above, repaired
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="pytest-benchmark",
    description="pytest-benchmark tables",
    signature="'Name (time in us)  Min  Max  Mean  StdDev ... OPS  Rounds  Iterations' header",
    priority=10,
    kind="result",
    trigger=r"\(time in ",
)

# ANSI colour codes (with their ESC byte, or the `[1m` debris left without it) and CRs.
_DAMAGE = re.compile(r"\x1b\[[0-9;]*m|\[\d+(?:;\d+)*m|\r")


def _clean(text: str) -> tuple[str, list[int] | None]:
    """`text` without the damage, and where each of its characters was in `text`."""
    return repaired(text, _DAMAGE)


_COLS = r"(?:Min|Max|Mean|StdDev|Median|IQR|Outliers|OPS|Rounds|Iterations)"
_HEADER = re.compile(
    rf"Name \(time in (?P<unit>[a-zµμ]+)\)(?P<cols>(?:\s+{_COLS}(?:\s*\([^()\n]*\))?)+)"
)
_BANNER = re.compile(r"benchmark(?:\s+'(?P<group>[^']*)')?:\s*\d+\s+tests?")
# (a number is digits with an optional fraction, or a bare fraction: one way to read
# each digit run, so a long run cannot make the row pattern backtrack for minutes)
_ONE = rf"(?:\d+;\d+|{GROUPED}(?:\s*\([^()\s]*\))?)"
_VALUE = re.compile(rf"(?P<out>\d+;\d+)|(?P<num>{GROUPED})(?:\s*\((?P<ratio>[^()]*)\))?")
_JUNK = re.compile(r"[\s=-]*")
_TIME_COLS = {"min", "max", "mean", "stddev", "median", "iqr"}


def _columns(cols: str) -> list[tuple[str, str | None]]:
    """Header columns after Name; `OPS (Kops/s)` keeps its unit."""
    out = []
    for m in re.finditer(r"([A-Za-z]+)(?:\s*\(([^()]+)\))?", cols):
        out.append((m.group(1), m.group(2)))
    return out


def _table(text: str, h: re.Match) -> ResultTable | None:
    unit = h.group("unit")
    cols = _columns(h.group("cols"))
    banner = None
    for b in _BANNER.finditer(text, max(0, h.start() - 400), h.start()):
        banner = b
    start = banner.start() if banner else h.start()
    line_start = text.rfind("\n", 0, start) + 1
    if set(text[line_start:start]) <= set("- \t"):
        start = line_start  # the banner's dashes belong to it
    heading = heading_above(text, start, style="table")
    table = ResultTable(
        INFO.name,
        (start, h.end()),
        columns=[f"Name (time in {unit})", *[c if u is None else f"{c} ({u})" for c, u in cols]],
        caption=(banner.group("group") if banner else None) or None,
        variant=heading,
    )
    row_re = re.compile(
        rf"(?P<name>[^\s-][^\s]*)(?:\s+\((?P<run>NOW|\d{{4}}[\w.-]*)\))?"
        rf"\s+(?P<rest>{_ONE}(?:\s+{_ONE}){{{len(cols) - 1}}})(?!\S)"
    )
    pos = h.end()
    while (m := row_re.match(text, _JUNK.match(text, pos).end())) is not None:
        name = m.group("name")
        values = list(_VALUE.finditer(m.group("rest")))
        if len(values) != len(cols):
            break
        r = len(table.rows)
        run = m.group("run")
        table.rows.append(
            [name if run is None else f"{name} ({run})", *[v.group(0) for v in values]]
        )
        for (col, col_unit), v in zip(cols, values, strict=True):
            if v.group("out"):
                continue
            key = col.lower()
            if key in _TIME_COLS:
                u = unit
            elif key == "ops":
                u = col_unit or "ops/s"
            elif key in ("rounds", "iterations"):
                u = "count"
            else:
                u = col_unit
            value = number(v.group("num"))
            if value is not None:
                table.measurements.append(Measurement(col, value, u, name, run, v.group("num"), r))
        pos = m.end()
        table.span = (start, pos)
    return table if table.rows else None


def parse(text: str) -> list[ResultTable]:
    clean, index = _clean(text)
    tables = [t for h in _HEADER.finditer(clean) if (t := _table(clean, h)) is not None]
    if index is not None:
        for t in tables:
            # a table starts after the damage before it: its colour codes are its own
            start = index[t.span[0] - 1] + 1 if t.span[0] else 0
            t.span = (start, index[t.span[1]])
    return tables
