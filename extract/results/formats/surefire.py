"""Noise: Maven build logs - Surefire/Failsafe test summaries and the reactor summary.

Test counts and module build times are build bookkeeping, not benchmark results.
Recognises runs of Maven log items - `[INFO]`/`[WARNING]`/`[ERROR]` lines (with or
without a leading timestamp), `Running org.x.FooTest`, `Tests run: 3, Failures: 0,
Errors: 0, Skipped: 0, Time elapsed: 2.022 s - in org.x.FooTest`, `Results :`,
`Failed tests:` / `Tests in error:`, `Reactor Summary for x 1.0:`, module lines
`name ...... SUCCESS [  2.450 s]`, `BUILD SUCCESS|FAILURE`, `Total time:`, `Finished at:`,
`Final Memory:` - also when flattened onto one line. A run is claimed when it holds
test results, a reactor summary or a build failure; a lone `BUILD SUCCESS` / `Total
time:` footer is left alone, since people quote it to report a build time.

Returns ResultTables without measurements; the registry removes their spans.

Not declared as rows: a noise recogniser: it claims runs of Maven log items that hold a
test or reactor summary, and gives no measurements.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import line_end, line_start, runs
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="maven-surefire",
    description="Maven Surefire 'Tests run:' summaries and reactor build times",
    signature="`Tests run: N, Failures: N, Errors: N, Skipped: N, Time elapsed: N s`, "
    "`[INFO] Reactor Summary`, `name .... SUCCESS [  2.450 s]`, `BUILD FAILURE`",
    priority=5,
    kind="noise",
    trigger=r"(?-i:Tests run:\s*\d+,\s*Failures|Reactor Summary|BUILD FAILURE|Time elapsed:"
    r"|Tests in error:|Failed tests:)",
    needles=(
        "Tests run:",
        "Reactor Summary",
        "BUILD FAILURE",
        "Time elapsed:",
        "Tests in error:",
        "Failed tests:",
    ),
)

_STAMP = r"(?:\d{2}:\d{2}:\d{2}(?:[,.]\d+)?\s+|\d{4}-\d{2}-\d{2}[T ][\d:.,]+Z?\s+)?"
_LEVEL = r"\[(?:INFO|WARNING|WARN|ERROR|DEBUG)\]"
_TESTS_RUN = (
    r"Tests run:\s*\d+,\s*Failures:\s*\d+,\s*Errors:\s*\d+,\s*Skipped:\s*\d+"
    r"(?:,\s*Flakes:\s*\d+)?(?:,\s*Time elapsed:\s*[\d.,]+\s*(?:s|sec)\b)?"
    r"(?:\s*<<<\s*(?:FAILURE|ERROR)!)?(?:\s*-+\s*in\s+[\w.$]+)?"
)
_SPECIFIC = (
    _TESTS_RUN,
    # one failed test: `demo.FooTest.bar -- Time elapsed: 0.034 s <<< FAILURE!` (Surefire 3),
    # `bar(demo.FooTest)  Time elapsed: 0.01 sec  <<< ERROR!` (Surefire 2)
    r"(?<![\w.$])[\w$]+(?:\.[\w$]+)*(?:\([\w.$]+\))?\s+(?:--\s+)?Time elapsed:\s*[\d.,]+\s*"
    r"(?:s|sec)\b(?:\s*<<<\s*(?:FAILURE|ERROR)!)?",
    # reactor module line, `Apache Hadoop Common ...... SUCCESS [  2.450 s]`, from a word's
    # start (not retried from each of its characters); a word ends at a blank, so it is
    # read possessively: no shorter one is tried
    r"(?<![\w.\-])[\w\-][\w.\-]{0,80}+(?: [\w\-][\w.\-]{0,80}+){0,8} \.{2,}"
    r"[ \t]*(?:SUCCESS|FAILURE|SKIPPED)(?:[ \t]*\[[ \t]*[\d:.,]+[ \t]*(?:s|min|h)?\])?",
    r"Reactor Summary(?: for [^\n:]*)?:",
    r"BUILD (?:SUCCESS|FAILURE)",
    r"Total time:\s*[\d:.,]+\s*(?:s|min|h)?(?:\s*\(Wall Clock\))?",
    r"Finished at:\s*\S+",
    r"Final Memory:\s*\S+",
    r"Running\s+(?:[a-z_]\w*\.)+[A-Z][\w$]*",
    r"Results\s*:",
    r"(?:Failed tests|Tests in error|Failures|Errors):",
    r"-{20,}",
)
_ANY_SPECIFIC = "|".join(_SPECIFIC)
# a log line: level tag + a known item or up to 200 chars of message; or a known item alone
_ITEM = re.compile(
    rf"{_STAMP}(?:{_LEVEL}[ \t]*(?:{_ANY_SPECIFIC}|[^\[\n`]{{0,200}})|(?:{_ANY_SPECIFIC}))"
)
# What makes a run of items a summary: the trigger (its `(?-i:...)` is a no-op here).
_TRIGGER = re.compile(INFO.trigger)
# A log item's tag, and a known item after it: how far a flattened item is claimed.
_TAG = re.compile(rf"{_STAMP}{_LEVEL}[ \t]*")
_KNOWN = re.compile(_ANY_SPECIFIC)


def parse(text: str) -> list[ResultTable]:
    if not _TRIGGER.search(text):
        return []
    items = (m for m in _ITEM.finditer(text) if m.end() > m.start())
    return [
        ResultTable(INFO.name, (run[0].start(), _item_end(text, run[-1])))
        for run in runs(items, text)
        if any(_TRIGGER.search(m.group(0)) for m in run)
    ]


def _item_end(text: str, item: re.Match) -> int:
    """End of the last item of a run. On a flattened line a generic `[INFO] message`
    has no visible end, so only its tag (and a known item after it) is claimed."""
    if line_end(text, item.start()) - line_start(text, item.start()) <= 400:
        return item.end()
    tag = _TAG.match(text, item.start())
    if not tag:
        return item.end()
    known = _KNOWN.match(text, tag.end())
    return known.end() if known else tag.end()
