"""redis-benchmark reports, in every form the tool prints (`src/redis-benchmark.c`).

Recognises
- the full report of a test from its `====== SET ======` title: `100000 requests
  completed in 1.23 seconds`, settings (`50 parallel clients`, `keep alive: 1`, ...),
  then cumulative lines `99.90% <= 1 milliseconds` and `81300.81 requests per second`
  (<= 6.0), or (6.2+) `Latency by percentile distribution:` / `Cumulative distribution
  of latencies:` lines `50.000% <= 0.303 milliseconds (cumulative count 51234)`,
  `throughput summary: 81300.81 requests per second` and the `latency summary (msec):`
  table `avg min p50 p95 p99 max`;
- `-q` lines `SET: 81300.81 requests per second[, p50=0.303 msec]`;
- `--csv` rows `"SET","81300.81"` (<= 6.0, two or more) and, under the header
  `"test","rps","avg_latency_ms",...`, `"SET","81300.81","0.311",...` (6.2+);
- also flattened, hard-wrapped, indented or with the CR-redrawn live line `SET: rps=...
  (overall: ...) avg_msec=...` still in the text (claimed, no rows). A `redis-benchmark
  ...` command line and `WARNING: Could not fetch server CONFIG` just above belong to
  the block.

Measurements, label = the test title (`SET`, `LRANGE_100 (first 100 elements)`):
`requests_per_sec`, `latency_<avg|min|p50|p95|p99|max>` (ms); in a report also
`requests`, `duration` (s), `percentile_latency_p<P>` (`99.902%` gives `p99_902`) and
`requests_within_<T>ms` (%, `0.103` written `0_103`). Cumulative counts restate the
percentages and settings are no results: no rows.

The CSV rows are declared rows (`CSV`, `OLD_CSV`). Not declared as rows: a full report
is a sequence of line kinds whose meaning depends on the heading before them
(percentile or cumulative distribution), and a `-q` line takes its title from the text
before it.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import NUM, line_start, trimmed, within
from extract.results.formats._rows import Rows, chatter, name_blocks, numbers, read
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="redis-benchmark",
    description="redis-benchmark reports (full, -q, --csv)",
    signature="`====== SET ======`, `100000 requests completed in 1.23 seconds`, "
    "`99.90% <= 1 milliseconds`, `throughput summary: 81300.81 requests per second`, "
    "`latency summary (msec):`, `SET: 81300.81 requests per second, p50=0.303 msec`, "
    '`"test","rps","avg_latency_ms",...`, `"SET","81300.81"`',
    priority=10,
    kind="result",
    trigger=r'(?-i:requests\s+per\s+second|requests completed in|={6} .+ ={6}|"test","rps"'
    rf'|"[A-Z][A-Z0-9_\-]*(?:\s\([^()\n]{{1,60}}\))?","{NUM}")',
    needles=("requests", "======", '"test","rps"', '","'),
)

_TITLE = re.compile(r"={6} (?P<t>[^\n=][^\n]*?) ={6}")
_COMPLETED = re.compile(rf"(?P<n>\d+)\s+requests\s+completed\s+in\s+(?P<s>{NUM})\s+seconds")
# settings and headings inside a report: part of it, no rows
_SKIP = re.compile(
    r"""\d+\ parallel\ clients|\d+\ bytes\ payload|keep\ alive:\ \d+
      |host\ configuration\ "(?:save|appendonly)":[ \t]*(?:[^\s"]+(?:[ \t]+\d+)*)?
      |multi-thread:\ (?:yes|no)|threads:\ \d+|cluster\ mode:\ yes\ \(\d+\ masters\)
      |node\ \[\d+\]\ configuration:|save:(?:[ \t]+(?:NONE|\d+(?:[ \t]+\d+)*))?|appendonly:\ \S+
      |Latency\ by\ percentile\ distribution:|Cumulative\ distribution\ of\ latencies:|Summary:""",
    re.X,
)
_HEADS = {
    "Latency by percentile distribution:": "percentile",
    "Cumulative distribution of latencies:": "cumulative",
}
_PCT = re.compile(
    rf"(?P<p>{NUM})%\s+<=\s+(?P<ms>{NUM})\s+milliseconds(?:\s+\(cumulative\s+count\s+\d+\))?"
)
# (a number from the first digit of its run only: searched in a heading, it would read a
# run of digits again from each of them)
_RPS = re.compile(rf"(?:throughput\s+summary:\s+)?(?<!\d)(?P<v>{NUM})\s+requests\s+per\s+second")
_SUMMARY_COLS = ("avg", "min", "p50", "p95", "p99", "max")
_LAT_SUMMARY = re.compile(
    r"latency\s+summary\s+\(msec\):\s+avg\s+min\s+p50\s+p95\s+p99\s+max"
    + "".join(rf"\s+(?P<{c}>{NUM})" for c in _SUMMARY_COLS)
)
# the live line, redrawn with CR while a test runs
_LIVE = re.compile(
    rf"[^\n\r:]{{1,100}}: rps=(?:{NUM}|-?nan) \(overall: (?:{NUM}|-?nan)\) "
    rf"avg_msec=(?:{NUM}|-?nan) \(overall: (?:{NUM}|-?nan)\)"
)
_GAP = re.compile(rf"(?:\s+|{_LIVE.pattern})*")  # (only ever matched at a position)
_WARNING = "WARNING: Could not fetch server CONFIG"
_COMMAND = re.compile(r"[^\n]{0,40}?\bredis-benchmark\s(?:[^\n]*\s)?-[A-Za-z\-][^\n]*")
# a `-q` line; the title is checked apart (see _title)
_QUIET = re.compile(
    rf":[ \t]+(?P<v>{NUM})\s+requests\s+per\s+second(?:,\s*p50=(?P<p50>{NUM})\s*msec)?"
)
_UPPER_TITLE = re.compile(r"[A-Z][A-Z0-9_\-]*(?:\s\([^()\n]{1,60}\))?")
_CSV_HEAD = (
    r'"test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms",'
    r'"p95_latency_ms","p99_latency_ms","max_latency_ms"'
)
_CSV_ROW = rf'"(?P<t>[^"\n]{{1,100}})","(?P<rps>{NUM})"' + "".join(
    rf',"(?P<{c}>{NUM})"' for c in _SUMMARY_COLS
)
_CSV_OLD_ROW = rf'(?<![,"])"(?P<t>[^"\n]{{1,100}})","(?P<rps>{NUM})"(?![,"])'


def _report(text: str, title: re.Match, end: int) -> ResultTable:
    label = title["t"].strip()
    table = ResultTable(
        format=INFO.name,
        span=title.span(),
        columns=["field", "value", "unit"],
        caption=label,
    )
    mode = "cumulative"  # before Redis 6.2 the lines are cumulative, with no heading
    pos = title.end()

    def add(m: re.Match, cells: list[str], ms: list[tuple[str, str, str]]) -> None:
        table.add_row(cells, numbers(ms, label))
        table.span = (table.span[0], m.end())

    while True:
        pos = _GAP.match(text, pos, end).end()
        if (s := _SKIP.match(text, pos, end)) and s.end() > pos:
            mode = _HEADS.get(re.sub(r"\s+", " ", s.group(0)), mode)
            pos = s.end()
            continue
        if m := _COMPLETED.match(text, pos, end):
            add(m, ["requests completed", m["n"], m["s"]],
                [("requests", m["n"], "count"), ("duration", m["s"], "s")])  # fmt: skip
        elif m := _PCT.match(text, pos, end):
            if mode == "percentile":
                metric = f"percentile_latency_p{trimmed(m['p'], '_')}"
                add(m, [m["p"] + "%", m["ms"], "ms"], [(metric, m["ms"], "ms")])
            else:
                metric = f"requests_within_{trimmed(m['ms'], '_')}ms"
                add(m, [m["ms"] + " ms", m["p"], "%"], [(metric, m["p"], "%")])
        elif m := _RPS.match(text, pos, end):
            add(m, ["requests per second", m["v"]],
                [("requests_per_sec", m["v"], "requests per second")])  # fmt: skip
        elif m := _LAT_SUMMARY.match(text, pos, end):
            add(m, ["latency summary (msec)", *(m[c] for c in _SUMMARY_COLS)],
                [(f"latency_{c}", m[c], "ms") for c in _SUMMARY_COLS])  # fmt: skip
        else:
            return table
        pos = m.end()


def _title(text: str, m: re.Match, floor: int) -> tuple[str, int] | None:
    """The test title before a `-q` line's `: 123 requests per second`, and where it
    starts. In a line of its own any title (a custom command) is taken when the line
    has the 6.2+ `p50=`, an upper-case one (`SET`, `LRANGE_100 (first 100 elements)`)
    always; after other text on the line (a flattened mail) only an upper-case one."""
    start = max(line_start(text, m.start()), floor)
    segment = text[start : m.start()]
    whole = segment.strip()
    if (
        whole
        and len(whole) <= 100
        and "\r" not in whole
        and (_UPPER_TITLE.fullmatch(whole) or (m["p50"] and not re.search(r":\s", whole)))
    ):
        return whole, start + segment.index(whole)
    tail = re.search(rf"(?:^|\s)({_UPPER_TITLE.pattern})$", segment)
    if tail:
        return tail.group(1), start + tail.start(1)
    return None


def _quiet_tables(text: str, taken: list[tuple[int, int]]) -> list[ResultTable]:
    tables: list[ResultTable] = []
    current: ResultTable | None = None
    floor = 0
    for m in _QUIET.finditer(text):
        if within(m.start(), taken):
            continue
        found = _title(text, m, floor)
        if not found:
            continue
        title, start = found
        if current is None or _GAP.fullmatch(text, current.span[1], start) is None:
            current = ResultTable(
                format=INFO.name,
                span=(start, m.end()),
                columns=["test", "requests per second", "p50 (ms)"],
            )
            tables.append(current)
        found = [
            ("requests_per_sec", m["v"], "requests per second"),
            ("latency_p50", m["p50"], "ms"),
        ]
        current.add_row([title, m["v"], m["p50"] or ""], numbers(found, title))
        current.span = (current.span[0], m.end())
        floor = m.end()
    return tables


def _csv_numbers(m: re.Match):
    yield "requests_per_sec", m["rps"], "requests per second"
    if "avg" in m.re.groupindex:
        yield from ((f"latency_{c}", m[c], "ms") for c in _SUMMARY_COLS)


# 6.2+: the rows under the `"test","rps",...` header
CSV = Rows(
    header=_CSV_HEAD,
    row=_CSV_ROW,
    gap=_GAP.pattern,  # (matched only: so is _GAP, see _rows.read)
    fields=_csv_numbers,
    label="t",
    cells=("t", "rps", *_SUMMARY_COLS),
    columns=("test", "rps", *(f"{c}_latency_ms" for c in _SUMMARY_COLS)),
)
# before 6.2: `"SET","81300.81"` rows with no header; two or more in a row
OLD_CSV = Rows(
    row=_CSV_OLD_ROW,
    gap=_GAP.fullmatch,
    keep=lambda rows: len(rows) >= 2 and all(_UPPER_TITLE.fullmatch(r["t"]) for r in rows),
    fields=_csv_numbers,
    label="t",
    cells=("t", "rps"),
    columns=("test", "rps"),
)


def _extend_back(text: str, start: int) -> int:
    """Take in the `redis-benchmark ...` command line and CONFIG warnings just above."""
    while True:
        line_end = text.rfind("\n", 0, start)
        if line_end < 0 or text[line_end + 1 : start].strip():
            return start
        prev_start = text.rfind("\n", 0, line_end) + 1
        line = text[prev_start:line_end].strip()
        if line and (line == _WARNING or _COMMAND.fullmatch(line)):
            start = prev_start + text[prev_start:line_end].index(line)
            continue
        return start


def _names_nothing(heading: str) -> bool:
    """Whether the line above a block is the command or a line of the tool's own."""
    return bool(_COMMAND.fullmatch(heading) or _RPS.search(heading) or _LIVE.search(heading))


def parse(text: str) -> list[ResultTable]:
    titles = list(_TITLE.finditer(text))
    tables = []
    for i, title in enumerate(titles):
        end = titles[i + 1].start() if i + 1 < len(titles) else len(text)
        table = _report(text, title, end)
        if table.measurements:
            tables.append(table)
    tables += read(CSV, text) + read(OLD_CSV, text)
    tables += _quiet_tables(text, [t.span for t in tables])
    tables.sort(key=lambda t: t.span)
    for t in tables:
        t.span = (_extend_back(text, t.span[0]), t.span[1])
    # a block right after another (past live lines) is the next test of the same run
    name_blocks(tables, text, "block", _names_nothing, _GAP.fullmatch)
    if tables and "rps=" in text:
        tables += chatter(_LIVE, text, tables, starts_in=True)
    return tables
