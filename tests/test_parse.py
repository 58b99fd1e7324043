"""Parsing real archive messages and deliberately broken ones."""

from __future__ import annotations

import email.utils
import itertools
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from extract.parse import (
    ParseError,
    _envelope_date,
    _parse_plain,
    _parse_stdlib,
    _rfc5322,
    decode_header_value,
    html_to_text,
    parse_message,
    split_address,
)
from extract.read import ArchiveReadError, read_mbox
from tests.test_read import MBOX, make_message

MUST_PASS = (
    sorted((MBOX / "ponymail-classic").glob("pass/*.mbox"))
    + sorted((MBOX / "ponymail-classic").glob("valid/*.mbox"))
    + sorted((MBOX / "ponymail-classic").glob("roundtrip/*.mbox"))
    + sorted((MBOX / "ponymail-foal").glob("*.mbox"))
    + sorted((MBOX / "ponymail-foal").glob("*.eml"))
    + sorted((MBOX / "peers").glob("*.mbox"))
)


def parsed(path: Path, position: int = 0):
    raw = list(read_mbox(path))[position]
    return parse_message(raw.data, raw.envelope_line)


@pytest.mark.parametrize("path", MUST_PASS, ids=lambda p: p.name)
def test_real_archives_parse_without_errors(path):
    msgs = list(read_mbox(path))
    assert msgs
    for raw in msgs:
        pm = parse_message(raw.data, raw.envelope_line)
        assert pm.parser in ("plain", "stdlib")  # the fast paths read all of them
        assert pm.subject is not None or pm.from_address is not None or pm.text


def _every_fixture_message() -> list[bytes]:
    out = [m.data for path in sorted(MBOX.rglob("*.mbox")) for m in _readable(path)]
    out += [p.read_bytes().split(b"\n", 1)[1] for p in sorted(MBOX.rglob("*.eml"))]
    fixtures = MBOX.parent
    for p in sorted((fixtures / "corpus" / "dev").glob("*.txt")) + sorted(
        (fixtures / "seeds").glob("*.txt")
    ):
        out.append(b"Content-Type: text/plain; charset=utf-8\n" + p.read_bytes())
    return out


def _fixture_headers(name: str) -> list[str]:
    """Every value of header `name` in the fixture messages, decoded."""
    pattern = re.compile(rf"^{name}:[ \t]*(.*(?:\n[ \t].*)*)", re.M | re.I)
    values = []
    for data in _every_fixture_message():
        head = data.split(b"\n\n", 1)[0].decode("latin-1")
        values += [decode_header_value(m.group(1)) for m in pattern.finditer(head)]
    return values


def _readable(path: Path):
    try:
        yield from read_mbox(path)
    except ArchiveReadError:
        return


def test_plain_reader_reads_what_it_accepts_exactly_as_email_does():
    """`_parse_plain` skips `email` for simple text/plain mail: whatever it accepts
    must come out field for field as the standard library's reading."""
    accepted = 0
    for data in _every_fixture_message():
        fast = _parse_plain(data, "From x  Thu Jan  1 00:00:00 1970")
        if fast is None:
            continue
        accepted += 1
        std = _parse_stdlib(data, "From x  Thu Jan  1 00:00:00 1970")
        assert (fast.parser, std.parser) == ("plain", "stdlib")
        fast.parser = std.parser
        assert fast == std
    assert accepted >= 150  # most list mail is simple text/plain


@pytest.mark.parametrize(
    "head",
    [
        "Content-Type: multipart/alternative; boundary=x",
        "Content-Type: text/html",
        "Content-Type: text/plain; name=x.txt",
        "Content-Type: text/plain; charset*=utf-8''x",
        "Content-Disposition: attachment",
        "Content-Transfer-Encoding: base64",
        "X-Broken header without colon",
        "X-Lone: carriage\rreturn",
    ],
)
def test_plain_reader_leaves_anything_else_to_email(head):
    data = f"Subject: s\nFrom: a@b.org\n{head}\n\nbody\n".encode()
    assert _parse_plain(data, "") is None
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
    values += _fixture_headers("From")
    for data in _every_fixture_message():
        pm = _parse_stdlib(data, "") if data.strip() else None
        if pm and pm.from_address:
            values.append(f"{pm.from_name or ''} <{pm.from_address}>")
    for value in values:
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


def test_nolist_fail_case_is_an_error():
    with pytest.raises(ParseError, match="no headers"):
        parsed(MBOX / "ponymail-classic" / "fail" / "NoList.mbox")


def test_headers_decoded_and_ids_without_brackets():
    pm = parsed(MBOX / "peers" / "mlstats-gnome-quoted-printable.mbox")
    assert pm.from_name == "Danilo Šegan" and pm.from_address == "danilo@gnome.org"
    pm = parsed(MBOX / "ponymail-foal" / "users_ponymail_apache_org_2022-01.mbox", 1)
    assert pm.subject == "Re: External search form"
    assert pm.in_reply_to and "<" not in pm.in_reply_to
    assert pm.refs and all("<" not in r for r in pm.refs)
    assert pm.message_id and not pm.message_id.startswith("<")


def test_dates_header_then_envelope_then_none():
    pm = parsed(MBOX / "ponymail-foal" / "users_ponymail_apache_org_2019-09.mbox")
    assert (pm.date_source, pm.sent_at) == ("header", datetime(2019, 9, 20, 12, 27, 54, tzinfo=UTC))
    # Perceval's "no fields" archive: messages whose Date is missing use the envelope.
    sources = {
        parse_message(r.data, r.envelope_line).date_source
        for r in read_mbox(MBOX / "peers" / "perceval-mbox_no_fields.mbox")
    }
    assert {"header", "envelope"} <= sources
    pm = parsed(MBOX / "ponymail-classic" / "pass" / "nodate.mbox")
    assert (pm.sent_at, pm.date_source) == (None, None)


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
    values = _fixture_headers("Date")
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
    lines = [r.envelope_line for path in sorted(MBOX.rglob("*.mbox")) for r in _readable(path)]
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
    bad = parsed(MBOX / "ponymail-classic" / "pass" / "00439.982a2ff6189badfe70c2fe3c972466a2.mbox")
    fixed = parsed(
        MBOX
        / "ponymail-classic"
        / "pass"
        / "00439.982a2ff6189badfe70c2fe3c972466a2_fixcharset.mbox"
    )
    assert bad.text == fixed.text and "\ufffd" not in bad.text


def test_unknown_charset_falls_back():
    raw = make_message("", content_type="text/plain; charset=x-no-such-charset")
    raw += "Caf\u00e9 12 ms".encode("cp1252")
    pm = parse_message(raw)
    assert pm.text == "Caf\u00e9 12 ms"


def test_attachments_listed_with_decoded_names():
    pm = parsed(MBOX / "ponymail-classic" / "pass" / "attachments.mbox")
    assert pm.attachments == ["test\u00e1\u00e8.tmp (text/plain)"]
    assert pm.content_type == "text/plain"


def test_html_only_body_becomes_text():
    pm = parsed(MBOX / "ponymail-classic" / "valid" / "nexus.mbox")
    assert pm.content_type == "text/html"
    assert "<" not in pm.text
    assert "Details:\n\nThe orgapachecommons-1174 staging repository has been dropped." in pm.text


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
    raw = (
        b"From: a@b.org\nSubject: nested\nMessage-ID: <n@b>\nMIME-Version: 1.0\n"
        b'Content-Type: multipart/mixed; boundary="outer"\n\n'
        b'--outer\nContent-Type: multipart/alternative; boundary="inner"\n\n'
        b"--inner\nContent-Type: text/html\n\n<p>html version</p>\n"
        b"--inner\nContent-Type: text/plain\n\nplain version\n--inner--\n"
        b'--outer\nContent-Type: image/png\nContent-Disposition: attachment; filename="chart.png"\n'
        b"Content-Transfer-Encoding: base64\n\niVBORw0KGgo=\n--outer--\n"
    )
    pm = parse_message(raw)
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
