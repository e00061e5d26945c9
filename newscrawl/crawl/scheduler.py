"""The Redis scheduler of distributed crawls: scrapy-redis's, fixed for Scrapy's async ``start()``.

See :mod:`newscrawl.crawl.distributed` for what is fixed and why, and the settings.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.spiders import Spider
from scrapy_redis.scheduler import Scheduler

from newscrawl.crawl import defaults
from newscrawl.crawl.config import with_defaults

logger = logging.getLogger(__name__)



class RedisScheduler(Scheduler):  # type: ignore[misc]
    """scrapy-redis's scheduler with start requests once per crawl and last-one-out cleanup."""

    def __init__(
        self, server: Any, *, key_prefix: str = defaults.NEWSCRAWL_REDIS_PREFIX, **kwargs: Any
    ) -> None:
        kwargs["idle_before_close"] = 0  # never block the reactor in a pop
        super().__init__(server, **kwargs)
        self.key_prefix = key_prefix
        self.start_key = ""
        self.workers_key = ""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RedisScheduler:
        settings = with_defaults(crawler.settings)
        base = super().from_settings(settings)
        instance = cls(
            base.server,
            key_prefix=settings.get("NEWSCRAWL_REDIS_PREFIX") or defaults.NEWSCRAWL_REDIS_PREFIX,
            persist=base.persist,
            flush_on_start=base.flush_on_start,
            queue_key=base.queue_key,
            queue_cls=base.queue_cls,
            dupefilter=base.df,
            dupefilter_key=base.dupefilter_key,
            dupefilter_cls=base.dupefilter_cls,
            serializer=base.serializer,
        )
        instance.stats = crawler.stats
        # An idle engine asks the scheduler for requests only on its heartbeat (5 s): too slow to notice
        # links other processes push, so an idle process would sit out most of a crawl. Scrapy has no
        # setting for it; the engine's class attribute is overridden on this engine instance.
        poll = settings.getfloat("NEWSCRAWL_REDIS_POLL_INTERVAL")
        if crawler.engine is not None and poll > 0:
            crawler.engine._SLOT_HEARTBEAT_INTERVAL = poll
        return instance

    def open(self, spider: Spider) -> None:
        super().open(spider)
        self.start_key = f"{self.key_prefix}:{spider.name}:start"
        self.workers_key = f"{self.key_prefix}:{spider.name}:workers"
        workers = self.server.incr(self.workers_key)
        logger.info(
            "distributed crawl: frontier %s at %s, %d process(es) on it",
            self.queue.key, _where(self.server), workers,
        )

    def close(self, reason: str) -> None:
        remaining = self.server.decr(self.workers_key)
        if remaining <= 0 and not self.persist:
            self.flush()
            self.server.delete(self.start_key, self.workers_key)
            logger.info("distributed crawl: last process out, frontier %s cleared", self.queue.key)

    def enqueue_request(self, request: Request) -> bool:
        meta = request.meta
        if request.dont_filter and meta.get("is_start_request") and not meta.get("retry_times"):
            fingerprint = hashlib.sha1(f"{request.method} {request.url}".encode()).hexdigest()
            if not self.server.sadd(self.start_key, fingerprint):
                if self.stats is not None:
                    self.stats.inc_value("newscrawl/redis/start_taken_elsewhere")
                return False
        if not request.dont_filter and self.df.request_seen(request):
            self.df.log(request, self.spider)
            return False
        if self.stats is not None:
            self.stats.inc_value("scheduler/enqueued/redis")
        self.queue.push(request)
        return True

    def next_request(self) -> Request | None:
        request = self.queue.pop(0)
        if request is not None and self.stats is not None:
            self.stats.inc_value("scheduler/dequeued/redis")
        return request



def _where(server: Any) -> str:
    kwargs = server.connection_pool.connection_kwargs
    return f"{kwargs.get('host', '?')}:{kwargs.get('port', '?')}/{kwargs.get('db', 0)}"
