"""Arc XP's story record: the headline, writers and dates a page built on Arc XP (the Washington Post's
publishing system, also Infobae's, El País's, Reuters') ships in the script that starts
``window.Fusion=window.Fusion||{};`` and assigns ``Fusion.globalContent={...}``.

The metadata reads it only when the page has no JSON-LD article (``collect_page_meta``): most Arc pages
declare the same in meta tags and JSON-LD, and the record can run to a megabyte. The script is the one
``collect_page_meta``'s walk over the page's elements meets anyway (``id="fusion-metadata"``, or
``type="application/javascript"`` opening with ``window.Fusion``): no search of the whole page.
The story's fields feed the chains after JSON-LD's: ``headlines.basic`` the title (``meta:arc:headline``),
``credits.by[].name`` the writers (``arc:credits``), ``display_date`` (then ``first_publish_date``) the
publish time (``arc:display_date``), ``last_updated_date`` the modification time.

>>> script = ('window.Fusion=window.Fusion||{};Fusion.arcSite="x";Fusion.globalContent={"type":"story",'
...           '"headlines":{"basic":"Harbour reopens"},'
...           '"credits":{"by":[{"type":"author","name":"Jane Doe"}]},'
...           '"display_date":"2026-11-24T10:00:00Z"};Fusion.globalContentConfig={};')
>>> story = arc_story(script)
>>> story.headline, story.authors, story.published
('Harbour reopens', ('Jane Doe',), ('display_date', '2026-11-24T10:00:00Z'))
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from newscrawl.extract.lazyre import lazy_compile

#: a script of Arc XP's page shell opens with this (after white space)
FUSION_SCRIPT = lazy_compile(r"\s*window\.Fusion\b")
#: where the story record starts
_GLOBAL_CONTENT = lazy_compile(r"\bFusion\.globalContent\s*=\s*(?=\{)")
#: a Fusion script larger than this is not parsed (an attack, or a dump no story needs)
ARC_SCRIPT_MAX_CHARS = 2_000_000
#: the record types that are one story (a section front's record is a list of teasers)
STORY_TYPES = frozenset(("story", "video", "gallery"))
#: the keys dating the publication, best first (``display_date`` is the one the page shows)
PUBLISHED_KEYS = ("display_date", "first_publish_date", "publish_date")
#: the most writers read from ``credits.by``
MAX_CREDITS = 12


@dataclass(frozen=True, slots=True)
class ArcStory:
    """The fields of an Arc XP story record the metadata reads; a date is ``(key, value)``."""

    headline: str | None
    authors: tuple[str, ...]
    published: tuple[str, str] | None
    modified: tuple[str, str] | None


def arc_story(script: str) -> ArcStory | None:
    """The story in the text of an Arc XP Fusion script, or None (no story record, not JSON, too big)."""
    if len(script) > ARC_SCRIPT_MAX_CHARS:
        return None
    m = _GLOBAL_CONTENT.search(script)
    if m is None:
        return None
    try:
        record, _ = json.JSONDecoder().raw_decode(script, m.end())
    except (ValueError, RecursionError):
        return None
    if not isinstance(record, dict) or record.get("type") not in STORY_TYPES:
        return None
    headlines = record.get("headlines")
    headline = headlines.get("basic") if isinstance(headlines, dict) else None
    credits = record.get("credits")
    by = credits.get("by") if isinstance(credits, dict) else None
    authors: list[str] = []
    for person in by[:MAX_CREDITS] if isinstance(by, list) else ():
        name = person.get("name") if isinstance(person, dict) else None
        if isinstance(name, str) and name.strip() and name.strip() not in authors:
            authors.append(name.strip())
    return ArcStory(
        headline.strip() or None if isinstance(headline, str) else None,
        tuple(authors),
        _date(record, PUBLISHED_KEYS),
        _date(record, ("last_updated_date",)),
    )


def _date(record: dict[str, Any], keys: tuple[str, ...]) -> tuple[str, str] | None:
    for key in keys:
        value = record.get(key)
        if isinstance(value, str) and value.strip():
            return key, value.strip()
    return None
