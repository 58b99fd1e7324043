"""Gatling's console summary: the `---- Global Information ----` block it prints at the
end of a simulation.

Recognises the block as Gatling's ConsoleTemplate writes it: before 3.14 (80
columns) `> mean response time   41 (OK=40     KO=1010  )` (`-` where a side has no
request), after it (120 columns, gatling-charts' ConsoleTemplate since 2025) `> mean
response time (ms)  |  41 |  40 |  1010` under `---- Global Information ---...
|---Total---|-----OK----|----KO----`; the statistics by Gatling's names (`request
count`, `min` / `max` / `mean response time`, `std deviation` or `response time std
deviation`, `response time 95th percentile`, `mean requests/sec` or `mean throughput
(rps)`), then `---- Response Time Distribution ----` (`> t < 800 ms   29942 (100%)`,
`> 800 ms <= t < 1200 ms`, `> t >= 1200 ms`, `> failed` / `> OK: t < 800 ms`, `> KO`)
and `---- Errors ----` (`> <message>   10 (100.0%)`); also flattened onto one line.
Its lines are read with their `> ` marks or without them (the cleaner takes the
marks off a Gatling block: `extract.mail.clean`, they mark no quotation there). Not
read: the live blocks printed every few seconds (`---- Requests ----` with `> Global
(OK=120 KO=0)`, progress bars), the HTML report.

Measurements: label = what the statistic is of, `response time` (metrics `min`,
`max`, `mean`, `stdev`, `p50`, `p95`..., unit `ms`), `requests` (metric `count`, a
count) or `throughput` (metric `mean`, `req/s`); the whole run's value is the result,
the OK and KO columns the same statistic for the successful and the failed requests
(label `... OK` / `... KO`, role `sample`; the failed requests' count role `error`;
an OK value that repeats the whole run's, none having failed, is not repeated).
A distribution line: label the range (`t < 800 ms`), metrics `requests` (a count) and
`share` (%); an error: label its message, metric `count`, role `error`. Variant = the
heading above the block.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from extract.results.formats._layout import NUM
from extract.results.formats._rows import Rows, read
from extract.results.formats.base import FormatInfo, Measurement, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="gatling",
    description="Gatling console summaries",
    signature="`---- Global Information ----`, `> request count  1000 (OK=998  KO=2  )`, "
    "`> mean response time  41 (OK=40  KO=1010  )`, `> mean requests/sec  33.3 (...)`; "
    "Gatling 3.14: `> mean response time (ms)  |  41 |  40 |  1010`",
    priority=10,
    kind="result",
    heading="block",
    trigger=r"(?-i:---- Global Information ---)",
    needles=("---- Global Information ---",),
)

_V = rf"(?:{NUM}|-)"  # a cell: a number, or `-` where no request of that side was made
_NAME = r"[a-z][a-z0-9 /()%.]*?[a-z0-9)]"
_ROW = "|".join(
    (
        # the titles under the first, which give no number
        r"-{4}[ \t]++(?:Response[ \t]++Time[ \t]++Distribution|Errors)[ \t]++-++",
        # before 3.14: `> mean response time      41 (OK=40     KO=1010  )`
        rf"(?:>[ \t]++)?(?P<name>{_NAME})[ \t]++(?P<total>{_V})[ \t]*+\(OK=(?P<ok>{_V})[ \t]++"
        rf"KO=(?P<ko>{_V})[ \t]*+\)",
        # 3.14 and later: `> mean response time (ms)    |        41 |        40 |      1010`
        rf"(?:>[ \t]++)?(?P<name2>{_NAME})[ \t]*+\|[ \t]*+(?P<total2>{_V})[ \t]*+\|[ \t]*+"
        rf"(?P<ok2>{_V})[ \t]*+\|[ \t]*+(?P<ko2>{_V})(?![\w.|])",
        # the distribution: `> t < 800 ms   29942 (100%)`, `> OK: 800 ms <= t < 1200 ms`
        r"(?:>[ \t]++)?(?P<range>(?:OK:[ \t]++)?(?:t[ \t]*+(?:<|>=?)[ \t]*+\d++[ \t]*+ms"
        r"|\d++[ \t]*+ms[ \t]*+<=?[ \t]*+t[ \t]*+<[ \t]*+\d++[ \t]*+ms)|failed|KO)[ \t]++"
        r"(?P<n>\d++)[ \t]++"
        rf"\([ \t]*+(?P<pct>{NUM})[ \t]*+%\)",
        # an error: `> j.n.ConnectException: Connection refused     10 (100.0%)`
        rf"(?:>[ \t]++)?(?P<error>(?!-{4})\S[^\n]{{0,200}}?)[ \t]++(?P<en>\d++)[ \t]++"
        rf"\([ \t]*+(?P<ep>{NUM})[ \t]*+%\)",
    )
)


def _statistic(name: str) -> tuple[str, str, str | None]:
    """(label, metric, unit) of a statistic by Gatling's name for it."""
    name = " ".join(name.split())
    if name == "request count":
        return "requests", "count", None
    if "requests/sec" in name or "throughput" in name:
        return "throughput", "mean", "req/s"
    if m := re.search(rf"(?<![\d.])({NUM})(?:st|nd|rd|th) percentile", name):
        return "response time", f"p{m.group(1)}", "ms"
    for word in ("min", "max", "mean"):
        if name.startswith(word + " "):
            return "response time", word, "ms"
    if "deviation" in name:
        return "response time", "stdev", "ms"
    return name, "value", None


def _found(m: re.Match) -> Iterator[Measurement]:
    name = m["name"] or m["name2"]
    if name:
        label, metric, unit = _statistic(name)
        total = "total" if m["name"] else "total2"
        for side, group in (("", "total"), (" OK", "ok"), (" KO", "ko")):
            group = group if m["name"] else group + "2"
            value = parse_number(m[group]) if m[group] != "-" else None
            if value is None or side == " OK" and m[group] == m[total]:
                continue  # (no request of that side; OK the same as all: none failed)
            role = "result" if not side else "sample"
            if metric == "count":
                role = "error" if side == " KO" else "count"
            meas = Measurement(metric, value, unit, label + side, None, m[group], role=role)
            meas.span = m.span(group)
            yield meas
    elif m["range"]:
        label = " ".join(m["range"].split())
        for metric, group, unit in (("requests", "n", None), ("share", "pct", "%")):
            meas = Measurement(metric, parse_number(m[group]), unit, label, None, m[group])
            meas.span, meas.role = m.span(group), ("count" if unit is None else "result")
            yield meas
    elif m["error"]:
        meas = Measurement("count", parse_number(m["en"]), None, None, None, m["en"], role="error")
        meas.span = m.span("en")
        yield meas


def _label(m: re.Match) -> str:
    if m["error"]:
        return " ".join(m["error"].split())
    if m["range"]:
        return " ".join(m["range"].split())
    return " ".join((m["name"] or m["name2"] or "").split())


ROWS = Rows(
    header=(
        r"-{4}[ \t]++Global[ \t]++Information[ \t]++-++"
        r"(?:\|-++Total-++\|-++OK-++\|-++KO-++)?"
    ),
    row=rf"(?<![\w>])(?:{_ROW})",
    fields=_found,
    label=_label,
    columns=("statistic", "line"),
    cells=lambda m, label: [label, " ".join(m[0].split())],
    # the rule above the block, and the one that ends it
    lead=r"[ \t]*+={20,}+[ \t]*+",
    tail=r"\s*+={20,}+",
)


def parse(text: str) -> list[ResultTable]:
    return read(ROWS, text)
