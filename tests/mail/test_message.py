"""Parsing the messages built in tests/mail/mboxes.py (charsets, transfer encodings,
MIME shapes, broken MIME), the seeds and the demo's own messages; and, when ../shared
is there, the peer tools' real archives (marked `shared`)."""

from __future__ import annotations

import base64
import email.utils
import itertools
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from extract.mail.mbox import ArchiveReadError, iter_messages, read_mbox
from extract.mail.message import (
    ParseError,
    _envelope_date,
    _parse_multipart,
    _parse_plain,
    _parse_stdlib,
    _rfc5322,
    decode_header_value,
    html_to_text,
    parse_message,
    split_address,
)
from tests.conftest import SEEDS, shared_path
from tests.mail import mboxes
from tests.mail.mboxes import EDGE_ARCHIVES, EDGE_MESSAGES, make_message

SAMPLE_SOURCES = Path(__file__).resolve().parents[1] / "fixtures" / "sample"
# Built archives every message of which must parse (the header-less one aside).
MUST_PASS = [name for name in EDGE_ARCHIVES if name != "truncated"]
# Simple text/plain messages the fast plain reader must take, and multipart ones the
# fast multipart reader must take (the rest go to `email`, checked below).
PLAIN = ["latin1", "koi8", "utf8", "encoded-words", "unknown-charset", "wrong-charset",
         "right-charset", "quoted-printable", "base64", "empty-body", "headers-only",
         "no-date", "reply"]  # fmt: skip
MULTIPART = ["alternative", "mixed-attachments", "missing-close", "signed"]


def _messages(data: bytes):
    return list(iter_messages(iter(data.splitlines(keepends=True))))


def parsed(name: str):
    return parse_message(EDGE_MESSAGES[name], "From x  Thu Jan  1 00:00:00 1970")


@pytest.mark.parametrize("name", MUST_PASS)
def test_built_archives_parse_without_errors(name):
    msgs = _messages(EDGE_ARCHIVES[name])
    assert msgs
    for raw in msgs:
        pm = parse_message(raw.data, raw.envelope_line)
        assert pm.parser in ("plain", "multipart", "stdlib")  # none needs mail-parser
        assert pm.subject is not None or pm.from_address is not None or pm.text


@pytest.mark.shared
def test_real_archives_parse_without_errors():
    """The peer tools' archives that a correct importer must read (../shared/mbox)."""
    root = shared_path("mbox")
    paths = [p for p in sorted(root.rglob("*.mbox")) if "/fail/" not in str(p)]
    paths += sorted(root.rglob("*.eml"))
    assert paths
    for path in paths:
        msgs = list(read_mbox(path))
        assert msgs, path
        for raw in msgs:
            pm = parse_message(raw.data, raw.envelope_line)
            assert pm.parser in ("plain", "multipart", "stdlib"), path
            assert pm.subject is not None or pm.from_address is not None or pm.text


def _built_messages() -> list[bytes]:
    """Every message the project wrote: the edge cases, the built archives, the seeds
    and the demo's message sources."""
    out = list(EDGE_MESSAGES.values())
    out += [m.data for data in EDGE_ARCHIVES.values() for m in _messages(data)]
    sources = sorted(SAMPLE_SOURCES.glob("*.txt")) + sorted(SEEDS.glob("*.txt"))
    out += [b"Content-Type: text/plain; charset=utf-8\n" + p.read_bytes() for p in sources]
    return out


def _shared_messages() -> list[bytes]:
    root = shared_path("mbox")
    out = [m.data for path in sorted(root.rglob("*.mbox")) for m in _readable(path)]
    out += [p.read_bytes().split(b"\n", 1)[1] for p in sorted(root.rglob("*.eml"))]
    corpus = shared_path("corpus", "dev")
    out += [
        b"Content-Type: text/plain; charset=utf-8\n" + p.read_bytes()
        for p in sorted(corpus.glob("*.txt"))
    ]
    return out


def _headers_of(name: str, messages: list[bytes]) -> list[str]:
    """Every value of header `name` in `messages`, decoded."""
    pattern = re.compile(rf"^{name}:[ \t]*(.*(?:\n[ \t].*)*)", re.M | re.I)
    values = []
    for data in messages:
        head = data.split(b"\n\n", 1)[0].decode("latin-1")
        values += [decode_header_value(m.group(1)) for m in pattern.finditer(head)]
    return values


def _readable(path: Path):
    try:
        yield from read_mbox(path)
    except ArchiveReadError:
        return


def _plain_as_email(messages: list[bytes]) -> int:
    """`_parse_plain` skips `email` for simple text/plain mail: whatever it accepts
    must come out field for field as the standard library's reading."""
    accepted = 0
    for data in messages:
        fast = _parse_plain(data, "From x  Thu Jan  1 00:00:00 1970")
        if fast is None:
            continue
        accepted += 1
        std = _parse_stdlib(data, "From x  Thu Jan  1 00:00:00 1970")
        assert (fast.parser, std.parser) == ("plain", "stdlib")
        fast.parser = std.parser
        assert fast == std
    return accepted


def test_plain_reader_reads_what_it_accepts_exactly_as_email_does():
    for name in PLAIN:  # every simple text/plain shape is taken by the fast reader
        assert _parse_plain(EDGE_MESSAGES[name], "") is not None, name
    assert _plain_as_email(_built_messages()) >= len(PLAIN)


@pytest.mark.shared
def test_plain_reader_reads_real_mail_exactly_as_email_does():
    assert _plain_as_email(_shared_messages()) >= 150  # most list mail is simple text/plain


@pytest.mark.parametrize(
    "head",
    [
        "Content-Type: multipart/alternative; boundary=x",
        "Content-Type: text/html",
        "Content-Type: text/plain; name=x.txt",
        "Content-Type: text/plain; charset*=utf-8''x",
        "Content-Disposition: attachment",
        "Content-Transfer-Encoding: x-uuencode",
        "Content-Transfer-Encoding: quoted-printable ",  # not decoded by email
        "X-Broken header without colon",
        "X-Lone: carriage\rreturn",
    ],
)
def test_plain_reader_leaves_anything_else_to_email(head):
    data = f"Subject: s\nFrom: a@b.org\n{head}\n\nbody\n".encode()
    assert _parse_plain(data, "") is None
    assert parse_message(data).parser == "stdlib"


def _same_as_email(data: bytes, reader=_parse_multipart, parser="multipart"):
    """The fast reader's result, checked field for field against `email`'s."""
    fast = reader(data, "From x  Thu Jan  1 00:00:00 1970")
    if fast is not None:
        std = _parse_stdlib(data, "From x  Thu Jan  1 00:00:00 1970")
        assert (fast.parser, std.parser) == (parser, "stdlib")
        fast.parser = std.parser
        assert fast == std
    return fast


def test_plain_reader_reads_base64_as_email_does():
    body = "caf\u00e9 \u00b1 3 ms\n" * 20
    head = b"Subject: s\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: Base64"
    for b64 in (base64.encodebytes(body.encode()), base64.b64encode(body.encode())[:-2]):
        for nl in (b"\n", b"\r\n"):  # (the second one: unpadded, on one line)
            pm = _same_as_email((head + b"\n\n" + b64).replace(b"\n", nl), _parse_plain, "plain")
            assert pm is not None and pm.text == body
    lenient = b"Subject: s\nContent-Transfer-Encoding: base64\n\nYWJj ZGVm\n"  # a stray space
    assert _parse_plain(lenient, "") is None


def test_multipart_reader_reads_what_it_accepts_exactly_as_email_does():
    """`_parse_multipart` skips `email` for flat multipart mail: whatever it accepts
    must come out field for field as the standard library's reading."""
    for name in MULTIPART:
        assert _same_as_email(EDGE_MESSAGES[name]) is not None, name
    for name in ("nested", "missing-boundary", "bad-base64", "html-only"):
        assert _parse_multipart(EDGE_MESSAGES[name], "") is None, name
    assert sum(_same_as_email(data) is not None for data in _built_messages()) >= len(MULTIPART)


@pytest.mark.shared
def test_multipart_reader_reads_real_mail_exactly_as_email_does():
    accepted = sum(_same_as_email(data) is not None for data in _shared_messages())
    assert accepted >= 12  # of the 20 multipart messages of the peer archives


def _multipart(
    *parts: str,
    ctype="multipart/mixed",
    boundary='"b-1"',
    preamble="",
    close="--b-1--\n",
    epilogue="",
    sep="--b-1\n",
) -> bytes:
    head = "From: Jane <j@x.org>\nSubject: s\nMessage-ID: <m@x>\nMIME-Version: 1.0\n"
    head += f"Content-Type: {ctype}; boundary={boundary}\n\n"
    body = preamble + "".join(sep + part + "\n" for part in parts) + close + epilogue
    return (head + body).encode("utf-8")


_PLAIN_PART = "Content-Type: text/plain; charset=utf-8\n\nplain text\n"
_HTML_PART = "Content-Type: text/html\n\n<p>html <b>text</b></p>\n"
_QP_PART = (
    "Content-Type: text/plain; charset=iso-8859-2\nContent-Transfer-Encoding: quoted-printable"
    "\n\n=A9koda =\nsoft break\n"
)
_B64_PART = 'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: base64\n\n'
_B64_PART += base64.encodebytes("caf\u00e9 12 ms\n".encode()).decode()
_ATTACHMENT = "Content-Type: application/pdf\nContent-Disposition: attachment; filename=r.pdf\n\nx"


# Flat multipart variants the fast reader must accept, and read as `email` does.
_ACCEPTED = {
    "alternative": _multipart(_PLAIN_PART, _HTML_PART, ctype="multipart/alternative"),
    "crlf": _multipart(_PLAIN_PART, _HTML_PART).replace(b"\n", b"\r\n"),
    "preamble-epilogue": _multipart(
        _PLAIN_PART, preamble="This is MIME.\n\n", epilogue="\nthe end\n--b-1\nx\n"
    ),
    "no-close": _multipart(_PLAIN_PART, _ATTACHMENT, close=""),
    "no-last-newline": _multipart(_PLAIN_PART, close="").rstrip(b"\n"),
    "boundary-whitespace": _multipart(_PLAIN_PART, sep="--b-1 \t \n", close="--b-1--  \n"),
    "unquoted-boundary": _multipart(_PLAIN_PART, boundary="b-1"),
    "dashes-in-text": _multipart(
        "Content-Type: text/plain\n\n-- \n--b-1x\n--b-1---\n --b-1\n--b-2\n", _PLAIN_PART
    ),
    "plain-attachment": _multipart(
        'Content-Type: text/plain\nContent-Disposition: attachment; filename="notes.txt"\n\nn',
        _PLAIN_PART,
    ),
    "attachment-names": _multipart(
        'Content-Type: text/plain; name="=?utf-8?B?w6EudHh0?="\n\nnamed by Content-Type',
        "Content-Type: image/png\nContent-Disposition: attachment;\n filename="
        '"=?iso-8859-1?Q?t=E1.png?="\nContent-Transfer-Encoding: base64\n\niVBORw0KGgo=',
        "Content-Type: text/plain\nContent-Disposition: attachment\n\nunnamed",
        _PLAIN_PART,
    ),
    "qp": _multipart(_QP_PART),
    "base64-crlf": _multipart(_B64_PART).replace(b"\n", b"\r\n"),
    "html-only": _multipart(_HTML_PART, ctype="multipart/alternative"),
    "header-only-part": _multipart("Content-Type: text/plain\n", _HTML_PART),
    "empty-part": _multipart("Content-Type: text/plain\n\n", _HTML_PART),
    "enriched": _multipart("Content-Type: text/enriched\n\n<bold>x</bold>", _ATTACHMENT),
    "attachment-only": _multipart(_ATTACHMENT),
    "odd-type": _multipart("Content-Type: text\nContent-Type: image/png\n\nx"),  # text/plain
}


@pytest.mark.parametrize("data", _ACCEPTED.values(), ids=_ACCEPTED.keys())
def test_multipart_reader_reads_variants_as_email_does(data):
    assert _same_as_email(data) is not None


# Multipart mail the fast reader must leave to `email`.
_REFUSED = {
    "nested": _multipart(
        "Content-Type: multipart/alternative; boundary=i\n\n--i\n" + _PLAIN_PART + "--i--\n"
    ),
    "message-part": _multipart(_PLAIN_PART, "Content-Type: message/rfc822\n\nSubject: i\n\nhi\n"),
    "digest": _multipart(_PLAIN_PART, ctype="multipart/digest"),
    "rfc2231-filename": _multipart(
        "Content-Disposition: attachment; filename*=utf-8''a%C3%A1.txt\n\nx", _PLAIN_PART
    ),
    "rfc2231-param": _multipart(_PLAIN_PART, boundary="b-1; a*0=x"),
    "no-headers": _multipart("\nno headers: a default text/plain part", _HTML_PART),
    "lenient-base64": _multipart(_B64_PART + "!"),
    "uuencode": _multipart("Content-Type: text/plain\nContent-Transfer-Encoding: x-uuencode\n\nx"),
    "lone-cr": _multipart(_PLAIN_PART).replace(b"plain text", b"lone\rCR"),
    "closed-first": _multipart(_PLAIN_PART, preamble="--b-1--\n"),
    "boundaries-in-a-row": _multipart(_PLAIN_PART, sep="--b-1\n--b-1\n"),
    "empty-boundary": _multipart(_PLAIN_PART, boundary='""'),
    "no-boundary-line": _multipart(_PLAIN_PART, boundary="other"),
    "8bit-param": _multipart('Content-Type: text/plain; charset="\u00e9"\n\nx', _PLAIN_PART),
}


@pytest.mark.parametrize("data", _REFUSED.values(), ids=_REFUSED.keys())
def test_multipart_reader_leaves_anything_else_to_email(data):
    assert _parse_multipart(data, "") is None
    assert parse_message(data).parser == "stdlib"


_NAMES = ["", "Jane", "Jane  Doe", "O'Brien", "Jean-Luc Picard", "a_b c", "ASF GitHub Bot (JIRA)",
          "Bot (via GitHub)", "X (a  b)", "X  (JIRA)", '"Doe, Jane"', '"Jane  Doe (x)"', '""',
          '"\u00e9"', "\u00e9", "Jane Doe ", " Jane", "'q'", "-", "x (JIRA) (y)",
          "123"]  # fmt: skip
_ADDRESSES = ["<j@x.org>", "<J.K@X.ORG>", "<a+b%c@d-e.f>", "<j-@x.org>", "<j@x-.org>",
              "<\u00e9@x.org>", "<j@x>", "<ji...@apache.org>", "<j..k@x.org>"]  # fmt: skip


def test_sender_split_as_parseaddr_does():
    """split_address reads the common forms with one regex: it must give what
    email.utils.parseaddr gives, on every sender of the fixtures and on variants."""
    values = [f"{n}{sp}{a}" for n in _NAMES for a in _ADDRESSES for sp in ("", " ", "  ")]
    values += ["j@x.org", "a.b@c.d", "a+b@c", "_x@y.z", "jane@x.org (Jane)", "asfimport"]
    parts = (("j@x.org", "a.b", "alamb", "x-y", "123", "a..b", ".a", "a."),
             ("", " (Jane Doe)", " ()", " (  x  )", " (a (b) c)", ' ("q")', "  (x)",
              " (\u0160egan)", " (x\\y)", "(x)", " (x) "))  # fmt: skip
    values += [a + c for a, c in itertools.product(*parts)]
    values += _senders(_built_messages())
    for value in values:
        assert split_address(value) == email.utils.parseaddr(value), value


def _senders(messages: list[bytes]) -> list[str]:
    values = _headers_of("From", messages)
    for data in messages:
        pm = _parse_stdlib(data, "") if data.strip() else None
        if pm and pm.from_address:
            values.append(f"{pm.from_name or ''} <{pm.from_address}>")
    return values


@pytest.mark.shared
def test_real_senders_split_as_parseaddr_does():
    for value in _senders(_shared_messages()):
        assert split_address(value) == email.utils.parseaddr(value), value


def test_quoted_printable_and_8bit_bodies_are_decoded():
    qp = (
        b"Subject: s\nContent-Type: text/plain; charset=utf-8\n"
        b"Content-Transfer-Encoding: quoted-printable\n\n=C2=B1 3.5 ms/op =\nsoft break\n"
    )
    assert parse_message(qp).text == "\u00b1 3.5 ms/op soft break\n"
    latin = "Subject: s\nContent-Type: text/plain; charset=iso-8859-1\n\n\u00b5s\n".encode(
        "latin-1"
    )
    pm = parse_message(latin)
    assert (pm.parser, pm.text) == ("plain", "\u00b5s\n")


def test_a_message_without_a_header_block_is_an_error():
    (raw,) = _messages(b"From \n" + mboxes.no_headers_message())
    with pytest.raises(ParseError, match="no headers"):
        parse_message(raw.data, raw.envelope_line)


@pytest.mark.shared
def test_nolist_fail_case_is_an_error():
    (raw,) = read_mbox(shared_path("mbox", "ponymail-classic", "fail", "NoList.mbox"))
    with pytest.raises(ParseError, match="no headers"):
        parse_message(raw.data, raw.envelope_line)


def test_headers_decoded_and_ids_without_brackets():
    pm = parsed("encoded-words")
    assert (pm.subject, pm.from_name) == mboxes.ENCODED_WORDS
    assert pm.from_address == "danuta@example.org"
    pm = parsed("reply")
    assert pm.subject == "Re: External search form"
    assert pm.in_reply_to == "first-1@example.invalid"
    assert pm.refs == ["root-0@example.invalid", "first-1@example.invalid"]
    assert pm.message_id == "reply-2@example.invalid"


def test_dates_header_then_envelope_then_none():
    pm = parsed("latin1")
    assert (pm.date_source, pm.sent_at) == ("header", datetime(2016, 6, 14, 9, 30, tzinfo=UTC))
    # Without a Date header the envelope's date is used; without either, none.
    undated = EDGE_MESSAGES["no-date"]
    pm = parse_message(undated, "From x@y  Wed Nov 30 08:07:06 2016")
    assert (pm.date_source, pm.sent_at) == ("envelope", datetime(2016, 11, 30, 8, 7, 6, tzinfo=UTC))
    pm = parse_message(undated)
    assert (pm.sent_at, pm.date_source) == (None, None)


@pytest.mark.shared
def test_real_dates_header_then_envelope():
    # Perceval's "no fields" archive: messages whose Date is missing use the envelope.
    sources = {
        parse_message(r.data, r.envelope_line).date_source
        for r in read_mbox(shared_path("mbox", "peers", "perceval-mbox_no_fields.mbox"))
    }
    assert {"header", "envelope"} <= sources


@pytest.mark.parametrize(
    "header,source,expected",
    [
        ("2016-11-17 00:49:27 UTC", "header", datetime(2016, 11, 17, 0, 49, 27, tzinfo=UTC)),
        ("2017-04-24", "header", datetime(2017, 4, 24, tzinfo=UTC)),
        ("2008/04/14 20:03:04 UTC", "header", datetime(2008, 4, 14, 20, 3, 4, tzinfo=UTC)),
        ("unknown (quotes a message of Mon Dec 15 2014)", None, None),
        ("17/11/2016 00:49", "dateparser", datetime(2016, 11, 17, 0, 49, tzinfo=UTC)),
        (
            "Do, 17 Nov. 2016 00:49:27 +0100",
            "dateparser",
            datetime(2016, 11, 16, 23, 49, 27, tzinfo=UTC),
        ),
    ],
)
def test_odd_dates(header, source, expected):
    pm = parse_message(make_message("x", date=None, headers=f"Date: {header}"))
    assert (pm.date_source, pm.sent_at) == (source, expected)


def test_common_date_form_read_as_parsedate_to_datetime_does():
    """The regex for `Thu, 10 Mar 2017 22:49:00 +0000` must read what it accepts
    exactly as email.utils does (offset included), on every fixture Date and variants."""
    values = _headers_of("Date", _built_messages())
    parts = (("", "Thu, ", "Xyz, "), ("1", "31"), ("Mar", "Feb", "Foo"), ("2017", "1899"),
             ("23:59:60", "00:00:00"), ("+0000", "-0000", "+0530", "-0800", "+0099", "+2400"),
             ("", " (UTC)"))  # fmt: skip
    values += ["{}{} {} {} {} {}{}".format(*p) for p in itertools.product(*parts)]
    accepted = 0
    for value in values:
        fast = _rfc5322(value)
        if fast is None:
            continue
        accepted += 1
        slow = email.utils.parsedate_to_datetime(value)
        assert (fast, fast.utcoffset()) == (slow, slow.utcoffset()), value
    assert accepted > 100


def test_envelope_date_read_as_strptime_does():
    lines = [r.envelope_line for data in EDGE_ARCHIVES.values() for r in _messages(data)]
    parts = (("Thu", "Xyz"), ("Jan", "Foo"), (" 1", "31", "30"), ("00", "61"))
    lines += ["From x  {} {} {} 12:{}:05 2001".format(*p) for p in itertools.product(*parts)]
    for line in lines:
        m = re.search(r"([A-Z][a-z]{2} +[A-Z][a-z]{2} +\d{1,2} +\d{1,2}:\d{2}:\d{2} +\d{4})", line)
        try:
            slow = datetime.strptime(re.sub(r"\s+", " ", m.group(1)), "%a %b %d %H:%M:%S %Y")
            slow = slow.replace(tzinfo=UTC)
        except (AttributeError, ValueError):
            slow = None
        assert _envelope_date(line) == slow, line


def test_wrong_charset_declaration_is_decoded_not_lost():
    bad, fixed = parsed("wrong-charset"), parsed("right-charset")
    assert bad.text == fixed.text and "\ufffd" not in bad.text
    assert "3,5 ms – schneller" in bad.text


@pytest.mark.parametrize(
    "name,text",
    [
        ("latin1", "Mesures : 12,5 µs par opération, café compris.\n"),
        ("koi8", "Задержка чтения: 4 мс\n"),
        ("utf8", "Durchsatz: 1 200 ops/s ± 3 %, naïve → fast 🚀\n"),
        ("quoted-printable", mboxes.QP_TEXT + "\n"),
        ("base64", "Ergebnis: 812 ops/s, größer als vorher\n"),
    ],
)
def test_charsets_and_transfer_encodings_are_decoded(name, text):
    assert parsed(name).text == text


def test_bad_base64_gives_what_can_be_decoded_never_an_error():
    pm = parsed("bad-base64")
    assert pm.text.startswith("Hello") and pm.subject == "bad base64"


def test_broken_multipart_keeps_its_text():
    assert parsed("missing-close").text.strip() == "the only part, 17 ms"
    pm = parsed("missing-boundary")  # no boundary: the body is kept as it is
    assert "lost?" in pm.text


def test_empty_and_header_only_messages_have_empty_text():
    for name in ("empty-body", "headers-only"):
        pm = parsed(name)
        assert (pm.text, pm.subject) == ("", name.replace("-", " "))


@pytest.mark.shared
def test_real_wrong_charset_declaration_is_decoded_not_lost():
    folder = shared_path("mbox", "ponymail-classic", "pass")
    stem = "00439.982a2ff6189badfe70c2fe3c972466a2"
    bad, fixed = (
        parse_message(raw.data, raw.envelope_line)
        for path in (folder / f"{stem}.mbox", folder / f"{stem}_fixcharset.mbox")
        for raw in list(read_mbox(path))[:1]
    )
    assert bad.text == fixed.text and "\ufffd" not in bad.text


def test_unknown_charset_falls_back():
    raw = make_message("", content_type="text/plain; charset=x-no-such-charset")
    raw += "Caf\u00e9 12 ms".encode("cp1252")
    pm = parse_message(raw)
    assert pm.text == "Caf\u00e9 12 ms"


def test_attachments_listed_with_decoded_names():
    pm = parsed("mixed-attachments")
    assert pm.attachments == mboxes.ATTACHMENT_NAMES
    assert pm.content_type == "text/plain" and pm.text.strip() == "See the attached logs."
    assert parsed("signed").attachments == ["signature.asc (application/pgp-signature)"]


def test_alternative_prefers_plain():
    pm = parsed("alternative")
    assert (pm.text.strip(), pm.content_type) == ("plain copy: 41 ms", "text/plain")


def test_html_only_body_becomes_text():
    pm = parsed("html-only")
    assert pm.content_type == "text/html"
    assert "<" not in pm.text
    assert mboxes.HTML_ONLY_TEXT in pm.text


def test_html_tables_become_pipe_rows_and_pre_stays_verbatim():
    html = (
        "<html><head><style>p{}</style></head><body><p>Results <b>now</b>:</p>"
        "<table><tr><th>Benchmark</th><th>Score</th></tr>"
        "<tr><td>read</td><td>1,234 ops/s</td></tr><tr><td>a|b</td><td>5</td></tr></table>"
        "<pre>Benchmark   Mode  Score\n  x         avgt  1.5</pre></body></html>"
    )
    assert html_to_text(html) == (
        "Results now:\n\n"
        "| Benchmark | Score |\n|---|---|\n| read | 1,234 ops/s |\n| a\\|b | 5 |\n\n"
        "Benchmark   Mode  Score\n  x         avgt  1.5"
    )


def test_nested_multipart_prefers_plain_and_lists_attachment():
    pm = parse_message(EDGE_MESSAGES["nested"])
    assert pm.text.strip() == "plain version"
    assert pm.attachments == ["chart.png (image/png)"]


def test_pathologically_deep_multipart_is_an_error_or_text_never_a_crash():
    depth = 3000
    head = b"From: a@b.org\nSubject: deep\nMIME-Version: 1.0\n"
    parts = b"".join(
        b'Content-Type: multipart/mixed; boundary="b%d"\n\n--b%d\n' % (i, i) for i in range(depth)
    )
    raw = head + parts + b"Content-Type: text/plain\n\ninner\n"
    try:
        pm = parse_message(raw)
    except ParseError as exc:
        assert exc.reason
    else:
        assert pm.subject == "deep"


@pytest.mark.parametrize(
    "data",
    [b"", b"\n\n\n", bytes(range(256)) * 4, b"\x00\x01\x02 binary junk without any header\n"],
    ids=["empty", "blank", "binary", "junk"],
)
def test_no_headers_is_a_parse_error(data):
    with pytest.raises(ParseError):
        parse_message(data)


def test_a_headerless_text_part_is_the_body():
    """A part without headers is text/plain (RFC 2046): it is the body, not skipped
    for the html part because an empty header list is falsy."""
    data = (
        b'Subject: s\nContent-Type: multipart/alternative; boundary="b"\n\n--b\n\n'
        b"plain words 3.5 ms\n--b\nContent-Type: text/html\n\n<p>html words</p>\n--b--\n"
    )
    pm = parse_message(data)
    assert (pm.text, pm.content_type) == ("plain words 3.5 ms", "text/plain")
