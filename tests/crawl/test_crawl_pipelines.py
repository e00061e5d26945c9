"""The two pipeline stages and the SQLite pipeline, built through Scrapy's own test helpers."""

from __future__ import annotations

from typing import Any

import pytest
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.utils.misc import build_from_crawler

from newscrawl.crawl.config import algorithm_params
from newscrawl.crawl.workers import Fingerprint
from newscrawl.extract import Extraction, params_of
from newscrawl.items import EXPORT_FIELDS, INTERNAL_FIELDS
from newscrawl.pipelines.extraction import ExtractionPipeline
from newscrawl.pipelines.record import RecordPipeline
from newscrawl.pipelines.storage import SqlitePipeline
from newscrawl.storage.sqlite import SqliteSink

from .helpers import article_html, response

URL = "https://news.example.cn/china/2026-11-20/doc-iabcdefg1234567.shtml"


@pytest.fixture
def run(make_spider):
    """Run an item built by the spider from (url, body) through stage 1 and stage 2."""

    def go(body: str | bytes, *, settings: dict[str, Any] | None = None, site=None, url=URL, **spider_args):
        spider = make_spider(settings, site, **spider_args)
        crawler = spider.crawler
        crawler.stats.open_spider()
        item = spider._item(response(url, body))
        stage1 = build_from_crawler(ExtractionPipeline, crawler)
        stage2 = build_from_crawler(RecordPipeline, crawler)
        stage2.open_spider()
        return stage2.process_item(stage1.process_item(item)), crawler.stats

    return go


def test_article_becomes_a_record_with_every_field(run):
    item, _ = run(article_html())
    assert item["title"] == "临江市老旧小区改造进展顺利"
    assert item["published_at"] == "2026-11-20T08:30:00+08:00"
    assert "老旧小区改造" in item["text"] and item["language"] == "zh"
    assert item["url"] == item["canonical_url"] == URL and item["site"] == "portal"
    assert item["page_kind"] in ("article", "list") and item["page_class"] in ("short", "long")
    assert item["algorithm"] and len(item["content_hash"]) == 40
    # duplicate_of is set later, by the duplicate pipeline
    assert set(EXPORT_FIELDS) - {"author", "reason", "duplicate_of"} <= set(dict(item))


SINA_SHAPED = (
    "<html><head><meta charset='utf-8'><title>地铁新线开通|新浪新闻</title>"
    "<meta property='article:author' content='新京报'>"
    "<meta name='keywords' content='地铁,试运营'></head><body>"
    "<h1>地铁新线开通</h1><div class='date-source'><span>2026年11月20日 08:30</span>"
    "<a class='source' href='http://www.bjnews.com.cn/'>新京报</a></div><div id='artibody'>"
    "<p>原标题：新线开通 市民尝鲜</p>"
    + "<p>某市地铁新线今日上午开通试运营，全长二十公里，共设车站十五座，沿线市民出行将更加方便。</p>" * 4
    + "<img src='/img/a.jpg' alt='列车进站'>"
    "<p class='show_author'>责任编辑：刘光博 SN123</p></div></body></html>"
)


def test_record_carries_people_provenance_and_page_fields(run):
    item, _ = run(SINA_SHAPED)
    assert (item["author"], item["authors"], item["editor"], item["source"]) == (None, [], "刘光博", "新京报")
    assert item["original_title"] == "新线开通 市民尝鲜" and item["tags"] == ["地铁", "试运营"]
    assert item["images"] == [{"url": "https://news.example.cn/img/a.jpg", "caption": "列车进站"}]
    assert item["description"].startswith("某市地铁新线今日上午开通试运营") and item["language"] == "zh"


def test_credit_overrides_lose_their_labels(run):
    credits = "<div class='by'>作者：陈海波 李明</div><div class='ed'>编辑：周敏</div>"
    page = SINA_SHAPED.replace("<h1>", credits + "<h1>")
    site = {"xpath": {"author": "//div[@class='by']", "editor": "//div[@class='ed']",
                      "source": "//div[@class='date-source']/a"}}
    item, _ = run(page, site=site)
    assert (item["author"], item["authors"]) == ("陈海波、李明", ["陈海波", "李明"])
    assert (item["editor"], item["source"]) == ("周敏", "新京报")


def test_internal_fields_and_raw_html_never_leave_the_pipelines(run):
    item, _ = run(article_html())
    assert not set(INTERNAL_FIELDS) & set(dict(item))


def test_stage2_takes_the_text_and_hash_the_worker_made_and_gets_the_same_record(run):
    made_by_worker, _ = run(article_html())  # NEWSCRAWL_DEDUP on: stage 1 cleans, hashes, fingerprints
    made_here, _ = run(article_html(), settings={"NEWSCRAWL_DEDUP": False})
    assert isinstance(made_by_worker.pop("fingerprint"), Fingerprint) and "fingerprint" not in made_here
    made_by_worker.pop("crawled_at"), made_here.pop("crawled_at")
    assert dict(made_by_worker) == dict(made_here) and made_here["text"]


def test_stage2_joins_the_pages_of_a_split_article_whatever_the_first_pages_fingerprint(make_spider):
    spider = make_spider()
    spider.crawler.stats.open_spider()
    item = spider._item(response(URL, article_html()))
    item = build_from_crawler(ExtractionPipeline, spider.crawler).process_item(item)
    item["more_texts"] = ["第二页的正文：城市更新项目下月全面开工。"]
    record = build_from_crawler(RecordPipeline, spider.crawler).process_item(item)
    assert record["text"].endswith("\n第二页的正文：城市更新项目下月全面开工。") and record["pages"] == 2
    assert record["content_hash"] != item["fingerprint"].content_hash


def test_page_without_text_is_dropped_and_counted(run):
    with pytest.raises(DropItem, match="no text"):
        run("<html><head><title>只有标题</title></head><body></body></html>")


def test_an_error_page_at_an_article_url_is_dropped_and_counted(run):
    # a removed article answered with status 200 and the site's template, at its article URL
    body = (
        "<html><head><title>页面不存在_示例新闻网</title></head><body><div class='nav'><a href='/'>首页</a>"
        "</div><div class='box'><p>抱歉，您访问的页面不存在或已被删除！</p><a href='/'>返回首页</a></div>"
        "</body></html>"
    )
    with pytest.raises(DropItem, match="not an article") as caught:
        run(body)
    assert "error page (not_found)" in str(caught.value)


def test_error_page_drop_counter(make_spider):
    spider = make_spider()
    crawler = spider.crawler
    crawler.stats.open_spider()
    body = "<html><head><title>Just a moment...</title></head><body><p>Please enable JavaScript to continue."
    item = spider._item(response(URL, body))
    with pytest.raises(DropItem):
        build_from_crawler(RecordPipeline, crawler).process_item(
            build_from_crawler(ExtractionPipeline, crawler).process_item(item)
        )
    assert crawler.stats.get_value("newscrawl/dropped/error_page") == 1
    assert crawler.stats.get_value("newscrawl/dropped/no_text") is None


def test_drop_counter(make_spider):
    spider = make_spider()
    crawler = spider.crawler
    crawler.stats.open_spider()
    stage1 = build_from_crawler(ExtractionPipeline, crawler)
    stage2 = build_from_crawler(RecordPipeline, crawler)
    item = spider._item(response(URL, "<html><head><title>只有标题</title></head><body></body></html>"))
    with pytest.raises(DropItem):
        stage2.process_item(stage1.process_item(item))
    assert crawler.stats.get_value("newscrawl/dropped/no_text") == 1


def test_binary_body_is_dropped_before_extraction(make_spider):
    spider = make_spider()
    crawler = spider.crawler
    crawler.stats.open_spider()
    item = spider._item(response(URL, b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8))
    with pytest.raises(DropItem, match="binary"):
        build_from_crawler(ExtractionPipeline, crawler).process_item(item)
    assert crawler.stats.get_value("newscrawl/dropped/binary") == 1


def test_extraction_error_is_dropped_with_its_reason(make_spider):
    spider = make_spider()
    spider.crawler.stats.open_spider()
    item = spider._item(response(URL, article_html()), Extraction(error="unparsable page: empty"))
    stage2 = build_from_crawler(RecordPipeline, spider.crawler)
    with pytest.raises(DropItem, match="unparsable"):
        stage2.process_item(build_from_crawler(ExtractionPipeline, spider.crawler).process_item(item))
    assert spider.crawler.stats.get_value("newscrawl/dropped/extract_error") == 1


def test_stage1_keeps_an_extraction_the_spider_already_made(make_spider):
    spider = make_spider()
    given = Extraction(text="预先提取的正文内容，长度足够通过最短正文的检查。", title="T")
    item = spider._item(response(URL, article_html()), given)
    out = build_from_crawler(ExtractionPipeline, spider.crawler).process_item(item)
    assert out["extraction"] is given and "body" not in out


def test_gbk_page_without_declaration_is_decoded(run):
    body = article_html(charset=None).encode("gbk")
    item, _ = run(body)
    assert item["title"] == "临江市老旧小区改造进展顺利" and "加装电梯" in item["text"]


def test_xpath_overrides_win_over_the_extractor(run):
    page = article_html(published=None).replace("<h1", '<div class="t">站点标题</div><h1')
    site = {"xpath": {"title": "//div[@class='t']", "published_at": "//div[@class='date']"}}
    item, _ = run(page, site=site)
    assert item["title"] == "站点标题"
    assert item["published_at"] == "2026-11-20T08:30:00+08:00"


def test_canonical_link_gives_the_canonical_url(run):
    item, _ = run(article_html(canonical="/china/2026-11-20/doc-iabcdefg1234567.shtml?from=canon"))
    assert item["canonical_url"] == URL + "?from=canon" and item["url"] == URL


@pytest.mark.parametrize(
    "canonical",
    [
        "https://other.example.com/china/2026-11-20/doc-ivictim0000001.shtml",  # another site's article
        "https://news.example.cn.evil.example/china/doc-i1.shtml",  # a look-alike host
        "ftp://news.example.cn/china/doc-i1.shtml",
        "javascript:alert(1)",
    ],
)
def test_canonical_off_the_site_is_ignored(run, canonical):
    # the record stays under the page's own URL: it cannot overwrite another site's row
    item, _ = run(article_html(canonical=canonical))
    assert item["canonical_url"] == URL


def test_canonical_on_another_host_of_the_allowed_domains_is_taken(run):
    item, _ = run(article_html(canonical="https://m.news.example.cn/doc-i1.shtml"))
    assert item["canonical_url"] == "https://m.news.example.cn/doc-i1.shtml"


def test_canonical_is_normalised_and_tracking_parameters_dropped(run):
    page = article_html(canonical="HTTPS://NEWS.Example.CN:443/china/doc-i1.shtml?id=1&#38;p=2&utm_source=wx#c")
    item, _ = run(page)
    assert item["canonical_url"] == "https://news.example.cn/china/doc-i1.shtml?id=1&p=2"


def test_canonical_inside_an_html_comment_is_not_followed(run):
    comment = '<!-- <link rel="canonical" href="/old/doc-i1.shtml"> -->'
    page = article_html().replace("<title>", comment + "<title>")
    item, _ = run(page)
    assert item["canonical_url"] == URL


def test_og_url_is_the_fallback_canonical(run):
    page = article_html().replace("<title>", '<meta property="og:url" content="/china/doc-i2.shtml"><title>')
    item, _ = run(page)
    assert item["canonical_url"] == "https://news.example.cn/china/doc-i2.shtml"


def test_a_page_naming_another_sites_article_does_not_replace_its_row(make_spider, run, tmp_path):
    victim = "https://other.example.com/china/2026-11-20/doc-ivictim0000001.shtml"
    path = tmp_path / "store.sqlite3"
    sink = SqliteSink(path)
    sink.open()
    sink.write([{"url": victim, "canonical_url": victim, "site": "other", "title": "真的", "text": "正文"}])
    sink.close()
    settings = {"NEWSCRAWL_SQLITE_PATH": str(path)}
    item, _ = run(article_html(title="冒充", canonical=victim), settings=settings)
    crawler = make_spider(settings).crawler
    crawler.stats.open_spider()
    pipeline = build_from_crawler(SqlitePipeline, crawler)
    pipeline.open_spider()
    pipeline.process_item(item)
    pipeline.close_spider()
    sink = SqliteSink(path)
    sink.open()
    assert sink.get(victim)["title"] == "真的" and sink.get(URL)["title"] == "冒充"
    sink.close()


def test_canonical_pointing_at_home_page_is_ignored(run):
    item, _ = run(article_html(canonical="https://news.example.cn/"))
    assert item["canonical_url"] == URL


def test_since_drops_older_articles(run):
    with pytest.raises(DropItem, match="since"):
        run(article_html(published="2026-10-01T08:00:00+08:00"), since="2026-11-01")


def test_since_compares_a_date_alone_by_day(run):
    with pytest.raises(DropItem, match="since"):
        run(article_html(published="2026-10-31"), since="2026-11-01")
    item, _ = run(article_html(published="2026-11-01"), since="2026-11-01")
    assert item["published_at"] == "2026-11-01"


def test_records_carry_the_modification_time(run):
    page = article_html().replace(
        "</head>", '<meta property="article:modified_time" content="2026-11-21T10:00:00+08:00"></head>'
    )
    item, _ = run(page)
    assert item["modified_at"] == "2026-11-21T10:00:00+08:00"


def test_since_keeps_newer_articles(run):
    item, _ = run(article_html(), since="2026-11-20")
    assert item["published_at"].startswith("2026-11-20")


def test_extraction_can_be_switched_off(make_spider):
    crawler = make_spider({"NEWSCRAWL_EXTRACT_ENABLED": False}).crawler
    with pytest.raises(NotConfigured):
        build_from_crawler(ExtractionPipeline, crawler)


def test_unknown_algorithm_fails_at_start_up(make_spider):
    crawler = make_spider({"NEWSCRAWL_ALGORITHM": "nope"}).crawler
    with pytest.raises(ValueError, match="NEWSCRAWL_ALGORITHM"):
        build_from_crawler(ExtractionPipeline, crawler)


def test_algorithm_parameters_come_from_prefixed_settings():
    default = params_of("auto")["short_threshold"]
    key = "NEWSCRAWL_AUTO_SHORT_THRESHOLD"
    assert algorithm_params({key: str(default * 2)}, "auto") == {"short_threshold": default * 2}
    assert algorithm_params({"NEWSCRAWL_CETD_USE_COMPOSITE": "false"}, "cetd") == {"use_composite": False}
    with pytest.raises(ValueError, match=key):
        algorithm_params({key: "many"}, "auto")


# -- SQLite ---------------------------------------------------------------------------------------------


def record(url: str, crawled_at: str, title: str = "T") -> dict[str, Any]:
    return {"url": url, "canonical_url": url, "title": title, "text": "正文", "crawled_at": crawled_at}


def test_sqlite_pipeline_upserts_by_canonical_url(make_spider, tmp_path):
    path = tmp_path / "db" / "out.sqlite3"
    crawler = make_spider({"NEWSCRAWL_SQLITE_PATH": str(path), "NEWSCRAWL_SINK_BATCH_SIZE": 2}).crawler
    crawler.stats.open_spider()
    for crawled_at in ("2026-11-20T00:00:00+00:00", "2026-11-21T00:00:00+00:00"):
        pipeline = build_from_crawler(SqlitePipeline, crawler)
        pipeline.open_spider()
        for n in range(3):
            pipeline.process_item(record(f"https://e.example/{n}", crawled_at, title=crawled_at))
        pipeline.close_spider()
    sink = SqliteSink(path)
    sink.open()
    row = sink.get("https://e.example/1")
    assert sink.count() == 3
    assert row["crawled_at"] == row["title"] == "2026-11-21T00:00:00+00:00"
    assert row["first_crawled_at"] == "2026-11-20T00:00:00+00:00"
    assert crawler.stats.get_value("newscrawl/sqlite/written") == 6


def test_sqlite_pipeline_off_with_empty_path(make_spider):
    with pytest.raises(NotConfigured):
        build_from_crawler(SqlitePipeline, make_spider({"NEWSCRAWL_SQLITE_PATH": ""}).crawler)


def test_sink_knows_request_and_canonical_urls(tmp_path):
    sink = SqliteSink(tmp_path / "k.sqlite3")
    sink.open()
    sink.write([{"url": "https://e.example/a?x=1", "canonical_url": "https://e.example/a"}])
    assert sink.known_urls() == {"https://e.example/a?x=1", "https://e.example/a"}
    assert sink.known_urls(["https://e.example/a", "https://e.example/b"]) == {"https://e.example/a"}
