"""The C statistics pass equals the pure-Python reference on random trees (hypothesis)."""

from __future__ import annotations

import pytest
from cstats_support import assert_equal_stats, needs_c
from lxml import etree, html

from newscrawl.extract.document import body_of

hypothesis = pytest.importorskip("hypothesis")  # (the test extra has it)
st = hypothesis.strategies

_TEXT = st.text(
    alphabet=st.sampled_from(list("ab \t\n\xa0\u3000\u2028\x85\u200b汉😀é&<") + ["\u2009"]), max_size=6
)
_TAGS = st.sampled_from(["div", "p", "a", "span", "li", "h1", "br", "td"])


@st.composite
def trees(draw: st.DrawFn) -> etree._Element:
    root = etree.Element(draw(_TAGS))
    root.text = draw(_TEXT) or None
    nodes = [root]
    for _ in range(draw(st.integers(0, 25))):
        parent = draw(st.sampled_from(nodes))
        kind = draw(st.integers(0, 9))
        if kind == 0:
            child = etree.Comment(draw(_TEXT).replace("-", "") or "c")
        elif kind == 1:
            child = etree.ProcessingInstruction("pi", "x")
        else:
            child = etree.Element(draw(_TAGS))
            child.text = draw(_TEXT) or None
            if draw(st.booleans()):
                child.set("class", draw(_TEXT))
            if draw(st.booleans()):
                child.set("id", draw(_TEXT))
            nodes.append(child)
        child.tail = draw(_TEXT) or None
        parent.append(child)
    return root


@needs_c
@hypothesis.settings(max_examples=300, deadline=None)
@hypothesis.given(trees())
def test_c_and_python_agree_on_random_trees(root: etree._Element):
    assert_equal_stats(root)
    # and on the tree as the HTML parser reads it back
    assert_equal_stats(body_of(html.fromstring("<html><body>" + etree.tostring(root, encoding="unicode"))))
