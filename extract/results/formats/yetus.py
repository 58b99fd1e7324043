"""Noise: Apache Yetus / Hadoop QA precommit reports and CI bot build notices.

Build-step runtimes, versions and counts in these reports are CI bookkeeping, not
benchmark results. Recognised blocks (each claimed exactly, so that a benchmark
elsewhere in the same message is still found):
- GitHub markdown: `:confetti_ball: **+1 overall**` / `:broken_heart: **-1 overall**`,
  the `| Vote | Subsystem | Runtime | [Logfile |] Comment |` table, the `| Reason |
  Tests |` and `| Subsystem | Report/Notes |` tables and the `This message was
  automatically generated.` footer; also when flattened onto one line.
- JIRA wiki markup: `| (x) *{color:red}-1 overall{color}* |`, `|| Vote || Subsystem ||
  Runtime || Comment ||`, `{color:green}+1{color}` rows (hard-wrapped rows included).
- old plain-text Hadoop QA: `-1 overall.  Here are the results of testing the latest
  attachment` ... `+1 @author. ...` ... `This message is automatically generated.`
- Jenkins / SparkQA notices: `Test build #50697 has finished for PR ...` with its
  `* This patch ...` lines, `Test FAILed (JDK 8 and Scala 2.11).`, `Refer to this link
  for build results ...: <url>`.

Returns ResultTables without measurements; the registry removes their spans.

Not declared as rows: a noise recogniser: it finds the extent of a report (the overall
line, the vote table in GitHub, JIRA or plain markup, the footer) to claim it, and gives
no measurements.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import GIT_FOOTER, line_end, line_start, within
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="yetus-qa-report",
    description="Apache Yetus / Hadoop QA precommit vote tables (build step runtimes, "
    "not benchmarks)",
    signature="`:confetti_ball: **+1 overall**` / `:broken_heart: **-1 overall**` + "
    "`| Vote | Subsystem | Runtime |`; JIRA `|| Vote || Subsystem || Runtime ||` with "
    "`{color:green}+1 overall{color}`; `-1 overall.  Here are the results of testing`",
    priority=5,
    kind="noise",
    trigger=r"(?-i:\+[01][ \t]+overall|-[01][ \t]+overall|Subsystem|Test (?:build #|PASSed|FAILed)"
    r"|Refer to this link for build results|Build (?:finished|triggered|started)\."
    r"|build (?:finished|triggered|started)\.)",
    needles=(
        "overall",
        "Subsystem",
        "Test build #",
        "Test PASSed",
        "Test FAILed",
        "Refer to this link for build results",
        "uild finished.",
        "uild triggered.",
        "uild started.",
    ),
)

# the core of the vote line; its prefix (`:confetti_ball: **`, `| (x) *`) is found by
# _OVERALL_PREFIX in a short window before it (keeps the scan linear on long blank runs)
_OVERALL = re.compile(
    r"(?:\{color:\w+\})?[+-][01][ \t]+overall(?:\{color\})?\**(?:[ \t]*\|(?=[ \t]*(?:\n|$)))?"
)
_OVERALL_PREFIX = re.compile(
    r"(?:\|[ \t]*)?(?:(?::confetti_ball:|:broken_heart:|\(x\)|\(/\))[ \t]*)?\**[ \t]*$"
)
_VOTE_HEADER = re.compile(r"\|\|?\s*Vote\s*\|\|?\s*Subsystem\s*\|\|?\s*Runtime\s*\|")
_FOOTER = re.compile(r"This message (?:was|is) automatically generated\.")
_JIRA_REST = re.compile(r"^[ \t]*\{color:\w*\}|^[^\n]*\|[ \t]*$")
_TABLE_LINE = re.compile(r"^[ \t]*(?:\||\\\\[ \t]*$)")
_PLAIN_ITEM = re.compile(
    r"^[ \t]*(?:\{color:\w+\})?[+-][01](?:\{color\})?[ \t]+[\w@ .-]+?(?:\{color\})?\.[ \t]"
)
_PLAIN_LINK = re.compile(r"^[ \t]*[A-Z][\w ]+(?:results|warnings|output|report)s?:[ \t]*https?://")
# (the bold marks are read from the first `*` of a run, not again from each)
_CI_NOTICE = re.compile(
    r"""(?<!\*)\**\[?Test\ build\ \#\d+\ (?:has\ (?:started|finished)|timed\ out)[^\n]*
        (?:\s*\*\ This\ patch\ [^\n]*)*
      |Refer\ to\ this\ link\ for\ build\ results[^\n]*(?:\s*https?://\S+)?
      |Test\ (?:PASS|FAIL)ed\b[^\n]*
      |(?:Merged\ )?[Bb]uild\ (?:finished|triggered|started)\.[^\n]*""",
    re.X,
)


def _flattened_block(text: str, start: int) -> tuple[int, int]:
    """A report flattened onto one line: up to the footer, else to the last `|`."""
    end = line_end(text, start)
    footer = _FOOTER.search(text, start, end)
    if footer:
        return start, footer.end()
    git_footer = GIT_FOOTER.search(text[start:end])
    stop = start + git_footer.start() if git_footer else end
    last_bar = text.rfind("|", start, stop)
    return start, (last_bar + 1 if last_bar > start else stop)


def _table_block(text: str, start: int) -> tuple[int, int]:
    """From `start`, over table lines (JIRA-wrapped rows too), blank lines and the footer."""
    end = line_end(text, start)
    pos = end + 1
    open_row = not text[start:end].rstrip().endswith("|")
    while pos < len(text):  # (from a line's start)
        le = line_end(text, pos)
        line = text[pos:le]
        if _TABLE_LINE.match(line) or _FOOTER.search(line):
            end = le
            open_row = line.lstrip().startswith("|") and not line.rstrip().endswith("|")
        elif line.strip() and (open_row or _JIRA_REST.match(line)):
            # a JIRA row hard-wrapped at 72-80 columns (also just after a cell's `|`)
            end = le
            open_row = not line.rstrip().endswith("|")
        elif line.strip():
            break
        pos = le + 1
    return start, end


def _plain_block(text: str, start: int) -> tuple[int, int]:
    """Old plain-text Hadoop QA: up to `This message is automatically generated.`."""
    footer = _FOOTER.search(text, start, start + 6000)
    if footer:
        return start, footer.end()
    end = line_end(text, start)
    pos = end + 1
    while pos < len(text):
        le = line_end(text, pos)
        line = text[pos:le]
        if _PLAIN_ITEM.match(line) or _PLAIN_LINK.match(line):
            end = le
        elif line.strip() and not line.startswith((" ", "\t")):
            break
        pos = le + 1
    return start, end


def parse(text: str) -> list[ResultTable]:
    spans: list[tuple[int, int]] = []
    for m in _OVERALL.finditer(text):
        if within(m.start(), spans):
            continue
        ls, le = line_start(text, m.start()), line_end(text, m.start())
        rest = text[m.end() : m.end() + 400]
        window = max(ls, m.start() - 40)
        prefix = _OVERALL_PREFIX.search(text, window, m.start())
        start = prefix.start() if prefix else m.start()
        start = start if text[ls:start].strip() else ls
        if le - ls > 400 and _VOTE_HEADER.search(rest):
            spans.append(_flattened_block(text, start))
        elif _VOTE_HEADER.search(text, m.end(), min(len(text), m.end() + 300)):
            spans.append(_table_block(text, start))
        elif re.match(r"\.?\s+Here are the results of testing", text[m.end() :]):
            spans.append(_plain_block(text, start))
    subsystems = re.finditer(r"\|\|?\s*Subsystem\s*\|\|?\s*Report/Notes\s*\|", text)
    for m in [*_VOTE_HEADER.finditer(text), *subsystems]:
        if not within(m.start(), spans):
            ls = line_start(text, m.start())
            spans.append(_table_block(text, m.start() if text[ls : m.start()].strip() else ls))
    for m in _CI_NOTICE.finditer(text):
        if not within(m.start(), spans):
            spans.append(m.span())
    return [ResultTable(INFO.name, s) for s in sorted(spans)]
