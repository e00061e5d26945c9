"""Metadata of an article page: title, publish and modification time, author. Each is an ordered
fallback chain that reports which rule produced the value (``Found.source``)."""

from newscrawl.extract.metadata.author import find_author
from newscrawl.extract.metadata.collect import collect_page_meta
from newscrawl.extract.metadata.published import find_modified, find_published, time_context
from newscrawl.extract.metadata.title import find_title

__all__ = [
    "collect_page_meta",
    "find_author",
    "find_modified",
    "find_published",
    "find_title",
    "time_context",
]
