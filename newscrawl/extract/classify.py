"""Seed 000's short-page classifier.

Coarse extraction: the node of maximum text density TD_i = C_i / T_i (not maximum DensitySum). If its text
is shorter than ``short_threshold`` bytes (450, from the paper's 2,823 pages), the page is *short*.
Bytes are counted in UTF-8 (the paper does not say which encoding; its pages were GBK and UTF-8).
Cost O(k) in the number of tags.
"""

from __future__ import annotations

from dataclasses import dataclass

from newscrawl.extract.document import collapse, subtree_text
from newscrawl.extract.result import PageClass
from newscrawl.extract.stats import NodeStats

#: seed 000: below 450 bytes the coarse extraction identifies a short-content page
SHORT_THRESHOLD_BYTES = 450


@dataclass(frozen=True, slots=True)
class PageClassification:
    page_class: PageClass
    coarse_length: int  # bytes of the coarse extraction
    node: int  # index of the maximum-density node in the stats


def classify_length(stats: NodeStats, short_threshold: int = SHORT_THRESHOLD_BYTES) -> PageClassification:
    """Classify a page as short or long from its maximum text-density node."""
    if len(stats) == 0:
        return PageClassification("short", 0, 0)
    density = [c / (t or 1) for c, t in zip(stats.chars, stats.tags, strict=True)]
    best = density.index(max(density))  # the first node of maximum density
    text = collapse(subtree_text(stats.elements[best]))
    length = len(text.encode("utf-8"))
    return PageClassification("short" if length < short_threshold else "long", length, best)
