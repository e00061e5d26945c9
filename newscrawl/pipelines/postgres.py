"""PostgreSQL sink pipeline, on when ``NEWSCRAWL_POSTGRES_DSN`` is set (setting or environment variable).

Settings: ``NEWSCRAWL_POSTGRES_DSN`` (libpq DSN or URL; keep passwords in ``~/.pgpass`` or the
environment, not in files), ``NEWSCRAWL_POSTGRES_SPILL`` (JSONL file for records the server never
took, default ``output/postgres-unwritten.jsonl``), ``NEWSCRAWL_POSTGRES_RETRY_SECONDS`` (how long the
final flush waits for the server), ``NEWSCRAWL_SINK_BATCH_SIZE`` records per write.
A server that cannot be reached at start-up stops the crawl with a one-line error naming the host.
"""

from __future__ import annotations

import logging
import os

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from newscrawl.crawl.config import with_defaults
from newscrawl.pipelines.storage import SinkPipeline

logger = logging.getLogger(__name__)

DSN_SETTING = "NEWSCRAWL_POSTGRES_DSN"


class PostgresPipeline(SinkPipeline):
    stats_prefix = "newscrawl/postgres"

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PostgresPipeline:
        settings = with_defaults(crawler.settings)
        dsn = settings.get(DSN_SETTING) or os.environ.get(DSN_SETTING)
        if not dsn:
            # off by default: said at debug level (a reason given to NotConfigured is a warning per crawl)
            logger.debug("PostgreSQL sink off: %s is not set", DSN_SETTING)
            raise NotConfigured()
        from newscrawl.storage.postgres import PostgresSink

        sink = PostgresSink(
            dsn,
            spill_path=settings.get("NEWSCRAWL_POSTGRES_SPILL"),
            retry_seconds=settings.getfloat("NEWSCRAWL_POSTGRES_RETRY_SECONDS"),
        )
        batch = settings.getint("NEWSCRAWL_SINK_BATCH_SIZE")
        return cls(sink, batch, crawler.stats)

    def open_spider(self) -> None:
        from newscrawl.storage.postgres import PostgresUnavailable

        try:
            super().open_spider()
        except PostgresUnavailable as e:
            logger.error("%s", e)
            raise

    def close_spider(self) -> None:
        super().close_spider()
        sink = self.sink
        if self.stats is not None:
            for name in ("written", "spilled", "reconnects"):
                value = getattr(sink, name, 0)
                if value:
                    self.stats.set_value(f"{self.stats_prefix}/{name}", value)
