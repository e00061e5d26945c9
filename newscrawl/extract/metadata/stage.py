"""The metadata stage of ``extract``: every field chain run on the page and its main text, each guarded.

``find_metadata`` is the one function ``extract``, ``explain`` and ``newscrawl bench --metadata`` call. A
chain that raises is logged, recorded in ``failures`` and its field left empty: a bad page never loses
the other fields.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from newscrawl.extract.metadata.author import split_names
from newscrawl.extract.metadata.credits import People, credit_value, find_people
from newscrawl.extract.metadata.description import find_description
from newscrawl.extract.metadata.images import find_images
from newscrawl.extract.metadata.keywords import find_tags
from newscrawl.extract.metadata.language import find_language
from newscrawl.extract.metadata.published import find_modified, find_published, time_context
from newscrawl.extract.metadata.section import find_section
from newscrawl.extract.metadata.title import SiteContext, find_title
from newscrawl.extract.page import Page
from newscrawl.extract.result import NOT_FOUND, BodyResult, Found

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Metadata:
    """What the metadata stage found: ``fields`` are ``Extraction`` keyword arguments, ``sources`` the
    rule behind each, ``failures`` the chains that raised (field -> error)."""

    fields: Mapping[str, Any]
    sources: Mapping[str, str | None]
    failures: Mapping[str, str]


def find_metadata(
    page: Page,
    body: BodyResult,
    *,
    reference_time: datetime | None = None,
    timezone: str | None = None,
    overrides: Mapping[str, str] | None = None,
) -> Metadata:
    """Title, publish and modification time, people and provenance, description, images, tags, section
    and language. ``overrides`` are the texts a site's XPath overrides found (``read_fields``): they win,
    source ``xpath``; times are parsed like every other value, credits lose their labels ("作者：")."""
    failures: dict[str, str] = {}
    page.shared.clear()  # (what the chains share is computed afresh on every run: metadata.shared)
    meta = page.meta
    given = overrides or {}
    title = Found(given["title"], "xpath") if "title" in given else _guarded(
        "title", failures, find_title, page, body
    )
    times = time_context(page, reference=reference_time, timezone=timezone)
    published = _guarded(
        "published_at", failures, find_published, page, body,
        override=given.get("published_at"), context=times,
    )  # fmt: skip
    modified = _guarded(
        "modified_at", failures, find_modified, page, body, override=given.get("modified_at"), context=times
    )
    people: People = _guarded("author", failures, find_people, page, body, default=People())
    people = _overridden(people, given)
    description = _guarded("description", failures, find_description, meta, body)
    images, images_source = _guarded("images", failures, find_images, page, body, default=((), None))
    tags, tags_found = _guarded("tags", failures, _tags, page, body, default=((), NOT_FOUND))
    section = _guarded("section", failures, find_section, page, body, title.value)
    language = _guarded("language", failures, find_language, meta, body.text, title.value)
    fields = {
        "title": title.value,
        "published_at": published.value,
        "modified_at": modified.value,
        "author": people.author.value,
        "authors": people.authors,
        "editor": people.editor.value,
        "source": people.source.value,
        "original_title": people.original_title.value,
        "description": description.value,
        "images": images,
        "tags": tags,
        "section": section.value,
        "language": language.value,
    }
    sources = {
        "title": title.source,
        "published_at": published.source,
        "published_at_zone": getattr(published, "zone", None),
        "modified_at": modified.source,
        "author": people.author.source,
        "editor": people.editor.source,
        "source": people.source.source,
        "original_title": people.original_title.source,
        "description": description.source,
        "images": images_source,
        "tags": tags_found.source,
        "section": section.source,
        "language": language.source,
    }
    return Metadata(fields, sources, failures)


def _tags(page: Page, body: BodyResult) -> tuple[tuple[str, ...], Found]:
    """:func:`find_tags` with the page's shared site context."""
    return find_tags(page.meta, page.url, body.node, SiteContext.of(page))


def _overridden(people: People, given: Mapping[str, str]) -> People:
    """``people`` with the author, editor and source a site's XPath overrides gave, labels dropped."""
    found: dict[str, Found] = {}
    for name in ("author", "editor", "source"):
        value = credit_value(name, given.get(name))
        if value:
            found[name] = Found(value, "xpath")
    if not found:
        return people
    author = found.get("author", people.author)
    authors = split_names(author.value) if "author" in found else people.authors
    return People(
        author, authors, found.get("editor", people.editor), found.get("source", people.source),
        people.original_title,
    )


def _guarded(
    field: str, failures: dict[str, str], fn: Any, *args: Any, default: Any = NOT_FOUND, **kwargs: Any
) -> Any:
    """Run one metadata chain; a failure is logged and recorded, and ``default`` (empty) returned."""
    try:
        return fn(*args, **kwargs)
    except RecursionError:
        failures[field] = "nested too deeply"
        return default
    except Exception as e:
        logger.warning("%s extraction failed: %s: %s", field, type(e).__name__, e, exc_info=True)
        failures[field] = f"{type(e).__name__}: {e}"
        return default
