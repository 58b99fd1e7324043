"""`scrapy crawl` that exits with the status the spider decided (crawler.spiders.asf_lists).

Scrapy's own `crawl` exits 0 however the crawl went (1 only when the spider could not be
built), so `make crawl && make extract` could not tell a failed crawl from a good one.
This one, registered through COMMANDS_MODULE under the same name, keeps every option and
exits with the highest `exit_code` its spiders set when they closed.
"""

from __future__ import annotations

from scrapy.commands.crawl import Command as ScrapyCrawl


class Command(ScrapyCrawl):
    def __init__(self) -> None:
        super().__init__()
        self._crawlers: list = []  # CrawlerProcess forgets its crawlers once they finish

    def _create_crawler(self, spidercls):
        crawler = super()._create_crawler(spidercls)
        self._crawlers.append(crawler)
        return crawler

    def run(self, args, opts) -> None:
        super().run(args, opts)
        codes = [getattr(getattr(c, "spider", None), "exit_code", 0) for c in self._crawlers]
        self.exitcode = max([self.exitcode, *codes])
