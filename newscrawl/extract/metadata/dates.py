"""Date parsing for the publish-time chain: structured values (meta, JSON-LD, ``<time>``) and dates in text.

Cheap parsers first, all compiled regular expressions: ISO 8601 and its near forms, seed 003's numeric
pattern ``\\w{4}[-./,年]\\w{1,2}[-./,月]\\w{1,2}日?`` generalised (``2010-12-15 08:30``, ``2010/12/15``,
``2010年12月15日 下午2:26``), Chinese numerals (``二〇一〇年十二月十五日``), day-first numeric dates
(``15.12.2010``, ``28.01.22``, ``26 | 01 | 2022``), month names (``Mar 3, 2021 10:00 AM EST``,
``3. März 2021``), labelled short dates (``发布时间：18-03-08``), relative forms (``3小时前``,
``昨天 08:30``, ``2 hours ago``; these and year-less dates only when a reference time is given) and
e-mail dates. In text the full patterns run only around four-digit years, so long texts stay cheap.
``dateparser`` is the last resort, on short structured values that name a day, and its answer must
contain a year written in the value (it reads ``2019 年 10 月 30 日`` as year 1 and ``2017/01`` as
January 1; the cheap parsers take the first, the guard rejects the second).

Every date is checked on the real calendar (``2019-02-30`` is rejected) and for plausibility: the year is at
least ``MIN_YEAR`` and the date at most ``FUTURE_SLACK`` after the reference (or now). Values without a
time give midnight and say so (``Stamp.has_time``); values without an offset stay naive (the caller
applies the page's time zone when it knows one).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from datetime import timezone as dt_timezone
from functools import lru_cache
from zoneinfo import ZoneInfo

from newscrawl.extract.lazyre import lazy_compile
from newscrawl.extract.metadata.date_data import (
    GENERIC_ZONES,
    MONTHS,
    OTHER_LABELS,
    PUBLISH_LABELS,
    UPDATE_LABELS,
    ZONE_ABBREVIATIONS,
)
from newscrawl.extract.metadata.date_languages import dateparser_languages

#: earliest plausible publish year (the web news era; the issue's guard against misparses)
MIN_YEAR = 1990
#: how far after the reference time a date may lie (time-zone differences), from the issue
FUTURE_SLACK = timedelta(days=1)
#: structured values longer than this are not handed to dateparser (it is slow and garbles prose)
DATEPARSER_MAX_CHARS = 40
#: characters of a structured value read (the longest real ones, "Published: Tuesday, 3 September 2024,
#: 10:00 AM EDT", are under 60; a meta holding "2024-01-01 " * 8000 cost 1.1 s read whole, issue 14)
STRUCTURED_VALUE_CHARS = 200
#: date candidates (a pattern's match around a year, a label or a relative form) one text may yield;
#: past this the search stops: the chains take the first or the labelled hits, and a page listing
#: thousands of dates must not cost time in proportion (issue 14)
MAX_DATE_CANDIDATES = 200

_FULLWIDTH = str.maketrans("０１２３４５６７８９：／－．", "0123456789:/-.")
_CN_DIGITS = {"〇": 0, "零": 0, "○": 0, "Ｏ": 0, "O": 0, "o": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4,
              "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}

# A time after a date: optional 上午/下午, H:M[:S][.fff], optional AM/PM, optional offset or zone name.
# Between the two: a space, T, a comma, a word (at, um...) or a bar, dot, dash or slash of a dateline
# ("Do 25.04.24 | 14:07 Uhr", "3 May 2024 · 10:15", "06/02/2022 - 13:48", "Nov 8, 2023 / 10:35 PM",
# "2025.03.04. 오후 6:15", "25/11/2026 alle 07:15", "25/11/2026 às 10h03").
# A dot between hour and minute only before a zone name or am/pm, the Guardian's "18.15 GMT" and
# Britain's "6.15pm" ("12.50 EUR" is a price).
_ZONE_NAMES = "|".join(sorted((*ZONE_ABBREVIATIONS, *GENERIC_ZONES), key=len, reverse=True))
_TIME = (
    r"(?:\s*(?:[T,.|·•/\u2013\u2014-]|\s|日|号|at|um|à|às|a las|alle(?:\s+ore)?)?\s*"
    r"(?:(?P<half>上午|下午|中午|晚上|凌晨|早上|傍晚|오전|오후|AM|PM)\s*)?"
    r"(?P<H>[0-2]?\d)\s*(?:[:：时時点點h시]|\.(?=[0-5]\d\s*(?:[AaPp]\.?[Mm]\.?(?![a-zA-Z])|"
    rf"(?-i:{_ZONE_NAMES})\b)))"
    r"\s*(?P<M>[0-5]\d)(?:\s*[:：分]\s*(?P<S>[0-5]\d)(?:[.,]\d+)?)?"
    r"(?:\s*(?P<ampm>[AaPp]\.?[Mm]\.?)(?![a-zA-Z]))?"
    r"(?:\s*(?:Uhr\s*)?(?P<tz>(?-i:Z|[+-]\d\d:?\d\d|[A-Z]{2,4}\b))(?:\s*[+-]\d\d:?\d\d)?)?)?"
)
_YMD = lazy_compile(
    r"(?<![\d.\-/])(?P<y>(?:19|20)\d\d)\s*(?:(?P<sep>[-./])\s*(?P<m>[01]?\d)\s*(?P=sep)\s*(?P<d>[0-3]?\d)(?!\d)"
    r"|[年년]\s*(?P<m2>[01]?\d)\s*[月월]\s*(?P<d2>[0-3]?\d)\s*[日号일]?"
    # the year apart from its month and day, a time after them: Xinhua's "2026 11/24 10:32:15" (its year,
    # day and time are spans of their own)
    r"|(?<=\s)(?P<m3>[01]?\d)\s*/\s*(?P<d3>[0-3]?\d)(?=\s+[0-2]?\d:[0-5]\d))" + _TIME
)
_YMD_COMPACT = lazy_compile(r"(?<!\d)(?P<y>(?:19|20)\d\d)(?P<m>[01]\d)(?P<d>[0-3]\d)(?!\d)")
_DMY = lazy_compile(
    r"(?<![\d.\-/])(?P<d>[0-3]?\d)\s*(?P<sep>[./|-])\s*(?P<m>[01]?\d)\s*(?P=sep)\s*(?P<y>(?:19|20)\d\d)(?![\d])"
    + _TIME
)
#: German short form with a two-digit year: 28.01.22
_DMY2 = lazy_compile(r"(?<![\d.])(?P<d>[0-3]?\d)\.(?P<m>[01]?\d)\.(?P<y>\d\d)(?![\d.])" + _TIME)
_CN_NUM = "〇零○Ｏ一二三四五六七八九"
_CN_YMD = lazy_compile(
    rf"(?P<y>[{_CN_NUM}Oo]{{4}})\s*年\s*(?P<m>[一二三四五六七八九十]{{1,2}})\s*月"
    rf"\s*(?P<d>[一二三四五六七八九十]{{1,3}})\s*[日号]"
)
_MONTH_WORDS = "|".join(sorted((re.escape(m) for m in MONTHS), key=len, reverse=True))
_MDY = lazy_compile(
    rf"(?<![\w])(?P<mon>{_MONTH_WORDS})\.?\s+(?P<d>[0-3]?\d)(?:st|nd|rd|th)?\.?,?\s+(?P<y>(?:19|20)\d\d)(?!\d)"
    + _TIME,
    re.IGNORECASE,
)
#: a clock time right before a date in words (CNN's and AP's "Updated 10:42 AM EST, Tue November 24, 2026"):
#: matched at the end of the few characters before the date (``_time_before``)
_TIME_BEFORE = lazy_compile(
    r"(?<![\d:])(?P<H>[0-2]?\d):(?P<M>[0-5]\d)(?::(?P<S>[0-5]\d))?(?P<half>)\s*(?P<ampm>[AaPp]\.?[Mm]\.?)?"
    rf"(?:\s*(?P<tz>(?-i:{_ZONE_NAMES})\b))?\s*[,|·•-]?\s*"
    r"(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*\.?,?\s*)?$",
    re.IGNORECASE,
)
#: characters before a date in words looked at for a clock time (``_TIME_BEFORE``)
TIME_BEFORE_CHARS = 32
_DMONY = lazy_compile(
    rf"(?<![\w.])(?P<d>[0-3]?\d)(?:st|nd|rd|th|er|º)?\.?\s*(?:de\s+|of\s+)?(?P<mon>{_MONTH_WORDS})\.?,?"
    rf"\s*(?:de\s+)?(?P<y>(?:19|20)\d\d)(?!\d)" + _TIME,
    re.IGNORECASE,
)
#: a short date right after a publish label: 发布时间：18-03-08 23:16 (two-digit year),
#: 发布时间：10-08 12:00 or 09月07日 10:23 (no year: read in the reference's year)
_SHORT = lazy_compile(
    r"(?:发布时间|發布時間|发表时间|发布日期|发布于|发表于|时间|時間|日期)\s*[:：]?\s*"
    r"(?:(?:(?P<y>\d\d)[-/.])?(?P<m>[01]?\d)[-/.](?P<d>[0-3]?\d)|(?P<m2>[01]?\d)\s*月\s*(?P<d2>[0-3]?\d)\s*日)"
    r"(?![\d/.-])" + _TIME
)
#: a Japanese portal's date without a year, its weekday in brackets: "11/25(水) 14:03配信" (read in the
#: reference's year)
_WEEKDAY_SHORT = lazy_compile(
    r"(?<![\d/])(?P<m>[01]?\d)/(?P<d>[0-3]?\d)\s*[(（][月火水木金土日][)）]\s*(?:(?P<H>[0-2]?\d):(?P<M>[0-5]\d))?"
)
_RELATIVE = lazy_compile(
    r"(?P<n>\d{1,3})\s*(?P<unit>秒|分钟|分鐘|小时|小時|天|周|週|个月|個月)前"
    r"|(?P<n_en>\d{1,3})\s+(?P<unit_en>second|minute|hour|day|week)s?\s+ago"
    r"|(?P<now>刚刚|剛剛|just now)"
    r"|(?P<day>今天|昨天|前天|today|yesterday)\s*(?:(?P<H>[0-2]?\d)\s*[:：]\s*(?P<M>[0-5]\d))?",
    re.IGNORECASE,
)
_UNITS = {"秒": "seconds", "second": "seconds", "分钟": "minutes", "分鐘": "minutes", "minute": "minutes",
          "小时": "hours", "小時": "hours", "hour": "hours", "天": "days", "day": "days", "周": "weeks",
          "週": "weeks", "week": "weeks", "个月": "months", "個月": "months"}
_DAYS_BACK = {"今天": 0, "today": 0, "昨天": 1, "yesterday": 1, "前天": 2}
_PM_HALVES = {"下午", "晚上", "傍晚", "오후", "PM"}


def _label_re(labels: tuple[str, ...]) -> re.Pattern[str]:
    """A pattern matched at the start of the *reversed* text before a date: what ends right before the date
    is tried once, not searched for at every position of the window. A label in Latin letters is a word of
    its own ("date" is no label at the end of "Laatste update")."""
    words = "|".join(
        re.escape(w[::-1]) + (r"(?![^\W\d_])" if w[:1].isascii() and w[:1].isalpha() else "")
        for w in sorted(labels, key=len, reverse=True)
    )
    # (possessive spaces: a window of white space tried against every label costs no backtracking)
    return lazy_compile(
        rf"\s*+[\[(（【]?\s*+,?\s*+(?:{_WEEKDAYS_REVERSED}\s*+)?[:：]?\s*+(?:{_ON_REVERSED}\s++)?(?:{words})",
        re.IGNORECASE,
    )


#: the weekday a date may open with after its label ("Last modified on Tue 24 Nov 2026", "Published:
#: Tuesday, 24 November 2026"), and the "on" before it, each reversed for :func:`_label_re`
_WEEKDAYS_REVERSED = "(?:" + "|".join(
    w[::-1]
    for w in sorted(
        "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun"
        .split(),
        key=len,
        reverse=True,
    )
) + r")(?![^\W\d_])"
_ON_REVERSED = r"(?:no|ma|el)"


_PUBLISH_LABEL = _label_re(PUBLISH_LABELS)
_OTHER_LABEL = _label_re(OTHER_LABELS)
_UPDATE_LABEL = _label_re(UPDATE_LABELS)
#: :attr:`DateHit.label` of a date after an update label
UPDATE_LABEL = -2
#: characters before a date searched for a label (the longest labels: "actualizado el ", "zuletzt
#: aktualisiert am ")
LABEL_REACH = 36


@dataclass(frozen=True, slots=True)
class DateHit:
    """A date found in text: the value, where it sits, and what the words just before it say.

    ``label`` is 1 after a publish label ("发布时间：", "Published"), -2 after an update label ("Updated",
    "更新时间"), -1 after another label ("©"), 0 otherwise. ``has_time`` is true when the text gave a time
    of day.
    """

    when: datetime
    start: int
    end: int
    has_time: bool
    label: int = 0
    #: a relative form (3小时前, 刚刚): an instant reckoned from the reference time, in its zone
    relative: bool = False


@dataclass(frozen=True, slots=True)
class Stamp:
    """A parsed date value: ``when`` (naive unless the value says its offset), whether the value gave a
    time of day (``has_time``; without one ``when`` is midnight and only its day means anything), and
    where ``when``'s offset came from: ``"page"`` (written in the value), ``"instant"`` (a Unix time:
    UTC), ``"reference"`` (reckoned from the reference time), None (naive).
    """

    when: datetime
    has_time: bool
    offset_from: str | None = None


def plausible(when: datetime, reference: datetime | None = None) -> bool:
    """True when ``when`` lies between ``MIN_YEAR`` and ``FUTURE_SLACK`` after the reference (or now)."""
    if when.year < MIN_YEAR:
        return False
    ref = reference or datetime.now(UTC)
    return when.date() <= (ref.date() + FUTURE_SLACK)


def make_date(y: int, m: int, d: int, hh: int = 0, mm: int = 0, ss: int = 0) -> datetime | None:
    try:
        return datetime(y, m, d, hh, mm, ss)
    except ValueError:
        return None


def _cn_number(text: str) -> int:
    """A Chinese numeral of at most two digits' worth: 十二 -> 12, 二十一 -> 21, 三十 -> 30, 九 -> 9."""
    if "十" not in text:
        return _CN_DIGITS.get(text, -1) if len(text) == 1 else -1
    tens, _, units = text.partition("十")
    t = _CN_DIGITS.get(tens, -1) if tens else 1
    u = _CN_DIGITS.get(units, -1) if units else 0
    return -1 if t < 0 or u < 0 else t * 10 + u


def _offset(tz: str | None) -> dt_timezone | None:
    if not tz:
        return None
    if tz[0] in "+-":
        digits = tz[1:].replace(":", "")
        minutes = int(digits[:2]) * 60 + int(digits[2:4])
        if minutes > 14 * 60:
            return None
        return dt_timezone(timedelta(minutes=-minutes if tz[0] == "-" else minutes))
    if tz == "Z":
        return UTC
    minutes_or_none = ZONE_ABBREVIATIONS.get(tz)
    return None if minutes_or_none is None else dt_timezone(timedelta(minutes=minutes_or_none))


def _zoned(when: datetime, tz: str | None) -> datetime:
    """``when`` in the zone a page wrote after it: an offset, an abbreviation (``CEST``), or a North
    American zone name whose offset depends on the day (``ET``: -05:00 in winter, -04:00 in summer);
    naive when the zone is unknown or ambiguous."""
    offset = _offset(tz)
    if offset is not None:
        return when.replace(tzinfo=offset)
    name = GENERIC_ZONES.get(tz or "")
    if name is None:
        return when
    utcoffset = when.replace(tzinfo=ZoneInfo(name)).utcoffset()
    return when if utcoffset is None else when.replace(tzinfo=dt_timezone(utcoffset))


def _with_time(m: re.Match[str], y: int, mo: int, d: int) -> tuple[datetime | None, bool]:
    hh = m.group("H")
    if hh is None:
        return make_date(y, mo, d), False
    h = int(hh)
    half = m.group("half")
    ampm = (m.group("ampm") or "").replace(".", "").upper()
    if (half in _PM_HALVES or ampm == "PM") and h < 12:
        h += 12
    elif (half in ("凌晨", "오전", "AM") or ampm == "AM") and h == 12:
        h = 0
    when = make_date(y, mo, d, h, int(m.group("M")), int(m.group("S") or 0))
    if when is None:  # a bad time (25:61) does not spoil a good date
        return make_date(y, mo, d), False
    return _zoned(when, m.group("tz")), True


def _time_before(
    text: str, start: int, y: int, mo: int, d: int, day: datetime
) -> tuple[int, datetime, bool]:
    """A date in words at ``start`` with the clock time written before it ("10:42 AM EST, Tue November 24,
    2026"): where the whole stamp starts, its value and whether it has a time (the date alone else).

    >>> day = datetime(2026, 11, 24)
    >>> start, when, has_time = _time_before("Updated 10:42 AM EST, Tue ", 26, 2026, 11, 24, day)
    >>> start, when.isoformat(), has_time
    (8, '2026-11-24T10:42:00-05:00', True)
    """
    lo = max(0, start - TIME_BEFORE_CHARS)
    m = _TIME_BEFORE.search(text, lo, start)
    if m is None:
        return start, day, False
    when, has_time = _with_time(m, y, mo, d)
    return (m.start(), when, True) if has_time and when is not None else (start, day, False)


def _relative(m: re.Match[str], reference: datetime) -> tuple[datetime | None, bool]:
    unit = m.group("unit") or (m.group("unit_en") or "").lower()
    if unit:
        n = int(m.group("n") or m.group("n_en"))
        name = _UNITS[unit]
        delta = timedelta(days=30 * n) if name == "months" else timedelta(**{name: n})
        return reference - delta, name in ("seconds", "minutes", "hours")
    if m.group("now"):
        return reference, True
    # 昨天 09:27 names a wall-clock time, not an instant: naive, read later in the page's zone
    day = (reference - timedelta(days=_DAYS_BACK[m.group("day").lower()])).date()
    if m.group("H") is None:
        return datetime(day.year, day.month, day.day), False
    when = make_date(day.year, day.month, day.day, int(m.group("H")), int(m.group("M")))
    return when, when is not None


def _short(m: re.Match[str], reference: datetime | None) -> tuple[datetime | None, bool]:
    if m.group("y"):
        y = 2000 + int(m.group("y"))
    elif reference is None:
        return None, False
    else:
        y = reference.year
    mo, d = int(m.group("m") or m.group("m2")), int(m.group("d") or m.group("d2"))
    when, has_time = _with_time(m, y, mo, d)
    if when is not None and not m.group("y") and reference is not None:
        if when.date() > reference.date() + FUTURE_SLACK:  # "12-31" read in January: last year's
            when, has_time = _with_time(m, y - 1, mo, d)
    return when, has_time


def _weekday_short(m: re.Match[str], reference: datetime) -> tuple[datetime | None, bool]:
    """"11/25(水) 14:03" in the reference's year (last year's when that is more than a day ahead)."""
    mo, d = int(m.group("m")), int(m.group("d"))
    hh, mm = (int(m.group("H")), int(m.group("M"))) if m.group("H") else (0, 0)
    if hh > 23:
        return None, False
    for year in (reference.year, reference.year - 1):
        when = make_date(year, mo, d, hh, mm)
        if when is not None and when.date() <= reference.date() + FUTURE_SLACK:
            return when, m.group("H") is not None
    return None, False


def _label(text: str, start: int) -> int:
    if start == 0:
        return 0
    # the window reversed, with the character before it (a label's word boundary looks at it)
    before = text[max(0, start - LABEL_REACH - 1) : start][::-1]
    if _OTHER_LABEL.match(before):
        return UPDATE_LABEL if _UPDATE_LABEL.match(before) else -1
    if _PUBLISH_LABEL.match(before):
        return 1
    return 0


def _in_sentence(text: str, m: re.Match[str]) -> bool:
    """A relative form without a clock time run into the words of a sentence: "图书馆今天起开放",
    "他刚刚完成", "张先生3天前报警", "the mayor said today that", none of them a stamp of the page (a stamp
    stands apart: "3小时前 来源：新浪", "今天 | 来源", "· Yesterday"; after a date label it counts anyway).

    >>> texts = ("馆今天起", "前天 来源", "评论 50分钟前 来自", "said today that")
    >>> [_in_sentence(t, _RELATIVE.search(t)) for t in texts]
    [True, False, False, True]
    """
    start, end = m.start(), m.start() + len(m.group(0).rstrip())  # "前天 " takes the space after it
    word = m.group("unit") or m.group("unit_en") or m.group("day") or m.group("now")
    if word.isascii():  # "2 hours ago", "today": words apart by spaces, a word of the sentence on each side
        before = text[max(0, start - 8) : start].rstrip()[-1:]
        after = text[end : end + 8].lstrip()[:1]
        return before.isalnum() and after.isalnum()
    return text[start - 1 : start].isalpha() or text[end : end + 1].isalpha()


#: where absolute dates can be: a four-digit year, a Chinese-numeral year before 年, or d.m.yy
_ANCHOR = lazy_compile(r"(?:19|20)\d\d|[〇零○Ｏ一二三四五六七八九]年|\d\.[01]?\d\.\d\d(?![\d.])")
#: characters around an anchor handed to the full patterns ("September 30th, 2021" before the year,
#: "年12月15日 下午02:26:00 +08:00" after it)
ANCHOR_BEFORE = 30
ANCHOR_AFTER = 45
#: month names need letters: skip those patterns on spans without any
_HAS_LETTER = lazy_compile(r"[A-Za-zÀ-ɏЀ-ӿ\u0600-\u06ff\u0900-\u097f]{3}")


def _spans(text: str) -> list[tuple[int, int]]:
    """Windows around the first ``MAX_DATE_CANDIDATES`` anchors, overlapping ones merged."""
    spans: list[tuple[int, int]] = []
    for n, m in enumerate(_ANCHOR.finditer(text)):
        if n == MAX_DATE_CANDIDATES:
            break
        lo, hi = max(0, m.start() - ANCHOR_BEFORE), m.end() + ANCHOR_AFTER
        if spans and lo <= spans[-1][1]:
            spans[-1] = (spans[-1][0], hi)
        else:
            spans.append((lo, hi))
    return spans


def find_dates(
    text: str,
    *,
    reference: datetime | None = None,
    month_first: bool = False,
    relative: bool = True,
    limit: int = 0,
) -> list[DateHit]:
    """Every plausible date in ``text``, in text order.

    ``reference`` bounds the future and, with ``relative``, enables the relative forms (3小时前,
    昨天 08:30); ``month_first`` reads an ambiguous ``03/05/2021`` as March 5 (US usage) instead of 3 May.
    ``limit`` > 0 keeps that many hits. The full patterns run only around four-digit years (and
    Chinese-numeral years), so a long text costs little more than one scan for years. At most
    ``MAX_DATE_CANDIDATES`` candidates are looked at, and a value repeated (same day, time and label)
    gives one hit.

    >>> [h.when.isoformat() for h in find_dates("发布时间：2010年12月15日 下午02:26 来源：新华网")]
    ['2010-12-15T14:26:00']
    """
    hits: list[DateHit] = []
    starts: list[int] = []  # sorted starts and ends of the spans taken (they never overlap)
    ends: list[int] = []
    seen: set[tuple[datetime, bool, int]] = set()
    candidates = 0

    def add(start: int, end: int, when: datetime | None, has_time: bool, relative: bool = False) -> bool:
        """Record one candidate; False once ``MAX_DATE_CANDIDATES`` have been looked at."""
        nonlocal candidates
        candidates += 1
        if when is None or not plausible(when, reference):
            return candidates < MAX_DATE_CANDIDATES
        i = bisect.bisect_left(starts, start)
        if (i < len(starts) and starts[i] < end) or (i > 0 and ends[i - 1] > start):
            return candidates < MAX_DATE_CANDIDATES
        starts.insert(i, start)
        ends.insert(i, end)
        label = _label(text, start)
        if (when, has_time, label) not in seen:  # a value repeated gives one hit, the first
            seen.add((when, has_time, label))
            hits.append(DateHit(when, start, end, has_time, label, relative))
        return candidates < MAX_DATE_CANDIDATES

    def scan() -> None:
        for lo, hi in _spans(text):
            part = text[lo:hi].translate(_FULLWIDTH)
            for m in _YMD.finditer(part):
                y, mo = int(m.group("y")), int(m.group("m") or m.group("m2") or m.group("m3"))
                d = int(m.group("d") or m.group("d2") or m.group("d3"))
                if not add(lo + m.start(), lo + m.end(), *_with_time(m, y, mo, d)):
                    return
            for m in _DMY.finditer(part):
                a, b, y = int(m.group("d")), int(m.group("m")), int(m.group("y"))
                if m.group("sep") == "/" and (b > 12 or (month_first and a <= 12)):
                    a, b = b, a
                if not add(lo + m.start(), lo + m.end(), *_with_time(m, y, b, a)):
                    return
            for m in _DMY2.finditer(part):
                yy = int(m.group("y"))
                y = 2000 + yy if 2000 + yy <= (reference or datetime.now(UTC)).year + 1 else 1900 + yy
                when = _with_time(m, y, int(m.group("m")), int(m.group("d")))
                if not add(lo + m.start(), lo + m.end(), *when):
                    return
            if "年" in part:
                for m in _CN_YMD.finditer(part):
                    y = int("".join(str(_CN_DIGITS.get(c, 0)) for c in m.group("y")))
                    mo, d = _cn_number(m.group("m")), _cn_number(m.group("d"))
                    day = make_date(y, mo, d) if mo > 0 and d > 0 else None
                    if not add(lo + m.start(), lo + m.end(), day, False):
                        return
            if _HAS_LETTER.search(part):
                for rx in (_MDY, _DMONY):
                    for m in rx.finditer(part):
                        month = MONTHS.get(m.group("mon").lower())
                        if month:
                            y, d = int(m.group("y")), int(m.group("d"))
                            start, (day, has_time) = lo + m.start(), _with_time(m, y, month, d)
                            if not has_time and day is not None:
                                start, day, has_time = _time_before(text, start, y, month, d, day)
                            if not add(start, lo + m.end(), day, has_time):
                                return
        if relative:
            for m in _SHORT.finditer(text):
                first = "y" if m.group("y") else ("m" if m.group("m") else "m2")
                if not add(m.start(first), m.end(), *_short(m, reference)):
                    return
        if relative and reference is not None and ("(" in text or "（" in text):
            for m in _WEEKDAY_SHORT.finditer(text):
                if not add(m.start(), m.end(), *_weekday_short(m, reference)):
                    return
        if relative and reference is not None:
            for m in _RELATIVE.finditer(text):
                if m.group("H") is None and _in_sentence(text, m) and not _label(text, m.start()):
                    continue
                if not add(m.start(), m.end(), *_relative(m, reference), relative=True):
                    return

    scan()
    hits.sort(key=lambda h: h.start)
    return hits[:limit] if limit > 0 else hits


_ISO_LIKE = lazy_compile(
    r"\d{4}-?\d\d-?\d\d(?P<time>[T ]\d\d(?::?\d\d(?::?\d\d(?:[.,]\d+)?)?)?)?(?:Z|[+-]\d\d(?::?\d\d)?)?"
)
_EPOCH = lazy_compile(r"1\d{9}(?:\d{3})?")


def parse_value(
    value: str,
    *,
    reference: datetime | None = None,
    month_first: bool = False,
    languages: list[str] | None = None,
    slow: bool = True,
) -> datetime | None:
    """The datetime of :func:`parse_stamp` (midnight for a date alone), or None.

    >>> parse_value("2021-03-05T10:00:00+08:00").isoformat()
    '2021-03-05T10:00:00+08:00'
    >>> parse_value("2019-02-30") is None
    True
    """
    stamp = parse_stamp(value, reference=reference, month_first=month_first, languages=languages, slow=slow)
    return stamp.when if stamp is not None else None


def parse_stamp(
    value: str,
    *,
    reference: datetime | None = None,
    month_first: bool = False,
    languages: list[str] | None = None,
    slow: bool = True,
) -> Stamp | None:
    """Parse a structured date value (a meta content, JSON-LD property, ``<time datetime>``, a site's
    XPath override) into a :class:`Stamp`, keeping its precision: a date alone has no time of day, a
    time without an offset stays naive. Only the first ``STRUCTURED_VALUE_CHARS`` are read.
    ``slow=False`` skips the dateparser fallback.

    >>> parse_stamp("2024-09-03")
    Stamp(when=datetime.datetime(2024, 9, 3, 0, 0), has_time=False, offset_from=None)
    >>> parse_stamp("2024-09-03T04:03:19Z").offset_from
    'page'
    """
    value = value.strip()[:STRUCTURED_VALUE_CHARS].translate(_FULLWIDTH)
    if not value:
        return None
    stamp: Stamp | None = None
    iso = _ISO_LIKE.fullmatch(value)
    if iso is not None:
        try:
            when = datetime.fromisoformat(value.replace(",", "."))
            stamp = Stamp(when, iso.group("time") is not None, "page" if when.tzinfo else None)
        except ValueError:
            stamp = None
    elif _EPOCH.fullmatch(value):
        stamp = Stamp(datetime.fromtimestamp(int(value[:10]), UTC), True, "instant")
    if stamp is None:
        hits = find_dates(value, reference=reference, month_first=month_first, limit=1)
        if hits:
            stamp = stamp_of(hits[0])
    if stamp is None and "," in value and value[:3].isalpha():
        import email.utils  # on first use: it loads the e-mail and socket modules

        try:
            stamp = Stamp(email.utils.parsedate_to_datetime(value), True, "page")
        except (TypeError, ValueError, IndexError):
            stamp = None
        if stamp is not None and stamp.when.tzinfo is None:  # RFC 2822's -0000: UTC, local zone unknown
            stamp = Stamp(stamp.when.replace(tzinfo=UTC), True, "instant")
    if stamp is None and slow and len(value) <= DATEPARSER_MAX_CHARS:
        parsed = _dateparser(value, reference, languages)
        if parsed is not None:
            has_time = ":" in value or parsed.time() != datetime.min.time()
            stamp = Stamp(parsed, has_time, "page" if parsed.tzinfo else None)
    if stamp is None or not plausible(stamp.when, reference):
        return None
    return stamp


def before(stamp: Stamp, cutoff: datetime) -> bool:
    """Whether ``stamp`` lies before the aware ``cutoff``: a date alone is compared by day (the
    cutoff's day in its own zone), a time without an offset is read in the cutoff's zone.

    >>> from datetime import timezone
    >>> cutoff = datetime(2024, 9, 3, tzinfo=timezone.utc)
    >>> before(parse_stamp("2024-09-03"), cutoff), before(parse_stamp("2024-09-02T23:00:00-02:00"), cutoff)
    (False, False)
    """
    when = stamp.when
    if not stamp.has_time:
        return when.date() < cutoff.date()
    if when.tzinfo is None:
        when = when.replace(tzinfo=cutoff.tzinfo)
    return when < cutoff


def stamp_of(hit: DateHit) -> Stamp:
    """The :class:`Stamp` of a date found in text by :func:`find_dates`."""
    if hit.when.tzinfo is None:
        return Stamp(hit.when, hit.has_time)
    return Stamp(hit.when, hit.has_time, "reference" if hit.relative else "page")


_YEAR = lazy_compile(r"(?:19|20)\d\d")
_NUMBER = lazy_compile(r"\d+")
_WORD = lazy_compile(r"[^\W\d_]{3,}")


def _dateparser(value: str, reference: datetime | None, languages: list[str] | None) -> datetime | None:
    """dateparser on a short value, through a cache: a page can repeat one value many times, and each
    call tries every language it is given (fuzzing met 28 calls on one string)."""
    return _dateparser_cached(value, reference, tuple(languages) if languages else None)


#: distinct (value, reference, languages) kept; crawls reuse few meta formats, so hits are common
DATEPARSER_CACHE_SIZE = 4096


def warm_up() -> None:
    """Load dateparser, its English locale and the vocabulary that picks its languages
    (:mod:`~newscrawl.extract.metadata.date_languages`) now (about 0.25 s), leaving the cache empty: what a
    long-running process calls once at start so that no page pays for it."""
    _dateparser_cached.__wrapped__("07 October 2020", None, None)


@lru_cache(maxsize=DATEPARSER_CACHE_SIZE)
def _dateparser_cached(
    value: str, reference: datetime | None, languages: tuple[str, ...] | None
) -> datetime | None:
    """dateparser on a short value that names a day, accepted only when the year it reads is written in
    the value. A value must hold three numbers, or two and a word (``07 أكتوبر 2020``): dateparser turns
    ``2017/01`` into January 1 and ``1988`` into November 1."""
    if not _YEAR.search(value):
        return None
    numbers = len(_NUMBER.findall(value))
    if numbers < 2 or (numbers == 2 and not _WORD.search(value)):
        return None
    import dateparser  # imported on first use: it takes tens of milliseconds to load

    settings = {"PREFER_DAY_OF_MONTH": "first", "RETURN_AS_TIMEZONE_AWARE": False}
    if reference is not None:
        settings["RELATIVE_BASE"] = reference.replace(tzinfo=None)
    try:
        when: datetime | None = dateparser.parse(
            value, languages=dateparser_languages(value, languages), settings=settings
        )
    except (ValueError, TypeError, OverflowError, AttributeError):
        return None
    if when is None or str(when.year) not in value:
        return None
    return when

