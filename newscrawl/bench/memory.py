"""Peak memory of a whole crawl: the generated loopback portal crawled by ``scrapy crawl`` in a subprocess.

``python -m newscrawl.bench.memory [--pages 5000] [-s NAME=VALUE ...]`` serves
:mod:`newscrawl.bench.site`'s portal of N articles, crawls it with the real spider and pipelines
(extraction, near-duplicates and the SQLite store on, as by default) and prints the crawler process's
peak resident set size (``getrusage`` of the waited child: the kernel's high-water mark, so nothing
between two samples is missed), pages served, records stored and wall time.
"""

from __future__ import annotations

import argparse
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from newscrawl.bench.site import SITE_NAME, crawler_env, serve

#: the target of issue 6: a 5,000-page crawl stays under this peak resident set size
PEAK_RSS_LIMIT_MB = 500


@dataclass(frozen=True)
class MemoryRun:
    articles: int
    pages_served: int
    records: int
    seconds: float
    peak_rss_mb: float
    returncode: int


def measure(articles: int, settings: dict[str, str] | None = None, timeout: float = 3600) -> MemoryRun:
    """Crawl a fresh portal of ``articles`` articles in a child process; its peak RSS and counts.

    Call it once per process: the peak is the largest of every child this process has waited for.
    """
    with tempfile.TemporaryDirectory(prefix="newscrawl-benchmem-") as tmp, serve(articles=articles) as site:
        work = Path(tmp)
        site.write_site_file(work / "sites")
        db = work / "store.sqlite3"
        values = {
            "NEWSCRAWL_SITES_DIR": str(work / "sites"),
            "NEWSCRAWL_SQLITE_PATH": str(db),
            "LOG_LEVEL": "WARNING",
            **(settings or {}),
        }
        args = [sys.executable, "-m", "scrapy", "crawl", SITE_NAME]
        for name, value in values.items():
            args += ["-s", f"{name}={value}"]
        start = time.monotonic()
        env = crawler_env()
        done = subprocess.run(args, cwd=work, env=env, capture_output=True, text=True, timeout=timeout)
        seconds = time.monotonic() - start
        if done.returncode:
            sys.stderr.write(done.stderr[-3000:])
        records = 0
        if db.exists():
            with sqlite3.connect(db) as conn:
                records = conn.execute("SELECT COUNT(*) FROM articles").fetchone()[0]
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KiB on Linux
        return MemoryRun(articles, sum(site.hits.values()), records, seconds, peak_mb, done.returncode)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m newscrawl.bench.memory", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--pages", type=int, default=5000, metavar="N", help="articles in the portal (5000)")
    parser.add_argument("-s", "--set", action="append", default=[], metavar="NAME=VALUE", help="a setting")
    args = parser.parse_args(argv)
    if args.pages < 1:
        parser.error("--pages must be at least 1")
    settings = dict(pair.partition("=")[::2] for pair in args.set)
    run = measure(args.pages, settings)
    verdict = "under" if run.peak_rss_mb < PEAK_RSS_LIMIT_MB else "OVER"
    print(
        f"{run.articles} articles: {run.pages_served} pages served, {run.records} records stored in "
        f"{run.seconds:.0f} s; crawler peak RSS {run.peak_rss_mb:.0f} MB ({verdict} {PEAK_RSS_LIMIT_MB} MB)"
    )
    return 0 if run.returncode == 0 and run.peak_rss_mb < PEAK_RSS_LIMIT_MB else 1


if __name__ == "__main__":
    sys.exit(main())
