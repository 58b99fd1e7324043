"""Noise: googletest's console output - a C++ test binary's run.

A pull request or a bug report pastes a test run to show a failure, a warning, or that
the tests pass; its numbers are test counts and each test's duration (`[       OK ]
TestBinary.TestSimple (41 ms)`), bookkeeping as Maven's `Tests run:` is, not a
benchmark.

googletest's printer (`PrettyUnitTestResultPrinter` in googletest/src/gtest.cc) starts
each of its lines with a tag in brackets: `[==========] Running 3 tests from 1 test
suite.`, `[----------] 3 tests from FooTest (12 ms total)`, `[ RUN      ] FooTest.Bar`,
`[       OK ] FooTest.Bar (0 ms)`, `[  FAILED  ]`, `[  SKIPPED ]`, `[ DISABLED ]`,
`[  PASSED  ] 2 tests.`, and ends with ` 1 FAILED TEST` and `  YOU HAVE 1 DISABLED
TEST`; `Running main() from gtest_main.cc` comes before.

A run of those lines (blank lines between them included) is claimed; what a test
prints between them, its own log, is left to the readers: a performance test may log
what it measured. A test's own duration (`[       OK ] X (48213 ms)`) is never taken,
even when someone compares it before and after a fix: it times the test, setup and
checks included, and the printer's lines are claimed whole.

Returns ResultTables without measurements; the registry removes their spans.

Not declared as rows: a noise recogniser: it claims the printer's lines, and gives no
measurements.
"""

from __future__ import annotations

import re

from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="googletest",
    description="googletest's console output (test counts and durations, not results)",
    signature="`[ RUN      ] FooTest.Bar` / `[       OK ] FooTest.Bar (41 ms)` / "
    "`[==========] 3 tests from 1 test suite ran. (12 ms total)`",
    priority=5,
    kind="noise",
    trigger=r"(?-i:\[ RUN      \]|\[       OK \]|\[  FAILED  \]|\[==========\] )",
    needles=("[ RUN      ]", "[       OK ]", "[  FAILED  ]", "[==========] "),
)

# A line of googletest's printer: its tag, or its closing counts; `Running main()`.
_LINE = re.compile(
    r"[ \t]*+(?:\[(?:==========|----------| RUN      |       OK |  FAILED  |  SKIPPED "
    r"| DISABLED |  PASSED  )\][^\n]*"
    r"|\d+ FAILED TESTS?[ \t]*|YOU HAVE \d+ DISABLED TESTS?[ \t]*"
    r"|Running main\(\) from [^\n]*)"
)


def parse(text: str) -> list[ResultTable]:
    out: list[ResultTable] = []
    start = end = None  # (the run's first line's start, its last line's end)
    pos = 0
    n = len(text)
    while pos <= n:
        eol = text.find("\n", pos)
        eol = n if eol < 0 else eol
        if _LINE.fullmatch(text, pos, eol):
            if start is None:
                start = pos
            end = eol
        elif text[pos:eol].strip() and start is not None:
            # (a line of the test's own: the run ends; blank lines carry it on)
            out.append(ResultTable(INFO.name, (start, end)))
            start = None
        pos = eol + 1
    if start is not None:
        out.append(ResultTable(INFO.name, (start, end)))
    return out
