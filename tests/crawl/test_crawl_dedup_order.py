"""Which copy of a story is the original does not depend on the order in which the workers finish: items
leave stage 1 in the order they entered it, so the duplicate pipeline meets them in that order."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import pytest
from scrapy.exceptions import DropItem
from scrapy.utils.misc import build_from_crawler
from twisted.internet.defer import Deferred

from newscrawl.crawl.workers import PageTask, WorkerFailed, run_page_job
from newscrawl.pipelines import extraction
from newscrawl.pipelines.dedup import DuplicatePipeline
from newscrawl.pipelines.extraction import ExtractionPipeline
from newscrawl.pipelines.record import RecordPipeline
from newscrawl.storage.dedup import DuplicateIndex

from .helpers import ARTICLE_TEXT, article_html, response

STORY = "https://news.example.cn/china/2026-11-20/doc-i{}.shtml"
OTHER_TEXT = (
    "江北区昨天启动冬季供暖，全区一百三十个小区的四万余户居民家中暖气已经开始升温，室温普遍达到十八度以上。",
    "区供热公司表示，今年对老旧管网进行了全面检修，更换阀门两千余个，并开通二十四小时报修热线，随时处理问题。",
    "气象部门预计本周后期将有一次明显降温过程，提醒市民及时添衣，注意防寒保暖，出行注意交通安全。",
)


#: a worker's answer by URL and page (the same pages are extracted for every finishing order; one URL
#: carries two texts in the tests below)
_ANSWERS: dict[tuple[str, bytes], Any] = {}


class FakePool:
    """A worker pool whose tasks the test finishes, one by one, in the order it chooses."""

    def __init__(self) -> None:
        self.tasks: list[tuple[PageTask, Future[Any]]] = []

    def submit(self, task: PageTask) -> Future[Any]:
        future: Future[Any] = Future()
        self.tasks.append((task, future))
        return future

    def finish(self, n: int, lost: bool = False) -> None:
        task, future = self.tasks[n]
        if lost:
            future.set_exception(WorkerFailed("crashed", "worker crashed (killed by signal 9)"))
            return
        key = (task.url, task.body)
        if key not in _ANSWERS:
            _ANSWERS[key] = run_page_job(task)
        future.set_result(_ANSWERS[key])


class NoReactor(ExtractionPipeline):
    """Stage 1 with workers, with what it hands to the reactor kept in ``later`` (no reactor here)."""

    later: list[tuple[Callable[..., Any], tuple[Any, ...]]]

    def _on_reactor(self, call: Any, *args: Any) -> None:
        call(*args)

    def _later(self, call: Any, *args: Any) -> None:
        self.later.append((call, args))

    def run_later(self) -> None:
        while self.later:
            call, args = self.later.pop(0)
            call(*args)


def page(n: int, paragraphs: tuple[str, ...]) -> tuple[str, str]:
    return STORY.format(f"abcdefg{n:07d}"), article_html(paragraphs=paragraphs)


#: pages in the order they reach the pipelines: 0 and 2 carry one story (2 is 0's copy), 1 another, 3 is a
#: page without text, 4 a third copy of the story
PAGES = [
    page(0, ARTICLE_TEXT),
    page(1, OTHER_TEXT),
    page(2, ARTICLE_TEXT),
    (STORY.format("abcdefg0000003"), '<html><head><meta charset="utf-8"></head><body></body></html>'),
    page(4, (*ARTICLE_TEXT, "（本报记者）")),
]


def crawl(make_spider, monkeypatch, finish_order: tuple[int, ...], lost: int | None = None) -> dict[str, Any]:
    """The pages through stage 1 (workers finishing in ``finish_order``; page ``lost`` loses its worker),
    stage 2 and the duplicate pipeline, as Scrapy chains them; the duplicate_of (or the drop) of each
    page, by page number."""
    monkeypatch.setattr(extraction, "maybe_deferred_to_future", lambda d: d)  # Deferreds, no reactor
    spider = make_spider({"NEWSCRAWL_EXTRACT_WORKERS": 2})
    crawler = spider.crawler
    crawler.stats.open_spider()
    stage1 = build_from_crawler(NoReactor, crawler)
    stage1.later = []
    stage1.pool = pool = FakePool()  # type: ignore[assignment]
    stage2 = build_from_crawler(RecordPipeline, crawler)
    stage2.open_spider()
    duplicates = DuplicatePipeline(DuplicateIndex(":memory:"), crawler.stats)
    duplicates.open_spider()
    outcome: dict[int, Any] = {}

    async def chain(n: int, item: Any) -> None:
        try:
            item = await stage1.process_item(item)
            outcome[n] = duplicates.process_item(stage2.process_item(item))["duplicate_of"]
        except DropItem:
            outcome[n] = "dropped"

    for n, (url, html) in enumerate(PAGES):
        Deferred.fromCoroutine(chain(n, spider._item(response(url, html))))
    assert len(pool.tasks) == len(PAGES) and not outcome  # every page handed over, none back yet
    for n in finish_order:
        pool.finish(n, lost=n == lost)
        stage1.run_later()
    assert len(outcome) == len(PAGES)
    return outcome


IN_ORDER = {0: None, 1: None, 2: PAGES[0][0], 3: "dropped", 4: PAGES[0][0]}


def three_pages_in_stage_1(
    make_spider: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, settings: dict[str, Any]
) -> tuple[NoReactor, FakePool, list[int]]:
    """Stage 1 with two (fake) workers and three pages handed to it; ``left`` lists, in order, the pages
    that have left it."""
    monkeypatch.setattr(extraction, "maybe_deferred_to_future", lambda d: d)
    spider = make_spider({"NEWSCRAWL_EXTRACT_WORKERS": 2, **settings})
    spider.crawler.stats.open_spider()
    stage1 = build_from_crawler(NoReactor, spider.crawler)
    stage1.later = []
    stage1.pool = pool = FakePool()  # type: ignore[assignment]
    left: list[int] = []

    async def stage(n: int, item: Any) -> None:
        await stage1.process_item(item)
        left.append(n)

    for n in range(3):
        url, html = page(n, ARTICLE_TEXT)
        Deferred.fromCoroutine(stage(n, spider._item(response(url, html))))
    return stage1, pool, left


@pytest.mark.parametrize("finish_order", [(0, 1, 2, 3, 4), (2, 4, 3, 1, 0), (4, 0, 3, 2, 1), (1, 3, 2, 4, 0)])
def test_the_first_page_handed_over_is_the_original_whatever_order_the_workers_finish(
    make_spider, monkeypatch, finish_order
):
    assert crawl(make_spider, monkeypatch, finish_order) == IN_ORDER


def test_every_finishing_order_gives_the_records_of_an_inline_crawl(make_spider, monkeypatch):
    for finish_order in itertools.permutations(range(len(PAGES))):
        assert crawl(make_spider, monkeypatch, finish_order) == IN_ORDER, finish_order


def test_an_item_leaves_stage_1_as_soon_as_the_ones_before_it_have(make_spider, monkeypatch):
    """The wait is for the items handed over earlier only: the first page back goes on at once, and a
    later page that is done goes on when the last one before it does."""
    stage1, pool, left = three_pages_in_stage_1(make_spider, monkeypatch, {})
    pool.finish(2)
    pool.finish(1)
    stage1.run_later()
    assert left == []
    pool.finish(0)
    assert left == [0]  # the first goes on at once; the next on a later reactor turn, after its chain
    stage1.run_later()
    assert left == [0, 1, 2]


def test_a_page_whose_worker_is_lost_holds_no_page_back(make_spider, monkeypatch):
    outcome = crawl(make_spider, monkeypatch, (4, 2, 1, 3, 0), lost=0)
    assert outcome == {0: "dropped", 1: None, 2: None, 3: "dropped", 4: PAGES[2][0]}


def test_without_dedup_items_leave_stage_1_as_they_are_done(make_spider, monkeypatch):
    """Nothing to keep in order when no duplicate is looked up: no page waits for another."""
    stage1, pool, left = three_pages_in_stage_1(make_spider, monkeypatch, {"NEWSCRAWL_DEDUP": False})
    for n in (2, 0, 1):
        pool.finish(n)
    assert left == [2, 0, 1] and not stage1.later
