"""Noise: diffstats, the per-file change counts of commit mails and patches.

`git diff --stat` / `git show --stat` / `git format-patch` (and `hg diff --stat`, the
`diffstat` program) write one line per file and a summary, as git's diff.c does:

     content/about.html                  |   2 +-
     src/{old => new}/Main.java          |  10 ++++------
     .../very/long/path/Name.java        | 120 +++++++++++++++++++++
     content/images/devme.png            | Bin 19584 -> 20321 bytes
     3 files changed, 18 insertions(+), 18 deletions(-)

(the summary leaves out a count that is zero; git before 1.7.10 always gave both;
`--compact-summary` adds `(new)`, `(gone)`, `(mode +x)` after the name). Commit lists
carry one in most mails; its counts are bookkeeping, and without this recogniser the
generic table readers spend the most time of any ordinary mail reading it as a table.
A run of file lines that ends at a summary is claimed (also flattened onto one line,
as GitBox sends it), and a summary on its own (`--shortstat`).

Returns ResultTables without measurements; the registry removes their spans.

Not declared as rows: a noise recogniser: it claims the file lines of a diffstat near
their summary line, and gives no measurements.
"""

from __future__ import annotations

import re

from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="diffstat",
    description="git/hg diffstats in commit mails (lines changed per file, not performance)",
    signature="`path/to/File.java | 12 +++++-----` lines and "
    "`3 files changed, 18 insertions(+), 18 deletions(-)`",
    priority=5,
    kind="noise",
    trigger=r"(?-i:\d files? changed)",
    needles=("file changed", "files changed"),
)

# (the number's start is checked by hand, see `_summaries`; and from its first digit
# only, so that a run of digits is not read again from each)
_SUMMARY = re.compile(
    r"(?<!\d)\d+ files? changed(?:, \d+ insertions?\(\+\))?(?:, \d+ deletions?\(-\))?"
)
# One file's line: its name (no blank, or a `{old => new}` rename), `(new)`-style notes
# of --compact-summary, the bar, and the count with its +/- graph or a binary's sizes.
_NAME = r"[^\s|]+(?: => [^\s|]+)?(?: \((?:new|gone|mode [+-]x|new \+x|new -x)\))?"
_COUNT = r"(?:\d+(?:[ \t]+[+-]+)?|Bin(?: \d+ -> \d+ bytes)?|Unmerged)"
_FILE_LINE = re.compile(rf"[ \t]*{_NAME}[ \t]+\|[ \t]+{_COUNT}[ \t]*\r?")
# the same run together on one line (flattened): only searched in the line of a
# summary, before it
_FILE = re.compile(rf"(?<![^\s])({_NAME})[ \t]+\|[ \t]+{_COUNT}(?![^\s])")
# how far before a summary its file lines are looked for (a few hundred files)
_REACH = 40_000


def parse(text: str) -> list[ResultTable]:
    spans: list[tuple[int, int]] = []
    floor = 0  # (file lines are not looked for inside the previous diffstat)
    for summary in _summaries(text):
        start = summary.start()
        if start and (text[start - 1].isalnum() or text[start - 1] in "._"):
            continue  # (`x5 files changed`, `1.5 files changed`: no count of its own)
        reach = max(floor, start - _REACH)
        line_start = max(reach, text.rfind("\n", 0, start) + 1)
        if text[line_start:start].strip():
            # file lines run together before it on its line, only blanks between them
            for item in reversed(list(_FILE.finditer(text, line_start, start))):
                if text[item.end() : start].strip():
                    break
                start = item.start()
        if not text[line_start:start].strip():
            start = _lines_above(text, line_start, reach, start)
        spans.append((start, summary.end()))
        floor = summary.end()
    return [ResultTable(INFO.name, s) for s in spans]


def _summaries(text: str):
    """`_SUMMARY.finditer(text)`, from the places of ` changed` (a search for the
    pattern itself tries every digit of the text)."""
    pos = 0
    while (k := text.find(" changed", pos)) >= 0:
        # (the count and `files` before it: at most 20 digits, a blank, `files`)
        m = _SUMMARY.search(text, max(pos, k - 26), k + 80)
        if m is not None and m.start() <= k < m.end():
            yield m
            pos = m.end()
        else:
            pos = k + 1


def _lines_above(text: str, line_start: int, reach: int, start: int) -> int:
    """Where the run of file lines above the line at `line_start` begins (blank lines
    may come between them): `start` when there is none."""
    end = line_start - 1  # (the line break before it)
    while end > reach:
        above = max(reach, text.rfind("\n", 0, end) + 1)
        line = text[above:end]
        if _FILE_LINE.fullmatch(line):
            start = above + len(line) - len(line.lstrip(" \t"))
        elif line.strip():
            break
        end = above - 1
    return start
