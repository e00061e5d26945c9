"""Peak memory of a whole crawl: the generated loopback portal crawled by ``scrapy crawl`` in a subprocess.

``python -m newscrawl.bench.memory [--pages 5000] [-s NAME=VALUE ...]`` serves
:mod:`newscrawl.bench.site`'s portal of N articles, crawls it with the real spider and pipelines
(extraction, near-duplicates and the SQLite store on, as by default) and prints the crawler process's
peak resident set size (``getrusage`` of the waited child: the kernel's high-water mark, so nothing
between two samples is missed), pages served, records stored and wall time; and, since extraction runs in
worker processes, the highest memory of the crawler's whole process tree (crawler, fork server, workers),
sampled every :data:`SAMPLE_SECONDS` from ``/proc``: the sum of the processes' proportional set sizes
(``Pss``: a page shared by n processes after forking counts 1/n in each), which is what the tree takes
from the machine. That total is what :data:`PEAK_RSS_LIMIT_MB` bounds.
"""

from __future__ import annotations

import argparse
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from newscrawl.bench.site import SITE_NAME, crawl_command, crawler_env, serve
from newscrawl.cli.options import add_setting_option

#: the target of issue 13: a 5,000-page crawl with its extraction workers stays under this peak resident set
#: size (issue 6 asked 500 MB of the crawler alone)
PEAK_RSS_LIMIT_MB = 300
#: seconds between two samples of the process tree's resident set size
SAMPLE_SECONDS = 0.1


@dataclass(frozen=True)
class MemoryRun:
    articles: int
    pages_served: int
    records: int
    seconds: float
    peak_rss_mb: float
    returncode: int
    #: the highest sampled resident set size of the crawler and all its descendants
    tree_peak_rss_mb: float = 0.0


def tree_rss_kib(root: int) -> int:
    """Memory (KiB) of process ``root`` and all its descendants: the sum of their proportional set sizes
    (resident set sizes where ``smaps_rollup`` is missing), from ``/proc`` (0 without)."""
    parents: dict[int, int] = {}
    for entry in os.scandir("/proc") if os.path.isdir("/proc") else ():
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
                parents[int(entry.name)] = int(fields[1])
            except (OSError, IndexError, ValueError):
                continue
    tree, grew = {root}, True
    while grew:
        found = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= found
        grew = bool(found)
    total = 0
    for pid in tree:
        try:
            with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
                total += next(int(line.split()[1]) for line in f if line.startswith(b"Pss:"))
        except (OSError, IndexError, ValueError, StopIteration):
            try:
                with open(f"/proc/{pid}/statm", "rb") as f:
                    total += int(f.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)
            except (OSError, IndexError, ValueError):
                continue
    return total


def _sample_tree(root: int, stop: threading.Event, peak: list[int]) -> None:
    while not stop.wait(SAMPLE_SECONDS):
        peak[0] = max(peak[0], tree_rss_kib(root))


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
        args = crawl_command(SITE_NAME, values)
        start = time.monotonic()
        env = crawler_env()
        crawler = subprocess.Popen(args, cwd=work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   text=True)
        stop, tree_peak = threading.Event(), [0]
        sampler = threading.Thread(target=_sample_tree, args=(crawler.pid, stop, tree_peak), daemon=True)
        sampler.start()
        try:
            _, stderr = crawler.communicate(timeout=timeout)
        finally:
            stop.set()
            sampler.join()
        seconds = time.monotonic() - start
        if crawler.returncode:
            sys.stderr.write(stderr[-3000:])
        records = 0
        if db.exists():
            with sqlite3.connect(db) as conn:
                records = conn.execute("SELECT COUNT(*) FROM articles").fetchone()[0]
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KiB on Linux
        return MemoryRun(
            articles, sum(site.hits.values()), records, seconds, peak_mb, crawler.returncode,
            max(tree_peak[0] / 1024, peak_mb),
        )  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m newscrawl.bench.memory", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--pages", type=int, default=5000, metavar="N", help="articles in the portal (5000)")
    add_setting_option(parser, help="a setting for the crawler (repeatable)")
    args = parser.parse_args(argv)
    if args.pages < 1:
        parser.error("--pages must be at least 1")
    settings = dict(args.set)
    run = measure(args.pages, settings)
    verdict = "under" if run.tree_peak_rss_mb < PEAK_RSS_LIMIT_MB else "OVER"
    print(
        f"{run.articles} articles: {run.pages_served} pages served, {run.records} records stored in "
        f"{run.seconds:.0f} s; crawler peak RSS {run.peak_rss_mb:.0f} MB; with its extraction workers "
        f"{run.tree_peak_rss_mb:.0f} MB at the highest sample (PSS; {verdict} {PEAK_RSS_LIMIT_MB} MB)"
    )
    return 0 if run.returncode == 0 and run.tree_peak_rss_mb < PEAK_RSS_LIMIT_MB else 1


if __name__ == "__main__":
    sys.exit(main())
