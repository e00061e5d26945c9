"""Each crawl's figures in the store's ``crawls`` table, for ``newscrawl report`` and its drift alerts.

:class:`CrawlHistory` (an extension, in ``EXTENSIONS``) is on while the SQLite store is
(``NEWSCRAWL_SQLITE_PATH``) and ``NEWSCRAWL_CRAWL_HISTORY`` is true. It counts the records of the crawl
that have a title, a publish time, an author and a text, their text lengths and extractors, and when the
spider closes adds a row with those, the pages fetched and the drops by reason
(:func:`newscrawl.storage.history.record_crawl`). A store that cannot take the row costs a log line.
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import UTC, datetime
from typing import Any

from scrapy import Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.statscollectors import StatsCollector

from newscrawl.crawl.config import with_defaults
from newscrawl.storage.history import FILL_FIELDS, CrawlFigures, record_crawl

logger = logging.getLogger(__name__)

#: text lengths are counted in buckets of this many characters (the median needs no list of every page)
LENGTH_BUCKET = 10


def bucket_median(counts: Counter[int]) -> int | None:
    """The median of values counted by bucket (the bucket's lower bound).

    >>> bucket_median(Counter({10: 1, 20: 1, 500: 1}))
    20
    """
    total = sum(counts.values())
    if not total:
        return None
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if 2 * seen >= total:
            return value
    return None  # not reached


class CrawlHistory:
    """Extension adding this crawl's figures to the store's ``crawls`` table when the spider closes."""

    def __init__(self, path: str, stats: StatsCollector | None = None) -> None:
        self.path = path
        self.stats = stats
        self.started = datetime.now(UTC)
        self.records = 0
        self.filled: Counter[str] = Counter()
        self.lengths: Counter[int] = Counter()
        self.algorithms: Counter[str] = Counter()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlHistory:
        settings = with_defaults(crawler.settings)
        path = settings.get("NEWSCRAWL_SQLITE_PATH")
        if not path or not settings.getbool("NEWSCRAWL_CRAWL_HISTORY"):
            raise NotConfigured
        ext = cls(str(path), crawler.stats)
        crawler.signals.connect(ext.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def item_scraped(self, item: Any) -> None:
        self.records += 1
        for label, name in FILL_FIELDS.items():
            if item.get(name):
                self.filled[label] += 1
        text = item.get("text") or ""
        self.lengths[len(text) // LENGTH_BUCKET * LENGTH_BUCKET] += 1
        self.algorithms[str(item.get("algorithm") or "none")] += 1

    def figures(self, site: str, reason: str | None) -> CrawlFigures:
        stats = self.stats.get_stats() if self.stats is not None else {}
        prefix = "newscrawl/dropped/"
        return CrawlFigures(
            site=site,
            started_at=self.started.isoformat(timespec="seconds"),
            finished_at=datetime.now(UTC).isoformat(timespec="seconds"),
            finish_reason=reason,
            pages=int(stats.get("response_received_count", 0)),
            records=self.records,
            fill={
                label: round(self.filled[label] / self.records, 4) if self.records else None
                for label in FILL_FIELDS
            },
            median_text_chars=bucket_median(self.lengths),
            algorithms=dict(self.algorithms),
            dropped={k[len(prefix) :]: int(v) for k, v in stats.items() if k.startswith(prefix)},
        )

    def spider_closed(self, spider: Spider, reason: str) -> None:
        from newscrawl.storage.sqlite import connect

        figures = self.figures(spider.name, reason)
        try:
            db = connect(self.path)
            try:
                record_crawl(db, figures)
            finally:
                db.close()
        except Exception as e:  # the history is a report: losing its row must not fail the crawl
            logger.error("crawl history: cannot record this crawl in %s: %s", self.path, e)
