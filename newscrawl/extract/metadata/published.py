"""Publish time: an ordered fallback chain; the first rule that yields a plausible date wins.

1. ``meta:<key>``: the page's meta tags (``date_data.PUBLISHED_META_KEYS``, strongest first).
2. ``json-ld:datePublished`` (then ``dateCreated``, ``uploadDate``), article-typed objects first.
3. ``time-element``: ``itemprop=datePublished``, then the first ``<time datetime>`` between the heading and
   the end of the main text (one elsewhere dates a comment or a teaser; "updated" ones are skipped).
4. ``meta:<key>`` for the generic keys (``date``, ``dc.date``, ``dcterms.date``, ``created``): they often
   hold the page's generation time, so they come after ``<time>``.
5. ``text-near-title`` / ``text-near-body-start`` / ``text-near-body-end``: seed 003's report-time rule.
   The seed looks for ``\\w{4}[-./,年]\\w{1,2}[-./,月]\\w{1,2}日?`` in blocks i-2..i+2 and j-2..j+2 around
   the first (i) and last (j) main-text blocks. Here the "blocks" are the text just after the heading above
   the main text (its ``<h1>``, or on pages without one the element that opens the ``<title>``), the text
   just before and at the start of the main text, and the text at and after its end; long text pieces
   (prose) give only their opening dateline. The pattern is generalised (see ``dates.py``). A date after a
   publish label ("发布时间：", "Published") wins over an unlabelled one; one after another label
   ("更新时间", "Updated") loses. With no body node, the search starts from the heading, or the beginning
   of the body.
6. ``url``: a date in the URL (``/2021-03-05/``, ``/20210305/``, ``/2021/03/05/``, ``t20210305_``).
7. ``script``: a publish time given only in the raw source (``var pubtime = "..."``, WeChat's
   ``var ct = "1581517074"``, Sina's comment ``published at 2005-03-21 11:21:30``).
8. ``page-text``: the first plausible date in the page's visible text.
9. ``meta-modified:<key>`` / ``json-ld:dateModified``: the last-modified time, when nothing else dates it.

Two corrections follow: a date in the URL overrules a different day found by a rule weaker than the
structured metadata, or a UTC time one day off (``_url_wins``); and a UTC time is rewritten with the
site's own offset when the page's metadata gives the same instant that way (``_local_twin``).

Output: ISO 8601 with a UTC offset. The page's own offset wins; a value without one is read in
``timezone`` (an IANA name; UTC when None; an unknown name raises ValueError). A date without a time of
day gives midnight in that zone (``2010-12-15T00:00:00+08:00``). Relative forms (``3小时前``,
``昨天 08:30``) and year-less ones (``发布时间：10-08``) are read only when a ``reference`` time is given.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, tzinfo
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from lxml import etree

from newscrawl.extract.document import Element
from newscrawl.extract.metadata.date_data import (
    JSON_LD_ARTICLE_TYPES,
    JSON_LD_KEYS,
    MODIFIED_META_KEYS,
    PUBLISHED_META_KEYS,
    WEAK_META_KEYS,
)
from newscrawl.extract.metadata.dates import DateHit, find_dates, make_date, parse_value, plausible
from newscrawl.extract.page import Page
from newscrawl.extract.result import NOT_FOUND, BodyResult, Found

#: characters of text read after the heading, and before / at the start of the main text (seed 003 reads
#: two blocks either side; a block is a line of 20-100 characters on the portals it was tested on)
NEAR_START_CHARS = 300
#: characters read at the end of the main text and after it
NEAR_END_CHARS = 300
#: a text piece with more non-space characters than this is prose, not a dateline: its dates are skipped
#: (60, 80 and 120 measured: 80 best with the scedd and cetd bodies, all equal with auto)
PROSE_CHARS = 80
#: shortest text taken as the <title>'s headline when a page has no <h1>
TITLE_MATCH_MIN_CHARS = 6
#: characters kept from the start of a prose piece (press datelines open the first paragraph)
DATELINE_CHARS = 40
#: characters of the page's visible text searched by the last-resort rule
PAGE_TEXT_CHARS = 30_000
#: characters of raw source searched for script-embedded publish times
SCRIPT_CHARS = 1_000_000

_URL_DATE = re.compile(
    r"(?<!\d)(?P<y>(?:19|20)\d\d)(?P<sep>[-/_.]?)(?P<m>[01]\d)(?P=sep)(?P<d>[0-3]\d)(?!\d)"
    r"|(?<![\d])(?P<y2>(?:19|20)\d\d)/(?P<m2>[01]?\d)/(?P<d2>[0-3]?\d)/"
    r"|(?<![\d])(?P<d3>[0-3]\d)-(?P<m3>[01]\d)-(?P<y3>(?:19|20)\d\d)(?!\d)"
)
#: keys under which pages put the publish time in scripts, data attributes and comments: a literal to
#: find in the lower-cased source and the whole key to match there (``var ct = "`` is WeChat's Unix time,
#: ``published at`` Sina's comment, ``datepublished`` is found through its ``pub``)
SCRIPT_KEYS: tuple[tuple[bytes, bytes], ...] = (
    (b"pub", rb"pub(?:lish(?:ed)?)?[ _]?(?:time|date|at)"),
    (b"ptime", rb"ptime"),
    (b"creat", rb"creat(?:e|ed)_?(?:time|at)"),
    (b"releasetime", rb"releasetime"),
    (b"showdate(", rb"showdate\("),
    (b'var ct = "', rb'var ct = "'),
)
_SCRIPT_KEYS = tuple((literal, re.compile(key)) for literal, key in SCRIPT_KEYS)
#: occurrences of one literal looked at ("pub" also opens "public", "publisher")
SCRIPT_KEY_TRIES = 40
#: the value right after a key: a date (with time and offset) or a Unix time in seconds or milliseconds
_AFTER_KEY = re.compile(
    rb"""["'\\]*\s*[:=(]?\s*["'\\]*\s*(?:(?P<date>(?:19|20)\d\d[-/.][01]?\d[-/.][0-3]?\d"""
    rb"""(?:[t ][0-2]?\d:[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:z|[+-]\d\d:?\d\d)?)?)"""
    rb"""|(?P<epoch>1\d{9})(?:\d{3})?(?!\d))"""
)


@lru_cache(maxsize=64)
def _zone(name: str | None) -> tzinfo:
    if not name:
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as e:
        raise ValueError(f"unknown time zone {name!r}") from e


def _iso(when: datetime, zone: tzinfo) -> str:
    if when.tzinfo is None:
        when = when.replace(tzinfo=zone)
    return when.isoformat(timespec="seconds")


def find_published(
    page: Page, body: BodyResult, *, reference: datetime | None = None, timezone: str | None = None
) -> Found:
    """The publish time of ``page`` as ISO 8601 with an offset, and the rule that found it."""
    zone = _zone(timezone)
    if reference is not None and reference.tzinfo is not None:
        reference = reference.astimezone(zone)
    month_first = (page.meta.language or "").lower().startswith("en-us")
    url_day = _from_url(page.url, reference)
    for when, source in _chain(page, body, reference, month_first, zone):
        if when is not None:
            if url_day is not None and _url_wins(when, source, url_day):
                return Found(_iso(url_day, zone), "url")
            if when.utcoffset() == timedelta(0):
                when = _local_twin(page, when, reference) or when
            return Found(_iso(when, zone), source)
    return NOT_FOUND


def _local_twin(page: Page, when: datetime, reference: datetime | None) -> datetime | None:
    """The same instant as the UTC time ``when``, written with the site's own offset elsewhere in the
    page's metadata (``22:04Z`` in JSON-LD, ``00:04+02:00`` in a meta tag), so the day is the site's."""
    values = [v for k, v in page.meta.meta.items() if "date" in k or "time" in k]
    values += [o[k] for o in page.meta.json_ld for k in ("datePublished", "dateCreated") if k in o]
    values += [v for v, _ in page.meta.times]
    for value in values:
        if not isinstance(value, str) or len(value) > 40:
            continue
        other = parse_value(value, reference=reference, slow=False)
        if other is not None and other.tzinfo is not None and other.utcoffset() != timedelta(0):
            if abs((other - when).total_seconds()) <= 60:
                return other
    return None


def _url_wins(when: datetime, source: str, url_day: datetime) -> bool:
    """Whether a date in the URL overrules ``when`` (found by rule ``source``).

    It does when they name different days and either ``when`` is in UTC and a day off (a local time
    converted to UTC: the URL keeps the site's own day), or ``when`` comes from a rule weaker than the
    page's structured metadata. Measured on htmldate and trafilatura: this fixed 5 pages and broke none;
    letting the URL overrule every meta date as well broke 3 pages.
    """
    days = abs((when.date() - url_day.date()).days)
    if days == 0:
        return False
    if days == 1 and when.utcoffset() == timedelta(0):
        return True
    return not source.startswith(("meta:", "json-ld:"))


def _chain(
    page: Page, body: BodyResult, reference: datetime | None, month_first: bool, zone: tzinfo
) -> Iterator[tuple[datetime | None, str]]:
    yield from _from_meta(page, PUBLISHED_META_KEYS, "meta", reference, month_first)
    yield _from_json_ld(page, JSON_LD_KEYS, reference)
    start = body.first if body.first is not None else body.node
    if start is not None and start not in page.stats.index:
        start = None
    heading = _heading(page, start)
    yield _from_times(page, heading, start, reference, month_first)
    yield from _from_meta(page, WEAK_META_KEYS, "meta", reference, month_first)
    yield from _from_text_near(page, body, heading, start, reference, month_first)
    yield _from_url(page.url, reference), "url"
    yield _from_script(page.html, reference, zone), "script"
    yield _from_page_text(page, reference, month_first), "page-text"
    yield from _from_meta(page, MODIFIED_META_KEYS, "meta-modified", reference, month_first)
    yield _from_json_ld(page, ("dateModified",), reference)


def _from_meta(
    page: Page, keys: tuple[str, ...], prefix: str, reference: datetime | None, month_first: bool
) -> Iterator[tuple[datetime | None, str]]:
    meta = page.meta.meta
    for key in keys:
        value = meta.get(key)
        if value:
            yield parse_value(value, reference=reference, month_first=month_first), f"{prefix}:{key}"


def _from_json_ld(
    page: Page, keys: tuple[str, ...], reference: datetime | None
) -> tuple[datetime | None, str]:
    objects = page.meta.json_ld
    if not objects:
        return None, "json-ld"
    ranked = sorted(objects, key=lambda o: not _is_article(o))
    for key in keys:
        for obj in ranked:
            value = obj.get(key)
            if isinstance(value, str) and value:
                when = parse_value(value, reference=reference)
                if when is not None:
                    return when, f"json-ld:{key}"
    return None, "json-ld"


def _is_article(obj: dict) -> bool:
    kind = obj.get("@type")
    kinds = kind if isinstance(kind, list) else [kind]
    return any(isinstance(k, str) and k in JSON_LD_ARTICLE_TYPES for k in kinds)


def _from_times(
    page: Page, heading: Element | None, start: Element | None, reference: datetime | None, month_first: bool
) -> tuple[datetime | None, str]:
    """``itemprop=datePublished`` first; then the first ``<time>`` between the heading and the end of the
    main text (a ``<time>`` elsewhere dates a comment or a teaser); without those anchors, the first."""
    for value, where in page.meta.times:
        if where == "itemprop":
            when = parse_value(value, reference=reference, month_first=month_first)
            if when is not None:
                return when, "time-element"
    if not page.meta.times:
        return None, "time-element"
    lo, hi = _article_span(page, heading, start)
    index = page.stats.index
    for el in page.body.iter("time"):
        i = index.get(el, -1)
        if not lo <= i < hi or _MODIFIED_CLASS.search(el.get("class", "")):
            continue
        value = el.get("datetime") or el.get("pubdate") or ""
        when = parse_value(value, reference=reference, month_first=month_first) if value else None
        if when is not None:
            return when, "time-element"
    return None, "time-element"


_MODIFIED_CLASS = re.compile(r"updated|modified", re.IGNORECASE)


def _article_span(page: Page, heading: Element | None, start: Element | None) -> tuple[int, int]:
    """Pre-order index range from the heading (or the main text) to the end of the main text."""
    stats = page.stats
    index = stats.index
    if start is None:
        return (index.get(heading, 0) if heading is not None else 0), len(stats)
    s = index[start]
    lo = index.get(heading, s) if heading is not None else s
    return min(lo, s), stats.subtree_end(s)


# --- seed 003: text near the start and the end of the main text ------------------------------------------


class _Pieces:
    """Text pieces gathered up to a budget of non-space characters; of long pieces (prose) only the head."""

    __slots__ = ("parts", "n", "limit", "prose")

    def __init__(self, limit: int, prose: int) -> None:
        self.parts: list[str] = []
        self.n = 0
        self.limit = limit
        self.prose = prose

    def add(self, text: str | None) -> bool:
        """Take ``text``; True once the budget is spent."""
        if text:
            size = len(text.strip())
            if size > 0:
                self.n += size
                if not self.prose or size <= self.prose:
                    self.parts.append(text)
                else:  # keep a dateline that opens a paragraph ("Karlsruhe, (12.11.2021). ...")
                    self.parts.append(text.lstrip()[:DATELINE_CHARS])
        return self.n >= self.limit

    def text(self, reverse: bool = False) -> str:
        return " ".join(reversed(self.parts) if reverse else self.parts)


def _text_after(el: Element, limit: int, include_self: bool, prose: int = 0) -> str:
    """Text that follows ``el``'s start (or its end) in document order, up to ``limit`` characters."""
    got = _Pieces(limit, prose)
    if include_self:
        for t in el.itertext():
            if got.add(t):
                return got.text()
    cur: Element | None = el
    while cur is not None:
        if got.add(cur.tail):
            break
        for sib in cur.itersiblings():
            if isinstance(sib.tag, str):
                if any(got.add(t) for t in sib.itertext()):
                    return got.text()
            if got.add(sib.tail):
                return got.text()
        if cur.tag == "body":
            break
        cur = cur.getparent()
    return got.text()


def _text_before(el: Element, limit: int, prose: int = 0) -> str:
    """Text that precedes ``el`` in document order, up to ``limit`` characters (nearest last)."""
    got = _Pieces(limit, prose)
    cur: Element | None = el
    while cur is not None and cur.tag != "body":
        for sib in cur.itersiblings(preceding=True):
            if got.add(sib.tail):
                return got.text(reverse=True)
            if isinstance(sib.tag, str):
                if any(got.add(t) for t in reversed(list(sib.itertext()))):
                    return got.text(reverse=True)
        parent = cur.getparent()
        if parent is not None and got.add(parent.text):
            break
        cur = parent
    return got.text(reverse=True)


def _heading(page: Page, start: Element | None) -> Element | None:
    """The <h1> nearest above ``start`` (or inside it), the first <h1> when ``start`` is unknown; on pages
    without <h1>, the element whose whole text opens the <title> (old portals set the headline in a
    styled <td> or <font>)."""
    h1s = list(page.body.iter("h1"))
    if not h1s:
        return _title_element(page, start)
    if start is None:
        return h1s[0]
    index = page.stats.index
    s = index.get(start)
    if s is None:
        return h1s[0]
    end = page.stats.subtree_end(s)
    before = [h for h in h1s if index.get(h, end) < end]
    return before[-1] if before else None


def _title_element(page: Page, start: Element | None) -> Element | None:
    title = "".join((page.meta.title or "").split())
    if len(title) < TITLE_MATCH_MIN_CHARS:
        return None
    stats = page.stats
    chars = stats.chars
    size = len(title)
    end = stats.subtree_end(stats.index[start]) if start is not None and start in stats.index else len(stats)
    found: Element | None = None
    for i in range(1, min(end, len(stats))):
        c = chars[i]
        if TITLE_MATCH_MIN_CHARS <= c <= size and stats.tags[i] <= 3:
            el = stats.elements[i]
            text = "".join("".join(el.itertext()).split())
            if text and title.startswith(text):
                found = el  # keep the last one above the main text: the headline, not a nav link
    return found


def _pick(hits: list[DateHit], nearest_last: bool = False) -> DateHit | None:
    """A labelled hit first, then the nearest unlabelled one; hits after an "updated" label lose."""
    if not hits:
        return None
    labelled = [h for h in hits if h.label > 0]
    if labelled:
        return labelled[-1] if nearest_last else labelled[0]
    plain = [h for h in hits if h.label == 0] or hits
    return plain[-1] if nearest_last else plain[0]


def _from_text_near(
    page: Page,
    body: BodyResult,
    heading: Element | None,
    start: Element | None,
    reference: datetime | None,
    month_first: bool,
) -> Iterator[tuple[datetime | None, str]]:

    def hits(text: str) -> list[DateHit]:
        return find_dates(text, reference=reference, month_first=month_first) if text else []

    if heading is not None:
        hit = _pick(hits(_text_after(heading, NEAR_START_CHARS, include_self=False, prose=PROSE_CHARS)))
        yield (hit.when if hit else None), "text-near-title"
    if start is not None:
        hit = _pick(hits(_text_before(start, NEAR_START_CHARS, prose=PROSE_CHARS)), nearest_last=True)
        if hit is None:
            hit = _pick(hits(_text_after(start, NEAR_START_CHARS, include_self=True, prose=PROSE_CHARS)))
        yield (hit.when if hit else None), "text-near-body-start"
        last = body.last if body.last is not None else start
        own = " ".join(last.itertext())[-NEAR_END_CHARS:]
        after = _text_after(last, NEAR_END_CHARS, include_self=False, prose=PROSE_CHARS)
        hit = _pick(hits(own + " " + after))
        yield (hit.when if hit else None), "text-near-body-end"
    elif heading is None:
        hit = _pick(hits(_text_after(page.body, NEAR_START_CHARS, include_self=True, prose=PROSE_CHARS)))
        yield (hit.when if hit else None), "text-near-body-start"


# --- URL, script, whole page ----------------------------------------------------------------------------


def _from_url(url: str | None, reference: datetime | None) -> datetime | None:
    if not url:
        return None
    for m in _URL_DATE.finditer(url):
        if m.group("y"):
            when = make_date(int(m.group("y")), int(m.group("m")), int(m.group("d")))
        elif m.group("y2"):
            when = make_date(int(m.group("y2")), int(m.group("m2")), int(m.group("d2")))
        else:
            when = make_date(int(m.group("y3")), int(m.group("m3")), int(m.group("d3")))
        if when is not None and plausible(when, reference):
            return when
    return None


def _from_script(html: str, reference: datetime | None, zone: tzinfo) -> datetime | None:
    """A publish time under a known key anywhere in the raw source. Searched with ``bytes.find`` on the
    lower-cased UTF-8 source: a regular expression over a 700 kB WeChat page costs tens of milliseconds."""
    raw = html[:SCRIPT_CHARS].encode("utf-8", "ignore").lower()
    for literal, key in _SCRIPT_KEYS:
        i = raw.find(literal)
        tries = 0
        while i != -1 and tries < SCRIPT_KEY_TRIES:
            tries += 1
            k = key.match(raw, i)
            j = k.end() if k is not None else i + len(literal)
            m = _AFTER_KEY.match(raw, j, j + 60) if k is not None else None
            if m is not None:
                if m.group("date"):
                    value = m.group("date").decode("ascii").upper()
                    when = parse_value(value, reference=reference, slow=False)
                else:
                    when = datetime.fromtimestamp(int(m.group("epoch")), UTC).astimezone(zone)
                if when is not None and plausible(when, reference):
                    return when
            i = raw.find(literal, j)
    return None


def _from_page_text(page: Page, reference: datetime | None, month_first: bool) -> datetime | None:
    text = etree.tostring(page.body, method="text", encoding="unicode", with_tail=False)[:PAGE_TEXT_CHARS]
    hit = _pick(find_dates(text, reference=reference, month_first=month_first, relative=False))
    return hit.when if hit else None
