"""Stage 1 of the design card: noise-tag stripping.

Removes, with their content, the noise tags (seed 003's type I list, see ``tags.py``) and the elements
seed 002 treats as invisible: an inline style with ``display:none``, ``visibility:hidden`` or
``position:fixed`` (floating windows). Comments and processing instructions are already dropped by the
parser. Works in place on a tree the library owns; never on a caller's tree.

One hidden element stays: the article a script reveals once the page has loaded (WeChat's ``js_content``
is ``visibility: hidden`` until then), told apart by holding most of the page's text as paragraphs of
sentences (:func:`_revealed_later`); a hidden block of keywords as long is still dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from lxml import etree

from newscrawl.extract.document import Element, drop_element
from newscrawl.extract.lazyre import lazy_compile
from newscrawl.extract.native import cstats
from newscrawl.extract.tags import DESIGN_CARD_NOISE_TAGS, NEVER_TEXT_TAGS

_HIDDEN_STYLE = lazy_compile(
    r"display\s*:\s*none|visibility\s*:\s*hidden|position\s*:\s*fixed", re.IGNORECASE
)
#: the elements with a ``style`` attribute, found from the attributes up (``//*[@style]`` tests a predicate
#: on every element: 3.5x the cost on scrapinghub's pages)
_STYLED = etree.XPath("//@style/..")
#: a hidden element is the article revealed later (:func:`_revealed_later`) with at least this share of
#: the body's text, in at least ``REVEALED_MIN_PARAGRAPHS`` <p> and one sentence end per
#: ``REVEALED_CHARS_PER_SENTENCE`` characters
REVEALED_SHARE = 0.5
REVEALED_MIN_PARAGRAPHS = 3
REVEALED_CHARS_PER_SENTENCE = 200
#: characters that end a sentence, in the scripts news is written in
_SENTENCE_END = lazy_compile(r"[。！？!?．]|\.(?=\s|$)")


#: the C extension's count of the elements of some names (no Python object for each), when it is built
_c_count_tags: Callable[[Element, set[str]], int] | None = getattr(cstats, "count_tags", None)


@dataclass(frozen=True, slots=True)
class CleanReport:
    """How much the stripping removed."""

    noise_tags: int
    hidden: int


def strip_noise(
    root: Element,
    *,
    noise_tags: Iterable[str] = DESIGN_CARD_NOISE_TAGS,
    strip_hidden: bool = True,
) -> CleanReport:
    """Remove noise tags and (optionally) hidden or fixed-position elements from ``root``, in place."""
    tags = set(noise_tags) | NEVER_TEXT_TAGS - {"head", "title"}
    if not tags:
        before = 0
    elif _c_count_tags is not None:
        before = _c_count_tags(root, tags)
    else:
        before = sum(1 for _ in root.iter(*tags))
    if tags:
        etree.strip_elements(root, *tags, with_tail=False)
    hidden = 0
    if strip_hidden:
        body_chars: list[int] = []  # the body's text length, counted once when first needed
        for el in _STYLED(root):
            if _HIDDEN_STYLE.search(el.get("style", "")) and el.tag not in ("html", "body"):
                if _revealed_later(el, root, body_chars):
                    continue
                drop_element(el)
                hidden += 1
    return CleanReport(noise_tags=before, hidden=hidden)


def _revealed_later(el: Element, root: Element, body_chars: list[int]) -> bool:
    """Whether hidden ``el`` is the page's article, shown by a script once the page has loaded: at least
    ``REVEALED_MIN_PARAGRAPHS`` paragraphs, sentences throughout, and ``REVEALED_SHARE`` of the body's
    text (an SEO block of keywords hidden in a page is as long, but has no sentences)."""
    paragraphs = 0
    for _ in el.iter("p"):
        paragraphs += 1
        if paragraphs == REVEALED_MIN_PARAGRAPHS:
            break
    else:
        return False
    text = "".join(el.itertext())
    if len(_SENTENCE_END.findall(text)) * REVEALED_CHARS_PER_SENTENCE < len(text):
        return False
    if not body_chars:
        body = root.find("body")
        body_chars.append(sum(len(t) for t in (body if body is not None else root).itertext()))
    return len(text) >= REVEALED_SHARE * body_chars[0]


@lru_cache(maxsize=256)
def _compile(expr: str) -> etree.XPath:
    try:
        return etree.XPath(expr)
    except etree.XPathSyntaxError as e:
        raise ValueError(f"bad prune_xpath expression {expr!r}: {e}") from e


def compile_xpaths(exprs: str | Sequence[str] | None) -> tuple[etree.XPath, ...]:
    """Compile (once, cached) the XPath expressions of ``prune_xpath``; ValueError names a bad one."""
    if not exprs:
        return ()
    if isinstance(exprs, str):
        exprs = (exprs,)
    return tuple(_compile(e) for e in exprs)


def prune_elements(root: Element, xpaths: tuple[etree.XPath, ...]) -> int:
    """Remove every element the expressions select (tails kept); returns how many were removed."""
    removed = 0
    for xp in xpaths:
        for el in xp(root):
            if isinstance(el, etree._Element) and el.getparent() is not None:
                drop_element(el)
                removed += 1
    return removed
