"""Writing mail archives for a test, in one place: the forms the crawler stores and the
extraction reads (`DATA_DIR/raw/<domain>/<list>/<YYYY-MM>.mbox.gz`, mboxrd).

- `mboxrd_escape`, `to_mbox`: messages as one mboxrd archive;
- `write_archive`: an archive where the crawler writes it;
- `write_mboxrd`: one `.eml` appended to its month's archive, as lists.apache.org
  serves it;
- `sample_as_archives`: the demo sample (data/sample) as monthly archives.

The messages themselves (edge cases, notifications) are built in tests/mail/mboxes.py.
"""

from __future__ import annotations

import gzip
import re
from email import message_from_bytes
from email.parser import BytesHeaderParser
from email.utils import parsedate_to_datetime
from pathlib import Path

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


def mboxrd_escape(raw: bytes) -> bytes:
    """What lists.apache.org does to a message body: one more `>` on `>*From ` lines."""
    out = []
    for line in raw.splitlines(keepends=True):
        if line.lstrip(b">").startswith(b"From "):
            line = b">" + line
        out.append(line)
    return b"".join(out)


def to_mbox(
    messages: list[bytes], envelope: bytes = b"From MAILER-DAEMON Thu Jan  1 00:00:00 1970"
) -> bytes:
    """Messages as one mboxrd archive, each ending with a blank line."""
    out = b""
    for raw in messages:
        body = mboxrd_escape(raw.replace(b"\r\n", b"\n"))
        if not body.endswith(b"\n"):
            body += b"\n"
        out += envelope + b"\n" + body + b"\n"
    return out


def write_archive(data_dir: Path, list_address: str, month: str, mbox: bytes) -> Path:
    """DATA_DIR/raw/<domain>/<list>/<YYYY-MM>.mbox.gz, as the crawler writes it."""
    name, domain = list_address.split("@")
    path = data_dir / "raw" / domain / name / f"{month}.mbox.gz"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(mbox, mtime=0))
    return path


def write_mboxrd(eml: Path, data_dir: Path) -> None:
    """Append one .eml (`<domain>/<list>/<name>.eml`) to its month's archive, as
    lists.apache.org serves it."""
    data = eml.read_bytes()
    sent = parsedate_to_datetime(message_from_bytes(data)["Date"])
    domain, list_name = eml.parent.parent.name, eml.parent.name
    dest = data_dir / "raw" / domain / list_name / f"{sent:%Y-%m}.mbox.gz"
    dest.parent.mkdir(parents=True, exist_ok=True)
    escaped = re.sub(rb"^(>*From )", rb">\1", data, flags=re.M)
    envelope = f"From {eml.stem}@sample {sent:%a %b %d %H:%M:%S %Y}\n".encode()
    with gzip.open(dest, "ab") as f:
        f.write(envelope + escaped.rstrip(b"\n") + b"\n\n")


def sample_as_archives(data_dir: Path) -> int:
    """data/sample's raw messages as monthly mboxrd archives, the way the archive
    serves them (one archive per list and month of the Date header)."""
    months: dict[tuple[str, str], list[bytes]] = {}
    for eml in sorted(SAMPLE.glob("*/*/*.eml")):
        raw = eml.read_bytes()
        date = parsedate_to_datetime(BytesHeaderParser().parsebytes(raw)["Date"])
        lst = f"{eml.parent.name}@{eml.parent.parent.name}"
        months.setdefault((lst, f"{date:%Y-%m}"), []).append(raw)
    for (lst, month), msgs in months.items():
        write_archive(data_dir, lst, month, to_mbox(msgs))
    return sum(len(m) for m in months.values())
