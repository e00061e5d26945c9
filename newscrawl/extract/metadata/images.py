"""Images: the article's pictures as absolute URLs with captions, the top image first.

1. ``meta:<key>`` -- the declared top image: og:image (caption og:image:alt), twitter:image, JSON-LD
   ``image`` (a URL, an ``ImageObject`` with its caption, or a list), itemprop image;
2. ``lead`` -- the pictures between the headline (the last <h1> before the content node) and the content
   node, where many publishers set the lead picture, at most ``LEAD_REACH`` elements after the headline:
   those set in a ``<figure>`` or ``<picture>``, not icons, logos, share buttons or the writer's portrait;
3. ``body`` -- the pictures inside the content node, in order: ``<img>`` (``src`` or the lazy-loading
   ``data-src`` / ``data-original``), captioned by its ``<figure>``'s ``<figcaption>``, else its alt text.

URLs resolve against ``<base href>``, else the page URL; ``data:`` URIs, pictures declared smaller than
``MIN_IMAGE_PIXELS`` on a side (icons, tracking pixels) and repeats are left out; at most ``MAX_IMAGES``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from itertools import islice
from urllib.parse import urljoin

from newscrawl.extract.document import Element, collapse, subtree_text
from newscrawl.extract.lazyre import lazy_compile
from newscrawl.extract.page import Page, PageMeta
from newscrawl.extract.result import BodyResult, Image

#: meta keys holding the top image, best first
META_IMAGE_KEYS: tuple[str, ...] = (
    "og:image",
    "og:image:url",
    "og:image:secure_url",
    "twitter:image",
    "image",
)
#: attributes holding an <img>'s address, lazy-loading ones first (their ``src`` is a placeholder)
SRC_ATTRIBUTES: tuple[str, ...] = ("data-src", "data-original", "data-lazy-src", "data-url", "src")
#: pictures declared smaller than this (width or height, pixels) are icons or tracking pixels
MIN_IMAGE_PIXELS = 50
#: at most this many images per page
MAX_IMAGES = 30
#: ``<img>`` elements of the body read for them: a body with more is a flood (fuzzing met 45,000 copies
#: of one image, 1.0 s of CPU), and the first thousand hold the record's 30
MAX_IMAGE_ELEMENTS = 1000
#: longest caption kept
MAX_CAPTION_CHARS = 300
#: an address, class or id of an icon, a logo, a writer's portrait or a share button, not a picture
_NOT_A_PICTURE = lazy_compile(
    r"icon|logo|avatar|gravatar|author|byline|share|social|sprite|pixel|spacer|placeholder|lazy", re.I
)
#: a caption that is a byline ("Von Jane Doe, Volontärin"): the writer's portrait
_BYLINE_CAPTION = lazy_compile(r"^(?:By|Von|Par|Por|Door|Di)\s+[A-Z]")
#: elements after the headline searched for the lead picture (a standfirst, a byline, share buttons and
#: a <figure> take a few dozen; farther is another part of the page)
LEAD_REACH = 120


def _caption(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    text = collapse(value)
    return text[:MAX_CAPTION_CHARS] or None


def _declared(meta: PageMeta) -> Iterator[tuple[str, str | None]]:
    alt = _caption(meta.meta.get("og:image:alt") or meta.meta.get("twitter:image:alt"))
    for key in META_IMAGE_KEYS:
        for url in meta.multi.get(key) or ([meta.meta[key]] if key in meta.meta else []):
            yield url, alt if key.startswith("og:") else None
    for obj in meta.json_ld:
        if "headline" not in obj and obj.get("@type") != "ImageObject":
            continue
        value = obj.get("image") if "headline" in obj else obj
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str):
                yield item, None
            elif isinstance(item, dict):
                address = item.get("url") or item.get("contentUrl")
                if isinstance(address, str):
                    yield address, _caption(item.get("caption"))


def _small(img: Element) -> bool:
    for attr in ("width", "height"):
        value = (img.get(attr) or "").strip().removesuffix("px")
        if value.isdigit() and int(value) < MIN_IMAGE_PIXELS:
            return True
    return False


def _figure_caption(img: Element) -> str | None:
    el = img.getparent()
    for _ in range(4):  # <figure><a><picture><img>: the caption sits a few levels up
        if el is None:
            break
        if el.tag == "figure":
            for cap in el.iter("figcaption"):
                return _caption(subtree_text(cap))
            break
        el = el.getparent()
    return None


def _pictures(imgs: Iterable[Element]) -> Iterator[tuple[str, str | None]]:
    for img in imgs:
        if _small(img):
            continue
        src = next((img.get(a) for a in SRC_ATTRIBUTES if (img.get(a) or "").strip()), None)
        if src:
            yield src, _figure_caption(img) or _caption(img.get("alt")) or _caption(img.get("title"))


def _in_body(node: Element | None) -> Iterator[tuple[str, str | None]]:
    if node is not None:
        yield from _pictures(islice(node.iter("img"), MAX_IMAGE_ELEMENTS))


def _lead(page: Page, node: Element | None) -> Iterator[tuple[str, str | None]]:
    """The pictures between the headline and the content node (see the module docstring)."""
    stats = page.stats
    end = stats.index.get(node) if node is not None else None
    if end is None:
        return
    tags = stats.tag
    # the last <h1> at most LEAD_REACH elements before the content node, read off the statistics' tag list
    # (walking the page's <h1>s cost a tree walk a page)
    start = next((i for i in range(end - 1, max(end - LEAD_REACH, 0) - 1, -1) if tags[i] == "h1"), None)
    if start is None:
        return
    imgs = (stats.elements[i] for i in range(start + 1, end) if tags[i] == "img")
    for src, caption in _pictures(img for img in imgs if _lead_picture(img)):
        if not (caption and _BYLINE_CAPTION.match(caption)):
            yield src, caption


def _lead_picture(img: Element) -> bool:
    """An <img> set in a <figure> or <picture>, not an icon, a logo or the writer's portrait."""
    if _NOT_A_PICTURE.search(next((img.get(a) or "" for a in SRC_ATTRIBUTES if img.get(a)), "")):
        return False
    framed = False
    el = img.getparent()
    for _ in range(4):  # <figure><a><picture><img>, and the box the figure sits in
        if el is None:
            break
        if _NOT_A_PICTURE.search(f"{el.get('class') or ''} {el.get('id') or ''}"):
            return False
        framed = framed or el.tag in ("figure", "picture")
        el = el.getparent()
    return framed


def find_images(page: Page, body: BodyResult) -> tuple[tuple[Image, ...], str | None]:
    """The page's images and where the first came from (``meta:...``, ``json-ld`` or ``body``)."""
    base = page.meta.base or page.url or ""
    if page.meta.base and page.url:
        base = urljoin(page.url, page.meta.base)
    out: dict[str, Image] = {}
    source: str | None = None
    lead = _lead(page, body.node)
    for origin, pairs in (("meta", _declared(page.meta)), ("lead", lead), ("body", _in_body(body.node))):
        for src, caption in pairs:
            src = src.strip()
            if not src or src.startswith(("data:", "javascript:")):
                continue
            url = urljoin(base, src) if base else src
            if url in out:
                if caption and not out[url].caption:
                    out[url] = Image(url, caption)
                continue
            out[url] = Image(url, caption)
            source = source or origin
            if len(out) >= MAX_IMAGES:
                return tuple(out.values()), source
    return tuple(out.values()), source
