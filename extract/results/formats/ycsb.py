"""YCSB (Yahoo! Cloud Serving Benchmark) output: one table per run, from what
`site.ycsb.Client` and its measurements print (core/src/main/java/site/ycsb/):

* the text exporter's final report, one `[<section>], <measurement>, <value>` line
  each: `[OVERALL], RunTime(ms), 10110`, `[OVERALL], Throughput(ops/sec), 98.9`,
  `[READ], Operations, 499304`, `[READ], 95thPercentileLatency(us), 4000`, `[READ],
  Return=OK, 499304`; the raw measurement type writes `Total Operations`, `Average`,
  `Min`, `Max`, `p1` ... `p99.99` (microseconds);
* the same records from the JSON exporters, `{ "metric" : "OVERALL", "measurement" :
  "RunTime(ms)", "value" : 10110 }`;
* the status lines (every 10 s): `2019-10-14 18:07:32:614 50 sec: 1000000 operations;
  17966 current ops/sec; est completion in 1 minute [READ: Count=2764, Max=8487, ...,
  99.99=8000]` (HdrHistogram), `[READ AverageLatency(us)=518.2]` (histogram, time
  series) or `READ count: 2764, average latency(us): 512.31` (raw).

Report measurements: label = the section (`OVERALL`, `READ`), metric = the measurement
without its unit (`RunTime`, `Return=OK`), unit = the one in parentheses (`ms`, `us`,
`ops/sec`), else `count` (`us` for the raw type's summary, `MB` for `[MAX_MEM_USED],
MBs`). Status lines: label `<N> sec` with `operations` and `current ops/sec`, and
`<section> <N> sec` with the report's names (`Operations`, `AverageLatency`, ...). Java
doubles (`3.489955785875464E8`) are read; lines may be flattened, carry stray spaces,
log prefixes or a `|` gutter. Not measurements: histogram buckets (`[UPDATE], 0, 464`),
time-series points, JVM GC sections (`[TOTAL_GC_TIME_%]`), the raw type's `Below is a
summary` marker, the estimated completion time.

Declared as rows of three shapes (one pattern, an alternative each); each row's metric
and unit come from its own text (`_found`), and a record that gives none is no row.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import FENCE_MARK, JAVA, NUM, NUM_END, UNSIGNED, run_matches
from extract.results.formats._rows import Rows, numbers, read
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="ycsb",
    description="YCSB [OVERALL]/[READ] result lines, JSON export and status lines",
    signature="`[OVERALL], RunTime(ms), N`, `[OVERALL], Throughput(ops/sec), N`, "
    '`[READ], AverageLatency(us), N`; `"measurement" : "RunTime(ms)"`; '
    "`50 sec: 1000 operations; 20 current ops/sec; [READ: Count=...]`",
    priority=10,
    gutter=True,
    heading="block",  # the registry names each block by the heading above it
    kind="result",
    trigger=r"(?-i:\]\s*,\s*(?:RunTime|Throughput|Operations|AverageLatency|MinLatency|MaxLatency"
    r"|LatencyVariance|\d+thPercentileLatency|Return=|Total Operations)"
    r"|\"measurement\"\s*:\s*\"|\d\s+sec:\s+\d+\s+operations;)",
    needles=(
        "RunTime",
        "Throughput",
        "Operations",
        "Latency",
        "Return=",
        '"measurement"',
        "operations;",
    ),
)

_LINE = (
    r"\[(?P<section>[A-Za-z][\w%\-]*)\]\s*,\s*(?P<metric>[A-Za-z0-9][^,\[\]\n]{0,60}?)\s*,\s*"
    rf"(?P<val>{JAVA})(?![\w.])"
)
_JSON = (
    r"\{\s*\"metric\"\s*:\s*\"(?P<jsection>[^\"\n]{1,60})\"\s*,\s*"
    r"\"measurement\"\s*:\s*\"(?P<jmetric>[^\"\n]{1,80})\"\s*,\s*"
    rf"\"value\"\s*:\s*(?P<jval>{JAVA})\s*\}}"
)
# `[<label>]2019-10-14 18:07:32:614 50 sec: 1000000 operations; 17966 current ops/sec;
# est completion in 1 minute [READ: Count=...] [UPDATE AverageLatency(us)=...]`
_SUMMARY_PARTS = (
    r"\[(?P<hsec>[A-Za-z][\w\-]*):\s+(?P<pairs>Count=[^\]\[]{0,400})\]",
    rf"\[(?P<asec>[A-Za-z][\w\-]*) AverageLatency\(us\)=(?P<aavg>{UNSIGNED}|NaN)\]",
    r"(?P<rsec>[A-Za-z][\w\-]*) count: (?P<rcount>\d+), average latency\(us\): "
    rf"(?P<ravg>{UNSIGNED}|NaN){NUM_END}",
)
_SUMMARY = "|".join(r"\s*" + part for part in _SUMMARY_PARTS)
# (searched: the blanks before a summary are taken from the first of their run, whole, and
# a name from the start of its word: neither is read again from each of its characters; so
# a name glued to the number before it, `812.4READ count:`, is not read)
_SUMMARY_RE = re.compile(
    r"(?<!\s)\s*+(?:"
    + "|".join(_SUMMARY_PARTS).replace(
        "(?P<rsec>[A-Za-z][\\w\\-]*)", "(?<![\\w\\-])(?P<rsec>[A-Za-z][\\w\\-]*+)"
    )
    + ")"
)
_STATUS = (
    r"(?<![\d.])(?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3}\s+)?(?P<sec>\d+)\s+sec:\s+(?P<ops>\d+)"
    rf"\s+operations;(?:\s+(?P<cur>{UNSIGNED}|NaN|Infinity)\s+current\s+ops/sec;)?"
    r"(?: est completion in [^\[\n]*?(?=\s*\[|\s*$|\s+\w+ count: |\n))?"
    r"(?P<summaries>(?:" + re.sub(r"\(\?P<\w+>", "(?:", _SUMMARY) + r")*)"
)
_HDR_NAMES = {
    "Count": ("Operations", "count"),
    "Max": ("MaxLatency", "us"),
    "Min": ("MinLatency", "us"),
    "Avg": ("AverageLatency", "us"),
}
# Metrics YCSB writes in a report section; one of them must occur in a block.
_KNOWN = re.compile(
    r"^(?:RunTime|Throughput|Operations|AverageLatency|MinLatency|MaxLatency|LatencyVariance"
    r"|\d+thPercentileLatency|Return=\w+|Total Operations)",
)
# The raw measurement type's summary: microseconds, without a unit in the name.
_RAW_METRIC = re.compile(rf"^(?:Average|Min|Max|p{NUM})$")
# Text allowed between two records of one run: log prefixes, a `|` gutter, JSON
# punctuation, markup.
_GAP = (
    rf"(?:\s|[|,\[\]]|{FENCE_MARK}"
    r"|\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d[,.:]\d+|\b(?:INFO|WARN|DEBUG)\b)*"
)


def _name_and_unit(metric: str) -> tuple[str, str] | None:
    r"""`AverageLatency`, `us` from `AverageLatency(us)`: the groups of
    `^(?P<name>.*?)\((?P<unit>[^)]+)\)$` matched on `metric`, found with str.find (the
    regex read the rest again from each `(`): the unit runs from the first `(` after
    the last `)` but the closing one, and the name holds no newline."""
    close = len(metric) - (2 if metric.endswith(")\n") else 1)
    if close < 2 or metric[close] != ")":
        return None
    opening = metric.find("(", metric.rfind(")", 0, close) + 1, close - 1)
    if opening < 0 or "\n" in metric[:opening]:
        return None
    return metric[:opening], metric[opening + 1 : close]


def _report_number(section: str, metric: str, written: str) -> tuple | None:
    """(metric, number as written, unit) of one report record; None for buckets, GC
    stats, markers."""
    section_up = section.upper()
    if section_up.startswith("TOTAL_GC") or re.fullmatch(r"[\d.]+", metric):
        return None
    if metric.startswith("Below is a summary"):
        return None
    if named := _name_and_unit(metric):
        return named[0].strip(), written, named[1].strip()
    if _RAW_METRIC.match(metric):
        return metric, written, "us"
    if metric == "MBs":
        return "memory", written, "MB"
    return metric, written, "count"


# `Count=12` in a status line's summary; _PAIR_AT from where a key's run starts (run_matches)
_PAIR = re.compile(rf"([\w.]+)=({UNSIGNED}|NaN){NUM_END}")
_PAIR_AT = re.compile(r"(?<![\w.])" + _PAIR.pattern)


def _status(m: re.Match) -> list[Measurement]:
    """The numbers of a status line and of the per-operation summaries in it."""
    when = f"{m.group('sec')} sec"
    ops = [("operations", m["ops"], "count"), ("current ops/sec", m["cur"], "ops/sec")]
    found = numbers(ops, when)
    for part in _SUMMARY_RE.finditer(m.group("summaries")):
        if part.group("pairs"):
            pairs = [
                p.groups() for p in run_matches(part.group("pairs"), _PAIR.match, _PAIR_AT.search)
            ]
            if dict(pairs).get("Count") == "0":  # nothing ran in the interval
                continue
            stats = []
            for key, written in pairs:
                if key in _HDR_NAMES:
                    name, unit = _HDR_NAMES[key]
                    stats.append((name, written, unit))
                elif re.fullmatch(rf"{NUM}", key):
                    stats.append((f"{key}thPercentileLatency", written, "us"))
            found += numbers(stats, f"{part.group('hsec')} {when}")
        elif part.group("asec"):
            found += numbers([("AverageLatency", part["aavg"], "us")], f"{part['asec']} {when}")
        else:
            summary = [
                ("Operations", part["rcount"], "count"),
                ("AverageLatency", part["ravg"], "us"),
            ]
            found += numbers(summary, f"{part['rsec']} {when}")
    return found


def _record(m: re.Match) -> tuple[str, str, str]:
    """A report line's or JSON record's section, metric and value as written."""
    if m["section"] is not None:
        return m["section"], m["metric"].strip(), m["val"]
    return m["jsection"], m["jmetric"].strip(), m["jval"]


def _found(m: re.Match) -> list[Measurement]:
    if m["ops"] is not None:
        return _status(m)
    section, metric, written = _record(m)
    found = _report_number(section, metric, written)
    return numbers([found] if found else [], section)


def _cells(m: re.Match, label: str) -> list[str]:
    return [label, "status", " ".join(m[0].split())] if m["ops"] is not None else [*_record(m)]


# A block is a run of records (what `_GAP` allows between them) holding a status line or a
# metric YCSB writes; a status line is a row, a record that gives no number is none.
ROWS = Rows(
    row=f"{_LINE}|{_JSON}|{_STATUS}",
    fields=_found,
    label=lambda m: f"{m['sec']} sec" if m["ops"] is not None else _record(m)[0],
    cells=_cells,
    columns=("section", "metric", "value"),
    gap=_GAP,
    keep=lambda b: any(m["ops"] is not None or _KNOWN.match(_record(m)[1]) for m in b),
    select=lambda b: [m for m in b if m["ops"] is not None or _found(m)],
)


def parse(text: str) -> list[ResultTable]:
    return [t for t in read(ROWS, text) if t.measurements]
