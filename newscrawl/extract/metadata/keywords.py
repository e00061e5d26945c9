"""Tags: the keywords the page gives its article, merged in this order, repeats and site names dropped.

1. ``meta:keywords`` / ``meta:news_keywords`` -- split on commas, semicolons, 、 and |, and on spaces
   between Chinese characters ("古城墙 游客": Chinese writes no space inside a phrase);
2. ``meta:article:tag`` -- every ``article:tag`` (and ``og:article:tag``) tag;
3. ``json-ld:keywords`` -- the article's JSON-LD ``keywords`` (a list or a comma-separated string);
4. ``links:rel-tag`` -- when none of those gives any: the texts of the ``<a rel="tag">`` links around
   the content node (``TAG_LINK_LEVELS`` up), which WordPress and most blog engines set on the post's
   tags (not its categories, ``rel="category tag"``).

``sources["tags"]`` names the first rule that gave any. Tags longer than ``MAX_TAG_CHARS`` are sentences,
not keywords, and a Chinese tag of ``HEADLINE_TAG_CHARS`` or more found in the page's title is its
headline; at most ``MAX_TAGS`` are kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain, islice

from newscrawl.extract.document import Element, collapse, subtree_text
from newscrawl.extract.lazyre import lazy_compile
from newscrawl.extract.metadata.title import SiteContext
from newscrawl.extract.page import PageMeta
from newscrawl.extract.result import Found

#: meta keys holding a keyword list (one string) and keys repeated once per tag
META_KEYWORD_KEYS: tuple[str, ...] = ("keywords", "news_keywords")
META_TAG_KEYS: tuple[str, ...] = ("article:tag", "og:article:tag")
#: longest tag kept
MAX_TAG_CHARS = 50
#: at most this many tags per page
MAX_TAGS = 30
_SPLIT = lazy_compile(r"\s*[,，;；、|｜]\s*")
#: a space between two Chinese characters: Chinese writes none inside a phrase, so it parts two keywords
_CJK_SPACE = lazy_compile(r"(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fff])")
#: the post's tags sit by its text (WordPress: in the <article>'s footer, beside the content node): the
#: content node's ancestors this many levels up are searched, not the whole page (0.2-0.3 ms a page)
TAG_LINK_LEVELS = 2
#: a Chinese tag this long found in the page's title or og:title is the headline (or a half of it, split at
#: its space), which CMSs put in the keywords when the editor gave none
HEADLINE_TAG_CHARS = 8
_CJK = lazy_compile(r"[\u3400-\u9fff]")
#: at most this many <a> elements read
MAX_TAG_LINKS = 500


def _key(text: str) -> str:
    return "".join(text.split()).casefold()


def _is_headline(tag: str, headline: str) -> bool:
    """Whether ``tag`` is the page's headline or a part of it (``headline``: its title's and og:title's
    keys), given as a keyword by a CMS the editor gave none: a Chinese tag of ``HEADLINE_TAG_CHARS`` or more
    found in them."""
    return len(tag) >= HEADLINE_TAG_CHARS and _CJK.search(tag) is not None and _key(tag) in headline


def _values(meta: PageMeta, key: str) -> list[str]:
    return meta.multi.get(key) or ([meta.meta[key]] if key in meta.meta else [])


def _candidates(meta: PageMeta, headline: str) -> Iterator[tuple[str, str]]:
    for key in META_KEYWORD_KEYS:
        for value in _values(meta, key):
            for item in _SPLIT.split(value):
                if not _is_headline(item, headline):  # (whole: not its halves as keywords)
                    for tag in _CJK_SPACE.split(item):
                        yield tag, f"meta:{key}"
    for key in META_TAG_KEYS:
        for value in _values(meta, key):
            yield value, f"meta:{key}"
    for obj in meta.json_ld:
        if "headline" not in obj:
            continue
        declared = obj.get("keywords")
        if isinstance(declared, list):
            items = declared
        else:
            items = _SPLIT.split(declared) if isinstance(declared, str) else []
        for item in items:
            if isinstance(item, str):
                yield item, "json-ld:keywords"


def rel_links(node: Element, token: str) -> Iterator[tuple[Element, list[str]]]:
    """The links around the content ``node`` (``TAG_LINK_LEVELS`` up) whose rel holds ``token``, with
    their rel's tokens."""
    for _ in range(TAG_LINK_LEVELS):
        parent = node.getparent()
        if parent is None:
            break
        node = parent
    for link in islice(node.iter("a"), MAX_TAG_LINKS):
        rel = link.get("rel")
        if rel and token in rel:
            tokens = rel.split()
            if token in tokens:
                yield link, tokens


def _rel_tags(node: Element) -> Iterator[tuple[str, str]]:
    """Links whose rel names a tag, not a category (WordPress writes rel="category tag" on the post's
    categories: its section), around the content ``node``."""
    for link, tokens in rel_links(node, "tag"):
        if "category" not in tokens:
            yield subtree_text(link), "links:rel-tag"


def find_tags(
    meta: PageMeta, url: str | None, node: Element | None = None, site: SiteContext | None = None
) -> tuple[tuple[str, ...], Found]:
    """The page's tags and ``Found(first tag, rule)`` saying where they came from; given the content
    ``node``, the ``rel="tag"`` links around it when nothing declares any. ``site`` is the page's
    ``SiteContext(meta, url)`` when the caller has it."""
    site = site if site is not None else SiteContext(meta, url)
    tags: dict[str, str] = {}
    source: str | None = None
    headline = _key(meta.title or "") + "\n" + _key(meta.meta.get("og:title") or "")
    candidates = _candidates(meta, headline)
    first = next(candidates, None)
    if first is not None:
        candidates = chain([first], candidates)
    elif node is not None:
        candidates = _rel_tags(node)
    for raw, origin in candidates:
        tag = collapse(raw).strip(" #\"'")
        if not tag or len(tag) > MAX_TAG_CHARS or tag.casefold() in tags or site.is_name(tag):
            continue
        if _is_headline(tag, headline):
            continue
        tags[tag.casefold()] = tag
        source = source or origin
        if len(tags) >= MAX_TAGS:
            break
    values = tuple(tags.values())
    return values, Found(values[0] if values else None, source)
