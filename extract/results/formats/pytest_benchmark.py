"""pytest-benchmark result tables.

Recognises the header `Name (time in us)  Min  Max  Mean  StdDev  Median  IQR
Outliers  OPS  Rounds  Iterations` (any subset/order), usually under a `--- benchmark:
N tests ---` or `--- benchmark 'group': N tests ---` banner, and its rows; cells are
`1.0080 (1.0)` (value and ratio to the best row), `1,450.3254`, Outliers `a;b`. Also
flattened, hard-wrapped, with `--color=yes` debris (`[1m`) or CRs.

Measurements: label = the test, metric = the column (`Min` ... `IQR` in the header's
time unit; `OPS` in `ops/s` or the header's `OPS (Kops/s)`; `Rounds`, `Iterations` as
`count`); the parenthesised ratio is none. Variant = the heading before the banner, or
the saved run a `--benchmark-compare` row names (`test_sort (0001_unversi)` -> label
`test_sort`, variant `0001_unversi`; `NOW` for the current run); caption = the
banner's group.

Its columns come from the header (their order and units vary with options and
`--benchmark-columns`): each header makes its block's rows (`for_header`).
"""

from __future__ import annotations

import re

from extract.results.formats._grid import number
from extract.results.formats._layout import COLOURS, GROUPED, repaired, spans_back
from extract.results.formats._rows import Rows, name_blocks, read
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
_DAMAGE = re.compile(rf"{COLOURS}|\r")
_COLS = r"(?:Min|Max|Mean|StdDev|Median|IQR|Outliers|OPS|Rounds|Iterations)"
_HEADER = rf"Name \(time in (?P<unit>[a-zµμ]+)\)(?P<cols>(?:\s+{_COLS}(?:\s*\([^()\n]*\))?)+)"
_BANNER = re.compile(r"benchmark(?:\s+'(?P<group>[^']*)')?:\s*\d+\s+tests?")
# (a number is digits with an optional fraction, or a bare fraction: one way to read
# each digit run, so a long run cannot make the row pattern backtrack for minutes)
_ONE = rf"(?:\d+;\d+|{GROUPED}(?:\s*\([^()\s]*\))?)"
_VALUE = re.compile(rf"(?P<out>\d+;\d+)|(?P<num>{GROUPED})(?:\s*\((?P<ratio>[^()]*)\))?")
_TIME_COLS = {"min", "max", "mean", "stddev", "median", "iqr"}
_COUNTS = {"rounds", "iterations"}


def _block(h: re.Match) -> Rows:
    """The rows under header `h`: a number per column it names, in its units."""
    # (`OPS (Kops/s)` keeps its unit)
    cols = [(c[1], c[2]) for c in re.finditer(r"([A-Za-z]+)(?:\s*\(([^()]+)\))?", h["cols"])]
    units = [
        h["unit"] if c.lower() in _TIME_COLS
        else (u or "ops/s") if c.lower() == "ops"
        else "count" if c.lower() in _COUNTS
        else u
        for c, u in cols
    ]  # fmt: skip

    def found(m: re.Match):
        values = _VALUE.finditer(m["rest"])
        for (col, _), unit, v in zip(cols, units, values, strict=True):
            if v["num"] and (value := number(v["num"])) is not None:
                yield Measurement(col, value, unit, m["name"], m["run"], v["num"])

    # (a name starts after what `_JUNK` passes over, as where a row is matched: so a
    # run of non-blanks is not read again from each of its characters)
    return Rows(
        row=(
            rf"(?<![^\s=-])(?P<name>[^\s-][^\s]*)(?:\s+\((?P<run>NOW|\d{{4}}[\w.-]*)\))?"
            rf"\s+(?P<rest>{_ONE}(?:\s+{_ONE}){{{len(cols) - 1}}})(?!\S)"
        ),
        fields=found,
        label="name",
        gap=_JUNK,
        columns=[
            f"Name (time in {h['unit']})",
            *[c if u is None else f"{c} ({u})" for c, u in cols],
        ],
        cells=lambda m, _: [
            m["name"] if m["run"] is None else f"{m['name']} ({m['run']})",
            *[v[0] for v in _VALUE.finditer(m["rest"])],
        ],
    )


_JUNK = r"[\s=-]*"
ROWS = Rows(row=None, fields=(), header=_HEADER, for_header=_block)


def _under_banner(text: str, table: ResultTable) -> None:
    """The table starts at its banner (`--- benchmark 'group': 3 tests ---`), whose group
    is its caption."""
    start = table.span[0]
    banners = list(_BANNER.finditer(text, max(0, start - 400), start))
    if not banners:
        return
    banner = banners[-1]
    start = banner.start()
    line_start = text.rfind("\n", 0, start) + 1
    if set(text[line_start:start]) <= set("- \t"):
        start = line_start  # the banner's dashes belong to it
    table.span = (start, table.span[1])
    table.caption = banner["group"] or None


def parse(text: str) -> list[ResultTable]:
    clean, index = repaired(text, _DAMAGE)
    tables = read(ROWS, clean)
    for t in tables:
        _under_banner(clean, t)
    name_blocks(tables, clean, "table")
    spans_back(tables, index)
    return tables
