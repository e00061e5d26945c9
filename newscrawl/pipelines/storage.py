"""Sink pipelines: batch records into a :class:`~newscrawl.storage.base.Sink` (upsert by canonical URL).

``SqlitePipeline`` is the embedded default: ``NEWSCRAWL_SQLITE_PATH`` (default
``output/newscrawl.sqlite3``; empty switches it off), ``NEWSCRAWL_SINK_BATCH_SIZE`` records per write,
``NEWSCRAWL_SEARCH_INDEX`` (default True) keeps the full-text index in the same file.
Other sinks subclass :class:`SinkPipeline` and build their sink in ``from_crawler``.
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.statscollectors import StatsCollector

from newscrawl.items import EXPORT_FIELDS
from newscrawl.storage.base import Sink
from newscrawl.storage.sqlite import SqliteSink

logger = logging.getLogger(__name__)

DEFAULT_SQLITE_PATH = "output/newscrawl.sqlite3"
#: records per write; a batch is also flushed when the spider closes
DEFAULT_BATCH_SIZE = 100


class SinkPipeline:
    """Collects exported records and writes them to ``sink`` in batches of ``batch_size``."""

    stats_prefix = "newscrawl/sink"

    def __init__(self, sink: Sink, batch_size: int = DEFAULT_BATCH_SIZE, stats: StatsCollector | None = None):
        if batch_size < 1:
            raise ValueError(f"batch size must be at least 1, not {batch_size!r}")
        self.sink = sink
        self.batch_size = batch_size
        self.stats = stats
        self._batch: list[dict[str, Any]] = []

    def open_spider(self) -> None:
        self.sink.open()

    def close_spider(self) -> None:
        try:
            self.flush()
        finally:
            self.sink.close()

    def process_item(self, item: Any) -> Any:
        if "url" in item:
            self._batch.append({name: item.get(name) for name in EXPORT_FIELDS})
            if len(self._batch) >= self.batch_size:
                self.flush()
        return item

    def flush(self) -> None:
        if not self._batch:
            return
        batch, self._batch = self._batch, []
        self.sink.write(batch)
        if self.stats is not None:
            self.stats.inc_value(f"{self.stats_prefix}/written", len(batch))


class SqlitePipeline(SinkPipeline):
    stats_prefix = "newscrawl/sqlite"

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SqlitePipeline:
        path = crawler.settings.get("NEWSCRAWL_SQLITE_PATH", DEFAULT_SQLITE_PATH)
        if not path:
            raise NotConfigured("NEWSCRAWL_SQLITE_PATH is empty")
        batch = crawler.settings.getint("NEWSCRAWL_SINK_BATCH_SIZE", DEFAULT_BATCH_SIZE)
        search = crawler.settings.getbool("NEWSCRAWL_SEARCH_INDEX", True)
        return cls(SqliteSink(path, search=search), batch, crawler.stats)
