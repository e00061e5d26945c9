"""Stage 2: title, report time, people and the other metadata, normalisation, content hash; pages without
text and error pages (page kind ``error``: a page not found, a removed article, a login wall or a bot check
served with status 200) are dropped.

The record's key, ``canonical_url``, is the page's canonical link when it names a page of the crawl's
allowed domains (:func:`newscrawl.extract.urls.canonical_url`), else the page's URL, normalised.

The extraction already holds what a site's XPath overrides found (the library runs them; author, editor
and source overrides lose their labels, "作者：", "责任编辑：", "来源："). A dropped
page raises ``DropItem`` with its reason and counts ``newscrawl/dropped/<reason>`` in the crawl stats;
exported records count ``newscrawl/items/kind/<kind>``, ``.../class/<class>`` and ``.../algorithm/<name>``.
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
from newscrawl.crawl.workers import Fingerprint
from newscrawl.extract import Extraction
from newscrawl.extract.metadata.dates import before, parse_stamp
from newscrawl.extract.urls import canonical_url
from newscrawl.items import INTERNAL_FIELDS
from newscrawl.pipelines.normalize import clean_line, clean_text, content_hash, normalize_language

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
        self.allowed_domains: tuple[str, ...] = ()
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
        self.allowed_domains = tuple(getattr(spider, "allowed_domains", None) or ())

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
        more_texts: list[str] = item.get("more_texts") or []  # pages 2, 3, ... of a split article
        for name in INTERNAL_FIELDS:
            item.pop(name, None)
        url = item["url"]
        if extraction.error:
            raise self._drop("extract_error", f"extraction failed on {url}: {extraction.error}")
        if extraction.page_kind == "error":  # a page not found, a removed article, a login wall, a bot check
            why = (extraction.figures.get("page_kind") or {}).get("reason", "error page")
            raise self._drop("error_page", f"not an article on {url}: {why}")
        fingerprint = item.get("fingerprint")
        if isinstance(fingerprint, Fingerprint) and not more_texts:
            text, digest = fingerprint.text, fingerprint.content_hash  # the worker cleaned and hashed it
        else:
            text = clean_text("\n".join([extraction.text, *more_texts]))
            digest = content_hash(text)
        title = clean_line(extraction.title)
        if body_chars(text, title) < self.min_text_chars:
            raise self._drop("no_text", f"no text found on {url}")

        item["text"] = text
        item["pages"] = 1 + len(more_texts)
        item["title"] = title
        published = extraction.published_at
        item["published_at"] = published
        item["modified_at"] = extraction.modified_at
        item["author"] = clean_line(extraction.author)
        item["authors"] = list(extraction.authors)
        item["editor"] = clean_line(extraction.editor)
        item["source"] = clean_line(extraction.source)
        item["original_title"] = clean_line(extraction.original_title)
        item["description"] = clean_line(extraction.description)
        item["images"] = [{"url": i.url, "caption": i.caption} for i in extraction.images]
        item["tags"] = list(extraction.tags)
        item["section"] = clean_line(extraction.section)
        item["language"] = (
            normalize_language(extraction.language if extraction.sources.get("language") == "page" else None)
            or normalize_language(item.get("language"))
            or normalize_language(extraction.language)
            or guess_language(text)
        )
        item["page_kind"] = extraction.page_kind
        item["page_class"] = extraction.page_class
        from_xpath = extraction.sources.get("text") == "xpath"
        item["algorithm"] = "xpath" if from_xpath else extraction.algorithm or None
        item["reason"] = extraction.reason or None
        item["content_hash"] = digest
        # the page's own canonical link, when it names a page of this site (else the page's URL), normalised
        item["canonical_url"] = canonical_url(url, [extraction.canonical_link], self.allowed_domains)
        if self.export_figures and extraction.figures:
            item["figures"] = extraction.to_dict()["figures"]

        if self.since is not None and published:
            stamp = parse_stamp(published, slow=False)
            if stamp is not None and before(stamp, self.since):
                raise self._drop("too_old", f"published {published}, before since={self.since.date()}: {url}")

        self._inc(f"newscrawl/items/kind/{item['page_kind']}")
        self._inc(f"newscrawl/items/class/{item['page_class']}")
        self._inc(f"newscrawl/items/algorithm/{item['algorithm']}")
        return item
