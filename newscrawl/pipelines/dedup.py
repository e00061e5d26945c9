"""Near-duplicate pipeline: sets ``duplicate_of`` to the first stored near-copy's canonical URL.

Runs after stage 2 (it needs the final text) and before the sinks. The SimHash index
(:class:`~newscrawl.storage.dedup.DuplicateIndex`) lives in the SQLite store (``NEWSCRAWL_SQLITE_PATH``; in
memory, for this crawl only, when that is off). Settings: ``NEWSCRAWL_DEDUP`` (default True),
``NEWSCRAWL_DUPLICATE_MAX_DISTANCE`` (Hamming bits; the default and where it comes from:
:mod:`newscrawl.crawl.defaults`).
Duplicates are kept, marked; stats count ``newscrawl/duplicates/found``. The SimHash an extraction
worker computed (item field ``fingerprint``: content hash and SimHash of the text) is used when the
record's text is that text, so the reactor does not fingerprint.
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.statscollectors import StatsCollector

from newscrawl.crawl.config import with_defaults
from newscrawl.storage.dedup import DuplicateIndex

logger = logging.getLogger(__name__)


class DuplicatePipeline:
    def __init__(self, index: DuplicateIndex, stats: StatsCollector | None = None) -> None:
        self.index = index
        self.stats = stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DuplicatePipeline:
        settings = with_defaults(crawler.settings)
        if not settings.getbool("NEWSCRAWL_DEDUP"):
            raise NotConfigured("NEWSCRAWL_DEDUP is off")
        path = settings.get("NEWSCRAWL_SQLITE_PATH") or ":memory:"
        distance = settings.getint("NEWSCRAWL_DUPLICATE_MAX_DISTANCE")
        try:
            index = DuplicateIndex(path, distance)
        except ValueError as e:
            raise ValueError(f"NEWSCRAWL_DUPLICATE_MAX_DISTANCE: {e}") from e
        return cls(index, crawler.stats)

    def open_spider(self) -> None:
        self.index.open()

    def close_spider(self) -> None:
        self.index.close()

    def process_item(self, item: Any) -> Any:
        text = item.get("text") if "url" in item else None
        if not text:
            return item
        key = item.get("canonical_url") or item["url"]
        fingerprint = item.pop("fingerprint", None)
        if fingerprint and fingerprint[0] == item.get("content_hash"):
            match = self.index.add_fingerprint(key, fingerprint[1])  # computed by the extraction worker
        else:
            match = self.index.add(key, text)
        item["duplicate_of"] = match.canonical_url if match else None
        if match and self.stats is not None:
            self.stats.inc_value("newscrawl/duplicates/found")
            logger.debug("%s is a near-copy (%d bits) of %s", key, match.distance, match.canonical_url)
        return item
