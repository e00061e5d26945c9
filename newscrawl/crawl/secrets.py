"""Keeps passwords out of a crawl's log: the add-on :class:`RedactAddon` (first in ``ADDONS``).

It puts :class:`~newscrawl.storage.redact.RedactingFilter` on the root log handlers before the crawl
logs anything of its own, told the secrets of every configured server address (``SECRET_SETTINGS``,
read as settings and as environment variables), so no log line of the crawl shows them.
"""

from __future__ import annotations

import os

from scrapy.settings import BaseSettings

from newscrawl.storage.redact import install, secrets_of

#: settings (and environment variables) holding server addresses that may carry a password
SECRET_SETTINGS = ("NEWSCRAWL_POSTGRES_DSN", "NEWSCRAWL_REDIS_URL", "REDIS_URL")


def configured_secrets(settings: BaseSettings) -> set[str]:
    """The secrets of every server address in ``settings`` or the environment."""
    found: set[str] = set()
    for name in SECRET_SETTINGS:
        for value in (settings.get(name), os.environ.get(name)):
            if isinstance(value, str):
                found |= secrets_of(value)
    return found


class RedactAddon:
    """Redacts server passwords from every log line of the crawl."""

    def update_settings(self, settings: BaseSettings) -> None:
        install(configured_secrets(settings))
