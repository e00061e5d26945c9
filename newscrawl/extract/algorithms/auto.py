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
  ``footer`` ...; <footer> elements) that hold less than ``comment_max_share`` of the body's text. The
  content root is the node of maximum S. A decay below 1 lets a node win only when its children's text
  adds up to more than the best single child, so the root settles on the lowest node that holds the
  bulk of the non-link text.
  Consent dialogs (``onetrust``, ``consent``, ``cookie``, ``gdpr``) count against a root the same way,
  as does an <aside> outside <main> and <article> holding less than ``ASIDE_MAX_SHARE`` of the body's
  text (a sidebar's text widget).
  When no node scores above zero (a name such as ``id="comments-enabled article"`` around the whole
  article), the scores are taken again without the names: a name may lower a score, not empty the page.
- A thread's opening post replaces a later post chosen as the root (``first_post``): when at least
  ``FORUM_MIN_POSTS`` elements share the root's path of tags and classes from ``FORUM_LEVELS`` up and
  their common ancestor holds as many post stamps (date and time, 回复/发表于/楼主/引用/Posted/wrote),
  the first post is the content, not the longest reply.
- A root that is one paragraph (<p>) beside another <p> that reads as a sentence (at least
  ``linked_sentence_chars`` characters outside its links) gives way to the element holding both
  (``paragraph_parent``): a link in the next paragraph (a reblogged excerpt under its linked title) or
  a "see also" list of links beside them kept the post below its longest paragraph. Pruning then drops
  the link lists. ``paragraph_root_parent = False`` turns it off.
- A learned block choice may widen the root to an ancestor up to three levels up
  (``blockchoice``: gradient-boosted stumps over language-neutral block features, trained on the
  shared datasets' truths by ``python -m newscrawl.evaluation.blocktrain``, shipped as
  ``newscrawl/data/block_model.json``): the root often settles on a dense block inside the article (a
  recipe's method beside its ingredient list, a story without its subtitle). ``block_model = False``
  turns it off; a thread's opening post is never widened.
- The root's structural twins join it: elements reached from its ancestor ``twin_levels`` up by the same
  path of tags and classes, with body-like text (at least ``twin_min_share`` of the root's non-link
  text, link share at most ``max_link_share``). An article split over repeated page chunks is read
  whole; a root without a class has none.
- Inside the root (and each twin), subtrees are left out when they are page chrome (class/id tokens such
  as ``share``, ``comment``, ``related``; <nav>, <aside>, <footer>; pictures and their captions:
  <figure>, <figcaption>, a ``caption`` class, ``boilerplate.is_caption``) or link lists (link
  characters above ``max_link_share`` of their text), unless they hold more than ``chrome_max_share``
  of the root's text.
  Chrome-looking elements of one tag and class that together hold more than that share are not chrome
  (``sidebar-grid__container`` blocks holding the article); utility-class variants such as Tailwind's
  ``print:`` are not names (``boilerplate.attr_tokens``). An inline element in running text is never
  left out (``document.spare_running_text``): words are not cut from a kept paragraph. Text hidden for
  screen readers (``sr-only``, ``visually-hidden``: ``boilerplate.is_unseen``) and ruby readings (<rt>)
  go even from inside a sentence: no word a reader sees is cut. A link-dense block holding at least
  ``link_block_text_share`` of the root's non-link text is looked into rather than dropped whole.
  When pruning leaves nothing of the root (an article whose WordPress classes read ``tag-...`` under a
  root that also holds teaser lists), the best-scoring subtree pruned by its name is read instead
  (``pruned_root_read``): a name may lower a score, not empty the page.
  A subheading whose id is an anchor made of its own words (``h3#nav_costs_and_funding__1``) is not
  named chrome by that id (``boilerplate.is_anchor_id``), and a <p> with at least
  ``linked_sentence_chars`` characters outside its links is a sentence that links, not a link list.
- The lead ("standfirst") that many pages set between the headline (<h1>) and the body is put in front
  of the body (``lead``); it is looked for inside a header block that also holds a picture, a date or a
  kicker (``lead_inside``), but not in a picture's caption (a gallery's slides).
- Last, page furniture at the edges of the text is trimmed: a disclaimer, related-links or print/close
  line in the last 30% of the text cuts the rest, and short editor/source lines at either end go
  (``boilerplate.trim_edges``).
- After that, when the DOM gives little text and the page's script data (JSON-LD ``articleBody``,
  ``__NEXT_DATA__``, a ``window.__INITIAL_STATE__``-style object) holds the article, that is used
  (``scriptdata.py``).

Parameters (tuned on the dev sets, see docs/EVALUATION.md): ``decay = 0.75`` (0.7-0.8 is a plateau on
chinese-wce, daniel-zh and scrapinghub), ``link_penalty = 1.0``, ``max_link_share = 0.5``,
``chrome_max_share = 0.5``, ``comment_max_share = 0.9``; ``short_threshold = 450`` bytes (seed 000);
``twin_min_share = 0.25`` and ``twin_levels = 6`` were set by reading pages (a magazine's three chunks
sit five levels under their common ancestor), as were the ``LEAD_*`` constants, not tuned;
``link_block_text_share = 0.1`` was chosen leave-one-dataset-out over 0.1 / 0.2 / 0.4 (every fold chose
0.1; worst drop 0); the block model is checked leave-one-dataset-out too; ``lead_inside`` and
``linked_sentence_chars = 30`` were written from reading trafilatura's pages and checked
leave-one-dataset-out (docs/EVALUATION.md, issue 11, fifth pass). See docs/EVALUATION.md for the
leave-one-out checks.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from newscrawl.extract.algorithms.base import fraction, positive, register
from newscrawl.extract.blockchoice import shipped_model, widen
from newscrawl.extract.boilerplate import (
    CHROME_TAGS,
    NEGATIVE_HINT_WORDS,
    counts_against,
    is_anchor_id,
    is_caption,
    is_hidden_class,
    is_unseen,
    looks_like_boilerplate,
    trim_edges,
)
from newscrawl.extract.classify import SHORT_THRESHOLD_BYTES
from newscrawl.extract.document import Element, paragraphs, spare_running_text, subtree_text
from newscrawl.extract.lazyre import lazy_compile
from newscrawl.extract.native import cscores
from newscrawl.extract.page import Page
from newscrawl.extract.result import BodyResult, freeze
from newscrawl.extract.scriptdata import use_script_data
from newscrawl.extract.stats import NodeStats
from newscrawl.extract.tags import HEADING_TAGS

#: a thread has at least this many posts on one path of tags and classes from ``FORUM_LEVELS`` up
#: (a table-layout forum nests each post eight levels under the thread)
FORUM_MIN_POSTS = 3
FORUM_LEVELS = 10
#: what stands beside every post of a thread: a date and time, or a reply/quote word
POST_STAMP = lazy_compile(
    r"\d{4}[-/年.]\d{1,2}[-/月.]\d{1,2}日?\s*\d{1,2}:\d{2}|回复|回覆|發表於|发表于|楼主|樓主|引用|Posted|wrote",
    re.IGNORECASE,
)


#: ruby annotations (the reading of a kanji set above it, <ruby>子<rt>こ</rt></ruby>): not the text itself
RUBY_TEXT_TAGS = frozenset({"rt", "rp"})
#: characters (not white space) an element hidden by its class (``boilerplate.is_hidden_class``) holds at
#: least to be left out: a hidden separator (": " between a kicker and the headline) stays
HIDDEN_MIN_CHARS = 3
#: the lead between headline and body: a block of one paragraph, this long, ending as a sentence does
LEAD_MIN_CHARS = 50
LEAD_MAX_LINK_SHARE = 0.2
#: a lead this long need not end in punctuation (many subtitles do not)
LEAD_LONG_CHARS = 100
LEAD_MAX_SHARE = 0.5
#: a picture with this many paragraphs after it, in the element holding both, is a captioned picture
CAPTION_MAX_PARAGRAPHS = 2
LEAD_TAGS = frozenset({"p", "div", "h2", "h3", "span", "section", "header", "strong", "b", "em"})
PICTURE_TAGS = ("img", "picture", "video", "figure")
#: an <aside> holding less than this share of the body's text counts against a content root, as a
#: footer does: a sidebar's text widget outweighed short blog posts (trafilatura's set); an <aside>
#: holding most of the page is its article (fundus: a news site sets its story in ``aside#secondary``)
ASIDE_MAX_SHARE = 0.5
#: an <aside> inside these is the page's own (a paywalled story set in ``main > aside``), not a sidebar
ARTICLE_TAGS = frozenset({"main", "article"})
LEAD_END = lazy_compile(r"[.!?。！？…\"'»«“”」』)）]\s*$")


@dataclass(frozen=True, slots=True)
class AutoParams:
    short_threshold: int = SHORT_THRESHOLD_BYTES
    decay: float = 0.75
    link_penalty: float = 1.0
    max_link_share: float = 0.5
    chrome_max_share: float = 0.5
    comment_max_share: float = 0.9
    twin_min_share: float = 0.25
    twin_levels: int = 6
    link_block_text_share: float = 0.1
    #: widen the root to an ancestor when the learned block choice says so (``blockchoice``)
    block_model: bool = True
    #: a <p> with this many characters outside its links is a sentence that links, not a list of links
    linked_sentence_chars: int = 30
    #: look for the lead inside a header block that also holds a picture, a date or a kicker (``lead``)
    lead_inside: bool = True
    #: a root that is one paragraph (<p>) reads the element holding it: a paragraph is not an article
    paragraph_root_parent: bool = True

    def validate(self) -> None:
        positive("short_threshold", self.short_threshold)
        fraction("decay", self.decay)
        positive("link_penalty", self.link_penalty)
        fraction("max_link_share", self.max_link_share)
        fraction("chrome_max_share", self.chrome_max_share)
        fraction("comment_max_share", self.comment_max_share)
        fraction("twin_min_share", self.twin_min_share)
        positive("twin_levels", self.twin_levels)
        fraction("link_block_text_share", self.link_block_text_share)
        positive("linked_sentence_chars", self.linked_sentence_chars)


def content_scores(
    stats: NodeStats, decay: float, link_penalty: float, comment_max_share: float = 1.0
) -> list[float]:
    """S_i = own_i + decay * sum(S_child), own text inside links and comment blocks counted negative.

    In C where the extension is built (``_cscores``: the loop over every element is a twentieth of a
    page's instructions in Python); :func:`python_content_scores` is the reference, equal to the last bit.
    """
    if cscores is None:
        return python_content_scores(stats, decay, link_penalty, comment_max_share)
    n = len(stats)
    limit = comment_max_share * (stats.chars[0] if n else 0)
    aside_limit = min(limit, ASIDE_MAX_SHARE * (stats.chars[0] if n else 0))
    scores: list[float] = cscores.content_scores(
        stats.parent, stats.tag, stats.chars, stats.own_chars, stats.classes, stats.ids,
        limit, aside_limit, link_penalty, decay, counts_against, ARTICLE_TAGS, NEGATIVE_HINT_WORDS,
    )  # fmt: skip
    return scores


def python_content_scores(
    stats: NodeStats, decay: float, link_penalty: float, comment_max_share: float = 1.0
) -> list[float]:
    """:func:`content_scores` in Python (the reference of the C pass)."""
    n = len(stats)
    parent = stats.parent
    limit = comment_max_share * (stats.chars[0] if n else 0)
    aside_limit = min(limit, ASIDE_MAX_SHARE * (stats.chars[0] if n else 0))
    negative = [False] * n
    # (the lists zipped, not indexed: a tenth fewer instructions, scrapinghub and chinese-wce)
    columns = zip(range(n), parent, stats.tag, stats.chars, stats.classes, stats.ids, strict=True)
    for i, p, tag, c, cls, ident in columns:
        if (
            (p >= 0 and negative[p])
            or tag == "a"
            or (
                c < limit
                and (
                    tag == "footer"
                    or (tag == "aside" and c < aside_limit and not _inside(stats, i, ARTICLE_TAGS))
                    or bool((cls or ident) and counts_against(cls, ident))
                )
            )
        ):
            negative[i] = True
    penalty = -link_penalty
    scores = [penalty * o if neg else float(o) for o, neg in zip(stats.own_chars, negative, strict=True)]
    for i in range(n - 1, 0, -1):
        scores[parent[i]] += decay * scores[i]
    return scores


def _inside(stats: NodeStats, i: int, tags: frozenset[str]) -> bool:
    """Whether an ancestor of element ``i`` has one of ``tags``."""
    p = stats.parent[i]
    while p >= 0:
        if stats.tag[p] in tags:
            return True
        p = stats.parent[p]
    return False


def is_chrome(el: Element) -> bool:
    """Whether an element is page chrome by its tag or its class/id tokens."""
    return _chrome(str(el.tag), el.get("class"), el.get("id"))


def chrome_at(stats: NodeStats, i: int) -> bool:
    """:func:`is_chrome` of element ``i``, from the attributes the page's statistics keep."""
    return _chrome(stats.tag[i], stats.classes[i], stats.ids[i])


@lru_cache(maxsize=8192)
def _chrome(tag: str, cls: str | None, ident: str | None) -> bool:
    """Cached: ``prune`` asks about each element of the root twice, and a page repeats its few class
    names (the regular expressions behind the answer cost several times a cache look-up)."""
    return tag in CHROME_TAGS or is_caption(tag, cls) or looks_like_boilerplate(cls, ident)


def _signature(stats: NodeStats, i: int) -> tuple[str, str]:
    return stats.tag[i], " ".join((stats.classes[i] or "").split())


def chrome_holding_the_text(stats: NodeStats, root: int, limit: float) -> set[tuple[str, str]]:
    """Tag-and-class signatures of chrome-looking elements under ``root`` that together hold more than
    ``limit`` characters: an article split over repeated ``div.sidebar-grid__container`` blocks is
    not page chrome, whatever its class says."""
    held: dict[tuple[str, str], int] = {}
    tags, chars, classes, ids = stats.tag, stats.chars, stats.classes, stats.ids
    for i in range(root + 1, stats.subtree_end(root)):
        if chars[i] and tags[i] != "a" and _chrome(tags[i], classes[i], ids[i]):
            sig = _signature(stats, i)
            held[sig] = held.get(sig, 0) + chars[i] - stats.link_chars[i]
    return {sig for sig, n in held.items() if n > limit}


def prune(stats: NodeStats, root: int, params: AutoParams) -> tuple[set[Element], int]:
    """Subtrees of ``root`` to leave out: chrome and link lists, but never an inline element standing in
    running text (``spare_running_text``), and never by class alone the blocks that together hold more
    than ``chrome_max_share`` of the root's text. Returns them and the characters dropped."""
    els = stats.elements
    chars = stats.chars
    limit = params.chrome_max_share * chars[root]
    keep = chrome_holding_the_text(stats, root, limit)
    links = stats.link_chars
    # a link-dense block holding this much of the root's non-link text is looked into, not dropped whole
    text_floor = params.link_block_text_share * (chars[root] - links[root])
    skip: set[Element] = set()
    unseen: set[Element] = set()
    i, end = root + 1, stats.subtree_end(root)
    tags, classes, ids = stats.tag, stats.classes, stats.ids
    while i < end:
        c = chars[i]
        if not c or c >= limit:
            i += 1
            continue
        tag = tags[i]
        if tag != "a" and (
            (
                links[i] > params.max_link_share * c
                and c - links[i] < text_floor
                and not (tag == "p" and c - links[i] >= params.linked_sentence_chars)
            )
            or (
                _chrome(tag, classes[i], ids[i])
                and _signature(stats, i) not in keep
                and not _anchor_heading(stats, i)
            )
        ):
            skip.add(els[i])
            i = stats.subtree_end(i)
        elif (
            tag in RUBY_TEXT_TAGS
            or is_unseen(classes[i])
            or (c > HIDDEN_MIN_CHARS and is_hidden_class(classes[i]))
        ):
            # no word of the running text is cut: it goes even from inside a sentence (a separator hidden
            # between a kicker and the headline, ": ", stays: the words around it would run together)
            unseen.add(els[i])
            i = stats.subtree_end(i)
        else:
            i += 1
    skip = spare_running_text(skip) | unseen
    return skip, sum(chars[stats.index[el]] for el in skip)


def _anchor_heading(stats: NodeStats, i: int) -> bool:
    """Whether element ``i`` is a heading that is chrome by its id alone, and that id is an anchor made
    from the heading's words (``boilerplate.is_anchor_id``): a subheading of the article."""
    if stats.tag[i] not in HEADING_TAGS or _chrome(stats.tag[i], stats.classes[i], None):
        return False
    return is_anchor_id(stats.ids[i], subtree_text(stats.elements[i]))


def _class_of(stats: NodeStats, i: int) -> str:
    return " ".join((stats.classes[i] or "").split())


def same_path_nodes(stats: NodeStats, root: int, levels: int) -> tuple[list[int], int]:
    """Elements reached from the root's ancestor ``levels`` up by the root's path of tags and classes
    (the root among them), in document order, and that ancestor. A root without a class has none."""
    cls = _class_of(stats, root)
    if not cls:
        return [root], root
    path: list[tuple[str, str]] = []
    top = root
    for _ in range(levels):
        if stats.parent[top] <= 0:
            break
        path.append((stats.tag[top], _class_of(stats, top)))
        top = stats.parent[top]
    depths, index = stats.depth, stats.index
    depth = depths[root]
    # lxml finds the elements of the root's tag (in document order); none at the root's depth nests in another
    same_tag = map(index.__getitem__, stats.elements[top].iter(stats.tag[root]))
    out = [i for i in same_tag if i == root or (depths[i] == depth and _same_path(stats, i, path))]
    return out, top


def twins(stats: NodeStats, root: int, params: AutoParams) -> list[int]:
    """``root`` and its structural twins, in document order: ``same_path_nodes`` that read as body text
    too (non-link text at least ``twin_min_share`` of the root's, link share at most ``max_link_share``).
    An article split over sibling containers (``div.body__inner-container`` in three page chunks) is
    read whole."""
    nodes, _top = same_path_nodes(stats, root, params.twin_levels)
    floor = params.twin_min_share * (stats.chars[root] - stats.link_chars[root])
    return [
        i
        for i in nodes
        if i == root
        or (
            stats.chars[i] - stats.link_chars[i] >= floor
            and stats.link_chars[i] <= params.max_link_share * stats.chars[i]
        )
    ]


def first_post(stats: NodeStats, root: int, params: AutoParams) -> int:
    """The opening post when ``root`` is a later post of a thread, else ``root``.

    A thread: at least ``FORUM_MIN_POSTS`` elements on the root's path of tags and classes, each with
    non-link text, and at least as many post stamps (a date and time, or 回复/发表于/楼主/引用/Posted/wrote)
    in their common ancestor's text. The longest reply is not the content; the first post is."""
    nodes, top = same_path_nodes(stats, root, FORUM_LEVELS)
    posts = [i for i in nodes if stats.chars[i] > stats.link_chars[i]]
    if len(posts) < FORUM_MIN_POSTS or posts[0] == root:
        return root
    text = subtree_text(stats.elements[top])
    if len(POST_STAMP.findall(text)) < len(posts):
        return root
    return posts[0]


def lead(stats: NodeStats, root: int, inside: bool = True) -> list[str]:
    """The article's lead when it stands between the headline and the content root, outside both.

    The headline is the last <h1> that ends before ``root``. Between its end and ``root``, a block of
    one paragraph that reads as sentences (at least ``LEAD_MIN_CHARS`` characters, ending in sentence
    punctuation unless ``LEAD_LONG_CHARS`` long, links at most ``LEAD_MAX_LINK_SHARE``, no chrome
    around it but the article's own, no picture in or just before it) is the lead ("standfirst") that
    many pages set apart from the body. With ``inside``, a block of several paragraphs or with a picture
    (a header holding a kicker, the date, a hero picture and the lead) is looked into, and a paragraph
    found there is taken unless it captions a picture (``_captions_a_picture``). Nothing is taken when
    the stretch between holds more than ``LEAD_MAX_SHARE`` of the root's non-link text (the <h1> is
    then a logo or a distant heading)."""
    tags, chars, links = stats.tag, stats.chars, stats.link_chars
    h1 = -1
    for i in range(root - 1, 0, -1):
        if tags[i] == "h1" and stats.subtree_end(i) <= root:
            h1 = i
            break
    if h1 < 0:
        return []
    start = stats.subtree_end(h1)
    blocks: list[int] = []  # the largest elements between the headline and the root, not around the root
    i = start
    while i < root:
        if stats.subtree_end(i) > root:
            i += 1
        else:
            blocks.append(i)
            i = stats.subtree_end(i)
    if sum(chars[i] - links[i] for i in blocks) > LEAD_MAX_SHARE * (chars[root] - links[root]):
        return []
    out: list[str] = []
    opened = -1  # the outermost block looked into that holds ``i``
    i = start
    els = stats.elements
    while i < root:
        if opened >= 0 and i >= stats.subtree_end(opened):
            opened = -1
        c = chars[i]
        if c < LEAD_MIN_CHARS or links[i] > LEAD_MAX_LINK_SHARE * c or stats.subtree_end(i) > root:
            i += 1
            continue
        if chrome_at(stats, i):
            i = stats.subtree_end(i)
            continue
        el = els[i]
        if tags[i] in LEAD_TAGS:
            paras = [] if _by_a_picture(el) else paragraphs(el)
            if len(paras) == 1:
                if (
                    _reads_as_lead(paras[0])
                    and paras[0] not in out
                    and not _in_chrome(stats, i, start, root)
                    and (opened < 0 or not _captions_a_picture(stats, i, opened))
                ):
                    out.append(paras[0])
                i = stats.subtree_end(i)  # one paragraph: a lead or not, nothing inside it is another
                continue
        if not inside:
            i = stats.subtree_end(i)
            continue
        # a header holding the lead beside a kicker, the date or a hero picture: the lead is looked for inside
        opened = i if opened < 0 else opened
        i += 1
    return out


def _captions_a_picture(stats: NodeStats, i: int, box: int) -> bool:
    """Whether a picture comes before ``i`` in the nearest element around it (up to ``box``) that holds
    one, and that element holds at most ``CAPTION_MAX_PARAGRAPHS``: a caption without caption markup (a
    gallery's slide: the picture, its caption and credit), not a lead."""
    p = i
    while p >= box:
        el = stats.elements[p]
        pic = next(el.iter(*PICTURE_TAGS), None)
        if pic is not None:
            return stats.index[pic] < i and len(paragraphs(el)) <= CAPTION_MAX_PARAGRAPHS
        p = stats.parent[p]
    return False


def _by_a_picture(el: Element) -> bool:
    """Whether ``el`` holds a picture or follows one: an unmarked caption, not a lead."""
    prev = el.getprevious()
    for node in (el, prev) if prev is not None else (el,):
        if node.tag in PICTURE_TAGS or next(node.iter(*PICTURE_TAGS), None) is not None:
            return True
    return False


def _reads_as_lead(text: str) -> bool:
    return len(text) >= LEAD_LONG_CHARS or bool(LEAD_END.search(text))


def _in_chrome(stats: NodeStats, i: int, start: int, root: int) -> bool:
    """Whether an ancestor of ``i`` that begins after ``start`` and does not hold ``root`` is chrome (a
    name on the article around both, WordPress's ``tag-...``, is not the lead's)."""
    p = stats.parent[i]
    while p >= start:
        if chrome_at(stats, p) and stats.subtree_end(p) <= root:
            return True
        p = stats.parent[p]
    return False


def _same_path(stats: NodeStats, i: int, path: list[tuple[str, str]]) -> bool:
    for tag, cls in path:
        if stats.tag[i] != tag or _class_of(stats, i) != cls:
            return False
        i = stats.parent[i]
    return True


def read_parts(
    stats: NodeStats, parts: list[int], params: AutoParams
) -> tuple[list[str], int, int, int, list[int]]:
    """The lead and the pruned text of ``parts``: paragraphs, how many of them are the lead, characters
    and subtrees pruned, and the pruned subtrees that ``chrome_at`` names (by index)."""
    paras_list = lead(stats, parts[0], params.lead_inside)
    led = len(paras_list)
    dropped = skipped = 0
    named: list[int] = []
    for part in parts:
        skip, lost = prune(stats, part, params)
        paras_list.extend(paragraphs(stats.elements[part], skip=skip))
        dropped += lost
        skipped += len(skip)
        named.extend(i for i in map(stats.index.__getitem__, skip) if chrome_at(stats, i))
    return paras_list, led, dropped, skipped, named


def paragraph_parent(stats: NodeStats, root: int, params: AutoParams) -> int:
    """The element holding ``root`` when ``root`` is one paragraph (<p>) and a sibling <p> reads as a
    sentence too (at least ``linked_sentence_chars`` characters outside its links): the article's other
    paragraphs, which a link in one of them or a link list beside them kept below the paragraph's
    score, are read with it. Else ``root``."""
    parent = stats.parent[root]
    if stats.tag[root] != "p" or parent <= 0:
        return root
    floor = params.linked_sentence_chars
    for child in stats.elements[parent]:
        i = stats.index.get(child)
        if (
            i is not None
            and i != root
            and stats.tag[i] == "p"
            and stats.chars[i] - stats.link_chars[i] >= floor
        ):
            return parent
    return root


@dataclass(frozen=True, slots=True)
class RootChoice:
    """Where the content score settled: every node's score, the root chosen, the node of maximum score
    before ``first_post`` replaced it, and whether comment/footer names were counted."""

    scores: list[float]
    root: int
    thread_root: int
    comments_counted: bool
    #: levels the learned block choice widened the root by (``blockchoice``), and its best log-odds
    widened: int = 0
    block_odds: float | None = None


def choose_root(stats: NodeStats, params: AutoParams) -> RootChoice:
    """The content root of a page with body text: the node of maximum content score, or a thread's
    opening post (``first_post``), else the ancestor the learned block choice widens it to (``widen``)
    from the element holding a one-paragraph root (``paragraph_parent``)."""
    scores = content_scores(stats, params.decay, params.link_penalty, params.comment_max_share)
    root = scores.index(max(scores))  # the first node of maximum score
    comments_counted = True
    if scores[root] <= 0:
        # nothing scores above zero: a comment/footer-looking class or id around the whole article
        # (``id="comments-enabled article"``) sank it; such a name may lower a score, not empty the page
        scores = content_scores(stats, params.decay, params.link_penalty, 0.0)
        root = scores.index(max(scores))  # the first node of maximum score
        comments_counted = False
    post = first_post(stats, root, params)
    if post == root and params.paragraph_root_parent:
        root = post = paragraph_parent(stats, root, params)
    if post == root and params.block_model:
        wide, odds = widen(stats, scores, root, shipped_model())
        levels = stats.depth[root] - stats.depth[wide]
        return RootChoice(scores, wide, wide, comments_counted, levels, odds if odds > -math.inf else None)
    return RootChoice(scores, post, root, comments_counted)


@register("auto", AutoParams, "the default: design-card classification, decayed content score, pruning")
def extract_auto(page: Page, params: AutoParams) -> BodyResult:
    stats = page.stats
    if len(stats) == 0 or stats.chars[0] == 0:
        empty = {"chosen": "auto", "why": "no text in body", "page_class": "short"}
        return use_script_data(page, BodyResult((), None, freeze(empty)), params.short_threshold)
    return read_root(page, choose_root(stats, params), params)


def read_root(page: Page, choice: RootChoice, params: AutoParams) -> BodyResult:
    """The body read from ``choice.root``: its twins, lead and pruned text, trimmed at the edges."""
    stats = page.stats
    cls = page.classification(params.short_threshold)
    scores, root, thread_root = choice.scores, choice.root, choice.thread_root
    comments_counted = choice.comments_counted
    parts = twins(stats, root, params)
    paras_list, led, dropped, skipped, pruned = read_parts(stats, parts, params)
    named_root = -1
    if len(paras_list) == led:
        # the root's text was all pruned (an article whose WordPress classes read ``tag-...``): a name
        # may lower a score, not empty the page, so the best-scoring subtree pruned by its name is read
        named_root = max(pruned, key=scores.__getitem__, default=-1)
        if named_root >= 0 and scores[named_root] > 0:
            root = named_root
            parts = [root]
            paras_list, led, dropped, skipped, _ = read_parts(stats, parts, params)
        else:
            named_root = -1
    node = stats.elements[root]
    body_text = set(paras_list[led:])
    leads = [p for p in paras_list[:led] if p not in body_text]  # not a lead the body repeats
    paras_list[:led] = leads
    led = len(leads)
    paras = tuple(paras_list)
    kept = trim_edges(paras)
    size = sum(len(p.encode("utf-8")) for p in kept)
    page_class = "short" if size < params.short_threshold else "long"
    line = "at least" if page_class == "long" else "under"
    why = (
        f"{page_class} page: {size} bytes of main text, {line} the {params.short_threshold}-byte line "
        "between short and long pages. One content-score extractor serves both kinds (it measured better "
        "than SCEDD on short pages and CETD on long ones). The original short/long test, on the densest "
        f"single block ({cls.coarse_length} bytes), would call it {cls.page_class}."
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
                "comment_names_counted": comments_counted,
                "root_chars": stats.chars[root],
                "pruned_subtrees": skipped,
                "twin_parts": len(parts),
                "first_post_of_thread": root != thread_root and named_root < 0,
                "widened_levels": choice.widened,
                "block_odds": None if choice.block_odds is None else round(choice.block_odds, 2),
                "pruned_root_read": named_root >= 0,
                "lead_paragraphs": led,
                "pruned_chars": dropped,
                "trimmed_paragraphs": len(paras) - len(kept),
            }
        ),
    )
    return use_script_data(page, body, params.short_threshold)
