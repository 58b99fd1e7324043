"""Parsed messages: `parse_message(data, envelope_line)` turns one message's raw
bytes into a `ParsedMessage` (ids, date and where it came from, decoded sender and
subject, the text body, attachments) or raises `ParseError` with a reason.

Four readers, chosen for speed (measured on the real commits@ month in the
fixtures, 82 messages x5, one core): the standard library's `email` with the
compat32 policy parses about 7,000 messages/s, mail-parser about 700/s. So:

- `_parse_plain` reads the most common mail of all, a single text/plain part in
  7bit, 8bit, quoted-printable or clean base64 with well-formed headers (JIRA,
  GitBox and commit notifications), with a few regexes and C codecs: 0.06 ms a
  message against `email`'s 0.16 on the bench mix (0.24 against 0.6 for the bench's
  42 kB base64 one);
- `_parse_multipart` reads flat multipart mail (a text/plain part with an HTML
  alternative or attachments, no nested multipart or message/* part) the same way,
  splitting it on its boundary lines as email's feedparser does: 0.1 ms against
  0.26 for the bench's multipart messages with a text/plain part (an HTML-only body
  costs ~0.9 ms in `html_to_text` either way);
- both give up (return None) on anything else, and tests check that whatever they
  accept they read exactly as `email` does;
- `_parse_stdlib` (`email`) reads everything else;
- mail-parser (`_parse_mailparser`) is the second opinion for any message `email`
  fails on, so that a message is only reported as an error when both gave up.

HTML-only bodies are rendered to text with beautifulsoup4: block elements become
lines, `<pre>` blocks stay verbatim, and tables become Markdown-style pipe rows
(`| a | b |`, with a `|---|` row after the header) so the table parsers can read
them.

Hostile mail is read as far as it can be, never an exception: MIME parts nested
deeper than `MAX_MIME_DEPTH` are not split further (the raw text of the deepest part
read is a last-resort body), HTML elements nested deeper than `MAX_HTML_DEPTH` give
their text without layout, and dates outside `DATE_YEARS` are not used. Each such
step is said in `ParsedMessage.notes`.
"""

from __future__ import annotations

import binascii
import email.header
import email.parser
import email.utils
import itertools
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from email.feedparser import FeedParser
from email.message import Message
from email.policy import compat32

from bs4 import BeautifulSoup, Comment, Doctype, NavigableString, Tag

# Deeper MIME nesting or HTML nesting is read best-effort (see the module docstring):
# email's feedparser and the HTML renderer recurse once a level, and a message nested
# a thousand levels deep would otherwise end in a RecursionError.
MAX_MIME_DEPTH = 50
MAX_HTML_DEPTH = 100
# The years a date may have to be used as `sent_at` (else NULL, with a note).
DATE_YEARS = (1900, 2100)
_ANGLE_ID = re.compile(r"<([^<>\s]+)>")
_FOLD = re.compile(r"\r?\n[ \t]*")
_WS = re.compile(r"\s+")
# Headers kept for typing (kinds.py): git-multimail's X-Git-*, List-Id, JIRA's fingerprint.
KEPT_HEADERS = (
    "list-id",
    "x-git-repo",
    "x-git-refname",
    "x-git-rev",
    "x-git-newrev",
    "x-git-reftype",
    "x-jira-fingerprint",
    "x-github-url",
)


class ParseError(Exception):
    def __init__(self, reason: str, message_id: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.message_id = message_id


@dataclass(slots=True)
class ParsedMessage:
    message_id: str | None = None
    in_reply_to: str | None = None
    refs: list[str] = field(default_factory=list)
    sent_at: datetime | None = None
    date_source: str | None = None  # header, dateparser, envelope or None
    from_name: str | None = None
    from_address: str | None = None
    subject: str | None = None
    text: str = ""
    content_type: str | None = None  # the MIME type `text` was taken from
    attachments: list[str] = field(default_factory=list)  # "name (type)"
    headers: dict[str, str] = field(default_factory=dict)  # KEPT_HEADERS, lower-cased names
    parser: str = "stdlib"  # which reader read it: plain, multipart, stdlib, mail-parser
    notes: list[str] = field(default_factory=list)  # what was read best-effort, and why


# ---------------------------------------------------------------- decoding helpers


def decode_bytes(data: bytes, charset: str | None) -> str:
    """Decode with the declared charset, else the usual suspects; never fails
    (latin-1 maps every byte), so no text is lost to a wrong declaration."""
    tried = []
    if charset:
        tried.append(charset.strip().strip('"').lower())
    tried += ["utf-8", "cp1252"]
    for cs in tried:
        try:
            return data.decode(cs)
        except (LookupError, UnicodeDecodeError, ValueError):
            continue
    return data.decode("latin-1")


def _unsurrogate(value: str) -> str:
    """compat32 keeps raw 8-bit header bytes as surrogate escapes; decode them."""
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        return decode_bytes(value.encode("ascii", "surrogateescape"), None)


def decode_header_value(value: str | email.header.Header | None) -> str | None:
    """RFC 2047 encoded words decoded, folding undone, raw 8-bit bytes decoded."""
    if value is None:
        return None
    if isinstance(value, email.header.Header):
        value = str(value)
    value = _FOLD.sub(" ", _unsurrogate(value))
    if "=?" in value:
        try:
            parts = email.header.decode_header(value)
        except (email.errors.HeaderParseError, ValueError):
            parts = [(value, None)]
        out = []
        for chunk, cs in parts:
            if isinstance(chunk, bytes):
                if cs is None:
                    out.append(chunk.decode("raw-unicode-escape", "replace"))
                else:
                    out.append(decode_bytes(chunk, cs))
            else:
                out.append(chunk)
        value = "".join(out)
    return value.strip()


def _first_id(value: str | None) -> str | None:
    if not value:
        return None
    m = _ANGLE_ID.search(value)
    if m:
        return m.group(1)
    value = value.strip()
    return value.split()[0] if value else None


def _all_ids(value: str | None) -> list[str]:
    return _ANGLE_ID.findall(value) if value else []


def parse_date(
    header: str | None, envelope_line: str, notes: list[str] | None = None
) -> tuple[datetime | None, str | None]:
    """The Date header by the standard parser (or, for ISO 8601 forms such as
    `2017-04-24` that it rejects, `datetime.fromisoformat`), else by dateparser (odd
    forms, other languages), else the envelope line's ctime. Naive times are UTC.
    Dates outside `DATE_YEARS` are not used; why a date was not used is added to
    `notes` when given."""
    if header:
        dt = _rfc5322_or_iso(header)
        if dt is not None:
            return dt, "header"
        dt = _dateparser(header)
        if dt is not None:
            return dt, "dateparser"
        if notes is not None:
            notes.append(
                f"Date header {header[:80]!r} not used: unreadable or outside years "
                f"{DATE_YEARS[0]}-{DATE_YEARS[1]}"
            )
    dt = _envelope_date(envelope_line, notes)
    return (dt, "envelope") if dt is not None else (None, None)


_ENVELOPE_DATE = re.compile(
    r"([A-Z][a-z]{2}) +([A-Z][a-z]{2}) +(\d{1,2}) +(\d{1,2}):(\d{2}):(\d{2}) +(\d{4,})"
)
_DAYS = frozenset(("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"))
_MONTHS = {
    m: i
    for i, m in enumerate(
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"], 1
    )
}


def _envelope_date(envelope_line: str, notes: list[str] | None = None) -> datetime | None:
    """The ctime of an envelope line (`From x  Thu Jan  1 00:00:00 1970`) in UTC, read
    as strptime's `%a %b %d %H:%M:%S %Y` reads it (strptime costs 60 us a call); None
    (and a note) for a year outside `DATE_YEARS` (`0000`, `99999`) or no such date."""
    m = _ENVELOPE_DATE.search(envelope_line or "")
    if m is None or m.group(1) not in _DAYS or m.group(2) not in _MONTHS:
        return None
    day, hour, minute, second, year = map(int, m.group(3, 4, 5, 6, 7))
    if not DATE_YEARS[0] <= year <= DATE_YEARS[1]:
        if notes is not None:
            notes.append(
                f"envelope date not used: year {m.group(7)[:12]} outside "
                f"{DATE_YEARS[0]}-{DATE_YEARS[1]}"
            )
        return None
    try:
        return datetime(year, _MONTHS[m.group(2)], day, hour, minute, second, tzinfo=UTC)
    except ValueError:
        return None


_ISO_TZ = re.compile(r"(?<!\s)\s*+(?:Z|UTC|GMT)$", re.I)
_SLASHED_DATE = re.compile(r"(\d{4})/(\d\d)/(\d\d)\b")
# The RFC 5322 form nearly every Date header has, `Thu, 10 Mar 2017 22:49:00 +0000`
# (an optional zone comment after it), read with one regex; email.utils'
# parsedate_to_datetime (10 us a call) reads every other form.
_RFC5322_DATE = re.compile(
    r"(?:[A-Z][a-z]{2}, )?(\d{1,2}) ([A-Z][a-z]{2}) (\d{4}) (\d\d):(\d\d):(\d\d) ([+-])(\d{4})"
    r"(?: \([A-Za-z ]*\))?"
)


def _plausible(dt: datetime | None) -> datetime | None:
    if dt is None or not DATE_YEARS[0] <= dt.year <= DATE_YEARS[1]:
        return None
    return dt if dt.tzinfo else dt.replace(tzinfo=UTC)


def _rfc5322(text: str) -> datetime | None:
    """parsedate_to_datetime's reading of the common form, None for any other."""
    m = _RFC5322_DATE.fullmatch(text)
    if m is None or m.group(2) not in _MONTHS:
        return None
    day, year, hour, minute, second, offset = map(int, m.group(1, 3, 4, 5, 6, 8))
    seconds = (offset // 100) * 3600 + (offset % 100) * 60
    try:
        if m.group(7) == "-" and offset == 0:  # `-0000`: local time unknown, naive
            return datetime(year, _MONTHS[m.group(2)], day, hour, minute, second)
        zone = timezone(timedelta(seconds=-seconds if m.group(7) == "-" else seconds))
        return datetime(year, _MONTHS[m.group(2)], day, hour, minute, second, tzinfo=zone)
    except ValueError:
        return None


def _rfc5322_or_iso(text: str) -> datetime | None:
    dt = _rfc5322(text)
    if dt is not None:
        return _plausible(dt)
    try:
        dt = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        dt = None
    if dt is None:
        try:
            # (`2008/04/14 20:03:04 UTC` too: dateparser would take 2 ms for it)
            dt = datetime.fromisoformat(
                _SLASHED_DATE.sub(r"\1-\2-\3", _ISO_TZ.sub("", text.strip()))
            )
        except ValueError:
            return None
    return _plausible(dt)


# Languages dateparser tries: detecting among all of its ~200 locales costs ~70 ms a
# date; this short list costs a few ms and covers the list traffic we see.
_DATE_LANGUAGES = ["en", "de", "fr", "es", "it", "pt", "nl"]


def _without_comments(text: str) -> str:
    r"""`re.sub(r"\([^)]*\)", " ", text)` in linear time (the regex scans to the end of
    the text from every `(` that no `)` follows)."""
    out, at = [], 0
    while (left := text.find("(", at)) >= 0 and (right := text.find(")", left)) >= 0:
        out += (text[at:left], " ")
        at = right + 1
    out.append(text[at:])
    return "".join(out)


def _dateparser(text: str) -> datetime | None:
    cleaned = _without_comments(text).strip()[:200]
    if not any(c.isdigit() for c in cleaned):
        return None  # no digit, no date: `Date: unknown` costs dateparser ~2 ms to say so
    import dateparser  # slow to import and to warm up (0.2 s); only odd dates need it

    try:
        dt = dateparser.parse(
            cleaned,
            languages=_DATE_LANGUAGES,
            settings={"RETURN_AS_TIMEZONE_AWARE": True, "TO_TIMEZONE": "UTC"},
        )
    except Exception:  # dateparser raises many kinds on junk; junk is just "no date"
        return None
    return _plausible(dt)


# ---------------------------------------------------------------- HTML to text

_BLOCK = frozenset((
    "p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "section",
    "article", "header", "footer", "tr", "dl", "dt", "dd", "hr", "address", "figure", "center",
))  # fmt: skip
_SKIP = frozenset(["script", "style", "head", "title", "meta"])


def html_to_text(html: str) -> str:
    """Readable text of an HTML body, tables as pipe rows, `<pre>` verbatim."""
    return _html_text(html)[0]


def _html_text(html: str) -> tuple[str, str | None]:
    """(html_to_text's text, a note when elements nested deeper than MAX_HTML_DEPTH
    were read without layout, else None)."""
    soup = BeautifulSoup(html, "lxml")
    out: list[str] = []
    pres: list[str] = []
    deep: list[bool] = []
    _render(soup, out, pres, 0, deep)
    text = re.sub(r"(?<![ \t])[ \t]*+\n[ \t]*+", "\n", "".join(out))
    text = re.sub(r"\n{3,}", "\n\n", text).strip()
    # <pre> blocks were kept aside so that their indentation survives the cleanup above.
    text = _PRE_MARK.sub(lambda m: pres[int(m.group(1))], text)
    note = None
    if deep:
        note = f"HTML nested deeper than {MAX_HTML_DEPTH} elements: the text below read flat"
    return text, note


_PRE_MARK = re.compile("\x00(\\d+)\x00")


def _render(node: Tag, out: list[str], pres: list[str], depth: int, deep: list[bool]) -> None:
    """Renders the children of `node`, which sits `depth` elements deep. Below
    MAX_HTML_DEPTH an element gives its text in one run (bs4's get_text walks without
    recursion), and `deep` says so."""
    for child in node.children:
        if isinstance(child, (Comment, Doctype)):
            continue
        if isinstance(child, NavigableString):
            out.append(_WS.sub(" ", str(child).replace("\x00", "")))
            continue
        if not isinstance(child, Tag):
            continue
        name = child.name
        if name in _SKIP:
            continue
        if depth >= MAX_HTML_DEPTH:
            if not deep:
                deep.append(True)
            out.append(" " + _WS.sub(" ", child.get_text(" ").replace("\x00", "")) + " ")
        elif name == "br":
            out.append("\n")
        elif name == "pre":
            pres.append(child.get_text().strip("\n"))
            out.append(f"\n\x00{len(pres) - 1}\x00\n")
        elif name == "table":
            out.append("\n" + _table_rows(child, depth + 1, deep) + "\n")
        elif name in _BLOCK:
            out.append("\n")
            _render(child, out, pres, depth + 1, deep)
            out.append("\n")
        else:
            _render(child, out, pres, depth + 1, deep)


def _cell_text(cell: Tag, depth: int, deep: list[bool]) -> str:
    parts: list[str] = []
    pres: list[str] = []
    _render(cell, parts, pres, depth, deep)
    text = _PRE_MARK.sub(lambda m: pres[int(m.group(1))], "".join(parts))
    return _WS.sub(" ", text).strip().replace("|", "\\|")


def _table_rows(table: Tag, depth: int, deep: list[bool]) -> str:
    lines = []
    for i, tr in enumerate(table.find_all("tr")):
        if tr.find_parent("table") is not table:
            continue  # rows of nested tables are rendered inside their cell
        cells = [_cell_text(c, depth + 2, deep) for c in tr.find_all(["td", "th"], recursive=False)]
        if not cells:
            continue
        lines.append("| " + " | ".join(cells) + " |")
        if i == 0 or len(lines) == 1:
            lines.append("|" + "---|" * len(cells))
    return "\n".join(lines)


# ---------------------------------------------------------------- the readers


def parse_message(data: bytes, envelope_line: str = "") -> ParsedMessage:
    """One message's raw bytes to a ParsedMessage; ParseError when unreadable."""
    if not data.strip():
        raise ParseError("empty message: no headers, no body")
    try:
        return (
            _parse_plain(data, envelope_line)
            or _parse_multipart(data, envelope_line)
            or _parse_stdlib(data, envelope_line)
        )
    except ParseError:
        raise
    except Exception as exc:  # any failure of the fast path: ask mail-parser
        first = f"{type(exc).__name__}: {exc}"
    try:
        return _parse_mailparser(data, envelope_line)
    except Exception as exc:
        raise ParseError(
            f"stdlib: {first}; mail-parser: {type(exc).__name__}: {exc}"[:500]
        ) from exc


# The most of a header block `parse_headers` reads (a real one is a few kB).
_MAX_HEAD_BYTES = 1 << 20


def parse_headers(data: bytes, envelope_line: str = "") -> ParsedMessage:
    """The message's header fields only (Message-ID, sender, subject, date...), with
    an empty text: what can be stored of a message whose body could not be read in
    time. Reads at most the first megabyte, to the first blank line, as `email` does."""
    end = _HEAD_END.search(data, 0, _MAX_HEAD_BYTES)
    head = data[: end.start() + 1] if end else data[:_MAX_HEAD_BYTES]
    msg = email.parser.BytesHeaderParser(policy=compat32).parsebytes(head)
    pm = _common_fields(_headers_of(msg), envelope_line)
    pm.notes.append("headers only: the body was not read")
    return pm


def _headers_of(msg: Message) -> dict[str, str]:
    """First value of each header, raw (still encoded), lower-cased names."""
    out: dict[str, str] = {}
    for name, value in msg.raw_items():
        key = name.lower()
        if key not in out:
            out[key] = value if isinstance(value, str) else str(value)
    return out


class _CappedMessage(Message):
    """compat32's Message, but a part the parser found nested deeper than
    MAX_MIME_DEPTH (`too_deep`) is a leaf to it: its raw text is its payload."""

    too_deep = False

    def get_content_maintype(self) -> str:
        # (the feedparser asks this to decide whether to parse a part's sub-parts)
        return "application" if self.too_deep else super().get_content_maintype()


class _CappedFeedParser(FeedParser):
    """email's feedparser, which recurses once a MIME level (a RecursionError at a
    few hundred levels), with the parts below MAX_MIME_DEPTH left unsplit."""

    def _new_message(self) -> None:
        super()._new_message()
        if len(getattr(self, "_msgstack", ())) > MAX_MIME_DEPTH:
            self._cur.too_deep = True


def _parse_bytes(data: bytes) -> Message:
    """BytesParser(policy=compat32).parsebytes(data), with MIME depth capped."""
    parser = _CappedFeedParser(_CappedMessage, policy=compat32)
    parser.feed(data.decode("ascii", "surrogateescape"))
    return parser.close()


def _parse_stdlib(data: bytes, envelope_line: str) -> ParsedMessage:
    msg = _parse_bytes(data)
    headers = _headers_of(msg)
    if not headers:
        raise ParseError("no headers: the message does not start with a header block")
    pm = _common_fields(headers, envelope_line)
    pm.text, pm.content_type, pm.attachments = _body_of(msg, pm.notes)
    return pm


# A header block the fast readers read the way `email` does: every line a `Name:`
# field (the name as email's feedparser accepts it) or a folded continuation.
_HEADER_BLOCK = re.compile(r"(?:[\x21-\x39\x3b-\x7e]+:[^\n]*\n(?:[ \t][^\n]*\n)*)*")
_HEADER_FIELD = re.compile(r"^([\x21-\x39\x3b-\x7e]+):[ \t]*([^\n]*(?:\n[ \t][^\n]*)*)", re.M)
_HEAD_END = re.compile(rb"\n\r?\n")
# `text/plain` with simple parameters only (no RFC 2231 `*`, no attachment `name`).
_PLAIN_TYPE = re.compile(
    r'\s*text/plain\s*((?:;\s*[\w.-]+\s*=\s*(?:"[^"*\\]*"|[^;\s"*\\]+)\s*)*);?\s*', re.I
)
_CHARSET_PARAM = re.compile(r';\s*charset\s*=\s*"?([^";\s]*)', re.I)
# Transfer encodings as email's get_payload compares them: lower-cased but not
# stripped (`base64 ` is no base64 to it).
_ENCODINGS = ("", "7bit", "8bit", "binary", "quoted-printable", "base64")


def _read_head(data: bytes) -> tuple[dict[str, str], bytes] | None:
    """(the first raw value of each header by lower-cased name, the body) when the
    header block is well-formed, else None."""
    end = _HEAD_END.search(data)
    head_bytes, body = (data[: end.start() + 1], data[end.end() :]) if end else (data, b"")
    if not head_bytes.endswith(b"\n"):
        head_bytes += b"\n"
    head = head_bytes.decode("ascii", "surrogateescape")  # as compat32 reads headers
    if not _HEADER_BLOCK.fullmatch(head) or head.count("\r") != head.count("\r\n"):
        return None  # (a lone CR is a line break to `email`)
    # the first value of each name wins, as in _headers_of: build from the last one back
    fields = reversed(_HEADER_FIELD.findall(head))
    if "\r" in head:
        return {name.lower(): value.rstrip("\r\n") for name, value in fields}, body
    return {name.lower(): value for name, value in fields}, body


def _decoded(payload: bytes, encoding: str) -> bytes | None:
    """get_payload(decode=True) for an encoding of _ENCODINGS; None for base64 that
    email only reads leniently (stray characters, bad padding)."""
    if encoding == "quoted-printable":
        return binascii.a2b_qp(payload)  # what quopri.decodestring calls
    if encoding != "base64":
        return payload
    # email._encoded_words.decode_b's first try: lines joined, padding completed
    joined = b"".join(payload.splitlines())
    try:
        return binascii.a2b_base64(joined + b"==="[: -len(joined) % 4], strict_mode=True)
    except binascii.Error:
        return None


def _parse_plain(data: bytes, envelope_line: str) -> ParsedMessage | None:
    """A single text/plain part with well-formed headers, read without `email`;
    None for any other message (see the module docstring)."""
    if (read := _read_head(data)) is None:
        return None
    headers, body = read
    encoding = headers.get("content-transfer-encoding", "").lower()
    if "content-disposition" in headers or encoding not in _ENCODINGS:
        return None
    charset = None
    if "content-type" in headers:
        ctype = _PLAIN_TYPE.fullmatch(headers["content-type"])
        if ctype is None or "name" in ctype.group(1).lower():
            return None
        if m := _CHARSET_PARAM.search(ctype.group(1)):
            charset = m.group(1).lower()
    if (body := _decoded(body, encoding)) is None:
        return None
    pm = _common_fields(headers, envelope_line)
    pm.text = decode_bytes(body, charset).replace("\r\n", "\n")
    pm.content_type = "text/plain"
    pm.parser = "plain"
    return pm


# A Content-Type or Content-Disposition value whose parameters email's _parseparam,
# decode_params and get_param read plainly: a type, then `; name=value`, the value a
# token or a quoted string without `"` or `\`. RFC 2231 names (`name*=`), bare
# attributes and escapes do not match.
_PARAMS = re.compile(r'([^;"\\]*)((?:;\s*[\w.-]+\s*=\s*(?:"[^"\\]*"|[^;\s"\\]+)\s*)*);?\s*')
_PARAM = re.compile(r';\s*([\w.-]+)\s*=\s*("[^"\\]*"|[^;\s"\\]+)')
_DASH_LINE = re.compile(rb"\n--([^\n]*)")  # a line starting `--`, with the \n before it


def _params(value: str | None) -> tuple[str, str] | None:
    """(the value before any `;`, lower-cased; the parameters), ("", "") for an
    absent header, None when the parameters are not plain or the value is 8-bit
    (a Header object to email)."""
    if value is None:
        return "", ""
    m = _PARAMS.fullmatch(value) if value.isascii() else None
    return (m.group(1).strip().lower(), m.group(2)) if m else None


def _param(params: str, name: str) -> str | None:
    """get_param: the first parameter of that name, unquoted."""
    for key, value in _PARAM.findall(params):
        if key.lower() == name:
            return email.utils.unquote(value)
    return None


def _parse_multipart(data: bytes, envelope_line: str) -> ParsedMessage | None:
    """A multipart message of leaf parts with well-formed headers, split as email's
    feedparser splits it and read as `_body_of` reads it; None for anything else
    (nested multipart or message/* parts, digests, RFC 2231 parameters, lenient
    base64, lone CRs...)."""
    if (read := _read_head(data)) is None:
        return None
    top, body = read
    ctype = _params(top.get("content-type"))
    if ctype is None or ctype[0].count("/") != 1 or not ctype[0].startswith("multipart/"):
        return None
    if body.count(b"\r") != body.count(b"\r\n"):
        return None  # a lone CR is a line break to `email`
    if ctype[0] == "multipart/digest":
        return None  # its parts default to message/rfc822
    # get_boundary: unquoted by get_param, again by collapse_rfc2231_value, rstripped
    boundary = email.utils.unquote(_param(ctype[1], "boundary") or "").rstrip()
    if not boundary or "\n" in boundary or "\r" in boundary:
        return None
    # Boundary lines: `--boundary` or `--boundary--`, then spaces or tabs. Bounds are
    # (the \n before the line, the line's end); the closing line and the end of the
    # data close the last part, and what follows the closing line is epilogue.
    sep, text, bounds = boundary.encode(), b"\n" + body, []
    last = len(text)  # with no closing line the last part runs to the end
    for m in _DASH_LINE.finditer(text):
        rest = m.group(1).rstrip(b" \t\r")
        if rest == sep:
            bounds.append((m.start(), m.end()))
        elif rest == sep + b"--":
            last = m.start()
            break
    if not bounds:
        return None  # no part, or closed before the first: email keeps the body as text
    bounds.append((last, 0))
    candidates: dict[str, tuple] = {}
    attachments: list[str] = []
    for (_, start), (end, _) in itertools.pairwise(bounds):
        # the line break before a boundary line is the boundary's, not the part's
        part = text[start + 1 : end + 1]
        if not part:
            return None  # boundary lines in a row (email skips them) or at the very end
        if (read := _read_head(part)) is None:
            return None  # (a part without headers, starting with a blank line, too)
        headers, payload = read
        if payload.endswith(b"\n"):
            payload = payload[: -2 if payload.endswith(b"\r\n") else -1]
        ptype = _params(headers.get("content-type"))
        disposition = _params(headers.get("content-disposition"))
        if ptype is None or disposition is None:
            return None
        ctype = ptype[0] if ptype[0].count("/") == 1 else "text/plain"  # as email does
        if ctype.startswith(("multipart/", "message/")):
            return None  # parsed as nested messages by email
        # get_filename: Content-Disposition's filename, else Content-Type's name
        filename = _param(disposition[1], "filename")
        if filename is None:
            filename = _param(ptype[1], "name")
        filename = email.utils.unquote(filename).strip() if filename is not None else None
        role = _role(ctype, filename, disposition[0])
        if role == "attachment":
            attachments.append(
                f"{decode_header_value(filename) if filename else '(unnamed)'} ({ctype})"
            )
            continue
        candidates.setdefault(role, (payload, ctype, headers, ptype[1]))
    pm = _common_fields(top, envelope_line)
    pm.attachments, pm.parser = attachments, "multipart"
    if (chosen := _first_candidate(candidates)) is None:
        return pm
    payload, pm.content_type, headers, params = chosen
    encoding = headers.get("content-transfer-encoding", "").lower()
    if encoding not in _ENCODINGS or (payload := _decoded(payload, encoding)) is None:
        return None
    charset = _param(params, "charset")  # get_content_charset
    pm.text = decode_bytes(payload, charset.lower() if charset else None)
    if pm.content_type == "text/html":
        pm.text, note = _html_text(pm.text)
        pm.notes += [note] if note else []
    pm.text = pm.text.replace("\r\n", "\n")
    return pm


# `Jane Doe <jane@x.org>`, `"Doe, Jane" <jane@x.org>`, `ASF GitHub Bot (JIRA) <jira@...>`,
# a bare `jane@x.org`, `jane@x.org (Jane Doe)` and a bare user name (`alamb`): the
# forms of nearly every sender, read with one regex;
# email.utils.parseaddr (a character-by-character parser, 10 us a call) reads the rest.
_ADDR_SPEC = r"[\w%+-]+(?:\.[\w%+-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*"
_SIMPLE_ADDRESS = re.compile(
    r'(?:"(?P<quoted>[^"\\]*)"|(?P<words>[\w\'-]+(?: [\w\'-]+)*(?: \([\w\' -]+\))?)) ?'
    r"<(?P<angle>" + _ADDR_SPEC + r")>"
    r"|(?P<bare>" + _ADDR_SPEC + r')(?: \((?P<comment>[^()\\"]*)\))?'
    r"|(?P<atom>[\w%+-]+(?:\.[\w%+-]+)*)",
    re.A,
)


def split_address(value: str) -> tuple[str, str]:
    """(display name, address) as email.utils.parseaddr gives them."""
    m = _SIMPLE_ADDRESS.fullmatch(value)
    if m is None:
        return email.utils.parseaddr(value)
    if m.group("bare"):
        return m.group("comment") or "", m.group("bare")
    if m.group("atom"):
        return "", m.group("atom")
    return m.group("quoted") or m.group("words") or "", m.group("angle")


def _common_fields(headers: dict[str, str], envelope_line: str) -> ParsedMessage:
    pm = ParsedMessage()
    pm.message_id = _first_id(_unsurrogate(headers.get("message-id", "")))
    pm.in_reply_to = _first_id(_unsurrogate(headers.get("in-reply-to", "")))
    pm.refs = _all_ids(_unsurrogate(headers.get("references", "")))
    pm.subject = decode_header_value(headers.get("subject"))
    sender = decode_header_value(headers.get("from"))
    if sender:
        name, address = split_address(sender)
        pm.from_name = name.strip().strip('"') or None
        pm.from_address = address or None
        if not pm.from_name and not pm.from_address:
            pm.from_name = sender
    date_header = decode_header_value(headers.get("date"))
    pm.sent_at, pm.date_source = parse_date(date_header, envelope_line, pm.notes)
    pm.headers = {k: decode_header_value(headers[k]) or "" for k in KEPT_HEADERS if k in headers}
    return pm


def _role(ctype: str, filename: str | None, disposition: str) -> str:
    """What a leaf part is to the body (the rule of both `_body_of` and
    `_parse_multipart`): an attachment, or a plain, html or other text candidate."""
    if filename or disposition == "attachment" or not ctype.startswith("text/"):
        return "attachment"
    return {"text/plain": "plain", "text/html": "html"}.get(ctype, "other")


def _first_candidate(candidates: dict):
    """The body part: the first text/plain, else the first text/html, else other."""
    return next((candidates[r] for r in ("plain", "html", "other") if r in candidates), None)


def _body_of(msg: Message, notes: list[str]) -> tuple[str, str | None, list[str]]:
    """(text, its MIME type, attachments): the first text/plain part that is not an
    attachment, else the first text/html rendered to text, else other text/*. What
    was read best-effort is added to `notes`."""
    candidates: dict[str, Message] = {}
    attachments: list[str] = []
    for part in msg.walk():
        if part.is_multipart():
            continue
        ctype = part.get_content_type()
        if getattr(part, "too_deep", False) and ctype.startswith(("multipart/", "message/")):
            note = (
                f"MIME parts nested deeper than {MAX_MIME_DEPTH} levels: not split, "
                "their raw text read at most as a last resort"
            )
            notes += [] if note in notes else [note]
        if ctype.startswith("multipart/"):
            # A multipart whose boundary the parser could not find: its raw payload
            # is the only text there is, so keep it rather than lose it.
            candidates.setdefault("other", part)
            continue
        filename = part.get_filename()
        disposition = str(part.get("content-disposition") or "").split(";")[0].strip().lower()
        role = _role(ctype, filename, disposition)
        if role == "attachment":
            if ctype.startswith("message/"):
                continue
            name = decode_header_value(str(filename)) if filename else "(unnamed)"
            attachments.append(f"{name} ({ctype})")
            continue
        candidates.setdefault(role, part)
    # (`in`, not truth: a Message without headers is falsy, and a headerless part is
    # text/plain, not nothing)
    chosen = _first_candidate(candidates)
    if chosen is None:
        return "", None, attachments
    payload = chosen.get_payload(decode=True)
    if payload is None:  # compat32 returns None for some broken parts
        raw = chosen.get_payload()
        payload = raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else b""
    text = decode_bytes(payload, chosen.get_content_charset())
    ctype = chosen.get_content_type()
    if ctype == "text/html":
        text, note = _html_text(text)
        notes += [note] if note else []
    return text.replace("\r\n", "\n"), ctype, attachments


def _parse_mailparser(data: bytes, envelope_line: str) -> ParsedMessage:
    import mailparser  # second opinion only: ten times slower than `email` here

    mp = mailparser.parse_from_bytes(data)
    raw_headers = {k.lower(): (v if isinstance(v, str) else str(v)) for k, v in mp.headers.items()}
    if not raw_headers:
        raise ParseError("no headers: the message does not start with a header block")
    pm = _common_fields(raw_headers, envelope_line)
    pm.parser = "mail-parser"
    if mp.text_plain:
        pm.text, pm.content_type = "\n".join(mp.text_plain), "text/plain"
    elif mp.text_html:
        pm.text, note = _html_text("\n".join(mp.text_html))
        pm.content_type = "text/html"
        pm.notes += [note] if note else []
    pm.attachments = [
        f"{a.get('filename') or '(unnamed)'} ({a.get('mail_content_type')})" for a in mp.attachments
    ]
    return pm
