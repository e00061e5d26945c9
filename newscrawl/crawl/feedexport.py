"""Scrapy's feed exporter (``-o``/``-O``/``FEEDS``), with a feed that cannot be written failing the crawl.

Scrapy logs a traceback for every item a full disk refuses and for a feed it cannot store, then ends the
crawl ``finished`` with exit code 0 and a cut file. Here the first write error is one ERROR line naming
the feed and the cause; the crawl stops with finish reason :data:`FEED_FAILED` (``scrapy crawl`` exits
with 1), later items are counted in ``newscrawl/feed/not_written``. A feed that fails when it is stored
at the end (the last buffered lines) sets the same finish reason. The records stay in the store, the
source of truth: ``newscrawl export`` writes the feed again from it.

JSON-lines feeds (formats ``jsonlines`` and ``jl``) are written by :class:`JsonLinesExporter`, Scrapy's
exporter with the record's fields read straight from the item: the same bytes, a third of the time.
"""

from __future__ import annotations

import logging
from typing import Any

from itemadapter import ItemAdapter
from itemadapter.adapter import DictAdapter, ScrapyItemAdapter
from scrapy import Item, Spider
from scrapy.exporters import BaseItemExporter, JsonLinesItemExporter
from scrapy.extensions import feedexport
from scrapy.settings import SETTINGS_PRIORITIES, BaseSettings
from scrapy.utils.defer import deferred_from_coro

logger = logging.getLogger(__name__)

#: finish reason of a crawl stopped because a feed could not be written
FEED_FAILED = "feed_write_failed"
#: the feed formats :class:`JsonLinesExporter` writes (Scrapy's names for its JSON-lines exporter)
JSON_LINES_FORMATS = ("jsonlines", "jl")


class FeedAddon:
    """Add-on (in ``ADDONS``): :class:`FeedExporter` instead of Scrapy's, in ``EXTENSIONS`` whatever
    that setting's priority (so a project's or another add-on's ``EXTENSIONS`` keeps both changes)."""

    def update_settings(self, settings: BaseSettings) -> None:
        settings.set_in_component_priority_dict("EXTENSIONS", feedexport.FeedExporter, None)
        settings.setdefault_in_component_priority_dict("EXTENSIONS", FeedExporter, 0)
        # JSON lines by JsonLinesExporter, unless the project names an exporter of its own for the format
        exporters = settings.getdict("FEED_EXPORTERS")
        for name in JSON_LINES_FORMATS:
            exporters.setdefault(name, JsonLinesExporter)
        priority = max(settings.getpriority("FEED_EXPORTERS") or 0, SETTINGS_PRIORITIES["addon"])
        settings.set("FEED_EXPORTERS", exporters, priority=priority)


class JsonLinesExporter(JsonLinesItemExporter):
    """Scrapy's ``JsonLinesItemExporter``, byte for byte, without its cost per field.

    Scrapy builds each line's object through ``get_serialized_fields``: an ``ItemAdapter`` per item, and
    per field a membership test, a look-up of the field's metadata and a call of its serializer, through
    a generator (57 us of a 1,000-record re-extraction's 1.3 ms a record in the main process). For what
    newscrawl exports -- a Scrapy item or a dict, ``FEED_EXPORT_FIELDS`` a list of names, no field with a
    ``serializer``, ``serialize_field`` not overridden -- that object is the item's values of those
    fields, in that order, the missing ones left out (or None with ``export_empty_fields``): built here
    straight from the item's values, and encoded by the same encoder. Anything else (a ``fields``
    mapping, a serializer, an item of another kind) goes through Scrapy's code.
    """

    def __init__(self, file: Any, **kwargs: Any) -> None:
        super().__init__(file, **kwargs)
        fields = self.fields_to_export
        plain = (
            isinstance(fields, list | tuple)
            and all(isinstance(name, str) for name in fields)
            and type(self).serialize_field is BaseItemExporter.serialize_field
        )
        #: the names exported, when the fast path may be taken
        self._names: tuple[str, ...] | None = tuple(fields) if plain and fields is not None else None
        #: item type -> whether its items take the fast path (see :meth:`_plain_type`)
        self._plain: dict[type, bool] = {}

    def _plain_type(self, item: Any) -> bool:
        """True when ``item``'s type is read as a dict by ItemAdapter (a Scrapy item, a dict) and none of
        the exported fields has metadata that changes its value (a serializer)."""
        adapter = ItemAdapter(item).adapter
        if isinstance(adapter, DictAdapter):
            return True  # a dict's fields have no metadata
        if not isinstance(adapter, ScrapyItemAdapter) or not isinstance(item, Item):
            return False
        declared = type(item).fields  # a Scrapy item holds declared fields only
        return all("serializer" not in declared.get(name, {}) for name in self._names or ())

    def export_item(self, item: Any) -> None:
        names = self._names
        if names is None:
            super().export_item(item)
            return
        kind = type(item)
        plain = self._plain.get(kind)
        if plain is None:
            plain = self._plain[kind] = self._plain_type(item)
        if not plain:
            super().export_item(item)
            return
        values = item._values if isinstance(item, Item) else item
        if self.export_empty_fields:
            itemdict = {name: values.get(name) for name in names}
        else:
            itemdict = {name: values[name] for name in names if name in values}
        data = self.encoder.encode(itemdict) + "\n"
        self.file.write(data.encode(self.encoding or "utf-8"))


class FeedExporter(feedexport.FeedExporter):
    """Scrapy's feed exporter; a write error stops the crawl (installed by :class:`FeedAddon`)."""

    failure: str | None = None

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
