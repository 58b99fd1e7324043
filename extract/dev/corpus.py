"""The labelled corpora, read where they are (`../shared/corpus` beside the repository, or
`$CORPUS_DIR`): every directory there with a `labels.jsonl` is a set (`dev`, `dev2`).
They are other people's mail and are not in the repository. Used by `make eval`,
`make fit` and the annotation tool; nothing here knows any corpus file.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from email.utils import parseaddr
from pathlib import Path

from extract.mail.kinds import message_kind

REPO = Path(__file__).resolve().parents[2]


def corpus_root() -> Path:
    """Where the labelled sets are: `$CORPUS_DIR`, else ../shared/corpus beside the repo."""
    return Path(os.environ.get("CORPUS_DIR") or REPO.parent / "shared" / "corpus")


def corpus_sets(root: Path | None = None) -> dict[str, Path]:
    """The labelled sets under `root`, by name (`dev`, `dev2`, ...)."""
    root = root or corpus_root()
    if not root.is_dir():
        return {}
    return {p.name: p for p in sorted(root.iterdir()) if (p / "labels.jsonl").is_file()}


@dataclass(slots=True)
class CorpusMessage:
    id: str
    headers: dict[str, str]
    body: str


def read_message(path: Path) -> CorpusMessage:
    """A corpus file: `Key: value` header lines up to the first empty line, then the body."""
    text = path.read_text(encoding="utf-8", errors="replace")
    head, _, body = text.partition("\n\n")
    headers: dict[str, str] = {}
    for line in head.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            headers[key.strip()] = value.strip()
    return CorpusMessage(path.stem, headers, body)


def read_labels(corpus: Path) -> dict[str, dict]:
    labels = {}
    with open(corpus / "labels.jsonl", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                labels[row["id"]] = row
    return labels


def corpus_kind(msg: CorpusMessage) -> str:
    """jira, github, commit or mail, by the pipeline's own rules (`extract.mail.kinds`) on
    the header block. One corpus-specific fact: GitHub threads copied from the web
    (`Corpus: issues`) are GitBox mails' bodies. (Web archives hide JIRA's address,
    `"Name (JIRA)" <j...@apache.org>`: the pipeline's rules know that form.)"""
    if msg.headers.get("Corpus") == "issues":
        return "github"
    subject = msg.headers.get("Subject", "")
    name, address = parseaddr(msg.headers.get("From", ""))
    return message_kind(subject, name, address, msg.body).kind


def thread_of(msg: CorpusMessage) -> str:
    """What keeps messages of one thread in one cross-validation fold: the repo and
    PR/issue number of a GitHub thread, the issue key or the subject otherwise."""
    h = msg.headers
    if h.get("Repo"):
        return f"{h['Repo']}#{h.get('PR') or h.get('Issue') or ''}"
    subject = h.get("Subject", "")
    key = re.search(r"\b[A-Z][A-Z0-9]+-\d+\b", subject)
    if key:
        return key.group(0)
    return re.sub(r"^(?:\s*(?:re|fwd?|aw)\s*:\s*)+", "", subject, flags=re.I).strip().lower()
