"""Field normalisation for records: white space, language codes, content hashes. (Times are parsed
once, by the extraction library: ``newscrawl.extract.metadata.dates``.)"""

from __future__ import annotations

import hashlib
import re

from newscrawl.extract.document import strip_text_controls

_SPACES = re.compile(r"[ \t\u00a0\u3000\u200b]+")
_BLANK_LINES = re.compile(r"\n\s*\n+")


def clean_line(value: str | None) -> str | None:
    """One line of text with runs of white space collapsed, control characters removed; None when empty."""
    if value is None:
        return None
    text = _SPACES.sub(" ", " ".join(strip_text_controls(str(value)).split("\n"))).strip()
    return text or None


def clean_text(value: str | None) -> str:
    """Body text: one paragraph per line, each stripped, blank lines and control characters removed."""
    if not value:
        return ""
    value = strip_text_controls(value)
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
