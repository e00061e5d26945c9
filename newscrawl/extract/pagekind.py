"""Article page or list page, from DOM features (seed 004's classifier stage, without screenshots).

Seed 004 classifies page screenshots with a CNN; newscrawl has no browser and no model weights, so the
decision is made from what makes a list look like a list: many links with headline-length text and no
region of running prose. Features (all in ``figures``):

- ``prose_chars``: the largest *prose region*: for one element, the non-link text of its own and of
  its children that hold at least ``PARAGRAPH_MIN_CHARS`` characters and (almost) no links. An article's
  paragraphs are siblings in one container; a list's summaries sit one per item.
- ``article_links``: links whose text is headline-length (at least ``HEADLINE_MIN_CHARS`` characters);
  ``link_density``: link characters over all characters of the body; ``anchor_share``: share of the
  body's non-link text that prose regions do *not* account for.
- ``repeated_items``: the largest group of same tag-and-class siblings that each contain a link.
- ``headline_in_title``: a link-free element of headline length whose text is in ``<title>`` or holds
  its main segment (an article shows its own title).
- ``declared_article``: ``og:type`` = article, or a JSON-LD ``*Article``/``*Posting`` object.

Decision: ``empty`` when the body holds no text at all (nothing to keep and nothing to follow: the crawl
drops it as ``no_text``, the evaluation counts no missed article on it); an article when the prose region
is long (``>= PROSE_ARTICLE_CHARS``), or the page declares itself an article or shows its headline, with
some prose; otherwise a list when it has at least ``MIN_ARTICLE_LINKS`` headline links, else an article.

Measured (all pages of each set are articles): false lists 0/69 chinese-wce, 0/199 daniel-zh,
0/181 scrapinghub, 0/497 trafilatura, 0/62 gne-pages; on the hand-written portal fixtures
(tests/fixtures/lists: 17 list pages, 11 chrome-heavy articles) 28/28 right.
"""

from __future__ import annotations

from collections import Counter
from itertools import compress
from typing import Any, Literal

from newscrawl.extract.document import collapse, subtree_text, text_len
from newscrawl.extract.lazyre import lazy_compile
from newscrawl.extract.native import cscores
from newscrawl.extract.page import Page
from newscrawl.extract.stats import NodeStats

PageKindName = Literal["article", "list", "empty", "error"]

#: a child with at least this many non-link characters is a paragraph of running text
PARAGRAPH_MIN_CHARS = 20
#: a paragraph of running text has at most this share of its characters in links
PARAGRAPH_MAX_LINK_SHARE = 0.15
#: a link whose text has at least this many characters is a headline (portal headlines: 8-30 CJK chars)
HEADLINE_MIN_CHARS = 8
#: a heading longer than this is not a headline
HEADLINE_MAX_CHARS = 120
#: separators between the headline and the site name in a <title>
TITLE_SEPARATORS = lazy_compile(r"\s+[-|–—]\s+|[_|]|\s*-\s*(?=[^-]*$)")
#: a prose region this long makes a page an article whatever its links (tuned: no dev-set article below)
PROSE_ARTICLE_CHARS = 300
#: with a declared or shown headline, this much prose is enough for an article
PROSE_WITH_HEADLINE_CHARS = 60
#: fewer headline links than this cannot make a list
MIN_ARTICLE_LINKS = 12


def classify_page_kind(page: Page) -> tuple[PageKindName, dict[str, Any]]:
    """Classify ``page`` as an article or a list page, or ``"empty"`` when its body holds no text at all;
    return the kind and the features behind it."""
    stats = page.stats
    n = len(stats)
    if n == 0 or stats.chars[0] == 0:
        return "empty", {"reason": "no text"}
    chars, link_chars = stats.chars, stats.link_chars
    if cscores is None:
        prose, headline_links = python_prose_and_links(stats)
    else:
        prose, headline_links = cscores.prose_and_links(
            stats.tag, stats.own_chars, chars, link_chars, stats.parent, stats.elements,
            HEADLINE_MIN_CHARS, PARAGRAPH_MIN_CHARS, PARAGRAPH_MAX_LINK_SHARE,
        )  # fmt: skip
    repeated = _largest_repeated_group(page)
    figures: dict[str, Any] = {
        "prose_chars": prose,
        "article_links": headline_links,
        "link_density": round(link_chars[0] / chars[0], 3),
        "anchor_share": round(1 - min(prose, chars[0] - link_chars[0]) / max(chars[0] - link_chars[0], 1), 3),
        "repeated_items": repeated,
        "headline_in_title": _headline_in_title(page),
        "declared_article": _declared_article(page),
    }
    if prose >= PROSE_ARTICLE_CHARS:
        kind: PageKindName = "article"
        figures["reason"] = f"prose region of {prose} chars"
    elif (figures["declared_article"] or figures["headline_in_title"]) and prose >= PROSE_WITH_HEADLINE_CHARS:
        kind = "article"
        figures["reason"] = "declared or shown headline with prose"
    elif headline_links >= MIN_ARTICLE_LINKS:
        kind = "list"
        figures["reason"] = f"{headline_links} headline links, prose region only {prose} chars"
    else:
        kind = "article"
        figures["reason"] = f"only {headline_links} headline links"
    return kind, figures


def python_prose_and_links(stats: NodeStats) -> tuple[int, int]:
    """The largest prose region and the links with headline-length text, in one pass (in C where the
    extension is built: ``_cscores.prose_and_links``; this is its reference)."""
    n = len(stats)
    tags, own = stats.tag, stats.own_chars
    chars, link_chars, parent, elements = stats.chars, stats.link_chars, stats.parent, stats.elements
    region = [0] * n
    headline_links = 0
    fewest = min(HEADLINE_MIN_CHARS, PARAGRAPH_MIN_CHARS)  # an element with fewer counts for neither
    for i in range(n):
        c = chars[i]
        if c < fewest:
            continue
        if tags[i] == "a":
            if c >= HEADLINE_MIN_CHARS and elements[i].get("href"):
                headline_links += 1
            continue
        if own[i] >= PARAGRAPH_MIN_CHARS:
            region[i] += own[i]
        nonlink = c - link_chars[i]
        if i and nonlink >= PARAGRAPH_MIN_CHARS and link_chars[i] <= PARAGRAPH_MAX_LINK_SHARE * c:
            region[parent[i]] += nonlink
    return max(region), headline_links


def _largest_repeated_group(page: Page) -> int:
    """The largest number of same-tag, same-class siblings that contain links (in C where the extension is
    built: ``_cscores.largest_group``, which sorts the keys; :func:`python_largest_repeated_group` is its
    reference)."""
    stats = page.stats
    if cscores is None:
        return python_largest_repeated_group(stats)
    largest: int = cscores.largest_group(stats.parent, stats.tag, stats.classes, stats.link_tags)
    return largest


def python_largest_repeated_group(stats: NodeStats) -> int:
    """:func:`_largest_repeated_group` in Python: the (parent, tag, class) keys of the elements holding links
    counted by ``Counter`` (a fifth fewer instructions than a loop, scrapinghub)."""
    classes = stats.classes
    if "" in classes:  # an empty class attribute is the same class as none
        classes = [c or None for c in classes]
    keys = zip(stats.parent[1:], stats.tag[1:], classes[1:], strict=True)
    counts = Counter(compress(keys, stats.link_tags[1:]))
    return max(counts.values(), default=0)


def _headline_in_title(page: Page) -> bool:
    """A link-free element of headline length whose text is in <title>, or holds its main segment."""
    title = collapse(page.meta.title or "")
    if not title:
        return False
    segments = [s for s in TITLE_SEPARATORS.split(title) if text_len(s) >= HEADLINE_MIN_CHARS]
    # an element's text, collapsed, is at least as long as its non-white-space characters: an element
    # with more than the title has and than twice any segment has matches neither way, unread
    most = min(HEADLINE_MAX_CHARS, max([len(title), *(2 * len(s) for s in segments)]))
    stats = page.stats
    for i in range(1, len(stats)):
        c = stats.chars[i]
        if c < HEADLINE_MIN_CHARS or c > most or stats.link_chars[i] or stats.tag[i] == "a":
            continue
        text = collapse(subtree_text(stats.elements[i]))
        if text in title or any(seg in text and len(text) <= 2 * len(seg) for seg in segments):
            return True
    return False


def _declared_article(page: Page) -> bool:
    og = page.meta.meta.get("og:type", "").lower()
    if og == "article" or og.startswith("article"):
        return True
    for obj in page.meta.json_ld:
        kind = obj.get("@type")
        kinds = kind if isinstance(kind, list) else [kind]
        for k in kinds:
            if isinstance(k, str) and (k.endswith("Article") or k.endswith("Posting")):
                return True
    return False
