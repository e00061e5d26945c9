"""CETD: content extraction via composite text density.

Citation: Fei Sun, Dandan Song, Lejian Liao, "DOM based content extraction via text density", SIGIR 2011;
the long-page path of seed 000 (Xi et al., 2016).

Formula, for every node i under <body> (C chars, T tags, LC link chars, LT link tags, b = body):

    CTD_i = C_i/T_i * log_B( (C_i/LC_i) * (T_i/LT_i) ),   B = ln( (C_i/nLC_i)*LC_i + (LC_b/C_b)*C_i + e )
    DensitySum_i = sum of CTD_j over the children j of i

1. The content root is the node with the maximum DensitySum.
2. The threshold t is the minimum CTD on the path from that node up to <body>.
3. Extraction, from <body> down: a node with CTD >= t marks the node of maximum DensitySum in its subtree
   as content, and its children are visited in turn. Inside a marked subtree, nodes with CTD < t are
   left out.

Parameters: ``use_composite`` (True: CTD; False: plain TD = C/T, the paper's simpler variant).
Known gaps: the paper's "marking" leaves open whether text of low-density descendants of a marked node
is kept; here it is dropped (that is what removes in-content link lists), except an inline element in
running text (a link or <b> inside a sentence): newscrawl never cuts words out of a kept paragraph. For
the same reason a marked node inside a sentence is widened to its enclosing block.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from newscrawl.extract.algorithms.base import register
from newscrawl.extract.document import LineCache, paragraphs, spare_running_text, widen_to_paragraph
from newscrawl.extract.page import Page
from newscrawl.extract.result import BodyResult, freeze
from newscrawl.extract.stats import NodeStats


@dataclass(frozen=True, slots=True)
class CETDParams:
    use_composite: bool = True


def densities(stats: NodeStats, composite: bool = True) -> list[float]:
    """CTD (or TD) of every node."""
    n = len(stats)
    if not composite:
        return [stats.text_density(i) for i in range(n)]
    c_b = stats.chars[0] if n else 0
    share = stats.link_chars[0] / c_b if c_b else 0.0
    return [stats.composite_density(i, share) for i in range(n)]


def density_sums(stats: NodeStats, dens: list[float]) -> list[float]:
    """DensitySum_i: the sum of the children's densities."""
    sums = [0.0] * len(stats)
    parent = stats.parent
    for i in range(1, len(stats)):
        sums[parent[i]] += dens[i]
    return sums


def subtree_argmax(stats: NodeStats, values: list[float]) -> list[int]:
    """For each node, the index of the node with the largest value in its subtree (itself included)."""
    n = len(stats)
    best = list(range(n))
    parent = stats.parent
    for i in range(n - 1, 0, -1):
        p = parent[i]
        if values[best[i]] > values[best[p]]:
            best[p] = best[i]
    return best


def threshold_on_path(stats: NodeStats, dens: list[float], node: int) -> float:
    """The minimum density on the path from ``node`` up to the body (both included)."""
    t = dens[node]
    i = node
    while i > 0:
        i = stats.parent[i]
        t = min(t, dens[i])
    return t


@register("cetd", CETDParams, "CETD composite text density (Sun et al. 2011), seed 000's long-page path")
def extract_cetd(page: Page, params: CETDParams) -> BodyResult:
    stats = page.stats
    if len(stats) == 0 or stats.chars[0] == 0:
        return BodyResult((), None, freeze({"reason": "no text in body"}))
    dens = densities(stats, params.use_composite)
    sums = density_sums(stats, dens)
    best = subtree_argmax(stats, sums)
    root = best[0]
    t = threshold_on_path(stats, dens, root)

    marked: list[int] = []
    covered = Subtrees(stats)
    stack = [0]
    while stack:
        i = stack.pop()
        if dens[i] < t:
            continue
        m = best[i]
        if m not in covered:
            marked.append(m)
            covered.add(m)
        stack.extend(reversed(stats.children(i)))
    lines: LineCache = {}
    widened = [widen_to_paragraph(stats.elements[m], cache=lines) for m in marked]
    marked = _outermost(stats, [stats.index[el] for el in widened])
    low = spare_running_text(stats.elements[i] for i in range(len(stats)) if dens[i] < t)
    paras: list[str] = []
    for m in marked:
        paras.extend(paragraphs(stats.elements[m], skip=low))
    return BodyResult(
        tuple(paras),
        stats.elements[root],
        freeze({"threshold": round(t, 4), "density_sum": round(sums[root], 4), "marked": len(marked)}),
    )


class Subtrees:
    """Nodes covered by a set of subtrees, asked in O(log n): subtrees are nested or disjoint, so the
    outermost ones, kept sorted, cover the rest. (Each node was checked against every subtree marked
    before it: a mutated 144 KB page with thousands of marked nodes ran for minutes; fuzz seed 16.)"""

    def __init__(self, stats: NodeStats) -> None:
        self.stats = stats
        self.starts: list[int] = []  # the outermost subtrees' roots, in document order

    def __contains__(self, node: int) -> bool:
        k = bisect.bisect_right(self.starts, node) - 1
        return k >= 0 and node < self.stats.subtree_end(self.starts[k])

    def add(self, root: int) -> None:
        """Add the subtree of ``root`` (not covered yet): it replaces the outermost ones inside it."""
        lo = bisect.bisect_left(self.starts, root)
        hi = bisect.bisect_left(self.starts, self.stats.subtree_end(root))
        self.starts[lo:hi] = [root]


def _outermost(stats: NodeStats, nodes: list[int]) -> list[int]:
    """Drop nodes that lie inside another node of the list; keep document order."""
    out: list[int] = []
    for i in sorted(set(nodes)):
        if not out or i >= stats.subtree_end(out[-1]):
            out.append(i)
    return out
