"""A spider loader that adds one spider per site file to the Python spiders of ``SPIDER_MODULES``.

``SPIDER_LOADER_CLASS = "newscrawl.spiders.loader.SiteSpiderLoader"`` makes ``scrapy list`` show every
file of ``NEWSCRAWL_SITES_DIR`` (default ``settings/sites``) and ``scrapy crawl NAME`` run it. A Python
:class:`~newscrawl.spiders.news.NewsSpider` subclass named like a site file is used for that site
instead (with the file's definition attached), for sites that need code. Site files are read when the
loader is built, never at import time. A bad file disables its own spider only: one warning line names
the file and the field, the other spiders work, and ``scrapy crawl`` of the disabled one refuses with
that line (:attr:`SiteSpiderLoader.disabled`).
"""

from __future__ import annotations

import logging
from pathlib import Path

from scrapy.settings import BaseSettings
from scrapy.spiderloader import SpiderLoader

from newscrawl.crawl.sites import SiteFileError, read_sites
from newscrawl.spiders.news import NewsSpider, spider_class_for

logger = logging.getLogger(__name__)


class SiteSpiderLoader(SpiderLoader):
    def __init__(self, settings: BaseSettings) -> None:
        super().__init__(settings)
        sites, errors = read_sites(settings.get("NEWSCRAWL_SITES_DIR") or None)
        #: the error of each site file that could not be used, by the spider name its file stands for
        self.disabled: dict[str, SiteFileError] = {}
        for error in errors:
            self.disabled[Path(error.source).stem] = error
            logger.warning("site file disabled: %s", error)
        for name, site in sites.items():
            existing = self._spiders.get(name)
            if existing is None:
                self._spiders[name] = spider_class_for(site)
            elif issubclass(existing, NewsSpider) and getattr(existing, "site", None) is None:
                existing.site = site
                if not getattr(existing, "allowed_domains", None):
                    existing.allowed_domains = list(site.allowed_domains)  # type: ignore[attr-defined]
