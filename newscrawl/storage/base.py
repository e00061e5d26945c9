"""The interface every sink implements: open, write a batch (upsert by canonical URL), close.

A sink never sees Scrapy: records are plain mappings with the keys of :data:`RECORD_FIELDS`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

#: the public fields of a record, in export order: the keys a record handed to a sink carries (missing
#: ones are stored as NULL), and the fields of feed exports (``newscrawl.items.EXPORT_FIELDS``)
RECORD_FIELDS: tuple[str, ...] = (
    "url",
    "canonical_url",
    "site",
    "title",
    "published_at",
    "modified_at",
    "author",
    "authors",
    "editor",
    "source",
    "original_title",
    "description",
    "images",
    "tags",
    "section",
    "text",
    "page_kind",
    "page_class",
    "algorithm",
    "language",
    "crawled_at",
    "content_hash",
    "reason",
    "duplicate_of",
    "pages",
)
#: record fields whose values are lists (JSON text in SQLite, jsonb in PostgreSQL)
LIST_FIELDS: tuple[str, ...] = ("authors", "images", "tags")


def decode_row(row: dict[str, Any]) -> dict[str, Any]:
    """A stored row with its list fields turned back from JSON text into lists (in place, returned).

    >>> decode_row({"tags": '["a", "b"]', "title": "T"})
    {'tags': ['a', 'b'], 'title': 'T'}
    """
    for name in LIST_FIELDS:
        value = row.get(name)
        if isinstance(value, str):
            try:
                row[name] = json.loads(value)
            except ValueError:
                pass  # a value written by another program: left as stored
    return row


@runtime_checkable
class Sink(Protocol):
    """A place records are stored. ``write`` upserts: a record whose ``canonical_url`` is already
    stored replaces the stored one, so re-crawling updates rather than duplicates."""

    def open(self) -> None: ...

    def write(self, records: Sequence[Mapping[str, Any]]) -> None: ...

    def close(self) -> None: ...

    def known_urls(self, urls: Iterable[str] | None = None) -> set[str]:
        """The stored URLs (both request and canonical URLs) among ``urls``, or all when None."""
        ...
