"""Rust criterion.rs console output: `name  time: [1.2 ms 1.3 ms 1.4 ms]` blocks.

Recognises a benchmark name (on its own line above, before `time:` on the same line,
or in a flattened mail the words before `time:`), the `time:` interval, an optional
`thrpt:` interval, `change: [-2.1% -1.0% +0.3%] (p = 0.12 > 0.05)` (also the two-line
`change: time: [...] thrpt: [...]`), the verdict line and `Found N outliers among M
measurements`, which belong to the block. Changes are signed with U+2212 `−`; UTF-8 read
as cp1252 (`âˆ’`, `Âµs`) reads the same. Criterion's progress lines (`Benchmarking x:
Warming up for 3.0000 s`, `Warning: Unable to complete 100 samples ...`) and cargo's
`Compiling/Finished/Running` lines are claimed without measurements and are never a
block's heading.

Measurements, label = the benchmark: `time` (the estimate, unit as printed),
`time_lower`, `time_upper`; `thrpt`... (e.g. `MiB/s`, `Kelem/s`); `change`... (`%`;
for throughput `thrpt_change`...). With a change, the estimate is the `after` side of a
comparison with the saved baseline and the change its `change`.

Not declared as rows: a block is a benchmark name and its `time: [low est high]`,
`thrpt:` and `change:` lines; the name may stand on the line before or be flattened into
the prose before it.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import FLOAT
from extract.results.formats._rows import blank_between, chatter, name_blocks
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

# A progress line, or the name: what shows criterion ran (a progress line's name is
# read up to the next `Benchmarking `, so that a line of them is not read again from
# each: the phase after a name has no other `Benchmarking ` before it)
_RAN = (
    r"Benchmarking (?:(?!Benchmarking )[^\n])*: (?:Warming up|Collecting|Analyzing)|Criterion\.rs"
)

INFO = FormatInfo(
    name="criterion",
    description="Rust criterion 'time: [low est high]' blocks",
    signature="`name  time: [2.2397 ms 2.2405 ms 2.2412 ms]`, "
    "`change: [+5.25% +5.31% +5.37%] (p = 0.00 < 0.05)`, `Found N outliers among M measurements`",
    priority=10,
    kind="result",
    trigger=rf"(?-i:time:\s*\[|{_RAN})",
    needles=("time:", "Benchmarking ", "Criterion.rs"),
)

# criterion signs changes with U+2212 `−`, which mail read as cp1252 turns into `âˆ’`
_NUM = rf"(?:−|âˆ’)?{FLOAT}"
_VU = rf"(?:{_NUM})\s*[^\s\]]+"
_INTERVAL = (
    rf"\[\s*(?P<{{p}}1>{_NUM})\s*(?P<{{p}}1u>[^\s\]]+)\s+(?P<{{p}}2>{_NUM})\s*(?P<{{p}}2u>[^\s\]]+)"
    rf"\s+(?P<{{p}}3>{_NUM})\s*(?P<{{p}}3u>[^\s\]]+)\s*\]"
)
_PCT = rf"\[\s*(?P<{{p}}1>{_NUM})%\s+(?P<{{p}}2>{_NUM})%\s+(?P<{{p}}3>{_NUM})%\s*\]"
_BLOCK = re.compile(
    rf"""time:\s*{_INTERVAL.format(p="t")}
        (?:\s*thrpt:\s*{_INTERVAL.format(p="r")})?
        (?:\s*change:\s*(?:time:\s*)?{_PCT.format(p="c")}(?:\s*\(p\s*=\s*(?P<p>[\d.]+)\s*[<>]\s*[\d.]+\))?
           (?:\s*thrpt:\s*{_PCT.format(p="d")})?)?
        (?:\s*(?:Performance\ has\ (?:improved|regressed)\.|No\ change\ in\ performance\ detected\.
              |Change\ within\ noise\ threshold\.))?
        (?:\s*Found\ \d+\ outliers\ among\ \d+\ measurements\ \([\d.]+%\)
           (?:\s*\d+\ \([\d.]+%\)\ (?:high|low)\ (?:mild|severe))*)?""",
    re.X,
)
_PROGRESS = re.compile(
    r"""Benchmarking\ (?:(?!Benchmarking\ )[^\n])*?:\ (?:Warming\ up\ for\ [\d.]+\ s|Analyzing
         |Collecting\ \d+\ samples\ in\ estimated\ [\d.]+\ s\ \(\S+\ iterations\)
         |Complete\ \(Analysis\ Disabled\))
      |Warning:\ Unable\ to\ complete\ \d+\ samples\ in\ [\d.]+s\.
         (?:(?!Warning:\ )[^\n])*?(?:sample\ count\ to\ \d+\.|$)
      |(?m:^[ \t]*(?:Compiling\ \S+\ v\d|Finished\ (?:bench|release|dev|test)\b
                   |Running\ (?:unittests|benches/|`?target/)
                   |Gnuplot\ not\ found)[^\n]*)""",
    re.X,
)
_RAN_RE = re.compile(_RAN)
_SENTENCE_END = re.compile(
    r"(?:```\w*|\.\.\.|(?:high|low) (?:mild|severe)|detected\.|threshold\.|improved\.|regressed\."
    r"|: Analyzing|iterations\)|Disabled\)"
    r"|[.:!?])\s+"
)


def _label(text: str, start: int, prev_end: int) -> tuple[str, int]:
    """Name before `time:` and where it starts."""
    line_start = text.rfind("\n", 0, start) + 1
    seg_start = max(line_start, prev_end)
    same_line = text[seg_start:start]
    if same_line.strip():
        if line_start >= prev_end and len(same_line) < 120:  # console: the name starts the line
            return same_line.strip(), seg_start + len(same_line) - len(same_line.lstrip())
        # flattened: the name follows the end of the previous sentence or block
        window = max(0, len(same_line) - 300)
        cut = window
        for m in _SENTENCE_END.finditer(same_line, window):
            cut = m.end()
        name = same_line[cut:].strip()
        lead = len(same_line[cut:]) - len(same_line[cut:].lstrip())
        return (name, seg_start + cut + lead) if 0 < len(name) < 120 else ("", start)
    # the name is on the previous non-blank line
    before = text[max(prev_end, 0) : line_start].rstrip()
    name_start = before.rfind("\n") + 1
    name = before[name_start:].strip()
    if not name or len(name) > 200 or name.startswith(("Benchmarking ", "Warning:")):
        return "", start
    return name, max(prev_end, 0) + name_start + (
        len(before[name_start:]) - len(before[name_start:].lstrip())
    )


def _cell(m: re.Match, p: str) -> str:
    """An interval as a cell: `[2.2397 ms 2.2405 ms 2.2412 ms]`."""
    return "[" + " ".join(f"{m[p + k]} {m[p + k + 'u']}" for k in "123") + "]"


def _interval(m: re.Match, p: str, metric: str, label: str) -> list[Measurement]:
    out = []
    for k, suffix in (("2", ""), ("1", "_lower"), ("3", "_upper")):
        if m[p + k] is None:
            continue
        unit = m[p + k + "u"] if (p + k + "u") in m.re.groupindex else "%"
        unit = unit.replace("Âµ", "µ")  # UTF-8 `µ` read as Latin-1 / cp1252
        value = float(m[p + k].replace("âˆ’", "-").replace("−", "-"))
        out.append(Measurement(metric + suffix, value, unit, label, None, m[p + k]))
    return out


def _sides(ms: list[Measurement]) -> None:
    """A stated change is a comparison with the saved baseline, whose numbers the
    output does not give: the estimate is the `after` of its quantity, the change its
    `change` (extract.results.comparisons)."""
    changed = {m.metric.removesuffix("_change") for m in ms if m.metric.endswith("change")}
    changed = {"time" if q == "change" else q for q in changed}
    for m in ms:
        if m.metric in changed:
            m.side, m.side_name, m.quantity = "after", "new", m.metric
        elif m.metric in ("change", "thrpt_change"):
            quantity = "time" if m.metric == "change" else "thrpt"
            m.side, m.side_name, m.quantity = "change", "change", quantity


_NOT_HEADING = re.compile(
    r"(?:Benchmarking |Found \d+ outliers|\d+ \([\d.]+%\) (?:high|low)|Running |Finished |"
    r"Compiling |Gnuplot |Warning: |Performance has|No change in|Change within)"
)


def parse(text: str) -> list[ResultTable]:
    tables: list[ResultTable] = []
    prev_end = 0
    blocks = list(_BLOCK.finditer(text))
    for b in blocks:
        label, start = _label(text, b.start(), prev_end)
        prev_end = b.end()
        table = ResultTable(
            format=INFO.name,
            span=(start, b.end()),
            columns=["benchmark", "time", "thrpt", "change"],
        )
        ms = _interval(b, "t", "time", label)
        for p, metric in (("r", "thrpt"), ("c", "change"), ("d", "thrpt_change")):
            if b[p + "1"]:
                ms += _interval(b, p, metric, label)
        _sides(ms)
        change = f"[{b['c1']}% {b['c2']}% {b['c3']}%]" + (f" (p = {b['p']})" if b["p"] else "")
        cells = [label, _cell(b, "t"), _cell(b, "r") if b["r1"] else "", change if b["c1"] else ""]
        table.add_row(cells, ms)
        tables.append(table)
    # a block right after another is of the same run (the line above is the last block's);
    # a line of criterion's or cargo's own names none
    name_blocks(tables, text, "line", _NOT_HEADING.match, blank_between)
    if blocks or _RAN_RE.search(text):
        tables += chatter(_PROGRESS, text, tables)
    return tables
