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

from extract.results.formats._layout import NUM, heading_above, last
from extract.results.formats._rows import Rows, numbers, read
from extract.results.formats.base import FormatInfo, ResultTable

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

_COLUMNS = ["cold_run", "hot_run_1", "hot_run_2", "best_hot"]
_TOTAL = re.compile(rf"\s*Total (?P<what>cold|hot) run time:\s*(?P<v>{NUM})\s*(?P<unit>ms|s)\b")
# `------ Round 1 -------`, on its line or inside a flattened one
_BANNER = re.compile(r"(?<![^\s])-{3,}[ \t]*(?P<h>[^\s=-][^\n-]*?)[ \t]*-{3,}(?![^\s])")
_UNITS = {"seconds": "s", "ms": "ms", "Bytes": "B", "Rows": "rows"}
# The bot's collapsed `<summary>` repeats the total printed under the rows.
_SUMMARY = re.compile(
    rf"(?:<summary>\s*)?(?P<bench>TPC-H|TPC-DS|ClickBench|SSB)\s*:\s*(?:<b>\s*)?"
    rf"Total (?P<what>hot|cold) run time:\s*(?P<v>{NUM})\s*(?P<u>ms|s)\b"
    r"(?:\s*</b>)?(?:\s*</summary>)?"
)

ROUNDS = Rows(
    row=(
        r"(?<![\w.])(?P<names>(?:(?:q|query)\d+[a-z]?[ \t]+)+)"
        rf"(?P<nums>{NUM}(?:[ \t]+{NUM}){{2,3}})(?![\w.])"
    ),
    fields=lambda m: zip(_COLUMNS, m["nums"].split(), [None] * 4, strict=False),
    label=lambda m: m["names"].split()[-1],
    cells=lambda m, label: [label, *m["nums"].split()],
    columns=("query", *_COLUMNS),
    min_rows=3,
)


def _key_value_fields(m: re.Match):
    unit = _UNITS[m["u"]]
    yield ("size" if unit == "B" else "time"), m["v"], unit
    if m["n"]:
        count_unit = _UNITS[m["nu"]]
        yield ("bytes_loaded" if count_unit == "B" else "rows_inserted"), m["n"], count_unit
        yield "throughput", m["rate"], m["ru"]


KEY_VALUES = Rows(
    header=r"(?im)^[^\n]*?performance test result:?[ \t]*$",
    row=(
        rf"[ \t]*(?P<key>[a-z][a-z ]{{2,60}}?):[ \t]+(?P<v>{NUM})[ \t]*(?P<u>seconds|ms|Bytes)"
        r"(?:[ \t]+(?:loaded|inserted)[ \t]+(?P<n>\d+)[ \t]+(?P<nu>Bytes|Rows),[ \t]*about[ \t]+"
        rf"(?P<rate>{NUM}[KMG]?)[ \t]+(?P<ru>[\w/]+))?[ \t]*(?=\n|$)"
    ),
    gap=r"\n",
    fields=_key_value_fields,
    label=lambda m: m["key"].strip(),
    cells=("key", "v", "u", "n", "nu", "rate", "ru"),
    columns=("key", "value", "unit", "count", "count unit", "rate", "rate unit"),
    caption=lambda head: head[0].strip().rstrip(":"),
)


def parse(text: str) -> list[ResultTable]:
    tables = _rounds(text) + read(KEY_VALUES, text)
    if tables:  # claimed without rows: a summary line whose total a round also gives
        totals = {(m.metric, m.value) for t in tables for m in t.measurements if m.label == "total"}
        for m in _SUMMARY.finditer(text):
            if (f"Total {m['what']} run time", float(m["v"])) in totals:
                tables.append(ResultTable(INFO.name, m.span()))
    return tables


def _rounds(text: str) -> list[ResultTable]:
    """A round's rows, then its `Total cold/hot run time` lines, which give the unit
    (else: `s` when the cells are fractional, `ms` when not)."""
    tables = read(ROUNDS, text)
    floor = 0
    for t in tables:
        totals = []
        while len(totals) < 2 and (total := _TOTAL.match(text, t.span[1])):
            totals.append(total)
            t.span = (t.span[0], total.end())
        fractional = any("." in m.written for m in t.measurements)
        unit = totals[0]["unit"] if totals else ("s" if fractional else "ms")
        for m in t.measurements:
            m.unit = unit
        found = [(f"Total {m['what']} run time", m["v"], m["unit"]) for m in totals]
        t.measurements += numbers(found, "total")
        banner = last(_BANNER, text, floor, t.span[0])
        if banner and not re.fullmatch(r"[-=\s]*", banner["h"]):
            t.variant = banner["h"].strip()
        else:
            t.variant = heading_above(text, t.span[0], floor)
        floor = t.span[1]
    return tables
