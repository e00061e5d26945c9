"""Start points that are not HTML: sitemaps (and news sitemaps), RSS/Atom feeds and JSON roll feeds.

Plain functions from bytes to :class:`FeedEntry` values. XML is parsed without entity expansion and
without network access (no XXE, no billion laughs); a gzip body (``sitemap.xml.gz``) is inflated to
:data:`MAX_FEED_BYTES` at most (a gzip bomb gives nothing); a body that is not the expected format gives
no entries rather than an exception.

>>> [e.url for e in parse_xml_feed(b'<rss><channel><item><link>http://a/1</link></item></channel></rss>')]
['http://a/1']
"""

from __future__ import annotations

import io
import json
import re
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from lxml import etree

EntryKind = Literal["page", "sitemap"]

#: entries followed per feed or sitemap by default (NEWSCRAWL_MAX_FEED_ENTRIES): a sitemap's most by
#: the sitemap protocol
MAX_FEED_ENTRIES = 50_000
#: bodies larger than this are not parsed as feeds (a sitemap is at most 50 MB by the protocol)
MAX_FEED_BYTES = 50 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class FeedEntry:
    """One link a feed points to: a page, or (from a sitemap index) another sitemap."""

    url: str
    title: str | None = None
    published_at: str | None = None  # as the feed gives it: ISO, RFC 822 or epoch seconds
    kind: EntryKind = "page"


def _parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False, no_network=True, recover=True, remove_comments=True, huge_tree=False
    )


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1].lower() if isinstance(tag, str) else ""


def _child_text(el: etree._Element, *names: str) -> str | None:
    """Text of the first descendant whose local name is one of ``names`` (in the order given)."""
    for name in names:
        for child in el.iter():
            if _local(child.tag) == name and child.text and child.text.strip():
                return child.text.strip()
    return None


_FEED_ROOT = re.compile(rb"<(?:rss|feed|urlset|sitemapindex|(?:\w+:)?rdf)[\s/>]", re.IGNORECASE)
_HTML_ROOT = re.compile(rb"<html[\s>]", re.IGNORECASE)
#: how far into a body the root element of a feed is looked for (past the prolog, comments, stylesheet PIs)
FEED_SNIFF_BYTES = 2048


def looks_like_xml(body: bytes) -> bool:
    """True when the first element of ``body`` is a feed or sitemap root (an XHTML page is not)."""
    head = body[:FEED_SNIFF_BYTES]
    m = _FEED_ROOT.search(head)
    return m is not None and _HTML_ROOT.search(head, 0, m.start()) is None


def looks_like_json(body: bytes) -> bool:
    head = body[:64].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head[:1] in (b"{", b"[")


_GZIP_MAGIC = b"\x1f\x8b"


def gunzip_capped(body: bytes, max_size: int = MAX_FEED_BYTES) -> bytes | None:
    """``body`` inflated from gzip; None when it is corrupt or would inflate past ``max_size`` bytes
    (never more than ``max_size + 1`` bytes are made).

    >>> import gzip
    >>> gunzip_capped(gzip.compress(b"<urlset/>")), gunzip_capped(gzip.compress(bytes(1000)), max_size=999)
    (b'<urlset/>', None)
    """
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = inflate.decompress(body, max_size + 1)
    except zlib.error:
        return None
    return out if len(out) <= max_size else None


#: the element that holds one entry, by root element
_ENTRY_TAGS = {"urlset": "url", "sitemapindex": "sitemap", "feed": "entry", "rss": "item", "rdf": "item"}


def iter_xml_feed(body: bytes) -> Iterator[FeedEntry]:
    """Entries of a sitemap, sitemap index, news sitemap, RSS 2.0/1.0 or Atom document, one at a time.

    The document is parsed as a stream and every entry's element is freed once read, so memory stays
    flat however many entries a feed lists (a 700,000-URL sitemap parsed into a tree took 2.2 GB).
    """
    if body[:2] == _GZIP_MAGIC:
        body = gunzip_capped(body) or b""
    if not body or len(body) > MAX_FEED_BYTES:
        return
    events = etree.iterparse(
        io.BytesIO(body),
        events=("start", "end"),
        resolve_entities=False,
        no_network=True,
        recover=True,
        remove_comments=True,
        huge_tree=False,
    )
    wanted: str | None = None
    try:
        for event, el in events:
            if wanted is None:  # the first event is the root's start
                kind = _local(el.tag)
                wanted = _ENTRY_TAGS.get(kind)
                if wanted is None:
                    return
                read = _ENTRY_READERS[kind]
                continue
            if event != "end" or _local(el.tag) != wanted:
                continue
            entry = read(el)
            if entry is not None:
                yield entry
            el.clear(keep_tail=False)
            parent = el.getparent()
            while parent is not None and el.getprevious() is not None:
                del parent[0]
    except (etree.XMLSyntaxError, ValueError):
        return


def parse_xml_feed(body: bytes) -> list[FeedEntry]:
    """Every entry :func:`iter_xml_feed` gives."""
    return list(iter_xml_feed(body))


def _sitemap_entry(el: etree._Element, kind: EntryKind) -> FeedEntry | None:
    loc = _child_text(el, "loc")
    if not loc:
        return None
    # news sitemaps: <news:news><news:title>, <news:publication_date>; plain ones only have <lastmod>
    return FeedEntry(loc, _child_text(el, "title"), _child_text(el, "publication_date", "lastmod"), kind)


def _rss_entry(item: etree._Element) -> FeedEntry | None:
    link = _child_text(item, "link") or _child_text(item, "guid")
    if not link or not link.startswith(("http://", "https://")):
        return None
    return FeedEntry(link, _child_text(item, "title"), _child_text(item, "pubdate", "date"))


def _atom_entry(entry: etree._Element) -> FeedEntry | None:
    href = None
    for link in entry:
        if _local(link.tag) == "link" and link.get("href") and link.get("rel", "alternate") == "alternate":
            href = link.get("href")
            break
    if not href:
        return None
    return FeedEntry(href, _child_text(entry, "title"), _child_text(entry, "published", "updated"))


_ENTRY_READERS: dict[str, Callable[[etree._Element], FeedEntry | None]] = {
    "urlset": lambda el: _sitemap_entry(el, "page"),
    "sitemapindex": lambda el: _sitemap_entry(el, "sitemap"),
    "feed": _atom_entry,
    "rss": _rss_entry,
    "rdf": _rss_entry,
}


def _dig(obj: Any, path: str) -> Any:
    for key in filter(None, path.split(".")):
        if isinstance(obj, Mapping):
            obj = obj.get(key)
        elif isinstance(obj, list) and key.isdigit() and int(key) < len(obj):
            obj = obj[int(key)]
        else:
            return None
    return obj


def parse_roll_feed(
    body: bytes,
    *,
    items: str = "result.data",
    url: str = "url",
    title: str = "title",
    published_at: str = "ctime",
) -> list[FeedEntry]:
    """Entries of a JSON roll feed: ``items`` is the dotted path to the list, the rest are entry keys.

    JSONP (``callback({...});``) is unwrapped. Sina's roll API, for one, answers
    ``{"result": {"data": [{"url": ..., "title": ..., "ctime": "1732000000"}, ...]}}``.
    """
    text = body.decode("utf-8", errors="replace").strip()
    if text and text[0] not in "{[" and "(" in text and text.endswith((")", ");")):
        text = text[text.index("(") + 1 : text.rindex(")")]
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: arrays nested thousands deep
        return []
    rows = _dig(data, items) if items else data
    if not isinstance(rows, list):
        return []
    out = []
    for row in rows:
        link = _dig(row, url) if isinstance(row, Mapping) else None
        if not isinstance(link, str) or not link.startswith(("http://", "https://", "/")):
            continue
        t = _dig(row, title)
        when = _dig(row, published_at)
        out.append(
            FeedEntry(
                link,
                t.strip() if isinstance(t, str) else None,
                str(when) if isinstance(when, str | int | float) and not isinstance(when, bool) else None,
            )
        )
    return out
