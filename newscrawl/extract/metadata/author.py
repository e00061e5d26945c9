"""Author or source: meta author. (First version; see the fallback chain spec.)"""

from __future__ import annotations

from newscrawl.extract.page import Page
from newscrawl.extract.result import NOT_FOUND, BodyResult, Found


def find_author(page: Page, body: BodyResult) -> Found:
    value = page.meta.meta.get("author")
    return Found(value, "meta:author") if value else NOT_FOUND
