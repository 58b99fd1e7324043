"""Shared helpers of the tool-output parsers: the heading that names a block, and
the row of measurements built from a record.

`block_heading(text, pos, floor)` returns the short text that names the block
starting at `pos` (`Before patch`, `with 4 MM threads`, `HDFS -text`), looking at
the line(s) above it, or at the end of the same line when the mail was flattened
onto one line. It never looks before `floor` (the end of the previous block), so a
block never borrows the heading of the one before it.
"""

from __future__ import annotations

import re

from extract.results.formats.base import Measurement, heading_before

# Lines that open or close a code block: never a heading.
_FENCE = re.compile(
    r"^\s*(?:```+\s*[\w+-]*|~~~+|\{code(?::[^}]*)?\}|\{noformat\}|</?pre>|</?code>|\.\.\.)\s*$"
)
# Lines made only of rule characters (`=====`, `-----`).
_RULE = re.compile(r"^\s*[-=_*~#+]{3,}\s*$")
# The end of a sentence or a code fence inside a flattened line.
_CLAUSE_BREAK = re.compile(r"(?:[.!?;]\s+|```+[\w+-]*\s*|\{code(?::[^}]*)?\}\s*|\{noformat\}\s*)")
# A `key: value` line (`Transfer/sec: 1.74MB`) holds data; it names nothing.
_DATA_LINE = re.compile(r":\s*[-+~]?\d[\d.,]*\s*[A-Za-z%/]*\s*$")
# A log record prefix (`18/04/16 09:51:05 INFO fs.TestDFSIO:`) names nothing.
_TIMESTAMP = re.compile(r"\d\d:\d\d:\d\d")
# A linking verb before a capitalised name: "The latest result is Before patch:".
_LINK = re.compile(r".*\b(?:is|are|was|were)\s+(?=[A-Z])")


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def inline_heading(segment: str, *, between_blocks: bool = False) -> str | None:
    """`Before patch` from the tail of a flattened line such as
    `... The latest result is Before patch: ``` `. Without a trailing colon, only a
    short phrase sitting between two blocks (`... 134%CPU Beeline http 5.36user`)."""
    seg = re.sub(r"(?:\s|```+[\w+-]*|\{code(?::[^}]*)?\}|\{noformat\})+$", "", segment)
    seg = re.sub(r"^(?:\s|```+|\{code\}|\{noformat\})+", "", seg)
    if not seg.endswith((":", "：")):
        short = 2 <= len(seg) <= 80 and re.search(r"[A-Za-z]", seg)
        if between_blocks and short and not re.search(r"[.!?]\s", seg):
            return seg.strip("*#` ")
        return None
    seg = seg[:-1].rstrip()
    parts = _CLAUSE_BREAK.split(seg)
    clause = parts[-1].strip() if parts else ""
    clause = _LINK.sub("", clause).strip()
    if _TIMESTAMP.search(clause):
        return None
    words = clause.split()
    if not words or len(words) > 12 or not re.search(r"[A-Za-z]", clause):
        return None
    return clause.strip("*#` ")


def block_heading(text: str, pos: int, floor: int = 0) -> str | None:
    """The heading of the block that starts at `pos`; None if there is none after
    `floor`. Skips code fences and rules; joins a heading that a mail gateway
    hard-wrapped onto two lines."""
    start = _line_start(text, pos)
    if start < floor:
        start = floor
    before_on_line = text[start:pos]
    if before_on_line.strip():
        inline = inline_heading(before_on_line, between_blocks=start == floor > 0)
        # a block that starts inside the first line of a code block (after a tool's
        # prefix, in a flattened mail) is named by the heading above the fence
        above = text[_line_start(text, start - 1) : start - 1] if start > floor else ""
        if inline is not None or not _FENCE.match(above):
            return inline
    # Walk up over blank lines, fences and rules.
    end = start
    for _ in range(6):
        if end <= floor:
            return None
        prev_start = _line_start(text, end - 1)
        if prev_start < floor:
            return None
        line = text[prev_start : end - 1] if text[end - 1] == "\n" else text[prev_start:end]
        if not line.strip() or _FENCE.match(line) or _RULE.match(line):
            end = prev_start
            continue
        break
    else:
        return None
    line_end = end
    if _DATA_LINE.search(text[prev_start:line_end]) or _TIMESTAMP.search(text[prev_start:line_end]):
        return None
    heading = heading_before(text[:line_end], line_end, max_lines=1)
    if heading is None:
        return None
    line = text[prev_start:line_end].strip()
    # A heading wrapped by a mail gateway at ~80 columns: the line above it is long,
    # does not end a sentence, and belongs to this block.
    if line.endswith((":", "：")) and prev_start > floor:
        above_start = _line_start(text, prev_start - 1)
        above = text[above_start : prev_start - 1].strip()
        if above_start >= floor and len(above) >= 60 and not re.search(r"[.:;!?)\]}]$", above):
            joined = heading_before(above + " " + line, len(above) + 1 + len(line), max_lines=1)
            if joined:
                heading = joined
    return heading


# A shell command: an optional prompt, a program (a word or a path), then arguments
# of which at least one is an option (`-t 20`, `--bytes-per-write=1024`).
_COMMAND = re.compile(
    r"^\s*(?:[$#>%]\s+)?(?P<cmd>[\w./-]*[A-Za-z][\w./-]*(?:\s+[\w./=:-]+)*?\s+--?[A-Za-z][^\n]*)$"
)


def command_above(text: str, pos: int, floor: int = 0) -> str | None:
    """The shell command on the line just above `pos`, or above a blank line there
    (`ozone freon hsync-generator -t 20 ...`), which names the output that follows when
    the tool printed no name of its own; None when that line is not a command or lies
    before `floor`. In a mail flattened onto one line, the command is the clause just
    before `pos`, after a code fence or the end of a sentence."""
    start = _line_start(text, pos)
    if text[max(start, floor) : pos].strip():  # flattened: the command opens the fence
        # the command is what follows the last fence or sentence on the line
        clause = _CLAUSE_BREAK.split(text[max(start, floor) : pos])[-1]
        m = _COMMAND.match(clause.rstrip())
        return m.group("cmd").strip()[:200] if m else None
    for _ in range(2):  # (a blank line may separate the command from its output)
        if start <= floor:
            return None
        prev_start = _line_start(text, start - 1)
        if prev_start < floor:
            return None
        line = text[prev_start : start - 1]
        if line.strip():
            m = _COMMAND.match(line)
            return m.group("cmd").strip()[:200] if m else None
        start = prev_start
    return None


def measure(
    metric: str,
    written: str,
    value: float | None,
    unit: str | None,
    *,
    label: str | None = None,
    variant: str | None = None,
    row: int | None = None,
) -> Measurement | None:
    """A Measurement, or None when the number could not be read."""
    if value is None:
        return None
    return Measurement(
        metric=metric,
        value=value,
        unit=unit,
        label=label,
        variant=variant,
        written=written,
        row=row,
    )


def repaired(
    text: str, damage: re.Pattern, repair: dict[str, str] | None = None
) -> tuple[str, list[int] | None]:
    """`text` with every match of `damage` removed (or replaced by `repair[match]`),
    and where each character of the result was in `text`, so that spans found in the
    repaired text map back onto the original (None when nothing matched)."""
    if not damage.search(text):
        return text, None
    repair = repair or {}
    parts: list[str] = []
    index: list[int] = []
    pos = 0
    for m in damage.finditer(text):
        parts.append(text[pos : m.start()])
        index.extend(range(pos, m.start()))
        fixed = repair.get(m.group(0), "")
        parts.append(fixed)
        index.extend([m.start()] * len(fixed))
        pos = m.end()
    parts.append(text[pos:])
    index.extend(range(pos, len(text) + 1))
    return "".join(parts), index


def runs_of(pattern: re.Pattern, text: str) -> list[list[re.Match]]:
    """The matches of `pattern` in `text`, grouped into runs: matches with nothing but
    blank space between them belong to one run (the lines of one report)."""
    groups: list[list[re.Match]] = []
    last = -1
    for m in pattern.finditer(text):
        if groups and not text[last : m.start()].strip():
            groups[-1].append(m)
        else:
            groups.append([m])
        last = m.end()
    return groups
