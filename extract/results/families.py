"""The families of ordinary list traffic that carry numbers and are not benchmark
reports: each a cheap, general test on a message's own text (and subject), used as
message-level features by the fitted verdict (`extract.results.verdict`).

Most of lists.apache.org is this mail. Each family is recognised by how its kind of
message is written, never by a project or a message:
* `ci`: CI and bot results: Yetus / QA votes, Jenkins and GitHub Actions summaries,
  test-result bots (`Total time taken`, `Tests run`, pass/fail tallies), coverage and
  quality-gate bots (Codecov, Sonar), dependency bots (`Bumps x from 1.2 to 1.3`);
* `vote`: release votes and checks (`[VOTE]`, `+1 (binding)`, release candidates,
  checksums, signatures, `KEYS`, how long a vote stays open);
* `bug`: bug reports with logs: stack traces, exceptions, JVM flags, `OutOfMemoryError`,
  steps to reproduce, "after 8-9 hours";
* `config`: configuration dumps (`key=value`, `<property>`, YAML) filling the message;
* `design`: design talk about limits and defaults (`default`, `limit`, `max`,
  `configurable`, `should`, proposals) without measured results;
* `request`: requests for benchmarks ("could you run", "please share the numbers",
  a list of metrics to collect);
* `template`: PR / issue templates (`What changes were proposed`, `How was this patch
  tested`, check boxes).
"""

from __future__ import annotations

import functools
import re

_CI = re.compile(
    r"\+1 overall|-1 overall|hadoop qa|apache yetus|\byetus\b|jenkins|build (?:#\d+|failed"
    r"|succeeded|success|failure|is back to normal|unstable)|total time taken|tests? run:"
    r"|tests? results?:|test(?:s)? (?:passed|failed)|(?<!\d)\d++ (?:passed|failed|skipped)\b"
    r"|github actions|workflow run|check run|codecov|coverage (?:increased|decreased|report)"
    r"|sonar(?:cloud|qube)?|quality gate|dependabot|renovate|\bbumps? \S+ from \S+ to"
    r"|trillian|test result \(|smoke ?test|ci (?:run|report|result)|\bci\b.{0,20}(?:passed"
    r"|failed|green|red)|build log|console output",
    re.I,
)
_VOTE = re.compile(
    r"\[vote\]|\[result\]|\+1 \(binding\)|\+1 \(non-binding\)|\bbinding\b|release candidate"
    r"|\brc\d\b|\bvote (?:will|is) open|open for at least \d+ hours|sha-?512|sha-?256|\.asc\b"
    r"|\bgpg\b|\bkeys file|signatures?|checksums?|\[announce\]|staging repo|nexus",
    re.I,
)
_BUG = re.compile(
    r"exception\b|^[ \t]++at [\w$.]++\(|caused by:|traceback \(most recent|outofmemory|oom\b"
    r"|-xx:|-xmx\d|-xms\d|jvm (?:flags|options|args)|steps to reproduce|stack ?trace"
    r"|heap dump|core dump|segfault|\bcrash|\bhang(?:s|ing)?\b|deadlock|npe\b",
    re.I | re.M,
)
_CONFIG_LINE = re.compile(
    r"^[ \t]*+(?:<(?:property|name|value)>|[\w.\-]++[ \t]*+[=:][ \t]*+\S++[ \t]*+$|- [\w.\-]++:\s)",
    re.M,
)
_DESIGN = re.compile(
    r"\bdefault(?:s| value)?\b|\blimits?\b|\bmax(?:imum)?\b|configurable|\bshould\b"
    r"|\bpropos|\bdesign\b|\bthreshold\b|\btimeout\b|\bwe could\b|\bwhat if\b|\bsuggest",
    re.I,
)
_REQUEST = re.compile(
    r"(?:could|can|would) you (?:please )?(?:run|share|post|provide|attach|do|try|add)"
    r"|please (?:run|share|post|provide|attach|do)|(?:would|will) be (?:nice|great|good|helpful)"
    r" to (?:see|have|get)|any (?:benchmark|perf|performance)\w* (?:numbers|results|data)\?"
    r"|do (?:we|you) have (?:any )?(?:benchmark|perf)|(?:need|want) (?:some |more )?"
    r"(?:benchmark|perf|performance) (?:numbers|results|data)|metrics to (?:collect|capture)",
    re.I,
)
_TEMPLATE = re.compile(
    r"what changes were proposed|why are the changes needed|how was this patch tested"
    r"|does this pr introduce|^#++ (?:description|motivation|checklist)\b|^[ \t]*+- \[[ x]\] ",
    re.I | re.M,
)


@functools.lru_cache(maxsize=4)  # (the number model and the verdict ask in turn)
def families(text: str, subject: str = "") -> dict[str, float]:
    """The families `text` (with `subject`) shows, each with its strength (0..1]."""
    out: dict[str, float] = {}
    head = subject + "\n" + text[:20000]
    if n := len(_CI.findall(head)):
        out["ci"] = min(1.0, n / 3)
    if n := len(_VOTE.findall(head)):
        out["vote"] = min(1.0, n / 3)
    if n := len(_BUG.findall(text[:20000])):
        out["bug"] = min(1.0, n / 4)
    lines = [ln for ln in text[:20000].splitlines() if ln.strip()]
    if len(lines) >= 4:
        configs = len(_CONFIG_LINE.findall(text[:20000]))
        if configs / len(lines) > 0.4:
            out["config"] = min(1.0, configs / len(lines))
    if n := len(_DESIGN.findall(text[:20000])):
        out["design"] = min(1.0, n / 5)
    if _REQUEST.search(text[:20000]):
        out["request"] = 1.0
    if n := len(_TEMPLATE.findall(text[:20000])):
        out["template"] = min(1.0, n / 2)
    return out
