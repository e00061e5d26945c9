"""Stage 1: noise stripping, short/long classification and the matching extractor -- one ``extract`` call.

The raw body leaves the item here; the :class:`~newscrawl.extract.Extraction` is stored on the item's
internal ``extraction`` field for stage 2. Binary bodies served as HTML are dropped before extraction.
Switched off with ``NEWSCRAWL_EXTRACT_ENABLED = False`` (stage 2 then drops pages for lack of text).
The algorithm, its parameters and the per-page limits travel as one
:class:`~newscrawl.crawl.config.ExtractorOptions` (validated in :mod:`newscrawl.crawl.config`); the limits
come from ``NEWSCRAWL_MAX_BODY_BYTES``, ``NEWSCRAWL_MAX_NODES``,
``NEWSCRAWL_MAX_DEPTH``, ``NEWSCRAWL_MAX_ATTRIBUTES`` and ``NEWSCRAWL_TIME_BUDGET`` (CPU seconds); a page
over one is dropped by stage 2 as ``extract_error`` with the limit named.

Extraction runs in ``NEWSCRAWL_EXTRACT_WORKERS`` worker processes (:mod:`newscrawl.crawl.workers`;
default: CPUs - 1, at least 1; 0 extracts on the reactor thread, for debugging): ``process_item``
returns a coroutine and the reactor goes on downloading. With ``NEWSCRAWL_DEDUP`` on, the worker also
computes the text's SimHash (item field ``fingerprint``, used by the duplicate pipeline). A worker that
crashes on a page, or is still busy ``NEWSCRAWL_EXTRACT_KILL_AFTER`` seconds later (killed), costs that
page only: it is dropped as ``extract_error`` and counted (``newscrawl/extract/worker_crashed``,
``.../worker_killed``; ``.../worker_start`` when a replacement does not start). Items whose URL
pattern says "article" skip the page-kind classifier.

With ``NEWSCRAWL_DEDUP`` on, items leave this stage in the order they entered it, whatever order the
workers finish them in: an item whose page is done waits for the items handed over before it. The
duplicate pipeline marks the later of two near-copies ``duplicate_of`` the earlier, so which copy of a
story is kept as the original is decided by the order the pages reached the pipelines (as in an inline
crawl), not by which worker was faster. The wait is a page's extraction at most (a hostile page: up to
``NEWSCRAWL_EXTRACT_KILL_AFTER``); the workers go on meanwhile. With workers, the spider is given
:meth:`ExtractionPipeline.extract_later` (``NewsSpider.extract_with``), so the pages it extracts itself (a
URL no pattern knows, later pages of split articles) are extracted by the same workers, off the reactor.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.statscollectors import StatsCollector
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred

from newscrawl.crawl.config import ExtractorOptions, extract_workers, kill_after, with_defaults
from newscrawl.crawl.workers import (
    PageResult,
    PageTask,
    WorkerFailed,
    WorkerPool,
    page_job,
    page_result,
    run_page_job,
    warm_extraction,
)
from newscrawl.extract import Extraction

logger = logging.getLogger(__name__)

#: share of control bytes (other than tab, CR, LF, FF, ESC) above which a body is binary, not text;
#: HTML in any charset has practically none, random/compressed data about 27/256 = 10.5 %
BINARY_CONTROL_SHARE = 0.02
#: how much of the body the binary test reads
BINARY_SNIFF_BYTES = 4096
_CONTROL = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))


def looks_binary(body: bytes, share: float = BINARY_CONTROL_SHARE) -> bool:
    """True when ``body`` is not text: a NUL-free UTF-16 BOM aside, control bytes above ``share``.

    >>> looks_binary(b"<html><p>text</p></html>"), looks_binary(bytes(range(256)) * 4)
    (False, True)
    """
    head = body[:BINARY_SNIFF_BYTES]
    if not head or head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return False
    controls = len(head) - len(head.translate(None, _CONTROL))
    return controls / len(head) > share


class ExtractionPipeline:
    """Runs :func:`newscrawl.extract.extract` once per item that does not carry an extraction yet, in
    ``workers`` worker processes, or inline when ``workers`` is 0."""

    def __init__(
        self,
        options: ExtractorOptions | None = None,
        stats: StatsCollector | None = None,
        *,
        workers: int = 0,
        kill_after: float | None = None,
        fingerprint: bool = False,
    ) -> None:
        self.options = options or ExtractorOptions()
        self.stats = stats
        self.workers = workers
        self.kill_after = kill_after
        self.fingerprint = fingerprint
        self.pool: WorkerPool | None = None
        self.crawler: Crawler | None = None
        #: with dedup on, items leave this stage in the order they entered it (the module's docstring)
        self.in_order = fingerprint
        #: the turn of the last item handed to a worker: fired once that item has left this stage
        self._last_turn: Deferred[None] | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ExtractionPipeline:
        settings = with_defaults(crawler.settings)
        if not settings.getbool("NEWSCRAWL_EXTRACT_ENABLED"):
            raise NotConfigured("NEWSCRAWL_EXTRACT_ENABLED is off")
        pipeline = cls(
            ExtractorOptions.from_settings(settings),
            crawler.stats,
            workers=extract_workers(settings),
            kill_after=kill_after(settings),
            fingerprint=settings.getbool("NEWSCRAWL_DEDUP"),
        )
        pipeline.crawler = crawler
        return pipeline

    def open_spider(self) -> None:
        """Start the workers (they warm up in parallel) and offer them to the spider, or warm dateparser
        here when extracting inline."""
        if self.workers:
            self.pool = WorkerPool(
                run_page_job, self.workers, kill_after=self.kill_after, warm=warm_extraction
            )
            self.pool.start()
            logger.info("extracting in %d worker process(es)", self.workers)
            self._offer(self.extract_later)
        else:
            warm_extraction()

    def _offer(self, offload: Any) -> None:
        spider = getattr(self.crawler, "spider", None)
        if spider is not None and hasattr(spider, "extract_with"):
            spider.extract_with(offload)

    def close_spider(self) -> None:
        if self.pool is None:
            return
        self._offer(None)
        self.pool.close()
        if self.stats is not None:
            self.stats.set_value("newscrawl/workers/started", self.pool.started)
            if self.pool.peak_rss_kib:
                self.stats.set_value("newscrawl/workers/peak_rss_kib", sum(self.pool.peak_rss_kib))
                self.stats.set_value("newscrawl/workers/cpu_seconds", round(sum(self.pool.cpu_seconds), 3))
            if self.pool.ahead_computed:  # newscrawl reextract: pages extracted ahead (crawl.lookahead)
                self.stats.set_value("newscrawl/workers/ahead_computed", self.pool.ahead_computed)
                self.stats.set_value("newscrawl/workers/ahead_taken", self.pool.ahead_taken)
            if self.pool.stolen:  # pages taken from the share of a worker stuck on a hostile page
                self.stats.set_value("newscrawl/workers/stolen", self.pool.stolen)
        self.pool = None

    def _inc(self, key: str) -> None:
        if self.stats is not None:
            self.stats.inc_value(key)

    def task(self, item: Any, body: bytes) -> PageTask:
        """The extraction of ``item`` as a task for a worker."""
        reference = None
        if item.get("crawled_at"):
            reference = datetime.fromisoformat(item["crawled_at"])
        prune = item.get("prune_xpath")
        return PageTask(
            body=body,
            url=item["url"],
            algorithm=self.options.algorithm,
            params=dict(self.options.params),
            limits=self.options.limits,
            http_charset=item.get("http_charset"),
            reference_time=reference,
            timezone=item.get("timezone"),
            prune_xpath=tuple(prune) if isinstance(prune, list) else prune,
            field_xpaths=tuple(sorted((item.get("field_xpaths") or {}).items())),
            page_kind=item.get("url_kind"),
            fingerprint=self.fingerprint,
        )

    def process_item(self, item: Any) -> Any:
        if "url" not in item or item.get("extraction") is not None:
            item.pop("body", None)
            return item
        body = item.pop("body", None) or b""
        if looks_binary(body):
            self._inc("newscrawl/dropped/binary")
            raise DropItem(f"binary content served as a page: {item['url']}")
        task = self.task(item, body)
        if self.pool is None:
            return self._done(item, page_job(task))
        previous = turn = None
        if self.in_order:
            previous, turn = self._last_turn, Deferred()
            self._last_turn = turn
        return self._extract_in_worker(item, self._submit(task), previous, turn)

    async def _extract_in_worker(
        self,
        item: Any,
        extraction: Deferred[PageResult],
        previous: Deferred[None] | None,
        turn: Deferred[None] | None,
    ) -> Any:
        """The item once a worker has extracted its page (a coroutine: Scrapy 2.19 deprecates pipelines
        returning Deferreds) and, in order, once the item handed over before it has left this stage
        (``previous`` fired). ``turn`` fires on the next reactor turn after this item has left: after the
        later pipelines' synchronous work on it (stage 2, the duplicate lookup)."""
        try:
            result = await maybe_deferred_to_future(extraction)
            if previous is not None and not previous.called:
                await maybe_deferred_to_future(previous)
            return self._done(item, result)
        finally:
            if turn is not None:
                self._later(turn.callback, None)

    def _later(self, call: Any, *args: Any) -> None:
        """``call(*args)`` on a later turn of the reactor."""
        from twisted.internet import reactor

        reactor.callLater(0, call, *args)  # type: ignore[attr-defined]

    def _on_reactor(self, call: Any, *args: Any) -> None:
        """``call(*args)`` on the reactor thread (from a dispatcher thread of the pool)."""
        from twisted.internet import reactor

        reactor.callFromThread(call, *args)  # type: ignore[attr-defined]

    def extract_later(self, item: Any, body: bytes) -> Deferred[PageResult]:
        """The extraction of the page of ``item`` (the spider's item for it) by a worker: a Deferred that
        fires on the reactor thread with the :class:`PageResult` (a lost worker gives an extraction
        whose ``error`` says so)."""
        return self._submit(self.task(item, body))

    def _submit(self, task: PageTask) -> Deferred[PageResult]:
        assert self.pool is not None
        done: Deferred[Any] = Deferred()
        future = self.pool.submit(task)
        future.add_done_callback(lambda f: self._on_reactor(done.callback, f))
        return done.addCallback(lambda f: self._outcome(task.url, f))

    def _outcome(self, url: str, future: Any) -> PageResult:
        """The worker's result, or a failed extraction saying what happened to the worker."""
        error = future.exception()
        if error is None:
            return page_result(future.result())
        if isinstance(error, WorkerFailed):
            self._inc(f"newscrawl/extract/worker_{error.how}")
            logger.warning("extraction of %s lost its worker: %s", url, error)
            return PageResult(Extraction(url=url, error=str(error)))
        logger.error("extraction of %s failed in its worker: %s", url, error)
        return PageResult(Extraction(url=url, error=f"internal error: {error}"))

    def _done(self, item: Any, result: PageResult) -> Any:
        self._inc("newscrawl/extract/count")
        item["extraction"] = result.extraction
        if result.fingerprint is not None:
            item["fingerprint"] = result.fingerprint
        return item
