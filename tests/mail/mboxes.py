"""Mail archives built in code: the edge cases the reader, the parser and the crawler
are tested on, written here so that no third-party archive has to live in the repo.

Helpers:
- `make_message` (one RFC 5322 message); archives are written with tests/archives.py
  (`mboxrd_escape`, `to_mbox`, `write_archive`);
- `envelope_postfix` / `foal_month` (a month export in lists.apache.org's own form:
  Postfix envelopes, mboxrd escaping, a blank line after every message);
- `EDGE_MESSAGES`: name → one message each (charsets, transfer encodings, MIME
  shapes, broken MIME, empty and header-less messages);
- `EDGE_ARCHIVES`: name → an mbox archive each (envelope forms, `>From ` escaping,
  truncation); `users_month`, `commits_month` build the months the crawler tests
  serve; `write_edge_archives(dir)` writes every archive as `<name>.mbox`.

Every message names its own facts (subject, sender, body); tests compare what the
reader gives with what was put in, or with what the standard library reads.
"""

from __future__ import annotations

import base64
import hashlib
import quopri
import time
from datetime import UTC, datetime, timedelta
from email.header import Header
from email.utils import format_datetime, parsedate_to_datetime
from pathlib import Path

from tests.archives import mboxrd_escape, to_mbox

# ------------------------------------------------------------------ basic helpers


def make_message(
    body: str,
    *,
    subject: str = "Test",
    sender: str = "Jane Doe <jane@example.org>",
    message_id: str | None = "m1@example.org",
    date: datetime | None = datetime(2020, 1, 2, 3, 4, 5, tzinfo=UTC),
    headers: str = "",
    content_type: str = "text/plain; charset=utf-8",
) -> bytes:
    lines = [f"From: {sender}", f"Subject: {subject}"]
    if message_id:
        lines.append(f"Message-ID: <{message_id}>")
    if date:
        lines.append(f"Date: {format_datetime(date)}")
    lines += [f"Content-Type: {content_type}", "MIME-Version: 1.0"]
    head = "\n".join(lines) + ("\n" + headers.strip("\n") if headers else "")
    return (head + "\n\n" + body).encode("utf-8")


def raw_message(head: str, body: bytes | str, *, head_encoding: str = "ascii") -> bytes:
    """Headers (one per line, written as given) and a body in bytes."""
    if isinstance(body, str):
        body = body.encode("utf-8")
    return head.strip("\n").encode(head_encoding) + b"\n\n" + body


def envelope_postfix(list_name: str, domain: str, number: int, moment: datetime) -> bytes:
    """The envelope line Postfix writes for a list copy: two spaces before asctime."""
    stamp = time.asctime(moment.astimezone(UTC).timetuple())
    return (
        f"From {list_name}-return-{number}-archive-asf-public=cust-asf.ponee.io@{domain}  {stamp}"
    ).encode()


def foal_month(list_name: str, domain: str, messages: list[bytes], first: int = 1) -> bytes:
    """A month export as lists.apache.org serves it: each message (in date order) after
    a Postfix envelope, mboxrd-escaped, followed by a blank line."""
    out = b""
    for number, raw in enumerate(messages, start=first):
        moment = _date_of(raw)
        body = mboxrd_escape(raw)
        if not body.endswith(b"\n"):
            body += b"\n"
        out += envelope_postfix(list_name, domain, number, moment) + b"\n" + body + b"\n"
    return out


def _date_of(raw: bytes) -> datetime:
    for line in raw.split(b"\n\n", 1)[0].splitlines():
        if line.lower().startswith(b"date:"):
            return parsedate_to_datetime(line[5:].strip().decode())
    return datetime(1970, 1, 1, tzinfo=UTC)


def _mid(*parts: object) -> str:
    return hashlib.sha1("\0".join(map(str, parts)).encode()).hexdigest()[:20]


# ------------------------------------------------------------------ single messages

_HEAD = "From: {sender}\nTo: dev@example.apache.org\nSubject: {subject}\nDate: {date}\n"
_HEAD += "Message-ID: <{mid}@example.invalid>\nMIME-Version: 1.0\n"
_DATE = "Tue, 14 Jun 2016 09:30:00 +0000"


def _head(subject: str, sender: str = "Ana Lopes <ana@example.org>", date: str = _DATE) -> str:
    return _HEAD.format(sender=sender, subject=subject, date=date, mid=_mid(subject, sender))


def latin1_message() -> bytes:
    body = "Mesures : 12,5 µs par opération, café compris.\n"
    return raw_message(
        _head("latin-1 body") + "Content-Type: text/plain; charset=ISO-8859-1\n"
        "Content-Transfer-Encoding: 8bit",
        body.encode("latin-1"),
    )


def koi8_message() -> bytes:
    body = "Задержка чтения: 4 мс\n"
    return raw_message(
        _head("koi8-r body") + "Content-Type: text/plain; charset=koi8-r\n"
        "Content-Transfer-Encoding: 8bit",
        body.encode("koi8-r"),
    )


def utf8_message() -> bytes:
    body = "Durchsatz: 1 200 ops/s ± 3 %, naïve → fast 🚀\n"
    return raw_message(
        _head("utf-8 body") + "Content-Type: text/plain; charset=utf-8\n"
        "Content-Transfer-Encoding: 8bit",
        body,
    )


def encoded_words_message() -> bytes:
    """RFC 2047 words: B and Q, in Subject and From, split over a folded line."""
    subject = Header("Résultats du banc d'essai — lecture aléatoire", "utf-8").encode()
    name = Header("Danuta Żółkiewska", "iso-8859-2").encode()
    head = (
        f"From: {name} <danuta@example.org>\nTo: dev@example.apache.org\n"
        f"Subject: {subject}\nDate: {_DATE}\nMessage-ID: <encoded-words@example.invalid>\n"
        "MIME-Version: 1.0\nContent-Type: text/plain; charset=us-ascii"
    )
    return raw_message(head, "plain ascii body\n")


ENCODED_WORDS = ("Résultats du banc d'essai — lecture aléatoire", "Danuta Żółkiewska")


def unknown_charset_message() -> bytes:
    return raw_message(
        _head("unknown charset") + "Content-Type: text/plain; charset=x-no-such-charset",
        "Café 12 ms\n".encode("cp1252"),
    )


def wrong_charset_message(declared: str) -> bytes:
    """UTF-8 bytes under a declaration that may be wrong (us-ascii) or right (utf-8)."""
    return raw_message(
        _head("charset declaration") + f"Content-Type: text/plain; charset={declared}",
        "Zeit: 3,5 ms – schneller als gestern (°C egal)\n",
    )


def quoted_printable_message() -> bytes:
    text = "p99 latency ± 3.5 ms/op, a long line that the encoder has to break with a soft " * 2
    body = quopri.encodestring(text.encode("utf-8") + b"\n")
    return raw_message(
        _head("quoted-printable body") + "Content-Type: text/plain; charset=utf-8\n"
        "Content-Transfer-Encoding: quoted-printable",
        body,
    )


QP_TEXT = "p99 latency ± 3.5 ms/op, a long line that the encoder has to break with a soft " * 2


def base64_message() -> bytes:
    body = base64.encodebytes("Ergebnis: 812 ops/s, größer als vorher\n".encode())
    return raw_message(
        _head("base64 body") + "Content-Type: text/plain; charset=utf-8\n"
        "Content-Transfer-Encoding: base64",
        body,
    )


def bad_base64_message() -> bytes:
    return raw_message(
        _head("bad base64") + "Content-Type: text/plain; charset=utf-8\n"
        "Content-Transfer-Encoding: base64",
        "SGVsbG8g!!d29ybGQ*\n%%%\n",
    )


def alternative_message() -> bytes:
    head = _head("alternative") + 'Content-Type: multipart/alternative; boundary="alt-7"'
    body = (
        "--alt-7\nContent-Type: text/plain; charset=utf-8\n\nplain copy: 41 ms\n"
        "--alt-7\nContent-Type: text/html; charset=utf-8\n\n<p>html copy: <b>41 ms</b></p>\n"
        "--alt-7--\n"
    )
    return raw_message(head, body)


def mixed_with_attachments_message() -> bytes:
    """Text plus two attachments, one with an RFC 2047 encoded file name."""
    name = Header("testáè.tmp", "utf-8").encode()
    head = _head("mixed with attachments") + 'Content-Type: multipart/mixed; boundary="mix"'
    body = (
        "This is a multi-part message in MIME format.\n\n"
        "--mix\nContent-Type: text/plain; charset=utf-8\n\nSee the attached logs.\n"
        f'--mix\nContent-Type: text/plain; name="{name}"\n'
        f'Content-Disposition: attachment; filename="{name}"\n\nlog line 1\n'
        '--mix\nContent-Type: application/gzip; name="run.tar.gz"\n'
        'Content-Disposition: attachment; filename="run.tar.gz"\n'
        "Content-Transfer-Encoding: base64\n\nH4sIAAAAAAAAA+3BAQ0AAADCoPdPbQ8HFAAAAAAAAAAAAA==\n"
        "--mix--\n"
    )
    return raw_message(head, body)


ATTACHMENT_NAMES = ["testáè.tmp (text/plain)", "run.tar.gz (application/gzip)"]


def nested_message() -> bytes:
    head = _head("nested") + 'Content-Type: multipart/mixed; boundary="outer"'
    body = (
        '--outer\nContent-Type: multipart/alternative; boundary="inner"\n\n'
        "--inner\nContent-Type: text/html\n\n<p>html version</p>\n"
        "--inner\nContent-Type: text/plain\n\nplain version\n--inner--\n"
        '--outer\nContent-Type: image/png\nContent-Disposition: attachment; filename="chart.png"\n'
        "Content-Transfer-Encoding: base64\n\niVBORw0KGgo=\n--outer--\n"
    )
    return raw_message(head, body)


def missing_close_message() -> bytes:
    """A multipart body whose closing boundary never comes (a cut or careless client)."""
    head = _head("no closing boundary") + 'Content-Type: multipart/mixed; boundary="open"'
    body = "--open\nContent-Type: text/plain\n\nthe only part, 17 ms\n"
    return raw_message(head, body)


def missing_boundary_message() -> bytes:
    """multipart/mixed without a boundary parameter at all."""
    head = _head("no boundary parameter") + "Content-Type: multipart/mixed"
    return raw_message(head, "--x\nContent-Type: text/plain\n\nlost?\n--x--\n")


def html_only_message() -> bytes:
    head = _head("html only", "Repository Manager <repo@example.org>")
    head += "Content-Type: text/html; charset=UTF-8"
    body = (
        "<html><body><h2>Staging</h2><p>Details:</p>"
        "<p>The example-1042 staging repository has been dropped.</p>"
        "<p>Action invoked by <b>builder</b>.</p></body></html>\n"
    )
    return raw_message(head, body)


HTML_ONLY_TEXT = "Details:\n\nThe example-1042 staging repository has been dropped."


def enriched_message() -> bytes:
    head = _head("enriched") + "Content-Type: text/enriched"
    return raw_message(head, "<bold>build</bold> took 4 minutes\n")


def empty_body_message() -> bytes:
    return raw_message(_head("empty body") + "Content-Type: text/plain", b"")


def headers_only_message() -> bytes:
    return (_head("headers only") + "Content-Type: text/plain\n").encode()


def no_date_message() -> bytes:
    return raw_message(
        "From: Nobody <nobody@example.org>\nSubject: no date here\n"
        "Message-ID: <nodate@example.invalid>",
        "undated text\n",
    )


def no_headers_message() -> bytes:
    """Text that starts right away, without any header (an archive's first blank line)."""
    return b"\nThis text has no header block at all.\nIt is still text.\n"


def signature_message() -> bytes:
    head = _head("signed") + (
        'Content-Type: multipart/signed; micalg=pgp-sha256;\n protocol="application/'
        'pgp-signature"; boundary="sig"'
    )
    body = (
        "--sig\nContent-Type: text/plain; charset=utf-8\n\nThe vote passes.\n"
        '--sig\nContent-Type: application/pgp-signature; name="signature.asc"\n\n'
        "-----BEGIN PGP SIGNATURE-----\niQEzBAEBCAAdFiEE\n-----END PGP SIGNATURE-----\n"
        "--sig--\n"
    )
    return raw_message(head, body)


def reply_message() -> bytes:
    head = (
        "From: Bo Chen <bo@example.org>\nTo: users@example.apache.org\n"
        "Subject: Re: External search form\nDate: Mon, 10 Jan 2022 08:15:00 +0000\n"
        "Message-ID: <reply-2@example.invalid>\nIn-Reply-To: <first-1@example.invalid>\n"
        "References: <root-0@example.invalid>\n <first-1@example.invalid>\n"
        "Content-Type: text/plain; charset=utf-8"
    )
    return raw_message(head, "> Is there a search form?\n\nYes, on the front page.\n")


EDGE_MESSAGES = {
    "latin1": latin1_message(),
    "koi8": koi8_message(),
    "utf8": utf8_message(),
    "encoded-words": encoded_words_message(),
    "unknown-charset": unknown_charset_message(),
    "wrong-charset": wrong_charset_message("us-ascii"),
    "right-charset": wrong_charset_message("utf-8"),
    "quoted-printable": quoted_printable_message(),
    "base64": base64_message(),
    "bad-base64": bad_base64_message(),
    "alternative": alternative_message(),
    "mixed-attachments": mixed_with_attachments_message(),
    "nested": nested_message(),
    "missing-close": missing_close_message(),
    "missing-boundary": missing_boundary_message(),
    "html-only": html_only_message(),
    "enriched": enriched_message(),
    "empty-body": empty_body_message(),
    "headers-only": headers_only_message(),
    "no-date": no_date_message(),
    "signed": signature_message(),
    "reply": reply_message(),
}


# ------------------------------------------------------------------ archives


def _plain(subject: str, date: datetime, body: str, sender="Kim Park <kim@example.org>") -> bytes:
    return raw_message(
        f"From: {sender}\nSubject: {subject}\nDate: {format_datetime(date)}\n"
        f"Message-ID: <{_mid(subject, date)}@example.invalid>\n"
        "Content-Type: text/plain; charset=utf-8",
        body,
    )


def escaped_archive() -> tuple[bytes, list[bytes]]:
    """An mboxrd archive whose bodies have `From ` lines (escaped) and the sources."""
    one = _plain(
        "from lines",
        datetime(2019, 9, 20, 12, 27, tzinfo=UTC),
        "From the start\n>From quoted once\n>>From quoted twice\n\nFrom here it goes on\n",
    )
    two = _plain("second", datetime(2019, 9, 20, 12, 37, tzinfo=UTC), "text\n")
    data = (
        b"From MAILER-DAEMON Fri Sep 20 12:27:56 2019\n" + mboxrd_escape(one) + b"\n"
        b"From dev-return-7-archive@x.apache.org  Fri Sep 20 12:37:59 2019\n" + two + b"\n"
    )
    return data, [one, two]


def unescaped_archive() -> bytes:
    """An mboxo-style archive where a body line `From ` was not escaped: readers that
    split on every `From ` line cut the message there (as mailbox.mbox does)."""
    one = _plain("unescaped", datetime(2016, 6, 1, 10, tzinfo=UTC), "first line\n")
    return (
        b"From kim@example.org Wed Jun  1 10:00:00 2016\n" + one + b"From the edge\n\n"
        b"From kim@example.org Wed Jun  1 11:00:00 2016\n"
        + _plain("after", datetime(2016, 6, 1, 11, tzinfo=UTC), "last\n")
        + b"\n"
    )


# Envelope lines as different writers print them: Postfix (two spaces), MAILER-DAEMON,
# a one-digit day padded with a space, with a time zone, with `remote from`, a bare
# address, a non-ASCII local part.
ENVELOPES = [
    b"From dev-return-12-archive-asf-public=cust-asf.ponee.io@x.apache.org"
    b"  Thu Mar  2 09:05:01 2017",
    b"From MAILER-DAEMON Thu Jan  1 00:00:00 1970",
    b"From kim@example.org Sat Jan  1 00:00:00 2000",
    b"From kim@example.org Mon Dec 31 23:59:59 2012 +0100",
    b"From kim@example.org Tue Feb  3 04:05:06 2015 remote from gateway",
    b"From kim@example.org  Wed Nov 30 8:07:06 2016",
    b"From j\xc3\xb6rg@example.org Fri Jul 14 12:00:00 2017",
    b"From ???@??? Sun Feb 28 21:40:00 2010",
]


def envelopes_archive() -> bytes:
    out = b""
    for i, line in enumerate(ENVELOPES):
        date = datetime(2017, 3, 2, 9, i, tzinfo=UTC)
        out += line + b"\n" + _plain(f"envelope {i}", date, f"body {i}\n") + b"\n"
    return out


def mixed_archive() -> bytes:
    """Every EDGE_MESSAGES entry in one archive (the reader sees them as a month)."""
    return to_mbox(list(EDGE_MESSAGES.values()))


def truncated_archive() -> bytes:
    """Cut in the middle of the third message's body (a download that stopped)."""
    full = to_mbox(
        [
            _plain(f"cut {i}", datetime(2020, 1, 1 + i, tzinfo=UTC), f"message {i}\n" * 20)
            for i in range(3)
        ]
    )
    return full[: full.rfind(b"message 2") + 4]


def users_month(month: str, count: int, start: int = 1) -> list[bytes]:
    """`count` users@ messages of `month` (YYYY-MM) in date order: a question, replies
    (In-Reply-To, References), one with a `From ` body line, one with non-ASCII text
    (UTF-8: the export is UTF-8, so it round-trips byte for byte)."""
    year, mon = map(int, month.split("-"))
    root = f"<q-{month}@example.invalid>"
    out = []
    for i in range(count):
        date = datetime(year, mon, 2, 8, tzinfo=UTC) + timedelta(days=2 * i, minutes=i)
        if i == 0:
            subject, extra, mid = "External search form", "", root
        else:
            subject = "Re: External search form"
            extra = f"In-Reply-To: {root}\nReferences: {root}\n"
            mid = f"<r{i}-{month}@example.invalid>"
        body = (
            f"Message {i} of {month}.\n"
            + ("From what I see, it works.\n" if i == 1 else "")
            + ("> quoted\n" if i else "")
        )
        text = (body + ("Ça marche, très bien.\n" if i == 2 else "")).encode()
        head = (
            f"From: User {i + start} <user{i + start}@example.org>\n"
            f"To: users@ponymail.apache.org\nSubject: {subject}\n"
            f"Date: {format_datetime(date)}\nMessage-ID: {mid}\n{extra}"
            "Content-Type: text/plain; charset=utf-8"
        )
        out.append(raw_message(head, text))
    return out


def _wip_commit(i: int, moment: datetime, sha: str, repo: str, branch: str, who: str) -> bytes:
    head = (
        f"From: {who}@apache.org\nTo: commits@ponymail.apache.org\n"
        f"Subject: [{i % 2 + 1}/2] {repo} git commit: Update page {i}\n"
        f"Date: {format_datetime(moment)}\n"
        f"Message-ID: <{sha[:16]}@git.apache.org>\nContent-Type: text/plain; charset=utf-8"
    )
    body = (
        f"Repository: {repo}\nUpdated Branches:\n  refs/heads/{branch} {sha[7:14]} -> {sha[:7]}\n"
        f"\n\nCommit: http://git-wip-us.apache.org/repos/asf/{repo}/commit/{sha[:8]}\n"
        f"Tree: http://git-wip-us.apache.org/repos/asf/{repo}/tree/{sha[:8]}\n"
        f"Diff: http://git-wip-us.apache.org/repos/asf/{repo}/diff/{sha[:8]}\n\n"
        f"Branch: refs/heads/{branch}\nCommit: {sha}\nParents: {sha[::-1]}\n"
        f"Author: {who} <{who}@apache.org>\nAuthored: {format_datetime(moment)}\n\n"
        f"Update page {i}\n\n\n"
        "diff --git a/content/index.html b/content/index.html\n"
        "--- a/content/index.html\n+++ b/content/index.html\n@@ -1 +1 @@\n"
        f"-<p>old {i}</p>\n+<p>new {i}</p>\n"
        "From this line on the diff has a line that must be escaped.\n"
    )
    return raw_message(head, body)


def _svn_commit(moment: datetime, rev: int, who: str) -> bytes:
    head = (
        f"From: {who}@apache.org\nTo: commits@ponymail.apache.org\n"
        f"Subject: svn commit: r{rev} - /dev/example/1.0/\nDate: {format_datetime(moment)}\n"
        f"Message-ID: <svn-{rev}@svn.apache.org>\nContent-Type: text/plain; charset=utf-8"
    )
    body = (
        f"Author: {who}\nDate: {format_datetime(moment)}\nNew Revision: {rev}\n\n"
        "Log:\nStage the release candidate\n\nAdded:\n    dev/example/1.0/\n"
    )
    return raw_message(head, body)


COMMITS_REPO, COMMITS_BRANCH, COMMITS_ACTOR = "example-site", "asf-site", "dgrantham"


def commit_sha(i: int) -> str:
    return hashlib.sha1(f"commit {i}".encode()).hexdigest()


def commits_month(count: int = 40) -> list[bytes]:
    """A commits@ month of June 2016: git-wip-us commit mails, one svn commit (last),
    one person's reply to a commit mail (in the middle); in date order."""
    out = []
    reply_at = count // 2
    for i in range(count):
        moment = datetime(2016, 6, 1, 6, tzinfo=UTC) + timedelta(hours=17 * i)
        if i == reply_at:
            out.append(
                raw_message(
                    f"From: Reviewer <reviewer@example.org>\nSubject: Re: [01/11] {COMMITS_REPO}"
                    f" git commit: Update page {i - 1}\nDate: {format_datetime(moment)}\n"
                    "Message-ID: <reply-to-commit@example.invalid>\n"
                    "Content-Type: text/plain; charset=utf-8",
                    "Nice, this fixes the menu.\n",
                )
            )
        elif i == count - 1:
            out.append(_svn_commit(moment, 13000 + i, COMMITS_ACTOR))
        else:
            sha = commit_sha(i)
            out.append(_wip_commit(i, moment, sha, COMMITS_REPO, COMMITS_BRANCH, COMMITS_ACTOR))
    return out


EDGE_ARCHIVES = {
    "escaped": escaped_archive()[0],
    "unescaped": unescaped_archive(),
    "envelopes": envelopes_archive(),
    "edge-messages": mixed_archive(),
    "truncated": truncated_archive(),
    "users-2019-09": foal_month("users", "ponymail.apache.org", users_month("2019-09", 5)),
    "users-2022-01": foal_month("users", "ponymail.apache.org", users_month("2022-01", 6), 6),
    "commits-2016-06": foal_month("commits", "ponymail.apache.org", commits_month()),
}


def write_edge_archives(folder: Path) -> list[Path]:
    """Every EDGE_ARCHIVES entry as `<folder>/<name>.mbox`."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, data in EDGE_ARCHIVES.items():
        path = folder / f"{name}.mbox"
        path.write_bytes(data)
        paths.append(path)
    return paths
