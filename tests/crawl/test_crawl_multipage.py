"""Articles split over several pages: one record with the pages' texts in order; no page stored alone."""

from __future__ import annotations

from typing import Any

from scrapy import Request
from twisted.python.failure import Failure

from newscrawl.extract import extract
from newscrawl.items import NewsItem
from newscrawl.pipelines.record import RecordPipeline

from .helpers import article_html, response

FIRST = "https://news.example.cn/china/2026-11-20/doc-isplit12345.shtml"
PAGES = [FIRST] + [FIRST.replace(".shtml", f"_{n}.shtml") for n in (2, 3)]
TEXTS = [
    ("第一页：临江市政府今天公布二〇二七年民生实事项目清单，共十个方面三十项任务，总投资约八十六亿元。",),
    ("第二页：医疗方面，两个新城各建设一所三级综合医院，二十个社区卫生服务中心开设夜间门诊服务。",),
    ("第三页：住房方面，全市将筹集保障性租赁住房八千套，租金不高于同地段市场租金的九成。",),
]


def page(n: int, pager: list[int] | None = None) -> str:
    """Page ``n`` (1-based) with a pager linking the pages listed (all three by default)."""
    links = "".join(f'<a href="{PAGES[i - 1]}">{i}</a> ' for i in (pager or [1, 2, 3]) if i != n)
    html = article_html(title="临江市发布民生实事项目清单", paragraphs=TEXTS[n - 1])
    return html.replace("</body>", f'<div class="pagebox">{links}<a href="/">首页</a></div></body>')


def record_of(item: NewsItem) -> NewsItem:
    """Stage 1 (extraction of the first page) and stage 2, inline."""
    item["extraction"] = extract(item["body"], item["url"])
    return RecordPipeline().process_item(item)


def run_chain(spider: Any, fail: set[int] = frozenset()) -> tuple[list[Request], NewsItem | None]:
    """Feed the spider page 1, then each later page it asks for; returns its requests and the item."""
    out = list(spider.parse(response(FIRST, page(1)), kind="article"))
    requests: list[Request] = []
    while out:
        (step,) = out
        if isinstance(step, NewsItem):
            return requests, step
        requests.append(step)
        n = PAGES.index(step.url) + 1
        if n in fail:
            failure = Failure(ConnectionError("refused"))
            failure.request = step  # type: ignore[attr-defined]
            out = list(step.errback(failure))
        else:
            out = list(step.callback(response(step.url, page(n)), **step.cb_kwargs))
    return requests, None


def test_a_split_article_is_one_record_with_its_pages_in_order(make_spider) -> None:
    spider = make_spider()
    spider.crawler.stats.open_spider()
    requests, item = run_chain(spider)
    assert [r.url for r in requests] == PAGES[1:]
    assert all(r.meta["newscrawl_kind"] == "later_page" for r in requests)
    assert item is not None and item["url"] == FIRST
    record = record_of(item)
    assert record["pages"] == 3
    positions = [record["text"].find(t[0]) for t in TEXTS]
    assert -1 not in positions and positions == sorted(positions)
    assert spider.crawler.stats.get_value("newscrawl/multipage/articles") == 1


def test_later_pages_found_only_on_page_two_are_fetched_too(make_spider) -> None:
    spider = make_spider()
    out = list(spider.parse(response(FIRST, page(1, pager=[1, 2])), kind="article"))
    (second,) = out
    assert second.url == PAGES[1]
    (third,) = list(second.callback(response(PAGES[1], page(2)), **second.cb_kwargs))
    assert third.url == PAGES[2]
    (item,) = list(third.callback(response(PAGES[2], page(3)), **third.cb_kwargs))
    assert record_of(item)["pages"] == 3


def test_a_lost_later_page_keeps_the_pages_that_came(make_spider) -> None:
    spider = make_spider()
    spider.crawler.stats.open_spider()
    _, item = run_chain(spider, fail={2})
    assert item is not None
    record = record_of(item)
    assert record["pages"] == 2 and TEXTS[1][0] not in record["text"] and TEXTS[2][0] in record["text"]
    assert spider.crawler.stats.get_value("newscrawl/multipage/page_failed") == 1


def test_a_later_page_reached_alone_is_never_a_record(make_spider) -> None:
    spider = make_spider()
    out = list(spider.parse(response(PAGES[1], page(2)), kind="article"))
    assert [(type(o), o.url) for o in out] == [(Request, FIRST)]


def test_a_page_shaped_like_a_later_page_without_a_pager_back_is_an_article(make_spider) -> None:
    spider = make_spider()
    out = list(spider.parse(response(PAGES[1], article_html()), kind="article"))
    assert len(out) == 1 and isinstance(out[0], NewsItem)


def test_a_page_shaped_like_a_later_page_is_not_parsed_when_its_bytes_never_name_the_first(
    make_spider, monkeypatch
) -> None:
    spider = make_spider()
    parsed: list[str] = []
    monkeypatch.setattr(spider, "_page_links", lambda response: parsed.append(response.url) or [])
    list(spider.parse(response(PAGES[1], article_html()), kind="article"))
    assert parsed == []  # no "doc-isplit12345.shtml" in its bytes: cannot link back to page 1
    list(spider.parse(response(PAGES[1], page(2)), kind="article"))
    assert parsed == [PAGES[1]]


def test_an_article_without_pager_has_one_page(make_spider) -> None:
    spider = make_spider()
    (item,) = list(spider.parse(response(FIRST, article_html()), kind="article"))
    assert record_of(item)["pages"] == 1
