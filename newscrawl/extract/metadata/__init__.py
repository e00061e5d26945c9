"""Metadata of an article page: title, publish and modification time, people and provenance (author,
editor, source, original title), description, images, tags, section and language. Each is an ordered
fallback chain that reports which rule produced the value (``Found.source``)."""

from newscrawl.extract.metadata.author import find_author
from newscrawl.extract.metadata.collect import collect_page_meta
from newscrawl.extract.metadata.credits import People, find_people
from newscrawl.extract.metadata.description import find_description
from newscrawl.extract.metadata.images import find_images
from newscrawl.extract.metadata.keywords import find_tags
from newscrawl.extract.metadata.language import find_language
from newscrawl.extract.metadata.published import find_modified, find_published, time_context
from newscrawl.extract.metadata.section import find_section
from newscrawl.extract.metadata.title import find_title

__all__ = [
    "People",
    "collect_page_meta",
    "find_author",
    "find_description",
    "find_images",
    "find_language",
    "find_modified",
    "find_people",
    "find_published",
    "find_section",
    "find_tags",
    "find_title",
    "time_context",
]
