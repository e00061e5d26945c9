"""Publish time: meta, then <time>. (First version; see the fallback chain spec.)"""

from __future__ import annotations

from datetime import datetime

from newscrawl.extract.page import Page
from newscrawl.extract.result import NOT_FOUND, BodyResult, Found

_META_KEYS = ("article:published_time", "pubdate", "publishdate", "datepublished")


def find_published(
    page: Page, body: BodyResult, *, reference: datetime | None = None, timezone: str | None = None
) -> Found:
    for key in _META_KEYS:
        value = page.meta.meta.get(key)
        if value:
            return Found(value, f"meta:{key}")
    return NOT_FOUND
