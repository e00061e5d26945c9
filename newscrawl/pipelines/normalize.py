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
    if _already_clean(value):  # an extraction's text mostly is: no copy of each line
        return value
    value = strip_text_controls(value)
    lines = (_SPACES.sub(" ", line).strip() for line in _BLANK_LINES.sub("\n", value).split("\n"))
    return "\n".join(line for line in lines if line)


def _already_clean(value: str) -> bool:
    r"""Whether :func:`clean_text` gives ``value`` back unchanged: it holds no character that is not
    printable but line feeds (so no control character, and no white space but spaces and line feeds:
    every other white space character is not printable), no run of spaces, no empty line and no line that
    opens or closes with a space. A few scans in C instead of a regular expression's substitution on every
    line (scrapinghub's extracted texts: 0.16 ms a text against 0.01).

    >>> _already_clean("One line.\nAnother one."), _already_clean("a  b"), _already_clean("a\n\nb")
    (True, False, False)
    >>> _already_clean("a\u3000b"), _already_clean(" a"), _already_clean("a \nb"), _already_clean("a\n")
    (False, False, False, False)
    """
    return (
        value[0] not in " \n"
        and value[-1] not in " \n"
        and "  " not in value
        and "\n\n" not in value
        and "\n " not in value
        and " \n" not in value
        and value.replace("\n", " ").isprintable()
    )


def normalize_language(value: str | None) -> str | None:
    """A lower-case primary language subtag: ``zh-CN`` -> ``zh``, ``en_US`` -> ``en``."""
    if not value:
        return None
    code = re.split(r"[-_\s,;]", value.strip().lower(), maxsplit=1)[0]
    return code if re.fullmatch(r"[a-z]{2,3}", code) else None


def content_hash(text: str) -> str:
    """SHA-1 of the normalised text with all white space removed, so re-wrapping does not change it."""
    return hashlib.sha1("".join(text.split()).encode("utf-8")).hexdigest()
