"""People and provenance besides the writer: editor, source and original title, each an ordered chain.

Editor (``Extraction.editor``), the person answerable for the page on Chinese portals (on other pages:
``line:editing-by``, a wire story's closing "Editing by X"; ``line:editor``, "Editor: X" or "Edited by
X" in the lines the author chain read by the text, else at the text's ends: :func:`_english_editor`):

1. ``line:editor`` -- 责任编辑：X, 责编 X, 编辑：X in the lines by the text (:func:`author.near_lines`,
   nearest first); without a colon the name must start with a common surname ("编辑推荐" is no credit),
   unless it is a short name after 责任编辑 or 责编 ("责任编辑 小鱼": a pen name). A line naming both gives
   the 责任编辑 ("编辑：X 责任编辑：Y": Y).
2. ``page:editor`` -- the same anywhere on the page (portals put it after the text, sometimes far below
   it, and body cleaning may have removed the line from the text).

A staff number is no name: "责任编辑：AP0015" gives no editor (the chain goes on), "责任编辑：张三 AP0015"
and "张三_NB10086" give 张三; a site file's override is read the same way.

Source (``Extraction.source``), the organisation or wire service the story comes from:

1. ``line:source`` -- 来源：X, 本文来源：X, 稿源：X in the lines by the text.
2. ``byline:source`` -- an element by the text whose class or id names the source ("source",
   "media_name": sina's ``<a class="source">新京报</a>``).
3. ``page:source`` -- 来源：X anywhere on the page.
4. ``dateline`` -- a wire dateline opening the text: "新华社北京5月3日电", "中新网5月3日电",
   "WASHINGTON (AP) —", "(Reuters) -", Korean agencies' "(서울=연합뉴스)".
5. ``meta:<key>`` -- meta source, contentsource, mediaid, dc.source; then a declared author that names
   an outlet (sina's ``article:author`` is the newspaper); then an outlet the byline markup names
   (``byline:class:outlet``: qq's ``<a class="author">央视新闻</a>``), which is never the writer.
6. ``<author rule>:outlet`` -- on other pages, the page's own outlet or declared publisher named beside
   the writer in the byline ("Jane Doe, Example Insider"; "Jane Doe. Example Outlet"): it leaves the
   author list (:func:`author.outlet_apart`). A wire service beside a writer stays in the list.

Original title (``Extraction.original_title``): ``line:original-title`` -- 原标题：X in the lines by
the text or the first paragraphs, else ``page:original-title`` anywhere on the page.

The whole page is read with one XPath over its text nodes, so the fallbacks stay cheap.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from lxml import etree

from newscrawl.extract.document import Element, collapse, subtree_text
from newscrawl.extract.lazyre import lazy_compile
from newscrawl.extract.metadata.author import (
    EDGE_PARAGRAPHS,
    EDITOR_KEYWORD,
    NEAR_LINES_KEY,
    SOURCE_KEYWORD,
    byline_outlet,
    byline_value,
    chinese_surnames,
    clean_value,
    declared_outlets,
    find_author,
    is_outlet,
    is_person_name,
    join_names,
    keyword_lines,
    names_after,
    near_indexes,
    near_lines,
    outlet_apart,
    publishers,
    split_names,
)
from newscrawl.extract.metadata.title import SiteContext, clip
from newscrawl.extract.page import Page
from newscrawl.extract.result import NOT_FOUND, BodyResult, Found
from newscrawl.extract.tags import BLOCK_TAGS

#: a writer's label in a text a site file points at, the names after it ("本文作者：", "新华社记者 ", "文｜"):
#: there the label need not start a word, as it must in running text (author._WRITER)
_GIVEN_WRITER = lazy_compile(
    r"(?:作者|撰文|执笔人?|撰稿人?|记者|通讯员|实习生|编译|文\s*[/／|｜丨:：])\s*[:：|｜丨]?\s*"
)
#: an English editor's label opening such a text ("Editor: X", "Edited by X")
_GIVEN_EDITOR_EN = lazy_compile(r"\s*(?:edited\s+by|editor)\b\s*:?\s*", re.I)
#: an editor's label opening a line (or a part of one) by the text of a page not in Chinese: "Editor: X",
#: "Edited by X", "Reporting by X; Edited by Y" (not "Editor's note", "Letters to the Editor: ...")
_EDITOR_EN = lazy_compile(r"(?:^|(?<=[(;,|·•–—-]))\s*(?:Edited\s+by|EDITED\s+BY|Editor\s*:|EDITOR\s*:)\s*")
#: meta keys naming the outlet the story comes from (Chinese portals), best first
META_SOURCE_KEYS: tuple[str, ...] = ("source", "contentsource", "mediaid", "dc.source")
#: class / id tokens of an element holding the source's name (sina, sohu, 163, people.cn)
_SOURCE_CLASS = lazy_compile(
    r"(?:^|[\s_-])(?:source|media[_-]?name|ent-source|come-from|from)(?:$|[\s_-])", re.I
)
#: an element holding the source's name is this short (a name, maybe with its label)
MAX_SOURCE_ELEMENT_CHARS = 40
#: what a source line says when it names no one: a reprint, "the web", the site itself, unknown
NO_SOURCE = frozenset(
    "转载 转载文章 网络 互联网 网络转载 网络整理 原创 本站 本站原创 本网 未知 佚名 不详".split()
)
#: "(综合)" after the outlet's name: the story compiled by it ("正北方网(综合)", its closing bracket may be
#: cut)
_COMPILED = lazy_compile(r"\s*[(（]\s*综合\s*[)）]?$")
#: a source value opening with a Chinese character and going on after a space: the line's next item follows
_SOURCE_RUN_ON = lazy_compile(r"[\u3400-\u9fff]\S*\s")
#: 原标题 lines: the headline the story first ran under
_ORIGINAL_TITLE = lazy_compile(r"(?:原标题|原題|原标題|原文标题)\s*[:：]\s*(?P<title>.+)$")
#: words of the lines the whole-page fallback reads
CREDIT_KEYWORDS: tuple[str, ...] = ("编辑", "編輯", "责编", "来源", "來源", "稿源", "原标题", "作者")
#: a writer label the whole-page fallback trusts: with its colon ("作者：X"; "作者简介" is no credit)
_PAGE_WRITER = lazy_compile(r"(?<![\u3400-\u9fff])作者\s*[:：]\s*")
#: every text node of the page, in document order (lxml's strings that know their element)
_TEXT_NODES = etree.XPath("//text()")
#: any of the keywords, searched in each text node: a 4x cheaper filter than an XPath predicate of eight
#: contains(), which copies each node's text once per keyword
_CREDIT_KEYWORD = lazy_compile("|".join(re.escape(k) for k in CREDIT_KEYWORDS))
#: the page is Chinese when the first this many characters of its text (or its <title>) hold Han
CHINESE_SAMPLE_CHARS = 200
_HAN = lazy_compile(r"[\u3400-\u9fff]")
#: wire datelines at the start of the text: 新华社北京5月3日电, 中新网5月3日电, 本报讯 is no source; a story
#: retold from another outlet opens with 据 ("据财联社9月26日消息": the source is 财联社)
_CN_DATELINE = lazy_compile(
    r"^[（(【\[]?\s*据?\s*(?P<source>[\u3400-\u9fff]{1,8}?(?:社|网|台|报|新闻))\s*[\u3400-\u9fff]{0,8}?"
    r"\s*(?:\d{1,2}|[一二三四五六七八九十]{1,3})\s*月\s*(?:\d{1,2}|[一二三四五六七八九十]{1,3})\s*日\s*"
    r"(?:电|讯|消息)"
)
_EN_DATELINE = lazy_compile(
    r"^[A-Z][A-Z .,'-]{0,40}"
    # the day after the place, as Xinhua and others write it: "BEIJING, Nov. 24 (Xinhua) --"
    r"(?:,?\s*(?:Jan|Feb|March|April|May|June|July|Aug|Sept?|Oct|Nov|Dec)\.?\s+\d{1,2}\s*)?"
    r"\((?P<source>AP|AFP|Reuters|dpa|UPI|Xinhua|Bloomberg)\)\s*[-—–]"
)
#: a Korean wire dateline: the place, "=", the agency in brackets ("(서울=연합뉴스) 김철수 기자 = ...",
#: "(서울=뉴스1)", "[서울=뉴시스]")
_KO_DATELINE = lazy_compile(r"^[(\[]\s*[가-힣]{1,8}\s*=\s*(?P<source>[가-힣A-Za-z0-9]{2,12})\s*[)\]]")
#: a wire story's credit line closing its text, each role before its names: "Reporting by X in Beirut and
#: Y in London; Writing by Y; Editing by Z" (Reuters), "(Reporting by X; Editing by Z)"
_WIRE_ROLE = lazy_compile(r"\b(?P<role>(?:additional\s+)?reporting|writing|editing)\s+by\s+", re.I)
#: where a reporter filed from, after the name: "in Beirut", "in The Hague", "in New York"
_FILED_IN = lazy_compile(r"\s+in\s+[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*)*")
#: a credit line is at most this long, and among the last this many paragraphs of the text
MAX_WIRE_CREDIT_CHARS = 400
WIRE_CREDIT_PARAGRAPHS = 3
#: the labels that name nothing but the story's editor: after them a name needs no colon nor a surname
EDITOR_OWN_LABELS = ("责任编辑", "責任編輯", "责编", "責編")
#: ... when it is this short (a pen name: "小鱼", "阿力")
MAX_PEN_NAME_CHARS = 4
#: a line holding a credit is at most this long (a longer one is running text)
MAX_CREDIT_LINE = 120
#: quote marks that may wrap a whole title
_QUOTE_PAIRS = (("“", "”"), ('"', '"'), ("'", "'"), ("《", "》"), ("「", "」"))
#: the bracket closing a credit written in brackets
_CLOSING_BRACKET = lazy_compile(r"\s*[）)】\]]\s*$")
#: longest original title kept
MAX_ORIGINAL_TITLE_CHARS = 200


@dataclass(frozen=True, slots=True)
class People:
    """Who wrote, edited and supplied the story, and the headline it first ran under."""

    author: Found = NOT_FOUND
    authors: tuple[str, ...] = ()
    editor: Found = NOT_FOUND
    source: Found = NOT_FOUND
    original_title: Found = NOT_FOUND


def find_people(page: Page, body: BodyResult) -> People:
    """Author (with its list of names), editor, source and original title of the page.

    Editor lines, source lines and markup and original titles are Chinese portals' conventions: they are
    looked for on Chinese pages only (:func:`is_chinese`); elsewhere a "source" element is mostly a photo
    credit, and the scan would cost more than the rest of the stage.
    """
    if not is_chinese(page, body):
        author = find_author(page, body)
        source = _dateline(body.paragraphs[:1]) or _meta_source(page)
        writers, editors = wire_credits(body.paragraphs[-WIRE_CREDIT_PARAGRAPHS:])
        editor = Found(join_names(editors), "line:editing-by") if editors else _english_editor(page, body)
        if writers and (not author or is_outlet(author.value or "")):
            # the agency as the byline ("Reuters"), the reporters in the credit line: they wrote it
            if author and not source:
                source = Found(author.value, f"{author.source}:outlet")
            author = Found(join_names(writers), "line:reporting-by")
            return People(author, writers, editor, source)
        names = split_names(author.value)
        if len(names) > 1 or ". " in (author.value or ""):
            # "Jane Doe, Example Insider": the writer, and the page's own outlet beside them
            writers, outlet = outlet_apart(names, SiteContext.of(page), publishers(page.meta))
            if writers != names:
                author, names = Found(join_names(writers), author.source), writers
            if outlet and not source:
                source = Found(outlet, f"{author.source}:outlet")
        return People(author, names, editor, source)
    lines, above, closing = near_lines(page, body)
    credit_lines = keyword_lines(lines)
    author = find_author(page, body, (credit_lines, above, closing))
    page_lines: list[str] | None = None

    def whole_page() -> list[str]:
        nonlocal page_lines
        if page_lines is None:
            # one XPath over every text node costs a few ms on a big page: only when a keyword is there
            wanted = any(k in page.html for k in CREDIT_KEYWORDS)
            page_lines = _page_lines(page.root) if wanted else []
        return page_lines

    if not author:
        # a "作者：X" line far from the text (portals' header tables): anywhere on the page
        author = _page_writer(whole_page()) if "作者" in page.html else NOT_FOUND
    editor = _editor(credit_lines, "line:editor") or _editor(whole_page(), "page:editor")
    source = (
        _source(credit_lines, "line:source")
        or _source_markup(page, body)
        or _source(whole_page(), "page:source")
        or _dateline(body.paragraphs[:1])
        or _meta_source(page)
        or byline_outlet(page, body)
    )
    if not author and source.source in ("line:source", "page:source") and is_person_name(source.value or ""):
        author = Found(source.value, "line:source-person")  # "来源：尹娟" credits a person: the writer
    original = _original_title([*lines, *body.paragraphs[:3]], "line:original-title")
    if not original and "原标题" in page.html:  # (a plain substring test: cheap)
        original = _original_title(whole_page(), "page:original-title")
    return People(author, split_names(author.value), editor, source, original)


def is_chinese(page: Page, body: BodyResult) -> bool:
    """True when the page's text (else its <title>) starts with Han characters among the first
    ``CHINESE_SAMPLE_CHARS``."""
    return bool(_HAN.search(body.text[:CHINESE_SAMPLE_CHARS] or (page.meta.title or "")))


def credit_value(field: str, text: str | None) -> str | None:
    """A value given as text (a site file's XPath override) without its label: the names of an
    ``author`` ("作者：陈海波" -> "陈海波") or ``editor``, the cleaned ``source`` ("来源：新京报").

    >>> credit_value("author", "作者：陈海波"), credit_value("editor", "责任编辑：王五_NE0011")
    ('陈海波', '王五')
    >>> credit_value("source", "来源：新京报 2024-05-03"), credit_value("author", "本文作者：陈海波")
    ('新京报', '陈海波')
    """
    if not text:
        return None
    if field == "author":
        m = _GIVEN_WRITER.search(text)
        return byline_value(text[m.end() :] if m else text)
    if field == "editor":
        m = EDITOR_KEYWORD.search(text) or _GIVEN_EDITOR_EN.match(text)
        rest = text[m.end() :] if m else text
        value = names_after(rest) or clean_value(rest)
        return join_names(split_names(value)) if value else None
    if field == "source":
        m = SOURCE_KEYWORD.search(text)
        return source_value(text[m.end() :] if m else text)
    raise ValueError(f"no credit field {field!r}; use author, editor or source")


def source_value(text: str) -> str | None:
    """The source's name in ``text`` (after its label): cleaned (:func:`clean_value`), and a Chinese name
    cut where a space ends it, since an organisation's name has none (what follows is the line's next item:
    a comment counter, the writer), without a paper's title marks.

    >>> source_value("财华社(深圳)\u3000有0人参与 手机看新闻"), source_value("Financial Times")
    ('财华社(深圳)', 'Financial Times')
    >>> source_value("羊城晚报》 手机看新闻")
    '羊城晚报'
    >>> source_value("正北方网(综合)"), source_value("转载文章"), source_value("网络")
    ('正北方网', None, None)
    """
    value = clean_value(text)
    if value and _SOURCE_RUN_ON.match(value):
        value = value.split(None, 1)[0]
    if value and ("《" in value or "》" in value):  # a paper's title marks: 《羊城晚报》
        value = value.replace("《", "").replace("》", "") or None
    if value and "综合" in value:
        value = _COMPILED.sub("", value) or None  # "正北方网(综合)": compiled by the outlet
    return None if value in NO_SOURCE else value


def _editor(lines: Iterable[str], source: str) -> Found:
    surnames = chinese_surnames()
    for line in lines:
        if len(line) > MAX_CREDIT_LINE:
            continue
        matches = list(EDITOR_KEYWORD.finditer(line))
        # "编辑：X 责任编辑：Y": the editor answerable for the page is Y
        matches.sort(key=lambda m: not m.group(0).startswith(EDITOR_OWN_LABELS))
        for m in matches:
            value = names_after(line[m.end() :])
            if not value:
                continue
            names = split_names(value)
            if (
                m.group("colon") is None
                and not all(n[:1] in surnames or n[:2] in surnames for n in names if not n.isascii())
                # a pen name after the editor's own label: "责任编辑 小鱼" (not "编辑 阿力": a verb too)
                and not (
                    m.group(0).startswith(EDITOR_OWN_LABELS)
                    and all(len(n) <= MAX_PEN_NAME_CHARS for n in names if not n.isascii())
                )
            ):
                continue
            return Found(join_names(names), source)
    return NOT_FOUND


def _english_editor(page: Page, body: BodyResult) -> Found:
    """``line:editor`` on a page not in Chinese: "Editor: Jane Doe", "Edited by Jane Doe" in the lines the
    author chain read by the text (when it read them: a declared author settles the chain before), else
    in the first and last ``EDGE_PARAGRAPHS`` of the text. (Searching the whole page's source for the
    label cost 0.27 ms a page; these lines are at hand.)"""
    near = page.shared.get(NEAR_LINES_KEY)
    paragraphs = body.paragraphs
    lines = near[0] if near is not None else [*paragraphs[:EDGE_PARAGRAPHS], *paragraphs[-EDGE_PARAGRAPHS:]]
    for line in lines:
        if len(line) > MAX_CREDIT_LINE or ("Edit" not in line and "EDIT" not in line):
            continue
        m = _EDITOR_EN.search(line)
        value = names_after(line[m.end() :]) if m else None
        if value:
            return Found(join_names(split_names(value)), "line:editor")
    return NOT_FOUND


def _page_writer(lines: Iterable[str]) -> Found:
    """A writer labelled with a colon ("作者：郭励弘") in a short line anywhere on the page."""
    for line in lines:
        if len(line) > MAX_CREDIT_LINE:
            continue
        for m in _PAGE_WRITER.finditer(line):
            value = names_after(line[m.end() :])
            if value:
                return Found(join_names(split_names(value)), "page:writer")
    return NOT_FOUND


def _source(lines: Iterable[str], source: str) -> Found:
    for line in lines:
        if len(line) > MAX_CREDIT_LINE:
            continue
        for m in SOURCE_KEYWORD.finditer(line):
            value = source_value(line[m.end() :])
            if value:
                return Found(value, source)
    return NOT_FOUND


def _source_markup(page: Page, body: BodyResult) -> Found:
    """An element by the text whose class or id names the source (``<a class="source">新京报</a>``)."""
    stats = page.stats
    classes, ids = stats.classes, stats.ids
    for i in near_indexes(page, body):
        cls, ident = classes[i], ids[i]
        if cls is None and ident is None:
            continue
        marks = f"{cls or ''} {ident or ''}"
        low = marks.lower()
        if not ("source" in low or "media" in low or "from" in low) or not _SOURCE_CLASS.search(marks):
            continue
        text = collapse(subtree_text(stats.elements[i]))
        if not text or len(text) > MAX_SOURCE_ELEMENT_CHARS:
            continue
        m = SOURCE_KEYWORD.search(text)
        value = source_value(text[m.end() :] if m else text)
        if value:
            return Found(value, "byline:source")
    return NOT_FOUND


def wire_credits(paragraphs: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The writers ("Reporting by", "Writing by"; not "Additional reporting by") and the editors
    ("Editing by") a wire story's credit line names, the last such line of ``paragraphs``.

    >>> wire_credits(["Prose.", "Reporting by Jane Doe in The Hague and John Roe; Editing by Ann Poe"])
    (('Jane Doe', 'John Roe'), ('Ann Poe',))
    >>> wire_credits(["(Additional reporting by Jane Doe; editing by Ann Poe and Bo Li)"])
    ((), ('Ann Poe', 'Bo Li'))
    >>> wire_credits(["Reporting by the agency's staff showed that the plan was editing by committee."])
    ((), ())
    """
    for line in reversed(list(paragraphs)):
        if len(line) > MAX_WIRE_CREDIT_CHARS:
            continue
        roles = list(_WIRE_ROLE.finditer(line))
        if not roles or roles[0].start() > 1:  # a credit line opens with its first role, "(" at most
            continue
        writers: list[str] = []
        editors: list[str] = []
        for m, after in zip(roles, [*roles[1:], None], strict=True):
            run = _FILED_IN.sub("", line[m.end() : after.start() if after else len(line)])
            names = split_names(names_after(run.strip(" ,;.()")))
            if not names or not all(_is_written_name(n) for n in names):
                return (), ()  # not names: prose that happens to open with "Reporting by"
            role = m.group("role").lower()
            if role in ("reporting", "writing"):
                writers += [n for n in names if n not in writers]
            elif role == "editing":
                editors += [n for n in names if n not in editors]
        return tuple(writers), tuple(editors)
    return (), ()


def _is_written_name(name: str) -> bool:
    """A person's name as a credit line writes it: two to four capitalised words ("Simon Cameron-Moore")."""
    words = name.split()
    return 2 <= len(words) <= 4 and all(w[:1].isupper() for w in words)


def _dateline(paragraphs: Iterable[str]) -> Found:
    for para in paragraphs:
        for pattern in (_CN_DATELINE, _EN_DATELINE, _KO_DATELINE):
            m = pattern.match(para)
            if m:
                return Found(m.group("source"), "dateline")
    return NOT_FOUND


def _meta_source(page: Page) -> Found:
    meta = page.meta.meta
    for key in META_SOURCE_KEYS:
        value = clean_value(meta.get(key))
        if value:
            return Found(value, f"meta:{key}")
    return next(declared_outlets(page), NOT_FOUND)


def _original_title(lines: Iterable[str], source: str) -> Found:
    for line in lines:
        m = _ORIGINAL_TITLE.search(line)
        if m:
            value = m.group("title").strip()
            if line[: m.start()].rstrip().endswith(("（", "(", "【", "[")):
                value = _CLOSING_BRACKET.sub("", value)  # "（原标题：X）": the bracket closes the credit
            value = clip(_unquoted(value.strip(" 　")))
            if value and len(value) <= MAX_ORIGINAL_TITLE_CHARS:
                return Found(value, source)
    return NOT_FOUND


def _unquoted(value: str) -> str:
    """``value`` without the quote marks around the whole of it ("“X”", "《X》"); a quote inside it, even
    at one end ("“救命”纸团从天而降"), stays.

    >>> _unquoted("“地铁开通”"), _unquoted("“救命”纸团从天而降"), _unquoted("诈骗“智商感人”")
    ('地铁开通', '“救命”纸团从天而降', '诈骗“智商感人”')
    """
    for opening, closing in _QUOTE_PAIRS:
        if len(value) > 2 and value[0] == opening and value[-1] == closing:
            inner = value[1:-1]
            if opening not in inner and closing not in inner:
                return inner.strip()
    return value


def _page_lines(root: Element) -> list[str]:
    """The lines of the page holding a credit keyword, in document order (each its block's text)."""
    out: list[str] = []
    seen: set[int] = set()
    for text in _TEXT_NODES(root):
        if not _CREDIT_KEYWORD.search(text):
            continue
        parent = text.getparent()
        if parent is None:
            continue
        if text.is_tail:
            parent = parent.getparent() if parent.getparent() is not None else parent
        block = _block_of(parent)
        if id(block) in seen:
            continue
        seen.add(id(block))
        line = collapse(subtree_text(block))
        if len(line) > MAX_CREDIT_LINE:
            line = collapse(str(text))
        out.append(line)
    return out


def _block_of(el: Element) -> Element:
    parent = el.getparent()
    while el.tag not in BLOCK_TAGS and parent is not None:
        el, parent = parent, parent.getparent()
    return el

