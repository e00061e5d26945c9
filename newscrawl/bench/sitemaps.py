"""Peak memory of a crawl started from sitemaps that list millions of URLs (a bounded run).

``python -m newscrawl.bench.sitemaps [--urls 5000000] [--per-sitemap 50000] [--seconds 120]`` serves, on
127.0.0.1, a sitemap index of ``urls / per_sitemap`` sitemaps (gzipped, made on request) whose entries
are the generated articles of :mod:`newscrawl.bench.site` (made on request too), crawls it with
``scrapy crawl`` for ``--seconds`` (``CLOSESPIDER_TIMEOUT``; extraction, near-duplicates and the SQLite
store on) and prints the crawler's peak resident set size (``getrusage`` of the waited child), the
sitemaps and pages served and the records stored.
"""

from __future__ import annotations

import argparse
import gzip
import resource
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from newscrawl.bench.memory import PEAK_RSS_LIMIT_MB
from newscrawl.bench.site import (
    LOOPBACK_SETTINGS,
    SITE_NAME,
    article_html,
    article_path,
    crawl_command,
    crawler_env,
)
from newscrawl.cli.options import add_setting_option
from newscrawl.crawl import loopback
from newscrawl.crawl.loopback import NOT_FOUND, Reply

INDEX_PATH = "/sitemap_index.xml"


def sitemap_path(k: int) -> str:
    return f"/sitemaps/{k}.xml.gz"


def index_xml(sitemaps: int, base_url: str) -> bytes:
    items = "".join(f"<sitemap><loc>{base_url}{sitemap_path(k)}</loc></sitemap>" for k in range(sitemaps))
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{items}</sitemapindex>'
    ).encode()


def sitemap_xml(k: int, per_sitemap: int, base_url: str) -> bytes:
    """Sitemap ``k``, gzipped: entries for articles ``k * per_sitemap`` onwards."""
    first = k * per_sitemap
    items = "".join(
        f"<url><loc>{base_url}{article_path(n)}</loc></url>" for n in range(first, first + per_sitemap)
    )
    xml = f'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{items}</urlset>'
    return gzip.compress(xml.encode(), compresslevel=1)


def site_toml(base_url: str) -> str:
    host = base_url.split("://", 1)[1].replace(".", r"\.")
    return f"""name = "{SITE_NAME}"
allowed_domains = ["127.0.0.1"]
language = "zh"

[start]
sitemaps = ["{base_url}{INDEX_PATH}"]

[patterns]
article = ['^http://{host}/news/\\d{{4}}-\\d{{2}}-\\d{{2}}/doc-i\\d{{8}}\\.shtml$']

""" + LOOPBACK_SETTINGS


@dataclass
class SitemapSite:
    base_url: str
    urls: int
    per_sitemap: int
    hits: Counter[str] = field(default_factory=Counter)

    @property
    def sitemaps(self) -> int:
        return -(-self.urls // self.per_sitemap)


@contextmanager
def serve(urls: int, per_sitemap: int) -> Iterator[SitemapSite]:
    """Serve the sitemap index, its sitemaps and the articles they list on a free loopback port."""
    site = SitemapSite("", urls, per_sitemap)
    lock = threading.Lock()

    def respond(path: str) -> Reply:
        kind = "index" if path == INDEX_PATH else "sitemap" if path.startswith("/sitemaps/") else "page"
        with lock:
            site.hits[kind] += 1
        if path == INDEX_PATH:
            return Reply(200, index_xml(site.sitemaps, site.base_url), "application/xml")
        if path.startswith("/sitemaps/") and path.endswith(".xml.gz"):
            k = int(path[len("/sitemaps/") : -len(".xml.gz")])
            if 0 <= k < site.sitemaps:
                return Reply(200, sitemap_xml(k, site.per_sitemap, site.base_url), "application/gzip")
        if path.startswith("/news/"):
            return Reply(200, article_html(int(path.rsplit("doc-i", 1)[1].split(".")[0])).encode())
        return NOT_FOUND

    with loopback.serve(respond, name="sitemapsite") as base:
        site.base_url = base
        yield site


@dataclass(frozen=True)
class SitemapRun:
    urls: int
    sitemaps_served: int
    pages_served: int
    records: int
    seconds: float
    peak_rss_mb: float
    returncode: int
    stats: str


def measure(urls: int, per_sitemap: int, seconds: int, settings: dict[str, str] | None = None) -> SitemapRun:
    """Crawl a fresh sitemap site for ``seconds`` in a child process; its peak RSS and counts."""
    with tempfile.TemporaryDirectory(prefix="newscrawl-benchmaps-") as tmp, serve(urls, per_sitemap) as site:
        work = Path(tmp)
        (work / "sites").mkdir()
        (work / "sites" / f"{SITE_NAME}.toml").write_text(site_toml(site.base_url), encoding="utf-8")
        db = work / "store.sqlite3"
        values = {
            "NEWSCRAWL_SITES_DIR": str(work / "sites"),
            "NEWSCRAWL_SQLITE_PATH": str(db),
            "CLOSESPIDER_TIMEOUT": str(seconds),
            "LOG_LEVEL": "INFO",
            **(settings or {}),
        }
        args = crawl_command(SITE_NAME, values)
        start = time.monotonic()
        done = subprocess.run(
            args, cwd=work, env=crawler_env(), capture_output=True, text=True, timeout=seconds * 4 + 300
        )
        elapsed = time.monotonic() - start
        records = 0
        if db.exists():
            with sqlite3.connect(db) as conn:
                records = conn.execute("SELECT COUNT(*) FROM articles").fetchone()[0]
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KiB on Linux
        stats = "\n".join(line for line in done.stderr.splitlines() if "newscrawl/feeds" in line)
        return SitemapRun(
            urls, site.hits["sitemap"], site.hits["page"], records, elapsed, peak_mb, done.returncode, stats
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m newscrawl.bench.sitemaps", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--urls", type=int, default=5_000_000, help="URLs the sitemaps list (5,000,000)")
    parser.add_argument("--per-sitemap", type=int, default=50_000, help="URLs per sitemap (50,000)")
    parser.add_argument("--seconds", type=int, default=120, help="length of the crawl (120)")
    add_setting_option(parser, help="a setting for the crawler (repeatable)")
    args = parser.parse_args(argv)
    if min(args.urls, args.per_sitemap, args.seconds) < 1:
        parser.error("--urls, --per-sitemap and --seconds must be at least 1")
    run = measure(args.urls, args.per_sitemap, args.seconds, dict(args.set))
    verdict = "under" if run.peak_rss_mb < PEAK_RSS_LIMIT_MB else "OVER"
    print(
        f"{run.urls:,} URLs in sitemaps: {run.sitemaps_served} sitemaps and {run.pages_served} pages served, "
        f"{run.records} records stored in {run.seconds:.0f} s; crawler peak RSS {run.peak_rss_mb:.0f} MB "
        f"({verdict} {PEAK_RSS_LIMIT_MB} MB)"
    )
    if run.stats:
        print(run.stats)
    return 0 if run.returncode == 0 and run.peak_rss_mb < PEAK_RSS_LIMIT_MB else 1


if __name__ == "__main__":
    sys.exit(main())
