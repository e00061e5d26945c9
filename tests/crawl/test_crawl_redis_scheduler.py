"""The Redis scheduler against a Redis of the test's own: JSON on the queue, outages and hangs survived."""

from __future__ import annotations

import logging
import pickle
import time

import pytest
from scrapy import Request, Spider
from scrapy.utils.test import get_crawler

from newscrawl.crawl.config import ConfigError
from newscrawl.crawl.distributed import REDIS_LOST

redis = pytest.importorskip("redis")
pytest.importorskip("scrapy_redis")

from newscrawl.crawl.scheduler import RedisScheduler  # noqa: E402


class Portal(Spider):
    name = "portal"

    def parse(self, response):  # pragma: no cover - never called here
        return None


def make(url: str, **settings):
    base = {
        "NEWSCRAWL_REDIS_URL": url, "NEWSCRAWL_REDIS_PREFIX": "t",
        "SCHEDULER_QUEUE_KEY": "t:%(spider)s:requests", "SCHEDULER_DUPEFILTER_KEY": "t:%(spider)s:dupefilter",
        "NEWSCRAWL_REDIS_TIMEOUT": 0.3,
    }
    crawler = get_crawler(Portal, base | settings)
    spider = crawler._create_spider()
    scheduler = RedisScheduler.from_crawler(crawler)
    scheduler.backoff = scheduler._delay = 0.01
    scheduler.open(spider)
    return scheduler, crawler.stats


def drain(scheduler: RedisScheduler, timeout: float = 10) -> list[str]:
    """URLs the scheduler hands out until it has nothing pending (retrying through back-off)."""
    urls: list[str] = []
    deadline = time.monotonic() + timeout
    while scheduler.has_pending_requests() and time.monotonic() < deadline:
        request = scheduler.next_request()
        if request is None:
            time.sleep(0.02)
        else:
            urls.append(request.url)
    return urls


def page(n: int) -> Request:
    return Request(f"http://portal.test/a/{n}.html", callback=Portal().parse)


def test_requests_are_json_on_the_queue(private_redis):
    scheduler, _ = make(private_redis.url)
    scheduler.enqueue_request(page(1))
    raw = redis.Redis.from_url(private_redis.url).zrange("t:portal:requests", 0, -1)
    assert raw[0].startswith(b"{") and b'"url":"http://portal.test/a/1.html"' in raw[0]
    assert drain(scheduler) == ["http://portal.test/a/1.html"]


class Payload:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        import os

        return (os.system, (f"touch {self.marker}",))


def test_a_pushed_pickle_does_not_run_and_is_counted(private_redis, tmp_path, caplog):
    scheduler, stats = make(private_redis.url)
    marker = tmp_path / "ran"
    client = redis.Redis.from_url(private_redis.url)
    payload = pickle.dumps(Payload(marker))
    client.zadd("t:portal:requests", {payload: -5, payload + b" ": -5})
    client.zadd("t:portal:requests", {b'{"url":"x","_class":"subprocess.Popen"}': -4})
    scheduler.enqueue_request(page(2))
    with caplog.at_level(logging.WARNING):
        assert drain(scheduler) == ["http://portal.test/a/2.html"]
    assert not marker.exists()
    assert stats.get_value("newscrawl/redis/refused/pickle") == 2
    assert stats.get_value("newscrawl/redis/refused/request_class") == 1
    refusals = [r for r in caplog.records if "not a request this crawler accepts" in r.message]
    assert len(refusals) == 2  # once per kind


def test_links_found_while_redis_is_down_are_held_and_sent_when_it_is_back(private_redis, caplog):
    scheduler, stats = make(private_redis.url)
    scheduler.enqueue_request(page(0))
    private_redis.stop()
    with caplog.at_level(logging.WARNING):
        assert all(scheduler.enqueue_request(page(n)) for n in range(1, 6))
        assert scheduler.next_request() is None
        assert scheduler.has_pending_requests()  # not idle: the crawl waits for Redis
        private_redis.start()
        urls = drain(scheduler)
    assert sorted(urls) == sorted(f"http://portal.test/a/{n}.html" for n in range(6))
    assert stats.get_value("newscrawl/redis/held") == 5 and not stats.get_value("newscrawl/redis/lost")
    messages = [r.message for r in caplog.records]
    assert any("unreachable" in m for m in messages) and any("is back after" in m for m in messages)
    # the held requests went through the shared duplicate filter: a repeat is filtered
    assert scheduler.enqueue_request(page(3)) is False


def test_a_hung_redis_does_not_hold_the_caller(private_redis):
    scheduler, stats = make(private_redis.url)
    private_redis.hang()
    try:
        # each call returns (a call without a timeout would block here for as long as Redis hangs)
        assert scheduler.enqueue_request(page(1)) is True
        assert scheduler.next_request() is None
    finally:
        private_redis.resume()
    assert drain(scheduler) == ["http://portal.test/a/1.html"]
    assert stats.get_value("newscrawl/redis/outages") == 1


def test_requests_held_past_the_outage_limit_are_counted_lost(private_redis, caplog):
    scheduler, stats = make(private_redis.url, NEWSCRAWL_REDIS_OUTAGE_LIMIT=0.2)
    private_redis.stop()
    scheduler.enqueue_request(page(1))
    scheduler.enqueue_request(page(2))
    time.sleep(0.3)
    with caplog.at_level(logging.ERROR):
        assert scheduler.next_request() is None
    assert not scheduler.has_pending_requests()
    assert stats.get_value("newscrawl/redis/lost") == 2
    assert "LOST" in caplog.text
    scheduler.close("shutdown")  # Redis still down: no exception
    assert REDIS_LOST == "redis_unavailable"


def test_requests_held_at_close_are_counted_lost(private_redis):
    scheduler, stats = make(private_redis.url)
    private_redis.stop()
    scheduler.enqueue_request(page(1))
    scheduler.close("shutdown")
    assert stats.get_value("newscrawl/redis/lost") == 1


def test_an_unshareable_request_is_crawled_here(private_redis):
    scheduler, stats = make(private_redis.url)
    scheduler.enqueue_request(Request("http://portal.test/o", meta={"o": object()}))
    assert drain(scheduler) == ["http://portal.test/o"]
    assert stats.get_value("newscrawl/redis/kept_local") == 1


def test_an_unreachable_redis_at_start_is_one_line(private_redis):
    url = private_redis.url.replace("redis://", "redis://:S3cretPW@")
    private_redis.stop()
    with pytest.raises(ConfigError) as error:
        make(url)
    assert "unreachable" in str(error.value) and "S3cretPW" not in str(error.value)


@pytest.mark.parametrize("value", ["0", "-1", "fast", "inf"])
def test_bad_timeouts_are_refused(private_redis, value):
    with pytest.raises(ConfigError, match="NEWSCRAWL_REDIS_TIMEOUT"):
        make(private_redis.url, NEWSCRAWL_REDIS_TIMEOUT=value)


# -- the other processes on the frontier ----------------------------------------------------------------


def test_a_process_with_work_in_hand_is_seen_busy_by_the_others(private_redis):
    a, _ = make(private_redis.url)
    b, _ = make(private_redis.url)
    assert not b.others_busy() and not a.others_busy()
    a.busy_here = lambda: True  # a page downloading or being extracted
    a.heartbeat()
    assert b.others_busy() and not a.others_busy()
    a.busy_here = lambda: False
    a.heartbeat()
    assert not b.others_busy()


def test_a_process_that_closes_is_no_longer_busy(private_redis):
    a, _ = make(private_redis.url)
    b, _ = make(private_redis.url)
    a.busy_here = lambda: True
    a.heartbeat()
    a.close("finished")
    assert not b.others_busy()


def test_the_busy_mark_of_a_process_that_stopped_renewing_it_lapses(private_redis):
    a, _ = make(private_redis.url)
    b, _ = make(private_redis.url)
    a.busy_ttl = 0.3
    a.busy_here = lambda: True
    a.heartbeat()  # and never again: killed, or frozen
    assert b.others_busy()
    deadline = time.monotonic() + 10
    while b.others_busy() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not b.others_busy()


def test_others_count_as_busy_while_redis_cannot_tell(private_redis):
    a, _ = make(private_redis.url)
    private_redis.stop()
    assert a.others_busy()


def test_an_idle_process_stays_open_while_another_is_busy():
    from scrapy.exceptions import DontCloseSpider

    from newscrawl.crawl.distributed import IdleClose

    class Scheduler:
        busy = True

        def others_busy(self) -> bool:
            return self.busy

    crawler = get_crawler(Portal, {"NEWSCRAWL_REDIS_URL": "redis://127.0.0.1:1/0"})
    scheduler = Scheduler()
    crawler.engine = type("Engine", (), {"scheduler": scheduler})()
    idle = IdleClose(crawler, idle_close=0)
    with pytest.raises(DontCloseSpider, match="another process"):
        idle.spider_idle(Portal())
    scheduler.busy = False
    idle.spider_idle(Portal())  # the queue has been empty long enough, and nobody else is busy: closes
