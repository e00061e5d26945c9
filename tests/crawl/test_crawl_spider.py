"""The generic news spider: start points, arguments, and what each kind of response yields."""

from __future__ import annotations

import asyncio

import pytest
from scrapy import Request

from newscrawl.items import NewsItem

from .helpers import article_html, list_html, response

HOME = "https://news.example.cn/"
ARTICLE = "https://news.example.cn/china/2026-11-20/doc-iabcdefg1234567.shtml"
ARTICLE2 = "https://news.example.cn/china/2026-11-19/doc-iabcdefg7654321.shtml"
PAGE2 = "https://news.example.cn/china/index_2.html"


def start_requests(spider) -> list[Request]:
    async def collect():
        return [r async for r in spider.start()]

    return asyncio.run(collect())


def test_start_points_are_the_sites_typed_start_urls(make_spider):
    requests = start_requests(make_spider())
    assert [(r.url, r.cb_kwargs["kind"]) for r in requests] == [
        (HOME, "list"),
        ("https://news.example.cn/sitemap.xml", "feed"),
    ]
    assert all(r.dont_filter for r in requests)  # revisited on every run


def test_start_urls_argument_replaces_start_points(make_spider):
    requests = start_requests(make_spider(start_urls=f"{ARTICLE}, {PAGE2}"))
    assert [(r.url, r.cb_kwargs["kind"]) for r in requests] == [(ARTICLE, "auto"), (PAGE2, "auto")]


def test_base_url_moves_start_points(make_spider):
    requests = start_requests(make_spider(base_url="http://127.0.0.1:8123"))
    assert [r.url for r in requests] == ["http://127.0.0.1:8123/", "http://127.0.0.1:8123/sitemap.xml"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"max_pages": "many"}, "max_pages"),
        ({"max_pages": "0"}, "max_pages"),
        ({"since": "20261101"}, "since"),
        ({"start_urls": "news.example.cn/a"}, "start_urls"),
        ({"base_url": "127.0.0.1:80"}, "base_url"),
    ],
)
def test_bad_arguments_fail_early_naming_the_argument(make_spider, args, message):
    with pytest.raises(ValueError, match=message):
        make_spider(**args)


def test_list_page_follows_article_and_pagination_links_only(make_spider):
    spider = make_spider()
    others = ["/video/2026-11-20/doc-ivideo1234567.shtml", "/about/us.html", "https://other.example/"]
    page = list_html([ARTICLE, PAGE2, *others])
    out = list(spider.parse(response(HOME, page), kind="list"))
    assert [(r.url, r.meta["newscrawl_kind"]) for r in out] == [(ARTICLE, "article"), (PAGE2, "list")]


def test_a_list_page_whose_links_match_no_article_pattern_is_warned_about(make_spider, caplog):
    spider = make_spider()
    slipped = ARTICLE.replace("https://", "http://")  # the site file says https
    list(spider.parse(response(HOME, list_html([slipped, PAGE2])), kind="list"))
    warned = [r.getMessage() for r in caplog.records if "matches an article pattern" in r.getMessage()]
    assert len(warned) == 1 and HOME in warned[0] and "patterns.article" in warned[0]
    assert spider.crawler.stats.get_value("newscrawl/lists/no_article_links") == 1


def test_a_list_page_with_article_links_is_not_warned_about(make_spider, caplog):
    spider = make_spider()
    list(spider.parse(response(HOME, list_html([ARTICLE, PAGE2])), kind="list"))
    assert not [r for r in caplog.records if "matches an article pattern" in r.getMessage()]
    assert spider.crawler.stats.get_value("newscrawl/lists/no_article_links") is None


def test_article_page_yields_one_item_carrying_the_raw_body(make_spider):
    spider = make_spider()
    out = list(spider.parse(response(ARTICLE, article_html()), kind="article"))
    assert len(out) == 1 and isinstance(out[0], NewsItem)
    assert out[0]["url"] == ARTICLE and out[0]["body"].startswith(b"<html>") and out[0]["site"] == "portal"


def test_articles_do_not_follow_links_unless_the_site_says_so(make_spider):
    page = article_html().replace("</body>", f'<a href="{ARTICLE2}">相关</a></body>')

    def followed(spider):
        out = spider.parse(response(ARTICLE, page), kind="article")
        return [r.url for r in out if isinstance(r, Request)]

    assert followed(make_spider()) == []
    assert ARTICLE2 in followed(make_spider(site={"follow_from_articles": True}))


def test_unmatched_page_is_decided_by_the_page_kind_classifier(make_spider):
    spider = make_spider()
    spider.crawler.stats.open_spider()
    page = response("https://news.example.cn/special/topic.html", article_html())
    out = list(spider.parse(page, kind="auto"))
    items = [o for o in out if isinstance(o, NewsItem)]
    kind = spider.crawler.stats.get_value("newscrawl/pages/classified_article")
    if items:  # classified as an article: the extraction travels with the item, stage 1 will not redo it
        assert kind == 1 and items[0]["extraction"].text
    else:
        assert spider.crawler.stats.get_value("newscrawl/pages/classified_list") == 1


def test_an_unmatched_page_without_text_is_counted_empty_and_its_item_dropped_as_no_text(make_spider):
    from scrapy.exceptions import DropItem
    from scrapy.utils.misc import build_from_crawler

    from newscrawl.pipelines.record import RecordPipeline

    spider = make_spider()
    spider.crawler.stats.open_spider()
    shell = "<html><head><title>App</title></head><body><div id='app'></div><script>go()</script></body>"
    out = spider.parse(response("https://news.example.cn/app.html", shell), kind="auto")
    (item,) = [o for o in out if isinstance(o, NewsItem)]
    assert item["extraction"].page_kind == "empty"
    stats = spider.crawler.stats
    assert stats.get_value("newscrawl/pages/classified_empty") == 1
    assert stats.get_value("newscrawl/pages/classified_article") is None
    with pytest.raises(DropItem, match="no text"):
        build_from_crawler(RecordPipeline, spider.crawler).process_item(item)
    assert stats.get_value("newscrawl/dropped/no_text") == 1


def test_an_unmatched_error_page_is_counted_as_such_and_its_item_dropped(make_spider):
    from scrapy.exceptions import DropItem
    from scrapy.utils.misc import build_from_crawler

    from newscrawl.pipelines.record import RecordPipeline

    spider = make_spider()
    spider.crawler.stats.open_spider()
    page = "<html><head><title>404 Not Found</title></head><body><p>The page you requested was not found.</p>"
    out = spider.parse(response("https://news.example.cn/gone.html", page), kind="auto")
    (item,) = [o for o in out if isinstance(o, NewsItem)]
    assert item["extraction"].page_kind == "error"
    stats = spider.crawler.stats
    assert stats.get_value("newscrawl/pages/classified_error") == 1
    assert stats.get_value("newscrawl/pages/classified_article") is None
    with pytest.raises(DropItem, match="not an article"):
        build_from_crawler(RecordPipeline, spider.crawler).process_item(item)
    assert stats.get_value("newscrawl/dropped/error_page") == 1


def test_sitemap_entries_are_followed_with_their_kind(make_spider):
    body = (
        '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<url><loc>{ARTICLE}</loc></url><url><loc>https://news.example.cn/special/x.html</loc></url></urlset>"
    )
    out = list(make_spider().parse(response("https://news.example.cn/sitemap.xml", body), kind="feed"))
    assert [(r.url, r.meta["newscrawl_kind"]) for r in out] == [
        (ARTICLE, "article"),
        ("https://news.example.cn/special/x.html", "auto"),
    ]


def test_roll_feed_relative_urls_are_joined(make_spider):
    body = '{"result": {"data": [{"url": "/china/2026-11-20/doc-iabcdefg1234567.shtml", "ctime": "1"}]}}'
    out = list(make_spider().parse(response("https://news.example.cn/roll/feed.json", body), kind="roll"))
    assert [r.url for r in out] == [ARTICLE]


def test_since_skips_older_feed_entries(make_spider):
    body = (
        '<rss><channel><item><link>https://news.example.cn/china/2026-10-01/doc-iold0000000001.shtml</link>'
        "<pubDate>Thu, 01 Oct 2026 08:00:00 +0800</pubDate></item>"
        f"<item><link>{ARTICLE}</link><pubDate>Fri, 20 Nov 2026 08:30:00 +0800</pubDate></item>"
        "</channel></rss>"
    )
    spider = make_spider(since="2026-11-01")
    spider.crawler.stats.open_spider()
    out = list(spider.parse(response("https://news.example.cn/rss.xml", body), kind="feed"))
    assert [r.url for r in out] == [ARTICLE]
    assert spider.crawler.stats.get_value("newscrawl/skipped/too_old") == 1


def test_max_pages_bounds_the_requests(make_spider):
    spider = make_spider(max_pages="3")
    spider.crawler.stats.open_spider()
    links = [f"https://news.example.cn/china/2026-11-20/doc-ipage{n:09d}.shtml" for n in range(5)]
    start = start_requests(spider)  # 2 start points
    out = list(spider.parse(response(HOME, list_html(links)), kind="list"))
    assert len(start) + len(out) == 3
    assert spider.crawler.stats.get_value("newscrawl/skipped/max_pages") == 4


@pytest.mark.parametrize("algorithm", ["linedensity", "cetd"])
def test_unmatched_page_is_extracted_with_the_configured_algorithm(make_spider, algorithm):
    # the spider's own extraction (for the page-kind classifier) is the one the item keeps, so it must
    # be the crawl's algorithm and parameters, as in stage 1
    spider = make_spider({"NEWSCRAWL_ALGORITHM": algorithm, "NEWSCRAWL_LINEDENSITY_THRESHOLD": 0.4})
    spider.crawler.stats.open_spider()
    page = response("https://news.example.cn/special/topic.html", article_html())
    (item,) = [o for o in spider.parse(page, kind="auto") if isinstance(o, NewsItem)]
    assert item["extraction"].algorithm == algorithm


def test_a_bad_algorithm_setting_is_named_when_the_spider_extracts(make_spider):
    from newscrawl.crawl.config import ConfigError

    spider = make_spider({"NEWSCRAWL_ALGORITHM": "nosuch"})
    spider.crawler.stats.open_spider()
    page = response("https://news.example.cn/special/topic.html", article_html())
    with pytest.raises(ConfigError, match="NEWSCRAWL_ALGORITHM"):
        list(spider.parse(page, kind="auto"))


def test_a_list_page_with_an_attribute_flood_is_not_parsed_for_links(make_spider):
    # Scrapy's link extractor parses with libxml2, which is quadratic in attributes per element
    spider = make_spider()
    flood = "<div " + " ".join(f"a{i}" for i in range(5_000)) + ">x</div>"
    body = list_html([ARTICLE]).replace("<ul>", flood + "<ul>")
    assert list(spider.parse(response(HOME, body), kind="list")) == []
    assert spider.crawler.stats.get_value("newscrawl/pages/unparsable_markup") == 1
    # with the limit raised, the same page is read
    spider = make_spider({"NEWSCRAWL_MAX_ATTRIBUTES": 10_000})
    assert [r.url for r in spider.parse(response(HOME, body), kind="list")] == [ARTICLE]


def sitemap(urls: list[str], index: bool = False) -> str:
    root, entry = ("sitemapindex", "sitemap") if index else ("urlset", "url")
    items = "".join(f"<{entry}><loc>{u}</loc></{entry}>" for u in urls)
    return f'<?xml version="1.0"?><{root} xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{items}</{root}>'


def test_entries_over_the_cap_are_counted_not_followed(make_spider):
    spider = make_spider({"NEWSCRAWL_MAX_FEED_ENTRIES": 10})
    spider.crawler.stats.open_spider()
    links = [f"https://news.example.cn/china/2026-11-20/doc-ipage{n:09d}.shtml" for n in range(25)]
    out = list(spider.parse(response("https://news.example.cn/sitemap.xml", sitemap(links)), kind="feed"))
    assert [r.url for r in out] == links[:10]
    assert spider.crawler.stats.get_value("newscrawl/feeds/entries_cut") == 15


def test_child_sitemaps_are_requested_one_at_a_time(make_spider):
    spider = make_spider()
    index_url = "https://news.example.cn/sitemap.xml"
    children = [f"https://news.example.cn/sitemap-{n}.xml" for n in range(3)]
    # the index lists itself and a child twice: each is read once
    index = sitemap([*children, index_url, children[0]], index=True)
    assert list(spider.parse(response(index_url, index), kind="feed")) == []  # queued, not requested
    (first,) = spider.release_sitemaps(idle=True)
    assert first.url == children[0] and first.meta["newscrawl_child_sitemap"]
    assert list(spider.release_sitemaps(idle=False)) == []  # one in flight (and no scheduler to ask)
    child = response(first.url, sitemap([ARTICLE]))
    child.request.meta.update(first.meta)
    assert [r.url for r in spider.parse(child, kind="feed")] == [ARTICLE]
    assert [r.url for r in spider.release_sitemaps(idle=True)] == [children[1]]
    assert [r.url for r in spider.release_sitemaps(idle=True)] == [children[2]]  # idle: nothing in flight
    assert list(spider.release_sitemaps(idle=True)) == []


def test_a_failed_child_sitemap_releases_the_next(make_spider):
    spider = make_spider()
    index = sitemap([f"https://news.example.cn/sitemap-{n}.xml" for n in range(2)], index=True)
    list(spider.parse(response("https://news.example.cn/sitemap.xml", index), kind="feed"))
    (first,) = spider.release_sitemaps(idle=True)

    class Failure:
        value = "404"

    assert list(first.errback(Failure())) == []  # no scheduler to ask: the next waits for idle
    assert not spider._sitemap_in_flight
    assert [r.url for r in spider.release_sitemaps(idle=True)] == ["https://news.example.cn/sitemap-1.xml"]


def test_a_roll_feed_nested_200000_deep_gives_no_entries(make_spider):
    spider = make_spider()
    spider.crawler.stats.open_spider()
    body = "[" * 200_000 + "]" * 200_000
    assert list(spider.parse(response("https://news.example.cn/roll/feed.json", body), kind="roll")) == []
    assert spider.crawler.stats.get_value("newscrawl/feeds/empty") == 1


def test_a_child_sitemap_is_in_flight_until_its_last_entry_is_read(make_spider, monkeypatch):
    # Scrapy reads a callback's requests as it schedules them: an article answered while the first entries
    # of a child sitemap were scheduled found the scheduler nearly empty and released the next sitemap
    spider = make_spider()
    monkeypatch.setattr(spider, "_scheduled", lambda: 0)  # the downloader keeps the scheduler empty
    children = [f"https://news.example.cn/sitemap-{n}.xml" for n in range(3)]
    index = response("https://news.example.cn/sitemap.xml", sitemap(children, index=True))
    (first,) = spider.parse(index, kind="feed")  # the first child, the scheduler being empty
    assert first.url == children[0]
    links = [f"https://news.example.cn/china/2026-11-20/doc-ipage{n:09d}.shtml" for n in range(50)]
    child = response(first.url, sitemap(links))
    child.request.meta.update(first.meta)
    out = iter(spider.parse(child, kind="feed"))
    assert [next(out).url for _ in range(10)] == links[:10]
    assert list(spider.release_sitemaps()) == []  # an article answered now: the child is still in flight
    rest = [r.url for r in out]
    assert rest == [*links[10:], children[1]]  # its last entry read: the next sitemap
    assert list(spider.release_sitemaps()) == []
