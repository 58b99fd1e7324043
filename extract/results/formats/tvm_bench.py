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
a mail flattened onto one line reads the same.
"""

from __future__ import annotations

from extract.results.formats._layout import NUM
from extract.results.formats._rows import Field, Rows, read
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="tvm-bench",
    description="TVM imagenet benchmark script reports (mean inference time per network)",
    signature="header `Network Name  Mean Inference Time (std dev)`; rows "
    "`resnet-50  6.74 ms  (0.42 ms)`",
    priority=12,
    heading="block",
    trigger=r"(?-i:Mean Inference Time)",
    needles=("Mean Inference Time",),
)

ROWS = Rows(
    header=r"Network Name[ \t]+Mean Inference Time[ \t]*\(std dev\)(?:\s*-{10,})?",
    row=(
        rf"(?<![\w.-])(?P<name>[A-Za-z][\w.+-]*)[ \t]+(?P<mean>{NUM})[ \t]*(?P<u>ms|s|us)[ \t]+"
        rf"\([ \t]*(?P<sd>{NUM})[ \t]*(?P<u2>ms|s|us)\)"
    ),
    # the report ends where its code block ends, or at a blank line after the rows
    end=r"```|\{code\}|\{noformat\}|</pre>|\n[ \t]*\n[ \t]*\n",
    fields=(
        Field("Mean Inference Time", "mean", unit_group="u"),
        Field("std dev", "sd", unit_group="u2"),
    ),
    label="name",
    columns=("Network Name", "Mean Inference Time", "std dev"),
    caption="TVM imagenet benchmark",
)


def parse(text: str) -> list[ResultTable]:
    return read(ROWS, text)
