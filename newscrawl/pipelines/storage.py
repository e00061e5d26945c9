"""Sink pipelines: batch records into a :class:`~newscrawl.storage.base.Sink` (upsert by canonical URL).

``SqlitePipeline`` is the embedded default: ``NEWSCRAWL_SQLITE_PATH`` (default
``output/newscrawl.sqlite3``; empty switches it off), ``NEWSCRAWL_SINK_BATCH_SIZE`` records per write,
``NEWSCRAWL_SEARCH_INDEX`` (default True) keeps the full-text index in the same file.
Other sinks subclass :class:`SinkPipeline` and build their sink in ``from_crawler``.

A path that cannot be written stops the crawl at start-up with a one-line
:class:`~newscrawl.crawl.config.ConfigError` naming it. A write that fails during the crawl (disk full, file
system gone read-only: ``OSError`` or an SQLite error) is logged as one error line naming the sink and
the cause, counts ``<prefix>/write_failed``, and stops the crawl with finish reason
:data:`SINK_FAILED`; later items are dropped as ``not_stored``; what was written before stays.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.statscollectors import StatsCollector
from scrapy.utils.defer import deferred_from_coro

from newscrawl.crawl import defaults
from newscrawl.crawl.config import check_output_file, with_defaults
from newscrawl.items import EXPORT_FIELDS
from newscrawl.storage.base import Sink
from newscrawl.storage.sqlite import SqliteSink

logger = logging.getLogger(__name__)

#: the finish reason of a crawl stopped because its sink could not write
SINK_FAILED = "sink_write_failed"
#: what a sink raises when the storage under it fails (rather than the records being wrong)
STORAGE_ERRORS: tuple[type[Exception], ...] = (OSError, sqlite3.DatabaseError)


class SinkPipeline:
    """Collects exported records and writes them to ``sink`` in batches of ``batch_size``."""

    stats_prefix = "newscrawl/sink"

    def __init__(
        self,
        sink: Sink,
        batch_size: int = defaults.NEWSCRAWL_SINK_BATCH_SIZE,
        stats: StatsCollector | None = None,
    ):
        if batch_size < 1:
            raise ValueError(f"batch size must be at least 1, not {batch_size!r}")
        self.sink = sink
        self.batch_size = batch_size
        self.stats = stats
        #: set by ``from_crawler``: a failed write closes its spider
        self.crawler: Crawler | None = None
        #: why the sink stopped taking records (None while it works)
        self.failure: str | None = None
        self._closing = False
        self._batch: list[dict[str, Any]] = []

    def open_spider(self) -> None:
        self.sink.open()

    def close_spider(self) -> None:
        self._closing = True
        try:
            self.flush()
        finally:
            try:
                self.sink.close()
            except STORAGE_ERRORS as e:
                logger.error("closing %s failed: %s", self.describe(), e)

    def describe(self) -> str:
        """The sink as error messages name it: its path when it has one."""
        return str(getattr(self.sink, "path", None) or type(self.sink).__name__)

    def process_item(self, item: Any) -> Any:
        if "url" in item:
            if self.failure is not None:
                self._inc("newscrawl/dropped/not_stored")
                raise DropItem(f"not stored ({self.failure}): {item['url']}")
            self._batch.append({name: item.get(name) for name in EXPORT_FIELDS})
            if len(self._batch) >= self.batch_size:
                self.flush()
        return item

    def flush(self) -> None:
        if not self._batch:
            return
        batch, self._batch = self._batch, []
        try:
            self.sink.write(batch)
        except STORAGE_ERRORS as e:
            self._failed(batch, e)
            return
        self._inc(f"{self.stats_prefix}/written", len(batch))

    def _inc(self, key: str, count: int = 1) -> None:
        if self.stats is not None:
            self.stats.inc_value(key, count)

    def _failed(self, batch: list[dict[str, Any]], error: Exception) -> None:
        self.failure = f"writing to {self.describe()} failed: {error}"
        self._inc(f"{self.stats_prefix}/write_failed", len(batch))
        logger.error(
            "%s; %d record(s) not stored, the crawl stops (records stored before are kept)",
            self.failure,
            len(batch),
        )
        engine = self.crawler.engine if self.crawler is not None else None
        if engine is not None and engine.spider is not None and not self._closing:
            deferred_from_coro(engine.close_spider_async(reason=SINK_FAILED))


class SqlitePipeline(SinkPipeline):
    stats_prefix = "newscrawl/sqlite"

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SqlitePipeline:
        settings = with_defaults(crawler.settings)
        path = settings.get("NEWSCRAWL_SQLITE_PATH")
        if not path:
            raise NotConfigured("NEWSCRAWL_SQLITE_PATH is empty")
        if path != ":memory:":
            check_output_file(path, "NEWSCRAWL_SQLITE_PATH")
        batch = settings.getint("NEWSCRAWL_SINK_BATCH_SIZE")
        search = settings.getbool("NEWSCRAWL_SEARCH_INDEX")
        pipeline = cls(SqliteSink(path, search=search), batch, crawler.stats)
        pipeline.crawler = crawler
        return pipeline
