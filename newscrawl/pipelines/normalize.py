"""Field normalisation for records: white space, times as ISO 8601 with an offset, language codes, hashes.

>>> normalize_time("2026年11月20日 08:30", "Asia/Shanghai")
'2026-11-20T08:30:00+08:00'
>>> normalize_time("1763598600", "Asia/Shanghai")
'2025-11-20T08:30:00+08:00'
"""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from functools import lru_cache
from zoneinfo import ZoneInfo

_CN_TIME = re.compile(
    r"(?P<y>(?:19|20)\d\d)\s*[-/年.]\s*(?P<m>\d{1,2})\s*[-/月.]\s*(?P<d>\d{1,2})\s*日?"
    r"(?:\s*T?\s*(?P<H>\d{1,2})\s*[:：时]\s*(?P<M>\d{1,2})(?:\s*[:：分]\s*(?P<S>\d{1,2}))?)?"
)
_EPOCH = re.compile(r"^\d{10}(?:\d{3})?(?:\.\d+)?$")
_SPACES = re.compile(r"[ \t\u00a0\u3000\u200b]+")
_BLANK_LINES = re.compile(r"\n\s*\n+")


@lru_cache(maxsize=64)
def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def parse_time(value: str | int | float | None, timezone: str = "Asia/Shanghai") -> datetime | None:
    """An aware datetime from ISO 8601, RFC 822, epoch seconds/milliseconds or a Chinese date line.

    Times without an offset are taken to be in ``timezone``. Returns None when nothing parses.
    """
    if value is None or isinstance(value, bool):
        return None
    text = str(value).strip()
    if not text:
        return None
    tz = _zone(timezone)
    if _EPOCH.match(text):
        seconds = float(text) / (1000 if len(text.split(".")[0]) == 13 else 1)
        return datetime.fromtimestamp(seconds, UTC).astimezone(tz)
    parsed: datetime | None = None
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00") if text.endswith("Z") else text)
    except ValueError:
        try:
            parsed = parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            parsed = None
    if parsed is None:
        m = _CN_TIME.search(text)
        if m is None:
            return None
        try:
            parsed = datetime(
                int(m["y"]), int(m["m"]), int(m["d"]), int(m["H"] or 0), int(m["M"] or 0), int(m["S"] or 0)
            )
        except ValueError:
            return None
    return parsed.replace(tzinfo=tz) if parsed.tzinfo is None else parsed


def normalize_time(value: str | int | float | None, timezone: str = "Asia/Shanghai") -> str | None:
    """``value`` as ISO 8601 with a UTC offset, to the second, or None."""
    parsed = parse_time(value, timezone)
    return parsed.isoformat(timespec="seconds") if parsed else None


def clean_line(value: str | None) -> str | None:
    """One line of text with runs of white space collapsed; None when empty."""
    if value is None:
        return None
    text = _SPACES.sub(" ", " ".join(str(value).split("\n"))).strip()
    return text or None


def clean_text(value: str | None) -> str:
    """Body text: one paragraph per line, each stripped, blank lines removed."""
    if not value:
        return ""
    lines = (_SPACES.sub(" ", line).strip() for line in _BLANK_LINES.sub("\n", value).split("\n"))
    return "\n".join(line for line in lines if line)


def normalize_language(value: str | None) -> str | None:
    """A lower-case primary language subtag: ``zh-CN`` -> ``zh``, ``en_US`` -> ``en``."""
    if not value:
        return None
    code = re.split(r"[-_\s,;]", value.strip().lower(), maxsplit=1)[0]
    return code if re.fullmatch(r"[a-z]{2,3}", code) else None


def content_hash(text: str) -> str:
    """SHA-1 of the normalised text with all white space removed, so re-wrapping does not change it."""
    return hashlib.sha1("".join(text.split()).encode("utf-8")).hexdigest()
