"""Noise: transcripts of interactive sessions - R's, Python's, IPython's, MATLAB's and
Octave's, Scala's and Julia's - that show what code does.

A pull request that adds a function shows it at work: the code typed at the prompt and
what the language printed back, a data frame, a `duration` array, a list of dates.
Their numbers are the example's data (`#> 1 2007. 2007-05-23 08:18:30`, `0.15 sec`),
not measurements, and a printed data frame's columns read like a results table.

- R: the output lines of a knitr or reprex rendering start with `#>` (reprex's default
  `comment`, its documentation's "reprex output"), under the code that printed them;
- the prompts of a session pasted into a code block: Python's `>>> ` (and `... `, the
  doctest format of the standard library's `doctest`), IPython's `In [4]: ` and
  `Out[4]: `, MATLAB's `>> `, Octave's `octave:1> `, Scala's `scala> `, Julia's
  `julia> `.

A code block (```` ``` ````, `~~~`, JIRA's `{code}` and `{noformat}`, as
`extract.mail.clean.code_blocks` pairs their fences) that holds such a prompt or output
line is claimed whole, its code with its output; outside a code
block, a run of `#>` lines, and an IPython session from its first `In [n]:` or
`Out[n]:` line to the blank line after its last cell. (`>>` and `>>>` start quoted
mail too: outside a code block they are left to the readers.)

A session that times or measures something is a report's, and is left to the readers:
one that calls a timer or a benchmark (`%timeit`, `bench::mark`, `microbenchmark`,
`system.time`, `tic`/`toc`, `@btime`, ...), or prints what timers print (`per loop`,
`Elapsed time is`, `itr/sec`, `user  system elapsed`), or speaks of speed (`took`,
`elapsed`, `latency`, `throughput`, `benchmark`, `faster`).

Returns ResultTables without measurements; the registry removes their spans.

Not declared as rows: a noise recogniser: it claims the sessions, and gives no
measurements.
"""

from __future__ import annotations

import re

from extract.mail.clean import code_blocks
from extract.results.formats._layout import line_starts
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="repl-transcript",
    description="interactive sessions (R, Python, IPython, MATLAB, Octave, Scala, Julia) that "
    "show code at work (the example's data, not results)",
    signature="`#> # A tibble: 6 × 4` under R code; `>>> pa.array([1, 2])` and what it "
    "printed, in a code block; `In [4]: ...` / `Out[4]: ...`",
    priority=6,
    kind="noise",
    trigger=r"(?-i:#>[ \n]|In \[\d+\]: |Out\[\d+\]: |>> |octave:\d+> |scala> |julia> )",
    needles=("#>", "In [", "Out[", ">> ", "octave:", "scala> ", "julia> "),
)

# What starts a session's line: knitr's and reprex's output mark, an IPython cell's
# prompt, and the other languages' prompts (`>>` and `>>>` among them, which inside a
# code block are no quotation).
_R_MARK = r"#>(?: |$)"
_CELL_MARK = r"(?:In |Out)\[\d+\]: "
_PROMPT_MARK = r">>>? |octave:\d+> |scala> |julia> "
_R_OUTPUT = re.compile(rf"[ \t]*+{_R_MARK}")
_CELL = re.compile(rf"[ \t]*+{_CELL_MARK}")
# A line that starts outside a code block what is a session's beyond doubt: reprex's
# output, an IPython cell.
_OPEN_LINE = re.compile(rf"[ \t]*+(?:{_R_MARK}|{_CELL_MARK})")
_SESSION_LINE = re.compile(rf"[ \t]*+(?:{_R_MARK}|{_CELL_MARK}|{_PROMPT_MARK})")
# What a session that times or measures calls, prints or says (case-insensitive).
_TIMING = re.compile(
    r"timeit|%%?time\b|%%?prun|bench::|\bbench_|microbenchmark|system\.time|proc\.time"
    r"|sys\.time|\btic\b|\btoc\b|@b?time\b|@benchmark|perf_counter|time\.time\(|time\.monotonic"
    r"|per loop|elapsed|itr/sec|took|latency|throughput|benchmark|faster|slower|speed"
    r"|\bmemit\b|peak memory|spark\.time|time taken|total time|wall time|nanotime"
    r"|currenttimemillis|time\.\w+\(|process_time|%l?prun|cputime",
    re.I,
)


def parse(text: str) -> list[ResultTable]:
    lines = text.split("\n")
    starts = line_starts(lines)
    spans: list[tuple[int, int]] = []

    def claim(first: int, last: int) -> None:
        span = (starts[first], starts[last] + len(lines[last]))
        if not _TIMING.search(text, *span):
            spans.append(span)

    blocks = dict(code_blocks(lines))  # (opening line -> closing line)
    k = 0
    while k < len(lines):
        line = lines[k]
        if k in blocks:
            # (a code block: claimed whole when a line of it is a session's)
            end = blocks[k]
            if any(_SESSION_LINE.match(lines[j]) for j in range(k + 1, end)):
                claim(k, end)
            k = end + 1
            continue
        if _OPEN_LINE.match(line):
            r_output = _R_OUTPUT.match(line) is not None
            last = k
            while last + 1 < len(lines) and last + 1 not in blocks:
                nxt = lines[last + 1]
                if r_output:
                    if not _R_OUTPUT.match(nxt):
                        break  # (reprex's output runs while its lines are marked)
                elif not nxt.strip():
                    # (an IPython cell ends at a blank line; its session goes on with
                    # the next cell, after the blank lines IPython prints between them)
                    cell = last + 2
                    while cell < len(lines) and not lines[cell].strip():
                        cell += 1
                    if cell == len(lines) or not _CELL.match(lines[cell]):
                        break
                    last = cell
                    continue
                last += 1
            claim(k, last)
            k = last + 1
            continue
        k += 1
    return [ResultTable(INFO.name, span) for span in spans]
