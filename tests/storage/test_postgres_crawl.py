"""Crawls writing to a PostgreSQL cluster of the test's own while it restarts, stops for 30 s or hangs
(SIGSTOP): every record arrives once, nothing is spilled, exit code 0; the crawl goes on meanwhile."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from newscrawl.bench.site import SITE_NAME, crawler_env, serve

psycopg = pytest.importorskip("psycopg")

ARTICLES = 150
#: seconds the server is stopped, then hung (the target of issue 14: 30 s)
OUTAGE = float(os.environ.get("NEWSCRAWL_TEST_POSTGRES_OUTAGE", "30"))


class Log:
    """A crawler's standard error, read while it runs (a full pipe would stall it)."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.chunks: list[str] = []
        self.reader = threading.Thread(target=lambda: self.chunks.append(proc.stderr.read()), daemon=True)
        self.reader.start()

    def text(self) -> str:
        """All of it, once the crawler has ended."""
        self.reader.join(timeout=60)
        return "".join(self.chunks)


def start_crawl(tmp_path: Path, site, dsn: str, **extra: object) -> tuple[subprocess.Popen, Log]:
    site.write_site_file(tmp_path / "sites")
    settings = {
        "NEWSCRAWL_SITES_DIR": tmp_path / "sites",
        "NEWSCRAWL_SQLITE_PATH": tmp_path / "store.sqlite3",
        "NEWSCRAWL_POSTGRES_DSN": dsn,
        "NEWSCRAWL_POSTGRES_SPILL": tmp_path / "spill.jsonl",
        "NEWSCRAWL_POSTGRES_RETRY_SECONDS": OUTAGE + 30,
        "NEWSCRAWL_SINK_BATCH_SIZE": 10,
        "CONCURRENT_REQUESTS": 2,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 2,
        "LOG_LEVEL": "INFO",
        **extra,
    }
    args = [sys.executable, "-m", "scrapy", "crawl", SITE_NAME]
    for name, value in settings.items():
        args += ["-s", f"{name}={value}"]
    proc = subprocess.Popen(args, cwd=tmp_path, env=crawler_env(), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    return proc, Log(proc)


def wait_for_hits(site, count: int, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while sum(site.hits.values()) < count and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert proc.poll() is None, "the crawl ended before the fault"


def finish(proc: subprocess.Popen, log: Log, tmp_path: Path, dsn: str) -> str:
    proc.wait(timeout=OUTAGE + 120)
    text = log.text()
    assert proc.returncode == 0, text[-3000:]
    assert not (tmp_path / "spill.jsonl").exists() or not (tmp_path / "spill.jsonl").read_text()
    with psycopg.connect(dsn) as conn:
        counts = conn.execute("SELECT count(*), count(DISTINCT url) FROM articles").fetchone()
    assert counts == (ARTICLES, ARTICLES)
    assert "Traceback" not in text
    return text


def test_server_restart_mid_crawl_loses_no_record(private_postgres, tmp_path):
    with serve(articles=ARTICLES, per_page=25, delay=0.01) as site:
        proc, log = start_crawl(tmp_path, site, private_postgres.dsn)
        wait_for_hits(site, 40, proc)
        private_postgres.restart()
        restarted_at = sum(site.hits.values())
        text = finish(proc, log, tmp_path, private_postgres.dsn)
    assert restarted_at < ARTICLES, "the restart came after the crawl"
    assert "write failed" in text and "reconnected" in text


def test_server_stopped_mid_crawl_loses_no_record(private_postgres, tmp_path):
    with serve(articles=ARTICLES, per_page=25, delay=0.05) as site:
        proc, log = start_crawl(tmp_path, site, private_postgres.dsn)
        wait_for_hits(site, 40, proc)
        private_postgres.stop()
        time.sleep(OUTAGE)
        private_postgres.start()
        text = finish(proc, log, tmp_path, private_postgres.dsn)
    assert "write failed" in text and "reconnected" in text


def test_a_hung_server_does_not_freeze_the_crawl(private_postgres, tmp_path):
    hang = min(OUTAGE, 10.0)
    with serve(articles=ARTICLES, per_page=25, delay=0.1) as site:
        proc, log = start_crawl(tmp_path, site, private_postgres.dsn, NEWSCRAWL_POSTGRES_TIMEOUT=2)
        wait_for_hits(site, 30, proc)
        private_postgres.hang()
        try:
            time.sleep(1)  # a batch reaches the hung server
            before = sum(site.hits.values())
            time.sleep(hang / 2)
            during = sum(site.hits.values()) - before
            time.sleep(hang / 2)
        finally:
            private_postgres.resume()
        text = finish(proc, log, tmp_path, private_postgres.dsn)
    assert during > 0, "no page was fetched while PostgreSQL hung"
    assert "write failed" in text and "timeout expired" in text, text[-3000:]


def test_a_server_gone_at_the_end_spills_and_fails_the_crawl(private_postgres, tmp_path):
    with serve(articles=ARTICLES, per_page=25, delay=0.01) as site:
        proc, log = start_crawl(tmp_path, site, private_postgres.dsn, NEWSCRAWL_POSTGRES_RETRY_SECONDS=1)
        wait_for_hits(site, 40, proc)
        private_postgres.stop()
        proc.wait(timeout=120)
    text = log.text()
    assert proc.returncode == 1, text[-3000:]
    private_postgres.start()
    with psycopg.connect(private_postgres.dsn) as conn:
        stored = conn.execute("SELECT count(*) FROM articles").fetchone()[0]
    spilled = (tmp_path / "spill.jsonl").read_text(encoding="utf-8").splitlines()
    assert stored + len(spilled) == ARTICLES and spilled
    assert f"'newscrawl/postgres/spilled': {len(spilled)}" in text and "NOT WRITTEN" in text
