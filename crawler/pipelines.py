"""Item pipeline: puts each MonthArchive in DATA_DIR/raw/<domain>/<list>/<YYYY-MM>.mbox.gz.

The spider has already written the month's gzip to DATA_DIR/.crawl-tmp (crawler.storage);
this moves it into place with one rename, so a crawl killed at any moment leaves in raw/
either the old file or the new one, never a partial one. Beside each archive a sidecar
`<YYYY-MM>.mbox.gz.json` records the list, the URL(s), sha256 and size of the served
bytes, the message count, the fetch time, whether the month was complete and the size of
the archive file; the spider reads it to skip complete months on later runs.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from crawler.items import MonthArchive
from crawler.storage import (
    STAGING_DIR,
    publish,
    read_sidecar,
    remove_stale_partials,
    sidecar_path,
    write_atomic,
)

logger = logging.getLogger(__name__)


class ArchiveWriter:
    """Publishes month archives; counts fetched / unchanged months and bytes in the stats."""

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
        path = self.data_dir / item.path
        record = {
            "list": item.address,
            "month": item.month,
            "url": item.urls[0] if len(item.urls) == 1 else None,
            "urls": item.urls,
            "sliced": item.sliced,
            "sha256": item.sha256,
            "size": item.size,
            "messages": item.messages,
            "fetched_at": item.fetched_at,
            "complete": item.complete,
        }
        previous = read_sidecar(path)
        staged = item.staged
        item.staged = None
        # The sidecar first, then the archive: the rename is the step that makes the month
        # stored. Killed between the two, the sidecar's stored_size is not the archive's
        # and the month counts as missing (crawler.storage.read_sidecar); the other way
        # round, a whole archive without its sidecar would be fetched again.
        if previous and previous.get("sha256") == item.sha256:
            # Same bytes as stored: keep the archive, just note the newer fetch.
            if staged is not None:
                Path(staged).unlink(missing_ok=True)
            record["stored_size"] = path.stat().st_size
            self._write_sidecar(path, record)
            item.outcome = "unchanged"
            self.stats.inc_value("archive/months_unchanged")
            logger.info("%s %s unchanged (%d bytes)", item.address, item.month, item.size)
            return item
        record["stored_size"] = Path(staged).stat().st_size
        self._write_sidecar(path, record)
        publish(staged, path)
        item.outcome = "replaced" if previous else "stored"
        self.stats.inc_value("archive/months_fetched")
        self.stats.inc_value("archive/bytes", item.size)
        logger.info(
            "%s %s %s: %d messages, %d bytes%s",
            item.address,
            item.month,
            item.outcome,
            item.messages,
            item.size,
            " (joined from week slices)" if item.sliced else "",
        )
        return item

    def _write_sidecar(self, path: Path, record: dict) -> None:
        sidecar = (json.dumps(record, indent=2) + "\n").encode()
        write_atomic(sidecar_path(path), sidecar, self.staging)
