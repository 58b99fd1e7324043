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

# A line that starts a diagnostic: rustc's level line or location; gcc's, clang's or
# javac's location with its level.
_START = re.compile(
    r"[ \t]*(?:(?:error|warning)(?:\[[A-Z]\d{4}\])?: \S[^\n]*"
    r"|(?:-->|:::)[ \t]+\S+:\d+:\d+"
    r"|\S+:\d+(?::\d+)?: (?:fatal )?(?:error|warning|note): [^\n]*"
    r"|\S+\(\d+(?:,\d+)?\) ?: (?:fatal )?(?:error|warning|note)(?: [A-Z]{1,2}\d{4})?: [^\n]*"
    r"|cl ?: (?:Command line )?(?:error|warning) [A-Z]{1,2}\d{4} ?:[^\n]*"
    r"|\S+: In (?:function|member function|constructor|destructor|instantiation of)[^\n]*"
    r"|In file included from \S+:\d+[^\n]*)[ \t]*",
)
# A line that goes on with it: a gutter (`414 | code`, `    |`), rustc's left-out lines
# and notes, a caret line, the closing counts.
_GOES_ON = re.compile(
    r"[ \t]*+(?:\d*[ \t]*\|(?:[ \t][^\n]*)?"
    r"|\.\.\.(?:[ \t]+\|[^\n]*)?"
    r"|= (?:note|help|warning)\b[^\n]*"
    r"|(?:note|help): [^\n]*"
    r"|\^[~^ \t]*"
    r"|\d+ (?:errors?|warnings?)(?: generated)?\.?"
    r"|error: aborting due to [^\n]*"
    r"|(?:Some errors have detailed explanations|For more information about)[^\n]*)[ \t]*",
)
# (an old-style location's source line, followed by its caret line)
_CARET = re.compile(r"[ \t]*\^[~^ \t]*")
_LOCATION_LEVEL = re.compile(r"[ \t]*\S+:\d+(?::\d+)?: (?:fatal )?(?:error|warning|note): ")
# What makes a run a compiler's, not a sentence that starts `error: ...`: a location.
# (a path is tried from a token's start only: from each of its characters, a long token
# would be read again and again)
_LOCATION = re.compile(
    r"(?:-->|:::)[ \t]+\S+:\d+:\d+|(?<!\S)\S+:\d+(?::\d+)?: (?:fatal )?(?:error|warn)"
    r"|(?<!\S)\S+\(\d+(?:,\d+)?\) ?: (?:fatal )?(?:error|warn)"
)


def parse(text: str) -> list[ResultTable]:
    lines = text.split("\n")
    starts = []
    pos = 0
    for line in lines:
        starts.append(pos)
        pos += len(line) + 1
    out: list[ResultTable] = []
    k = 0
    while k < len(lines):
        if not _START.fullmatch(lines[k]):
            k += 1
            continue
        first, last = k, k
        k += 1
        while k < len(lines):
            line = lines[k]
            if _START.fullmatch(line) or _GOES_ON.fullmatch(line):
                last = k
                k += 1
            elif (
                _LOCATION_LEVEL.match(lines[last])
                and k + 1 < len(lines)
                and _CARET.fullmatch(lines[k + 1])
            ):
                last = k + 1  # (the source line and its caret, under an old-style location)
                k += 2
            elif not line.strip():
                nxt = next((j for j in range(k + 1, len(lines)) if lines[j].strip()), None)
                if nxt is None or not _START.fullmatch(lines[nxt]):
                    break
                k = nxt
            else:
                break
        block = "\n".join(lines[first : last + 1])
        if _LOCATION.search(block):
            out.append(ResultTable(INFO.name, (starts[first], starts[last] + len(lines[last]))))
    return out
