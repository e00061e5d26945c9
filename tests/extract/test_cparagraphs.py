"""The C forms of per-page passes equal their Python references (newscrawl/extract/_cstats.c):
``paragraphs`` (document.python_paragraphs), the noise count of ``strip_noise`` (``root.iter(*tags)``),
the control-byte check of ``decode_html`` and the look for an ``itemprop="datePublished"`` before
``collect_page_meta``'s XPath; on hand-written trees and bytes, and on random ones."""

from __future__ import annotations

import pytest
from cstats_support import needs_c
from lxml import etree, html
from test_cstats_random import trees  # (random trees of text, comments and instructions)

from newscrawl.extract import decode, document, native
from newscrawl.extract.clean import strip_noise
from newscrawl.extract.document import body_of, paragraphs, python_paragraphs
from newscrawl.extract.metadata import collect
from newscrawl.extract.tags import BLOCK_TAGS, DESIGN_CARD_NOISE_TAGS

hypothesis = pytest.importorskip("hypothesis")  # (the test extra has it)
st = hypothesis.strategies

cstats = native.cstats


def body(markup: str) -> etree._Element:
    return body_of(html.fromstring(f"<html><body>{markup}</body></html>"))


def c_paragraphs(node, skip=(), block_tags=BLOCK_TAGS):
    assert cstats is not None
    return cstats.paragraphs(node, skip, block_tags)


@needs_c
def test_the_c_paragraphs_run_where_the_extension_is_built():
    assert document._c_paragraphs is cstats.paragraphs


@needs_c
@pytest.mark.parametrize(
    "markup",
    [
        "<p>One  paragraph,\u3000two\u00a0spaces.</p><p>Another\u2028one.</p>",
        "<div>lead<p>first<br>second</p>tail <b>bold</b> and <i>it</i>alic</div>",
        "<div>a<!--c-->bb<p>x<?pi y?>dd</p>e<!--c2-->ff</div>",
        "<div> \n\t </div><p>\u200bzero-width is no white space</p><p>\x85\x1c</p>",
        "<ul><li>one</li><li>two <a href='#'>link</a></li></ul>after",
        "<table><tr><td>1</td><td>2</td></tr></table><h2>Heading</h2>Text 汉字 😀",
        "",
    ],
)
def test_paragraphs_as_python_reads_them(markup: str):
    root = body(markup)
    assert c_paragraphs(root) == python_paragraphs(root)
    assert paragraphs(root) == python_paragraphs(root)
    for el in root.iter(etree.Element):
        assert c_paragraphs(el) == python_paragraphs(el)


@needs_c
def test_skipped_elements_keep_their_tails_and_break_a_paragraph_when_blocks():
    root = body("<div>a <span>gone</span> b<p>gone too</p>c <em>kept</em></div><p>end</p>")
    span, p = root.find(".//span"), root.find(".//div/p")
    for skip in ({span}, frozenset({span, p}), (p,), [span, p], {root, span}):
        assert c_paragraphs(root, skip) == python_paragraphs(root, skip)
    assert c_paragraphs(root, {span, p}) == ["a b", "c kept", "end"]


@needs_c
def test_block_tags_given_by_the_caller_and_namespaced_tags():
    root = etree.fromstring('<div xmlns:x="urn:x">a<x:p>b</x:p><p>c</p><span>d</span>e</div>')
    for blocks in (BLOCK_TAGS, frozenset({"span"}), {"{urn:x}p"}, set()):
        assert c_paragraphs(root, (), blocks) == python_paragraphs(root, (), blocks)


@needs_c
@needs_c
def test_comments_and_instructions_hide_their_tails_and_an_entity_reference_shows_its_own():
    # lxml's iterwalk reports elements and entity references, never a comment or an instruction
    root = etree.fromstring("<div>a<!--c-->bb<p>x<?pi y?>dd</p>e</div>")
    assert c_paragraphs(root) == python_paragraphs(root) == ["a", "x", "e"]
    entity = etree.Entity("amp")
    entity.tail = "after"
    root.find("p").insert(0, entity)
    assert c_paragraphs(root) == python_paragraphs(root) == ["a", "xafter", "e"]


@needs_c
def test_anything_but_elements_to_skip_is_left_to_python():
    root = body("<p>a</p>")
    assert cstats.paragraphs(root, {"p"}, BLOCK_TAGS) is None
    assert paragraphs(root, {"p"}) == ["a"]


@needs_c
def test_bad_arguments_raise_instead_of_reading_memory():
    root = body("<p>a</p>")
    for args in (("p", (), BLOCK_TAGS), (root, (), ["p"]), (root, "p", BLOCK_TAGS)):
        with pytest.raises(TypeError):
            cstats.paragraphs(*args)
    assert cstats.paragraphs(etree.Comment("c"), (), BLOCK_TAGS) is None  # (left to Python)


@needs_c
@hypothesis.settings(max_examples=300, deadline=None)
@hypothesis.given(trees(), st.data())
def test_c_and_python_paragraphs_agree_on_random_trees(root, data):
    nodes = list(root.iter())  # (comments and processing instructions too: never skipped)
    skip = set(data.draw(st.lists(st.sampled_from(nodes), max_size=4)))
    blocks = data.draw(st.sampled_from([BLOCK_TAGS, frozenset({"span", "a"}), frozenset()]))
    for node in (root, data.draw(st.sampled_from(list(root.iter(etree.Element))))):
        assert c_paragraphs(node, skip, blocks) == python_paragraphs(node, skip, blocks)
    parsed = body_of(html.fromstring("<html><body>" + etree.tostring(root, encoding="unicode")))
    assert c_paragraphs(parsed) == python_paragraphs(parsed)


_NOISE = set(DESIGN_CARD_NOISE_TAGS) | {"svg", "script"}


@needs_c
@hypothesis.settings(max_examples=200, deadline=None)
@hypothesis.given(trees())
def test_the_noise_count_is_lxmls_on_random_trees(root):
    for node in root.iter(etree.Element):
        assert cstats.count_tags(node, _NOISE) == sum(1 for _ in node.iter(*_NOISE))


@needs_c
def test_the_noise_count_in_a_namespace_and_of_the_root_itself():
    root = etree.fromstring('<script xmlns:x="urn:x"><x:script/><style/><p/></script>')
    assert cstats.count_tags(root, {"script", "style"}) == sum(1 for _ in root.iter("script", "style")) == 2
    assert cstats.count_tags(root, {"{urn:x}script"}) == sum(1 for _ in root.iter("{urn:x}script")) == 1
    page = html.fromstring("<html><body><script>x()</script><p>text</p><noscript>n</noscript></body></html>")
    assert strip_noise(page).noise_tags == 2


def _python_has_stripped_byte(data: bytes) -> bool:
    return any(byte in data for byte in decode._STRIPPED_SINGLES)


@needs_c
def test_each_byte_value_at_each_place_of_a_word():
    for value in range(256):
        for at in range(17):
            data = b"a" * at + bytes([value]) + b"b" * (16 - at)
            assert cstats.has_stripped_byte(data) == _python_has_stripped_byte(data), (value, at)
    assert not cstats.has_stripped_byte(b"")


@needs_c
@hypothesis.given(st.binary(max_size=40))
def test_the_control_byte_check_on_random_bytes(data: bytes):
    assert cstats.has_stripped_byte(data) == _python_has_stripped_byte(data)


@needs_c
@pytest.mark.parametrize(
    ("markup", "holds"),
    [
        ('<div><span itemprop="datePublished" content="2026-11-24">x</span></div>', True),
        ('<div itemprop="datePublished"></div>', True),  # no date on it: the XPath finds no holder
        ('<div itemprop="datePublished headline" content="x"></div>', False),  # (nor does the XPath)
        ('<div itemprop="author"><time datetime="2026-11-24">x</time></div>', False),
        ('<div itemprop=""></div><p data-itemprop="datePublished">x</p>', False),
        ("<div>&lt;itemprop&gt; datePublished</div>", False),
    ],
)
def test_the_look_for_a_date_holder(markup: str, holds: bool):
    root = html.fromstring(f"<html><body>{markup}</body></html>")
    assert cstats.may_hold_attribute(root, "itemprop", "datePublished") is holds
    assert cstats.may_hold_attribute(root, "itemprop", "") is ('itemprop=""' in markup)
    if not holds:
        assert collect._DATE_HOLDERS(root) == []


@needs_c
def test_an_attribute_value_of_several_nodes_is_left_to_the_xpath():
    markup = '<!DOCTYPE d [<!ENTITY e "Published">]><d><x itemprop="date&e;" content="1"/></d>'
    root = etree.fromstring(markup, etree.XMLParser(resolve_entities=False))
    assert cstats.may_hold_attribute(root, "itemprop", "datePublished") is True  # (the XPath decides)
    assert cstats.may_hold_attribute(root, "itemprop", "other") is True


_ITEMPROPS = st.lists(st.sampled_from(["datePublished", "headline", "", "datePublished "]), max_size=6)


@needs_c
@hypothesis.settings(max_examples=200, deadline=None)
@hypothesis.given(trees(), _ITEMPROPS)
def test_no_date_holder_the_xpath_would_find_is_missed(root, values):
    elements = list(root.iter(etree.Element))
    for el, value in zip(elements, values, strict=False):
        el.set("itemprop", value)
        el.set("content", "2026-11-24")
    for node in elements:
        if not cstats.may_hold_attribute(node, "itemprop", "datePublished"):
            assert collect._DATE_HOLDERS(node) == []
        assert cstats.may_hold_attribute(node, "itemprop", "datePublished") == any(
            el.get("itemprop") == "datePublished" for el in node.iter(etree.Element)
        )
