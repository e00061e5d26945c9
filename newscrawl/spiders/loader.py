"""A spider loader that adds one spider per site file to the Python spiders of ``SPIDER_MODULES``.

``SPIDER_LOADER_CLASS = "newscrawl.spiders.loader.SiteSpiderLoader"`` makes ``scrapy list`` show every
file of ``NEWSCRAWL_SITES_DIR`` (default ``settings/sites``) and ``scrapy crawl NAME`` run it. A Python
:class:`~newscrawl.spiders.news.NewsSpider` subclass named like a site file is used for that site
instead (with the file's definition attached), for sites that need code. Site files are read when the
loader is built, never at import time; a bad file stops start-up with a message naming file and field.
"""

from __future__ import annotations

from scrapy.settings import BaseSettings
from scrapy.spiderloader import SpiderLoader

from newscrawl.crawl.sites import load_sites
from newscrawl.spiders.news import NewsSpider, spider_class_for


class SiteSpiderLoader(SpiderLoader):
    def __init__(self, settings: BaseSettings) -> None:
        super().__init__(settings)
        for name, site in load_sites(settings.get("NEWSCRAWL_SITES_DIR") or None).items():
            existing = self._spiders.get(name)
            if existing is None:
                self._spiders[name] = spider_class_for(site)
            elif issubclass(existing, NewsSpider) and getattr(existing, "site", None) is None:
                existing.site = site
                if not getattr(existing, "allowed_domains", None):
                    existing.allowed_domains = list(site.allowed_domains)  # type: ignore[attr-defined]
