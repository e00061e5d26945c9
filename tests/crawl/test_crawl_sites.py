"""Site files: every shipped file loads, its patterns sort sample URLs, bad files name file and field."""

from __future__ import annotations

from pathlib import Path

import pytest
from scrapy.settings import Settings

from newscrawl.crawl.sites import (
    DEFAULT_SITES_DIR,
    SiteFileError,
    catastrophic,
    load_site,
    load_sites,
    parse_site,
)
from newscrawl.extract import extract
from newscrawl.spiders.loader import SiteSpiderLoader

REQUIRED_SITES = set(
    "sina sohu 163 qq ifeng xinhuanet people chinanews thepaper cnblogs csdn bbc demo".split()
)

# (site, URL, expected kind: "article", "list" or None for neither)
SAMPLES = [
    ("sina", "https://news.sina.com.cn/c/2026-11-20/doc-inhxyzab1234567.shtml", "article"),
    ("sina", "https://finance.sina.com.cn/roll/2026-11-19/doc-inhabcde7654321.shtml", "article"),
    ("sina", "https://tech.sina.com.cn/t/2026-11-18/doc-inhqwert1111111.shtml", "article"),
    ("sina", "https://news.sina.com.cn/roll/", "list"),
    ("sina", "https://news.sina.com.cn/china/", "list"),
    ("sina", "https://video.sina.com.cn/p/news/2026-11-20/doc-inhxyzab1234567.shtml", None),
    ("sina", "https://news.sina.com.cn/zt_d/some-topic/", None),
    ("sohu", "https://www.sohu.com/a/812345678_121106", "article"),
    ("sohu", "https://news.sohu.com/", "list"),
    ("sohu", "https://tv.sohu.com/v/abc.html", None),
    ("163", "https://news.163.com/26/1120/08/KABCDEFG0001899O.html", "article"),
    ("163", "https://www.163.com/news/article/KABCDEFG000189FH.html", "article"),
    ("163", "https://www.163.com/dy/article/KABCDEFG0531A2B3.html", "article"),
    ("163", "https://news.163.com/domestic/", "list"),
    ("163", "https://v.163.com/static/1/VABCDEFGH.html", None),
    ("qq", "https://new.qq.com/omn/20261120/20261120A03F4I00.html", "article"),
    ("qq", "https://news.qq.com/rain/a/20261120A01ABC00", "article"),
    ("qq", "https://new.qq.com/omv/video/p3001svg7z5", None),
    ("ifeng", "https://news.ifeng.com/c/8AbCdEfGhIj", "article"),
    ("ifeng", "http://nb.ifeng.com/a/20261120/14526474_0.shtml", "article"),
    ("ifeng", "https://news.ifeng.com/", "list"),
    ("ifeng", "https://v.ifeng.com/c/8AbCdEfGhIj", None),
    ("xinhuanet", "http://www.xinhuanet.com/world/2026-11/20/c_1130000001.htm", "article"),
    ("xinhuanet", "http://www.news.cn/politics/20261120/0123456789abcdef0123456789abcdef/c.html", "article"),
    ("xinhuanet", "http://www.news.cn/world/", "list"),
    ("xinhuanet", "http://www.xinhuanet.com/world/titlepic/1125327197_title1n.jpg", None),
    ("people", "http://politics.people.com.cn/n1/2026/1120/c1001-40000001.html", "article"),
    ("people", "http://culture.people.com.cn/GB/405419/index.html", "list"),
    ("people", "http://v.people.cn/n1/2026/1120/c413792-40000002.html", None),
    ("chinanews", "https://www.chinanews.com.cn/gn/2026/11-20/10000001.shtml", "article"),
    ("chinanews", "https://www.chinanews.com.cn/scroll-news/news2.html", "list"),
    ("chinanews", "https://www.chinanews.com.cn/shipin/2026/11-20/news100001.shtml", None),
    ("thepaper", "https://www.thepaper.cn/newsDetail_forward_30000001", "article"),
    ("thepaper", "https://www.thepaper.cn/channel_25950", "list"),
    ("thepaper", "https://www.thepaper.cn/user_12345", None),
    ("cnblogs", "https://www.cnblogs.com/someone/p/18500001.html", "article"),
    ("cnblogs", "https://www.cnblogs.com/someone/archive/2026/11/20/18500002.html", "article"),
    ("cnblogs", "https://www.cnblogs.com/sitehome/p/2", "list"),
    ("cnblogs", "https://www.cnblogs.com/someone/category/12345.html", None),
    ("csdn", "https://blog.csdn.net/coder_li/article/details/134567890", "article"),
    ("csdn", "https://blog.csdn.net/nav/python", "list"),
    ("csdn", "https://blog.csdn.net/coder_li/article/list/2", "list"),
    ("csdn", "https://download.csdn.net/download/coder_li/12345", None),
    ("csdn", "https://blog.csdn.net/coder_li/category_1234.html", None),
    ("bbc", "https://www.bbc.com/news/articles/c0abcdefgh1o", "article"),
    ("bbc", "https://www.bbc.co.uk/news/world-europe-68000001", "article"),
    ("bbc", "https://www.bbc.com/news/world", "list"),
    ("bbc", "https://www.bbc.com/news/live/world-68000002", None),
    ("demo", "http://demo.newscrawl.test/china/2026-11-20/doc-ihxqkzm3251807.shtml", "article"),
    ("demo", "http://demo.newscrawl.test/tech/index_2.html", "list"),
    ("demo", "http://demo.newscrawl.test/", "list"),
    ("demo", "http://demo.newscrawl.test/passport/login", None),
]


@pytest.fixture(scope="module")
def sites():
    return load_sites()


def test_every_required_site_has_a_file(sites):
    assert REQUIRED_SITES <= set(sites)


def test_every_site_file_loads_and_has_start_points(sites):
    for site in sites.values():
        assert site.allowed_domains and site.article_patterns
        assert site.pages or site.roll or site.feeds or site.sitemaps


@pytest.mark.parametrize(("name", "url", "kind"), SAMPLES)
def test_site_patterns_sort_sample_urls(sites, name, url, kind):
    site = sites[name]
    assert site.is_article(url) == (kind == "article")
    assert site.is_list(url) == (kind == "list")


def test_every_site_has_accepted_and_rejected_samples():
    for name in REQUIRED_SITES:
        kinds = {kind for site, _, kind in SAMPLES if site == name}
        assert "article" in kinds and None in kinds, name


def test_sina_roll_feed_pages_expand():
    sina = load_site(DEFAULT_SITES_DIR / "sina.toml")
    urls = sina.roll_urls()
    assert len(urls) == sina.roll_feed.pages and urls[0].endswith("page=1") and "{page}" not in urls[-1]


def test_loader_makes_one_spider_per_site_file(sites):
    loader = SiteSpiderLoader.from_settings(Settings({"SPIDER_MODULES": ["newscrawl.spiders"]}))
    assert set(loader.list()) >= set(sites)
    sina = loader.load("sina")
    assert sina.site.name == "sina" and sina.allowed_domains == ["sina.com.cn"]


def test_site_settings_become_spider_custom_settings():
    loader = SiteSpiderLoader.from_settings(Settings({"SPIDER_MODULES": ["newscrawl.spiders"]}))
    assert loader.load("demo").custom_settings["AUTOTHROTTLE_ENABLED"] is False


def test_loader_reads_sites_dir_setting(tmp_path: Path):
    (tmp_path / "mini.toml").write_text(
        'allowed_domains = ["a.example"]\n[start]\npages = ["https://a.example/"]\n'
        "[patterns]\narticle = ['/a/\\d+']\n",
        encoding="utf-8",
    )
    loader = SiteSpiderLoader.from_settings(Settings({"NEWSCRAWL_SITES_DIR": str(tmp_path)}))
    assert loader.list() == ["mini"]


# -- bad files ------------------------------------------------------------------------------------------

GOOD = {
    "allowed_domains": ["a.example"],
    "start": {"pages": ["https://a.example/"]},
    "patterns": {"article": [r"/a/\d+"]},
}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"allowed_domains": []}, "allowed_domains"),
        ({"allowed_domains": ["https://a.example/"]}, "allowed_domains[0]"),
        ({"start": {}}, "start"),
        ({"start": {"pages": ["a.example/news"]}}, "start.pages[0]"),
        ({"start": {"pagez": ["https://a.example/"]}}, "start.pagez"),
        ({"patterns": {"article": ["(unclosed"]}}, "patterns.article[0]"),
        ({"patterns": {"list": ["/l/"]}}, "patterns.article"),
        ({"xpath": {"title": "//h1[@class="}}, "xpath.title"),
        ({"xpath": {"subtitle": "//h2"}}, "xpath.subtitle"),
        ({"xpath": {"exclude": "//div"}}, "xpath.exclude"),
        ({"xpath": {"exclude": ["//div[@id='ad']", "//div["]}}, "xpath.exclude[1]"),
        ({"timezone": "Mars/Olympus"}, "timezone"),
        ({"language": "Chinese"}, "language"),
        ({"name": "Bad Name"}, "name"),
        ({"roll": {"pages": 0}}, "roll.pages"),
        ({"settings": {"download_delay": 1}}, "settings.download_delay"),
        ({"start_urls": ["https://a.example/"]}, "start_urls"),
        ({"settings": 5}, "settings"),
        ({"settings": {"DOWNLOAD_DELAY": "fast"}}, "settings.DOWNLOAD_DELAY"),
        ({"settings": {"CONCURRENT_REQUESTS": float("nan")}}, "settings.CONCURRENT_REQUESTS"),
        ({"xpath": {"title": "$nosuchvar"}}, "xpath.title"),
        ({"xpath": {"author": "nosuch:function(//p)"}}, "xpath.author"),
        ({"xpath": {"exclude": ["//div[$v]"]}}, "xpath.exclude[0]"),
        ({"patterns": {"article": ["/a/", "(a+)+$"]}}, "patterns.article[1]"),
        ({"patterns": {"article": ["/a/"], "deny": [r"^(\w+\s?)*$"]}}, "patterns.deny[0]"),
        ({"roll": {"pages": 3_000_000}}, "roll.pages"),
    ],
)
def test_bad_site_data_names_the_field(change, field):
    with pytest.raises(SiteFileError) as info:
        parse_site({**GOOD, **change}, "settings/sites/bad.toml")
    assert info.value.field == field
    assert str(info.value).startswith(f"settings/sites/bad.toml: {field}: ")


def test_unparsable_toml_names_the_file(tmp_path: Path):
    path = tmp_path / "broken.toml"
    path.write_text("allowed_domains = [\n", encoding="utf-8")
    with pytest.raises(SiteFileError, match=r"broken\.toml: \(file\): not valid TOML"):
        load_site(path)


def test_duplicate_site_names_name_both_files(tmp_path: Path):
    body = 'name = "same"\nallowed_domains = ["a.example"]\n[start]\npages = ["https://a.example/"]\n'
    body += "[patterns]\narticle = ['/a/']\n"
    (tmp_path / "one.toml").write_text(body, encoding="utf-8")
    (tmp_path / "two.toml").write_text(body, encoding="utf-8")
    with pytest.raises(SiteFileError, match=r"two\.toml: name: 'same' is already defined by .*one\.toml"):
        load_sites(tmp_path)


def test_name_defaults_to_file_stem():
    assert parse_site(GOOD, "dir/my-site.toml").name == "my-site"


def test_exclude_xpaths_are_kept_apart_from_the_field_overrides():
    site = parse_site({**GOOD, "xpath": {"title": "//h1", "exclude": ["//div[@class='promo']"]}}, "x.toml")
    assert site.exclude == ("//div[@class='promo']",)
    assert dict(site.xpath) == {"title": "//h1"}


def test_sina_drops_its_in_article_promo_boxes():
    page = (
        "<body><div id='artibody'><div class='new_style_article'><p>评选火热进行中！点击投票</p></div>"
        + "<p>新京报快讯 今日有网友爆料，记者就此采访了有关部门。</p>" * 12
        + "</div></body>"
    )
    sina = load_site(DEFAULT_SITES_DIR / "sina.toml")
    assert "点击投票" in extract(page).text
    assert "点击投票" not in extract(page, prune_xpath=sina.exclude).text


def test_sohu_drops_its_back_link_and_platform_disclaimer():
    paragraphs = (
        "初雪过后，古城墙迎来今冬第一个客流高峰，不少游客专程赶来拍摄雪景。",
        "景区工作人员介绍，当天上午入园游客超过一万人次，比上周同期增长约三成。为保障安全，景区对部分坡道进行了"
        "临时封闭，并安排专人引导游客分流。",
        "不少外地游客表示，雪后的城墙别有一番韵味，和平时看到的完全不一样。",
    )
    page = (
        "<body><div class='text'><div class='text-title'><h1>古城墙迎来游客高峰</h1></div>"
        "<article class='article' id='mp-editor'>" + "".join(f"<p>{p}</p>" for p in paragraphs)
        + "<a href='//www.sohu.com/?strategyid=00001' id='backsohucom'><span class='backword'>"
        "返回搜狐，查看更多</span></a></article>"
        "<div class='statement'>平台声明：该文观点仅代表作者本人，"
        "搜狐号系信息发布平台，搜狐仅提供信息存储空间服务。</div>"
        "</div></body>"
    )
    sohu = load_site(DEFAULT_SITES_DIR / "sohu.toml")
    plain, pruned = extract(page).text, extract(page, prune_xpath=sohu.exclude).text
    assert "返回搜狐" in plain and "平台声明" in plain
    assert pruned == "\n".join(paragraphs)


def extract_as(name: str, page: str):
    """``page`` extracted as a crawl of site file ``name`` does: its exclusions, XPath overrides and zone."""
    site = load_site(DEFAULT_SITES_DIR / f"{name}.toml")
    return extract(page, field_xpaths=site.xpath, prune_xpath=site.exclude, timezone=site.timezone)


def test_cnblogs_takes_the_writer_from_the_posts_foot_line():
    sentence = "个工作进程负责解析页面并抽取正文，主进程只负责调度和写入，下载不会因为解析而停顿。"
    body = "".join(f"<p>第{i}{sentence}</p>" for i in range(6))
    page = (
        "<html><head><title>用多进程加速正文抽取 - 风笑天 - 博客园</title></head><body><div class='post'>"
        "<h1 class='postTitle'><a id='cb_post_title_url' href='/fengxt/p/1'>用多进程加速正文抽取</a></h1>"
        f"<div id='cnblogs_post_body'>{body}</div><div class='postDesc'>posted @ "
        "<span id='post-date'>2026-11-24 10:05</span> <a href='https://www.cnblogs.com/fengxt/'>风笑天</a> "
        "阅读(<span>123</span>) 评论(<span>0</span>) <a href='#'>编辑</a> <a href='#'>收藏</a>"
        "</div></div></body></html>"
    )
    assert extract(page).author is None  # a pen name the surname list does not know
    r = extract_as("cnblogs", page)
    assert (r.author, r.sources["author"]) == ("风笑天", "xpath")
    assert r.published_at == "2026-11-24T10:05:00+08:00"


def test_csdn_takes_the_writer_from_the_bar_by_the_time_and_drops_the_licence_notice():
    sentence = "在协程中直接调用阻塞函数会卡住整个事件循环，应当换成异步版本或者放进线程池执行。"
    body = "".join(f"<p>第{i}条：{sentence}</p>" for i in range(5))
    page = (
        "<html><head><title>asyncio 的五个常见误区_python-CSDN博客</title></head><body>"
        "<div class='article-header'><h1 class='title-article'>asyncio 的五个常见误区</h1>"
        "<div class='article-info-box'><div class='bar-content'>"
        "<a class='follow-nickName' href='https://blog.csdn.net/coder_li'>代码老李</a>"
        "<span class='time'>于&nbsp;2025-11-20 09:15:32&nbsp;发布</span>"
        "<span class='read-count'>阅读量1.2k</span>"
        "</div><div class='article-copyright'><div class='creativecommons'>版权声明：本文为博主原创文章，遵循"
        " CC 4.0 BY-SA 版权协议，转载请附上原文出处链接和本声明。</div></div></div></div>"
        f"<article><div id='content_views'>{body}</div></article>"
        "<div class='more-toolbox-new'><a>代码老李</a> 关注 23 点赞 踩 45 收藏 觉得还不错? 一键收藏"
        " 0 评论 分享</div>"
        "</body></html>"
    )
    assert extract(page).author is None  # a pen name the surname list does not know
    r = extract_as("csdn", page)
    assert (r.author, r.sources["author"]) == ("代码老李", "xpath")
    assert r.published_at == "2025-11-20T09:15:32+08:00"
    assert r.text == "\n".join(f"第{i}条：{sentence}" for i in range(5))


def test_site_settings_with_good_values_pass():
    values = {"DOWNLOAD_DELAY": "0.5", "TELNETCONSOLE_ENABLED": False}
    site = parse_site({**GOOD, "settings": values}, "x.toml")
    assert site.settings["DOWNLOAD_DELAY"] == "0.5"


@pytest.mark.parametrize(
    ("pattern", "bad"),
    [
        (r"(a+)+$", True),
        (r"(a*)*b", True),
        (r"(a+|b)+$", True),
        (r"(x+x+)+y", True),
        (r"^https?://(?:[\w-]+\.)+cn/\d+\.html$", False),  # each repetition ends on a dot
        (r"(?:\w+/)+\d+", False),
        (r"(?:ab)+", False),
        (r"^https?://[\w.]+\.people\.(?:com\.)?cn/n1/\d{4}/c\d+-\d+\.html", False),
    ],
)
def test_catastrophic_patterns_are_told_from_safe_ones(pattern, bad):
    assert catastrophic(pattern) is bad
