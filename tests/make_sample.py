"""Builds the demo archive data/sample/<domain>/<list>/<name>.eml from what the project wrote.

Sources:
- the five seeds (tests/fixtures/seeds/*.txt, the user's own messages): the body byte
  for byte, headers from what is known about each (SEEDS below);
- the demo messages (tests/fixtures/sample/*.txt), written by the project in each
  tool's output format: a header block (List, Kind, Subject, From, Date, and Issue /
  Repo / PR / Branch ... as the kind needs, Expect, Formats), a blank line, the text a
  person wrote. The text is wrapped the way its kind arrives on a list (see
  design/archive-api.md §5.2-5.4): a JIRA comment mail, a GitBox notification of its
  date's era (optionally flattened onto one line, as some GitHub mail was), a
  git-multimail commit mail, or plain list mail;
- one hostile test message for the report's escaping.

Reproducible: the same sources give the same files.

    .venv/bin/python tests/make_sample.py [--out data/sample]
"""

from __future__ import annotations

import argparse
import hashlib
import re
from datetime import UTC, datetime
from email.header import Header
from email.utils import format_datetime, formataddr
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures"
SOURCES = FIXTURES / "sample"
KINDS = ("jira", "github", "commit", "mail")
GITBOX_FOOTER_B = (
    "\n\n\n" + "-" * 64 + "\n"
    "This is an automated message from the Apache Git Service.\n"
    "To respond to the message, please log on to GitHub and use the\n"
    "URL above to go to the specific comment.\n\n"
    "For queries about this service, please contact Infrastructure at:\n"
    "users@infra.apache.org\n"
)
GITBOX_FOOTER_CD = (
    "\n\n\n-- \n"
    "This is an automated message from the Apache Git Service.\n"
    "To respond to the message, please log on to GitHub and use the\n"
    "URL above to go to the specific comment.\n\n"
    "To unsubscribe, e-mail: {ml_list}-unsubscribe@{ml_domain}\n\n"
    "For queries about this service, please contact Infrastructure at:\n"
    "users@infra.apache.org\n"
)
# Seeds are bare bodies of real list mails; what is known about each (see the brief in
# tests/fixtures/seeds and data/sample/README.md).
SEEDS = {
    "000": dict(
        kind="github",
        list="gitbox@hive.apache.org",
        date="2022-11-01T10:24:00",
        login="atsaonerk",
        repo="hive",
        number=3644,
        pr=True,
    ),
    "001": dict(
        kind="jira",
        list="issues@kudu.apache.org",
        date="2017-03-10T22:49:00",
        name="Todd Lipcon",
        key="KUDU-1930",
        action="Commented",
    ),
    "002": dict(
        kind="github",
        list="issues@hbase.apache.org",
        date="2020-06-07T13:31:00",
        login="Apache9",
        repo="hbase",
        number=1858,
        pr=True,
    ),
    "003": dict(
        kind="jira",
        list="dev@knox.apache.org",
        date="2018-11-02T19:57:00",
        name="Kevin Risden",
        key="KNOX-1524",
        action="Commented",
    ),
    "004": dict(
        kind="jira",
        list="common-issues@hadoop.apache.org",
        date="2017-12-22T02:31:00",
        name="Igor Dvorzhak",
        key="HADOOP-15124",
        action="Commented",
    ),
}


def github_era(moment: datetime) -> str:
    if moment < datetime(2018, 1, 1, tzinfo=UTC):
        return "a"
    if moment < datetime(2022, 4, 1, tzinfo=UTC):
        return "b"
    if moment < datetime(2023, 8, 3, tzinfo=UTC):
        return "c"
    return "d"


def github_action(comment_kind: str, pr: bool, era: str) -> tuple[str, str]:
    """(subject verb phrase, body first-line verb phrase) of a GitBox notification."""
    what = "pull request" if pr else "issue"
    kind = comment_kind.lower()
    if "description" in kind:
        return f"opened a new {what}", f"opened a new {what}"
    if "review" in kind and pr:
        if era == "b":
            return "commented on a change in pull request", "commented on a change in pull request"
        return "commented on a diff in pull request", "commented on code in PR"
    body_verb = "commented on PR" if pr and era in "cd" else f"commented on {what}"
    return f"commented on {what}", body_verb


def jira_summary(body: bytes) -> str | None:
    """The issue summary a JIRA comment mail quotes: `> Summary` over a `> -----` rule."""
    match = re.search(rb"^> ?(\S.*)\r?\n> ?-{5,}\s*$", body, re.MULTILINE)
    return match[1].decode("utf-8", "replace").strip() if match else None


def header(name: str, value: str) -> bytes:
    """One header line, RFC 2047-encoded when not ASCII, folded when long."""
    try:
        value.encode("ascii")
        encoded = Header(value, "us-ascii", header_name=name).encode(maxlinelen=78)
    except UnicodeEncodeError:
        encoded = Header(value, "utf-8", header_name=name).encode(maxlinelen=78)
    return f"{name}: {encoded}\n".encode("ascii")


def build_message(address, sender, subject, moment, message_id, body, extra=()) -> bytes:
    name, domain = address.split("@")
    lines = [
        header("From", sender),
        header("To", address),
        header("Subject", subject),
        f"Date: {format_datetime(moment)}\n".encode(),
        f"Message-ID: {message_id}\n".encode(),
        *[header(k, v) for k, v in extra],
        f"List-Id: <{name}.{domain}>\n".encode(),
        f"List-Post: <mailto:{address}>\n".encode(),
        f"Mailing-List: contact {name}-help@{domain}; run by ezmlm\n".encode(),
        b"Precedence: bulk\n",
        b"MIME-Version: 1.0\n",
        b"Content-Type: text/plain; charset=utf-8\n",
        b"Content-Transfer-Encoding: 8bit\n",
    ]
    return b"".join(lines) + b"\n" + body


def seed_message(path: Path) -> tuple[str, bytes]:
    meta = SEEDS[path.name[:3]]
    body = path.read_bytes()
    moment = datetime.fromisoformat(meta["date"]).replace(tzinfo=UTC)
    address = meta["list"]
    digest = hashlib.sha1(path.stem.encode()).hexdigest()
    if meta["kind"] == "jira":
        sender = formataddr((f"{meta['name']} (JIRA)", "jira@apache.org"))
        summary = jira_summary(body) or meta["key"]
        subject = f"[jira] [{meta['action']}] ({meta['key']}) {summary}"
        message_id = f"<JIRA.{digest[:16]}.{int(digest[16:24], 16)}@Atlassian.JIRA>"
    else:
        era = github_era(moment)
        login, repo, number = meta["login"], meta["repo"], meta["number"]
        if era == "b":
            sender = "GitBox <git@apache.org>"
        else:
            sender = formataddr((f"{login} (via GitHub)", "git@apache.org"))
        # The seed bodies do not give the PR title; say so rather than invent one.
        title = "(title not in the archived body)"
        subject = f"[GitHub] [{repo}] {login} commented on pull request #{number}: {title}"
        message_id = f"<{digest[:20]}-{digest[20:32]}@gitbox.apache.org>"
    return address, build_message(address, sender, subject, moment, message_id, body)


def hostile_message() -> tuple[str, bytes]:
    """A test message whose subject and body try to inject markup into the report."""
    address = "issues@kudu.apache.org"
    body = (
        "This is a TEST message of the sample archive: its text tries to inject markup.\n"
        "<script>alert(1)</script>\n"
        "<img src=x onerror=alert(1)>\n\n"
        "Benchmark                                Mode  Cnt    Score   Error  Units\n"
        "XssBench.render<script>alert(1)</script>  avgt    5  123.456 ± 1.234  ms/op\n\n"
        "| query | before (ms) | after (ms) |\n"
        "|---|---|---|\n"
        "| <img src=x onerror=alert(1)> | 120 | 80 |\n"
    ).encode()
    moment = datetime(2017, 3, 20, 12, 0, tzinfo=UTC)
    return address, build_message(
        address,
        formataddr(("<script>alert(1)</script> (JIRA)", "jira@apache.org")),
        "[jira] [Commented] (KUDU-1930) <script>alert(1)</script><img src=x onerror=alert(1)>",
        moment,
        "<hostile-test-message@asf-bench-mail.invalid>",
        body,
    )


def split_source(data: bytes) -> tuple[dict[str, str], str]:
    """A demo message source → (header fields, text)."""
    head, _, text = data.decode("utf-8").partition("\n\n")
    fields = {}
    for line in head.splitlines():
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    return fields, text


def expected_formats(fields: dict[str, str]) -> list[str]:
    return [f.strip() for f in fields.get("Formats", "").split(",") if f.strip()]


def _digest(*parts: object) -> str:
    return hashlib.sha1("\0".join(map(str, parts)).encode()).hexdigest()


def flatten(text: str) -> str:
    """The text on one line, as GitBox mail carried some comments."""
    return " ".join(line.strip() for line in text.splitlines() if line.strip()) + "\n"


def jira_mail(fields: dict[str, str], text: str, moment: datetime, stem: str):
    key, name = fields["Issue"], fields["From"]
    project = key.split("-")[0]
    summary = fields["Subject"]
    action = fields.get("Action", "Commented")
    jira = "JIRA" if moment.year < 2019 else "Jira"
    version = "(v7.6.3#76005)" if moment.year < 2019 else "(v8.3.4#803005)"
    digest = _digest(stem)
    comment_id = 15000000 + int(digest[:6], 16) % 9000000
    issue_block = (
        f"> {summary}\n> {'-' * len(summary)}\n>\n"
        f">                 Key: {key}\n"
        f">                 URL: https://issues.apache.org/jira/browse/{key}\n"
        f">             Project: {fields.get('Project', project.title())}\n"
        ">          Issue Type: Improvement\n"
        f">            Reporter: {fields.get('Reporter', name)}\n>\n>\n"
    )
    if action == "Created":
        intro = f"{name} created {key}:\n{'-' * (len(name) + len(key) + 10)}\n\n"
        fields_block = (
            f"             Summary: {summary}\n                 Key: {key}\n"
            f"                 URL: https://issues.apache.org/jira/browse/{key}\n"
            f"             Project: {fields.get('Project', project.title())}\n"
            "          Issue Type: Improvement\n"
            f"            Reporter: {name}\n\n\n"
        )
        body = intro + fields_block + text.rstrip("\n") + "\n\n\n\n"
    elif action in ("Resolved", "Closed"):
        # a change notification: the changed fields, then the comment made with it
        link = (
            f"\n     [ https://issues.apache.org/jira/browse/{key}?page=com.atlassian.jira."
            "plugin.system.issuetabpanels:all-tabpanel ]\n\n"
        )
        said = f"{name} {action.lower()} {key}."
        versions = [v.strip() for v in fields.get("Fix-Version", "").split(",") if v.strip()]
        changed = f"       Resolution: {fields.get('Resolution', 'Fixed')}\n"
        if versions:
            changed += f"    Fix Version/s: {versions[0]}\n"
            changed += "".join(f"                   {v}\n" for v in versions[1:])
        if action == "Closed":
            changed += "           Status: Closed  (was: Resolved)\n"
        body = link + said + "\n" + "-" * len(said) + "\n" + changed + "\n"
        body += text.rstrip("\n") + "\n\n" + issue_block + "\n\n"
    else:
        link = (
            f"\n    [ https://issues.apache.org/jira/browse/{key}?page=com.atlassian.jira."
            "plugin.system.issuetabpanels:comment-tabpanel&focusedCommentId="
            f"{comment_id}#comment-{comment_id} ] \n\n"
        )
        said = f"{name} commented on {key}:"
        body = link + said + "\n" + "-" * len(said) + "\n\n" + text.rstrip("\n") + "\n\n"
        body += issue_block + "\n\n"
    body += f"--\nThis message was sent by Atlassian {jira}\n{version}\n"
    sender = formataddr((f"{name} ({jira})", "jira@apache.org"))
    subject = f"[jira] [{action}] ({key}) {summary}"
    message_id = f"<JIRA.{digest[:8]}.{int(digest[8:16], 16)}@Atlassian.JIRA>"
    return sender, subject, message_id, body, ()


def github_mail(fields: dict[str, str], text: str, moment: datetime, address: str, stem: str):
    login, repo = fields["From"], fields["Repo"]
    pr = "PR" in fields
    number = int(fields.get("PR") or fields.get("Issue") or 0)
    title = fields["Subject"]
    kind = fields.get("Comment-Kind", "comment")
    era = github_era(moment)
    if fields.get("Flatten", "").lower() == "yes":
        text = flatten(text)
    url = f"https://github.com/apache/{repo}/{'pull' if pr else 'issues'}/{number}"
    digest = _digest(stem)
    if kind == "review":
        url += f"#discussion_r{int(digest[:8], 16) % 900000000 + 100000000}"
    elif kind != "description":
        url += f"#issuecomment-{int(digest[:8], 16) % 900000000 + 100000000}"
    verb, body_verb = github_action(kind, pr, era)
    ml_list, ml_domain = address.split("@")
    sep = ", " if verb.startswith("opened") else " "
    if kind == "review":
        path = fields.get("File", "README.md")
        hunk = f"##########\nFile path: {path}\n##########\n@@ -1,3 +1,4 @@\n+// changed\n\n"
        text = hunk + ("Review comment:\n" if era == "b" else "Review Comment:\n") + text
    if era == "a":
        sender = formataddr((login, "git@git.apache.org"))
        subject = f"[GitHub] {repo} {'pull request' if pr else 'issue'} #{number}: {title}"
        body = f"Github user {login} commented on the {'pull request' if pr else 'issue'}:\n\n"
        body += f"    {url}\n\n" + text
        if not body.endswith("\n"):
            body += "\n"
    elif era == "b":
        sender = "GitBox <git@apache.org>"
        subject = f"[GitHub] [{repo}] {login} {verb}{sep}#{number}: {title}"
        body = f"{login} {verb}{sep}#{number}: {title}\nURL: {url}\n\n\n\n"
        body += text.rstrip("\n") + GITBOX_FOOTER_B
    else:
        sender = formataddr((f"{login} (via GitHub)", "git@apache.org"))
        if era == "c":
            subject = f"[GitHub] [{repo}] {login} {verb}{sep}#{number}: {title}"
        else:
            tag = "PR" if pr else "I"
            subject = f"{'' if verb.startswith('opened') else 'Re: '}[{tag}] {title} [{repo}]"
        body = f"{login} {body_verb}{sep}#{number}:\nURL: {url}\n\n" + text.rstrip("\n")
        body += GITBOX_FOOTER_CD.format(ml_list=ml_list, ml_domain=ml_domain)
    node = _digest(repo, number)[:20]
    message_id = f"<{node}-{digest[:12]}@gitbox.apache.org>"
    extra = () if kind == "description" else (("In-Reply-To", f"<{node}@gitbox.apache.org>"),)
    return sender, subject, message_id, body, extra


def commit_mail(fields: dict[str, str], text: str, moment: datetime, stem: str):
    """A git-multimail single-commit mail: the commit message carries the text."""
    repo, branch, pusher = fields["Repo"], fields.get("Branch", "main"), fields["From"]
    author = fields.get("Author", f"{pusher} <{pusher}@apache.org>")
    sha = _digest(stem, repo)
    subject_line = fields["Subject"]
    files = [f.strip() for f in fields.get("Files", "README.md").split(",")]
    message = "\n".join(("    " + line).rstrip() for line in text.rstrip("\n").splitlines())
    stat = "".join(f" {f} | 4 ++--\n" for f in files)
    diff = "".join(
        f"diff --git a/{f} b/{f}\nindex {sha[:10]}..{sha[10:20]} 100644\n--- a/{f}\n+++ b/{f}\n"
        "@@ -10,2 +10,2 @@\n-    old();\n-    slow();\n+    fast();\n+    done();\n"
        for f in files
    )
    body = (
        "This is an automated email from the ASF dual-hosted git repository.\n\n"
        f"{pusher} pushed a commit to branch {branch}\n"
        f"in repository https://gitbox.apache.org/repos/asf/{repo}.git\n\n\n"
        f"The following commit(s) were added to refs/heads/{branch} by this push:\n"
        f"     new {sha[:10]} {subject_line}\n{sha[:10]} is described below\n\n"
        f"commit {sha}\nAuthor: {author}\nAuthorDate: {format_datetime(moment)}\n\n"
        f"    {subject_line}\n\n{message}\n---\n{stat}"
        f" {len(files)} file{'s' if len(files) > 1 else ''} changed, "
        f"{2 * len(files)} insertions(+), {2 * len(files)} deletions(-)\n\n{diff}"
    )
    sender = f"{pusher}@apache.org"
    subject = f"[{repo}] branch {branch} updated: {subject_line}"
    extra = (
        ("Auto-Submitted", "auto-generated"),
        ("X-Git-Host", "gitbox.apache.org"),
        ("X-Git-Repo", repo),
        ("X-Git-Refname", f"refs/heads/{branch}"),
        ("X-Git-Reftype", "branch"),
        ("X-Git-Rev", sha),
        ("X-Git-NotificationType", "ref_changed_plus_diff"),
    )
    return sender, subject, f"<{sha[:24]}@gitbox.apache.org>", body, extra


def plain_mail(fields: dict[str, str], text: str, stem: str):
    extra = ()
    if fields.get("In-Reply-To"):
        extra = (("In-Reply-To", f"<{fields['In-Reply-To']}>"),)
    message_id = f"<{_digest(stem)[:16]}.{stem}@mail.example.org>"
    return fields["From"], fields["Subject"], message_id, text, extra


def sample_message(path: Path) -> tuple[str, bytes]:
    fields, text = split_source(path.read_bytes())
    kind, address = fields["Kind"], fields["List"]
    if kind not in KINDS:
        raise ValueError(f"{path.name}: Kind must be one of {KINDS}, not {kind!r}")
    moment = datetime.strptime(fields["Date"], "%Y-%m-%d %H:%M").replace(tzinfo=UTC)
    stem = path.stem
    if kind == "jira":
        sender, subject, message_id, body, extra = jira_mail(fields, text, moment, stem)
    elif kind == "github":
        sender, subject, message_id, body, extra = github_mail(fields, text, moment, address, stem)
    elif kind == "commit":
        sender, subject, message_id, body, extra = commit_mail(fields, text, moment, stem)
    else:
        sender, subject, message_id, body, extra = plain_mail(fields, text, stem)
    data = build_message(address, sender, subject, moment, message_id, body.encode(), extra)
    return address, data


def build(out: Path) -> list[Path]:
    messages: list[tuple[str, str, bytes]] = []
    for path in sorted((FIXTURES / "seeds").glob("*.txt")):
        messages.append((f"seed-{path.stem}", *seed_message(path)))
    for path in sorted(SOURCES.glob("*.txt")):
        messages.append((path.stem, *sample_message(path)))
    messages.append(("test-hostile-markup", *hostile_message()))
    for old in out.rglob("*.eml"):
        old.unlink()
    written = []
    for stem, address, data in messages:
        name, domain = address.split("@")
        target = out / domain / name / f"{stem}.eml"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        written.append(target)
    for folder in sorted(out.rglob("*"), reverse=True):  # drop emptied list folders
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "data" / "sample")
    args = parser.parse_args()
    written = build(args.out)
    lists = {p.parent for p in written}
    size = sum(p.stat().st_size for p in written)
    print(f"wrote {len(written)} messages on {len(lists)} lists ({size} bytes) to {args.out}")


if __name__ == "__main__":
    main()
