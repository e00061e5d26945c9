"""Every crawl says what it did: a summary in the log and a JSON stats file beside its outputs.

:class:`CrawlSummary` (an extension, in ``EXTENSIONS``) counts, per site, how many records have a title,
a publish time, an author and a text (``newscrawl/fill/<site>/<field>``), and when the spider closes logs
:func:`format_summary` of :func:`crawl_summary`: responses by status, pages by kind, records, drops by
reason, errors by type and host, extraction failures and the fill rates. The same summary and every
crawl stat go to ``NEWSCRAWL_STATS_FILE`` (default: beside the first local feed file, ``sina.jsonl`` ->
``sina.stats.json``; without a feed, ``<spider>.stats.json`` beside the SQLite store).

While the crawl runs, :class:`ErrorDigest` (a filter on the log's handlers) turns the error lines of
failed requests -- Scrapy logs each with its traceback, and again for every retry -- into one line per
error type and host; the rest are counted (``newscrawl/errors/<type>/<host>``), not logged.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from scrapy import Spider, signals
from scrapy.crawler import Crawler
from scrapy.http import Request
from scrapy.settings import BaseSettings

from newscrawl.crawl.config import feed_files, with_defaults

logger = logging.getLogger(__name__)

#: stats counting records a crawl did not store anywhere: a store's failed writes (also those of a store
#: that fails only when it closes, after the crawl finished) and records PostgreSQL lost
UNSTORED_STATS = ("newscrawl/sink/write_failed", "newscrawl/sqlite/write_failed", "newscrawl/postgres/lost")
#: stats counting what a crawl lost: any of them above 0 gives exit code 1 whatever the finish reason
LOSS_STATS = (*UNSTORED_STATS, "newscrawl/redis/lost", "newscrawl/postgres/spilled")
#: the record fields whose fill rate the summary reports, by the name it reports them under
FILL_FIELDS = {"title": "title", "date": "published_at", "author": "author", "text": "text"}
#: loggers whose error lines report a request that finally failed (counted); the retry middleware's
#: "gave up" line comes before the scraper's for the same request, so it is shown or hidden, not counted
_FINAL_ERROR_LOGGERS = ("scrapy.core.scraper", "scrapy.downloadermiddlewares.robotstxt")
_RETRY_LOGGER = "scrapy.downloadermiddlewares.retry"


class ErrorDigest(logging.Filter):
    """Lets through the first error line of each (error type, host), without its traceback; drops and
    counts the others. ``counts[(type, host)]`` is the number of requests that failed so."""

    def __init__(self, stats: Any = None) -> None:
        super().__init__()
        self.stats = stats
        self.counts: dict[tuple[str, str], int] = {}
        self._shown: set[tuple[str, str]] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        verdict = getattr(record, "newscrawl_digest", None)
        if verdict is None:  # one decision per record, however many handlers carry the filter
            verdict = self._decide(record)
            record.newscrawl_digest = verdict
        return bool(verdict)

    def _decide(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING or not isinstance(record.args, Mapping):
            return True
        request = record.args.get("request")
        if not isinstance(request, Request):
            return True
        error = _error_type(record)
        if error is None:
            return True
        key = (error, urlsplit(request.url).hostname or "?")
        if record.name != _RETRY_LOGGER:
            self.counts[key] = self.counts.get(key, 0) + 1
            if self.stats is not None:
                self.stats.inc_value(f"newscrawl/errors/{key[0]}/{key[1]}")
        if key in self._shown:
            return False
        self._shown.add(key)
        spider_bug = record.getMessage().startswith("Spider error")
        if not spider_bug:  # a bug in a callback keeps its first traceback: it is needed to fix it
            record.exc_info = None
            record.exc_text = None
        record.msg = f"{record.getMessage()} [further {error} on {key[1]} counted, not logged]"
        record.args = None
        return True


def _error_type(record: logging.LogRecord) -> str | None:
    """The error a failed-request log line reports: its exception's class name, or the retry reason."""
    if record.exc_info and record.exc_info[1] is not None:
        return type(record.exc_info[1]).__name__
    reason = record.args.get("reason") if isinstance(record.args, Mapping) else None
    if isinstance(reason, BaseException):
        return type(reason).__name__
    if isinstance(reason, str) and reason:
        return reason if not reason[:3].isdigit() else f"HTTP {reason}"
    if record.name in _FINAL_ERROR_LOGGERS:
        return "error"
    return None


def lost(stats: Mapping[str, Any], keys: tuple[str, ...] = LOSS_STATS) -> int:
    """How many records (or requests) the crawl lost, by the stats ``keys`` (default :data:`LOSS_STATS`)."""
    return sum(int(stats.get(key) or 0) for key in keys)


def no_response(stats: Mapping[str, Any]) -> bool:
    """True when the crawl sent requests and received no response at all (every request failed).

    A process of a distributed crawl that found the shared frontier empty sent none: not a failure.
    """
    return bool(stats.get("downloader/request_count")) and not stats.get("response_received_count")


def _group(stats: Mapping[str, Any], prefix: str) -> dict[str, int]:
    return {k[len(prefix) :]: int(v) for k, v in sorted(stats.items()) if k.startswith(prefix)}


def crawl_summary(stats: Mapping[str, Any]) -> dict[str, Any]:
    """The crawl's story from its stats, as plain data (what the JSON stats file holds under ``summary``)."""
    errors: dict[str, dict[str, int]] = {}
    for key, count in _group(stats, "newscrawl/errors/").items():
        error, _, host = key.rpartition("/")
        errors.setdefault(error, {})[host] = count
    fill: dict[str, dict[str, Any]] = {}
    for key, count in _group(stats, "newscrawl/fill/").items():
        site, _, field = key.rpartition("/")
        fill.setdefault(site, {})[field] = count
    fill_rates = {
        site: {
            "records": counts.get("records", 0),
            **{
                label: round(counts.get(label, 0) / counts["records"], 3) if counts.get("records") else None
                for label in FILL_FIELDS
            },
        }
        for site, counts in sorted(fill.items())
    }
    return {
        "spider": stats.get("newscrawl/summary/spider"),
        "finish_reason": stats.get("finish_reason") or stats.get("newscrawl/summary/finish_reason"),
        "elapsed_seconds": stats.get("elapsed_time_seconds") or stats.get("newscrawl/summary/elapsed"),
        "requests": int(stats.get("downloader/request_count", 0)),
        "responses": int(stats.get("response_received_count", 0)),
        "no_response": no_response(stats),
        "responses_by_status": _group(stats, "downloader/response_status_count/"),
        "pages_by_kind": _group(stats, "newscrawl/pages/"),
        "records": int(stats.get("item_scraped_count", 0)),
        "dropped": _group(stats, "newscrawl/dropped/"),
        "errors": errors,
        "spider_errors": {k: v for k, v in _group(stats, "spider_exceptions/").items() if k != "count"},
        "extraction": _group(stats, "newscrawl/extract/"),
        "fill_rates": fill_rates,
    }


def _counts(counts: Mapping[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in counts.items()) or "none"


def format_summary(summary: Mapping[str, Any]) -> str:
    """:func:`crawl_summary` as the lines the log shows."""
    elapsed = summary.get("elapsed_seconds")
    took = f" in {elapsed:.1f} s" if isinstance(elapsed, int | float) else ""
    lines = [
        f"crawl summary of {summary.get('spider') or '?'} ({summary.get('finish_reason') or '?'}{took}):",
        f"  responses          {summary['responses']} (by status: {_counts(summary['responses_by_status'])})",
        f"  pages by kind      {_counts(summary['pages_by_kind'])}",
        f"  records            {summary['records']}",
        f"  dropped            {_counts(summary['dropped'])}",
    ]
    errors = [
        f"{error} on {host} {count}"
        for error, hosts in summary["errors"].items()
        for host, count in hosts.items()
    ]
    errors += [f"{name} in the spider {count}" for name, count in summary["spider_errors"].items()]
    lines.append(f"  errors             {', '.join(errors) or 'none'}")
    lines.append(f"  extraction         {_counts(summary['extraction'])}")
    for site, rates in summary["fill_rates"].items():
        shown = ", ".join(
            f"{label} {rate:.0%}" for label, rate in rates.items() if label != "records" and rate is not None
        )
        lines.append(f"  filled ({site})  {shown} of {rates['records']} records")
    if summary["no_response"]:
        lines.append(f"  no response to any of {summary['requests']} requests: check the network, the start "
                     "URLs and the errors above")
    return "\n".join(lines)


def stats_path(settings: BaseSettings, spider_name: str) -> Path | None:
    """Where the JSON stats go: ``NEWSCRAWL_STATS_FILE``, else beside the first local feed, else beside the
    SQLite store; None when the crawl writes no file at all."""
    settings = with_defaults(settings)
    given = settings.get("NEWSCRAWL_STATS_FILE")
    if given:
        return Path(given)
    feeds = feed_files(settings)
    if feeds:
        feed = feeds[0][1]
        return feed.with_name(f"{feed.stem}.stats.json")
    store = settings.get("NEWSCRAWL_SQLITE_PATH")
    if store and store != ":memory:":
        return Path(store).with_name(f"{spider_name}.stats.json")
    return None


class CrawlSummary:
    """Extension: fill rates per site, the error digest while the crawl runs, the summary at its end."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.digest = ErrorDigest(crawler.stats)
        self._handlers: list[logging.Handler] = []
        self.path: Path | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlSummary:
        extension = cls(crawler)
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(extension.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def spider_opened(self, spider: Spider) -> None:
        self.path = stats_path(self.crawler.settings, spider.name)
        for handler in logging.getLogger().handlers:
            handler.addFilter(self.digest)
            self._handlers.append(handler)

    def item_scraped(self, item: Any, spider: Spider) -> None:
        if self.stats is None or "url" not in item:
            return
        site = item.get("site") or spider.name
        self.stats.inc_value(f"newscrawl/fill/{site}/records")
        for label, name in FILL_FIELDS.items():
            if item.get(name):
                self.stats.inc_value(f"newscrawl/fill/{site}/{label}")

    def spider_closed(self, spider: Spider, reason: str) -> None:
        for handler in self._handlers:
            handler.removeFilter(self.digest)
        self._handlers = []
        if self.stats is None:
            return
        stats = dict(self.stats.get_stats())
        start = stats.get("start_time")
        stats.setdefault("finish_reason", reason)
        if isinstance(start, datetime) and "elapsed_time_seconds" not in stats:
            stats["elapsed_time_seconds"] = round((datetime.now(tz=UTC) - start).total_seconds(), 3)
        stats["newscrawl/summary/spider"] = spider.name
        summary = crawl_summary(stats)
        log = logger.warning if summary["no_response"] else logger.info
        log("%s", format_summary(summary))
        if self.path is not None:
            self.write(self.path, summary, stats)

    def write(self, path: Path, summary: Mapping[str, Any], stats: Mapping[str, Any]) -> None:
        """The summary and every stat as JSON (times as ISO 8601); a file that cannot be written is logged."""
        data = {"summary": summary, "stats": {k: _plain(v) for k, v in sorted(stats.items())}}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.{os.getpid()}")
            tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
            tmp.replace(path)
        except OSError as e:
            logger.error("crawl stats not written to %s: %s", path, e.strerror or e)
            return
        logger.info("crawl stats written to %s", path)


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, int | float | str | bool) or value is None:
        return value
    return str(value)
