"""Section: the part of the site the article sits in, an ordered fallback chain.

1. ``meta:article:section`` -- article:section (og), section, category meta;
2. ``json-ld:articleSection`` -- the article's JSON-LD ``articleSection`` (the first of a list);
3. ``json-ld:breadcrumb`` -- a JSON-LD ``BreadcrumbList``: its deepest crumb that is not the article;
4. ``breadcrumb`` -- breadcrumb markup above the text (an element whose class or id names a breadcrumb
   or location, a "当前位置：首页 > 新闻 > 国内" line, or an unmarked row that opens with the site's home
   and an arrow: "搜狐首页 > 旅游 > 正文", "<a>新浪首页</a> &gt; <a>新闻中心</a> &gt; 国内新闻"): its
   deepest crumb that is not the article; a row of more than ``MAX_CRUMBS`` is a menu, and the crumbs
   end at a tool's label ("字号：", "打印");
5. ``links:rel-category`` -- the first ``rel="category"`` link by the text (WordPress's post categories,
   ``rel="category tag"``; searched as tags' ``rel="tag"`` links are).

A crumb is not the article when it is not the page's title, not "正文"/"Article"/"内容" (nor "资讯正文")
and not home (a trail's first crumb naming the site, "新华网", "网易首页", is home too).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from urllib.parse import urlsplit

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
    "首页 主页 网站首页 正文 正文内容 文章 home startseite accueil inicio article 首頁 正文頁 正文页"
    " 内容 內容 详情 详细内容".split()
)
#: the end of a crumb naming the article ("资讯正文", "新闻正文")
_ARTICLE_CRUMB_END = ("正文", "正文页")
#: the end of a trail's first crumb naming the site's home ("网易首页", "新华网", "人民网")
_HOME_CRUMB_END = ("首页", "首頁", "网", "網")
#: a trail has at most this many crumbs (a longer row is the site's menu)
MAX_CRUMBS = 7
#: a crumb has a letter or a digit (an icon font's separator has none)
_WORD = lazy_compile(r"[^\W_]")
#: a piece that is a tool's label or button, not a crumb: the trail ends before it ("字号：", "打印")
_TOOL_PIECE = lazy_compile(
    r"[:：]$|^[\[【(（]?\s*(?:友善)?(?:打印|列印|关闭|關閉|收藏|分享|字号|字號|评论|評論)"
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
#: CSS frameworks' positioning utilities ("position-relative", "position-lg-absolute",
#: "uk-position-top-right"): no location
_POSITION_UTILITY = lazy_compile(
    r"position-(?:[a-z]{2}-)?(?:relative|absolute|static|fixed|sticky|top|bottom|left|right|center|cover)"
)
_LOCATION_LABEL = lazy_compile(r"当前位置|您的位置|你的位置|您现在的位置|所在位置")
#: the last character of a home link's text: 首页 / 首頁, or the site's name linking to its root (和讯网)
_HOME_LAST = frozenset("页頁网網")
#: an unmarked trail's opening: the site's home, then an arrow ("搜狐首页 > ", "新浪首页&gt;"); a bar or a
#: slash after it is a menu's
_HOME_ARROW = lazy_compile(r"首[页頁]\s*(?:>|»|›|＞|→)")
_ARROW_START = lazy_compile(r"\s*(?:>|»|›|＞|→)")
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
    >>> deepest_section(["新华网", "正文"], None), deepest_section(["首页", "基金资讯", "资讯正文"], None)
    (None, '基金资讯')
    """
    for i in range(len(crumbs) - 1, -1, -1):
        crumb = collapse(crumbs[i]).strip(" :：-–—·•")
        if not crumb or len(crumb) > MAX_SECTION_CHARS or crumb.casefold() in NOT_SECTION:
            continue
        if crumb.endswith(_ARTICLE_CRUMB_END):
            continue
        if i == 0 < len(crumbs) - 1 and crumb.endswith(_HOME_CRUMB_END):
            continue  # the site's name or home opening the trail
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
    >>> _marked("nav position-relative"), _marked("d-flex position-lg-absolute left-0")  # CSS utilities
    (False, False)
    """
    if names.isascii():
        low = names.lower()
        if "position-" in low:
            low = _POSITION_UTILITY.sub(" ", low)
        return bool(_BREADCRUMB_MARK_LOWER.search(low))
    return bool(_BREADCRUMB_MARK.search(names))


def _crumb_elements(page: Page, body: BodyResult) -> Iterator[Element]:
    """Elements above the text (breadcrumbs sit over the headline) marked or labelled as a location."""
    stats = page.stats
    anchor = text_anchor(page, body)
    stop = len(stats) if anchor is None else anchor
    elements, classes, ids, own, tag = stats.elements, stats.classes, stats.ids, stats.own_chars, stats.tag
    chars = stats.chars
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
                if chars[i] <= MAX_BREADCRUMB_CHARS:  # (a longer one is a container: its text is not read)
                    yield elements[i]
                continue
        if not own[i]:
            continue  # (no characters of its own: its text is white space, if any)
        el = elements[i]
        text = el.text
        if not text or text.isascii():
            continue  # (every label and home crumb looked for is Chinese; isascii() reads a flag)
        if "位置" in text and _LOCATION_LABEL.search(text):  # every label ends in 位置
            yield el
        elif "首" in text and _HOME_ARROW.search(text):  # an unmarked trail opening with the home crumb
            yield el
        elif tag[i] == "a" and (row := _home_link(el, text)) is not None:
            yield row


def _home_link(el: Element, text: str) -> Element | None:
    """The row of a trail whose first crumb is ``el``: a link to the site's home ("网易首页"; "和讯网" linking
    to the root), an arrow after it (or after the one element wrapping it: "<span><a>首页</a></span> »")."""
    text = text.rstrip()
    if text[-1:] not in _HOME_LAST:
        return None
    if not text.endswith(("首页", "首頁")) and urlsplit(el.get("href") or "").path.strip("/"):
        return None
    for _ in range(2):
        tail, parent = el.tail, el.getparent()
        if parent is None:
            return None
        if tail and tail.strip():
            return parent if _ARROW_START.match(tail) else None
        if len(parent) != 1:
            return None
        el = parent
    return None


def _markup_crumbs(page: Page, body: BodyResult) -> list[str]:
    for el in _crumb_elements(page, body):
        text = collapse(" > ".join(t for t in (s.strip() for s in el.itertext()) if t))
        if not text or len(text) > MAX_BREADCRUMB_CHARS:
            continue
        crumbs = [c for c in _CRUMB_SPLIT.split(_LABEL.sub("", text)) if c.strip()]
        if crumbs and crumbs[0].rstrip().endswith((":", "：")):
            del crumbs[0]  # a label ("Sie sind hier:")
        tool = next((k for k, c in enumerate(crumbs) if _TOOL_PIECE.search(c.strip())), None)
        if tool is not None:
            del crumbs[tool:]
        if 2 <= len(crumbs) and sum(_WORD.search(c) is not None for c in crumbs) <= MAX_CRUMBS:
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
