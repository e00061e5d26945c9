"""Scrapy's feed exporter (``-o``/``-O``/``FEEDS``), with a feed that cannot be written failing the crawl.

Scrapy logs a traceback for every item a full disk refuses and for a feed it cannot store, then ends the
crawl ``finished`` with exit code 0 and a cut file. Here the first write error is one ERROR line naming
the feed and the cause; the crawl stops with finish reason :data:`FEED_FAILED` (``scrapy crawl`` exits
with 1), later items are counted in ``newscrawl/feed/not_written``. A feed that fails when it is stored
at the end (the last buffered lines) sets the same finish reason. The records stay in the store, the
source of truth: ``newscrawl export`` writes the feed again from it.
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy import Spider
from scrapy.extensions import feedexport
from scrapy.settings import BaseSettings
from scrapy.utils.defer import deferred_from_coro

logger = logging.getLogger(__name__)

#: finish reason of a crawl stopped because a feed could not be written
FEED_FAILED = "feed_write_failed"


class FeedAddon:
    """Add-on (in ``ADDONS``): :class:`FeedExporter` instead of Scrapy's, in ``EXTENSIONS`` whatever
    that setting's priority (so a project's or another add-on's ``EXTENSIONS`` keeps both changes)."""

    def update_settings(self, settings: BaseSettings) -> None:
        settings.set_in_component_priority_dict("EXTENSIONS", feedexport.FeedExporter, None)
        settings.setdefault_in_component_priority_dict("EXTENSIONS", FeedExporter, 0)


class FeedExporter(feedexport.FeedExporter):
    """Scrapy's feed exporter; a write error stops the crawl (installed by :class:`FeedAddon`)."""

    failure: str | None = None

    def _inc(self, key: str, count: int = 1) -> None:
        if self.crawler.stats is not None:
            self.crawler.stats.inc_value(key, count)

    def item_scraped(self, item: Any, spider: Spider) -> None:
        if self.failure is not None:
            self._inc("newscrawl/feed/not_written")
            return
        try:
            super().item_scraped(item, spider)
        except OSError as e:
            self.failure = e.strerror or str(e)
            feeds = ", ".join(str(slot.uri) for slot in self.slots)
            reason = FEED_FAILED
            message = "feed %s: cannot write: %s; the crawl stops (finish reason %s)"
            logger.error(message, feeds, self.failure, reason)
            self._inc("newscrawl/feed/write_failed")
            self._inc("newscrawl/feed/not_written")
            engine = self.crawler.engine
            if engine.spider is not None:
                deferred_from_coro(engine.close_spider_async(reason=FEED_FAILED))

    async def close_spider(self, spider: Spider) -> None:
        try:
            await super().close_spider(spider)
        except OSError as e:  # the exporter's last write, before the store step
            self.failure = self.failure or e.strerror or str(e)
            logger.error("feed: cannot finish writing: %s", self.failure)
        stats = self.crawler.stats
        failed = stats is not None and any(
            key.startswith("feedexport/failed_count/") and value for key, value in stats.get_stats().items()
        )
        if (self.failure is not None or failed) and stats is not None:
            stats.set_value("finish_reason", FEED_FAILED)
