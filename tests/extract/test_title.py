"""The title chain (newscrawl.extract.metadata.title), one behaviour per test."""

from __future__ import annotations

from newscrawl.extract import extract
from newscrawl.extract.metadata.title import MAX_TITLE_CHARS, SiteContext, clean_title, split_title
from newscrawl.extract.page import PageMeta

BODY_ZH = "<p>" + "这是一段新闻正文，讲述了本地发生的一件事情，记者进行了详细的采访。" * 8 + "</p>"
BODY_EN = "<p>" + "The council met on Tuesday evening to discuss the new budget for schools. " * 8 + "</p>"


def page(head: str = "", heading: str = "", body: str = BODY_ZH, nav: str = "首页 新闻 体育") -> str:
    return (
        f"<html><head>{head}</head><body><div class='nav'>{nav}</div>"
        f"{heading}<div class='info'>2021-03-05 10:00</div>"
        f"<div class='content'>{body}{body}</div><div class='foot'>版权所有</div></body></html>"
    )


def title(html: str, url: str | None = None) -> tuple[str | None, str | None]:
    r = extract(html, url=url)
    return r.title, r.sources.get("title")


def site(**meta: str) -> SiteContext:
    return SiteContext(PageMeta(meta=dict(meta)), None)


# --- rule 1: declared titles -----------------------------------------------------------------------


def test_og_title_is_used_when_the_page_has_no_heading():
    html = page('<meta property="og:title" content="市政府发布新的交通规划">')
    assert title(html) == ("市政府发布新的交通规划", "meta:og:title")


def test_og_title_comes_before_twitter_title():
    html = page(
        '<meta name="twitter:title" content="推特上的标题文字">'
        '<meta property="og:title" content="开放图谱里的标题">'
    )
    assert title(html) == ("开放图谱里的标题", "meta:og:title")


def test_json_ld_headline_is_a_declared_title():
    ld = '{"@type": "NewsArticle", "headline": "Council passes school budget"}'
    html = page(f'<script type="application/ld+json">{ld}</script>', body=BODY_EN)
    assert title(html) == ("Council passes school budget", "meta:json-ld:headline")


def test_chinese_portal_articletitle_meta_is_read():
    html = page('<meta name="ArticleTitle" content="省政府召开常务会议">')
    assert title(html) == ("省政府召开常务会议", "meta:articletitle")


def test_enpproperty_comment_of_chinese_portals_is_a_declared_title():
    head = (
        "<title>某某参考网</title>"
        "<!--enpproperty <date>2020-01-02</date><title>城区新建两座口袋公园</title>-->"
    )
    assert title(page(head)) == ("城区新建两座口袋公园", "meta:enp:title")


def test_the_cms_record_is_searched_for_once_per_page_though_title_and_author_both_read_it(monkeypatch):
    # each search scans the whole source: the title's chain and the author's share one
    from newscrawl.extract.metadata import title as title_module

    searched: list[str] = []
    real = title_module.enp_properties
    monkeypatch.setattr(title_module, "enp_properties", lambda html: searched.append(html) or real(html))
    record = "<title>城区新建两座口袋公园</title><author>记者 王小明</author>"
    head = f"<title>某某参考网</title><!--enpproperty {record}-->"
    r = extract(page(head))
    assert (r.title, r.sources["title"], r.author) == ("城区新建两座口袋公园", "meta:enp:title", "王小明")
    assert len(searched) == 1


def test_a_declared_title_a_heading_shows_whole_keeps_its_dash():
    # no heading near the text; the declared title's dash is the headline's own, as the <h2> shows it
    far = "<div><a href='/x'>link</a></div>" * 60
    html = page(
        "<meta property='og:title' content='Update – Harbour bridge closes for repairs'>",
        f"<h2 class='entry-title'>Update – Harbour bridge closes for repairs</h2>{far}",
        body=BODY_EN,
    )
    assert title(html) == ("Update – Harbour bridge closes for repairs", "meta:og:title")


def test_a_declared_title_no_heading_shows_is_cut_at_its_dash():
    far = "<div><a href='/x'>link</a></div>" * 60
    html = page(
        "<meta property='og:title' content='Update – Harbour bridge closes for repairs'>",
        f"<h2 class='entry-title'>Harbour bridge closes</h2>{far}",
        body=BODY_EN,
    )
    assert title(html) == ("Harbour bridge closes for repairs", "meta:og:title")


def test_site_name_is_removed_from_the_meta_title():
    html = page('<meta property="og:title" content="Council passes school budget | Reuters">', body=BODY_EN)
    assert title(html)[0] == "Council passes school budget"


def test_the_one_microdata_headline_states_an_h2_against_the_title_tags_section_name():
    # no meta title; the <title> names the section, the article's heading is an <h2> marked
    # itemprop="headline" (schema.org microdata)
    html = page(
        "<title>Writing style - example.net - Web design</title>",
        heading="<h2 itemprop='headline'>Write for the readers you want to reach</h2>",
        body=BODY_EN,
    )
    assert title(html) == ("Write for the readers you want to reach", "heading:h2")


def test_a_microdata_headline_on_a_span_is_a_declared_title():
    html = page(
        "<title>Writing style - example.net</title>",
        heading="<div class='hl'><span itemprop='headline'>Write for your readers</span></div>",
        body=BODY_EN,
    )
    assert title(html) == ("Write for your readers", "meta:microdata:headline")


def test_a_microdata_headline_is_one_token_of_itemprop():
    # "headline" among other tokens (any white space around them) counts; "headlines" does not
    html = page(
        "<title>Writing style - example.net</title>",
        heading=(
            "<p itemprop='headlines'>A plural is another property</p>"
            "<div class='hl'><span itemprop='name\theadline  '>Write for your readers</span></div>"
        ),
        body=BODY_EN,
    )
    assert title(html) == ("Write for your readers", "meta:microdata:headline")


def test_microdata_headlines_of_a_teaser_list_declare_nothing():
    teasers = "".join(f"<h3 itemprop='headline'>Teaser number {i} of the list</h3>" for i in range(3))
    html = page("<title>Writing style - example.net - Web design</title>", heading=teasers, body=BODY_EN)
    assert title(html) == ("Writing style", "title-tag")


# --- rule 2: the heading near the text -------------------------------------------------------------


def test_h1_backed_by_the_title_tag_is_the_title():
    html = page("<title>暴雨致多条道路积水_新闻中心_新浪网</title>", "<h1>暴雨致多条道路积水</h1>")
    assert title(html) == ("暴雨致多条道路积水", "heading:h1")


def test_h1_wins_when_the_meta_title_is_only_a_shortened_form():
    html = page(
        "<title>Council passes budget - Example Times</title>"
        '<meta property="og:title" content="Council passes budget">',
        "<h1>Council passes school budget after long night</h1>",
        body=BODY_EN,
    )
    assert title(html) == ("Council passes school budget after long night", "heading:h1")


def test_meta_title_wins_over_an_unrelated_far_heading():
    # the only h1 is a logo text far from the article; an h3 "Leave a reply" sits below the text
    html = (
        "<html><head><meta property='og:title' content='Library opens a new reading room'></head><body>"
        "<h1>Sunny Valley Gazette</h1>" + "<div><a href='/x'>link</a></div>" * 60 + BODY_EN * 2
        + "<h3>Leave a Reply</h3></body></html>"
    )
    assert title(html) == ("Library opens a new reading room", "meta:og:title")


def test_a_far_h1_the_json_ld_headline_states_wins_over_a_teaser_og_title():
    # og:title and the <title> give a reworded teaser; the JSON-LD headline is the <h1>, which sits far
    # above the text (a list of links between them)
    ld = '{"@type": "NewsArticle", "headline": "Rail line sets new date for its northern extension"}'
    far = "<div><a href='/x'>link</a></div>" * 60
    html = page(
        "<title>Trains to reach the north by spring, operator says</title>"
        "<meta property='og:title' content='Trains to reach the north by spring, operator says'>"
        f"<script type='application/ld+json'>{ld}</script>",
        f"<h1>Rail line sets new date for its northern extension</h1>{far}",
        body=BODY_EN,
    )
    assert title(html) == ("Rail line sets new date for its northern extension", "heading:h1")


def test_a_far_h1_no_declared_title_states_yields_to_og_title():
    ld = '{"@type": "NewsArticle", "headline": "Rail line to open its northern extension by spring"}'
    far = "<div><a href='/x'>link</a></div>" * 60
    html = page(
        "<meta property='og:title' content='Rail line to open its northern extension by spring'>"
        f"<script type='application/ld+json'>{ld}</script>",
        f"<h1>Regional transport desk</h1>{far}",
        body=BODY_EN,
    )
    assert title(html) == ("Rail line to open its northern extension by spring", "meta:og:title")


def test_higher_level_heading_near_the_text_is_preferred():
    html = page(heading="<h2>要闻</h2><h1>全市新增三条公交线路</h1><h3>小标题</h3>")
    assert title(html) == ("全市新增三条公交线路", "heading:h1")


def test_kicker_span_in_the_h1_is_dropped_when_the_declared_title_lacks_it():
    html = page(
        "<title>Council passes school budget - Example Times</title>",
        "<h1><span class='kicker'>Education</span> Council passes school budget</h1>",
        body=BODY_EN,
    )
    assert title(html) == ("Council passes school budget", "heading:h1")


def test_h1_pieces_are_kept_together_when_the_declared_title_has_them_all():
    html = page(
        "<title>Education: Council passes school budget - Example Times</title>",
        "<h1><span class='kicker'>Education:</span> Council passes school budget</h1>",
        body=BODY_EN,
    )
    assert title(html)[0] == "Education: Council passes school budget"


def test_a_kicker_element_the_declared_title_words_otherwise_is_dropped_from_the_heading():
    html = page(
        '<meta property="og:title" content="Budget | Example Times">',
        "<h1><span class='roofline'>Budget</span> <span>Council passes school budget</span></h1>",
        body=BODY_EN,
    )
    assert title(html) == ("Council passes school budget", "heading:h1")


def test_a_kicker_set_apart_by_a_line_break_is_dropped_even_without_a_class():
    html = page(
        '<meta property="og:title" content="Budget">',
        "<h1><span><small>Budget</small><br>Council passes school budget</span></h1>",
        body=BODY_EN,
    )
    assert title(html)[0] == "Council passes school budget"


def test_a_first_word_in_plain_emphasis_is_no_kicker():
    html = page(
        '<meta property="og:title" content="Council budget passed">',
        "<h1><em>Council</em> passes the school budget after a long night</h1>",
        body=BODY_EN,
    )
    assert title(html)[0] == "Council passes the school budget after a long night"


def test_the_blog_name_as_h1_ending_the_title_is_no_headline():
    html = page(
        "<title>Beef stew with apples and onions | Love goes through the stomach</title>",
        "<h1>Love goes through the stomach</h1><h2>Beef stew with apples and onions</h2>",
        body=BODY_EN,
    )
    assert title(html) == ("Beef stew with apples and onions", "title-tag")


def test_an_h1_ending_the_title_stays_when_the_rest_is_shorter():
    html = page("<title>News | Council passes school budget</title>", "<h1>Council passes school budget</h1>",
                body=BODY_EN)  # fmt: skip
    assert title(html)[0] == "Council passes school budget"


def test_a_declared_title_shown_as_a_heading_beats_an_unrelated_section_h1():
    html = page(
        '<meta property="og:title" content="Council passes school budget after long night">',
        "<h1>Politics</h1><h2>Council passes school budget after long night</h2>",
        body=BODY_EN,
    )
    assert title(html) == ("Council passes school budget after long night", "meta:og:title")


def test_a_declared_title_shown_nowhere_leaves_the_h1_above_the_text():
    html = page(
        '<meta property="og:title" content="Budget row: what it means for your school">',
        "<h1>Council passes school budget</h1>",
        body=BODY_EN,
    )
    assert title(html) == ("Council passes school budget", "heading:h1")


def test_ruby_readings_are_left_out_of_the_heading():
    html = page(heading="<h1><ruby>漢字<rt>かんじ</rt></ruby>の勉強を始める</h1>")
    assert title(html)[0] == "漢字の勉強を始める"


def test_site_name_suffix_inside_the_h1_is_dropped():
    html = page(heading="<h1>Council passes school budget | BBC News</h1>", body=BODY_EN)
    assert title(html)[0] == "Council passes school budget"


def test_heading_is_kept_whole_when_the_page_declares_exactly_it():
    html = page(
        '<meta property="og:title" content="Storm warning - schools close early">',
        "<h1><span>Storm warning</span> - schools close early</h1>",
        body=BODY_EN,
    )
    assert title(html)[0] == "Storm warning - schools close early"


def test_site_banner_heading_backed_only_by_the_site_part_of_the_title_is_skipped():
    html = page(
        "<title>全市新增三条公交线路 - 某某市人民政府门户网站</title>",
        "<h1>某某市人民政府网站</h1>",
    )
    assert title(html) == ("全市新增三条公交线路", "title-tag")


def test_heading_that_is_the_site_name_is_skipped():
    html = page("<title>全市新增三条公交线路_新浪网</title>", "<h1>新浪网</h1>")
    assert title(html) == ("全市新增三条公交线路", "title-tag")


def test_white_space_inside_the_heading_is_collapsed():
    html = page(heading="<h1>\n  全市新增\u3000三条   公交线路\n</h1>")
    assert title(html)[0] == "全市新增 三条 公交线路"


def test_declared_title_gives_the_separator_the_heading_draws_with_markup():
    html = page(
        '<meta property="og:title" content="Flut-Ausschuss: Zwei Rücktritte und viele offene Fragen">',
        "<h1><span>Flut-Ausschuss</span> <span>Zwei Rücktritte und viele offene Fragen</span></h1>",
        body=BODY_EN,
    )
    assert title(html) == ("Flut-Ausschuss: Zwei Rücktritte und viele offene Fragen", "meta:og:title")


def test_a_kicker_the_declared_title_sets_off_as_a_part_of_its_own_is_dropped():
    html = page(
        '<meta property="og:title" content="Workout of the week | Pyramid sets with paddles">',
        "<h1><span class='post-title'><small>Workout of the week</small><br>"
        "Pyramid sets with paddles</span></h1>",
        body=BODY_EN,
    )
    assert title(html) == ("Pyramid sets with paddles", "heading:h1")


def test_a_kicker_part_set_off_by_a_spaced_dash_is_dropped_too():
    html = page(
        '<meta property="og:title" content="Future of work - &quot;We rearrange the deck chairs&quot;">',
        '<h1><span class="overline">Future of work</span>"We rearrange the deck chairs"</h1>',
        body=BODY_EN,
    )
    assert title(html) == ('"We rearrange the deck chairs"', "heading:h1")


def test_declared_title_with_other_punctuation_leaves_the_heading_as_printed():
    html = page(
        '<meta property="og:title" content="Alles hat seine Zeit...">',
        "<h1>Alles hat seine Zeit…</h1>",
        body=BODY_EN,
    )
    assert title(html) == ("Alles hat seine Zeit…", "heading:h1")


def test_of_two_h1_the_one_the_declared_title_states_wins_over_the_nearer():
    html = page(
        '<meta property="og:title" content="Harbour pipeline plan flagged by councils - Example Times">',
        "<h1>Harbour pipeline plan flagged by councils</h1><p>Photo</p><h1>… residents are worried</h1>",
        body=BODY_EN,
    )
    assert title(html) == ("Harbour pipeline plan flagged by councils", "heading:h1")


def test_one_shared_word_is_no_backing_for_a_second_h1():
    html = page(
        '<meta property="og:title" content="The most beautiful end of the world: Montauk">',
        "<h1>The most beautiful end of the world: Montauk</h1><div>intro</div><h1>Downtown Montauk</h1>",
        body=BODY_EN,
    )
    assert title(html)[0] == "The most beautiful end of the world: Montauk"


def test_guillemets_quoting_part_of_the_headline_are_not_separators():
    html = page(
        "<title>Le syndicat alerte sur la « gravité de la situation » | Le Quotidien</title>",
        "<h1>Le syndicat alerte sur la « gravité de la situation »</h1>",
        body=BODY_EN,
    )
    assert title(html)[0] == "Le syndicat alerte sur la « gravité de la situation »"


def test_a_closing_guillemet_of_a_quoted_headline_is_kept():
    html = page(
        '<meta property="og:title" content="Angriff: «Die Zurückhaltung hat mit den USA zu tun»">',
        "<h1><span>Krise im Osten</span> - «Die Zurückhaltung hat mit den USA zu tun»</h1>",
        body=BODY_EN,
    )
    assert title(html)[0] == "«Die Zurückhaltung hat mit den USA zu tun»"


def test_guillemet_breadcrumbs_still_split():
    parts = split_title("Startseite » Politik » Neue Regeln für Mieter")
    assert parts == ["Startseite", "Politik", "Neue Regeln für Mieter"]


def test_korean_bar_letter_separates_the_site_and_a_hyphened_section_goes_with_it():
    html = page(
        '<meta property="og:title" content="여야, 예산안 처리 합의…본회의 통과-정치ㅣ가상일보">'
        '<meta property="og:site_name" content="가상일보">',
        body=BODY_EN,
    )
    assert title(html) == ("여야, 예산안 처리 합의…본회의 통과", "meta:og:title")


def test_hyphen_inside_a_korean_headline_stays():
    html = page('<meta property="og:title" content="한-미 정상회담 서울서 열려">', body=BODY_EN)
    assert title(html)[0] == "한-미 정상회담 서울서 열려"


def test_a_short_heading_inside_a_longer_title_part_is_not_the_title():
    cleaned = clean_title("沿岸で震度5弱、各地に津波注意報 気象庁 | 架空新聞", site(), heading="津波注意報")
    assert cleaned == "沿岸で震度5弱、各地に津波注意報 気象庁"


def test_a_heading_that_is_a_whole_part_of_the_title_is_the_title():
    assert clean_title("Storm - schools close | Example Times", site(), heading="Storm - schools close") == (
        "Storm - schools close"
    )


def test_site_name_after_a_colon_at_the_end_is_dropped():
    html = page(
        '<meta property="og:title" content="沿岸で震度5弱、各地に津波注意報 気象庁：架空新聞デジタル">'
        '<meta property="og:site_name" content="架空新聞デジタル">',
    )
    assert title(html)[0] == "沿岸で震度5弱、各地に津波注意報 気象庁"


# --- rule 3: the cleaned <title> -------------------------------------------------------------------


def test_title_tag_loses_channel_and_site_parts():
    html = page("<title>城区新建两座口袋公园_本地新闻_新浪财经_新浪网</title>")
    assert title(html) == ("城区新建两座口袋公园", "title-tag")


def test_title_tag_with_spaced_dashes_loses_site_parts():
    html = page("<title>城区新建两座口袋公园 - 城市生活 - EXAMPLE.COM</title>")
    assert title(html)[0] == "城区新建两座口袋公园"


def test_title_tag_with_pipe_and_known_english_outlet():
    html = page("<title>Council passes school budget | BBC News</title>", body=BODY_EN)
    assert title(html)[0] == "Council passes school budget"


def test_title_part_matching_the_host_name_is_dropped():
    html = page("<title>Council passes school budget » Gazette</title>", body=BODY_EN)
    assert title(html, url="https://www.gazette.example/news/1")[0] == "Council passes school budget"


def test_og_site_name_part_is_dropped_from_the_title_tag():
    html = page(
        "<title>Sunny Valley Post: Council passes school budget</title>"
        "<meta property='og:site_name' content='Sunny Valley Post'>",
        body=BODY_EN,
    )
    # a colon splits only after a site name
    assert title(html)[0] == "Council passes school budget"


def test_colon_after_an_ordinary_word_stays_in_the_title():
    html = page("<title>Interview: the mayor on the school budget</title>", body=BODY_EN)
    assert title(html)[0] == "Interview: the mayor on the school budget"


def test_meta_title_part_agreeing_with_the_title_tag_wins_over_a_longer_description():
    html = page(
        "<title>小区新增充电桩</title>"
        '<meta property="og:title" content="小区新增充电桩 - '
        '据了解，新增的充电桩将于下月起向居民开放，收费标准与市区一致">'
    )
    assert title(html) == ("小区新增充电桩", "meta:og:title")


def test_title_that_is_only_the_site_name_is_still_returned_as_a_last_resort():
    html = page("<title>新浪网</title>")
    assert title(html) == ("新浪网", "title-tag")


def test_hyphen_inside_a_word_does_not_split():
    assert split_title("COVID-19 cases fall in e-mail survey") == ["COVID-19 cases fall in e-mail survey"]


def test_hyphen_between_numbers_in_a_chinese_title_does_not_split():
    assert split_title("某公司预计营收300万-500万") == ["某公司预计营收300万-500万"]


def test_chinese_bracket_tags_and_bare_hyphen_split():
    parts = split_title("【独家】城市更新计划出炉-地方频道-某某网")
    assert parts == ["独家", "城市更新计划出炉", "地方频道", "某某网"]


def test_keyword_list_part_of_the_title_is_dropped():
    html = page("<title>城区新建两座口袋公园-公园,绿地,城市更新,社区</title>")
    assert title(html)[0] == "城区新建两座口袋公园"


def test_hyphen_after_a_closing_quote_splits():
    assert split_title("城区新建“口袋公园”-某某网") == ["城区新建“口袋公园”", "某某网"]


def test_clean_title_prefers_the_part_agreeing_with_the_heading():
    ctx = site()
    assert clean_title("短讯_城市更新计划今日正式出炉_地方", ctx, heading="城市更新计划今日正式出炉") == (
        "城市更新计划今日正式出炉"
    )


def test_clean_title_of_only_site_names_is_none():
    assert clean_title("新浪网_新闻中心", site()) is None


# --- limits and absence ----------------------------------------------------------------------------


def test_no_title_anywhere_gives_not_found():
    html = "<html><body><div>" + BODY_ZH * 2 + "</div></body></html>"
    assert title(html) == (None, None)


def test_overlong_title_is_rejected():
    html = page("<title>" + "很长的标题" * (MAX_TITLE_CHARS // 5 + 1) + "</title>")
    assert title(html) == (None, None)


# --- banners, section names and arrows -----------------------------------------------------------------


def test_an_arrow_glyph_opening_a_heading_is_dropped():
    html = page("<title>Example // Jane Doe</title>", "<h2>[&gt; Jane Doe</h2>", body=BODY_EN)
    assert title(html)[0] == "Jane Doe"


def test_a_guillemet_quoting_the_whole_heading_is_kept():
    html = page(
        "<title>»Kein Geld mehr für die Miete« - Zeitung</title>",
        "<h1>»Kein Geld mehr für die Miete«</h1>",
        body=BODY_EN,
    )
    assert title(html)[0] == "»Kein Geld mehr für die Miete«"


def test_a_section_name_h1_yields_to_the_headline_heading_after_it():
    html = page(
        "<title>Example Club - News » The events of the last weeks</title>",
        "<h1>News</h1><div class='date'>2011-01-05</div><h2>The events of the last weeks</h2>",
        body=BODY_EN,
    )
    assert title(html) == ("The events of the last weeks", "heading:h2")


def test_an_h1_that_is_the_titles_headline_part_keeps_the_h2_below_it_out():
    html = page(
        "<title>Council passes school budget | Example Times</title>",
        "<h1>Council passes school budget</h1><h2>Parents welcome the plan</h2>",
        body=BODY_EN,
    )
    assert title(html)[0] == "Council passes school budget"


def test_an_h1_opening_with_the_sites_name_and_its_tagline_is_the_banner():
    html = page(
        "<title>Children and work » Helpers e.V.</title>",
        "<h1>Helpers e.V. Association for the support of working children</h1>",
        body=BODY_EN,
    )
    assert title(html) == ("Children and work", "title-tag")


def test_a_blog_name_after_a_colon_in_the_title_is_the_banner():
    html = page("<title>Plain muffin dough : Muffin Recipes</title>", "<h1>Muffin Recipes</h1>", body=BODY_EN)
    assert title(html) == ("Plain muffin dough", "title-tag")


def test_a_far_h1_that_is_the_titles_trailing_parts_is_the_banner_even_when_longer():
    far = "".join(f"<div class='menu'><p>Menu entry number {i}</p></div>" for i in range(45))
    html = page(
        "<title>Enchufla Steps - Salsa Steps - Rueda in Berlin</title>",
        f"<h1>Salsa Steps - Rueda in Berlin</h1>{far}",
        body=BODY_EN,
    )
    assert title(html) == ("Enchufla Steps", "title-tag")


def test_an_h1_in_the_breadcrumb_trail_yields_to_the_h2_headline_the_declared_title_states():
    # the trail's last crumb is an <h1> (the search engines' copy); the reader sees the <h2>, a kicker
    # and the headline og:title declares
    crumbs = (
        "<nav class='breadcrumb'><a href='/'>Home</a> <a href='/politics'>Politics</a>"
        " <h1>Budget row: Council delays the vote on school funding</h1></nav>"
        "<h2><span class='kicker'>Budget row</span> Council puts off school funding vote to March</h2>"
    )
    html = page(
        "<meta property='og:title' content='Council puts off school funding vote to March'>",
        heading=crumbs,
        body=BODY_EN,
    )
    assert title(html) == ("Council puts off school funding vote to March", "heading:h2")


def test_a_breadcrumb_h1_the_declared_title_states_exactly_stays():
    crumbs = (
        "<ol class='crumbs'><li><a href='/'>Home</a></li>"
        "<li><h1>Council delays the school vote</h1></li></ol>"
        "<h2>Council puts off the school funding vote</h2>"
    )
    html = page(
        "<meta property='og:title' content='Council delays the school vote | Example Times'>"
        "<meta property='og:site_name' content='Example Times'>",
        heading=crumbs,
        body=BODY_EN,
    )
    assert title(html) == ("Council delays the school vote", "heading:h1")


def test_an_h2_inside_the_text_is_no_headline_for_a_breadcrumb_h1():
    crumbs = "<ol class='crumbs'><li><a href='/'>Home</a></li><li><h1>What is a heat pump?</h1></li></ol>"
    body = BODY_EN + "<h2>What is a heat pump worth?</h2>" + BODY_EN
    html = page("<meta property='og:title' content='What is a heat pump worth to you?'>", crumbs, body)
    assert title(html)[1] == "heading:h1"


# --- site names the page itself spells out, spacing and breadcrumbs ----------------------------------


def test_a_site_name_meta_that_repeats_the_title_is_no_site_name():
    declared = "Council passes school budget - Example Sport"
    html = page(
        f'<meta name="application-name" content="{declared}"><meta property="og:title" content="{declared}">'
        f"<title>{declared}</title>",
        "<h1>Council passes school budget</h1>",
        body=BODY_EN,
    )
    assert title(html) == ("Council passes school budget", "heading:h1")


def test_a_site_name_meta_that_repeats_the_title_names_the_site_in_its_last_part():
    declared = "Council passes school budget | Example Weekly"
    html = page(f'<meta property="og:site_name" content="{declared}"><title>{declared}</title>', body=BODY_EN)
    assert title(html) == ("Council passes school budget", "title-tag")


def test_a_last_title_part_opening_with_the_hosts_name_is_the_site():
    html = page("<title>Magic Cleaning | Exampleshop ♥ Magazin</title>", body=BODY_EN)
    assert title(html, "https://www.exampleshop.de/magazin/cleaning.html")[0] == "Magic Cleaning"


def test_a_headline_opening_with_the_hosts_name_is_kept():
    html = page("<title>Exampleshop opens a second store in the old town | Local News</title>", body=BODY_EN)
    url = "https://www.exampleshop.de/news/store.html"
    assert title(html, url)[0] == "Exampleshop opens a second store in the old town"


def test_a_site_tagline_glued_onto_the_headline_in_the_title_is_cut_off():
    tagline = "Your guide to local firms"
    html = page(f"<title>Truck wash on the A31{tagline} | {tagline}</title>", body=BODY_EN)
    assert title(html)[0] == "Truck wash on the A31"


def test_the_declared_spacing_wins_over_a_heading_glued_by_markup():
    html = page(
        '<meta property="og:title" content="Council passes: the school budget is set">',
        '<h1><span class="kicker">Council passes:</span>the school budget is set</h1>',
        body=BODY_EN,
    )
    assert title(html) == ("Council passes: the school budget is set", "meta:og:title")


def test_the_declared_spacing_wins_when_the_declared_title_carries_a_site_part():
    html = page(
        '<meta property="og:title" content="Council passes: the school budget is set - Example Times">',
        '<h1><span class="kicker">Council passes:</span>the school budget is set</h1>',
        body=BODY_EN,
    )
    assert title(html) == ("Council passes: the school budget is set", "meta:og:title")


def test_a_heading_spaced_like_the_declared_title_stays_the_heading():
    html = page(
        '<meta property="og:title" content="Council passes: the school budget is set">',
        "<h1>Council passes: the school budget is set</h1>",
        body=BODY_EN,
    )
    assert title(html) == ("Council passes: the school budget is set", "heading:h1")


def test_a_breadcrumb_trail_as_the_heading_gives_its_last_piece():
    html = page(
        "<title>城区新建两座口袋公园 - 某某健康网</title>",
        "<h1><a class='crumb' href='/'>某某健康网</a>&nbsp;〉<a class='crumb' href='/news'>火线新闻</a>"
        "&nbsp;〉城区新建两座口袋公园</h1>",
    )
    assert title(html) == ("城区新建两座口袋公园", "heading:h1")


def test_a_kicker_before_a_colon_is_no_breadcrumb():
    html = page(
        "<title>Winter colds on the rise - Example Times</title>",
        "<h1>Health: Winter colds on the rise</h1>",
        body=BODY_EN,
    )
    assert title(html)[0] == "Health: Winter colds on the rise"


def test_markup_left_in_a_declared_title_is_taken_out():
    html = page('<meta name="ArticleTitle" content="城区新建两座口袋公园<div>——市政府办公会议纪要</div>">')
    assert title(html) == ("城区新建两座口袋公园", "meta:articletitle")


# --- the separators' pattern -----------------------------------------------------------------------


def _first_characters(items: list) -> list | None:
    """What a match of the parsed regex ``items`` can start with, as ``re._parser`` items (literals,
    ranges, categories); None when it can start with anything or match nothing at all."""
    from re import _constants as c

    firsts: list = []
    for op, arg in items:
        if op is c.ASSERT or op is c.ASSERT_NOT or op is c.AT:
            continue  # zero-width: the next item consumes the first character
        if op is c.LITERAL:
            return [*firsts, (op, arg)]
        if op is c.IN and all(o in (c.LITERAL, c.RANGE, c.CATEGORY) for o, _ in arg):
            return [*firsts, *arg]
        if op in (c.MAX_REPEAT, c.MIN_REPEAT):
            low, _, sub = arg
            inner = _first_characters(list(sub))
            if inner is None:
                return None
            firsts += inner
            if low > 0:
                return firsts
            continue  # optional: what follows may come first
        return None
    return None


def test_every_title_separator_starts_with_a_character_the_pattern_looks_ahead_for():
    import re
    from re import _constants as c
    from re import _parser

    from newscrawl.extract.metadata.title import SEPARATOR_STARTS, _data_lines

    starts = re.compile(f"[{SEPARATOR_STARTS}]")
    for line in _data_lines("title_separators.txt"):
        firsts = _first_characters(list(_parser.parse(line)))
        assert firsts is not None, line
        for op, arg in firsts:
            if op is c.LITERAL:
                assert starts.match(chr(arg)), (line, chr(arg))
            elif op is c.RANGE:
                assert all(starts.match(chr(k)) for k in range(arg[0], arg[1] + 1)), line
            else:
                assert arg is c.CATEGORY_SPACE and all(starts.match(s) for s in " \t\n\r\f\v\xa0\u3000"), line


def test_splitting_looks_ahead_without_changing_the_parts():
    assert split_title("Headline - Site") == ["Headline", "Site"]
    assert split_title("标题_频道_网站") == ["标题", "频道", "网站"]
    assert split_title("COVID-19 by e-mail | Site") == ["COVID-19 by e-mail", "Site"]
    assert split_title("제목-정치ㅣ신문") == ["제목-정치", "신문"]
