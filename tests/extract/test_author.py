"""The author chain (newscrawl.extract.metadata.author), one behaviour per test."""

from __future__ import annotations

import json

import pytest

from newscrawl.extract import extract
from newscrawl.extract.metadata.author import MARKUP_ELEMENTS, MAX_AUTHOR_CHARS, clean_value, split_names

SENTENCE_ZH = "这是一段新闻正文，讲述了本地发生的一件事情，市民反映情况良好。"
SENTENCE_EN = "The council met on Tuesday evening to discuss the new budget for schools. "


def page(
    head: str = "", top: str = "", first: str = "", last: str = "", bottom: str = "", en: bool = False
) -> str:
    sentence = SENTENCE_EN if en else SENTENCE_ZH
    paras = "".join(f"<p>{sentence * 4}</p>" for _ in range(6))
    first_p = f"<p>{first}</p>" if first else ""
    last_p = f"<p>{last}</p>" if last else ""
    return (
        f"<html><head>{head}</head><body><div class='nav'>首页 新闻 体育</div><h1>标题</h1>"
        f"<div class='info'>{top}</div><div class='content'>{first_p}{paras}{last_p}</div>"
        f"<div class='foot'>{bottom}</div></body></html>"
    )


def author(html: str, url: str | None = None) -> tuple[str | None, str | None]:
    r = extract(html, url=url)
    return r.author, r.sources.get("author")


def ld(obj: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(obj, ensure_ascii=False)}</script>'


# --- declared authors ------------------------------------------------------------------------------


def test_meta_author():
    assert author(page('<meta name="author" content="Jane Doe">', en=True)) == ("Jane Doe", "meta:author")


def test_meta_article_author_url_is_rejected():
    html = page('<meta property="article:author" content="https://www.facebook.com/someone">', en=True)
    assert author(html) == (None, None)


def test_meta_byl_loses_its_by():
    assert author(page('<meta name="byl" content="By Jane Doe">', en=True)) == ("Jane Doe", "meta:byl")


def test_meta_author_that_is_the_site_name_yields_to_a_byline():
    html = page(
        '<meta name="author" content="Sunny Valley Post">'
        '<meta property="og:site_name" content="Sunny Valley Post">',
        top="By Jane Doe",
        en=True,
    )
    assert author(html) == ("Jane Doe", "line:writer")


def test_meta_author_that_is_a_company_yields_to_a_byline():
    html = page('<meta name="author" content="Example Verlag GmbH">', top="By Jane Doe", en=True)
    assert author(html) == ("Jane Doe", "line:writer")


def test_meta_author_that_is_a_company_is_kept_when_nothing_else_is_found():
    html = page('<meta name="author" content="Example Verlag GmbH">', en=True)
    assert author(html) == ("Example Verlag GmbH", "meta:author")


def test_enpproperty_author_loses_the_reporter_keyword():
    head = "<!--enpproperty <author>记者 王小明</author><title>标题</title>-->"
    assert author(page(head)) == ("王小明", "meta:enp:author")


def test_json_ld_author_as_a_string():
    html = page(ld({"@type": "NewsArticle", "author": "Jane Doe"}), en=True)
    assert author(html) == ("Jane Doe", "json-ld:author")


def test_json_ld_author_as_a_person_object():
    html = page(ld({"@type": "NewsArticle", "author": {"@type": "Person", "name": "Jane Doe"}}), en=True)
    assert author(html) == ("Jane Doe", "json-ld:author")


def test_json_ld_author_list_is_joined():
    obj = {"@type": "NewsArticle", "author": [{"name": "Jane Doe"}, {"name": "John Roe"}]}
    assert author(page(ld(obj), en=True)) == ("Jane Doe; John Roe", "json-ld:author")


def test_json_ld_person_with_given_and_family_names_only():
    people = [
        {"@type": "Person", "givenName": "Jane", "familyName": "Doe"},
        {"@type": "Person", "givenName": "Ann Lee", "familyName": "Roe"},
    ]
    html = page(ld({"@type": "NewsArticle", "author": people}), en=True)
    assert author(html) == ("Jane Doe; Ann Lee Roe", "json-ld:author")


# --- byline markup ---------------------------------------------------------------------------------


def test_itemprop_author_name():
    top = '<span itemprop="author"><span itemprop="name">Jane Doe</span></span>'
    assert author(page(top=top, en=True)) == ("Jane Doe", "byline:itemprop")


def test_rel_author_link():
    html = page(top='<a rel="author" href="/a/jd">Jane Doe</a>', en=True)
    assert author(html) == ("Jane Doe", "byline:rel")


def test_author_links_naming_the_declared_writer_and_more_are_the_fuller_byline():
    head = '<meta property="article:author" content="John Roe">'
    top = '<a rel="author" href="/a/jd">Jane Doe</a> <a rel="author" href="/a/jr">John Roe</a>'
    assert author(page(head, top=top, en=True)) == ("Jane Doe; John Roe", "byline:rel")
    # the byline of a related article further on is not a second writer
    text = "".join(f"<p>{SENTENCE_EN * 3}</p>" for _ in range(30))
    html = (
        f"<html><head>{head}</head><body><h1>Headline</h1><div>By {top.split('</a>')[1]}</a></div>"
        f"<div class='content'>{text}</div>"
        "<div>By <a rel='author' href='/a/ap'>Ann Poe</a></div></body></html>"
    )
    assert author(html) == ("John Roe", "meta:article:author")
    # links naming others than the declared writer do not replace it
    top = '<a rel="author" href="/a/jd">Jane Doe</a> <a rel="author" href="/a/ap">Ann Poe</a>'
    assert author(page(head, top=top, en=True)) == ("John Roe", "meta:article:author")


def test_rel_author_link_text_loses_its_lead_in():
    html = page(top='<a rel="author" href="/a/jd">View all posts by Jane Doe</a>', en=True)
    assert author(html) == ("Jane Doe", "byline:rel")


def test_byline_class_with_only_a_label_is_skipped():
    top = '<span class="author-label">Published</span>'
    assert author(page(top=top, en=True)) == (None, None)


def test_byline_class_drops_posted_by_and_the_date():
    top = '<span class="byline">Posted on May 2, 2021 by Jane Doe</span>'
    assert author(page(top=top, en=True)) == ("Jane Doe", "byline:class")


def test_link_to_an_author_page():
    top = '<a href="/author/jane-doe/">Jane Doe</a>'
    assert author(page(top=top, en=True)) == ("Jane Doe", "byline:link")


# --- lines near the text ---------------------------------------------------------------------------


def test_english_by_line_with_two_names():
    r = extract(page(top="By Jane Doe and John Roe", en=True))
    assert (r.author, r.authors) == ("Jane Doe; John Roe", ("Jane Doe", "John Roe"))


def test_english_by_line_stops_before_the_agency():
    assert author(page(top="By Jane Doe, Reuters", en=True)) == ("Jane Doe", "line:writer")


def test_chinese_author_line_loses_the_trailing_time():
    assert author(page(top="作者：张三 2021-03-05 10:00 [打印] 字号")) == ("张三", "line:writer")


def test_reporter_names_after_a_paper_name():
    r = extract(page(top="晨光日报记者 王小明 李华"))
    assert (r.author, r.authors, r.sources["author"]) == ("王小明、李华", ("王小明", "李华"), "line:writer")


def test_reporter_line_drops_the_place_before_baodao():
    assert author(page(top="本报记者 刘洋 江南县报道")) == ("刘洋", "line:writer")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("本报记者 张三 李四 报道", ("张三", "李四")),
        ("本报记者 王小明 李华 赵刚 报道", ("王小明", "李华", "赵刚")),
        ("记者 王小明 李华 发自北京", ("王小明", "李华")),
        ("本报记者 王小明 李华 成都报道", ("王小明", "李华")),
        ("本报记者 王小明 李华 成都 报道", ("王小明", "李华")),
        ("本报记者 王小明 李华 郑州报道", ("王小明", "李华")),
        ("本报记者 彭冲 山东冠县报道", ("彭冲",)),
        ("本报记者 王小明 李华 江南县 报道", ("王小明", "李华")),
    ],
)
def test_a_second_writer_before_baodao_is_no_place(line: str, expected: tuple[str, ...]) -> None:
    """The word before 报道 is the place the story was filed from unless it is a name that neither ends
    like a place (省/市/县/区/镇/村/州) nor is a known one."""
    assert extract(page(top=line)).authors == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("澎湃新闻首席记者 王小明", ("王小明",)),
        ("见习记者 王小明", ("王小明",)),
        ("全媒体记者 王小明 李华", ("王小明", "李华")),
        ("本报融媒体记者 王小明", ("王小明",)),
        ("本报驻京记者 王小明", ("王小明",)),
        ("本报特派记者 王小明 发自东京", ("王小明",)),
        ("本报记者 王小明 本报通讯员 李华", ("王小明", "李华")),
        ("记者 王小明 首席记者 李华", ("王小明", "李华")),
        ("（实习记者 王小明 李华 记者赵刚）", ("王小明", "李华", "赵刚")),
    ],
)
def test_a_reporters_rank_or_post_is_part_of_the_label(line: str, expected: tuple[str, ...]) -> None:
    r = extract(page(top=f"<p class='author'>{line}</p>"))
    assert (r.authors, r.sources["author"]) == (expected, "line:writer")


def test_wen_slash_byline():
    assert author(page(top="文/李明")) == ("李明", "line:writer")
    assert author(page(top="文｜李明 王芳")) == ("李明、王芳", "line:writer")
    assert author(page(top="中文|英文")) == (None, None)


@pytest.mark.parametrize("line", ["文丨茉莉", "文 丨 茉莉", "作者丨茉莉", "撰文丨茉莉"])
def test_the_vertical_stroke_parts_a_writers_label_from_the_name(line: str) -> None:
    """丨 (the "gun" stroke, typed for a bar on portals and WeChat) separates like "|": "文丨茉莉"
    credits 茉莉, a pen name with no surname that is found after the label only."""
    assert author(page(top=line)) == ("茉莉", "line:writer")


def test_closing_bracket_byline_at_the_end_of_the_text():
    assert author(page(last=SENTENCE_ZH + "（记者 赵小红）")) == ("赵小红", "line:writer")


def test_a_wire_datelines_bracketed_reporters_end_at_the_bracket():
    lead = "新华社西安11月24日电（记者王小明、李华）初雪过后，古城墙迎来今冬第一个客流高峰。"
    r = extract(page(first=lead))
    assert (r.author, r.authors) == ("王小明、李华", ("王小明", "李华"))
    assert extract(page(first="本报讯（记者 王小明）初雪过后，古城墙迎来客流高峰。")).authors == ("王小明",)


def test_a_bracketed_editor_ends_at_the_bracket():
    assert extract(page(last="【责任编辑：刘欢】返回首页，查看更多")).editor == "刘欢"


def test_reporter_survey_menu_is_not_a_byline():
    assert author(page(top="记者调查 网上投票")) == (None, None)


def test_bare_name_closing_the_text():
    assert author(page(last="Jane Doe", en=True)) == ("Jane Doe", "line:name")


def test_bare_sentence_closing_the_text_is_not_a_name():
    assert author(page(last="Read more.", en=True)) == (None, None)


def test_a_related_posts_heading_closing_the_text_is_not_a_name():
    assert author(page(last="Ähnliche Beiträge", en=True)) == (None, None)
    assert author(page(last="Related Posts", en=True)) == (None, None)


def test_a_bold_line_of_names_opening_the_text_names_the_writers():
    head = '<meta property="og:site_name" content="Example Times">'
    head += '<meta name="twitter:label1" content="Written by">'
    head += '<meta name="twitter:data1" content="Example Times">'
    first = "<strong>Jane Doe/John Roe</strong>"
    assert author(page(head, first=first, en=True), url="https://extimes.com/a/b") == (
        "Jane Doe; John Roe",
        "line:opening",
    )
    # a heading in bold, a dateline in capitals, or a name inside a sentence is no byline
    for first in ("<strong>Read More</strong>", "<b>NEW YORK</b>", "Hello <b>Jane Doe</b>"):
        assert author(page(first=first, en=True), url="https://extimes.com/a/b")[1] != "line:opening"


def test_bare_chinese_name_right_above_the_text():
    assert author(page(top="林青")) == ("林青", "line:name")


def test_short_chinese_words_without_a_surname_are_not_a_name():
    assert author(page(top="划重点")) == (None, None)


def test_an_outlet_alone_above_the_text_is_no_writer():
    # ifeng's info row: the source's name in a span of its own, no label
    r = extract(page(top="<span class='source'>华商报</span>"))
    assert r.author is None
    assert r.source == "华商报"


def test_short_chinese_furniture_above_the_text_is_not_a_name():
    assert author(page(top="返回顶部")) == (None, None)


def test_bracketed_name_after_the_time():
    assert author(page(top="2010年3月2日09:30 [ 吴刚 ] 来源：[ 某某商报 ]")) == ("吴刚", "line:writer")


def test_forum_post_by_line():
    html = page(bottom="本贴由小雨于2010年3月2日09:30:00在〖读书天地〗发表")
    assert author(html) == ("小雨", "line:writer")


def test_keyword_byline_beats_an_author_box_naming_the_account():
    top = "<div class='author-name'>某某资讯号</div><p>晨光日报记者 刘洋</p>"
    assert author(page(top=top)) == ("刘洋", "line:writer")


def test_editor_is_never_the_author():
    assert author(page(bottom="（ 责任编辑：陈静 ）")) == (None, None)


def test_writer_is_the_author_beside_editor_and_source():
    html = page(top="来源：新华网 编辑：周敏", bottom="作者：孙立 钱多多")
    assert author(html) == ("孙立、钱多多", "line:writer")


def test_source_is_never_the_author():
    assert author(page(top="2021-03-05 10:00 来源：新华网")) == (None, None)


def test_declared_author_naming_a_newspaper_is_not_the_author():
    assert author(page(head='<meta property="article:author" content="某某晚报">')) == (None, None)


def test_source_keyword_without_colon_in_running_text_is_ignored():
    assert author(page(first="消息来源表明该事件仍在调查之中。")) == (None, None)


def test_picture_credits_in_a_json_ld_author_list_are_dropped():
    obj = {"@type": "NewsArticle", "author": [{"name": "Jane Doe"}, {"name": "Image: Example Images"}]}
    html = page(ld(obj), en=True)
    assert author(html) == ("Jane Doe", "json-ld:author")


def test_names_joined_by_an_ampersand_stay_two_names():
    r = extract(page(top="作者：晨风&小雨"))
    assert r.authors == ("晨风", "小雨")


def test_wide_gap_parts_chinese_names_without_a_common_surname():
    assert split_names("伊琳  李清芬") == ("伊琳", "李清芬")
    assert split_names("大渡 美咲") == ("大渡 美咲",)


def test_post_footer_by_after_the_time():
    html = page(last="〓 明星话题 发布时间 2005/03/15 22:36:13 by 小蓝鲸 〓")
    assert author(html) == ("小蓝鲸", "line:writer")


def test_declared_chinese_organisation_yields_to_a_closing_name():
    html = page('<meta name="author" content="大河网络">', last="（袁明）")
    assert author(html) == ("袁明", "line:writer")


def test_declared_chinese_organisation_is_kept_when_nothing_else_is_found():
    assert author(page('<meta name="author" content="大河网络">')) == ("大河网络", "meta:author")


def test_reporter_and_intern_lines_make_one_byline():
    html = page(top="<p>本报记者 王明 李华</p><p>本报实习生 张强</p>")
    r = extract(html)
    assert set(r.authors) == {"王明", "李华", "张强"} and r.sources["author"] == "line:writer"


def test_names_alone_between_headline_and_text_are_the_byline():
    html = page(first="我是怎样走上写作之路的</p><p>晨曦")
    assert author(html) == ("晨曦", "line:opening")


def test_several_names_between_headline_and_text():
    html = page(first="社会资本与再就业研究</p><p>赵明、风笑")
    r = extract(html)
    assert r.authors == ("赵明", "风笑") and r.sources["author"] == "line:opening"


def test_names_alone_above_a_dash_led_subtitle_are_the_byline():
    # "标题 / 作者 / ——副标题 / 一、小标题 / 正文": the subtitle is short, the dash says what it is
    html = page(first="犬儒的年代</p><p>晨曦</p><p>——当代社会的一种心态</p><p>一、从何说起")
    assert author(html) == ("晨曦", "line:opening")


def test_a_short_line_after_a_sentence_is_not_an_opening_byline():
    html = page(first="记者今天走访了多个社区。</p><p>晨曦")
    assert author(html) == (None, None)


def test_reporter_line_continues_on_a_line_opened_by_another_role():
    html = page(top="<p>本报记者 王明 李华</p><p>本报实习生 张强 赵东</p>")
    assert set(extract(html).authors) == {"王明", "李华", "张强", "赵东"}


def test_official_notice_signed_by_its_issuing_body():
    html = page(last="某某省教育厅</p><p>2022年1月27日")
    assert author(html) == ("某某省教育厅", "line:signature")


def test_a_person_and_a_date_closing_the_text_is_no_signature():
    html = page(last="这是一段结尾的话语</p><p>2022年1月27日")
    assert author(html) == (None, None)


def test_twitter_label_written_by_names_the_writer():
    head = (
        '<meta name="twitter:label1" content="Verfasst von">'
        '<meta name="twitter:data1" content="Jane Doe">'
    )
    assert author(page(head, en=True)) == ("Jane Doe", "meta:twitter:data")


def test_twitter_misc_written_by_names_the_writer():
    head = (
        '<meta name="author" content="j.doe@example.com">'
        '<meta name="twitter:misc:Written by" content="Jane Doe">'
        '<meta name="twitter:misc:Est. reading time" content="3 Minuten">'
    )
    assert author(page(head, en=True)) == ("Jane Doe", "meta:twitter:data")


def test_twitter_label_of_another_kind_is_no_author():
    head = '<meta name="twitter:label1" content="Reading time">\n<meta name="twitter:data1" content="4 min">'
    assert author(page(head, en=True)) == (None, None)


def test_account_handle_after_the_name_is_dropped():
    head = '<meta name="author" content="Jane Doe @janedoe">'
    assert author(page(head, en=True))[0] == "Jane Doe"


def test_french_auteur_class_is_byline_markup():
    html = page(top="<div class='dates_auteurs'><span class='auteurs'>Jane Doe</span> 21 juin</div>", en=True)
    assert author(html) == ("Jane Doe", "byline:class")


def test_full_name_in_brackets_closing_the_text():
    html = page(last="Die Gemeinde bleibt gespannt. (Jane Marie Doe) +++", en=True)
    assert author(html) == ("Jane Marie Doe", "line:writer")


def test_one_word_in_brackets_closing_the_text_is_no_byline():
    assert author(page(last="The vote is on Friday. (Updated)", en=True)) == (None, None)


def test_date_then_name_on_its_own_line():
    assert author(page(top="11.12.2019 - Jane Doe", en=True)) == ("Jane Doe", "line:writer")


def test_byline_under_a_heading_inside_the_text_is_found():
    html = page(en=True).replace(
        "<div class='content'>",
        "<div class='content'><p>" + SENTENCE_EN * 3 + "</p><h2>Part two</h2><p>von <em>Jane Doe</em></p>",
    )
    assert author(html) == ("Jane Doe", "line:writer")


def test_authors_notes_heading_is_no_byline():
    assert author(page(top="——作者手记")) == (None, None)


def test_byline_class_loses_a_label_without_a_colon():
    html = page(top="<span class='author-name'>Author Jane Doe</span>", en=True)
    assert author(html) == ("Jane Doe", "byline:class")


# --- cleaning and absence --------------------------------------------------------------------------


def test_clean_value_rejects_a_date():
    assert clean_value("2021-03-05 10:00") is None


def test_clean_value_rejects_a_url():
    assert clean_value("https://example.com/authors/jane") is None


def test_clean_value_caps_the_length():
    assert clean_value("Jane " * (MAX_AUTHOR_CHARS // 5 + 1)) is None


def test_no_author_anywhere_gives_not_found():
    assert author(page()) == (None, None)


# --- JSON-LD persons against meta tags ---------------------------------------------------------------


def test_json_ld_person_beats_a_meta_author_naming_someone_else():
    head = '<meta name="author" content="Example Media House">' + ld(
        {"@type": "NewsArticle", "author": {"@type": "Person", "name": "Jane Doe"}}
    )
    assert author(page(head, en=True)) == ("Jane Doe", "json-ld:author")


def test_json_ld_person_given_by_reference_in_the_graph_is_looked_up():
    graph = {
        "@graph": [
            {"@type": "Article", "author": {"@id": "https://example.org/#/person/1"}},
            {"@type": "Person", "@id": "https://example.org/#/person/1", "name": "Jane Doe"},
        ]
    }
    head = '<meta name="author" content="Theme Maker">' + ld(graph)
    assert author(page(head, en=True)) == ("Jane Doe", "json-ld:author")


def test_meta_author_stays_when_json_ld_names_the_same_writer():
    head = '<meta name="author" content="Jane Doe, Example Desk">' + ld(
        {"@type": "NewsArticle", "author": {"@type": "Person", "name": "Jane Doe"}}
    )
    assert author(page(head, en=True))[1] == "meta:author"


def test_meta_author_stays_when_json_ld_names_an_organisation():
    head = '<meta name="author" content="Jane Doe">' + ld(
        {"@type": "NewsArticle", "author": {"@type": "Organization", "name": "Example News"}}
    )
    assert author(page(head, en=True)) == ("Jane Doe", "meta:author")


def test_meta_author_stays_when_the_byline_by_the_text_names_it():
    head = '<meta name="author" content="Jane Doe">' + ld(
        {"@type": "NewsArticle", "author": {"@type": "Person", "name": "Web Producer"}}
    )
    html = page(head, top='<span class="byline">Jane Doe, Example News</span>', en=True)
    assert author(html) == ("Jane Doe", "meta:author")


def test_a_meta_key_with_more_names_than_a_byline_holds_is_a_reference_list():
    cited = "".join(f'<meta name="author" content="Writer {chr(65 + i)}. Name">' for i in range(15))
    html = page(cited, top='<a rel="author" href="/people/jd">Jane Doe</a>', en=True)
    assert author(html) == ("Jane Doe", "byline:rel")


# --- byline lines of other shapes --------------------------------------------------------------------


def test_a_heading_that_is_only_the_writers_label_names_the_writer_below_it():
    html = page(
        top='<h4 class="meta-title">Autor</h4><p class="meta-text"><a href="/p/1">Jane Doe</a></p>', en=True
    )
    assert author(html) == ("Jane Doe", "line:writer")


def test_a_label_heading_with_the_name_in_its_tail():
    html = page(top='<div><h5 class="inline">Autor: </h5>Jane Doe/EX-Agency</div>', en=True)
    assert author(html) == ("Jane Doe", "line:writer")


def test_by_between_bars_of_a_meta_row():
    html = page(
        top="<span>Food</span> | <span>By </span><span>Jane Doe</span> | <time>May 2, 2020</time>", en=True
    )
    assert author(html) == ("Jane Doe", "line:writer")


def test_by_glued_to_the_name_by_inline_markup():
    html = page(top="<div><span>By</span><a href='/team/jd'>J.R. Doe</a></div>", en=True)
    assert author(html) == ("J.R. Doe", "line:writer")


def test_by_after_a_rule_of_dashes():
    html = page(top="<span><em>---- by Jane Doe</em></span>", en=True)
    assert author(html) == ("Jane Doe", "line:writer")


def test_a_name_glued_to_the_next_word_is_no_byline():
    html = page(top="<div>by <a href='/x'>Example Times</a><span>May 2, 2020</span></div>", en=True)
    assert author(html) == (None, None)


def test_von_opening_an_enumeration_is_no_byline():
    html = page(top="<p>Von Sprachregeln, Politik und Sprache</p><p>Autor: Jane Doe</p>", en=True)
    assert author(html) == ("Jane Doe", "line:writer")


def test_written_by_names_the_writer():
    html = page(first="<em>Written by: <a href='https://example.org/story'>Jane Doe</a></em>", en=True)
    assert author(html) == ("Jane Doe", "line:writer")


def test_a_tilde_before_the_name_is_dropped():
    html = page(
        top='<span class="byline"><span class="sep"> ~ </span><a href="/u/jd">Jane Doe</a></span>', en=True
    )
    assert author(html) == ("Jane Doe", "byline:class")


def test_an_editor_of_a_book_is_not_the_writer():
    html = page(top='<span itemprop="author">Revised Edition Edited by John Roe</span>', en=True)
    assert author(html) == (None, None)


def test_an_author_box_naming_the_site_yields_to_a_byline_naming_a_person():
    html = page(
        top='<span class="author">The Example Press</span>',
        first="<em>Written by: Jane Doe</em>",
        en=True,
    )
    assert author(html, url="https://www.theexamplepress.com/2020/story") == ("Jane Doe", "line:writer")


def test_an_author_box_naming_a_person_whose_name_starts_the_host_is_kept():
    html = page(top='<span class="author">jane</span>', en=True)
    assert author(html, url="https://janedoeblog.com/post") == ("jane", "byline:class")


# --- a declared single word completed ---------------------------------------------------------------------


def test_a_declared_first_name_is_completed_by_the_surname_the_page_gives_it():
    head = '<meta name="author" content="Nils">'
    first, bottom = "<strong>Eine Kolumne von Nils Doerr</strong>", "<p>Nils Doerr schreibt hier.</p>"
    html = page(head, first=first, bottom=bottom)
    assert author(html) == ("Nils Doerr", "meta:author")


def test_a_declared_first_name_stays_when_the_page_pairs_it_with_several_surnames():
    head = '<meta name="author" content="Jessie">'
    html = page(head, first="Jessie Doerr und Jessie Roe", bottom="<p>Jessie Doerr, Jessie Roe</p>", en=True)
    assert author(html) == ("Jessie", "meta:author")


def test_a_declared_login_is_spelled_as_the_page_shows_it():
    head = ld({"@type": "Article", "author": {"name": "marydoerr"}})
    byline = '<span class="post-author">von <a href="/creator/mary-doerr/">Mary Doerr</a></span>'
    html = page(head, top=byline, en=True)
    assert author(html) == ("Mary Doerr", "json-ld:author")


def test_a_declared_login_of_words_is_spelled_as_the_page_writes_the_name():
    head = ld({"@type": "HowTo", "author": {"@type": "Person", "name": "jane.roe"}})
    data = '<div data-user="{&quot;display_name&quot;:&quot;Jane  Roe&quot;}"></div>'
    assert author(page(head, bottom=data, en=True)) == ("Jane Roe", "json-ld:author")
    head = '<meta name="author" content="jane_roe">'
    assert author(page(head, bottom="<p>Fotos: Jane Roe</p>", en=True)) == ("Jane Roe", "meta:author")
    # the case of a name is not guessed: a login the page never writes as a name gives no writer
    assert author(page(head, en=True)) == (None, None)


# --- names that are not the writer's, and credits of more shapes (issue 12, third pass) -------------


def test_zhuanwen_byline():
    assert author(page(top="撰文：周小平 摄影：陈东")) == ("周小平", "line:writer")


def test_von_byline_in_german():
    assert author(page(top="Von Jana Müller und Paul Weber", en=True)) == (
        "Jana Müller; Paul Weber",
        "line:writer",
    )


def test_a_commenter_marked_as_author_is_not_the_byline():
    comment = (
        "<ul class='commentlist'><li class='comment depth-1'><div class='comment-body'>"
        "<span class='author'>gartenfee</span> Schöner Beitrag!</div></li></ul>"
    )
    assert author(page(bottom=comment, en=True)) == (None, None)


def test_a_picture_licence_author_is_not_the_byline():
    top = (
        "<div class='license-info'><span class='author-name'><a href='https://commons.example.org/f.jpg'>"
        "Nenad Example</a></span></div><span class='author-name'>Mark Roe</span>"
    )
    assert author(page(top=top, en=True)) == ("Mark Roe", "byline:class")


def test_an_author_link_inside_a_figure_is_a_photographer():
    caption = "<figcaption><a href='/author/jane-doe/'>Jane Doe</a></figcaption>"
    top = f"<figure><img src='a.jpg'>{caption}</figure>"
    assert author(page(top=top, en=True)) == (None, None)


def test_an_interview_byline_names_guest_and_interviewer():
    top = "<p class='author'>Jane Doe im Gespräch mit Karin Roe</p>"
    r = extract(page(top=top, en=True))
    assert r.authors == ("Jane Doe", "Karin Roe")
    assert r.sources["author"] == "byline:class"


def test_a_magazine_role_label_is_dropped_from_byline_markup():
    top = "<div class='article-author'><p>Text und Interview: Harald Example</p></div>"
    # (the credit line's rule comes before the markup's)
    assert author(page(top=top, en=True)) == ("Harald Example", "line:writer")


def test_a_label_alone_is_no_name():
    assert author(page(top="<span class='author'>Quelle</span>", en=True)) == (None, None)
    assert clean_value("Fotos") is None and clean_value("Interview") is None
    assert clean_value("Jane Doe") == "Jane Doe"


def test_a_reviewer_is_not_the_writer():
    assert clean_value("Geprüft von Dr. med. Stefan Example") is None
    assert clean_value("Medically reviewed by Jane Doe, MD") is None
    assert author(page(top="<a href='/author/x/'>Geprüft von Dr. Jane Doe</a>", en=True)) == (None, None)


def test_plugin_meta_keys_name_the_writer():
    head = '<meta name="shareaholic:article_author_name" content="Jane Doe">'
    assert author(page(head, en=True)) == ("Jane Doe", "meta:shareaholic:article_author_name")
    head = '<meta property="article:author_name" content="John Roe">'
    assert author(page(head, en=True)) == ("John Roe", "meta:article:author_name")


def test_the_common_meta_key_beats_a_plugin_key():
    head = '<meta name="author" content="Jane Doe"><meta property="og:author" content="Someone Else">'
    assert author(page(head, en=True)) == ("Jane Doe", "meta:author")


def test_a_long_line_opened_by_a_writer_label_gives_the_name_before_the_role():
    last = "Autorin: Jana Example, Projektleiterin der Stiftung in Tunis und Mitglied des Beirats."
    assert len(last) > 60
    assert author(page(last=last, en=True)) == ("Jana Example", "line:writer")


def test_a_short_line_opened_by_a_singular_writer_label_gives_the_name_before_the_role():
    last = "Autorin: Jane Doe, Projektleiterin der Stiftung."
    assert len(last) <= 60
    assert author(page(last=last, en=True)) == ("Jane Doe", "line:writer")
    last = "Author: Jean de Marco, Head of the Example Unit."
    assert author(page(last=last, en=True)) == ("Jean de Marco", "line:writer")
    # two writers joined by "und" after a singular label stay two
    last = "Autorin: Jane Doe und Johanna Roe"
    assert author(page(last=last, en=True)) == ("Jane Doe; Johanna Roe", "line:writer")


def test_a_singular_label_before_a_list_of_names_keeps_every_name():
    last = "Author: Jane Doe, John Roe"
    assert author(page(last=last, en=True)) == ("Jane Doe; John Roe", "line:writer")
    last = "Autorin: Jane Doe, J. Roe und Ann Poe"
    assert author(page(last=last, en=True)) == ("Jane Doe; J. Roe; Ann Poe", "line:writer")
    # a role in capitals after the comma is still a role
    last = "Author: Jane Doe, Senior Editor"
    assert author(page(last=last, en=True)) == ("Jane Doe", "line:writer")


def test_a_gender_inclusive_writer_label_names_the_writer():
    for label in ("Autorin/Autor", "Autor/in:", "Autor*in", "Autor/Autorin:"):
        bottom = f"<ul><li><b>Datum</b> 28.04.2023</li><li><b>{label}</b> Jane Doe</li></ul>"
        assert author(page(bottom=bottom, en=True)) == ("Jane Doe", "line:writer"), label


def test_a_plural_writer_label_names_the_writers():
    last = "Authors: Jane Doe, John Roe"
    assert author(page(last=last, en=True)) == ("Jane Doe; John Roe", "line:writer")
    last = "Autorinnen: Jane Doe und Ann Poe"
    assert author(page(last=last, en=True)) == ("Jane Doe; Ann Poe", "line:writer")


def test_a_long_line_with_a_label_in_its_middle_is_running_text():
    last = "Wie die Autorin: Jana Example schreibt, ist der Beirat der Stiftung in Tunis zufrieden damit."
    assert author(page(last=last, en=True)) == (None, None)


def test_a_closing_greeting_names_the_blogger():
    last = "Bis zum nächsten Mal und viel Spaß beim Nachkochen!</p><p>Euer HansEhrlich"
    assert author(page(last=last, en=True)) == ("HansEhrlich", "line:sign-off")
    assert author(page(last="Liebe Grüße, Tine", en=True)) == ("Tine", "line:sign-off")
    assert author(page(last="Cheers, Sam Roe", en=True)) == ("Sam Roe", "line:sign-off")


def test_a_closing_greeting_from_a_team_names_no_one():
    assert author(page(last="Euer Team", en=True)) == (None, None)


def test_a_greeting_inside_the_text_is_no_sign_off():
    first = "Liebe Grüße, Tine"
    assert author(page(first=first, en=True)) == (None, None)


def test_by_or_von_alone_in_byline_markup_is_no_name():
    assert author(page(top="<span class='byline'>Von</span>", en=True)) == (None, None)
    assert author(page(top="<span class='author'>By</span>", en=True)) == (None, None)


def test_a_source_or_photo_credit_in_byline_markup_is_not_the_writer():
    assert author(page(top="<div class='backlink__author'>Quelle: sid/dpa</div>", en=True)) == (None, None)
    assert author(page(top="<span class='author'>Foto: Jane Doe</span>", en=True)) == (None, None)
    assert author(page(top="<span class='author'>Autor: Jane Doe</span>", en=True))[0] == "Jane Doe"


def test_a_declared_organisation_loses_its_address():
    head = '<meta name="author" content="Example Verlag GmbH, Nürnberg, Germany">'
    r = extract(page(head, en=True))
    assert (r.authors, r.sources["author"]) == (("Example Verlag GmbH",), "meta:author")


def test_a_declared_site_name_loses_its_address():
    head = (
        '<meta name="author" content="valleypost.example, Springfield, Germany">'
        '<meta property="og:site_name" content="valleypost.example">'
    )
    r = extract(page(head, en=True))
    assert r.authors == ("valleypost.example",)


def test_the_byline_prefilter_keeps_every_kind_of_keyword_line_and_drops_the_rest():
    from newscrawl.extract.metadata.author import keyword_lines

    kept = [
        "记者 张三", "本报通讯员 李四", "文/王五", "稿源：新华社",
        "本帖由大卫于2005年发表", "ggjj 發表於 2005-9-15",
        "Author: Jane Doe", "author Jane Doe", "Autorin Eva Roe", "posted on May 2",
        "10:30 【王五】", "9:05 [Li]", "By Jane Doe", "  ~ by Jane Doe", "Von Max Muster", "ByJ.R. Doe",
        "Food | By Jane Doe | May 2",
    ]
    dropped = [
        "The harbour board met on Tuesday.", "Bylaws were changed.", "市政府召开新闻发布会。",
        "10:30 am", "Nearby",
    ]
    assert keyword_lines(kept + dropped) == kept


def test_a_title_cased_and_and_the_outlet_written_for_are_not_names():
    value = "Glen Example And Brendan Roe For The Mail On Sunday"
    assert split_names(value) == ("Glen Example", "Brendan Roe")
    assert split_names("Jane Doe for Reuters") == ("Jane Doe",)
    assert split_names("Forrest Example") == ("Forrest Example",)


def test_a_json_ld_byline_with_more_writers_than_the_meta_wins():
    byline = "By Glen Example And Brendan Roe For The Daily Example"
    person = {"@type": "Person", "name": byline}
    head = '<meta name="author" content="Glen Example">' + ld({"@type": "NewsArticle", "author": person})
    r = extract(page(head, en=True))
    assert (r.authors, r.sources["author"]) == (("Glen Example", "Brendan Roe"), "json-ld:author")


# --- issue 12, fourth pass: bylines of blogs and forums, names that are no names --------------------------


def test_an_address_written_against_harvesters_is_no_name():
    assert clean_value("jane[at]example.net") is None
    assert clean_value("jane (at) example dot org") is None
    assert clean_value("Jane Doe at Reuters") == "Jane Doe at Reuters"
    html = page('<meta name="author" content="jane[at]example.net">', en=True)
    assert author(html) == (None, None)


def test_a_post_verb_before_von_opens_a_byline():
    html = page(top="Geschrieben von Cooper am 25.08.2015 22:30", en=True)
    assert author(html) == ("Cooper", "line:writer")
    html = page(top="erstellt von <a href='/u/dominique'>Dominique</a> —", en=True)
    assert author(html) == ("Dominique", "line:writer")
    # "Posted by" opens the social-media posts embedded in a text
    html = page(first="Posted by Jane Doe on Sunday, February 6, 2022", en=True)
    assert author(html) == (None, None)


def test_the_month_after_a_byline_is_no_part_of_the_name():
    assert author(page(top="By Jane Doe Dec 21st, 2018", en=True)) == ("Jane Doe", "line:writer")
    assert author(page(top="By Theresa May", en=True)) == ("Theresa May", "line:writer")


def test_a_placeholder_after_by_is_no_name():
    assert author(page(top="By Unknown", en=True)) == (None, None)


def test_a_declared_author_holding_the_host_name_with_more_words_is_the_site():
    html = page('<meta name="author" content="EFC Sunny Valley">', top="Von Jane Doe", en=True)
    assert author(html, url="https://sunny-valley.de/news/1") == ("Jane Doe", "line:writer")
    # a short host name is no evidence ("Jane Doe" writing on doe.net)
    html = page('<meta name="author" content="Jane Doe">', top="Von John Roe", en=True)
    assert author(html, url="https://doe.net/post/1") == ("Jane Doe", "meta:author")


def test_a_padded_two_character_name_is_one_name():
    assert split_names("赵  培") == ("赵培",)
    assert author(page('<meta name="dc.creator" content="赵  培">')) == ("赵培", "meta:dc.creator")


def long_text(middle: str, head: str = "", bottom: str = "") -> str:
    """An English page of sixty paragraphs with ``middle`` in the middle, far from both ends."""
    paras = [f"<p>{SENTENCE_EN * 2}</p>"] * 60
    paras.insert(30, middle)
    return (
        f"<html><head>{head}</head><body><h1>Headline</h1><div class='content'>{''.join(paras)}</div>"
        f"<div class='foot'>{bottom}</div></body></html>"
    )


def test_a_labelled_paragraph_inside_the_text_names_the_writer():
    head = '<meta name="author" content="Example Stiftung e.V.">'
    line = "<p><strong>Autorin: Jane Doe, Projektleiterin der Stiftung in Tunis.</strong></p>"
    html = long_text(line, head)
    assert author(html) == ("Jane Doe", "line:label")
    # a label among other labelled lines is a record's field: a book review names the book's writer
    html = long_text("<p>Titel: The Example</p><p>Autorin: Jane Doe</p><p>Verlag: Example Press</p>")
    assert author(html) == (None, None)


def test_the_head_link_to_an_author_page_names_the_writer_far_below_the_text():
    head = '<link rel="author" href="https://example.org/author/dominique" title="Autoreninformation">'
    bottom = "<div>" + "<p>Mehr lesen</p>" * 80 + (
        '<span class="documentAuthor">erstellt von <a href="https://example.org/author/dominique">'
        "Dominique</a> —</span></div>"
    )
    assert author(long_text("", head, bottom)) == ("Dominique", "byline:head-link")


def test_a_magazine_credit_line_names_the_writer():
    assert author(page(top="Text &amp; Fotos: Jane Doe", en=True)) == ("Jane Doe", "line:writer")
    assert author(page(top="Text: Jane Doe, Fotos: John Roe", en=True)) == ("Jane Doe", "line:writer")
    # a role word opening running text names no one
    assert author(page(top="Interview: Wie es weitergeht", en=True)) == (None, None)


def test_a_credits_table_role_over_a_name_names_the_writer():
    credits = (
        "<div class='credits'><div class='label'>Interview</div><div class='text'>JANE DOE</div>"
        "<div class='label'>Fotograf</div><div class='text'>JOHN ROE</div></div>"
    )
    assert author(page(last=credits, en=True)) == ("JANE DOE", "line:writer")


def test_a_declared_author_that_is_the_declared_publisher_yields_to_the_byline():
    head = (
        '<meta name="author" content="Example Illustrierte">'
        '<meta name="DC.publisher" content="Example Illustrierte">'
    )
    html = page(head, top="Text &amp; Fotos: Jane Doe", en=True)
    assert author(html) == ("Jane Doe", "line:writer")
    organisation = {"@type": "Organization", "name": "Example Illustrierte"}
    head = '<meta name="author" content="Example Illustrierte">'
    head += ld({"@type": "Article", "publisher": organisation})
    html = page(head, top="Von Jane Doe", en=True)
    assert author(html) == ("Jane Doe", "line:writer")


# --- byline markup: what the scan of the near range reads ---------------------------------------------


def test_link_to_an_author_page_in_capitals():
    top = '<a href="/AUTHOR/jane-doe/">Jane Doe</a>'
    assert author(page(top=top, en=True)) == ("Jane Doe", "byline:link")


def test_link_to_an_author_page_with_a_dotted_capital_i():
    # a non-ASCII link goes to the case-blind pattern, which reads U+0130 as an "i"
    top = '<a href="/wr\u0130ter/jane-doe/">Jane Doe</a>'
    assert author(page(top=top, en=True)) == ("Jane Doe", "byline:link")


def test_itemprop_author_far_above_the_text_is_not_read():
    far = '<span itemprop="author">Jane Doe</span>' + "<i></i>" * (MARKUP_ELEMENTS + 10)
    html = page(en=True).replace("<div class='nav'>", f"<div class='nav'>{far}", 1)
    assert author(html) == (None, None)
    near = '<span itemprop="author">Jane Doe</span>'
    assert author(page(top=near, en=True)) == ("Jane Doe", "byline:itemprop")


def test_the_posts_own_author_link_beats_a_meta_author_naming_others():
    head = '<meta name="author" content="Jane Doe - John Roe">'
    top = 'Erstellt von <a href="https://example.org/author/fabian/">Fabian</a> am 6. Mai 2014'
    assert author(page(head, top=top, en=True)) == ("Fabian", "byline:link")
    # a link whose address spells another name (a shared account) does not
    top = 'Erstellt von <a href="https://example.org/author/redaktion/">Fabian</a> am 6. Mai 2014'
    assert author(page(head, top=top, en=True)) == ("Jane Doe - John Roe", "meta:author")


def test_a_standfirst_crediting_the_writer_beats_the_posting_account():
    head = '<meta name="author" content="Paul Poster">'
    first = "<em>Ein Interview von <strong>Jane Doe</strong> mit <strong>John Roe</strong>.</em>"
    assert author(page(head, first=first, en=True)) == ("Jane Doe", "line:credit")
    assert author(page(first="Eine Kolumne von Jane Doe", en=True)) == ("Jane Doe", "line:credit")
    # a sentence of running text opening the same way is no credit
    first = "Ein Flug von American Airlines musste am Montag in Chicago notlanden, meldet die Behörde."
    assert author(page(head, first=first, en=True)) == ("Paul Poster", "meta:author")


# --- outlets beside the writers (issue 12) ---------------------------------------------------------


def people(html: str, url: str | None = None) -> tuple[str | None, tuple[str, ...], str | None]:
    r = extract(html, url=url)
    return r.author, r.authors, r.source


def test_the_pages_own_outlet_beside_the_writer_is_the_source():
    head = '<meta property="og:site_name" content="Example Insider Europe">'
    head += '<meta name="author" content="Jane Roe, Example Insider">'
    assert people(page(head, en=True)) == ("Jane Roe", ("Jane Roe",), "Example Insider")
    # the host names the outlet as well
    head = '<meta name="author" content="Jane Roe, Example Courier">'
    url = "https://www.examplecourier.com/news/a"
    assert people(page(head, en=True), url) == ("Jane Roe", ("Jane Roe",), "Example Courier")


def test_a_wire_service_beside_the_writer_stays_a_name():
    # the shared sets' truths (fundus) keep "Jane Roe, Reuters" as the writers
    head = '<meta property="og:site_name" content="Example Insider">'
    head += '<meta name="author" content="Jane Roe, Reuters">'
    assert people(page(head, en=True)) == ("Jane Roe; Reuters", ("Jane Roe", "Reuters"), None)


def test_the_outlet_alone_stays_the_author():
    head = '<meta property="og:site_name" content="Example Insider">'
    head += '<meta name="author" content="Example Insider">'
    assert people(page(head, en=True))[0] == "Example Insider"


def test_a_name_a_full_stop_and_the_outlet():
    head = '<meta name="author" content="Jane Roe. Example Outlet International">'
    assert people(page(head, en=True)) == ("Jane Roe", ("Jane Roe",), "Example Outlet International")
    # an initial's full stop is part of the name
    head = '<meta name="author" content="J. Roe">'
    assert people(page(head, en=True)) == ("J. Roe", ("J. Roe",), None)


def test_a_staff_role_beside_the_writer_goes():
    head = '<meta name="author" content="Jane Roe, Staff writer">'
    assert people(page(head, en=True)) == ("Jane Roe", ("Jane Roe",), None)


def test_an_author_box_with_the_role_apart_reads_the_names_element():
    box = (
        "<div class='article-author'><h3 class='article-author__name'><a href='/people/jane-roe'>Jane Roe</a>"
        "</h3><p class='article-author__role'>News reporter <a href='#'>@janeroe</a></p></div>"
    )
    assert author(page(top=box, en=True)) == ("Jane Roe", "byline:class")
    # a box without a name's element reads as before
    box = "<div class='article-author'><span class='article-author__role'>Jane Roe</span></div>"
    assert author(page(top=box, en=True)) == ("Jane Roe", "byline:class")


def test_a_name_in_capitals_is_given_as_the_page_also_spells_it():
    # the byline prints the names in capitals; the page's share links and photo credit spell them as usual
    head = '<meta name="twitter:title" content="Photos by Jane Doe-Smith; reporting by John McRoe">'
    top = "By JANE DOE-SMITH and JOHN MCROE"
    assert author(page(head, top=top, en=True))[0] == "Jane Doe-Smith; John McRoe"
    # a particle keeps its small letter
    head = '<meta name="twitter:title" content="Reporting by Jan van der Berg">'
    assert author(page(head, top="By JAN VAN DER BERG", en=True))[0] == "Jan van der Berg"
    # without another spelling on the page the capitals stay: their case is not guessed ("MCROE")
    assert author(page(top="By JOHN MCROE", en=True))[0] == "JOHN MCROE"
    # two other spellings: the page says nothing certain
    head = '<meta name="twitter:title" content="John Mcroe and John McRoe">'
    assert author(page(head, top="By JOHN MCROE", en=True))[0] == "JOHN MCROE"
    # one name of several without another spelling: all stay in capitals, a list in two cases reads as a fault
    head = '<meta name="twitter:title" content="Reporting by Jane Doe-Smith">'
    top = "By JANE DOE-SMITH and JOHN MCROE"
    assert author(page(head, top=top, en=True))[0] == "JANE DOE-SMITH; JOHN MCROE"
    # an agency's one word stays as printed, a lower-case address is no spelling of a name
    head = '<link rel="canonical" href="https://example.org/afp/john-mcroe"><meta name="x" content="afp">'
    assert author(page(head, top="By AFP", en=True))[0] == "AFP"


def named(html: str) -> tuple[tuple[str, ...], str | None, str | None]:
    r = extract(html)
    return r.authors, r.author, r.sources.get("author")


def test_a_long_plural_labelled_line_keeps_every_name():
    # a plural label names several writers: the names after the first one's comma are kept, the role
    # after them is not ("Autoren: A, B" kept only A on a line too long to read whole)
    line = "Autoren: Jane Doe, John Roe, beide Projektleiter der Stiftung in Tunis und in Kairo."
    expected = (("Jane Doe", "John Roe"), "Jane Doe; John Roe", "line:writer")
    assert named(page(first=line, en=True)) == expected
    line = "Authors: Jane Doe, John Roe and Max Muster, researchers at the Example Institute in Berlin."
    assert named(page(last=line, en=True))[:2] == (
        ("Jane Doe", "John Roe", "Max Muster"), "Jane Doe; John Roe; Max Muster"
    )
    # inside the text, far from its edges
    line = "<p>Autorinnen: Jane Doe, Joan Roe, Referentinnen für Bildung im Verband der Example-Schulen.</p>"
    assert named(long_text(line, '<meta name="author" content="Example Stiftung e.V.">')) == (
        ("Jane Doe", "Joan Roe"), "Jane Doe; Joan Roe", "line:label"
    )
    # a singular label on a long line still names one writer and drops the role
    line = "Autorin: Jane Doe, Projektleiterin der Stiftung in Tunis und in Kairo seit dem Jahr 2019."
    assert named(page(first=line, en=True))[:2] == (("Jane Doe",), "Jane Doe")


# --- a footer's copyright, an author card, a name beside the date ------------------------------------


def test_a_copyright_by_a_person_in_the_footer_names_the_writer_when_nothing_else_does():
    # a personal blog's footer: "(CC) 2006-2008 by X", "© 2015 by X | Impressum"
    html = page(bottom="(Creative Commons) 2006-2008 by Jane Doe Hosted by Example Hosting", en=True)
    assert author(html) == ("Jane Doe", "page:copyright")
    html = page(bottom="<p>© 2015 by Jana Beispiel | <a href='/impressum'>Impressum</a></p>", en=True)
    assert author(html) == ("Jana Beispiel", "page:copyright")
    # "Copyright X" without "by": the holder is the writer when the title's headline names them too
    head = "<title>Über Jana Beispiel | </title>"
    html = page(head, bottom="IMPRESSUM | COPYRIGHT JANA BEISPIEL | EIN PROJEKT", en=True)
    assert author(html) == ("Jana Beispiel", "page:copyright")
    # a byline by the text wins
    html = page(top="By John Roe", bottom="© 2015 by Jane Doe", en=True)
    assert author(html) == ("John Roe", "line:writer")


def test_a_copyright_naming_a_company_or_the_site_is_no_writer():
    assert author(page(bottom="Copyright © 2021 Beispielpartei Deutschland", en=True)) == (None, None)
    assert author(page(bottom="© 2023 Example World | All rights reserved", en=True)) == (None, None)
    # the site's name closing the title is not its headline; an acronym beside a word is a company's name
    head = '<title>Cold wave ahead l KBS WORLD</title><meta name="description" content="KBS World news">'
    assert author(page(head, bottom="© 2023 KBS WORLD All Rights Reserved.", en=True)) == (None, None)
    assert author(page(bottom="© 2010 by Example Media GmbH", en=True)) == (None, None)


def test_an_author_card_names_the_writer_in_its_heading():
    # the card holds the name, a follow button and the writer's role: too long to read as a byline
    card = (
        "<div class='author-info'><h3><a href='/in/janedoe'>Jane Doe</a><a href='/login'>Follow</a></h3>"
        "<h4>Transformation coach and expert for new work, remote teams and learning at work</h4></div>"
    )
    assert author(page(top=card, en=True)) == ("Jane Doe", "byline:class")
    card = (
        "<div class='autor-card'><h4>María López</h4><p>Redactora de economía y política regional "
        "desde 2015, antes corresponsal en Bruselas</p></div>"
    )
    assert author(page(top=card, en=True)) == ("María López", "byline:class")
    # a long box of several linked names without a heading: its byline element gives every name
    box = (
        "<div class='author'><div class='byline'><a href='/autor/a'>Jane Doe</a>, <a href='/autor/b'>John "
        "Roe</a> y <a href='/autor/c'>Max Muster</a></div><time>Hace 13 horas</time>"
        "<span>Tiempo de lectura: 8 minutos</span></div>"
    )
    assert author(page(top=box, en=True))[0] == "Jane Doe; John Roe; Max Muster"


def test_a_name_beside_the_date_above_the_text_is_the_byline_when_the_site_has_its_author_page():
    # a theme printing the day and the writer on lines of their own; the author link is in a list of
    # the writer's other posts far below the text
    posts = "".join(f"<li><a href='/post/{i}'>Another post</a></li>" for i in range(40))
    below = f"<ul>{posts}<li><a href='/author/jane-doe/'>Jane Doe</a></li></ul>"
    top = "<div><span>19. Oktober 2019</span></div><div><span>Jane Doe</span></div><div>1 Kommentar</div>"
    assert author(page(top=top, bottom=below, en=True)) == ("Jane Doe", "line:dated-name")
    top = "<div><span>Jane Doe</span></div><div><span>May 2, 2023</span></div>"
    assert author(page(top=top, bottom=below, en=True)) == ("Jane Doe", "line:dated-name")
    # without the author page the line may be a kicker or a section's name
    top = "<div><span>Digital Life</span></div><div><span>05/08/2019</span></div>"
    assert author(page(top=top, bottom=below, en=True)) == (None, None)
    top = "<div><span>19. Oktober 2019</span></div><div><span>Jane Doe</span></div>"
    assert author(page(top=top, bottom="<p>Mehr lesen</p>", en=True)) == (None, None)
    # nor is a name beside a line that is not a date
    top = "<div><span>Jane Doe</span></div><div><span>Kommentar</span></div>"
    assert author(page(top=top, bottom=below, en=True)) == (None, None)


def test_a_name_beside_a_link_to_the_authors_other_posts_names_the_writer():
    # a recipe's author box far below the text: the name, and a link to "the author's" page that the
    # link's address spells; the declared author is the site
    head = ld({"@type": "Recipe", "author": {"@type": "Organization", "name": "Example Kitchen"}})
    head += '<meta property="og:site_name" content="Example Kitchen">'
    posts = "".join(f"<li><a href='/rezept/{i}'>Ein anderes Rezept</a></li>" for i in range(60))
    box = (
        "<div class='recipe-expert'><div class='recipe-expert-name'>Jana Lange-Beispiel</div>"
        "<a href='/experten/jana-lange-beispiel'>zu allen Rezepten vom Autor</a></div>"
    )
    assert author(page(head, bottom=f"<ul>{posts}</ul>{box}", en=True)) == (
        "Jana Lange-Beispiel", "byline:author-page"
    )
    box = "<div><span>Jane Doe</span> <a href='/contributors/jane-doe/'>More from this author</a></div>"
    assert author(page(bottom=f"<ul>{posts}</ul>{box}", en=True)) == ("Jane Doe", "byline:author-page")
    box = "<p><b>Jeanne Dupont</b> <a href='/auteurs/jeanne-dupont'>Tous les articles de l’auteur</a></p>"
    assert author(page(bottom=f"<ul>{posts}</ul>{box}", en=True)) == ("Jeanne Dupont", "byline:author-page")
    # an address that does not spell the name beside it says nothing about that name
    box = "<div><span>Jane Doe</span> <a href='/contributors/john-roe/'>More from this author</a></div>"
    assert author(page(bottom=f"<ul>{posts}</ul>{box}", en=True)) == (None, None)


def test_a_declared_author_the_page_labels_as_editor_yields_to_the_byline():
    # the CMS declares the story's editor; the byline by the headline names the reporter
    head = ld({"@type": "NewsArticle", "author": {"@type": "Person", "name": "Jane Doe"}})
    top = "<div class='author-2'>John Roe</div>"
    bottom = 'Editor : <a class="author" href="/author/112/jane-doe" title="Jane Doe">Jane Doe</a>'
    assert author(page(head, top=top, bottom=f"<div class='info'>{bottom}</div>", en=True)) == (
        "John Roe", "byline:class"
    )
    bottom = "<div>Redakteurin: <b>Jane Doe</b></div>"
    assert author(page(head, top=top, bottom=bottom, en=True)) == ("John Roe", "byline:class")
    # a name the page also shows without the label is the writer as declared
    top = "<div class='author-2'>Jane Doe</div>"
    assert author(page(head, top=top, bottom=bottom, en=True)) == ("Jane Doe", "json-ld:author")
    # a script's value naming the editor is no label the reader sees
    script = "<script>var page = {'editor': 'Jane Doe'};</script>"
    assert author(page(head + script, top="<div class='author-2'>John Roe</div>", en=True)) == (
        "Jane Doe", "json-ld:author"
    )


def test_an_author_link_showing_initials_gives_the_name_its_title_holds():
    # an avatar group: the link shows the writer's initials, its title the name and the writer's role
    link = (
        "<div class='avatar-group'><a href='/author/jane-doe-1188257' title='Jane Doe, Professorin an der "
        "Example-Universität, example.org'>JD</a></div>"
    )
    assert author(page(top=link, en=True)) == ("Jane Doe", "byline:link")
    link = "<span><a href='/autor/jan-van-roe' aria-label='Jan van Roe'>JVR</a></span>"
    assert author(page(top=link, en=True)) == ("Jan van Roe", "byline:link")
    # a title that is not the initials' name leaves the link as it reads
    link = "<span><a href='/author/jane-doe' title='Zum Profil'>JD</a></span>"
    assert author(page(top=link, en=True)) == ("JD", "byline:link")


def english_story(byline: str) -> str:
    prose = "".join(
        f"<p>The city council met on day {i} to discuss a plan for new parks; residents spoke for hours.</p>"
        for i in range(5)
    )
    return (
        "<html lang='en'><head><title>Parks plan approved - The Daily</title></head><body><article>"
        f"<h1>Parks plan approved</h1>{byline}{prose}</article></body></html>"
    )


@pytest.mark.parametrize(
    ("byline", "expected"),
    [
        # the kind of piece before "by"
        ("<p>Story by Jane Doe and John Roe</p>", "Jane Doe; John Roe"),
        ("<p class='byline'>Opinion by Jane Doe</p>", "Jane Doe"),
        ("<p class='byline'>Analysis by Jane Doe</p>", "Jane Doe"),
        # a role beside the name is no name
        ("<p class='byline'>By Jane Doe, Contributing Columnist</p>", "Jane Doe"),
        ("<p class='byline'>By Jane Doe, Chief Political Correspondent</p>", "Jane Doe"),
        # AP's style: the writers in capitals, then the agency
        ("<p class='byline'>By JANE DOE and JOHN ROE Associated Press</p>", "JANE DOE; JOHN ROE"),
        # a photo credit names no writer
        ("<figure><img src='a.jpg'><figcaption>Photo by Mark Lens</figcaption></figure>", None),
    ],
)
def test_english_bylines_name_the_writers_only(byline: str, expected: str | None) -> None:
    assert extract(english_story(byline)).author == expected


def test_a_dateline_label_after_the_name_is_no_part_of_it():
    # "Von Anna Schmidt" and "Stand: ..." in two spans of one line
    top = (
        "<span class='author'>Von Anna Schmidt</span> <span class='date'>Stand: 25.11.2026, 14:03 Uhr</span>"
    )
    assert author(page(top=top, en=True))[0] == "Anna Schmidt"


def test_a_dateline_label_glued_to_the_last_name_is_no_part_of_it():
    # Global Times' byline and time: two spans with nothing between them ("... Li HuaPublished: ...")
    top = (
        "<span class='byline'>By <a href='/author/1'>Wang Xiaoming</a> and <a href='/author/2'>Li Hua</a>"
        "</span><span class='pub_time'>Published: Nov 24, 2026 10:05 PM</span>"
    )
    assert extract(page(top=top, en=True)).authors == ("Wang Xiaoming", "Li Hua")


def _syndicated(writer: str, provider: str, shown: str = "") -> str:
    head = f"<meta name='author' content='{provider}'>" + ld(
        {"@type": "NewsArticle", "author": {"@type": "Person", "name": writer},
         "provider": {"@type": "Organization", "name": provider},
         "publisher": {"@type": "Organization", "name": "Portal News"}}
    )
    top = f"<span class='caas-author-byline-collapse'>{shown}</span>" if shown else ""
    return page(head=head, top=top, en=True)


def test_a_syndicated_storys_provider_is_its_source_not_its_writer():
    html = _syndicated("Coastal Daily Times", "Coastal Daily Times", shown="Coastal Daily Times")
    r = extract(html, "https://news.portal.example/storm-041200123.html")
    assert (r.author, r.source, r.sources["source"]) == (None, "Coastal Daily Times", "json-ld:provider")


def test_a_syndicated_storys_writer_stays_beside_its_provider():
    r = extract(_syndicated("Kelly Morgan", "Harvest Wire"), "https://news.portal.example/wheat-153104567.html")
    assert (r.author, r.source) == ("Kelly Morgan", "Harvest Wire")


def test_a_provider_that_is_the_publisher_is_no_source():
    head = ld({"@type": "NewsArticle", "author": {"@type": "Person", "name": "Kelly Morgan"},
               "provider": {"@type": "Organization", "name": "Portal News"},
               "publisher": {"@type": "Organization", "name": "Portal News"}})
    r = extract(page(head=head, en=True), "https://news.portal.example/wheat-153104567.html")
    assert (r.author, r.source) == ("Kelly Morgan", None)


def test_a_provider_that_is_the_sites_own_desk_is_no_source():
    head = ld({"@type": "NewsArticle", "author": {"@type": "Person", "name": "Kelly Morgan"},
               "provider": {"@type": "Organization", "name": "Portal News Australia",
                            "url": "https://au.news.portal.example/"},
               "publisher": {"@type": "Organization", "name": "Portal News"}})
    r = extract(page(head=head, en=True), "https://au.news.portal.example/wheat-153104567.html")
    assert (r.author, r.source) == ("Kelly Morgan", None)


def test_a_place_after_the_name_and_before_the_dateline_label_is_no_writer():
    top = "<span>Von <a href='/redaktion/felix-krause/'>Felix Krause</a>, Berlin</span>"
    top += " <time>Aktualisiert am 25.11.2026</time>"
    r = extract(page(top=top, en=True))
    assert r.authors == ("Felix Krause",)


def _graph(author: dict[str, str], person: dict[str, str]) -> str:
    return ld({"@context": "https://schema.org", "@graph": [
        {"@type": "WebPage", "@id": "https://example.com/a/", "name": "Budget"},
        {"@type": "BreadcrumbList", "itemListElement": [{"@type": "ListItem", "name": "News"}]},
        person,
        {"@type": "NewsArticle", "headline": "Budget", "author": author, "datePublished": "2026-11-25"},
    ]})


def test_a_json_ld_person_named_by_reference_is_the_writer_when_no_byline_shows():
    person = {"@type": "Person", "@id": "https://example.com/#/schema/person/1", "name": "Erin Castillo"}
    r = extract(page(head=_graph({"@id": person["@id"]}, person), en=True), "https://example.com/a/")
    assert (r.author, r.sources["author"]) == ("Erin Castillo", "json-ld:author")


def test_a_json_ld_person_by_reference_that_is_an_account_is_no_writer():
    person = {"@type": "Person", "@id": "https://example.com/#/schema/person/1", "name": "redaktion"}
    r = extract(page(head=_graph({"@id": person["@id"]}, person), en=True), "https://example.com/a/")
    assert r.author is None


@pytest.mark.parametrize("closing", ["（李艳 撰稿）", "（李军伟 编译）", "（王小明 整理）"])
def test_a_writers_role_after_the_name_is_no_name(closing: str) -> None:
    r = extract(page(last=SENTENCE_ZH + closing))
    assert r.authors == (closing[1:4].strip(),)


@pytest.mark.parametrize(
    ("top", "expected"),
    [
        ("聯合報╱記者王小明／台北報導", ("王小明",)),
        ("聯合晚報╱記者王小明／即時報導", ("王小明",)),
        ("記者：王小明 李華&nbsp;&nbsp;台北報導", ("王小明", "李華")),
        ("中央社記者 王小明 台北報導", ("王小明",)),
    ],
)
def test_traditional_bylines_of_taiwan_and_hong_kong_papers(top: str, expected: tuple[str, ...]) -> None:
    assert extract(page(top=top)).authors == expected


def test_a_bracketed_byline_in_a_long_first_paragraph_over_a_photographers_caption():
    caption = "圖為市區街景。（資料照，記者李華攝）"
    first = "〔記者王小明／台北報導〕" + SENTENCE_ZH * 3
    assert extract(page(top=f"<p>{caption}</p>", first=first)).authors == ("王小明",)


def test_a_photographers_credit_yields_to_the_writers_line():
    html = page(first="积雪覆盖街道。本报记者 李华 摄", last="湖南日报12月15日讯(记者 王小明 通讯员 赵刚)")
    assert extract(html).authors == ("王小明", "赵刚")


def test_a_photographers_credit_alone_still_credits_the_writer():
    assert extract(page(top="新华社记者 王小明 李华 摄")).authors == ("王小明", "李华")


def test_a_traditional_outlet_with_its_report_label_is_the_source_not_the_writer():
    r = extract(page(top="<span class='author'>華視新聞╱報導</span>"))
    assert (r.author, r.source) == (None, "華視新聞")


def test_a_reporters_blog_link_names_no_writer():
    assert extract(page(top="<a href='/blog'>記者部落</a>")).author is None
