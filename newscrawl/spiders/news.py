"""The generic news spider. One subclass per site file is made by :func:`spider_class_for`.

How a response is handled:

* JSON (a roll feed) and XML (sitemap, news sitemap, RSS, Atom) give entries to follow;
* an HTML page whose URL matches an article pattern becomes an item (stage 1 extracts it);
* a page matching a list pattern, or a start page, is followed: its links matching the patterns;
* any other page is extracted once and its ``page_kind`` decides: a list has its entries followed, an
  article becomes an item carrying that extraction (so the pipeline does not extract it again). With
  extraction workers (``NEWSCRAWL_EXTRACT_WORKERS`` > 0) the extraction pipeline lends them to the spider
  (:meth:`NewsSpider.extract_with`): such pages, and later pages of split articles, are extracted by a
  worker while the reactor goes on (the callback is then a coroutine); without, here.

Arguments: ``-a start_urls=URL,URL`` (crawl these instead of the site's start points),
``-a max_pages=N`` (request at most N pages), ``-a since=YYYY-MM-DD`` (skip entries and drop articles
published before that day, in the site's time zone), ``-a base_url=http://host:port`` (the site's start
points moved to another host, e.g. a local mirror or the demo server).
"""

from __future__ import annotations

import logging
import re
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, ClassVar
from urllib.parse import unquote, urldefrag, urlsplit
from zoneinfo import ZoneInfo

import scrapy
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DontCloseSpider
from scrapy.http import Response, TextResponse
from scrapy.linkextractors import LinkExtractor
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred

from newscrawl.crawl.config import ConfigError, ExtractorOptions, limits_from_settings, with_defaults
from newscrawl.crawl.sites import Site
from newscrawl.crawl.warc import FETCHED_AT_META
from newscrawl.crawl.workers import Fingerprint, PageResult
from newscrawl.extract import Extraction, Limits, extract
from newscrawl.extract.limits import LimitExceeded, check_attributes
from newscrawl.extract.metadata.dates import before, parse_stamp
from newscrawl.extract.pager import (
    MAX_PAGES,
    continuation_urls,
    first_page,
    may_link_later_pages,
    page_number,
)
from newscrawl.extract.urls import normalize_url
from newscrawl.items import NewsItem
from newscrawl.pipelines.extraction import looks_binary
from newscrawl.spiders.feeds import (
    MAX_FEED_ENTRIES,
    FeedEntry,
    iter_xml_feed,
    looks_like_json,
    looks_like_xml,
    parse_roll_feed,
)

logger = logging.getLogger(__name__)

#: scheduler backlog below which the next queued child sitemap is requested (enough pages to keep the
#: downloader busy while it is fetched)
SITEMAP_RELEASE_BACKLOG = 1_000
#: meta key of a child sitemap's request
CHILD_SITEMAP_META = "newscrawl_child_sitemap"
#: extraction somewhere else: (the page's item, its body) -> a Deferred firing with the page's result
Offload = Callable[[NewsItem, bytes], "Deferred[PageResult]"]
_CHARSET = re.compile(r"charset\s*=\s*[\"']?([\w.:-]+)", re.IGNORECASE)


def _split_arg(value: str | Iterable[str] | None) -> list[str]:
    if value is None:
        return []
    items = value.split(",") if isinstance(value, str) else list(value)
    return [v.strip() for v in items if v and v.strip()]


def header_charset(response: Response) -> str | None:
    """The charset the Content-Type header declares, if any."""
    value = response.headers.get(b"Content-Type")
    if not value:
        return None
    m = _CHARSET.search(value.decode("latin-1"))
    return m.group(1) if m else None


def may_link_to(body: bytes, url: str) -> bool:
    """A cheap test on the raw page: False when ``body`` cannot hold a link to ``url``, as no link to it
    can be written without its file name or its query, percent-encoded or not.

    Parsing a page for its links costs more than the rest of the spider's work on it, and every page
    whose URL is shaped like page 2+ of a split article (``..._2.html``) is checked for a link back to
    its first page.

    >>> may_link_to(b'<a href="doc-ix.shtml">1</a>', "https://n.cn/a/doc-ix.shtml")
    True
    >>> may_link_to(b'<a href="doc-iy.shtml">1</a>', "https://n.cn/a/doc-ix.shtml")
    False
    >>> may_link_to(b'<a href="?id=7&amp;x=1">1</a>', "https://n.cn/show?id=7&x=1")
    True
    """
    parts = urlsplit(url)
    name = parts.path.rsplit("/", 1)[-1]
    if not name:
        return True  # a folder's URL (``/a/``) may be written many ways: parse
    needles = {name, unquote(name)}
    if parts.query:  # a link may be the query alone (``?id=7``)
        needles |= {parts.query, parts.query.replace("&", "&amp;"), unquote(parts.query)}
    return any(needle.encode("utf-8", "surrogateescape") in body for needle in needles)


@dataclass(slots=True)
class SplitArticle:
    """A split article being assembled: its first page's item, the pages to fetch, the texts so far."""

    item: NewsItem
    pending: list[str]
    seen: set[str]
    texts: list[str] = field(default_factory=list)


class NewsSpider(scrapy.Spider):
    """Crawls one site as its :class:`~newscrawl.crawl.sites.Site` describes (set on generated subclasses)."""

    site: ClassVar[Site]

    def __init__(
        self,
        name: str | None = None,
        start_urls: str | Iterable[str] | None = None,
        max_pages: str | int | None = None,
        since: str | None = None,
        base_url: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(name, **kwargs)
        if getattr(self, "site", None) is None:
            raise ConfigError(f"{type(self).__name__} has no site definition; crawl one of the site spiders")
        self.given_start_urls = _split_arg(start_urls)
        for url in self.given_start_urls:
            if not url.startswith(("http://", "https://")):
                raise ConfigError(f"start_urls: not an absolute http(s) URL: {url!r}")
        try:
            self.max_pages = int(max_pages) if max_pages not in (None, "") else None
        except ValueError as e:
            raise ConfigError(f"max_pages: expected a whole number, got {max_pages!r}") from e
        if self.max_pages is not None and self.max_pages < 1:
            raise ConfigError(f"max_pages: must be at least 1, got {max_pages!r}")
        self.since: datetime | None = None
        if since:
            try:
                day = datetime.strptime(str(since), "%Y-%m-%d")
            except ValueError as e:
                raise ConfigError(f"since: expected a date as YYYY-MM-DD, got {since!r}") from e
            self.since = day.replace(tzinfo=ZoneInfo(self.site.timezone) if self.site.timezone else UTC)
        if base_url and not re.match(r"^https?://[^/\s]+/?$", base_url):
            raise ConfigError(
                f"base_url: expected scheme and host such as http://127.0.0.1:8000, got {base_url!r}"
            )
        self.base_url = base_url.rstrip("/") if base_url else None
        self._requested: set[str] = set()
        #: split articles waiting for their later pages, by first-page URL
        self._split: dict[str, SplitArticle] = {}
        #: the extractor options of the crawl's settings (None: extraction off), read at the first page
        self._extractor: ExtractorOptions | None = None
        self._extractor_read = False
        #: the crawl's per-page limits, read at the first page (they guard every parse)
        self._page_limits: Limits | None = None
        #: entries followed per feed, sitemap or list page (NEWSCRAWL_MAX_FEED_ENTRIES in a crawl)
        self.max_feed_entries = MAX_FEED_ENTRIES
        #: child sitemaps of sitemap indexes, waiting to be requested one at a time
        self._sitemaps: deque[str] = deque()
        self._sitemaps_seen: set[str] = set()
        self._sitemap_in_flight = False
        # domains are left to the offsite middleware (LinkExtractor.allow_domains ignores hosts with a port)
        self._links = LinkExtractor(unique=True)
        #: extraction in worker processes, set by the extraction pipeline when it has workers
        self._offload: Offload | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> NewsSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.max_feed_entries = with_defaults(crawler.settings).getint("NEWSCRAWL_MAX_FEED_ENTRIES")
        crawler.signals.connect(spider._on_idle, signal=signals.spider_idle)
        return spider

    # -- requests -------------------------------------------------------------------------------------

    def _inc(self, key: str, count: int = 1) -> None:
        if self.crawler is not None and self.crawler.stats is not None:
            self.crawler.stats.inc_value(key, count)

    def _request(self, url: str, kind: str, *, dont_filter: bool = False) -> scrapy.Request | None:
        """A request for ``url`` handled as ``kind`` (auto, article, list, roll, feed); None over budget."""
        url = normalize_url(url)
        if self.max_pages is not None:
            if url in self._requested:
                return None
            if len(self._requested) >= self.max_pages:
                self._inc("newscrawl/skipped/max_pages")
                return None
            self._requested.add(url)
        meta = self._meta(url, kind)
        return scrapy.Request(url, self.parse, cb_kwargs={"kind": kind}, meta=meta, dont_filter=dont_filter)

    def _meta(self, url: str, kind: str) -> dict[str, Any]:
        """A request's meta: how the page is handled, and whether a headless browser fetches it."""
        meta: dict[str, Any] = {"newscrawl_kind": kind}
        if kind not in ("roll", "feed") and self.site.needs_render(url):
            meta["playwright"] = True  # scrapy-playwright's handler (newscrawl.crawl.render.RenderAddon)
            self._inc("newscrawl/render/requests")
        return meta

    def start_points(self) -> Iterator[tuple[str, str]]:
        """(url, kind) of every start point: the given start URLs, or the site's."""
        if self.given_start_urls:
            for url in self.given_start_urls:
                yield url, "auto"
            return
        site = self.site
        points = [(u, "list") for u in site.pages] + [(u, "roll") for u in site.roll_urls()]
        points += [(u, "feed") for u in (*site.feeds, *site.sitemaps)]
        for url, kind in points:
            yield (self.rebase(url), kind)

    def rebase(self, url: str) -> str:
        """``url`` moved to ``base_url`` (scheme and host), when the spider was given one."""
        if not self.base_url:
            return url
        parts = urlsplit(url)
        rest = parts.path + (f"?{parts.query}" if parts.query else "")
        return self.base_url + (rest or "/")

    async def start(self) -> AsyncIterator[Any]:
        for url, kind in self.start_points():
            # start points are revisited on every run (incremental crawls look for new links there)
            request = self._request(url, kind, dont_filter=True)
            if request is not None:
                yield request

    def _kind_of(self, url: str) -> str | None:
        if self.site.is_article(url):
            return "article"
        if self.site.is_list(url):
            return "list"
        return None

    def _too_old(self, published: str | None) -> bool:
        if self.since is None or not published:
            return False
        stamp = parse_stamp(published, slow=False)
        return stamp is not None and before(stamp, self.since)

    def _follow_entries(
        self, response: Response, entries: Iterable[FeedEntry], what: str | None = None
    ) -> Iterator[scrapy.Request]:
        """Requests for the entries of a feed, sitemap or list page, read lazily: at most
        ``max_feed_entries`` of them (the rest counted in ``newscrawl/feeds/entries_cut``). Child
        sitemaps of a sitemap index are queued and requested one at a time (:meth:`release_sitemaps`).
        ``what`` names a feed that must give entries (a warning and ``newscrawl/feeds/empty`` if not)."""
        seen = followed = 0
        for entry in entries:
            seen += 1
            if followed >= self.max_feed_entries:
                continue
            url = response.urljoin(entry.url)
            if self.site.is_denied(url):
                continue
            if self._too_old(entry.published_at):
                self._inc("newscrawl/skipped/too_old")
                continue
            followed += 1
            if entry.kind == "sitemap":
                self._queue_sitemap(url)
                continue
            request = self._request(url, self._kind_of(url) or "auto")
            if request is not None:
                yield request
        if what and not seen:
            self._inc("newscrawl/feeds/empty")
            logger.warning("%s %s gave no entries", what, response.url)
        if followed >= self.max_feed_entries and seen > followed:
            cut = seen - followed
            self._inc("newscrawl/feeds/entries_cut", cut)
            logger.warning(
                "%s lists more entries than NEWSCRAWL_MAX_FEED_ENTRIES=%d: %d not followed",
                response.url, self.max_feed_entries, cut,
            )
        yield from self.release_sitemaps()

    # -- child sitemaps, requested lazily -------------------------------------------------------------

    def _queue_sitemap(self, url: str) -> None:
        url = normalize_url(url)
        if url not in self._sitemaps_seen:  # an index listing itself, or a sitemap twice, is read once
            self._sitemaps_seen.add(url)
            self._sitemaps.append(url)

    def _scheduled(self) -> int | None:
        """Requests waiting in the scheduler (None when it cannot tell)."""
        try:
            scheduler = self.crawler.engine.scheduler  # Scrapy 2.19+; None before the crawl starts
            return len(scheduler) if scheduler is not None else None  # type: ignore[arg-type]
        except (AttributeError, RuntimeError, TypeError):  # no crawler or engine yet; a scheduler without len
            return None

    def release_sitemaps(self, idle: bool = False) -> Iterator[scrapy.Request]:
        """The next queued child sitemap's request, when none is in flight and the scheduler holds fewer
        than :data:`SITEMAP_RELEASE_BACKLOG` requests (``idle``: the crawl has nothing else to do).

        One sitemap's entries are scheduled before the next sitemap is fetched, so a site whose
        sitemaps list millions of URLs never has more than about one sitemap's worth in memory.
        """
        if idle:
            self._sitemap_in_flight = False
        while self._sitemaps and not self._sitemap_in_flight:
            scheduled = self._scheduled()
            if not idle and (scheduled is None or scheduled >= SITEMAP_RELEASE_BACKLOG):
                return
            request = self._request(self._sitemaps.popleft(), "feed", dont_filter=True)
            if request is not None:
                self._sitemap_in_flight = True
                meta = {**request.meta, CHILD_SITEMAP_META: True}
                yield request.replace(errback=self._sitemap_failed, meta=meta)
                return

    def _sitemap_failed(self, failure: Any) -> Iterator[scrapy.Request]:
        self._sitemap_in_flight = False
        logger.warning("sitemap not read: %s", failure.value)
        yield from self.release_sitemaps()

    def _on_idle(self) -> None:
        requests = list(self.release_sitemaps(idle=True))
        for request in requests:
            self.crawler.engine.crawl(request)
        if requests:
            raise DontCloseSpider

    def _limits(self) -> Limits:
        """The crawl's per-page limits (read once; also when extraction is off)."""
        if self._page_limits is None:
            settings = with_defaults(self.crawler.settings if self.crawler is not None else {})
            self._page_limits = limits_from_settings(settings)
        return self._page_limits

    def _parsable(self, response: TextResponse, what: str) -> bool:
        """False (logged, counted) when lxml must not parse the page: its attributes are over the limit."""
        try:
            check_attributes(response.text, self._limits())
        except LimitExceeded as e:
            self._inc("newscrawl/pages/unparsable_markup")
            logger.warning("%s skipped on %s: %s", what, response.url, e)
            return False
        return True

    def _follow_links(self, response: Response, list_page: bool = False) -> Iterator[scrapy.Request]:
        """Requests for the page's links that the site's patterns call articles or lists. On a
        ``list_page`` whose links match no article pattern (often an http/https or host slip in the
        site file), a warning names the page and a link, and ``newscrawl/lists/no_article_links`` counts."""
        if not isinstance(response, TextResponse) or not self._parsable(response, "links"):
            return
        try:
            links = self._links.extract_links(response)
        except Exception as e:  # a page too broken for the link extractor has no links to follow
            logger.warning("no links extracted from %s: %s", response.url, e)
            return
        articles = 0
        for link in links:
            kind = self._kind_of(link.url)
            articles += kind == "article"
            if kind is not None:
                request = self._request(link.url, kind)
                if request is not None:
                    yield request
        if list_page and links and not articles:
            self._inc("newscrawl/lists/no_article_links")
            logger.warning(
                "list page %s: none of its %d links matches an article pattern of %s (e.g. %s); "
                "check the scheme and host of patterns.article",
                response.url, len(links), self.site.source, links[0].url,
            )  # fmt: skip

    # -- responses ------------------------------------------------------------------------------------

    def parse(self, response: Response, kind: str = "auto", **kwargs: Any) -> Any:
        """The requests and items of a response: an iterator, or -- for a page the classifier must judge
        while extraction runs in worker processes -- a coroutine giving a list once a worker has
        extracted the page (the reactor goes on meanwhile)."""
        route = self._route(response, kind)
        if route == "classify" and self._offload is not None and not looks_binary(response.body):
            return self._classify_in_worker(response)
        return self._handle(response, route)

    def _route(self, response: Response, kind: str) -> str:
        """How a response is handled: roll, feed, not_text, article, list, or classify (the URL says
        nothing: the page-kind classifier decides)."""
        body = response.body
        if kind == "roll" or (kind in ("auto", "feed") and looks_like_json(body)):
            return "roll"
        if kind == "feed" or (kind == "auto" and looks_like_xml(body)):
            return "feed"
        if not isinstance(response, TextResponse):
            return "not_text"
        if kind == "article" or (kind == "auto" and self.site.is_article(response.url)):
            return "article"
        if kind == "list" or self.site.is_list(response.url):
            return "list"
        return "classify"

    def _handle(self, response: Response, route: str) -> Iterator[Any]:
        body = response.body
        if route == "roll":
            roll = self.site.roll_feed
            entries = parse_roll_feed(
                body, items=roll.items, url=roll.url, title=roll.title, published_at=roll.published_at
            )
            self._inc("newscrawl/pages/feed")
            yield from self._follow_entries(response, entries, "roll feed")
            return
        if route == "feed":
            self._inc("newscrawl/pages/feed")
            self._sitemaps_seen.add(normalize_url(response.url))
            yield from self._follow_entries(response, iter_xml_feed(body), "feed or sitemap")
            if response.meta.get(CHILD_SITEMAP_META):
                # in flight until its last entry is handed to Scrapy: Scrapy reads these requests as it
                # schedules them, and an article answered meanwhile found the scheduler nearly empty and
                # released the next sitemap (3 of 50,000 URLs each within 6,700 pages of the first)
                self._sitemap_in_flight = False
                yield from self.release_sitemaps()
            return
        yield from self.release_sitemaps()
        if route == "not_text":
            self._inc("newscrawl/pages/not_text")
            return
        if route == "article":
            self._inc("newscrawl/pages/article")
            yield from self._article(response, url_kind="article")
            if self.site.follow_from_articles:
                yield from self._follow_links(response)
            return
        if route == "list":
            self._inc("newscrawl/pages/list")
            yield from self._follow_links(response, list_page=True)
            return
        yield from self._classified(response, self._extract(response))

    async def _classify_in_worker(self, response: Response) -> list[Any]:
        out = list(self.release_sitemaps())
        extraction, fingerprint = await self._extract_in_worker(response)
        out.extend(self._classified(response, extraction, fingerprint))
        return out

    def _classified(
        self,
        response: Response,
        extraction: Extraction | None,
        fingerprint: Fingerprint | None = None,
    ) -> Iterator[Any]:
        """A page the classifier judged: a list has its entries followed, anything else is an article (a page
        whose body holds no text, kind ``empty``, is counted apart and dropped as ``no_text`` by stage 2; an
        error page served as a page, kind ``error``, is counted apart and dropped as ``error_page``)."""
        if extraction is not None and extraction.page_kind == "list":
            self._inc("newscrawl/pages/list")
            self._inc("newscrawl/pages/classified_list")
            yield from self._follow_entries(
                response, (FeedEntry(e.url, e.title, e.published_at) for e in extraction.entries)
            )
        elif extraction is not None and extraction.page_kind == "empty":
            self._inc("newscrawl/pages/classified_empty")
            yield from self._article(response, extraction, fingerprint=fingerprint)
        elif extraction is not None and extraction.page_kind == "error":
            self._inc("newscrawl/pages/classified_error")
            yield from self._article(response, extraction, fingerprint=fingerprint)
        else:
            self._inc("newscrawl/pages/article")
            self._inc("newscrawl/pages/classified_article")
            yield from self._article(response, extraction, fingerprint=fingerprint)
        yield from self._follow_links(response)

    # -- articles split over several pages ------------------------------------------------------------

    def _page_links(self, response: Response) -> list[str]:
        """Every link of the page, absolute."""
        if not isinstance(response, TextResponse) or not self._parsable(response, "pager links"):
            return []
        try:
            return [urldefrag(response.urljoin(h)).url for h in response.xpath("//a/@href").getall()]
        except Exception:  # a page too broken for the selector has no pager to follow
            return []

    def _article(
        self,
        response: Response,
        extraction: Extraction | None = None,
        url_kind: str | None = None,
        fingerprint: Fingerprint | None = None,
    ) -> Iterator[Any]:
        """The item of an article page; for the first page of a split article, the request for its next
        page (the item waits until every page is in); for a later page, the request for the first."""
        first = first_page(response.url)
        if first is not None and may_link_to(response.body, first) and first in self._page_links(response):
            # page 2+ of a split article (it links back to page 1): never a record of its own
            self._inc("newscrawl/multipage/later_page_seen")
            request = self._request(first, "article")
            if request is not None:
                yield request
            return
        item = self._item(response, extraction, url_kind=url_kind)
        if fingerprint is not None:
            item["fingerprint"] = fingerprint
        # parsing the page for its links costs more than the rest of this callback: only when its bytes
        # hold a link shaped like one of its later pages
        more = []
        if may_link_later_pages(response.url, response.body):
            more = continuation_urls(response.url, self._page_links(response))
        if not more:
            yield item
            return
        self._inc("newscrawl/multipage/articles")
        first = urldefrag(response.url).url
        self._split[first] = SplitArticle(item, list(more), set(more))
        yield self._next_page(first)

    def _next_page(self, first: str) -> Any:
        """The request for the split article's next page, or its item when every page is in."""
        state = self._split[first]
        if not state.pending or len(state.texts) + 1 >= MAX_PAGES:
            del self._split[first]
            state.item["more_texts"] = state.texts
            self._inc("newscrawl/multipage/pages", len(state.texts) + 1)
            return state.item
        url = state.pending.pop(0)
        return scrapy.Request(
            url,
            callback=self.parse_later_page,
            errback=self.later_page_failed,
            cb_kwargs={"first": first},
            meta={**self._meta(url, "later_page"), "newscrawl_first_page": first},
            dont_filter=True,  # this article's page, whatever else asked for the URL
            priority=10,  # finish the article before its item's memory is held long
        )

    def parse_later_page(self, response: Response, first: str) -> Any:
        """Page 2, 3, ... of a split article: its text joins the first page's item (extracted by a worker
        when there are workers: the callback is then a coroutine)."""
        state = self._split.get(first)
        if state is None:
            # the first page's state is gone (a resumed JOBDIR, another process): start the article again
            self._inc("newscrawl/multipage/restarted")
            request = scrapy.Request(
                first, callback=self.parse, cb_kwargs={"kind": "article"},
                meta=self._meta(first, "article"), dont_filter=True,
            )  # fmt: skip
            return [request]
        if self._offload is not None and not looks_binary(response.body):
            return self._later_page_in_worker(response, first)
        return [self._later_page(response, first, self._extract(response))]

    async def _later_page_in_worker(self, response: Response, first: str) -> list[Any]:
        extraction, _ = await self._extract_in_worker(response)
        return [self._later_page(response, first, extraction)]

    def _later_page(self, response: Response, first: str, extraction: Extraction | None) -> Any:
        state = self._split[first]
        if extraction is not None and not extraction.error and extraction.text:
            state.texts.append(extraction.text)
        else:
            self._inc("newscrawl/multipage/page_without_text")
        for url in continuation_urls(first, self._page_links(response)):
            if url not in state.seen:
                state.seen.add(url)
                state.pending.append(url)
        state.pending.sort(key=lambda u: page_number(u, first) or 0)
        return self._next_page(first)

    def later_page_failed(self, failure: Any) -> Iterator[Any]:
        """A later page could not be fetched: the article is stored with the pages that came in."""
        first = failure.request.cb_kwargs.get("first")
        logger.warning("page of a split article lost: %s: %s", failure.request.url, failure.value)
        self._inc("newscrawl/multipage/page_failed")
        if first in self._split:
            yield self._next_page(first)

    def extract_with(self, offload: Offload | None) -> None:
        """Have pages this spider extracts itself (those the classifier must judge, later pages of split
        articles) extracted by ``offload`` -- the extraction pipeline's worker processes -- instead of on
        the reactor thread; None: extract here again."""
        self._offload = offload

    async def _extract_in_worker(self, response: Response) -> tuple[Extraction, Fingerprint | None]:
        """The page's extraction (and its text's fingerprint) made by a worker process."""
        assert self._offload is not None
        self._inc("newscrawl/extract/count")
        result = await maybe_deferred_to_future(self._offload(self._item(response), response.body))
        return result.extraction, result.fingerprint

    def _extract(self, response: Response) -> Extraction | None:
        if not self._extractor_read:
            settings = with_defaults(self.crawler.settings if self.crawler is not None else {})
            if settings.getbool("NEWSCRAWL_EXTRACT_ENABLED"):
                self._extractor = ExtractorOptions.from_settings(settings)
            self._extractor_read = True
        options = self._extractor
        if options is None:
            return None
        if looks_binary(response.body):
            return None  # stage 1 drops it and counts it
        self._inc("newscrawl/extract/count")
        return extract(
            response.body,
            response.url,
            algorithm=options.algorithm,
            http_charset=header_charset(response),
            timezone=self.site.timezone,
            reference_time=fetched_at(response),
            prune_xpath=self.site.exclude,
            field_xpaths=self.site.xpath,
            limits=options.limits,
            **options.params,
        )

    def _item(
        self, response: Response, extraction: Extraction | None = None, url_kind: str | None = None
    ) -> NewsItem:
        """The item of an article page; ``url_kind`` "article" when the URL patterns say so (stage 1 then
        skips the page-kind classifier)."""
        item = NewsItem(
            url=response.url,
            site=self.name,
            crawled_at=fetched_at(response).isoformat(timespec="seconds"),
            body=response.body,
            http_charset=header_charset(response),
            **site_fields(self.site),
        )
        if extraction is not None:
            item["extraction"] = extraction
        if url_kind is not None:
            item["url_kind"] = url_kind
        return item


def site_fields(site: Site) -> dict[str, Any]:
    """The fields every article item of ``site`` carries from its site file (stage 1 extracts with them)."""
    fields: dict[str, Any] = {"timezone": site.timezone}
    if site.language:
        fields["language"] = site.language
    if site.exclude:
        fields["prune_xpath"] = site.exclude
    if site.xpath:
        fields["field_xpaths"] = site.xpath
    return fields


def fetched_at(response: Response) -> datetime:
    """When the page was fetched, whole seconds, UTC: the time its archive record carries
    (``FETCHED_AT_META``, set by the WARC writer in a crawl and from the record's WARC-Date in a
    replay), else now. It is the record's ``crawled_at`` and the reference of its relative publish
    times ("3小时前"), so re-extracting an archive resolves them as the crawl did."""
    fetched = response.meta.get(FETCHED_AT_META) if response.request is not None else None
    if not isinstance(fetched, datetime):
        fetched = datetime.now(UTC)
    return fetched.astimezone(UTC).replace(microsecond=0)


def spider_class_for(site: Site) -> type[NewsSpider]:
    """A :class:`NewsSpider` subclass named after ``site``, carrying its domains and Scrapy settings."""
    class_name = "".join(part.capitalize() for part in re.split(r"[-_]", site.name)) + "Spider"
    if class_name[0].isdigit():
        class_name = "Site" + class_name
    return type(
        class_name,
        (NewsSpider,),
        {
            "name": site.name,
            "site": site,
            "allowed_domains": list(site.allowed_domains),
            # a site that renders pages switches on the headless-browser add-on (newscrawl.crawl.render)
            "custom_settings": {**site.settings, **({"NEWSCRAWL_RENDER": True} if site.renders else {})},
            "__module__": __name__,
            "__doc__": f"News spider for site {site.name!r} ({site.source}).",
        },
    )
