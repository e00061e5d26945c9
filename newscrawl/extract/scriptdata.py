"""The article as a page's script data holds it, for pages whose DOM holds little text.

Some pages render the article from data shipped in a script: JSON-LD ``articleBody``, Next.js's
``<script id="__NEXT_DATA__">``, or a state object assigned in a script (``window.__INITIAL_STATE__ = {...}``,
``__PRELOADED_STATE__``, ``__APOLLO_STATE__``...). ``article_from_scripts`` finds the longest article body
there:

- JSON-LD: the ``articleBody`` of an object (the page metadata already parsed it);
- JSON data: the value of a body-like key (``BODY_KEYS``: ``articleBody``, ``body``, ``content``...): a
  string of text or HTML, or a list of blocks whose text is under ``TEXT_KEYS``.

HTML is turned into paragraphs by the library's own ``document.paragraphs``, pictures and their captions
left out. Parsing is bounded: scripts
over ``SCRIPT_MAX_CHARS`` are skipped, at most ``SCRIPTS_MAX_CHARS`` are parsed per page and at most
``MAX_JSON_NODES`` values walked per script, so a hostile script costs milliseconds, not seconds.

>>> html = ('<script id="__NEXT_DATA__" type="application/json">{"props": {"article": {"body": '
...         '[{"type": "p", "text": "First paragraph of the story."}, {"text": "Second one."}]}}}</script>')
>>> found = article_from_scripts(html, [])
>>> found.source, found.paragraphs
('__NEXT_DATA__', ('First paragraph of the story.', 'Second one.'))
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from lxml import etree

from newscrawl.extract.boilerplate import is_caption
from newscrawl.extract.document import ParseError, body_of, collapse, paragraphs, parse_html
from newscrawl.extract.lazyre import lazy_compile
from newscrawl.extract.page import Page
from newscrawl.extract.result import BodyResult, freeze

#: a script larger than this is not parsed (a data dump, or an attack)
SCRIPT_MAX_CHARS = 2_000_000
#: at most this many characters of script data are parsed per page
SCRIPTS_MAX_CHARS = 4_000_000
#: at most this many JSON values are walked per script
MAX_JSON_NODES = 200_000
#: an HTML string longer than this is not parsed into paragraphs
HTML_MAX_CHARS = 500_000
#: the DOM "holds little text" below this many characters of extracted text: only then are scripts read
LITTLE_TEXT_CHARS = 1000
#: a script body shorter than this is not taken for an article
SCRIPT_MIN_CHARS = 200
#: the script body is used when it holds at least this many times the DOM's extracted text
SCRIPT_OVER_DOM = 2.0
#: keys whose value may be the article body, casefolded
BODY_KEYS = frozenset(
    {"articlebody", "body", "bodyhtml", "content", "contenthtml", "articletext", "articlecontent", "story",
     "storybody", "paragraphs", "blocks"}
)
#: keys that hold a block's text inside a body list, casefolded
TEXT_KEYS = ("text", "content", "html", "value", "body", "plaintext")
#: a state object handed over in a script: assigned (``window.__INITIAL_STATE__ =``, ``__NUXT_DATA__=``) or
#: pushed onto a queue named like one (``window["__RQ_R_1_"].push({...})``, a dehydrated React Query cache)
#: (the lookahead lets the scan skip positions that cannot start one: 2.5x faster over 8 MB of JSON)
_STATE_RE = lazy_compile(
    r"(?=[wsg_])(?:(?:window\.|self\.|globalThis\.)?(__[A-Z][A-Z0-9_]*__)\s*="
    r"|(?:window|self|globalThis)(?:\.(__\w+)|\[\s*[\"'](__\w+)[\"']\s*\])\.push\()\s*(?=[{\[])"
)
_SCRIPT_OPEN_RE = lazy_compile(r"<script\b([^>]*)>", re.IGNORECASE)
#: "</script" with its ASCII letters in either case (an HTML parser's end of a script)
_SCRIPT_CLOSE_RE = lazy_compile(r"</[sS][cC][rR][iI][pP][tT]")
_NEXT_DATA_RE = lazy_compile(r"""\bid\s*=\s*["']?__NEXT_DATA__""", re.IGNORECASE)
_JSON_TYPE_RE = lazy_compile(r"""\btype\s*=\s*["']?application/json""", re.IGNORECASE)
_TAG_RE = lazy_compile(r"<(?:p|br|div|h[1-6]|li|span|a|em|strong|b|i)\b[^>]*>", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ScriptArticle:
    """An article body found in script data, and where (``json-ld``, ``__NEXT_DATA__``, the state name)."""

    paragraphs: tuple[str, ...]
    source: str

    @property
    def chars(self) -> int:
        return sum(len(p) for p in self.paragraphs)


def text_paragraphs(value: str) -> list[str]:
    """A body string as paragraphs: HTML through the library's ``paragraphs``, plain text by line."""
    if _TAG_RE.search(value) and len(value) <= HTML_MAX_CHARS:
        try:
            body = body_of(parse_html(f"<div>{value}</div>"))
            captions = {el for el in body.iter(etree.Element) if is_caption(str(el.tag), el.get("class"))}
            return paragraphs(body, skip=captions)
        except (ParseError, ValueError, etree.LxmlError):
            pass
    return [line for line in (collapse(x) for x in value.splitlines()) if line]


def _scripts(html: str) -> Iterator[tuple[str, str]]:
    """``(attributes, text)`` of each ``<script>``, in order; a linear scan (an unclosed script ends it)."""
    pos = 0
    # "</script" with its ASCII letters in any case, as an HTML parser ends a script. (Lower-casing the page
    # to find it cost 4 ms on a 500 kB page, and after a U+0130, whose lower case is two characters long,
    # every position found in the lower-cased copy was one off: the script's text was cut wrongly.)
    while True:
        m = _SCRIPT_OPEN_RE.search(html, pos)
        if m is None:
            return
        close = _SCRIPT_CLOSE_RE.search(html, m.end())
        end = -1 if close is None else close.start()
        if end < 0:
            return
        yield m.group(1), html[m.end() : end]
        pos = end + 8


def _data_blocks(html: str) -> Iterator[tuple[str, Any]]:
    """``(source name, parsed JSON)`` of the page's data scripts, within the size caps."""
    budget = SCRIPTS_MAX_CHARS
    decoder = json.JSONDecoder()
    for attrs, text in _scripts(html):
        if len(text) > SCRIPT_MAX_CHARS or len(text) > budget or "ld+json" in attrs.lower():
            continue  # JSON-LD comes parsed with the page metadata
        if _NEXT_DATA_RE.search(attrs) or _JSON_TYPE_RE.search(attrs):
            budget -= len(text)
            name = "__NEXT_DATA__" if _NEXT_DATA_RE.search(attrs) else "application/json"
            try:
                yield name, json.loads(text)
            except (ValueError, RecursionError):
                continue
            continue
        if "__" not in text:  # every state name has it: skip the pattern's slow scan
            continue
        for m in _STATE_RE.finditer(text):
            budget -= len(text) - m.end()
            try:
                value, _ = decoder.raw_decode(text, m.end())
            except (ValueError, RecursionError):
                continue
            yield m.group(1) or m.group(2) or m.group(3), value
            if budget <= 0:
                return


def _block_text(item: Any) -> list[str]:
    """The text of one body block: a string, or the first text-like string value of a dict."""
    if isinstance(item, str):
        return text_paragraphs(item)
    if isinstance(item, dict):
        for key in TEXT_KEYS:
            value = item.get(key)
            if isinstance(value, str) and value.strip():
                return text_paragraphs(value)
            if isinstance(value, list):
                return [p for sub in value[:1000] for p in _block_text(sub)]
    return []


def _body_candidates(data: Any) -> Iterator[list[str]]:
    """The paragraphs under each body-like key of ``data`` (walked depth-first, at most ``MAX_JSON_NODES``
    containers)."""
    queue: list[Any] = [data]
    walked = 0
    while queue and walked < MAX_JSON_NODES:
        node = queue.pop()
        walked += 1
        if isinstance(node, dict):
            for key, value in node.items():
                if isinstance(key, str) and key.casefold() in BODY_KEYS:
                    if isinstance(value, str):
                        yield text_paragraphs(value)
                    elif isinstance(value, list):
                        yield [p for item in value[:5000] for p in _block_text(item)]
                if isinstance(value, dict | list):
                    queue.append(value)
        elif isinstance(node, list):
            queue.extend(v for v in node if isinstance(v, dict | list))


def _json_ld_bodies(json_ld: Sequence[dict[str, Any]]) -> Iterator[list[str]]:
    for obj in json_ld:
        body = obj.get("articleBody")
        if isinstance(body, str) and body.strip():
            yield text_paragraphs(body)


def article_from_scripts(html: str, json_ld: Sequence[dict[str, Any]]) -> ScriptArticle | None:
    """The longest article body in the page's JSON-LD (already parsed) and data scripts, or None."""
    best: ScriptArticle | None = None
    for paras in _json_ld_bodies(json_ld):
        best = _longer(best, ScriptArticle(tuple(paras), "json-ld"))
    for name, data in _data_blocks(html):
        for paras in _body_candidates(data):
            best = _longer(best, ScriptArticle(tuple(paras), name))
    return best if best is not None and best.chars else None


def _longer(a: ScriptArticle | None, b: ScriptArticle) -> ScriptArticle:
    return b if a is None or b.chars > a.chars else a


def use_script_data(page: Page, body: BodyResult, short_threshold: int) -> BodyResult:
    """``body``, or the article from script data when the DOM holds little text (fewer than
    ``LITTLE_TEXT_CHARS`` extracted) and the scripts hold at least ``SCRIPT_OVER_DOM`` times as much (and
    ``SCRIPT_MIN_CHARS``); ``figures["script_data"]`` and the reason then say so."""
    dom_chars = sum(len(p) for p in body.paragraphs)
    if dom_chars >= LITTLE_TEXT_CHARS:
        return body
    found = article_from_scripts(page.html, page.meta.json_ld)
    if found is None or found.chars < max(SCRIPT_MIN_CHARS, SCRIPT_OVER_DOM * dom_chars):
        return body
    size = sum(len(p.encode("utf-8")) for p in found.paragraphs)
    page_class = "short" if size < short_threshold else "long"
    why = (
        f"{page_class} page from script data: the DOM gave {dom_chars} characters of text, the page's "
        f"{found.source} script data holds the article ({found.chars} characters)"
    )
    script = {"source": found.source, "chars": found.chars, "dom_chars": dom_chars}
    figures = {**body.figures, "why": why, "page_class": page_class, "content_bytes": size}
    figures["script_data"] = script
    return BodyResult(found.paragraphs, None, freeze(figures))
