"""Editor, source and original title (newscrawl.extract.metadata.credits) on sina- and 163-shaped pages.

The pages are invented in the shape of the portals' article templates; every one is checked for writer,
editor and source, so an editor or a source never comes back as the author.
"""

from __future__ import annotations

import pytest

from newscrawl.extract import extract

BODY = "".join(
    f"<p>{s}</p>"
    for s in (
        "某市地铁新线今日上午开通试运营，全长二十公里，共设车站十五座，沿线市民出行将更加方便。",
        "据介绍，新线采用六节编组列车，最高时速八十公里，高峰时段发车间隔四分钟，运营至晚十一点。",
        "市民张先生表示，以前上班要换乘两次公交，现在坐地铁半小时就能到达单位，省下不少时间。",
        "下一步，该市还将加快建设另外三条线路，预计三年内全部建成，形成覆盖全城的轨道交通网络。",
    )
)


def sina(head: str = "", source: str = "", first: str = "", end: str = "") -> str:
    return (
        f"<html><head><meta charset='utf-8'><title>地铁新线开通|地铁_新浪新闻</title>{head}</head><body>"
        "<div class='top-bar'><a href='/'>新浪首页</a> <a href='/news/'>新闻</a></div>"
        "<h1 class='main-title'>地铁新线开通</h1>"
        f"<div class='date-source'><span class='date'>2024年05月03日 10:21</span>{source}</div>"
        f"<div class='article' id='artibody'>{first}{BODY}{end}</div>"
        "<div class='article-bottom'>新浪新闻客户端 扫码下载</div></body></html>"
    )


def netease(info: str = "", first: str = "", end: str = "") -> str:
    return (
        "<html><head><meta charset='utf-8'><title>地铁新线开通_网易新闻</title></head><body>"
        "<div class='N-nav'>网易首页 新闻 体育</div><div class='post_main'><h1>地铁新线开通</h1>"
        f"<div class='post_info'>2024-05-03 10:21:00　{info}</div>"
        f"<div class='post_body'>{first}{BODY}{end}</div></div>"
        "<div class='post_comment'>跟贴 0 参与 0</div></body></html>"
    )


CASES = {
    "sina: outlet in article:author, source link, editor with a code": (
        sina(
            head="<meta property='article:author' content='新京报'><meta name='mediaid' content='新京报'>",
            source="<a href='http://www.bjnews.com.cn/' class='source ent-source'>新京报</a>",
            end="<p class='show_author'>责任编辑：刘光博 SN123</p>",
        ),
        (None, "刘光博", "新京报"),
    ),
    "sina: older page, media_name span, editor in article-editor": (
        sina(
            source="<span id='media_name'><a href='http://www.chinanews.com/'>中国新闻网</a></span>",
            end="<p class='article-editor'>责任编辑：张迪</p>",
        ),
        (None, "张迪", "中国新闻网"),
    ),
    "sina: reporter named, source labelled": (
        sina(
            head="<meta property='article:author' content='澎湃新闻'>",
            source="<span class='source'>来源：澎湃新闻</span>",
            first="<p>澎湃新闻记者 王小明 李华</p>",
            end="<p class='show_author'>责任编辑：钱多多</p>",
        ),
        ("王小明、李华", "钱多多", "澎湃新闻"),
    ),
    "sina: wire story": (
        sina(
            source="<a class='source' href='http://www.xinhuanet.com/'>新华网</a>",
            first="<p>新华社北京5月3日电（记者 赵小红）某市地铁新线今日开通试运营。</p>",
            end="<p class='show_author'>责任编辑：孙立</p>",
        ),
        ("赵小红", "孙立", "新华网"),
    ),
    "163: source in post_info, credits in post_author with a staff code": (
        netease(
            info="来源: <a href='http://www.bjnews.com.cn/'>新京报</a>",
            end="<div class='post_author'><a href='/'><img src='/logo.png' width='20'></a>"
            "本文来源：新京报 <br>作者：周敏<br>责任编辑：王五_NE0011</div>",
        ),
        ("周敏", "王五", "新京报"),
    ),
    "163: older ep-source with ep-editor": (
        netease(
            info="来源: <a href='http://www.thepaper.cn/'>澎湃新闻</a>",
            end="<div class='ep-source cDGray'><span class='left'>本文来源：澎湃新闻</span>"
            "<span class='ep-editor'>责任编辑：陈静_NF1234</span></div>",
        ),
        (None, "陈静", "澎湃新闻"),
    ),
    "163: the source link followed by the comment counter on the info line": (
        netease(
            info="来源: <a href='http://www.example.com/'>京华时报</a>(北京)\u3000"
            "<a href='#' class='cDRed'>有<span>0</span>人参与</a> 手机看新闻",
            end="<div class='post_author'>责任编辑：李明_NB0001</div>",
        ),
        (None, "李明", "京华时报(北京)"),
    ),
    "chinanews-like: a paper's title marks and an interaction counter after the source": (
        netease(info="来源：《南方日报》 参与互动(0)", end="<div class='post_author'>编辑：李明</div>"),
        (None, "李明", "南方日报"),
    ),
    "163: post_author holding only the source and the editor's staff number": (
        netease(
            info="来源: <a href='http://www.bjnews.com.cn/'>新京报</a>",
            end="<div class='post_author'>本文来源：新京报 责任编辑：AP0015</div>",
        ),
        (None, None, "新京报"),
    ),
    "163: post_author holding only the source and the editor": (
        netease(end="<div class='post_author'>本文来源：新京报 责任编辑：王五_NE0011</div>"),
        (None, "王五", "新京报"),
    ),
    "163: wire dateline without a source line": (
        netease(
            first="<p>新华社北京5月3日电 某市地铁新线今日开通试运营，全长二十公里。</p>",
            end="<div class='post_author'>责任编辑：李明_NB0001</div>",
        ),
        (None, "李明", "新华社"),
    ),
}


@pytest.mark.parametrize("html,expected", CASES.values(), ids=list(CASES))
def test_writer_editor_and_source(html: str, expected: tuple[str | None, str, str]) -> None:
    r = extract(html)
    assert (r.author, r.editor, r.source) == expected


def test_original_title_from_the_first_paragraph():
    r = extract(sina(first="<p>原标题：地铁新线开通 市民尝鲜</p>"))
    assert (r.original_title, r.sources["original_title"]) == ("地铁新线开通 市民尝鲜", "line:original-title")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("<p>（原标题：地铁新线开通）</p>", "地铁新线开通"),
        ("<p>【原标题：地铁新线开通（附线路图）】</p>", "地铁新线开通（附线路图）"),
        ("<p>原标题：地铁新线开通（附线路图）</p>", "地铁新线开通（附线路图）"),
    ],
)
def test_an_original_title_in_brackets_loses_the_closing_bracket_only(line: str, expected: str) -> None:
    assert extract(sina(end=line)).original_title == expected


def test_editor_keyword_without_a_colon_needs_a_surname():
    assert extract(sina(end="<p>编辑推荐 热门话题</p>")).editor is None


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("<p>责任编辑：AP0015</p>", None),
        ("<p>编辑：ZN012</p>", None),
        ("<p>【编辑:SN034）</p>", None),
        ("<p>责任编辑：张三 AP0015</p>", "张三"),
        ("<p>（责任编辑：张三_NB10086）</p>", "张三"),
    ],
)
def test_a_staff_number_is_no_editor(line: str, expected: str | None) -> None:
    """Portals sign a page with the editor's staff number, alone or after the name: a reader sees the
    name, or no editor."""
    assert extract(sina(end=line)).editor == expected


def test_a_staff_number_in_place_of_the_editor_leaves_a_named_editor_elsewhere_on_the_page():
    html = sina(end="<p>责任编辑：AP0015</p>").replace("</body>", "<div>责任编辑：周敏</div></body>")
    assert extract(html).editor == "周敏"


def test_editor_far_below_the_text_is_found_on_the_whole_page():
    links = "".join(f"<li><a href='/n/{i}.shtml'>相关阅读第{i}条新闻标题</a></li>" for i in range(80))
    html = sina().replace("</body>", f"<ul class='related'>{links}</ul><div>责任编辑：周敏</div></body>")
    r = extract(html)
    assert (r.editor, r.sources["editor"]) == ("周敏", "page:editor")


def test_a_story_retold_from_an_outlet_names_it_as_the_source_without_ju():
    r = extract(netease(first="<p>据财联社5月3日消息，某市地铁新线今日开通试运营，全长二十公里。</p>"))
    assert (r.source, r.sources["source"]) == ("财联社", "dateline")


def test_english_wire_dateline_is_the_source():
    para = "WASHINGTON (AP) — The council met on Tuesday evening to discuss the new budget for schools. "
    paras = f"<p>{para}</p><p>{para * 3}</p><p>{para * 3}</p>"
    html = f"<html><body><h1>Budget</h1><div>{paras}</div></body></html>"
    assert extract(html).source == "AP"


@pytest.mark.parametrize(
    "dateline,source",
    [("BEIJING, Nov. 24 (Xinhua) -- ", "Xinhua"), ("XI'AN, Sept. 3 (Xinhua) -- ", "Xinhua"),
     ("LONDON, March 4 (Reuters) - ", "Reuters"), ("The council (AP) — ", None)],
)
def test_an_english_wire_dateline_with_its_day_is_the_source(dateline: str, source: str | None) -> None:
    rest = "The council met on Tuesday evening to discuss the new budget for schools. "
    html = f"<html><body><h1>Budget</h1><div><p>{dateline}{rest}</p><p>{rest * 3}</p><p>{rest * 3}</p></div>"
    assert extract(html + "</body></html>").source == source


def test_no_credits_on_a_plain_page():
    html = f"<html><body><h1>地铁新线开通</h1><div>{BODY}</div></body></html>"
    r = extract(html)
    assert (r.editor, r.source, r.original_title) == (None, None, None)


def test_a_person_named_as_the_source_is_the_writer_when_none_is_named():
    r = extract(sina(end="<p>来源: 李娟</p>"))
    assert (r.author, r.sources["author"], r.source) == ("李娟", "line:source-person", "李娟")


def test_an_outlet_as_the_source_is_never_the_writer():
    r = extract(sina(end="<p>来源：新京报</p>"))
    assert r.author is None and r.source == "新京报"


def test_author_label_far_above_the_text_is_found_on_the_whole_page():
    ads = "".join(f"<div><a href='/ad{i}'>广告位招租{i}</a></div>" for i in range(80))
    header = f"<div>时间：2024年05月03日 作者：郭明</div>{ads}"
    html = sina().replace("<h1 class='main-title'>", header + "<h1 class='main-title'>")
    r = extract(html)
    assert (r.author, r.sources["author"]) == ("郭明", "page:writer")


def wire_story(byline: str, credit: str) -> str:
    prose = "".join(
        f"<p>Oil prices moved on day {i} as traders weighed supply against demand in a quiet market.</p>"
        for i in range(4)
    )
    return (
        "<html lang='en'><head><title>Oil prices fall</title></head><body><article><h1>Oil prices fall</h1>"
        f"{byline}{prose}<p>{credit}</p></article></body></html>"
    )


def test_a_wire_credit_line_names_the_editors_and_the_reporters_when_the_byline_is_the_agency():
    credit = (
        "Reporting by Jane Smith in London and Kenji Sato in Tokyo; Writing by Jane Smith; "
        "Editing by Bob Jones"
    )
    r = extract(wire_story("<p class='byline'>By Reuters</p>", credit))
    assert (r.author, r.authors) == ("Jane Smith; Kenji Sato", ("Jane Smith", "Kenji Sato"))
    assert r.editor == "Bob Jones"
    assert (r.sources["author"], r.sources["editor"]) == ("line:reporting-by", "line:editing-by")
    assert r.source == "Reuters"


def test_a_person_in_the_byline_stays_the_author_beside_a_wire_credit_line():
    credit = "(Additional reporting by Jo Doe; Editing by Bo Li)"
    r = extract(wire_story("<p class='byline'>By Ann Writer</p>", credit))
    assert (r.author, r.editor) == ("Ann Writer", "Bo Li")


def test_prose_opening_with_reporting_by_is_no_credit_line():
    r = extract(wire_story("", "Reporting by the agency's own staff showed the deal was done by committee."))
    assert (r.author, r.editor) == (None, None)


@pytest.mark.parametrize(
    ("byline", "expected"),
    [
        ("<p>澎湃新闻记者 张三 实习生 李四</p>", "张三、李四"),
        ("<p>（记者 张三 通讯员 李四）</p>", "张三、李四"),
        ("<p>本报记者 张三 特约记者 李四 见习记者 王五</p>", "张三、李四、王五"),
    ],
)
def test_the_roles_of_further_writers_in_a_byline_are_no_names(byline: str, expected: str) -> None:
    assert extract(sina(first=byline)).author == expected


def test_a_comment_form_marked_author_names_no_writer():
    # 163's comment box: a login form whose class says "author", holding "[如何使用跟贴] 昵称 | 用户名："
    form = (
        "<div class='tie-author'><form class='tie-author-login' action='/login'>"
        "<a href='/help'>[如何使用跟贴]</a> <span class='tie-author-toname'><a href='#'>昵称</a> |</span>"
        "<label>用户名：<input name='username'></label></form></div>"
    )
    r = extract(netease(info="来源: 新京报") + form)
    assert r.author is None
    assert r.source == "新京报"


def test_an_outlet_in_the_author_box_is_the_source_not_the_writer():
    # qq's media box: <a class="author"> names the account, here a news outlet, not who wrote the story
    page = (
        "<html><head><meta charset='utf-8'><title>地铁新线开通_腾讯新闻</title></head><body>"
        "<h1>地铁新线开通</h1><div class='media-info'><a class='author' href='/omn/author/5001'>"
        f"<span>央视新闻</span></a><span class='time'>2024-05-03 10:21</span></div>{BODY}</body></html>"
    )
    r = extract(page)
    assert (r.author, r.source) == (None, "央视新闻")
    assert r.sources["source"] == "byline:class:outlet"


def test_a_person_in_the_author_box_stays_the_writer():
    page = (
        "<html><head><meta charset='utf-8'><title>地铁新线开通_腾讯新闻</title></head><body>"
        "<h1>地铁新线开通</h1><div class='media-info'><a class='author' href='/omn/author/5001'>"
        f"<span>王小明</span></a><span class='time'>2024-05-03 10:21</span></div>{BODY}</body></html>"
    )
    assert extract(page).author == "王小明"


@pytest.mark.parametrize(
    ("line", "name"),
    [("文丨茉莉", "茉莉"), ("文 | 茉莉", "茉莉"), ("撰文：三石", "三石"), ("作者丨风笑天", "风笑天")],
)
def test_a_labelled_pen_name_heading_the_text_is_the_writer_and_leaves_the_text(line: str, name: str) -> None:
    r = extract(sina(first=f"<p>{line}</p>"))
    assert (r.author, r.authors) == (name, (name,))
    assert r.text.startswith("某市地铁新线")


def test_a_short_word_alone_above_the_text_is_no_writer():
    assert extract(sina(first="<p>茉莉</p>")).author is None


@pytest.mark.parametrize("name", ["商讯", "腾讯", "中国电讯"])
def test_a_source_ending_in_xun_keeps_it(name: str) -> None:
    """讯 and 电 end a dateline ("5月3日电"), not a name that ends with them."""
    r = extract(netease(info=f"来源: <a href='/'>{name}</a>"))
    assert (r.source, r.author) == (name, None)  # a news service, never the writer (商 is a surname)


def test_a_declared_author_that_is_the_sites_name_and_tagline_is_the_source():
    tagline = "某财网_提供股票、基金、期货的金融资讯，以及理财服务"
    r = extract(sina(head=f"<meta name='author' content='{tagline}'>"))
    assert (r.author, r.source, r.sources["source"]) == (None, "某财网", "meta:author")


def test_a_reporter_whose_name_ends_in_xun_keeps_it():
    r = extract(sina(first="<p>本报记者 张讯 李电</p>"))
    assert r.authors == ("张讯", "李电")


@pytest.mark.parametrize("label", ["未知", "佚名", "匿名", "不详", "暂无", "网络整理"])
def test_a_writer_given_as_unknown_is_no_writer(label: str) -> None:
    """"作者：未知" says the writer is unknown: a reader sees no author, not the word."""
    r = extract(sina(end=f"<div class='bot_author'>作者：{label}&nbsp;&nbsp;责任编辑：王五</div>"))
    assert (r.author, r.editor) == (None, "王五")


@pytest.mark.parametrize(
    "line",
    [
        "文/图 王小明", "图/文 王小明", "文·图/王小明", "【文/观察者网专栏作者 王小明】", "本报评论员 王小明",
        "撰稿｜王小明",
    ],
)
def test_writer_labels_of_columns_and_pictures_name_the_writer_and_leave_the_text(line: str) -> None:
    r = extract(sina(first=f"<p>{line}</p>"))
    assert (r.author, r.sources["author"]) == ("王小明", "line:writer")
    assert r.text.startswith("某市地铁新线")


def test_a_commentary_signed_by_the_paper_names_no_writer():
    assert extract(sina(first="<p>本报评论员文章</p>")).author is None



def test_a_source_stated_as_this_article_comes_from_and_a_compiled_report_credit():
    # caijing: "本文来源于《财经网》 <date>" as the source, "【作者：《财经》综合报道】" after the text
    page = (
        "<html><head><meta charset='utf-8'><title>地铁新线开通_财经网</title></head><body>"
        "<h2>地铁新线开通</h2><div class='ar_source'><span class='source'>本文来源于"
        "<a href='/'>《财经网》</a>\u30002024年05月03日 17:38</span></div>"
        f"<div id='the_content'>{BODY}<div class='ar_writer'>【作者：<a href='/'>《财经》综合报道</a> 】"
        "(责任编辑：王娟)</div></div></body></html>"
    )
    r = extract(page)
    assert (r.author, r.editor, r.source) == (None, "王娟", "财经网")


def test_the_paper_naming_itself_in_the_author_box_is_no_source():
    page = (
        "<html><head><meta charset='utf-8'><title>地铁新线开通</title></head><body>"
        f"<h1>地铁新线开通</h1><div class='author'>本报</div>{BODY}</body></html>"
    )
    assert (extract(page).author, extract(page).source) == (None, None)
