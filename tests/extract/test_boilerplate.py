"""Class/id token matching used by ``auto``."""

from newscrawl.extract.boilerplate import (
    _CAPTION_HINT,
    _NEGATIVE_HINT,
    CAPTION_TOKENS,
    SCORE_NEGATIVE_TOKENS,
    attr_tokens,
    counts_against,
    is_anchor_id,
    is_caption,
    looks_like_boilerplate,
)


def test_tokens_split_on_separators_and_camel_case():
    assert attr_tokens("commentList main-nav foo_bar") == ["comment", "list", "main", "nav", "foo", "bar"]


def test_whole_tokens_only():
    assert counts_against("comment-box", None)
    assert counts_against(None, "userReplies")
    assert counts_against("footer-bottom-text", None)
    assert not counts_against("commentary", None)
    assert looks_like_boilerplate("site-footer", None)
    assert not looks_like_boilerplate("article-body", "main")


def test_the_cheap_pre_check_covers_every_negative_token():
    assert all(_NEGATIVE_HINT.search(token) for token in SCORE_NEGATIVE_TOKENS)


def test_the_pre_checks_let_through_tokens_in_capitals():
    """The pre-checks look at the value lower-cased: a token in capitals or camel case still counts."""
    assert counts_against("SiteFooter", None) and counts_against(None, "COMMENTS")
    assert counts_against("DISQUS_thread", None) and counts_against(None, "Cookie-Banner")
    assert is_caption("div", "WP-Caption-Text") and is_caption("span", "image-LEGENDE")


def test_a_legend_class_names_a_caption():
    assert is_caption("div", "legend") and is_caption("p", "image-legende")
    assert not is_caption("div", "legendary-stories") and not is_caption("div", "article-text")
    assert all(_CAPTION_HINT.search(token) for token in CAPTION_TOKENS)


def test_an_id_made_of_the_elements_words_is_an_anchor():
    assert is_anchor_id("nav_nur_die_folie__1", "Nur die Folie bleibt zurück")
    assert not is_anchor_id("main-nav", "Home News Sport")
    assert not is_anchor_id("comments", "Comments")
    assert not is_anchor_id(None, "Anything at all")


def test_trim_edges_drops_portal_furniture_lines():
    from newscrawl.extract.boilerplate import trim_edges

    body = ("市政府今天公布了新的交通规划方案。" * 3, "计划在三年内新建五条地铁线路。" * 3)
    lead = ("您所在的位置： 首页 > 新闻 > 国内", "您的浏览器暂时无法播放此视频.")
    lines = (*lead, *body, "本文来源：某某日报 责任编辑：张三_NB001")
    assert trim_edges(lines) == body


def test_portal_tails_and_heads_stay_out_of_the_body():
    """Issue 11, class 6: promotion, related-news blocks and 原标题/责任编辑 lines (metadata, not text)."""
    from newscrawl.extract.boilerplate import trim_edges

    sentence = "市政府今天公布了新的交通规划方案，计划在三年内新建五条地铁线路。"
    body = tuple(f"第{n}段：{sentence}" * 3 for n in range(4))
    head = ("原标题：交通规划方案公布", "關注新浪財經公眾號，獲取更多資訊")
    tail = (
        "海量资讯、精准解读，尽在新浪财经APP",
        "热门推荐",
        "新闻标题一",
        "点击进入专题：地铁建设",
        "责任编辑：张三 SF006",
    )
    assert trim_edges((*head, *body, *tail)) == body
    assert trim_edges((*body, "相關新聞：", "另一則新聞")) == body
    assert trim_edges((*body, "(內容由新浪北京提供。未經授權，不得轉載。)")) == body


def test_a_promotion_word_inside_the_article_is_kept():
    from newscrawl.extract.boilerplate import trim_edges

    middle = "用户可下载该银行APP办理业务，也可到网点咨询。"
    body = tuple(f"第{n}段：银行今天推出新的线上服务，覆盖开户、转账和理财等业务。" * 3 for n in range(4))
    text = (*body[:2], middle, *body[2:])
    assert trim_edges(text) == text


def test_a_long_page_promotion_after_a_short_article_goes():
    from newscrawl.extract.boilerplate import trim_edges

    body = ("警方昨日以謀殺罪暫控一名三十八歲男子，案件今日提堂。", "案件押後至下月再訊，被告還押。")
    promo = (
        "本網新聞現已開設Facebook專頁，讓你即時掌握本地、中國、國際新聞、財經消息及天氣、交通等生活資訊，"
        "與朋友分享！快點到Facebook讚好我們的專頁，一起討論每日大事！[按此讚好]"
    )
    assert 80 < len(promo) <= 100
    assert trim_edges((*body, promo)) == body


def test_a_disclaimer_label_after_a_short_brief_cuts_the_rest():
    from newscrawl.extract.boilerplate import trim_edges

    brief = ("巧克力主题公园今日在浦东开园，由巧克力制作的外滩景观等作品将与公众见面。" * 2,)
    notice = "凡注明为其他媒体来源的信息，均为转载自其他媒体，转载并不代表本网赞同其观点。"
    tail = ("声明：", notice, "电话：021-0000000 传真：021-0000001")
    assert trim_edges(brief + tail) == brief
    assert trim_edges(("声明：",) + brief) == ("声明：",) + brief  # no body line before it: kept


def test_a_related_news_label_between_lead_and_body_cuts_nothing():
    from newscrawl.extract.boilerplate import trim_edges

    lead = "本文导读：继微波炉、洗衣机之后，某品牌电磁炉再一次被曝出标志和说明不合格，" * 2
    body = tuple(f"第{i}段：省消协联合质检部门对电磁炉进行了比较试验，多款产品不合格。" for i in range(6))
    assert trim_edges((lead, "相关新闻：", *body)) == (lead, "相关新闻：", *body)


def test_a_label_left_dangling_at_the_end_goes():
    """Issue 11: "Read more:" / "Sources:" whose list of links was pruned introduces nothing."""
    from newscrawl.extract.boilerplate import trim_edges

    body = tuple(f"Paragraph {i}: the council approved the transit plan after a debate." for i in range(3))
    assert trim_edges((*body, "Read more:")) == body
    assert trim_edges((*body, "Sources:", "Weitere Informationen zum Thema:")) == body
    assert trim_edges((*body[:2], "相关阅读：")) == body[:2]
    # a label inside the text, or a run of labelled values at its end (a product's data), stays
    assert trim_edges((*body[:2], "The mayor said:", body[2])) == (*body[:2], "The mayor said:", body[2])
    data = ("Colour:", "Weight:", "Size:")
    assert trim_edges((*body, *data)) == (*body, *data)
    # no body sentence before it: nothing to say it dangles
    assert trim_edges(("Menu:",)) == ("Menu:",)


def test_a_newsletter_platforms_subscription_appeal_closing_the_text_goes():
    from newscrawl.extract.boilerplate import trim_edges

    body = tuple(
        f"Paragraph {n} of the post tells what happened to the town's paper after it closed last spring."
        for n in range(6)
    )
    thanks = (
        "Thanks for reading The Local Ledger Letter! Subscribe for free to receive new posts and support my "
        "work."
    )
    supported = (
        "The Local Ledger Letter is a reader-supported publication. To receive new posts and support my "
        "work, consider becoming a free or paid subscriber."
    )
    assert trim_edges((*body, thanks)) == body
    assert trim_edges((*body, supported)) == body
    # not at the text's end: the post's own words
    assert trim_edges((thanks, *body)) == (thanks, *body)
