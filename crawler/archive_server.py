"""A local stand-in for lists.apache.org (PonyMail Foal) serving a directory of messages.

Serves `<root>/<domain>/<list>/*.eml` (one raw message per file) and `*.mbox` files
(split into messages) over real HTTP: `/api/preferences`, `/api/stats` and `/api/mbox`
(with `.lua`, `.json` or no suffix) answer with the shapes of design/archive-api.md, plus
`/robots.txt`. Fault switches make it misbehave on purpose (503s, 429 + Retry-After, cut
bodies, slow answers, months refused whole, hostile list names) or attack outright
(off-host redirects, a failing robots.txt, gzip bombs, drip-fed bodies, a wrong clock,
months in the future) so the crawler's retries, fallbacks and defences can be tested for
real. It listens on loopback only, and every fault is bounded in time and size.

CLI: `python -m crawler.archive_server --root DIR [--host 127.0.0.1] [--port 0] [...]`
prints `serving <URL> from <DIR>` and serves until SIGTERM/SIGINT.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import hashlib
import ipaddress
import json
import os
import re
import signal
import socket
import sys
import threading
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.parser import BytesHeaderParser
from email.policy import compat32
from email.utils import parseaddr
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from crawler.archive import (
    mboxrd_escape,
    mboxrd_unescape,
    message_date,
    month_bounds,
    month_of,
    split_mbox,
)

FOAL_VERSION = "0.1.0"
HOSTILE_LIST_NAMES = ("../evil", "a/b", "/etc/passwd", "..", "ok\x00name", "issues\n")
HOSTILE_DOMAINS = ("../../tmp", "/abs.example.org", "apache.org\n")
FUTURE_MONTHS = ("9999-12",)  # with future_months, also the month after the server's now
_MID_ALPHABET = "0123456789bcdfghjklmnopqrstvwxyz"
_DATE_SPECS = {"d": 1, "w": 7, "M": 30, "y": 365}


@dataclass
class Faults:
    """Ways to misbehave. Counts apply per distinct mbox URL, so retries can succeed."""

    fail_503: int = 0  # the first N answers are 503
    fail_429: int = 0  # then N answers are 429 with Retry-After
    retry_after: int = 1
    truncate: int = 0  # then N bodies are cut short (Content-Length larger than sent)
    slow: float = 0.0  # seconds to wait before each mbox answer
    refuse_months_over: int = 0  # whole-month answers larger than this many bytes → 503
    refuse_by_timeout: float = 0.0  # refuse them instead by stalling this long, then hanging up
    hostile_lists: bool = False  # add list/domain names that are unsafe as paths
    redirect_to: str = ""  # mbox `.lua` requests: 302 to <redirect_to>/api/mbox?<query>
    robots_status: int = 0  # robots.txt answers with this status (e.g. 503, 404) ...
    robots_fail: int = 0  # ... the first N times only (0: every time)
    gzip: bool = False  # mbox answers Content-Encoding: gzip (when the client accepts it)
    gzip_bomb: int = 0  # stats answers: this many zero bytes, gzip-encoded (~1000:1)
    drip: float = 0.0  # whole-month mbox answers: one byte every this many seconds ...
    drip_max: float = 30.0  # ... for at most this long, then hang up
    clock: float | None = None  # the `unixtime` stats reports (a wrong server clock)
    future_months: bool = False  # stats lists months that have not begun as active


@dataclass(order=True)
class StoredMessage:
    epoch: float
    order: str  # tie-breaker: the file it came from and its position there
    source: bytes = field(compare=False)


@dataclass
class ArchivedList:
    domain: str
    name: str
    messages: list[StoredMessage]


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


_BOMBS: dict[int, bytes] = {}


def gzip_bomb(size: int) -> bytes:
    """`size` zero bytes, gzip-compressed (about 1000:1), built once per size."""
    if size not in _BOMBS:
        packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: gzip framing
        block = bytes(1024**2)
        parts = [packer.compress(block) for _ in range(size // len(block))]
        parts.append(packer.compress(bytes(size % len(block))))
        _BOMBS[size] = b"".join(parts) + packer.flush()
    return _BOMBS[size]


def _ctime(moment: datetime) -> str:
    return time.asctime(moment.astimezone(UTC).timetuple())


def _envelope_line(list_name: str, domain: str, number: int, moment: datetime) -> bytes:
    """The Postfix envelope line lists.apache.org's stored sources begin with."""
    return (
        f"From {list_name}-return-{number}-archive-asf-public=cust-asf.ponee.io@{domain}"
        f"  {_ctime(moment)}\n"
    ).encode()


def _mid(source: bytes, list_raw: str) -> str:
    digest = hashlib.sha256(list_raw.encode() + b"\0" + source).digest()
    return "".join(_MID_ALPHABET[b % 32] for b in digest[:32])


class ArchiveDirectory:
    """Reads the root directory, re-reading files only when they change."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self._cache: dict[Path, tuple[tuple[float, int], list[tuple[bytes, datetime]]]] = {}
        self._lock = threading.Lock()

    def _read_file(self, path: Path) -> list[tuple[bytes, datetime]]:
        stat = path.stat()
        stamp = (stat.st_mtime, stat.st_size)
        cached = self._cache.get(path)
        if cached and cached[0] == stamp:
            return cached[1]
        data = path.read_bytes()
        fallback = datetime.fromtimestamp(stat.st_mtime, UTC)
        if path.suffix == ".mbox":
            sources = [mboxrd_unescape(part) for part in split_mbox(data)]
        else:
            sources = [data]
        messages = [(src, message_date(src) or fallback) for src in sources if src.strip()]
        self._cache[path] = (stamp, messages)
        return messages

    def lists(self) -> dict[tuple[str, str], ArchivedList]:
        found: dict[tuple[str, str], ArchivedList] = {}
        with self._lock:
            for domain_dir in sorted(p for p in self.root.iterdir() if p.is_dir()):
                for list_dir in sorted(p for p in domain_dir.iterdir() if p.is_dir()):
                    messages = []
                    for path in sorted(list_dir.iterdir()):
                        if path.suffix not in (".eml", ".mbox") or not path.is_file():
                            continue
                        for index, (source, moment) in enumerate(self._read_file(path)):
                            order = f"{path.name}\0{index:08d}"
                            messages.append(StoredMessage(moment.timestamp(), order, source))
                    messages.sort()
                    found[(domain_dir.name, list_dir.name)] = ArchivedList(
                        domain_dir.name, list_dir.name, messages
                    )
        return found


def stored_source(archived: ArchivedList, index: int) -> bytes:
    """The message as the archive stores it: with an envelope line, like Postfix writes."""
    message = archived.messages[index]
    if message.source.startswith(b"From "):
        return message.source
    moment = datetime.fromtimestamp(message.epoch, UTC)
    return _envelope_line(archived.name, archived.domain, index + 1, moment) + message.source


def convert_source(source: bytes) -> bytes:
    """Foal's mbox writer: decode as UTF-8 (replace), mboxrd-escape, end with a blank line."""
    text = source.decode("utf-8", "replace").encode("utf-8")
    text = mboxrd_escape(text)
    if not text.endswith(b"\n\n"):
        text += b"\n"
    return text


class DateRangeError(ValueError):
    pass


def date_range(params: dict[str, str], now: datetime) -> tuple[datetime, datetime, bool, bool]:
    """(low, high, low_inclusive, high_inclusive) per Foal's defuzzer."""
    d = params.get("d", "")
    if "date" in params and "e" not in params:
        params = {**params, "s": params["date"], "e": params["date"]}
    if "s" in params and "e" in params:
        try:
            low, _ = month_bounds(_pad_month(params["s"]))
            _, high_end = month_bounds(_pad_month(params["e"]))
        except ValueError as exc:
            raise DateRangeError("Keyword 's' must be of type YYYY-MM") from exc
        return low, high_end - timedelta(seconds=1), False, False
    if re.fullmatch(r"\d{4}-\d{1,2}", d):
        try:
            low, end = month_bounds(_pad_month(d))
        except ValueError:
            low = None
        if low is not None:
            return low, end - timedelta(microseconds=1), True, True
    match = re.fullmatch(r"(lte|gte)=(\d+)([dwMy])", d)
    if match:
        ago = now - timedelta(days=int(match[2]) * _DATE_SPECS[match[3]])
        if match[1] == "lte":
            return ago, now + timedelta(days=1), False, False
        return datetime(1970, 1, 1, tzinfo=UTC), ago, False, False
    match = re.fullmatch(r"dfr=(\d{4}-\d{2}-\d{2})\|dto=(\d{4}-\d{2}-\d{2})", d)
    if match:
        try:
            low = datetime.fromisoformat(match[1]).replace(tzinfo=UTC)
            high = datetime.fromisoformat(match[2]).replace(tzinfo=UTC)
        except ValueError:
            low = None
        if low is not None:
            return low, high + timedelta(hours=23, minutes=59, seconds=59), False, False
    # Missing or unrecognised: silently the last 30 days.
    return now - timedelta(days=30), now + timedelta(days=1), False, False


def _pad_month(value: str) -> str:
    year, _, month = value.partition("-")
    return f"{year}-{int(month):02d}" if month.isdigit() else value


def _in_range(epoch: float, bounds: tuple[datetime, datetime, bool, bool]) -> bool:
    low, high, low_inc, high_inc = bounds
    moment = int(epoch)  # Foal stores dates to the second
    lo, hi = low.timestamp(), high.timestamp()
    return (moment >= lo if low_inc else moment > lo) and (
        moment <= hi if high_inc else moment < hi
    )


def _mask(address: str) -> str:
    # (from a word's start only: tried at every character, `\S*@` was quadratic)
    return re.sub(r"(?<!\S)(\S{1,2})\S*@([-a-zA-Z0-9_.]+)", r"\1...@\2", address)


def _headers(source: bytes) -> dict[str, str]:
    parsed = BytesHeaderParser(policy=compat32).parsebytes(source)
    return {k.lower(): str(v) for k, v in parsed.items()}


class ArchiveServer:
    """The archive on a background thread; use as a context manager, read `.url`."""

    def __init__(
        self,
        root: str | os.PathLike,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        now: datetime | str | None = None,
        faults: Faults | dict | None = None,
        crawl_delay: float = 1,
        disallow: str = "/api/private",
    ):
        self.archive = ArchiveDirectory(Path(root))
        self.root = Path(root)
        if isinstance(now, str):
            now = datetime.fromisoformat(now)
        if now is not None and now.tzinfo is None:
            now = now.replace(tzinfo=UTC)
        self.fixed_now = now
        self.faults = Faults(**faults) if isinstance(faults, dict) else (faults or Faults())
        if self.faults != Faults() and not _is_loopback(host):
            raise ValueError(f"fault switches are for loopback hosts only, not {host!r}")
        self.crawl_delay = crawl_delay
        self.disallow = disallow
        self.requests: list[tuple[str, int]] = []  # (path with query, status)
        self.request_times: list[float] = []  # time.monotonic() of each entry in requests
        self._fault_counts: Counter[tuple[str, str]] = Counter()
        self._lock = threading.Lock()
        self.connections: set[socket.socket] = set()  # open client connections
        self._httpd = ThreadingHTTPServer((host, port), _make_handler(self))
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def now(self) -> datetime:
        return self.fixed_now or datetime.now(UTC)

    def start(self) -> ArchiveServer:
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop listening and hang up on every client: a crawl then meets an archive that
        is gone (connection refused), not kept-alive connections that still answer."""
        self._httpd.shutdown()
        self._httpd.server_close()
        for connection in list(self.connections):
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)

    def serve_forever(self) -> None:
        self._httpd.serve_forever()

    def __enter__(self) -> ArchiveServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def requested(self, endpoint: str) -> list[str]:
        """Logged request paths for one endpoint (e.g. "mbox"), in order."""
        with self._lock:
            return [p for p, _ in self.requests if p.startswith(f"/api/{endpoint}")]

    def reset_log(self) -> None:
        with self._lock:
            self.requests.clear()
            self.request_times.clear()

    def record(self, path: str, status: int) -> None:
        with self._lock:
            self.requests.append((path, status))
            self.request_times.append(time.monotonic())

    def take_fault(self, kind: str, key: str, limit: int) -> bool:
        """True while this URL still has faults of this kind left to suffer."""
        with self._lock:
            if self._fault_counts[(kind, key)] >= limit:
                return False
            self._fault_counts[(kind, key)] += 1
            return True

    # --- endpoint bodies -------------------------------------------------------------
    def robots_txt(self) -> str:
        disallowed = dict.fromkeys([self.disallow, "/api/private"])
        return (
            "User-agent: *\n"
            + f"Crawl-delay: {self.crawl_delay:g}\n"
            + "".join(f"Disallow: {path}\n" for path in disallowed)
        )

    def preferences(self) -> dict:
        now = self.now().timestamp()
        lists: dict[str, dict[str, int]] = {}
        for (domain, name), archived in self.archive.lists().items():
            recent = sum(1 for m in archived.messages if now - 90 * 86400 < m.epoch <= now)
            lists.setdefault(domain, {})[name] = recent
        if self.faults.hostile_lists:
            first = next(iter(lists), "example.apache.org")
            for name in HOSTILE_LIST_NAMES:
                lists.setdefault(first, {})[name] = 1
            for domain in HOSTILE_DOMAINS:
                lists[domain] = {"dev": 1}
        return {"login": {}, "versions": {"foal": FOAL_VERSION}, "lists": lists}

    def find_list(self, params: dict[str, str]) -> ArchivedList | None:
        name, domain = params.get("list", ""), params.get("domain", "")
        if "@" in name:
            name, _, domain = name.partition("@")
        return self.archive.lists().get((domain, name))

    def stats(self, params: dict[str, str]) -> dict:
        if not params.get("list") or not params.get("domain"):
            return {}
        archived = self.find_list(params) or ArchivedList(params["domain"], params["list"], [])
        bounds = date_range(params, self.now())
        selected = [i for i, m in enumerate(archived.messages) if _in_range(m.epoch, bounds)]
        months = Counter(month_of(datetime.fromtimestamp(m.epoch, UTC)) for m in archived.messages)
        epochs = [m.epoch for m in archived.messages]
        first = datetime.fromtimestamp(min(epochs), UTC) if epochs else datetime(1970, 1, 1)
        last = datetime.fromtimestamp(max(epochs), UTC) if epochs else datetime(1970, 1, 1)
        list_raw = f"<{archived.name}.{archived.domain}>"
        if "since" in params:
            try:
                since = float(params["since"])
            except ValueError:
                since = 0.0
            if not any(archived.messages[i].epoch > since for i in selected):
                return {"changed": False}
        quick, emails_only = "quick" in params, "emailsOnly" in params
        emails = []
        for i in selected:
            if quick:
                emails.append({"epoch": int(archived.messages[i].epoch)})
                continue
            source = archived.messages[i].source
            head = _headers(source)
            body_text = source.split(b"\n\n", 1)[-1].decode("utf-8", "replace")
            mid = _mid(source, list_raw)
            from_name, from_addr = parseaddr(head.get("from", ""))
            emails.append(
                {
                    "attachments": [],
                    "body": body_text[:200] + ("..." if len(body_text) > 200 else ""),
                    "epoch": int(archived.messages[i].epoch),
                    "from": f'"{from_name}" <{_mask(from_addr)}>'
                    if from_name
                    else _mask(from_addr),
                    "gravatar": hashlib.md5(from_addr.lower().encode()).hexdigest(),
                    "id": mid,
                    "in-reply-to": head.get("in-reply-to", ""),
                    "list": list_raw,
                    "list_raw": list_raw,
                    "message-id": head.get("message-id", ""),
                    "mid": mid,
                    "private": False,
                    "subject": head.get("subject", ""),
                }
            )
        authors = Counter(e["from"] for e in emails if "from" in e)
        full = not (quick or emails_only)
        output = {
            "firstYear": first.year,
            "lastYear": last.year,
            "firstMonth": first.month,
            "lastMonth": last.month,
            "active_months": dict(sorted(months.items())),
            "hits": len(emails),
            "numparts": len(authors) if full else 0,
            "no_threads": sum(1 for e in emails if not e.get("in-reply-to")) if full else 0,
            "emails": emails,
            "participants": (
                [
                    {"email": a, "name": a, "count": n, "gravatar": ""}
                    for a, n in authors.most_common(10)
                ]
                if full and authors
                else {}
            ),
            "searchlist": list_raw,
            "domain": archived.domain,
            "name": archived.name,
            "list": f"{archived.name}@{archived.domain}",
            "searchParams": params,
            "unixtime": int(self.now().timestamp())
            if self.faults.clock is None
            else self.faults.clock,
        }
        if self.faults.future_months:
            upcoming = month_of(self.now().replace(day=1) + timedelta(days=32))
            for key in (upcoming, *FUTURE_MONTHS):
                output["active_months"][key] = 3
        if full:
            output["thread_struct"] = [
                {
                    "children": [],
                    "tid": e["mid"],
                    "subject": e["subject"],
                    "tsubject": f"{e['subject']}_{list_raw}",
                    "epoch": e["epoch"],
                    "nest": 1,
                }
                for e in emails
                if not e["in-reply-to"]
            ]
        return output

    def mbox(self, params: dict[str, str]) -> tuple[bytes, str]:
        """The mbox body and its download file name."""
        archived = self.find_list(params)
        bounds = date_range(params, self.now())
        chunks = []
        if archived is not None:
            for i, message in enumerate(archived.messages):
                if _in_range(message.epoch, bounds):
                    chunks.append(convert_source(stored_source(archived, i)))
        name = params.get("list", "")
        domain = params.get("domain", "_")
        when = params.get("d") or params.get("date") or ""
        if re.fullmatch(r"\d{4}-\d{1,2}", when):
            when = _pad_month(when)
        stem = "_".join(p for p in (name, domain, when) if p is not None)
        stem = re.sub(r"[^-_a-zA-Z0-9]+", "_", stem)
        return b"".join(chunks), f"{stem}.mbox"


def _make_handler(server: ArchiveServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = f"Apache Pony Mail (Foal/{FOAL_VERSION} ~local)"

        def version_string(self) -> str:
            return self.server_version

        def log_message(self, format, *args):  # noqa: A002 - stdlib signature
            pass  # requests are kept in server.requests instead

        def handle(self):
            server.connections.add(self.connection)
            # A client that hangs up (a cancelled download, a killed crawl) is not an error,
            # nor is a connection the stopped server hung up on.
            try:
                with contextlib.suppress(BrokenPipeError, ConnectionResetError, OSError):
                    super().handle()
            finally:
                server.connections.discard(self.connection)

        def do_GET(self):  # noqa: N802 - stdlib name
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self._route()

        do_POST = do_GET  # noqa: N815 - Foal parses the query string for any method

        def _send(self, status: int, body: bytes, content_type: str, headers=()) -> None:
            server.record(self.path, status)
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            for key, value in headers:
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(body)

        def _json(self, payload: dict) -> None:
            self._send(200, json.dumps(payload, indent=2).encode(), "application/json")

        def _route(self) -> None:
            url = urlsplit(self.path)
            params = {k: v[-1] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
            if url.path == "/robots.txt":
                faults = server.faults
                if faults.robots_status and (
                    not faults.robots_fail or server.take_fault("robots", "", faults.robots_fail)
                ):
                    status = faults.robots_status
                    return self._send(status, b"<html>Oops</html>\n", "text/html")
                return self._send(200, server.robots_txt().encode(), "text/plain")
            parts = url.path.split("/")
            if len(parts) < 3 or parts[1] != "api":
                return self._send(404, b"API Endpoint not found!", "text/plain")
            handler = re.sub(r"\.(lua|json)$", "", parts[2])
            if handler == "preferences":
                return self._json(server.preferences())
            if handler == "stats":
                if server.faults.gzip_bomb:
                    body = gzip_bomb(server.faults.gzip_bomb)
                    return self._send(200, body, "application/json", [("Content-Encoding", "gzip")])
                try:
                    return self._json(server.stats(params))
                except DateRangeError as exc:
                    return self._send(400, str(exc).encode(), "text/plain")
            if handler == "mbox":
                return self._mbox(params)
            return self._send(404, b"API Endpoint not found!", "text/plain")

        def _mbox(self, params: dict[str, str]) -> None:
            faults = server.faults
            if faults.slow:
                time.sleep(faults.slow)
            if faults.redirect_to and urlsplit(self.path).path.endswith(".lua"):
                target = f"{faults.redirect_to.rstrip('/')}/api/mbox?{urlsplit(self.path).query}"
                return self._send(302, b"Moved", "text/plain", [("Location", target)])
            if faults.fail_503 and server.take_fault("503", self.path, faults.fail_503):
                return self._send(503, b"Service Unavailable", "text/plain")
            if faults.fail_429 and server.take_fault("429", self.path, faults.fail_429):
                return self._send(
                    429,
                    b"Too many requests; slow down.",
                    "text/plain",
                    [("Retry-After", str(faults.retry_after))],
                )
            if "domain" not in params and "@" not in params.get("list", ""):
                return self._send(400, b"Missing domain", "text/plain")
            try:
                body, filename = server.mbox(params)
            except DateRangeError as exc:
                return self._send(400, str(exc).encode(), "text/plain")
            whole_month = re.fullmatch(r"\d{4}-\d{1,2}", params.get("d", ""))
            if faults.drip and whole_month:
                return self._drip(body)
            if faults.refuse_months_over and whole_month and len(body) > faults.refuse_months_over:
                if faults.refuse_by_timeout:
                    server.record(self.path, 0)  # 0: no answer
                    time.sleep(faults.refuse_by_timeout)
                    self.close_connection = True
                    return
                return self._send(503, b"Month too large, try again later", "text/plain")
            if faults.truncate and server.take_fault("truncate", self.path, faults.truncate):
                server.record(self.path, 200)
                self.send_response(200)
                self.send_header("Content-Type", "application/mbox")
                self.send_header("Content-Length", str(len(body) + 1000))
                self.end_headers()
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                self.close_connection = True
                return
            server.record(self.path, 200)
            self.send_response(200)
            self.send_header("Content-Type", "application/mbox")
            self.send_header("Content-Disposition", f"attachment; filename={filename}")
            if faults.gzip and "gzip" in self.headers.get("Accept-Encoding", ""):
                body = gzip.compress(body, 6)
                self.send_header("Content-Encoding", "gzip")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for start in range(0, len(body), 65536):
                chunk = body[start : start + 65536]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            self.wfile.write(b"0\r\n\r\n")

        def _drip(self, body: bytes) -> None:
            """A 200 whose body comes one byte at a time, for at most drip_max seconds."""
            faults = server.faults
            server.record(self.path, 200)
            self.send_response(200)
            self.send_header("Content-Type", "application/mbox")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            deadline = time.monotonic() + faults.drip_max
            for index in range(len(body)):
                if time.monotonic() >= deadline:
                    break
                self.wfile.write(body[index : index + 1])
                self.wfile.flush()
                time.sleep(faults.drip)
            self.close_connection = True

    return Handler


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", required=True, help="directory of <domain>/<list>/*.eml")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--now", help="the server's current date, YYYY-MM-DD (default: today)")
    parser.add_argument("--crawl-delay", type=float, default=1, help="robots.txt Crawl-delay")
    parser.add_argument("--disallow", default="/api/private", help="robots.txt Disallow path")
    parser.add_argument("--fail-503", type=int, default=0, help="N 503s per mbox URL")
    parser.add_argument("--fail-429", type=int, default=0, help="N 429s per mbox URL")
    parser.add_argument("--retry-after", type=int, default=1, help="seconds, with --fail-429")
    parser.add_argument("--truncate", type=int, default=0, help="N cut bodies per mbox URL")
    parser.add_argument("--slow", type=float, default=0.0, help="seconds before each mbox")
    parser.add_argument(
        "--refuse-months-over", type=int, default=0, help="503 for whole months over N bytes"
    )
    parser.add_argument(
        "--refuse-by-timeout", type=float, default=0.0, help="refuse by stalling S seconds"
    )
    parser.add_argument("--hostile-lists", action="store_true", help="add unsafe list names")
    parser.add_argument("--redirect-to", default="", help="302 mbox .lua requests to URL")
    parser.add_argument("--robots-status", type=int, default=0, help="robots.txt status")
    parser.add_argument("--robots-fail", type=int, default=0, help="N robots.txt failures")
    parser.add_argument("--gzip", action="store_true", help="gzip-encode mbox answers")
    parser.add_argument("--gzip-bomb", type=int, default=0, help="stats: N zero bytes, gzipped")
    parser.add_argument("--drip", type=float, default=0.0, help="month bodies: 1 byte per S s")
    parser.add_argument("--clock", type=float, help="the unixtime stats reports")
    parser.add_argument("--future-months", action="store_true", help="list unbegun months")
    parser.add_argument("--log", help="append one line per request (status path) to FILE")
    args = parser.parse_args(argv)
    root = Path(args.root)
    if not root.is_dir():
        parser.error(f"--root {root} is not a directory")
    faults = Faults(
        fail_503=args.fail_503,
        fail_429=args.fail_429,
        retry_after=args.retry_after,
        truncate=args.truncate,
        slow=args.slow,
        refuse_months_over=args.refuse_months_over,
        refuse_by_timeout=args.refuse_by_timeout,
        hostile_lists=args.hostile_lists,
        redirect_to=args.redirect_to,
        robots_status=args.robots_status,
        robots_fail=args.robots_fail,
        gzip=args.gzip,
        gzip_bomb=args.gzip_bomb,
        drip=args.drip,
        clock=args.clock,
        future_months=args.future_months,
    )
    now = datetime.fromisoformat(args.now).replace(tzinfo=UTC) if args.now else None
    server = ArchiveServer(
        root,
        host=args.host,
        port=args.port,
        now=now,
        faults=faults,
        crawl_delay=args.crawl_delay,
        disallow=args.disallow,
    )
    if args.log:
        log_file = open(args.log, "a", buffering=1)  # noqa: SIM115 - lives as long as the server
        record = server.record

        def record_and_log(path: str, status: int) -> None:
            record(path, status)
            log_file.write(f"{status} {path}\n")

        server.record = record_and_log

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    print(f"serving {server.url} from {root}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server._httpd.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
