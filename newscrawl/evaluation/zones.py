"""Invented time zones: a publish time given an offset the page never supports.

A UTC offset on ``published_at`` is *supported* when the page writes a date-time with that offset (``Z``,
``+02:00``, ``+0200``, ``GMT``, ``EDT``, ``ET`` in its offset of that day...) or writes the same instant
with another offset (``03:16Z`` shown as ``05:16+02:00``, the page's local clock), or when the page's
declared language, its host or its national charset (declared, or else what its bytes decode as: old
portals' GBK pages declare none) names a region whose zone has that offset (issue 12: zh-CN or a .cn
host -> Asia/Shanghai, zh-TW -> Asia/Taipei, zh-HK -> Asia/Hong_Kong, zh-SG ->
Asia/Singapore, ja -> Asia/Tokyo, ko -> Asia/Seoul; ``zh`` alone names no region; GB2312/GBK/GB18030 and
Big5 are Chinese national standards, Shift_JIS/EUC-JP Japanese, EUC-KR Korean). Any other offset was
invented by the extractor, as ``+08:00`` on an English page whose times carry no zone.

A declared language or a host also supports the offsets of the zone the library's tables
(``date_data.LANGUAGE_ZONES``, ``HOST_ZONES``: de -> Europe/Berlin, en-GB -> Europe/London...) give it, at
that date. The tables are shared data; the reading of the page and the offset check are this module's
own, so a mistake of the library's zone inference is not repeated here.

A Unix time the page writes (``var ct = "1581517074"``, WeChat's publish time: seconds, or milliseconds,
since 1970 UTC) is an instant, not a wall clock: given in UTC (``+00:00``) it claims no zone of the page's,
so that offset is not invented; in any other offset it needs the support above.

>>> signals = zone_signals(b'<html lang="en"><meta content="2024-09-03T04:03:19">', "https://example.com/a")
>>> invented_offset("2024-09-03T04:03:19+08:00", signals), invented_offset("2024-09-03T04:03:19", signals)
(True, False)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from newscrawl.extract.decode import decode_html
from newscrawl.extract.metadata.date_data import GENERIC_ZONES, HOST_ZONES, LANGUAGE_ZONES, ZONE_ABBREVIATIONS

#: a date-time written with an offset: ISO 8601 (``2024-09-03T04:03:19Z``, ``... +02:00``, ``+0200``) or
#: an e-mail style time (``04:03:19 +0000``, ``04:03 GMT``)
_ISO_OFFSET_RE = re.compile(
    rb"(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:[.,]\d+)?\s?(Z|[+-]\d{2}:?\d{2})(?![\d:])"
)
#: zone abbreviations written after a time, and their offsets (IST: India): the library's table
#: (shared data), and CST read as US Central, which the library leaves out as ambiguous
ABBREVIATIONS = {
    name: f"{'-' if minutes < 0 else '+'}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
    for name, minutes in ZONE_ABBREVIATIONS.items()
} | {"CST": "-06:00"}
_MAIL_OFFSET_RE = re.compile(
    rb"\b\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?"  # fractional seconds too: 10:07:01.000000 CEST
    rb"(?:\s?[AaPp]\.?[Mm]\.?)?"  # and a 12-hour clock: 07:47 PM EST
    rb"\s(?:Uhr\s)?([+-]\d{4}|"  # and a German clock: 18:15 Uhr MEZ
    + b"|".join(sorted((n.encode() for n in (*ABBREVIATIONS, *GENERIC_ZONES)), key=len, reverse=True))
    + rb")\b"
)
#: the declared language: <html lang>, <meta http-equiv=content-language>, og:locale
_LANG_RE = re.compile(
    rb"<html\b[^>]*?\s(?:xml:)?lang\s*=\s*[\"']?([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*)"
    rb"|content-language[\"']?\s+content\s*=\s*[\"']?([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*)"
    rb"|og:locale[\"']?\s+content\s*=\s*[\"']?([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*)",
    re.IGNORECASE,
)
#: a Unix time in seconds or milliseconds between 2001-09-09 and 2033-05-18, quoted or after ``=`` / ``:``
#: a Unix time in seconds or milliseconds after '=', ':' or '(' (spaces and a quote between) or after a
#: quote or a space. Each white-space run is read once: '[=:("'\s]\s*' would try every one of its
#: characters as the start of the run, quadratic in it (20,000 spaces: 6 s; a page of them, hours)
_EPOCH_RE = re.compile(rb"""(?:[=:(]\s*+["']?|["'\s]["']?)(1\d{9})(?:\d{3})?["']?(?![\d.])""")
_CHARSET_RE = re.compile(rb"charset\s*=\s*[\"']?([A-Za-z0-9_-]+)", re.IGNORECASE)
#: declared charsets that are one country's standard, and that country's offset
CHARSET_OFFSETS = {
    "gb2312": "+08:00", "gbk": "+08:00", "gb18030": "+08:00", "big5": "+08:00", "big5-hkscs": "+08:00",
    "shift_jis": "+09:00", "shift-jis": "+09:00", "sjis": "+09:00", "euc-jp": "+09:00", "euc-kr": "+09:00",
    # the codecs newscrawl.extract.decode reads an undeclared page with
    "big5hkscs": "+08:00", "cp932": "+09:00", "euc_jp": "+09:00", "iso2022_jp": "+09:00", "cp949": "+09:00",
    "iso2022_kr": "+09:00",
}
#: how much of a page is searched for its declared language and charset (they sit in <html> and <head>)
LANG_SCAN_BYTES = 65_536

#: the offset a region's zone has (none of these zones keeps summer time)
REGION_OFFSETS = {
    "cn": "+08:00", "tw": "+08:00", "hk": "+08:00", "mo": "+08:00", "sg": "+08:00", "jp": "+09:00",
    "kr": "+09:00",
}
#: a language declared without a region that is spoken in one zone (``zh`` alone names none: issue 12)
LANGUAGE_REGIONS = {"ja": "jp", "ko": "kr"}
#: regions that are zone signals only with their language (``zh-SG``), not as a host (``.sg``)
_LANGUAGE_ONLY_REGIONS = frozenset({"sg"})


@dataclass(frozen=True, slots=True)
class ZoneSignals:
    """The offsets a page supports: those it writes, and its region's (by language or host)."""

    written: frozenset[str]
    regional: frozenset[str]
    #: the instants the page writes with an offset (UTC, to the minute): a time shown in another offset
    #: that is one of them is the page's own value, converted
    instants: frozenset[datetime] = frozenset()
    #: IANA zones the declared language or the host name (the library's tables, ``date_data``): an offset
    #: is supported when the zone has it at that time (summer time included)
    zones: frozenset[str] = frozenset()
    #: the Unix times the page writes, as UTC instants to the minute: given in UTC, they invent no zone
    epochs: frozenset[datetime] = frozenset()

    @property
    def offsets(self) -> frozenset[str]:
        return self.written | self.regional


def normalize_offset(raw: str) -> str:
    """``Z``, ``GMT``, ``UTC``, ``+0200`` or ``+02:00`` as ``+HH:MM``.

    >>> normalize_offset("Z"), normalize_offset("-0530"), normalize_offset("+08:00")
    ('+00:00', '-05:30', '+08:00')
    """
    raw = raw.strip().upper()
    if raw in ("Z", "GMT", "UTC"):
        return "+00:00"
    if raw in ABBREVIATIONS:
        return ABBREVIATIONS[raw]
    digits = raw[1:].replace(":", "")
    return f"{raw[0]}{digits[:2]}:{digits[2:4]}"


def _region(lang: str) -> str | None:
    """The region a declared language names for its zone: Chinese with a region subtag (``zh-Hant-TW``), or
    a language spoken in one zone (``ja``, ``ko``)."""
    parts = [p for p in re.split(r"[-_]", lang.lower()) if p]
    if not parts:
        return None
    if parts[0] == "zh":
        return next((p for p in parts[1:] if p in REGION_OFFSETS), None)
    return LANGUAGE_REGIONS.get(parts[0])


def zone_signals(page: bytes, url: str | None) -> ZoneSignals:
    """What the raw ``page`` and its ``url`` say about its time zone."""
    written: set[str] = set()
    instants: set[datetime] = set()
    for m in _ISO_OFFSET_RE.finditer(page):
        offset = normalize_offset(m.group(3).decode())
        written.add(offset)
        instant = _instant(f"{m.group(1).decode()}T{m.group(2).decode()}{offset}")
        if instant is not None:
            instants.add(instant)
    zones: set[str] = set()
    for m in _MAIL_OFFSET_RE.finditer(page):
        written_zone = m.group(1).decode()
        if written_zone in GENERIC_ZONES:  # "6:15 p.m. ET": the zone's offset on that day
            zones.add(GENERIC_ZONES[written_zone])
        else:
            written.add(normalize_offset(written_zone))
    regional = set()
    for m in _LANG_RE.finditer(page[:LANG_SCAN_BYTES]):
        lang = next(g for g in m.groups() if g).decode()
        region = _region(lang)
        if region:
            regional.add(REGION_OFFSETS[region])
    for m in _CHARSET_RE.finditer(page[:LANG_SCAN_BYTES]):
        charset_offset = CHARSET_OFFSETS.get(m.group(1).decode().lower())
        if charset_offset:
            regional.add(charset_offset)
    if not regional and not page.isascii():  # undeclared GBK (old portals): what its bytes decode as
        charset_offset = CHARSET_OFFSETS.get(decode_html(page).encoding or "")
        if charset_offset:
            regional.add(charset_offset)
    host = (urlsplit(url).hostname or "") if url else ""
    tld = host.rsplit(".", 1)[-1]
    if tld in REGION_OFFSETS and tld not in _LANGUAGE_ONLY_REGIONS:
        regional.add(REGION_OFFSETS[tld])
    zones |= {z for m in _LANG_RE.finditer(page[:LANG_SCAN_BYTES]) if (z := _language_zone(m))}
    zones |= {name for suffix, name in HOST_ZONES if host.endswith(suffix)}
    epochs = {
        datetime.fromtimestamp(int(m.group(1)), UTC).replace(second=0) for m in _EPOCH_RE.finditer(page)
    }
    return ZoneSignals(
        frozenset(written), frozenset(regional), frozenset(instants), frozenset(zones), frozenset(epochs)
    )


def _language_zone(m: re.Match[bytes]) -> str | None:
    """The zone the library's table gives a declared language (with its region, else alone)."""
    tags = [t for t in re.split(r"[-_]", next(g for g in m.groups() if g).decode().lower()) if t]
    regions = [t for t in tags[1:] if len(t) == 2]
    region = regions[0] if regions else None
    return LANGUAGE_ZONES.get((tags[0], region)) or LANGUAGE_ZONES.get((tags[0], None))


def _zone_has(zone: str, published_at: str, offset: str) -> bool:
    """Whether ``zone`` has ``offset`` at the wall-clock time of ``published_at``."""
    try:
        local = datetime.fromisoformat(published_at.strip().replace("Z", "+00:00")).replace(tzinfo=None)
        delta = ZoneInfo(zone).utcoffset(local)
    except (ValueError, ZoneInfoNotFoundError):
        return False
    if delta is None:
        return False
    minutes = int(delta.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    return offset == f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def _instant(value: str | None) -> datetime | None:
    """An ISO date-time with an offset as a UTC instant to the minute; None otherwise."""
    try:
        dt = datetime.fromisoformat((value or "").strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if dt.tzinfo is None:
        return None
    return dt.astimezone(UTC).replace(second=0, microsecond=0)


_VALUE_OFFSET_RE = re.compile(r"T?\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s?(Z|[+-]\d{2}:?\d{2})$")


def value_offset(value: str | None) -> str | None:
    """The offset an ISO date-time value carries, as ``+HH:MM``; None for none (or a date alone).

    >>> value_offset("2024-09-03T04:03:19Z"), value_offset("2024-09-03"), value_offset("2024-09-03T04:03")
    ('+00:00', None, None)
    """
    m = _VALUE_OFFSET_RE.search((value or "").strip())
    return normalize_offset(m.group(1)) if m else None


def invented_offset(published_at: str | None, signals: ZoneSignals) -> bool:
    """Whether ``published_at`` carries an offset the page does not support (see the module docstring)."""
    offset = value_offset(published_at)
    if offset is None or offset in signals.offsets or _instant(published_at) in signals.instants:
        return False
    if offset == "+00:00" and _instant(published_at) in signals.epochs:
        return False  # a Unix time the page writes, given in UTC
    return not any(_zone_has(zone, published_at or "", offset) for zone in signals.zones)
