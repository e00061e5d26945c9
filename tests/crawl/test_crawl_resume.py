"""A crawl killed with SIGKILL and restarted with the same JOBDIR stores every page exactly once.

The demo portal is crawled in a subprocess, slowed down so it can be killed half-way once the SQLite
store holds some records; before the restart the JOBDIR's seen-requests file is given the fingerprint of
every demo page, as a crawl of more than a few hundred pages would have flushed it (Scrapy buffers it,
so the demo's own file is still empty when killed). Without :class:`~newscrawl.crawl.jobdir.JobdirGuard`
the resumed crawl filters those pages as seen and loses every article not stored yet.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import scrapy
from scrapy.dupefilters import RFPDupeFilter

from newscrawl.crawl.demo import DEMO_DIR, DEMO_HOST, serve
from newscrawl.crawl.jobdir import RUNNING_MARK

from .test_crawl_e2e import DEMO_ARTICLES, records

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)")

TIMEOUT = 90
#: records in the store before the kill (two batches of two)
KILL_AFTER_ROWS = 4


def stored(db: Path) -> list[tuple[str, str]]:
    """(canonical_url, url) of every row; empty while the store does not exist yet."""
    if not db.exists():
        return []
    try:
        with sqlite3.connect(db, timeout=1) as conn:
            return list(conn.execute("SELECT canonical_url, url FROM articles"))
    except sqlite3.Error:  # created but no table yet
        return []


def demo_page_urls() -> list[str]:
    """The address of every page of the demo portal (a folder's index.html also as the folder)."""
    urls = []
    for page in DEMO_DIR.rglob("*"):
        if page.suffix in (".html", ".shtml"):
            path = page.relative_to(DEMO_DIR).as_posix()
            urls.append(f"{DEMO_HOST}/{path}")
            if page.name == "index.html":
                urls.append(f"{DEMO_HOST}/{path.removesuffix('index.html')}")
    return urls


def mark_seen(jobdir: Path, urls: list[str]) -> None:
    """Add ``urls`` to the seen requests of ``jobdir``, written by Scrapy's own duplicate filter."""
    seen = RFPDupeFilter(str(jobdir))
    for url in urls:
        seen.request_seen(scrapy.Request(url))
    seen.close("shutdown")


def crawl_args(server: str, tmp: Path, feed: str) -> list[str]:
    settings = {
        "NEWSCRAWL_REPLAY_PREFIX": f"{server}/",
        "NEWSCRAWL_SQLITE_PATH": str(tmp / "crawl.sqlite3"),
        "JOBDIR": str(tmp / "job"),
        "NEWSCRAWL_SINK_BATCH_SIZE": "2",
        # slow enough to be killed half-way: about 40 requests one at a time, 0.1 s apart
        "DOWNLOAD_DELAY": "0.1",
        "RANDOMIZE_DOWNLOAD_DELAY": "False",
        "CONCURRENT_REQUESTS_PER_DOMAIN": "1",
        "LOG_LEVEL": "INFO",
    }
    args = [sys.executable, "-m", "scrapy", "crawl", "demo", "-O", feed]
    for name, value in settings.items():
        args += ["-s", f"{name}={value}"]
    return args


@pytest.fixture(scope="module")
def resumed(tmp_path_factory) -> dict[str, object]:
    tmp = tmp_path_factory.mktemp("resume")
    db, job = tmp / "crawl.sqlite3", tmp / "job"
    env = dict(os.environ, SCRAPY_SETTINGS_MODULE="newscrawl.settings", PYTHONWARNINGS="ignore")
    with serve() as server:
        with (tmp / "first.log").open("w") as log:
            first = subprocess.Popen(
                crawl_args(server, tmp, "first.jsonl"), cwd=tmp, env=env, stdout=log, stderr=log
            )
            deadline = time.monotonic() + TIMEOUT
            while len(stored(db)) < KILL_AFTER_ROWS and first.poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)
            running = first.poll() is None
            first.send_signal(signal.SIGKILL)
            first.wait()
        before = {url for url, _ in stored(db)}
        marked = (job / RUNNING_MARK).exists()
        mark_seen(job, demo_page_urls())
        second = subprocess.run(
            crawl_args(server, tmp, "second.jsonl"), cwd=tmp, env=env, capture_output=True, text=True,
            timeout=TIMEOUT,
        )
    return {
        "running": running, "before": before, "marked": marked, "second": second, "db": db, "job": job,
        "second_feed": records(tmp / "second.jsonl") if (tmp / "second.jsonl").exists() else [],
    }


def test_crawl_was_killed_half_way(resumed):
    assert resumed["running"], "the first crawl ended before it could be killed"
    assert KILL_AFTER_ROWS <= len(resumed["before"]) < DEMO_ARTICLES
    assert resumed["marked"]


def test_resumed_crawl_finishes(resumed):
    second = resumed["second"]
    assert second.returncode == 0, second.stderr[-3000:]
    assert "'finish_reason': 'finished'" in second.stderr
    assert "'newscrawl/jobdir/unclean_resume': 1" in second.stderr


def test_no_article_is_lost(resumed):
    rows = stored(resumed["db"])
    assert len(rows) == DEMO_ARTICLES
    assert resumed["before"] <= {url for url, _ in rows}


def test_no_article_is_stored_twice(resumed):
    rows = stored(resumed["db"])
    assert len({url for _, url in rows}) == len({canonical for canonical, _ in rows}) == len(rows)


def test_resumed_feed_holds_exactly_the_articles_missing_from_the_store(resumed):
    urls = [r["canonical_url"] for r in resumed["second_feed"]]
    assert len(urls) == len(set(urls))
    assert set(urls) == {url for url, _ in stored(resumed["db"])} - resumed["before"]


def test_clean_close_removes_the_running_mark(resumed):
    assert not (resumed["job"] / RUNNING_MARK).exists()
