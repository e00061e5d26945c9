"""Downloader middlewares: web-archive replay, incremental skipping of stored articles, and robots.txt."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.downloadermiddlewares import redirect, robotstxt
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import HtmlResponse, Response
from scrapy.statscollectors import StatsCollector
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet.defer import Deferred

from newscrawl.crawl.config import ConfigError, with_defaults
from newscrawl.storage.sqlite import SqliteSink

logger = logging.getLogger(__name__)

ORIGINAL_URL_META = "newscrawl_original_url"
#: the timestamp and modifier a replay server may put between its prefix and the URL (pywb: 20201231mp_/)
_ARCHIVE_STAMP = re.compile(r"^\d{1,14}[a-z]{0,3}_?/")


class ReplayMiddleware:
    """Fetches every request from ``prefix`` + original URL; responses keep the original URL.

    ``NEWSCRAWL_REPLAY_PREFIX = "http://127.0.0.1:8080/"`` replays from a pywb-style server. Redirects
    within the replay server are followed and mapped back to the original URLs they stand for.
    """

    def __init__(self, prefix: str, stats: StatsCollector | None = None) -> None:
        if not prefix.startswith(("http://", "https://")):
            raise ConfigError(f"NEWSCRAWL_REPLAY_PREFIX: not an http(s) URL prefix: {prefix!r}")
        self.prefix = prefix
        self.stats = stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ReplayMiddleware:
        prefix = crawler.settings.get("NEWSCRAWL_REPLAY_PREFIX")
        if not prefix:
            raise NotConfigured  # no message: an unset prefix is the normal case, not worth a warning
        return cls(prefix, crawler.stats)

    def original_url(self, url: str) -> str:
        """The URL a replay URL stands for (``url`` itself when it is not a replay URL)."""
        if not url.startswith(self.prefix):
            return url
        rest = url[len(self.prefix) :]
        return _ARCHIVE_STAMP.sub("", rest, count=1)

    def process_request(self, request: Request) -> Request | None:
        if request.url.startswith(self.prefix):
            return None
        if self.stats is not None:
            self.stats.inc_value("newscrawl/replay/rewritten")
        # offsite, incremental and robots.txt checks ran on the original URL (this middleware comes after
        # them); the rewritten request must not be checked again against the replay server's host
        meta = dict(request.meta, allow_offsite=True, dont_obey_robotstxt=True)
        meta[ORIGINAL_URL_META] = request.url
        # the original request already passed the duplicate filter; the rewritten one must not be dropped
        return request.replace(url=self.prefix + request.url, meta=meta, dont_filter=True)

    def process_response(self, request: Request, response: Response) -> Response:
        if ORIGINAL_URL_META not in request.meta:
            return response
        return response.replace(url=self.original_url(response.url))


class StoredArticlesMiddleware:
    """Incremental crawling: ignores requests for article pages already stored in the SQLite sink.

    Only requests the spider marks as articles (``meta["newscrawl_kind"] == "article"``) are skipped, so
    list pages and feeds are revisited for new links. ``NEWSCRAWL_INCREMENTAL = False`` switches it off.
    """

    def __init__(self, path: str, stats: StatsCollector | None = None) -> None:
        self.path = path
        self.stats = stats
        self._known: set[str] | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> StoredArticlesMiddleware:
        settings = with_defaults(crawler.settings)
        path = settings.get("NEWSCRAWL_SQLITE_PATH")
        if not settings.getbool("NEWSCRAWL_INCREMENTAL") or not path:
            raise NotConfigured
        return cls(path, crawler.stats)

    def known(self) -> set[str]:
        if self._known is None:
            self._known = set()
            if Path(self.path).is_file():
                sink = SqliteSink(self.path)
                sink.open()
                try:
                    self._known = sink.known_urls()
                finally:
                    sink.close()
            logger.info("incremental crawl: %d stored URLs in %s", len(self._known), self.path)
        return self._known

    def process_request(self, request: Request) -> Any:
        if request.meta.get("newscrawl_kind") != "article":
            return None
        if request.url in self.known():
            if self.stats is not None:
                self.stats.inc_value("newscrawl/skipped/stored")
            raise IgnoreRequest(f"already stored: {request.url}")
        return None


#: bytes of a robots.txt read, as Google does (RFC 9309 asks crawlers to read at least 500 KiB); a 15 MB
#: file took 12 s and 0.9 GB to parse and then 0.56 s per URL checked
ROBOTSTXT_MAX_BYTES = 500 * 1024


def cap_robots(body: bytes, max_bytes: int = ROBOTSTXT_MAX_BYTES) -> bytes:
    r"""The first ``max_bytes`` of a robots.txt, cut after the last whole line.

    >>> cap_robots(b"User-agent: *\nDisallow: /a\nDisallow: /b", 30)
    b'User-agent: *\nDisallow: /a\n'
    """
    if len(body) <= max_bytes:
        return body
    end = body.rfind(b"\n", 0, max_bytes)
    return body[: end + 1] if end >= 0 else body[:max_bytes]


class RobotsTxtMiddleware(robotstxt.RobotsTxtMiddleware):
    """Scrapy's robots.txt middleware with the wait for a robots.txt still in flight fixed, and
    robots.txt files read up to :data:`ROBOTSTXT_MAX_BYTES` (stat ``robotstxt/truncated``).

    Scrapy 2.19 has every request that arrives while a host's robots.txt is downloading await the same
    Deferred; the first waiter's callback consumes the result, so the other waiters get ``None`` and go
    ahead unchecked (seen here when a resumed JOBDIR crawl fetched a disallowed page). Each waiter gets
    its own Deferred, relayed from the shared one, as Scrapy did before scrapy/scrapy#6802.
    """

    async def robot_parser(self, request: Request) -> Any:
        pending = self._parsers.get(urlparse_cached(request).netloc)
        if not isinstance(pending, Deferred):
            return await super().robot_parser(request)
        mine: Deferred[Any] = Deferred()

        def relay(result: Any) -> Any:
            mine.callback(result)
            return result  # leave the result for the next waiter

        pending.addCallback(relay)
        return await maybe_deferred_to_future(mine)

    async def _parse_robots(self, response: Response, netloc: str, request: Request) -> None:
        body = cap_robots(response.body)
        if len(body) < len(response.body):
            self._stats.inc_value("robotstxt/truncated")
            logger.warning(
                "robots.txt of %s is %d bytes: only the first %d read", netloc, len(response.body), len(body)
            )
            response = response.replace(body=body)
        await super()._parse_robots(response, netloc, request)


#: bytes that hold the first 4,096 characters of a page, where Scrapy looks for a meta refresh (4 bytes a
#: character at most in UTF-8 and GB18030)
META_REFRESH_BYTES = 4 * 4096
_REFRESH = re.compile(rb"refresh", re.IGNORECASE)


def may_refresh(body: bytes) -> bool:
    """False when the head of ``body`` cannot hold a meta refresh: no "refresh" in its bytes (a page in
    UTF-16 or UTF-32 is always looked at; a keyword spelt with character references is not seen).

    >>> may_refresh(b'<meta http-equiv="Refresh" content="0; url=/b">'), may_refresh(b"<p>text</p>")
    (True, False)
    """
    head = body[:META_REFRESH_BYTES]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in head[:64]:
        return True
    return _REFRESH.search(head) is not None


class MetaRefreshMiddleware(redirect.MetaRefreshMiddleware):
    """Scrapy's, without decoding every page on the reactor: Scrapy decodes the whole body of each HTML
    response to look for a refresh in its first 4,096 characters (0.35 ms of reactor CPU a page on the
    511 dataset pages of ``bench-crawl --pages-from``, whose text the spider never reads for an
    article); a response whose head holds no "refresh" (:func:`may_refresh`) goes on untouched."""

    def process_response(
        self, request: Request, response: Response, spider: Spider | None = None
    ) -> Request | Response:
        if isinstance(response, HtmlResponse) and not may_refresh(response.body):
            return response
        return super().process_response(request, response)
