"""What kind of message it is: `message_kind(subject, from_name, from_address, text,
headers)` returns a `Kind` (jira, github, commit or mail, plus the issue key,
action, actor, repo, PR/issue number, branch, commit id and the link the message
gives), and `permalink(list, message_id, month)` the message's lists.apache.org link.

Pure functions of the parsed message. The rules follow the automated senders'
templates (design note archive-api.md §5.2-5.4):
- jira: `[jira] [Commented] (KUDU-1930) ...` and the older `[jira] Commented: (KEY-1)`.
- github, four eras: `[GitHub] repo pull request: title` (≤2017, number from the
  body's link), `[GitHub] [repo] user commented on pull request #N: title`
  (2018-2023, also "opened a new pull request, #N"), `[PR] title [repo]` /
  `Re: [I] title (repo)` (2023+, number and user from the body's first line).
- commit: git-multimail (`[repo] branch b updated: ...`, `[repo] 01/03: ...`,
  X-Git-* headers), git-wip-us (`[1/2] repo git commit: ...`), `svn commit: r123`.
A human's reply to a notification (`Re: [jira] ...` not sent by JIRA) is `mail`,
but keeps the issue key / repo / number it is about.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from urllib.parse import quote


@dataclass(slots=True)
class Kind:
    kind: str = "mail"
    action: str | None = None
    actor: str | None = None
    issue_key: str | None = None
    repo: str | None = None
    pr_number: int | None = None
    branch: str | None = None
    commit_id: str | None = None
    url: str | None = None


_RE_PREFIX = re.compile(r"^\s*(?:(?:re|aw|fwd?|sv)\s*(?:\[\d+\])?\s*:\s*)+", re.I)
_ISSUE_KEY = re.compile(r"\b([A-Z][A-Z0-9_]{1,30}-\d{1,7})\b")
# Keys that look like JIRA keys but name standards, proposals or encodings.
_NOT_JIRA = frozenset((
    "UTF", "ISO", "SHA", "MD", "RFC", "CVE", "JSR", "JEP", "PEP", "KIP", "FLIP", "SPIP", "HIP",
    "AIP", "QEP", "IEEE", "ANSI", "AES", "RSA", "TLS", "SSL", "HTTP", "SQL", "CP", "WINDOWS",
    "LATIN", "GB", "BIG", "X",
))  # fmt: skip

_JIRA_SUBJECT = re.compile(
    r"\[jira\]\s*(?:\[(?P<action>[^\]]{1,40})\]\s*\((?P<key>[A-Z][A-Z0-9_]+-\d+)\)"
    r"|(?P<action2>[A-Za-z ]{2,40}):\s*\((?P<key2>[A-Z][A-Z0-9_]+-\d+)\))",
    re.I,
)
_JIRA_LINK = re.compile(r"\[\s*(https?://issues\.apache\.org/jira/browse/[^\s\]]+)\s*\]")
# JIRA's notifier names its sender `<actor> (JIRA)`; a web archive or a re-sent copy
# hides the address (`<j...@apache.org>`, none at all). Unquoted, the `(JIRA)` is an
# address comment, which a parser gives as the name (`Walter Su (JIRA)` -> name `JIRA`,
# address `Walter`). A person's reply is never so named.
_JIRA_NAME = re.compile(r"\(jira\)", re.I)
_JIRA_COMMENT = re.compile(r"jira\b", re.I)
# One line, `who` starting at its first non-blank: a `\s*` before a lazy `who` and a
# `\s+` after it once claimed the same blanks and line breaks, and 4 kB of whitespace
# lines took 10 s (cubic).
_JIRA_ACTOR = re.compile(
    r"^[ \t]*+(?P<who>\S[^\n]{0,99}?)[ \t]++(?:commented on|edited comment on|created|"
    r"updated|logged work on|resolved|reopened|closed|assigned)[ \t]++[A-Z][A-Z0-9_]+-\d+",
    re.M,
)

_GITHUB_B = re.compile(  # 2018-2023: "[GitHub] [hive] user commented on pull request #3644: t"
    r"\[GitHub\]\s*\[(?P<repo>[\w.-]+)\]\s+(?P<user>\S+)\s+(?P<action>[^#]{2,60}?),?\s+"
    r"#(?P<num>\d+):?",
    re.I,
)
_GITHUB_A = re.compile(  # ≤2017: "[GitHub] spark pull request #21070: t" / "... pull request: t"
    r"\[GitHub\]\s*(?P<repo>[\w.-]+)\s+(?P<what>pull request|issue)(?:\s+#(?P<num>\d+))?\s*:",
    re.I,
)
_GITHUB_D = re.compile(  # 2023+: "[PR] title [repo]", "Re: [I] title (repo)", "[D] ..."
    r"^\[(?P<what>PR|I|D)\]\s+.*?[\[(](?P<repo>[\w.-]+)[\])]\s*$"
)
_GITHUB_URL = re.compile(
    r"https?://github\.com/(?P<org>[\w.-]+)/(?P<repo>[\w.-]+)/(?P<what>pull|issues|discussions)"
    r"/(?P<num>\d+)[^\s<>\"')\]]*"
)
_GITHUB_USER_LINE = re.compile(
    r"^[ \t]*+(?:GitHub user\s++)?(?P<user>[\w.\[\]-]+)\s++"
    r"(?P<action>commented on (?:a change in |code in |a diff in )?"
    r"(?:pull request|PR|issue|the issue|the pull request)"
    r"|opened a (?:new )?(?:pull request|issue)|merged (?:pull request|PR)"
    r"|closed (?:pull request|PR|issue)|edited a comment on \w+(?: \w+)?"
    r"|removed a comment on \w+(?: \w+)?)(?:,?\s*#(?P<num>\d+))?",
    re.M | re.I,
)

_MULTIMAIL_SUBJECT = re.compile(
    r"^\[(?P<repo>[\w.-]+)\]\s+(?:(?P<reftype>branch|tag)\s+(?P<ref>\S+)\s+"
    r"(?P<action>updated|created|deleted)|(?P<n>\d{2,})/(?P<m>\d{2,}):)"
)
_WIP_SUBJECT = re.compile(r"^(?:\[\d+/\d+\]\s+)?(?P<repo>[\w.-]+)\s+git commit:")
_SVN_SUBJECT = re.compile(r"^(?P<vcs>svn|cvs) commit:\s*(?:r(?P<rev>\d+))?")
_WIP_COMMIT = re.compile(r"^Commit:\s+(?P<sha>[0-9a-f]{40})\b", re.M)
_WIP_BRANCH = re.compile(r"^Branch:\s+refs/heads/(?P<b>\S+)", re.M)
_WIP_COMMIT_URL = re.compile(r"^Commit:\s+(?P<url>https?://\S+/commit/\S+)", re.M)
_PUSHED = re.compile(
    r"^(?P<who>\S+)\s+pushed a (?:commit|change) to (?:branch|tag)\s+(?P<b>\S+)\s+"
    r"in repository\s+(?P<url>https?://\S+?)(?:\.git)?\s*$",
    re.M,
)
_SVN_AUTHOR = re.compile(r"^Author:\s+(?P<who>\S+)", re.M)
_URL_LINE = re.compile(r"^[ \t]*+URL:\s*+(\S+)", re.M)
# `commit <sha>` found by its word first, then checked to start its line: a pattern
# that starts with `^` makes the regex engine try every position of the text.
_COMMIT_WORD = re.compile(r"commit\s+(?P<sha>[0-9a-f]{40})\b")


_BIGINT_MAX = 2**63 - 1


def pr_number(digits: str | None) -> int | None:
    """A PR or issue number from mail, or None when there is none or it does not fit
    the database's BIGINT (a number in a message must never fail the load)."""
    if not digits:
        return None
    n = int(digits)
    return n if n <= _BIGINT_MAX else None


def _search(pattern: re.Pattern, needle: str, text: str) -> re.Match | None:
    """pattern.search(text), skipped when `needle`, which every match contains, is
    absent (an `in` test costs far less than a regex scan of the body)."""
    return pattern.search(text) if needle in text else None


def _commit_sha(head: str) -> str | None:
    """What `^\\s*commit\\s+(<40 hex digits>)\\b` (multiline) finds first."""
    for m in _COMMIT_WORD.finditer(head):
        if not head[head.rfind("\n", 0, m.start()) + 1 : m.start()].strip():
            return m.group("sha")
    return None


def _issue_key(text: str | None) -> str | None:
    for m in _ISSUE_KEY.finditer(text or ""):
        if m.group(1).split("-")[0] not in _NOT_JIRA:
            return m.group(1)
    return None


def _is_reply(subject: str) -> bool:
    return bool(_RE_PREFIX.match(subject))


def message_kind(
    subject: str | None,
    from_name: str | None,
    from_address: str | None,
    text: str,
    headers: dict[str, str] | None = None,
) -> Kind:
    subject = subject or ""
    bare = _RE_PREFIX.sub("", subject).strip()
    head = text[:4000]  # every marker we read sits at the top of the body
    headers = headers or {}
    sender = (from_address or "").lower()
    for typer in (_jira, _github, _commit):
        k = typer(subject, bare, from_name, sender, head, headers)
        if k is not None:
            if k.issue_key is None:
                k.issue_key = _issue_key(bare)
            return k
    k = Kind("mail", issue_key=_issue_key(bare))
    gh = _GITHUB_URL.search(head)
    if gh and gh.group("org").lower() == "apache":
        k.repo, k.pr_number = gh.group("repo"), pr_number(gh.group("num"))
    return k


def _jira(subject, bare, from_name, sender, head, headers) -> Kind | None:
    m = _JIRA_SUBJECT.search(subject)
    if not m:
        return None
    key = m.group("key") or m.group("key2")
    action = (m.group("action") or m.group("action2") or "").strip()
    # (the name a parser made of an unquoted `Name (JIRA)`: the comment, with no address)
    parsed_comment = "@" not in sender and _JIRA_COMMENT.match(from_name or "") is not None
    by_jira = (
        sender.startswith("jira@")
        or "x-jira-fingerprint" in headers
        or _JIRA_NAME.search(from_name or "") is not None
        or "(jira)" in sender
        or parsed_comment
    )
    link = _JIRA_LINK.search(head)
    k = Kind("jira" if by_jira else "mail", action=action or None, issue_key=key)
    k.url = link.group(1) if link else f"https://issues.apache.org/jira/browse/{key}"
    who = _JIRA_ACTOR.search(head) if by_jira else None  # (a slow pattern: only when used)
    if who:
        k.actor = who.group("who").strip()
    elif from_name and not parsed_comment:
        k.actor = re.sub(r"(?<!\s)\s*+\((?:JIRA|Jira)\)\s*$", "", from_name).strip() or None
    return k


def _github(subject, bare, from_name, sender, head, headers) -> Kind | None:
    k = Kind("github")
    m = _GITHUB_B.search(subject)
    if m:
        k.repo, k.actor = m.group("repo"), m.group("user")
        k.action, k.pr_number = m.group("action").strip().rstrip(","), pr_number(m.group("num"))
    elif m := _GITHUB_A.search(subject):
        k.repo, k.action = m.group("repo"), m.group("what")
        k.pr_number = pr_number(m.group("num"))
    elif m := _GITHUB_D.match(bare):
        k.repo = m.group("repo")
        k.action = {"PR": "pull request", "I": "issue", "D": "discussion"}[m.group("what")]
    else:
        return None
    if not (sender.startswith(("git@", "gitbox@")) or "github" in (from_name or "").lower()):
        k.kind = "mail"  # a person replying to a notification
    line = _GITHUB_USER_LINE.search(head)
    if line:
        k.actor = k.actor or line.group("user")
        if k.action in (None, "pull request", "issue", "discussion"):
            k.action = line.group("action")
        if k.pr_number is None and line.group("num"):
            k.pr_number = pr_number(line.group("num"))
    if k.actor is None and from_name:
        k.actor = re.sub(r"(?<!\s)\s*+\(via GitHub\)\s*$", "", from_name).strip() or None
    url = _search(_URL_LINE, "URL:", head)
    gh = _GITHUB_URL.search(url.group(1) if url else head)
    if gh:
        k.url = gh.group(0)
        k.repo = k.repo or gh.group("repo")
        if k.pr_number is None:
            k.pr_number = pr_number(gh.group("num"))
    return k


def _commit(subject, bare, from_name, sender, head, headers) -> Kind | None:
    reply = _is_reply(subject)
    k = Kind("mail" if reply else "commit")  # a reply to a commit mail is a person's mail
    if m := _MULTIMAIL_SUBJECT.match(bare):
        k.repo = headers.get("x-git-repo") or m.group("repo")
        k.action = m.group("action") or "commit"
        if m.group("reftype") == "branch":
            k.branch = m.group("ref")
    elif m := _WIP_SUBJECT.match(bare):
        k.repo, k.action = m.group("repo"), "commit"
    elif m := _SVN_SUBJECT.match(bare):
        k.action = f"{m.group('vcs')} commit"
        if m.group("rev"):
            k.commit_id = "r" + m.group("rev")
            k.url = f"https://svn.apache.org/r{m.group('rev')}"
        who = _search(_SVN_AUTHOR, "Author:", head)
        k.actor = who.group("who") if who else None
        return k
    elif "x-git-repo" in headers:
        k.repo, k.action = headers["x-git-repo"], "commit"
    else:
        return None
    ref = headers.get("x-git-refname", "")
    if ref.startswith("refs/heads/"):
        k.branch = k.branch or ref[len("refs/heads/") :]
    pushed = _search(_PUSHED, "pushed a ", head)
    if pushed:
        k.actor = pushed.group("who")
        k.branch = k.branch or pushed.group("b")
    wip_sha = _search(_WIP_COMMIT, "Commit:", head)
    sha = _commit_sha(head) or (wip_sha.group("sha") if wip_sha else None)
    k.commit_id = sha or headers.get("x-git-rev") or None
    if branch := _search(_WIP_BRANCH, "Branch:", head):
        k.branch = k.branch or branch.group("b")
    if url := _search(_WIP_COMMIT_URL, "Commit:", head):
        k.url = url.group("url")
    elif k.commit_id and k.repo:
        k.url = f"https://github.com/apache/{k.repo}/commit/{k.commit_id}"
    if k.actor is None and sender.endswith("@apache.org"):
        k.actor = sender.split("@")[0]
    return k


# quote(s, safe="") for ASCII text with one regex substitution (urllib's quote loops
# over every byte in Python: 5 us for a Message-ID, a tenth of a message's typing).
_UNSAFE_ASCII = re.compile(r"[^A-Za-z0-9_.~-]")
_PERCENT = {chr(c): f"%{c:02X}" for c in range(128)}


def _percent(m: re.Match) -> str:
    return _PERCENT[m.group()]


def _quote_all(text: str) -> str:
    return _UNSAFE_ASCII.sub(_percent, text) if text.isascii() else quote(text, safe="")


@functools.lru_cache(maxsize=256)
def _list_id_query(list_address: str) -> str:
    name, _, domain = list_address.partition("@")
    return _quote_all(f"<{name}.{domain}>")


def permalink(list_address: str, message_id: str | None, month: str | None = None) -> str:
    """lists.apache.org's lookup by Message-ID (`/thread/<mid>?<list.id>`, §3), or the
    list's month view when the message has no Message-ID."""
    if message_id:
        mid = _quote_all(f"<{message_id}>")
        return f"https://lists.apache.org/thread/{mid}?{_list_id_query(list_address)}"
    view = quote(list_address, safe="@")
    if month and re.fullmatch(r"\d{4}-\d{2}", month):
        view += f":{month[:4]}-{int(month[5:])}"
    return f"https://lists.apache.org/list.html?{view}"
