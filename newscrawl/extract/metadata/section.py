"""Section: the part of the site the article sits in, an ordered fallback chain.

1. ``meta:article:section`` -- article:section (og), section, category meta;
2. ``json-ld:articleSection`` -- the article's JSON-LD ``articleSection`` (the first of a list);
3. ``json-ld:breadcrumb`` -- a JSON-LD ``BreadcrumbList``: its deepest crumb that is not the article;
4. ``breadcrumb`` -- breadcrumb markup above the text (an element whose class or id names a breadcrumb
   or location, or a "当前位置：首页 > 新闻 > 国内" line): its deepest crumb that is not the article;
5. ``links:rel-category`` -- the first ``rel="category"`` link by the text (WordPress's post categories,
   ``rel="category tag"``; searched as tags' ``rel="tag"`` links are).

A crumb is not the article when it is not the page's title, not "正文"/"Article" and not home.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from newscrawl.extract.document import Element, collapse, subtree_text
from newscrawl.extract.lazyre import lazy_compile
from newscrawl.extract.metadata.keywords import rel_links
from newscrawl.extract.metadata.title import overlap, text_anchor
from newscrawl.extract.page import Page, PageMeta
from newscrawl.extract.result import NOT_FOUND, BodyResult, Found

#: meta keys naming the section, best first
META_SECTION_KEYS: tuple[str, ...] = ("article:section", "og:article:section", "section", "category")
#: crumbs that are the site's home or the article itself, never the section
NOT_SECTION = frozenset(
    "首页 主页 网站首页 正文 正文内容 文章 home startseite accueil inicio article 首頁 正文頁".split()
)
#: the category blog engines give a post nobody filed (WordPress's default in several languages)
DEFAULT_CATEGORIES = frozenset(
    ("uncategorized", "uncategorised", "allgemein", "non classé", "sin categoría", "senza categoria",
     "sem categoria", "未分类", "未分類")
)
#: longest section name kept (a crumb longer than this is a headline)
MAX_SECTION_CHARS = 40
#: breadcrumb markup: class or id words, and the labels of Chinese portals' location lines
_BREADCRUMB_WORDS = r"crumb|position|location|mbx|daohang"
#: the words in any case, for values that are not ASCII (re.IGNORECASE also takes 'ſ' for 's' and 'İ' for
#: 'i', which lower-casing does not give); an ASCII value is searched lower-cased (see :func:`_marked`)
_BREADCRUMB_MARK = lazy_compile(_BREADCRUMB_WORDS, re.I)
_BREADCRUMB_MARK_LOWER = lazy_compile(_BREADCRUMB_WORDS)
_LOCATION_LABEL = lazy_compile(r"当前位置|您的位置|你的位置|您现在的位置|所在位置")
_CRUMB_SPLIT = lazy_compile(r"\s*(?:>|&gt;|»|›|＞|→|/|\|)\s*")
_LABEL = lazy_compile(r"^.*?(?:当前位置|您的位置|你的位置|您现在的位置|所在位置)\s*[:：]?\s*")
#: a breadcrumb element holds at most this many characters (a longer one is a container)
MAX_BREADCRUMB_CHARS = 200


def _first_str(value: object) -> str | None:
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, str)), None)
    return collapse(value) or None if isinstance(value, str) else None


def deepest_section(crumbs: Sequence[str], title: str | None) -> str | None:
    """The deepest crumb that is neither home nor the article itself.

    >>> deepest_section(["首页", "新闻", "国内", "正文"], None)
    '国内'
    """
    for crumb in reversed(crumbs):
        crumb = collapse(crumb).strip(" :：-–—·•")
        if not crumb or len(crumb) > MAX_SECTION_CHARS or crumb.casefold() in NOT_SECTION:
            continue
        if title and overlap(crumb, title) >= 0.8:
            continue
        return crumb
    return None


def _json_ld_crumbs(meta: PageMeta) -> list[str]:
    for obj in meta.json_ld:
        if obj.get("@type") != "BreadcrumbList" or not isinstance(obj.get("itemListElement"), list):
            continue
        items = [i for i in obj["itemListElement"] if isinstance(i, dict)]
        items.sort(key=lambda i: i["position"] if isinstance(i.get("position"), int) else 0)
        names: list[str] = []
        for item in items:
            name = item.get("name")
            inner = item.get("item")
            if not isinstance(name, str) and isinstance(inner, dict):
                name = inner.get("name")
            if isinstance(name, str):
                names.append(name)
        return names
    return []


def _marked(names: str) -> bool:
    """Whether class and id words name a breadcrumb or a location, in any case.

    An ASCII value gets the answer of ``_BREADCRUMB_MARK`` from its lower-cased copy, about five times as
    fast: the regex engine skips to the words' first letters only in a case-sensitive pattern.

    >>> _marked("BreadCrumbs nav"), _marked("site-LOCATION"), _marked("Poſition"), _marked("portal")
    (True, True, True, False)
    """
    if names.isascii():
        return bool(_BREADCRUMB_MARK_LOWER.search(names.lower()))
    return bool(_BREADCRUMB_MARK.search(names))


def _crumb_elements(page: Page, body: BodyResult) -> Iterator[Element]:
    """Elements above the text (breadcrumbs sit over the headline) marked or labelled as a location."""
    stats = page.stats
    anchor = text_anchor(page, body)
    stop = len(stats) if anchor is None else anchor
    elements, classes, ids, own = stats.elements, stats.classes, stats.ids, stats.own_chars
    marked: dict[tuple[str | None, str | None], bool] = {}  # a page repeats its names: each read once
    for i in range(stop):
        css, name = classes[i], ids[i]
        if css or name:
            names = (css, name)
            hit = marked.get(names)
            if hit is None:
                marks = f"{css or ''} {name or ''}"
                hit = marked[names] = len(marks) > 4 and _marked(marks)
            if hit:
                yield elements[i]
                continue
        if not own[i]:
            continue  # (no characters of its own: its text is white space, if any)
        text = elements[i].text
        if text and "位置" in text and _LOCATION_LABEL.search(text):  # every label ends in 位置
            yield elements[i]


def _markup_crumbs(page: Page, body: BodyResult) -> list[str]:
    for el in _crumb_elements(page, body):
        text = collapse(" > ".join(t for t in (s.strip() for s in el.itertext()) if t))
        if not text or len(text) > MAX_BREADCRUMB_CHARS:
            continue
        crumbs = [c for c in _CRUMB_SPLIT.split(_LABEL.sub("", text)) if c.strip()]
        if len(crumbs) >= 2:
            return crumbs
    return []


def find_section(page: Page, body: BodyResult, title: str | None) -> Found:
    """The article's section by the chain in the module docstring; ``Found()`` when none."""
    meta = page.meta
    for key in META_SECTION_KEYS:
        value = _first_str(meta.meta.get(key))
        if value and len(value) <= MAX_SECTION_CHARS:
            return Found(value, f"meta:{key}")
    for obj in meta.json_ld:
        if "headline" in obj:
            value = _first_str(obj.get("articleSection"))
            if value and len(value) <= MAX_SECTION_CHARS:
                return Found(value, "json-ld:articleSection")
    value = deepest_section(_json_ld_crumbs(meta), title)
    if value:
        return Found(value, "json-ld:breadcrumb")
    value = deepest_section(_markup_crumbs(page, body), title)
    if value:
        return Found(value, "breadcrumb")
    if body.node is not None:
        for link, _ in rel_links(body.node, "category"):
            value = collapse(subtree_text(link))
            if value and len(value) <= MAX_SECTION_CHARS and value.casefold() not in DEFAULT_CATEGORIES:
                return Found(value, "links:rel-category")
    return NOT_FOUND
