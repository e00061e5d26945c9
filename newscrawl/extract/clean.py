"""Stage 1 of the design card: noise-tag stripping.

Removes, with their content, the noise tags (seed 003's type I list, see ``tags.py``) and the elements
seed 002 treats as invisible: an inline style with ``display:none``, ``visibility:hidden`` or
``position:fixed`` (floating windows). Comments and processing instructions are already dropped by the
parser. Works in place on a tree the library owns; never on a caller's tree.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from lxml import etree

from newscrawl.extract.document import Element, drop_element
from newscrawl.extract.lazyre import lazy_compile
from newscrawl.extract.tags import DESIGN_CARD_NOISE_TAGS, NEVER_TEXT_TAGS

_HIDDEN_STYLE = lazy_compile(
    r"display\s*:\s*none|visibility\s*:\s*hidden|position\s*:\s*fixed", re.IGNORECASE
)
#: the elements with a ``style`` attribute, found from the attributes up (``//*[@style]`` tests a predicate
#: on every element: 3.5x the cost on scrapinghub's pages)
_STYLED = etree.XPath("//@style/..")


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
    before = sum(1 for _ in root.iter(*tags)) if tags else 0
    if tags:
        etree.strip_elements(root, *tags, with_tail=False)
    hidden = 0
    if strip_hidden:
        for el in _STYLED(root):
            if _HIDDEN_STYLE.search(el.get("style", "")) and el.tag not in ("html", "body"):
                drop_element(el)
                hidden += 1
    return CleanReport(noise_tags=before, hidden=hidden)


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
