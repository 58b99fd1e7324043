"""ApacheBench (`ab`, shipped with Apache httpd) reports: one table per report.

A report runs from its `This is ApacheBench, Version 2.3` banner (else from the
paragraph of its first `Requests per second:  N [#/sec] (mean)` line) to the next
banner, also flattened onto one line. Its rows are lines of four declared kinds
(`_rows.report`), in text order: the `Key:  value [unit]` lines, the `kb/s sent` /
`kb/s total` lines that follow `Transfer rate:` when a body was sent, the `Connection
Times (ms)` rows and the percentiles under `Percentage of the requests served ...`.
Settings (concurrency, document length, port) and progress lines are claimed, no rows.

Measurements, label = the URL of the `ab` command line (else `host:port/path` from the
report): the key in snake case (`complete_requests`, `requests_per_second` in `#/sec`),
its unit as printed (`Kbytes/sec` as `KB/sec`; none: `count`), `time_taken` (s) and
the bytes moved (`total_transferred`, ...) with role `total`; `time_per_request_mean`
and `..._across_concurrent` (ms); `transfer_rate_sent` / `_total` (KB/sec); `p50` ...
`p100` (ms); Connection Times rows: label = the phase (`Connect`, `Total`), metrics
`connection_time_<min|mean|sd|median|max>` (ms). The `ab ...` command line pasted
above a report names its URL, not its variant (a heading such as `with the patch:`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from extract.results.formats._layout import NUM
from extract.results.formats._rows import Key, Rows, cells, measurements, one_of, report
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

_COMMAND = re.compile(r"(?<!\S)ab(?:\s+-\w+(?:\s+(?!https?://)\S+)?)*\s+(?P<url>https?://\S+)")

INFO = FormatInfo(
    name="ab",
    description="ApacheBench (ab) reports",
    signature="`This is ApacheBench, Version 2.3`, "
    "`Requests per second:    1036.10 [#/sec] (mean)`, "
    "`Time per request: 96.516 [ms] (mean)`, `Connection Times (ms)`, `  50%     95`",
    priority=10,
    kind="result",
    heading="block",
    not_heading=_COMMAND,  # the `ab ...` command line pasted above names the URL
    trigger=r"(?-i:Requests per second:)",
    needles=("Requests per second:",),
)

# The keys of the report's labelled lines, with their metric (default: the key in
# snake case) and role. The run's length and the bytes moved in all of it are totals.
_PLAIN = ("Complete requests", "Failed requests", "Write errors", "Non-2xx responses",
          "Keep-Alive requests", "Requests per second", "Time per request",
          "Transfer rate")  # fmt: skip
_KEYS = {
    "Time taken for tests": Key("time_taken", role="total"),
    **{k: Key(role="total") for k in ("Total transferred", "HTML transferred", "Total body sent")},
    **{k: Key() for k in _PLAIN},
}


def _unit(m: re.Match) -> str:
    """The unit as printed: `seconds`, `bytes`, `[Kbytes/sec]`; none: a count."""
    if m["w"] or m["key"] == "Total body sent":
        return "s" if m["w"] == "seconds" else "bytes"
    return {"Kbytes/sec": "KB/sec"}.get(m["u"], m["u"]) or "count"


def _keyed(m: re.Match) -> Iterator[Measurement]:
    key, unit = _KEYS[m["key"]], _unit(m)
    metric = key.metric or m["key"].lower().replace(" ", "_").replace("-", "_")
    if m["key"] == "Time per request":
        across = m["q"] and "across" in m["q"]
        metric = "time_per_request_mean" + ("_across_concurrent" if across else "")
    role = "count" if unit == "count" and key.role == "result" else key.role
    yield Measurement(metric, float(m["v"]), unit, None, None, m["v"], role=role)


_CONNECTION = ("min", "mean", "sd", "median", "max")
READERS = (
    Rows(
        row=(
            rf"(?P<key>{one_of(_KEYS)}):[ \t]+(?P<v>{NUM})"
            r"[ \t]*(?:\[(?P<u>[^\]\n]+)\]|(?P<w>bytes|seconds))?"
            r"(?:[ \t]*\((?P<q>[^)]{0,80})\)|[ \t]*received|[ \t]*kb/s\ total)?"
        ),
        fields=_keyed,
        cells=lambda m, _: [m["key"], m["v"], _unit(m)],
    ),
    # `Transfer rate:` goes on with two lines when a body was sent (`-p`/`-u`)
    Rows(
        row=rf"(?<!\S)(?P<v>{NUM})[ \t]+kb/s[ \t]+(?P<k>sent|total)\b",
        fields=lambda m: [(f"transfer_rate_{m['k']}", m["v"], "KB/sec")],
        cells=lambda m, _: [f"kb/s {m['k']}", m["v"], "KB/sec"],
    ),
    # `Connection Times (ms)`: a row per phase, named by it
    Rows(
        row=(
            r"(?P<name>Connect|Processing|Waiting|Total):"
            + "".join(rf"[ \t]+(?P<{c}>{NUM})" for c in _CONNECTION)
        ),
        fields=lambda m: [
            Measurement(f"connection_time_{c}", float(m[c]), "ms", m["name"], None, m[c])
            for c in _CONNECTION
        ],
        cells=lambda m, _: [m["name"], *(m[c] for c in _CONNECTION)],
    ),
    Rows(
        header=r"Percentage of the requests served within a certain time \(ms\)",
        row=rf"(?<!\S)(?P<p>\d{{2,3}})%[ \t]+(?P<v>{NUM})(?:[ \t]*\(longest request\))?",
        fields=lambda m: [(f"p{m['p']}", m["v"], "ms")],
        cells=lambda m, _: [f"{m['p']}%", m["v"], "ms"],
    ),
)
# What the report prints that gives no rows: its settings (which name the server when no
# command line does), the progress while it runs.
_CONFIG = re.compile(
    r"(?P<key>Server Software|Server Hostname|Server Port|SSL/TLS Protocol|Document Path"
    r"|Document Length|Concurrency Level|TLS Server Name|Server Temp Key)"
    r":[ \t]*(?P<value>[^\n]*?)(?=[ \t]{2,}|\n|$"
    r"|\s(?:Server|Document|Concurrency|Time taken|SSL|TLS)\b)"
)
_PROGRESS = re.compile(
    r"Benchmarking \S+ \(be patient\)"
    r"(?:[.\s]*?(?:Completed \d+ requests|Finished \d+ requests|\.\.\.))*"
)
_BANNER = re.compile(
    r"This is ApacheBench, Version [^\n]*?(?:\n|\s)"
    r"(?:Copyright [^\n]*?Zeus Technology Ltd, \S+\s*)?"
    r"(?:Licensed to The Apache Software Foundation, \S+)?"
)


def _report(text: str, start: int, end: int) -> ResultTable | None:
    if not (found := report(READERS, text, start, end)):
        return None
    settings = list(_CONFIG.finditer(text, start, end))
    label = _label(text, start, end, settings)
    first = min([found[0][0].start()] + [m.start() for m in settings])
    table = ResultTable(
        format=INFO.name,
        span=(start if _BANNER.match(text, start) else first, found[-1][0].end()),
        columns=["field", "value", "unit"],
        caption=label,
    )
    for m, spec in found:
        table.add_row(cells(spec, m, label), measurements(spec.fields, m, label))
    return table if any(x.metric == "requests_per_second" for x in table.measurements) else None


def _label(text: str, start: int, end: int, settings: list[re.Match]) -> str | None:
    """The URL of the `ab` command above the report, else the server it names."""
    commands = [m for m in _COMMAND.finditer(text, 0, end) if m.start() < start or start == 0]
    if commands:
        return commands[-1]["url"]
    server: dict[str, str] = {}
    for m in settings:
        server.setdefault(m["key"], m["value"].split()[0] if m["value"].strip() else "")
    if not server.get("Server Hostname"):
        return None
    port = server.get("Server Port", "")
    return (
        server["Server Hostname"]
        + (f":{port}" if port.isdigit() else "")
        + server.get("Document Path", "")
    )


def parse(text: str) -> list[ResultTable]:
    starts = [m.start() for m in _BANNER.finditer(text)]
    if not starts:
        rps = re.search(rf"Requests per second:[ \t]+{NUM}[ \t]+\[#/sec\]", text)
        if not rps:
            return []
        starts = [max(0, text.rfind("\n\n", 0, rps.start()))]
    tables = []
    for s, e in zip(starts, [*starts[1:], len(text)], strict=True):  # (to the next report)
        if t := _report(text, s, e):
            tables.append(t)
            banner = _BANNER.match(text, s)
            progress = _PROGRESS.search(text, banner.end() if banner else s, t.span[1])
            if progress and t.span[0] != s:
                tables.append(ResultTable(format=INFO.name, span=progress.span()))
    return tables
