"""PostgreSQL sink pipeline, on when ``NEWSCRAWL_POSTGRES_DSN`` is set (setting or environment variable).

Settings: ``NEWSCRAWL_POSTGRES_DSN`` (libpq DSN or URL; keep passwords in ``~/.pgpass`` or the
environment, not in files), ``NEWSCRAWL_POSTGRES_SPILL`` (JSONL file for records the server never
took, default ``output/postgres-unwritten.jsonl``), ``NEWSCRAWL_POSTGRES_RETRY_SECONDS`` (how long the
final flush waits for the server), ``NEWSCRAWL_POSTGRES_TIMEOUT`` (seconds a statement may take),
``NEWSCRAWL_SINK_BATCH_SIZE`` records per write.

Checked at start-up, each a one-line error with exit code 2: a DSN libpq cannot parse, a spill file that
cannot be written; a server that cannot be reached stops the crawl with one line naming the host.

Batches are written by one worker thread, never on the reactor: a slow or hung server does not stop the
crawl. Batches wait for the worker in order; past ``max_pending`` records waiting, a batch goes straight
to the spill file. While a write has been waiting :data:`WAIT_LOG_EVERY` seconds or more, a line says so.
When the spider closes, the worker finishes and the sink makes its final attempt (up to the retry
seconds); records then spilled or lost are counted (``newscrawl/postgres/spilled``, ``/lost``) and make
``scrapy crawl`` exit with 1.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.settings import BaseSettings

from newscrawl.crawl.config import ConfigError, check_output_file, with_defaults
from newscrawl.pipelines.storage import SinkPipeline

if TYPE_CHECKING:
    from newscrawl.storage.postgres import PostgresSink

logger = logging.getLogger(__name__)

DSN_SETTING = "NEWSCRAWL_POSTGRES_DSN"
#: seconds between "still waiting" lines while one write waits for the server
WAIT_LOG_EVERY = 10.0


def _seconds(settings: BaseSettings, name: str, zero: bool) -> float:
    raw = settings.get(name)
    try:
        value = float(settings.getfloat(name))
    except (TypeError, ValueError):
        raise ConfigError(f"{name}: expected a number of seconds, got {raw!r}") from None
    if not (0 <= value < float("inf")) or (value == 0 and not zero):
        raise ConfigError(f"{name}: must be a {'' if zero else 'positive '}number of seconds, got {raw!r}")
    return value


class PostgresPipeline(SinkPipeline):
    stats_prefix = "newscrawl/postgres"
    sink: PostgresSink

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._worker: ThreadPoolExecutor | None = None
        self._futures: list[Future[None]] = []
        self._lock = threading.Lock()
        #: records handed to the worker and not yet taken by the sink
        self._waiting = 0
        #: monotonic time the worker's current write started (None while it is idle)
        self._write_started: float | None = None
        self._last_wait_log = 0.0

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PostgresPipeline:
        settings = with_defaults(crawler.settings)
        dsn = settings.get(DSN_SETTING) or os.environ.get(DSN_SETTING)
        if not dsn:
            # off by default: said at debug level (a reason given to NotConfigured is a warning per crawl)
            logger.debug("PostgreSQL sink off: %s is not set", DSN_SETTING)
            raise NotConfigured()
        from newscrawl.storage.postgres import PostgresSink, check_dsn

        try:
            check_dsn(dsn)
        except ValueError as e:
            raise ConfigError(f"{DSN_SETTING}: {e}") from None
        spill = settings.get("NEWSCRAWL_POSTGRES_SPILL")
        check_output_file(spill, "NEWSCRAWL_POSTGRES_SPILL")
        sink = PostgresSink(
            dsn,
            spill_path=spill,
            retry_seconds=_seconds(settings, "NEWSCRAWL_POSTGRES_RETRY_SECONDS", zero=True),
            timeout=_seconds(settings, "NEWSCRAWL_POSTGRES_TIMEOUT", zero=False),
        )
        batch = settings.getint("NEWSCRAWL_SINK_BATCH_SIZE")
        pipeline = cls(sink, batch, crawler.stats)
        pipeline.crawler = crawler
        return pipeline

    def open_spider(self) -> None:
        from newscrawl.storage.postgres import PostgresUnavailable

        try:
            super().open_spider()
        except PostgresUnavailable as e:
            logger.error("%s", e)
            raise
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="newscrawl-postgres")

    def flush(self) -> None:
        """Hand the batch to the worker thread (or, with too many records waiting, to the spill file)."""
        if not self._batch:
            return
        batch, self._batch = self._batch, []
        if self._worker is None:  # not opened: write here
            self._write(batch)
            return
        self._log_wait()
        with self._lock:
            full = self._waiting + len(batch) > self.sink.max_pending
            if not full:
                self._waiting += len(batch)
        if full:
            self.sink.spill_records(batch, f"over {self.sink.max_pending} records waiting for the server")
            return
        self._futures = [f for f in self._futures if not f.done()]
        self._futures.append(self._worker.submit(self._write, batch, True))

    def _write(self, batch: list[dict[str, Any]], counted: bool = False) -> None:
        """Give ``batch`` to the sink (in the worker thread), never raising: a failure is logged and its
        records are spilled."""
        self._write_started = time.monotonic()
        try:
            if counted:
                with self._lock:
                    self._waiting -= len(batch)
            self.sink.write(batch)
        except Exception as e:  # the worker must go on with the next batch whatever happened
            logger.error("PostgreSQL at %s: a write failed: %s", self.describe(), e)
            self.sink.spill_records(batch, f"write failed: {e}")
        finally:
            self._write_started = None

    def _log_wait(self) -> None:
        started, now = self._write_started, time.monotonic()
        if started is None or now - started < WAIT_LOG_EVERY or now - self._last_wait_log < WAIT_LOG_EVERY:
            return
        self._last_wait_log = now
        logger.warning(
            "PostgreSQL at %s: a write has been waiting %.0f s for the server; %d records queued behind it "
            "(the crawl goes on)", self.describe(), now - started, self._waiting + self.sink.pending,
        )

    def describe(self) -> str:
        return str(getattr(self.sink, "where", None) or super().describe())

    def close_spider(self) -> None:
        self._closing = True
        self.flush()
        if self._worker is not None:
            self._worker.shutdown(wait=True)
            self._worker = None
        try:
            self.sink.close()
        finally:
            sink = self.sink
            if self.stats is not None:
                for name in ("written", "spilled", "lost", "reconnects"):
                    value = getattr(sink, name, 0)
                    if value:
                        self.stats.set_value(f"{self.stats_prefix}/{name}", value)
