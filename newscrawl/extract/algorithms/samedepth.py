"""Same-depth text-length standard deviation: the article algorithm of I-AWCE.

Citation: Qin Long, Li Xiaoge, Mu Zhenghui, Li Tao, "基于网页图像分类的自动化网页正文抽取模型" (I-AWCE,
automatic web content extraction by page-image classification), seed 004, algorithm 1.

Noise removal first (the seed's table 1): ``script``, ``style`` and ``head`` are gone from the shared tree;
navigation (``nav``) and link-only regions (every character inside links) are skipped here, except an
inline element in running text (``<b><a>..</a></b>`` inside a sentence: no words are cut from a paragraph).

The walk, from ``<body>`` (the seed's recursion, run as a loop):

    children = the element's children, noise skipped
    no child            -> the content is the element's parent
    one child           -> go into it
    otherwise           m1, m2 = the two children with the longest text (lm1 >= lm2),
                        std = population standard deviation of every child's text length
                        then one of the readings below

Lines 12-15 of the printed pseudo-code are garbled and their comments contradict the code. Readings
(parameter ``reading``):

- ``"printed"``: if ``lm1 - lm2 > std``: when ``lm1 - lm2 > min_gap`` the content is whichever of m1 and
  m2 comes first in the document, else the element; if ``lm1 - lm2 <= std`` go into m1.
- ``"described"``: the seed's prose (one child dominates -> it holds the text; children of about equal
  length -> their parent is the content): if ``lm1 - lm2 > std`` go into m1, else the element.
- ``"hybrid"``: go into m1 only when ``lm1 - lm2 > std`` and ``lm1 - lm2 > min_gap``, else the element.

Measured (CJK-F1 chinese-wce / daniel-zh / SH-F1 scrapinghub), the default is the best:
printed 0.436 / 0.378 / 0.495, described 0.791 / 0.809 / 0.761, hybrid 0.832 / 0.833 / 0.771.

Parameters: ``min_gap = 100`` (characters, the printed code's constant), ``reading = "hybrid"``.
Text length is the count of non-white-space characters (the seed's ``wordcount`` on Chinese text).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import sqrt

from newscrawl.extract.algorithms.base import positive, register
from newscrawl.extract.document import paragraphs, spare_running_text, widen_to_paragraph
from newscrawl.extract.page import Page
from newscrawl.extract.result import BodyResult, freeze
from newscrawl.extract.stats import NodeStats

READINGS = ("printed", "described", "hybrid")
#: tags that are navigation by definition (seed 004, table 1)
NAV_TAGS = frozenset({"nav"})


@dataclass(frozen=True, slots=True)
class SameDepthParams:
    min_gap: int = 100
    reading: str = "hybrid"

    def validate(self) -> None:
        positive("min_gap", self.min_gap)
        if self.reading not in READINGS:
            raise ValueError(f"reading must be one of {', '.join(READINGS)}, got {self.reading!r}")


def is_noise(stats: NodeStats, i: int) -> bool:
    """Navigation, or a region whose every character is link text."""
    if stats.elements[i].tag in NAV_TAGS:
        return True
    return stats.chars[i] > 0 and stats.link_chars[i] >= stats.chars[i] and stats.elements[i].tag != "a"


def find_content(stats: NodeStats, params: SameDepthParams) -> tuple[int, list[str]]:
    """The index of the content element and the steps taken to reach it."""
    node = 0
    steps: list[str] = []
    for _ in range(len(stats)):
        kids = [c for c in stats.children(node) if not is_noise(stats, c)]
        if not kids:
            steps.append("leaf: parent")
            return (stats.parent[node] if node > 0 else node), steps
        if len(kids) == 1:
            node = kids[0]
            continue
        lengths = [stats.chars[c] for c in kids]
        order = sorted(range(len(kids)), key=lambda k: -lengths[k])
        m1, m2 = kids[order[0]], kids[order[1]]
        gap = stats.chars[m1] - stats.chars[m2]
        mean = sum(lengths) / len(lengths)
        std = sqrt(sum((v - mean) ** 2 for v in lengths) / len(lengths))
        if params.reading == "printed":
            if gap > std:
                steps.append(f"gap {gap} > std {std:.1f}")
                if gap > params.min_gap:
                    return min(m1, m2), steps
                return node, steps
            node = m1
        elif params.reading == "described":
            if gap > std:
                node = m1
                continue
            steps.append(f"gap {gap} <= std {std:.1f}: parent")
            return node, steps
        else:
            if gap > std and gap > params.min_gap:
                node = m1
                continue
            steps.append(f"gap {gap} vs std {std:.1f}: parent")
            return node, steps
    return node, steps


@register("samedepth", SameDepthParams, "same-depth text-length standard deviation (I-AWCE, seed 004)")
def extract_samedepth(page: Page, params: SameDepthParams) -> BodyResult:
    stats = page.stats
    if len(stats) == 0 or stats.chars[0] == 0:
        return BodyResult((), None, freeze({"reason": "no text in body"}))
    node, steps = find_content(stats, params)
    node = stats.index[widen_to_paragraph(stats.elements[node])]
    end = stats.subtree_end(node)
    skip = spare_running_text(stats.elements[j] for j in range(node + 1, end) if is_noise(stats, j))
    el = stats.elements[node]
    return BodyResult(
        tuple(paragraphs(el, skip=skip)),
        el,
        freeze({"reading": params.reading, "depth": stats.depth[node], "stop": steps[-1] if steps else ""}),
    )
