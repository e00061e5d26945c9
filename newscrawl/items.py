"""The record a crawl produces, one per article page.

Fields in :data:`EXPORT_FIELDS` are the public record (feed exports and sinks). ``body``,
``http_charset``, ``extraction``, ``field_xpaths`` and the rest of :data:`INTERNAL_FIELDS` are internal
hand-overs from the spider to the pipelines; stage 1 removes the raw body and stage 2 the rest, so raw
HTML is never exported. ``fingerprint`` goes from stage 1 to the duplicate pipeline, which removes it.
"""

from __future__ import annotations

import scrapy

from newscrawl.storage.base import RECORD_FIELDS

#: the public fields of a record, in export order (defined with the sinks, which never import Scrapy)
EXPORT_FIELDS: tuple[str, ...] = RECORD_FIELDS

#: internal fields, never exported
INTERNAL_FIELDS: tuple[str, ...] = (
    "body",
    "http_charset",
    "extraction",
    "timezone",
    "prune_xpath",
    "url_kind",
    "field_xpaths",
    "more_texts",
)


class NewsItem(scrapy.Item):
    url = scrapy.Field()  # the URL the page was requested under (the original one when replaying)
    canonical_url = scrapy.Field()  # <link rel=canonical> / og:url, else url without fragment
    site = scrapy.Field()
    title = scrapy.Field()
    published_at = scrapy.Field()  # ISO 8601 as precise as the page: 2024-09-03, 2024-09-03T04:03:19[+08:00]
    modified_at = scrapy.Field()  # last-modified time where the page gives it, as published_at
    author = scrapy.Field()  # who wrote it; several names joined ("、" between Chinese names, else "; ")
    authors = scrapy.Field()  # list: the names of ``author``
    editor = scrapy.Field()  # 责任编辑 / 编辑
    source = scrapy.Field()  # the organisation or wire service the story comes from (来源, 新华社)
    original_title = scrapy.Field()  # 原标题: the headline the story first ran under
    description = scrapy.Field()  # meta description, else the lead
    images = scrapy.Field()  # list of {"url": absolute URL, "caption": str | None}, the top image first
    tags = scrapy.Field()  # list of keywords
    section = scrapy.Field()  # breadcrumbs / article:section
    text = scrapy.Field()  # one paragraph per line
    page_kind = scrapy.Field()  # article | list (empty and error pages are dropped)
    page_class = scrapy.Field()  # short | long
    algorithm = scrapy.Field()  # the extractor that produced text
    pages = scrapy.Field()  # how many pages the article was split over (1 for most)
    language = scrapy.Field()
    crawled_at = scrapy.Field()  # ISO 8601, UTC
    content_hash = scrapy.Field()  # SHA-1 of text without white space
    reason = scrapy.Field()  # why the extractor was chosen
    duplicate_of = scrapy.Field()  # canonical URL of the first stored near-copy of this text (SimHash)
    figures = scrapy.Field()  # optional: the numbers behind the extraction (NEWSCRAWL_EXPORT_FIGURES)
    # internal
    body = scrapy.Field()  # raw response bytes
    http_charset = scrapy.Field()
    extraction = scrapy.Field()  # newscrawl.extract.Extraction, set by stage 1 (or by the spider)
    timezone = scrapy.Field()  # the site's time zone, for times without an offset (None: inferred per page)
    prune_xpath = scrapy.Field()  # the site's xpath.exclude: elements removed before extraction
    url_kind = scrapy.Field()  # "article" when the site's URL patterns say so: the page-kind step is skipped
    more_texts = scrapy.Field()  # texts of pages 2, 3, ... of a split article, in order (stage 2 joins them)
    fingerprint = scrapy.Field()  # (content hash, SimHash) of the extracted text, from stage 1 for dedup
    field_xpaths = scrapy.Field()  # the site's XPath overrides by field, run by the extraction library
