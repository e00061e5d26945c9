"""The crawler's garbage collector while a spider runs: start-up heap frozen, fewer young collections."""

from __future__ import annotations

import gc
import weakref

from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from newscrawl.crawl.gcfreeze import GEN0_THRESHOLD, YOUNG_GENERATIONS, GcFreeze


def test_the_start_up_heap_is_frozen_while_the_spider_runs_and_released_after():
    before = gc.get_threshold()
    extension = build_from_crawler(GcFreeze, get_crawler())
    try:
        extension.spider_opened()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (max(GEN0_THRESHOLD, before[0]), *before[1:])
        extension.spider_opened()  # a second signal changes nothing
    finally:
        extension.spider_closed()
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == before
    extension.spider_closed()  # closing twice is harmless
    assert gc.get_threshold() == before


def test_it_is_one_of_the_crawl_extensions():
    from newscrawl import settings

    assert "newscrawl.crawl.gcfreeze.GcFreeze" in settings.EXTENSIONS


def test_young_garbage_is_collected_before_the_heap_is_frozen():
    class Node:
        pass

    extension = build_from_crawler(GcFreeze, get_crawler())
    gc.collect()  # what the tests before left is old; the cycle below is the youngest garbage
    node = Node()
    node.self = node  # type: ignore[attr-defined]
    alive = weakref.ref(node)
    del node
    try:
        extension.spider_opened()
        assert alive() is None  # collected, not frozen with the heap
    finally:
        extension.spider_closed()


def test_the_oldest_generation_is_frozen_without_a_full_collection(monkeypatch):
    collected: list[tuple[int, ...]] = []
    monkeypatch.setattr(gc, "collect", lambda *generation: collected.append(generation) or 0)
    extension = build_from_crawler(GcFreeze, get_crawler())
    try:
        extension.spider_opened()
    finally:
        extension.spider_closed()
    assert collected == [(YOUNG_GENERATIONS,)] and YOUNG_GENERATIONS < 2
