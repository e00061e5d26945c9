"""Per-page limits set as Scrapy settings: a page over one is dropped naming it; 0 switches one off."""

from __future__ import annotations

import pytest
from scrapy.exceptions import DropItem
from scrapy.utils.misc import build_from_crawler

from newscrawl.crawl.config import ConfigError, limits_from_settings
from newscrawl.extract.limits import DEFAULT_LIMITS
from newscrawl.pipelines.extraction import ExtractionPipeline
from newscrawl.pipelines.record import RecordPipeline

from .helpers import article_html, response

URL = "https://news.example.cn/china/2026-11-20/doc-iabcdefg1234567.shtml"


def test_unset_limits_are_the_librarys_defaults():
    assert limits_from_settings({}) == DEFAULT_LIMITS


def test_limits_come_from_settings_and_zero_switches_one_off():
    limits = limits_from_settings({"NEWSCRAWL_MAX_NODES": "300", "NEWSCRAWL_TIME_BUDGET": "0"})
    assert limits.max_nodes == 300 and limits.time_budget is None
    assert limits.max_depth == DEFAULT_LIMITS.max_depth


def test_bad_limit_setting_is_named():
    with pytest.raises(ConfigError, match="^NEWSCRAWL_MAX_DEPTH: expected a number"):
        limits_from_settings({"NEWSCRAWL_MAX_DEPTH": "deep"})


def test_page_over_a_limit_is_dropped_naming_it(make_spider):
    spider = make_spider({"NEWSCRAWL_MAX_NODES": "10"})
    crawler = spider.crawler
    crawler.stats.open_spider()
    stage1 = build_from_crawler(ExtractionPipeline, crawler)
    stage2 = build_from_crawler(RecordPipeline, crawler)
    with pytest.raises(DropItem, match="max_nodes"):
        stage2.process_item(stage1.process_item(spider._item(response(URL, article_html()))))
    assert crawler.stats.get_value("newscrawl/dropped/extract_error") == 1


def test_page_within_the_limits_is_kept(make_spider):
    spider = make_spider({"NEWSCRAWL_MAX_NODES": "5000"})
    spider.crawler.stats.open_spider()
    stage1 = build_from_crawler(ExtractionPipeline, spider.crawler)
    stage2 = build_from_crawler(RecordPipeline, spider.crawler)
    assert stage2.process_item(stage1.process_item(spider._item(response(URL, article_html()))))["text"]


def test_a_page_over_its_cpu_budget_is_dropped_and_counted_but_not_for_wall_time(make_spider, monkeypatch):
    import time

    from newscrawl.extract import limits

    spider = make_spider({"NEWSCRAWL_TIME_BUDGET": "1", "NEWSCRAWL_EXTRACT_WORKERS": "0"})
    crawler = spider.crawler
    crawler.stats.open_spider()
    stage1 = build_from_crawler(ExtractionPipeline, crawler)
    stage2 = build_from_crawler(RecordPipeline, crawler)
    page = response(URL, article_html())
    # a loaded machine: a minute of wall time between any two looks at the clock, little CPU
    wall = iter(range(0, 10**9, 60))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(wall)))
    assert stage2.process_item(stage1.process_item(spider._item(page)))["text"]
    # a page whose own work outlasts the budget: the CPU clock moves 0.6 s at every look
    cpu = iter(x * 0.6 for x in range(10**6))
    monkeypatch.setattr(limits, "budget_clock", lambda: next(cpu))
    with pytest.raises(DropItem, match="time_budget"):
        stage2.process_item(stage1.process_item(spider._item(page)))
    assert crawler.stats.get_value("newscrawl/dropped/extract_error") == 1
