"""HBase PerformanceEvaluation (`hbase pe`) results: returns one table per run.

Recognises the end-of-run summary records (also when a notification mail flattened
the log onto one line):
* `[RandomReadTest] Summary of timings (ms): [141302, 141522, ...]` → metric `timing`,
  one measurement per client (label `RandomReadTest client N`), unit `ms`;
* `[RandomReadTest duration ] Min: 137735ms Max: 141792ms Avg: 140524ms` → metrics
  `duration_min` / `duration_max` / `duration_avg`, unit `ms`;
* `[ Avg latency (us)] 1403` → `avg_latency`, unit `us`;
* `[ Avg TPS/QPS] 7117 row per second` → `avg_tps`, unit `rows/s`;
* `Finished class ...PerformanceEvaluation$RandomReadTest in 140524ms at offset 0 for
  100000 rows (12.3 MB/s)` and `Finished TestClient-0 in 141302ms over 100000 rows`
  (older releases, MapReduce mode) → metrics `time` (ms), `throughput` (MB/s); the row
  count is a setting;
* per-client `Latency (us) : mean=430.78, min=2.00, ..., 99.9th=418.41` → `latency_mean`,
  `latency_min`, `latency_p99.9`, ... unit `us`, label = the client thread
  (`TestClient-0`); `Num measures (latency) : 30318` → `num_measures`, unit `count`.

Label = the test name (`RandomReadTest`) or client thread; variant = the heading
before the run (`Before patch`, `After patch`), one table per run. The pretty histogram
report (`Mean      = 1211.43` ... `99.999th  = 90112.00`, one per line) repeats the
`Latency (us)` line and the value-size report is no performance figure: both are part
of the run, not measurements. Records may be wrapped by a mail gateway (spaces are any
whitespace) or carry a `| ` gutter.

Source: PerformanceEvaluation.java (hbase-diagnostics; hbase-server tests in older
releases): runOneClient, testTakedown, doLocalClients; YammerHistogramUtils.

Not declared as rows: its records are log lines whose fields vary by test (histogram
`key=value` lists, latency, TPS and duration lines), named by a test name found lines
above and grouped by the thread that logged them.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import NUM, run_matches
from extract.results.formats._rows import numbers
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="hbase-pe",
    description="HBase PerformanceEvaluation summaries",
    signature="`hbase.PerformanceEvaluation: [RandomReadTest] Summary of timings (ms): [...]`, "
    "`[<Test> duration ] Min: Xms Max: Yms Avg: Zms`, `[ Avg latency (us)] N`, "
    "`[ Avg TPS/QPS] N row per second`, `Latency (us) : mean=..., 99th=...`",
    priority=10,
    gutter=True,
    heading="block",  # the registry names each run by the heading above it
    kind="result",
    trigger=r"(?-i:Summary\s+of\s+timings|duration\s*\]|Avg\s+latency\s+\(|Avg\s+TPS/QPS"
    r"|Latency\s+\(|Num\s+measures|Test\s+in\s+\d|TestClient-\d+\s+in\s+\d)",
    needles=("Summary", "duration", "Avg", "Latency", "measures", "Test"),
)

# Spaces are `\s+`: a mail gateway may wrap a record anywhere.
_RECORDS = re.compile(
    r"\[(?P<tt>\w+)\]\s*Summary\s+of\s+timings\s+\((?P<tu>ms|us)\)\s*:\s*"
    rf"\[(?P<timings>\s*{NUM}(?:\s*,\s*{NUM})*\s*)\]"
    rf"|\[(?P<dt>\w+)\s+duration\s*\]\s*Min:\s*(?P<dmin>{NUM})ms\s+Max:\s*(?P<dmax>{NUM})ms"
    rf"\s+Avg:\s*(?P<davg>{NUM})ms"
    rf"|\[\s*Avg\s+latency\s+\((?P<lu>us|ms)\)\s*\]\s*(?P<lat>{NUM})"
    rf"|\[\s*Avg\s+TPS/QPS\s*\]\s*(?P<tps>{NUM})\s+row\s+per\s+second"
    rf"|Latency\s+\((?P<hu>us|ms)\)\s*:\s*(?P<hist>(?:[\w.]+={NUM}(?:,\s*|(?=\s)|$))+)"
    rf"|Num\s+measures\s+\(latency\)\s*:\s*(?P<num>\d+)"
    # per-client lines of older releases and of the MapReduce mode
    r"|Finished\s+(?:class\s+)?(?:[\w.]*\$)?(?P<ft>\w+Test|TestClient-\d+)\s+in\s+(?P<fms>\d+)ms"
    rf"(?:\s+at\s+offset\s+\d+)?(?:\s+(?:for|over)\s+\d+\s+rows)?(?:\s+\((?P<fmbs>{NUM})\s+MB/s\))?"
)
# The log record prefix before a PE message:
# `2020-06-07 22:54:30,362 INFO [main] hbase.PerformanceEvaluation: `.
# (a level and a class name are read from their first letter, a thread up to a `[`:
# none is read again from each of its characters; here and in _FILLER)
_STAMP = r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d[,.]\d+"
_PREFIX = re.compile(
    rf"(?:{_STAMP}\s+)?(?:(?<![A-Z])[A-Z]+\s+)?"
    r"(?:\[(?P<thread>[^\][]*)\]\s+)?(?:(?<![\w.$])[\w.$]*PerformanceEvaluation:\s*)$"
)
_TEST_NAME = re.compile(r"Test\s*:\s*(\w+)")
# Text between two records of the same run: log prefixes, fences, PE chatter.
_FILLER = re.compile(
    rf"{_STAMP}|\b(?:INFO|WARN|DEBUG|ERROR)\b|\[[^\][\n]*\]"
    r"|(?<![\w.$])[\w.$]*PerformanceEvaluation:|```+|\{code(?::[^}]*)?\}|\{noformat\}"
    # the pretty histogram report (`Mean      = 1211.43`, ..., `99.999th  = 90112.00`) repeats
    # the `Latency (us) :` line; the value-size report is not a performance figure
    rf"|(?:Mean|Min|Max|StdDev|(?<![\d.]){NUM}th)\s*=\s*{NUM}"
    r"|(?:ValueSize \(bytes\)|Num measures \(ValueSize\))\s*:[^\n]*"
    r"|No valueSize statistics available|Test\s*:\s*\w+,?\s*Thread\s*:\s*[\w-]+"
    r"|\s+"
)


def _start_of_record(text: str, m: re.Match) -> tuple[int, str | None]:
    """Start of the log record holding match `m`, and its thread name."""
    window_start = max(0, m.start() - 160)
    prefix = _PREFIX.search(text, window_start, m.start())
    if prefix and prefix.end() == m.start():
        return prefix.start(), prefix.group("thread")
    return m.start(), None


# `mean=1211.43` in a histogram; _HIST_PAIR_AT from where a key's run starts (run_matches)
_HIST_PAIR = re.compile(rf"([\w.]+)=({NUM})")
_HIST_PAIR_AT = re.compile(r"(?<![\w.])" + _HIST_PAIR.pattern)


def _hist_measurements(m: re.Match, label: str | None) -> list[Measurement]:
    found = []
    for key, written in (
        p.groups() for p in run_matches(m.group("hist"), _HIST_PAIR.match, _HIST_PAIR_AT.search)
    ):
        name = "stddev" if key == "stdDev" else "p" + key[:-2] if key.endswith("th") else key
        found.append((f"latency_{name}", written, m.group("hu")))
    return numbers(found, label)


def parse(text: str) -> list[ResultTable]:
    tables: list[ResultTable] = []
    table: ResultTable | None = None
    test_name: str | None = None
    for m in _RECORDS.finditer(text):
        start, thread = _start_of_record(text, m)
        gap = text[table.span[1] : start] if table else ""
        if table is None or _FILLER.sub("", gap):
            table = ResultTable(INFO.name, (start, m.end()), columns=["name", "metric", "value"])
            tables.append(table)
        table.span = (table.span[0], m.end())
        named = _TEST_NAME.findall(text, max(0, start - 200), start)
        test_name = m.group("tt") or m.group("dt") or (named[-1] if named else test_name)
        if m["timings"]:
            cells = [test_name or "", "Summary of timings", m["timings"].strip()]
            found = []
            for i, written in enumerate(re.findall(NUM, m["timings"])):
                found += numbers([("timing", written, m["tu"])], f"{test_name} client {i}")
            for meas in found:
                # (its clients ran side by side: client 3 of one run is no
                # counterpart of client 3 of another; the summaries compare)
                meas.role = "sample"
        elif m["dt"]:
            durations = f"Min {m['dmin']} Max {m['dmax']} Avg {m['davg']}"
            cells = [test_name or "", "duration", durations]
            stats = (("dmin", "duration_min"), ("dmax", "duration_max"), ("davg", "duration_avg"))
            found = numbers([(metric, m[g], "ms") for g, metric in stats], test_name)
        elif m["lat"]:
            cells, found = _one_value(m, "lat", "avg_latency", m["lu"], test_name, "Avg latency")
        elif m["tps"]:
            cells, found = _one_value(m, "tps", "avg_tps", "rows/s", test_name, "Avg TPS/QPS")
        elif m["hist"]:
            label = thread or test_name
            cells, found = [label or "", "Latency", m["hist"].strip()], _hist_measurements(m, label)
        elif m["num"]:
            label = thread or test_name
            cells, found = _one_value(m, "num", "num_measures", "count", label, "Num measures")
        else:  # `Finished ... in 1234ms`
            label = m["ft"]
            cells = [label, "Finished", f"{m['fms']} ms"]
            found = numbers([("time", m["fms"], "ms"), ("throughput", m["fmbs"], "MB/s")], label)
        table.add_row(cells, found)
    return tables


def _one_value(m, group, metric, unit, label, row_name):
    """A summary line that carries one number: its row's cells and measurement."""
    written = m.group(group)
    return [label or "", row_name, written], numbers([(metric, written, unit)], label)
