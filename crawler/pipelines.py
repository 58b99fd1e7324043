"""Item pipeline: stores each MonthArchive as DATA_DIR/raw/<domain>/<list>/<YYYY-MM>.mbox.gz.

Writes are atomic (temporary file in DATA_DIR/.crawl-tmp, fsync, os.replace), so a crawl
killed at any moment leaves in raw/ either the old file or the new one, never a partial one.
Beside each archive a sidecar `<YYYY-MM>.mbox.gz.json` records the URL(s), sha256 and
size of the served bytes, the message count, the fetch time and whether the month was
complete; the spider reads it to skip complete months on later runs.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import os
import tempfile
from pathlib import Path

from crawler.archive import archive_path, count_messages
from crawler.items import MonthArchive

logger = logging.getLogger(__name__)
TMP_PREFIX = ".partial-"
STAGING_DIR = ".crawl-tmp"  # under DATA_DIR, beside raw/


def sidecar_path(archive: Path) -> Path:
    return archive.with_name(archive.name + ".json")


def read_sidecar(archive: Path) -> dict | None:
    """The sidecar of an archive file, or None when either is missing or unreadable."""
    try:
        if not archive.is_file():
            return None
        return json.loads(sidecar_path(archive).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def write_atomic(path: Path, data: bytes, staging: Path | None = None) -> None:
    """Replace `path` with `data` all at once.

    The temporary file is written in `staging` (outside raw/, so even a kill -9 mid-write
    leaves nothing partial there) when it is on the same filesystem, else beside `path`.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp_dir = path.parent
    if staging is not None:
        staging.mkdir(parents=True, exist_ok=True)
        if staging.stat().st_dev == path.parent.stat().st_dev:
            tmp_dir = staging
    fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX + path.name + ".", dir=tmp_dir)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)  # make the rename itself durable
    finally:
        os.close(dir_fd)


def remove_stale_partials(*folders: Path) -> int:
    """Delete temp files left by a killed crawl; returns how many."""
    stale = [p for folder in folders if folder.is_dir() for p in folder.rglob(TMP_PREFIX + "*")]
    for path in stale:
        path.unlink(missing_ok=True)
    return len(stale)


class ArchiveWriter:
    """Writes month archives; counts fetched / unchanged months and bytes in the stats."""

    def __init__(self, data_dir: str, stats):
        self.data_dir = Path(data_dir)
        self.staging = self.data_dir / STAGING_DIR
        self.stats = stats

    @classmethod
    def from_crawler(cls, crawler):
        writer = cls(crawler.settings.get("DATA_DIR", "data"), crawler.stats)
        writer.crawler = crawler
        return writer

    def open_spider(self, spider=None):
        crawler = getattr(self, "crawler", None)
        if getattr(crawler and crawler.spider, "plan_only", False):
            return  # the dry run changes nothing on disk
        removed = remove_stale_partials(self.staging, self.data_dir / "raw")
        if removed:
            logger.info("removed %d partial file(s) left by an interrupted crawl", removed)

    def process_item(self, item, spider=None):
        if not isinstance(item, MonthArchive):
            return item
        path = self.data_dir / archive_path(item.domain, item.list_name, item.month)
        sha256 = hashlib.sha256(item.body).hexdigest()
        record = {
            "list": item.address,
            "month": item.month,
            "url": item.urls[0] if len(item.urls) == 1 else None,
            "urls": item.urls,
            "sliced": item.sliced,
            "sha256": sha256,
            "size": len(item.body),
            "messages": count_messages(item.body),
            "fetched_at": item.fetched_at,
            "complete": item.complete,
        }
        previous = read_sidecar(path)
        if previous and previous.get("sha256") == sha256:
            # Same bytes as stored: keep the archive, just note the newer fetch.
            self.stats.inc_value("archive/months_unchanged")
            logger.info("%s %s unchanged (%d bytes)", item.address, item.month, len(item.body))
        else:
            write_atomic(path, gzip.compress(item.body, mtime=0), self.staging)
            self.stats.inc_value("archive/months_fetched")
            self.stats.inc_value("archive/bytes", len(item.body))
            verb = "replaced" if previous else "stored"
            logger.info(
                "%s %s %s: %d messages, %d bytes%s",
                item.address,
                item.month,
                verb,
                record["messages"],
                len(item.body),
                " (joined from week slices)" if item.sliced else "",
            )
        sidecar = (json.dumps(record, indent=2) + "\n").encode()
        write_atomic(sidecar_path(path), sidecar, self.staging)
        return item
