"""Collect what a page says about itself (meta tags, JSON-LD, <title>, <time>) before noise stripping."""

from __future__ import annotations

import json
import logging
from typing import Any

from lxml import etree

from newscrawl.extract.document import Element, collapse, strip_text_controls
from newscrawl.extract.page import PageMeta

logger = logging.getLogger(__name__)

_META = etree.XPath("//meta[@content]")
_JSON_LD = etree.XPath("//script[@type='application/ld+json' or @type='application/json+ld']")
_TITLE = etree.XPath("(//title)[1]")
_TIME = etree.XPath("//time[@datetime or @pubdate]|//*[@itemprop='datePublished' and @datetime]")
_CANONICAL = etree.XPath(
    "//link[translate(normalize-space(@rel), 'CANONICAL', 'canonical') = 'canonical'][@href]/@href"
)
_BASE = etree.XPath("(//base[@href])[1]/@href")
#: JSON-LD blocks larger than this are not parsed (they are data dumps, not article metadata)
JSON_LD_MAX_CHARS = 500_000


def _flatten_ld(obj: Any, out: list[dict[str, Any]]) -> None:
    if isinstance(obj, list):
        for item in obj:
            _flatten_ld(item, out)
    elif isinstance(obj, dict):
        out.append(obj)
        graph = obj.get("@graph")
        if graph is not None:
            _flatten_ld(graph, out)


def collect_page_meta(root: Element) -> PageMeta:
    """Read meta tags, JSON-LD objects, the <title>, <time> elements and the language of ``root``."""
    pm = PageMeta()
    for el in _META(root):
        key = el.get("property") or el.get("name") or el.get("itemprop") or el.get("http-equiv")
        if key:
            key = key.strip().lower()
            value = collapse(el.get("content", ""))
            if not value:
                continue
            if key not in pm.meta:
                pm.meta[key] = value
            elif value != pm.meta[key]:  # a repeated tag (several authors, article:tag, og:image)
                pm.multi.setdefault(key, [pm.meta[key]]).append(value)
    for el in _JSON_LD(root):
        raw = el.text or ""
        if not raw.strip() or len(raw) > JSON_LD_MAX_CHARS:
            continue
        try:
            _flatten_ld(json.loads(raw), pm.json_ld)
        except (json.JSONDecodeError, RecursionError, ValueError):
            logger.debug("skipping unparsable JSON-LD block")
    titles = _TITLE(root)
    if titles:
        pm.title = collapse("".join(titles[0].itertext())) or None
    for el in _TIME(root):
        value = el.get("datetime") or collapse("".join(el.itertext()))
        if value:
            where = "itemprop" if el.get("itemprop") == "datePublished" else "time"
            pm.times.append((value, where))
    pm.language = (root.get("lang") or root.get("xml:lang") or pm.meta.get("content-language") or "").strip()
    pm.language = pm.language or None
    canon = _CANONICAL(root)
    pm.canonical = strip_text_controls(canon[0]).strip() or None if canon else None
    base = _BASE(root)
    pm.base = base[0].strip() or None if base else None
    return pm
