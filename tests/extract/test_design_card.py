"""The design-card extractors run alone (CETD, SCEDD), the short-page classifier, and ``auto``."""

import importlib
import pkgutil

import pytest

from newscrawl.extract import ALGORITHMS, extract
from newscrawl.extract.algorithms import MODULES, REGISTRY
from newscrawl.extract.classify import classify_length
from newscrawl.extract.document import body_of, parse_html
from newscrawl.extract.stats import compute_stats

NAV = "<div class='nav'>" + "".join(f"<a href='/c{i}'>频道{i}</a> " for i in range(12)) + "</div>"
FOOTER = "<div id='footer'>关于我们 | 联系方式 | 版权所有 2026 示例网 京ICP备00000000号</div>"
SENTENCE = "市政府今天公布了新的交通规划方案，计划在三年内新建五条地铁线路。"


def article(paragraph_count: int, extra: str = "") -> str:
    body = "".join(f"<p>{SENTENCE * 6}第{i}段。</p>" for i in range(paragraph_count))
    return (
        "<html><head><title>交通规划公布_示例新闻</title></head><body>"
        f"{NAV}<h1>交通规划公布</h1><div id='content'>{body}</div>{extra}{FOOTER}</body></html>"
    )


def test_every_algorithm_is_listed():
    assert {"auto", "cetd", "scedd"} <= set(ALGORITHMS)


def test_every_algorithm_module_registers_the_name_it_is_listed_under():
    # the registry imports a module when its name is first asked for: a module missing from MODULES
    # would never register, one listed under another name would break the lookup
    package = importlib.import_module("newscrawl.extract.algorithms")
    names = [m.name for m in pkgutil.iter_modules(package.__path__) if m.name not in ("base", "__init__")]
    assert sorted(names) == sorted(MODULES)
    for name in ALGORITHMS:
        assert REGISTRY[name].name == name
        assert REGISTRY[name].run.__module__ == MODULES[name]
    assert REGISTRY.get("no-such-algorithm") is None


def test_short_page_classifier_uses_the_450_byte_threshold():
    long_stats = compute_stats(body_of(parse_html(f"<body><p>{'长' * 200}</p></body>")))
    short_stats = compute_stats(body_of(parse_html(f"<body><p>{'短' * 100}</p></body>")))
    assert classify_length(long_stats).page_class == "long"  # 600 bytes in UTF-8
    assert classify_length(short_stats).page_class == "short"  # 300 bytes
    assert classify_length(short_stats, short_threshold=200).page_class == "long"


def test_auto_finds_a_long_article_without_navigation_or_footer():
    r = extract(article(12))
    assert r.page_class == "long"
    assert "第0段" in r.text and "第11段" in r.text
    assert "频道3" not in r.text and "版权所有" not in r.text
    assert len(r.text.splitlines()) == 12


def test_cetd_finds_a_long_article_and_drops_link_dense_navigation():
    r = extract(article(12), algorithm="cetd")
    assert "第0段" in r.text and "第11段" in r.text
    assert "频道3" not in r.text
    assert r.figures["threshold"] > 0


def test_scedd_takes_the_dense_short_content_below_the_title():
    html = (
        "<html><head><title>简讯</title></head><body>" + NAV + "<h1>简讯</h1>"
        f"<div class='text'>{SENTENCE}</div>" + FOOTER + "</body></html>"
    )
    r = extract(html, algorithm="scedd")
    assert r.page_class == "short"
    assert r.text == SENTENCE


def test_scedd_rejects_a_candidate_above_top_coef():
    # a dense block in the first line of a page with many lines must not be the content
    top = f"<div>{'顶部广告文字' * 10}</div>"
    filler = "".join(f"<div><a href='/{i}'>链接{i}</a></div>" for i in range(40))
    html = f"<body>{top}{filler}<div><p>{SENTENCE}</p></div>{filler}</body>"
    r = extract(html, algorithm="scedd")
    assert r.text == SENTENCE
    assert r.figures["rejected"] >= 1


def test_scedd_parameters_are_validated_early():
    with pytest.raises(ValueError, match="top_coef"):
        extract("<p>x</p>", algorithm="scedd", top_coef=0.99, bottom_coef=0.5)
    with pytest.raises(ValueError, match="no parameter 'bogus'"):
        extract("<p>x</p>", algorithm="scedd", bogus=1)


def test_cetd_plain_text_density_variant_is_selectable():
    r = extract(article(8), algorithm="cetd", use_composite=False)
    assert "第7段" in r.text


def test_auto_prefers_the_article_over_a_longer_comment_thread():
    comments = "<div class='comment-list'>" + "".join(
        f"<div class='reply'>网友{i}：{SENTENCE}{SENTENCE}</div>" for i in range(15)
    ) + "</div>"
    r = extract(article(4, extra=comments))
    assert "第3段" in r.text
    assert "网友" not in r.text


def test_auto_handles_text_written_with_br_in_one_cell():
    lines = "<br>".join(f"{SENTENCE}第{i}行" for i in range(10))
    forum_reply = f"<table><tr><td><p>{'回复内容很短。' * 3}</p><p>{'签名档。' * 2}</p></td></tr></table>"
    html = f"<body>{NAV}<table><tr><td class='main'>{lines}</td></tr></table>{forum_reply}</body>"
    r = extract(html)
    assert "第0行" in r.text and "第9行" in r.text
    assert "回复内容很短" not in r.text


def test_auto_prunes_share_bars_and_link_lists_inside_the_content():
    inner = (
        "<div class='share-bar'>分享到：微博 微信 QQ空间</div>"
        "<ul class='links'>"
        + "".join(f"<li><a href='/r{i}'>相关报道标题{i}</a></li>" for i in range(6))
        + "</ul>"
    )
    r = extract(article(6, extra="").replace("</div><div id='footer'>", inner + "</div><div id='footer'>"))
    assert "分享到" not in r.text and "相关报道" not in r.text
    assert r.figures["pruned_subtrees"] >= 2


def test_auto_explains_its_choice():
    r = extract(article(10))
    assert r.algorithm == "auto"
    assert r.reason.startswith(f"long page: {r.coarse_length} bytes of main text, at least the 450-byte line")
    assert "seed" not in r.reason  # plain words: no internal names of the papers
    assert f"densest single block ({r.figures['seed000_coarse_length']} bytes)" in r.reason
    assert r.node_path and r.node_path.endswith("#content")
    assert r.figures["content_bytes"] == r.coarse_length > 450
    assert r.figures["seed000_coarse_length"] > 0


def test_auto_classes_a_multi_paragraph_article_long_where_seed_000_says_short():
    # paragraphs of ~100 and ~200 B: seed 000's densest node is the longest single paragraph
    paras = "".join(f"<p>{SENTENCE * (1 + i % 2)}第{i}段。</p>" for i in range(10))
    html = f"<body>{NAV}<div id='content'>{paras}</div>{FOOTER}</body>"
    assert extract(html, algorithm="cetd").page_class == "short"
    r = extract(html)
    assert r.page_class == "long"
    assert r.figures["seed000_page_class"] == "short"


def test_auto_classes_a_one_line_brief_short():
    r = extract(f"<body>{NAV}<div class='text'>{SENTENCE}</div>{FOOTER}</body>")
    assert r.page_class == "short"


def test_an_unknown_time_zone_is_rejected_up_front():
    with pytest.raises(ValueError, match="unknown time zone"):
        extract("<p>x</p>", timezone="Mars/Olympus")


def test_unknown_algorithm_raises_with_the_choices():
    with pytest.raises(ValueError, match="choose one of"):
        extract("<p>x</p>", algorithm="nope")


def test_auto_trims_disclaimers_and_editor_lines_at_the_edges():
    tail = "<p>声明：本网转载稿件不代表本网观点。</p><p>电话：010-00000000</p><p>责任编辑：王五</p>"
    r = extract(article(5).replace("</div><div id='footer'>", tail + "</div><div id='footer'>"))
    assert r.text.splitlines()[-1].endswith("第4段。")
    assert r.figures["trimmed_paragraphs"] == 3


def test_a_cut_marker_early_in_the_text_is_kept():
    early = "<p>相关新闻：本段是正文的一部分，因为它出现在文章开头。</p>"
    r = extract(article(5).replace("<div id='content'>", "<div id='content'>" + early))
    assert r.text.startswith("相关新闻")


def test_auto_prefers_a_short_article_over_a_longer_footer():
    contact = "客服中心电话与传真及电子邮件地址等联系方式。"
    footer = f"<div class='footer-bottom-text'>{contact * 8}</div>"
    html = f"<body>{NAV}<h1>简讯</h1><div class='story'><p>{SENTENCE * 3}</p></div>{footer}</body>"
    r = extract(html)
    assert r.text == SENTENCE * 3
