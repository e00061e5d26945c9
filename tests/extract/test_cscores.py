"""auto's content scores and the page kind's prose pass and repeated group in C (``_cscores``) against
their Python references, and what they find."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

from newscrawl.extract import native
from newscrawl.extract.algorithms.auto import content_scores, python_content_scores
from newscrawl.extract.document import body_of, parse_html
from newscrawl.extract.page import Page
from newscrawl.extract.pagekind import (
    HEADLINE_MIN_CHARS,
    PARAGRAPH_MAX_LINK_SHARE,
    PARAGRAPH_MIN_CHARS,
    _largest_repeated_group,
    python_largest_repeated_group,
    python_prose_and_links,
)
from newscrawl.extract.stats import NodeStats, compute_stats

needs_c = pytest.mark.skipif(native.cscores is None, reason="the content-score extension is not in use")

PAGE = (
    "<html><body><div id='main'><h1>Headline</h1><p>First paragraph of the story, long enough.</p>"
    "<p>Second <a href='/x'>with a link</a> paragraph.</p></div>"
    "<div class='comment-list'><p>A reader's comment on the story.</p></div>"
    "<aside>Related: another story</aside><article><aside>An aside inside the article.</aside></article>"
    "<div class=''><span id='disqus_thread'>Discussion here</span></div>"
    "<footer><p>Contact us</p></footer></body></html>"
)


def scores_both(html: str, **params: float) -> tuple[list[float], list[float]]:
    stats = compute_stats(body_of(parse_html(html)))
    decay, penalty, share = params.get("decay", 0.5), params.get("penalty", 1.0), params.get("share", 1.0)
    return content_scores(stats, decay, penalty, share), python_content_scores(stats, decay, penalty, share)


@needs_c
def test_c_and_python_scores_agree_on_a_page_with_every_negative_kind():
    c, python = scores_both(PAGE)
    assert c == python
    c, python = scores_both(PAGE, decay=0.8, penalty=2.5, share=0.3)  # the limits cut in
    assert c == python


def test_links_comments_asides_outside_an_article_and_footers_count_against_the_text():
    stats = compute_stats(body_of(parse_html(PAGE)))
    scores = content_scores(stats, 0.5, 1.0, 1.0)
    by_text = {(el.text or "").strip(): scores[i] for i, el in enumerate(stats.elements)}
    assert by_text["First paragraph of the story, long enough."] > 0
    assert by_text["with a link"] < 0
    assert by_text["A reader's comment on the story."] < 0
    assert by_text["Related: another story"] < 0
    assert by_text["An aside inside the article."] > 0
    assert by_text["Discussion here"] < 0
    assert by_text["Contact us"] < 0


HINTED = (
    "<html><body><div class='story'><p>" + "Running text of the story here. " * 6 + "</p></div>"
    "<div class='Comment-List'><p>An upper-case class still counts against.</p></div>"
    "<div id='REPLY'><p>So does an upper-case id.</p></div>"
    "<div class='commentaire-é'><p>A class beyond ASCII is left to Python.</p></div>"
    "<div class='comment-count-x'><p>Hinted, but the class's tokens may not count.</p></div>"
    "<div class='cool-dog recipe-of-log'><p>Letters of the hints, no hint.</p></div>"
    "<div class='x-cookie'><p>A hint at the end.</p></div></body></html>"
)


@needs_c
def test_c_asks_the_class_test_for_every_value_that_may_hold_a_hint():
    c, python = scores_both(HINTED)
    assert c == python
    stats = compute_stats(body_of(parse_html(HINTED)))
    by_text = {(el.text or "").strip(): score for el, score in zip(stats.elements, c, strict=True)}
    assert by_text["An upper-case class still counts against."] < 0
    assert by_text["So does an upper-case id."] < 0
    assert by_text["Letters of the hints, no hint."] > 0


@needs_c
def test_hints_must_be_lower_case_ascii_words():
    stats = compute_stats(etree.fromstring("<div class='x'><p>text</p></div>"))
    assert native.cscores is not None
    for hints in (("Comment",), ("",), ("kommentár",)):
        with pytest.raises(ValueError, match="lower-case ASCII"):
            native.cscores.content_scores(
                stats.parent, stats.tag, stats.chars, stats.own_chars, stats.classes, stats.ids,
                10.0, 5.0, 1.0, 0.5, lambda c, i: False, frozenset({"article"}), hints,
            )  # fmt: skip


def _random_page(rng: random.Random) -> str:
    tags = ["div", "p", "a", "span", "footer", "aside", "article", "main", "section"]
    names = [None, "", "comment", "footer-links", "content", "Disqus", "story", "reply-box"]
    out: list[str] = ["<html><body>"]
    open_tags: list[str] = []
    for _ in range(rng.randrange(1, 60)):
        if open_tags and rng.random() < 0.35:
            out.append(f"</{open_tags.pop()}>")
            continue
        tag = rng.choice(tags)
        cls, ident = rng.choice(names), rng.choice(names)
        attrs = f" class='{cls}'" if cls is not None else ""
        attrs += f" id='{ident}'" if ident is not None else ""
        out.append(f"<{tag}{attrs}>" + "word " * rng.randrange(0, 12))
        open_tags.append(tag)
    out.extend(f"</{t}>" for t in reversed(open_tags))
    return "".join(out) + "</body></html>"


@needs_c
def test_c_and_python_scores_agree_to_the_last_bit_on_random_pages():
    rng = random.Random(11)
    for _ in range(300):
        html = _random_page(rng)
        decay, penalty = rng.choice([0.5, 0.75, 0.3]), rng.choice([1.0, 3.0])
        c, python = scores_both(html, decay=decay, penalty=penalty, share=rng.choice([1.0, 0.5, 0.2]))
        assert c == python, html


@needs_c
def test_a_failing_class_test_propagates_from_c():
    stats = compute_stats(etree.fromstring("<div class='x'><p>text</p></div>"))
    assert native.cscores is not None

    def broken(cls: str | None, ident: str | None) -> bool:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        native.cscores.content_scores(
            stats.parent, stats.tag, stats.chars, stats.own_chars, stats.classes, stats.ids,
            10.0, 5.0, 1.0, 0.5, broken, frozenset({"article"}), ("x",),
        )  # fmt: skip


def test_the_python_scores_are_used_when_asked_for():
    code = "from newscrawl.extract import native; print(native.cscores is None)"
    env = {**os.environ, "NEWSCRAWL_PURE_PYTHON": "1", "PYTHONPATH": str(Path(__file__).parents[2])}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True"]


def c_prose_and_links(stats: NodeStats) -> tuple[int, int]:
    assert native.cscores is not None
    found: tuple[int, int] = native.cscores.prose_and_links(
        stats.tag, stats.own_chars, stats.chars, stats.link_chars, stats.parent, stats.elements,
        HEADLINE_MIN_CHARS, PARAGRAPH_MIN_CHARS, PARAGRAPH_MAX_LINK_SHARE,
    )  # fmt: skip
    return found


LIST_PAGE = (
    "<html><body><ul>"
    + "".join(f"<li><a href='/n/{k}'>Headline number {k} today</a> <span>x</span></li>" for k in range(6))
    + "<li><a>A headline without an address</a></li><li><a href=''>Empty address headline</a></li>"
    + "</ul><div><p>A paragraph of running text that is long enough.</p><p>And another one, also long.</p>"
    + "<p>Mostly <a href='/l'>a long link inside the paragraph</a>.</p></div></body></html>"
)


def test_the_prose_pass_finds_the_longest_region_and_the_headline_links():
    prose, links = python_prose_and_links(compute_stats(body_of(parse_html(LIST_PAGE))))
    assert links == 7  # the six and the paragraph's; an <a> without an href, or with an empty one, is none
    assert prose == len("Aparagraphofrunningtextthatislongenough.") + len("Andanotherone,alsolong.")


@needs_c
def test_c_and_python_prose_passes_agree_on_a_list_page_and_random_pages():
    stats = compute_stats(body_of(parse_html(LIST_PAGE)))
    assert c_prose_and_links(stats) == python_prose_and_links(stats)
    rng = random.Random(12)
    for _ in range(300):
        html = _random_page(rng)
        stats = compute_stats(body_of(parse_html(html)))
        assert c_prose_and_links(stats) == python_prose_and_links(stats), html


GROUPS = (
    "<html><body><ul><li class=''><a href='/1'>one</a></li><li><a href='/2'>two</a></li>"
    "<li class='item'><a href='/3'>three</a></li><li>no link</li><li class=''><b><a>four</a></b></li></ul>"
    "<ul><li class='item'><a href='/5'>five</a></li><li class='item'><a href='/6'>six</a></li></ul>"
    "<div><p class='item'><a>seven</a></p></div></body></html>"
)


def test_the_largest_group_counts_siblings_of_one_tag_and_class_holding_links():
    # the first list: three <li> of no class (an empty class is none) hold links, one <li class=item>;
    # the second: two <li class=item>, siblings of each other only
    stats = compute_stats(body_of(parse_html(GROUPS)))
    assert python_largest_repeated_group(stats) == 3
    page = Page(html=GROUPS, root=parse_html(GROUPS))
    assert _largest_repeated_group(page) == 3


@needs_c
def test_c_and_python_largest_groups_agree_on_random_pages():
    rng = random.Random(13)
    for _ in range(300):
        html = _random_page(rng)
        page = Page(html=html, root=parse_html(html))
        assert _largest_repeated_group(page) == python_largest_repeated_group(page.stats), html
