"""A real ``scrapy crawl`` of the hostile loopback site (tests/crawl/hostile_site.py): every bomb is
bounded, counted and reported, the crawl finishes, and no stored record is poisoned."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from .hostile_site import LISTED_FROM, LONG_RSS, LONG_SITEMAP, MAX_REQUESTS, VICTIM, serve, site_toml

ROOT = Path(__file__).resolve().parents[2]
#: seconds the whole crawl may take (CLOSESPIDER_TIMEOUT in the site file is 120)
CRAWL_TIMEOUT = 300


def stats_of(log: str) -> dict[str, int]:
    """The whole-number stats of the dump Scrapy logs when the crawl closes."""
    return {key: int(value) for key, value in re.findall(r"'([\w/.:-]+)': (\d+)[,}]", log)}


def test_the_hostile_site_is_crawled_to_the_end_with_every_bomb_counted(tmp_path):
    (tmp_path / "sites").mkdir()
    db = tmp_path / "store.sqlite3"
    env = dict(
        os.environ, SCRAPY_SETTINGS_MODULE="newscrawl.settings", PYTHONWARNINGS="ignore",
        PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    )
    with serve() as site:
        (tmp_path / "sites" / "hostile.toml").write_text(site_toml(site.base_url), encoding="utf-8")
        args = [sys.executable, "-m", "scrapy", "crawl", "hostile", "-O", str(tmp_path / "out.jsonl")]
        args += ["-s", f"NEWSCRAWL_SITES_DIR={tmp_path / 'sites'}", "-s", f"NEWSCRAWL_SQLITE_PATH={db}"]
        start = time.monotonic()
        done = subprocess.run(
            args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=CRAWL_TIMEOUT
        )
        seconds = time.monotonic() - start
        hits = dict(site.hits)
    log = done.stderr
    stats = stats_of(log)
    assert done.returncode == 0, log[-3000:]
    assert "'finish_reason': 'finished'" in log, log[-3000:]
    assert "Traceback" not in log and "RecursionError" not in log
    assert seconds < CRAWL_TIMEOUT and sum(hits.values()) <= MAX_REQUESTS

    # feeds and sitemaps: 50 entries followed of each, the rest counted; the index listing itself
    # is read once; the gzip bomb, the XXE sitemap and the 200,000-deep roll feed give nothing
    cut = (LONG_SITEMAP - 50) + (LONG_RSS - 50)
    assert stats["newscrawl/feeds/entries_cut"] == cut
    assert hits["/sitemap_index.xml"] == 1 and hits["/sitemap-long.xml"] == 1
    assert stats["newscrawl/feeds/empty"] == 3  # roll feed, gzip bomb, XXE sitemap
    listed = [p for p in hits if p.startswith("/a/") and int(p[3:-5]) >= LISTED_FROM]
    assert len(listed) <= 100  # 50 from the sitemap, 50 from the RSS feed (some the same)
    # robots.txt: read up to 500 KiB, so its early rule holds and the one past the cut does not
    assert stats["robotstxt/truncated"] == 1 and "/a/7.html" not in hits and "/a/5.html" in hits
    # the attribute flood: refused before parsing in the list page (links not followed); the article holds
    # no link shaped like a later page of it, so its pager is never parsed, and its extraction is refused
    assert stats["newscrawl/pages/unparsable_markup"] == 1 and "/a/99.html" not in hits
    errors = [line for line in log.splitlines() if "extraction failed on" in line]
    assert any("/a/2.html" in e and "max_attributes=1000" in e for e in errors), errors
    assert any("/a/3.html" in e and "max_depth" in e for e in errors), errors

    with sqlite3.connect(db) as conn:
        found = conn.execute("SELECT url, canonical_url, title, text FROM articles")
        rows = {url: (canonical, title, text) for url, canonical, title, text in found}
    base = site.base_url
    assert set(rows) == {f"{base}/a/1.html", f"{base}/a/4.html", f"{base}/a/5.html", f"{base}/a/6.html"}
    # another site's article named as canonical: the record stays under this page's own URL
    assert rows[f"{base}/a/1.html"][0] == f"{base}/a/1.html" and VICTIM not in {r[0] for r in rows.values()}
    # a canonical on this site is taken, normalised: scheme case, tracking parameter and fragment gone
    assert rows[f"{base}/a/5.html"][0] == f"{base}/a/5.html"
    for _, title, text in rows.values():
        for value in (title or "", text):
            assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", value), value
    assert rows[f"{base}/a/1.html"][1].startswith("暴雪[2J")
