"""Stage 1: noise stripping, short/long classification and the matching extractor -- one ``extract`` call.

The raw body leaves the item here; the :class:`~newscrawl.extract.Extraction` is stored on the item's
internal ``extraction`` field for stage 2. Binary bodies served as HTML are dropped before extraction.
Switched off with ``NEWSCRAWL_EXTRACT_ENABLED = False`` (stage 2 then drops pages for lack of text).
The algorithm, its parameters and the per-page limits travel as one
:class:`~newscrawl.crawl.config.ExtractorOptions` (validated in :mod:`newscrawl.crawl.config`); the limits
come from ``NEWSCRAWL_MAX_BODY_BYTES``, ``NEWSCRAWL_MAX_NODES``,
``NEWSCRAWL_MAX_DEPTH`` and ``NEWSCRAWL_TIME_BUDGET`` (seconds); a page over one is dropped by stage 2
as ``extract_error`` with the limit named.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.statscollectors import StatsCollector

from newscrawl.crawl.config import ExtractorOptions, with_defaults
from newscrawl.extract import DEFAULT_TIMEZONE, extract

logger = logging.getLogger(__name__)

#: share of control bytes (other than tab, CR, LF, FF, ESC) above which a body is binary, not text;
#: HTML in any charset has practically none, random/compressed data about 27/256 = 10.5 %
BINARY_CONTROL_SHARE = 0.02
#: how much of the body the binary test reads
BINARY_SNIFF_BYTES = 4096
_CONTROL = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))


def looks_binary(body: bytes, share: float = BINARY_CONTROL_SHARE) -> bool:
    """True when ``body`` is not text: a NUL-free UTF-16 BOM aside, control bytes above ``share``.

    >>> looks_binary(b"<html><p>text</p></html>"), looks_binary(bytes(range(256)) * 4)
    (False, True)
    """
    head = body[:BINARY_SNIFF_BYTES]
    if not head or head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return False
    controls = len(head) - len(head.translate(None, _CONTROL))
    return controls / len(head) > share


class ExtractionPipeline:
    """Runs :func:`newscrawl.extract.extract` once per item that does not carry an extraction yet."""

    def __init__(self, options: ExtractorOptions | None = None, stats: StatsCollector | None = None):
        self.options = options or ExtractorOptions()
        self.stats = stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ExtractionPipeline:
        settings = with_defaults(crawler.settings)
        if not settings.getbool("NEWSCRAWL_EXTRACT_ENABLED"):
            raise NotConfigured("NEWSCRAWL_EXTRACT_ENABLED is off")
        return cls(ExtractorOptions.from_settings(settings), crawler.stats)

    def _inc(self, key: str) -> None:
        if self.stats is not None:
            self.stats.inc_value(key)

    def process_item(self, item: Any) -> Any:
        if "url" not in item or item.get("extraction") is not None:
            item.pop("body", None)
            return item
        body = item.pop("body", None) or b""
        if looks_binary(body):
            self._inc("newscrawl/dropped/binary")
            raise DropItem(f"binary content served as a page: {item['url']}")
        reference = None
        if item.get("crawled_at"):
            reference = datetime.fromisoformat(item["crawled_at"])
        result = extract(
            body,
            item["url"],
            algorithm=self.options.algorithm,
            http_charset=item.get("http_charset"),
            reference_time=reference,
            timezone=item.get("timezone") or DEFAULT_TIMEZONE,
            prune_xpath=item.get("prune_xpath"),
            limits=self.options.limits,
            **self.options.params,
        )
        self._inc("newscrawl/extract/count")
        item["extraction"] = result
        return item
