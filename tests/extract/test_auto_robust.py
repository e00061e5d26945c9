"""Issue 11, classes 2, 3 and 5: auto on page shapes nobody tuned it for (hand-written fixtures)."""

from newscrawl.extract import extract
from newscrawl.extract.boilerplate import attr_tokens

PARAS = [
    "The city council approved the new transit plan on Tuesday after a long debate about its cost.",
    "Supporters said the five new lines would cut commuting times across the northern districts.",
    "Critics argued that the budget relied on optimistic forecasts of ridership and fare revenue.",
    "The mayor promised a public review of the figures before construction begins next spring.",
    "Residents will be able to comment on the route maps at three meetings scheduled for May.",
    "Officials expect the first line to open within four years if the funding arrives on time.",
]


def ps(items: list[str]) -> str:
    return "".join(f"<p>{p}</p>" for p in items)


def links(n: int, word: str = "Story") -> str:
    items = "".join(f"<li><a href='/{word}/{i}'>{word} headline number {i}</a></li>" for i in range(n))
    return f"<ul>{items}</ul>"


def test_tailwind_variant_prefixes_are_not_class_tokens() -> None:
    assert attr_tokens("print:max-w-full dark:text-white") == ["max", "w", "full", "text", "white"]
    assert "print" in attr_tokens("print-button")


def test_a_chrome_looking_class_does_not_empty_the_article() -> None:
    # the article's own containers carry "sidebar" (a grid component) and "widget" in their names
    body = "".join(
        "<div class='sidebar-grid__container'><div class='article-widget-text'>"
        f"{ps(PARAS[i : i + 2])}</div></div>"
        for i in range(0, 6, 2)
    )
    html = (
        f"<html><body><nav>{links(8, 'nav')}</nav><main><article class='sidebar-grid'>{body}"
        f"<aside class='sidebar-grid__sidebar'>{links(3)}</aside></article></main></body></html>"
    )
    text = extract(html).text
    assert all(p in text for p in PARAS)
    assert "Story headline" not in text


def test_a_tailwind_print_class_on_the_article_is_not_chrome() -> None:
    html = (
        f"<html><body><nav>{links(6, 'nav')}</nav><main class='print:max-w-full'>"
        f"<div class='group print:break-inside-avoid'>{ps(PARAS[:3])}</div>"
        f"<div class='group print:break-inside-avoid'>{ps(PARAS[3:])}</div></main></body></html>"
    )
    text = extract(html).text
    assert all(p in text for p in PARAS)


def test_a_comments_word_in_the_article_id_does_not_empty_the_page() -> None:
    html = (
        f"<html><body><div class='masthead'>{links(20, 'section')}</div>"
        f"<div id='comments-enabled article'><h1>Plan</h1>{ps(PARAS)}</div></body></html>"
    )
    r = extract(html)
    assert all(p in r.text for p in PARAS)
    assert r.figures["comment_names_counted"] is False


def test_taxonomy_classes_on_the_article_do_not_empty_the_page() -> None:
    # WordPress names a post's tags in its classes ("tag-budget"): "tag" is a chrome token, and the
    # article is a quarter of a root that also holds two teaser lists, all of them pruned
    teasers = "".join(
        f"<div class='teaser'><a href='/t/{i}'>Teaser headline {i}</a><p>{PARAS[i]}</p></div>"
        for i in range(6)
    )
    html = (
        "<html><body><div class='col-main'><ul class='breadcrumb'><li><a href='/'>Home</a></li></ul>"
        "<article class='post type-post hentry tag-transit tag-budget'>"
        f"<h1>Plan</h1>{ps(PARAS[:4])}</article>"
        f"<div class='block related-posts'>{teasers}</div>"
        f"<div class='block related-posts latest'>{teasers}</div>"
        "</div></body></html>"
    )
    r = extract(html)
    assert all(p in r.text for p in PARAS[:4])
    assert "Teaser headline" not in r.text
    assert r.figures["pruned_root_read"] is True


def test_a_root_with_text_left_after_pruning_is_kept() -> None:
    html = (
        f"<html><body><div class='tag-list'>{links(4)}</div>"
        f"<div class='story'>{ps(PARAS)}</div></body></html>"
    )
    r = extract(html)
    assert all(p in r.text for p in PARAS)
    assert r.figures["pruned_root_read"] is False


def test_a_body_split_over_repeated_chunks_is_read_whole() -> None:
    chunk = (
        "<div class='grid grid-items-2'><div class='grid--item'><div class='wrap'><div class='layout'>"
        "<div class='body body__container'><div class='body__inner-container'>{}</div></div>"
        "</div></div></div>"
        "<div class='adrail'>Advertisement</div></div>"
    )
    html = (
        f"<html><body><header>{links(5, 'menu')}</header><article><div class='chunks'>"
        + "".join(chunk.format(ps(PARAS[i : i + 2])) for i in range(0, 6, 2))
        + f"</div></article><footer>{links(6, 'more')}</footer></body></html>"
    )
    r = extract(html)
    assert all(p in r.text for p in PARAS)
    assert r.figures["twin_parts"] == 3
    assert "Advertisement" not in r.text


def test_teasers_with_the_article_class_elsewhere_are_not_twins() -> None:
    teaser = "<div class='card'><div class='text'>Another story about the weather in the valley.</div></div>"
    html = (
        f"<html><body><article><div class='text'>{ps(PARAS)}</div></article>"
        f"<section class='more'>{teaser * 4}</section></body></html>"
    )
    r = extract(html)
    assert all(p in r.text for p in PARAS)
    assert "weather in the valley" not in r.text


def test_a_consent_dialog_is_not_the_article() -> None:
    consent = (
        "<div id='onetrust-consent-sdk'><div id='ot-content' class='ot-main-content'>"
        + ps(
            [
                "We and our partners use cookies and similar technologies to store and access information "
                "on your device, to personalise content and ads and to measure their performance." * 3,
                "You can change your choices at any time by visiting the privacy centre of this site." * 3,
            ]
        )
        + "</div></div>"
    )
    html = f"<html><body><article><h1>Plan</h1>{ps(PARAS[:4])}</article>{consent}</body></html>"
    text = extract(html).text
    assert PARAS[0] in text and "cookies" not in text


def thread(replies: list[tuple[str, str]]) -> str:
    """A table-layout forum thread: each post in its own row, the post text in td.post-body."""
    rows = "".join(
        f"<tr><td><table class='table-bg'><tr><td>{who} 发表于 2005-03-21 01:{n:02d}:44</td></tr>"
        f"<tr><td><table><tr><td class='post-body'>{text}</td></tr></table></td></tr></table></td></tr>"
        for n, (who, text) in enumerate(replies)
    )
    nav = f"<div class='nav'>{links(8, 'board')}</div>"
    return f"<html><body>{nav}<table class='thread'>{rows}</table></body></html>"


def test_the_first_post_of_a_thread_is_the_content_not_the_longest_reply() -> None:
    opening = "巴拉臘特是當年澳大利亞發現第一塊天然黃金的地方，現在是維多利亞州最受游客歡迎的觀光城市。" * 2
    long_reply = "我去年也去过那里，" + "路上风景很好，金矿博物馆值得一看，" * 30
    posts = [("海姑娘", opening), ("路人甲", "好玩吗？" * 20), ("老张", long_reply)]
    posts.append(("小李", "顶一下！" * 20))
    r = extract(thread(posts))
    assert r.text.strip() == opening
    assert r.figures["first_post_of_thread"] is True


def test_repeated_blocks_without_post_stamps_are_not_a_thread() -> None:
    parts = "".join(
        f"<div class='row'><div class='cell'><div class='text'>{ps(PARAS[i : i + k])}</div></div></div>"
        for i, k in ((0, 1), (1, 4), (5, 1))
    )
    r = extract(f"<html><body><div class='page'>{parts}</div></body></html>")
    assert r.figures["first_post_of_thread"] is False
    assert PARAS[2] in r.text


def test_a_stray_html_end_tag_does_not_hide_the_article() -> None:
    """Issue 11, class 8: a header template ending in </html> before the article (a one-paragraph
    gazette page); libxml2 drops everything after it, a browser does not."""
    gazette = "第十届全国人大常委会第二十八次会议，听取了国务院关于发行特别国债的说明，并对议案进行了审议。"
    html = (
        "<html><body><div class='siteurl hide'>https://www.example.gov/</div><div class='top'>"
        f"{links(6, 'menu')}</div></body></html><!--end header--><div class='content'>"
        f"<h1>关于批准发行特别国债的决议</h1><p>{gazette}</p></div></body></html>"
    )
    assert extract(html).text.endswith(gazette)


def test_picture_captions_are_not_article_text() -> None:
    figures = [
        "<figure><img src='/a.jpg'><figcaption>The mayor at the council meeting.</figcaption></figure>",
        "<div class='image'><img src='/b.jpg'></div><p class='caption'>Commuters at the north station.</p>",
        "<div class='wp-caption'><img src='/c.jpg'><p class='wp-caption-text'>A map of the lines.</p></div>",
        "", "", "",
    ]
    html = (
        f"<html><body><nav>{links(6, 'nav')}</nav><article>"
        + "".join(f"<p>{p}</p>{fig}" for p, fig in zip(PARAS, figures, strict=True))
        + "</article></body></html>"
    )
    text = extract(html).text
    assert text.splitlines() == PARAS


def test_text_hidden_for_screen_readers_is_left_out_even_inside_a_sentence() -> None:
    hidden = "<a href='/report'>the report<span class='sr-only'> (opens in a new window)</span></a>"
    first = f"The council published {hidden} on its website after the vote on Tuesday afternoon."
    html = f"<html><body><nav>{links(6, 'nav')}</nav><article><p>{first}</p>{ps(PARAS)}</article></body>"
    text = extract(html).text
    assert text.splitlines()[0] == (
        "The council published the report on its website after the vote on Tuesday afternoon."
    )
    assert "new window" not in text


def test_a_body_block_holding_a_link_heavy_box_is_not_dropped_whole() -> None:
    # the body's second block carries a slideshow of job ads: more link text than words, but its
    # paragraphs are a large part of the article
    jobs = links(12, "job")
    more = [p.replace("The ", "Last year the ", 1) for p in PARAS[:3]]
    html = (
        f"<html><body><nav>{links(6, 'nav')}</nav><article class='story'>"
        f"<div class='text'>{ps(PARAS[:3])}</div><div class='text'>{jobs}{ps(PARAS[3:5])}</div>"
        f"<div class='text'>{ps(PARAS[5:] + more)}</div></article></body></html>"
    )
    text = extract(html).text
    assert text.splitlines() == PARAS + more


LEAD = "A long debate ended with a clear majority for the five new lines across the north of the city."


def test_the_lead_set_apart_between_headline_and_body_is_kept() -> None:
    html = (
        f"<html><body><nav>{links(6, 'nav')}</nav><article><header><h1>Council backs transit plan</h1>"
        f"<p class='subtitle'>{LEAD}</p><div class='byline'>By Ann Lee</div>"
        f"<div class='share'>{links(3, 'share')}</div></header>"
        f"<div class='body'>{ps(PARAS)}</div></article></body></html>"
    )
    r = extract(html)
    assert r.text.splitlines() == [LEAD, *PARAS]
    assert r.figures["lead_paragraphs"] == 1


def test_no_lead_is_taken_from_a_page_region_far_from_the_body() -> None:
    # the <h1> is the site's logo; a long teaser column stands between it and the article
    teasers = "".join(f"<p>{p.replace('council', 'club')}</p>" for p in PARAS)
    html = (
        f"<html><body><h1>City Paper</h1><div class='column'>{teasers}</div>"
        f"<div class='body'>{ps(PARAS)}</div></body></html>"
    )
    r = extract(html)
    assert r.figures["lead_paragraphs"] == 0


def test_ruby_readings_are_not_part_of_the_text() -> None:
    ruby = "<ruby>子<rt>こ</rt></ruby>どもの<ruby>教育<rp>(</rp><rt>きょういく</rt><rp>)</rp></ruby>"
    paras = [f"{ruby}について、市は新しい計画を発表しました。これは第{i}段落です。" for i in range(5)]
    html = f"<html><body><nav>{links(6, 'nav')}</nav><article>{ps(paras)}</article></body></html>"
    lines = extract(html).text.splitlines()
    assert lines[0] == "子どもの教育について、市は新しい計画を発表しました。これは第0段落です。"
    assert len(lines) == 5


def test_a_caption_under_the_top_picture_is_not_taken_for_the_lead() -> None:
    caption = "In this file photo, the mayor speaks to reporters outside the city hall on a rainy morning."
    html = (
        f"<html><body><nav>{links(6, 'nav')}</nav><article><h1>Council backs transit plan</h1>"
        f"<div class='hero'><img src='/a.jpg'></div><div class='credit'>{caption}</div>"
        f"<div class='body'>{ps(PARAS)}</div></article></body></html>"
    )
    r = extract(html)
    assert r.text.splitlines() == PARAS
    assert r.figures["lead_paragraphs"] == 0


#: a body long enough that the learned block choice keeps it as the root (not widened to the header)
BODY = PARAS + [p.replace("city", "town") for p in PARAS]


def test_the_lead_inside_a_header_with_a_picture_and_a_date_is_kept() -> None:
    # the lead shares its block with the date line and the hero picture: the block is looked into
    html = (
        f"<html><body><nav>{links(6, 'nav')}</nav><article><h1>Council backs transit plan</h1>"
        f"<div class='intro'><span class='date'>12 May 2024</span><p class='intro-text'>{LEAD}</p>"
        "<div class='hero'><img src='/a.jpg'></div></div>"
        f"<div class='body'>{ps(BODY)}</div></article></body></html>"
    )
    r = extract(html)
    assert r.text.splitlines() == [LEAD, *BODY]
    assert r.figures["lead_paragraphs"] == 1
    assert extract(html, lead_inside=False).text.splitlines() == BODY


def test_captions_of_a_gallery_above_the_body_are_not_the_lead() -> None:
    captions = [
        f"The mayor speaks to reporters outside the city hall on the morning of day {i}. (Photo: A. Lee)"
        for i in range(4)
    ]
    slides = "".join(
        f"<div class='slide'><div class='pic'><img src='/{i}.jpg'></div>"
        f"<div class='text'><div class='cap'>{c}</div><span>{i + 1} of 4</span></div></div>"
        for i, c in enumerate(captions)
    )
    html = (
        f"<html><body><nav>{links(6, 'nav')}</nav><main><h1>Council backs transit plan</h1>"
        f"<div class='carousel'>{slides}</div>"
        f"<div class='story'>{ps(BODY)}</div></main></body></html>"
    )
    r = extract(html)
    assert r.text.splitlines() == BODY
    assert r.figures["lead_paragraphs"] == 0


def test_a_chrome_name_on_the_article_around_headline_lead_and_body_does_not_hide_the_lead() -> None:
    # WordPress names the post's tags in the article's classes ("tag-transit"): the article's own name
    html = (
        f"<html><body><nav>{links(6, 'nav')}</nav><h1>Council backs transit plan</h1>"
        f"<article class='post tag-transit'><p class='excerpt'>{LEAD}</p>"
        f"<div class='entry-content'>{ps(BODY)}</div></article></body></html>"
    )
    r = extract(html)
    assert r.text.splitlines() == [LEAD, *BODY]


def test_a_page_footer_outweighing_a_short_article_is_not_the_content() -> None:
    # the article's lines are mostly links (place names), the footer one long paragraph of notices
    towns = "、".join(f"<a href='/t/{i}'>町名{i}</a>" for i in range(6))
    article = "<p>気象庁は13日、地震があったと発表した。</p>"
    article += "".join(f"<p>県{k}：{towns}</p>" for k in range(4))
    notice = "本サイトに掲載の記事・写真の無断転載を禁じます。すべての内容は著作権法により保護されています。"
    html = (
        f"<html><body><main><div class='story'>{article}</div></main>"
        f"<footer><div><p>{notice * 3}</p></div></footer></body></html>"
    )
    text = extract(html).text
    assert text.startswith("気象庁は13日") and "無断転載" not in text


POST = [
    "Last night the sky was clear enough to photograph the cluster with a small telescope.",
    "The bright stars showed long spikes, and the blue nebula around them came out well.",
]
WIDGET = (
    "This magazine was published for twenty years and covered telescopes, observing trips, star"
    " parties, astrophotography, comets and eclipses; its archive of issues and its picture gallery"
    " remain online for readers who want to browse the old articles and the readers' photographs."
)


def test_a_sidebar_text_widget_does_not_outweigh_a_short_post() -> None:
    html = (
        f"<html><body><div class='top'>{links(12, 'menu')}</div>"
        f"<div class='wrap'><div class='content'><article><h1>Cluster</h1>{ps(POST)}"
        f"</article></div><aside class='sidebar'><div class='textwidget'><p>{WIDGET}</p></div>"
        f"{links(3)}</aside></div></body></html>"
    )
    text = extract(html).text
    assert all(p in text for p in POST)
    assert WIDGET not in text


def test_an_aside_holding_most_of_the_page_or_inside_main_is_read() -> None:
    most = (
        f"<html><body><div class='top'>{links(4, 'menu')}</div>"
        f"<aside id='secondary'><section><h1>Plan</h1>{ps(PARAS)}</section></aside></body></html>"
    )
    assert all(p in extract(most).text for p in PARAS)
    in_main = (
        f"<html><body><div class='top'>{links(4, 'menu')}</div><main><aside class='direct-content'>"
        f"{ps(PARAS[:3])}</aside></main><div class='more'>{ps(POST)}{links(6, 'more')}</div></body></html>"
    )
    assert all(p in extract(in_main).text for p in PARAS[:3])


def test_a_subheading_whose_id_is_an_anchor_of_its_words_is_kept() -> None:
    # a table of contents links to "#nav_costs_and_funding__1": the id's "nav" names no navigation
    html = (
        f"<html><body><nav>{links(6, 'nav')}</nav><article><h1>Council backs transit plan</h1>"
        f"<div class='body'>{ps(PARAS[:3])}<h3 id='nav_costs_and_funding__1'>Costs and funding</h3>"
        f"{ps(PARAS[3:])}"
        f"<h3 id='nav-more'>More stories</h3></div>{links(4)}</article></body></html>"
    )
    lines = extract(html).text.splitlines()
    assert lines == [*PARAS[:3], "Costs and funding", *PARAS[3:]]


def test_a_sentence_around_a_long_link_is_not_a_link_list() -> None:
    linked = (
        "<p>Applications are open until June, see "
        "<a href='/notice'>the council's notice on the transit plan board, its members and its duties</a>"
        ".</p>"
    )
    related = "<p>Read more: <a href='/r'>Council approves the budget for the northern districts</a></p>"
    html = (
        f"<html><body><nav>{links(6, 'nav')}</nav><article>{ps(PARAS[:3])}{linked}{ps(PARAS[3:])}"
        f"{related}</article></body></html>"
    )
    text = extract(html).text
    assert "Applications are open until June, see the council's notice" in text
    assert "Read more" not in text
    assert "Applications" not in extract(html, linked_sentence_chars=1000).text


def test_a_picture_legend_inside_the_article_is_not_text() -> None:
    legend = "The new station at the northern terminus, as the architects drew it for the council."
    html = (
        f"<html><body><nav>{links(6, 'nav')}</nav><article>{ps(PARAS[:3])}"
        f"<div class='image-box'><img src='/s.jpg'><div class='legend'>{legend}</div></div>"
        f"{ps(PARAS[3:])}</article></body></html>"
    )
    assert extract(html).text.splitlines() == PARAS


def test_the_paragraphs_beside_a_paragraph_that_outscores_its_post_are_read() -> None:
    # a blog post: one long paragraph, a reblogged excerpt opening with a long link, then a "see also"
    # list of links in one <p>: the links sink the post below its longest paragraph
    excerpt = (
        "<p><a href='/orig'>Reblogged from the transit blog: the council and the new lines</a><br>"
        f"{PARAS[3]} {PARAS[4]} <a href='/orig'>continue reading</a></p>"
    )
    older = (
        f"<a href='/s/{i}'>Older story about the transit plan and its budget number {i}</a>" for i in range(6)
    )
    see_also = "<p>See also<br>" + "<br>".join(older) + "</p>"
    first = f"<p>{' '.join(PARAS[:3])} It <a href='/a'>was reported</a> here.</p>"
    html = (
        f"<html><body><nav>{links(6, 'nav')}</nav><div class='post'><h2>The plan</h2>"
        f"<div class='post-content'>{first}{excerpt}{see_also}</div></div></body></html>"
    )
    text = extract(html).text
    assert PARAS[0] in text and PARAS[4] in text
    assert "Older story" not in text
    assert PARAS[4] not in extract(html, paragraph_root_parent=False).text


def test_an_article_hidden_until_its_script_runs_is_the_text() -> None:
    # a WeChat article page: the body is visibility:hidden until the page's script shows it
    zh = [
        "记者从区教育局获悉，城东片区新建的三所学校将于明年秋季开始招生，预计可提供学位两千余个。",
        "据介绍，三所学校包括一所九年一贯制学校和两所小学，目前主体工程已经完工。",
        "区教育局相关负责人表示，招生范围将根据周边小区入住情况划定，具体方案明年春季公布。",
        "此外，区里还将为新学校配备骨干教师，确保办学质量。",
    ]
    page = (
        "<html><head><meta charset='utf-8'><title>城东新建三所学校</title></head><body>"
        "<div id='page-content'><h1 class='rich_media_title'>城东新建三所学校</h1>"
        "<div class='rich_media_meta_list'><a id='js_name'>城东发布</a></div>"
        f"<div class='rich_media_content' id='js_content' style='visibility: hidden;'>{ps(zh)}</div>"
        "<div class='rich_media_tool'>阅读原文 阅读 10万+ 在看</div></div></body></html>"
    )
    r = extract(page)
    assert r.text == "\n".join(zh)


def test_a_picture_gallerys_controls_and_credit_above_the_text_leave_it() -> None:
    gallery = (
        "<div class='gallery'><img src='/a.jpg' alt=''><span class='credit'>Photo: Jane Roe, AP</span>"
        "<div class='captionlink'><p class='open'>Caption</p><p class='close'>Close</p></div></div>"
    )
    story = f"<div class='story'>{gallery}{ps(PARAS)}</div>"
    page = f"<html><body><h1>Transit plan approved</h1>{story}</body></html>"
    assert extract(page).text == "\n".join(PARAS)


def test_blocks_hidden_by_a_css_framework_class_leave_the_text() -> None:
    # a registration wall and a subscription offer wait, hidden by class, inside the article for a script
    wall = (
        "<div class='article-content__sign-in-group hidden'><h3>THIS CONTENT IS RESERVED FOR SUBSCRIBERS</h3>"
        "<ul><li>Unlimited online access to every site with one account.</li>"
        "<li>Daily puzzles, including the crossword.</li></ul></div>"
        "<div class='intro-body__register d-none'>Create an account or sign in to continue reading.</div>"
    )
    page = (
        "<html><body><article><h1>Transit plan approved</h1>"
        f"{ps(PARAS[:3])}{wall}{ps(PARAS[3:])}</article></body></html>"
    )
    assert extract(page).text == "\n".join(PARAS)


def test_a_block_shown_again_at_some_width_or_a_hidden_separator_stays() -> None:
    shown = "Officials say the map will be published online next week."
    desktop = f"<div class='hidden md:block'><p>{shown}</p></div>"
    page = (
        "<html><body><article><h1><span class='kicker'>City hall</span><span class='hide'>: </span>"
        f"<span>Transit plan approved</span></h1>{ps(PARAS[:3])}{desktop}{ps(PARAS[3:])}"
        "</article></body></html>"
    )
    r = extract(page)
    assert shown in r.text
    assert r.title == "City hall: Transit plan approved"
    assert r.text.startswith(PARAS[0])


def test_a_furniture_label_left_at_the_end_of_the_text_goes() -> None:
    # the comments' and the related stories' lists are pruned as link lists; their labels stood alone
    items = "".join(f"<li><a href='/s/{i}'>Another story number {i}</a></li>" for i in range(6))
    tail = f"<h3>Related</h3><ul>{items}</ul><p class='ad-label'>Anzeige</p><h3>Comments</h3>"
    page = f"<html><body><article><h1>Transit plan approved</h1>{ps(PARAS)}{tail}</article></body></html>"
    assert extract(page).text == "\n".join(PARAS)


def test_a_reading_time_opening_the_text_goes() -> None:
    page = (
        "<html><body><article><h1>Transit plan approved</h1><div class='story'><p>Lesezeit: 2 Minuten</p>"
        f"{ps(PARAS)}<h3>You May Also Like</h3></div></article></body></html>"
    )
    assert extract(page).text == "\n".join(PARAS)


def test_a_broadcasters_programme_note_and_the_boxes_after_the_text_go() -> None:
    de = [
        "Der Stadtrat hat am Dienstag nach langer Debatte den neuen Nahverkehrsplan beschlossen.",
        "Befürworter sagen, die fünf neuen Linien verkürzten die Fahrzeiten im Norden der Stadt deutlich.",
        "Kritiker halten die Annahmen über die Fahrgastzahlen und die Einnahmen für zu optimistisch.",
        "Der Bürgermeister versprach, die Zahlen vor dem Baubeginn im Frühjahr öffentlich prüfen zu lassen.",
    ]
    tail = (
        "<p>Weitere Informationen</p><p>Ein Komet trägt jetzt den Namen seines Entdeckers. mehr</p>"
        "<p>Dieses Thema im Programm:</p><p>NDR 1 Welle Nord | Nachrichten | 28.04.2023 | 13:00 Uhr</p>"
        "<p>Schlagwörter zu diesem Artikel</p>"
    )
    article = f"<article><h1>Nahverkehrsplan beschlossen</h1>{ps(de * 2)}{tail}</article>"
    page = f"<html lang='de'><body>{article}</body></html>"
    assert extract(page).text == "\n".join(de * 2)
