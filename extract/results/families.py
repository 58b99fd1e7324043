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
  `OOMKilled`, crashes, hangs, timeouts, thread dumps, GC logs ("dies after 8-9 hours");
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

A family's strength (0..1] grows with the distinct marks of it that a message shows
(and, for the families that fill a message, with the share of its lines they fill): one
stray word (`checksum` in a storage patch, `should` in a report) weighs little.
"""

from __future__ import annotations

import functools
import re

# (each alternative starts with a literal or a bounded class; the quantifiers that
# follow a class are possessive or bounded: linear, tests/test_linear_patterns.py)
_CI = re.compile(
    r"[+-]1 overall|hadoop qa|apache yetus|\byetus\b|total time taken|quality gate"
    r"|codecov|coverage diff|\bbumps? \S++ from \S++ to\b|dependabot|renovate|\btrillian\b"
    r"|build (?:#\d|failed|succeeded|successful|failure|success|is back to normal|unstable"
    r"|fixed|still failing)|reactor summary|tests? run: ?\d|\brun (?:failed|succeeded|cancelled)"
    r"|\bci report|smoke tests? completed|^#++ ?test results|\bjenkins\b|github actions"
    r"|workflow run|check run|sonar(?:cloud|qube)|\bflaky\b|nightly build|\bprecommit\b"
    r"|\bpre-commit\b|bot commands|\btests? (?:passed|failed)\b|\bci (?:passed|failed|is green)"
    r"|(?<!\d)\d++ (?:passed|failed|skipped)\b|build log|console output|\bci (?:run|result)"
    r"|tests? results?:|test result \(|smoke ?test|\bci\b[^\n]{0,20}?(?:passed|failed|green|red)\b"
    r"|\btest report\b|^[ \t]*+/rerun\b|\brerun (?:with|the)\b|\bworkflow:|\bjobs?:",
    re.I | re.M,
)
# A line that states a job's or a test's status: a tally or a verdict.
_STATUS_LINE = re.compile(
    r"^[^\n]{0,200}?(?:\b(?:passed|failed|succeeded|skipped|success|failure|cancell?ed|pending"
    r"|errors?)\b|✅|❌|✔|✖|:x:|:heavy_check_mark:|:white_check_mark:|:zzz:)",
    re.I | re.M,
)
_VOTE_SUBJECT = re.compile(r"\[vote\]|\[result\]|release candidate|\brc ?#?\d\b", re.I)
_VOTE = re.compile(
    r"\+1 \((?:non-?)?binding\)|\bbinding votes?\b|\bvote (?:is|will be|will remain|stays) open"
    r"|open for at least \d++ hours|^[ \t]*+\[ ?\] ?[+-][01]\b|release candidate|staging repo"
    r"|\bkeys file\b|/KEYS\b|the vote (?:passes|passed|fails|failed)|\bvotes? (?:cast|tally)"
    r"|\bcall for (?:a )?vote\b|\[vote\]|\[result\]|\bbinding\b|\brc\d\b|\[announce\]|\bnexus\b",
    re.I | re.M,
)
# The checks a voter makes: a vote's words only where the vote's own marks are, or
# several together (`checked signatures, checksums, LICENSE and NOTICE`).
_VOTE_CHECK = re.compile(
    r"\bchecksums?\b|\bsignatures?\b|\bsha-?(?:512|256)\b|\.asc\b|\bgpg\b|\bhashes\b"
    r"|\blicense and notice\b|\bnotice file|built (?:it )?from (?:the )?source|\brat check"
    r"|\bverified\b|\bchecked\b",
    re.I,
)
# (a stack frame by its dotted name, `at org.foo.Bar.run(`, not by its place on the
# line: every alternative then starts with a letter or `-x`, and the lookahead turns
# every other position away at once)
_BUG = re.compile(
    r"(?=[a-z]|-x)(?:\bat (?:[\w$<>]++\.)++[\w$<>]++\(|caused by:|traceback \(most recent"
    r"|\b(?-i:(?:[a-z]\w{0,40}\.){1,12}[A-Z]\w{0,60}?(?:Exception|Error))\b|outofmemory|\boomkilled\b|\boom\b|sigsegv|sigabrt|segfault"
    r"|segmentation fault|core dumped|\bhs_err|heap dump|-xx:|-xmx\d|-xms\d"
    r"|jvm (?:flags|options|args)|exit code:? ?\d|\bdeadlock|\bnpe\b"
    r"|nullpointerexception|\bcrash(?:es|ed|ing)?\b|\bhangs?\b|\bhanging\b|\bhung\b"
    r"|\bfails with\b|\bstack ?trace\b|exception\b|error:|\bthread dump\b|\bjstack\b"
    r"|\bliveness probe\b|\bcrashloopbackoff\b|\bkilled\b|\bblocked\b"
    r"|\bgc\(\d|pause (?:young|full)|evacuation pause|\bfull gc\b|\bgc pauses?\b|\bsafepoint\b"
    r"|\btimes? ?out\b|timed out|\bstuck\b|never finishes|\bpending\b|\blag\b)",
    re.I,
)
_CONFIG_LINE = re.compile(
    r"^[ \t]*+(?:<(?:property|name|value)>|[\w.\-]++[ \t]*+[=:][ \t]*+\S++[ \t]*+$|- [\w.\-]++:\s)",
    re.M,
)
# (every alternative starts with `[` or a letter: the lookahead turns every other
# position away at once, where a regex engine would try each alternative there)
_DESIGN = re.compile(
    r"(?=[\[a-z])(?:\[discuss\]|\b(?:kip|pip|flip|spip|hip|aip)-\d|\bproposal\b"
    r"|\bi propose\b|\bwe propose\b"
    r"|\bpropose to\b|\bthe default\b|\bdefault (?:value|of|is|to|should)\b|\ba limit of\b"
    r"|\blimit (?:is|should|to)\b|\bmax(?:imum)? (?:allowed|size|number)\b|\bconfigurable\b"
    r"|\bshould we\b|\bwe could\b|\bwhat if\b|\bin theory\b|\btheoretical(?:ly)?\b"
    r"|\bi(?:'d| would) expect\b|\bestimat(?:e|ed|ion)\b|\bassum(?:e|ing)\b"
    r"|\bi(?:'ll| will) (?:run|post|share|try|compare)\b|\bwill (?:post|share) (?:the )?"
    r"(?:results|numbers)\b|\bnext week\b|\bplan(?:ning)? to\b|\bwe plan\b|\bsoft limit\b"
    r"|\bhard limit\b|\bcap (?:it|at)\b|\bdefaults? (?:to|for)\b|\bby default\b"
    r"|\blimits? (?:on|for)\b"
    r"|\bsuggest\w{0,4}|\bpropos\w{0,4}|\bdesign\b|\bshould (?:be|not|also)\b)",
    re.I,
)
_REQUEST = re.compile(
    r"(?:could|can|would) you (?:please )?(?:also )?(?:run|share|post|provide|attach|do|try"
    r"|add|test|benchmark|measure|include)\b|please (?:run|share|post|provide|attach|include)\b"
    r"|(?:would|will) be (?:nice|great|good|helpful) to (?:see|have|get)"
    r"|any (?:benchmark|perf|performance)\w{0,10} (?:numbers|results|data)\b"
    r"|do (?:we|you) have (?:any )?(?:benchmark|perf)|(?:need|want|like to see) (?:some |more )?"
    r"(?:benchmark|perf|performance|stress[ -]test) (?:numbers|results|data|report)"
    r"|metrics to (?:collect|capture)|能否提供|请提供|麻烦提供|please benchmark\b"
    r"|^[ \t]*+/benchmark\b|@\w{1,30}bot (?:please )?(?:benchmark|run)\b",
    re.I | re.M,
)
_TEMPLATE_LINE = re.compile(
    r"^[ \t#*>]*+(?:what changes were proposed|why are the changes needed|does this pr introduce"
    r"|how was this patch tested|what is the purpose of the change|brief change ?log"
    r"|verifying this change|does this pull request potentially affect|documentation\b"
    r"|motivation\b|modifications\b|verifying\b|checklist\b|description\b|component\(s\)"
    r"|purpose of (?:this|the) pull request|related issues?\b|- \[[ xX]\] "
    r"|what happened\b|how to reproduce\b|steps to reproduce\b|to reproduce\b"
    r"|what you (?:think|expected) should happen|describe the bug|expected behaviou?r"
    r"|actual behaviou?r|(?:apache )?[\w-]{2,20} version\b|anything else\b|are you willing"
    r"|- [\w ,()./'-]{3,80}: (?:yes|no|don't know)\b)",
    re.I | re.M,
)
_ANNOUNCE = re.compile(
    r"\[announce\]|\bis (?:proud|pleased|happy) to announce|\brelease notes\b|\bcve-\d{4}-\d"
    r"|\bcvss\b|\baffected versions?\b|\bseverity:|\bboard report\b|\bcontributors\b"
    r"|\bnew committers?\b|\bpmc members?\b|\battendees\b|\bagenda\b|\bmeeting notes\b"
    r"|\bnotes from\b|\bcode freeze\b|\bbranch cut\b|\bblockers?\b|\bdownloads? (?:page|from)\b",
    re.I,
)

_HEAD = 20000  # only this much of a message is read: the families show at its start


def _distinct(pattern: re.Pattern[str], text: str) -> int:
    """How many different marks (as written, case aside) of `pattern` `text` shows."""
    return len({m.group(0).strip().lower() for m in pattern.finditer(text)})


@functools.lru_cache(maxsize=4)  # (the number model and the verdict ask in turn)
def families(text: str, subject: str = "") -> dict[str, float]:
    """The families `text` (with `subject`) shows, each with its strength (0..1]."""
    out: dict[str, float] = {}
    body = text[:_HEAD]
    head = subject + "\n" + body
    lines = [ln for ln in body.splitlines() if ln.strip()]
    n_lines = max(1, len(lines))

    ci = _distinct(_CI, head)
    status = len(_STATUS_LINE.findall(body)) / n_lines if ci else 0.0
    if ci:
        out["ci"] = min(1.0, ci / 3 + status)
    votes = _distinct(_VOTE, head) + (2 if _VOTE_SUBJECT.search(subject) else 0)
    checks = _distinct(_VOTE_CHECK, body)
    if votes or checks >= 3:
        out["vote"] = min(1.0, votes / 2 + (checks / 6 if votes else checks / 9))
    if n := _distinct(_BUG, body):
        out["bug"] = min(1.0, n / 4)
    if len(lines) >= 4:
        configs = len(_CONFIG_LINE.findall(body))
        if configs / n_lines > 0.4:
            out["config"] = min(1.0, configs / n_lines)
    if n := _distinct(_DESIGN, head):
        out["design"] = min(1.0, n / 4)
    if n := _distinct(_REQUEST, body):
        out["request"] = min(1.0, n / 2 + 0.5)
    if n := len(_TEMPLATE_LINE.findall(body)):
        # (the share of the message the template fills: its headings and check boxes)
        out["template"] = min(1.0, 2 * n / n_lines)
    if n := _distinct(_ANNOUNCE, head):
        out["announce"] = min(1.0, n / 3)
    return out
