"""The archive's rules as pure functions: months, week slices, list names, mboxrd.

Shared by the spider, its pipeline and the local archive server. Returns plain values
(strings, tuples, lists of bytes); nothing here does I/O.
"""

from __future__ import annotations

import calendar
import fnmatch
import re
from datetime import UTC, date, datetime, timedelta
from email.utils import parsedate_to_datetime
from pathlib import PurePosixPath

# Tracker, pull-request and commit traffic (contract.md).
DEFAULT_LIST_PATTERNS = (
    "issues@*",
    "*-issues@*",
    "commits@*",
    "*-commits@*",
    "gitbox@*",
    "github@*",
    "jira@*",
    "reviews@*",
    "notifications@*",
)

# All three are used with re.fullmatch: `$` alone would accept a trailing newline.
_MONTH_RE = re.compile(r"(\d{4})-(\d{2})")
# A list name never contains a dot (PonyMail splits list_raw at the first dot).
_LIST_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_+=-]{0,99}")
_DOMAIN_LABEL_RE = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
FIRST_YEAR = 1970  # no archive holds mail from before; also keeps datetime arithmetic safe
LAST_YEAR = 9999  # (month_bounds and week_slices fail on 9999-12: never a month to fetch)
# mboxrd: a line that is `From ` after any number of `>` gains or loses one `>`.
_FROM_LINE_RE = re.compile(rb"^>*From ", re.MULTILINE)
_ESCAPED_FROM_RE = re.compile(rb"^>(>*From )", re.MULTILINE)


class ArgumentError(ValueError):
    """A user-supplied crawl argument is malformed."""


def parse_month(value: str, name: str = "month") -> tuple[int, int]:
    """`YYYY-MM` → (year, month); a clear ArgumentError otherwise."""
    match = _MONTH_RE.fullmatch(value.strip()) if isinstance(value, str) else None
    if not match:
        raise ArgumentError(f"{name}={value!r} is not a month: use YYYY-MM, e.g. 2017-03")
    year, month = int(match[1]), int(match[2])
    if not 1 <= month <= 12:
        raise ArgumentError(f"{name}={value!r} is not a month: use YYYY-MM, e.g. 2017-03")
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise ArgumentError(f"{name}={value!r} is out of range ({FIRST_YEAR}..{LAST_YEAR})")
    return year, month


def month_key(year: int, month: int) -> str:
    return f"{year:04d}-{month:02d}"


def month_bounds(key: str) -> tuple[datetime, datetime]:
    """First instant of the month and first instant of the next month, in UTC."""
    year, month = parse_month(key)
    start = datetime(year, month, 1, tzinfo=UTC)
    end = datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)
    return start, end


def month_of(moment: datetime) -> str:
    return month_key(moment.astimezone(UTC).year, moment.astimezone(UTC).month)


def month_in_range(key: str, since: str | None, until: str | None) -> bool:
    """Inclusive range check; `YYYY-MM` strings compare correctly as text."""
    return (since is None or key >= since) and (until is None or key <= until)


def week_slices(key: str) -> list[tuple[str, str]]:
    """Day ranges (dfr, dto) that together cover the month, for `d=dfr=…|dto=…`.

    The server's day ranges are strict at both ends (after dfr 00:00:00, before dto
    23:59:59), so each slice starts on the day the previous one ended and the first and
    last slices reach one day outside the month: the seams overlap and lose nothing.
    """
    year, month = parse_month(key)
    last_day = calendar.monthrange(year, month)[1]
    first = date(year, month, 1)
    edges = [first - timedelta(days=1)]
    edges += [date(year, month, day) for day in (7, 14, 21) if day < last_day]
    edges.append(date(year, month, last_day) + timedelta(days=1))
    return [(a.isoformat(), b.isoformat()) for a, b in zip(edges, edges[1:], strict=False)]


def valid_list_name(name: object) -> bool:
    """1-100 characters of [A-Za-z0-9_+=-], starting alphanumeric: no dot, separator,
    NUL or newline (the whole name must match), so it is safe as a directory name."""
    return isinstance(name, str) and bool(_LIST_NAME_RE.fullmatch(name))


def valid_domain(domain: object) -> bool:
    """A DNS name of two or more labels (each 1-63 of [A-Za-z0-9-], not starting or
    ending with '-'), at most 253 characters: no empty label, so no `..` either."""
    if not isinstance(domain, str) or len(domain) > 253:
        return False
    labels = domain.split(".")
    return len(labels) >= 2 and all(_DOMAIN_LABEL_RE.fullmatch(label) for label in labels)


def archive_path(
    domain: str, list_name: str, key: str, *, keep_case: bool = False
) -> PurePosixPath:
    """`raw/<domain>/<list>/<YYYY-MM>.mbox.gz`, relative to DATA_DIR; names must be valid.

    The list's folder is its name in lower case, unless `keep_case`: for lists whose
    names differ only in case from another list's on the same domain (see
    `case_clashes`), which would otherwise share one folder.
    """
    if not (valid_domain(domain) and valid_list_name(list_name)):
        raise ValueError(f"refusing to build a path from {list_name!r}@{domain!r}")
    parse_month(key)
    folder = list_name if keep_case else list_name.lower()
    return PurePosixPath("raw", domain.lower(), folder, f"{key}.mbox.gz")


def case_clashes(addresses: list[tuple[str, str]]) -> dict[tuple[str, str], list[str]]:
    """The (name, domain) pairs whose address differs only in case from another's, each
    with the other addresses it clashes with: `issues@x.org` and `Issues@x.org` would
    share the folder `raw/x.org/issues/`. Lists that clash keep their names' case in
    their folders (`archive_path(..., keep_case=True)`)."""
    groups: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for name, domain in addresses:
        groups.setdefault((name.lower(), domain.lower()), []).append((name, domain))
    return {
        member: [f"{n}@{d}" for n, d in group if (n, d) != member]
        for group in groups.values()
        if len(group) > 1
        for member in group
    }


def list_folders(
    lists: list[tuple[str, str]], case_sensitive: bool = True
) -> tuple[dict[tuple[str, str], PurePosixPath], list[tuple[tuple[str, str], str, str]]]:
    """Each (name, domain)'s folder under DATA_DIR (`raw/<domain>/<list>`), and the lists
    that cannot have one of their own: (list, the address that has it, the folder).

    Lists whose names differ only in case keep their case in their folders, so they are
    apart; they cannot be where the filesystem ignores case (`case_sensitive` False), or
    when the domains alone differ in case. Then the list whose address is in lower case
    (or the first in order) keeps the folder and each other one is refused.
    """
    clashes = case_clashes(lists)
    folders: dict[tuple[str, str], PurePosixPath] = {}
    refused: list[tuple[tuple[str, str], str, str]] = []
    owners: dict[str, str] = {}  # folder as the filesystem compares it → address
    for name, domain in sorted(lists, key=lambda m: (m != (m[0].lower(), m[1].lower()), m)):
        keep_case = (name, domain) in clashes
        folder = archive_path(domain, name, "1970-01", keep_case=keep_case).parent
        compared = str(folder) if case_sensitive else str(folder).lower()
        if compared in owners:
            refused.append(((name, domain), owners[compared], str(folder)))
            continue
        owners[compared] = f"{name}@{domain}"
        folders[(name, domain)] = folder
    return folders, refused


def parse_patterns(value: str | None) -> list[str]:
    if value is None:
        return list(DEFAULT_LIST_PATTERNS)
    patterns = [p.strip().lower() for p in value.split(",") if p.strip()]
    if not patterns:
        raise ArgumentError("lists= is empty: give comma-separated patterns such as issues@*")
    return patterns


def match_lists(addresses: list[str], patterns: list[str]) -> tuple[list[str], list[str]]:
    """Addresses matching any pattern (sorted), and the patterns that matched nothing.

    Patterns match regardless of case, and addresses that differ only in case are all
    kept: `issues@*` matches both `issues@x.org` and `Issues@x.org`."""
    matched: set[str] = set()
    unmatched = []
    for pattern in patterns:
        hits = [a for a in addresses if fnmatch.fnmatchcase(a.lower(), pattern)]
        if not hits:
            unmatched.append(pattern)
        matched.update(hits)
    return sorted(matched), unmatched


def split_mbox(data: bytes) -> list[bytes]:
    """Split an mbox at its envelope lines; each part keeps its `From ` line."""
    starts = [m.start() for m in re.finditer(rb"^From ", data, re.MULTILINE)]
    if not starts or starts[0] != 0:
        starts = [0, *starts]
    return [data[a:b] for a, b in zip(starts, starts[1:] + [len(data)], strict=False) if data[a:b]]


def count_messages(data: bytes) -> int:
    return len(re.findall(rb"^From ", data, re.MULTILINE))


def mboxrd_escape(source: bytes) -> bytes:
    """Foal's convert_source: `>` before every `>*From ` line after the first."""
    first, sep, rest = source.partition(b"\n")
    return first + sep + _FROM_LINE_RE.sub(lambda m: b">" + m[0], rest)


def mboxrd_unescape(message: bytes) -> bytes:
    """Undo mboxrd escaping of one message (its envelope line stays as it is)."""
    first, sep, rest = message.partition(b"\n")
    return first + sep + _ESCAPED_FROM_RE.sub(rb"\1", rest)


def message_date(message: bytes) -> datetime | None:
    """UTC Date header of a raw message, or None when absent or unparseable."""
    header_end = re.search(rb"\r?\n\r?\n", message)
    head = message[: header_end.start() if header_end else len(message)]
    match = re.search(rb"^Date:[ \t]*(.*(?:\r?\n[ \t].*)*)", head, re.MULTILINE | re.IGNORECASE)
    if not match:
        return None
    text = re.sub(r"\s+", " ", match[1].decode("ascii", "replace")).strip()
    try:
        moment = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def join_slices(slices: list[bytes], key: str) -> bytes:
    """One month file from overlapping week slices: drop seam duplicates and messages
    whose Date falls outside the month (the first and last slices reach beyond it)."""
    start, end = month_bounds(key)
    seen: set[bytes] = set()
    kept = []
    for data in slices:
        for message in split_mbox(data):
            if message in seen:
                continue
            seen.add(message)
            moment = message_date(message)
            if moment is not None and not start <= moment < end:
                continue
            kept.append(message)
    return b"".join(kept)
