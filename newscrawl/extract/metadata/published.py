"""Publish time: an ordered fallback chain; the first rule that yields a plausible date wins.

1. ``meta:<key>``: the page's meta tags (``date_data.PUBLISHED_META_KEYS``, strongest first).
2. ``json-ld:datePublished`` (then ``dateCreated``, ``uploadDate``), article-typed objects first;
   ``arc:display_date`` (then ``first_publish_date``): Arc XP's story record, on a page without a JSON-LD
   article (:mod:`newscrawl.extract.metadata.arc`).
3. ``time-element``: ``itemprop=datePublished``, then the first ``<time datetime>`` between the heading and
   the end of the main text (one elsewhere dates a comment or a teaser; "updated" ones and those of an
   embedded post, inside a ``<blockquote>``, are skipped). A ``<time>`` whose text shows a day more than
   one day from its ``datetime`` gives the day shown. ``time-element:first-entry``: when that first
   ``<time>`` opens a run of ``LIVE_FEED_TIMES`` or more, each earlier than the one before, the run is a
   live blog's entries, newest first, and the earliest dates the page (the first dates its latest entry).
4. ``title``: a date that is a part of the ``<title>`` (or ``og:title``) of its own, set off by a separator
   (``... | Europa | Kurier | 14.03.2023``): the site's own statement of the page's date, read before the text
   near the heading, where a photo caption may date the photo (one fundus page, 4 days early).
5. ``text-near-title`` / ``text-near-body-start`` / ``text-near-body-end``: seed 003's report-time rule.
   The seed looks for ``\\w{4}[-./,年]\\w{1,2}[-./,月]\\w{1,2}日?`` in blocks i-2..i+2 and j-2..j+2 around
   the first (i) and last (j) main-text blocks. Here the "blocks" are the text just after the heading above
   the main text (its ``<h1>``, or on pages without one the element that opens the ``<title>``), the text
   just before and at the start of the main text, and the text at and after its end; long text pieces
   (prose) give only their opening dateline. The pattern is generalised (see ``dates.py``). A date after a
   publish label ("发布时间：", "Published") wins over an unlabelled one; one after another label
   ("更新时间", "Updated", "Aggiornato il", "Mis à jour le", "更新") loses. With no body node, the search
   starts from the heading, or the beginning of the body.
6. ``meta:<key>`` for the generic keys (``date``, ``dc.date``, ``dcterms.date``, ``created``): they often
   hold the page's generation time, so they come after ``<time>`` and the dates near the text (read
   before those, they dated 2 htmldate and 2 trafilatura pages a day late, and no page better).
7. ``url``: a date in the URL (``/2021-03-05/``, ``/20210305/``, ``/2021/03/05/``, ``t20210305_``).
8. ``script``: a publish time given only in the raw source (``var pubtime = "..."``, WeChat's
   ``var ct = "1581517074"``, Sina's comment ``published at 2005-03-21 11:21:30``, a CMS's
   ``"deployDt":"2025.03.04 07:15"`` or ``data-deploy-dt``; never its ``reDeployDt``).
9. ``page-text``: the first plausible date in the page's visible text; but first a date right after the
   page's own headline elsewhere on the page (the page's teaser in a list of articles).
10. ``meta-modified:<key>`` / ``json-ld:dateModified``: the last-modified time, when nothing else dates it.

A site's XPath override (``xpath``), when given, is read before the chain.

Three corrections follow. An offset on the page beats a value without one (``_prefer_offset``: JSON-LD's
``2024-09-03T04:03:19Z`` beats a meta's ``2024-09-03T04:03:19``), and a UTC time gives way to the same
instant written with the site's own offset. A value from the metadata or a ``<time>`` that another
precise structured publish value (or a generic date meta such as ``dcterms.date``, unless it holds the
page's modification time) contradicts on the day gives way to that one when the page shows its day, and
not the first one's, under the heading or at the start of the text (``_settle``); a date alone takes the
time of day the page shows there for the same day (``_with_shown_time``). Then a date in the URL
overrules a different day found by a rule weaker than the structured metadata, a UTC time one day
off unless the page shows that time's day under its heading, or a structured value over a year later (a
re-dated page); days are compared in the page's zone, and
a time whose day agrees is kept (``_check_url``).

Output (``render``): ISO 8601 at the precision the page gives. A date alone stays a date (``2024-09-03``);
an offset on the page is kept (a UTC one is written in the page's zone when known); a time without one
is read in the page's zone: the site's (``timezone``), else one its declared language and region or its
host imply (zh-CN or a ``.cn`` host: Asia/Shanghai, zh-TW: Asia/Taipei, zh-HK: Asia/Hong_Kong, ja:
Asia/Tokyo, ko: Asia/Seoul, de: Europe/Berlin...; ``infer_zone``, ``date_data.LANGUAGE_ZONES``), or its
encoding (GBK: Asia/Shanghai, Big5: Asia/Taipei, Shift_JIS: Asia/Tokyo; ``charset_zone``), else
none is invented and the time stays naive (``2024-09-03T04:03:19``). ``FoundTime.zone`` says where the
offset came from. Relative forms (``3小时前``, ``刚刚``, ``昨天 08:30``, ``前天``) and year-less ones
(``发布时间：10-08``) are read only when a ``reference`` time is given.
"""

from __future__ import annotations

import codecs
import itertools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from lxml import etree

from newscrawl.extract.document import Element, subtree_text
from newscrawl.extract.lazyre import lazy_compile
from newscrawl.extract.metadata.date_data import (
    CHARSET_ZONES,
    HOST_ZONES,
    JSON_LD_ARTICLE_TYPES,
    JSON_LD_KEYS,
    LANGUAGE_ZONES,
    MODIFIED_META_KEYS,
    PUBLISHED_META_KEYS,
    UPDATE_LABELS,
    WEAK_META_KEYS,
)
from newscrawl.extract.metadata.dates import (
    UPDATE_LABEL,
    DateHit,
    Stamp,
    find_dates,
    make_date,
    parse_stamp,
    plausible,
    stamp_of,
)
from newscrawl.extract.metadata.shared import body_tagged, page_tagged, shared
from newscrawl.extract.page import Page
from newscrawl.extract.result import BodyResult, Found

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
#: elements that quote another page's post: a ``<time>`` inside dates the quoted post (an Instagram or X
#: embed in the article's text dated one htmldate page 10 months early)
EMBED_TAGS = ("blockquote",)
#: longest text of a ``<time>`` read for the date it shows
SHOWN_DATE_CHARS = 80
#: whether structured publish values that disagree on the day are settled by the day the page shows
#: (:func:`_settle`; a switch for the leave-one-dataset-out check)
SETTLE_BY_SHOWN_DAY = True
#: the rules whose value :func:`_settle` checks against the day shown: the page's metadata and its
#: ``<time>`` elements (an ``itemprop=datePublished`` <time> holding the CMS's entry time the evening
#: before the release the page dates under its heading and in ``dcterms.date``: drk.de on htmldate and
#: trafilatura)
SETTLED_SOURCES: tuple[str, ...] = ("meta:", "json-ld:", "arc:", "time-element")
#: whether a precise value gives way to another structured publish value whose time of day the page shows
#: under its heading when it shows none within ``SHOWN_TIME_SLACK`` of its own (inews.co.uk: a meta's
#: 02:39 entry time against JSON-LD's 11:30, shown as 11:30; a switch)
SETTLE_BY_SHOWN_TIME = True
#: how far a shown time may lie from a value's own and still back it (the eval's "within 1 h")
SHOWN_TIME_SLACK = timedelta(hours=1)
#: whether the generic date metas (``date``, ``dcterms.date``...; ``WEAK_META_KEYS``) with a time of day
#: may settle a disagreement too (never one holding the page's modification time; a switch)
SETTLE_WITH_WEAK_METAS = True
#: whether a date in the URL leaves alone a structured value whose day the page shows under its heading
#: (:func:`_check_url`; a switch)
URL_YIELDS_TO_SHOWN_DAY = True
#: days by which a date in the URL may precede the structured publish value before the URL's day wins: a
#: page re-dated by a republish or a CMS move keeps its URL (befifty.de: URL 2017-07-12, every publish
#: value 2019-06-17). URLs can run days early (a draft's day: larepublica.pe's is 6 days before its
#: JSON-LD, which is right), so only a gap of over a year counts. None: never.
URL_REDATED_DAYS: int | None = 365
#: whether a date alone takes the time of day the page shows for it (:func:`_with_shown_time`; a switch)
SHOWN_TIME = True
#: characters between a teaser's headline and its date (whitespace and a short kicker)
TEASER_GAP_CHARS = 40
#: whether the page-text rule looks first for the date of the page's own teaser (a switch, as above)
TEASER_DATE = True

_URL_DATE = lazy_compile(
    r"(?<!\d)(?P<y>(?:19|20)\d\d)(?P<sep>[-/_.]?)(?P<m>[01]\d)(?P=sep)(?P<d>[0-3]\d)(?!\d)"
    r"|(?<![\d])(?P<y2>(?:19|20)\d\d)/(?P<m2>[01]?\d)/(?P<d2>[0-3]?\d)/"
    r"|(?<![\d])(?P<d3>[0-3]\d)-(?P<m3>[01]\d)-(?P<y3>(?:19|20)\d\d)(?!\d)"
    # the Guardian's month in letters: "/world/2026/nov/24/slug"
    r"|(?<![\d])(?P<y4>(?:19|20)\d\d)/(?P<mon>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/(?P<d4>[0-3]?\d)/"
)
#: the months of ``_URL_DATE``'s letters
_URL_MONTHS = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}
#: keys under which pages put the publish time in scripts, data attributes and comments: a literal to
#: find in the lower-cased source and the whole key to match there (``var ct = "`` is WeChat's Unix time,
#: ``published at`` Sina's comment, ``datepublished`` is found through its ``pub``; ``deploydt`` a CMS's
#: release time, in its page data and a ``data-deploy-dt`` attribute, but not its ``redeploydt``)
SCRIPT_KEYS: tuple[tuple[bytes, bytes], ...] = (
    (b"pub", rb"pub(?:lish(?:ed)?)?[ _]?(?:time|date|at)"),
    (b"ptime", rb"ptime"),
    (b"creat", rb"creat(?:e|ed)_?(?:time|at)"),
    (b"releasetime", rb"releasetime"),
    (b"showdate(", rb"showdate\("),
    (b'var ct = "', rb'var ct = "'),
    (b"deploy", rb"(?<![a-z])(?<!re[-_])deploy[-_]?(?:dt|date|time)"),
)
_SCRIPT_KEYS = tuple((literal, lazy_compile(key)) for literal, key in SCRIPT_KEYS)
#: occurrences of one literal looked at ("pub" also opens "public", "publisher")
SCRIPT_KEY_TRIES = 40
#: the value right after a key: a date (with time and offset) or a Unix time in seconds or milliseconds
_AFTER_KEY = lazy_compile(
    rb"""["'\\]*\s*[:=(]?\s*["'\\]*\s*(?:(?P<date>(?:19|20)\d\d[-/.][01]?\d[-/.][0-3]?\d"""
    rb"""(?:[t ][0-2]?\d:[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:z|[+-]\d\d:?\d\d)?)?)"""
    rb"""|(?P<epoch>1\d{9})(?:\d{3})?(?!\d))"""
)


@lru_cache(maxsize=64)
def _zone(name: str) -> tzinfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as e:
        raise ValueError(f"unknown time zone {name!r}") from e


@dataclass(frozen=True, slots=True)
class Zone:
    """The zone a page's times without an offset are read in (``tz`` None: unknown) and why (``label``:
    ``"site Europe/London"``, ``"language zh-CN: Asia/Shanghai"``, ``"host .cn: Asia/Shanghai"``)."""

    tz: tzinfo | None = None
    label: str | None = None


NO_ZONE = Zone()
_HOST_SUFFIXES = tuple(suffix for suffix, _ in HOST_ZONES)
_SUBTAG = lazy_compile(r"[-_\s]+")


def infer_zone(language: str | None, url: str | None) -> Zone:
    """The zone a page's declared language and region, or else its host, imply; ``NO_ZONE`` otherwise.

    >>> infer_zone("zh-CN", None).label, infer_zone("ja", None).label
    ('language zh-CN: Asia/Shanghai', 'language ja: Asia/Tokyo')
    >>> infer_zone("zh", "https://news.example.cn/a.html").label
    'host .cn: Asia/Shanghai'
    >>> infer_zone("en", "https://example.com/") == NO_ZONE
    True
    """
    if language:
        for declared in language.split(","):
            tags = [t for t in _SUBTAG.split(declared.strip().lower()) if t]
            if not tags:
                continue
            regions = [t for t in tags[1:] if len(t) == 2]  # skip a script subtag (zh-Hans-CN)
            name = LANGUAGE_ZONES.get((tags[0], regions[0] if regions else None)) or LANGUAGE_ZONES.get(
                (tags[0], None)
            )
            if name:
                return Zone(_zone(name), f"language {declared.strip()}: {name}")
    host = (urlsplit(url).hostname or "") if url else ""
    if not host.endswith(_HOST_SUFFIXES):
        return NO_ZONE
    for suffix, name in HOST_ZONES:
        if host.endswith(suffix):
            return Zone(_zone(name), f"host {suffix}: {name}")
    return NO_ZONE


def page_zone(page: Page, timezone: str | None = None) -> Zone:
    """``timezone`` (the site's zone) when given, else the zone the page implies (:func:`infer_zone`:
    its declared language, ``og:locale``, then its host; then :func:`charset_zone`, its encoding)."""
    if timezone:
        return Zone(_zone(timezone), f"site {timezone}")
    declared = ",".join(v for v in (page.meta.language, page.meta.meta.get("og:locale")) if v)
    zone = infer_zone(declared, page.url)
    return charset_zone(page.encoding) if zone is NO_ZONE and page.encoding else zone


@lru_cache(maxsize=64)
def charset_zone(encoding: str) -> Zone:
    """The zone a national multi-byte encoding implies (``date_data.CHARSET_ZONES``): a page written in
    GBK is a mainland Chinese one; ``NO_ZONE`` for UTF-8 and the rest.

    >>> charset_zone("gb18030").label, charset_zone("euc-jp").label, charset_zone("utf-8") == NO_ZONE
    ('charset gb18030: Asia/Shanghai', 'charset euc_jp: Asia/Tokyo', True)
    """
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        return NO_ZONE
    zone = CHARSET_ZONES.get(name)
    return Zone(_zone(zone), f"charset {name}: {zone}") if zone else NO_ZONE


@dataclass(frozen=True, slots=True)
class FoundTime(Found):
    """A time field: ``value`` (``2024-09-03``, ``2024-09-03T04:03:19`` or with an offset), the rule
    that found it (``source``) and where its offset came from (``zone``; None when it has none)."""

    zone: str | None = None


def render(stamp: Stamp, zone: Zone) -> tuple[str, str | None]:
    """``stamp`` as ISO 8601 at its precision, and where its offset came from.

    A date alone stays a date; an offset written on the page is kept; an instant (a Unix time, a relative
    form) is written in the page's zone when known; a wall-clock time without an offset takes the page's
    zone when known and stays naive otherwise (no zone is invented).
    """
    when = stamp.when
    if not stamp.has_time:
        return when.date().isoformat(), None
    if when.tzinfo is not None:
        own = stamp.offset_from == "page" and when.utcoffset() != timedelta(0)
        if own or zone.tz is None:
            return when.isoformat(timespec="seconds"), stamp.offset_from
        return when.astimezone(zone.tz).isoformat(timespec="seconds"), zone.label
    if zone.tz is None:
        return when.isoformat(timespec="seconds"), None
    return when.replace(tzinfo=zone.tz).isoformat(timespec="seconds"), zone.label


class _Parser:
    """:func:`parse_stamp` with the page's settings, each distinct value parsed once per page."""

    __slots__ = ("reference", "month_first", "languages", "cache")

    def __init__(self, reference: datetime | None, month_first: bool, languages: list[str] | None) -> None:
        self.reference = reference
        self.month_first = month_first
        self.languages = languages
        self.cache: dict[tuple[str, bool], Stamp | None] = {}

    def __call__(self, value: str, slow: bool = True) -> Stamp | None:
        key = (value, slow)
        if key not in self.cache:
            self.cache[key] = parse_stamp(
                value, reference=self.reference, month_first=self.month_first, languages=self.languages,
                slow=slow,
            )
        return self.cache[key]


@dataclass(frozen=True, slots=True)
class TimeContext:
    """What the time chains of one page share: its zone, the reference time in that zone, and a parser
    that reads each distinct value once (:func:`time_context`)."""

    zone: Zone
    reference: datetime | None
    parse: _Parser


def time_context(
    page: Page, *, reference: datetime | None = None, timezone: str | None = None
) -> TimeContext:
    """The :class:`TimeContext` of ``page``: built once, handed to :func:`find_published` and
    :func:`find_modified`."""
    zone = page_zone(page, timezone)
    if reference is not None and reference.tzinfo is not None and zone.tz is not None:
        reference = reference.astimezone(zone.tz)
    declared = (page.meta.language or "").strip().lower()
    month_first = declared.startswith("en-us")
    primary = _SUBTAG.split(declared, maxsplit=1)[0]
    return TimeContext(zone, reference, _Parser(reference, month_first, [primary] if primary else None))


def find_published(
    page: Page,
    body: BodyResult,
    *,
    reference: datetime | None = None,
    timezone: str | None = None,
    override: str | None = None,
    context: TimeContext | None = None,
) -> FoundTime:
    """The publish time of ``page`` (see the module docstring), the rule that found it and where its
    offset came from. ``override`` is the text a site's XPath found for it: parsed first (``xpath``).
    ``context`` (from :func:`time_context`) replaces ``reference`` and ``timezone``."""
    ctx = context or time_context(page, reference=reference, timezone=timezone)
    zone, reference, parse = ctx.zone, ctx.reference, ctx.parse
    url_day = _from_url(page.url, reference)
    first = _parsed_override(override, parse)
    chain = _chain(page, body, reference, parse)
    for stamp, source in itertools.chain(first, chain):
        if stamp is None:
            continue
        stamp = _prefer_offset(page, stamp, parse, zone)
        if SETTLE_BY_SHOWN_DAY and source.startswith(SETTLED_SOURCES):
            settled, source = _settle(page, body, stamp, source, ctx)
            if settled is not stamp:
                stamp = _prefer_offset(page, settled, parse, zone)
        if SHOWN_TIME and not stamp.has_time and source != "url":
            stamp, source = _with_shown_time(page, body, stamp, source, ctx)
        if url_day is not None:
            stamp, source = _check_url(stamp, source, url_day, zone, lambda: _shown_days(page, body, ctx))
        value, offset_from = render(stamp, zone)
        return FoundTime(value, source, offset_from)
    return FoundTime()


def find_modified(
    page: Page,
    body: BodyResult | None = None,
    *,
    reference: datetime | None = None,
    timezone: str | None = None,
    override: str | None = None,
    context: TimeContext | None = None,
) -> FoundTime:
    """The last-modified time the page gives (meta, JSON-LD ``dateModified``, ``<time>`` marked
    modified or updated; then, given the ``body``, a date after an update label, "Updated" or
    "更新时间", under the heading or at the start of the text: ``text-updated``), like
    :func:`find_published`."""
    ctx = context or time_context(page, reference=reference, timezone=timezone)
    zone, parse = ctx.zone, ctx.parse
    rules = itertools.chain(
        _parsed_override(override, parse),
        _from_meta(page, MODIFIED_META_KEYS, "meta", parse),
        (_from_json_ld(page, ("dateModified",), parse),),
        (_from_arc(page, "modified", parse),),
        (_from_modified_times(page, parse),),
        _from_updated_text(page, body, ctx) if body is not None else (),
        (_from_latest_entry(page, body, parse),) if body is not None else (),
    )
    for stamp, source in rules:
        if stamp is not None:
            preferred = _prefer_offset(page, stamp, parse, zone)
            if preferred is not stamp and stamp.has_time and stamp.when.tzinfo is None:
                # a change's own time of day, in the offset of the publish value beside it (that value
                # dates the publication, not the change: "Actualizado el 26 ... a las 9:05" became 12:47)
                offset = preferred.when.tzinfo
                preferred = Stamp(stamp.when.replace(tzinfo=offset), True, preferred.offset_from)
            value, offset_from = render(preferred, zone)
            return FoundTime(value, source, offset_from)
    return FoundTime()


def _parsed_override(override: str | None, parse: _Parser) -> Iterator[tuple[Stamp | None, str]]:
    if override:
        yield parse(override), "xpath"


def _prefer_offset(page: Page, stamp: Stamp, parse: _Parser, zone: Zone) -> Stamp:
    """An offset on the page beats a value without one: a naive time or a date alone gives way to the
    page's first structured publish value with an offset on the same day (a date alone) or within a
    day of it; a UTC time gives way to the same instant written with the site's own offset
    (``22:04Z`` in JSON-LD, ``00:04+02:00`` in a meta tag), so the day is the site's, or to the same
    wall clock with a non-zero offset in a publish meta or JSON-LD (``15:59Z`` in a meta tag,
    ``15:59:30+02:00`` in JSON-LD: the local time was labelled UTC; two fundus pages). Not from any
    ``<time>``: golem.de's says ``14:26:01+02:00`` where JSON-LD's right ``14:26:01Z`` shows 16:26."""
    when = stamp.when
    if when.tzinfo is not None:
        if when.utcoffset() != timedelta(0):
            return stamp
        for other in _offset_values(page, parse, everywhere=True):  # the same instant
            if other.when.utcoffset() != timedelta(0) and abs((other.when - when).total_seconds()) <= 60:
                return other
        wall = when.replace(tzinfo=None)
        for other in _offset_values(page, parse, everywhere=False):  # the same wall clock, published
            if other.when.utcoffset() != timedelta(0):
                if abs((other.when.replace(tzinfo=None) - wall).total_seconds()) <= 60:
                    return other
        return stamp
    for other in _offset_values(page, parse, everywhere=False):
        local = other.when.replace(tzinfo=None)
        if not stamp.has_time:
            if local.date() == when.date():
                return other
        elif abs((local.date() - when.date()).days) <= 1:
            return other
    return stamp


def _settle(page: Page, body: BodyResult, stamp: Stamp, source: str, ctx: TimeContext) -> tuple[Stamp, str]:
    """A publish value from the page's metadata checked against the dates the page shows.

    When the structured publish values disagree on the day (in the page's zone; the same instant
    written with two offsets agrees) and the page shows, under its heading or at the start of its text,
    the day of another precise one but not this one's, that one wins: an epoch meta a day before
    JSON-LD's time (pagina12), a ``datepublished`` date a day before JSON-LD's time (tagblatt), an
    ``itemprop`` <time> the evening before the day a press release shows and ``dcterms.date`` gives
    (drk.de). The generic date metas take part, but not one holding the page's modification time (that
    would give a page's last edit as its publish time: natgeo's ``date`` meta).
    A date alone does not win this way: it is often the last edit's day (Madame Figaro shows its edit
    day near the title and gives it as ``datepublished``). On the same day, a time of day the page shows
    that matches another precise value (within a minute), while none is within ``SHOWN_TIME_SLACK`` of
    this one, makes that value win (``SETTLE_BY_SHOWN_TIME``).
    """
    zone = ctx.zone
    values = _structured_values(page, ctx.parse)
    if SETTLE_WITH_WEAK_METAS:
        values += _weak_values(page, ctx.parse)
    own = _wall(stamp.when, zone)
    far = [(s, src) for s, src in values if s.has_time and not _agrees(s, stamp, zone)]
    later = []  # the same day, hours apart
    if SETTLE_BY_SHOWN_TIME and stamp.has_time:
        later = [
            (s, src) for s, src in values
            if s.has_time and _agrees(s, stamp, zone) and abs(_wall(s.when, zone) - own) > SHOWN_TIME_SLACK
        ]  # fmt: skip
    if far or later:
        modified = _modified_values(page, ctx.parse)
        far = [(s, src) for s, src in far if not any(_same_instant(s, m) for m in modified)]
        later = [(s, src) for s, src in later if not any(_same_instant(s, m) for m in modified)]
    if not far and not later:
        return stamp, source
    if far and stamp.has_time and any(_same_instant(stamp, m) for m in modified):
        # this value is the last edit's time (a live blog's meta, refreshed on every update): an earlier
        # publish time more of the page's publish values give wins
        votes = sum(1 for s, _ in values if _same_instant(s, stamp))
        for other, src in far:
            if _wall(other.when, zone) < own and sum(1 for s, _ in values if _same_instant(s, other)) > votes:
                return other, src
    hits = _shown_hits(page, body, ctx)
    shown = {hit.when.date() for hit in hits}
    if far and shown and _day(stamp, zone) not in shown:
        for other, src in far:
            if _day(other, zone) in shown:
                return other, src
    if later:
        clocks = [_wall(hit.when, zone) for hit in hits if hit.has_time and not hit.relative]
        if clocks and not any(abs(own - c) <= SHOWN_TIME_SLACK for c in clocks):
            for other, src in later:
                wall = _wall(other.when, zone)
                if any(abs(wall - c) <= timedelta(minutes=1) for c in clocks):
                    return other, src
    return stamp, source


def _wall(when: datetime, zone: Zone) -> datetime:
    """The wall-clock time of ``when`` in the page's zone (as written when the zone is unknown), naive."""
    if when.tzinfo is not None and zone.tz is not None:
        when = when.astimezone(zone.tz)
    return when.replace(tzinfo=None)


def _weak_values(page: Page, parse: _Parser) -> list[tuple[Stamp, str]]:
    """The generic date metas (``WEAK_META_KEYS``) the cheap parsers read."""
    meta = page.meta.meta
    out: list[tuple[Stamp, str]] = []
    for key in WEAK_META_KEYS:
        value = meta.get(key)
        stamp = parse(value, slow=False) if value else None
        if stamp is not None:
            out.append((stamp, f"meta:{key}"))
    return out


def _modified_values(page: Page, parse: _Parser) -> list[Stamp]:
    """The page's modification times (modified metas, JSON-LD ``dateModified``) that carry a time."""
    meta = page.meta.meta
    values = [meta[k] for k in MODIFIED_META_KEYS if k in meta]
    values += [o["dateModified"] for o in page.meta.json_ld if "dateModified" in o]
    out = []
    for value in values:
        if isinstance(value, str) and value:
            stamp = parse(value, slow=False)
            if stamp is not None and stamp.has_time:
                out.append(stamp)
    return out


def _same_instant(a: Stamp, b: Stamp) -> bool:
    """Both times within a minute: as instants when both carry an offset, else as written."""
    x, y = a.when, b.when
    if (x.tzinfo is None) != (y.tzinfo is None):
        x, y = x.replace(tzinfo=None), y.replace(tzinfo=None)
    return abs((x - y).total_seconds()) <= 60


def _day(stamp: Stamp, zone: Zone) -> date:
    """The day of ``stamp`` in the page's zone (as written when the zone is unknown)."""
    when = stamp.when
    if when.tzinfo is not None and zone.tz is not None:
        when = when.astimezone(zone.tz)
    return when.date()


def _agrees(a: Stamp, b: Stamp, zone: Zone) -> bool:
    """The same day in the page's zone, or the same instant (both with an offset, within a minute)."""
    if a.has_time and b.has_time and a.when.tzinfo is not None and b.when.tzinfo is not None:
        if abs((a.when - b.when).total_seconds()) <= 60:
            return True
    return _day(a, zone) == _day(b, zone)


def _structured_values(page: Page, parse: _Parser) -> list[tuple[Stamp, str]]:
    """The page's structured publish values: publish metas, article JSON-LD, ``itemprop`` times (read by
    the cheap parsers only: values the chain did not reach are not worth dateparser's time)."""
    out: list[tuple[Stamp, str]] = []
    meta = page.meta.meta
    for key in PUBLISHED_META_KEYS:
        value = meta.get(key)
        stamp = parse(value, slow=False) if value else None
        if stamp is not None:
            out.append((stamp, f"meta:{key}"))
    for obj in page.meta.json_ld:
        value = obj.get("datePublished")
        if isinstance(value, str) and value and _is_article(obj):
            stamp = parse(value, slow=False)
            if stamp is not None:
                out.append((stamp, "json-ld:datePublished"))
    for value, where in page.meta.times:
        if where == "itemprop":
            stamp = parse(value, slow=False)
            if stamp is not None:
                out.append((stamp, "time-element"))
    return out


def _shown_days(page: Page, body: BodyResult, ctx: TimeContext) -> set[date]:
    """The days of the dates the page shows under its heading and at the start of its main text."""
    return {hit.when.date() for hit in _shown_hits(page, body, ctx)}


def _with_shown_time(page: Page, body: BodyResult, stamp: Stamp, source: str, ctx: TimeContext) -> tuple[
    Stamp, str
]:
    """A date alone with the time of day the page shows for that day under its heading or at the start of
    its text (``<meta name="publishdate" content="2022-02-13">`` and "2022-02-13 07:48" under the title):
    the precision the page gives is kept."""
    for hit in _shown_hits(page, body, ctx):
        if hit.has_time and not hit.relative and hit.when.date() == stamp.when.date():
            return stamp_of(hit), f"{source}+text-near-title"
    return stamp, source


def _shown_hits(page: Page, body: BodyResult, ctx: TimeContext) -> list[DateHit]:
    """The dates the page shows under its heading and at the start of its main text (none after an
    "updated" label)."""
    start = body.first if body.first is not None else body.node
    if start is not None and start not in page.stats.index:
        start = None
    heading = _heading(page, start, title_match=False)  # the <title> match costs ms on old portals
    texts = []
    if heading is not None:
        texts.append(_under_heading(page, heading))
    if start is not None:
        texts.append(_above_start(page, start))
    return [
        hit for text in texts for hit in _near_dates(page, text, ctx.reference, ctx.parse.month_first)
        if hit.label >= 0
    ]  # fmt: skip


def _offset_values(page: Page, parse: _Parser, everywhere: bool) -> Iterator[Stamp]:
    """Structured publish values of the page that carry their own offset, strongest first;
    ``everywhere`` adds every meta whose key names a date or time (for the UTC twin)."""
    for value in shared(page, ("offset_candidates", everywhere), _offset_candidates, page, everywhere):
        if isinstance(value, str) and len(value) <= 40:
            other = parse(value, slow=False)
            if other is not None and other.has_time and other.offset_from == "page":
                yield other


def _offset_candidates(page: Page, everywhere: bool) -> tuple[object, ...]:
    """The values :func:`_offset_values` reads, in its order (gathered once per run of the stage: each
    time found is checked against them)."""
    meta = page.meta.meta
    values = [meta[k] for k in PUBLISHED_META_KEYS if k in meta]
    values += [o[k] for o in _ranked_json_ld(page) for k in ("datePublished", "dateCreated") if k in o]
    values += [v for v, where in page.meta.times if where == "itemprop" or everywhere]
    if everywhere:
        values += [v for k, v in meta.items() if "date" in k or "time" in k]
    return tuple(values)


def _ranked_json_ld(page: Page) -> list[dict[str, Any]]:
    """The page's JSON-LD objects, articles first (once per run of the stage; not to be changed)."""
    return shared(page, "ranked_json_ld", _articles_first, page.meta.json_ld)


def _articles_first(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(objects, key=lambda o: not _is_article(o))


def _check_url(
    stamp: Stamp, source: str, url_day: datetime, zone: Zone, shown: Callable[[], set[date]] | None = None
) -> tuple[Stamp, str]:
    """A date in the URL against ``stamp`` (found by rule ``source``), days compared in the page's zone.

    Days that agree keep the time (written in the page's zone when that is what makes them agree). The
    URL's day wins when ``stamp`` is in UTC and a day off (a local time converted to UTC: the URL keeps
    the site's own day), or comes from a rule weaker than the page's structured metadata. Measured on
    htmldate and trafilatura: this fixed 5 pages and broke none; letting the URL overrule every meta
    date as well broke 3 pages. A URL's day over ``URL_REDATED_DAYS`` before a structured value wins over
    it: the page was re-dated. A structured value whose day the page shows under its heading (``shown``,
    called only then) keeps it: 16:34 UTC on June 30 shown as "June 30" on a Sydney site whose URL says
    July 1 (fundus).
    """
    when = stamp.when
    local = when.astimezone(zone.tz) if when.tzinfo is not None and zone.tz is not None else when
    days = abs((local.date() - url_day.date()).days)
    if days == 0:
        if local.date() != when.date():
            return Stamp(local, stamp.has_time, "instant"), source
        return stamp, source
    structured = source.startswith(("meta:", "json-ld:", "arc:", "xpath"))
    url_wins = (days == 1 and when.utcoffset() == timedelta(0)) or not structured
    redated = URL_REDATED_DAYS is not None and (local.date() - url_day.date()).days > URL_REDATED_DAYS
    if redated and source.startswith(("meta:", "json-ld:", "arc:")):  # (a site's own XPath is not redated)
        return Stamp(url_day, False), "url"
    if url_wins and structured and URL_YIELDS_TO_SHOWN_DAY and shown is not None:
        days_shown = shown()
        url_wins = local.date() not in days_shown and when.date() not in days_shown
    return (Stamp(url_day, False), "url") if url_wins else (stamp, source)


def _chain(
    page: Page, body: BodyResult, reference: datetime | None, parse: _Parser
) -> Iterator[tuple[Stamp | None, str]]:
    yield from _from_meta(page, PUBLISHED_META_KEYS, "meta", parse)
    yield _from_json_ld(page, JSON_LD_KEYS, parse)
    yield _from_arc(page, "published", parse)
    start = body.first if body.first is not None else body.node
    if start is not None and start not in page.stats.index:
        start = None
    heading = _heading(page, start)
    yield _from_times(page, heading, start, parse)
    yield _from_title(page, reference, parse.month_first), "title"
    yield from _from_text_near(page, body, heading, start, reference, parse.month_first)
    yield from _from_meta(page, WEAK_META_KEYS, "meta", parse)
    url = _from_url(page.url, reference)
    yield (Stamp(url, False) if url is not None else None), "url"
    yield _from_script(page.html, reference), "script"
    yield _from_page_text(page, heading, reference, parse.month_first), "page-text"
    yield from _from_meta(page, MODIFIED_META_KEYS, "meta-modified", parse)
    yield _from_json_ld(page, ("dateModified",), parse)


def _from_meta(
    page: Page, keys: tuple[str, ...], prefix: str, parse: _Parser
) -> Iterator[tuple[Stamp | None, str]]:
    meta = page.meta.meta
    for key in keys:
        value = meta.get(key)
        if value:
            yield parse(value), f"{prefix}:{key}"


def _from_json_ld(page: Page, keys: tuple[str, ...], parse: _Parser) -> tuple[Stamp | None, str]:
    objects = page.meta.json_ld
    if not objects:
        return None, "json-ld"
    ranked = _ranked_json_ld(page)
    for key in keys:
        for obj in ranked:
            value = obj.get(key)
            if isinstance(value, str) and value:
                stamp = parse(value)
                if stamp is not None:
                    return stamp, f"json-ld:{key}"
    return None, "json-ld"


def _from_arc(page: Page, field: str, parse: _Parser) -> tuple[Stamp | None, str]:
    """A date of Arc XP's story record (``metadata.arc``): ``published`` or ``modified``."""
    story = page.meta.arc
    dated = getattr(story, field) if story is not None else None
    if dated is None:
        return None, "arc"
    return parse(dated[1]), f"arc:{dated[0]}"


def _is_article(obj: dict[str, Any]) -> bool:
    kind = obj.get("@type")
    kinds = kind if isinstance(kind, list) else [kind]
    return any(isinstance(k, str) and k in JSON_LD_ARTICLE_TYPES for k in kinds)


def _from_times(
    page: Page, heading: Element | None, start: Element | None, parse: _Parser
) -> tuple[Stamp | None, str]:
    """``itemprop=datePublished`` first; then the first ``<time>`` between the heading and the end of the
    main text (a ``<time>`` elsewhere dates a comment or a teaser); without those anchors, the first."""
    for value, where in page.meta.times:
        if where == "itemprop":
            stamp = parse(value)
            if stamp is not None:
                return stamp, "time-element"
    found = _article_times(page, heading, start, parse)
    if found is None:
        return None, "time-element"
    el, first, last, feed = found
    if feed >= LIVE_FEED_TIMES:
        return last, "time-element:first-entry"
    return _shown_day(el, first, parse.month_first), "time-element"


def _article_times(
    page: Page, heading: Element | None, start: Element | None, parse: _Parser
) -> tuple[Element, Stamp, Stamp, int] | None:
    """The first ``<time>`` between the heading and the end of the main text, its value, and the value of
    the last of the run of ``<time>``s from it on, each earlier than the one before, and the run's length
    (a live blog's entries, newest first); None without one."""
    if not page.meta.times:
        return None
    lo, hi = _article_span(page, heading, start)
    index = page.stats.index
    # (a page with fewer dated <time>s than a feed's is not walked past its first)
    feed_possible = len(page.meta.times) >= LIVE_FEED_TIMES
    first: tuple[Element, Stamp] | None = None
    last: Stamp | None = None
    feed = 0
    for el in body_tagged(page, "time"):
        i = index.get(el, -1)
        if i >= hi and first is not None:
            break
        if not lo <= i < hi or _MODIFIED_CLASS.search(el.get("class", "")) or _says_updated(el):
            continue
        if EMBED_TAGS and any(True for _ in el.iterancestors(*EMBED_TAGS)):  # a quoted post dates itself
            continue
        value = el.get("datetime") or el.get("pubdate") or ""
        stamp = parse(value) if value else None
        if stamp is None:
            continue
        if first is None:
            first, last, feed = (el, stamp), stamp, 1
            if not feed_possible:
                break
            continue
        if last is None or not _earlier(stamp, last):
            break
        last, feed = stamp, feed + 1
    if first is None or last is None:
        return None
    return first[0], first[1], last, feed


def _from_latest_entry(page: Page, body: BodyResult, parse: _Parser) -> tuple[Stamp | None, str]:
    """A live blog's latest entry: the first of the run of ``<time>``s that dates it by its earliest
    (:func:`_from_times`), the page's last change when nothing else gives one."""
    if len(page.meta.times) < LIVE_FEED_TIMES:
        return None, "time-element:latest-entry"
    start = body.first if body.first is not None else body.node
    if start is not None and start not in page.stats.index:
        start = None
    found = _article_times(page, _heading(page, start), start, parse)
    if found is None or found[3] < LIVE_FEED_TIMES:
        return None, "time-element:latest-entry"
    return found[1], "time-element:latest-entry"


#: <time>s in a row, each earlier than the one before, that are a live blog's entries, newest first: the
#: page was published at the earliest (the first <time> dates the latest entry)
LIVE_FEED_TIMES = 3


def _earlier(a: Stamp, b: Stamp) -> bool:
    """True when ``a`` is a time of day strictly before ``b`` (both with an offset, or both without)."""
    if not (a.has_time and b.has_time) or (a.when.tzinfo is None) != (b.when.tzinfo is None):
        return False
    return a.when < b.when


def _shown_day(el: Element, stamp: Stamp, month_first: bool) -> Stamp:
    """The date a ``<time>`` shows when it names a day more than a day away from its ``datetime``
    (``<time datetime="2019-07-03T10:18:46Z">Publié le 29 juin 2019</time>``: the attribute holds the last
    edit; within a day the two may differ only by the zone), else ``stamp``."""
    text = subtree_text(el)
    if len(text) > SHOWN_DATE_CHARS or not _ANY_YEAR.search(text):
        return stamp
    hits = find_dates(text, month_first=month_first, relative=False, limit=1)
    if hits and abs((hits[0].when.date() - stamp.when.date()).days) > 1:
        return stamp_of(hits[0])
    return stamp


def _from_modified_times(page: Page, parse: _Parser) -> tuple[Stamp | None, str]:
    """A ``<time>`` marked as the modification time (``itemprop=dateModified``, class updated/modified, its
    text opening with an update label). The tree is walked only when the page has a ``<time datetime>`` at
    all (``page.meta.times``, collected with the other metadata): most pages have none, and the walk
    visits every element."""
    if not page.meta.times:
        return None, "time-element"
    for el in page_tagged(page, "time"):
        marked = el.get("itemprop") == "dateModified" or _MODIFIED_CLASS.search(el.get("class", ""))
        if marked or _says_updated(el):
            value = el.get("datetime") or ""
            stamp = parse(value) if value else None
            if stamp is not None:
                return stamp, "time-element"
    return None, "time-element"


_MODIFIED_CLASS = lazy_compile(r"updated|modified", re.IGNORECASE)
#: an update label opening a <time>'s own text ("<time datetime=...>Aktualisiert am 25.11.2026</time>")
_UPDATED_OPENING = lazy_compile(
    "|".join(re.escape(w) for w in sorted(UPDATE_LABELS, key=len, reverse=True)), re.IGNORECASE
)


def _says_updated(el: Element) -> bool:
    """Whether a ``<time>``'s text opens with an update label: it dates the last change, not the
    publication (FAZ's only <time> says "Aktualisiert am ...")."""
    text = (el.text or "").lstrip()
    return bool(text) and _UPDATED_OPENING.match(text) is not None
#: any update label: a text without one is not searched for dates by :func:`_from_updated_text`
_UPDATE_WORD = lazy_compile("|".join(re.escape(w) for w in UPDATE_LABELS), re.IGNORECASE)
_ANY_YEAR = lazy_compile(r"(?:19|20)\d\d")
#: an update label and a time of day alone just after a dated time: the page was changed later that day
_UPDATE_WORDS = "|".join(re.escape(w) for w in UPDATE_LABELS)
_UPDATED_TIME = lazy_compile(
    rf"[\s,;(|·•\u2013\u2014-]*(?:{_UPDATE_WORDS})\s*:?\s*(?:à|at|um|alle|às|a las)?\s*"
    r"(?P<H>[01]?\d|2[0-3])\s*[:h.]\s*(?P<M>[0-5]\d)(?!\d)(?:\s*(?P<pm>[Pp]\.?[Mm]\.?))?",
    re.IGNORECASE,
)


def _article_span(page: Page, heading: Element | None, start: Element | None) -> tuple[int, int]:
    """Pre-order index range from the heading (or the main text) to the end of the main text."""
    stats = page.stats
    index = stats.index
    if start is None:
        return (index.get(heading, 0) if heading is not None else 0), len(stats)
    s = index[start]
    lo = index.get(heading, s) if heading is not None else s
    return min(lo, s), stats.subtree_end(s)


def _from_title(page: Page, reference: datetime | None, month_first: bool) -> Stamp | None:
    """A date that is a part of the page's ``<title>`` (or ``og:title``) of its own, set off by a separator
    (``Hafenstreik | Wirtschaft | Kurier | 14.03.2023``, ``... : 15.05.2023, 09.12 Uhr``): the site states
    the page's date there. A date inside a part (``Lagebericht vom 03.05.2021``, ``Neustadt, 7.6.2009 |
    Turnverein``) may name what the page is about, and is not read."""
    for title in (page.meta.title, page.meta.meta.get("og:title")):
        if not title or not _ANY_YEAR.search(title):
            continue
        parts = _TITLE_SEPARATOR.split(title)
        if len(parts) < 2:
            continue
        for part in parts:
            if not _ANY_YEAR.search(part):
                continue
            hits = find_dates(part, reference=reference, month_first=month_first, relative=False, limit=1)
            if hits and _TITLE_DATE_REST.fullmatch(part[: hits[0].start]) and _TITLE_DATE_REST.fullmatch(
                part[hits[0].end :]
            ):
                return stamp_of(hits[0])
    return None


#: what separates the parts of a ``<title>``: a bar, a dash or a colon between spaces, a full-width bar
_TITLE_SEPARATOR = lazy_compile(r"\s+[|\u2013\u2014:-]\s+|\s*[|\uff5c]\s*")
#: what may stand beside a date that is a title part of its own: punctuation, a time of day the date
#: patterns leave (``, 11.41``) and one short word (``Uhr``)
_TITLE_DATE_REST = lazy_compile(r"[\W_]*(?:[0-2]?\d[:.][0-5]\d\s*)?(?:[^\W\d_]{1,3}\.?)?[\W_]*")


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


def _under_heading(page: Page, heading: Element) -> str:
    """The text right under the page's heading that the time chains read (once per run of the stage)."""
    return shared(
        page, ("under_heading", heading), _text_after, heading, NEAR_START_CHARS, False, PROSE_CHARS
    )


def _above_start(page: Page, start: Element) -> str:
    """The text right above the start of the main text that the time chains read (once per run)."""
    return shared(page, ("above_start", start), _text_before, start, NEAR_START_CHARS, PROSE_CHARS)


def _near_dates(page: Page, text: str, reference: datetime | None, month_first: bool) -> list[DateHit]:
    """:func:`find_dates` of a text by the heading or the text's start (once per run of the stage: the
    publish and modification chains read the same texts). The list is not to be changed."""
    return shared(page, ("near_dates", text, reference, month_first), _dates_of, text, reference, month_first)


def _dates_of(text: str, reference: datetime | None, month_first: bool) -> list[DateHit]:
    return find_dates(text, reference=reference, month_first=month_first)


def _heading(page: Page, start: Element | None, title_match: bool = True) -> Element | None:
    """The <h1> nearest above ``start`` (or inside it), the first <h1> when ``start`` is unknown; on pages
    without <h1>, with ``title_match``, the element whose whole text opens the <title> (old portals set
    the headline in a styled <td> or <font>)."""
    h1s = body_tagged(page, "h1")
    if not h1s:
        return shared(page, ("title_element", start), _title_element, page, start) if title_match else None
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
            text = "".join(subtree_text(el).split())
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
) -> Iterator[tuple[Stamp | None, str]]:

    def hits(text: str) -> list[DateHit]:
        return _near_dates(page, text, reference, month_first) if text else []

    if heading is not None:
        hit = _pick(hits(_under_heading(page, heading)))
        yield (stamp_of(hit) if hit else None), "text-near-title"
    if start is not None:
        hit = _pick(hits(_above_start(page, start)), nearest_last=True)
        if hit is None:
            hit = _pick(hits(_text_after(start, NEAR_START_CHARS, include_self=True, prose=PROSE_CHARS)))
        yield (stamp_of(hit) if hit else None), "text-near-body-start"
        last = body.last if body.last is not None else start
        own = " ".join(last.itertext())[-NEAR_END_CHARS:]
        after = _text_after(last, NEAR_END_CHARS, include_self=False, prose=PROSE_CHARS)
        hit = _pick(hits(own + " " + after))
        yield (stamp_of(hit) if hit else None), "text-near-body-end"
    elif heading is None:
        hit = _pick(hits(_text_after(page.body, NEAR_START_CHARS, include_self=True, prose=PROSE_CHARS)))
        yield (stamp_of(hit) if hit else None), "text-near-body-start"


def _from_updated_text(page: Page, body: BodyResult, ctx: TimeContext) -> Iterator[tuple[Stamp | None, str]]:
    """A date after an update label ("Updated", "更新时间") in the text just after the heading (on a page
    without one, at the start of the main text): where a page states when it was last changed."""
    start = body.first if body.first is not None else body.node
    if start is not None and start not in page.stats.index:
        start = None
    heading = _heading(page, start)
    if heading is not None:
        text = _under_heading(page, heading)
    elif start is not None:
        text = _text_after(start, NEAR_START_CHARS, include_self=True, prose=PROSE_CHARS)
    else:
        return
    if text and _UPDATE_WORD.search(text):
        hits = _near_dates(page, text, ctx.reference, ctx.parse.month_first)
        hit = next((h for h in hits if h.label == UPDATE_LABEL), None)
        if hit is not None:
            yield stamp_of(hit), "text-updated"
            return
        # "Publié le 25 novembre 2026 à 14h03, modifié à 15h10": the update's day is the date's
        for h in hits:
            m = _UPDATED_TIME.match(text, h.end) if h.has_time else None
            if m is not None:
                hour = int(m.group("H"))
                hour += 12 if m.group("pm") and hour < 12 else 0
                when = h.when.replace(hour=hour, minute=int(m.group("M")), second=0)
                if when > h.when:
                    yield Stamp(when, True, stamp_of(h).offset_from), "text-updated"
                return


# --- URL, script, whole page ----------------------------------------------------------------------------


def _from_url(url: str | None, reference: datetime | None) -> datetime | None:
    if not url:
        return None
    for m in _URL_DATE.finditer(url):
        if m.group("y"):
            when = make_date(int(m.group("y")), int(m.group("m")), int(m.group("d")))
        elif m.group("y2"):
            when = make_date(int(m.group("y2")), int(m.group("m2")), int(m.group("d2")))
        elif m.group("y4"):
            when = make_date(int(m.group("y4")), _URL_MONTHS[m.group("mon")], int(m.group("d4")))
        else:
            when = make_date(int(m.group("y3")), int(m.group("m3")), int(m.group("d3")))
        if when is not None and plausible(when, reference):
            return when
    return None


def _from_script(html: str, reference: datetime | None) -> Stamp | None:
    """A publish time under a known key anywhere in the raw source. Searched with ``bytes.find`` on the
    lower-cased UTF-8 source: a regular expression over a 700 kB WeChat page costs tens of milliseconds."""
    raw = html[:SCRIPT_CHARS].encode("utf-8", "ignore").lower()
    day_only: Stamp | None = None  # a date alone ("publish_time = '2025-11-25'") gives way to its instant
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
                    stamp = parse_stamp(value, reference=reference, slow=False)
                else:
                    when = datetime.fromtimestamp(int(m.group("epoch")), UTC)
                    stamp = Stamp(when, True, "instant") if plausible(when, reference) else None
                if stamp is not None:
                    if stamp.has_time and (day_only is None or _near_day(stamp, day_only)):
                        return stamp
                    if day_only is None and not stamp.has_time:
                        day_only = stamp
            i = raw.find(literal, j)
    return day_only


def _near_day(stamp: Stamp, day: Stamp) -> bool:
    """Whether a time falls on ``day`` (or next to it: an instant in UTC, the day in the site's zone)."""
    return abs((stamp.when.date() - day.when.date()).days) <= 1


def _from_page_text(
    page: Page, heading: Element | None, reference: datetime | None, month_first: bool
) -> Stamp | None:
    """The first plausible date of the page's text; but a date right after the page's own headline
    elsewhere on the page (its teaser in a list of articles) first."""
    text = etree.tostring(page.body, method="text", encoding="unicode", with_tail=False)[:PAGE_TEXT_CHARS]
    hits = find_dates(text, reference=reference, month_first=month_first, relative=False)
    headline = " ".join(subtree_text(heading).split()) if heading is not None else ""
    if TEASER_DATE and len(headline) >= TITLE_MATCH_MIN_CHARS:
        for hit in hits:
            before = " ".join(text[max(0, hit.start - len(headline) - TEASER_GAP_CHARS) : hit.start].split())
            if headline in before and hit.label >= 0:
                return stamp_of(hit)
    first = _pick(hits)
    return stamp_of(first) if first else None
