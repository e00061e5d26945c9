"""Collect what a page says about itself (meta tags, JSON-LD, <title>, <time>) before noise stripping."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from newscrawl.extract.document import Element, collapse, strip_text_controls, subtree_text
from newscrawl.extract.lazyre import lazy_compile
from newscrawl.extract.metadata.arc import FUSION_SCRIPT, arc_story
from newscrawl.extract.metadata.title import JSON_LD_ARTICLE_TYPES
from newscrawl.extract.native import cstats
from newscrawl.extract.page import PageMeta

logger = logging.getLogger(__name__)

#: the ``type`` of a JSON-LD <script>
JSON_LD_TYPES = ("application/ld+json", "application/json+ld")
#: ``rel="canonical"`` in any case of the word, between XML white space
_XML_SPACE = " \t\r\n"
_LOWER_CANONICAL = str.maketrans("CANOIL", "canoil")
#: JSON-LD blocks larger than this are not parsed whole (a data dump, or a live blog whose updates run to
#: 840 kB); only the top-level keys in their head are read (``_ld_head``)
JSON_LD_MAX_CHARS = 500_000
#: the characters of an oversized block's head that are scanned for its top-level keys: a live blog's
#: article keys come before its list of updates (the Mirror's in its first 2 kB); a key after the cut is lost
JSON_LD_HEAD_CHARS = 32_768
#: the top-level keys read from an oversized block's head
_LD_HEAD_KEYS = frozenset(("@type", "datePublished", "dateModified", "dateCreated", "headline", "author"))
#: a JSON string (a key when a colon follows; unclosed when its closing quote is missing, which keeps the
#: scan linear: a string that cannot close is not retried from each quote inside it) or a bracket: enough
#: to know each key's depth
_LD_TOKEN = lazy_compile(r'"([^"\\]*(?:\\.[^"\\]*)*)(")?(\s*:)?|[{}\[\]]')
_LD_DECODER = json.JSONDecoder()
#: the characters of a <title> or a meta tag's content that are read: far over any real title or
#: description, and the title's site-name splitting and matching is not run over megabytes (a fuzzed page
#: with a 7 MB <title> took 3 s of CPU)
META_VALUE_MAX_CHARS = 10_000


def _flatten_ld(obj: Any, out: list[dict[str, Any]]) -> None:
    if isinstance(obj, list):
        for item in obj:
            _flatten_ld(item, out)
    elif isinstance(obj, dict):
        out.append(obj)
        graph = obj.get("@graph")
        if graph is not None:
            _flatten_ld(graph, out)


def _ld_head(raw: str) -> dict[str, Any] | None:
    """The top-level ``_LD_HEAD_KEYS`` of an oversized JSON-LD object, read from its first
    ``JSON_LD_HEAD_CHARS`` only (time and memory bounded by that, not by the block): strings and
    brackets are tokenised to know each key's depth, and a wanted key's value is decoded where it
    starts, inside the head (a nested update's ``datePublished`` is not the article's)."""
    head = raw[:JSON_LD_HEAD_CHARS]
    start = head.find("{")
    if start < 0:
        return None
    out: dict[str, Any] = {}
    depth = 0
    for m in _LD_TOKEN.finditer(head, start):
        token = m.group()
        if token in "{[":
            depth += 1
        elif token in "}]":
            depth -= 1
            if depth <= 0:
                break
        elif m.group(2) is None:  # a string running past the head
            break
        elif depth == 1 and m.group(3) and m.group(1) in _LD_HEAD_KEYS and m.group(1) not in out:
            end = m.end()
            while end < len(head) and head[end] in " \t\r\n":
                end += 1
            try:
                out[m.group(1)] = _LD_DECODER.raw_decode(head, end)[0]
            except (json.JSONDecodeError, RecursionError, ValueError):
                continue
    return out if out.keys() - {"@type"} else None


@dataclass(slots=True)
class _Found:
    """The elements ``collect_page_meta`` reads, each kind in document order."""

    metas: list[Element] = field(default_factory=list)  # <meta content>
    json_ld: list[Element] = field(default_factory=list)  # <script type="application/ld+json">
    times: list[Element] = field(default_factory=list)  # <time datetime|pubdate>, [itemprop=datePublished]
    title: Element | None = None  # the first <title>
    canonical: str | None = None  # the href of the first <link rel="canonical" href>
    base: str | None = None  # the href of the first <base href>
    fusion: str | None = None  # the text of Arc XP's Fusion script (``window.Fusion=...``)


#: the ``itemprop=datePublished`` holders ``collect_page_meta`` reads besides the ``<time datetime|pubdate>``
#: elements (from the ``itemprop`` attributes up: a predicate on every element costs 4x as much); a holder
#: other than <meta> (read with the metas) may give its value in ``content``, as microdata allows
#: (``<div itemprop="datePublished" content="...">``)
_DATE_HOLDERS = etree.XPath(
    "descendant-or-self::*/@itemprop[. = 'datePublished']"
    "/parent::*[@datetime or @content and not(self::meta)]"
)
#: the ``itemtype`` of a microdata item that dates a reader's review or comment, not the page
_REVIEW_TYPE = lazy_compile(r"review|comment", re.IGNORECASE)
#: the levels above an ``itemprop`` holder searched for its item (real items hold their dates a few down)
_ITEM_MAX_UP = 32
#: the ``type`` of the script that may be Arc XP's Fusion script (without its ``id="fusion-metadata"``)
_JS_TYPE = "application/javascript"
#: the tags of the other elements it reads
_WALKED_TAGS = ("meta", "script", "title", "link", "base", "time")


def _python_may_hold_attribute(root: Element, name: str, value: str) -> bool:
    return True  # (the XPath decides)


#: whether an element of a tree may have the attribute ``name`` of value ``value``: False when the C
#: extension's walk finds none, else True
_may_hold_attribute: Callable[[Element, str, str], bool] = getattr(
    cstats, "may_hold_attribute", _python_may_hold_attribute
)


def _dates_a_review(el: Element) -> bool:
    """Whether the microdata item ``el``'s ``itemprop`` belongs to (its nearest ``itemscope``) is a
    review or a comment. The item is looked for ``_ITEM_MAX_UP`` levels up at most (a hostile page's
    thousands of holders in a 100,000-deep tree are not each walked to the root)."""
    for up, anc in enumerate(el.iterancestors()):
        if anc.get("itemscope") is not None:
            return _REVIEW_TYPE.search(anc.get("itemtype", "")) is not None
        if up >= _ITEM_MAX_UP:
            break
    return False


def _walk(root: Element) -> _Found:
    """What used to take six XPath searches of the whole document: one walk over the six tags read here
    (lxml picks them out in C, so Python sees a few dozen elements, not every one) and one XPath for the
    ``itemprop`` date holders. The times are the ``<time datetime|pubdate>`` elements and those holders in
    document order: a page with holders (one in seven) is walked once more for them."""
    found = _Found()
    for el in root.iter(*_WALKED_TAGS):
        tag = el.tag
        if tag == "meta":
            if el.get("content") is not None:
                found.metas.append(el)
        elif tag == "script":
            kind = el.get("type")
            if kind in JSON_LD_TYPES:
                found.json_ld.append(el)
            elif found.fusion is None and (kind == _JS_TYPE or el.get("id") == "fusion-metadata"):
                text = el.text
                if text and FUSION_SCRIPT.match(text):  # Arc XP's page shell (metadata.arc)
                    found.fusion = text
        elif tag == "time":
            if _dated_time(el):
                found.times.append(el)
        elif tag == "title":
            if found.title is None:
                found.title = el
        elif tag == "link":
            rel, href = el.get("rel"), el.get("href")
            if found.canonical is None and rel is not None and href is not None:
                if rel.strip(_XML_SPACE).translate(_LOWER_CANONICAL) == "canonical":
                    found.canonical = href
        elif found.base is None:  # <base>
            found.base = el.get("href")
    # (six pages in seven hold no itemprop="datePublished": a walk in C says so, and the XPath, which reads
    # every attribute of the page, is not run)
    holders = _DATE_HOLDERS(root) if _may_hold_attribute(root, "itemprop", "datePublished") else []
    if holders:  # merged in document order: the walk over the holders' tags and <time>
        held = set(holders)
        tags = {str(el.tag) for el in holders} | {"time"}
        found.times = [el for el in root.iter(*tags) if el in held or (el.tag == "time" and _dated_time(el))]
    return found


def _is_article(obj: dict[str, Any]) -> bool:
    kind = obj.get("@type")
    kinds = kind if isinstance(kind, list) else [kind]
    return any(isinstance(k, str) and k in JSON_LD_ARTICLE_TYPES for k in kinds)


def _dated_time(el: Element) -> bool:
    """A ``<time>`` giving its date in ``datetime`` or marked ``pubdate``."""
    return el.get("datetime") is not None or el.get("pubdate") is not None


def collect_page_meta(root: Element) -> PageMeta:
    """Read meta tags, JSON-LD objects, the <title>, <time> elements and the language of ``root``."""
    pm = PageMeta()
    found = _walk(root)
    for el in found.metas:
        key = el.get("property") or el.get("name") or el.get("itemprop") or el.get("http-equiv")
        if key:
            key = key.strip().lower()
            value = collapse(el.get("content", "")[:META_VALUE_MAX_CHARS])
            if not value:
                continue
            if key not in pm.meta:
                pm.meta[key] = value
            elif value != pm.meta[key]:  # a repeated tag (several authors, article:tag, og:image)
                pm.multi.setdefault(key, [pm.meta[key]]).append(value)
    for el in found.json_ld:
        raw = el.text or ""
        if len(raw) > JSON_LD_MAX_CHARS:
            obj = _ld_head(raw)
            if obj is not None:
                pm.json_ld.append(obj)
            continue
        if not raw.strip():
            continue
        try:
            _flatten_ld(json.loads(raw), pm.json_ld)
        except (json.JSONDecodeError, RecursionError, ValueError):
            logger.debug("skipping unparsable JSON-LD block")
    if found.fusion is not None and not any(map(_is_article, pm.json_ld)):
        pm.arc = arc_story(found.fusion)
    if found.title is not None:
        pm.title = collapse(subtree_text(found.title)[:META_VALUE_MAX_CHARS]) or None
    for el in found.times:
        where = "itemprop" if el.get("itemprop") == "datePublished" else "time"
        if where == "itemprop" and _dates_a_review(el):  # a product page's reviews, a comment's date
            if el.tag != "time":
                continue
            where = "time"
        value = el.get("datetime") or collapse(el.get("content", "")[:META_VALUE_MAX_CHARS])
        value = value or collapse(subtree_text(el))
        if value:
            pm.times.append((value, where))
    pm.language = (root.get("lang") or root.get("xml:lang") or pm.meta.get("content-language") or "").strip()
    pm.language = pm.language or None
    canon = found.canonical
    pm.canonical = strip_text_controls(canon).strip() or None if canon is not None else None
    pm.base = found.base.strip() or None if found.base is not None else None
    return pm
