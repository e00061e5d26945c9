"""Title: three candidates, cross-checked, then an ordered fallback.

Candidates (``Found.source`` names the one that produced the value):

- ``meta:<key>`` -- a title the page declares: og:title, twitter:title, itemprop headline, JSON-LD
  ``headline``, Arc XP's ``headlines.basic`` (``arc:headline``, on a page without a JSON-LD article:
  :mod:`.arc`), the ``<!--enpproperty <title>`` record of Chinese portals' CMS, dc.title, parsely-title,
  the ArticleTitle meta of Chinese government pages, name="title" (first found wins); without any, the
  one element marked ``itemprop="headline"`` (schema.org microdata, :func:`microdata_headline`).
- ``heading:<tag>`` -- seed 003's rule in DOM terms: among the h1-h6 from ``HEADING_LINES_BEFORE`` block
  lines before the first main paragraph to ``HEADING_LINES_AFTER`` after it, the highest level wins (h1
  over h2 ...), then one a declared title states (:func:`backs`), then the one nearest the text; without
  one, the page's first <h1> (a stated one first). Headings that are the
  site's name or banner are skipped; ruby readings and a "| Site" part inside the heading are dropped.
- ``title-tag`` -- the <title>, cleaned with seed 003's stop list.

Cleaning a declared title or the <title>: split on the separators of ``data/title_separators.txt`` (a
colon only after or before a site name; guillemets that quote are no separators), drop the parts that
are site or channel names (``data/site_names.txt``, og:site_name unless it repeats the title, the host,
domain names, short parts ending in 网/频道/新闻中心 ..., a short last part opening with the host's name)
or keyword lists, and keep the part agreeing with the heading, else with the other declared title, else
the longest one.

Order and cross-check:

1. the heading, when a declared title (any of them: og:title may be a reworded teaser where the JSON-LD
   headline states the <h1>) or the <title> backs it (shares ``SUPPORT_OVERLAP`` of its words), or when
   it is the <h1> right above the text. A kicker or subtitle in its own child element is dropped
   when the declared title matches the rest better (``refine_heading``); a declared title that is the
   heading with a separator put in ("Kicker: Headline" for ``<h1><span>Kicker</span> Headline</h1>``,
   :func:`adds_separators`) is given as declared, unless that separator parts a <title> ("Kicker |
   Headline", "Kicker - Headline": :func:`separate_kicker` gives the headline alone); a kicker in its
   own element that the declared title does not set off either is dropped (:func:`without_kicker`).
   The datasets' titles are the visible headline: where og:title and the <h1> differ, the <h1> is right
   far more often (trafilatura); but a declared title the heading does not back that the page shows as
   a heading of its own (:func:`shown_title`) beats an <h1> that is a section name ("Cronaca" over the
   story's <h2>). An <h1> in a breadcrumb trail (:func:`in_breadcrumb`: the search engines' copy of
   the title as the trail's last crumb) yields to the <h2> below it, above the text, that a declared
   title states (:func:`headline_after_crumb`), unless the first declared title is exactly the <h1>.
   An <h1> that is the <title>'s trailing part, after a longer headline part, is the
   site's banner (:func:`is_banner`: "Post title | Blog name"). An <h1> that is a breadcrumb trail
   ending with the declared headline gives that headline (:func:`last_crumb`); a heading that glues two
   pieces of markup ("Kicker:Headline") is given with the declared title's spacing (:func:`spaced_apart`).
2. the declared title without its site-name parts when a heading shows exactly that (its separators are
   then the headline's own), else the cleaned declared title (so a meta title that is only the site name
   never wins: it cleans to nothing);
3. the cleaned <title>;
4. an unbacked heading;
5. the raw declared title or <title>, even if it is only the site's name.

White space is collapsed and no title is longer than ``MAX_TITLE_CHARS``.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from importlib.resources import files
from typing import NamedTuple
from urllib.parse import urlsplit

from lxml import etree

from newscrawl.extract.document import Element, collapse, subtree_text
from newscrawl.extract.lazyre import lazy_compile
from newscrawl.extract.metadata.shared import page_tagged, shared
from newscrawl.extract.page import Page, PageMeta
from newscrawl.extract.result import NOT_FOUND, BodyResult, Found
from newscrawl.extract.tags import HEADING_TAGS

#: meta keys (lower-cased name / property / itemprop) that hold the article title, best first
META_TITLE_KEYS: tuple[str, ...] = (
    "og:title",
    "twitter:title",
    "headline",
    "json-ld:headline",
    "arc:headline",
    "enp:title",
    "dc.title",
    "dcterms.title",
    "parsely-title",
    "articletitle",
    "title",
    "sharetitle",
)
#: meta keys that name the site (used to recognise site-name parts)
SITE_NAME_KEYS: tuple[str, ...] = ("og:site_name", "application-name", "twitter:site", "sitename")
#: JSON-LD types whose ``headline`` is the page's article title
JSON_LD_ARTICLE_TYPES: frozenset[str] = frozenset(
    "Article NewsArticle ReportageNews AnalysisNewsArticle OpinionNewsArticle BlogPosting SocialMediaPosting"
    " TechArticle ScholarlyArticle Report LiveBlogPosting WebPage".split()
)
#: short <title> parts ending with one of these are channel or site names ("国内新闻", "新浪网", "评论频道")
CHANNEL_SUFFIXES: tuple[str, ...] = (
    "网", "網", "频道", "頻道", "新闻中心", "新聞中心", "新闻", "新聞", "首页", "在线", "日报", "晚报",
    "时报", "论坛", "博客", "门户网站", "网站", ".com", ".cn", ".net", ".COM", ".CN",
)
#: parts ending with these are site names whatever their length ("某某省人民政府门户网站")
PORTAL_SUFFIXES: tuple[str, ...] = ("门户网站", "門戶網站", "官方网站", "官方網站", "政府网站", "政府網站")
#: a part of at most this many characters may be a channel name by its suffix (longest portal channel
#: names seen in daniel-zh titles, e.g. "新华网重庆频道", are under 10)
CHANNEL_MAX_CHARS = 10
#: headings are looked for this many block lines before the first main paragraph (seed 003 says 2 blocks;
#: portals put date, source and share lines between headline and text, each several blocks)
HEADING_LINES_BEFORE = 40
#: ... and this many block lines after it (a heading inside the first part of the content node)
HEADING_LINES_AFTER = 3
#: no title is longer than this; longer candidates are not titles
MAX_TITLE_CHARS = 300
#: an element with this many characters of its own text starts the main text (a sentence, not a label)
ANCHOR_MIN_CHARS = 30
#: a heading is backed by a declared title (meta or <title>) sharing at least this share of its tokens
#: (0.5 measured best on trafilatura's titles among 0.3 / 0.5 / 0.7)
SUPPORT_OVERLAP = 0.5
#: the longest host-name ending after the site's name (".com.br", "-online.de" spelled without dots)
OWN_NAME_SUFFIX_CHARS = 8
#: texts whose :func:`name_key` is remembered (a page asks for a few dozen)
NAME_KEY_CACHE = 4096
#: a site's name opening a banner <h1> has at least this many letters and digits
MIN_SITE_KEY_CHARS = 4
#: the headline follows a section-name <h1> within this many elements (6 on the pages seen)
NEXT_HEADING_ELEMENTS = 10
#: an <h1> this many levels or fewer inside a breadcrumb trail is the trail's last crumb (the deepest
#: seen: <nav><ol><li><a><span><h1>, five levels; four loses a page)
CRUMB_LEVELS = 6
#: without a main text to stop at, the headline under a breadcrumb <h1> is looked for within this many
#: elements after it (64 at most on the pages seen, which all have a main text)
CRUMB_HEADLINE_ELEMENTS = 200
#: headings shorter than this (characters without spaces) are not headlines
MIN_HEADING_CHARS = 2
#: a <title>'s last part opening with the host's name is the site's name up to this many words
#: ("Handball Schweiz", "sheego ♥ Magazin"; a headline opening with it is longer)
HOST_PART_MAX_WORDS = 3

_HEADING_TAGS = frozenset(HEADING_TAGS)
#: elements that set a kicker apart at the start of a heading even without a class
_KICKER_TAGS = frozenset({"small", "div", "p"})
#: "Site name: headline" -- a colon splits only when what precedes it is a site or channel name
_SITE_PREFIX = lazy_compile(r"^([^:：]{2,30})\s*[:：]\s*(?=\S)")
#: "Headline：Site name" -- a colon at the end splits only before the site's own or a known name
_SITE_SUFFIX = lazy_compile(r"(?<=\S)\s*[:：]\s*([^:：]{2,30})$")
#: a part that is a domain name ("EXAMPLE.COM", "news.example.cn")
_DOMAIN = lazy_compile(
    r"^(?:www\.)?[\w-]+(?:\.[\w-]+)*\.(?:com|cn|net|org|de|uk|fr|tw|hk|info|news|co)$", re.I
)
#: a part that is a keyword list ("白酒,公款消费,奢侈品"): three or more short comma-separated items
_KEYWORD_LIST = lazy_compile(r"^[^,，、]{1,8}(?:[,，、][^,，、]{1,8}){2,}[,，、]?$")
#: a short section name hyphened onto the end of a CJK or Korean headline ("…커졌다-정치", "…表示-国际")
_SECTION_SUFFIX = lazy_compile(
    r"(?<=[\u3400-\u9fff\uac00-\ud7af\"'”’」』)])[-–][\u3400-\u9fff\uac00-\ud7af]{1,4}$"
)
#: separators and breadcrumb arrows left at the ends of a heading piece
_PIECE_STRIP = " |｜ㅣ│:：-–—·•>〉»›/／"
#: characters a declared title may put between a heading's kicker and headline
_SEPARATOR_CHARS = frozenset(":：/／|｜-–—·•»›")
#: a quotation in guillemets, either way round (French and Swiss «…», German »…«), single ones too
_GUILLEMET_QUOTE = lazy_compile(r"«[^«»\n]{1,200}»|»[^«»\n]{1,200}«|‹[^‹›\n]{1,200}›")
#: an arrow glyph opening a heading, maybe in a bracket ("[> Name", "» Headline", ">> Headline")
_ARROW_OPENING = lazy_compile(r"^\[?\s*[>»›→]+\s*\]?\s*")
_ARROW_OPENERS = frozenset("[>»›→")
#: a class, id or aria-label naming a breadcrumb trail ("breadcrumb", "Breadcrumbs_seotitle", "newscrumb")
_CRUMB_NAME = lazy_compile(r"crumb", re.I)
#: arrows between the pieces of a breadcrumb trail ("首页 〉 新闻 〉 标题", "Home › News › Headline")
_CRUMB_ARROWS = "〉》›»>→"
#: an HTML tag left in a declared title's text ("<div>", "</b>", "<br/>")
_MARKUP_TAG = lazy_compile(r"</?[a-zA-Z][a-zA-Z0-9]*(?:\s[^<>]*)?/?>")
_NON_WORD = lazy_compile(r"[\W_]+")
_SPACE = lazy_compile(r"\s+")


def _data_lines(name: str) -> list[str]:
    text = files("newscrawl").joinpath("data", name).read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


@lru_cache(maxsize=1)
def site_names() -> frozenset[str]:
    """The known site and channel names (``data/site_names.txt``), as :func:`name_key` keys."""
    return frozenset(name_key(line) for line in _data_lines("site_names.txt"))


#: every character a <title> separator of ``data/title_separators.txt`` can start with: the pattern looks
#: ahead for one before it tries its alternatives, most of which open with ``\s*`` and so are tried at
#: every position (an 85-character <title> split in 8 us instead of 28). A new separator line that starts
#: otherwise needs its first characters here: tests/extract/test_title.py checks the file against it.
SEPARATOR_STARTS = r"\s_|｜¦\-–—»«›‹:【】ㅣ│┃"


@lru_cache(maxsize=1)
def separator_pattern() -> re.Pattern[str]:
    """One pattern matching any <title> separator of ``data/title_separators.txt``."""
    lines = "|".join(f"(?:{line})" for line in _data_lines("title_separators.txt"))
    return re.compile(f"(?=[{SEPARATOR_STARTS}])(?:{lines})")


@lru_cache(maxsize=NAME_KEY_CACHE)
def name_key(text: str) -> str:
    """Case- and punctuation-blind key for comparing names: ``"BBC News"`` -> ``"bbcnews"`` (cached: a
    page's title chain asks for the same few texts' keys a dozen times)."""
    return _NON_WORD.sub("", text).lower()


def _compact(text: str) -> str:
    return _SPACE.sub("", text).lower()


def clip(text: str | None) -> str | None:
    """Collapse white space; None for empty text or text longer than ``MAX_TITLE_CHARS``."""
    if not text:
        return None
    text = collapse(text.replace("\xad", ""))
    if not text or len(text) > MAX_TITLE_CHARS:
        return None
    return text


class SiteContext:
    """What the page says its site is called: og:site_name and friends, and the host name."""

    __slots__ = ("names", "host", "label", "_parts")

    def __init__(self, meta: PageMeta, url: str | None) -> None:
        self._parts: dict[str, list[str]] = {}
        # a "site name" meta that repeats the page's title ("Headline - Site", a CMS filling
        # application-name or og:site_name with the <title>) names the site in its last part only: whole,
        # it would make every part of the title a site name
        titles = {name_key(t) for t in (meta.title, meta.meta.get("og:title")) if t}
        self.names = []
        for value in (meta.meta.get(k) for k in SITE_NAME_KEYS):
            key = name_key(value) if value else ""
            if key in titles:
                parts = self.split(value or "")
                key = name_key(parts[-1]) if len(parts) > 1 else ""
            if key:
                self.names.append(key)
        host = ""
        for candidate in (url, meta.canonical, meta.meta.get("og:url")):
            if candidate and "//" in candidate:
                host = urlsplit(candidate.strip()).hostname or ""
                if host:
                    break
        host = host.removeprefix("www.")
        self.host = name_key(host)
        # the host's own name: its first label ("handball" of handball.ch, "sheego" of www.sheego.de)
        self.label = name_key(host.split(".", 1)[0]) if "." in host else ""

    @classmethod
    def of(cls, page: Page) -> SiteContext:
        """The page's site context, built once per run of the metadata stage for the chains that only read
        it (the title chain builds its own: it adds a blog's name it finds in an <h1>)."""
        return shared(page, "site", cls, page.meta, page.url)

    def split(self, text: str) -> list[str]:
        """:func:`split_title` of ``text``, each text split once for this page (the title chain splits the
        <title> and each heading's text several times, and the separators' pattern is slow to search)."""
        parts = self._parts.get(text)
        if parts is None:
            parts = self._parts[text] = split_title(text)
        return list(parts)

    def is_name(self, text: str) -> bool:
        """True when ``text`` is a known site name, the page's own site name or its host name."""
        key = name_key(text)
        if not key or key in site_names() or key in self.names:
            return True
        return bool(self.host) and key.isascii() and len(key) >= 3 and self.host.startswith(key)

    def is_own_name(self, text: str) -> bool:
        """True when ``text`` is the site's own name: a known site name, og:site_name, or the host name
        without its suffix ("The Example Press" on theexamplepress.com; not "Jane" on janedoe.com)."""
        key = name_key(text)
        if not key or key in site_names() or key in self.names:
            return True
        return self.host.startswith(key) and len(key) + OWN_NAME_SUFFIX_CHARS >= len(self.host)

    def is_site(self, part: str) -> bool:
        """True when a <title> part looks like a site or channel name rather than a headline."""
        if self.is_name(part):
            return True
        key = name_key(part)
        for name in self.names:
            if (len(key) >= 2 and key in name) or (name in key and len(key) <= len(name) + 4):
                return True
        if self.host and len(key) >= 3 and key.isascii() and key in self.host:
            return True
        if _DOMAIN.match(part.strip()):
            return True
        compact = _compact(part)
        if compact.endswith(PORTAL_SUFFIXES):
            return True
        return len(compact) <= CHANNEL_MAX_CHARS and compact.endswith(CHANNEL_SUFFIXES)

    def opens_with_host(self, part: str) -> bool:
        """True when a short <title> part opens with the host's own name: "Handball Schweiz" on
        handball.ch, "sheego ♥ Magazin" on sheego.de (the site's name written out, with a word more).

        >>> site = SiteContext(PageMeta(), "https://www.handball.ch/de/news/a.html")
        >>> site.opens_with_host("Handball Schweiz"), site.opens_with_host("Handball: the final tonight")
        (True, False)
        """
        label = self.label
        if len(label) < MIN_SITE_KEY_CHARS or len(part.split()) > HOST_PART_MAX_WORDS:
            return False
        return name_key(part).startswith(label)


def _quoted_spans(text: str) -> list[tuple[int, int]]:
    """Where guillemets are quotes, not separators: each «…» (or German »…«) pair."""
    if "«" not in text and "‹" not in text and "›" not in text:
        return []
    return [m.span() for m in _GUILLEMET_QUOTE.finditer(text)]


def split_title(text: str) -> list[str]:
    """The parts of a <title> between separators (empty parts dropped). A guillemet that opens or closes
    a quotation ("Chiesa ruft zum «Widerstand» auf") is part of the text, not a separator.

    >>> split_title("Sur la « gravité » du moment | Le Site")
    ['Sur la « gravité » du moment', 'Le Site']
    """
    quoted = _quoted_spans(text)
    if not quoted:
        return [p.strip() for p in separator_pattern().split(text) if p and p.strip()]
    parts: list[str] = []
    start = 0
    for m in separator_pattern().finditer(text):
        if not m.group().strip() and m.start() == m.end():
            continue
        if any(a <= m.start() < b or a < m.end() <= b for a, b in quoted):
            continue
        parts.append(text[start : m.start()])
        start = m.end()
    parts.append(text[start:])
    return [p.strip() for p in parts if p and p.strip()]


def _strip_piece(text: str) -> str:
    """``text`` without separators and arrows at its ends, keeping a guillemet that opens or closes a
    quotation of the text ("«Zitat»", "»Zitat« sagt er").

    >>> _strip_piece(" - «Die Lage ist ernst» "), _strip_piece("» Politik")
    ('«Die Lage ist ernst»', 'Politik')
    """
    text = text.strip()
    start = len(text) - len(text.lstrip(_PIECE_STRIP))
    end = len(text.rstrip(_PIECE_STRIP))
    if start >= end:
        return ""
    if text[0] in "»›" and any(a == 0 for a, _ in _quoted_spans(text[:end])):
        start = 0
    if text[-1] in "»›" and any(b == len(text) - start for _, b in _quoted_spans(text[start:])):
        end = len(text)
    return text[start:end]


def clean_title(
    text: str, site: SiteContext, heading: str | None = None, reference: str | None = None
) -> str | None:
    """``text`` without its site-name parts.

    Of several remaining parts, the one agreeing with ``heading`` (else with ``reference``, the page's other
    declared title) wins; else the longest.

    >>> clean_title("标题内容_国内新闻_新浪网", SiteContext(PageMeta(), None))
    '标题内容'
    """
    text = collapse(text)
    parts = site.split(text)
    if heading and _whole_parts(heading, text, parts):
        return heading  # the whole heading inside the <title>: the heading is the title, separators and all
    if len(parts) == 1:
        prefix = _SITE_PREFIX.match(parts[0])
        if prefix and site.is_site(prefix.group(1)):
            parts = [parts[0][prefix.end() :]]  # "中时医疗网：标题" -> "标题"
        suffix = _SITE_SUFFIX.search(parts[0])
        if suffix and site.is_name(suffix.group(1)):
            parts = [parts[0][: suffix.start()]]  # "見出し：新聞デジタル" -> "見出し"
    if len(parts) > 1:
        parts = _unglued(parts)
    keep = [p for p in parts if not site.is_site(p) and not _KEYWORD_LIST.match(p)]
    if len(keep) > 1 and keep[-1] == parts[-1] and site.opens_with_host(keep[-1]):
        keep.pop()  # "Magic Cleaning | sheego ♥ Magazin" on sheego.de: the last part is the site's name
    if not keep:
        return None
    if len(parts) > 1 and keep[-1] == parts[-2] and site.is_site(parts[-1]):
        # "제목-정치ㅣ한국일보": a section name hyphened onto the headline, right before the site's name
        keep[-1] = _SECTION_SUFFIX.sub("", keep[-1]) or keep[-1]
    if len(keep) == 1:
        return keep[0]
    for ref in (heading, reference):
        if ref:
            # the part closest to the reference, when it is close enough
            best = max(keep, key=lambda p: overlap(p, ref))
            # (at least a quarter of its length: the reference may still carry its own site parts)
            if overlap(best, ref) >= SUPPORT_OVERLAP and len(_compact(best)) * 4 >= len(_compact(ref)):
                return best
    return max(keep, key=len)


def _unglued(parts: list[str]) -> list[str]:
    """``parts`` without the last part glued onto the end of another part as well: "Headline" and "Site
    tagline" of "HeadlineSite tagline | Site tagline" (a theme printing the tagline after the post's
    name). The last part is the site's; the glued copy is dropped from the other part, which stays.

    >>> _unglued(["Truckwash A31Das etwas andere Branchenbuch", "Das etwas andere Branchenbuch"])
    ['Truckwash A31']
    """
    last = parts[-1]
    if len(_compact(last)) < 2 * MIN_SITE_KEY_CHARS:
        return parts
    out = [p[: -len(last)].strip() if p.endswith(last) and p != last else p for p in parts[:-1]]
    if out == parts[:-1] or not all(out):
        return parts
    return out


def _whole_parts(heading: str, text: str, parts: list[str]) -> bool:
    """True when ``heading`` is in ``text`` as one or more whole parts between its separators: "A - B" in
    "A - B | Site", not "津波注意報" in the middle of "…1メートルの津波注意報 気象庁：朝日新聞デジタル"."""
    h = _compact(heading)
    if len(h) < 4 or h not in _compact(text):
        return False
    key = name_key(heading)
    keys = [name_key(p) for p in parts]
    return any(key == "".join(keys[i:j]) for i in range(len(keys)) for j in range(i + 1, len(keys) + 1))


def _json_ld_headline(meta: PageMeta) -> str | None:
    for obj in meta.json_ld:
        kind = obj.get("@type")
        kinds = kind if isinstance(kind, list) else [kind]
        if any(isinstance(k, str) and k in JSON_LD_ARTICLE_TYPES for k in kinds):
            value = obj.get("headline") or (obj.get("name") if "WebPage" not in kinds else None)
            if isinstance(value, str) and value.strip():
                return value
    return None


_ENP_BLOCK = lazy_compile(r"<!--\s*enpproperty(.{0,4000}?)-->", re.S)
_ENP_FIELD = lazy_compile(r"<(\w+)>([^<]{0,500})</\1>")


def enp_properties(html: str) -> dict[str, str]:
    """The ``<!--enpproperty <title>…</title><author>…</author>…-->`` record that the CMS of many Chinese
    portals (Xinhua, People's Daily, regional papers) leaves in the page: field name -> text.

    >>> enp_properties("<!--enpproperty <title>标题</title><author>记者 张三</author>-->")["author"]
    '记者 张三'
    """
    start = html.find("enpproperty")
    if start < 0:
        return {}
    m = _ENP_BLOCK.search(html, max(0, start - 10))
    if not m:
        return {}
    return {k.lower(): collapse(v) for k, v in _ENP_FIELD.findall(m.group(1)) if v.strip()}


def page_enp(page: Page) -> Mapping[str, str]:
    """:func:`enp_properties` of the page's source, kept on the page: the title's and the author's chains
    both ask, and each search scans the whole source (0.1 ms on a page of scrapinghub's, whose text
    Python holds two or four bytes a character)."""
    if page.enp is None:
        page.enp = enp_properties(page.html)
    return page.enp


def meta_title(meta: PageMeta, page: Page | None = None) -> tuple[str, str] | None:
    """The first declared title as (key, value), or None. Markup a CMS left in the value is taken out
    ("Headline<div>——Subtitle</div>" reads "Headline ——Subtitle").

    >>> meta_title(PageMeta(meta={"articletitle": "城区新建口袋公园<div>——副标题</div>"}))
    ('articletitle', '城区新建口袋公园 ——副标题')
    """
    return next(declared_titles(meta, page), None)


def declared_titles(meta: PageMeta, page: Page | None = None) -> Iterator[tuple[str, str]]:
    """Every declared title as (key, value), in the order of ``META_TITLE_KEYS`` (:func:`meta_title`
    gives the first); the CMS record of Chinese portals only with the ``page`` whose source holds it."""
    for key in META_TITLE_KEYS:
        if key == "json-ld:headline":
            value = _json_ld_headline(meta)
        elif key == "arc:headline":
            value = meta.arc.headline if meta.arc is not None else None
        elif key == "enp:title":
            value = page_enp(page).get("title") if page is not None else None
        else:
            value = meta.meta.get(key)
        if value and "<" in value:
            value = _MARKUP_TAG.sub(" ", value)
        value = clip(value)
        if value:
            yield key, value


#: elements other than <meta> that schema.org microdata marks as the headline (two found are enough to
#: tell a list of teasers from the article's own). Found from the ``itemprop`` attributes up: a predicate
#: on every element builds a string for each, itemprop or none (scrapinghub, median of a page, loaded
#: machine: 0.215 against 0.026 ms; the same elements on every page of the seven sets)
_MICRODATA_HEADLINE = etree.XPath(
    "(//@itemprop[contains(concat(' ', normalize-space(.), ' '), ' headline ')]/parent::*[not(self::meta)])"
    "[position() <= 2]"
)


def microdata_headline(page: Page) -> tuple[str, str] | None:
    """The text of the one element the page marks ``itemprop="headline"`` (schema.org microdata, the
    markup form of JSON-LD's ``headline``), as ``("microdata:headline", text)``; None when no element or
    several (a list of teasers) carry it.

    >>> from lxml import html
    >>> root = html.fromstring("<div><h2 itemprop='headline'>Write for your readers</h2></div>")
    >>> microdata_headline(Page("", root))
    ('microdata:headline', 'Write for your readers')
    """
    found = _MICRODATA_HEADLINE(page.root)
    if len(found) != 1:
        return None
    value = clip(visible_text(found[0]))
    return ("microdata:headline", value) if value else None


def text_anchor(page: Page, body: BodyResult) -> int | None:
    """Pre-order index (in ``page.stats``) of the first main paragraph.

    ``body.first`` when the algorithm gives it; else the first element under ``body.node`` holding at least
    ``ANCHOR_MIN_CHARS`` characters of its own (the node alone may be <body>, which says nothing about where
    the text starts).
    """
    stats = page.stats
    index = stats.index
    if body.first is not None and body.first in index:
        return index[body.first]
    if body.node is None or body.node not in index:
        return None
    start = index[body.node]
    own = stats.own_chars
    for i in range(start, stats.subtree_end(start)):
        if own[i] >= ANCHOR_MIN_CHARS:
            return i
    return start


def visible_text(el: Element) -> str:
    """The text of ``el`` without ruby annotations (<rt>, <rp>: the readings printed above CJK text)."""
    if next(el.iter("rt", "rp"), None) is None:
        return subtree_text(el)
    pieces: list[str] = []
    for node in el.iter():
        if node.tag in ("rt", "rp"):
            if node.tail:
                pieces.append(node.tail)  # tails of rt/rp belong to the ruby base text
            continue
        parent = node.getparent()
        if node is not el and parent is not None and parent.tag in ("rt", "rp"):
            continue
        if node.text:
            pieces.append(node.text)
        if node is not el and node.tail and parent is not None and parent.tag not in ("rt", "rp"):
            pieces.append(node.tail)
    return "".join(pieces)


def _heading_text(h: Element, site: SiteContext | None) -> str | None:
    text = clip(visible_text(h))
    if text and text[0] in _ARROW_OPENERS and not _quoted_spans(text):
        text = _ARROW_OPENING.sub("", text) or text  # "[> Jens Weber", "» Headline": a list's arrow glyph
    if not text or len(_compact(text)) < MIN_HEADING_CHARS:
        return None
    if site is not None:
        if site.is_name(text):
            return None
        text = strip_site_parts(text, site)
    return text


def strip_site_parts(text: str, site: SiteContext) -> str:
    """``text`` without a leading or trailing part that is a site name ("Headline | Site" -> "Headline")."""
    parts = site.split(text)
    if len(parts) < 2:
        return text
    if site.is_name(parts[-1]):
        text = text[: text.rfind(parts[-1])]
    if site.is_name(parts[0]):
        text = text[text.find(parts[0]) + len(parts[0]) :]
    return _strip_piece(text) or text


def adds_separators(declared: str, heading: str) -> bool:
    """True when ``declared`` is ``heading`` with separators put in between its words and nothing else
    changed: "Kicker: Headline" for the heading "Kicker Headline" (or "KickerHeadline").

    >>> adds_separators("Kenia: Nairobi von unten", "Kenia Nairobi von unten")
    True
    >>> adds_separators("Alles hat seine Zeit...", "Alles hat seine Zeit…"), adds_separators("A - B", "A – B")
    (False, False)
    """
    d, h = _compact(_strip_piece(declared)), _compact(heading)
    if d == h or len(d) <= len(h):
        return False
    j = 0
    for ch in d:
        if j < len(h) and ch == h[j]:
            j += 1
        elif ch not in _SEPARATOR_CHARS:
            return False
    return j == len(h)


def spaced_apart(declared: str, heading: str) -> bool:
    """True when ``declared`` is ``heading`` with white space put in and nothing else changed: the
    heading glues two pieces of markup together ("<span>Kicker:</span>Headline" reads "Kicker:Headline"),
    the page's declared title spaces them ("Kicker: Headline").

    >>> spaced_apart("Kicker: Headline", "Kicker:Headline"), spaced_apart("A:B", "A: B")
    (True, False)
    """
    return declared != heading and _compact(declared) == _compact(heading) and (
        len(_SPACE.findall(declared)) > len(_SPACE.findall(heading))
    )


def last_crumb(heading: str, title: str) -> str | None:
    """``title`` when ``heading`` is a breadcrumb trail ending with it: "Site 〉 Section 〉 Headline" for
    the title "Headline" (the trail's arrows set the pieces apart; a colon or dash would set off a kicker,
    which is part of the headline). None otherwise.

    >>> last_crumb("Example 〉 Health 〉 Winter colds on the rise", "Winter colds on the rise")
    'Winter colds on the rise'
    >>> last_crumb("Health: Winter colds on the rise", "Winter colds on the rise") is None
    True
    """
    h, t = _compact(heading), _compact(title)
    if len(t) < 2 * MIN_HEADING_CHARS or len(h) <= len(t) or not h.endswith(t):
        return None
    at, left = len(heading), len(t)  # where the title's characters start in the heading
    while left and at > 0:
        at -= 1
        left -= not heading[at].isspace()
    lead = heading[:at].rstrip()
    return title if lead and lead[-1] in _CRUMB_ARROWS and _compact(lead.rstrip(_CRUMB_ARROWS)) else None


def is_banner(heading: str, title: str, declared: str | None, site: SiteContext, near: bool = True) -> bool:
    """True when ``heading`` is the site's banner, not the headline, and no declared title states the
    heading alone:

    - it is the trailing part(s) of the <title> ("Rinderleber mit Apfel | Liebe geht durch den Magen" with
      the blog's name as <h1>; "Rezept : Blog name" too), and the leading rest is no site name and longer,
      or the heading is not ``near`` the text (the page's first <h1> far above it: "Figur - Tanzkurs -
      Verein" with "Tanzkurs - Verein" as the <h1> of every page);
    - or it opens with the <title>'s last part, the site's name, and goes on with a tagline ("Verein e.V.
      Verein zur Förderung von ..." for the <title> "Headline » Verein e.V.") without the leading part.

    >>> site = SiteContext(PageMeta(), None)
    >>> is_banner("Mein Blog", "Was ist virales Marketing? | Mein Blog", None, site)
    True
    >>> is_banner("Neue Regeln für Mieter", "Politik | Neue Regeln für Mieter", None, site)
    False
    >>> is_banner("Hilfe e.V. Verein für Kinder", "Kinder und Arbeit » Hilfe e.V.", None, site)
    True
    """
    key = name_key(heading)
    title_key = name_key(title)
    # (plain string tests first: the <title> is split only when one of the two shapes is possible)
    at = title_key.rfind(key[:MIN_SITE_KEY_CHARS]) if len(key) > MIN_SITE_KEY_CHARS else -1
    if not key or not (title_key.endswith(key) or (at >= 0 and key.startswith(title_key[at:]))):
        return False
    parts = site.split(title)
    if len(parts) < 2:
        suffix = _SITE_SUFFIX.search(title)
        parts = [title[: suffix.start()], suffix.group(1)] if suffix else parts  # "Headline : Blog name"
    if len(parts) < 2:
        return False
    keys = [name_key(p) for p in parts]
    stated = bool(declared) and name_key(strip_site_parts(declared or "", site)) == key
    last = keys[-1]
    tagline = len(key) > len(last) >= MIN_SITE_KEY_CHARS and key.startswith(last)
    if tagline and keys[0] not in key:
        return not stated  # the site's name and its tagline
    if not title_key.endswith(key):
        return False
    for j in range(1, len(parts)):
        if key == "".join(keys[j:]):
            lead = " ".join(parts[:j])
            if (near and len(_compact(lead)) <= len(_compact(heading))) or site.is_site(lead):
                return False
            return not stated
    return False


def headline_after_section(
    page: Page, heading: Heading, title: str, backing: Sequence[str], site: SiteContext
) -> Heading | None:
    """The headline under an <h1> that is a section name: when the <h1> is one whole part of the <title>
    but not its longest ("Neuigkeiten" of "Verein - Neuigkeiten » Die Events der letzten Zeit"), the first
    heading (h2, h3) within ``NEXT_HEADING_ELEMENTS`` elements after it, if a declared title or the
    <title> states it or it is another part of the <title>. None otherwise."""
    el = heading.element
    stats = page.stats
    key = name_key(heading.text)
    title_key = name_key(title)
    # (a part that is not the longest leaves more than half of the <title> to the others)
    if el is None or not key or len(title_key) <= 2 * len(key) or key not in title_key:
        return None
    if el not in stats.index:
        return None
    parts = site.split(title)
    if len(parts) < 2:
        return None
    keys = [name_key(p) for p in parts]
    if key not in keys or len(key) >= max(len(k) for k in keys):
        return None
    start = stats.subtree_end(stats.index[el])
    for j in range(start, min(len(stats), start + NEXT_HEADING_ELEMENTS)):
        tag = stats.tag[j]
        if tag not in _HEADING_TAGS:
            continue
        if tag not in ("h2", "h3"):
            return None
        text = _heading_text(stats.elements[j], site)
        if not text or name_key(text) == key:
            return None
        if name_key(text) in keys or any(backs(v, text) for v in backing):
            return Heading(tag, text, heading.near, stats.elements[j])
        return None
    return None


def in_breadcrumb(el: Element | None) -> bool:
    """True when ``el`` or one of its nearest ancestors (``CRUMB_LEVELS`` in all) is a <nav> or is named
    a breadcrumb (class, id or aria-label): an <h1> there is the trail's last crumb, a copy of the title
    for search engines, while the headline the reader sees may be another element.

    >>> from lxml import html
    >>> div = html.fromstring("<div><ol class='breadcrumb'><li><h1>Title</h1></li></ol><h1>Other</h1></div>")
    >>> in_breadcrumb(div[0][0][0]), in_breadcrumb(div[1])
    (True, False)
    """
    for _ in range(CRUMB_LEVELS):
        if el is None:
            return False
        if el.tag == "nav" or any(_CRUMB_NAME.search(el.get(a) or "") for a in ("class", "id", "aria-label")):
            return True
        el = el.getparent()
    return False


def headline_after_crumb(
    page: Page, body: BodyResult, heading: Heading, backing: Sequence[str], site: SiteContext
) -> Heading | None:
    """The headline under a breadcrumb <h1> (:func:`in_breadcrumb`): the first <h2> after it and before
    the main text that a declared title or the <title> (``backing``) states. None when another <h1>
    comes first or no <h2> qualifies."""
    el = heading.element
    stats = page.stats
    if el is None or el not in stats.index:
        return None
    start = stats.subtree_end(stats.index[el])
    anchor = text_anchor(page, body)
    end = anchor if anchor is not None and anchor > start else start + CRUMB_HEADLINE_ELEMENTS
    for j in range(start, min(len(stats), end)):
        tag = stats.tag[j]
        if tag == "h1":
            return None
        if tag == "h2":
            text = _heading_text(stats.elements[j], site)
            if text and any(backs(v, text) for v in backing):
                return Heading(tag, text, True, stats.elements[j])
    return None


def shown_title(page: Page, title: str | None) -> str | None:
    """``title`` when a heading element (<h1>-<h6>) of the page shows exactly it (white space and case
    aside), else None."""
    if not title:
        return None
    want = _compact(title)
    if len(want) < 2 * MIN_HEADING_CHARS:
        return None
    for h in page.root.iter(*HEADING_TAGS):
        if _compact(visible_text(h)) == want:
            return title
    return None


class Heading(NamedTuple):
    tag: str
    text: str
    near: bool  # found near the start of the main text (seed 003's rule), not only as the page's first <h1>
    element: Element | None = None


def find_heading(
    page: Page, body: BodyResult, site: SiteContext | None = None, backing: Sequence[str] = ()
) -> Heading | None:
    """Seed 003's heading: the highest-level heading near the start of the main text; of several at that
    level, one that the page's declared titles (``backing``) back, then the nearest.

    Without a main text to anchor on, or when no heading lies near it, the first <h1> of the page stands in
    (one <h1> per page is the headline on most article pages), a backed one first.
    """

    declared_tokens: list[set[str]] = []  # the words of ``backing``, read as far as asked for

    def unbacked(text: str) -> int:
        heading = _tokens(text)
        for k, v in enumerate(backing):
            if k == len(declared_tokens):
                declared_tokens.append(_tokens(v))
            if _backed(declared_tokens[k], heading):
                return 0
        return 1

    texts: dict[Element, str | None] = {}  # a heading's text, read once (an <h1> near the text comes twice)

    def heading_text(h: Element) -> str | None:
        if h not in texts:
            texts[h] = _heading_text(h, site)
        return texts[h]

    stats = page.stats
    anchor = text_anchor(page, body)
    best: tuple[tuple[int, int, int], str, str, Element] | None = None
    if anchor is not None:
        elements, tags, line = stats.elements, stats.tag, stats.line
        line_a = line[anchor]
        # the elements within the line window around the anchor (line numbers never decrease in
        # document order: two bisections, not a whole-tree search)
        lo = bisect_left(line, line_a - HEADING_LINES_BEFORE, 0, anchor)
        hi = bisect_right(line, line_a + HEADING_LINES_AFTER, anchor) - 1
        for i in range(lo, hi + 1):
            tag = tags[i]
            if tag not in _HEADING_TAGS:
                continue
            level = int(tag[1])
            if best is not None and (
                level > best[0][0]
                or (level == best[0][0] and not best[0][1] and abs(line_a - line[i]) >= best[0][2])
            ):
                continue  # (cannot beat the best: its text is not even read)
            text = heading_text(elements[i])
            if text:
                rank = (level, unbacked(text), abs(line_a - line[i]))
                if best is None or rank < best[0]:
                    best = (rank, tag, text, elements[i])
    if best is not None and best[1] == "h1" and (not best[0][1] or not backing):
        return Heading(best[1], best[2], True, best[3])
    first: Heading | None = Heading(best[1], best[2], True, best[3]) if best and best[1] == "h1" else None
    for h in page_tagged(page, "h1"):
        text = heading_text(h)
        if text:
            if not unbacked(text):
                return Heading("h1", text, False, h)
            first = first or Heading("h1", text, False, h)
    if first is not None:
        return first
    return Heading(best[1], best[2], True, best[3]) if best else None


_TOKEN = lazy_compile(r"[\u3400-\u9fff]|[^\W_]+")


def overlap(a: str, b: str) -> float:
    """Share of the shorter text's tokens (words; single CJK characters) found in the other, 0..1."""
    ta = set(_TOKEN.findall(a.lower()))
    tb = set(_TOKEN.findall(b.lower()))
    if not ta or not tb:
        return 0.0
    return len(ta & tb) / min(len(ta), len(tb))


def backs(declared: str, heading: str) -> bool:
    """True when a declared title states ``heading``: at least ``SUPPORT_OVERLAP`` of the longer one's
    words are shared (so one shared word of a two-word heading is no backing).

    >>> backs("SA pipeline flagged - The Namibian", "SA pipeline flagged")
    True
    >>> backs("Das schönste Ende der Welt: Montauk", '"Downtown" Montauk')
    False
    """
    return _backed(_tokens(declared), _tokens(heading))


def _backed(declared: set[str], heading: set[str]) -> bool:
    """:func:`backs` on the texts' words."""
    return bool(declared and heading) and len(declared & heading) / max(len(declared), len(heading)) >= (
        SUPPORT_OVERLAP
    )


def _tokens(text: str) -> set[str]:
    return set(_TOKEN.findall(text.lower()))


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def without_kicker(el: Element | None) -> str | None:
    """The headline of a heading that opens with a kicker in its own element, without the kicker:
    ``<h1><span class="dachzeile">Nach der Wahl</span> Die Koalition steht</h1>`` gives "Die Koalition
    steht". The kicker element opens the heading (no text before it), is shorter than the rest and is
    set apart by markup: a class, a block or <small> element, or a <br> after it. None otherwise.
    """
    if el is None:
        return None
    while len(el) == 1 and not (el.text or "").strip() and not (el[0].tail or "").strip():
        el = el[0]  # <h1><span class="post-title"><small>Kicker</small><br>Headline</span></h1>
    if len(el) == 0 or (el.text or "").strip():
        return None
    first = el[0]
    if not isinstance(first.tag, str):
        return None
    after = first.getnext()
    set_apart = (
        bool(first.get("class")) or first.tag in _KICKER_TAGS or (after is not None and after.tag == "br")
    )
    kicker = clip(visible_text(first))
    if not set_apart or not kicker:
        return None
    rest = clip((first.tail or "") + "".join(visible_text(c) + (c.tail or "") for c in first.itersiblings()))
    rest = _strip_piece(rest) if rest else None
    if not rest or len(_compact(rest)) < MIN_HEADING_CHARS or len(_compact(kicker)) >= len(_compact(rest)):
        return None
    return rest


def separate_kicker(el: Element | None, declared: str) -> str | None:
    """The headline alone, when ``declared`` sets the heading's kicker element off with a separator that
    parts a <title> ("Kicker | Headline", "Kicker - Headline": :func:`split_title`) rather than with a
    colon or slash, which join kicker and headline into one headline ("Kicker: Headline"). None otherwise.

    >>> from lxml import html
    >>> h1 = html.fromstring("<h1><small>Tip</small><br>Pyramid sets for all</h1>")
    >>> separate_kicker(h1, "Tip | Pyramid sets for all"), separate_kicker(h1, "Tip: Pyramid sets for all")
    ('Pyramid sets for all', None)
    """
    parts = split_title(_strip_piece(declared))
    if len(parts) < 2:
        return None
    rest = without_kicker(el)
    if not rest or _compact(parts[-1]) != _compact(rest) and name_key(parts[-1]) != name_key(rest):
        return None
    return rest


def refine_heading(heading: Heading, reference: str | None) -> str:
    """The heading without a kicker or subtitle in its own child element, when the declared title says so.

    ``<h1><span>Tunesien</span> Große Aufgaben für die neue Regierung</h1>`` with the declared title
    "Große Aufgaben für die neue Regierung" gives the second piece: the piece whose words match the
    reference (Jaccard) better than the whole heading does.
    """
    el = heading.element
    if el is None or not reference or len(el) == 0:
        return heading.text
    pieces = [clip(visible_text(child)) for child in el]
    own = clip((el.text or "") + " ".join(child.tail or "" for child in el))
    candidates = [_strip_piece(p) for p in (*pieces, own) if p]
    candidates = [p for p in candidates if len(_compact(p)) >= MIN_HEADING_CHARS]
    if len(candidates) < 2:
        return heading.text
    ref = _tokens(reference)
    best = max(candidates, key=lambda p: _jaccard(_tokens(p), ref))
    score = _jaccard(_tokens(best), ref)
    return best if score >= SUPPORT_OVERLAP and score > _jaccard(_tokens(heading.text), ref) else heading.text


def find_title(page: Page, body: BodyResult) -> Found:
    """The page's title by the chain in the module docstring; ``Found()`` when nothing qualifies."""
    meta = page.meta
    site = SiteContext(meta, page.url)
    values = declared_titles(meta, page)
    declared = next(values, None) or microdata_headline(page)
    declared_raw = declared[1] if declared else None
    backing = [v for v in (declared_raw, meta.title) if v]
    # the page's other declared titles (twitter:title, JSON-LD headline ... after og:title), without the
    # CMS record of Chinese portals (looking for it scans the whole page: ~0.1 ms on scrapinghub's pages)
    others = [v for k, v in declared_titles(meta) if not declared or k != declared[0]]
    heading = find_heading(page, body, site, [*backing, *others])
    if heading and site.is_site(heading.text):
        heading = None  # a heading like "某某省人民政府网站" is the site's banner
    banner = heading is not None and heading.tag == "h1" and bool(meta.title)
    if heading and banner and is_banner(heading.text, meta.title or "", declared_raw, site, heading.near):
        site.names.append(name_key(heading.text))  # "Post | Blog name" with the blog's name as <h1>
        heading = None
    if heading and banner:
        heading = headline_after_section(page, heading, meta.title or "", backing, site) or heading
    if heading and heading.tag == "h1" and in_breadcrumb(heading.element):
        # the trail's last crumb, unless the page declares exactly it: the headline is an <h2> below it
        # that a declared title states (the crumb "Kicker: Headline", og:title and the <h2> the news)
        if not declared_raw or _compact(strip_site_parts(declared_raw, site)) != _compact(heading.text):
            stating = [*backing, *(v for _, v in values)]
            heading = headline_after_crumb(page, body, heading, stating, site) or heading
    heading_text = heading.text if heading else None
    if heading:
        tag, text = heading.tag, heading.text
        # the heading is trusted when the page's declared titles back it up, or when it is the <h1> right
        # above the text (measured: +1 on trafilatura's titles, +1 on daniel-zh)
        stated = bool(declared_raw) and overlap(text, declared_raw or "") >= SUPPORT_OVERLAP
        supported = stated or (bool(meta.title) and overlap(text, meta.title or "") >= SUPPORT_OVERLAP)
        # ... or another declared title backs it (og:title a teaser, the JSON-LD headline the <h1>)
        supported = supported or any(backs(v, text) for v in others)
        if supported or (tag == "h1" and (not backing or heading.near)):
            if declared and not stated:
                shown = shown_title(page, clean_title(declared[1], site))
                if shown:  # the declared title is a heading of its own: a section name is the <h1>
                    return Found(shown, f"meta:{declared[0]}")
            raw = declared_raw or meta.title
            if not raw:
                return Found(text, f"heading:{tag}")
            stripped = strip_site_parts(raw, site)
            if _compact(stripped) == _compact(text):
                if spaced_apart(stripped, text):  # "Headline:More" in markup, "Headline: More" declared
                    return Found(_strip_piece(stripped), f"meta:{declared[0]}" if declared else "title-tag")
                return Found(text, f"heading:{tag}")  # the page declares exactly this heading
            if adds_separators(stripped, text):
                # the heading's words with a separator it draws with markup only
                # ("<h1><span>Kicker</span> Headline</h1>" declared "Kicker: Headline")
                kicked = separate_kicker(heading.element, stripped)
                if kicked:  # declared "Kicker | Headline": the kicker is a part of its own
                    return Found(kicked, f"heading:{tag}")
                return Found(_strip_piece(stripped), f"meta:{declared[0]}" if declared else "title-tag")
            cleaned = clean_title(raw, site)
            if cleaned and last_crumb(text, cleaned):
                # "Site 〉 Section 〉 Headline" as the <h1>, the declared title naming the headline
                return Found(cleaned, f"heading:{tag}")
            kicked = without_kicker(heading.element) if _compact(text) not in _compact(raw) else None
            if kicked:  # a kicker the declared title does not set off either: the headline alone
                return Found(kicked, f"heading:{tag}")
            refined = refine_heading(heading, cleaned)
            if cleaned and spaced_apart(cleaned, refined):
                return Found(cleaned, f"meta:{declared[0]}" if declared else "title-tag")
            return Found(refined, f"heading:{tag}")
    if declared:
        shown = shown_title(page, strip_site_parts(declared[1], site))
        if shown:  # a heading shows it whole: its separators are the headline's own ("NWO – Headline")
            return Found(shown, f"meta:{declared[0]}")
        value = clip(clean_title(declared[1], site, heading_text, meta.title))
        if value:
            return Found(value, f"meta:{declared[0]}")
    if meta.title:
        value = clip(clean_title(meta.title, site, heading_text, declared_raw))
        if value:
            return Found(value, "title-tag")
    if heading:
        return Found(heading.text, f"heading:{heading.tag}")
    # last resort: a declared title or <title> that is only the site's name is still the page's title
    for raw, source in ((declared_raw, f"meta:{declared[0]}" if declared else ""), (meta.title, "title-tag")):
        value = clip(raw)
        if value:
            return Found(value, source)
    return NOT_FOUND
