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
- single coverage lines: `Line Coverage: 73.5% (1230/1672)`, `line coverage 46.15%`.

Returns ResultTables without measurements; the registry removes their spans.
"""

from __future__ import annotations

import re

from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="coverage-report",
    description="code coverage reports (percentages of lines, not performance)",
    signature="`# [Codecov](...) Report` + `Coverage Diff`; `Coverage increased (+0.02%) to "
    "65.4%`; `# FE Regression Coverage Report` / `Increment line coverage 46.15% (18/39)`",
    priority=5,
    kind="noise",
    trigger=r"(?-i:[vV])(?<=cov)(?:(?<=codecov)"
    r"|erage(?: report| increased| decreased| remained|[ \t:`]*[\d.]))",
    lower_needles=("cov",),
)

# (the heading marks are taken from the first `#` of a run only, and possessively:
# `(?:#+[ \t]*)?` retried at every `#` of a long run took quadratic time)
_HEADER = re.compile(
    r"(?:(?<!#)#++[ \t]*+)?(?:\[Codecov\]\([^)\n]*\)[ \t]*Report|Codecov Report"
    r"|(?:(?:FE|BE|Cloud)[ \t]+)?(?:(?:Regression|UT|Unit Test)[ \t]+)?Coverage Report)"
)
# lines that belong to a Codecov/Doris coverage comment
_BODY_LINE = re.compile(
    r"""^[ \t]*(?:$|>|\||```|\[!\[|@@|\#\#|[+\-=]|:|\*\ |Δ|<|Files\b|Lines\b|Branches\b|Hits\b
        |Misses\b|Partials\b|Coverage\b|Flag\b|Impacted\b|Additional\b|\[Continue|\[Complete
        |\[Increment|\[Impacted|\[Full|Increment\ |Powered\ by|Last\ update|Read\ the|\.\.\.
        |Attention:|Patch\ coverage|Project\ coverage|All\ modified|Report\ is\ \d)""",
    re.X,
)
_LINE = re.compile(
    r"""Coverage\ (?:increased|decreased|remained\ the\ same)\ \([-+]?[\d.]+%\)\ (?:to|at)\ [\d.]+%
        [^\n]*
      |(?:Increment\ )?(?:line|branch|function|region|statement|instruction|method|class)\ coverage
        [ \t:`]*[\d.]+%(?:[ \t]*\(\d+/\d+\))?`?""",
    re.X | re.I,
)
_REPORT_TOKEN = re.compile(
    r"\]\([^)\s]*\)\)?|\||```|Coverage Report|[\d.]+%(?:\s*\(\d+/\d+\))?`?(?:\s*:tada:)?"
    r"|Powered by|Δ|@@[^@]*@@"
)
_GIT_FOOTER = re.compile(r"-{20,}\s*This is an automated message")


def _line_end(text: str, pos: int) -> int:
    end = text.find("\n", pos)
    return len(text) if end < 0 else end


def _comment_block(text: str, start: int) -> tuple[int, int]:
    end = _line_end(text, start)
    if end - start > 400:  # flattened onto one line: up to the last report-like token
        footer = _GIT_FOOTER.search(text, start, end)
        stop, last = (footer.start() if footer else end), start
        for tok in _REPORT_TOKEN.finditer(text, start, stop):
            if tok.start() - last > 200:
                break
            last = tok.end()
        return start, last
    pos, in_fence = end + 1, False
    while pos < len(text):
        le = _line_end(text, pos)
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


def _spans(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for m in _HEADER.finditer(text):
        if any(a <= m.start() < b for a, b in spans):
            continue
        rest = text[m.end() : m.end() + 600]
        if not re.search(r"coverage|Coverage Diff|%", rest, re.I) and "Codecov" not in m.group(0):
            continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        start = m.start() if text[line_start : m.start()].strip() else line_start
        spans.append(_comment_block(text, start))
    for m in _LINE.finditer(text):
        if not any(a <= m.start() < b for a, b in spans):
            spans.append(m.span())
    return sorted(spans)


def parse(text: str) -> list[ResultTable]:
    return [ResultTable(format=INFO.name, span=s) for s in _spans(text)]
