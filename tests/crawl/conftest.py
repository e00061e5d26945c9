"""Fixtures for the crawler tests: a test site and spiders attached to crawlers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from scrapy.utils.test import get_crawler

from newscrawl.crawl.sites import parse_site
from newscrawl.spiders.news import NewsSpider, spider_class_for

from .helpers import SITE


@pytest.fixture
def site_data() -> dict[str, Any]:
    return {k: (dict(v) if isinstance(v, dict) else v) for k, v in SITE.items()}


@pytest.fixture
def make_spider(site_data: dict[str, Any]) -> Callable[..., NewsSpider]:
    """Build a spider for the test site (with extra site fields) attached to a crawler with settings."""

    def make(settings: dict[str, Any] | None = None, site: dict[str, Any] | None = None, **kwargs: Any):
        spidercls = spider_class_for(parse_site({**site_data, **(site or {})}, "portal.toml"))
        # the pipeline stages run inline here (their worker processes have tests of their own)
        crawler = get_crawler(spidercls, {"NEWSCRAWL_EXTRACT_WORKERS": 0, **(settings or {})})
        crawler.spider = crawler._create_spider(**kwargs)
        return crawler.spider

    return make
