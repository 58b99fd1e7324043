"""TVM's model benchmark scripts (`apps/benchmark/{gpu,arm_cpu,x86}_imagenet_bench.py`,
`mobile_gpu_imagenet_bench.py`): returns one `ResultTable` per report.

    --------------------------------------------------
    Network Name         Mean Inference Time (std dev)
    --------------------------------------------------
    resnet-50            6.74 ms             (0.42 ms)
    vgg-19               20.89 ms            (0.68 ms)

TVM's runtime may log lines (`[09:52:22] .../threading_backend.cc:63: ...`) between
the rows; they are skipped. Rows: label = the network; metrics `Mean Inference Time`
and `std dev`, in the unit printed (ms). Variant = the heading above the report.

Rows are searched from the header to the end of its code block (or of the text), so
a mail flattened onto one line reads the same. Pure function; never raises.
"""

from __future__ import annotations

import re

from extract.results.formats._context import measure
from extract.results.formats._layout import heading_above
from extract.results.formats.base import FormatInfo, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="tvm-bench",
    description="TVM imagenet benchmark script reports (mean inference time per network)",
    signature="header `Network Name  Mean Inference Time (std dev)`; rows "
    "`resnet-50  6.74 ms  (0.42 ms)`",
    priority=12,
    trigger=r"(?-i:Mean Inference Time)",
    needles=("Mean Inference Time",),
)

_N = r"\d+(?:\.\d+)?"
_HEADER = re.compile(r"Network Name[ \t]+Mean Inference Time[ \t]*\(std dev\)(?:\s*-{10,})?")
_ROW = re.compile(
    rf"(?<![\w.-])(?P<name>[A-Za-z][\w.+-]*)[ \t]+(?P<mean>{_N})[ \t]*(?P<u>ms|s|us)[ \t]+"
    rf"\([ \t]*(?P<sd>{_N})[ \t]*(?P<u2>ms|s|us)\)"
)
# The report ends where its code block ends, or at a blank line after the rows.
_END = re.compile(r"```|\{code\}|\{noformat\}|</pre>|\n[ \t]*\n[ \t]*\n")


def parse(text: str) -> list[ResultTable]:
    tables = []
    floor = 0
    for head in _HEADER.finditer(text):
        if head.start() < floor:
            continue
        end_mark = _END.search(text, head.end())
        end = end_mark.start() if end_mark else len(text)
        table = ResultTable(
            format=INFO.name,
            span=head.span(),
            columns=["Network Name", "Mean Inference Time", "std dev"],
            caption="TVM imagenet benchmark",
            variant=heading_above(text, head.start(), floor),
        )
        for row in _ROW.finditer(text, head.end(), end):
            name = row.group("name")
            index = len(table.rows)
            table.rows.append([name, row.group("mean"), row.group("sd")])
            for metric, g, ug in (("Mean Inference Time", "mean", "u"), ("std dev", "sd", "u2")):
                written = row.group(g)
                m = measure(
                    metric, written, parse_number(written), row.group(ug), label=name, row=index
                )
                if m:
                    table.measurements.append(m)
            table.span = (head.start(), row.end())
        if table.rows:
            floor = table.span[1]
            tables.append(table)
    return tables
