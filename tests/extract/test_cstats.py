"""The C statistics pass (newscrawl/extract/_cstats.c) equals the pure-Python reference, list by list, on
hand-written trees; every test of the C path skips when the extension is not built."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cstats_support import assert_equal_stats, needs_c
from lxml import etree, html

from newscrawl.extract import native
from newscrawl.extract.clean import strip_noise
from newscrawl.extract.document import body_of, parse_html
from newscrawl.extract.stats import compute_stats, python_stats
from newscrawl.extract.tags import BLOCK_TAGS


def body(markup: str) -> etree._Element:
    return body_of(html.fromstring(f"<html><body>{markup}</body></html>"))


@needs_c
def test_text_after_a_comment_or_a_pi_is_the_comments_tail_not_the_elements_text():
    # lxml's .text is the first run of text nodes: "bb" follows a comment, "dd" a processing instruction
    root = etree.fromstring("<div>a<!--c-->bb<p>x<?pi y?>dd</p>e<!--c2-->ff</div>")
    stats = assert_equal_stats(root)
    assert stats.own_chars == [2, 1]  # "a" and the tail "e"; "x"
    assert stats.chars == [3, 1]


@needs_c
def test_cdata_joins_the_text_run():
    root = etree.fromstring("<div>ab<![CDATA[c d]]>e<p/></div>")
    assert assert_equal_stats(root).own_chars == [5, 0]


@needs_c
def test_entities_and_every_kind_of_white_space():
    spaces = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000"
    root = body(f"<p>a&amp;b{spaces}c&nbsp;d&#x3000;e</p><div>{spaces}</div><span>\u200b\ufeff</span>")
    stats = assert_equal_stats(root)
    # "a&b", "c", "d", "e"; zero-width space and BOM are no white space to str.split()
    assert stats.own_chars[1:] == [6, 0, 2]


@needs_c
def test_characters_are_code_points_not_bytes():
    root = body("<p>汉字 é 😀🇨🇳</p><a href='#'>𝔘 x</a>")
    stats = assert_equal_stats(root)
    assert stats.own_chars[1:] == [6, 2]  # 汉 字 é 😀 🇨 🇳; 𝔘 x
    assert stats.link_chars[0] == 2


@needs_c
def test_empty_body_and_a_body_that_is_an_a_fragment():
    assert_equal_stats(body(""))
    stats = assert_equal_stats(html.fragment_fromstring("<a href='#'>link <b>text</b></a>"))
    assert stats.tag == ["a", "b"]
    assert stats.link_tags[0] == 1 and stats.link_chars[0] == 8


@needs_c
def test_a_tree_edited_in_place():
    root = parse_html(
        "<html><head><style>p{}</style></head><body><div id='x'>one<script>var a = 1;</script>two"
        "<p style='display:none'>hidden</p><p>three</p> four<nav>five</nav></div></body></html>"
    )
    strip_noise(root)
    b = body_of(root)
    div = b[0]
    div.remove(div.find("nav"))
    div.text = "new text"
    div[0].tail = " new tail "
    sub = etree.SubElement(div, "a", {"class": "more"})
    sub.text = "added"
    sub.tail = "after"
    etree.SubElement(sub, "span").text = "in"
    stats = assert_equal_stats(b)
    assert stats.tag == ["body", "div", "p", "a", "span"]


@needs_c
def test_attribute_values_with_entities_empty_and_absent():
    root = body(
        '<p class="a &amp; b" id="">x</p><p class>y</p><p id="&#x4e2d;&lt;">z</p><p CLASS="upper">w</p>'
        '<p class="">v</p>'
    )
    stats = assert_equal_stats(root)
    assert stats.classes[1:] == ["a & b", "", None, "upper", ""]
    assert stats.ids[1:] == ["", None, "中<", None, None]


@needs_c
def test_attribute_values_from_entity_references_of_an_xml_tree():
    # an XML tree keeping its entity references: libxml2 joins the attribute's text and references, and
    # the C pass asks lxml's get() for such values
    parser = etree.XMLParser(resolve_entities=False)
    root = etree.fromstring(
        '<!DOCTYPE d [<!ENTITY e "ent">]><d class="x&e;y"><p id="&e;">a &e; b</p></d>', parser
    )
    stats = assert_equal_stats(root)
    assert stats.classes == ["xenty", None]
    assert stats.ids == [None, "ent"]


@needs_c
def test_namespaced_tags():
    root = etree.fromstring('<d xmlns="urn:x"><a>ab</a><y:a xmlns:y="urn:y">c</y:a></d>')
    stats = assert_equal_stats(root)
    assert stats.tag == ["{urn:x}d", "{urn:x}a", "{urn:y}a"]
    assert stats.link_tags == [0, 0, 0]  # no tag is "a" in a namespace


@needs_c
def test_many_distinct_tags():
    # more tags than the C pass's first table holds
    root = body("".join(f"<x{i}>t{i}<a>l</a></x{i}>" for i in range(300)))
    assert len(set(assert_equal_stats(root).tag)) == 302


@needs_c
def test_block_tags_given_by_the_caller():
    root = body("<div><x>a</x><y>b</y><x>c</x></div>")
    c = compute_stats(root, frozenset({"x"}))
    assert c.line == python_stats(root, frozenset({"x"})).line == [0, 0, 1, 1, 2]


@needs_c
def test_bad_arguments_raise_instead_of_reading_memory():
    cstats = native.cstats
    assert cstats is not None
    root = body("<p>a</p>")
    elements = list(root.iter(etree.Element))
    with pytest.raises(TypeError):
        cstats.walk("not an element", elements, BLOCK_TAGS)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        cstats.walk(root, [*elements[:1], "x"], BLOCK_TAGS)  # type: ignore[list-item]
    with pytest.raises(ValueError, match="not body.iter"):
        cstats.walk(root, elements[:1], BLOCK_TAGS)
    with pytest.raises(ValueError, match="not body.iter"):
        cstats.walk(root, elements[::-1], BLOCK_TAGS)
    with pytest.raises(TypeError):
        cstats.walk(root, elements, ["p"])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        cstats.attribute_values([root, object()], "class")  # type: ignore[list-item]
    with pytest.raises(ValueError):
        cstats.attribute_values(elements, "{urn:x}class")


@needs_c
def test_a_tree_200000_deep_walks_without_recursion():
    # built by a TreeBuilder: lxml's SubElement and text setter cost the depth each (minutes at this depth)
    builder = etree.TreeBuilder()
    builder.start("div", {})
    tags = ["a" if i % 3 == 0 else "span" for i in range(200_000)]
    for tag in tags:
        builder.start(tag, {})
        builder.data("x")
    for tag in reversed(tags):
        builder.end(tag)
        builder.data("y ")
    builder.end("div")
    stats = assert_equal_stats(builder.close())
    assert stats.depth[-1] == 200_000
    assert stats.chars[0] == 400_000  # every text and tail
    # lxml frees an element's proxy after looking up its ancestors for another: the deepest first, so each
    # finds its parent's at once (the other way round takes minutes at this depth)
    elements = stats.elements
    del stats
    while elements:
        elements.pop()


def test_the_pure_python_pass_is_used_when_asked_for():
    code = (
        "from newscrawl.extract import native, stats; from lxml import html;"
        "print(native.IMPLEMENTATION, native.cstats is None,"
        " stats.compute_stats(html.fromstring('<p>a b</p>')).chars)"
    )
    env = {**os.environ, "NEWSCRAWL_PURE_PYTHON": "1", "PYTHONPATH": str(Path(__file__).parents[2])}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["Python", "True", "[2]"]


def test_version_names_the_statistics_pass(capsys: pytest.CaptureFixture[str]):
    from newscrawl.cli import main

    with pytest.raises(SystemExit):
        main(["--version"])
    assert f"statistics pass: {native.IMPLEMENTATION}" in capsys.readouterr().out


# --- the tree's size (check_tree, cap_names) -------------------------------------------------------------

_COUNT_ELEMENTS = etree.XPath("count(//*)")
_COUNT_ATTRIBUTES = etree.XPath("count(//@*)")


def xpath_counts(root: etree._Element, most: int) -> tuple[int, int, int, int]:
    deepest = max(sum(1 for _ in el.iterancestors()) for el in root.iter(etree.Element))
    long_names = etree.XPath(
        f"descendant-or-self::*/@class[string-length() > {most}]"
        f" | descendant-or-self::*/@id[string-length() > {most}]"
    )
    return int(_COUNT_ELEMENTS(root)), int(_COUNT_ATTRIBUTES(root)), deepest, len(long_names(root))


@needs_c
@pytest.mark.parametrize(
    "page",
    [
        "<!DOCTYPE html><html><head><title>t</title></head><body><!--c--><p a=1 b=2>x<?pi?></p></body>",
        "<p class='" + "汉" * 10 + "'>three-byte characters: 30 bytes, 10 characters</p>",
        "<p class='" + "汉" * 11 + "' id='" + "a" * 11 + "'><b id='" + "é" * 12 + "'>x</b></p>"
        "<i class=''>y</i>",
        "<div>" * 40 + "deep" + "</div>" * 40,
        "<p id='a&amp;&#x4e2d;b' class='&lt;" + "x" * 10 + "'>entities</p>",
    ],
)
def test_tree_counts_are_the_xpaths_counts(page: str):
    cstats = native.cstats
    assert cstats is not None
    root = html.document_fromstring(page)
    assert cstats.tree_counts(root, 10) == xpath_counts(root, 10)


@needs_c
def test_tree_counts_leaves_other_trees_and_values_to_the_xpaths():
    cstats = native.cstats
    assert cstats is not None
    root = html.document_fromstring("<p class='" + "a" * 20 + "'>x</p>")
    assert cstats.tree_counts(root.find(".//p"), 10) is None  # not the document's top element
    parser = etree.XMLParser(resolve_entities=False)
    xml = etree.fromstring('<!DOCTYPE d [<!ENTITY e "ent">]><d><p id="&e;">a</p></d>', parser)
    assert cstats.tree_counts(xml, 2)[3] == -1  # a value of text and an entity reference: the XPath reads it
