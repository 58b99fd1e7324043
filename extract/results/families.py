"""The families of ordinary list traffic that carry numbers and are not benchmark
reports: each a cheap, general test on a message's own text (and subject), used as
message-level features by the fitted verdict (`extract.results.verdict`) and by the
number model (`msg=<family>`).

Most of lists.apache.org is this mail. Each family is recognised by how its kind of
message is written, never by a project or a message:
* `ci`: CI and bot results: Yetus / QA votes, Jenkins and GitHub Actions summaries,
  test-result bots (`Total time taken`, `Tests run`, pass/fail tallies), coverage and
  quality-gate bots (Codecov, Sonar), dependency bots (`Bumps x from 1.2 to 1.3`);
* `vote`: release votes and checks (`[VOTE]`, `+1 (binding)`, release candidates,
  how long a vote stays open; checksums, signatures and `KEYS` only next to those);
* `bug`: bug reports with logs: stack traces, exceptions, JVM flags, `OutOfMemoryError`,
  `OOMKilled`, crashes, hangs, timeouts, thread dumps, GC logs ("dies after 8-9 hours"),
  a system's state as its monitors print it (top, iostat, vmstat, df, Prometheus
  metrics, nodetool, jstat);
* `config`: configuration dumps (`key=value`, `<property>`, YAML) filling the message;
* `design`: design talk about limits and defaults, proposals, estimates and plans
  (`the default of`, `a limit of`, `configurable`, `in theory`, `I'll run ... next week`);
* `request`: requests for benchmarks ("could you run", "please share the numbers",
  a list of metrics to collect, a bot command that starts a benchmark run);
* `template`: PR templates and issue forms (`What changes were proposed`, `How was this
  patch tested`, check boxes, `Describe the bug`, `Steps to reproduce`), by the share of
  the message they fill: a container, which a report (a regression filed as a bug, a
  benchmark under `How was this patch tested`) fills as well as anything else;
* `announce`: announcements, advisories and project bookkeeping: releases
  (`[ANNOUNCE]`, `is pleased to announce`), security advisories (CVE, CVSS, affected
  versions), board reports and meeting notes (contributors, commits, attendees,
  release schedules).

A family's strength (0..1] grows with the distinct kinds of mark of it that a message
shows (and, for the families that fill a message, with the share of its lines they
fill): one stray word (`checksum` in a storage patch, `should` in a report) weighs
little, and a mark repeated (forty frames of a stack trace, a log saying `timed out`
forty times) is one mark.

Each mark is one pattern, and all of them are one Hyperscan database: a message is
scanned once, whatever the number of marks (the `re` alternations they were took
~3 ms a message, the largest cost of a message the gate lets through).
"""

from __future__ import annotations

import functools
import re
import threading
from bisect import bisect_right

import hyperscan

from extract.results.prefilter import cached_database, lowered

# Each family's marks: one pattern each (Hyperscan's syntax: no lookaround, no
# possessive quantifiers), matched case aside. A family counts the distinct marks
# it finds, not their repeats.
MARKS: dict[str, tuple[str, ...]] = {
    "ci": (
        r"[+-]1 overall", r"hadoop qa", r"apache yetus", r"\byetus\b", r"total time taken",
        r"quality gate", r"codecov", r"coverage diff", r"\bbumps? \S+ from \S+ to\b",
        r"dependabot", r"renovate", r"\btrillian\b",
        r"build (?:#\d|failed|succeeded|successful|failure|success|is back to normal"
        r"|unstable|fixed|still failing)",
        r"reactor summary", r"tests? run: ?\d", r"\brun (?:failed|succeeded|cancelled)",
        r"\bci report", r"smoke tests? completed", r"^#+ ?test results", r"\bjenkins\b",
        r"github actions", r"workflow run", r"check run", r"sonar(?:cloud|qube)", r"\bflaky\b",
        r"nightly build", r"\bprecommit\b", r"\bpre-commit\b", r"bot commands",
        r"\btests? (?:passed|failed)\b", r"\bci (?:passed|failed|is green)",
        # (a count of tests, checks or jobs, as a runner's summary ends: `5 failed, 120
        # passed in 3.2s`, `==== 3 failed ====`; not `0 failed checkpoints` nor `0 failed
        # in 24 hours`, a result's count of its own)
        r"\b\d+ (?:passed|failed|skipped)(?:[,;.:)\]]|[ \t]*(?:$|[=(-])|[ \t]+(?:and|with"
        r"|tests?|checks?|jobs?|builds?|runs?|specs?|suites?|cases?|examples?|steps?|of)\b"
        r"|[ \t]+in[ \t]+[\d.]+[ \t]?(?:s|ms|sec|secs|seconds|m|min|mins|minutes)\b)",
        r"build log", r"console output",
        r"\bci (?:run|result)", r"tests? results?:", r"test result \(",
        r"\bci\b[^\n]{0,20}(?:passed|failed|green|red)\b", r"\btest report\b",
        r"^[ \t]*/rerun\b", r"\brerun (?:with|the)\b", r"\bworkflow:", r"\bjobs?:",
    ),
    "vote": (
        r"\+1 \((?:non-?)?binding\)", r"\bbinding votes?\b",
        r"\bvote (?:is|will be|will remain|stays) open", r"open for at least \d+ hours",
        r"^[ \t]*\[ ?\] ?[+-][01]\b", r"release candidate", r"staging repo", r"\bkeys file\b",
        r"/KEYS\b", r"the vote (?:passes|passed|fails|failed)", r"\bvotes? (?:cast|tally)",
        r"\bcall for (?:a )?vote\b", r"\[vote\]", r"\[result\]", r"\bbinding\b", r"\brc\d\b",
        r"\[announce\]", r"\bnexus\b",
    ),
    # The checks a voter makes: a vote's words only where the vote's own marks are, or
    # several together (`checked signatures, checksums, LICENSE and NOTICE`).
    "vote_check": (
        r"\bchecksums?\b", r"\bsignatures?\b", r"\bsha-?(?:512|256)\b", r"\.asc\b", r"\bgpg\b",
        r"\bhashes\b", r"\blicense and notice\b", r"\bnotice file",
        r"built (?:it )?from (?:the )?source", r"\brat check", r"\bverified\b", r"\bchecked\b",
        # (a smoke test a voter ran; a CI's summary says `smoke tests completed`)
        r"smoke ?tests?\b",
    ),
    "bug": (
        # (a stack frame by its dotted name, `at org.foo.Bar.run(`)
        r"\bat (?:[\w$<>]+\.)+[\w$<>]+\(", r"caused by:", r"traceback \(most recent",
        r"\b(?-i:(?:[a-z]\w{0,40}\.){1,12}[A-Z]\w{0,60}(?:Exception|Error))\b",
        r"outofmemory", r"\boomkilled\b", r"\boom\b", r"sigsegv", r"sigabrt", r"segfault",
        r"segmentation fault", r"core dumped", r"\bhs_err", r"heap dump",
        # (one mark, however many flags: they are as much a benchmark's setup, `-Xmx4g
        # -XX:+UseG1GC`, as a bug report's)
        r"-xx:|-xm[xs]\d|jvm (?:flags|options|args)", r"exit code:? ?\d",
        r"\bdeadlock", r"\bnpe\b", r"nullpointerexception", r"\bcrash(?:es|ed|ing)?\b",
        r"\bhangs?\b", r"\bhanging\b", r"\bhung\b", r"\bfails with\b", r"\bstack ?trace\b",
        r"exception\b", r"error:", r"\bthread dump\b", r"\bjstack\b", r"\bliveness probe\b",
        r"\bcrashloopbackoff\b", r"\bkilled\b", r"\bblocked\b", r"\bgc\(\d",
        r"pause (?:young|full)", r"evacuation pause", r"\bfull gc\b", r"\bgc pauses?\b",
        r"\bsafepoint\b", r"\btimes? ?out\b", r"timed out", r"\bstuck\b", r"never finishes",
        r"\bpending\b",
        # (a failing test, as its framework prints it: Rust's panics and `assert_eq!`,
        # JUnit's `expected: <1> but was: <2>`, pytest's `E   assert`, Go's `--- FAIL:`)
        r"\bpanicked at\b", r"\bassertion(?:error| failed|failederror)\b",
        r"\bassertion `[^`\n]{0,40}` failed",
        r"\bexpected:? ?<[^>\n]{0,80}> but was\b", r"^--- fail:", r"^e +assert(?:ionerror)?\b",
        # (the state of a running system, as its monitors print it, pasted to show what
        # is wrong: their headers and markers. top, ps; iostat; vmstat; free; df; netstat;
        # the Prometheus exposition format; nodetool; jstat. Not `load average:`, which
        # Google Benchmark prints above its results)
        r"\bpid +user +pr +ni\b", r"%cpu +%mem\b",
        r"\bdevice:? +(?:r/s|rrqm/s|tps)\b", r"\bavg-cpu:", r"\bprocs -+ ?-*memory",
        r"^ *mem: +\d", r"\bfilesystem +size +used +avail", r"\bproto +recv-q +send-q\b",
        r"^# (?:help|type) [a-z_:]", r"^[a-z_:][\w:]*\{[a-z_]+=\"",
        r"\bnodetool (?:status|tablestats|cfstats|tpstats|compactionstats|info)\b",
        r"\bsstable count:", r"\bs0c +s1c\b",
    ),
    "design": (
        r"\[discuss\]", r"\b(?:kip|pip|flip|spip|hip|aip)-\d", r"\bproposal\b",
        r"\bi propose\b", r"\bwe propose\b", r"\bpropose to\b", r"\bthe default\b",
        r"\bdefault (?:value|of|is|to|should)\b", r"\ba limit of\b",
        r"\blimit (?:is|should|to)\b", r"\bmax(?:imum)? (?:allowed|size|number)\b",
        r"\bconfigurable\b", r"\bshould we\b", r"\bwe could\b", r"\bwhat if\b",
        r"\bin theory\b", r"\btheoretical(?:ly)?\b", r"\bi(?:'d| would) expect\b",
        r"\bestimat(?:e|ed|ion)\b", r"\bassum(?:e|ing)\b",
        r"\bi(?:'ll| will) (?:run|post|share|try|compare)\b",
        r"\bwill (?:post|share) (?:the )?(?:results|numbers)\b", r"\bnext week\b",
        r"\bplan(?:ning)? to\b", r"\bwe plan\b", r"\bsoft limit\b", r"\bhard limit\b",
        r"\bcap (?:it|at)\b", r"\bdefaults? (?:to|for)\b", r"\bby default\b",
        r"\blimits? (?:on|for)\b", r"\bsuggest", r"\bpropos", r"\bdesign\b",
        r"\bshould (?:be|not|also)\b",
    ),
    "request": (
        r"(?:could|can|would) you (?:please )?(?:also )?(?:run|share|post|provide|attach|do"
        r"|try|add|test|benchmark|measure|include)\b",
        # (asked of anyone: `could someone run`, `if anybody can share`)
        r"(?:could|can|would) (?:someone|somebody|anyone|anybody) (?:please )?(?:also )?"
        r"(?:run|share|post|provide|do|try|test|benchmark|measure)\b",
        r"(?:someone|somebody|anyone|anybody) (?:could|can|would|will) (?:please )?(?:also )?"
        r"(?:run|share|post|provide|do|try|test|benchmark|measure)\b",
        r"please (?:run|share|post|provide|attach|include)\b",
        r"(?:would|will) be (?:nice|great|good|helpful) to (?:see|have|get)",
        r"any (?:benchmark|perf|performance)\w{0,10} (?:numbers|results|data)\b",
        r"do (?:we|you) have (?:any )?(?:benchmark|perf)",
        r"(?:need|want|like to see) (?:some |more )?(?:benchmark|perf|performance"
        r"|stress[ -]test) (?:numbers|results|data|report)",
        r"metrics to (?:collect|capture)", r"能否提供", r"请提供", r"麻烦提供",
        r"please benchmark\b", r"^[ \t]*/benchmark\b",
        r"@\w{1,30}bot (?:please )?(?:benchmark|run)\b",
    ),
    "announce": (
        r"\[announce\]", r"\bis (?:proud|pleased|happy) to announce", r"\brelease notes\b",
        r"\bcve-\d{4}-\d", r"\bcvss\b", r"\baffected versions?\b", r"\bseverity:",
        r"\bboard report\b", r"\bcontributors\b", r"\bnew committers?\b", r"\bpmc members?\b",
        r"\battendees\b", r"\bagenda\b", r"\bmeeting notes\b", r"\bnotes from\b",
        r"\bcode freeze\b", r"\bbranch cut\b", r"\bblockers?\b", r"\bdownloads? (?:page|from)\b",
    ),
}  # fmt: skip
# Families whose marks may stand in the subject too
IN_SUBJECT = frozenset({"ci", "vote", "design", "announce"})

# Marks counted by the lines they are on: the families that fill a message.
LINE_MARKS: dict[str, tuple[str, ...]] = {
    # a line that states a job's or a test's status: a tally or a verdict
    "status": (
        r"\b(?:passed|failed|succeeded|skipped|success|failure|cancell?ed|pending|errors?)\b",
        r"✅", r"❌", r"✔", r"✖", r":x:", r":heavy_check_mark:", r":white_check_mark:", r":zzz:",
    ),
    # a count of failures a tool prints beside its results (`Send Failed: 0`, `errors=0`,
    # `--- failure 0.0 msg/s`), which is no job's status
    "counter": (r"\b(?:failed|success|failures?|errors?|passed)[ \t]*[:=]?[ \t]*\d",),
}  # fmt: skip
# A PR template's or an issue form's headings and check boxes, at a line start. (With
# `re`: Hyperscan 0.9.1 misses `- [ ] ` after a line start when another pattern of
# the same database starts `^[ \t#*>]*` too.) Counted in "\n" + the lowered text
# (`prefilter.lowered`: no re.I, so no letter's cases tried at each step) as the line
# breaks a template line follows: the search skips from one break to the next, where
# `^` (re.M) is tried at every position.
_TEMPLATE_LINE = re.compile(
    r"\n(?=[ \t#*>]*+(?:what changes were proposed|why are the changes needed"
    r"|does this pr introduce"
    r"|how was this patch tested|what is the purpose of the change|brief change ?log"
    r"|verifying this change|does this pull request potentially affect|documentation\b"
    r"|motivation\b|modifications\b|verifying\b|checklist\b|description\b|component\(s\)"
    r"|purpose of (?:this|the) pull request|related issues?\b|- \[[ x]\] "
    r"|what happened\b|how to reproduce\b|steps to reproduce\b|to reproduce\b"
    r"|what you (?:think|expected) should happen|describe the bug|expected behaviou?r"
    r"|actual behaviou?r|(?:apache )?[\w-]{2,20} version\b|anything else\b|are you willing"
    r"|- [\w ,()./'-]{3,80}: (?:yes|no|don't know)\b))"
)
_VOTE_SUBJECT = re.compile(r"\[vote\]|\[result\]|release candidate|\brc ?#?\d\b", re.I)
# (case matters and it is cheap: `re`, line by line. Counted in "\n" + the text as the
# line breaks a config line follows, as `_TEMPLATE_LINE`; the line is looked at
# ahead, not taken: `- key:` takes its own line break, the next line's)
_CONFIG_LINE = re.compile(
    r"\n(?=[ \t]*+(?:<(?:property|name|value)>|[\w.\-]++[ \t]*+[=:][ \t]*+\S++[ \t]*+$"
    r"|- [\w.\-]++:\s))",
    re.M,
)

_HEAD = 20000  # only this much of a message is read: the families show at its start
_LINE_BREAK = re.compile(rb"\n")

# (id -> what it is a mark of: a family and the mark's index, or a line mark's name
# and -1)
_WHAT: list[tuple[str, int]] = [
    (family, k) for family, marks in MARKS.items() for k in range(len(marks))
] + [(name, -1) for name, marks in LINE_MARKS.items() for _ in marks]
_PATTERNS = [p for marks in MARKS.values() for p in marks] + [
    p for marks in LINE_MARKS.values() for p in marks
]
_local = threading.local()


def _database() -> hyperscan.Database:
    db = getattr(_local, "db", None)
    if db is None:
        base = hyperscan.HS_FLAG_CASELESS | hyperscan.HS_FLAG_UTF8 | hyperscan.HS_FLAG_MULTILINE
        # (every match is reported, though a mark's first would do: the prefilter met
        # Hyperscan missing a match with HS_FLAG_SINGLEMATCH, see `prefilter._flags`)
        rows = [(p.encode("utf-8"), i, base) for i, p in enumerate(_PATTERNS)]
        # (compiling takes ~1 s: kept in a file, read back in milliseconds)
        db = _local.db = cached_database("families", rows)
    return db


# A commit message's trailer line (`Tested-by:`, `Reviewed-on:`, `Change-Id:`).
_TRAILER = re.compile(r"^[ \t]*+(?:[A-Z][\w-]{0,30}-by|Change-Id|Reviewed-on):[^\n]*+", re.M)


def without_trailers(text: str) -> str:
    """`text` with its commit trailers blanked (offsets kept): they are bookkeeping,
    `Tested-by: Kudu Jenkins` is no CI report."""
    if "-by:" not in text and "Change-Id:" not in text:
        return text
    return _TRAILER.sub(lambda m: " " * len(m.group()), text)


def marks_found(text: str, subject: str = "") -> tuple[dict[str, set[int]], dict[str, int]]:
    """The marks of each family `text` (with `subject`, for the families that show
    there) holds, by index into MARKS, and the number of lines each line mark is on."""
    db = _database()
    found: dict[str, set[int]] = {}
    lines: dict[str, set[int]] = {}
    head = without_trailers(text[:_HEAD])
    # (a line-start mark needs a line start before the text's first line, as `re` has)
    data = ("\n" + head).encode("utf-8", "surrogatepass")
    line_starts: list[int] = []

    def in_body(i: int, start: int, end: int, flags: int, context: object) -> None:
        family, k = _WHAT[i]
        if k < 0:
            if not line_starts:  # (found at the first line mark: most mail has none)
                line_starts.extend(m.end() for m in _LINE_BREAK.finditer(data))
            lines.setdefault(family, set()).add(bisect_right(line_starts, end - 1))
        else:
            found.setdefault(family, set()).add(k)

    def in_subject(i: int, start: int, end: int, flags: int, context: object) -> None:
        family, k = _WHAT[i]
        if k >= 0 and family in IN_SUBJECT:
            found.setdefault(family, set()).add(k)

    db.scan(data, match_event_handler=in_body)
    if subject:  # (apart: a mark's first match in the subject would end its scan)
        db.scan(subject.encode("utf-8", "surrogatepass"), match_event_handler=in_subject)
    return found, {name: len(at) for name, at in lines.items()}


# (a line's width as mail is written: what a line count is measured in)
_LINE_WIDTH = 80


@functools.lru_cache(maxsize=4)  # (the number model and the verdict ask in turn)
def families(text: str, subject: str = "") -> dict[str, float]:
    """The families `text` (with `subject`) shows, each with its strength (0..1]."""
    out: dict[str, float] = {}
    body = text[:_HEAD]
    # (the lines it would have as written: mail flattened onto one line, or a paragraph
    # left unwrapped, is as many lines as its length fills, not one that a single
    # `failed` fills whole)
    # (counted in C: a Python step a line cost more than the rest of the count)
    filled = sum(map(bool, map(str.strip, body.splitlines())))
    n_lines = max(1, filled, len(body) // _LINE_WIDTH)
    found, lines = marks_found(text, subject)
    n = {family: len(marks) for family, marks in found.items()}

    status = lines.get("status", 0)
    if ci := n.get("ci", 0):
        out["ci"] = min(1.0, ci / 3 + status / n_lines)
    elif (status := status - lines.get("counter", 0)) >= 3 and status / n_lines >= 0.3:
        # (a job's or a test's status on a third of the lines, with no bot named: a CI
        # summary, `| build (ubuntu, 3.12) | success | 12m 5s |`)
        out["ci"] = min(1.0, status / n_lines)
    votes = n.get("vote", 0) + (2 if _VOTE_SUBJECT.search(subject) else 0)
    checks = n.get("vote_check", 0)
    if votes or checks >= 3:
        out["vote"] = min(1.0, votes / 2 + (checks / 6 if votes else checks / 9))
    if bug := n.get("bug", 0):
        out["bug"] = min(1.0, bug / 4)
    if n_lines >= 4:
        configs = len(_CONFIG_LINE.findall("\n" + body))
        if configs / n_lines > 0.4:
            out["config"] = min(1.0, configs / n_lines)
    if design := n.get("design", 0):
        out["design"] = min(1.0, design / 4)
    if request := n.get("request", 0):
        out["request"] = min(1.0, request / 2)
    if template := len(_TEMPLATE_LINE.findall("\n" + lowered(body))):
        # (the share of the message the template fills: its headings and check boxes)
        out["template"] = min(1.0, 2 * template / n_lines)
    if announce := n.get("announce", 0):
        out["announce"] = min(1.0, announce / 3)
    return out
