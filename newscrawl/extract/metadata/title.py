"""Title: meta (og:title and similar), then <title>. (First version; see the fallback chain spec.)"""

from __future__ import annotations

from newscrawl.extract.page import Page
from newscrawl.extract.result import NOT_FOUND, BodyResult, Found

_META_KEYS = ("og:title", "twitter:title", "title", "headline")


def find_title(page: Page, body: BodyResult) -> Found:
    for key in _META_KEYS:
        value = page.meta.meta.get(key)
        if value:
            return Found(value, f"meta:{key}")
    if page.meta.title:
        return Found(page.meta.title, "title-tag")
    return NOT_FOUND
