"""Builds the demo archive data/sample/<domain>/<list>/<name>.eml from the repo's fixtures.

Every seed (tests/fixtures/seeds/*.txt) and corpus message (tests/fixtures/corpus/dev/*.txt)
becomes one RFC 5322 message whose headers come from its metadata and whose body is the
fixture body byte for byte (GitHub-corpus bodies get the GitBox first lines and footer
around them, as the list copy of a comment has). One hostile test message is added.
Reproducible: the same fixtures give the same files.

    .venv/bin/python tests/make_sample.py [--out data/sample]
"""

from __future__ import annotations

import argparse
import hashlib
import re
from datetime import UTC, datetime
from email.header import Header
from email.utils import format_datetime, formataddr, parsedate_to_datetime
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures"
# Lists of a project that lives under another project's domain.
DOMAIN_OF_PROJECT = {"hdfs": "hadoop", "mapreduce": "hadoop", "yarn": "hadoop"}
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


def split_fixture(data: bytes) -> tuple[dict[str, str], bytes]:
    """Corpus file → (header fields, body bytes exactly as stored)."""
    head, _, body = data.partition(b"\n\n")
    fields = {}
    for line in head.decode("utf-8").splitlines():
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    return fields, body


def clean(value: str | None) -> str:
    """A metadata value without our notes: `(inferred…)`, `(GitBox mirror; …)`, `unknown`."""
    value = re.sub(
        r"\s*\((?:inferred|GitBox|GitHub|archived|signature|reporter|JIRA issue)"
        r"[^)]*\)",
        "",
        value or "",
    )
    value = re.sub(r"\s*\(inferred from body\)|\s*\(summary not in excerpt\)", "", value)
    return "" if value.lower().startswith("unknown") else value.strip()


def list_address(fields: dict[str, str], project: str, kind: str) -> str:
    raw = fields.get("List", "")
    match = re.match(r"\s*([\w.+-]+@[\w-]+(?:\.[\w-]+)+)", raw)
    if match:
        return match[1].lower()
    domain = f"{DOMAIN_OF_PROJECT.get(project, project)}.apache.org"
    named = re.search(r"\b([a-z]+(?:-[a-z]+)?)@\s", raw + " ")
    name = named[1] if named else "issues"
    return f"{name}@{domain}"


def message_date(fields: dict[str, str], kind: str, stem: str) -> datetime:
    text = fields.get("Date", "")
    # Spread messages over the day deterministically, so none share a timestamp.
    minute = int(hashlib.sha1(stem.encode()).hexdigest(), 16) % 600
    hour, minute = 9 + minute // 60, minute % 60
    for parse in (
        lambda t: datetime.strptime(t, "%Y-%m-%d").replace(hour=hour, minute=minute),
        lambda t: datetime.strptime(t, "%Y/%m/%d %H:%M:%S UTC"),
        lambda t: parsedate_to_datetime(t).replace(tzinfo=None),
    ):
        try:
            return parse(text).replace(tzinfo=UTC)
        except (TypeError, ValueError, IndexError):
            continue
    # Unknown: a fixed date in the year the metadata hints at (note, URL), else a default.
    year = re.search(r"\b(19[89]\d|20[0-2]\d)", text + " " + fields.get("Source-URL", ""))
    default = 2021 if kind == "github" else 2015
    return datetime(int(year[1]) if year else default, 6, 15, hour, minute, tzinfo=UTC)


def jira_key(fields: dict[str, str], body: bytes) -> str | None:
    for text in (
        fields.get("Subject", ""),
        body[:600].decode("utf-8", "replace"),
        fields.get("Source-URL", ""),
    ):
        match = re.search(r"\b([A-Z][A-Z0-9]+-\d+)\b", text)
        if match:
            return match[1]
    return None


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


def github_message(fields, body, moment, address, stem):
    login = clean(fields.get("Comment-Author")) or clean(fields.get("From")) or "github-user"
    repo = fields.get("Repo", "apache/unknown").split("/")[-1]
    pr = "PR" in fields
    number = int(re.sub(r"\D", "", fields.get("PR") or fields.get("Issue") or "0") or 0)
    title = clean(fields.get("Subject")) or f"{repo} #{number}"
    url = f"https://github.com/apache/{repo}/{'pull' if pr else 'issues'}/{number}"
    era = github_era(moment)
    verb, body_verb = github_action(fields.get("Comment-Kind", ""), pr, era)
    ml_list, ml_domain = address.split("@")
    sep = ", " if verb.startswith("opened") else " "
    if era == "a":
        sender = formataddr((login, "git@git.apache.org"))
        subject = f"[GitHub] {repo} {'pull request' if pr else 'issue'}: {title}"
        full_body = body
    elif era == "b":
        sender = "GitBox <git@apache.org>"
        subject = f"[GitHub] [{repo}] {login} {verb}{sep}#{number}: {title}"
        first = f"{login} {verb}{sep}#{number}: {title}\nURL: {url}\n\n\n\n"
        full_body = first.encode() + body + GITBOX_FOOTER_B.encode()
    else:
        sender = formataddr((f"{login} (via GitHub)", "git@apache.org"))
        if era == "c":
            subject = f"[GitHub] [{repo}] {login} {verb}{sep}#{number}: {title}"
        else:
            tag = "PR" if pr else "I"
            subject = f"{'' if verb.startswith('opened') else 'Re: '}[{tag}] {title} [{repo}]"
        first = f"{login} {body_verb}{sep}#{number}:\nURL: {url}\n\n"
        footer = GITBOX_FOOTER_CD.format(ml_list=ml_list, ml_domain=ml_domain)
        full_body = first.encode() + body + footer.encode()
    node = hashlib.sha1(f"{repo}/{number}".encode()).hexdigest()[:20]
    message_id = f"<{node}-{hashlib.sha1(stem.encode()).hexdigest()[:12]}@gitbox.apache.org>"
    return sender, subject, message_id, full_body


def jira_summary(body: bytes) -> str | None:
    """The issue summary a JIRA comment mail quotes: `> Summary` over a `> -----` rule."""
    match = re.search(rb"^> ?(\S.*)\r?\n> ?-{5,}\s*$", body, re.MULTILINE)
    return match[1].decode("utf-8", "replace").strip() if match else None


def jira_message(fields, body, stem):
    key = jira_key(fields, body) or "UNKNOWN-1"
    subject = clean(fields.get("Subject"))
    if "[jira]" not in subject:
        summary = re.sub(rf"^{re.escape(key)}\s*", "", subject) or jira_summary(body) or key
        action = (
            "Created" if "issues.apache.org/jira" in fields.get("Source-URL", "") else ("Commented")
        )
        subject = f"[jira] [{action}] ({key}) {summary}"
    name = clean(fields.get("From"))
    name = re.sub(r'\s*\(JIRA\)|"|\s*<[^>]*>', "", name).strip()
    if not name:
        who = re.search(
            rb"^(.+?) (?:commented on|created|updated) [A-Z][A-Z0-9]+-\d+", body, re.MULTILINE
        )
        name = who[1].decode("utf-8", "replace").strip() if who else "ASF"
    sender = formataddr((f"{name} (JIRA)", "jira@apache.org"))
    digest = hashlib.sha1(stem.encode()).hexdigest()
    return sender, subject, f"<JIRA.{digest[:16]}.{int(digest[16:24], 16)}@Atlassian.JIRA>", body


def plain_message(fields, body, stem, address):
    name = clean(fields.get("From"))
    parsed = re.match(r'"?([^"<]*)"?\s*<([^>]+)>', name)
    if parsed and "..." not in parsed[2]:
        sender = formataddr((parsed[1].strip(), parsed[2]))
    else:
        sender = formataddr((name or "unknown sender", f"{stem}@unknown.invalid"))
    subject = clean(fields.get("Subject")) or f"(no subject; message {stem} of {address})"
    return sender, subject, f"<{stem}.sample@asf-bench-mail.invalid>", body


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


def corpus_message(path: Path) -> tuple[str, bytes]:
    fields, body = split_fixture(path.read_bytes())
    stem = path.stem
    project = stem.rsplit("-", 1)[0]
    looks_jira = (
        "[jira]" in fields.get("Subject", "")
        or "(JIRA)" in fields.get("From", "")
        or ("issues.apache.org/jira" in fields.get("Source-URL", ""))
    )
    kind = "github" if fields.get("Corpus") == "issues" else ("jira" if looks_jira else "mail")
    address = list_address(fields, project, kind)
    moment = message_date(fields, kind, stem)
    if kind == "github":
        sender, subject, message_id, body = github_message(fields, body, moment, address, stem)
    elif kind == "jira":
        sender, subject, message_id, body = jira_message(fields, body, stem)
    else:
        sender, subject, message_id, body = plain_message(fields, body, stem, address)
    return address, build_message(address, sender, subject, moment, message_id, body)


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


def build(out: Path) -> list[Path]:
    messages: list[tuple[str, str, bytes]] = []
    for path in sorted((FIXTURES / "seeds").glob("*.txt")):
        messages.append((f"seed-{path.stem}", *seed_message(path)))
    for path in sorted((FIXTURES / "corpus" / "dev").glob("*.txt")):
        messages.append((path.stem, *corpus_message(path)))
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
