"""List-page extraction: same depth, same class name (seed 004, algorithm 2).

Citation: Qin Long, Li Xiaoge, Mu Zhenghui, Li Tao, I-AWCE (seed 004), "基于相同节点深度的同类名元素排序
的列表网页抽取算法".

The seed: every element gets the key (depth, class name); per key, count occurrences O and sum text
length L; rank keys by a score R (formula lost), keep the top ``n = 15`` and return the elements of the
key with the largest average text length TL = L / O. Here:

- The elements counted are the links with text (``a[href]``; ``javascript:``, ``mailto:`` and bare
  fragments skipped): a list page exists for its links, and the seed's "elements without children" are,
  on portal lists, these anchors. Portals put the class on the item rather than on the anchor, so an
  anchor without a class takes the class of its nearest classed ancestor within ``CLASS_LEVELS`` levels,
  marked with the number of levels (``"2:news-item"``). Depth is the depth below ``<body>``.
- ``R = O * ln(1 + L / O)``: many occurrences with real text rank high; a key seen fewer than
  ``min_count`` times is not ranked (one long footer line must not win on TL).
- Every ranked key whose TL reaches ``merge_ratio`` of the best TL is kept as well: a portal home page
  shows the same kind of headline in several shapes (top block, sections, ranking); with
  ``merge_ratio = 1`` only the seed's single key is returned.
- Headline-length links elsewhere whose URL has the *shape* of the chosen ones (same host, same path
  with digit runs and long ids abstracted) join them (``same_shape``): the one big headline of a page
  is a key of its own with O = 1.

Each entry is a ``ListEntry(title, url, published_at)``: the anchor text, the ``href`` made absolute
against the page URL, and the time shown next to the link (in the link's own item: its ancestors that
hold no other entry), as shown on the page (lists often omit the year: ``05-01 10:30``).
"""

from __future__ import annotations

import logging
import math
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

from newscrawl.extract.document import Element, collapse, subtree_text, text_len
from newscrawl.extract.lazyre import lazy_compile
from newscrawl.extract.page import Page
from newscrawl.extract.pagekind import PageKindName, classify_page_kind
from newscrawl.extract.result import ListEntry

logger = logging.getLogger(__name__)

#: how far up an anchor without a class looks for the class of its item
CLASS_LEVELS = 3
#: how far up an entry looks for its item (the time shown next to it)
ITEM_LEVELS = 4
#: longest href read as an entry: Scrapy's URLLENGTH_LIMIT default, past which a crawl drops the request
#: anyway (fuzzing met hrefs of 20 KB of digit runs: their URL shapes took 1.2-1.5 s of CPU on one page)
MAX_URL_CHARS = 2083
#: links whose href is not a page
_NOT_A_PAGE = lazy_compile(r"^\s*(?:javascript:|mailto:|tel:|#|$)", re.I)
#: a time shown next to a list entry: full dates, Chinese month/day, month-day with time, relative times,
#: month-day alone, time alone (longest forms first)
SHOWN_TIME = lazy_compile(
    r"\d{4}\s*[-/.年]\s*\d{1,2}\s*[-/.月]\s*\d{1,2}\s*日?(?:\s*\d{1,2}:\d{2}(?::\d{2})?)?"
    r"|\d{1,2}月\d{1,2}日(?:\s*\d{1,2}:\d{2})?"
    r"|(?<!\d)\d{1,2}[-/]\d{1,2}\s+\d{1,2}:\d{2}(?!\d)"
    r"|\d+\s*(?:秒|分钟|小时|天)前|刚刚|(?:昨天|今天|前天)\s*\d{1,2}:\d{2}"
    r"|(?<![\d:])\d{2}-\d{2}(?![\d:])"
    r"|(?<![\d:])\d{1,2}:\d{2}(?![\d:])"
)
_DIGITS = lazy_compile(r"\d+")
_ID = lazy_compile(r"[A-Za-z0-9]*\d[A-Za-z0-9]*")


@dataclass(frozen=True, slots=True)
class ListParams:
    top_n: int = 15
    min_count: int = 3
    merge_ratio: float = 0.4
    same_shape: bool = True

    def validate(self) -> None:
        if self.top_n < 1:
            raise ValueError(f"top_n must be >= 1, got {self.top_n!r}")
        if self.min_count < 1:
            raise ValueError(f"min_count must be >= 1, got {self.min_count!r}")
        if not 0 < self.merge_ratio <= 1:
            raise ValueError(f"merge_ratio must be in (0, 1], got {self.merge_ratio!r}")


@dataclass(frozen=True, slots=True)
class KeyStats:
    depth: int
    name: str
    count: int  # O
    length: int  # L

    @property
    def average(self) -> float:  # TL
        return self.length / self.count if self.count else 0.0

    @property
    def score(self) -> float:  # R
        return self.count * math.log1p(self.average)


@dataclass(frozen=True, slots=True)
class ListResult:
    entries: tuple[ListEntry, ...]
    figures: dict[str, Any] = field(default_factory=dict)


def class_name(a: Element) -> str:
    """The anchor's class, else its nearest classed ancestor's, prefixed by the levels climbed."""
    el: Element | None = a
    for level in range(CLASS_LEVELS + 1):
        if el is None:
            break
        cls = " ".join((el.get("class") or "").split())
        if cls:
            return f"{level}:{cls}"
        el = el.getparent()
    return ""


def url_shape(url: str) -> str:
    """Host and path with digit runs and id-like segments abstracted (query and fragment dropped)."""
    parts = urlsplit(url)
    path = _ID.sub(lambda m: "X" if len(m.group(0)) >= 6 else _DIGITS.sub("9", m.group(0)), parts.path)
    return f"{parts.netloc.lower()}{path}"


def extract_list(page: Page, params: ListParams | None = None) -> ListResult:
    """The article links of a list page, with their shown times."""
    params = params or ListParams()
    params.validate()
    stats = page.stats
    base = page.url or ""
    anchors: list[tuple[int, Element, str, str, tuple[int, str]]] = []  # (index, el, text, url, key)
    keys: dict[tuple[int, str], list[int]] = {}
    for i, el in enumerate(stats.elements):
        if stats.tag[i] != "a":
            continue
        href = el.get("href")
        if href is None or len(href) > MAX_URL_CHARS or _NOT_A_PAGE.match(href):
            continue
        text = collapse(subtree_text(el))
        if not text:
            continue
        try:
            url = urljoin(base, href.strip())
        except ValueError:
            continue
        key = (stats.depth[i], class_name(el))
        keys.setdefault(key, [0, 0])
        keys[key][0] += 1
        keys[key][1] += text_len(text)
        anchors.append((i, el, text, url, key))
    ranked = sorted(
        (KeyStats(d, n, o, length) for (d, n), (o, length) in keys.items() if o >= params.min_count),
        key=lambda k: -k.score,
    )[: params.top_n]
    figures: dict[str, Any] = {
        "keys": [
            {"depth": k.depth, "class": k.name, "O": k.count, "L": k.length, "TL": round(k.average, 2),
             "R": round(k.score, 2)}
            for k in ranked
        ]
    }
    if not ranked:
        figures["reason"] = f"no key with {params.min_count} or more links"
        return ListResult((), figures)
    best = max(ranked, key=lambda k: k.average)
    floor = params.merge_ratio * best.average
    chosen = {(k.depth, k.name) for k in ranked if k.average >= floor}
    figures.update({"best": {"depth": best.depth, "class": best.name}, "chosen_keys": len(chosen)})
    picked = [a for a in anchors if a[4] in chosen]
    if params.same_shape:
        shapes = {url_shape(a[3]) for a in picked}
        extra = [
            a for a in anchors
            if a[4] not in chosen and text_len(a[2]) >= floor and url_shape(a[3]) in shapes
        ]
        figures["same_shape_added"] = len(extra)
        picked = sorted(picked + extra, key=lambda a: a[0])
    entries: list[ListEntry] = []
    seen: set[str] = set()
    entry_elements = {a[1] for a in picked}
    for _, el, text, url, _ in picked:
        if url in seen:
            continue
        seen.add(url)
        entries.append(ListEntry(text, url, shown_time(el, text, entry_elements)))
    return ListResult(tuple(entries), figures)


def shown_time(a: Element, title: str, entries: set[Element]) -> str | None:
    """The time shown in the entry's item (its ancestors holding no other entry), or None."""
    item = a
    for _ in range(ITEM_LEVELS):
        parent = item.getparent()
        if parent is None or any(e in entries for e in parent.iter("a") if e is not a):
            break
        item = parent
    if item is a:
        m = SHOWN_TIME.search(a.tail or "")
        return m.group(0).strip() if m else None
    text = collapse(subtree_text(item))
    text = text.replace(title, " ", 1)
    m = SHOWN_TIME.search(text)
    return m.group(0).strip() if m else None


def kind_and_entries(page: Page) -> tuple[PageKindName, tuple[ListEntry, ...], dict[str, Any]]:
    """The page kind, the list entries (list pages only) and the figures behind both.

    A failure here is logged and the page treated as an article: it must never lose the body text.
    """
    try:
        kind, figures = classify_page_kind(page)
        if kind != "list":
            return kind, (), figures
        result = extract_list(page)
        figures["list"] = result.figures
        return kind, result.entries, figures
    except RecursionError:
        return "article", (), {"error": "nested too deeply"}
    except Exception as e:
        logger.warning("page kind / list extraction failed: %s: %s", type(e).__name__, e, exc_info=True)
        return "article", (), {"error": f"{type(e).__name__}: {e}"}
