"""The Redis scheduler of distributed crawls: scrapy-redis's, fixed for Scrapy's async ``start()``, with
requests as JSON and Redis outages survived.

See :mod:`newscrawl.crawl.distributed` for what is fixed and why, and the settings.

Outages. Every Redis call has a timeout (``NEWSCRAWL_REDIS_TIMEOUT``, connect and socket) and no
retries of its own, so a dead or hung Redis costs the reactor at most that long per attempt. When a call
fails, the scheduler holds the requests it is given (links found meanwhile) in memory, in order,
remembering which have already passed the shared duplicate filter; it tries Redis again after a back-off
(:data:`DEFAULT_BACKOFF` doubling to :data:`MAX_BACKOFF`) and logs a line when the outage starts, every
:data:`OUTAGE_LOG_EVERY` seconds while it lasts and when it ends. Once Redis answers, the held requests
go to the shared queue and the crawl goes on. While Redis cannot be seen the process does not count as
idle (the shared queue may still hold work). After ``NEWSCRAWL_REDIS_OUTAGE_LIMIT`` seconds it gives up:
the held requests are counted lost (``newscrawl/redis/lost``) and the crawl closes with finish reason
:data:`REDIS_LOST`, which ``scrapy crawl`` turns into exit code 1; so does any request still held when
the crawl closes for another reason.

Requests whose ``meta`` holds a value JSON cannot carry are crawled by this process
(``newscrawl/redis/kept_local``). Queue entries that are not requests this crawler accepts (a pickle,
anything :func:`newscrawl.crawl.wire.loads` refuses) are dropped, counted under
``newscrawl/redis/refused/<kind>`` and logged once per kind.
"""

from __future__ import annotations

import hashlib
import logging
import time
import uuid
from collections import deque
from typing import Any

from redis import Redis
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry
from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.settings import BaseSettings
from scrapy.spiders import Spider
from scrapy.utils.defer import deferred_from_coro
from scrapy.utils.misc import load_object
from scrapy_redis import defaults as sr_defaults
from scrapy_redis.dupefilter import RFPDupeFilter
from scrapy_redis.queue import PriorityQueue
from scrapy_redis.scheduler import Scheduler
from twisted.internet import task

from newscrawl.crawl import defaults, wire
from newscrawl.crawl.config import ConfigError, with_defaults
from newscrawl.crawl.distributed import REDIS_LOST, redis_url
from newscrawl.storage.redact import redact, secrets_of

logger = logging.getLogger(__name__)

#: first back-off delay in seconds between attempts to reach Redis; doubled after each failure
DEFAULT_BACKOFF = 0.5
MAX_BACKOFF = 8.0
#: seconds between "still unreachable" log lines
OUTAGE_LOG_EVERY = 10.0
#: refused queue entries skipped in one ``next_request`` call before it returns (the next call goes on)
MAX_REFUSED_PER_CALL = 100
#: what a Redis call raises when the server is gone or hung (not a command error)
REDIS_DOWN = (RedisConnectionError, RedisTimeoutError, OSError)
#: seconds a process's busy mark lives unless renewed (every NEWSCRAWL_REDIS_POLL_INTERVAL while it has
#: work in hand): a process killed or frozen for longer stops counting as busy for the others
BUSY_MARK_SECONDS = 10.0


def _positive(settings: BaseSettings, name: str) -> float:
    raw = settings.get(name)
    try:
        value = settings.getfloat(name)
    except (TypeError, ValueError):
        raise ConfigError(f"{name}: expected a number of seconds, got {raw!r}") from None
    if not value > 0 or value == float("inf"):
        raise ConfigError(f"{name}: must be a positive number of seconds, got {raw!r}")
    return value


def connect(url: str, timeout: float) -> Redis:
    """A client for ``url`` whose calls fail after ``timeout`` seconds, without retrying."""
    return Redis.from_url(
        url,
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
        retry_on_timeout=False,
        retry=Retry(NoBackoff(), 0),
        encoding=sr_defaults.REDIS_ENCODING,
    )


class RedisScheduler(Scheduler):  # type: ignore[misc]
    """scrapy-redis's scheduler with start requests once per crawl, last-one-out cleanup, JSON requests
    and outages survived (see the module docstring)."""

    def __init__(
        self,
        server: Any,
        *,
        key_prefix: str = defaults.NEWSCRAWL_REDIS_PREFIX,
        outage_limit: float = defaults.NEWSCRAWL_REDIS_OUTAGE_LIMIT,
        backoff: float = DEFAULT_BACKOFF,
        secrets: set[str] | None = None,
        **kwargs: Any,
    ) -> None:
        kwargs["idle_before_close"] = 0  # never block the reactor in a pop
        kwargs["serializer"] = wire  # never pickle: see newscrawl.crawl.wire
        super().__init__(server, **kwargs)
        self.key_prefix = key_prefix
        self.start_key = ""
        self.workers_key = ""
        self.outage_limit = outage_limit
        self.backoff = backoff
        self.secrets = secrets or set()
        self.crawler: Crawler | None = None
        self.df: Any = self.df  # scrapy-redis's, or the RFPDupeFilter made in open()
        #: requests waiting for Redis, in order, each with whether it has passed the shared filters
        self._held: deque[tuple[Request, bool]] = deque()
        #: requests this process crawls itself (they cannot be written as JSON)
        self._local: deque[Request] = deque()
        self._down_since: float | None = None
        self._next_try = 0.0
        self._delay = backoff
        self._last_log = 0.0
        self._gave_up = False
        self._local_logged = False
        self._refused_kinds: set[str] = set()
        self.lost = 0
        #: this process among those on the frontier, and its busy mark (see :meth:`others_busy`)
        self.process_id = uuid.uuid4().hex
        self.processes_key = ""
        self.busy_ttl = BUSY_MARK_SECONDS
        self.beat_interval = defaults.NEWSCRAWL_REDIS_POLL_INTERVAL
        self._marked = False
        self._beat: task.LoopingCall | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RedisScheduler:
        settings = with_defaults(crawler.settings)
        url = settings.get("REDIS_URL") or redis_url(settings)
        if not url:
            raise ConfigError("NEWSCRAWL_REDIS_URL: not set")
        secrets = secrets_of(url)
        timeout = _positive(settings, "NEWSCRAWL_REDIS_TIMEOUT")
        try:
            server = connect(url, timeout)
            server.ping()
        except ValueError as e:
            raise ConfigError(f"NEWSCRAWL_REDIS_URL: {redact(str(e), secrets)}") from None
        except RedisError as e:
            raise ConfigError(
                f"NEWSCRAWL_REDIS_URL: Redis at {_where(server)} unreachable: {redact(str(e), secrets)}"
            ) from None
        instance = cls(
            server,
            key_prefix=settings.get("NEWSCRAWL_REDIS_PREFIX") or defaults.NEWSCRAWL_REDIS_PREFIX,
            outage_limit=_positive(settings, "NEWSCRAWL_REDIS_OUTAGE_LIMIT"),
            secrets=secrets,
            persist=settings.getbool("SCHEDULER_PERSIST"),
            flush_on_start=settings.getbool("SCHEDULER_FLUSH_ON_START"),
            queue_key=settings.get("SCHEDULER_QUEUE_KEY") or sr_defaults.SCHEDULER_QUEUE_KEY,
            queue_cls=settings.get("SCHEDULER_QUEUE_CLASS") or sr_defaults.SCHEDULER_QUEUE_CLASS,
            dupefilter_key=settings.get("SCHEDULER_DUPEFILTER_KEY") or sr_defaults.SCHEDULER_DUPEFILTER_KEY,
            dupefilter_cls=settings.get("DUPEFILTER_CLASS") or sr_defaults.SCHEDULER_DUPEFILTER_CLASS,
        )
        instance.stats = crawler.stats
        instance.crawler = crawler
        # An idle engine asks the scheduler for requests only on its heartbeat (5 s): too slow to notice
        # links other processes push, so an idle process would sit out most of a crawl. Scrapy has no
        # setting for it; the engine's class attribute is overridden on this engine instance.
        poll = settings.getfloat("NEWSCRAWL_REDIS_POLL_INTERVAL")
        engine = _engine(crawler)
        if engine is not None and poll > 0:
            engine._SLOT_HEARTBEAT_INTERVAL = poll
            instance.beat_interval = poll
        return instance

    def open(self, spider: Spider) -> None:
        self.spider = spider
        self.queue = load_object(self.queue_cls)(
            server=self.server, spider=spider, key=self.queue_key % {"spider": spider.name},
            serializer=self.serializer,
        )
        if self.df is None:  # on the scheduler's own client, so its timeouts apply
            debug = spider.settings.getbool("DUPEFILTER_DEBUG") if spider.settings else False
            key = self.dupefilter_key % {"spider": spider.name}
            self.df = RFPDupeFilter(self.server, key=key, debug=debug)
        if self.flush_on_start:
            self.flush()
        self.start_key = f"{self.key_prefix}:{spider.name}:start"
        self.workers_key = f"{self.key_prefix}:{spider.name}:workers"
        self.processes_key = f"{self.key_prefix}:{spider.name}:processes"
        workers = self.server.incr(self.workers_key)
        self.server.sadd(self.processes_key, self.process_id)
        logger.info(
            "distributed crawl: frontier %s at %s, %d process(es) on it",
            self.queue.key, _where(self.server), workers,
        )
        if _engine(self.crawler) is not None:
            self._beat = task.LoopingCall(self.heartbeat)
            self._beat.start(self.beat_interval, now=True)

    def close(self, reason: str) -> None:
        if self._beat is not None and self._beat.running:
            self._beat.stop()
        if self._held and self._reachable():
            self._send_held()
        if self._held:
            self._give_up(f"the crawl closed ({reason}) with Redis unreachable", closing=True)
        try:
            self.server.delete(self._busy_key(self.process_id))
            self.server.srem(self.processes_key, self.process_id)
            remaining = self.server.decr(self.workers_key)
            if remaining <= 0 and not self.persist:
                self.flush()
                self.server.delete(self.start_key, self.workers_key, self.processes_key)
                logger.info("distributed crawl: last process out, frontier %s cleared", self.queue.key)
        except REDIS_DOWN as e:
            logger.warning(
                "distributed crawl: Redis at %s unreachable at close (%s); its keys are left as they are",
                _where(self.server), self._clean(e),
            )

    # -- the other processes ---------------------------------------------------------------------------

    def _busy_key(self, process_id: str) -> str:
        return f"{self.processes_key}:busy:{process_id}"

    def busy_here(self) -> bool:
        """Whether this process has work in hand: requests downloading or held, responses or items being
        processed, start requests not all read. (Not the shared queue: it is everyone's.)"""
        if self._local or self._held:
            return True
        engine = _engine(self.crawler)
        if engine is None:
            return False
        slot = getattr(engine.scraper, "slot", None)
        return bool(
            engine.downloader.active or (slot is not None and not slot.is_idle())
            or getattr(engine, "_start", None) is not None
        )

    def heartbeat(self) -> None:
        """Renew this process's busy mark while it has work in hand (:meth:`busy_here`), remove it when it
        has none. Run every ``NEWSCRAWL_REDIS_POLL_INTERVAL`` seconds during a crawl."""
        busy = self.busy_here()
        if not busy and not self._marked:
            return
        try:
            if busy:
                self.server.set(self._busy_key(self.process_id), 1, px=int(self.busy_ttl * 1000))
            else:
                self.server.delete(self._busy_key(self.process_id))
            self._marked = busy
        except REDIS_DOWN as e:
            self._outage(e)

    def others_busy(self) -> bool:
        """Whether another process on this frontier has work in hand (links it finds will come to the
        shared queue); True when Redis cannot tell."""
        try:
            members = {_text(m) for m in self.server.smembers(self.processes_key)} - {self.process_id}
            if not members:
                return False
            return any(mark is not None for mark in self.server.mget([self._busy_key(m) for m in members]))
        except REDIS_DOWN as e:
            self._outage(e)
            return True

    # -- the shared queue ------------------------------------------------------------------------------

    def enqueue_request(self, request: Request) -> bool:
        if not self._reachable():
            self._hold(request, admitted=False)
            return True
        try:
            if not self._admit(request):
                return False
        except REDIS_DOWN as e:
            # the filter's SADD may have been applied with its reply lost: passing the filter again could
            # then drop the request as seen, so it is taken as admitted (at worst it is fetched twice)
            self._outage(e)
            self._hold(request, admitted=True)
            return True
        try:
            self._push(request)
        except REDIS_DOWN as e:
            self._outage(e)
            self._hold(request, admitted=True)  # pushed again later: ZADD of the same bytes is idempotent
        return True

    def _admit(self, request: Request) -> bool:
        """Whether ``request`` passes the cluster-wide filters (start points once; the duplicate filter)."""
        meta = request.meta
        if request.dont_filter and meta.get("is_start_request") and not meta.get("retry_times"):
            fingerprint = hashlib.sha1(f"{request.method} {request.url}".encode()).hexdigest()
            if not self.server.sadd(self.start_key, fingerprint):
                self._inc("newscrawl/redis/start_taken_elsewhere")
                return False
        if not request.dont_filter and self.df.request_seen(request):
            self.df.log(request, self.spider)
            return False
        return True

    def _push(self, request: Request) -> None:
        try:
            self.queue.push(request)
        except wire.Unshareable as e:
            if not self._local_logged:
                self._local_logged = True
                logger.warning(
                    "distributed crawl: a request cannot be shared (%s); crawled by this process: %s "
                    "(such requests are counted as newscrawl/redis/kept_local)", e, request.url,
                )
            self._inc("newscrawl/redis/kept_local")
            self._local.append(request)
            return
        self._inc("scheduler/enqueued/redis")

    def next_request(self) -> Request | None:
        if self._local:
            self._inc("scheduler/dequeued/local")
            return self._local.popleft()
        if not self._reachable():
            return None
        for _ in range(MAX_REFUSED_PER_CALL):
            try:
                request = self._pop()
            except REDIS_DOWN as e:
                self._outage(e)
                return None
            except (wire.Refused, ValueError, TypeError) as e:
                self._refused(e)
                continue
            if request is not None:
                self._inc("scheduler/dequeued/redis")
            return request
        return None

    def _pop(self) -> Request | None:
        """The first request of the shared queue, taken off it.

        scrapy-redis pops the priority queue in one MULTI/EXEC: a reply lost to a timeout would lose the
        request. Here the first entry is read, then removed with ZREM: only the process whose ZREM
        removed it crawls it (another process may have taken it in between), and when the ZREM's reply is
        lost the request is crawled anyway (at worst twice, never lost).
        """
        if not isinstance(self.queue, PriorityQueue):
            return self.queue.pop(0)  # type: ignore[no-any-return]
        for _ in range(MAX_REFUSED_PER_CALL):
            first = self.server.zrange(self.queue.key, 0, 0)
            if not first:
                return None
            try:
                removed = self.server.zrem(self.queue.key, first[0])
            except REDIS_DOWN as e:
                self._outage(e)
                removed = 1
            if removed:
                return self.queue._decode_request(first[0])  # type: ignore[no-any-return]
        return None

    def has_pending_requests(self) -> bool:
        if self._gave_up:
            return False
        if self._local or self._held or not self._reachable():
            return True  # while Redis cannot be seen, the shared queue may still hold work
        try:
            return len(self.queue) > 0
        except REDIS_DOWN as e:
            self._outage(e)
            return True

    def _refused(self, error: Exception) -> None:
        kind = error.kind if isinstance(error, wire.Refused) else "bad request"
        self._inc(f"newscrawl/redis/refused/{kind.replace(' ', '_')}")
        if kind not in self._refused_kinds:
            self._refused_kinds.add(kind)
            logger.warning(
                "distributed crawl: dropped an entry of the shared queue %s that is not a request this "
                "crawler accepts (%s); such entries are counted as newscrawl/redis/refused/*, logged once "
                "per kind",
                self.queue.key, str(error)[:200],
            )

    # -- outages ---------------------------------------------------------------------------------------

    def _reachable(self) -> bool:
        """True when Redis is believed up; during an outage, tries it once the back-off has passed (and
        sends the held requests when it answers)."""
        if self._gave_up:
            return False
        if self._down_since is None:
            return True
        now = time.monotonic()
        last_chance = now - self._down_since > self.outage_limit
        if now < self._next_try and not last_chance:
            return False
        try:
            self.server.ping()
        except REDIS_DOWN as e:
            if last_chance:
                self._give_up(f"Redis unreachable for more than {self.outage_limit:.0f} s")
            else:
                self._outage(e)
            return False
        return self._send_held()

    def _send_held(self) -> bool:
        """Pass the held requests through the filters to the shared queue; False if Redis failed again."""
        outage = time.monotonic() - (self._down_since or time.monotonic())
        sent = 0
        while self._held:
            request, admitted = self._held[0]
            try:
                if not admitted:
                    self._held[0] = (request, True)  # a filter call that fails counts as passed
                    if not self._admit(request):
                        self._held.popleft()
                        continue
                self._push(request)
            except REDIS_DOWN as e:
                self._outage(e)
                return False
            self._held.popleft()
            sent += 1
        if self._down_since is not None:
            logger.warning(
                "distributed crawl: Redis at %s is back after %.1f s; %d held request(s) sent to the "
                "shared queue",
                _where(self.server), outage, sent,
            )
        self._down_since = None
        self._delay = self.backoff
        return True

    def _hold(self, request: Request, admitted: bool) -> None:
        self._held.append((request, admitted))
        self._inc("newscrawl/redis/held")

    def _outage(self, error: BaseException) -> None:
        now = time.monotonic()
        if self._down_since is None:
            self._down_since = now
            self._last_log = now
            self._delay = self.backoff
            self._inc("newscrawl/redis/outages")
            logger.warning(
                "distributed crawl: Redis at %s unreachable (%s); holding requests here and retrying "
                "(gives up after %.0f s)",
                _where(self.server), self._clean(error), self.outage_limit,
            )
        elif now - self._last_log >= OUTAGE_LOG_EVERY:
            self._last_log = now
            logger.warning(
                "distributed crawl: Redis at %s still unreachable after %.0f s (%s); %d request(s) held",
                _where(self.server), now - self._down_since, self._clean(error), len(self._held),
            )
        self._next_try = now + self._delay
        self._delay = min(self._delay * 2, MAX_BACKOFF)

    def _give_up(self, why: str, closing: bool = False) -> None:
        """Count the held requests lost and close the crawl with :data:`REDIS_LOST`."""
        lost = len(self._held)
        self._held.clear()
        self._gave_up = True
        if lost:
            self.lost += lost
            self._inc("newscrawl/redis/lost", lost)
            logger.error(
                "distributed crawl: %s; %d request(s) found meanwhile are LOST (never reached the shared "
                "queue); the crawl exits with an error",
                why, lost,
            )
        engine = _engine(self.crawler)
        if not closing and engine is not None and engine.spider is not None:
            deferred_from_coro(engine.close_spider_async(reason=REDIS_LOST))

    def _clean(self, error: BaseException) -> str:
        return redact(str(error) or type(error).__name__, self.secrets)

    def _inc(self, key: str, count: int = 1) -> None:
        if self.stats is not None:
            self.stats.inc_value(key, count)


def _engine(crawler: Crawler | None) -> Any:
    """The crawler's engine, or None before the crawl starts (a scheduler built in a test)."""
    try:
        return crawler.engine if crawler is not None else None
    except RuntimeError:
        return None


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _where(server: Any) -> str:
    kwargs = server.connection_pool.connection_kwargs
    return f"{kwargs.get('host', '?')}:{kwargs.get('port', '?')}/{kwargs.get('db', 0)}"
