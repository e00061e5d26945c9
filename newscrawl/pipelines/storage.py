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

``SqlitePipeline`` writes its batches in a thread of its own, never on the reactor: a batch's upsert,
full-text indexing and commit (an fsync) take tens of milliseconds, during which no download would move.
At most :data:`MAX_QUEUED_BATCHES` batches wait for that thread; past that ``process_item`` returns a
Deferred that fires when one is written, so the crawl slows down rather than memory growing. Closing the
spider (end of the crawl, SIGTERM, the first Ctrl-C) hands over the last batch and waits for every batch
to be written before the store is closed.
"""

from __future__ import annotations

import logging
import queue
import sqlite3
import threading
from typing import Any

from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.statscollectors import StatsCollector
from scrapy.utils.defer import deferred_from_coro
from twisted.internet.defer import Deferred

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
#: batches handed to the SQLite writer thread and not yet written, past which items wait for it: SQLite +
#: FTS5 takes about 3,000 records a second (docs/SCALE.md), so 4 batches of 100 are ~0.1 s of writing
MAX_QUEUED_BATCHES = 4


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
        self._inc(f"{self.stats_prefix}/write_failed", len(batch))
        self._log_failure(batch, error)
        self._stop_crawl()

    def _log_failure(self, batch: list[dict[str, Any]], error: Exception) -> None:
        self.failure = f"writing to {self.describe()} failed: {error}"
        logger.error(
            "%s; %d record(s) not stored, the crawl stops (records stored before are kept)",
            self.failure,
            len(batch),
        )

    def _stop_crawl(self) -> None:
        """Close the spider with :data:`SINK_FAILED` (on the reactor thread)."""
        engine = self.crawler.engine if self.crawler is not None else None
        if engine is not None and engine.spider is not None and not self._closing:
            deferred_from_coro(engine.close_spider_async(reason=SINK_FAILED))


class SqlitePipeline(SinkPipeline):
    """The SQLite sink, written by a thread of its own (see the module's docstring)."""

    stats_prefix = "newscrawl/sqlite"
    sink: SqliteSink

    def __init__(self, *args: Any, max_queued: int = MAX_QUEUED_BATCHES, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if max_queued < 1:
            raise ValueError(f"max_queued must be at least 1, not {max_queued!r}")
        self.max_queued = max_queued
        self._jobs: queue.SimpleQueue[list[dict[str, Any]] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        #: batches handed to the thread and not written yet (or given up after a failure)
        self._queued = 0
        #: records the thread wrote / could not write, not yet added to the stats (the reactor adds them)
        self._written = self._unwritten = 0
        #: items waiting for room in the queue, on the reactor thread
        self._waiters: list[tuple[Deferred[Any], Any]] = []

    def open_spider(self) -> None:
        super().open_spider()  # on this thread: a store that cannot be opened stops the crawl at once
        self._thread = threading.Thread(target=self._write_batches, name="newscrawl-sqlite", daemon=True)
        self._thread.start()

    def process_item(self, item: Any) -> Any:
        item = super().process_item(item)
        with self._lock:
            full = self._queued >= self.max_queued
        if not full or self._thread is None:
            return item
        waiter: Deferred[Any] = Deferred()
        self._waiters.append((waiter, item))
        return waiter

    def flush(self) -> None:
        if self._thread is None or not self._batch:
            super().flush()
            return
        batch, self._batch = self._batch, []
        with self._lock:
            self._queued += 1
        self._jobs.put(batch)

    def close_spider(self) -> None:
        self._closing = True
        try:
            self.flush()
            if self._thread is not None:
                self._jobs.put(None)
                self._thread.join()
                self._thread = None
            self._count()
        finally:
            try:
                self.sink.close()
            except STORAGE_ERRORS as e:
                logger.error("closing %s failed: %s", self.describe(), e)

    def _write_batches(self) -> None:
        """The writer thread: write each batch handed over, in order, until ``None``."""
        while (batch := self._jobs.get()) is not None:
            failed = self.failure is not None
            if not failed:
                try:
                    self.sink.write(batch)
                except STORAGE_ERRORS as e:
                    self._log_failure(batch, e)
                    failed = True
                    self._on_reactor(self._stop_crawl)
                except Exception as e:  # a bug must not end the thread and leave the crawl waiting on it
                    logger.error("writing to %s: %s", self.describe(), e, exc_info=True)
                    failed = True
            with self._lock:
                self._queued -= 1
                if failed:
                    self._unwritten += len(batch)
                else:
                    self._written += len(batch)
                wake = bool(self._waiters)
            if wake:
                self._on_reactor(self._wake)
            elif not self._closing:
                self._on_reactor(self._count)

    def _on_reactor(self, call: Any) -> None:
        from twisted.internet import reactor

        if not self._closing:  # when closing, close_spider waits for this thread and counts
            reactor.callFromThread(call)  # type: ignore[attr-defined]

    def _count(self) -> None:
        """Add what the writer thread did to the stats (on the reactor thread)."""
        with self._lock:
            written, unwritten = self._written, self._unwritten
            self._written = self._unwritten = 0
        if written:
            self._inc(f"{self.stats_prefix}/written", written)
        if unwritten:
            self._inc(f"{self.stats_prefix}/write_failed", unwritten)

    def _wake(self) -> None:
        """Let the items waiting for room go on, as far as there is room (on the reactor thread)."""
        self._count()
        while self._waiters:
            with self._lock:
                if self._queued >= self.max_queued:
                    return
            waiter, item = self._waiters.pop(0)
            waiter.callback(item)

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
