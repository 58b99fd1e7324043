"""Apache Doris performance-bot comments (TPC-H / TPC-DS / ClickBench): returns one
table per round of query timings and one per key/value result block.

Recognises
* per-query rows `q1<TAB>17577<TAB>3027<TAB>3026<TAB>3026` (cold run, hot run 1,
  hot run 2, best hot; TABs may have become spaces, rows may be flattened onto one
  line; a row such as `q15<TAB>q16<TAB>451...` where a query printed no numbers is
  read as the last name's row), at least three in a row, with the
  `Total cold run time: 93462 ms` / `Total hot run time: 16806 ms` lines after them;
* the ClickBench key/value form: `the sum of best hot time: 45.17 seconds`,
  `stream load tsv: 543 seconds loaded 74807831229 Bytes, about 131 MB/s`,
  `insert into select: 29.2 seconds inserted 10000000 Rows, about 342K ops/s`,
  `storage size: 17161915775 Bytes` under a `... performance test result:` line.

Measurements: rows → label `q1`, metrics `cold_run`, `hot_run_1`, `hot_run_2`,
`best_hot`, unit from the Total lines (`ms`; `s` when none and the cells are
fractional); totals → label `total`, metric `Total cold run time`; key/value lines →
label = the key (`stream load tsv`), metrics `time` (s), `bytes_loaded` (B),
`rows_inserted` (rows), `throughput` (as written: `MB/s`, `ops/s`; `342K` → 342000),
`size` (B). Variant = the round banner (`Round 1`, also inside a flattened line) or
heading before the block. The bot's `<summary>TPC-H: <b>Total hot run time: N ms</b>`
line is claimed without rows when a round gives that same total.
"""

from __future__ import annotations

import re

from extract.results.formats._context import measure
from extract.results.formats._layout import heading_above, runs
from extract.results.formats.base import FormatInfo, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="doris-bench",
    description="Doris TPC-H/ClickBench bot comments",
    signature="`q1<TAB>cold<TAB>hot1<TAB>hot2<TAB>best` rows with `Total cold run time: N ms` / "
    "`Total hot run time: N ms`; `stream load tsv: N seconds loaded N Bytes, about N MB/s`",
    priority=10,
    kind="result",
    trigger=r"(?-i:[qfF])(?:(?<=q)(?-i:(?:uery)?\d+[a-z]?[ \t]+\d)"
    r"|(?<=perf)ormance test result)",
    trigger_parts=(
        (r"(?-i:q(?:uery)?\d+[a-z]?[ \t]+\d)", ("q",), ()),  # starts with a literal
        (r"(?-i:[fF])(?<=perf)ormance test result", (), ("performance te",)),
    ),
)

_N = r"\d+(?:\.\d+)?"
_ROW = re.compile(
    r"(?<![\w.])(?P<names>(?:(?:q|query)\d+[a-z]?[ \t]+)+)"
    rf"(?P<nums>{_N}(?:[ \t]+{_N}){{2,3}})(?![\w.])"
)
_TOTAL = re.compile(rf"Total (?P<what>cold|hot) run time:\s*(?P<v>{_N})\s*(?P<unit>ms|s)\b")
# `------ Round 1 -------`, on its line or inside a flattened one
_BANNER = re.compile(r"(?<![^\s])-{3,}[ \t]*(?P<h>[^\s=-][^\n-]*?)[ \t]*-{3,}(?![^\s])")
_COLUMNS = ["cold_run", "hot_run_1", "hot_run_2", "best_hot"]

_KV_HEAD = re.compile(r"(?i)performance test result:?[ \t]*$", re.M)
_KV = re.compile(
    r"[ \t]*(?P<key>[a-z][a-z ]{2,60}?):[ \t]+(?P<v>\d+(?:\.\d+)?)[ \t]*(?P<u>seconds|ms|Bytes)"
    r"(?:[ \t]+(?:loaded|inserted)[ \t]+(?P<n>\d+)[ \t]+(?P<nu>Bytes|Rows),[ \t]*about[ \t]+"
    r"(?P<rate>\d+(?:\.\d+)?[KMG]?)[ \t]+(?P<ru>[\w/]+))?[ \t]*(?=\n|$)"
)
_UNITS = {"seconds": "s", "ms": "ms", "Bytes": "B", "Rows": "rows"}


def parse(text: str) -> list[ResultTable]:
    tables: list[ResultTable] = []
    for reader in (_rounds, _key_values):
        tables.extend(reader(text))
    if tables:
        tables.extend(_summaries(text, tables))
    return tables


# The bot's collapsed `<summary>` repeats the total printed under the rows.
_SUMMARY = re.compile(
    r"(?:<summary>\s*)?(?P<bench>TPC-H|TPC-DS|ClickBench|SSB)\s*:\s*(?:<b>\s*)?"
    r"Total (?P<what>hot|cold) run time:\s*(?P<v>\d+(?:\.\d+)?)\s*(?P<u>ms|s)\b"
    r"(?:\s*</b>)?(?:\s*</summary>)?"
)


def _summaries(text: str, tables: list[ResultTable]) -> list[ResultTable]:
    """Claimed without rows: a summary line whose total a round table also gives."""
    totals = {(m.metric, m.value) for t in tables for m in t.measurements if m.label == "total"}
    out = []
    for m in _SUMMARY.finditer(text):
        if (f"Total {m['what']} run time", float(m["v"])) in totals:
            out.append(ResultTable(format=INFO.name, span=m.span()))
    return out


def _heading(text: str, start: int, floor: int) -> str | None:
    banners = list(_BANNER.finditer(text, floor, start))
    if banners and not re.fullmatch(r"[-=\s]*", banners[-1].group("h")):
        return banners[-1].group("h").strip()
    return heading_above(text, start, floor)


def _rounds(text: str) -> list[ResultTable]:
    tables = []
    floor = 0
    for block in runs(_ROW, text):
        if len(block) < 3:
            continue
        end = block[-1].end()
        totals = []
        for _ in range(2):
            total = _TOTAL.match(text, end + len(text[end:]) - len(text[end:].lstrip()))
            if not total:
                break
            totals.append(total)
            end = total.end()
        nums = [n for m in block for n in m.group("nums").split()]
        unit = totals[0].group("unit") if totals else ("s" if any("." in n for n in nums) else "ms")
        table = ResultTable(
            format=INFO.name,
            span=(block[0].start(), end),
            columns=["query"] + _COLUMNS,
            variant=_heading(text, block[0].start(), floor),
        )
        for i, m in enumerate(block):
            label = m.group("names").split()[-1]
            cells = m.group("nums").split()
            table.rows.append([label] + cells)
            columns = _COLUMNS if len(cells) == 4 else _COLUMNS[:3]
            for metric, written in zip(columns, cells, strict=False):
                meas = measure(metric, written, parse_number(written), unit, label=label, row=i)
                if meas:
                    table.measurements.append(meas)
        for total in totals:
            metric = f"Total {total.group('what')} run time"
            meas = measure(
                metric,
                total.group("v"),
                parse_number(total.group("v")),
                total.group("unit"),
                label="total",
            )
            if meas:
                table.measurements.append(meas)
        floor = end
        tables.append(table)
    return tables


def _key_values(text: str) -> list[ResultTable]:
    tables = []
    for head in _KV_HEAD.finditer(text):
        head_start = text.rfind("\n", 0, head.start()) + 1
        table = ResultTable(
            format=INFO.name,
            span=(head_start, head.end()),
            columns=["key", "value", "unit", "count", "count unit", "rate", "rate unit"],
            caption=text[head_start : head.end()].strip().rstrip(":"),
        )
        pos = head.end()
        while True:
            line = _KV.match(text, pos + 1) if text[pos : pos + 1] == "\n" else None
            if not line:
                break
            pos = line.end()
            table.span = (head_start, pos)
            key = line.group("key").strip()
            index = len(table.rows)
            table.rows.append(
                [line.group(g) or "" for g in ("key", "v", "u", "n", "nu", "rate", "ru")]
            )
            found = []
            unit = _UNITS[line.group("u")]
            metric = "size" if unit == "B" else "time"
            found.append(
                measure(
                    metric,
                    line.group("v"),
                    parse_number(line.group("v")),
                    unit,
                    label=key,
                    row=index,
                )
            )
            if line.group("n"):
                count_unit = _UNITS[line.group("nu")]
                count_metric = "bytes_loaded" if count_unit == "B" else "rows_inserted"
                found.append(
                    measure(
                        count_metric,
                        line.group("n"),
                        parse_number(line.group("n")),
                        count_unit,
                        label=key,
                        row=index,
                    )
                )
                found.append(
                    measure(
                        "throughput",
                        line.group("rate"),
                        parse_number(line.group("rate")),
                        line.group("ru"),
                        label=key,
                        row=index,
                    )
                )
            table.measurements.extend(x for x in found if x)
        if table.rows:
            tables.append(table)
    return tables
