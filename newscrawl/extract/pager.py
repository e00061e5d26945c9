"""Articles split over several pages: which links of a page lead to its continuation pages.

Chinese portals split long articles and link the parts from a pager under the body ("上一页 1 2 3 下一页").
The parts' URLs follow the first page's in a few shapes, and only those are taken, so a pager of *other*
articles or a list's pagination is never mistaken for one:

- a page-number suffix on the file name: ``doc-ixyz.shtml`` -> ``doc-ixyz_2.shtml`` (also ``-2``);
- a page-number query parameter: ``/a/123`` -> ``/a/123?page=2`` (``page``, ``p``, ``pn``, ``pageno``,
  ``pagenum``, ``pg``), the other parameters unchanged.

>>> continuation_urls("https://n.cn/a/doc-ix.shtml",
...     ["https://n.cn/a/doc-ix_3.shtml", "https://n.cn/a/doc-ix_2.shtml", "https://n.cn/a/doc-iy_2.shtml"])
['https://n.cn/a/doc-ix_2.shtml', 'https://n.cn/a/doc-ix_3.shtml']
>>> first_page("https://n.cn/a/doc-ix_2.shtml"), first_page("https://n.cn/a/doc-ix.shtml")
('https://n.cn/a/doc-ix.shtml', None)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import parse_qsl, urldefrag, urlencode, urlsplit, urlunsplit

from newscrawl.extract.lazyre import lazy_compile

#: pages of one article at most (the longest split articles seen on portals have about 20)
MAX_PAGES = 50
#: query parameters that number the pages of an article
PAGE_PARAMS = frozenset({"page", "p", "pn", "pageno", "pagenum", "pg"})

_SUFFIX = lazy_compile(r"^(?P<stem>.+?)[_-](?P<n>\d{1,3})(?P<ext>\.[a-z]{2,5})$", re.IGNORECASE)
_EXT = lazy_compile(r"^(?P<stem>.+?)(?P<ext>\.[a-z]{2,5})$", re.IGNORECASE)


def _page_param(query: str) -> tuple[str | None, int | None, list[tuple[str, str]]]:
    """(parameter name, page number, the other parameters) of a query string."""
    name = number = None
    rest: list[tuple[str, str]] = []
    for key, value in parse_qsl(query, keep_blank_values=True):
        if name is None and key.lower() in PAGE_PARAMS and value.isdigit() and len(value) <= 3:
            name, number = key, int(value)
        else:
            rest.append((key, value))
    return name, number, rest


def page_number(candidate: str, first: str) -> int | None:
    """N when ``candidate`` is page N (2 or more) of the article whose first page is ``first``."""
    c, f = urlsplit(urldefrag(candidate).url), urlsplit(urldefrag(first).url)
    if (c.scheme, c.netloc.lower()) != (f.scheme, f.netloc.lower()):
        return None
    if c.path == f.path:
        name, n, rest = _page_param(c.query)
        fname, fn, frest = _page_param(f.query)
        if name is None or n is None or n < 2 or (fn not in (None, 1)) or sorted(rest) != sorted(frest):
            return None
        return n
    m = _SUFFIX.match(c.path)
    e = _EXT.match(f.path)
    if m is None or e is None or c.query != f.query:
        return None
    if m.group("stem") != e.group("stem") or m.group("ext").lower() != e.group("ext").lower():
        return None
    n = int(m.group("n"))
    return n if n >= 2 else None


#: what follows a page's file-name stem in a link to a later page of it: ``_2``/``-2``, ``?page=2``/``&p=2``
_LATER_PAGE_MARKS = (b"_", b"-", b"?", b"&")
#: places of the stem in a body checked one by one before the test falls back to a scan per mark
_STEM_PLACES = 8


def may_link_later_pages(url: str, body: bytes) -> bool:
    """A cheap test on the raw page: False when no link to a later page of ``url`` can be in ``body``.

    Looks for the file name's stem followed by ``_``/``-`` (``doc-ix_2.shtml``), or by ``?``/``&`` (the
    page-number parameter form), so the page is parsed for its pager only when one may be there.

    >>> may_link_later_pages("https://n.cn/a/doc-ix.shtml", b'<a href="doc-ix_2.shtml">2</a>')
    True
    >>> may_link_later_pages("https://n.cn/a/doc-ix.shtml", b'<a href="doc-iy_2.shtml">2</a>')
    False
    """
    path = urlsplit(url).path
    name = path.rsplit("/", 1)[-1]
    ext = _EXT.match(name)
    stem = (ext.group("stem") if ext else name).encode("utf-8", "ignore")
    if not stem:
        stem = path.rstrip("/").rsplit("/", 1)[-1].encode("utf-8", "ignore")
    if not stem:
        return False
    # one scan for the stem, each place it occurs checked for a mark after it (four scans of the body for
    # stem + mark cost 4x on a page that never names its stem, which is most pages); a stem that occurs
    # often (a short name) goes back to the four scans rather than a Python loop over its places
    at = body.find(stem)
    for _ in range(_STEM_PLACES):
        if at < 0:
            return False
        end = at + len(stem)
        if body[end : end + 1] in _LATER_PAGE_MARKS:
            return True
        at = body.find(stem, at + 1)
    return at >= 0 and any(stem + mark in body for mark in _LATER_PAGE_MARKS)


def continuation_urls(first: str, links: Iterable[str]) -> list[str]:
    """The links that are pages 2, 3, ... of the article at ``first``, in page order, without repeats."""
    found: dict[int, str] = {}
    for link in links:
        n = page_number(link, first)
        if n is not None and n <= MAX_PAGES:
            found.setdefault(n, urldefrag(link).url)
    return [found[n] for n in sorted(found)]


def first_page(url: str) -> str | None:
    """The URL of page 1 when ``url`` is shaped like page 2 or later of a split article, else None.

    The shape alone does not make a page a continuation (``/2024_12.html`` may be a whole article): the
    crawler also checks that the page links to that first page.
    """
    parts = urlsplit(urldefrag(url).url)
    name, n, rest = _page_param(parts.query)
    if name is not None and n is not None and n >= 2:
        return urlunsplit(parts._replace(query=urlencode(rest)))
    m = _SUFFIX.match(parts.path)
    if m is not None and int(m.group("n")) >= 2:
        return urlunsplit(parts._replace(path=m.group("stem") + m.group("ext")))
    return None
