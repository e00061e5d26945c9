"""Parsing, paragraphs, noise stripping and node statistics on small hand-written pages."""

import pytest

from newscrawl.extract.clean import strip_noise
from newscrawl.extract.document import (
    ParseError,
    body_of,
    markup,
    node_path,
    paragraphs,
    parse_html,
    parse_markup,
    subtree_text,
)
from newscrawl.extract.stats import compute_stats


def test_subtree_text_is_the_joined_itertext():
    """Text and tails inside, in document order; the element's own tail, and comments' and processing
    instructions' own text, left out (a caller's tree may keep comments: the library's parser drops them)."""
    from lxml import etree

    tree = etree.fromstring(
        "<div><p>One <b>two <i>three</i></b> four<!-- not text --> five<?pi no?> six</p> tail"
        "<p></p><p>日本語 <br/>seven</p>\n</div>",
        etree.HTMLParser(),
    )
    for el in tree.iter():
        if isinstance(el.tag, str):
            assert subtree_text(el) == "".join(el.itertext()), el.tag
    assert subtree_text(tree.find(".//p")) == "One two three four five six"
    assert subtree_text(tree.find(".//p[2]")) == ""


def test_parse_rejects_empty_text():
    with pytest.raises(ParseError):
        parse_html("   \n ")


def test_parse_accepts_xml_declaration_and_nul_bytes():
    root = parse_html('<?xml version="1.0" encoding="gbk"?><html><body><p>a\x00b</p></body></html>')
    assert paragraphs(body_of(root)) == ["ab"]


def test_paragraphs_split_at_blocks_and_br_and_keep_inline_text():
    root = parse_html("<div><p>one <b>bold</b> tail</p>two<br>three<span> four</span></div>")
    assert paragraphs(body_of(root)) == ["one bold tail", "two", "three four"]


def test_paragraphs_skip_subtrees_but_keep_their_tails():
    root = parse_html("<div><p>keep<a href='#'>drop</a>after</p><br>x</div>")
    body = body_of(root)
    a = body.find(".//a")
    br = body.find(".//br")
    assert paragraphs(body, skip={a, br}) == ["keepafter", "x"]


def test_node_path_names_position_id_and_class():
    root = parse_html("<div></div><div id='main' class='c1 c2'><p>x</p></div>")
    el = body_of(root)[1]
    assert node_path(el) == "/html/body/div[2]#main.c1.c2"


def test_strip_noise_removes_scripts_forms_controls_and_hidden_elements_keeping_tails():
    root = parse_html(
        "<body><p>a<script>var x=1;</script>b</p><select><option>o</option></select>"
        "<div style='display: none'>hidden</div>tail<div style='position:fixed'>float</div>"
        "<p>c<a href='/'>link</a></p></body>"
    )
    report = strip_noise(root)
    assert paragraphs(body_of(root)) == ["ab", "tail", "clink"]
    assert report.hidden == 2
    assert report.noise_tags >= 2


SENTENCES = "".join(
    f"<p>第{n}段：区教育局表示，新学校将于明年秋季招生，预计提供学位两千余个。</p>" for n in range(4)
)


def test_strip_noise_keeps_a_hidden_article_a_script_reveals_but_not_a_hidden_keyword_block():
    # WeChat's article body is visibility:hidden until its script runs; it holds the page's sentences
    root = parse_html(
        f"<body><h1>新学校明年招生</h1><div id='js_content' style='visibility: hidden;'>{SENTENCES}</div>"
        "<div style='display:none'><p>menu</p></div></body>"
    )
    report = strip_noise(root)
    assert root.find(".//div[@id='js_content']") is not None
    assert report.hidden == 1
    # an SEO block as long, hidden, of keywords without sentences, goes
    keywords = " ".join(f"关键词{n} 热门搜索{n}" for n in range(60))
    seo = f"<div style='display:none'>{f'<p>{keywords}</p>' * 3}</div>"
    root = parse_html(f"<body><h1>标题</h1><p>正文一句。</p>{seo}</body>")
    assert strip_noise(root).hidden == 1
    # a hidden element of sentences that is a small part of the page goes too (a hidden teaser, a modal)
    root = parse_html(f"<body>{SENTENCES * 3}<div style='display:none'>{SENTENCES}</div></body>")
    assert strip_noise(root).hidden == 1


def test_stats_count_chars_tags_and_links():
    root = parse_html("<body><div><p>abc def</p><p>gh<a href='#'>ij k</a></p></div></body>")
    st = compute_stats(body_of(root))
    div = st.index[body_of(root)[0]]
    assert st.chars[0] == 11  # white space is not counted
    assert st.chars[div] == 11
    assert st.tags[div] == 3  # p, p, a
    assert st.link_chars[div] == 3
    assert st.link_tags[div] == 1
    assert st.subtree_end(div) == div + 4


def test_stats_attribute_tails_to_the_parent():
    root = parse_html("<body><p><b>x</b>yz</p></body>")
    st = compute_stats(body_of(root))
    p, b = 1, 2
    assert st.own_chars[p] == 2 and st.own_chars[b] == 1
    assert st.chars[p] == 3


def test_stats_survive_deep_nesting_without_recursion():
    html = "<body>" + "<div>" * 200 + "deep" + "</div>" * 200 + "</body>"
    st = compute_stats(body_of(parse_html(html)))
    assert st.chars[0] == 4


def test_markup_is_what_lxml_parses_utf8_without_controls_their_references_and_body_ends():
    assert markup("<p>中&#27;文\x0c&#x1b;</p></BODY>\n</html >&#8217;") == "<p>中文</p>\n&#8217;".encode()
    # the form feed goes first: what it hid is a reference, or an end tag, and goes too
    assert markup("<p>a&#\x0c27;b</bo\x0cdy>") == b"<p>ab"
    assert parse_markup(markup("<p>x</p>")).tag == "html"


@pytest.mark.parametrize("removed", ["&#27;", "&#x7F;", "&#65535", "\ufffe", "\uffff"])
def test_markup_finds_a_control_reference_or_noncharacter_alone_anywhere(removed):
    # each kind is looked for on its own before the page is cleaned: one alone, late on a page, still goes
    page = "<p>" + "&amp; &#8217; \ufffd " * 500 + f"x{removed}y</p>"
    assert markup(page) == ("<p>" + "&amp; &#8217; \ufffd " * 500 + "xy</p>").encode()


@pytest.mark.parametrize("removed", ["\ufffe", "\uffff"])
def test_markup_drops_a_written_noncharacter_from_the_bytes_the_decoder_gave(removed):
    # the UTF-8 bytes come with the text: whether they hold one is asked of the text
    page = "<p>" + "é " * 500 + f"x{removed}y</p>"
    assert markup(page, page.encode("utf-8")) == ("<p>" + "é " * 500 + "xy</p>").encode()
    assert markup("<p>ascii only</p>", b"<p>ascii only</p>") == b"<p>ascii only</p>"
