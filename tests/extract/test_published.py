"""The publish-time chain (newscrawl.extract.metadata.published), one behaviour per test."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from newscrawl.extract import extract
from newscrawl.extract.metadata.dates import find_dates, parse_value

BODY = "<p>" + "这是一段新闻正文，讲述了本地发生的一件事情。" * 12 + "</p>" * 1
SHANGHAI_NOON = datetime(2021, 5, 5, 12, 0, tzinfo=timezone(timedelta(hours=8)))


def page(head: str = "", top: str = "", bottom: str = "", title: str = "标题") -> str:
    return (
        f"<html><head>{head}</head><body><div class='nav'>首页 新闻</div>"
        f"<h1>{title}</h1><div class='info'>{top}</div>"
        f"<div class='content'>{BODY}{BODY}</div><div class='foot'>{bottom}</div></body></html>"
    )


def published(html: str, **kw) -> tuple[str | None, str | None]:
    """The publish time and its rule, read as a crawl of a site in Asia/Shanghai reads it (the zone tests
    below pass their own ``timezone``)."""
    kw.setdefault("timezone", "Asia/Shanghai")
    r = extract(html, **kw)
    return r.published_at, r.sources.get("published_at")


# --- meta, JSON-LD, <time> --------------------------------------------------------------------------


def test_meta_published_time_keeps_the_pages_offset():
    html = page('<meta property="article:published_time" content="2021-03-05T23:30:00-05:00">')
    assert published(html) == ("2021-03-05T23:30:00-05:00", "meta:article:published_time")


def test_meta_without_offset_is_read_in_the_sites_zone():
    html = page('<meta name="PubDate" content="2022-02-11 09:52">')
    assert published(html) == ("2022-02-11T09:52:00+08:00", "meta:pubdate")


def test_timezone_argument_applies_to_values_without_offset():
    html = page('<meta name="publishdate" content="2021-03-05 10:00">')
    assert published(html, timezone="Europe/Berlin")[0] == "2021-03-05T10:00:00+01:00"


def test_no_zone_is_invented_for_a_page_that_implies_none():
    html = page('<meta name="publishdate" content="2021-03-05 10:00">')
    assert published(html, timezone=None)[0] == "2021-03-05T10:00:00"


def test_a_date_alone_stays_a_date():
    html = page('<meta name="publishdate" content="2022-02-13">')
    assert published(html)[0] == "2022-02-13"


def test_stronger_meta_key_wins():
    head = (
        '<meta name="dc.date" content="2020-01-01">'
        '<meta property="og:published_time" content="2021-06-07">'
    )
    assert published(page(head)) == ("2021-06-07", "meta:og:published_time")


def test_a_date_near_the_title_beats_the_generic_date_meta():
    html = page('<meta name="date" content="2020-04-29T11:52:23+02:00">', top="28.04.2020 18:00 Uhr")
    assert published(html) == ("2020-04-28T18:00:00+08:00", "text-near-title")


def test_unparsable_meta_falls_through_to_the_next_rule():
    html = page('<meta name="pubdate" content="soon">', top="2021-04-03 10:00")
    assert published(html)[0] == "2021-04-03T10:00:00+08:00"


def test_generic_date_meta_comes_after_the_time_element():
    html = page('<meta name="date" content="2022-01-26T14:32:06+02:00">', top='<time datetime="2022-01-21">')
    assert published(html) == ("2022-01-21", "time-element")


def test_utc_time_is_written_with_the_sites_offset_when_the_page_gives_it():
    head = (
        '<meta property="article:published_time" content="2023-11-09T06:35:29+00:00">'
        '<meta name="parsely-pub-date" content="2023-11-08T22:35:29-08:00">'
    )
    assert published(page(head))[0] == "2023-11-08T22:35:29-08:00"


def test_json_ld_date_published_in_graph():
    ld = (
        '{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"x"},'
        '{"@type":"NewsArticle","datePublished":"2020-11-26T08:04:00+08:00"}]}'
    )
    html = page(f'<script type="application/ld+json">{ld}</script>')
    assert published(html) == ("2020-11-26T08:04:00+08:00", "json-ld:datePublished")


def test_json_ld_article_date_wins_over_other_objects():
    ld = (
        '[{"@type":"Organization","datePublished":"2001-01-01"},'
        '{"@type":"BlogPosting","datePublished":"2019-07-08"}]'
    )
    html = page(f'<script type="application/ld+json">{ld}</script>')
    assert published(html)[0] == "2019-07-08"


def test_json_ld_date_created_is_a_weaker_fallback():
    ld = '{"@type":"Article","dateCreated":"2018-02-03T04:05:06Z"}'
    html = page(f'<script type="application/ld+json">{ld}</script>')
    assert published(html) == ("2018-02-03T12:05:06+08:00", "json-ld:dateCreated")


def test_time_element():
    html = page(top='<time datetime="2019-10-30T08:00:00+02:00">30. Oktober</time>')
    assert published(html) == ("2019-10-30T08:00:00+02:00", "time-element")


def test_time_element_after_the_main_text_is_not_the_publish_time():
    comments = '<div class="comments"><time datetime="2019-11-02T08:00:00+02:00">2 Nov</time></div>'
    html = page(top="2019-10-30", bottom=comments)
    assert published(html) == ("2019-10-30", "text-near-title")


def test_time_element_marked_updated_is_skipped():
    html = page(top='<time class="updated" datetime="2019-11-02">2 Nov</time> 2019-10-30')
    assert published(html)[0] == "2019-10-30"


def test_time_element_in_an_embedded_post_is_skipped():
    quote = (
        '<blockquote class="instagram-media"><p>A post shared by someone '
        '<time datetime="2018-03-12T19:30:12+00:00">Mar 12, 2018</time></p></blockquote>'
    )
    body = BODY.replace("</p>", f"</p>{quote}", 1)
    html = page(top="Dienstag, 29. Januar 2019").replace(BODY + BODY, body + BODY)
    assert published(html) == ("2019-01-29", "text-near-title")


def test_time_element_showing_another_day_than_its_attribute_gives_the_shown_day():
    html = page(top='<time datetime="2019-07-03T10:18:46Z">Publié le 29 juin 2019</time>')
    assert published(html) == ("2019-06-29", "time-element")


def test_time_element_text_a_day_off_its_attribute_keeps_the_attribute():
    # 23:30 UTC on the 28th is the 29th in the reader's zone: the two only differ by the zone
    html = page(top='<time datetime="2019-06-28T23:30:00+00:00">29. Juni 2019</time>')
    assert published(html, timezone=None)[0] == "2019-06-28T23:30:00+00:00"


def test_structured_values_disagreeing_on_the_day_are_settled_by_the_day_shown():
    head = (
        '<meta property="article:published_time" content="1651626439">'  # 2022-05-04T01:07:19Z
        '<script type="application/ld+json">'
        '{"@type":"NewsArticle","datePublished":"2022-05-04T03:38:19.000Z"}</script>'
    )
    html = page(head, top="04 de mayo de 2022")
    got = published(html, timezone="America/Argentina/Buenos_Aires")
    assert got == ("2022-05-04T00:38:19-03:00", "json-ld:datePublished")


def test_the_metas_own_value_stays_without_a_shown_day():
    head = (
        '<meta property="article:published_time" content="1651626439">'
        '<script type="application/ld+json">'
        '{"@type":"NewsArticle","datePublished":"2022-05-04T03:38:19.000Z"}</script>'
    )
    got = published(page(head), timezone="America/Argentina/Buenos_Aires")
    assert got == ("2022-05-03T22:07:19-03:00", "meta:article:published_time")


def test_a_date_alone_meta_gives_way_to_json_ld_time_on_the_day_shown():
    head = (
        '<meta name="datepublished" content="2019-10-18">'
        '<script type="application/ld+json">'
        '{"@type":"NewsArticle","datePublished":"2019-10-19T03:00:00.000Z"}</script>'
    )
    html = page(head, top="Bettina Kugler 19.10.2019, 05:00 Uhr")
    assert published(html, timezone="Europe/Zurich") == ("2019-10-19T05:00:00+02:00", "json-ld:datePublished")


def test_a_date_alone_does_not_win_by_the_day_shown():
    # the day shown is the last edit's, and a bare datepublished repeats it: the precise first value stays
    head = (
        '<meta property="article:published_time" content="2017-04-12T18:33:59+02:00">'
        '<meta name="datepublished" content="2020-02-19">'
    )
    html = page(head, top="Le 19 février 2020")
    got = published(html, timezone="Europe/Paris")
    assert got == ("2017-04-12T18:33:59+02:00", "meta:article:published_time")


def test_a_time_element_gives_way_to_a_generic_date_meta_on_the_day_shown():
    # the itemprop <time> holds the entry time the evening before; the page and dcterms.date say the 28th
    head = '<meta name="dcterms.date" content="2021-10-28T13:21:30+02:00">'
    top = '<time itemprop="datePublished" datetime="2021-10-27T20:35:36+02:00"></time>Hamburg, 28.10.2021'
    got = published(page(head, top=top), timezone="Europe/Berlin")
    assert got == ("2021-10-28T13:21:30+02:00", "meta:dcterms.date")


def test_a_time_element_keeps_its_day_when_the_page_shows_it():
    head = '<meta name="dcterms.date" content="2021-10-28T13:21:30+02:00">'
    top = '<time itemprop="datePublished" datetime="2021-10-27T20:35:36+02:00"></time>Hamburg, 27.10.2021'
    got = published(page(head, top=top), timezone="Europe/Berlin")
    assert got == ("2021-10-27T20:35:36+02:00", "time-element")


def test_a_generic_date_meta_holding_the_modified_time_settles_nothing():
    # the page shows its last edit's day; the "date" meta is that edit's time, not another publish value
    head = (
        '<meta property="article:published_time" content="2020-01-03T09:48:24Z">'
        '<meta property="article:modified_time" content="2020-01-06T09:22:36Z">'
        '<meta name="date" content="2020-01-06T09:22:36Z">'
    )
    got = published(page(head, top="Monday, 6 January 2020"), timezone="Europe/London")
    assert got == ("2020-01-03T09:48:24+00:00", "meta:article:published_time")


def test_a_time_gives_way_to_another_publish_time_the_page_shows_that_day():
    head = (
        '<meta property="article:published_time" content="2025-01-28T02:39:19+00:00">'
        '<script type="application/ld+json">'
        '{"@type":"NewsArticle","datePublished":"2025-01-28T11:30:00+00:00"}</script>'
    )
    got = published(page(head, top="January 28, 2025 11:30 am"), timezone="Europe/London")
    assert got == ("2025-01-28T11:30:00+00:00", "json-ld:datePublished")


def test_a_time_stays_when_the_page_shows_a_time_within_the_hour():
    head = (
        '<meta property="article:published_time" content="2025-01-28T11:00:00+00:00">'
        '<script type="application/ld+json">'
        '{"@type":"NewsArticle","datePublished":"2025-01-28T11:30:00+00:00"}</script>'
    )
    got = published(page(head, top="January 28, 2025 11:30 am"), timezone="Europe/London")
    assert got == ("2025-01-28T11:00:00+00:00", "meta:article:published_time")


def test_the_same_instant_with_two_offsets_is_no_disagreement():
    head = (
        '<meta property="article:published_time" content="2023-11-09T06:35:29+00:00">'
        '<meta name="sailthru.date" content="2023-11-08T22:35:29-08:00">'
    )
    html = page(head, top="Posted: Nov 8, 2023 / 10:35 PM PST")
    assert published(html, timezone=None)[0] == "2023-11-08T22:35:29-08:00"


def test_a_date_alone_takes_the_time_shown_for_that_day_under_the_title():
    html = page('<meta name="publishdate" content="2022-02-13">', top="2022-02-13 07:48 来源：新华网")
    assert published(html) == ("2022-02-13T07:48:00+08:00", "meta:publishdate+text-near-title")


def test_a_dateline_with_a_bar_between_date_and_time_gives_the_time():
    html = page(top="Do 25.04.24 | 14:07 Uhr", title="Eine Überschrift")
    assert published(html, timezone="Europe/Berlin") == ("2024-04-25T14:07:00+02:00", "text-near-title")


def test_a_date_alone_keeps_no_time_shown_for_another_day():
    html = page('<meta name="publishdate" content="2022-02-13">', top="2022-02-12 07:48 来源：新华网")
    assert published(html) == ("2022-02-13", "meta:publishdate")


# --- seed 003: text near the title and the main text ---------------------------------------------------


def test_a_date_set_off_in_the_title_beats_a_photo_caption_under_the_heading():
    head = "<title>Hafenstreik: Was jetzt auf Pendler zukommt | Wirtschaft | Kurier | 14.03.2023</title>"
    html = page(head, top="<p>Ein Kran im Hafen am ersten Streiktag, 9. März 2023</p>")
    assert published(html, timezone=None) == ("2023-03-14", "title")


@pytest.mark.parametrize(
    ("og_title", "day"),
    [
        ("Neue Brücke über die Saale eröffnet – Kurier – 02.02.2024", "2024-02-02"),
        ("Stadtrat beschließt den Haushalt : 15.05.2023, 09.12 Uhr", "2023-05-15"),
    ],
)
def test_a_date_set_off_in_og_title(og_title, day):
    head = f'<meta property="og:title" content="{og_title}">'
    assert published(page(head), timezone=None) == (day, "title")


@pytest.mark.parametrize(
    "title",
    [
        "Lagebericht vom 03.05.2021 – Ein Blog",  # the day the page is about
        "Kreismeisterschaft Jugend B, Neustadt, 7.6.2009 | Turnverein",  # the day of the event
        "11.11.2022",  # a title that is a date alone
    ],
)
def test_a_date_inside_a_title_part_is_not_read(title):
    assert published(page(f"<title>{title}</title>"), timezone=None)[1] != "title"


def test_labelled_chinese_date_under_the_title():
    html = page(top="来源：新华网 发布时间：2010年12月15日 08:30")
    assert published(html) == ("2010-12-15T08:30:00+08:00", "text-near-title")


def test_numeric_date_with_seconds():
    assert published(page(top="2010-12-15 08:30:05"))[0] == "2010-12-15T08:30:05+08:00"


def test_slashed_date():
    assert published(page(top="2010/12/15"))[0] == "2010-12-15"


def test_chinese_numerals():
    assert published(page(top="二〇一〇年十二月十五日"))[0] == "2010-12-15"


def test_chinese_numerals_with_ling_and_twenty_one():
    assert published(page(top="二零一九年一月二十一日"))[0] == "2019-01-21"


def test_xiawu_is_afternoon():
    assert published(page(top="2010年12月15日 下午02:26"))[0] == "2010-12-15T14:26:00+08:00"


def test_publish_label_beats_an_earlier_update_label():
    html = page(top="更新时间：2021-01-02 10:00 发布时间：2021-01-01 09:00")
    assert published(html)[0] == "2021-01-01T09:00:00+08:00"


def test_date_after_the_main_text():
    html = page(bottom="（本文发表于 2005年3月15日 22:36）")
    assert published(html) == ("2005-03-15T22:36:00+08:00", "text-near-body-end")


def test_english_date_near_the_title():
    html = page(top="Published 3 March 2021", title="A headline")
    assert published(html)[0] == "2021-03-03"


def test_english_date_with_time_and_zone_name():
    html = page(top="Mar 3, 2021 10:00 PM EST")
    assert published(html)[0] == "2021-03-03T22:00:00-05:00"


def test_german_date():
    assert published(page(top="Veröffentlicht am 3. März 2021"))[0] == "2021-03-03"


def test_day_first_numeric_date():
    assert published(page(top="Stand: 05.03.2021, 14:15 Uhr"))[0] == "2021-03-05T14:15:00+08:00"


def test_day_first_date_with_a_two_digit_year():
    assert published(page(top="28.01.22 / 0 Kommentare"))[0] == "2022-01-28"


def test_day_first_date_with_bars():
    assert published(page(top="26 | 01 | 2022 Schweiz"))[0] == "2022-01-26"


def test_relative_hours_with_a_reference():
    html = page(top="3小时前 来源：某网")
    assert published(html, reference_time=SHANGHAI_NOON)[0] == "2021-05-05T09:00:00+08:00"


def test_yesterday_with_time_and_a_reference():
    html = page(top="昨天 08:30")
    assert published(html, reference_time=SHANGHAI_NOON)[0] == "2021-05-04T08:30:00+08:00"


def test_labelled_two_digit_year_date():
    assert published(page(top="发布时间：18-03-08 23:16"))[0] == "2018-03-08T23:16:00+08:00"


def test_labelled_month_day_takes_the_references_year():
    html = page(top="发布时间：05-01 09:00")
    assert published(html, reference_time=SHANGHAI_NOON)[0] == "2021-05-01T09:00:00+08:00"


def test_labelled_month_day_after_the_reference_is_last_year():
    html = page(top="发布时间：10-08 12:00")
    assert published(html, reference_time=SHANGHAI_NOON)[0] == "2020-10-08T12:00:00+08:00"


def test_labelled_month_day_needs_a_reference():
    assert published(page(top="发布时间：10-08 12:00")) == (None, None)


def test_relative_forms_are_ignored_without_a_reference():
    assert published(page(top="3小时前 来源：某网")) == (None, None)


def test_invalid_calendar_date_is_rejected():
    assert published(page(top="2019-02-30")) == (None, None)


def test_date_after_the_reference_is_rejected():
    html = page(top="发布时间：2021-05-09")
    assert published(html, reference_time=SHANGHAI_NOON) == (None, None)


def test_year_before_1990_is_rejected():
    assert published(page('<meta name="publishdate" content="1985-01-01">')) == (None, None)


def test_without_h1_the_element_opening_the_title_is_the_heading():
    html = (
        "<html><head><title>市场回暖带动消费增长_财经频道_某某网</title></head><body>"
        "<table><tr><td><font size=4>市场回暖带动消费增长</font></td></tr>"
        "<tr><td>2005-04-27 14:32 来源：某报</td></tr>"
        f"<tr><td>{BODY}{BODY}</td></tr></table></body></html>"
    )
    assert published(html) == ("2005-04-27T14:32:00+08:00", "text-near-title")


def test_no_heading_searches_from_the_start_of_the_body():
    html = "<html><body><p>2004-12-10 来源：某报</p><p>" + "正文" * 20 + "</p></body></html>"
    assert published(html)[0] == "2004-12-10"


# --- URL, script, page text, modified -------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/news/2021-03-05/story.html",
        "https://example.com/news/20210305/n1234.shtml",
        "https://example.com/2021/03/05/story/",
        "https://example.com/zwyw/202103/t20210305_1.html",
        "https://example.com/meldungen/05-03-2021",
    ],
)
def test_date_in_the_url(url):
    assert published(page(), url=url) == ("2021-03-05", "url")


def test_url_day_overrules_a_utc_meta_time_one_day_later():
    html = page('<meta property="article:published_time" content="2023-11-09T05:30:00+00:00">')
    url = "https://example.com/2023/11/08/story/"
    assert published(html, url=url) == ("2023-11-08", "url")


def test_url_day_does_not_overrule_a_meta_time_with_a_local_offset():
    html = page('<meta property="article:published_time" content="2023-11-09T05:30:00+01:00">')
    url = "https://example.com/2023/11/08/story/"
    assert published(html, url=url)[1] == "meta:article:published_time"


def test_url_day_does_not_overrule_a_utc_meta_time_whose_day_the_page_shows():
    # 16:34 UTC on June 30 is July 1 in Sydney, the URL's day; the page shows June 30 under its heading
    head = '<meta property="article:published_time" content="2026-06-30T16:34:54Z">'
    url = "https://example.com/2026/07/01/story/"
    got = published(page(head, top="June 30, 2026"), url=url, timezone=None)
    assert got == ("2026-06-30T16:34:54+00:00", "meta:article:published_time")


def test_url_day_over_a_year_before_the_metadata_wins_on_a_re_dated_page():
    html = page('<meta name="datepublished" content="2019-06-17T18:28:00+0200">')
    url = "https://example.com/home/2017/7/12/story"
    assert published(html, url=url, timezone="Europe/Berlin") == ("2017-07-12", "url")


def test_url_day_a_week_before_the_metadata_does_not_win():
    # a URL may carry the draft's day: the publish value a week later stands
    html = page('<meta property="article:published_time" content="2022-05-08T06:00:00-05:00">')
    url = "https://example.com/sociedad/2022/05/02/story/"
    assert published(html, url=url)[0] == "2022-05-08T06:00:00-05:00"


def test_url_day_overrules_a_date_found_in_the_text():
    url = "https://example.com/2019/10/22/story/"
    assert published(page(top="2009-04-11"), url=url) == ("2019-10-22", "url")


#: a menu of short links, more text than the rules near the heading read
FILLER = "<div class='menu'>" + "".join(f"<a>Rubrik Nummer {n}</a> " for n in range(30)) + "</div>"


def teaser_page(*teasers: tuple[str, str]) -> str:
    """A page whose list of article teasers (headline, day) stands far from its heading and its text."""
    items = "".join(f"<li><a>{title}</a> <span>{day}</span></li>" for title, day in teasers)
    return (
        f"<html><body><ul class='teasers'>{items}</ul>{FILLER}<h1>Achtsam durch die Krise</h1>"
        f"<div class='content'>{BODY}{BODY}</div></body></html>"
    )


def test_page_text_prefers_the_date_of_the_pages_own_teaser():
    html = teaser_page(("Ein anderer Text", "01. Juli 2020"), ("Achtsam durch die Krise", "18. März 2020"))
    assert published(html, timezone=None) == ("2020-03-18", "page-text")


def test_page_text_without_the_pages_own_teaser_takes_the_first_date():
    html = teaser_page(("Ein anderer Text", "01. Juli 2020"), ("Noch ein Text", "18. März 2020"))
    assert published(html, timezone=None) == ("2020-07-01", "page-text")


def test_date_only_in_a_script_variable():
    html = page("<script>var pubtime = '2021-03-05 10:00:00';</script>")
    assert published(html) == ("2021-03-05T10:00:00+08:00", "script")


def test_created_at_in_embedded_json_keeps_its_offset():
    html = page('<script>window.__DATA__ = {"created_at":"2013-02-16T04:36:36-05:00"};</script>')
    assert published(html) == ("2013-02-16T04:36:36-05:00", "script")


def test_unix_time_in_a_wechat_script_is_read_in_the_zone():
    html = page('<script>var nickname = "x";\n    var ct = "1581517074";</script>')
    assert published(html) == ("2020-02-12T22:17:54+08:00", "script")


def test_a_script_date_alone_gives_way_to_the_instant_of_that_day():
    # WeChat's page script: the day under one key, the Unix time under another
    script = '<script>var publish_time = "2020-02-12" || "";\n    var ct = "{}";</script>'
    assert published(page(script.format(1581517074))) == ("2020-02-12T22:17:54+08:00", "script")
    # an instant of another day is something else's time: the date stays
    assert published(page(script.format(1591517074))) == ("2020-02-12", "script")


def test_a_release_time_in_page_data_not_the_re_release():
    html = page(
        '<script>var data = {"reDeployDt":"2025.03.04 09:30","deployDt":"2025.03.04 07:15"};</script>'
    )
    assert published(html, timezone="Asia/Seoul") == ("2025-03-04T07:15:00+09:00", "script")


def test_a_release_time_in_a_data_attribute_not_the_re_release():
    html = page(top='<div data-re-deploy-dt="2025.03.04 09:30" data-deploy-dt="2025.03.04 07:15"></div>')
    assert published(html, timezone="Asia/Seoul") == ("2025-03-04T07:15:00+09:00", "script")


def test_modified_time_is_the_last_resort():
    html = page('<meta property="article:modified_time" content="2021-03-06T10:00:00+00:00">')
    assert published(html) == ("2021-03-06T18:00:00+08:00", "meta-modified:article:modified_time")


def test_no_date_anywhere():
    assert published(page()) == (None, None)


# --- the parsers on their own ---------------------------------------------------------------------------


def test_dateparser_misparse_of_spaced_chinese_date_is_avoided():
    assert parse_value("2019 年 10 月 30 日") == datetime(2019, 10, 30)


def test_dateparser_answer_needs_a_written_year():
    assert parse_value("vor 3 Tagen") is None


def test_month_precision_value_is_not_a_day():
    assert parse_value("2017/01") is None


def test_month_precision_meta_falls_through_to_a_full_date():
    head = '<meta name="citation_date" content="2017/01"><meta name="dc.date" content="2017-01-30">'
    assert published(page(head)) == ("2017-01-30", "meta:dc.date")


def test_dateparser_reads_a_written_month_in_another_language():
    assert parse_value("الأربعاء، 07 أكتوبر 2020 - 12:09 م") == datetime(2020, 10, 7, 12, 9)


def test_e_mail_style_date():
    assert parse_value("Fri, 05 Mar 2021 10:00:00 GMT").isoformat() == "2021-03-05T10:00:00+00:00"


def test_find_dates_marks_labels():
    hits = find_dates("更新时间：2021-01-02 发布时间：2021-01-01 © 2021-01-03")
    assert [h.label for h in hits] == [-2, 1, -1]


# --- zones and precision (issue 12) ----------------------------------------------------------------------

UTC_EVENING = datetime(2021, 5, 4, 20, 0, tzinfo=UTC)  # 04:00 on 5 May in Shanghai


def zoned(html: str, **kw) -> tuple[str | None, str | None]:
    """The publish time and where its offset came from, the zone inferred when none is given."""
    r = extract(html, **kw)
    return r.published_at, r.sources.get("published_at_zone")


def en_page(head: str = "", top: str = "", lang: str = "en") -> str:
    return page(head, top).replace("<html>", f'<html lang="{lang}">', 1)


def test_xinhuas_year_day_and_time_in_spans_of_their_own_date_the_page():
    info = (
        "<div class='header-time left'><span class='year'><em>2026</em></span>"
        "<span class='day'><em>11</em>/<em>24</em></span><span class='time'>10:32:15</span></div>"
    )
    assert published(page(top=info)) == ("2026-11-24T10:32:15+08:00", "text-near-title")
    # a year before a fraction without a time is no date
    assert published(page(top="<p>2026 11/24</p>")) == (None, None)


@pytest.mark.parametrize(
    ("top", "expected"),
    [
        ("Updated 10:42 AM EST, Tue November 24, 2020", "2020-11-24T10:42:00-05:00"),  # CNN
        ("Published 10:02 a.m. ET Nov. 19, 2019", "2019-11-19T10:02:00-05:00"),  # Gannett
        ("08:39, 06 Jan 2020", "2020-01-06T08:39:00"),  # Reach plc: a time and a date, no zone
    ],
)
def test_a_clock_time_written_before_its_date_is_kept(top: str, expected: str):
    assert extract(en_page(top=top)).published_at == expected


def test_a_national_encoding_gives_the_zone_when_language_and_host_do_not():
    # no lang, no .cn host: GBK bytes are a mainland page, Shift_JIS a Japanese one; UTF-8 says nothing
    html = page(top="发布时间：2021-03-05 10:00").replace("<head>", "<head><meta charset='gbk'>")
    url = "https://news.example.com/a.html"
    r = extract(html.encode("gbk"), url=url)
    assert (r.published_at, r.sources["published_at_zone"]) == (
        "2021-03-05T10:00:00+08:00", "charset gb18030: Asia/Shanghai"
    )
    undeclared = extract(html.replace("<meta charset='gbk'>", "").encode("gbk"), url=url)
    assert undeclared.published_at == "2021-03-05T10:00:00+08:00"  # read as GB18030 by detection
    utf8 = html.replace("gbk", "utf-8").encode("utf-8")
    assert extract(utf8, url=url).published_at == "2021-03-05T10:00:00"
    sentence = "<p>市役所は新しい庁舎で業務を始めた。初日は窓口に多くの市民が訪れ、職員が案内に追われた。</p>"
    ja = (
        "<html><head><meta charset='shift_jis'></head><body><h1>新庁舎で業務開始</h1>"
        f"<div class='info'>配信日時：2021-03-05 10:00</div>{sentence * 4}</body></html>"
    )
    assert extract(ja.encode("cp932"), url=url).published_at == "2021-03-05T10:00:00+09:00"
    # a site's zone comes first
    assert extract(html.encode("gbk"), url=url, timezone="Europe/Berlin").published_at.endswith("+01:00")


def test_an_offset_on_the_page_beats_a_value_without_one():
    head = (
        '<meta property="article:published_time" content="2024-09-03T04:03:19">'
        '<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2024-09-03T04:03:19Z"}'
        "</script>"
    )
    assert zoned(en_page(head)) == ("2024-09-03T04:03:19+00:00", "page")


def test_a_time_without_offset_on_a_page_implying_no_zone_stays_naive():
    head = '<meta property="article:published_time" content="2024-09-03T04:03:19">'
    assert zoned(en_page(head)) == ("2024-09-03T04:03:19", None)


def test_a_date_alone_stays_a_date_on_any_page():
    head = '<meta property="article:published_time" content="2024-09-03">'
    assert zoned(en_page(head)) == ("2024-09-03", None)
    assert zoned(en_page(head, lang="zh-CN")) == ("2024-09-03", None)


def test_a_precise_time_with_an_offset_beats_a_date_alone_of_the_same_day():
    head = (
        '<meta property="article:published_time" content="2024-09-03">'
        '<meta name="parsely-pub-date" content="2024-09-03T10:15:00-04:00">'
    )
    assert zoned(en_page(head)) == ("2024-09-03T10:15:00-04:00", "page")


@pytest.mark.parametrize(
    "lang, expected, label",
    [
        ("zh-CN", "2024-09-03T10:00:00+08:00", "language zh-CN: Asia/Shanghai"),
        ("zh-Hans-CN", "2024-09-03T10:00:00+08:00", "language zh-Hans-CN: Asia/Shanghai"),
        ("zh_TW", "2024-09-03T10:00:00+08:00", "language zh_TW: Asia/Taipei"),
        ("zh-HK", "2024-09-03T10:00:00+08:00", "language zh-HK: Asia/Hong_Kong"),
        ("ja", "2024-09-03T10:00:00+09:00", "language ja: Asia/Tokyo"),
        ("ko-KR", "2024-09-03T10:00:00+09:00", "language ko-KR: Asia/Seoul"),
        ("zh", "2024-09-03T10:00:00", None),
        ("en-US", "2024-09-03T10:00:00", None),
        ("en-GB", "2024-09-03T10:00:00+01:00", "language en-GB: Europe/London"),
        ("de", "2024-09-03T10:00:00+02:00", "language de: Europe/Berlin"),
    ],
)
def test_the_zone_is_inferred_from_the_declared_language_and_region(lang, expected, label):
    head = '<meta name="publishdate" content="2024-09-03 10:00">'
    assert zoned(en_page(head, lang=lang)) == (expected, label)


def test_a_utc_time_is_written_in_the_pages_zone():
    # 23:00Z is already the next day in Berlin: the site's own day (beige.de, kas.de in the trafilatura set)
    head = '<meta property="article:published_time" content="2022-11-06T23:00:00+00:00">'
    expected = ("2022-11-07T00:00:00+01:00", "language de-DE: Europe/Berlin")
    assert zoned(en_page(head, lang="de-DE")) == expected


def test_a_local_time_mislabelled_as_utc_gives_way_to_the_same_wall_clock_with_an_offset():
    head = (
        '<meta property="article:published_time" content="2025-06-30T15:59:00+00:00">'
        '<script type="application/ld+json">{"datePublished":"2025-06-30T15:59:30+02:00"}</script>'
    )
    assert zoned(en_page(head, lang="en")) == ("2025-06-30T15:59:30+02:00", "page")


def test_the_zone_is_inferred_from_a_cn_host():
    html = page('<meta name="publishdate" content="2024-09-03 10:00">')
    got = zoned(html, url="https://news.example.com.cn/a/1.html")
    assert got == ("2024-09-03T10:00:00+08:00", "host .cn: Asia/Shanghai")
    assert zoned(html, url="https://news.example.com/a/1.html") == ("2024-09-03T10:00:00", None)


def test_the_sites_zone_beats_an_inferred_one():
    head = '<meta name="publishdate" content="2024-09-03 10:00">'
    assert zoned(en_page(head, lang="ja"), timezone="Europe/London") == (
        "2024-09-03T10:00:00+01:00",
        "site Europe/London",
    )


def test_an_offset_on_the_page_beats_the_sites_zone():
    head = '<meta property="article:published_time" content="2024-09-03T10:00:00-05:00">'
    assert zoned(page(head), timezone="Asia/Shanghai") == ("2024-09-03T10:00:00-05:00", "page")


def test_url_day_agreeing_in_the_pages_zone_keeps_the_time():
    head = '<meta property="article:published_time" content="2021-03-05T22:00:00Z">'
    url = "https://example.com/news/2021-03-06/story.html"
    assert published(page(head), url=url) == ("2021-03-06T06:00:00+08:00", "meta:article:published_time")


def test_url_day_agreeing_as_written_keeps_a_utc_time():
    head = '<meta property="article:published_time" content="2021-03-05T22:00:00Z">'
    url = "https://example.com/news/2021-03-05/story.html"
    assert zoned(en_page(head), url=url) == ("2021-03-05T22:00:00+00:00", "page")


def test_unix_time_without_a_zone_is_an_instant_in_utc():
    html = page('<script>var nickname = "x";\n    var ct = "1581517074";</script>')
    assert zoned(html) == ("2020-02-12T14:17:54+00:00", "instant")


def test_modified_time_is_a_field_of_its_own():
    head = (
        '<meta property="article:published_time" content="2021-03-05T10:00:00+01:00">'
        '<meta property="article:modified_time" content="2021-03-06T08:00:00+01:00">'
    )
    r = extract(page(head))
    assert (r.published_at, r.modified_at) == ("2021-03-05T10:00:00+01:00", "2021-03-06T08:00:00+01:00")
    assert r.sources["modified_at"] == "meta:article:modified_time"


def test_modified_time_from_json_ld_and_none_when_absent():
    ld = '{"@type":"NewsArticle","datePublished":"2021-03-05","dateModified":"2021-03-07T09:00:00Z"}'
    r = extract(page(f'<script type="application/ld+json">{ld}</script>'))
    assert (r.published_at, r.modified_at) == ("2021-03-05", "2021-03-07T09:00:00+00:00")
    assert extract(page()).modified_at is None


@pytest.mark.parametrize(
    ("top", "expected"),
    [
        ("发布时间：2021-03-05 10:00 更新时间：2021-03-06 18:15",
         ("2021-03-05T10:00:00+08:00", "2021-03-06T18:15:00+08:00")),
        ("Published March 5, 2021 · Updated March 6, 2021, 6:15 p.m. ET",
         ("2021-03-05", "2021-03-06T18:15:00-05:00")),
        ("Published March 5, 2021 · last updated 6 March 2021",
         ("2021-03-05", "2021-03-06")),
    ],
)
def test_a_date_after_an_update_label_under_the_heading_is_the_modified_time(top, expected):
    r = extract(page(top=top), timezone="Asia/Shanghai")
    assert (r.published_at, r.modified_at) == expected
    assert r.sources["modified_at"] == "text-updated"


def test_the_modified_meta_beats_an_update_label_and_other_labels_give_no_modified_time():
    head = '<meta property="article:modified_time" content="2021-03-07T08:00:00+01:00">'
    assert extract(page(head, top="更新时间：2021-03-06 18:15")).modified_at == "2021-03-07T08:00:00+01:00"
    assert extract(page(top="发布时间：2021-03-05 10:00 © 2021-03-06")).modified_at is None
    at_the_foot = page(top="发布时间：2021-03-05 10:00", bottom="更新时间：2021-03-06 18:15")
    assert extract(at_the_foot).modified_at is None


# --- relative times against reference_time --------------------------------------------------------------


@pytest.mark.parametrize(
    "top, expected",
    [
        ("刚刚", "2021-05-05T12:00:00+08:00"),
        ("5分钟前", "2021-05-05T11:55:00+08:00"),
        ("3小时前", "2021-05-05T09:00:00+08:00"),
        ("昨天 09:27", "2021-05-04T09:27:00+08:00"),
        ("前天", "2021-05-03"),
    ],
)
def test_relative_times_against_the_reference(top: str, expected: str):
    assert published(page(top=f"{top} 来源：某网"), reference_time=SHANGHAI_NOON)[0] == expected


@pytest.mark.parametrize(
    "top",
    [
        "市图书馆今天起延长开放时间，周末也开放。",  # a day word run into a sentence
        "家住城东的张先生3天前报警，称自家车辆被刮。",
        "工人们刚刚完成了最后一段路面的铺设。",
    ],
)
def test_a_relative_word_inside_a_sentence_does_not_date_the_page(top: str):
    assert published(page(top=top), reference_time=SHANGHAI_NOON) == (None, None)


def test_an_english_relative_word_inside_a_sentence_does_not_date_the_page():
    html = en_page(top="The mayor said today that the bridge will reopen in spring.")
    assert extract(html, reference_time=SHANGHAI_NOON).published_at is None
    apart = en_page(top="Yesterday | Local news")
    assert extract(apart, reference_time=SHANGHAI_NOON).published_at == "2021-05-04"


@pytest.mark.parametrize(
    "top, expected",
    [("今天 | 来源：某网", "2021-05-05"), ("发布于今天", "2021-05-05"), ("发布时间：3天前", "2021-05-02")],
)
def test_a_relative_word_standing_apart_or_after_a_label_dates_the_page(top: str, expected: str):
    assert published(page(top=top), reference_time=SHANGHAI_NOON)[0] == expected


def test_yesterday_is_the_day_before_in_the_pages_zone():
    # 20:00 UTC on 4 May is 04:00 on 5 May in Shanghai: yesterday there is 4 May
    html = page(top="昨天 09:27 来源：某网")
    assert published(html, reference_time=UTC_EVENING)[0] == "2021-05-04T09:27:00+08:00"


def test_relative_wall_clock_time_without_a_zone_stays_naive():
    html = en_page(top="昨天 09:27 来源：某网")
    assert zoned(html, reference_time=SHANGHAI_NOON) == ("2021-05-04T09:27:00", None)


def test_minutes_ago_is_an_instant_from_the_reference():
    html = en_page(top="5分钟前 来源：某网")
    assert zoned(html, reference_time=SHANGHAI_NOON) == ("2021-05-05T11:55:00+08:00", "reference")


def test_a_date_published_holder_with_content_dates_the_page():
    html = page(top='<div itemprop="datePublished" content="2024-05-01T10:00:00+01:00">1 May 2024</div>')
    assert published(html, timezone=None) == ("2024-05-01T10:00:00+01:00", "time-element")


def test_an_oversized_live_blog_json_ld_dates_the_page():
    body = "x" * 600
    update = f'{{"@type": "BlogPosting", "datePublished": "2024-05-02T09:00:00Z", "articleBody": "{body}"}}'
    ld = (
        '{"@type": "LiveBlogPosting", "datePublished": "2024-05-01T08:30:00Z",'
        f' "liveBlogUpdate": [{", ".join([update] * 900)}]}}'
    )
    html = page(f'<script type="application/ld+json">{ld}</script>')
    assert published(html, timezone=None) == ("2024-05-01T08:30:00+00:00", "json-ld:datePublished")


def test_a_publish_meta_holding_the_last_edit_gives_way_to_an_earlier_publish_value():
    # a live blog's meta is refreshed on every update: published_time == modified_time, a day after the
    # start the JSON-LD and the microdata give
    head = (
        '<meta property="article:published_time" content="2024-08-05T20:49:50+01:00">'
        '<meta property="article:modified_time" content="2024-08-05T20:49:50+01:00">'
        '<script type="application/ld+json">{"@type": "LiveBlogPosting",'
        ' "datePublished": "2024-08-04T13:23:00Z", "dateModified": "2024-08-05T19:49:50Z"}</script>'
    )
    top = '<div itemprop="datePublished" content="2024-08-04T13:23:00Z">4 August</div>'
    html = page(head, top=top)
    assert published(html, timezone=None) == ("2024-08-04T13:23:00+00:00", "json-ld:datePublished")
    # a page edited once, the same day: the meta stays
    same_day = html.replace("2024-08-04T13:23:00Z", "2024-08-05T09:00:00Z")
    assert published(same_day, timezone=None)[1] == "meta:article:published_time"
    # the earlier value alone against two (a microdata datePublished the page's JSON-LD does not repeat)
    alone = page(head.replace("2024-08-04T13:23:00Z", "2024-08-05T19:49:50Z"), top=top)
    assert published(alone, timezone=None)[1] == "meta:article:published_time"


# --- datelines of European and Japanese publishers (issue 12) -----------------------------------------

STORY_IT = "".join(
    f"<p>{s}</p>"
    for s in (
        "Le piogge cadute durante la notte hanno fatto esondare alcuni torrenti dell'entroterra, e i vigili "
        "del fuoco sono intervenuti decine di volte fino all'alba.",
        "I sindaci hanno chiuso scuole e parchi per tutta la giornata, mentre la protezione civile invita a "
        "evitare gli spostamenti non necessari lungo i corsi d'acqua.",
        "Per domani sono attese piogge meno intense, ma i terreni restano saturi e il rischio di frane resta "
        "alto secondo i geologi della regione.",
    )
)


def _dated(lang: str, dateline: str, story: str = STORY_IT) -> str:
    return (
        f"<html lang='{lang}'><head><title>Titolo</title></head><body><div class='nav'>Home</div>"
        f"<div class='article'><h1>Titolo della notizia</h1><div class='data'>{dateline}</div>"
        f"<div class='testo'>{story}</div></div></body></html>"
    )


def test_an_italian_dateline_gives_the_time_after_alle_and_the_update():
    r = extract(_dated("it", "Pubblicato il 25/11/2026 alle 07:15 · Aggiornato il 25/11/2026 alle 11:40"))
    assert (r.published_at, r.modified_at) == ("2026-11-25T07:15:00+01:00", "2026-11-25T11:40:00+01:00")
    assert r.sources["modified_at"] == "text-updated"


def test_a_portuguese_update_label_dates_the_change():
    r = extract(_dated("pt-PT", "Publicado 25/11/2026 às 10:03 | Atualizado em 25/11/2026 às 12:30"))
    assert (r.published_at, r.modified_at) == ("2026-11-25T10:03:00+00:00", "2026-11-25T12:30:00+00:00")


def test_an_update_time_alone_is_on_the_day_of_the_publish_date():
    # Le Monde's "Publié le ... à 14h03, modifié à 15h10": the change is dated by the day before it
    r = extract(_dated("fr", "Publié le 25 novembre 2026 à 14h03, modifié à 15h10"))
    assert (r.published_at, r.modified_at) == ("2026-11-25T14:03:00", "2026-11-25T15:10:00")


def test_an_update_time_alone_before_the_publish_time_is_not_read():
    r = extract(_dated("fr", "Publié le 25 novembre 2026 à 14h03, modifié à 09h10"))
    assert (r.published_at, r.modified_at) == ("2026-11-25T14:03:00", None)


def test_a_japanese_update_label_is_not_the_publish_time():
    sentence = "市は二十五日、市立図書館の夜間開館を来年四月から拡大すると発表した。"
    story = "".join(f"<p>{sentence * 3}</p>" for _ in range(3))
    dateline = "<span>2026年11月25日 14時03分</span><p>更新 2026年11月25日 15時10分</p>"
    r = extract(_dated("ja", dateline, story))
    assert (r.published_at, r.modified_at) == ("2026-11-25T14:03:00+09:00", "2026-11-25T15:10:00+09:00")


def test_a_french_update_label_with_le_dates_the_change():
    r = extract(_dated("fr-FR", "Publié le 25/11/2026 à 06h45 <span>Mis à jour le 25/11/2026 à 09h12</span>"))
    assert (r.published_at, r.modified_at) == ("2026-11-25T06:45:00+01:00", "2026-11-25T09:12:00+01:00")


def test_a_japanese_portals_date_without_a_year_is_read_in_the_fetch_year():
    sentence = "県と沿線の市町は二十五日、赤字が続く路線の存続に向けた協議会を設置した。"
    story = "".join(f"<p>{sentence * 3}</p>" for _ in range(3))
    html = _dated("ja", "<time>11/25(水) 14:03配信</time>", story)
    r = extract(html, reference_time=datetime(2026, 11, 25, 9, 0, tzinfo=UTC))
    assert r.published_at == "2026-11-25T14:03:00+09:00"
    # read in January, a late-November date is last year's
    r = extract(html, reference_time=datetime(2027, 1, 3, 9, 0, tzinfo=UTC))
    assert r.published_at == "2026-11-25T14:03:00+09:00"


def _live(entries: list[str]) -> str:
    blocks = "".join(
        f"<div class='block'><p><time datetime='2026-11-25T{t}:00Z'>{t} GMT</time></p>"
        f"<p>{'The chancellor set out further measures and business groups gave their reaction. ' * 2}</p>"
        "</div>"
        for t in entries
    )
    return (
        "<html lang='en-GB'><head><title>Budget live</title></head><body><div class='nav'>Home</div>"
        f"<main><h1>Budget 2026 live: chancellor sets out tax changes</h1><div class='body'>{blocks}</div>"
        "</main></body></html>"
    )


def test_a_live_blogs_entries_newest_first_date_it_by_the_earliest():
    r = extract(_live(["17:58", "14:10", "12:31", "08:15"]))
    assert r.published_at == "2026-11-25T08:15:00+00:00"
    assert r.sources["published_at"] == "time-element:first-entry"


def test_times_not_in_falling_order_are_no_live_blog():
    r = extract(_live(["08:15", "14:10", "12:31"]))
    assert (r.published_at, r.sources["published_at"]) == ("2026-11-25T08:15:00+00:00", "time-element")
    r = extract(_live(["17:58", "14:10"]))  # two are an article's time and a teaser's
    assert r.published_at == "2026-11-25T17:58:00+00:00"


def test_a_label_ends_a_word_of_its_own():
    # "Laatste update:" ends in "date:", a publish label: the update time was taken for the publish time
    dateline = "<span>Door Sanne de Vries</span> <span>25 nov. 2026, 13:47</span>"
    dateline += " Laatste update: 25 nov. 2026, 16:02"
    r = extract(_dated("nl", dateline))
    assert (r.published_at, r.modified_at) == ("2026-11-25T13:47:00+01:00", "2026-11-25T16:02:00+01:00")


def test_a_long_update_label_and_a_naive_change_time_keep_the_changes_own_time():
    # "Actualizado el " is longer than the old label reach; the change's naive time took the publish
    # value's time from the meta tag beside it (12:47), not only its offset
    head = '<meta property="article:published_time" content="2026-11-25T12:47:00+0100">'
    dateline = (
        "Publicado el 25 de noviembre de 2026 a las 12:47 por <a rel='author' href='/author/lf/'>Lucía "
        "Fernández</a> · Actualizado el 26 de noviembre de 2026 a las 9:05"
    )
    html = _dated("es", dateline).replace("</head>", head + "</head>")
    r = extract(html)
    assert (r.published_at, r.modified_at) == ("2026-11-25T12:47:00+01:00", "2026-11-26T09:05:00+01:00")
    assert extract(_dated("de", "Aktualisiert am 19.02.2020")).modified_at == "2020-02-19"


def test_a_live_blogs_latest_entry_is_its_last_change():
    r = extract(_live(["17:58", "14:10", "12:31", "08:15"]))
    assert r.modified_at == "2026-11-25T17:58:00+00:00"
    assert r.sources["modified_at"] == "time-element:latest-entry"


def test_a_time_element_saying_updated_dates_the_change():
    # FAZ's only <time>: "Aktualisiert am ..." is the last change
    time = "<time datetime='2026-11-25T11:20:00+01:00'>Aktualisiert am 25.11.2026-11:20</time>"
    r = extract(_dated("de", time))
    assert (r.modified_at, r.sources["modified_at"]) == ("2026-11-25T11:20:00+01:00", "time-element")
