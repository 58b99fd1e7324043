"""benchmark.js results: `name x 1,234 ops/sec ±0.5% (90 runs sampled)`.

Recognises the result line with the name before ` x ` on the same line (benchmark.js'
own `String(bench)`), or on the one or two lines above (Arrow JS perf output), or -
when flattened - the words since the previous result; Arrow JS's `avg: 0.23ms` and
`1.38% of a frame @ 60FPS` lines and the `Fastest is ...` line belong to the block.

Returns one ResultTable per run of consecutive results. Measurements, label = the
benchmark name (lines joined with a space): `ops` (unit `ops/sec`, thousands separators
removed), `rme` (%, the relative margin of error), `runs` (count), and `avg` (unit as
printed, `ms`) when an `avg:` line follows. Variant = the heading above the block.

Not declared as rows: a result's name is the text before ` x ` on its line, or the one
or two lines above it, or in flattened mail the words since the previous result;
`Fastest is` ends a block with names of its own.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import GROUPED, NUM
from extract.results.formats._rows import numbers
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="benchmark-js",
    description="benchmark.js 'x ops/sec ±n%' lines",
    signature="`name x 4,386 ops/sec ±17.33% (61 runs sampled)`",
    priority=10,
    kind="result",
    heading="block",  # the registry names each block by the heading above it
    trigger=r"(?-i:ops/sec[ \t]+(?:±|\+/-|Â±|\?))",
    needles=("ops/sec",),
)

_RESULT = re.compile(
    rf"(?<!\S)x[ \t]+(?P<ops>{GROUPED})[ \t]+ops/sec[ \t]+"
    rf"(?:±|\+/-|Â±|\?)[ \t]*(?P<rme>{NUM})%[ \t]+\((?P<runs>\d+)[ \t]+runs?[ \t]+sampled\)"
)
_TAIL = re.compile(
    rf"(?:\s*avg:[ \t]*(?P<avg>{NUM})[ \t]*(?P<avgu>ms|s|us|µs|ns))?"
    rf"(?:\s*{NUM}% of a frame @ \d+FPS)?"
)
_FASTEST = re.compile(r"\s*Fastest is[ \t]+")


def _fastest_end(text: str, pos: int, names: list[str]) -> int:
    """The end of a `Fastest is a,b` line at `pos` (else `pos`): the names are the
    block's own, so a flattened mail's next words are not taken in."""
    m = _FASTEST.match(text, pos)
    if not m:
        return pos
    end = m.end()
    while True:
        name = max((n for n in names if n and text.startswith(n, end)), key=len, default=None)
        if name is None:
            break
        end += len(name)
        if not text.startswith(",", end):
            break
        end += 1
    if end == m.end():  # names not seen in the block: the rest of the line
        line_end = text.find("\n", end)
        end = min(line_end if line_end >= 0 else len(text), end + 200)
    return end


_BREAK = re.compile(r"(?:\.\.\.|FPS|sampled\)|```\w*|[.!?:])\s+")


def _label(text: str, pos: int, prev_end: int) -> tuple[str, int]:
    line_start = text.rfind("\n", 0, pos) + 1
    seg_start = max(line_start, prev_end)
    same = text[seg_start:pos]
    if same.strip():
        cut = 0  # the name follows the start of the line, or the previous result or sentence
        for m in _BREAK.finditer(same, max(0, len(same) - 300)):
            cut = m.end()
        name = same[cut:].strip()
        return name, seg_start + cut + len(same[cut:]) - len(same[cut:].lstrip())
    # Arrow JS prints the name on the one or two lines above, after a blank line
    lines = text[max(prev_end, 0) : line_start].rstrip("\n").split("\n")
    taken: list[str] = []
    for line in reversed(lines[-2:]):
        if not line.strip():
            break
        taken.insert(0, line.strip())
    if not taken:
        return "", pos
    start = text.rfind(taken[0], max(prev_end, 0), line_start)
    return " ".join(taken), start if start >= 0 else pos


def parse(text: str) -> list[ResultTable]:
    tables: list[ResultTable] = []
    prev_end = 0
    current: ResultTable | None = None
    for m in _RESULT.finditer(text):
        label, start = _label(text, m.start(), prev_end)
        tail = _TAIL.match(text, m.end())
        end = tail.end() if tail else m.end()
        if current is None or text[current.span[1] : start].strip():
            current = ResultTable(
                format=INFO.name,
                span=(start, end),
                columns=["benchmark", "ops/sec", "rme", "runs", "avg"],
            )
            tables.append(current)
        current.span = (current.span[0], end)
        found = [("ops", m["ops"], "ops/sec", float(m["ops"].replace(",", ""))),
                 ("rme", m["rme"], "%"), ("runs", m["runs"], "count")]  # fmt: skip
        avg = ""
        if tail and tail["avg"]:
            avg = tail["avg"] + tail["avgu"]
            found.append(("avg", tail["avg"], tail["avgu"]))
        current.add_row([label, m["ops"], f"±{m['rme']}%", m["runs"], avg], numbers(found, label))
        # (the block's recent names: a suite is short, a pathological text is not)
        end = _fastest_end(text, end, list(dict.fromkeys(r[0] for r in current.rows[-50:])))
        current.span = (current.span[0], end)
        prev_end = end
    return tables
