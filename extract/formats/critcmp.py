"""critcmp: comparisons of criterion baselines (Rust; arrow-rs / DataFusion bots).

Recognises the header `group  <baseline>  <baseline>...` over a `-----  ------` rule
and rows `<name>  1.00  301.7±1.10µs  ? ?/sec  1.03  310.2±2.00µs  ? ?/sec`: per
baseline the ratio to the fastest, `mean±stddev` with its unit, and a throughput
(`12.5 MB/sec`, or `? ?/sec` when none).

Measurements: label = benchmark name (may contain spaces), variant = baseline name,
metrics `time` and `stddev` (unit as printed: ns, µs, ms, s), `ratio` (unit `x`),
`throughput` when given (`MB/sec` spelled `MB/s`).
"""

from __future__ import annotations

import re

from extract.formats._grid import dedupe, norm_unit
from extract.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="critcmp",
    description="critcmp comparison tables",
    signature="'group  <base>  <new>' over '-----  ------'; cells '1.00  301.7±1.10µs  ? ?/sec'",
    priority=10,
    kind="result",
)

_HEADER = re.compile(r"^[ \t]*group[ \t]{2,}(?P<names>\S.*?)[ \t]*\r?\n[ \t]*-----[- \t]*$", re.M)
_CELL = re.compile(
    r"(?P<ratio>\d+\.\d+)\s+(?P<mean>[\d.]+)±(?P<sd>[\d.]+)(?P<unit>ns|µs|μs|us|ms|s)"
    r"\s+(?:\?\s+\?/sec|(?P<tp>[\d.]+)\s*(?P<tpu>\S+/sec))"
)


def parse(text: str) -> list[ResultTable]:
    try:
        tables = []
        for h in _HEADER.finditer(text):
            names = re.split(r"\s{2,}", h.group("names").strip())
            table = ResultTable(INFO.name, h.span(), columns=["group", *names])
            pos = h.end() + 1
            for line in text[pos:].splitlines(keepends=True):
                cells = list(_CELL.finditer(line))
                if not cells or len(cells) > len(names):
                    break
                label = line[: cells[0].start()].strip()
                if not label:
                    break
                r = len(table.rows)
                table.rows.append([label, *[c.group(0) for c in cells]])
                for base, c in zip(names, cells, strict=False):
                    unit = c.group("unit")
                    for metric, key, u in (
                        ("ratio", "ratio", "x"),
                        ("time", "mean", unit),
                        ("stddev", "sd", unit),
                    ):
                        table.measurements.append(
                            Measurement(
                                metric, float(c.group(key)), u, label, base, c.group(key), r
                            )
                        )
                    if c.group("tp"):
                        tp, tpu = c.group("tp"), norm_unit(c.group("tpu"))
                        table.measurements.append(
                            Measurement("throughput", float(tp), tpu, label, base, tp, r)
                        )
                table.span = (h.start(), pos + len(line.rstrip("\r\n")))
                pos += len(line)
            if table.rows:
                tables.append(table)
        dedupe(tables, text)
        return tables
    except Exception:  # a parser bug must not lose the message; the other formats still run
        return []
