"""A crawl stopped with SIGTERM, or with Ctrl-C (SIGINT to its whole process group, worker processes
included), while its extraction workers have pages in hand: the pages already downloaded are drained
into the store, none lost; resumed with the same JOBDIR, the crawl stores every article exactly once."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from newscrawl.bench.site import article_path, crawler_env, serve

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="needs process groups (POSIX)")

ARTICLES = 300
#: rows in the store when the signal is sent: the first batch (NEWSCRAWL_SINK_BATCH_SIZE below)
STOP_AFTER_ROWS = 5
TIMEOUT = 120
#: seconds the server takes per response: the site must take longer to download than the stop takes to
#: arrive (on a quiet machine an instant site was wholly downloaded, and stored, before SIGTERM came; with
#: downloads no longer slowed by sink writes on the reactor, 0.3 s left 10 of 300 pages at a load of 9)
DELAY = 0.5


def stored(db: Path) -> list[str]:
    if not db.exists():
        return []
    try:
        with sqlite3.connect(db, timeout=1) as conn:
            return [url for (url,) in conn.execute("SELECT url FROM articles")]
    except sqlite3.Error:
        return []


def crawl(tmp: Path, log: str) -> subprocess.Popen[bytes]:
    settings = {
        "NEWSCRAWL_SITES_DIR": str(tmp / "sites"),
        "NEWSCRAWL_SQLITE_PATH": str(tmp / "store.sqlite3"),
        "JOBDIR": str(tmp / "job"),
        "NEWSCRAWL_EXTRACT_WORKERS": "1",
        "NEWSCRAWL_SINK_BATCH_SIZE": "5",
        "LOG_LEVEL": "INFO",
    }
    args = [sys.executable, "-m", "scrapy", "crawl", "bench"]
    for name, value in settings.items():
        args += ["-s", f"{name}={value}"]
    with (tmp / log).open("wb") as out:
        # a session of its own: Ctrl-C is sent to its process group, as a terminal does
        return subprocess.Popen(
            args, cwd=tmp, env=crawler_env(), stdout=out, stderr=out, start_new_session=True
        )


def wait_for_rows(db: Path, process: subprocess.Popen[bytes], rows: int) -> bool:
    deadline = time.monotonic() + TIMEOUT
    while len(stored(db)) < rows and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    return process.poll() is None


@pytest.mark.parametrize("stop", ["SIGTERM", "Ctrl-C"])
def test_stopped_crawl_loses_no_page_and_resumes(tmp_path: Path, stop: str):
    db = tmp_path / "store.sqlite3"
    with serve(articles=ARTICLES, delay=DELAY) as site:
        site.write_site_file(tmp_path / "sites")
        first = crawl(tmp_path, "first.log")
        assert wait_for_rows(db, first, STOP_AFTER_ROWS), "the crawl ended before it could be stopped"
        if stop == "SIGTERM":
            first.send_signal(signal.SIGTERM)
        else:
            os.killpg(first.pid, signal.SIGINT)
        assert first.wait(TIMEOUT) == 0, (tmp_path / "first.log").read_text()[-3000:]
        log = (tmp_path / "first.log").read_text()
        assert "'finish_reason': 'shutdown'" in log
        served = {path for path, hits in site.hits.items() if hits and path.startswith("/news/")}
        after_stop = {urlsplit(url).path for url in stored(db)}
        # every article downloaded before the stop was extracted and stored: drained, not lost
        print(f"{stop}: {len(served)} articles served, {len(after_stop)} stored")
        assert served <= after_stop and len(after_stop) < ARTICLES

        second = crawl(tmp_path, "second.log")
        assert second.wait(TIMEOUT) == 0, (tmp_path / "second.log").read_text()[-3000:]
        assert "'finish_reason': 'finished'" in (tmp_path / "second.log").read_text()
    urls = stored(db)
    assert len(urls) == len(set(urls)) == ARTICLES
    assert {urlsplit(url).path for url in urls} == {article_path(n) for n in range(ARTICLES)}
