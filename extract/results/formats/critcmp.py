"""critcmp: comparisons of criterion baselines (Rust; arrow-rs / DataFusion bots).

Recognises the header `group  <baseline>  <baseline>...` over a `-----  ------` rule
and rows `<name>  1.00  301.7±1.10µs  ? ?/sec  1.03  310.2±2.00µs  ? ?/sec`: per
baseline the ratio to the fastest, `mean±stddev` with its unit, and a throughput
(`12.5 MB/sec`, or `? ?/sec` when none).

`±` and `µ` as mail mangled them (`Â±`, `Âµs`; `?` from a console without them) are
read too.

Measurements: label = benchmark name (may contain spaces), variant = baseline name,
metrics `time` and `stddev` (unit as printed: ns, µs, ms, s), `ratio` (unit `x`),
`throughput` when given (`MB/sec` spelled `MB/s`); the first baseline's time and
throughput are the `before` side, the others' the `after` (`Measurement.side`). Rows are
read as a stream, so a
table flattened onto one line (GitBox mail) reads the same.

Not declared as rows: the row pattern is made from each header (one group of cells per
baseline it names), and a row's name is whatever stands before its cells.
"""

from __future__ import annotations

import re

from extract.results.formats._grid import norm_unit
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="critcmp",
    description="critcmp comparison tables",
    signature="'group  <base>  <new>' over '-----  ------'; cells '1.00  301.7±1.10µs  ? ?/sec'",
    priority=10,
    kind="result",
    trigger=r"±[\d.]|(?-i:\d\?\d+\.\d+(?:[num?]s|s))",
    # `±` as mail mangled it: `Â±` (still holds `±`), or `?` from a console without it
    trigger_parts=(
        (r"±[\d.]", ("±",), ()),
        (r"(?-i:\d\?\d+\.\d+(?:[num?]s|s))", ("?",), ()),
    ),
)

_HEADER = re.compile(
    r"(?<!\S)group[ \t]+(?P<names>[^\n]{1,400}?)\s+(?P<rules>-{3,}(?:[ \t]+-{3,})+)"
)
_CELL = (
    r"(?P<ratio{i}>\d+\.\d+)\s+(?P<mean{i}>[\d.]+)(?:Â?±|\?)(?P<sd{i}>[\d.]+)"
    r"(?P<unit{i}>ns|µs|μs|Âµs|\?s|us|ms|s)"
    r"\s+(?:\?\s+\?/sec|(?P<tp{i}>[\d.]+)\s*(?P<tpu{i}>\S+/sec))"
)

_ONE_CELL = re.compile(_CELL.format(i=""))


def _sided(m: Measurement, column: int) -> Measurement:
    """The first baseline is the one the others are compared with: `before`; each other
    is an `after` (extract.results.comparisons). Ratios and stddevs are not sides."""
    if m.metric in ("time", "throughput"):
        m.side, m.side_name, m.quantity = (
            ("before" if column == 0 else "after"),
            m.variant,
            m.metric,
        )
    return m


def parse(text: str) -> list[ResultTable]:
    tables = []
    for h in _HEADER.finditer(text):
        names = h.group("names").split()
        if len(names) != len(h.group("rules").split()) - 1:
            continue
        row_re = re.compile(r"\s+".join(_CELL.format(i=i) for i in range(len(names))))
        table = ResultTable(INFO.name, h.span(), columns=["group", *names])
        pos = h.end()
        while (m := row_re.search(text, pos)) is not None:
            label = text[pos : m.start()].strip()
            if not label or "\n" in label or len(label) > 150:
                break
            r = len(table.rows)
            table.rows.append([label, *(c.group(0) for c in _ONE_CELL.finditer(m.group(0)))])
            for i, base in enumerate(names):
                # `Âµs` (UTF-8 read as Latin-1), `?s` (no µ): microseconds
                unit = re.sub(r"^(?:Âµ|\?)", "µ", m.group(f"unit{i}"))
                for metric, key, u in (
                    ("ratio", "ratio", "x"),
                    ("time", "mean", unit),
                    ("stddev", "sd", unit),
                ):
                    written = m.group(f"{key}{i}")
                    table.measurements.append(
                        _sided(Measurement(metric, float(written), u, label, base, written, r), i)
                    )
                if m.group(f"tp{i}"):
                    tp, tpu = m.group(f"tp{i}"), norm_unit(m.group(f"tpu{i}"))
                    table.measurements.append(
                        _sided(Measurement("throughput", float(tp), tpu, label, base, tp, r), i)
                    )
            pos = m.end()
            table.span = (h.start(), pos)
        if table.rows:
            tables.append(table)
    return tables
