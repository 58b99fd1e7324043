"""Vegeta `vegeta report`: the text report of an HTTP load test, and its histogram.

Recognises the report as vegeta's text reporter writes it (lib/reporters.go: one
line a metric group, `<Name>  [<key>, <key>, ...]  <value>, <value>, ...`, aligned
by a tabwriter): `Requests [total, rate, throughput]` (before vegeta 12.7: `[total,
rate]`), `Duration [total, attack, wait]`, `Latencies [min, mean, 50, 90, 95, 99,
max]` (older: `[mean, 50, 95, 99, max]`, `[mean, 50, 90, 95, 99, max]`: the keys in
brackets say which value is which), `Bytes In [total, mean]`, `Bytes Out [total,
mean]`, `Success [ratio]`, `Status Codes [code:count]  200:29990  0:10`, then `Error
Set:` and the errors, one a line; also flattened onto one line. Durations are Go's
(`412.33µs`, `1.203ms`, `30.001s`, `1m0s`). A report starts at its `Requests` line.
`vegeta report -type=hist[...]` prints `Bucket  #  %  Histogram` and a row a bucket
(`[0s, 2ms]  9840  98.40%  ####`). Not read: the JSON report (`-type=json`, read as
JSON by the generic reader) and `hdrplot`.

Measurements: label = vegeta's name of the line (`Requests`, `Duration`,
`Latencies`, `Bytes In`, `Bytes Out`, `Success`, `Status Codes`), metric = the key
(`rate`, `throughput`, `mean`; a percentile `p50`, `p99`): `Requests` rate and
throughput in `req/s`, its total a `count`; `Duration` total/attack/wait in their
time unit, the run's length (role `total`); latencies in their unit (Go's compound
`1m0.5s` as seconds); bytes in `B` (the totals: role `total`); `Success ratio` in
`%`; each status code's responses (metric = the code, role `count`). A histogram's
bucket: label `[lo, hi]`, metrics `requests` (count) and `share` (%). The errors
give none (their text is claimed with the report). Variant = the heading above the
report; when not every report has one of its own and they ran different attacks,
the `vegeta attack ...` command above each.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from extract.results.formats._layout import NUM, heading_above
from extract.results.formats._rows import Rows, read
from extract.results.formats.base import FormatInfo, Measurement, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="vegeta",
    description="vegeta load test reports",
    signature="`Requests [total, rate, throughput] 30000, 1000.03, 999.98`, "
    "`Latencies [min, mean, 50, 90, 95, 99, max] 412.33µs, 1.203ms, ...`, "
    "`Success [ratio] 100.00%`, `Status Codes [code:count] 200:30000`; "
    "`Bucket # % Histogram`",
    priority=10,
    kind="result",
    trigger=r"(?-i:Requests[ \t]+\[total|Latencies[ \t]+\[|Bucket[ \t]+\#[ \t]+%)",
    needles=("Requests", "Latencies", "Bucket"),
)

# Go's time.Duration as vegeta prints it: `1.203ms`, `412.33µs` (µ mangled by mail:
# `Âµs`, `Î¼s`, `?s`), `30.001s`, `1m0.5s`, `1h2m3s`, `0s`.
_MICRO = r"(?:µ|μ|Âµ|Î¼|\?)s"
_UNIT = rf"(?:ns|{_MICRO}|ms|s|m|h)"
_DURATION = rf"{NUM}{_UNIT}(?:{NUM}{_UNIT})*+"
_VALUE = rf"(?:{_DURATION}|{NUM}%?)"
_GO_UNITS = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}
_PART = re.compile(rf"(?<![\d.])({NUM})({_UNIT})")
_VALUE_RE = re.compile(_VALUE)

_NAMES = ("Requests", "Duration", "Latencies", "Bytes In", "Bytes Out", "Success")
_ROW = (
    r"(?<![\w\]])"
    rf"(?:(?P<name>{'|'.join(_NAMES)})[ \t]++\[(?P<keys>[\w ,.\r\n]{{1,80}})\][ \t]++"
    # (a mail wrapped at 72 columns breaks the latencies' line after a comma)
    rf"(?P<vals>{_VALUE}(?:,[ \t]*+(?:\r?\n[ \t]*+)?{_VALUE})*+)"
    # `Status Codes  [code:count]  200:29990  0:10` (no code at all when nothing came back)
    r"|(?P<codes>Status Codes)[ \t]++\[code:count\](?P<counts>(?:[ \t]++\d{1,3}:\d++)*+))"
    r"(?![\w.%])"
)
# After `Error Set:` each error on a line of its own: `Get "http://...": dial tcp ...`,
# `500 Internal Server Error`.
_ERRORS = (
    r"[ \t]*+(?:\r?\n)?[ \t]*+Error Set:[ \t]*+"
    r"(?:\r?\n[ \t]*+(?:(?:GET|Get|POST|Post|PUT|Put|DELETE|Delete|HEAD|Head|PATCH|Patch)"
    r"[ \t][^\r\n]*+|\d{3}[ \t]++[A-Z][A-Za-z' -]*+))*"
)


def _go_duration(written: str) -> tuple[float, str] | None:
    """`1.203ms` -> (1.203, "ms"); a compound `1m0.5s` -> (60.5, "s")."""
    parts = _PART.findall(written)
    units = [("us" if u.endswith("s") and u not in ("ns", "ms", "s") else u) for _, u in parts]
    if not parts:
        return None
    if len(parts) == 1:
        return float(parts[0][0]), units[0]
    return sum(float(v) * _GO_UNITS[u] for (v, _), u in zip(parts, units, strict=True)), "s"


def _key(name: str, key: str) -> str:
    """The metric of a key: a percentile `p50`; else the key as vegeta prints it."""
    key = key.strip()
    return f"p{key}" if name == "Latencies" and re.fullmatch(NUM, key) else key


def _found(m: re.Match) -> Iterator[Measurement]:
    if m["codes"]:
        for code, count in re.findall(r"(\d{1,3}):(\d++)", m["counts"] or ""):
            yield Measurement(code, float(count), None, None, None, count, role="count")
        return
    name = m["name"]
    keys = [k.strip() for k in m["keys"].split(",")]
    values = _VALUE_RE.finditer(m["vals"])
    for key, v in zip(keys, values, strict=False):
        written = v.group()
        offset = m.start("vals") + v.start()
        metric, role, unit, value = _key(name, key), "result", None, None
        if name == "Duration" or name == "Latencies":
            if (found := _go_duration(written)) is None:
                continue
            value, unit = found
            role = "total" if name == "Duration" else "result"
        else:
            value = parse_number(written.rstrip("%"))
            if value is None:
                continue
            if name == "Requests":
                unit = None if key == "total" else "req/s"
                role = "count" if key == "total" else "result"
            elif name.startswith("Bytes"):
                unit, role = "B", ("total" if key == "total" else "result")
            elif written.endswith("%"):
                unit = "%"
        yield Measurement(
            metric,
            value,
            unit,
            None,
            None,
            written,
            span=(offset, offset + len(written)),
            role=role,
        )


def _cells(m: re.Match, label: str) -> list[str]:
    if m["codes"]:
        return [label, "code:count", " ".join((m["counts"] or "").split())]
    return [label, m["keys"], " ".join(m["vals"].split())]


# The command that ran the attack or the report, on the lines right above it.
_COMMAND = r"[^\n]*?\bvegeta[ \t]++(?:attack|report)\b[^\n]*+"

REPORT = Rows(
    # a report starts at its `Requests` line (each one starts the next report)
    header=r"(?<![\w\]])(?=Requests[ \t]++\[total)",
    row=_ROW,
    fields=_found,
    label=lambda m: m["name"] or m["codes"],
    columns=("name", "keys", "values"),
    cells=_cells,
    tail=_ERRORS,
    lead=_COMMAND,
)

HISTOGRAM = Rows(
    header=r"(?<!\S)Bucket[ \t]++\#[ \t]++%[ \t]++Histogram",
    row=(
        rf"\[(?P<lo>{_DURATION}|0),[ \t]*+(?P<hi>{_DURATION}|\+Inf)\][ \t]++(?P<n>\d++)"
        rf"[ \t]++(?P<pct>{NUM})%(?:[ \t]*+\#++)?"
    ),
    fields=lambda m: [
        Measurement("requests", float(m["n"]), None, None, None, m["n"], span=m.span("n")),
        Measurement("share", float(m["pct"]), "%", None, None, m["pct"], span=m.span("pct")),
    ],
    label=lambda m: f"[{m['lo']}, {m['hi']}]",
    columns=("bucket", "requests", "share"),
    cells=lambda m, label: [label, m["n"], m["pct"] + "%"],
    lead=_COMMAND,
)

# The attack that made a report, on the line above it: `vegeta attack -rate=500 ...`
# (with the pipe into `vegeta report`).
_ATTACK = re.compile(r"vegeta[ \t]++attack\b[^\n|]*+")


def _attack_above(text: str, table: ResultTable, floor: int) -> str | None:
    """The `vegeta attack ...` command of a report: in the lines the report took above
    its first row, or on one of the two lines above it (not before `floor`)."""
    start, first = table.span[0], table.span[0]
    if table.rows and (at := text.find(table.rows[0][0], start, table.span[1])) >= 0:
        first = at
    lines = [ln for ln in text[floor:start].splitlines() if ln.strip()][-2:]
    for line in reversed([*lines, text[start:first]]):
        if m := _ATTACK.search(line):
            return " ".join(m.group().split())
    return None


# What the attack was asked for: `-rate=1000` (`-rate 500/1s`), `-duration=30s`,
# `-workers=10`, `-connections=100`, `-max-workers=...`.
_FLAG = re.compile(
    rf"-(?P<flag>rate|duration|workers|max-workers|connections|timeout)[= ]"
    rf"(?P<v>{NUM})(?P<u>(?:/{NUM}?[a-zµ]+|[a-zµ]+)?)(?![\w.])"
)


def _settings(text: str, table: ResultTable) -> None:
    """The attack's flags in the lines the report took above its rows: settings (role
    `setting`), so that no number of the command is taken for a result."""
    if not table.rows or (first := text.find(table.rows[0][0], *table.span)) < 0:
        return
    for m in _FLAG.finditer(text, table.span[0], first):
        unit = m["u"] or None
        if m["flag"] == "rate":
            unit = "req/s" if unit in (None, "/s", "/1s") else unit
        meas = Measurement(m["flag"], float(m["v"]), unit, "attack", None, m["v"], role="setting")
        meas.span = m.span("v")
        table.add_row(["attack", m["flag"], m["v"] + (m["u"] or "")], [meas])


def parse(text: str) -> list[ResultTable]:
    tables = sorted(read(REPORT, text) + read(HISTOGRAM, text), key=lambda t: t.span)
    # Each report's name: the heading above it when every report has one of its own;
    # else, when the reports ran different attacks, the attack; else the heading, or
    # the attack where there is none.
    headings, attacks, floor = [], [], 0
    for t in tables:
        headings.append(heading_above(text, t.span[0], floor, style="block"))
        attacks.append(_attack_above(text, t, floor))
        floor = t.span[1]
    if headings and all(h and _ATTACK.search(h) for h in headings):
        headings = [None] * len(headings)  # (the attack's command, taken for a heading)
    own_headings = all(headings) and len(set(headings)) == len(headings)
    own_attacks = len(tables) > 1 and all(attacks) and len(set(attacks)) == len(attacks)
    for t, heading, attack in zip(tables, headings, attacks, strict=True):
        _settings(text, t)
        if own_headings or not own_attacks:
            t.variant = heading or attack
        else:
            t.variant = attack
    return tables
