"""Noise: compiler diagnostics - rustc's, gcc's and clang's, javac's.

A build failure pasted into a bug report or a pull request carries the compiler's
messages, and their numbers are where in the source it looked: line and column numbers,
the gutter of the quoted source (`414 | pub(super) fn`), counts of errors. None is a
measurement, and the gutter's column of numbers reads like a table's.

- rustc (the rustc dev guide's "Diagnostic structure"): a level line `error[E0428]:
  message` (`warning:`, `note:`, `help:`), a location ` --> path:line:col` (`:::` for a
  secondary one), the source lines under a gutter `414 | code`, label lines `   |` and
  `...` for the lines left out, notes `= note: ...`; the errors apart by a blank line,
  and at the end `error: aborting due to 2 previous errors` and `For more information
  about this error, ...`;
- gcc (since 9) and clang: `path:line:col: error: message` (`warning:`, `note:`, `fatal
  error:`), the source under a gutter (`    4 |   code`, `      |   ^~~~`) or, in older
  releases, the source line and a caret line; `path: In function 'f':` and `In file
  included from path:line` before, `2 errors generated.` after;
- javac: `Path.java:6: error: message`, the source line, a caret line, `1 error`;
- MSVC (Microsoft's "Compiler errors" documentation): `path(43): error C7525: message`,
  `path(43,12): warning C4477: message`, `path(43): note: message`, and the driver's
  `cl : Command line warning D9002 : ...`.

A run is claimed from a level or location line through the lines that belong to it;
a blank line carries it on only to the next error's level or location line, so a table
after the failure is left to the readers.

Returns ResultTables without measurements; the registry removes their spans.

Not declared as rows: a noise recogniser: it claims the messages of a compiler, and
gives no measurements.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import line_starts
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="compiler-diagnostics",
    description="rustc, gcc/clang, javac and MSVC error messages (source line numbers, not "
    "results)",
    signature="`error[E0428]: ...` over ` --> src/lib.rs:472:1` and `414 | code` lines; "
    "`scan.c:4:49: error: ...`; `Scan.java:6: error: ...`; `scan.cc(43): error C7525: ...`",
    priority=5,
    kind="noise",
    trigger=r"(?-i:(?:-->|:::)[ \t]+\S+:\d+:\d+|:\d+(?::\d+)?: (?:fatal )?(?:error|warning|note):"
    r"|\(\d+(?:,\d+)?\) ?: (?:fatal )?(?:error|warning) [A-Z]{1,2}\d{4}:)",
    needles=("-->", ":::", ": error", ": warning", ": note:", ": fatal error"),
)

# A line that says where: rustc's location (`  --> src/lib.rs:472:1`, `:::` for a
# secondary one); gcc's, clang's, javac's or MSVC's location with its level.
# (possessive blanks, and a path from a token's start: each line is read once)
_GCC_LOCATION = r"[ \t]*+\S+:\d+(?::\d+)?: (?:fatal )?(?:error|warning|note): "
_LOCATED = re.compile(
    rf"{_GCC_LOCATION}[^\n]*"
    r"|[ \t]*+(?:(?:-->|:::)[ \t]+\S+:\d+:\d+"
    r"|\S+\(\d+(?:,\d+)?\) ?: (?:fatal )?(?:error|warning|note)(?: [A-Z]{1,2}\d{4})?: [^\n]*)",
)
# rustc's level line (`error[E0428]: ...`, `note: ...`), which its location follows
_LEVEL = re.compile(r"[ \t]*+(?:error|warning|note|help)(?:\[[A-Z]\d{4}\])?: \S[^\n]*")
_RUST_LOCATION = re.compile(r"[ \t]*+(?:-->|:::)[ \t]")
# gcc's context before a location, and the MSVC driver's own warnings
_CONTEXT = re.compile(
    r"\S+: In (?:function|member function|constructor|destructor|instantiation of)[^\n]*"
    r"|In file included from \S+:\d+[^\n]*"
    r"|cl ?: (?:Command line )?(?:error|warning) [A-Z]{1,2}\d{4} ?:[^\n]*"
)
# A gutter line: rustc's and gcc's quoted source (`414 | code`), their label lines
# (`    |     ^^^^^`); its bar must stand in the run's gutter's column.
_GUTTER = re.compile(r"[ \t]*+\d*[ \t]*\|")
# What else goes on with a run: rustc's left-out lines and `= note:` lines, a caret line,
# the counts and summaries compilers end with.
_CARET_LINE = r"[ \t]*+\^[~^ \t]*+"
_CARET = re.compile(_CARET_LINE)
_GOES_ON = re.compile(
    rf"{_CARET_LINE}|[ \t]*+(?:\.\.\.(?:[ \t]+\|[^\n]*)?"
    r"|= (?:note|help|warning)\b[^\n]*"
    r"|\d+ (?:errors?|warnings?)(?: generated)?\.?[ \t]*)",
)
_SUMMARY = re.compile(
    r"error: aborting due to [^\n]*|warning: [^\n]* generated \d+ warnings?[^\n]*"
    r"|(?:Some errors have detailed explanations|For more information about)[^\n]*"
)
# (an old-style location: its source line and caret line follow it, no gutter)
_OLD_STYLE = re.compile(_GCC_LOCATION)


def parse(text: str) -> list[ResultTable]:
    lines = text.split("\n")
    starts = line_starts(lines)
    out: list[ResultTable] = []
    k = 0
    while k < len(lines):
        if not _starts_one(lines, k):
            k += 1
            continue
        first = last = k
        gutter = None  # (the column of the run's gutter bar, once it has one)
        located = False
        while k < len(lines):
            line = lines[k]
            if not line.strip():
                # (a blank line carries the run on only to the next message)
                nxt = k + 1
                while nxt < len(lines) and not lines[nxt].strip():
                    nxt += 1
                if nxt < len(lines) and (_starts_one(lines, nxt) or _SUMMARY.fullmatch(lines[nxt])):
                    k = nxt
                    continue
                break
            if _LOCATED.fullmatch(line):
                located = True
            elif _leads_to_one(lines, k) or _SUMMARY.fullmatch(line) or _GOES_ON.fullmatch(line):
                pass
            elif (bar := _GUTTER.match(line)) is not None and _in_gutter(line, bar, gutter):
                gutter = bar.end() - 1
            elif (
                _OLD_STYLE.match(lines[last])
                and k + 1 < len(lines)
                and _CARET.fullmatch(lines[k + 1])
            ):
                k += 1  # (the source line and its caret, under an old-style location)
            else:
                break
            last = k
            k += 1
        if located:
            out.append(ResultTable(INFO.name, (starts[first], starts[last] + len(lines[last]))))
        k = max(k, first + 1)
    return out


def _in_gutter(line: str, bar: re.Match, gutter: int | None) -> bool:
    """Whether the line's bar is a gutter's: after a line number or blanks (a table's row
    starts with its bar), in the run's gutter column, and not in a row of cells
    (`| q1 | 412.3 ms |`)."""
    column = bar.end() - 1
    if column == 0 or (gutter is not None and column != gutter):
        return False
    cells = line.strip()
    return not (cells.startswith("|") and cells.endswith("|") and cells.count("|") >= 3)


def _starts_one(lines: list[str], k: int) -> bool:
    """Whether a message starts at line `k`: a location, or a line that leads to one."""
    return _LOCATED.fullmatch(lines[k]) is not None or _leads_to_one(lines, k)


def _leads_to_one(lines: list[str], k: int) -> bool:
    """Whether line `k` leads to a location: rustc's level line over its location, or
    gcc's context over a location."""
    line = lines[k]
    nxt = lines[k + 1] if k + 1 < len(lines) else ""
    if _LEVEL.fullmatch(line):
        return _RUST_LOCATION.match(nxt) is not None
    if _CONTEXT.fullmatch(line.strip()):
        return _LOCATED.fullmatch(nxt) is not None or _CONTEXT.fullmatch(nxt.strip()) is not None
    return False
