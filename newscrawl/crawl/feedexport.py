"""Scrapy's feed exporter (``-o``/``-O``/``FEEDS``), with a feed that cannot be written failing the crawl.

Scrapy logs a traceback for every item a full disk refuses and for a feed it cannot store, then ends the
crawl ``finished`` with exit code 0 and a cut file. Here the first write error is one ERROR line naming
the feed and the cause; the crawl stops with finish reason :data:`FEED_FAILED` (``scrapy crawl`` exits
with 1), later items are counted in ``newscrawl/feed/not_written``. A feed that fails when it is stored
at the end (the last buffered lines) sets the same finish reason. The records stay in the store, the
source of truth: ``newscrawl export`` writes the feed again from it.

JSON-lines feeds (formats ``jsonlines`` and ``jl``) are written by
:class:`newscrawl.crawl.jsonlines.JsonLinesExporter`, Scrapy's exporter with the record's fields read
straight from the item: the same bytes, a third of the time.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from typing import Any

from scrapy import Spider
from scrapy.exceptions import NotConfigured
from scrapy.extensions import feedexport
from scrapy.settings import SETTINGS_PRIORITIES, BaseSettings
from scrapy.utils.defer import deferred_from_coro
from scrapy.utils.misc import load_object
from scrapy.utils.python import without_none_values

logger = logging.getLogger(__name__)

#: finish reason of a crawl stopped because a feed could not be written
FEED_FAILED = "feed_write_failed"
#: the feed formats :class:`~newscrawl.crawl.jsonlines.JsonLinesExporter` writes (Scrapy's names for its
#: JSON-lines exporter)
JSON_LINES_FORMATS = ("jsonlines", "jl")
#: named, not imported: Scrapy's feed exporter loads it with its own exporters when a feed is asked for, so
#: a crawl without a feed does not import Scrapy's exporters module
JSON_LINES_EXPORTER = "newscrawl.crawl.jsonlines.JsonLinesExporter"


class FeedAddon:
    """Add-on (in ``ADDONS``): :class:`FeedExporter` instead of Scrapy's, in ``EXTENSIONS`` whatever
    that setting's priority (so a project's or another add-on's ``EXTENSIONS`` keeps both changes)."""

    def update_settings(self, settings: BaseSettings) -> None:
        settings.set_in_component_priority_dict("EXTENSIONS", feedexport.FeedExporter, None)
        settings.setdefault_in_component_priority_dict("EXTENSIONS", FeedExporter, 0)
        # JSON lines by JsonLinesExporter, unless the project names an exporter of its own for the format
        exporters = settings.getdict("FEED_EXPORTERS")
        for name in JSON_LINES_FORMATS:
            exporters.setdefault(name, JSON_LINES_EXPORTER)
        priority = max(settings.getpriority("FEED_EXPORTERS") or 0, SETTINGS_PRIORITIES["addon"])
        settings.set("FEED_EXPORTERS", exporters, priority=priority)


class OnDemand(Mapping[str, Any]):
    """Scrapy's feed exporter's storages or exporters (``FEED_STORAGES``, ``FEED_EXPORTERS``, by name),
    each loaded when it is first asked for, not all of them at start-up (a component whose import raises
    ``NotConfigured`` is left out, as Scrapy leaves it out).

    >>> exporters = OnDemand({"jsonlines": "json.JSONEncoder", "xml": "no.such.Module"})
    >>> "jsonlines" in exporters, exporters["jsonlines"].__name__
    (True, 'JSONEncoder')
    """

    def __init__(self, paths: Mapping[str, Any]) -> None:
        self._paths = dict(paths)
        self._loaded: dict[str, Any] = {}

    def _load(self, name: str) -> Any:
        if name not in self._loaded:
            try:
                self._loaded[name] = load_object(self._paths[name])
            except NotConfigured:
                self._loaded[name] = None
        return self._loaded[name]

    def __getitem__(self, name: str) -> Any:
        component = self._load(name) if name in self._paths else None
        if component is None:
            raise KeyError(name)
        return component

    def __iter__(self) -> Iterator[str]:
        return (name for name in self._paths if self._load(name) is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


class FeedExporter(feedexport.FeedExporter):
    """Scrapy's feed exporter; a write error stops the crawl (installed by :class:`FeedAddon`). Its
    storages and exporters are loaded when a feed asks for them (:class:`OnDemand`): Scrapy loads every
    one at start-up, and its exporters' module imports itemadapter (with pydantic and attrs, when
    installed: 80-85 ms of CPU) for feeds that never use them."""

    failure: str | None = None

    def _load_components(self, setting_prefix: str) -> dict[str, Any]:
        conf = without_none_values(self.settings.getwithbase(setting_prefix))
        return OnDemand(conf)  # type: ignore[return-value]

    def _inc(self, key: str, count: int = 1) -> None:
        if self.crawler.stats is not None:
            self.crawler.stats.inc_value(key, count)

    def item_scraped(self, item: Any, spider: Spider) -> None:
        if self.failure is not None:
            self._inc("newscrawl/feed/not_written")
            return
        try:
            super().item_scraped(item, spider)
        except OSError as e:
            self.failure = e.strerror or str(e)
            feeds = ", ".join(str(slot.uri) for slot in self.slots)
            reason = FEED_FAILED
            message = "feed %s: cannot write: %s; the crawl stops (finish reason %s)"
            logger.error(message, feeds, self.failure, reason)
            self._inc("newscrawl/feed/write_failed")
            self._inc("newscrawl/feed/not_written")
            engine = self.crawler.engine
            if engine.spider is not None:
                deferred_from_coro(engine.close_spider_async(reason=FEED_FAILED))

    async def close_spider(self, spider: Spider) -> None:
        try:
            await super().close_spider(spider)
        except OSError as e:  # the exporter's last write, before the store step
            self.failure = self.failure or e.strerror or str(e)
            logger.error("feed: cannot finish writing: %s", self.failure)
        stats = self.crawler.stats
        failed = stats is not None and any(
            key.startswith("feedexport/failed_count/") and value for key, value in stats.get_stats().items()
        )
        if (self.failure is not None or failed) and stats is not None:
            stats.set_value("finish_reason", FEED_FAILED)
