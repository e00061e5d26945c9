"""The configuration error every start-up check raises; its own module so that commands which never crawl
(``newscrawl extract``, ``search``, ``export``) can catch it without importing Scrapy."""

from __future__ import annotations


class ConfigError(ValueError):
    """A setting, argument or output path that cannot be used; the message names it."""
