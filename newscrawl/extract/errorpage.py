"""Error pages served as if they were articles: page kind ``error``.

Many sites answer a missing or removed article, a login wall or a bot check with status 200 and a page
of their template: "页面不存在", "Page not found", "This article has been removed", "请登录后查看",
"Please enable JavaScript to continue". The body extractors then take its few lines (or the template's
chrome) for an article. The signals, all general (no site is named), with the wording as data in
``data/error_pages.txt``:

- ``title``: a part of the ``<title>`` (split at the title separators of ``data/title_separators.txt``) or
  a whole ``h1``/``h2`` heading *is* an error phrase ("404 Not Found", "页面不存在_新浪网", "Just a
  moment..."): the phrase must cover the part entire, so "Flight 404 lands safely" is not one (a heading
  saying "Login" alone is a sign-in box, not a login wall);
- ``text``: the extracted text is short (at most ``ERROR_TEXT_MAX_CHARS`` characters other than white
  space) and holds error wording ("您访问的页面不存在", "the page you requested could not be found").

Decision: an article is an ``error`` page when its text holds error wording and is short, or when its
title or heading is an error phrase and its text is at most ``ERROR_TITLED_MAX_CHARS`` characters (a
portal's 404 page often lists its latest headlines under the message). A real article is long or has a
headline of its own; on the seven shared datasets (1,757 article pages) the rule catches none
(docs/RELIABILITY.md lists the measurement).

An error status needs no rule here: Scrapy's HttpErrorMiddleware keeps 4xx and 5xx responses from the
spider, so only a page served with status 200 reaches extraction.

The crawl drops an error page from storage (``newscrawl/dropped/error_page``); ``newscrawl eval`` counts
the pages it calls error (``error_pages``: on datasets of articles, each is a real article lost).
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib.resources import files

from newscrawl.extract.document import Element, collapse, subtree_text
from newscrawl.extract.metadata.title import separator_pattern

#: at most this many characters (white space aside) in a text whose error wording makes it an error page;
#: the longest error message of the fixtures is about 200, the shortest dataset article with such
#: wording far longer (measured: see the module docstring)
ERROR_TEXT_MAX_CHARS = 400
#: at most this many characters in the text of a page whose title or heading is an error phrase
ERROR_TITLED_MAX_CHARS = 1500
#: headings that can name the page an error page
ERROR_HEADING_TAGS = ("h1", "h2")
#: kinds a heading alone does not prove: a "Login" / "Anmelden" heading heads a sign-in box of the page's
#: furniture (h1 to h3 on 17 pages of the shared datasets, beside real articles)
HEADING_NOT_ALONE = frozenset({"login"})
#: a heading longer than this is a headline, not an error phrase
ERROR_HEADING_MAX_CHARS = 80
#: what may trail an error phrase in a title part ("Page not found!", "页面不存在。")
_TRAILING = "\\s!.。！…:：?？-"


def _sections() -> dict[str, list[tuple[str, str]]]:
    text = files("newscrawl").joinpath("data", "error_pages.txt").read_text(encoding="utf-8")
    sections: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] | None = None
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("[") and line.rstrip().endswith("]"):
            current = sections.setdefault(line.strip()[1:-1], [])
            continue
        kind, _, pattern = line.partition(":")
        if current is None or not pattern.strip():
            raise ValueError(f"data/error_pages.txt: a line outside a section or without a kind: {line!r}")
        current.append((kind.strip(), pattern.strip()))
    return sections


def _combined(entries: list[tuple[str, str]], whole: bool) -> re.Pattern[str]:
    """One pattern of named alternatives (``k0``, ``k1``...: the kind is looked up by group name)."""
    parts = []
    for i, (_, pattern) in enumerate(entries):
        parts.append(f"(?P<k{i}>{pattern})")
    body = "|".join(parts)
    return re.compile(f"(?:{body})[{_TRAILING}]*" if whole else body, re.IGNORECASE)


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern[str], list[str], re.Pattern[str], list[str]]:
    sections = _sections()
    title, text = sections.get("title", []), sections.get("text", [])
    return _combined(title, True), [k for k, _ in title], _combined(text, False), [k for k, _ in text]


def _kind(match: re.Match[str], kinds: list[str]) -> str:
    name = match.lastgroup or ""
    return kinds[int(name[1:])] if name.startswith("k") else "error"


def title_error(title: str | None) -> str | None:
    """The kind of error a ``<title>`` or heading says, when one of its parts is an error phrase.

    >>> title_error("404 Not Found"), title_error("页面不存在_新浪网"), title_error("Flight 404 lands safely")
    ('not_found', 'not_found', None)
    """
    if not title:
        return None
    pattern, kinds, _, _ = _patterns()
    for part in separator_pattern().split(collapse(title)):
        part = part.strip()
        if not part or len(part) > ERROR_HEADING_MAX_CHARS:
            continue
        m = pattern.fullmatch(part)
        if m is not None:
            return _kind(m, kinds)
    return None


def text_error(text: str) -> str | None:
    """The kind of error a short text's wording says (None for a text over ``ERROR_TEXT_MAX_CHARS``).

    >>> text_error("抱歉，您访问的页面不存在。返回首页"), text_error("A long story. " * 60)
    ('not_found', None)
    """
    if _longer_than(text, ERROR_TEXT_MAX_CHARS):
        return None
    _, _, pattern, kinds = _patterns()
    m = pattern.search(collapse(text))
    return _kind(m, kinds) if m is not None else None


def text_chars(text: str) -> int:
    """Characters of ``text`` other than white space."""
    return len("".join(text.split()))


def _longer_than(text: str, limit: int) -> bool:
    """Whether ``text`` has more than ``limit`` characters other than white space, counted on its head
    first (an article's text can be a hundred times the limit)."""
    if len(text) <= limit:
        return False
    return text_chars(text[: 2 * limit]) > limit or text_chars(text) > limit


def detect_error_page(title: str | None, body: Element, text: str) -> dict[str, str] | None:
    """The signal that makes a page with ``title``, ``body`` and extracted ``text`` an error page, or None:
    ``{"error_page": kind, "signal": "title" | "heading" | "text", "phrase": ...}``."""
    if _longer_than(text, ERROR_TITLED_MAX_CHARS):  # most articles: decided on the text's head alone
        return None
    kind = text_error(text)
    if kind is not None:
        return {"error_page": kind, "signal": "text", "phrase": _phrase(text)}
    kind = title_error(title)
    if kind is not None:
        phrase = collapse(title or "")[:ERROR_HEADING_MAX_CHARS]
        return {"error_page": kind, "signal": "title", "phrase": phrase}
    for heading in _headings(body):
        kind = title_error(heading)
        if kind is not None and kind not in HEADING_NOT_ALONE:
            return {"error_page": kind, "signal": "heading", "phrase": heading}
    return None


def _headings(body: Element) -> list[str]:
    out = []
    for el in body.iter(*ERROR_HEADING_TAGS):
        text = collapse(subtree_text(el))
        if text and len(text) <= ERROR_HEADING_MAX_CHARS:
            out.append(text)
    return out


def _phrase(text: str) -> str:
    _, _, pattern, _ = _patterns()
    m = pattern.search(collapse(text))
    return m.group(0) if m is not None else ""
