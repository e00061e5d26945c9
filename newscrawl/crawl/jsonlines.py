"""Scrapy's JSON-lines feed exporter, byte for byte, without its cost per field (installed for the
``jsonlines`` and ``jl`` formats by :class:`newscrawl.crawl.feedexport.FeedAddon`).

Scrapy's exporters module is imported only when an item needs it (see :class:`JsonLinesExporter`): it
imports itemadapter, which imports pydantic and attrs when they are installed, 80-85 ms of CPU at every
``newscrawl reextract`` (about a seventh of its start-up) for records that never need them.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from scrapy import Item


class _ScrapyJSONEncoder(json.JSONEncoder):
    """Scrapy's ``ScrapyJSONEncoder``: the same options, the same ``default`` (asked of a
    ``ScrapyJSONEncoder`` made with them, imported when a value first needs it: a set, a date, an item...),
    so the same text."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._kwargs = kwargs
        self._scrapy: json.JSONEncoder | None = None

    def default(self, o: Any) -> Any:
        if self._scrapy is None:
            from scrapy.utils.serialize import ScrapyJSONEncoder

            self._scrapy = ScrapyJSONEncoder(**self._kwargs)
        return self._scrapy.default(o)


class JsonLinesExporter:
    """Scrapy's ``JsonLinesItemExporter``, byte for byte, without its cost per field.

    Scrapy builds each line's object through ``get_serialized_fields``: an ``ItemAdapter`` per item, and
    per field a membership test, a look-up of the field's metadata and a call of its serializer, through
    a generator (57 us of a 1,000-record re-extraction's 1.3 ms a record in the main process). For what
    newscrawl exports -- a Scrapy item or a dict, ``FEED_EXPORT_FIELDS`` a list of names, no field with a
    ``serializer``, ``serialize_field`` not overridden -- that object is the item's values of those
    fields, in that order, the missing ones left out (or None with ``export_empty_fields``): built here
    straight from the item's values, and encoded as Scrapy's encoder does. Anything else (a ``fields``
    mapping, a serializer, an item of another kind) is written by a ``JsonLinesItemExporter`` on the same
    file and options (its ``serialize_field`` this exporter's), made when first needed.
    """

    def __init__(self, file: Any, **kwargs: Any) -> None:
        self.file = file
        self._kwargs = dict(kwargs)
        # BaseItemExporter._configure, and JsonLinesItemExporter's encoder options
        options = dict(kwargs)
        self.encoding: str | None = options.pop("encoding", None)
        self.fields_to_export: Any = options.pop("fields_to_export", None)
        self.export_empty_fields: bool = options.pop("export_empty_fields", False)
        self.indent: int | None = options.pop("indent", None)
        options.setdefault("ensure_ascii", not self.encoding)
        self.encoder: json.JSONEncoder = _ScrapyJSONEncoder(**options)
        fields = self.fields_to_export
        plain = (
            isinstance(fields, list | tuple)
            and all(isinstance(name, str) for name in fields)
            and type(self).serialize_field is JsonLinesExporter.serialize_field
        )
        #: the names exported, when the fast path may be taken
        self._names: tuple[str, ...] | None = tuple(fields) if plain and fields is not None else None
        #: item type -> whether its items take the fast path (see :meth:`_plain_type`)
        self._plain: dict[type, bool] = {}
        #: Scrapy's exporter, for the items the fast path does not take
        self._scrapy: Any = None

    def serialize_field(self, field: Any, name: str, value: Any) -> Any:
        """``BaseItemExporter.serialize_field``: the field's ``serializer`` applied, if it has one."""
        serializer = field.get("serializer", lambda x: x)
        return serializer(value)

    def start_exporting(self) -> None:
        pass

    def finish_exporting(self) -> None:
        pass

    def _plain_type(self, item: Any) -> bool:
        """True when ``item``'s type is read as a dict by ItemAdapter (a Scrapy item, a dict) and none of
        the exported fields has metadata that changes its value (a serializer). Without itemadapter
        imported (no adapter of a project's own can be registered), by ItemAdapter's default adapters'
        tests: a Scrapy item, then a dict."""
        if "itemadapter" in sys.modules:
            from itemadapter import ItemAdapter
            from itemadapter.adapter import DictAdapter, ScrapyItemAdapter

            adapter = ItemAdapter(item).adapter
            if isinstance(adapter, DictAdapter):
                return True  # a dict's fields have no metadata
            if not isinstance(adapter, ScrapyItemAdapter) or not isinstance(item, Item):
                return False
        elif not isinstance(item, Item):
            return isinstance(item, dict)
        declared = type(item).fields  # a Scrapy item holds declared fields only
        return all("serializer" not in declared.get(name, {}) for name in self._names or ())

    def _scrapy_exporter(self) -> Any:
        if self._scrapy is None:
            from scrapy.exporters import JsonLinesItemExporter

            owner = self

            class Exporter(JsonLinesItemExporter):
                def serialize_field(self, field: Any, name: str, value: Any) -> Any:
                    return owner.serialize_field(field, name, value)

            self._scrapy = Exporter(self.file, **self._kwargs)
        return self._scrapy

    def export_item(self, item: Any) -> None:
        names = self._names
        plain = None if names is None else self._plain.get(type(item))
        if plain is None and names is not None:
            plain = self._plain[type(item)] = self._plain_type(item)
        if not plain or names is None:
            self._scrapy_exporter().export_item(item)
            return
        values = item._values if isinstance(item, Item) else item
        if self.export_empty_fields:
            itemdict = {name: values.get(name) for name in names}
        else:
            itemdict = {name: values[name] for name in names if name in values}
        data = self.encoder.encode(itemdict) + "\n"
        self.file.write(data.encode(self.encoding or "utf-8"))
