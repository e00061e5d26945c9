"""WARC archives of a crawl, and a crawl answered from archives (``newscrawl reextract``).

``NEWSCRAWL_WARC_DIR`` (off when empty) switches on :class:`WarcMiddleware`, a downloader middleware
placed next to the downloader: every response is written as received (before decompression, redirects
or retries), with the request that fetched it and a ``metadata`` record (crawl id, spider, how the spider
meant to handle the page: ``kind``); each item scraped or dropped adds a ``metadata`` record with the
extraction outcome. Records go to gzipped WARC 1.1 files (:mod:`newscrawl.storage.warc`, warcio) named
``<spider>-<UTC start>-<serial>.warc.gz`` in that folder, a new file once ``NEWSCRAWL_WARC_MAX_BYTES`` is
reached. A write that fails (full disk) is logged and counted; the crawl goes on.

:class:`WarcReplayMiddleware` (``NEWSCRAWL_WARC_REPLAY``: WARC files) answers requests from archives with
no network, and :func:`reextract` runs a site's real spider, stage 1, stage 2 and the sinks over them.

When a page was fetched travels with its response in ``request.meta[FETCHED_AT_META]`` (an aware UTC
datetime, whole seconds): :class:`WarcMiddleware` sets it and writes it as the response record's WARC-Date;
a replay sets it from that WARC-Date. The spider takes it as the record's ``crawled_at`` and as the time
relative publish times ("3小时前", "昨天 09:27") are resolved against, so re-extracting an archive gives the
crawl's ``published_at`` whenever it runs; without it (a crawl not archived) the spider uses the clock.
"""

from __future__ import annotations

import io
import json
import logging
import uuid
from collections import OrderedDict
from datetime import UTC, datetime
from http import HTTPStatus
from typing import Any

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import Headers, Response
from scrapy.responsetypes import responsetypes
from scrapy.settings import Settings
from scrapy.spiders import Spider
from scrapy.statscollectors import StatsCollector
from warcio.statusandheaders import StatusAndHeaders

from newscrawl import __version__
from newscrawl.crawl.config import ConfigError
from newscrawl.storage.warc import ArchiveEntry, DamagedRecord, RotatingWarcWriter, read, scan

logger = logging.getLogger(__name__)

#: the meta key carrying the URL a replayed request stands for (set by ReplayMiddleware)
_ORIGINAL_URL_META = "newscrawl_original_url"
#: the meta key carrying when the response was fetched (the WARC-Date of its record)
FETCHED_AT_META = "newscrawl_fetched_at"
#: how many recent responses' record ids are kept to tie an item's outcome record to its response
_RECENT_RECORDS = 10_000
#: framing that no longer describes the stored payload (Scrapy has already de-chunked it)
_FRAMING_HEADERS = {b"transfer-encoding"}


def _http_headers(status_line: str, headers: Headers, protocol: str = "HTTP/1.1") -> StatusAndHeaders:
    pairs = [
        (key.decode("latin-1"), value.decode("latin-1"))
        for key, values in headers.items()
        if key.lower() not in _FRAMING_HEADERS
        for value in values
    ]
    return StatusAndHeaders(status_line, pairs, protocol=protocol)


class WarcMiddleware:
    """Downloader middleware writing every fetched response, its request and metadata to WARC files."""

    def __init__(self, directory: str, max_bytes: int, stats: StatsCollector | None = None) -> None:
        if max_bytes < 1_000:
            raise ConfigError(f"NEWSCRAWL_WARC_MAX_BYTES: must be at least 1000, got {max_bytes}")
        self.directory = directory
        self.max_bytes = max_bytes
        self.stats = stats
        self.crawl_id = uuid.uuid4().hex
        self.writer: RotatingWarcWriter | None = None
        self._recent: OrderedDict[str, str] = OrderedDict()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WarcMiddleware:
        directory = crawler.settings.get("NEWSCRAWL_WARC_DIR")
        if not directory:
            raise NotConfigured
        mw = cls(str(directory), crawler.settings.getint("NEWSCRAWL_WARC_MAX_BYTES"), crawler.stats)
        crawler.signals.connect(mw.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(mw.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(mw.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(mw.item_dropped, signal=signals.item_dropped)
        return mw

    def spider_opened(self, spider: Spider) -> None:
        info = {
            "software": f"newscrawl/{__version__}",
            "format": "WARC File Format 1.1",
            "isPartOf": spider.name,
            "description": f"newscrawl crawl {self.crawl_id} of {spider.name}",
        }
        self.writer = RotatingWarcWriter(self.directory, spider.name, self.max_bytes, info)
        self.spider_name = spider.name

    def spider_closed(self, spider: Spider) -> None:
        if self.writer is not None:
            self.writer.close()
            logger.info("WARC: %d file(s) in %s", len(self.writer.paths), self.directory)

    def process_response(self, request: Request, response: Response) -> Response:
        if self.writer is None:
            return response
        original = request.meta.get(_ORIGINAL_URL_META) or request.url
        fetched = datetime.now(UTC).replace(microsecond=0)
        request.meta[FETCHED_AT_META] = fetched  # what the record says, so a replay resolves times alike
        try:
            self._write_exchange(original, request, response, fetched)
        except OSError as e:  # a full disk costs the archive, never the crawl
            logger.error("WARC: cannot write %s: %s", original, e)
            self._inc("newscrawl/warc/write_errors")
        return response

    def _write_exchange(self, url: str, request: Request, response: Response, fetched: datetime) -> None:
        assert self.writer is not None
        proto = getattr(response, "protocol", None) or "HTTP/1.1"
        status = f"{response.status} {_reason(response.status)}"
        http = _http_headers(status, response.headers, protocol=proto)
        if response.body and not http.get_header("Content-Length"):
            http.add_header("Content-Length", str(len(response.body)))
        elif http.get_header("Content-Length"):
            http.replace_header("Content-Length", str(len(response.body)))
        resp = self.writer.record(
            url,
            "response",
            payload=io.BytesIO(response.body),
            http_headers=http,
            warc_headers_dict={"WARC-Date": fetched.strftime("%Y-%m-%dT%H:%M:%SZ")},
        )
        resp_id = resp.rec_headers.get_header("WARC-Record-ID")
        path = request.url.split("/", 3)[3] if request.url.count("/") >= 3 else ""
        req_http = _http_headers(f"{request.method} /{path} {proto}", request.headers, protocol="")
        req = self.writer.record(
            url,
            "request",
            payload=io.BytesIO(request.body),
            http_headers=req_http,
            warc_headers_dict={"WARC-Concurrent-To": resp_id},
        )
        meta = {
            "crawl": self.crawl_id,
            "spider": self.spider_name,
            "kind": request.meta.get("newscrawl_kind"),
        }
        meta_rec = self.writer.record(
            url,
            "metadata",
            payload=io.BytesIO(json.dumps(meta).encode()),
            warc_content_type="application/json",
            warc_headers_dict={"WARC-Concurrent-To": resp_id},
        )
        self.writer.write(resp)
        self.writer.write(req)
        self.writer.write(meta_rec)
        self._recent[url] = resp_id
        if len(self._recent) > _RECENT_RECORDS:
            self._recent.popitem(last=False)
        self._inc("newscrawl/warc/responses")

    def _outcome(self, item: Any, outcome: str, reason: str | None = None) -> None:
        if self.writer is None:
            return
        url = item.get("url") if hasattr(item, "get") else None
        if not url:
            return
        extraction = item.get("extraction") if hasattr(item, "get") else None
        facts: dict[str, Any] = {"crawl": self.crawl_id, "spider": self.spider_name, "outcome": outcome}
        if reason:
            facts["reason"] = reason
        for key in ("canonical_url", "algorithm", "page_kind", "page_class", "extract_error"):
            value = item.get(key)
            if value is not None and not isinstance(value, bytes):
                facts[key] = value
        if extraction is not None and getattr(extraction, "error", None):
            facts["extract_error"] = extraction.error
        headers = {"WARC-Refers-To": self._recent[url]} if url in self._recent else {}
        try:
            self.writer.write(
                self.writer.record(
                    url,
                    "metadata",
                    payload=io.BytesIO(json.dumps(facts, ensure_ascii=False, default=str).encode()),
                    warc_content_type="application/json",
                    warc_headers_dict=headers,
                )
            )
        except OSError as e:
            logger.error("WARC: cannot write the outcome of %s: %s", url, e)
            self._inc("newscrawl/warc/write_errors")

    def item_scraped(self, item: Any, response: Response, spider: Spider) -> None:
        self._outcome(item, "stored")

    def item_dropped(self, item: Any, response: Response, exception: BaseException, spider: Spider) -> None:
        self._outcome(item, "dropped", str(exception))

    def _inc(self, key: str) -> None:
        if self.stats is not None:
            self.stats.inc_value(key)


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Unknown"


class WarcReplayMiddleware:
    """Answers every request from WARC archives (``NEWSCRAWL_WARC_REPLAY``: a list of files); no network.

    The archives are indexed once (URL -> file and offset; payloads stay on disk and are read when asked
    for). A request for a URL the archives do not hold is ignored and counted
    (``newscrawl/warc/not_archived``).
    """

    def __init__(self, paths: list[str], stats: StatsCollector | None = None) -> None:
        self.stats = stats
        self.index: dict[str, ArchiveEntry] = {}
        for path in paths:
            for entry in scan(path):
                self.index.setdefault(entry.url, entry)

    def start_points(self) -> list[tuple[str, str]]:
        """(url, kind) of every archived response the crawl's spider handled, in archive order."""
        return [(e.url, e.kind) for e in self.index.values() if e.kind]

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WarcReplayMiddleware:
        paths = crawler.settings.getlist("NEWSCRAWL_WARC_REPLAY")
        if not paths:
            raise NotConfigured
        try:
            return cls(paths, crawler.stats)
        except ValueError as e:
            raise ConfigError(f"NEWSCRAWL_WARC_REPLAY: {e}") from e

    def process_request(self, request: Request) -> Response:
        entry = self.index.get(request.url)
        if entry is None:
            if self.stats is not None:
                self.stats.inc_value("newscrawl/warc/not_archived")
            raise IgnoreRequest(f"not in the archive: {request.url}")
        try:
            archived = read(entry)
        except DamagedRecord as e:  # that page is lost, counted and named; the crawl goes on
            logger.warning("%s", e)
            if self.stats is not None:
                self.stats.inc_value("newscrawl/warc/damaged_records")
            raise IgnoreRequest(str(e)) from e
        headers = Headers(archived.headers)
        cls = responsetypes.from_args(headers=headers, url=archived.url, body=archived.body)
        if self.stats is not None:
            self.stats.inc_value("newscrawl/warc/replayed")
        if archived.date is not None:
            request.meta[FETCHED_AT_META] = archived.date
        return cls(
            url=archived.url,
            status=archived.status,
            headers=headers,
            body=archived.body,
            request=request,
            protocol="HTTP/1.1",
        )


#: settings every re-extraction runs with: answers from the archives only, nothing skipped or re-archived
REEXTRACT_SETTINGS: dict[str, Any] = {
    "ROBOTSTXT_OBEY": False,  # robots.txt was obeyed when the archive was made
    "HTTPCACHE_ENABLED": False,
    "NEWSCRAWL_REPLAY_PREFIX": "",
    "NEWSCRAWL_WARC_DIR": "",
    "NEWSCRAWL_INCREMENTAL": False,  # every archived article is extracted again
    "AUTOTHROTTLE_ENABLED": False,
    "DOWNLOAD_DELAY": 0,
    "RETRY_ENABLED": False,
    "CONCURRENT_REQUESTS": 32,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 32,
}
#: Scrapy extensions a replay goes without: RemoteControl (an HTTP server running the Python sent to it)
#: has nothing to steer in a replay, and importing it imports aiohttp, 0.35 s of start-up CPU. Taken out of
#: ``EXTENSIONS_BASE``: naming it None in ``EXTENSIONS`` would not spare the import (add-ons that edit
#: that setting load every class it names)
REEXTRACT_WITHOUT_EXTENSIONS = ("scrapy.extensions.remote_control.RemoteControl",)


def reextract_settings(settings: dict[str, Any] | None = None) -> Settings:
    """The project's settings as a re-extraction runs with them: :data:`REEXTRACT_SETTINGS`, then
    ``settings``, without :data:`REEXTRACT_WITHOUT_EXTENSIONS`; as many extraction workers as CPUs
    (:func:`~newscrawl.crawl.workers.reextract_workers`) unless the project, the site or ``settings``
    say how many."""
    from scrapy.utils.project import get_project_settings

    project = get_project_settings()
    project.setmodule("newscrawl.settings", priority="project")
    if project.get("NEWSCRAWL_EXTRACT_WORKERS") in (None, ""):
        from newscrawl.crawl.workers import reextract_workers

        project.set("NEWSCRAWL_EXTRACT_WORKERS", reextract_workers(), "default")
    for key, value in {**REEXTRACT_SETTINGS, **(settings or {})}.items():
        project.set(key, value, "cmdline")
    base = project.getdict("EXTENSIONS_BASE")
    for name in REEXTRACT_WITHOUT_EXTENSIONS:
        base.pop(name, None)
    project.set("EXTENSIONS_BASE", base, project.getpriority("EXTENSIONS_BASE") or "default")
    return project


def reextract(
    paths: list[str], *, site: str | None = None, settings: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Run site ``site``'s spider and the pipelines over WARC ``paths``; returns the crawl stats.

    The spider starts from every archived response it handled when the archive was made (with the kind
    it meant then), so the records are those of the original crawl, extracted by today's code. Links to
    pages the archives do not hold are ignored and counted. ``site`` defaults to the spider named in the
    archives' metadata; archives of several spiders need it. ``settings`` override the project's (the
    sinks, ``FEEDS``, the extractor...). Raises :class:`ConfigError` for a bad archive or site.

    The crawl runs on :class:`~newscrawl.crawl.replay.ArchiveEngine` (the spider and the pipelines over the
    archive, without Scrapy's scheduler and downloader).
    """
    from scrapy.crawler import CrawlerProcess

    from newscrawl.crawl.config import on_start_up_error
    from newscrawl.crawl.replay import ArchiveCrawler
    from newscrawl.storage.warc import ArchiveReader

    try:
        reader = ArchiveReader(paths)
    except ValueError as e:
        raise ConfigError(str(e)) from e
    names = reader.spiders()
    if site is None:
        if len(names) != 1:
            found = ", ".join(names) or "none (not made by newscrawl?)"
            raise ConfigError(f"--site: the archives name {len(names)} spiders ({found}); say which one")
        site = names[0]
    points = reader.start_points()
    if not points:
        raise ConfigError("the archives hold no response a newscrawl spider handled (no newscrawl metadata)")
    process = CrawlerProcess(reextract_settings(settings))
    try:
        spidercls = process.spider_loader.load(site)
    except KeyError as e:
        raise ConfigError(f"--site: no spider named {site!r}") from e
    look_ahead(reader, points, spidercls, process.settings)
    crawler = ArchiveCrawler(spidercls, process.settings, reader, points, init_reactor=True)
    failed: list[BaseException] = []
    on_start_up_error(process.crawl(crawler), failed.append)
    process.start()
    reader.close()
    if failed:
        raise failed[0]
    return dict(crawler.stats.get_stats()) if crawler.stats else {}


def look_ahead(reader: Any, points: list[tuple[str, str]], spidercls: Any, settings: Settings) -> bool:
    """Have the extraction workers forked ahead (:func:`newscrawl.cli.warc.start_workers`) extract the
    archive's pages before the replay asks for them (:mod:`newscrawl.crawl.lookahead`), each its share,
    from now -- while this process builds the crawler -- on. ``points`` are the replay's start points in
    its order; the task of each is made as the spider and stage 1 make it, from ``settings`` as the
    spider's crawl has them. Nothing when the crawl extracts inline, without a worker forked ahead, or for
    a spider that is not a site's; False then."""
    from newscrawl.crawl import workers
    from newscrawl.crawl.config import ExtractorOptions, extract_workers, with_defaults
    from newscrawl.crawl.lookahead import ArchiveLookahead
    from newscrawl.pipelines.extraction import ExtractionPipeline
    from newscrawl.spiders.news import NewsSpider, site_fields

    if not (isinstance(spidercls, type) and issubclass(spidercls, NewsSpider)):
        return False
    copy = settings.copy()
    spidercls.update_settings(copy)
    crawl = with_defaults(copy)
    try:
        count = extract_workers(crawl)
        if not crawl.getbool("NEWSCRAWL_EXTRACT_ENABLED") or count < 1:
            return False
        options = ExtractorOptions.from_settings(crawl)
    except (ConfigError, ValueError):
        return False  # the crawl's settings check says what is wrong
    site = spidercls.site
    pipeline = ExtractionPipeline(options, fingerprint=crawl.getbool("NEWSCRAWL_DEDUP"))
    template = pipeline.task({"url": "", **site_fields(site)}, b"")
    pages: list[tuple[ArchiveEntry, str | None]] = []
    for url, kind in points:  # the spider's routes (NewsSpider._route) of an HTML page
        if kind == "article" or (kind == "auto" and site.is_article(url)):
            pages.append((reader.index[url], "article"))  # the URL says article: no classifier
        elif kind == "auto" and not site.is_list(url):
            pages.append((reader.index[url], None))  # the classifier decides, in the worker
    lookahead = ArchiveLookahead(template, pages)
    return workers.look_ahead(workers.run_page_job, workers.warm_extraction, lookahead, count)
