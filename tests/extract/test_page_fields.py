"""Description, images, tags, section and language (newscrawl.extract.metadata), one behaviour per test."""

from __future__ import annotations

import json

import pytest

from newscrawl.extract import extract
from newscrawl.extract.metadata.description import shorten
from newscrawl.extract.metadata.language import detect_language

ZH = "某市地铁新线今日上午开通试运营，全长二十公里，共设车站十五座，沿线市民出行将更加方便。"
EN = "The council met on Tuesday evening to discuss the new budget for the schools of the town. "
URL = "https://news.example.com/2024/05/03/budget.html"


def page(head: str = "", body: str = "", top: str = "", lang: str = "", en: bool = True) -> str:
    sentence = EN if en else ZH
    paras = "".join(f"<p>{sentence * 3}</p>" for _ in range(5))
    attr = f" lang='{lang}'" if lang else ""
    return (
        f"<html{attr}><head><meta charset='utf-8'><title>Budget</title>{head}</head><body>"
        f"<div class='nav'><a href='/'>Home</a></div>{top}<h1>Budget</h1>"
        f"<div class='story'>{body}{paras}</div></body></html>"
    )


def ld(obj: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(obj, ensure_ascii=False)}</script>'


# --- description ------------------------------------------------------------------------------------


def test_description_from_the_meta_description():
    r = extract(page(head="<meta name='description' content='The council agreed a budget.'>"), URL)
    assert (r.description, r.sources["description"]) == ("The council agreed a budget.", "meta:description")


def test_description_falls_back_to_the_lead():
    r = extract(page(), URL)
    assert r.sources["description"] == "lead" and r.description.startswith("The council met on Tuesday")


def test_a_slogan_sized_description_is_skipped_for_the_og_one():
    head = "<meta name='description' content='News'><meta property='og:description' content='A new budget.'>"
    assert extract(page(head=head), URL).description == "A new budget."


def test_shorten_cuts_after_a_sentence():
    assert shorten("One sentence here. Another one that runs on and on.", 30) == "One sentence here."


# --- images -----------------------------------------------------------------------------------------


def test_top_image_first_then_body_figures_with_captions():
    head = "<meta property='og:image' content='/img/top.jpg'><meta property='og:image:alt' content='Hall'>"
    body = (
        "<figure><img src='/img/a.jpg'><figcaption>The mayor speaks</figcaption></figure>"
        "<img data-src='b.jpg' src='data:image/gif;base64,R0lGOD' alt='Voters'>"
        "<img src='/pixel.gif' width='1' height='1'>"
    )
    r = extract(page(head=head, body=body), URL)
    assert [(i.url, i.caption) for i in r.images] == [
        ("https://news.example.com/img/top.jpg", "Hall"),
        ("https://news.example.com/img/a.jpg", "The mayor speaks"),
        ("https://news.example.com/2024/05/03/b.jpg", "Voters"),
    ]


def test_json_ld_image_object_with_caption():
    head = ld({"@type": "NewsArticle", "headline": "Budget", "image": {"url": "https://cdn.example.com/x.jpg",
                                                                      "caption": "Town hall"}})
    r = extract(page(head=head), URL)
    assert (r.images[0].url, r.images[0].caption) == ("https://cdn.example.com/x.jpg", "Town hall")


def test_images_are_read_from_the_first_thousand_img_elements_only():
    # a flood of one image (fuzzing: 45,000 copies, 1.0 s of CPU) is read as far as the cap
    from newscrawl.extract.metadata.images import MAX_IMAGE_ELEMENTS

    body = "<img src='/img/same.jpg' alt='x'>" * MAX_IMAGE_ELEMENTS + "<img src='/img/late.jpg' alt='y'>"
    r = extract(page(body=body), URL)
    assert [i.url for i in r.images] == ["https://news.example.com/img/same.jpg"]


def test_images_resolve_against_base_href():
    r = extract(page(head="<base href='https://static.example.net/'>", body="<img src='p.jpg' alt='x'>"), URL)
    assert r.images[0].url == "https://static.example.net/p.jpg"


def lead_page(lead: str) -> str:
    paras = "".join(f"<p>{EN * 3}</p>" for _ in range(5))
    return (
        "<html><head><title>Budget</title><meta property='og:image' content='/img/top.jpg'></head><body>"
        f"<article><h1>Budget</h1><p class='standfirst'>Schools get more.</p>{lead}"
        f"<div class='story'>{paras}</div></article></body></html>"
    )


def test_the_lead_figure_between_the_headline_and_the_text_follows_the_top_image():
    lead = "<figure><picture><img src='/img/lead.jpg'></picture><figcaption>The hall</figcaption></figure>"
    r = extract(lead_page(lead), URL)
    assert [(i.url, i.caption) for i in r.images] == [
        ("https://news.example.com/img/top.jpg", None),
        ("https://news.example.com/img/lead.jpg", "The hall"),
    ]


@pytest.mark.parametrize(
    "lead",
    [
        "<div class='writer'><img src='/img/jane.jpg' alt='Jane Doe'> By Jane Doe</div>",  # not in a figure
        "<figure class='author'><img src='/img/jane.jpg'></figure>",  # the writer's portrait
        "<figure><img src='/img/jane.jpg'><figcaption>Von Jane Doe, Redakteurin</figcaption></figure>",
        "<div class='share'><figure><img src='/img/fb.png'></figure></div>",  # a share button
        "<figure><img src='/static/icons/print.png'></figure>",
    ],
)
def test_a_portrait_an_icon_or_a_loose_image_above_the_text_is_no_lead_picture(lead: str):
    assert [i.url for i in extract(lead_page(lead), URL).images] == ["https://news.example.com/img/top.jpg"]


# --- tags -------------------------------------------------------------------------------------------


def test_a_rel_category_link_by_the_text_is_the_section_when_nothing_else_names_one():
    links = "<p>Posted in <a rel='category tag' href='/c/local'>Local news</a></p>"
    r = extract(page(body=links), URL)
    assert (r.section, r.sources["section"]) == ("Local news", "links:rel-category")
    declared = extract(page(head="<meta property='article:section' content='Politics'>", body=links), URL)
    assert declared.section == "Politics"
    default = "<p>Posted in <a rel='category tag' href='/c/uncategorized'>Uncategorized</a></p>"
    assert extract(page(body=default), URL).section is None


def test_rel_tag_links_are_the_tags_when_nothing_declares_any():
    links = (
        "<p>Tags: <a rel='tag' href='/t/schools'>Schools</a> <a rel='tag' href='/t/budget'>Budget 2024</a>"
        " <a rel='category tag' href='/c/local'>Local</a></p>"
    )
    r = extract(page(body=links), URL)
    assert (r.tags, r.sources["tags"]) == (("Schools", "Budget 2024"), "links:rel-tag")
    declared = extract(page(head="<meta name='keywords' content='council'>", body=links), URL)
    assert (declared.tags, declared.sources["tags"]) == (("council",), "meta:keywords")


def test_tags_merge_keywords_article_tags_and_json_ld_without_repeats():
    head = (
        "<meta name='keywords' content='budget, schools；council'>"
        "<meta property='article:tag' content='Schools'><meta property='article:tag' content='Taxes'>"
        + ld({"@type": "NewsArticle", "headline": "Budget", "keywords": ["taxes", "Mayor"]})
    )
    r = extract(page(head=head), URL)
    assert r.tags == ("budget", "schools", "council", "Taxes", "Mayor")
    assert r.sources["tags"] == "meta:keywords"


def test_site_names_are_not_tags():
    head = "<meta name='keywords' content='地铁,新浪新闻,试运营'>"
    assert extract(page(head=head, en=False), URL).tags == ("地铁", "试运营")


def test_chinese_keywords_apart_by_spaces_are_several_tags():
    head = "<meta name='keywords' content='古城墙 游客 初雪'>"
    assert extract(page(head=head, en=False), URL).tags == ("古城墙", "游客", "初雪")
    english = "<meta name='keywords' content='city wall, first snow'>"  # a space inside an English tag
    assert extract(page(head=english), URL).tags == ("city wall", "first snow")


def test_the_headline_given_as_a_keyword_is_no_tag():
    # a CMS whose editor gave no keywords puts the headline there, its halves apart by a space
    title = "<title>初雪过后古城墙迎来游客高峰 景区临时封闭部分坡道_新闻中心</title>"
    head = title + "<meta name='keywords' content='初雪过后古城墙迎来游客高峰 景区临时封闭部分坡道,古城墙'>"
    html = page(head=head, en=False).replace("<title>Budget</title>", "")
    assert extract(html, URL).tags == ("古城墙",)


# --- section ----------------------------------------------------------------------------------------


def test_section_from_article_section_meta():
    r = extract(page(head="<meta property='article:section' content='Politics'>"), URL)
    assert (r.section, r.sources["section"]) == ("Politics", "meta:article:section")


def test_section_from_a_json_ld_breadcrumb_list():
    crumbs = {"@type": "BreadcrumbList", "itemListElement": [
        {"@type": "ListItem", "position": 2, "name": "Local"},
        {"@type": "ListItem", "position": 1, "name": "Home"},
        {"@type": "ListItem", "position": 3, "name": "Budget"},
    ]}
    r = extract(page(head=ld(crumbs)), URL)
    assert (r.section, r.sources["section"]) == ("Local", "json-ld:breadcrumb")


def test_section_from_a_chinese_location_line():
    top = "<div class='where'>当前位置：首页 &gt; 新闻 &gt; 国内新闻 &gt; 正文</div>"
    r = extract(page(top=top, en=False), URL)
    assert (r.section, r.sources["section"]) == ("国内新闻", "breadcrumb")


@pytest.mark.parametrize(
    ("top", "section"),
    [
        ("<div class='top'><a href='/'>搜狐首页</a> &gt; <a href='/t/'>旅游</a> &gt; 正文</div>", "旅游"),
        ("<div class='bar'>新浪首页 &gt; 新闻中心 &gt; 国内新闻</div>", "国内新闻"),
        ("<div class='x'><span><a href='/'>首页</a></span> » <a href='/cj/'>财经</a> » 内容</div>", "财经"),
        # the site's name linking to its root opens the trail as its home page does
        ("<div class='links'><a href='https://www.example.com'>示例网</a> &gt; <a href='/gp/'>股票</a>"
         " &gt; <a href='/gp/bd/'>股市报道</a> &gt; 正文</div>", "股市报道"),
    ],
)
def test_section_from_an_unmarked_trail_opening_with_the_home_page(top, section):
    r = extract(page(top=top, en=False), URL)
    assert (r.section, r.sources["section"]) == (section, "breadcrumb")


def test_an_unmarked_menu_row_is_no_trail():
    top = "<div class='menu'><a href='/'>首页</a> | <a href='/xw/'>新闻</a> | <a href='/ty/'>体育</a></div>"
    assert extract(page(top=top, en=False), URL).section is None


@pytest.mark.parametrize(
    "top",
    [
        "<div class='crumbs'><a href='/'>示例网</a> &gt; 正文</div>",  # the site's name is home
        "<div class='crumbs'><a href='/'>首页</a> &gt; 资讯正文</div>",  # "...正文" is the article
    ],
)
def test_a_trail_of_home_and_the_article_gives_no_section(top):
    assert extract(page(top=top, en=False), URL).section is None


def test_a_trail_ends_at_the_tools_beside_it():
    top = (
        "<div class='position'><a href='/'>首页</a> &gt; <a href='/gb/'>公报</a> &gt; "
        "<a href='/gb/23/'>第23号</a><span>字号：<a>大</a> <a>小</a></span> <a>打印</a></div>"
    )
    assert extract(page(top=top, en=False), URL).section == "第23号"
    top = "<div class='crumbs'><a href='/'>首頁</a> &gt; <a href='/x/'>今日必讀</a> &gt; <a>[友善列印]</a>"
    top += "</div>"
    assert extract(page(top=top, en=False), URL).section == "今日必讀"


def test_a_row_of_many_crumbs_is_a_menu():
    links = "".join(f"<a href='/c{i}/'>栏目{i}</a> &gt; " for i in range(9))
    assert extract(page(top=f"<div class='location'>{links}</div>", en=False), URL).section is None


@pytest.mark.parametrize("mark", ["class='BreadCrumbs'", "id='PAGE-LOCATION'", "class='Poſition-bar'"])
def test_section_from_breadcrumb_markup_named_in_any_case(mark):
    """Class and id words name a breadcrumb in any case (an ASCII value is searched lower-cased, another
    one as re.IGNORECASE reads it, where 'ſ' is an 's')."""
    top = f"<div {mark}><a href='/'>Home</a> &gt; <a href='/world/'>World</a> &gt; Budget</div>"
    r = extract(page(top=top), URL)
    assert (r.section, r.sources["section"]) == ("World", "breadcrumb")


def test_no_section_without_breadcrumbs_or_meta():
    assert extract(page(), URL).section is None


# --- language ---------------------------------------------------------------------------------------


def test_declared_language_is_kept():
    r = extract(page(lang="en-GB"), URL)
    assert (r.language, r.sources["language"]) == ("en-GB", "page")


def test_plainly_chinese_page_without_a_declaration_is_detected():
    r = extract(page(en=False), URL)
    assert (r.language, r.sources["language"]) == ("zh", "detected")


def test_german_text_is_detected_by_the_model():
    text = "Die Regierung hat am Dienstag ein neues Gesetz beschlossen, das ab Mai für alle Schulen gilt."
    assert detect_language(text) == "de"


def test_japanese_and_korean_by_their_scripts():
    assert detect_language("東京都は今日、新しい交通規則を発表しました。来月から施行されます。") == "ja"
    assert detect_language("서울시는 오늘 새로운 교통 규칙을 발표했습니다. 다음 달부터 시행됩니다.") == "ko"


def test_the_model_is_cached_uncompressed_and_scores_as_the_wheels_copy(tmp_path, monkeypatch):
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    from newscrawl.extract.metadata import language

    texts = ["Die Regierung hat am Dienstag ein Gesetz beschlossen.", "Le conseil a voté le budget hier."]
    shipped = LanguageIdentifier.from_model_file(MODEL_FILE)
    monkeypatch.setattr(language, "MODEL_CACHE", tmp_path / "cache")
    try:
        language._identifier.cache_clear()
        first = language._identifier()  # decompresses, writes the copy
        (copy,) = (tmp_path / "cache").iterdir()
        language._identifier.cache_clear()
        second = language._identifier()  # reads the copy
        for ident in (first, second):
            assert [ident.rank(t) for t in texts] == [shipped.rank(t) for t in texts]
        (copy / "ptc.npy").write_bytes(b"truncated")  # a broken copy is not used
        assert language._read_cached(copy) is None
        language._identifier.cache_clear()
        assert [language._identifier().rank(t) for t in texts] == [shipped.rank(t) for t in texts]
    finally:
        language._identifier.cache_clear()


def test_too_little_text_has_no_language():
    assert detect_language("OK 123") is None


def test_to_dict_gives_plain_lists():
    d = extract(page(head="<meta property='og:image' content='/a.jpg'>"), URL).to_dict()
    assert d["images"] == [{"url": "https://news.example.com/a.jpg", "caption": None}]
    assert isinstance(d["tags"], list) and isinstance(d["authors"], list)
    json.dumps(d)
