"""Distributed crawling on Redis (scrapy-redis): several crawler processes share one frontier.

Switched on by ``NEWSCRAWL_REDIS_URL`` (setting or environment variable, e.g. ``redis://127.0.0.1:6379/0``):
the add-on :class:`RedisAddon` (in ``ADDONS``) then installs
:class:`~newscrawl.crawl.scheduler.RedisScheduler` with scrapy-redis's
Redis-backed priority queue and duplicate filter, and :class:`IdleClose`. Keys start with
``NEWSCRAWL_REDIS_PREFIX`` (default ``newscrawl``) and the spider name, so crawls of different sites,
or tests, do not share a frontier by accident.

What scrapy-redis 0.9.1 (written before Scrapy's async ``start()``) gets wrong here, and the fixes:

* Start requests carry ``dont_filter=True`` (start points are revisited on every run), so every process
  would fetch every start page. :class:`RedisScheduler` lets each start request through once per crawl,
  cluster-wide (a Redis set of their fingerprints); retries still pass.
Those fixes live in :mod:`newscrawl.crawl.scheduler` (which imports scrapy-redis; this module does not).

* Its scheduler clears the shared queue and duplicate filter when *a* process closes, while the others
  still crawl (they would then fetch pages again). Here processes register in a Redis counter and the
  last one out clears the crawl's keys (unless ``SCHEDULER_PERSIST``, which keeps them to resume).
* ``SCHEDULER_IDLE_BEFORE_CLOSE`` is its blocking-pop timeout: it blocks the reactor, and with the
  default priority queue does nothing. Pops here never block; :class:`IdleClose` keeps an idle process
  open while another process has work in hand (downloads, pages or items in progress: each renews a
  busy mark in Redis every ``NEWSCRAWL_REDIS_POLL_INTERVAL`` while it has, which lapses after
  :data:`~newscrawl.crawl.scheduler.BUSY_MARK_SECONDS` if that process dies), since it may still add
  links, and then until the shared queue has stayed empty for ``NEWSCRAWL_REDIS_IDLE_CLOSE`` seconds
  (default 10 s).
* An idle engine asks its scheduler for requests every 5 s only (its heartbeat), so a second process
  would sit out a short crawl: the scheduler shortens the heartbeat to ``NEWSCRAWL_REDIS_POLL_INTERVAL``
  (default 0.5 s).
* An engine takes requests off the shared queue while fewer than ``CONCURRENT_REQUESTS`` are in its
  downloader (whatever the per-domain limit), so one process can hoard the frontier: for a crawl of one
  site, keep ``CONCURRENT_REQUESTS`` near ``CONCURRENT_REQUESTS_PER_DOMAIN``.
* Stats calls pass the spider argument Scrapy deprecated; here they do not.
* Requests are pickled on the queue, so whoever can write to the Redis runs code in every crawler:
  here they are JSON (:mod:`newscrawl.crawl.wire`), checked when read; entries that do not parse are
  dropped and counted.
* A Redis outage raised in every call (links found meanwhile were lost, the crawl said 'finished') and a
  hung Redis froze the reactor (30 s timeouts, retried): here calls time out after
  ``NEWSCRAWL_REDIS_TIMEOUT`` (2 s), requests are held in the process until Redis answers again, and a
  crawl that loses any ends with ``redis_unavailable`` and exit code 1
  (``NEWSCRAWL_REDIS_OUTAGE_LIMIT``, 300 s; see :mod:`newscrawl.crawl.scheduler`).
"""

from __future__ import annotations

import importlib.util
import logging
import os
import time
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DontCloseSpider, NotConfigured
from scrapy.settings import BaseSettings
from scrapy.spiders import Spider

from newscrawl.crawl import defaults
from newscrawl.crawl.config import with_defaults

logger = logging.getLogger(__name__)

URL_SETTING = "NEWSCRAWL_REDIS_URL"
#: the finish reason of a crawl that gave up on an unreachable Redis (see newscrawl.crawl.scheduler)
REDIS_LOST = "redis_unavailable"


def redis_url(settings: BaseSettings) -> str | None:
    return settings.get(URL_SETTING) or os.environ.get(URL_SETTING) or None


class RedisAddon:
    """Turns distributed crawling on when ``NEWSCRAWL_REDIS_URL`` is set; does nothing otherwise."""

    def update_settings(self, settings: BaseSettings) -> None:
        url = redis_url(settings)
        if not url:
            return
        if importlib.util.find_spec("scrapy_redis") is None:
            raise RuntimeError(
                f"{URL_SETTING} is set but scrapy-redis is not installed: pip install 'newscrawl[redis]'"
            )
        prefix = settings.get("NEWSCRAWL_REDIS_PREFIX") or defaults.NEWSCRAWL_REDIS_PREFIX
        settings.set("REDIS_URL", url, priority="addon")
        settings.set("SCHEDULER", "newscrawl.crawl.scheduler.RedisScheduler", priority="addon")
        settings.set("DUPEFILTER_CLASS", "scrapy_redis.dupefilter.RFPDupeFilter", priority="addon")
        settings.set("SCHEDULER_QUEUE_KEY", f"{prefix}:%(spider)s:requests", priority="addon")
        settings.set("SCHEDULER_DUPEFILTER_KEY", f"{prefix}:%(spider)s:dupefilter", priority="addon")
        # requests cross the network as JSON (newscrawl.crawl.wire), never pickled: the scheduler uses it
        # whatever SCHEDULER_SERIALIZER says
        settings.set("SCHEDULER_SERIALIZER", "newscrawl.crawl.wire", priority="addon")
        # into EXTENSIONS whatever its priority: the project's own EXTENSIONS (summary, loop lag) outrank
        # an add-on's setting, and a plain set() here was silently ignored
        settings.setdefault_in_component_priority_dict("EXTENSIONS", IdleClose, 500)


class IdleClose:
    """Keeps an idle process open while another process on the frontier has work in hand (its scheduler's
    ``others_busy()``), and then until the shared queue has been empty for ``idle_close`` seconds."""

    def __init__(self, crawler: Crawler, idle_close: float = defaults.NEWSCRAWL_REDIS_IDLE_CLOSE) -> None:
        self.crawler = crawler
        self.idle_close = idle_close
        self._idle_since: float | None = None
        crawler.signals.connect(self.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(self.busy, signal=signals.request_scheduled)
        crawler.signals.connect(self.busy, signal=signals.response_received)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> IdleClose:
        settings = with_defaults(crawler.settings)
        if not redis_url(settings):
            raise NotConfigured(f"{URL_SETTING} is not set")
        return cls(crawler, settings.getfloat("NEWSCRAWL_REDIS_IDLE_CLOSE"))

    def busy(self, *args: Any, **kwargs: Any) -> None:
        self._idle_since = None

    def spider_idle(self, spider: Spider) -> None:
        now = time.monotonic()
        others_busy = getattr(getattr(self.crawler.engine, "scheduler", None), "others_busy", None)
        if others_busy is not None and others_busy():
            self._idle_since = now  # another process may still push links: wait for it
            raise DontCloseSpider("shared queue empty, another process still busy")
        if self._idle_since is None:
            self._idle_since = now
        if now - self._idle_since < self.idle_close:
            raise DontCloseSpider(f"shared queue empty for {now - self._idle_since:.1f} s")
        logger.info("distributed crawl: shared queue empty for %.0f s, closing", self.idle_close)
