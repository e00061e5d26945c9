"""Resuming a ``JOBDIR`` crawl that was killed (SIGKILL, power loss, out of memory) rather than paused.

Scrapy persists a crawl's state in ``JOBDIR`` only when it closes: the disk queue's index
(``requests.queue/active.json``) and the queue files' headers are written then, and the fingerprints of
seen requests (``requests.seen``) go through a write buffer. After a kill, ``requests.seen`` holds some of
the requests made -- including ones still queued, in flight, or scraped into a batch the sink never
wrote -- while the queue holding them is unreadable or stale. Resumed as is, those pages are filtered as
seen and never fetched again: lost.

:class:`JobdirGuard` marks a running crawl (once its spider is open: a crawl that fails to start
leaves a paused crawl's queue alone) with a file in ``JOBDIR`` and removes it when the crawl closes
(after the scheduler has saved its state). A crawl that finds the mark left behind starts its request
queue and seen-requests afresh, with a warning and the stat ``newscrawl/jobdir/unclean_resume``. Start
points are revisited, and articles already in the SQLite store are skipped by
:class:`~newscrawl.middlewares.StoredArticlesMiddleware` (``NEWSCRAWL_INCREMENTAL``), so every page ends
up stored exactly once: the store's upsert by canonical URL makes a page fetched twice one row.
A crawl paused cleanly (one Ctrl-C) resumes from its saved queue as usual; one stopped because its
store could not write (:data:`~newscrawl.pipelines.storage.SINK_FAILED`, or a write that failed only as
the store closed: :data:`~newscrawl.crawl.summary.UNSTORED_STATS`) keeps the mark, so its resumption starts
afresh too (the records of the failed write are not stored, yet seen).

:class:`JobdirAddon` (in ``ADDONS``) installs the extension; it adds itself to ``EXTENSIONS`` whatever that
setting's priority, so a project's or another add-on's ``EXTENSIONS`` keeps it.
"""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path

from scrapy import Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.settings import BaseSettings
from scrapy.statscollectors import StatsCollector

from newscrawl.crawl.summary import UNSTORED_STATS, lost
from newscrawl.pipelines.storage import SINK_FAILED

logger = logging.getLogger(__name__)

#: the file marking a crawl in progress in its JOBDIR
RUNNING_MARK = "newscrawl.running"
#: what Scrapy keeps in JOBDIR that a killed crawl leaves incomplete (the spider's own state, written at
#: the last clean close, is kept)
UNSAFE_AFTER_KILL = ("requests.seen", "requests.queue")


class JobdirGuard:
    """Extension: a ``JOBDIR`` left by a killed crawl has its request queue and seen-requests reset."""

    def __init__(self, jobdir: str | Path, stats: StatsCollector | None = None) -> None:
        self.jobdir = Path(jobdir)
        self.stats = stats
        self.mark = self.jobdir / RUNNING_MARK
        self.unclean = self.mark.exists()
        if self.unclean:
            self.reset()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> JobdirGuard:
        jobdir = crawler.settings.get("JOBDIR")
        if not jobdir:
            raise NotConfigured
        # built with the extensions, before the scheduler reads JOBDIR
        guard = cls(jobdir, crawler.stats)
        crawler.signals.connect(guard.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(guard.spider_closed, signal=signals.spider_closed)
        return guard

    def reset(self) -> None:
        logger.warning(
            "JOBDIR %s was left by a crawl that did not close (killed?): its request queue and seen "
            "requests are incomplete, so they start afresh; start points are revisited and stored "
            "articles skipped",
            self.jobdir,
        )
        for name in UNSAFE_AFTER_KILL:
            path = self.jobdir / name
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink(missing_ok=True)

    def spider_opened(self, spider: Spider) -> None:
        # marked once the crawl runs: a crawl that failed to start leaves a paused crawl's queue alone
        self.jobdir.mkdir(parents=True, exist_ok=True)
        self.mark.write_text(f"{os.getpid()}\n", encoding="ascii")
        if self.unclean and self.stats is not None:
            self.stats.set_value("newscrawl/jobdir/unclean_resume", 1)

    def spider_closed(self, spider: Spider, reason: str) -> None:
        # a sink that failed lost records whose requests are saved as seen: the next run must reset too (a
        # store whose last write failed as it closed finished the crawl, yet lost those records)
        if reason == SINK_FAILED or (self.stats is not None and lost(self.stats.get_stats(), UNSTORED_STATS)):
            return
        # spider_closed comes after the scheduler saved its queue and seen requests
        self.mark.unlink(missing_ok=True)


class JobdirAddon:
    """Add-on: installs :class:`JobdirGuard` (it switches itself off without ``JOBDIR``)."""

    def update_settings(self, settings: BaseSettings) -> None:
        settings.setdefault_in_component_priority_dict("EXTENSIONS", JobdirGuard, 0)
