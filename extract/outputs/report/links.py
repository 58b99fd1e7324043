"""Links the report may show: pure functions returning a URL of a known shape, or None.

Mail decides the values (issue keys, repos, URLs), so only http(s) URLs of known
shapes come out of here; anything else (javascript:, data:, other hosts) is dropped.
The per-message page name is a hash of msg_key, never a name taken from mail.
"""

from __future__ import annotations

import hashlib
import re
from urllib.parse import quote

_ISSUE_KEY = re.compile(r"[A-Z][A-Z0-9_]{0,30}-[1-9][0-9]{0,7}")
_REPO = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
_URL_CHARS = r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*"
_PERMALINK = re.compile(r"https://lists\.apache\.org/" + _URL_CHARS)
_KNOWN_URL = re.compile(
    r"https://(?:github\.com/apache|issues\.apache\.org/jira|gitbox\.apache\.org"
    r"|git-wip-us\.apache\.org|svn\.apache\.org|lists\.apache\.org)/" + _URL_CHARS
)


def permalink(value: str | None) -> str | None:
    """The message on lists.apache.org."""
    return value if value and _PERMALINK.fullmatch(value) else None


def issue_url(issue_key: str | None, repo: str | None = None) -> str | None:
    """The issue: JIRA for keys like KUDU-1930; GitHub for GH-123 / GITHUB-123 (the keys
    Arrow and Lucene use for GitHub issues), which needs the repo."""
    if not issue_key or not _ISSUE_KEY.fullmatch(issue_key):
        return None
    prefix, number = issue_key.rsplit("-", 1)
    if prefix in ("GH", "GITHUB"):
        name = (repo or "").removeprefix("apache/")
        return (
            f"https://github.com/apache/{quote(name)}/issues/{number}"
            if _REPO.fullmatch(name)
            else None
        )
    return f"https://issues.apache.org/jira/browse/{issue_key}"


def pr_url(repo: str | None, pr_number: int | None) -> str | None:
    """The pull request (GitHub redirects /pull/N to /issues/N for issues)."""
    name = (repo or "").removeprefix("apache/")
    if isinstance(pr_number, int) and pr_number > 0 and _REPO.fullmatch(name):
        return f"https://github.com/apache/{quote(name)}/pull/{pr_number}"
    return None


def known_url(value: str | None) -> str | None:
    """The link the message itself gives, when it points to a known ASF/GitHub place."""
    return value if value and _KNOWN_URL.fullmatch(value) else None


def page_name(msg_key: str) -> str:
    """File name of a message's page: a hash, safe on every file system."""
    return hashlib.sha256(msg_key.encode("utf-8", "surrogatepass")).hexdigest()[:24] + ".html"
