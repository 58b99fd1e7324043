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

A report is its lines of five declared kinds (`_rows.report`), read between one
`Running ... test @` line and the next.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import NUM
from extract.results.formats._rows import Rows, cells, measurements, one_of, report
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="wrk",
    description="wrk reports",
    signature="`Running 30s test @ url`, `Thread Stats   Avg   Stdev   Max   +/- Stdev`, "
    "`Latency   635.91us ...`, `Req/Sec ...`, `Requests/sec: 748868.53`, `Transfer/sec: 606.33MB`",
    priority=10,
    kind="result",
    heading="block",
    trigger=r"(?-i:Running \S+ test @|Thread Stats\s+Avg)",
    needles=("Running ", "Thread Stats"),
)

_VU = rf"(?P<{{p}}>{NUM})(?P<{{p}}u>[a-zA-Zµ]*)"  # a number and its unit: `635.91us`, `1.2k`
_SCALE = {"": 1.0, "k": 1e3, "M": 1e6}


def _stats(m: re.Match):
    """A thread-stats row: latencies in their unit, request rates with `k` applied."""
    row = "latency" if m["row"] == "Latency" else "req_per_sec_per_thread"
    for col in ("avg", "stdev", "max"):
        written, suffix = m[col], m[col + "u"]
        unit, scale = (suffix, 1.0) if row == "latency" else ("req/s", _SCALE.get(suffix, 1.0))
        yield f"{row}_{col}", written + suffix, unit, float(written) * scale
    yield f"{row}_within_stdev", m["within"], "%"


def _totals(m: re.Match):
    yield Measurement("requests", float(m["n"]), "count", None, None, m["n"], role="count")
    # the run's length (`-d30s`) and the bytes read in all of it: not results
    yield Measurement("duration", float(m["dur"]), m["duru"], None, None, m["dur"], role="total")
    yield Measurement("read", float(m["read"]), m["readu"], None, None, m["read"], role="total")


_SOCKET = ("connect", "read", "write", "timeout")
_KEYS = {
    "Non-2xx or 3xx responses": "non_2xx_3xx_responses",
    "Requests/sec": "requests_per_sec",
    "Transfer/sec": "transfer_per_sec",
}


def _keyed(m: re.Match) -> tuple[str, str, str]:
    unit = {"Requests/sec": "req/s", "Transfer/sec": f"{m['vu']}/s"}.get(m["key"], "count")
    return _KEYS[m["key"]], m["v"], unit


READERS = (
    Rows(
        row=(
            rf"(?P<row>Latency|Req/Sec)\s+{_VU.format(p='avg')}\s+{_VU.format(p='stdev')}\s*"
            rf"{_VU.format(p='max')}\s+(?P<within>{NUM})%"
        ),
        fields=_stats,
        cells=lambda m, _: [
            m["row"],
            *(m[c] + m[c + "u"] for c in ("avg", "stdev", "max")),
            m["within"] + "%",
        ],  # fmt: skip
    ),
    Rows(
        header=r"Latency Distribution",
        row=rf"(?<!\S)(?P<p>\d{{2,3}}(?:\.\d+)?)%\s+{_VU.format(p='v')}(?=\s|$)",
        fields=lambda m: [(f"latency_p{m['p'].replace('.', '_')}", m["v"], m["vu"])],
        cells=lambda m, _: [f"latency_p{m['p'].replace('.', '_')}", m["v"], m["vu"]],
    ),
    Rows(
        row=rf"(?<!\d)(?P<n>\d+) requests in {_VU.format(p='dur')},\s*{_VU.format(p='read')} read",
        fields=_totals,
        cells=lambda m, _: ["requests", m["n"], m["dur"] + m["duru"], m["read"] + m["readu"]],
    ),
    Rows(
        row=(
            r"Socket errors:\s*connect (?P<connect>\d+),\s*read (?P<read>\d+),"
            r"\s*write (?P<write>\d+),\s*timeout (?P<timeout>\d+)"
        ),
        fields=lambda m: [(f"socket_errors_{k}", m[k], "count") for k in _SOCKET],
        cells=lambda m, _: ["socket errors", *(m[k] for k in _SOCKET)],
    ),
    Rows(
        row=rf"(?P<key>{one_of(_KEYS)}):\s*{_VU.format(p='v')}",
        fields=lambda m: [_keyed(m)],
        cells=lambda m, _: list(_keyed(m)),
    ),
)
# Where a report starts: `Running 30s test @ <url>`, else its thread counts or stats header.
_RUNNING = re.compile(r"Running (?P<dur>\S+) test @ (?P<url>\S+)")
# (counts from the first digit of a run only; a report starts at a letter)
_THREADS = re.compile(r"(?<!\d)\d+ threads? and \d+ connections?")
_HEAD = re.compile(r"Thread Stats\s+Avg\s+Stdev\s+Max\s+\+/-\s+Stdev")


def _report(text: str, start: int, end: int, url: str | None) -> ResultTable | None:
    if not (found := report(READERS, text, start, end)):
        return None
    first = min(
        [found[0][0].start()]
        + [m.start() for r in (_RUNNING, _THREADS, _HEAD) if (m := r.search(text, start, end))]
    )
    table = ResultTable(
        format=INFO.name,
        span=(first, found[-1][0].end()),
        columns=["field", "value", "unit"],
        caption=url,
    )
    for m, spec in found:
        table.add_row(cells(spec, m, url), measurements(spec.fields, m, url))
    metrics = {x.metric for x in table.measurements}
    return table if metrics & {"requests_per_sec", "latency_avg"} else None


def parse(text: str) -> list[ResultTable]:
    starts = [(m.start(), m["url"]) for m in _RUNNING.finditer(text)]
    if not starts:
        head = _HEAD.search(text)
        if not head:
            return []
        starts = [(head.start(), None)]
    ends = [s for s, _ in starts[1:]] + [len(text)]  # (a report runs to the next one)
    return [t for (s, url), e in zip(starts, ends, strict=True) if (t := _report(text, s, e, url))]
