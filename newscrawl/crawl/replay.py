"""A crawl answered from WARC archives by a small engine: the spider and the pipelines, no downloader.

``newscrawl reextract`` needs the crawl's spider callbacks, item pipelines, extensions, signals and stats,
but none of what Scrapy's engine does for the network (scheduler queues, downloader slots, a task per
request and per concurrent item). :class:`ArchiveEngine` takes the engine's place in an ordinary
:class:`~scrapy.crawler.Crawler` (:class:`ArchiveCrawler`) and runs the crawl as a loop over the archive:

1. every archived response the spider handled in the crawl is a start point, in archive order, with the
   kind the spider gave it then (:meth:`ArchiveIndex.start_points`);
2. a request is answered from the archive (:class:`~newscrawl.storage.warc.ArchiveReader`): the response
   goes through the crawl's content decoding and redirect middlewares (those of
   ``DOWNLOADER_MIDDLEWARES`` that are Scrapy's or subclass them, in the crawl's order), Scrapy's
   ``HttpErrorMiddleware`` check, then the request's callback (or errback); a request for a page the
   archive does not hold is ignored and counted (``newscrawl/warc/not_archived``), its errback called as
   the crawl's would be;
3. requests the callbacks yield are filtered by the crawler's request fingerprints, as the scheduler's
   duplicate filter does (``dupefilter/filtered``); one for a start point still to come waits for it, so
   pages are handled in the order the crawl received them; the others are answered at once;
4. items go through the item pipelines (each pipeline's ``process_item`` in turn, as
   ``ItemPipelineManager.process_item_async`` calls them, awaited only when one returns a coroutine or a
   Deferred), with at most ``REPLAY_ITEMS_IN_FLIGHT`` in flight, so extraction workers keep busy while the
   loop reads the archive; ``item_scraped`` / ``item_dropped`` / ``item_error`` are sent as Scrapy's
   scraper sends them (receivers that are plain functions called in turn, without a task each). While
   items wait for the workers, their texts' SimHash is computed here rather than by the workers
   (:meth:`ArchiveEngine._balance`): the extraction processes are what a replay waits for;
5. when the archive is done, ``spider_idle`` is sent (a handler may still ``crawl`` requests) and the
   spider is closed as Scrapy's engine closes it (pipelines, ``spider_closed``, stats).

Components that ask the engine to close the spider (``close_spider_async``: a failed sink, CloseSpider)
stop the loop with their reason.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections import deque
from collections.abc import Iterable
from time import time
from types import SimpleNamespace
from typing import Any

from pydispatch.dispatcher import getAllReceivers, liveReceivers
from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.downloadermiddlewares.httpcompression import HttpCompressionMiddleware
from scrapy.downloadermiddlewares.redirect import BaseRedirectMiddleware
from scrapy.exceptions import DontCloseSpider, DropItem, IgnoreRequest, NotConfigured
from scrapy.http import Headers, Response
from scrapy.pipelines import ItemPipelineManager
from scrapy.responsetypes import responsetypes
from scrapy.spidermiddlewares.httperror import HttpError, HttpErrorMiddleware
from scrapy.spidermiddlewares.referer import RefererMiddleware
from scrapy.utils.conf import build_component_list
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.log import logformatter_adapter
from scrapy.utils.misc import build_from_crawler, load_object
from twisted.internet.defer import Deferred
from twisted.python.failure import Failure

from newscrawl.crawl.warc import FETCHED_AT_META
from newscrawl.pipelines.extraction import ExtractionPipeline
from newscrawl.storage.warc import ArchiveReader, DamagedRecord

logger = logging.getLogger(__name__)

#: items in the pipelines at once: enough to keep extraction workers busy while the loop reads ahead,
#: few enough that the pages they hold stay small (each item carries its page until stage 1)
REPLAY_ITEMS_IN_FLIGHT = 64


#: stats key counting the archive's damaged records (each passed over; the others are replayed)
DAMAGED_STAT = "newscrawl/warc/damaged_records"
#: the package of Scrapy's own downloader middlewares, and its modules that hold the ones a replay applies
SCRAPY_MIDDLEWARES = "scrapy.downloadermiddlewares"
RESPONSE_MODULES = frozenset({f"{SCRAPY_MIDDLEWARES}.httpcompression", f"{SCRAPY_MIDDLEWARES}.redirect"})


def _other_scrapy_middleware(name: Any) -> bool:
    """True for the import path of one of Scrapy's downloader middlewares outside
    :data:`RESPONSE_MODULES` (none decodes content or follows redirects)."""
    if not isinstance(name, str):
        return False
    module = name.rpartition(".")[0]
    return module.startswith(f"{SCRAPY_MIDDLEWARES}.") and module not in RESPONSE_MODULES


class ArchiveEngine:
    """Runs a crawler's spider and pipelines over ``reader``'s archive (see the module docstring).

    Offers what newscrawl's components and Scrapy's extensions use of an engine: ``spider``,
    ``running``, ``scheduler`` (None), ``crawl(request)``, ``close_spider_async(reason=...)``,
    ``stop_async()``.
    """

    def __init__(self, crawler: Crawler, reader: ArchiveReader, points: list[tuple[str, str]]) -> None:
        self.crawler = crawler
        self.settings = crawler.settings
        self.signals = crawler.signals
        self.reader = reader
        self.points = points
        self.spider: Any = None
        self.running = False
        self.start_time: float | None = None
        self.scheduler = None
        self._close_reason: str | None = None
        self._pending: deque[Request] = deque()
        self._seen: set[bytes] = set()
        #: start points not handled yet (URL -> position), so a request for one waits for its turn
        self._later: set[str] = set()
        self._items: set[asyncio.Future[Any]] = set()
        #: set while the loop waits for room among the items in flight
        self._room: asyncio.Future[None] | None = None
        #: callbacks that are coroutines (the spider awaiting a worker), still running
        self._callbacks: set[asyncio.Future[Any]] = set()
        self.itemproc: ItemPipelineManager = build_from_crawler(
            load_object(self.settings["ITEM_PROCESSOR"]), crawler
        )
        #: the item pipelines' process_item methods, called in turn by :meth:`_pipelines` (None: an
        #: ITEM_PROCESSOR of another kind, asked through its process_item_async)
        self._chain: list[Any] | None = None
        if isinstance(self.itemproc, ItemPipelineManager):
            self._chain = list(self.itemproc.methods["process_item"])
        #: the extraction pipelines that fingerprint texts in their workers (see :meth:`_balance`)
        self._fingerprinting = [
            mw for mw in getattr(self.itemproc, "middlewares", ())
            if isinstance(mw, ExtractionPipeline) and mw.fingerprint
        ]
        #: signals whose receivers are all plain functions, sent without a task per receiver
        self._plain_signals: dict[Any, bool] = {}
        self._response_mws = [
            mw for mw in map(self._build, reversed(self._response_middlewares())) if mw is not None
        ]
        self._httperror = self._build(HttpErrorMiddleware)
        # the crawl's Referer middleware, which the redirect middlewares ask the crawler for to set a
        # redirected request's Referer as the crawl did (without it each warns at every replay)
        referers = [mw for mw in map(self._build, self._spider_middlewares(RefererMiddleware))
                    if mw is not None]
        # what Crawler.get_item_pipeline() / get_downloader_middleware() / get_spider_middleware() look in
        self.scraper = SimpleNamespace(itemproc=self.itemproc,
                                       spidermw=SimpleNamespace(middlewares=tuple(referers)))
        self.downloader = SimpleNamespace(middleware=SimpleNamespace(middlewares=tuple(self._response_mws)))
        self._debug = logging.getLogger("scrapy").isEnabledFor(logging.DEBUG) and (
            logging.getLevelName(str(self.settings.get("LOG_LEVEL"))) == logging.DEBUG
        )

    def _response_middlewares(self) -> list[type[Any]]:
        """The crawl's downloader middlewares that turn an archived response into what the spider got:
        content decoding and redirects (Scrapy's, or the project's subclasses in their place), by priority.

        Scrapy's own middlewares of other modules (:data:`SCRAPY_MIDDLEWARES`, :data:`RESPONSE_MODULES`)
        are passed over by name, not imported: none of them is one of these, and importing them cost the
        replay's start-up (``CookiesMiddleware`` imports tldextract, requests and urllib3: 0.04-0.1 s of
        CPU)."""
        wanted = (HttpCompressionMiddleware, BaseRedirectMiddleware)
        priorities = self.settings.get_component_priority_dict_with_base("DOWNLOADER_MIDDLEWARES")
        classes = [load_object(name) if isinstance(name, str) else name
                   for name in build_component_list(priorities) if not _other_scrapy_middleware(name)]
        return [cls for cls in classes if isinstance(cls, type) and issubclass(cls, wanted)]

    def _spider_middlewares(self, wanted: type[Any]) -> list[type[Any]]:
        """The crawl's spider middlewares that are ``wanted`` or subclass it, by priority."""
        priorities = self.settings.get_component_priority_dict_with_base("SPIDER_MIDDLEWARES")
        classes = [load_object(name) if isinstance(name, str) else name
                   for name in build_component_list(priorities)]
        return [cls for cls in classes if isinstance(cls, type) and issubclass(cls, wanted)]

    def _build(self, cls: type[Any]) -> Any:
        try:
            return build_from_crawler(cls, self.crawler)
        except NotConfigured:
            return None

    # -- what components use of an engine ----------------------------------------------------------------

    def crawl(self, request: Request) -> None:
        """Queue ``request`` (answered from the archive when the loop gets to it)."""
        self._pending.append(request)

    async def close_spider_async(self, *, reason: str = "cancelled") -> None:
        """Stop the loop; the spider is closed with ``reason`` (the first reason given wins)."""
        if self._close_reason is None:
            self._close_reason = reason

    async def stop_async(self) -> None:
        await self.close_spider_async(reason="shutdown")

    async def close_async(self, *, reason: str = "shutdown") -> None:
        await self.close_spider_async(reason=reason)

    # -- life cycle ----------------------------------------------------------------------------------------

    async def open_spider_async(self) -> None:
        self.spider = self.crawler.spider
        logger.info("Spider opened (replaying %d archived pages)", len(self.points))
        stats = self.crawler.stats
        stats.open_spider()
        for path, offset in self.reader.damaged:  # found by the scan: the rest of each file is replayed
            logger.warning("%s; passed over", DamagedRecord(path, offset))
            stats.inc_value(DAMAGED_STAT)
        await self.itemproc.open_spider_async()
        await self.signals.send_catch_log_async(signals.spider_opened, spider=self.spider)

    async def start_async(self) -> None:
        self.start_time = time()
        self.running = True
        await self.signals.send_catch_log_async(signals.engine_started)
        reason = "finished"
        try:
            await self._replay()
        except Exception:
            logger.error("replaying the archive failed", exc_info=True)
            reason = "replay_error"
        reason = self._close_reason or reason
        await self._close(reason)

    async def _close(self, reason: str) -> None:
        logger.info("Closing spider (%s)", reason)
        while self._callbacks or self._items:
            await asyncio.gather(*self._callbacks, *self._items, return_exceptions=True)
        try:
            await self.itemproc.close_spider_async()
        except Exception:
            logger.error("Item pipelines close failure", exc_info=True)
        await self.signals.send_catch_log_async(signals.spider_closed, spider=self.spider, reason=reason)
        self.crawler.stats.close_spider(reason=reason)
        logger.info("Spider closed (%s)", reason)
        self.running = False
        self.spider = None
        self.reader.close()
        await self.signals.send_catch_log_async(signals.engine_stopped)

    # -- the loop -------------------------------------------------------------------------------------------

    async def _replay(self) -> None:
        spider = self.spider
        self._later = {url for url, _ in self.points}
        points = deque(self.points)
        while self._close_reason is None:
            if self._pending:
                request = self._pending.popleft()
            elif points:
                url, kind = points.popleft()
                self._later.discard(url)
                request = Request(url, callback=spider.parse, cb_kwargs={"kind": kind},
                                  meta={"newscrawl_kind": kind})
                if not self._first_time(request):
                    continue
            elif self._callbacks:
                await asyncio.wait(self._callbacks, return_when=asyncio.FIRST_COMPLETED)
                continue
            elif not self._idle():
                break
            else:
                continue
            await self._handle(request)
            if len(self._items) >= REPLAY_ITEMS_IN_FLIGHT:
                self._room = asyncio.get_running_loop().create_future()
                await self._room
            elif self._items or self._callbacks:
                await asyncio.sleep(0)  # let finished extractions move on through the pipelines

    def _idle(self) -> bool:
        """Send ``spider_idle``; True when a handler queued requests (sitemaps held back by the spider)."""
        results = self.signals.send_catch_log(signals.spider_idle, spider=self.spider,
                                              dont_log=DontCloseSpider)
        del results  # DontCloseSpider without a request queued: nothing more can come from the archive
        return bool(self._pending)

    def _first_time(self, request: Request) -> bool:
        """The duplicate filter of Scrapy's scheduler: False (counted) for a request already seen."""
        if request.dont_filter:
            return True
        fingerprint = self.crawler.request_fingerprinter.fingerprint(request)
        if fingerprint in self._seen:
            self.crawler.stats.inc_value("dupefilter/filtered")
            return False
        self._seen.add(fingerprint)
        return True

    def _schedule(self, request: Request) -> None:
        """A request a callback yielded: answered in its turn if it is a start point still to come (the
        start point's request then stands for it), else queued."""
        if not request.dont_filter and request.url in self._later:
            return
        if self._first_time(request):
            self._pending.append(request)

    async def _handle(self, request: Request) -> None:
        try:
            response = self._fetch(request)
        except DamagedRecord as e:  # that page is lost, counted and named; the replay goes on
            logger.warning("%s", e)
            self.crawler.stats.inc_value(DAMAGED_STAT)
            self._call_errback(request, Failure(IgnoreRequest(str(e))))
            return
        if response is None:
            self._call_errback(request, Failure(IgnoreRequest(f"not in the archive: {request.url}")))
            return
        for mw in self._response_mws:
            result = mw.process_response(request=request, response=response)
            if isinstance(result, Request):
                self._schedule(result)
                return
            response = result
        self.signals.send_catch_log(signals.response_received, response=response, request=request,
                                    spider=self.spider)
        if self._httperror is not None:
            try:
                self._httperror.process_spider_input(response)
            except HttpError as e:
                self._call_errback(request, Failure(e), response)
                return
        callback = request.callback or self.spider.parse
        try:
            output = callback(response, **request.cb_kwargs)
        except Exception:
            self._spider_error(Failure(), request, response)
            return
        self._output(output, request, response)

    def _output(self, output: Any, request: Request, response: Response | None) -> None:
        """A callback's output taken now, or, for a coroutine (the spider awaiting a worker), when it is
        done, while the loop goes on."""
        if inspect.isawaitable(output):
            future = asyncio.ensure_future(self._awaited(output, request, response))
            self._callbacks.add(future)
            future.add_done_callback(self._callbacks.discard)
            return
        try:
            self._take(output, response)
        except Exception:
            self._spider_error(Failure(), request, response)

    async def _awaited(self, output: Any, request: Request, response: Response | None) -> None:
        try:
            result = await output
        except Exception:
            self._spider_error(Failure(), request, response)
            return
        self._output(result, request, response)

    def _fetch(self, request: Request) -> Response | None:
        archived = self.reader.get(request.url)
        stats = self.crawler.stats
        if archived is None:
            stats.inc_value("newscrawl/warc/not_archived")
            return None
        stats.inc_value("newscrawl/warc/replayed")
        stats.inc_value("downloader/response_count")
        stats.inc_value(f"downloader/response_status_count/{archived.status}")
        if archived.date is not None:  # the spider resolves relative times against the fetch time
            request.meta[FETCHED_AT_META] = archived.date
        headers = Headers(archived.headers)
        cls = responsetypes.from_args(headers=headers, url=archived.url, body=archived.body)
        response: Response = cls(url=archived.url, status=archived.status, headers=headers,
                                 body=archived.body, request=request, protocol="HTTP/1.1")
        if self._debug:
            logkws = self.crawler.logformatter.crawled(request, response, self.spider)
            if logkws is not None:
                logging.getLogger("scrapy.core.engine").log(*logformatter_adapter(logkws))
        return response

    def _call_errback(self, request: Request, failure: Failure, response: Response | None = None) -> None:
        if request.errback is None:
            if not failure.check(IgnoreRequest, HttpError):
                logger.error("%s failed: %s", request.url, failure.value)
            return
        failure.request = request  # type: ignore[attr-defined]
        try:
            output = request.errback(failure)
        except Exception:
            self._spider_error(Failure(), request, response)
            return
        self._output(output, request, response)

    def _take(self, output: Iterable[Any] | None, response: Response | None) -> None:
        """Route a callback's output: requests to the loop, items to the pipelines."""
        if output is None:
            return
        for thing in output:
            if isinstance(thing, Request):
                self._schedule(thing)
            elif thing is not None:
                self._process_item(thing, response)

    def _spider_error(self, failure: Failure, request: Request, response: Response | None) -> None:
        stats = self.crawler.stats
        stats.inc_value("spider_exceptions/count")
        stats.inc_value(f"spider_exceptions/{type(failure.value).__name__}")
        logger.error("Spider error processing %s", request, exc_info=(failure.type, failure.value,
                                                                      failure.getTracebackObject()))
        self.signals.send_catch_log(signals.spider_error, failure=failure, response=response,
                                    spider=self.spider)

    # -- items ---------------------------------------------------------------------------------------------

    def _process_item(self, item: Any, response: Response | None) -> None:
        future = asyncio.ensure_future(self._item(item, response))
        self._items.add(future)
        future.add_done_callback(self._item_done)

    def _item_done(self, future: asyncio.Future[Any]) -> None:
        self._items.discard(future)
        if self._room is not None and not self._room.done():
            self._room.set_result(None)

    def _balance(self) -> None:
        """Decide where the next item's text is fingerprinted (its SimHash and content hash, for stage 2
        and the duplicate pipeline): in the extraction worker, as in a crawl, while few items are in
        flight -- this process keeps up, the workers wait for it --, else here, when stage 2 reaches the
        item -- the items wait for the workers, which then extract only. The records are the same either
        way (the same text is hashed by the same functions)."""
        wanted = len(self._items) < REPLAY_ITEMS_IN_FLIGHT // 2
        for pipeline in self._fingerprinting:
            pipeline.fingerprint = wanted

    async def _pipelines(self, item: Any) -> Any:
        """``ItemPipelineManager.process_item_async``: each pipeline's process_item in turn, awaited when
        it returns a coroutine or a Deferred, without a coroutine wrapping each plain return."""
        if self._chain is None:
            return await self.itemproc.process_item_async(item)
        needs_spider = self.itemproc._mw_methods_requiring_spider
        for method in self._chain:
            result = method(item, self.spider) if method in needs_spider else method(item)
            if isinstance(result, Deferred):
                result = await maybe_deferred_to_future(result)
            elif inspect.isawaitable(result):
                result = await result
            item = result
        return item

    async def _send(self, signal: Any, **kwargs: Any) -> None:
        """``send_catch_log_async``, but for a signal whose receivers are all plain functions (every one
        of newscrawl's and Scrapy's item signal handlers), called in turn without a task for each."""
        plain = self._plain_signals.get(signal)
        if plain is None:
            receivers = liveReceivers(getAllReceivers(self.signals.sender, signal))
            plain = self._plain_signals[signal] = not any(
                inspect.iscoroutinefunction(r) or inspect.isasyncgenfunction(r) for r in receivers
            )
        if not plain:
            await self.signals.send_catch_log_async(signal, **kwargs)
            return
        for _, result in self.signals.send_catch_log(signal, **kwargs):
            if isinstance(result, Deferred):
                await maybe_deferred_to_future(result)
            elif inspect.isawaitable(result):
                await result

    async def _item(self, item: Any, response: Response | None) -> None:
        spider, formatter = self.spider, self.crawler.logformatter
        self._balance()
        try:
            output = await self._pipelines(item)
        except DropItem as ex:
            logkws = formatter.dropped(item, ex, response, spider)
            if logkws is not None:
                logging.getLogger("scrapy.core.scraper").log(*logformatter_adapter(logkws))
            await self._send(signals.item_dropped, item=item, response=response, spider=spider, exception=ex)
        except Exception as ex:
            logkws = formatter.item_error(item, ex, response, spider)
            logging.getLogger("scrapy.core.scraper").log(*logformatter_adapter(logkws), exc_info=True)
            await self._send(signals.item_error, item=item, response=response, spider=spider,
                             failure=Failure())
        else:
            if self._debug:
                logkws = formatter.scraped(output, response, spider)
                if logkws is not None:
                    logging.getLogger("scrapy.core.scraper").log(*logformatter_adapter(logkws))
            await self._send(signals.item_scraped, item=output, response=response, spider=spider)


class ArchiveCrawler(Crawler):
    """A :class:`~scrapy.crawler.Crawler` whose engine is an :class:`ArchiveEngine` over ``reader``."""

    def __init__(self, spidercls: Any, settings: Any, reader: ArchiveReader,
                 points: list[tuple[str, str]], *, init_reactor: bool = False) -> None:
        super().__init__(spidercls, settings, init_reactor=init_reactor)
        self.reader = reader
        self.points = points

    def _create_engine(self) -> Any:
        return ArchiveEngine(self, self.reader, self.points)

