"""ApacheBench (`ab`, shipped with Apache httpd) reports.

Recognises the report that follows `This is ApacheBench, Version 2.3` (or, without that
banner, a `Requests per second:  N [#/sec] (mean)` line): its `Key:  value [unit]`
lines, the `Connection Times (ms)` table and the `Percentage of the requests served
within a certain time (ms)` block - also when flattened onto one line.

Returns one ResultTable per report. Measurements, label = the URL of the `ab` command
line (else `host:port/path` from the report):
`time_taken` (s), `complete_requests`, `failed_requests`, `write_errors`, `non_2xx_responses`,
`keep_alive_requests` (count), `total_transferred`, `html_transferred`, `total_body_sent`
(bytes), `requests_per_second` (`#/sec`), `time_per_request_mean` and
`time_per_request_mean_across_concurrent` (ms), `transfer_rate` (`KB/sec`, ab prints
`Kbytes/sec`) and, when a body was sent, `transfer_rate_sent` / `transfer_rate_total`
(`KB/sec`, ab prints `kb/s sent`), `p50`...`p100` (ms); the Connection
Times rows give label = row name (`Connect`, `Total`...), metric `connection_time_<min|
mean|sd|median|max>` (ms). Configuration lines (concurrency, document length, port)
are part of the block but give no rows. The `ab ...` command line pasted above a report
names its URL; it is not the report's variant (a heading such as `with the patch:` is).

Not declared as rows: a report is a set of keyed lines (`Requests per second:`, `Time
per request:`, ...) between banners, whose metric and unit come from each key, plus two
small tables.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import NUM, heading_above
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="ab",
    description="ApacheBench (ab) reports",
    signature="`This is ApacheBench, Version 2.3`, "
    "`Requests per second:    1036.10 [#/sec] (mean)`, "
    "`Time per request: 96.516 [ms] (mean)`, `Connection Times (ms)`, `  50%     95`",
    priority=10,
    kind="result",
    trigger=r"(?-i:Requests per second:)",
    needles=("Requests per second:",),
)

_KEYS = re.compile(
    rf"""(?P<key>Time\ taken\ for\ tests|Complete\ requests|Failed\ requests|Write\ errors
          |Non-2xx\ responses|Total\ transferred|HTML\ transferred|Requests\ per\ second
          |Time\ per\ request|Transfer\ rate|Total\ body\ sent|Keep-Alive\ requests):
        [ \t]+(?P<v>{NUM})[ \t]*(?:\[(?P<u>[^\]\n]+)\]|(?P<w>bytes|seconds))?
        (?:[ \t]*\((?P<q>[^)]{{0,80}})\)|[ \t]*received|[ \t]*kb/s\ total)?""",
    re.X,
)
_CONFIG = re.compile(
    r"(?:Server Software|Server Hostname|Server Port|SSL/TLS Protocol|Document Path|Document Length"
    r"|Concurrency Level|TLS Server Name|Server Temp Key):[ \t]*[^\n]*?(?=[ \t]{2,}|\n|$"
    r"|\s(?:Server|Document|Concurrency|Time taken|SSL|TLS)\b)"
)
# `Transfer rate:` goes on with two lines when a body was sent (`-p`/`-u`)
_SENT = re.compile(rf"(?<!\S)(?P<v>{NUM})[ \t]+kb/s[ \t]+(?P<k>sent|total)\b")
_CONN = re.compile(
    rf"(?P<name>Connect|Processing|Waiting|Total):[ \t]+(?P<min>{NUM})[ \t]+(?P<mean>{NUM})"
    rf"[ \t]+(?P<sd>{NUM})[ \t]+(?P<median>{NUM})[ \t]+(?P<max>{NUM})"
)
_PCT_HEAD = re.compile(r"Percentage of the requests served within a certain time \(ms\)")
_PCT = re.compile(rf"(?<!\S)(?P<p>\d{{2,3}})%[ \t]+(?P<v>{NUM})(?:[ \t]*\(longest request\))?")
_BANNER = re.compile(
    r"This is ApacheBench, Version [^\n]*?(?:\n|\s)"
    r"(?:Copyright [^\n]*?Zeus Technology Ltd, \S+\s*)?"
    r"(?:Licensed to The Apache Software Foundation, \S+)?"
)
_COMMAND = re.compile(r"(?<!\S)ab(?:\s+-\w+(?:\s+(?!https?://)\S+)?)*\s+(?P<url>https?://\S+)")
_PROGRESS = re.compile(
    r"Benchmarking \S+ \(be patient\)"
    r"(?:[.\s]*?(?:Completed \d+ requests|Finished \d+ requests|\.\.\.))*"
)


def _metric(key: str, qualifier: str | None) -> str:
    name = key.lower().replace(" ", "_").replace("-", "_")
    if key == "Time per request":
        across = qualifier and "across" in qualifier
        return "time_per_request_mean_across_concurrent" if across else "time_per_request_mean"
    if key == "Time taken for tests":
        return "time_taken"
    return name


def _unit(key: str, m: re.Match) -> str:
    if m["w"] == "seconds":
        return "s"
    if m["w"] == "bytes" or key == "Total body sent":
        return "bytes"
    if m["u"]:
        return "KB/sec" if m["u"] == "Kbytes/sec" else m["u"]
    return "count"


# The run's length and the bytes moved in all of it: totals, not results.
_ROLE = dict.fromkeys(("time_taken", "total_transferred", "html_transferred", "total_body_sent"),
                      "total")  # fmt: skip


def _report(text: str, start: int, end: int, label: str | None) -> ResultTable | None:
    items: list[tuple[int, int, list[Measurement], list[str]]] = []
    for m in _KEYS.finditer(text, start, end):
        metric = _metric(m["key"], m["q"])
        meas = Measurement(metric, float(m["v"]), _unit(m["key"], m), label, None, m["v"])
        meas.role = _ROLE.get(metric, "count" if meas.unit == "count" else "result")
        items.append((m.start(), m.end(), [meas], [m["key"], m["v"], meas.unit or ""]))
    for m in _SENT.finditer(text, start, end):
        meas = Measurement(f"transfer_rate_{m['k']}", float(m["v"]), "KB/sec", label, None, m["v"])
        items.append((m.start(), m.end(), [meas], [f"kb/s {m['k']}", m["v"], "KB/sec"]))
    for m in _CONN.finditer(text, start, end):
        ms = [
            Measurement(f"connection_time_{c}", float(m[c]), "ms", m["name"], None, m[c])
            for c in ("min", "mean", "sd", "median", "max")
        ]
        cells = [m["name"]] + [m[c] for c in ("min", "mean", "sd", "median", "max")]
        items.append((m.start(), m.end(), ms, cells))
    pct_head = _PCT_HEAD.search(text, start, end)
    if pct_head:
        pos = pct_head.end()
        while (
            p := _PCT.match(text, pos + len(re.match(r"\s*", text[pos:]).group(0)))
        ) and p.end() <= end:
            meas = Measurement(f"p{p['p']}", float(p["v"]), "ms", label, None, p["v"])
            items.append((p.start(), p.end(), [meas], [f"{p['p']}%", p["v"], "ms"]))
            pos = p.end()
    if not any(ms[0].metric == "requests_per_second" for _, _, ms, _ in items):
        return None
    items.sort(key=lambda t: t[0])
    first = min([items[0][0]] + [m.start() for m in _CONFIG.finditer(text, start, end)])
    span_start = start if _BANNER.match(text, start) else first
    table = ResultTable(
        format=INFO.name,
        span=(span_start, items[-1][1]),
        columns=["field", "value", "unit"],
        caption=label,
        variant=_variant(text, span_start),
    )
    for _, _, ms, cells in items:
        table.add_row(cells, ms)
    return table


def _variant(text: str, pos: int) -> str | None:
    """The heading above the report; the `ab ...` command line pasted there is none."""
    heading = heading_above(text, pos)
    return None if heading and _COMMAND.search(heading) else heading


def _label(text: str, start: int, end: int) -> str | None:
    commands = [m for m in _COMMAND.finditer(text, 0, end) if m.start() < start or start == 0]
    if commands:
        return commands[-1]["url"]
    host = re.search(r"Server Hostname:[ \t]+(\S+)", text[start:end])
    port = re.search(r"Server Port:[ \t]+(\d+)", text[start:end])
    path = re.search(r"Document Path:[ \t]+(\S+)", text[start:end])
    if host:
        return (
            host.group(1) + (f":{port.group(1)}" if port else "") + (path.group(1) if path else "")
        )
    return None


def parse(text: str) -> list[ResultTable]:
    starts = [m.start() for m in _BANNER.finditer(text)]
    if not starts:
        rps = [
            m.start() for m in re.finditer(r"Requests per second:[ \t]+[\d.]+[ \t]+\[#/sec\]", text)
        ]
        if not rps:
            return []
        starts = [max(0, text.rfind("\n\n", 0, rps[0]))]
    tables = []
    for i, s in enumerate(starts):
        e = starts[i + 1] if i + 1 < len(starts) else len(text)
        t = _report(text, s, e, _label(text, s, e))
        if t:
            tables.append(t)
            banner = _BANNER.match(text, s)
            progress = _PROGRESS.search(text, banner.end() if banner else s, t.span[1])
            if progress and t.span[0] != s:
                tables.append(ResultTable(format=INFO.name, span=progress.span()))
    return tables
