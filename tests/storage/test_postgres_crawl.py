"""A crawl writing to PostgreSQL while the server restarts: every record arrives, nothing is spilled."""

import subprocess
import sys
import threading
import time

import pytest

from newscrawl.bench.site import SITE_NAME, crawler_env, serve

from .conftest import pg_ctl, restart_reason

psycopg = pytest.importorskip("psycopg")

ARTICLES = 150


@pytest.mark.skipif(restart_reason() is not None, reason=restart_reason() or "")
def test_server_restart_mid_crawl_loses_no_record(pg_dsn, tmp_path):
    spill = tmp_path / "spill.jsonl"
    with serve(articles=ARTICLES, per_page=25, delay=0.01) as site:
        site.write_site_file(tmp_path / "sites")
        settings = {
            "NEWSCRAWL_SITES_DIR": tmp_path / "sites",
            "NEWSCRAWL_SQLITE_PATH": tmp_path / "store.sqlite3",
            "NEWSCRAWL_POSTGRES_DSN": pg_dsn,
            "NEWSCRAWL_POSTGRES_SPILL": spill,
            "NEWSCRAWL_SINK_BATCH_SIZE": 10,
            "CONCURRENT_REQUESTS": 2,
            "CONCURRENT_REQUESTS_PER_DOMAIN": 2,
            "LOG_LEVEL": "INFO",
        }
        args = [sys.executable, "-m", "scrapy", "crawl", SITE_NAME]
        for name, value in settings.items():
            args += ["-s", f"{name}={value}"]
        proc = subprocess.Popen(args, cwd=tmp_path, env=crawler_env(), stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        log: list[str] = []
        reader = threading.Thread(target=lambda: log.append(proc.stderr.read()))
        reader.start()
        deadline = time.monotonic() + 60
        while sum(site.hits.values()) < 40 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.poll() is None, "the crawl ended before the restart"
        pg_ctl("restart")
        restarted_at = sum(site.hits.values())
        proc.wait(timeout=120)
        reader.join()
    text = log[0]
    assert proc.returncode == 0, text[-3000:]
    assert restarted_at < ARTICLES, "the restart came after the crawl"
    assert "write failed" in text and "reconnected" in text
    assert not spill.exists()
    with psycopg.connect(pg_dsn) as conn:
        assert conn.execute("SELECT count(*) FROM articles").fetchone()[0] == ARTICLES
