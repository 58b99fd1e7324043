"""Noise: Bazel's console output - a failed build, or a test run's results.

A pull request or a bug report pastes a Bazel run to show that a build fails (on a
platform, with a compiler) or which tests pass; its numbers are the run's bookkeeping:
its wall time and critical path (`INFO: Elapsed time: 13.649s, Critical Path: 2.07s`),
counts of packages, targets, actions and processes, each test's time (`//src:foo_test
PASSED in 0.4s`).

Bazel's UI (its documentation's "Build output" and the `bazel test` summary) prints
its events as `INFO: `, `WARNING: `, `ERROR: ` and `DEBUG: ` lines, `Target //pkg:name
failed to build` or `up-to-date:` with the outputs under it, `Use --verbose_failures to
see the command lines of failed build steps.`, at the end `INFO: Build completed
successfully, 5 total actions` or `ERROR: Build did NOT complete successfully`
(`FAILED: ...` in older releases), and for tests a line per target (`//src:foo_test
PASSED in 0.4s`; `FAILED`, `FLAKY`, `TIMEOUT`, `NO STATUS`, `(cached) PASSED`) and
`Executed 1 out of 1 test: 1 test passes.`

A run of those lines (blank lines between them, and the lines a failed action printed
right under its `ERROR:`, up to a blank line or a fence, included) is claimed when it
holds a failure or a test's result. A successful build's run is left to the readers:
people paste `Elapsed time` to say how long their build takes, before and after a
change.

Returns ResultTables without measurements; the registry removes their spans.

Not declared as rows: a noise recogniser: it claims Bazel's lines, and gives no
measurements.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import line_starts
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="bazel-log",
    description="Bazel's output of a failed build or a test run (its bookkeeping, not results)",
    signature="`ERROR: Build did NOT complete successfully` under `INFO: Elapsed time: 13.6s, "
    "Critical Path: 2.1s`; `//src:foo_test  PASSED in 0.4s`",
    priority=5,
    kind="noise",
    trigger=r"(?-i:Build did NOT complete successfully|failed to build|Executed \d+ out of \d+ test"
    r"|(?:PASSED|FAILED|FLAKY|TIMEOUT) in \d)",
    needles=(
        "Build did NOT complete successfully",
        "failed to build",
        "Executed ",
        "PASSED in ",
        "FAILED in ",
        "FLAKY in ",
        "TIMEOUT in ",
    ),
)

# A line of Bazel's: an event, a target's line, a test's result, the closing counts.
_LINE = re.compile(
    r"[ \t]*+(?:(?:INFO|WARNING|ERROR|DEBUG|FAILED): [^\n]*"
    r"|Target //[^\n]*|Use --verbose_failures[^\n]*|bazel-(?:bin|out|testlogs)/[^\n]*"
    r"|//[\w/.+-]*:[\w/.+-]+[ \t]+(?:\(cached\) )?(?:PASSED|FAILED|FLAKY|TIMEOUT|NO STATUS)"
    r"[^\n]*"
    r"|Executed \d+ out of \d+ tests?[^\n]*|There were tests whose specified size[^\n]*)"
)
# What makes a run a failure's or a test run's (searched in the run's lines).
_MARK = re.compile(
    r"Build did NOT complete successfully|failed to build|Executed \d+ out of \d+ tests?"
    r"|(?<!\S)//\S++[ \t]+(?:\(cached\) )?(?:PASSED|FAILED|FLAKY|TIMEOUT) in \d"
)
# An event that says an action failed: the lines right under it, up to the next of
# Bazel's, are what the action printed (a compiler's messages), and the run goes on
# through them; a blank line or a code fence ends what it printed.
_FAILED_ACTION = re.compile(r"[ \t]*+ERROR: [^\n]*failed")
_REACH = 60  # (lines an action's output may run under its `ERROR:`)
_FENCE = re.compile(r"[ \t]*(?:```|~~~|\{code|\{noformat)")


def parse(text: str) -> list[ResultTable]:
    lines = text.split("\n")
    starts = line_starts(lines)
    out: list[ResultTable] = []
    first = last = None
    k = 0
    while k <= len(lines):
        line = lines[k] if k < len(lines) else None
        if line is not None and _LINE.fullmatch(line):
            if first is None:
                first = k
            last = k
            if _FAILED_ACTION.match(line):
                # (the action's own output: carried on to Bazel's next line, if near)
                nxt = k + 1
                while (
                    nxt < len(lines)
                    and nxt - k <= _REACH
                    and lines[nxt].strip()
                    and not _FENCE.match(lines[nxt])
                    and not _LINE.fullmatch(lines[nxt])
                ):
                    nxt += 1
                if nxt < len(lines) and nxt - k <= _REACH and _LINE.fullmatch(lines[nxt]):
                    k = nxt
                    continue
        elif line is None or line.strip():
            if first is not None:
                span = (starts[first], starts[last] + len(lines[last]))
                if _MARK.search(text, *span):
                    out.append(ResultTable(INFO.name, span))
            first = None
        k += 1
    return out
