"""Distributed crawling: two crawler processes share one Redis frontier over a generated loopback site."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from scrapy.settings import Settings
from scrapy.utils.misc import load_object

from newscrawl.bench.site import SITE_NAME, crawler_env, serve
from newscrawl.crawl.distributed import IdleClose, RedisAddon

REDIS_URL = os.environ.get("NEWSCRAWL_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@pytest.fixture
def redis_prefix():
    """A unique key prefix on the local Redis; its keys are deleted afterwards."""
    redis = pytest.importorskip("redis")
    pytest.importorskip("scrapy_redis")
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1, socket_timeout=5)
    try:
        client.ping()
    except redis.RedisError as e:
        pytest.skip(f"no Redis at {REDIS_URL}: {e}")
    prefix = f"nctest-{uuid.uuid4().hex[:10]}"
    yield prefix
    keys = list(client.scan_iter(f"{prefix}:*"))
    if keys:
        client.delete(*keys)
    client.close()


def test_addon_does_nothing_without_a_redis_url(monkeypatch):
    monkeypatch.delenv("NEWSCRAWL_REDIS_URL", raising=False)
    settings = Settings({"SCHEDULER": "scrapy.core.scheduler.Scheduler"})
    RedisAddon().update_settings(settings)
    assert settings["SCHEDULER"] == "scrapy.core.scheduler.Scheduler"


def test_addon_installs_the_redis_scheduler_with_prefixed_keys():
    settings = Settings({"NEWSCRAWL_REDIS_URL": "redis://h:1/0", "NEWSCRAWL_REDIS_PREFIX": "job7"})
    RedisAddon().update_settings(settings)
    assert settings["SCHEDULER"] == "newscrawl.crawl.scheduler.RedisScheduler"
    assert settings["SCHEDULER_QUEUE_KEY"] == "job7:%(spider)s:requests"
    assert IdleClose in map(load_object, settings.getdict("EXTENSIONS"))


def crawl(site_dir: Path, out: Path, db: Path, prefix: str) -> subprocess.Popen:
    args = [
        sys.executable, "-m", "scrapy", "crawl", SITE_NAME, "-O", str(out),
        "-s", f"NEWSCRAWL_SITES_DIR={site_dir}", "-s", f"NEWSCRAWL_SQLITE_PATH={db}",
        "-s", f"NEWSCRAWL_REDIS_URL={REDIS_URL}", "-s", f"NEWSCRAWL_REDIS_PREFIX={prefix}",
        # a process takes up to CONCURRENT_REQUESTS off the shared queue at once: keep it small here
        "-s", "NEWSCRAWL_REDIS_IDLE_CLOSE=2", "-s", "CONCURRENT_REQUESTS=3",
        "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=3",
        "-s", "LOG_LEVEL=INFO",
    ]
    env = crawler_env()
    return subprocess.Popen(args, cwd=out.parent, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)


def wait_for_workers(prefix: str, count: int, procs: list[subprocess.Popen], timeout: float = 120) -> None:
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    deadline = time.monotonic() + timeout
    key = f"{prefix}:{SITE_NAME}:workers"
    while int(client.get(key) or 0) < count:
        assert all(p.poll() is None for p in procs), "a crawler ended before the gate opened"
        assert time.monotonic() < deadline, f"{client.get(key)} of {count} crawlers on the frontier"
        time.sleep(0.1)
    client.close()


def test_two_processes_share_the_frontier_and_fetch_every_page_once(tmp_path, redis_prefix):
    gate = threading.Event()  # no page is served before both processes are on the frontier
    with serve(articles=80, per_page=10, delay=0.03, gate=gate) as site:
        site_dir = tmp_path / "sites"
        site.write_site_file(site_dir)
        db = tmp_path / "store.sqlite3"
        outs = [tmp_path / "p1.jsonl", tmp_path / "p2.jsonl"]
        procs = [crawl(site_dir, out, db, redis_prefix) for out in outs]
        wait_for_workers(redis_prefix, 2, procs)
        gate.set()
        logs = [p.communicate(timeout=300)[1] for p in procs]
        assert [p.returncode for p in procs] == [0, 0], logs[0][-2000:] + logs[1][-2000:]
        hits = dict(site.hits)
        pages = site.pages
    assert set(hits) == set(pages)
    assert {path: n for path, n in hits.items() if n != 1} == {}
    records = [json.loads(line) for out in outs for line in out.read_text(encoding="utf-8").splitlines()]
    urls = [r["url"] for r in records]
    assert len(urls) == len(set(urls)) == 80
    assert all(out.stat().st_size > 0 for out in outs), "one process did all the work"
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*), COUNT(DISTINCT url) FROM articles").fetchone() == (80, 80)
    assert all("last process out" in log or "Spider closed (finished)" in log for log in logs)
