"""``auto``: the design card (seed 000) with newscrawl's improvements; the default extractor.

The design card classifies a page as short or long (maximum text-density node, 450 bytes) and sends it
to the matching extractor. Measured on the dev sets, one extractor, the *decayed content score* below,
beats SCEDD on the pages seed 000 calls short and CETD on those it calls long (docs/EVALUATION.md), so
``auto`` runs it on both and reports the class from the content it found (< ``short_threshold`` bytes
is short); seed 000's own coarse length and class stay in the figures. The failures of CETD and SCEDD
it fixes come from the choice of the content node:

- CETD's DensitySum is the sum of the *children's* densities, so an article written as text and <br>
  inside one <td> scores zero and a dense forum reply wins; SCEDD picks one paragraph of a long page.
- The content score of a node is ``S_i = own_i + decay * sum(S_child)``, where ``own_i`` is the text
  directly in the node (its text and its children's tails), counted negative (times ``link_penalty``)
  inside <a> and inside reader-comment and footer blocks (class/id ``comment``, ``reply``, ``pinglun``,
  ``footer`` ...) that hold less than ``comment_max_share`` of the body's text. The content root is the
  node of maximum S. A decay below 1 lets a node win only when its children's text adds up to more
  than the best single child, so the root settles on the lowest node that holds the bulk of the
  non-link text.
- Inside the root, subtrees are left out when they are page chrome (class/id tokens such as ``share``,
  ``comment``, ``related``; <nav>, <aside>, <footer>) or link lists (link characters above
  ``max_link_share`` of their text), unless they hold more than ``chrome_max_share`` of the root's text.
- Last, page furniture at the edges of the text is trimmed: a disclaimer, related-links or print/close
  line in the last 30% of the text cuts the rest, and short editor/source lines at either end go
  (``boilerplate.trim_edges``).
- After that, when the DOM gives little text and the page's script data (JSON-LD ``articleBody``,
  ``__NEXT_DATA__``, a ``window.__INITIAL_STATE__``-style object) holds the article, that is used
  (``scriptdata.py``).

Parameters (tuned on the dev sets, see docs/EVALUATION.md): ``decay = 0.75`` (0.7-0.8 is a plateau on
chinese-wce, daniel-zh and scrapinghub), ``link_penalty = 1.0``, ``max_link_share = 0.5``,
``chrome_max_share = 0.5``, ``comment_max_share = 0.9``; ``short_threshold = 450`` bytes (seed 000).
"""

from __future__ import annotations

from dataclasses import dataclass

from newscrawl.extract.algorithms.base import fraction, positive, register
from newscrawl.extract.boilerplate import (
    CHROME_TAGS,
    counts_against,
    looks_like_boilerplate,
    trim_edges,
)
from newscrawl.extract.classify import SHORT_THRESHOLD_BYTES
from newscrawl.extract.document import Element, paragraphs, spare_running_text
from newscrawl.extract.page import Page
from newscrawl.extract.result import BodyResult, freeze
from newscrawl.extract.scriptdata import use_script_data
from newscrawl.extract.stats import NodeStats


@dataclass(frozen=True, slots=True)
class AutoParams:
    short_threshold: int = SHORT_THRESHOLD_BYTES
    decay: float = 0.75
    link_penalty: float = 1.0
    max_link_share: float = 0.5
    chrome_max_share: float = 0.5
    comment_max_share: float = 0.9

    def validate(self) -> None:
        positive("short_threshold", self.short_threshold)
        fraction("decay", self.decay)
        positive("link_penalty", self.link_penalty)
        fraction("max_link_share", self.max_link_share)
        fraction("chrome_max_share", self.chrome_max_share)
        fraction("comment_max_share", self.comment_max_share)


def content_scores(
    stats: NodeStats, decay: float, link_penalty: float, comment_max_share: float = 1.0
) -> list[float]:
    """S_i = own_i + decay * sum(S_child), own text inside links and comment blocks counted negative."""
    n = len(stats)
    els = stats.elements
    parent = stats.parent
    own = stats.own_chars
    limit = comment_max_share * (stats.chars[0] if n else 0)
    negative = [False] * n
    scores = [0.0] * n
    tags = stats.tag
    chars = stats.chars
    for i in range(n):
        p = parent[i]
        neg = (p >= 0 and negative[p]) or tags[i] == "a"
        if not neg and chars[i] < limit:
            el = els[i]
            cls, ident = el.get("class"), el.get("id")
            neg = bool((cls or ident) and counts_against(cls, ident))
        negative[i] = neg
        scores[i] = -link_penalty * own[i] if neg else float(own[i])
    for i in range(n - 1, 0, -1):
        scores[parent[i]] += decay * scores[i]
    return scores


def is_chrome(el: Element) -> bool:
    """Whether an element is page chrome by its tag or its class/id tokens."""
    return el.tag in CHROME_TAGS or looks_like_boilerplate(el.get("class"), el.get("id"))


def prune(stats: NodeStats, root: int, params: AutoParams) -> tuple[set[Element], int]:
    """Subtrees of ``root`` to leave out: chrome and link lists, but never an inline element standing in
    running text (``spare_running_text``). Returns them and the characters dropped."""
    els = stats.elements
    chars = stats.chars
    limit = params.chrome_max_share * chars[root]
    skip: set[Element] = set()
    i, end = root + 1, stats.subtree_end(root)
    while i < end:
        el, c = els[i], chars[i]
        if c and c < limit and el.tag != "a" and (
            stats.link_chars[i] > params.max_link_share * c or is_chrome(el)
        ):
            skip.add(el)
            i = stats.subtree_end(i)
        else:
            i += 1
    skip = spare_running_text(skip)
    return skip, sum(chars[stats.index[el]] for el in skip)


@register("auto", AutoParams, "the default: design-card classification, decayed content score, pruning")
def extract_auto(page: Page, params: AutoParams) -> BodyResult:
    stats = page.stats
    cls = page.classification(params.short_threshold)
    if len(stats) == 0 or stats.chars[0] == 0:
        empty = {"chosen": "auto", "why": "no text in body", "page_class": "short"}
        return use_script_data(page, BodyResult((), None, freeze(empty)), params.short_threshold)
    scores = content_scores(stats, params.decay, params.link_penalty, params.comment_max_share)
    root = max(range(len(stats)), key=scores.__getitem__)
    skip, dropped = prune(stats, root, params)
    node = stats.elements[root]
    paras = tuple(paragraphs(node, skip=skip))
    kept = trim_edges(paras)
    size = sum(len(p.encode("utf-8")) for p in kept)
    page_class = "short" if size < params.short_threshold else "long"
    why = (
        f"{page_class} page: {size} B of content vs {params.short_threshold} B (seed 000's coarse node: "
        f"{cls.coarse_length} B, {cls.page_class}); one content-score extractor serves both classes, "
        "as it measured better than SCEDD on short and CETD on long pages"
    )
    body = BodyResult(
        kept,
        node,
        freeze(
            {
                "chosen": "auto",
                "why": why,
                "page_class": page_class,
                "content_bytes": size,
                "content_score": round(scores[root], 2),
                "root_chars": stats.chars[root],
                "pruned_subtrees": len(skip),
                "pruned_chars": dropped,
                "trimmed_paragraphs": len(paras) - len(kept),
            }
        ),
    )
    return use_script_data(page, body, params.short_threshold)
