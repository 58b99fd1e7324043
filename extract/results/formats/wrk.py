"""wrk HTTP benchmark reports.

Recognises a report from `Running 30s test @ <url>` (or from `Thread Stats  Avg  Stdev
Max  +/- Stdev` when the first line was not pasted) to its `Requests/sec:` and
`Transfer/sec:` lines, with the `Latency` / `Req/Sec` thread-stats rows, the optional
`Latency Distribution` percentiles (`--latency`), `N requests in 30.00s, 17.76GB read`,
`Socket errors:` and `Non-2xx or 3xx responses:` lines - also when flattened.

Returns one ResultTable per report. Measurements, label = the URL of the report:
`latency_avg`, `latency_stdev`, `latency_max` (unit as printed: us/ms/s),
`latency_within_stdev` (`%` of samples within one stdev - not an error bar),
`req_per_sec_per_thread_avg|stdev|max` (unit `req/s`, `k` suffix applied) and
`req_per_sec_per_thread_within_stdev` (%), `latency_p50`... (unit as printed),
`requests` (count), `duration` (unit as printed: `s`, `m` = minutes), `read` (bytes
unit as printed: MB/GB), `requests_per_sec` (`req/s`), `transfer_per_sec` (`MB/s`,
`KB/s`, `GB/s`), `socket_errors_<connect|read|write|timeout>` and `non_2xx_3xx_responses`
(count). Thread and connection counts are configuration and give no rows.

Not declared as rows: a report is a set of differently shaped lines (thread stats,
latency distribution, totals, socket errors) between `Running ... test @` lines.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import NUM, heading_above
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="wrk",
    description="wrk reports",
    signature="`Running 30s test @ url`, `Thread Stats   Avg   Stdev   Max   +/- Stdev`, "
    "`Latency   635.91us ...`, `Req/Sec ...`, `Requests/sec: 748868.53`, `Transfer/sec: 606.33MB`",
    priority=10,
    kind="result",
    trigger=r"(?-i:Running \S+ test @|Thread Stats\s+Avg)",
    needles=("Running ", "Thread Stats"),
)

_VU = rf"(?P<{{p}}>{NUM})(?P<{{p}}u>[a-zA-Zµ]*)"
_RUNNING = re.compile(r"Running (?P<dur>\S+) test @ (?P<url>\S+)")
# (counts from the first digit of a run only; a report starts at a letter)
_THREADS = re.compile(r"(?<!\d)\d+ threads? and \d+ connections?")
_HEAD = re.compile(r"Thread Stats\s+Avg\s+Stdev\s+Max\s+\+/-\s+Stdev")
_STAT_ROW = re.compile(
    rf"(?P<row>Latency|Req/Sec)\s+{_VU.format(p='avg')}\s+{_VU.format(p='stdev')}\s*"
    rf"{_VU.format(p='max')}\s+(?P<within>{NUM})%"
)
_DIST_HEAD = re.compile(r"Latency Distribution")
_DIST = re.compile(rf"(?<!\S)(?P<p>\d{{2,3}}(?:\.\d+)?)%\s+{_VU.format(p='v')}(?=\s|$)")
_TOTALS = re.compile(
    rf"(?<!\d)(?P<n>\d+) requests in {_VU.format(p='dur')},\s*{_VU.format(p='read')} read"
)
_SOCKET = re.compile(
    r"Socket errors:\s*connect (?P<connect>\d+),\s*read (?P<read>\d+),\s*write (?P<write>\d+),"
    r"\s*timeout (?P<timeout>\d+)"
)
_NON2XX = re.compile(r"Non-2xx or 3xx responses:\s*(?P<n>\d+)")
_RPS = re.compile(rf"Requests/sec:\s*(?P<v>{NUM})")
_TPS = re.compile(rf"Transfer/sec:\s*{_VU.format(p='v')}")
_SCALE = {"": 1.0, "k": 1e3, "M": 1e6}


def _report(text: str, start: int, end: int, url: str | None, floor: int = 0) -> ResultTable | None:
    items: list[tuple[int, int, list[Measurement], list[str]]] = []

    def add(m: re.Match, metric: str, value: str, unit: str, scale: float = 1.0) -> None:
        meas = Measurement(metric, float(value) * scale, unit, url, None, value)
        items.append((m.start(), m.end(), [meas], [metric, value, unit]))

    for m in _STAT_ROW.finditer(text, start, end):
        row = "latency" if m["row"] == "Latency" else "req_per_sec_per_thread"
        ms = []
        for col in ("avg", "stdev", "max"):
            if row == "latency":
                unit, scale = m[col + "u"], 1.0
            else:
                unit, scale = "req/s", _SCALE.get(m[col + "u"], 1.0)
            ms.append(
                Measurement(
                    f"{row}_{col}", float(m[col]) * scale, unit, url, None, m[col] + m[col + "u"]
                )
            )
        ms.append(
            Measurement(f"{row}_within_stdev", float(m["within"]), "%", url, None, m["within"])
        )
        cells = (
            [m["row"]] + [m[c] + m[c + "u"] for c in ("avg", "stdev", "max")] + [m["within"] + "%"]
        )
        items.append((m.start(), m.end(), ms, cells))
    head = _DIST_HEAD.search(text, start, end)
    if head:
        pos = head.end()
        while (
            d := _DIST.match(text, pos + len(re.match(r"\s*", text[pos:]).group(0)))
        ) and d.end() <= end:
            add(d, f"latency_p{d['p'].replace('.', '_')}", d["v"], d["vu"])
            pos = d.end()
    for m in _TOTALS.finditer(text, start, end):
        meas = [
            Measurement("requests", float(m["n"]), "count", url, None, m["n"], role="count"),
            # the run's length (`-d30s`) and the bytes read in all of it: not results
            Measurement("duration", float(m["dur"]), m["duru"], url, None, m["dur"], role="total"),
            Measurement("read", float(m["read"]), m["readu"], url, None, m["read"], role="total"),
        ]
        items.append(
            (
                m.start(),
                m.end(),
                meas,
                ["requests", m["n"], m["dur"] + m["duru"], m["read"] + m["readu"]],
            )
        )
    for m in _SOCKET.finditer(text, start, end):
        ms = [
            Measurement(f"socket_errors_{k}", float(m[k]), "count", url, None, m[k])
            for k in ("connect", "read", "write", "timeout")
        ]
        items.append(
            (
                m.start(),
                m.end(),
                ms,
                ["socket errors"] + [m[k] for k in ("connect", "read", "write", "timeout")],
            )
        )
    for m in _NON2XX.finditer(text, start, end):
        add(m, "non_2xx_3xx_responses", m["n"], "count")
    for m in _RPS.finditer(text, start, end):
        add(m, "requests_per_sec", m["v"], "req/s")
    for m in _TPS.finditer(text, start, end):
        add(m, "transfer_per_sec", m["v"], f"{m['vu']}/s")
    if not any(ms[0].metric in ("requests_per_sec", "latency_avg") for _, _, ms, _ in items):
        return None
    items.sort(key=lambda t: t[0])
    first = min(
        [items[0][0]]
        + [m.start() for r in (_RUNNING, _THREADS, _HEAD) if (m := r.search(text, start, end))]
    )
    table = ResultTable(
        format=INFO.name,
        span=(first, items[-1][1]),
        columns=["field", "value", "unit"],
        caption=url,
        variant=heading_above(text, first, floor),
    )
    for _, _, ms, cells in items:
        table.add_row(cells, ms)
    return table


def parse(text: str) -> list[ResultTable]:
    runs = list(_RUNNING.finditer(text))
    starts = [(m.start(), m["url"]) for m in runs]
    if not starts:
        head = _HEAD.search(text)
        if not head:
            return []
        starts = [(head.start(), None)]
    tables = []
    for i, (s, url) in enumerate(starts):
        e = starts[i + 1][0] if i + 1 < len(starts) else len(text)
        t = _report(text, s, e, url, tables[-1].span[1] if tables else 0)
        if t:
            tables.append(t)
    return tables
