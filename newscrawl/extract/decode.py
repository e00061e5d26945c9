"""Bytes to text: BOM, declared charset (HTTP header or ``<meta>``), then detection.

Chinese pages are often GB2312/GBK without a declaration, or declare one charset and use another. The
rules, in order (the first that applies decides):

1. A byte-order mark; UTF-16 without a BOM (every other byte NUL); binary data (control bytes, or mostly
   NUL) is flagged with ``error``.
2. Pure ASCII is ASCII (ISO-2022-JP/KR when it holds their escape sequences). Bytes that are valid UTF-8
   are UTF-8, whatever the page declares (valid multi-byte UTF-8 is practically never another encoding;
   this fixes pages that declare gb2312 but were re-encoded to UTF-8), unless the UTF-8 text is itself
   a GBK page once or twice mis-decoded as Latin-1 and re-encoded ("double encoding"), which is undone.
3. A declared multi-byte charset (header first, then ``<meta>``) that decodes strictly; GB2312/GBK are
   read as their superset GB18030.
4. Almost-clean text: UTF-8 with a few broken or stray bytes (a stray Latin-1 letter between ASCII is read
   as windows-1252), or a declared multi-byte charset with a few bad sequences. Then a declared
   single-byte charset (ISO-8859-1, windows-1252, ...; any bytes "decode"), unless the bytes clearly read
   as Chinese (a server's wrong ``ISO-8859-1`` default).
5. Detection: GB18030 or Big5, whichever reads as Chinese (share of common characters); high bytes that
   stand alone between ASCII are a Western page (windows-1252, or windows-1250 when it reads more of
   them as letters); else charset-normalizer; last UTF-8 with replacement characters.

Control characters (C0 except white space and ESC, and DEL) are dropped, as the HTML parser drops them.
The common path (valid UTF-8 or a correct declaration) is one strict decode; detection runs only when
that fails.

>>> decode_html("<p>中文</p>".encode("gbk")).encoding
'gb18030'
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from newscrawl.extract.lazyre import lazy_compile
from newscrawl.extract.native import cstats

# WHATWG-style aliases: a declared label maps to the codec a browser would use.
_ALIASES = {
    "gb2312": "gb18030",
    "gb_2312": "gb18030",
    "gb_2312-80": "gb18030",
    "gbk": "gb18030",
    "x-gbk": "gb18030",
    "cp936": "gb18030",
    "windows-936": "gb18030",
    "chinese": "gb18030",
    "csgb2312": "gb18030",
    "euc-cn": "gb18030",
    "gb18030": "gb18030",
    "hz-gb-2312": "gb18030",
    "big5": "big5hkscs",
    "big5-hkscs": "big5hkscs",
    "x-x-big5": "big5hkscs",
    "cn-big5": "big5hkscs",
    "csbig5": "big5hkscs",
    "iso-8859-1": "cp1252",
    "iso8859-1": "cp1252",
    "latin1": "cp1252",
    "latin-1": "cp1252",
    "us-ascii": "cp1252",
    "ascii": "cp1252",
    "utf8": "utf-8",
    "unicode-1-1-utf-8": "utf-8",
    "unicode": "utf-8",
    "shift_jis": "cp932",
    "shift-jis": "cp932",
    "sjis": "cp932",
    "x-sjis": "cp932",
    "ms_kanji": "cp932",
    "windows-31j": "cp932",
    "euc-kr": "cp949",
    "ks_c_5601-1987": "cp949",
    "x-mac-roman": "mac-roman",
}
#: labels a page may declare that are ignored (browsers refuse them in <meta>: UTF-7 is an XSS vector;
#: a page that can declare UTF-16 in ASCII is not UTF-16)
_IGNORED_CODECS = frozenset({"utf-7", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"})

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)

_META_CHARSET = lazy_compile(
    rb"""<meta[^>]+?charset\s*=\s*["']?\s*([A-Za-z0-9_\-:.]+)""", re.IGNORECASE
)
_XML_ENCODING = lazy_compile(rb"""^\s*<\?xml[^>]+encoding\s*=\s*["']([A-Za-z0-9_\-.]+)""", re.IGNORECASE)
_HEADER_CHARSET = lazy_compile(r"""charset\s*=\s*["']?([A-Za-z0-9_\-:.]+)""", re.IGNORECASE)

#: how far into the page a <meta charset> is looked for (browsers use 1024; real pages put it later)
META_SCAN_BYTES = 16_384
#: how much of the page the detectors look at (enough text to judge, bounded time on huge pages)
DETECT_SAMPLE_BYTES = 32_768
#: share of non-ASCII characters that must be CJK for a Chinese reading to be believed
CJK_SHARE_MIN = 0.6
#: share of the ideographs of a Chinese reading that must be among COMMON_HANZI. The right reading of the
#: 330 chinese-wce, daniel-zh and gne-pages pages scores 0.20-0.6 (median 0.34); the same pages read as
#: Big5 score at most 0.064, and Western pages re-encoded to windows-1252 never pass as Chinese.
HANZI_SCORE_MIN = 0.15
#: a score so high that no other Chinese codec is tried
CLEARLY_CHINESE_SCORE = 0.3
#: a reading with at most this share of bad sequences (per non-ASCII character) is "almost clean"
LENIENT_ERROR_SHARE = 0.01
#: always tolerate this many bad sequences (a truncated character at a cut, a stray byte)
LENIENT_ERRORS_MIN = 2
#: UTF-8 with stray bytes: valid multi-byte characters must outnumber bad sequences this many times
#: (GBK read as UTF-8 gives at most 0.3 valid characters per bad sequence over the 330 Chinese pages)
UTF8_VALID_PER_ERROR = 4
#: share of control bytes (not NUL, tab, newline, form feed, carriage return, escape) that marks binary
#: data; text pages have none, compressed or random bytes about 10%
BINARY_CONTROL_SHARE = 0.05
#: share of NUL bytes that marks binary data (images, fonts, executables) when not UTF-16
BINARY_NUL_SHARE = 0.3
#: share of high bytes that must come in high-high pairs before a Chinese reading is tried (GBK ~1.0,
#: Big5 ~0.6, windows-1252 Western text ~0)
HIGH_PAIR_SHARE_MIN = 0.3
#: UTF-16 without a BOM: share of NUL high bytes (markup is ASCII) in the first 4 KB
UTF16_NUL_SHARE = 0.6
#: a codec defining at least this many of the 128 high bytes alone is single-byte (windows-1252: 123)
SINGLE_BYTE_DEFINED_MIN = 96
#: single-byte Western codecs tried on undeclared pages whose high bytes stand alone; the first wins ties
WESTERN_CODECS = ("cp1252", "cp1250")
#: how much of the page the binary-data check looks at
BINARY_SAMPLE_BYTES = 8192
#: double-encoded text: how many layers of mis-decoding are undone at most
DOUBLE_ENCODED_LAYERS = 3
#: double-encoded text: at least this many Latin-1 characters before trying to undo it
DOUBLE_ENCODED_MIN = 16

# The most frequent Chinese characters that are written the same in simplified and traditional script
# (taken from the head of common character-frequency lists of modern Chinese). A correct GB or Big5
# reading of a Chinese page has a large share of them; a wrong one reads as near-random characters.
COMMON_HANZI = frozenset(
    "的一是不了在人有我他中大上和地到以要就出可也你生能而子那得下自之年作用道行所然家事成方多去法如"
    "都同定天分好小部其主理心她本前但因只想日者意力它把十民公此已工使情明性知全三又正外高由很最重"
    "并物手向文政美相被利什二等或新己制身果加西月合回特代信表化老世位次度任常先海通教原立及比名真"
    "走入口平女四神何安少才反受目太再感建必件直德命山金指克至形社便空五非白光放即且王完式色路品住求"
    "北取共今切市"
)

# control bytes other than NUL (which text pages sometimes carry by the hundred) and white space / ESC
_CONTROL_BYTES = bytes(b for b in range(1, 32) if b not in (9, 10, 12, 13, 27)) + b"\x7f"
# what decoding drops: C0 controls except tab, newlines, form feed and ESC (ISO-2022), and DEL
_STRIPPED_BYTES = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27)) + b"\x7f"
_STRIPPED_SINGLES = tuple(bytes([b]) for b in _STRIPPED_BYTES)
_HIGH_BYTES = bytes(range(128, 256))


def _python_has_stripped_byte(data: bytes) -> bool:
    # (a third cheaper than a translation)
    return any(byte in data for byte in _STRIPPED_SINGLES)


#: whether a page holds a byte of ``_STRIPPED_BYTES``: the C extension's one pass eight bytes at a time when
#: it is built (a fifth of 28 ``memchr`` passes), else one ``memchr`` pass for each byte
_has_stripped_byte: Callable[[bytes], bool] = getattr(cstats, "has_stripped_byte", _python_has_stripped_byte)
_CJK_RUN = lazy_compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_CJK_OR_PUNCT_RUN = lazy_compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]+")
_DELETE_COMMON = dict.fromkeys(map(ord, COMMON_HANZI))
_NON_ASCII = lazy_compile(r"[^\x00-\x7f]")
_CHINESE_CODECS = ("gb18030", "big5hkscs")
# two Chinese characters of GBK read as Latin-1 and saved as UTF-8 are four 2-byte Latin-1 characters in a
# row; found with a translate table and a substring search (a regex is 50x slower on large pages)
_DOUBLE_ENCODED_SIGNS = bytes(
    ord("L") if b in (0xC2, 0xC3) else ord("c") if 0x80 <= b <= 0xBF else ord(".") for b in range(256)
)
_DOUBLE_ENCODED_RUN = b"LcLcLcLc"
# high-byte characters of Western text that are not letters: NBSP, quotes, dashes, bullets, symbols
_TYPOGRAPHY = frozenset("\u00a0«»°§©®·×–—‘’‚“”„•…€™£¿¡")
_FIRST_HIGH = lazy_compile(rb"[\x80-\xff]")
_HIGH_SIGNS = bytes(ord("H") if b >= 0x80 else ord(".") for b in range(256))

# a character outside Latin-1 and windows-1252 (whose 0x80-0x9F characters cover ISO-8859-15's eight):
# its presence means the text is not double-encoded
_CP1252_EXTRAS = bytes(range(0x80, 0xA0)).decode("cp1252", "ignore")
_NOT_LATIN1 = lazy_compile("[^\\x00-\\xff" + re.escape(_CP1252_EXTRAS) + "]")


@dataclass(frozen=True, slots=True)
class Decoded:
    """Decoded text, the codec used, and how it was chosen.

    ``source`` is one of ``empty``, ``bom``, ``utf-16``, ``binary``, ``ascii``, ``utf-8``, ``repaired``,
    ``declared``, ``utf-8-lenient``, ``declared-lenient``, ``detected``, ``fallback``. ``error`` is set when
    the bytes are not text at all (binary data); ``text`` is then a lossy reading. ``utf8`` is ``text``
    in UTF-8 when the page's bytes were that already (``ascii`` and ``utf-8``): the parser reads them
    without the text being encoded again.
    """

    text: str
    encoding: str
    source: str
    error: str | None = None
    utf8: bytes | None = field(default=None, repr=False, compare=False)


def normalize_charset(label: str | None) -> str | None:
    """Map a declared charset label to the Python codec to decode with; None if unknown or refused.

    >>> normalize_charset("GB2312"), normalize_charset("bogus"), normalize_charset("utf-7")
    ('gb18030', None, None)
    """
    if not label:
        return None
    name = label.strip().strip("\"'").lower()
    name = _ALIASES.get(name, name)
    try:
        codec = codecs.lookup(name).name
    except LookupError:
        return None
    return None if codec in _IGNORED_CODECS else codec


def charset_from_content_type(content_type: str | bytes | None) -> str | None:
    """The charset parameter of an HTTP Content-Type header value.

    >>> charset_from_content_type("text/html; charset=GBK")
    'GBK'
    """
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


@lru_cache(maxsize=64)
def _single_byte(codec: str) -> bool:
    """True for codecs that read each high byte alone as one character (any byte string "decodes")."""
    return sum(len(bytes([b]).decode(codec, "ignore")) for b in _HIGH_BYTES) >= SINGLE_BYTE_DEFINED_MIN


def _stray_bytes(err: UnicodeError) -> tuple[str, int]:
    """Error handler: a lone high byte between ASCII bytes is a windows-1252 letter, else U+FFFD."""
    if not isinstance(err, UnicodeDecodeError):
        raise err
    data, start, end = err.object, err.start, err.end
    if (
        end - start == 1
        and data[start] >= 0xA0
        and (start == 0 or data[start - 1] < 0x80)
        and (end == len(data) or data[end] < 0x80)
    ):
        return bytes(data[start:end]).decode("cp1252"), end
    return "\ufffd", end


def _latin1_fill(err: UnicodeError) -> tuple[str, int]:
    """Error handler: a byte a single-byte codec leaves undefined is read as Latin-1 (as browsers do)."""
    if not isinstance(err, UnicodeDecodeError):
        raise err
    return bytes(err.object[err.start : err.end]).decode("latin-1"), err.end


codecs.register_error("newscrawl-stray-bytes", _stray_bytes)
def _latin1_bytes(err: UnicodeError) -> tuple[bytes, int]:
    """Encode error handler: a Latin-1 character the codec lacks (a C1 control) becomes its own byte."""
    if not isinstance(err, UnicodeEncodeError):
        raise err
    return err.object[err.start : err.end].encode("latin-1"), err.end  # raises past U+00FF, as it should


codecs.register_error("newscrawl-latin1-fill", _latin1_fill)
codecs.register_error("newscrawl-latin1-bytes", _latin1_bytes)


def _try(data: bytes, codec: str) -> str | None:
    try:
        return data.decode(codec)
    except (UnicodeDecodeError, LookupError):
        return None


def _bad_sequences(text: str, data: bytes) -> int:
    """U+FFFD produced by a lenient decode (not counting those the page itself contains)."""
    return text.count("\ufffd") - data.count(b"\xef\xbf\xbd")


def _non_ascii(text: str) -> int:
    """Number of non-ASCII characters in ``text`` (fast: no list of matches)."""
    return len(text) - len(text.encode("ascii", "ignore"))


def _tolerable(errors: int, non_ascii: int) -> bool:
    return errors <= max(LENIENT_ERRORS_MIN, non_ascii * LENIENT_ERROR_SHARE)


def chinese_score(text: str) -> float:
    """How much ``text`` reads as Chinese, 0..1: the share of its ideographs among COMMON_HANZI.

    A wrong reading of Latin text (windows-1252 read as GBK) gives characters outside GB2312, never
    common ones; a wrong reading of Big5 as GBK, or the reverse, gives rare ones.

    >>> chinese_score("中国的人民是我们的朋友，也是他们的老师。") > 0.5
    True
    """
    ideographs = "".join(_CJK_RUN.findall(text))
    if not ideographs:
        return 0.0
    return (len(ideographs) - len(ideographs.translate(_DELETE_COMMON))) / len(ideographs)


def _sample(data: bytes) -> bytes:
    """DETECT_SAMPLE_BYTES of ``data`` from just before its first non-ASCII byte (pages often open with
    long ASCII scripts and styles)."""
    m = _FIRST_HIGH.search(data)
    start = max(0, m.start() - 1024) if m else 0
    return data[start : start + DETECT_SAMPLE_BYTES]


def _high_pair_share(sample: bytes) -> float:
    """Share of the high bytes of ``sample`` that come in high-high pairs (1.0 when there are none)."""
    signs = sample.translate(_HIGH_SIGNS)
    high = signs.count(b"H")
    return 2 * signs.count(b"HH") / high if high else 1.0


def _read_as_chinese(data: bytes) -> tuple[str, float] | None:
    """The Chinese codec (GB18030 or Big5) that reads ``data`` best, with its score; None if neither does."""
    sample = _sample(data)
    if _high_pair_share(sample) < HIGH_PAIR_SHARE_MIN:
        return None
    best: tuple[str, float] | None = None
    for codec in _CHINESE_CODECS:
        text = sample.decode(codec, "replace")
        non_ascii = _non_ascii(text)
        if not non_ascii or not _tolerable(_bad_sequences(text, sample), non_ascii):
            continue
        if sum(map(len, _CJK_OR_PUNCT_RUN.findall(text))) < CJK_SHARE_MIN * non_ascii:
            continue
        score = chinese_score(text)
        if score >= HANZI_SCORE_MIN and (best is None or score > best[1]):
            best = (codec, score)
            if score >= CLEARLY_CHINESE_SCORE:
                break
    return best


def _western_codec(sample: bytes) -> str:
    """The WESTERN_CODECS codec that reads the most high bytes of ``sample`` as letters or typography."""
    best, best_score = WESTERN_CODECS[0], -1
    high = bytes(b for b in set(sample) if b >= 0x80)
    counts = {b: sample.count(b) for b in high}
    for codec in WESTERN_CODECS:
        score = 0
        for b, n in counts.items():
            ch = bytes([b]).decode(codec, "ignore")
            if ch and (ch.isalpha() or ch in _TYPOGRAPHY):
                score += n
        if score > best_score:
            best, best_score = codec, score
    return best


def _looks_utf16(data: bytes) -> str | None:
    """``utf-16-le`` / ``utf-16-be`` when ``data`` is UTF-16 without a BOM (ASCII text with NUL bytes)."""
    head = data[:4096]
    if len(head) < 4:
        return None
    even, odd = head[0::2], head[1::2]
    if odd.count(0) > UTF16_NUL_SHARE * len(odd) and even.count(0) < 0.1 * len(even):
        return "utf-16-le"
    if even.count(0) > UTF16_NUL_SHARE * len(even) and odd.count(0) < 0.1 * len(odd):
        return "utf-16-be"
    return None


def _binary_reason(data: bytes) -> str | None:
    """Why ``data`` is binary rather than text (control bytes, or mostly NUL), or None."""
    sample = data[:BINARY_SAMPLE_BYTES]
    control = (len(sample) - len(sample.translate(None, _CONTROL_BYTES))) / len(sample)
    if control > BINARY_CONTROL_SHARE:
        return f"{control:.0%} control bytes"
    nul = sample.count(0) / len(sample)
    if nul > BINARY_NUL_SHARE:
        return f"{nul:.0%} NUL bytes"
    return None


_Step = tuple[str, str]  # (Latin codec the text was mis-read with, codec of the bytes underneath)


def _undo_double_encoding(text: str) -> tuple[str, str] | None:
    """Chinese text that was read as a Latin charset and saved as UTF-8 (once or more), restored.

    The layers are worked out on a sample, then undone on the whole text. None when ``text`` is not
    such a page.
    """
    if _non_ascii(text) < DOUBLE_ENCODED_MIN or _NOT_LATIN1.search(text):
        return None
    m = _NON_ASCII.search(text)
    start = max(0, m.start() - 1024) if m else 0
    found = _double_encoding_steps(text[start : start + DETECT_SAMPLE_BYTES], DOUBLE_ENCODED_LAYERS)
    if found is None:
        return None
    for latin, codec in found[0]:
        text = text.encode(latin, "newscrawl-latin1-bytes").decode(codec, "replace")
    return text, found[0][-1][1]


def _double_encoding_steps(text: str, layers: int) -> tuple[list[_Step], float] | None:
    """The steps that turn double-encoded ``text`` back into Chinese, and the result's score.

    Each layer may have been windows-1252 or ISO-8859-15 (they differ on eight characters); both are
    tried, and the reading most like Chinese wins.
    """
    if _NOT_LATIN1.search(text):
        return None
    best: tuple[list[_Step], float] | None = None
    for latin in ("cp1252", "iso8859-15"):
        try:
            raw = text.encode(latin, "newscrawl-latin1-bytes")
        except UnicodeEncodeError:
            continue
        inner = _try(raw, "utf-8")
        candidate: tuple[list[_Step], float] | None = None
        if inner is None:
            chinese = _read_as_chinese(raw)
            if chinese is not None:
                candidate = ([(latin, chinese[0])], chinese[1])
        elif (score := chinese_score(inner)) >= HANZI_SCORE_MIN:
            candidate = ([(latin, "utf-8")], score)
        elif layers > 1 and (deeper := _double_encoding_steps(inner, layers - 1)) is not None:
            candidate = ([(latin, "utf-8"), *deeper[0]], deeper[1])
        if candidate is not None and (best is None or candidate[1] > best[1]):
            best = candidate
    return best


def _detect_with_charset_normalizer(data: bytes) -> str | None:
    from charset_normalizer import from_bytes  # on first use: most pages declare their charset

    matches = from_bytes(_sample(data), cp_isolation=None)
    best = matches.best()
    if best is None or not best.encoding:
        return None
    # Western pages: windows-1252 (the browsers' default) when it reads the sample as well as the guess
    for m in matches:
        if m.percent_chaos <= best.percent_chaos and "cp1252" in m.could_be_from_charset:
            return "cp1252"
    return normalize_charset(best.encoding) or best.encoding


def decode_html(data: bytes, *, http_charset: str | None = None) -> Decoded:
    """Decode an HTML page's bytes; never raises for any byte string."""
    if not data:
        return Decoded("", "utf-8", "empty")
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return Decoded(data.decode(codec, "replace"), codec.replace("-sig", ""), "bom")
    if b"\x00" in data[:4096]:
        utf16 = _looks_utf16(data)
        if utf16:
            return Decoded(data.decode(utf16, "replace"), utf16, "utf-16")
    binary = _binary_reason(data)
    if binary:
        text = data.decode("utf-8", "replace")
        return Decoded(text, "utf-8", "binary", error=f"binary data, not text ({binary})")
    # control bytes are never part of a character in the ASCII-compatible charsets handled from here on
    if _has_stripped_byte(data):
        data = data.translate(None, _STRIPPED_BYTES)

    if data.isascii():
        declared = _declared_codecs(data, http_charset)
        if b"\x1b$" in data:  # ISO-2022-JP/KR switch character sets with escape sequences in 7 bits
            for codec in (*declared, "iso2022_jp", "iso2022_kr"):
                if codec.startswith("iso2022") and (escaped := _try(data, codec)) is not None:
                    return Decoded(escaped, codec, "declared" if codec in declared else "detected")
        return Decoded(data.decode("ascii"), declared[0] if declared else "utf-8", "ascii", utf8=data)

    utf8 = _try(data, "utf-8")
    if utf8 is not None:
        if (
            _holds(data, b"\xc3", DOUBLE_ENCODED_MIN)
            and (not (declared := _declared_codecs(data, http_charset)) or _declares_chinese(declared))
            and _DOUBLE_ENCODED_RUN in data.translate(_DOUBLE_ENCODED_SIGNS)
        ):
            repaired = _undo_double_encoding(utf8)
            if repaired is not None:
                return Decoded(repaired[0], repaired[1], "repaired")
        return Decoded(utf8, "utf-8", "utf-8", utf8=data)

    declared = _declared_codecs(data, http_charset)
    multi = [c for c in declared if c != "utf-8" and not _single_byte(c)]
    for codec in multi:
        strict = _try(data, codec)
        if strict is not None:
            return Decoded(strict, codec, "declared")
    almost = _almost_clean(data, multi)
    if almost is not None:
        return almost
    single = [c for c in declared if _single_byte(c)]
    if single:
        chinese = _read_as_chinese(data)
        if chinese is not None:
            return Decoded(data.decode(chinese[0], "replace"), chinese[0], "detected")
        return Decoded(data.decode(single[0], "newscrawl-latin1-fill"), single[0], "declared")

    chinese = _read_as_chinese(data)
    if chinese is not None:
        return Decoded(data.decode(chinese[0], "replace"), chinese[0], "detected")
    sample = _sample(data)
    if _high_pair_share(sample) < HIGH_PAIR_SHARE_MIN:
        # high bytes standing alone between ASCII: a Western single-byte page (German, French, Polish ...)
        codec = _western_codec(sample)
        return Decoded(data.decode(codec, "newscrawl-latin1-fill"), codec, "detected")
    guess = _detect_with_charset_normalizer(data)
    if guess:
        guessed = _try(data, guess)
        if guessed is not None:
            return Decoded(guessed, guess, "detected")
        if _single_byte(guess):
            return Decoded(data.decode(guess, "newscrawl-latin1-fill"), guess, "detected")
    return Decoded(data.decode("utf-8", "replace"), "utf-8", "fallback")


def _holds(data: bytes, byte: bytes, times: int) -> bool:
    """Whether ``byte`` occurs at least ``times`` times in ``data``: a few finds (each a ``memchr``) cost
    a twentieth of a count of the whole page."""
    at = -1
    for _ in range(times):
        at = data.find(byte, at + 1)
        if at < 0:
            return False
    return True


def strip_controls(text: str) -> str:
    r"""``text`` without the control characters decoding drops (for text that did not come from bytes).

    >>> strip_controls("a\x00b\tc")
    'ab\tc'
    """
    data = text.encode("utf-8", "surrogatepass")
    clean = data.translate(None, _STRIPPED_BYTES)
    return text if len(clean) == len(data) else clean.decode("utf-8", "surrogatepass")


def _declares_chinese(declared: list[str]) -> bool:
    return any(c in _CHINESE_CODECS for c in declared)


def _declared_codecs(data: bytes, http_charset: str | None) -> list[str]:
    """Usable declared codecs, the HTTP header's first, without duplicates."""
    out: list[str] = []
    for label in (http_charset, declared_charset(data)):
        codec = normalize_charset(label)
        if codec and codec not in out:
            out.append(codec)
    return out


def _almost_clean(data: bytes, declared_multi: list[str]) -> Decoded | None:
    """UTF-8 or a declared multi-byte charset with a few bad sequences; the reading with fewest wins."""
    best: Decoded | None = None
    best_errors = 0
    lenient = data.decode("utf-8", "replace")
    errors = _bad_sequences(lenient, data)
    non_ascii = _non_ascii(lenient) - errors
    if non_ascii and (non_ascii >= UTF8_VALID_PER_ERROR * errors or _tolerable(errors, non_ascii + errors)):
        text = data.decode("utf-8", "newscrawl-stray-bytes")
        best, best_errors = Decoded(text, "utf-8", "utf-8-lenient"), errors
    for codec in declared_multi:
        text = data.decode(codec, "replace")
        errors = _bad_sequences(text, data)
        if _tolerable(errors, _non_ascii(text)) and (best is None or errors < best_errors):
            best, best_errors = Decoded(text, codec, "declared-lenient"), errors
    return best
