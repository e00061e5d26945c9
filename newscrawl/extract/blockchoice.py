"""``auto``'s learned block choice: should the content root be widened to one of its ancestors?

The content score settles on the lowest node holding the bulk of the non-link text. On many pages that
is right; on others it is a dense block inside the article (a recipe's method beside its ingredient
list, a list beside the story, the body without its subtitle and date lines), and the ancestor one to
``MAX_LEVELS`` levels up is the article. Hand rules (a higher decay, climbing to an ancestor scoring a
share of the root's score) each cost another dataset (docs/EVALUATION.md, issue 11), so the decision is
learned: gradient-boosted decision stumps over language-neutral block features (text and link shares,
tags, depth, what the ancestor adds: headings, list items, teaser cards, named chrome...) give the
log-odds that reading the ancestor scores better than reading the root. Stumps add up feature by
feature, so the model is one step function per feature (a few hundred numbers). The ancestor with the
highest odds above ``threshold`` is read instead.

The model is the JSON file ``newscrawl/data/block_model.json``, trained by
``python -m newscrawl.evaluation.blocktrain`` on the shared datasets' truths; it is evaluated here in
pure Python. Features never name a site, a language or a dataset.
"""

from __future__ import annotations

import json
import math
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

from newscrawl.extract.boilerplate import counts_against, is_caption, looks_like_boilerplate
from newscrawl.extract.stats import NodeStats

#: ancestors this many levels up at most are candidates
MAX_LEVELS = 3
MODEL_FILE = "block_model.json"
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
LIST_ITEMS = frozenset({"li", "dt", "dd"})
FORM_TAGS = frozenset({"form", "input", "button", "select", "textarea", "label"})
#: tags of a candidate or root told apart by the features (anything else: neither)
SECTION_TAGS = frozenset({"article", "main", "section"})

FEATURES: tuple[str, ...] = (
    "levels",
    "log_growth",
    "added_text_share",
    "added_link_share",
    "root_link_share",
    "score_ratio",
    "root_body_share",
    "cand_body_share",
    "root_depth",
    "root_p_count",
    "cand_section",
    "added_heading_share",
    "added_li_share",
    "added_p_share",
    "added_chrome_share",
    "added_against_share",
    "added_form_share",
    "added_teaser_share",
    "added_before_share",
    "added_short_share",
    "added_mean_piece",
    "added_tags_per_char",
    "added_link_tags_per_kchar",
)
#: the features that read the elements a candidate adds (the others come from the statistics' arrays)
SCANNED = frozenset(
    FEATURES.index(name)
    for name in FEATURES
    if name.startswith("added_") and name.endswith(("_share", "_piece"))
    and name not in ("added_text_share", "added_link_share")
)
#: an added element under this many characters of its own is a short piece (a date, a label, a list item)
SHORT_PIECE = 30
#: what an added element's own text is in (flags carried down from its ancestors below the candidate)
_HEADING, _LIST, _PARA, _CHROME, _AGAINST, _FORM, _TEASER, _BEFORE, _SHORT = range(9)


@dataclass(frozen=True, slots=True)
class Step:
    """One feature's part of the log-odds: ``values[j]`` where ``j`` thresholds lie below the value."""

    thresholds: tuple[float, ...]
    values: tuple[float, ...]

    @property
    def top(self) -> float:
        return max(self.values)

    def __call__(self, x: float) -> float:
        return self.values[bisect_left(self.thresholds, x)]


@dataclass(frozen=True, slots=True)
class BlockModel:
    """Gradient-boosted decision stumps, summed per feature: log-odds = ``init`` + the features' steps."""

    features: tuple[str, ...]
    init: float
    steps: tuple[tuple[int, Step], ...]
    threshold: float

    def log_odds(self, x: Sequence[float]) -> float:
        total = self.init
        for f, step in self.steps:
            total += step.values[bisect_left(step.thresholds, x[f])]
        return total

    def bound(self, x: Sequence[float]) -> float:
        """The highest log-odds ``x`` can reach whatever its ``SCANNED`` features are (``x`` need not hold
        them): below ``threshold``, the elements need not be read."""
        total = self.init
        for f, step in self.steps:
            total += step.top if f in SCANNED else step.values[bisect_left(step.thresholds, x[f])]
        return total

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BlockModel:
        """Read the model file's object; ValueError when its features are not this code's."""
        features = tuple(data["features"])
        if features != FEATURES:
            raise ValueError(f"block model features {features!r} differ from the code's {FEATURES!r}")
        steps = []
        for name, step in data["steps"].items():
            thresholds = tuple(float(v) for v in step["thresholds"])
            values = tuple(float(v) for v in step["values"])
            if len(values) != len(thresholds) + 1 or list(thresholds) != sorted(thresholds):
                raise ValueError(f"block model step of {name!r}: {len(thresholds)} sorted thresholds and one "
                                 f"value more expected")
            steps.append((features.index(name), Step(thresholds, values)))
        return cls(features, float(data["init"]), tuple(steps), float(data["threshold"]))


@cache
def shipped_model() -> BlockModel | None:
    """The model shipped in the package, read once; None when the package has none."""
    path = files("newscrawl").joinpath("data", MODEL_FILE)
    if not path.is_file():
        return None
    return BlockModel.from_json(json.loads(path.read_text(encoding="utf-8")))


def candidates(stats: NodeStats, root: int) -> list[int]:
    """The root's ancestors up to ``MAX_LEVELS`` levels up (the body included), nearest first."""
    out: list[int] = []
    p = stats.parent[root]
    while p >= 0 and len(out) < MAX_LEVELS:
        out.append(p)
        p = stats.parent[p]
    return out


def candidate_features(
    stats: NodeStats, scores: Sequence[float], root: int, model: BlockModel | None = None
) -> list[tuple[int, list[float]]]:
    """Each candidate ancestor that adds text, with its features in ``FEATURES`` order, nearest first.

    "Added" is what a candidate holds outside ``root``: the text of its other children's subtrees, in
    headings, list items, paragraphs, named chrome (``looks_like_boilerplate``, captions), blocks that
    count against a root (comments, footers), forms and teasers (an element holding a link, of the tag
    and class of its previous sibling), before the root or in short pieces, as shares of the added
    characters. One pass over the elements the candidates add: each candidate adds its other children
    to the one below it. With a ``model``, nothing is read (and nothing returned) when no candidate
    could reach its threshold whatever it adds (``BlockModel.bound``)."""
    chars, links, tags, own = stats.chars, stats.link_chars, stats.tag, stats.own_chars
    classes, ids, parent, link_tags = stats.classes, stats.ids, stats.parent, stats.link_tags
    body = max(chars[0], 1)
    rc = max(chars[root], 1)
    root_end = stats.subtree_end(root)
    root_p = float(tags[root:root_end].count("p"))
    root_links = links[root] / rc

    def vector(levels: int, cand: int, sums: list[int], pieces: int) -> list[float]:
        cc = chars[cand]
        added = cc - chars[root]
        denom = float(added)
        return [
            float(levels),
            math.log((cc + 1) / (rc + 1)),
            (added - links[cand] + links[root]) / max(rc - links[root], 1),
            (links[cand] - links[root]) / denom,
            root_links,
            scores[cand] / scores[root] if scores[root] > 0 else 0.0,
            chars[root] / body,
            cc / body,
            float(stats.depth[root]),
            root_p,
            float(tags[cand] in SECTION_TAGS),
            sums[_HEADING] / denom,
            sums[_LIST] / denom,
            sums[_PARA] / denom,
            sums[_CHROME] / denom,
            sums[_AGAINST] / denom,
            sums[_FORM] / denom,
            sums[_TEASER] / denom,
            sums[_BEFORE] / denom,
            sums[_SHORT] / denom,
            added / max(pieces, 1),
            (stats.tags[cand] - stats.tags[root]) / denom,
            1000 * (link_tags[cand] - link_tags[root]) / denom,
        ]

    cands = candidates(stats, root)
    if model is not None:
        zeros = [0] * 9
        if not any(
            model.bound(vector(levels, cand, zeros, 0)) > model.threshold
            for levels, cand in enumerate(cands, 1)
            if chars[cand] > chars[root]
        ):
            return []
    sums = [0] * 9
    pieces = 0
    flags: dict[int, int] = {}
    last: dict[int, int] = {}  # the last child seen of each parent: an element's previous sibling
    out: list[tuple[int, list[float]]] = []
    inner = root
    for levels, cand in enumerate(cands, 1):
        flags[cand] = 0
        # the candidate's children before ``inner`` (its child on the way to the root), then after it
        for first, end in ((cand + 1, inner), (stats.subtree_end(inner), stats.subtree_end(cand))):
            before = first == cand + 1
            for i in range(first, end):
                tag = tags[i]
                p = parent[i]
                f = flags[p]
                if tag in HEADINGS:
                    f |= 1 << _HEADING
                elif tag in LIST_ITEMS:
                    f |= 1 << _LIST
                elif tag == "p":
                    f |= 1 << _PARA
                elif tag in FORM_TAGS:
                    f |= 1 << _FORM
                cls, ident = classes[i], ids[i]
                if cls or ident:
                    if looks_like_boilerplate(cls, ident) or is_caption(tag, cls):
                        f |= 1 << _CHROME
                    if counts_against(cls, ident):
                        f |= 1 << _AGAINST
                prev = last.get(p)
                last[p] = i
                if (
                    link_tags[i]
                    and not f & (1 << _TEASER)
                    and prev is not None
                    and tags[prev] == tag
                    and classes[prev] == cls
                ):
                    f |= 1 << _TEASER
                flags[i] = f
                n = own[i]
                if n:
                    pieces += 1
                    if before:
                        sums[_BEFORE] += n
                    if n < SHORT_PIECE:
                        sums[_SHORT] += n
                    if f:
                        for bit in range(_TEASER + 1):
                            if f & (1 << bit):
                                sums[bit] += n
        inner = cand
        if chars[cand] <= chars[root]:
            continue  # adds no text: reads the same
        out.append((cand, vector(levels, cand, sums, pieces)))
    return out


def widen(
    stats: NodeStats, scores: Sequence[float], root: int, model: BlockModel | None
) -> tuple[int, float]:
    """The ancestor to read instead of ``root`` (or ``root``) and the best log-odds found (-inf when
    no candidate was scored: none adds text, or none could reach the threshold)."""
    if model is None:
        return root, -math.inf
    best, best_odds = root, -math.inf
    for cand, x in candidate_features(stats, scores, root, model):
        odds = model.log_odds(x)
        if odds > best_odds:
            best_odds = odds
            if odds > model.threshold:
                best = cand
    return best, best_odds
