"""The loop-lag timer is off unless NEWSCRAWL_LOOP_LAG_INTERVAL is set, and being off is not news: a crawl
logs no warning for it (a WARNING on every crawl teaches users to skip warnings)."""

from __future__ import annotations

import logging

from scrapy.extension import ExtensionManager
from scrapy.utils.test import get_crawler

from newscrawl.crawl.looplag import LoopLag

EXTENSIONS = {"EXTENSIONS": {"newscrawl.crawl.looplag.LoopLag": 0}}


def test_the_timer_left_off_logs_no_warning(caplog):
    with caplog.at_level(logging.WARNING):
        manager = ExtensionManager.from_crawler(get_crawler(settings_dict=EXTENSIONS))
    assert not any(isinstance(m, LoopLag) for m in manager.middlewares)
    assert [r.getMessage() for r in caplog.records if "LoopLag" in r.getMessage()] == []


def test_the_timer_is_installed_when_an_interval_is_set():
    settings = {**EXTENSIONS, "NEWSCRAWL_LOOP_LAG_INTERVAL": 0.05}
    manager = ExtensionManager.from_crawler(get_crawler(settings_dict=settings))
    assert any(isinstance(m, LoopLag) for m in manager.middlewares)
