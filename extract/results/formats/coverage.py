"""Noise: code-coverage reports (percentages of lines covered, not performance).

Recognises:
- Codecov PR comments: from `# [Codecov](...) Report` / `## [Codecov](...) Report` /
  `Codecov Report` over the `Coverage Diff` block, the `Impacted Files | Coverage Δ`
  table and the legend/footer lines (`Δ = absolute <relative>`, `Powered by Codecov`,
  `Continue to review full report`), also when flattened onto one line;
- Coveralls lines: `Coverage increased (+0.02%) to 65.432% when pulling ...`;
- Doris CI coverage comments: `# FE Regression Coverage Report`, `# BE UT Coverage
  Report`, `Increment line coverage `46.15% (18/39)``, `[Complete coverage report](...)`
  and its `| Category | Coverage |` table;
- single coverage lines: `Line Coverage: 73.5% (1230/1672)`, `line coverage 46.15%`;
- coverage.py's `coverage report` (and pytest-cov's terminal report under its
  `--- coverage: platform linux, python 3.11 ---` banner): `Name  Stmts  Miss
  [Branch  BrPart]  Cover  [Missing]`, a rule, one row per file, `TOTAL`; also its
  `--format=markdown` table `| Name | Stmts | Miss | Cover |` ending `| **TOTAL** |`.

Returns ResultTables without measurements; the registry removes their spans.

Not declared as rows: a noise recogniser: it claims coverage reports in each tool's
layout (coverage.py's table, Codecov's diff, Coveralls' sentence), and gives no
measurements.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import GIT_FOOTER, NUM, last, line_end, line_start, within
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="coverage-report",
    description="code coverage reports (percentages of lines, not performance)",
    signature="`# [Codecov](...) Report` + `Coverage Diff`; `Coverage increased (+0.02%) to "
    "65.4%`; `# FE Regression Coverage Report` / `Increment line coverage 46.15% (18/39)`",
    priority=5,
    kind="noise",
    trigger=r"(?-i:[vV])(?<=cov)(?:(?<=codecov)"
    r"|erage(?: report| increased| decreased| remained|[ \t:`]*[\d.]))"
    r"|(?-i:Stmts[ \t|]+Miss)",
    trigger_parts=(
        (
            r"(?-i:[vV])(?<=cov)(?:(?<=codecov)"
            r"|erage(?: report| increased| decreased| remained|[ \t:`]*[\d.]))",
            (),
            ("cov",),
        ),
        (r"(?-i:Stmts[ \t|]+Miss)", ("Stmts",), ()),
    ),
)

# coverage.py's report: the header, its rows and the TOTAL row, plain or markdown
# (read as a stream of cells, so a flattened or wrapped report reads the same)
# (the banner and the footer start at the first of a run of dashes; they are searched in a
# slice, so that the first dash of the slice is the first of its run, as before)
_COVPY_BANNER = re.compile(r"(?<![-_])[-_]{3,}+[ \t]*coverage: platform[^\n]*?[-_]{3,}\s*")
_COVPY_HEADER = re.compile(
    r"(?P<md>\|[ \t]*)?Name[ \t|]+Stmts[ \t|]+Miss(?:[ \t|]+Branch[ \t|]+BrPart)?"
    r"(?:[ \t|]+Excluded)?[ \t|]+Cover(?:[ \t|]+Missing)?[ \t]*\|?"
)
_B = r"(?:\*\*)?"  # markdown bold, around the TOTAL row's cells
_LINES = r"\d+(?:-\d+|->(?:-?\d+|exit))?"  # a Missing entry: `6-8`, `12`, `3->5`
_COVPY_CELL = re.compile(
    r"\s*(?:[-|: ]{3,}(?=\s)"  # a rule
    rf"|\|?[ \t]*{_B}(?:TOTAL|[\w./\\-]+\.\w+){_B}[ \t]*\|?"  # the file
    rf"(?:\s*\|?[ \t]*{_B}\d+{_B}[ \t]*){{2,5}}"  # Stmts, Miss[, Branch, BrPart]
    rf"\|?\s*\|?[ \t]*{_B}{NUM}%{_B}[ \t]*\|?"  # Cover
    rf"(?:[ \t]*{_LINES}(?:,[ \t]*{_LINES})*)?)"  # Missing
)
_COVPY_TAIL = re.compile(r"\s*(?:-{5,}\s*)?(?:\d+ files? skipped due to complete coverage\.)?")

# (the heading marks are taken from the first `#` of a run only, and possessively:
# `(?:#+[ \t]*)?` retried at every `#` of a long run took quadratic time; a link's
# target stops at a `[`, so that one is not read again from every `[Codecov](` of a line)
_HEADER = re.compile(
    r"(?:(?<!#)#++[ \t]*+)?(?:\[Codecov\]\([^)\n\[]*\)[ \t]*Report|Codecov Report"
    r"|(?:(?:FE|BE|Cloud)[ \t]+)?(?:(?:Regression|UT|Unit Test)[ \t]+)?Coverage Report)"
)
# lines that belong to a Codecov/Doris coverage comment
_BODY_LINE = re.compile(
    r"""^[ \t]*(?:$|>|\||```|\[!\[|@@|\#\#|[+\-=]|:|\*\ |Δ|<|Files\b|Lines\b|Branches\b|Hits\b
        |Misses\b|Partials\b|Coverage\b|Flag\b|Impacted\b|Additional\b|\[Continue|\[Complete
        |\[Increment|\[Impacted|\[Full|Increment\ |Powered\ by|Last\ update|Read\ the|\.\.\.
        |Attention:|Patch\ coverage|Project\ coverage|All\ modified|Report\ is\ \d
        |[\w\ ]{0,40}\]\()  # (the last: the tail of a link a gateway wrapped)""",
    re.X,
)
_LINE = re.compile(
    rf"""Coverage\ (?:increased|decreased|remained\ the\ same)\ \([-+]?{NUM}%\)\ (?:to|at)\ {NUM}%
        (?:\s+when\ pulling\ \S+\ on\ \S+\ into\ \S+\ on\ \S+?(?=\.?(?:\s|$))\.?)?
      |(?:Increment\ )?(?:line|branch|function|region|statement|instruction|method|class)\ coverage
        [ \t:`]*{NUM}%(?:[ \t]*\(\d+/\d+\))?`?""",
    re.X | re.I,
)
# (a number from its first digit, a link's target up to a `]`: neither is read again
# from each of its characters)
_REPORT_TOKEN = re.compile(
    rf"\]\([^)\s\]]*\)\)?|\||```|Coverage Report|(?<![\d.]){NUM}%(?:\s*\(\d+/\d+\))?`?"
    r"(?:\s*:tada:)?"
    r"|Powered by|Δ|@@[^@]*@@"
)


def _comment_block(text: str, start: int) -> tuple[int, int]:
    end = line_end(text, start)
    if end - start > 400:  # flattened onto one line: up to the last report-like token
        footer = GIT_FOOTER.search(text[start:end])
        stop, reach = (start + footer.start() if footer else end), start
        for tok in _REPORT_TOKEN.finditer(text, start, stop):
            if tok.start() - reach > 200:
                break
            reach = tok.end()
        return start, reach
    pos, in_fence = end + 1, False
    while pos < len(text):
        le = line_end(text, pos)
        line = text[pos:le]
        if line.strip().startswith("```"):
            in_fence = not in_fence
            end = le
        elif in_fence or _BODY_LINE.match(line) or _LINE.search(line):
            if line.strip():
                end = le
        else:
            break
        pos = le + 1
    return start, end


def _coverage_py(text: str) -> list[tuple[int, int]]:
    spans = []
    for h in _COVPY_HEADER.finditer(text):
        start = h.start()
        window = max(0, start - 200)
        banner = last(_COVPY_BANNER, text[window:start], 0, start - window)
        if banner and window + banner.end() == start:
            start = window + banner.start()
        pos, rows = h.end(), 0
        while (cell := _COVPY_CELL.match(text, pos)) is not None and cell.end() > pos:
            pos = cell.end()
            rows += "%" in cell.group(0)
        if rows:
            tail = _COVPY_TAIL.match(text, pos)
            if tail and tail.group(0).strip():
                pos = tail.end()
            spans.append((start, pos))
    return spans


def parse(text: str) -> list[ResultTable]:
    spans: list[tuple[int, int]] = _coverage_py(text)
    for m in _HEADER.finditer(text):
        if within(m.start(), spans):
            continue
        rest = text[m.end() : m.end() + 600]
        if not re.search(r"coverage|Coverage Diff|%", rest, re.I) and "Codecov" not in m.group(0):
            continue
        start = line_start(text, m.start())
        start = m.start() if text[start : m.start()].strip() else start
        spans.append(_comment_block(text, start))
    for m in _LINE.finditer(text):
        if not within(m.start(), spans):
            spans.append(m.span())
    return [ResultTable(INFO.name, s) for s in sorted(spans)]
