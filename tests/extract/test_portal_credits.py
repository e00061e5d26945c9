"""Writer, writers, editor and source, field by field, on pages shaped like Chinese portals' article pages.

The pages are invented in the shapes of sohu, qq, ifeng, xinhuanet, people.com.cn, chinanews, 163 and
thepaper (their byline blocks, 来源/作者/编辑 lines, a reporter credited in the first paragraph), with the
same four paragraphs of text; every case checks all four fields, so a credit never lands in the wrong one.
"""

from __future__ import annotations

import pytest

from newscrawl.extract import extract

PARAGRAPHS = (
    "某市地铁新线今日上午开通试运营，全长二十公里，共设车站十五座，沿线市民出行将更加方便。",
    "据介绍，新线采用六节编组列车，最高时速八十公里，高峰时段发车间隔四分钟，运营至晚十一点。",
    "市民张先生表示，以前上班要换乘两次公交，现在坐地铁半小时就能到达单位，省下不少时间。",
    "下一步，该市还将加快建设另外三条线路，预计三年内全部建成，形成覆盖全城的轨道交通网络。",
)


def body(lead: str = "") -> str:
    """The four paragraphs, ``lead`` opening the first ("中新网北京5月3日电（记者 X）")."""
    first, *rest = PARAGRAPHS
    return "".join(f"<p>{p}</p>" for p in (lead + first, *rest))


#: each portal's article page, its byline block ({info}), lines before ({first}) and after ({end}) the text,
#: and the text ({body}: the four paragraphs, {lead} opening the first)
TEMPLATES = {
    "sohu": "<title>地铁新线开通_搜狐新闻</title></head><body><div class='head-nav'>搜狐首页 新闻 体育</div>"
    "<div class='text'><div class='text-title'><h1>地铁新线开通</h1><div class='article-info'>"
    "<span class='time' id='news-time'>2024-05-03 10:21</span>{info}</div></div>"
    "<article class='article' id='mp-editor'>{first}{body}{end}</article></div>"
    "<div class='statement'>声明：该文观点仅代表作者本人</div>",
    "qq": "<title>地铁新线开通_腾讯新闻</title></head><body><div class='qq-top'>腾讯网 新闻 视频</div>"
    "<div class='LEFT'><h1>地铁新线开通</h1><div class='article-info'>{info}</div>"
    "<div class='content clearfix'><div class='content-article'>{first}{body}{end}</div></div></div>"
    "<div class='qq-footer'>Copyright © 1998 - 2024 Tencent. All Rights Reserved</div>",
    "ifeng": "<title>地铁新线开通_资讯_凤凰网</title></head><body><div class='nav'>凤凰网首页 资讯 财经</div>"
    "<div class='artical'><h1 id='artical_topic'>地铁新线开通</h1><div id='artical_sth' class='clearfix'>"
    "<p class='p_time'><span class='ss01'>2024年05月03日 10:21</span>{info}</p></div>"
    "<div id='main_content' class='js_selection_area'>{first}{body}</div>{end}</div>"
    "<div class='footer'>凤凰新媒体 版权所有</div>",
    "xinhuanet": "<title>地铁新线开通-新华网</title></head><body><div class='nav'>新华网 首页 时政</div>"
    "<div class='h-title'>地铁新线开通</div><div class='h-info'>"
    "<span class='h-time'>2024-05-03 10:21:00</span> {info}</div><div id='p-detail'>{first}{body}{end}</div>"
    "<div class='foot'>新华网版权所有</div>",
    "people": "<title>地铁新线开通--社会--人民网</title></head><body><div class='nav'>人民网 首页 时政</div>"
    "<div class='clearfix w1000_320 text_title'><h1>地铁新线开通</h1>{info}</div>"
    "<div class='box_con' id='rwb_zw'>{first}{body}{end}</div><div class='foot'>人民网版权所有</div>",
    "chinanews": "<title>地铁新线开通-中新网</title></head><body><div class='nav'>中新网 首页 国内</div>"
    "<div class='content'><h1>地铁新线开通</h1><div class='left-time'><div class='left-t'>"
    "2024年05月03日 10:21\u3000{info}</div></div><div class='left_zw'>{first}{body}</div>{end}</div>"
    "<div class='foot'>中国新闻网版权所有</div>",
    "163": "<title>地铁新线开通_网易新闻</title></head><body><div class='N-nav'>网易首页 新闻 体育</div>"
    "<div class='post_main'><h1>地铁新线开通</h1><div class='post_info'>2024-05-03 10:21:00\u3000{info}</div>"
    "<div class='post_body'>{first}{body}{end}</div></div><div class='post_comment'>跟贴 0 参与 0</div>",
    "thepaper": "<title>地铁新线开通_澎湃新闻-The Paper</title></head><body>"
    "<div class='head'>澎湃新闻 首页 时事</div><div class='newscontent'>"
    "<h1 class='news_title'>地铁新线开通</h1>"
    "<div class='news_about'>{info}</div><div class='news_txt'>{first}{body}</div>{end}</div>"
    "<div class='foot'>澎湃新闻版权所有</div>",
    "guancha": "<title>地铁新线开通_观察者网</title></head><body><div class='content'>"
    "<h3>地铁新线开通</h3>{info}"
    "<div class='time fix'><span>2024-05-03 10:21:00</span><span>来源：观察者网</span></div>"
    "<div class='all-txt'>{first}{body}</div>{end}</div>",
    "caixin": "<title>地铁新线开通_财新网</title></head><body><div id='conTit'><h1>地铁新线开通</h1>"
    "<div class='artInfo'>{info}<br>2024年05月03日 10:21 <span>来源于 《财新周刊》</span></div></div>"
    "<div id='Main_Content_Val' class='text'>{first}{body}{end}</div>",
    "cctv": "<title>地铁新线开通_新闻频道_央视网(cctv.com)</title></head><body><div class='title_area'>"
    "<h1>地铁新线开通</h1><div class='info1'>{info}</div></div>"
    "<div class='content_area' id='content_area'>{first}{body}</div>{end}",
    "21jingji": "<title>地铁新线开通_21经济网</title></head><body><div class='titleHead'>"
    "<h1>地铁新线开通</h1><div class='newsDate'>2024-05-03 10:21</div>{info}</div>"
    "<div class='txtContent'>{first}{body}</div>{end}",
}


def portal(name: str, info: str = "", first: str = "", lead: str = "", end: str = "") -> str:
    """An article page in the shape of portal ``name`` (a key of ``TEMPLATES``)."""
    inner = TEMPLATES[name].format(info=info, first=first, body=body(lead), end=end)
    return f"<html><head><meta charset='utf-8'>{inner}</body></html>"


TWO = ("王小明", "李华")
#: page, then (author, authors, editor, source)
CASES: dict[str, tuple[str, tuple[str | None, tuple[str, ...], str | None, str | None]]] = {
    "sohu: source on the info line, editor closing the article": (
        portal(
            "sohu",
            info="<span data-role='original-link'>来源: <a href='/'>澎湃新闻</a></span>",
            end="<p data-role='editor-name'>责任编辑：<span>王五</span></p>",
        ),
        (None, (), "王五", "澎湃新闻"),
    ),
    "sohu: a repost's 来源 and 作者 on one line": (
        portal("sohu", first="<p>来源：澎湃新闻 作者：王小明</p>", end="<p>责任编辑：<span>王五</span></p>"),
        ("王小明", ("王小明",), "王五", "澎湃新闻"),
    ),
    "sohu: a pen name after 文丨": (
        portal("sohu", first="<p>文丨茉莉</p>", end="<p>责任编辑：王五</p>"),
        ("茉莉", ("茉莉",), "王五", None),
    ),
    "qq: a_source, a_author and an editor's staff number": (
        portal(
            "qq",
            info="<span class='a_source'><a href='/'>新京报</a></span>"
            "<span class='a_author'>作者：王小明</span><span class='a_time'>2024-05-03 10:21</span>",
            end="<div class='qq_editor'>责任编辑：PN031</div>",
        ),
        ("王小明", ("王小明",), None, "新京报"),
    ),
    "qq: two reporters in the wire dateline opening the text": (
        portal(
            "qq",
            info="<span class='a_source'>中国新闻网</span>",
            lead="中新网北京5月3日电（记者 王小明 李华）",
            end="<div class='qq_editor'>责任编辑：王五</div>",
        ),
        ("王小明、李华", TWO, "王五", "中国新闻网"),
    ),
    "ifeng: labelled source link, editor and staff number in brackets": (
        portal(
            "ifeng",
            info="<span class='ss02'>来源：</span><span class='ss03'><a href='/'>新京报</a></span>",
            end="<span class='zb_editor'>[责任编辑：王五 PN031]</span>",
        ),
        (None, (), "王五", "新京报"),
    ),
    "ifeng: only a staff number as the editor": (
        portal(
            "ifeng",
            info="<span class='ss03'>来源：新京报</span>",
            end="<span class='zb_editor'>[责任编辑：PN031]</span>",
        ),
        (None, (), None, "新京报"),
    ),
    "xinhuanet: source em, two reporters in the dateline": (
        portal(
            "xinhuanet",
            info="<span>来源： <em id='source'>新华网</em></span>",
            lead="新华社北京5月3日电（记者 王小明 李华）",
            end="<span class='editor'>[责任编辑: 赵刚 ]</span>",
        ),
        ("王小明、李华", TWO, "赵刚", "新华网"),
    ),
    "xinhuanet: photographers' credit closing the text": (
        portal(
            "xinhuanet",
            info="<span>来源： <em id='source'>新华网</em></span>",
            end="<p>新华社记者 王小明 李华 摄</p><div class='editor'>【责任编辑:赵刚】</div>",
        ),
        ("王小明、李华", TWO, "赵刚", "新华网"),
    ),
    "people.com.cn: author line, source with its channel, two editors": (
        portal(
            "people",
            info="<p class='author'>本报记者 王小明 李华</p><div class='box01'><div class='fl'>"
            "2024年05月03日05:21 | 来源：<a href='/'>人民网－人民日报</a></div></div>",
            end="<div class='edit clearfix'>(责编：赵刚、孙丽)</div>",
        ),
        ("王小明、李华", TWO, "赵刚、孙丽", "人民网－人民日报"),
    ),
    "people.com.cn: two reporters before 报道, no place": (
        portal(
            "people",
            info="<p class='author'>本报记者 王小明 李华 报道</p><div class='box01'>来源：人民日报</div>",
            end="<div class='edit clearfix'>(责编：赵刚)</div>",
        ),
        ("王小明、李华", TWO, "赵刚", "人民日报"),
    ),
    "people.com.cn: two reporters and the city before 报道": (
        portal(
            "people",
            info="<p class='author'>本报记者 王小明 李华 成都报道</p><div class='box01'>来源：人民日报</div>",
            end="<div class='edit clearfix'>(责编：赵刚)</div>",
        ),
        ("王小明、李华", TWO, "赵刚", "人民日报"),
    ),
    "people.com.cn: a reporter and a correspondent of the paper": (
        portal("people", info="<p class='author'>本报记者 王小明 本报通讯员 李华</p>"),
        ("王小明、李华", TWO, None, None),
    ),
    "chinanews: reporter in the dateline, 编辑 in brackets": (
        portal(
            "chinanews",
            info="来源：<a href='/'>中国新闻网</a>",
            lead="中新网北京5月3日电 (记者 王小明)",
            end="<div class='adEditor'><div class='left_name'>【编辑:赵刚】</div></div>",
        ),
        ("王小明", ("王小明",), "赵刚", "中国新闻网"),
    ),
    "chinanews: no source line, the dateline names it; a staff number as the editor": (
        portal(
            "chinanews",
            lead="中新网北京5月3日电 (记者 王小明 李华)",
            end="<div class='left_name'>【编辑:ZN012】</div>",
        ),
        ("王小明、李华", TWO, None, "中新网"),
    ),
    "163: post_author with source, two writers and an editor's code": (
        portal(
            "163",
            info="来源: <a href='/'>新京报</a>",
            end="<div class='post_author'>本文来源：新京报 作者：周敏 李华 责任编辑：王五_NE0011</div>",
        ),
        ("周敏、李华", ("周敏", "李华"), "王五", "新京报"),
    ),
    "163: post_author with the source and a staff number only": (
        portal(
            "163",
            info="来源: <a href='/'>新京报</a>",
            end="<div class='post_author'>本文来源：新京报 责任编辑：AP0015</div>",
        ),
        (None, (), None, "新京报"),
    ),
    "thepaper: reporter and intern line, source line": (
        portal(
            "thepaper", info="<p>澎湃新闻记者 王小明 实习生 李华</p><p>2024-05-03 10:21 来源：澎湃新闻</p>"
        ),
        ("王小明、李华", TWO, None, "澎湃新闻"),
    ),
    "thepaper: chief reporter": (
        portal("thepaper", info="<p>澎湃新闻首席记者 王小明</p><p>2024-05-03 10:21 来源：澎湃新闻</p>"),
        ("王小明", ("王小明",), None, "澎湃新闻"),
    ),
    "thepaper: 来源 and 作者 (a pen name) on the date line": (
        portal("thepaper", info="<p>2024-05-03 10:21 来源：澎湃新闻 作者：风笑天</p>"),
        ("风笑天", ("风笑天",), None, "澎湃新闻"),
    ),
    "sohu: a government account named 上海发布 is the whole source": (
        portal("sohu", first="<p>来源：上海发布 作者：王小明</p>"),
        ("王小明", ("王小明",), None, "上海发布"),
    ),
    "thepaper: an account's follow button is no part of its name": (
        portal("thepaper", info="<p>2024-05-03 10:21 来源：健康城东 关注</p>"),
        (None, (), None, "健康城东"),
    ),
    "guancha: a columnist's box, the name its link, the role beside it": (
        portal(
            "guancha",
            info="<div class='author-intro fix'><a href='/WangXiaoMing/list_1.shtml'><img src='/a.jpg'></a>"
            "<p><a href='/WangXiaoMing/list_1.shtml'>王小明</a></p><span>某大学教授</span></div>",
            end="<div class='editor-intro'>责任编辑：小鱼</div>",
        ),
        ("王小明", ("王小明",), "小鱼", "观察者网"),
    ),
    "caixin: 文｜ the outlet and its reporters, 来源于 the weekly, the page's editor and its layout editor": (
        portal("caixin", info="文｜财新 王小明 李华", end="<p>责任编辑：王五 | 版面编辑：赵六</p>"),
        ("王小明、李华", TWO, "王五", "财新周刊"),
    ),
    "cctv: 编辑 before 责任编辑, the one answerable for the page": (
        portal(
            "cctv",
            info="来源：央视新闻客户端 | 2024年05月03日 10:21",
            end="<div class='zebian'><p>编辑：王五 责任编辑：赵六</p></div>",
        ),
        (None, (), "赵六", "央视新闻客户端"),
    ),
    "21jingji: the paper's name ending in 报道 before 记者, the place filed from": (
        portal("21jingji", first="<p>21世纪经济报道记者 王小明 李华 北京报道</p>", end="<p>(编辑：王五)</p>"),
        ("王小明、李华", TWO, "王五", None),
    ),
    "sohu: a source line naming a reprint, no one": (
        portal("sohu", info="<span data-role='original-link'>来源: <a href='/'>转载文章</a></span>"),
        (None, (), None, None),
    ),
    "163: the source compiled by an outlet, 综合 in brackets after its name": (
        portal("163", info="来源: <a href=''>示例网(综合)</a>"),
        (None, (), None, "示例网"),
    ),
    "thepaper: reporter in brackets opening the text": (
        portal("thepaper", info="<p>来源：澎湃新闻</p>", lead="（记者 王小明）"),
        ("王小明", ("王小明",), None, "澎湃新闻"),
    ),
}


@pytest.mark.parametrize(("html", "expected"), CASES.values(), ids=list(CASES))
def test_people_and_provenance_field_by_field(
    html: str, expected: tuple[str | None, tuple[str, ...], str | None, str | None]
) -> None:
    r = extract(html)
    assert (r.author, r.authors, r.editor, r.source) == expected



#: credit lines giving each role its name ("撰文/X 摄影/Y", 文字｜, 文/, 图/, 视频：): the line opening
#: (``first``) or closing (``end``) the text, then the writers
CREDIT_LINES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "撰文 and 摄影 with slashes": ("first", "撰文/王小明 摄影/李华", ("王小明",)),
    "撰文 and 摄影 with bars": ("first", "撰文｜王小明 摄影｜李华", ("王小明",)),
    "文字 and 图": ("first", "文字/王小明 图/李华", ("王小明",)),
    "文 and 图": ("first", "文/王小明 图/李华", ("王小明",)),
    "traditional characters": ("first", "撰文／王小明　攝影／李華", ("王小明",)),
    "roles with colons closing the text": ("end", "撰文：王小明 摄影：李华 视频：赵六", ("王小明",)),
    "a photographer alone": ("first", "图/李华", ()),
    "a video's maker alone closing the text": ("end", "视频/赵六", ()),
}


@pytest.mark.parametrize(("where", "line", "writers"), CREDIT_LINES.values(), ids=list(CREDIT_LINES))
def test_a_credit_line_names_the_writer_and_leaves_the_text(
    where: str, line: str, writers: tuple[str, ...]
) -> None:
    """撰文 / 文字 / 文 name the writer; a photographer (摄影, 图) or a video's maker is no author; the line,
    at the head or the foot of the text, is no part of it."""
    r = extract(portal("sohu", **{where: f"<p>{line}</p>"}))
    assert (r.authors, r.text.split("\n")) == (writers, list(PARAGRAPHS))


def with_head(html: str, head: str) -> str:
    """``html`` with ``head`` (meta tags) at the start of its <head>."""
    return html.replace("<meta charset='utf-8'>", f"<meta charset='utf-8'>{head}", 1)


#: an account's or a column's name where a writer's would stand: page, then (author, editor, source)
ACCOUNTS: dict[str, tuple[str, tuple[str | None, str | None, str | None]]] = {
    "a column's author card under the text (its count and bio beside the name)": (
        portal(
            "sohu",
            end="<div class='article-author'><a class='author-meta-name' href='/gupiao/'>股市行情</a>"
            "<div class='author-meta-count'>总篇数<span>919</span>篇</div>"
            "<div class='author-meta-bio'>暂无简介</div></div>",
        ),
        (None, None, None),
    ),
    "a writer's author card: the name's own element": (
        portal(
            "sohu",
            end="<div class='article-author'><a class='author-meta-name' href='/u/1/'>王小明</a>"
            "<div class='author-meta-count'>总篇数<span>12</span>篇</div></div>",
        ),
        ("王小明", None, None),
    ),
    "a government office's account on thepaper's account platform": (
        portal(
            "thepaper",
            info="<p>2024-05-03 10:21<span>来源：澎湃新闻·澎湃号·政务</span></p>"
            "<div class='news_paike_author'><a href='gov_1'><div class='name'>江城发布</div></a>"
            "<div class='link'>关注</div></div><p>责任编辑：李华</p>",
        ),
        (None, "李华", "澎湃新闻·澎湃号·政务"),
    ),
    "a portal's feed in the author meta": (
        with_head(
            portal("163", info="来源: <a href='/'>新浪财经-自媒体综合</a>"),
            "<meta property='article:author' content='新浪财经-自媒体综合'>",
        ),
        (None, None, "新浪财经-自媒体综合"),
    ),
    "a name-like link of the site's menu above the breadcrumb row": (
        portal("ifeng").replace(
            "<div class='artical'>",
            "<ul class='menu'><li><a href='/a/'>理财课</a></li><li><a href='/b/'>万事通</a></li></ul>"
            "<div class='links'><a href='https://www.example.com'>示例网</a> &gt; <a href='/gp/'>股票</a>"
            " &gt; 正文</div><div class='artical'>",
        ),
        (None, None, None),
    ),
}


@pytest.mark.parametrize(("html", "expected"), ACCOUNTS.values(), ids=list(ACCOUNTS))
def test_an_account_or_a_column_is_no_writer(
    html: str, expected: tuple[str | None, str | None, str | None]
) -> None:
    r = extract(html)
    assert (r.author, r.editor, r.source) == expected


#: editors known by a pen name, no surname first: the closing line, then the editor
PEN_NAMES: dict[str, tuple[str, str, str]] = {
    "责任编辑 with its colon": ("163", "<div class='post_author'>来源：新京报 责任编辑：小鱼</div>", "小鱼"),
    "编辑 with its colon, a proofreader after it": ("thepaper", "<p>编辑：阿力 校对：王五</p>", "阿力"),
    "责编, a Latin pen name": ("people", "<div class='edit clearfix'>(责编：Ada)</div>", "Ada"),
    "two pen names": ("people", "<div class='edit clearfix'>(责编：小鱼、阿力)</div>", "小鱼、阿力"),
    "责任编辑 without a colon": ("sohu", "<p>责任编辑 小鱼</p>", "小鱼"),
    "责任编辑 without a colon in brackets": ("sohu", "<p>（责任编辑 小鱼）</p>", "小鱼"),
}


@pytest.mark.parametrize(("name", "end", "editor"), PEN_NAMES.values(), ids=list(PEN_NAMES))
def test_an_editor_known_by_a_pen_name_is_the_editor(name: str, end: str, editor: str) -> None:
    """A pen name is kept whole as the editor, never the writer; 责任编辑 and 责编 name only the editor, so
    the name after them needs no colon (after 编辑 alone it does, or a surname: "编辑推荐" is no credit)."""
    r = extract(portal(name, end=end))
    assert (r.author, r.editor, r.text.split("\n")[-1]) == (None, editor, PARAGRAPHS[-1])
    assert extract(portal("sohu", end="<p>编辑 阿力</p>")).editor is None


#: what stands by a writer's name and is no name: page, then (author, source)
BESIDE_THE_NAME: dict[str, tuple[str, tuple[str | None, str | None]]] = {
    "the font size tool after the name": (
        portal("thepaper", info="<p>作者：王小明 文字大小：【大】【中】【小】</p>"),
        ("王小明", None),
    ),
    "a chart's maker's verb after the name": (
        portal("xinhuanet", first="<p>图表：地铁新线开通 新华社记者 王小明 编制</p>"),
        ("王小明", None),
    ),
    "an empty writer's label before the mobile site's link": (
        portal("thepaper", info="<p>2024-05-03 09:46 来源: 作者: <a href='/m/'>手机版</a></p>"),
        (None, None),
    ),
    "the outlet before its reporter in the text's closing brackets": (
        portal("sohu", end="<p>下一步还将加快建设另外三条线路。（示例网 王小明）</p>"),
        ("王小明", None),
    ),
    "the site's name from its copyright meta in the author meta": (
        with_head(
            portal("chinanews", info="来源：新民晚报"),
            "<meta name='author' content='chinanews'>"
            "<meta name='copyright' content='www.chinanews.com,版权所有'>",
        ),
        (None, "新民晚报"),
    ),
    "a reporter's credit glued after the text's last sentence": (
        portal(
            "sohu",
            end="<p>沿线还将新建停车场三处，公交线路也将随之调整，方便市民换乘，"
            "目前各站点的配套工程正在抓紧施工，预计年底前全部完成。记者王小明</p>",
        ),
        ("王小明", None),
    ),
    "an account card's counts after a writer's name": (
        portal(
            "sohu",
            end="<div class='article-author-card'><div class='card-userinfo'>王小明</div>"
            "<div class='card-message'><span>文章</span><span>128</span><span>总阅读</span></div></div>",
        ),
        ("王小明", None),
    ),
    "a portal's government channel's account card": (
        portal(
            "sohu",
            info="<span data-role='original-link'>来源: <a href=''>示例政务</a></span>",
            end="<div class='article-author-card'><div class='card-userinfo'>示例政务</div>"
            "<div class='card-message'><span>文章</span><span><em></em></span><span>总阅读</span></div>"
            "</div>",
        ),
        (None, "示例政务"),
    ),
}


@pytest.mark.parametrize(("html", "expected"), BESIDE_THE_NAME.values(), ids=list(BESIDE_THE_NAME))
def test_page_furniture_by_the_writers_name_is_no_name(
    html: str, expected: tuple[str | None, str | None]
) -> None:
    r = extract(html)
    assert (r.author, r.source) == expected


@pytest.mark.parametrize(
    "line", ["21世纪经济报道记者 王小明 李华 北京报道", "本报记者 王小明 北京报道", "记者 王小明 北京报道"]
)
def test_a_byline_closing_with_the_place_filed_from_leaves_the_text(line: str) -> None:
    r = extract(portal("21jingji", first=f"<p>{line}</p>"))
    assert r.text.split("\n") == list(PARAGRAPHS)
