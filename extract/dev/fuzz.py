"""Fuzz the reader and the pipeline with mutated archives (issue 12, point 7).

    python -m extract.dev.fuzz [--archives N] [--seed S] [--out FILE] [--workers W]

A seed corpus of real-looking messages is built from the project's own sources
(the demo sources tests/fixtures/sample/*.txt and the seeds tests/fixtures/seeds/*.txt,
wrapped as list mail: JIRA comment mails, GitBox notifications, commit mails, plain
mail), plus a few hand-made MIME shapes. Each fuzz archive takes a few of them and
applies seeded mutations (see `MUTATIONS`): truncation at a random byte, truncated
or corrupted gzip, duplicated / deleted / swapped / empty messages, unescaped `From `
lines in bodies, CRLF and mixed line ends, byte flips in headers and bodies, huge
lines, deep multipart nesting, broken boundaries, bad charsets and base64, NUL
bytes, giant and negative numbers, degenerate table markup.

Every archive goes through `extract.pipeline.process_archive` in a worker process
(a hang is an archive over `HANG_SECONDS`; the worker is then killed), and is checked:

- no exception escapes (a crash; a worker that dies is one too);
- no hang, and no message over `MESSAGE_SECONDS` (the worker's message budget is set to
  it: a message over it is an `errors` row, counted as slow);
- the count invariant: every position 0..n-1 stored or in `errors` (a message that ran
  out of time is both), `n_messages` == `count_envelopes` (an independent, line-based
  mboxrd envelope counter over the decompressible bytes). For damaged gzip the count is
  taken over what decompresses before the first byte zlib refuses (found a byte at a
  time), the message cut there included (it is an `errors` row); a wrong trailer after
  data that inflated to its end loses nothing.

At the end all archives are loaded with `extract.run` into a database. A summary is
printed (and written as JSON to `--out`); exit status 0 when nothing crashed, hung or
lost messages, 1 otherwise.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import gzip
import hashlib
import json
import multiprocessing
import os
import random
import re
import shutil
import sys
import tempfile
import threading
import time
import traceback
import zlib
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"
HANG_SECONDS = 10.0
MESSAGE_SECONDS = 2.0  # a message that takes longer is a finding
_GZIP_INPUT = 1 << 16

# ------------------------------------------------------------------ the independent counter


def decompressible(data: bytes) -> tuple[bytes, bool]:
    """(the bytes that decompress before the first byte zlib refuses, whether the
    stream was damaged before its data's end). Plain (non-gzip) data is returned as it
    is. Fed in 64 KiB input pieces; the piece where zlib fails is fed again a byte at a
    time from a fresh start (independently of the reader's bisection), so its output up
    to the refused byte counts. A wrong trailer (CRC-32, length) after data that
    inflated to its end is no damage: every message is there."""
    if not data.startswith(b"\x1f\x8b"):
        return data, False
    out: list[bytes] = []
    pending = data
    while pending:
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        i = 0
        done = b"".join(out)
        while True:
            piece = pending[i : i + _GZIP_INPUT]
            if not piece:
                return b"".join(out), True  # ended before the end-of-stream marker
            try:
                out.append(d.decompress(piece))
            except zlib.error:
                inflated, damaged = _bytewise(pending[: i + len(piece)])
                return done + inflated, damaged
            i += len(piece)
            if d.eof:
                break
        pending = d.unused_data + pending[i:]
        if not pending.strip(b"\x00"):
            break
    return b"".join(out), False


def _bytewise(member: bytes) -> tuple[bytes, bool]:
    """What one gzip member inflates to, a byte at a time, up to the byte zlib refuses."""
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    out = []
    for k in range(len(member)):
        try:
            out.append(d.decompress(member[k : k + 1]))
        except zlib.error as exc:
            return b"".join(out), "check" not in str(exc)  # (a wrong trailer: no damage)
    return b"".join(out), True


def count_envelopes(mbox: bytes) -> int:
    """Messages in an mboxrd byte string, counted line by line: a line starting with
    `From ` is an envelope line at the start of the file (after blank lines) or after
    a blank line (empty, or a lone CR); non-blank text before the first envelope
    line is one message more."""
    lines = mbox.split(b"\n")
    n = 0
    seen_text = False  # non-blank text before the first envelope line
    prev_blank = True  # the start of the file counts as after a blank line
    for line in lines:
        if prev_blank and line.startswith(b"From "):
            n += 1
        elif n == 0 and line not in (b"", b"\r"):
            seen_text = True
        prev_blank = line in (b"", b"\r")
    if mbox.endswith(b"\n"):
        pass  # the split's last empty piece is no line
    return n + (1 if seen_text else 0)


def expected_count(archive_bytes: bytes) -> tuple[int, bool]:
    """(independent message count, whether the gzip stream was damaged)."""
    data, damaged = decompressible(archive_bytes)
    return count_envelopes(data), damaged


def check_invariant(rows, expected: int, damaged: bool) -> list[str]:
    """The count invariant's violations for one archive's rows (empty when it holds):
    every position 0..n-1 is stored or in errors (a message that ran out of time is
    both), n = the independent count (of what decompresses, when damaged: the message
    cut by the damage is one of them, as an errors row)."""
    problems = []
    n = rows.archive["n_messages"]
    positioned = {e["position"] for e in rows.errors if e.get("position") is not None}
    stored = [m["position"] for m in rows.messages]
    if len(set(stored)) != len(stored):
        problems.append("a position stored twice")
    if sorted(set(stored) | positioned) != list(range(n)):
        problems.append(f"positions stored or in errors are not 0..n_messages-1 ({n})")
    if n != expected:
        problems.append(f"n_messages {n} != independent envelope count {expected}")
    return problems


# ------------------------------------------------------------------ the seed corpus


def _split_source(data: bytes) -> tuple[dict[str, str], str]:
    head, _, text = data.decode("utf-8", "replace").partition("\n\n")
    fields = {}
    for line in head.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            fields[key.strip()] = value.strip()
    return fields, text


def _mid(*parts: object) -> str:
    return hashlib.sha1("\0".join(map(str, parts)).encode()).hexdigest()[:16]


def _message(address: str, sender: str, subject: str, moment: datetime, body: str, extra=()):
    name, _, domain = address.partition("@")
    head = [
        f"From: {sender}",
        f"To: {address}",
        f"Subject: {subject}",
        f"Date: {format_datetime(moment)}",
        f"Message-ID: <{_mid(subject, moment, body[:200])}@{domain or 'example.org'}>",
        *extra,
        f"List-Id: <{name}.{domain}>",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=UTF-8",
        "Content-Transfer-Encoding: 8bit",
    ]
    return ("\n".join(head) + "\n\n" + body.rstrip("\n") + "\n").encode("utf-8")


def _wrap_source(fields: dict[str, str], text: str, stem: str) -> bytes:
    """A demo source as the list mail of its kind (after tests/make_sample.py)."""
    address = fields.get("List", "dev@example.apache.org")
    try:
        moment = datetime.strptime(fields.get("Date", ""), "%Y-%m-%d %H:%M").replace(tzinfo=UTC)
    except ValueError:
        moment = datetime(2020, 5, 6, 7, 8, tzinfo=UTC)
    kind = fields.get("Kind", "mail")
    title = fields.get("Subject", stem)
    person = fields.get("From", "Ana Lopes")
    if kind == "jira":
        key = fields.get("Issue", "PROJ-1")
        subject = f"[jira] [Commented] ({key}) {title}"
        body = (
            f"\n    [ https://issues.apache.org/jira/browse/{key}?page=com.atlassian.jira."
            f"plugin.system.issuetabpanels:comment-tabpanel ]\n\n{person} commented on {key}:\n"
            f"{'-' * 36}\n\n{text}\n\n> {title}\n> {'-' * 20}\n>\n>                 Key: {key}\n"
        )
        return _message(address, f"{person} (Jira) <jira@apache.org>", subject, moment, body)
    if kind == "github":
        repo = fields.get("Repo", "apache/example").split("/")[-1]
        number = fields.get("PR", fields.get("Issue", "1042")).lstrip("#")
        login = fields.get("Login", person.split()[0].lower())
        subject = f"[GitHub] [{repo}] {login} commented on pull request #{number}: {title}"
        body = (
            f"\n{login} commented on PR #{number}:\n"
            f"URL: https://github.com/apache/{repo}/pull/{number}#issuecomment-1\n\n\n"
            f"   {text.replace(chr(10), chr(10) + '   ')}\n\n\n{'-' * 64}\n"
            "This is an automated message from the Apache Git Service.\n"
        )
        extra = (f"Reply-To: {address}",)
        return _message(address, "GitBox <git@apache.org>", subject, moment, body, extra)
    if kind == "commit":
        repo = fields.get("Repo", "example")
        branch = fields.get("Branch", "main")
        sha = hashlib.sha1(text.encode()).hexdigest()
        subject = f"[{repo}] branch {branch} updated: {title}"
        body = (
            f"This is an automated email from the ASF dual-hosted git repository.\n\n"
            f"commit {sha}\nAuthor: {person} <{person.split()[0].lower()}@apache.org>\n"
            f"Date:   {format_datetime(moment)}\n\n    {title}\n\n{text}\n"
        )
        extra = (f"X-Git-Repo: {repo}", f"X-Git-Refname: refs/heads/{branch}")
        return _message(address, f"{person} <commits@apache.org>", subject, moment, body, extra)
    sender = person if "<" in person else f"{person} <{person.split()[0].lower()}@example.org>"
    return _message(address, sender, title, moment, text)


_HAND_MADE = [
    (
        "From: Kim Park <kim@example.org>\nSubject: Re: [VOTE] release 1.2.0\n"
        "Date: Tue, 14 Jun 2016 09:30:00 +0000\nMessage-ID: <b64@example.invalid>\n"
        "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n"
        "Content-Transfer-Encoding: base64\n\n"
        + base64.encodebytes("Throughput: 812 ops/s, größer als vorher\n".encode()).decode()
    ),
    (
        "From: Bo Chen <bo@example.org>\nSubject: alt results\n"
        "Date: Mon, 10 Jan 2022 08:15:00 +0000\nMessage-ID: <alt@example.invalid>\n"
        'MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary="alt-7"\n\n'
        "--alt-7\nContent-Type: text/plain; charset=utf-8\n\n"
        "| bench | before | after |\n|---|---|---|\n| read | 41 ms | 37 ms |\n"
        "--alt-7\nContent-Type: text/html; charset=utf-8\n\n"
        "<table><tr><th>bench</th><th>ms</th></tr><tr><td>read</td><td>41</td></tr></table>\n"
        "--alt-7--\n"
    ),
    (
        "From: =?utf-8?q?Ren=C3=A9?= <rene@example.org>\nSubject: =?utf-8?b?UsOpc3VsdGF0cw==?=\n"
        "Date: Wed, 3 Mar 2021 10:00:00 +0100\nMessage-ID: <qp@example.invalid>\n"
        "MIME-Version: 1.0\nContent-Type: text/plain; charset=iso-8859-1\n"
        "Content-Transfer-Encoding: quoted-printable\n\n"
        "Mesures : 12,5 =B5s par op=E9ration, caf=E9 compris.\n"
        "Benchmark  Mode  Cnt  Score  Error  Units\nFoo.bar  thrpt  5  123.4 =B1 2.1  ops/s\n"
    ),
]


def seed_corpus(fixtures: Path = FIXTURES) -> list[bytes]:
    """The seed messages: demo sources and seeds wrapped as mail, and hand-made MIME."""
    corpus = []
    for path in sorted((fixtures / "sample").glob("*.txt")):
        fields, text = _split_source(path.read_bytes())
        corpus.append(_wrap_source(fields, text, path.stem))
    for path in sorted((fixtures / "seeds").glob("*.txt")):
        text = path.read_bytes().decode("utf-8", "replace")
        fields = {"Kind": "jira", "List": "issues@example.apache.org", "Subject": path.stem}
        corpus.append(_wrap_source(fields, text, path.stem))
    corpus += [m.encode("utf-8") for m in _HAND_MADE]
    return corpus


# ------------------------------------------------------------------ mboxrd writing


def mboxrd_escape(raw: bytes) -> bytes:
    out = []
    for line in raw.splitlines(keepends=True):
        if line.lstrip(b">").startswith(b"From "):
            line = b">" + line
        out.append(line)
    return b"".join(out)


def envelope(number: int, moment: datetime) -> bytes:
    stamp = time.asctime(moment.astimezone(UTC).timetuple())
    return f"From dev-return-{number}-archive@example.apache.org  {stamp}".encode()


def to_mbox(messages: list[bytes], escape: bool = True) -> bytes:
    base = datetime(2020, 1, 1, tzinfo=UTC)
    out = []
    for i, raw in enumerate(messages):
        body = mboxrd_escape(raw) if escape else raw
        if not body.endswith(b"\n"):
            body += b"\n"
        out.append(envelope(i + 1, base + timedelta(minutes=i)) + b"\n" + body + b"\n")
    return b"".join(out)


# ------------------------------------------------------------------ mutations
# Message-level mutations take (rng, message bytes, scale) and return message bytes;
# list-level ones take (rng, messages) and return messages; archive-level ones work on
# the mbox bytes, and gzip-level ones on the compressed file.


def _split(raw: bytes) -> tuple[bytes, bytes]:
    head, sep, body = raw.partition(b"\n\n")
    return (head, body) if sep else (raw, b"")


def _join(head: bytes, body: bytes) -> bytes:
    return head + b"\n\n" + body


def m_unescaped_from(rng, raw, scale):
    head, body = _split(raw)
    lines = body.split(b"\n")
    at = rng.randrange(len(lines) + 1)
    lines[at:at] = [b"", b"From someone@example.org  Mon Jan  1 00:00:00 2001", b"text"]
    return _join(head, b"\n".join(lines))


def m_crlf(rng, raw, scale):
    return raw.replace(b"\n", b"\r\n")


def m_mixed_eol(rng, raw, scale):
    parts = raw.split(b"\n")
    return b"".join(p + rng.choice([b"\n", b"\r\n", b"\r", b"\n\r"]) for p in parts)


def m_flip_head(rng, raw, scale):
    head, body = _split(raw)
    b = bytearray(head)
    for _ in range(rng.randint(1, 8)):
        if b:
            b[rng.randrange(len(b))] = rng.randrange(256)
    return _join(bytes(b), body)


def m_flip_body(rng, raw, scale):
    b = bytearray(raw)
    for _ in range(rng.randint(1, 30)):
        if b:
            b[rng.randrange(len(b))] = rng.randrange(256)
    return bytes(b)


def m_huge_line(rng, raw, scale):
    size = rng.randint(1, 5) * scale
    unit = rng.choice([b"A", b"ab12 ", b"-- | ", b"x", b"9", b"| 1 "])
    line = (unit * (size // len(unit) + 1))[:size]
    return raw.rstrip(b"\n") + b"\n" + line + b"\n"


def m_deep_multipart(rng, raw, scale):
    head, body = _split(raw)
    depth = rng.choice([20, 60, 150, 400])
    inner = body
    for i in range(depth):
        inner = (
            f'--b{i}\nContent-Type: multipart/mixed; boundary="b{i + 1}"\n\n'.encode()
            + inner
            + f"\n--b{i}--\n".encode()
        )
    head = re.sub(rb"(?im)^content-type:.*$", b"X-Old-Type: gone", head)
    return _join(head + b'\nContent-Type: multipart/mixed; boundary="b0"', inner)


def m_broken_boundary(rng, raw, scale):
    head, body = _split(raw)
    head = re.sub(rb"(?im)^content-type:.*$", b"X-Old-Type: gone", head)
    choice = rng.randrange(4)
    if choice == 0:  # declared, never used
        ctype, body = b'multipart/mixed; boundary="nope"', body
    elif choice == 1:  # no boundary parameter
        ctype, body = b"multipart/mixed", b"--x\n\n" + body + b"\n--x--\n"
    elif choice == 2:  # never closed
        ctype = b'multipart/alternative; boundary="open"'
        body = b"--open\nContent-Type: text/plain\n\n" + body
    else:  # empty boundary, parts with broken headers
        ctype = b'multipart/mixed; boundary=""'
        body = b"--\nContent-Type: text/plain; charset=\n\n" + body + b"\n----\n"
    return _join(head + b"\nContent-Type: " + ctype, body)


def m_bad_charset(rng, raw, scale):
    head, body = _split(raw)
    head = re.sub(rb"(?im)^content-type:.*$", b"X-Old-Type: gone", head)
    cs = rng.choice([b"x-no-such", b"utf-7", b"utf-16", b"", b'"', b"ascii\x00", b"a" * 300])
    subject = b"\nSubject: =?" + cs + b"?B?" + base64.b64encode(b"\xff\xfe caf\xe9") + b"?="
    return _join(head + b"\nContent-Type: text/plain; charset=" + cs + subject, body)


def m_bad_base64(rng, raw, scale):
    head, body = _split(raw)
    head = re.sub(rb"(?im)^content-transfer-encoding:.*$", b"X-Old-Cte: gone", head)
    enc = base64.encodebytes(body)
    b = bytearray(enc)
    for _ in range(rng.randint(1, 20)):
        if b:
            b[rng.randrange(len(b))] = rng.choice(b"!*%=-\x00 ")
    if rng.random() < 0.5:
        b = b[: rng.randrange(len(b) + 1)]
    cte = rng.choice([b"base64", b"quoted-printable", b"x-uuencode", b"BASE64 junk"])
    return _join(head + b"\nContent-Transfer-Encoding: " + cte, bytes(b))


def m_nul(rng, raw, scale):
    b = bytearray(raw)
    for _ in range(rng.randint(1, 20)):
        b.insert(rng.randrange(len(b) + 1), 0)
    return bytes(b)


_NUMBERS = [
    str(2**63),
    str(2**64 + 7),
    "-" + str(2**63 + 1),
    "1e999",
    "-1e999",
    "1e-999",
    "9" * 400,
    "-" + "1" * 400,
    "0x" + "f" * 100,
    "NaN",
    "inf",
    "-0",
    "1." + "0" * 500 + "1",
    "1,000,000,000,000,000,000,000,000",
]


def m_numbers(rng, raw, scale):
    head, body = _split(raw)
    n = rng.choice(_NUMBERS)
    head = re.sub(rb"#\d+", b"#" + n.encode(), head)
    head = re.sub(rb"(?m)^Subject: ", f"Subject: PR #{n} ({n}) ".encode(), head, count=1)
    table = (
        f"\nBenchmark  Mode  Cnt  Score  Error  Units\nFoo.bar  thrpt  5  {n} ± {n}  ops/s\n"
        f"| bench | time |\n|---|---|\n| read | {n} ms |\n| write | {n} µs |\n"
        f"took {n} ms, {n}x faster, {n}% less, p99 {n}s\n"
    )
    body = re.sub(rb"\d+(\.\d+)?", lambda m: n.encode() if rng.random() < 0.2 else m[0], body)
    return _join(head, body + table.encode())


def m_table_markup(rng, raw, scale):
    width = rng.choice([50, 500, 5000, 20000])
    rows = max(2, min(rng.randint(2, 200), scale // (5 * width)))  # at most ~scale bytes
    kind = rng.randrange(5)
    if kind == 0:
        text = ("-- | " * width + "\n") * rows
    elif kind == 1:
        text = ("|" * width + "\n") * rows
    elif kind == 2:
        text = "| a | b |\n" + ("|" + "---|" * width + "\n") * rows
    elif kind == 3:
        text = ("+" + "-+" * width + "\n" + "| 1 " * width + "|\n") * rows
    else:
        text = ("  ".join(["1.0"] * width) + "\n") * rows
    return raw.rstrip(b"\n") + b"\n" + text.encode()


def m_truncate_message(rng, raw, scale):
    return raw[: rng.randrange(len(raw) + 1)]


MESSAGE_MUTATIONS = {
    "unescaped-from": m_unescaped_from,
    "crlf": m_crlf,
    "mixed-eol": m_mixed_eol,
    "flip-header": m_flip_head,
    "flip-body": m_flip_body,
    "huge-line": m_huge_line,
    "deep-multipart": m_deep_multipart,
    "broken-boundary": m_broken_boundary,
    "bad-charset": m_bad_charset,
    "bad-base64": m_bad_base64,
    "nul": m_nul,
    "numbers": m_numbers,
    "table-markup": m_table_markup,
    "cut-message": m_truncate_message,
}


def l_duplicate(rng, msgs):
    i = rng.randrange(len(msgs))
    return msgs[: i + 1] + [msgs[i]] * rng.randint(1, 3) + msgs[i + 1 :]


def l_delete(rng, msgs):
    if len(msgs) > 1:
        del msgs[rng.randrange(len(msgs))]
    return msgs


def l_swap(rng, msgs):
    i, j = rng.randrange(len(msgs)), rng.randrange(len(msgs))
    msgs[i], msgs[j] = msgs[j], msgs[i]
    return msgs


def l_empty(rng, msgs):
    for _ in range(rng.randint(1, 3)):
        msgs.insert(rng.randrange(len(msgs) + 1), rng.choice([b"", b"\n", b"\r\n", b" "]))
    return msgs


LIST_MUTATIONS = {
    "duplicate": l_duplicate,
    "delete": l_delete,
    "swap": l_swap,
    "empty-messages": l_empty,
}


def a_truncate(rng, mbox):
    return mbox[: rng.randrange(len(mbox) + 1)]


def a_leading_text(rng, mbox):
    return rng.choice([b"garbage before any envelope\n\n", b"\n\n\n", b"\r\n", b"X"]) + mbox


def a_crlf(rng, mbox):
    return mbox.replace(b"\n", b"\r\n")


def a_flip(rng, mbox):
    b = bytearray(mbox)
    for _ in range(rng.randint(1, 50)):
        if b:
            b[rng.randrange(len(b))] = rng.choice([0, 10, 13, 32, 62, 70, rng.randrange(256)])
    return bytes(b)


ARCHIVE_MUTATIONS = {
    "truncate": a_truncate,
    "leading-text": a_leading_text,
    "archive-crlf": a_crlf,
    "archive-flip": a_flip,
}


def g_truncate(rng, gz):
    return gz[: rng.randrange(len(gz))]


def g_corrupt(rng, gz):
    b = bytearray(gz)
    for _ in range(rng.randint(1, 5)):
        b[rng.randrange(10, len(b)) if len(b) > 10 else 0] ^= 1 << rng.randrange(8)
    return bytes(b)


def g_members(rng, gz):
    """Several gzip members, with zero padding or junk after them."""
    return gz + gzip.compress(b"", mtime=0) + rng.choice([b"", b"\x00" * 512, b"junk"])


def g_flip_one(rng, gz):
    """One bit flipped anywhere after the header: in the data or the trailer."""
    b = bytearray(gz)
    if len(b) > 10:
        b[rng.randrange(10, len(b))] ^= 1 << rng.randrange(8)
    return bytes(b)


def g_trailer(rng, gz):
    """The data intact, its CRC-32 or length wrong."""
    b = bytearray(gz)
    b[rng.randrange(max(0, len(b) - 8), len(b))] ^= 1 << rng.randrange(8)
    return bytes(b)


def g_damaged_member(rng, gz):
    """A second member that breaks: the first one's messages are all there."""
    return gz + g_flip_one(rng, gzip.compress(b"From x  Mon Jan  1 00:00:00 2001\n\nhi\n"))


GZIP_MUTATIONS = {
    "gzip-truncate": g_truncate,
    "gzip-corrupt": g_corrupt,
    "gzip-members": g_members,
    "gzip-flip-one": g_flip_one,
    "gzip-trailer": g_trailer,
    "gzip-damaged-member": g_damaged_member,
}


@dataclass
class FuzzArchive:
    name: str
    path: Path
    mutations: list[str]


def build_archive(rng: random.Random, corpus: list[bytes], scale: int) -> tuple[bytes, list[str]]:
    """One mutated archive's file bytes and the names of the mutations applied."""
    msgs = [rng.choice(corpus) for _ in range(rng.randint(1, 6))]
    applied: list[str] = []
    names = list(MESSAGE_MUTATIONS)
    for _ in range(rng.randint(1, 3)):
        name = rng.choice(names)
        if name == "huge-line" and rng.random() < 0.7:
            name = rng.choice(names)  # big archives cost time: rarer
        i = rng.randrange(len(msgs))
        msgs[i] = MESSAGE_MUTATIONS[name](rng, msgs[i], scale)
        applied.append(name)
    if rng.random() < 0.5:
        name = rng.choice(list(LIST_MUTATIONS))
        msgs = LIST_MUTATIONS[name](rng, msgs)
        applied.append(name)
    mbox = to_mbox(msgs, escape=rng.random() > 0.1)
    if rng.random() < 0.1:
        applied.append("no-escaping")
    if rng.random() < 0.3:
        name = rng.choice(list(ARCHIVE_MUTATIONS))
        mbox = ARCHIVE_MUTATIONS[name](rng, mbox)
        applied.append(name)
    data = gzip.compress(mbox, compresslevel=rng.choice([1, 6, 9]), mtime=0)
    if rng.random() < 0.2:
        name = rng.choice(list(GZIP_MUTATIONS))
        data = GZIP_MUTATIONS[name](rng, data)
        applied.append(name)
    return data, applied


def build_archives(data_dir: Path, n: int, seed: int, scale: int = 1 << 20) -> list[FuzzArchive]:
    """`n` archives under data_dir/raw/fuzz.example/list<k>/<YYYY-MM>.mbox.gz."""
    rng = random.Random(seed)
    corpus = seed_corpus()
    out = []
    for k in range(n):
        data, applied = build_archive(rng, corpus, scale)
        month = f"{2000 + k // 12 % 100:04d}-{k % 12 + 1:02d}"
        path = data_dir / "raw" / "fuzz.example" / f"list{k // 1200}" / f"{month}.mbox.gz"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        out.append(FuzzArchive(path.relative_to(data_dir).as_posix(), path, applied))
    return out


# ------------------------------------------------------------------ running and checking


def _worker(conn, data_dir: str) -> None:
    from extract.pipeline import enable_message_budget, process_archive

    enable_message_budget(MESSAGE_SECONDS)  # a message over it is an errors row: counted

    while True:
        path = conn.recv()
        if path is None:
            return
        try:
            rows = process_archive(path, data_dir)
            slim = type(rows)(rows.archive, rows.messages, [], [], rows.errors)
            for m in slim.messages:
                for key in ("text", "text_rest", "text_map", "body", "raw"):
                    m.pop(key, None)
            conn.send(("ok", slim))
        except BaseException:  # noqa: BLE001 — every escape is a finding
            conn.send(("crash", traceback.format_exc()))


class _Slot:
    def __init__(self, ctx, data_dir: Path):
        self.ctx, self.data_dir = ctx, data_dir
        self._start()

    def _start(self) -> None:
        self.conn, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=_worker, args=(child, str(self.data_dir)), daemon=True)
        self.proc.start()
        child.close()

    def run(self, path: Path, timeout: float):
        self.conn.send(str(path))
        start = time.monotonic()
        if not self.conn.poll(timeout):
            self.proc.kill()
            self.proc.join()
            self._start()
            return "hang", f"no result after {timeout:g} s", time.monotonic() - start
        try:
            status, payload = self.conn.recv()
        except (EOFError, OSError) as exc:
            code = self.proc.exitcode
            self.proc.join()
            self._start()
            return "crash", f"worker died ({exc!r}, exit {code})", time.monotonic() - start
        return status, payload, time.monotonic() - start

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.conn.send(None)
        self.proc.join(5)
        if self.proc.is_alive():
            self.proc.kill()


@dataclass
class Summary:
    archives: int = 0
    messages: int = 0
    crashes: int = 0
    hangs: int = 0
    slow_messages: int = 0  # messages over MESSAGE_SECONDS (their budget ran out)
    messages_lost: int = 0
    invariant_failures: int = 0
    slowest_seconds: float = 0.0
    mutations: dict[str, int] = field(default_factory=dict)
    failures: list[dict] = field(default_factory=list)
    run: dict = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not (
            self.crashes
            or self.hangs
            or self.slow_messages
            or self.messages_lost
            or self.invariant_failures
        )


def check_archives(
    archives: list[FuzzArchive], data_dir: Path, workers: int = 2, timeout: float = HANG_SECONDS
) -> Summary:
    ctx = multiprocessing.get_context(
        "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    )
    summary = Summary(archives=len(archives))
    lock = threading.Lock()
    todo = list(reversed(archives))

    def record(arch: FuzzArchive, status: str, payload, seconds: float) -> None:
        with lock:
            summary.slowest_seconds = max(summary.slowest_seconds, round(seconds, 2))
            for m in arch.mutations:
                summary.mutations[m] = summary.mutations.get(m, 0) + 1
            expected, damaged = expected_count(arch.path.read_bytes())
            fail = {"archive": arch.name, "mutations": arch.mutations}
            if status == "hang":
                summary.hangs += 1
                summary.failures.append({**fail, "kind": "hang", "detail": payload})
                return
            if status == "crash":
                summary.crashes += 1
                summary.failures.append({**fail, "kind": "crash", "detail": payload})
                return
            rows = payload
            summary.messages += rows.archive["n_messages"]
            slow = [e for e in rows.errors if e["reason"].startswith("message took over")]
            if slow:
                summary.slow_messages += len(slow)
                detail = "; ".join(f"{e['position']}: {e['reason']}" for e in slow)
                summary.failures.append({**fail, "kind": "slow", "detail": detail})
            problems = check_invariant(rows, expected, damaged)
            if problems:
                summary.invariant_failures += 1
                accounted = {m["position"] for m in rows.messages}
                accounted |= {e["position"] for e in rows.errors if e.get("position") is not None}
                lost = max(0, expected - len(accounted))
                summary.messages_lost += lost
                summary.failures.append(
                    {**fail, "kind": "invariant", "lost": lost, "detail": "; ".join(problems)}
                )

    def loop() -> None:
        slot = _Slot(ctx, data_dir)
        try:
            while True:
                with lock:
                    if not todo:
                        return
                    arch = todo.pop()
                record(arch, *slot.run(arch.path, timeout))
        finally:
            slot.close()

    threads = [threading.Thread(target=loop) for _ in range(max(1, workers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return summary


def load_all(data_dir: Path, workers: int, summary: Summary) -> None:
    """Every archive with `extract.run` into a database; an exception is a crash."""
    import extract

    try:
        with open(os.devnull, "w") as quiet:
            result = extract.run(data_dir, workers=workers, progress_stream=quiet)
        summary.run = {
            "messages": result.messages,
            "errors": result.errors,
            "db_messages": result.db_messages,
            "db_errors": result.db_errors,
            "unstored": result.unstored,
        }
        if result.unstored:
            summary.crashes += 1
            summary.failures.append(
                {"archive": "*", "mutations": [], "kind": "unstored", "detail": result.unstored}
            )
    except BaseException:  # noqa: BLE001
        summary.crashes += 1
        summary.failures.append(
            {"archive": "*", "mutations": [], "kind": "run-crash", "detail": traceback.format_exc()}
        )


def fuzz(
    n: int,
    seed: int = 0,
    *,
    workers: int = 2,
    scale: int = 1 << 20,
    data_dir: Path | None = None,
    load: bool = True,
    timeout: float = HANG_SECONDS,
) -> Summary:
    """Build, check and load `n` archives; `scale` is the huge lines' size unit (bytes)."""
    start = time.monotonic()
    own = data_dir is None
    data_dir = Path(tempfile.mkdtemp(prefix="fuzz-")) if own else Path(data_dir)
    try:
        archives = build_archives(data_dir, n, seed, scale)
        summary = check_archives(archives, data_dir, workers, timeout)
        if load:
            load_all(data_dir, workers, summary)
    finally:
        if own:
            shutil.rmtree(data_dir, ignore_errors=True)
    summary.seconds = round(time.monotonic() - start, 1)
    return summary


def report(summary: Summary) -> str:
    lines = [
        f"archives={summary.archives} messages={summary.messages} crashes={summary.crashes} "
        f"hangs={summary.hangs} slow_messages={summary.slow_messages} "
        f"messages_lost={summary.messages_lost} "
        f"invariant_failures={summary.invariant_failures} slowest={summary.slowest_seconds}s "
        f"seconds={summary.seconds}",
    ]
    if summary.run:
        lines.append("extract.run: " + json.dumps(summary.run, default=str))
    for f in summary.failures:
        detail = str(f["detail"]).strip().splitlines()
        lines.append(f"  {f['kind']}: {f['archive']} [{', '.join(f['mutations'])}]")
        lines += [f"      {line}" for line in detail[-12:]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m extract.dev.fuzz", description=__doc__.split("\n")[0]
    )
    p.add_argument("--archives", type=int, default=2000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path)
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    p.add_argument("--keep", type=Path, help="build the archives here and keep them")
    args = p.parse_args(argv)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    summary = fuzz(args.archives, args.seed, workers=args.workers, data_dir=args.keep)
    print(report(summary))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(
            json.dumps({**asdict(summary), "ok": summary.ok}, indent=2, default=str)
        )
    return 0 if summary.ok else 1


if __name__ == "__main__":
    sys.exit(main())
