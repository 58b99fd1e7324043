"""sysbench final reports and `--report-interval` lines (1.0, and 0.4/0.5).

Recognises interval lines `[ 10s ] thds: 8 tps: 258.32 qps: 4133.04 (r/w/o: a/b/c) lat
(ms,95%): 4.10 err/s: 0.00 reconn/s: 0.00`; the report sections (`SQL statistics:`,
`General statistics:`, `Latency (ms):`, `Threads fairness:`, `CPU speed:`,
`Throughput:`, `File operations:`; 0.4/0.5 `OLTP test statistics:`, `Test execution
summary:`, `per-request statistics:`) with their `key: value` lines; the memory test's
`Total operations: N (R per second)` (0.x `Operations performed: N (R ops/sec)`) and
`2048.00 MiB transferred (1841.49 MiB/sec)`; also flattened, indented or hard-wrapped.
The banner and option lines (`sysbench 1.0.11 (using ...)`, `Number of threads: 1`)
are claimed without rows. A run's variant is the heading above its banner (or its first
block), or a short `name:` just before it on a flattened line; a `name:` line right
above a later block names that block; a `sysbench ... run` command line or setup line
is no heading.

Measurements:
- interval lines: label `interval <N>s`, `tps` (`tx/s`), `qps`, `reads`, `writes`,
  `other` (`q/s`), `latency_p95` (ms; the percentile as printed), `err_per_sec`,
  `reconn_per_sec` (`1/s`);
- report: label = section, metric = key in snake case (`queries_read`, `total_time`,
  `95th_percentile`, ...): counts in `count`, times in `s`, latencies in `ms`, `(30.94
  per sec.)` as `<key>_rate` (`per sec`); fileio `reads/s:` as `reads_per_sec` (`1/s`),
  `read, MiB/s:` as `read` (`MiB/s`);
- memory: label `Memory`, `total_operations`, `operations_rate` (`1/s`), `transferred`
  and `transfer_rate` (as printed: `MiB`, `MiB/sec`).

Interval and memory lines are declared rows. Not declared as rows: a report is
indented sections of `key: value` lines whose unit depends on the section and the key.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import BLANKS, NUM, heading_above
from extract.results.formats._rows import Rows, chatter, numbers, read
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="sysbench",
    description="sysbench summaries and interval lines",
    signature="`SQL statistics:` / `transactions:  620  (30.94 per sec.)` / "
    "`General statistics:` / "
    "`Latency (ms):`; interval lines `[ 10s ] thds: 8 tps: ... qps: ... lat (ms,95%): ...`",
    priority=10,
    kind="result",
    trigger=r"(?-i:thds:|sysbench|SQL statistics:|General statistics:)",
    needles=("thds:", "sysbench", "SQL statistics:", "General statistics:"),
)

_INTERVAL = rf"""\[\s*(?P<t>{NUM})s\s*\]\s+thds:\s*(?P<thds>\d+)\s+tps:\s*(?P<tps>{NUM})
    \s+qps:\s*(?P<qps>{NUM})\s+\(r/w/o:\s*(?P<r>{NUM})/(?P<w>{NUM})/(?P<o>{NUM})\)
    \s+lat\s+\(ms,(?P<pct>{NUM})%\):\s*(?P<lat>{NUM})
    (?:\s+err/s:\s*(?P<err>{NUM}))?(?:\s+reconn/s:\s*(?P<rec>{NUM}))?"""
_SECTION = re.compile(
    r"(?P<s>SQL statistics|General statistics|Latency \(ms\)|Threads fairness|CPU speed"
    r"|Throughput|File operations|Memory speed|OLTP test statistics|Test execution summary):"
)
_KV = re.compile(
    rf"""(?P<key>queries\ performed|per-request\ statistics
         |[a-z][a-z0-9 ,/]*?(?:\s\((?:avg/stddev)\))?
         |\d+(?:st|nd|rd|th)\ percentile|approx\.\s+\d+\ percentile
         |[a-z]+(?:,\s*\w+/s)?):
        (?:\s+(?P<v>{NUM})(?P<u>ms|s|[kMG]?iB(?:/sec)?)?(?:/(?P<v2>{NUM}))?
           (?:\s+\((?P<rate>{NUM})\ per\ sec\.\))?)?""",
    re.X,
)
# memory: `Total operations: 2097152 (1885685.03 per second)` and `2048.00 MiB transferred
# (1841.49 MiB/sec)`; before 1.0 `Operations performed: 2097152 (1885685.03 ops/sec)`, `MB`
# (a size is tried from the first digit of its run only: linear)
_MEMORY = (
    rf"(?P<key>Total operations|Operations performed):[ \t]*(?P<n>\d+)[ \t]*"
    rf"\([ \t]*(?P<rate>{NUM})[ \t]+(?:per second|ops/sec)\)"
    rf"|(?<!\d)(?P<mb>{NUM})[ \t]+(?P<u>[KMGT]i?B)[ \t]+transferred[ \t]+"
    rf"\((?P<mbrate>{NUM})[ \t]+(?P<ru>[KMGT]i?B/sec)\)"
)
_BANNER = re.compile(
    r"sysbench \d[\w.\-]*(?: \(using [^)\n]*\)|:[ \t]+multi-threaded system evaluation benchmark)"
)
# `$ sysbench oltp_read_write ... run` pasted above the output names no variant
_COMMAND = re.compile(r"^[^\n]{0,40}?\bsysbench\s(?:[^\n]*\s)?(?:--?[A-Za-z]|run\b|prepare\b)")
_SETUP = re.compile(
    r"sysbench \d[\w.\-]* \(using [^)\n]*\)|Running the test with following options:"
    r"|sysbench \d[\w.\-]*:[ \t]+multi-threaded system evaluation benchmark"
    r"|Number of threads: \d+|Target transaction rate: \d+/sec"
    r"|Report intermediate results every \d+ second\(s\)"
    r"|Initializing random number generator from seed \(\d+\)\.|Initializing worker threads\.\.\."
    r"|Threads started!|Time limit exceeded, exiting\.\.\.|Warmup time: \d+s?"
)

_SIGNATURES = ("sysbench", "SQL statistics:", "General statistics:")


def _snake(key: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", key.lower()).strip("_")


def _interval_numbers(m: re.Match):
    pct = m["pct"].replace(".", "_")
    for metric, key, unit in (
        ("tps", "tps", "tx/s"), ("qps", "qps", "q/s"), ("reads", "r", "q/s"),
        ("writes", "w", "q/s"), ("other", "o", "q/s"), (f"latency_p{pct}", "lat", "ms"),
        ("err_per_sec", "err", "1/s"), ("reconn_per_sec", "rec", "1/s"),
    ):  # fmt: skip
        yield metric, m[key], unit


INTERVALS = Rows(
    row=_INTERVAL,
    fields=_interval_numbers,
    label=lambda m: f"interval {m['t']}s",
    cells=lambda m, _: [f"{m['t']}s", m["thds"], m["tps"], m["qps"],
                        f"{m['r']}/{m['w']}/{m['o']}", m["lat"], m["err"] or "", m["rec"] or ""],
    columns=("time", "thds", "tps", "qps", "r/w/o", "lat (ms,{pct}%)", "err/s", "reconn/s"),
    flags=re.X,
)  # fmt: skip


def _interval_tables(text: str) -> list[ResultTable]:
    """Runs of interval lines; the latency column names the percentile of the first."""
    tables = read(INTERVALS, text)
    for t in tables:
        pct = INTERVALS.row.match(text, t.span[0])["pct"]
        t.columns = [c.replace("{pct}", pct) for c in t.columns]
    return tables


def _report_tables(text: str) -> list[ResultTable]:
    tables: list[ResultTable] = []
    current: ResultTable | None = None
    pos = 0
    while (sec := _SECTION.search(text, pos)) is not None:
        if current is None or text[current.span[1] : sec.start()].strip():
            current = ResultTable(
                format=INFO.name,
                span=(sec.start(), sec.end()),
                columns=["section", "key", "value", "unit"],
            )
            tables.append(current)
        section = "Latency" if sec["s"].startswith("Latency") else sec["s"]
        current.span = (current.span[0], sec.end())
        pos, prefix = sec.end(), ""
        while True:
            ws = BLANKS.match(text, pos).end() - pos  # (no copy of the rest)
            if _SECTION.match(text, pos + ws):
                break
            kv = _KV.match(text, pos + ws)
            if not kv or kv.end() == pos + ws:
                break
            pos = kv.end()
            current.span = (current.span[0], pos)
            key = kv["key"]
            if key == "queries performed":
                prefix = "queries_"
                continue
            if key == "per-request statistics":  # sysbench 0.4/0.5: the latency lines
                section = key
                continue
            if kv["v"] is None:
                continue
            if key not in ("read", "write", "other", "total"):
                prefix = ""
            _add(current, section, prefix + _snake(key), kv)
        pos = max(pos, sec.end())
    return [t for t in tables if t.measurements]


def _unit_after_comma(key: str) -> bool:
    """Whether `key` ends in a rate unit after a comma (`read, MiB/s`): what
    `re.search(r",\\s*\\S+/s$", key)` says, without reading the key again from each comma."""
    if not key.endswith("/s"):
        return False
    last = key.split()[-1]
    return "," in last[:-3] or (len(last) > 2 and key[: -len(last)].rstrip().endswith(","))


def _add(table: ResultTable, section: str, metric: str, kv: re.Match) -> None:
    if section == "Latency":
        unit = "ms"
    elif kv["u"]:
        unit = kv["u"]
    elif section == "CPU speed" or "per second" in kv["key"]:
        unit = "1/s"
    elif _unit_after_comma(kv["key"]):  # fileio `read, MiB/s: 12.34`
        unit = kv["key"].split(",")[-1].strip()
        metric = _snake(kv["key"].split(",")[0])
    elif kv["key"].endswith("/s"):  # fileio `reads/s: 2840.50`
        unit = "1/s"
        metric = _snake(kv["key"][:-2]) + "_per_sec"
    elif kv["key"].startswith("execution time"):
        unit = "s"
    else:
        unit = "count"
    if kv["v2"] is not None:  # `events (avg/stddev): 620.0000/0.00`
        base = metric.replace("_avg_stddev", "")
        found = [(f"{base}_avg", kv["v"], unit), (f"{base}_stddev", kv["v2"], unit)]
    else:
        found = [(metric, kv["v"], unit)]
    found.append((f"{metric}_rate", kv["rate"], "per sec"))  # (none without a rate)
    value = kv["v"] + (kv["u"] or "") + (f"/{kv['v2']}" if kv["v2"] else "")
    rate = f"({kv['rate']} per sec.)" if kv["rate"] else ""
    table.add_row([section, kv["key"], value, rate], numbers(found, section))


def _memory_numbers(m: re.Match):
    if m["n"] is not None:
        yield "total_operations", m["n"], "count"
        yield "operations_rate", m["rate"], "1/s"
    else:
        yield "transferred", m["mb"], m["u"]
        yield "transfer_rate", m["mbrate"], m["ru"]


# one table per memory line
MEMORY = Rows(
    row=_MEMORY,
    gap=lambda between: False,
    fields=_memory_numbers,
    label=lambda m: "Memory",
    cells=lambda m, _: [m.group(0)],
    columns=("key", "value", "rate"),
)


def _heading(text: str, pos: int, previous_end: int) -> str | None:
    """The name of the run at `pos`: the heading line above it, or a short `name:`
    before it on one flattened line - not a command or setup line."""
    heading = heading_above(text, pos, previous_end)
    if heading and (_COMMAND.match(heading) or _SETUP.search(heading)):
        return None
    return heading


def _own_heading(text: str, pos: int) -> bool:
    """Whether the line above `pos` is a `name:` heading of the block (line mode only)."""
    if text[text.rfind("\n", 0, pos) + 1 : pos].strip():
        return False
    lines = text[:pos].rstrip().splitlines()
    last = lines[-1].strip() if lines else ""
    return (
        last.endswith(":")
        and not _SECTION.search(last)
        and not _KV.fullmatch(last)
        and heading_above(text, pos, style="line") is not None
    )


def _set_variants(text: str, tables: list[ResultTable]) -> None:
    """A run is named by the heading above its banner (`sysbench 1.0.20 (using ...)`),
    or, with no banner pasted, above its first block."""
    banners = [m.start() for m in _BANNER.finditer(text)]
    previous_end = 0
    previous: ResultTable | None = None
    named: dict[int, str | None] = {}
    for t in sorted(tables, key=lambda t: t.span):
        before = [b for b in banners if b <= t.span[0]]
        anchor = before[-1] if before else t.span[0]
        if before and _own_heading(text, t.span[0]):  # `Memory, same build:` above a block
            anchor = t.span[0]
        if anchor not in named:
            named[anchor] = _heading(text, anchor, previous_end if anchor >= previous_end else 0)
        t.variant = named[anchor]
        if previous is not None and not text[previous.span[1] : t.span[0]].strip():
            t.variant = previous.variant  # the next block of the same output
        previous, previous_end = t, t.span[1]


def parse(text: str) -> list[ResultTable]:
    tables = _interval_tables(text)
    if any(s in text for s in _SIGNATURES):  # `Latency (ms):`, `Throughput:` alone are too generic
        tables += _report_tables(text)
        tables += read(MEMORY, text)
    _set_variants(text, tables)
    if tables:
        tables += chatter(_SETUP, text, tables)
    return tables
