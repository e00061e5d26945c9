"""nodeweight (seed 002): node weights from link, text, depth and attribute ratios; sibling pruning."""

import pytest

from newscrawl.extract import extract
from newscrawl.extract.algorithms.base import REGISTRY
from newscrawl.extract.algorithms.nodeweight import NodeWeightParams, attribute_weight, extract_nodeweight
from newscrawl.extract.document import parse_html
from newscrawl.extract.page import Page

PARA = "白沙洲新开的夜市第一周就迎来了大批游客，摊主们说，最受欢迎的还是几样传统小吃，排队要等二十多分钟。"
NAV = "<div class='nav'>" + "".join(f"<a href='/c{i}'>栏目{i}</a>" for i in range(12)) + "</div>"
SIDE = "<div class='side'><ul>" + "".join(f"<li><a href='/h{i}'>热门文章标题{i}</a></li>" for i in range(8))
SIDE += "</ul></div>"
FOOTER = "<div class='footer'><a href='/about'>关于我们</a> 版权所有</div>"


def page(extra: str = "") -> str:
    body = "".join(f"<p>{PARA}第{i}段</p>" for i in range(5))
    return (
        f"<html><body>{NAV}<div class='wrap'><div class='article'><h1>夜市开张</h1>{body}{extra}</div>"
        f"{SIDE}</div>{FOOTER}</body></html>"
    )


def test_keeps_the_article_and_prunes_navigation_sidebar_and_footer():
    r = extract(page(), algorithm="nodeweight")
    for i in range(5):
        assert f"{PARA}第{i}段" in r.text
    assert "栏目" not in r.text and "热门文章" not in r.text and "版权所有" not in r.text


def test_link_ratio_alone_prunes_navigation_without_class_hints():
    html = page().replace("class='nav'", "").replace("class='side'", "").replace("class='footer'", "")
    r = extract(html, algorithm="nodeweight")
    assert f"{PARA}第4段" in r.text
    assert "栏目" not in r.text and "热门文章" not in r.text


def test_hidden_and_fixed_elements_are_removed_on_an_unstripped_tree():
    html = page("<div style='display: none'>隐藏的文字</div><div style='position:fixed'>浮动窗口</div>")
    root = parse_html(html)
    result = extract_nodeweight(Page(html=html, root=root), NodeWeightParams())
    text = "\n".join(result.paragraphs)
    assert f"{PARA}第0段" in text
    assert "隐藏的文字" not in text and "浮动窗口" not in text
    assert result.figures["hidden_removed"] == 2
    assert "隐藏的文字" in "".join(root.itertext())  # the shared tree is untouched


def test_attribute_weight_reads_class_and_id_words():
    el = parse_html("<div id='a' class='article-content'>x</div><div class='footer'>y</div><div>z</div>")
    divs = list(el.iter("div"))
    assert [attribute_weight(d) for d in divs] == [1.0, 0.0, 0.5]


def test_keep_ratio_override_changes_what_is_pruned():
    kept_all = extract(page(), algorithm="nodeweight", keep_ratio=0.0)
    assert "热门文章标题3" in kept_all.text
    # the navigation row above the headline too (the finished text leaves out the page's header above the
    # headline's copy: finish.py), as the algorithm hands its paragraphs over
    html = page()
    result = extract_nodeweight(Page(html=html, root=parse_html(html)), NodeWeightParams(keep_ratio=0.0))
    assert any("栏目3" in p for p in result.paragraphs)
    assert not any("栏目3" in p for p in extract_nodeweight(Page(html=html, root=parse_html(html)),
                                                           NodeWeightParams()).paragraphs)


def test_weights_must_sum_to_one():
    with pytest.raises(ValueError, match="w_text"):
        extract(page(), algorithm="nodeweight", w_text=0.9)


def test_bad_keep_ratio_raises_naming_it():
    with pytest.raises(ValueError, match="keep_ratio"):
        REGISTRY["nodeweight"].make_params({"keep_ratio": 2})
