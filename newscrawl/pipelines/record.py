"""Stage 2: title, report time and author, normalisation, content hash; pages without text are dropped.

Values found by a site's XPath overrides win over the extractor's. A dropped page raises ``DropItem``
with its reason and counts ``newscrawl/dropped/<reason>`` in the crawl stats; exported records count
``newscrawl/items/kind/<kind>``, ``.../class/<class>`` and ``.../algorithm/<name>``.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime
from typing import Any

from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem
from scrapy.statscollectors import StatsCollector

from newscrawl.crawl import defaults
from newscrawl.crawl.config import with_defaults
from newscrawl.extract import DEFAULT_TIMEZONE, Extraction
from newscrawl.items import INTERNAL_FIELDS
from newscrawl.pipelines.normalize import (
    clean_line,
    clean_text,
    content_hash,
    normalize_language,
    normalize_time,
    parse_time,
)

logger = logging.getLogger(__name__)

_CJK = re.compile(r"[\u3400-\u9fff]")
#: share of CJK ideographs among the first 500 non-space characters above which unlabelled text is Chinese
CJK_LANGUAGE_SHARE = 0.3


def guess_language(text: str) -> str | None:
    """'zh' for mostly-CJK text, None otherwise (other languages need a page declaration)."""
    sample = "".join(text.split())[:500]
    if not sample:
        return None
    return "zh" if len(_CJK.findall(sample)) / len(sample) > CJK_LANGUAGE_SHARE else None


def body_chars(text: str, title: str | None) -> int:
    r"""Characters of ``text`` other than white space and the title.

    >>> body_chars("标题|频道_网站", "标题"), body_chars("标题\n正文内容", "标题")
    (6, 4)
    """
    rest = text.replace(title, "") if title else text
    return len("".join(rest.split()))


class RecordPipeline:
    """Maps an item's extraction and overrides to the public record fields."""

    def __init__(
        self,
        stats: StatsCollector | None = None,
        export_figures: bool = False,
        min_text_chars: int = defaults.NEWSCRAWL_MIN_TEXT_CHARS,
    ) -> None:
        self.stats = stats
        self.min_text_chars = min_text_chars
        self.export_figures = export_figures
        self.since: datetime | None = None
        self.crawler: Crawler | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RecordPipeline:
        settings = with_defaults(crawler.settings)
        pipeline = cls(
            crawler.stats,
            settings.getbool("NEWSCRAWL_EXPORT_FIGURES"),
            settings.getint("NEWSCRAWL_MIN_TEXT_CHARS"),
        )
        pipeline.crawler = crawler
        return pipeline

    def open_spider(self) -> None:
        spider = self.crawler.spider if self.crawler else None
        self.since = getattr(spider, "since", None)

    def _drop(self, reason: str, message: str) -> DropItem:
        if self.stats is not None:
            self.stats.inc_value(f"newscrawl/dropped/{reason}")
        return DropItem(message)

    def _inc(self, key: str) -> None:
        if self.stats is not None:
            self.stats.inc_value(key)

    def process_item(self, item: Any) -> Any:
        if "url" not in item:
            return item
        extraction: Extraction = item.get("extraction") or Extraction()
        overrides: dict[str, Any] = item.get("overrides") or {}
        tz = item.get("timezone") or DEFAULT_TIMEZONE
        for name in INTERNAL_FIELDS:
            item.pop(name, None)
        url = item["url"]
        if extraction.error:
            raise self._drop("extract_error", f"extraction failed on {url}: {extraction.error}")
        text = clean_text(overrides.get("body") or extraction.text)
        title = clean_line(overrides.get("title") or extraction.title)
        if body_chars(text, title) < self.min_text_chars:
            raise self._drop("no_text", f"no text found on {url}")

        item["text"] = text
        item["title"] = title
        published = normalize_time(overrides.get("published_at"), tz) or normalize_time(
            extraction.published_at, tz
        )
        item["published_at"] = published
        item["author"] = clean_line(overrides.get("author") or extraction.author)
        item["language"] = (
            normalize_language(extraction.language)
            or normalize_language(item.get("language"))
            or guess_language(text)
        )
        item["page_kind"] = extraction.page_kind
        item["page_class"] = extraction.page_class
        item["algorithm"] = extraction.algorithm or ("xpath" if overrides.get("body") else None)
        item["reason"] = extraction.reason or None
        item["content_hash"] = content_hash(text)
        item.setdefault("canonical_url", url)
        if self.export_figures and extraction.figures:
            item["figures"] = extraction.to_dict()["figures"]

        if self.since is not None and published:
            when = parse_time(published, tz)
            if when is not None and when < self.since:
                raise self._drop("too_old", f"published {published}, before since={self.since.date()}: {url}")

        self._inc(f"newscrawl/items/kind/{item['page_kind']}")
        self._inc(f"newscrawl/items/class/{item['page_class']}")
        self._inc(f"newscrawl/items/algorithm/{item['algorithm']}")
        return item
