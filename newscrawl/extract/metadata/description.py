"""Description: what the page says the article is about, else its lead.

1. ``meta:<key>`` -- meta description, og:description, twitter:description, dc.description;
2. ``json-ld:description`` -- the JSON-LD ``description`` of the article;
3. ``lead`` -- the first paragraph of the main text with at least ``LEAD_MIN_CHARS`` characters.

White space is collapsed; a value longer than ``MAX_DESCRIPTION_CHARS`` is cut after the last sentence
end (or word) that fits.
"""

from __future__ import annotations

from collections.abc import Iterable

from newscrawl.extract.document import collapse
from newscrawl.extract.lazyre import lazy_compile
from newscrawl.extract.page import PageMeta
from newscrawl.extract.result import NOT_FOUND, BodyResult, Found

#: meta keys holding the page's summary, best first
META_DESCRIPTION_KEYS: tuple[str, ...] = (
    "description",
    "og:description",
    "twitter:description",
    "dc.description",
    "dcterms.description",
)
#: longest description kept (news-please and newspaper4k keep a paragraph-sized summary)
MAX_DESCRIPTION_CHARS = 500
#: a description shorter than this says nothing (a site's slogan, "News")
MIN_DESCRIPTION_CHARS = 10
#: the lead is the first paragraph of at least this many characters (shorter ones are datelines, credits)
LEAD_MIN_CHARS = 40
_SENTENCE_END = lazy_compile(r"[。！？!?.](?=\s|$)|[。！？]")


def shorten(text: str, limit: int = MAX_DESCRIPTION_CHARS) -> str:
    """``text`` cut to at most ``limit`` characters after a sentence end, else after a word.

    >>> shorten("第一句。第二句很长很长。", 6)
    '第一句。'
    """
    if len(text) <= limit:
        return text
    head = text[:limit]
    ends = [m.end() for m in _SENTENCE_END.finditer(head)]
    if ends and ends[-1] >= limit // 3:
        return head[: ends[-1]].strip()
    space = head.rfind(" ")
    return (head[:space] if space > limit // 2 else head).strip() + "…"


def _usable(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    text = collapse(value)
    return shorten(text) if len(text) >= MIN_DESCRIPTION_CHARS else None


def _json_ld_description(meta: PageMeta) -> str | None:
    for obj in meta.json_ld:
        if "headline" in obj or "articleBody" in obj:
            value = _usable(obj.get("description"))
            if value:
                return value
    return None


def lead(paragraphs: Iterable[str]) -> str | None:
    """The first paragraph of the text long enough to be a lead."""
    for para in paragraphs:
        if len(para) >= LEAD_MIN_CHARS:
            return shorten(collapse(para))
    return None


def find_description(meta: PageMeta, body: BodyResult) -> Found:
    """The page's description by the chain in the module docstring; ``Found()`` when none."""
    for key in META_DESCRIPTION_KEYS:
        value = _usable(meta.meta.get(key))
        if value:
            return Found(value, f"meta:{key}")
    value = _json_ld_description(meta)
    if value:
        return Found(value, "json-ld:description")
    value = lead(body.paragraphs)
    return Found(value, "lead") if value else NOT_FOUND
