"""Replay and incremental-skip downloader middlewares."""

from __future__ import annotations

import asyncio

import pytest
from scrapy import Request
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import HtmlResponse, Response
from scrapy.utils.misc import build_from_crawler
from twisted.internet.defer import Deferred

from newscrawl.middlewares import (
    ORIGINAL_URL_META,
    MetaRefreshMiddleware,
    ReplayMiddleware,
    RobotsTxtMiddleware,
    StoredArticlesMiddleware,
    cap_robots,
)
from newscrawl.storage.sqlite import SqliteSink

PREFIX = "http://127.0.0.1:8080/"
URL = "https://news.example.cn/china/2026-11-20/doc-iabcdefg1234567.shtml"


@pytest.fixture
def replay(make_spider) -> ReplayMiddleware:
    return build_from_crawler(ReplayMiddleware, make_spider({"NEWSCRAWL_REPLAY_PREFIX": PREFIX}).crawler)


def test_replay_is_off_without_a_prefix(make_spider):
    with pytest.raises(NotConfigured):
        build_from_crawler(ReplayMiddleware, make_spider().crawler)


def test_replay_rewrites_to_prefix_plus_original_url(replay):
    original = Request(URL, meta={"newscrawl_kind": "article"}, cb_kwargs={"kind": "article"})
    rewritten = replay.process_request(original)
    assert rewritten.url == PREFIX + URL
    assert rewritten.meta[ORIGINAL_URL_META] == URL and rewritten.meta["newscrawl_kind"] == "article"
    assert rewritten.cb_kwargs == {"kind": "article"} and rewritten.dont_filter
    assert rewritten.meta["allow_offsite"]  # the replay host is not one of the site's domains
    assert rewritten.meta["dont_obey_robotstxt"]  # robots.txt was checked for the original URL


def test_replayed_request_is_not_rewritten_twice(replay):
    rewritten = replay.process_request(Request(URL))
    assert replay.process_request(rewritten) is None


def test_replayed_response_keeps_the_original_url(replay):
    rewritten = replay.process_request(Request(URL))
    got = HtmlResponse(PREFIX + URL, body=b"<html></html>", request=rewritten)
    assert replay.process_response(rewritten, got).url == URL


def test_redirect_inside_the_replay_server_maps_back(replay):
    rewritten = replay.process_request(Request(URL))
    moved = f"{PREFIX}20261120083000mp_/https://news.example.cn/moved.shtml"
    got = HtmlResponse(moved, body=b"<html></html>", request=rewritten)
    assert replay.process_response(rewritten, got).url == "https://news.example.cn/moved.shtml"


def test_bad_prefix_fails_at_start_up(make_spider):
    with pytest.raises(ValueError, match="NEWSCRAWL_REPLAY_PREFIX"):
        crawler = make_spider({"NEWSCRAWL_REPLAY_PREFIX": "127.0.0.1:8080"}).crawler
        build_from_crawler(ReplayMiddleware, crawler)


# -- incremental ----------------------------------------------------------------------------------------


@pytest.fixture
def stored(make_spider, tmp_path) -> StoredArticlesMiddleware:
    path = tmp_path / "seen.sqlite3"
    sink = SqliteSink(path)
    sink.open()
    sink.write([{"url": URL + "?from=list", "canonical_url": URL}])
    sink.close()
    crawler = make_spider({"NEWSCRAWL_SQLITE_PATH": str(path)}).crawler
    crawler.stats.open_spider()
    return build_from_crawler(StoredArticlesMiddleware, crawler)


def test_stored_article_requests_are_ignored_and_counted(stored):
    with pytest.raises(IgnoreRequest):
        stored.process_request(Request(URL, meta={"newscrawl_kind": "article"}))
    assert stored.stats.get_value("newscrawl/skipped/stored") == 1


def test_stored_request_urls_are_known_too(stored):
    with pytest.raises(IgnoreRequest):
        stored.process_request(Request(URL + "?from=list", meta={"newscrawl_kind": "article"}))


def test_list_pages_and_new_articles_pass(stored):
    assert stored.process_request(Request(URL, meta={"newscrawl_kind": "list"})) is None
    new = URL.replace("1234567", "7654321")
    assert stored.process_request(Request(new, meta={"newscrawl_kind": "article"})) is None


def test_missing_database_means_nothing_is_stored(make_spider, tmp_path):
    crawler = make_spider({"NEWSCRAWL_SQLITE_PATH": str(tmp_path / "none.sqlite3")}).crawler
    mw = build_from_crawler(StoredArticlesMiddleware, crawler)
    assert mw.process_request(Request(URL, meta={"newscrawl_kind": "article"})) is None


def test_incremental_can_be_switched_off(make_spider):
    with pytest.raises(NotConfigured):
        build_from_crawler(StoredArticlesMiddleware, make_spider({"NEWSCRAWL_INCREMENTAL": False}).crawler)


# -- robots.txt -----------------------------------------------------------------------------------------


def test_every_request_waiting_for_robots_txt_gets_the_parser(make_spider):
    mw = build_from_crawler(RobotsTxtMiddleware, make_spider({"ROBOTSTXT_OBEY": True}).crawler)
    parser = object()

    async def three_requests_wait_then_robots_txt_arrives() -> list:
        in_flight: Deferred = Deferred()
        mw._parsers["news.example.cn"] = in_flight  # robots.txt of that host is being downloaded
        waiting = [asyncio.ensure_future(mw.robot_parser(Request(f"{URL}?n={n}"))) for n in range(3)]
        await asyncio.sleep(0)
        in_flight.callback(parser)
        return await asyncio.gather(*waiting)

    assert asyncio.run(three_requests_wait_then_robots_txt_arrives()) == [parser, parser, parser]


def test_robots_txt_is_read_up_to_500_kib(make_spider):
    spider = make_spider({"ROBOTSTXT_OBEY": True})
    mw = build_from_crawler(RobotsTxtMiddleware, spider.crawler)
    filler = b"".join(b"Disallow: /filler/%d/\n" % n for n in range(800_000))  # 15 MB
    body = b"User-agent: *\nDisallow: /early/\n" + filler + b"Disallow: /late/\n"
    robots = Response("https://news.example.cn/robots.txt", body=body)

    async def parse() -> object:
        mw._parsers["news.example.cn"] = Deferred()
        await mw._parse_robots(robots, "news.example.cn", Request(robots.url))
        return mw._parsers["news.example.cn"]

    parser = asyncio.run(parse())
    agent = spider.crawler.settings["USER_AGENT"]
    assert not parser.allowed("https://news.example.cn/early/1.html", agent)
    assert parser.allowed("https://news.example.cn/late/1.html", agent)  # past the cap: not read
    assert spider.crawler.stats.get_value("robotstxt/truncated") == 1


def test_cap_robots_cuts_after_a_whole_line():
    assert cap_robots(b"a\nbb\nccc\n", 7) == b"a\nbb\n"
    assert cap_robots(b"x" * 10, 4) == b"xxxx"
    assert cap_robots(b"short\n") == b"short\n"


# -- meta refresh without decoding every page -----------------------------------------------------------


@pytest.fixture
def refresh(make_spider) -> MetaRefreshMiddleware:
    spider = make_spider()
    spider.crawler.spider = spider
    return build_from_crawler(MetaRefreshMiddleware, spider.crawler)


def html(url: str, body: str) -> HtmlResponse:
    return HtmlResponse(url, body=body.encode("utf-8"), headers={"Content-Type": "text/html; charset=utf-8"})


def test_a_meta_refresh_still_redirects(refresh):
    head = '<meta http-equiv="REFRESH" content="0; url=/b.html">'
    page = html("https://news.example.cn/a.html", f"<html><head>{head}</head><body>临江</body></html>")
    out = refresh.process_response(Request(page.url), page)
    assert isinstance(out, Request) and out.url == "https://news.example.cn/b.html"


def test_a_page_without_refresh_is_passed_on_undecoded(refresh):
    page = html("https://news.example.cn/a.html", "<html><body>" + "<p>临江市今天发布寒潮预警。</p>" * 500)
    assert refresh.process_response(Request(page.url), page) is page
    assert page._cached_ubody is None  # Scrapy's own middleware decoded the whole body here


def test_the_settings_use_this_middleware_instead_of_scrapys():
    from newscrawl import settings

    middlewares = settings.DOWNLOADER_MIDDLEWARES
    assert middlewares["scrapy.downloadermiddlewares.redirect.MetaRefreshMiddleware"] is None
    assert "newscrawl.middlewares.MetaRefreshMiddleware" in middlewares
