"""The layout of text around results, in one place: how numbers are written, the fences
and rules that frame a block, the heading above it, the command that made it, a
`| ` gutter before its lines, and the runs of lines that make one block.

Every format reads its text through these; none defines its own number pattern,
gutter or heading rule.

- `NUM` (and `UNSIGNED`, `FLOAT`, `LOOSE`, `GROUPED`, `JAVA`, `CELL_NUM`, `LOCALE`): a number
  as tools print it, with the exponents, signs, separators and words some of them add;
  `TINY`: a value too small to print (`≈ 10⁻⁴`); `NUM_END`: where a number ends;
  `DIGIT`, `LETTER`, `BLANKS`: the smallest tokens, compiled once for every format;
  `trimmed(written)`: a decimal without its trailing zeros (`99.900` → `99.9`).
- `FENCE`, `RULE`: a line that opens or closes a code block; a line of `-----`;
  `FENCE_MARK`: a fence's mark among other text;
  `GIT_FOOTER`: the notice under a commit mail.
- `heading_above(text, pos, floor)`: the short text that names the block at `pos`
  (`Before patch`, `with 4 MM threads`), in one of three styles (see there).
- `command_above(text, pos, floor)`: the shell command pasted above an output.
- `ungutter(text)`, `repaired(text, damage)`, `masked(text, spans)`: the text without a
  `| ` gutter, without terminal colours and mojibake, or with spans already claimed
  blanked, its offsets kept (or mapped back: `spans_back`, `numbers_back`); `within`,
  `overlaps`: against such spans.
- `runs(pattern, text, gap)`: the matches of a line pattern, grouped into the runs
  that make one block each.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from itertools import accumulate

# ---------------------------------------------------------------- numbers

# A number as tools print it: `12`, `3.25` (no sign, exponent or thousands separator).
NUM = r"\d+(?:\.\d+)?"
# ... with an exponent (`1.5e-3`), and a sign, as printf's %g and JSON write them.
UNSIGNED = rf"{NUM}(?:[eE][-+]?\d+)?"
FLOAT = rf"[-+]?{UNSIGNED}"
# ... or as pandas prints some: `12.`, `.5`.
LOOSE = rf"(?:{FLOAT}|[-+]?(?:\d+\.|\.\d+))"
# ... with `,` grouping thousands (`1,234.5`).
GROUPED = r"[-+]?\d(?:[\d,]*\d)?(?:\.\d+)?(?:[eE][-+]?\d+)?"
# As a table's cell writes it: `1,430`, `749 631` (thousands grouped by spaces, also
# thin and no-break ones), `-0.347`, `3.49E8`, `.5` (not dates, versions).
CELL_NUM = (
    r"[-+−]?(?:\d{1,3}(?:,\d{3})+|\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d,])|\d+)?"
    r"(?:\.\d+)?(?:[eE][-+]?\d+)?"
)
# As Java's formatters print numbers: grouped (`1,966,793,680`), `NaN`, `Infinity`.
JAVA = r"[-+]?(?:\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?|NaN|Infinity)"
# As a locale may print a number: the decimal mark a point or a comma, and either one
# grouping (`1,5`, `528,857143`, `1.234,5`); the tool that prints it says which.
LOCALE = r"[-+]?\d[\d,.]*(?:[eE][-+]?\d+)?"
# A value too small to print, written as its order (`≈ 10⁻⁴`, `≈ 0`, as JMH does): no number.
TINY = r"[≈~]\s*[-+]?\d[\d.,]*(?:\s*[x×]\s*10)?[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]*"
# The name of a statistic written before its value (`mean 0.24 ms`, `p99 45 ms`, `99th 1.1`).
STAT = r"avg|average|mean|median|min|max|stddev|std|p\d{2,3}(?:\.\d+)?|\d{2}(?:\.\d+)?th"
# A point in time written as one number, Unix seconds or milliseconds of 2001 to 2033,
# where a word for a point in time names it (`Current Time: 1690000001000`,
# `ts=1690000001`; not `Elapsed time`): when a sample was printed, not what it
# measured. `EPOCH.fullmatch(written)`, and `TIME_NAME.search(what names it)`.
EPOCH = re.compile(r"1\d{9}(?:\d{3})?")
TIME_NAME = re.compile(
    r"(?i)stamp|date|\bts\b|\bat\b|clock"
    r"|(?:current|start|end|begin|finish|stop|event|log)[ _-]?time"
)
# The time of day a log line was written at (`09:51:05`).
TIME_OF_DAY = r"\d\d:\d\d:\d\d"
# What stands between a value and the one it went to: `38 ms -> 14 ms`, `8.2 → 3.1`.
ARROW = r"->|→|=>"
# After a number where nothing else ends it: no more digits follow (`1.2` of `1.2.3`, a
# version, is no number; `12.` ending a sentence is 12).
NUM_END = r"(?!\.?\d)"

# A digit, a Latin letter (what makes a cell a number, a line a name), and the blanks
# at a position (`BLANKS.match(text, pos).end()`: where the next token starts).
DIGIT = re.compile(r"\d")
LETTER = re.compile(r"[A-Za-z]")
BLANKS = re.compile(r"\s*")


def trimmed(written: str, point: str = ".") -> str:
    """A decimal as written without its trailing zeros, its point written as `point`:
    `99.900` → `99.9` (or `99_9`), `50.000` → `50`: how tools' percentiles and bounds
    name a metric (`p99.9`, `percentile_latency_p99_9`)."""
    if "." in written:
        written = written.rstrip("0").rstrip(".")
    return written.replace(".", point)


# ---------------------------------------------------------------- fences and rules

# A line that opens or closes a code block (Markdown, JIRA, HTML, a `...` elision).
FENCE = re.compile(
    r"^\s*(?:```+\s*[\w+-]*|~~~+|\{code(?::[^}]*)?\}|\{noformat\}|</?pre>|</?code>|\.\.\.)\s*$"
)
# A fence's mark where it stands among other text (between two records of a log):
# ```` ```lang ````, `{code:x}`, `{noformat}`.
FENCE_MARK = r"```\w*|\{code(?::[^}]*)?\}|\{noformat\}"
# An opening fence only: what `past_fences` steps over above a table.
_OPENING_FENCE = re.compile(
    r"^\s*(?:```[\w-]*|~~~|\{code(?::[^}]*)?\}|\{noformat\}|<pre>|<code>)\s*$"
)
# A line made only of rule characters (`=====`, `-----`).
RULE = re.compile(r"^\s*[-=_*~#+]{3,}\s*$")
# The rule and notice the ASF's gitbox puts under a commit or CI mail: what follows is
# no report. (From the first dash of a run only: searched in a slice, whose first dash
# is the first.)
GIT_FOOTER = re.compile(r"(?<!-)-{20,}+\s*This is an automated message")


def line_starts(lines: list[str]) -> list[int]:
    """Where each of `lines` (a text split at its line breaks) starts in the text."""
    return list(accumulate((len(line) + 1 for line in lines), initial=0))[:-1]


def line_start(text: str, pos: int) -> int:
    """Where the line holding `pos` starts."""
    return text.rfind("\n", 0, pos) + 1


def line_end(text: str, pos: int) -> int:
    """Where the line holding `pos` ends (its line break, or the end of `text`)."""
    end = text.find("\n", pos)
    return len(text) if end < 0 else end


def past_fences(text: str, pos: int) -> int:
    """Where a block starts once the fence lines opening it (```, {code}, {noformat})
    are skipped, so the heading above the fence still names the block."""
    for _ in range(3):
        start = line_start(text, pos)
        if text[start:pos].strip():
            return pos
        head = text[:start].rstrip()
        prev_start = head.rfind("\n") + 1
        if not _OPENING_FENCE.match(head[prev_start:]):
            return pos
        pos = prev_start
    return pos


# ---------------------------------------------------------------- headings

# A heading line: `Before patch:`, `## Results`, `=== with the fix ===`.
_HEADING = re.compile(r"^\s*(?:[#*=>\-]+\s*)?(?P<h>[^\n|]{2,120}?)\s*[:：]?\s*(?:[=\-#*]+)?\s*$")
# The end of a sentence or a code fence inside a flattened line.
_CLAUSE_BREAK = re.compile(r"(?:[.!?;]\s+|```+[\w+-]*\s*|\{code(?::[^}]*)?\}\s*|\{noformat\}\s*)")
# A `key: value` line (`Transfer/sec: 1.74MB`) holds data; it names nothing.
# (a key's value, `key: 12 ms`, or an aligned row's, `parse_large     301.7 ms`)
# (a run of blanks is tried from its start only, and no quantifier gives back what the
# next could take: searched over a long run of blanks, it stays linear)
_DATA_LINE = re.compile(
    r"(?::[ \t]*+|(?<![ \t])(?:[ \t]{2,}+|\t(?![ \t])))[-+~]?\d[\d.,]*+[ \t]*+[A-Za-z%/]*+\s*+$"
)
# A measured value: a number and a unit of time, rate, size or share. A line with two of
# them is a record of results (`2.5.5: 41,233 ops/s, mean 0.24 ms`), no heading.
_MEASURED = re.compile(
    r"(?<![\w.])\d[\d.,]*+[ \t]?(?:[nuµm]?s|secs?|seconds?|mins?|minutes?|h|hours?"
    r"|[kKMGT]?i?B(?:/s|ps)?|(?:ops|op|req|msg|rows|records|queries)/s(?:ec)?|%)(?![A-Za-z])"
)
# A log record prefix (`18/04/16 09:51:05 INFO fs.TestDFSIO:`) names nothing.
_TIMESTAMP = re.compile(TIME_OF_DAY)
# A linking verb before a capitalised name: "The latest result is Before patch:".
# (A match on a line implies one from the line's start, where `.*` takes the rest: it is
# searched from line starts only (_LINK), and matched where a removal ended (_LINK_AT);
# see _without_link.)
_LINK = re.compile(r"(?m)^.*\b(?:is|are|was|were)\s+(?=[A-Z])")
_LINK_AT = re.compile(r".*\b(?:is|are|was|were)\s+(?=[A-Z])")
# The pieces that _fences_stripped removes from the end of a segment: a code fence opener.
_BACKTICK_WORD = re.compile(r"[\w+-]*")
_FENCES_AT_START = re.compile(r"^(?:\s|```+|\{code\}|\{noformat\})+")
_SENTENCE_INSIDE = re.compile(r"[.!?]\s")
# What ends a line that ends a sentence (a gateway did not wrap it mid-sentence).
_SENTENCE_ENDS = tuple(".:;!?)]}")
# In a table's flattened text: a bold title or a short `Capitalised:` sentence start.
_INLINE_BOLD = re.compile(r"\*\*([^*\n]{2,80})\*\*\s*:?\s*$")
# (a run of blanks before the capital is taken whole, from its first blank: a start inside
# it would match from that first blank as well)
_INLINE_COLON = re.compile(r"(?:^|[.!?]\s++|(?<!\s)\s{2,}+)([A-Z][^.!?:|\n]{1,60}):\s*$")


_JIRA_LEVELS = frozenset("123456")


def _heading_line(text: str, pos: int, max_lines: int = 2) -> str | None:
    """The short line just before `pos` when it reads as a heading (`Before patch:`,
    `with 4 MM threads:`, returned without the colon); None when the nearest
    non-blank line of the last `max_lines` does not."""
    lines = text[:pos].rstrip().splitlines()
    for line in reversed(lines[-max_lines:]):
        s = line.strip().strip("`").strip()
        if not s:
            continue
        if s[:1] == "h" and s[1:2] in _JIRA_LEVELS and s[2:4] in (". ", ".\t"):
            s = s[4:].strip()  # (a JIRA wiki heading: `h3. Results`)
        if s.endswith((":", "：")) or (len(s) <= 60 and not s.endswith((".", ";", ","))):
            m = _HEADING.match(s)
            if m and LETTER.search(m.group("h")):
                return m.group("h").rstrip(":： ").strip("*# ")
        return None
    return None


def inline_heading(segment: str, *, between_blocks: bool = False) -> str | None:
    """`Before patch` from the tail of a flattened line such as
    `... The latest result is Before patch: ``` `. Without a trailing colon, only a
    short phrase sitting between two blocks (`... 134%CPU Beeline http 5.36user`)."""
    seg = _FENCES_AT_START.sub("", _fences_stripped(segment))
    if not seg.endswith((":", "：")):
        short = 2 <= len(seg) <= 80 and LETTER.search(seg)
        if between_blocks and short and not _SENTENCE_INSIDE.search(seg):
            return seg.strip("*#` ")
        return None
    parts = _CLAUSE_BREAK.split(seg[:-1].rstrip())
    clause = _without_link(parts[-1].strip() if parts else "").strip()
    if _TIMESTAMP.search(clause):
        return None
    words = clause.split()
    if not words or len(words) > 12 or not LETTER.search(clause):
        return None
    return clause.strip("*#` ")


def _without_link(text: str) -> str:
    return without_line_led(text, _LINK.search, _LINK_AT.match)


def run_matches(text: str, match: Callable, search: Callable):
    """`P.finditer(text)` for a pattern P that opens with a run of some class (`[\\w.]+`),
    each run read once: `match` is P's, `search` that of P from where such a run starts
    (`(?<![\\w.])`). A match from inside a run means one from its start, or from where
    the last match ended (`match` tries there); P matches no empty text."""
    pos = 0
    while pos <= len(text):
        m = (match(text, pos) if pos else None) or search(text, pos)
        if m is None:
            return
        yield m
        pos = m.end()


def without_line_led(text: str, search: Callable, match: Callable) -> str:
    """`P.sub("", text)` for a pattern P that opens with `.*` (and matches no empty
    text), each line read once: `match` is P's, `search` that of `(?m)^` and P. A match
    that starts inside a line means one from its start (or from where the last removal
    ended), which `.*` makes the longest, so no other starts on that line; the regex
    itself read the rest of the line again from each position of a line without one."""
    out, kept, pos = [], 0, 0
    while pos <= len(text):
        m = None
        if pos > 0 and text[pos - 1] != "\n":  # where a removal ended, inside a line
            m = match(text, pos)
        m = m or search(text, pos)
        if m is None:
            break
        out.append(text[kept : m.start()])
        kept = pos = m.end()
    out.append(text[kept:])
    return "".join(out)


def _fences_stripped(text: str) -> str:
    """`text` without its tail of blanks and fences (```` ```lang ````, `{code:x}`,
    `{noformat}`): the earliest position from which the rest of `text` is made of them
    only, found from the end (a regex for that tail tried each position again)."""
    n = len(text)
    ok = [False] * (n + 1)  # ok[i]: text[i:] is all blanks and fences
    ok[n] = True
    next_ok = [n] * (n + 2)  # next_ok[i]: the first j >= i with ok[j]
    next_close = [-1] * (n + 1)  # next_close[i]: the first `}` at or after i, or -1
    first = run_end = word_end = n
    for i in range(n - 1, -1, -1):
        next_close[i] = i if text[i] == "}" else next_close[i + 1]
        c = text[i]
        if c == "`" and (i + 1 == n or text[i + 1] != "`"):  # the last of a run of backticks
            run_end = i + 1
            word_end = _BACKTICK_WORD.match(text, run_end).end()
        if c.isspace():
            good = ok[i + 1]
        elif c == "`" and text.startswith("```", i):
            # 3 or more backticks, then the word characters after them (to the end of
            # their run: no piece starts with a word character), or fewer backticks and
            # another fence
            good = next_ok[i + 3] < run_end or ok[word_end]
        elif text.startswith("{code}", i):
            good = ok[i + 6]
        elif text.startswith("{code:", i):
            close = next_close[i + 6] if i + 6 <= n else -1
            good = close >= 0 and ok[close + 1]
        elif text.startswith("{noformat}", i):
            good = ok[i + 10]
        else:
            good = False
        ok[i] = good
        next_ok[i] = i if good else next_ok[i + 1]
        if good:
            first = i
    return text[:first] if first < n else text


def _inline_title(before: str) -> str | None:
    """The title right before a table in flattened text: `**tpcds — branch**` or a
    short `Before patch:` that starts a sentence."""
    before = before[-300:]
    m = _INLINE_BOLD.search(before) or _INLINE_COLON.search(before)
    return m.group(1).strip() if m else None


# A build tool's step over the output of what it ran: Gradle's console prints `> Task
# :module:task` before a task's output (and `> Configure project :module`); the step
# is how the block was run, not what it is.
_BUILD_STEP = re.compile(r"[ \t]*+> (?:Task|Configure project) :")


def _block_heading(text: str, pos: int, floor: int) -> str | None:
    start = max(line_start(text, pos), floor)
    before_on_line = text[start:pos]
    if before_on_line.strip():
        inline = inline_heading(before_on_line, between_blocks=start == floor > 0)
        # a block that starts inside the first line of a code block (after a tool's
        # prefix, in a flattened mail) is named by the heading above the fence
        above = text[line_start(text, start - 1) : start - 1] if start > floor else ""
        if inline is not None or not FENCE.match(above):
            return inline
    # Walk up over blank lines, fences and rules.
    end = start
    for _ in range(6):
        if end <= floor:
            return None
        prev_start = line_start(text, end - 1)
        if prev_start < floor:
            return None
        line = text[prev_start : end - 1] if text[end - 1] == "\n" else text[prev_start:end]
        if not line.strip() or FENCE.match(line) or RULE.match(line) or _BUILD_STEP.match(line):
            end = prev_start
            continue
        break
    else:
        return None
    line = text[prev_start:end]
    if _DATA_LINE.search(line) or _TIMESTAMP.search(line):
        return None
    if any(ch.isdigit() for ch in line) and len(_MEASURED.findall(line)) >= 2:
        return None
    heading = _heading_line(text[:end], end, max_lines=1)
    if heading is None:
        return None
    line = line.strip()
    # A heading wrapped by a mail gateway at ~80 columns: the line above it is long,
    # does not end a sentence, and belongs to this block.
    if line.endswith((":", "：")) and prev_start > floor:
        above_start = line_start(text, prev_start - 1)
        above = text[above_start : prev_start - 1].strip()
        if above_start >= floor and len(above) >= 60 and not above.endswith(_SENTENCE_ENDS):
            joined = _heading_line(above + " " + line, len(above) + 1 + len(line), max_lines=1)
            if joined:
                heading = joined
    return heading


def _table_heading(text: str, pos: int) -> str | None:
    pos = past_fences(text, pos)
    before = text[line_start(text, pos) : pos]
    if before.strip():
        return _inline_title(before)  # mid-line: flattened text
    head = _heading_line(text, pos)
    if head is None:
        return None
    lines = text[:pos].rstrip().splitlines()
    if len(lines) >= 2 and lines[-2].strip() and not lines[-1].strip().startswith(("*", "#", "=")):
        prev = lines[-2].strip()
        if len(prev) > 60 and not prev.endswith((":", ".", "!", "?")):
            return None  # the last line of a wrapped paragraph (`... of the latest` / `changes:`)
    return head


def heading_above(text: str, pos: int, floor: int = 0, *, style: str = "block") -> str | None:
    """The heading of the block that starts at `pos` (`Before patch`, `with 4 MM
    threads`, `HDFS -text`), or None; never one that lies before `floor` (the end of
    the previous block, so a block does not borrow the heading of the one before).

    `style` says how far the rule looks, as the formats were tuned on real mail:
    - "block" (tool output): the nearest line above, past blank lines, code fences
      and rules, unless it holds data (`key: 12 ms`) or a log time; a heading a
      gateway wrapped onto two lines is joined; in a flattened mail, the clause
      before the block that ends in a colon (`... The result is Before patch:`);
    - "table" (generic tables): the line above the table's opening fence, unless it
      ends a wrapped paragraph; in flattened text, a `**bold title**` or a short
      `Capitalised:` sentence start;
    - "line": the nearest non-blank line of the two above `pos` (or the text before
      `pos` on its line), as it is.
    """
    if style == "block":
        return _block_heading(text, pos, floor)
    if style == "table":
        return _table_heading(text, pos)
    return _heading_line(text, pos)


def replace_tags(s: str, by: str = "") -> str:
    """`re.sub(r"<[^>]+>", by, s)` with each `<` and `>` found once: the regex read the
    rest of the text again from each `<` that no `>` follows."""
    out, kept, pos = [], 0, 0
    while (lt := s.find("<", pos)) >= 0:
        if lt + 1 < len(s) and s[lt + 1] != ">":
            gt = s.find(">", lt + 1)
            if gt < 0:
                break  # (no `>` after this `<`, nor after any later one)
            out.append(s[kept:lt])
            out.append(by)
            kept = pos = gt + 1
        else:
            pos = lt + 1
    out.append(s[kept:])
    return "".join(out)


def line_caption(text: str, pos: int, *, max_len: int = 120) -> str | None:
    """The nearest non-blank line before `pos` when it reads as a title
    (`**tpcds — branch**`, `Without the fix:`, `===== Report ====`). None for a block
    that starts mid-line (flattened text), where the text before it is prose."""
    pos = past_fences(text, pos)
    if text[line_start(text, pos) : pos].strip():
        return None
    for line in reversed(text[:pos].splitlines()[-2:]):
        s = line.strip()
        if not s:
            continue
        if s.startswith(("|", "+", "```")) or s.count("|") >= 2:
            return None
        s = replace_tags(s)
        s = s.strip("=#*-_>` ").strip().rstrip(":：").strip("*_ ")
        if 2 <= len(s) <= max_len and LETTER.search(s):
            return s
        return None
    return None


def context_before(text: str, pos: int, *, lines: int = 3) -> str:
    """The last few non-blank lines before a table (at most 400 characters), which
    often say what its numbers are (`### Write benchmark:`, `Batches per second.`)."""
    before = [x.strip() for x in text[max(0, pos - 400) : pos].splitlines() if x.strip()]
    return " ".join(before[-lines:])


# ---------------------------------------------------------------- commands

# A shell command: an optional prompt, a program (a word or a path), then arguments
# of which at least one is an option (`-t 20`, `--bytes-per-write=1024`).
# (The program is a whole run of [\w./-] with a letter in it, as blanks follow it; taken
# whole, it is not split again at each of its characters.)
_COMMAND = re.compile(
    r"^\s*+(?:[$#>%]\s+)?(?P<cmd>(?=[\w./-]*?[A-Za-z])[\w./-]++(?:\s+[\w./=:-]+)*?\s+--?[A-Za-z][^\n]*)$"
)


def command_above(text: str, pos: int, floor: int = 0) -> str | None:
    """The shell command on the line just above `pos`, or above a blank line there
    (`ozone freon hsync-generator -t 20 ...`), which names the output that follows when
    the tool printed no name of its own; None when that line is not a command or lies
    before `floor`. In a mail flattened onto one line, the command is the clause just
    before `pos`, after a code fence or the end of a sentence."""
    start = line_start(text, pos)
    if text[max(start, floor) : pos].strip():  # flattened: the command opens the fence
        # the command is what follows the last fence or sentence on the line
        clause = _CLAUSE_BREAK.split(text[max(start, floor) : pos])[-1]
        m = _COMMAND.match(clause.rstrip())
        return m.group("cmd").strip()[:200] if m else None
    for _ in range(2):  # (a blank line may separate the command from its output)
        if start <= floor:
            return None
        prev_start = line_start(text, start - 1)
        if prev_start < floor:
            return None
        line = text[prev_start : start - 1]
        if line.strip():
            m = _COMMAND.match(line)
            return m.group("cmd").strip()[:200] if m else None
        start = prev_start
    return None


# ---------------------------------------------------------------- offset-keeping views

# A `| ` gutter before every line (logs pasted that way). (`> ` quotes are the
# cleaner's: text quoted from an earlier mail is not a new result.)
_GUTTER = re.compile(r"(?m)^([ \t]*)((?:\|[ \t]+)+(?=\S)|\|[ \t]*$)")
_LONG_TAG = re.compile(r"<[^<>]{0,2000}>")


def ungutter(text: str) -> str:
    """`text` with a `| ` gutter before its lines blanked, offsets kept, so that the
    spans found in it still point into `text`."""
    if "|" not in text:
        return text
    return _GUTTER.sub(lambda m: m.group(1) + " " * len(m.group(2)), text)


def masked(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """`text` with the spans blanked, offsets and line breaks kept (what tables found
    already claim, so that no later reader takes it again), in one pass."""
    parts, pos = [], 0
    for a, b in sorted(spans):
        a = max(a, pos)
        if b <= a:
            continue
        # (each line of the span as blanks: a regex replacing character by character
        # cost a tenth of the registry's own time on a message)
        parts += [text[pos:a], "\n".join(" " * len(line) for line in text[a:b].split("\n"))]
        pos = b
    parts.append(text[pos:])
    return "".join(parts)


def mask_tags(text: str) -> str:
    """HTML tags replaced by as many spaces (offsets kept), so that tool output pasted
    as rich HTML (seed 000) reads as flattened text."""
    if "<" not in text:
        return text
    return _LONG_TAG.sub(lambda m: " " * len(m.group(0)), text)


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


# ---------------------------------------------------------------- JSON in text

_JSON = json.JSONDecoder()
# 64 levels opened at once: no tool's export nests so deep, and text that does is
# rejected before the decoder recurses into it (at every one of its starts).
_TOO_DEEP = re.compile(r'(?:\s*(?:\{\s*"(?:[^"\\\n]|\\.){0,200}"\s*:|\[)){64}')


def json_at(text: str, pos: int) -> tuple[object, int] | None:
    """The JSON value that starts at `pos` of `text` and where it ends; None when
    none does (not JSON, or nested too deep to be a tool's export)."""
    if _TOO_DEEP.match(text, pos):
        return None
    try:
        return _JSON.raw_decode(text, pos)
    except (ValueError, RecursionError):
        return None


# ---------------------------------------------------------------- runs of lines


def last(pattern: re.Pattern, text: str, start: int, end: int) -> re.Match | None:
    """The last match of `pattern` in `text[start:end]`."""
    found = None
    for found in pattern.finditer(text, start, end):  # noqa: B007
        pass
    return found


def within(pos: int, spans: Iterable[tuple[int, int]]) -> bool:
    """Whether `pos` lies inside one of `spans` (a block found already claims it)."""
    return any(a <= pos < b for a, b in spans)


def overlaps(span: tuple[int, int], spans: Iterable[tuple[int, int]]) -> bool:
    """Whether `span` shares a character with one of `spans` (tables already found)."""
    return any(span[0] < e and s < span[1] for s, e in spans)


def runs(
    matches: re.Pattern | Iterable[re.Match],
    text: str,
    gap: re.Pattern | Callable[[str], object] | None = None,
) -> list[list[re.Match]]:
    """Matches (of a pattern in `text`, or given) grouped into runs: two belong to one
    run when the text between them is blank, or fully matches `gap` (what the format
    lets stand between two lines of one block: log prefixes, a live line), or `gap`
    says yes to it."""
    found = matches.finditer(text) if isinstance(matches, re.Pattern) else matches
    if gap is None:
        joins = _blank
    elif isinstance(gap, re.Pattern):
        joins = gap.fullmatch
    else:
        joins = gap
    groups: list[list[re.Match]] = []
    last = -1
    for m in found:
        if groups and joins(text[last : m.start()]):
            groups[-1].append(m)
        else:
            groups.append([m])
        last = m.end()
    return groups


def _blank(text: str) -> bool:
    return not text.strip()


# ANSI colour codes, with their ESC byte or as the `[1;32m` debris a mail leaves
# without it: damage that `repaired` removes before a tool's output is read.
COLOURS = r"\x1b\[[0-9;]*m|\[\d+(?:;\d+)*m"


def spans_back(tables: Iterable, index: list[int] | None) -> None:
    """The spans of tables found in `repaired` text moved back onto the original text
    (`index` as `repaired` returns it). A table starts after the damage before it:
    the colour codes at its start are its own."""
    if index is None:
        return
    for t in tables:
        start = index[t.span[0] - 1] + 1 if t.span[0] else 0
        t.span = (start, index[t.span[1]])


def numbers_back(tables: Iterable, index: list[int] | None) -> None:
    """The spans of the tables' numbers (a declared field knows its own: `_rows.Field`)
    moved back onto the original text, as `spans_back` moves the tables'."""
    if index is None:
        return
    for t in tables:
        for m in t.measurements:
            if m.span is not None:
                m.span = (index[m.span[0]], index[m.span[1] - 1] + 1)
