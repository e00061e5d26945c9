"""Bytes to text: BOM, declared charset (HTTP header or ``<meta>``), then detection.

Chinese pages are often GB2312/GBK without a declaration, or declare one charset and use another. The
rules, in order:

1. A byte-order mark decides.
2. Bytes that are valid UTF-8 and contain non-ASCII are UTF-8, whatever the page declares (valid UTF-8
   multi-byte text is practically never another encoding; this fixes pages that declare gb2312 but were
   re-encoded to UTF-8).
3. A declared charset that decodes the bytes strictly is used; GB2312/GBK are read as their superset
   GB18030, ISO-8859-1/ASCII as windows-1252 (as browsers do).
4. Otherwise GB18030 when the result looks like Chinese text, then charset-normalizer's guess, and last
   the declared (or UTF-8) codec with replacement characters, so a page always gives text.

>>> decode_html("<p>中文</p>".encode("gbk")).encoding
'gb18030'
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from charset_normalizer import from_bytes

# WHATWG-style aliases: a declared label maps to the codec a browser would use.
_ALIASES = {
    "gb2312": "gb18030",
    "gb_2312": "gb18030",
    "gb_2312-80": "gb18030",
    "gbk": "gb18030",
    "x-gbk": "gb18030",
    "cp936": "gb18030",
    "chinese": "gb18030",
    "csgb2312": "gb18030",
    "euc-cn": "gb18030",
    "gb18030": "gb18030",
    "hz-gb-2312": "gb18030",
    "big5": "big5hkscs",
    "big5-hkscs": "big5hkscs",
    "x-x-big5": "big5hkscs",
    "iso-8859-1": "cp1252",
    "latin1": "cp1252",
    "latin-1": "cp1252",
    "us-ascii": "cp1252",
    "ascii": "cp1252",
    "utf8": "utf-8",
    "unicode": "utf-8",
    "shift_jis": "cp932",
    "sjis": "cp932",
    "x-sjis": "cp932",
    "euc-kr": "cp949",
}

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)

_META_CHARSET = re.compile(
    rb"""<meta[^>]+?charset\s*=\s*["']?\s*([A-Za-z0-9_\-:.]+)""", re.IGNORECASE
)
_XML_ENCODING = re.compile(rb"""^\s*<\?xml[^>]+encoding\s*=\s*["']([A-Za-z0-9_\-.]+)""", re.IGNORECASE)
_HEADER_CHARSET = re.compile(r"""charset\s*=\s*["']?([A-Za-z0-9_\-:.]+)""", re.IGNORECASE)
#: how far into the page a <meta charset> is looked for (browsers use 1024; real pages put it later)
META_SCAN_BYTES = 16_384
#: share of non-ASCII characters that must be CJK ideographs for a GB18030 guess to be believed
CJK_SHARE_MIN = 0.6
#: a UTF-8 page with at most this share of undecodable non-ASCII bytes is UTF-8 with a few broken bytes
UTF8_ERROR_SHARE_MAX = 0.01


@dataclass(frozen=True, slots=True)
class Decoded:
    """Decoded text, the codec used, and how it was chosen (``bom``, ``utf-8``, ``declared``, ...)."""

    text: str
    encoding: str
    source: str


def normalize_charset(label: str | None) -> str | None:
    """Map a declared charset label to the Python codec to decode with; None if unknown.

    >>> normalize_charset("GB2312"), normalize_charset("bogus")
    ('gb18030', None)
    """
    if not label:
        return None
    name = label.strip().strip("\"'").lower()
    name = _ALIASES.get(name, name)
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def charset_from_content_type(content_type: str | bytes | None) -> str | None:
    """The charset parameter of an HTTP Content-Type header value."""
    if not content_type:
        return None
    if isinstance(content_type, bytes):
        content_type = content_type.decode("latin-1")
    m = _HEADER_CHARSET.search(content_type)
    return m.group(1) if m else None


def declared_charset(data: bytes) -> str | None:
    """The charset a page declares in ``<?xml encoding>`` or ``<meta>`` near its start."""
    head = data[:META_SCAN_BYTES]
    m = _XML_ENCODING.search(head) or _META_CHARSET.search(head)
    return m.group(1).decode("ascii", "replace") if m else None


def _cjk_share(text: str) -> float:
    non_ascii = cjk = 0
    for ch in text:
        if ch > "\x7f":
            non_ascii += 1
            if "\u4e00" <= ch <= "\u9fff" or "\u3000" <= ch <= "\u303f" or "\uff00" <= ch <= "\uffef":
                cjk += 1
    return cjk / non_ascii if non_ascii else 1.0


def _try(data: bytes, codec: str) -> str | None:
    try:
        return data.decode(codec)
    except (UnicodeDecodeError, LookupError):
        return None


def decode_html(data: bytes, *, http_charset: str | None = None) -> Decoded:
    """Decode an HTML page's bytes; never raises for any byte string."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return Decoded(data.decode(codec, "replace"), codec.replace("-sig", ""), "bom")

    is_ascii = data.isascii()
    if not is_ascii:
        text = _try(data, "utf-8")
        if text is not None:
            return Decoded(text, "utf-8", "utf-8")

    label = http_charset or declared_charset(data)
    declared = normalize_charset(label)
    if is_ascii:
        return Decoded(data.decode("ascii"), declared or "utf-8", "ascii")

    if declared and declared != "utf-8":
        text = _try(data, declared)
        if text is not None:
            return Decoded(text, declared, "declared")

    # Declared UTF-8 (or nothing) and not valid UTF-8: a few broken bytes, GBK, or something else.
    lenient = data.decode("utf-8", "replace")
    non_ascii = sum(1 for b in data if b > 0x7F)
    if lenient.count("\ufffd") <= max(2, non_ascii * UTF8_ERROR_SHARE_MAX) and declared in (None, "utf-8"):
        return Decoded(lenient, "utf-8", "utf-8-lenient")

    gb = _try(data, "gb18030")
    if gb is not None and _cjk_share(gb) >= CJK_SHARE_MIN:
        return Decoded(gb, "gb18030", "detected")

    best = from_bytes(data[:200_000], cp_isolation=None).best()
    if best is not None and best.encoding:
        codec = normalize_charset(best.encoding) or best.encoding
        text = _try(data, codec)
        if text is not None:
            return Decoded(text, codec, "detected")
    if gb is not None:
        return Decoded(gb, "gb18030", "detected")
    codec = declared or "utf-8"
    return Decoded(data.decode(codec, "replace"), codec, "fallback")
