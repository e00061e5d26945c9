"""HTML character references decoded as :func:`html.unescape` does, in time that an entity storm cannot
stretch: it calls back into Python once per reference, and an 8 MB page holds close to a million of them.

A text with many references is sampled (its first :data:`SAMPLE` references) and decoded one of three ways:

- runs of numeric references one after the other (``&#20013;&#25991;...``, on average :data:`RUN` or more
  a match): each run in bulk, with no Python call per reference (``int`` mapped over the digits, the code
  points packed as UTF-32 and decoded, :func:`special` applied by ``str.translate``). An 8 MiB page of
  930,000 distinct ``&#123456;``: 0.50 s in html.unescape, 0.32 s here (the regular expression, ``split``
  and ``int`` are most of it);
- mostly repeats (``&amp;`` 200,000 times): each distinct reference decoded once and cached;
- mostly distinct references between text: :func:`html.unescape` whole (a cache would only add its cost).

The rules are html.unescape's (HTML5's): a numeric reference to 0, CR or 0x80-0x9F gives the character of
its invalid-reference table, a surrogate or a number past U+10FFFF gives U+FFFD, a control or a
noncharacter gives nothing, a name is matched whole or by its longest legacy prefix (``&notit;`` is
``¬it;``), an unknown one is left as written (``tests/extract/test_entities.py`` compares every code
point, every name and random mixtures). One difference: a number of more than 4,300 digits (Python's
limit for ``int`` on text) makes html.unescape raise ValueError (an internal error of blockstats and
linedensity, a failed author chain); here it is U+FFFD when past U+10FFFF, else its character (leading
zeros), as HTML5 reads it.
"""

from __future__ import annotations

import html
import re
import sys
from array import array
from collections.abc import Iterable
from functools import lru_cache
from html.entities import html5
from itertools import islice, repeat

from newscrawl.extract.lazyre import lazy_compile

#: character references as :func:`html.unescape` finds them: a run of numeric ones one after the other
#: (each decimal or ``x`` and hexadecimal, ``;`` optional), or one name (with its ``;`` when written); the
#: group is what follows the first ``&`` (a run starts with ``#``, a name never does).
#: Possessive: nothing is ever given back (the regex engine saving a state per reference of a run cost
#: more than html.unescape's whole decoding)
_REFERENCE = lazy_compile(
    r"&(#(?:[0-9]++|[xX][0-9a-fA-F]++);?+(?:&#(?:[0-9]++|[xX][0-9a-fA-F]++);?+)*+|[^\t\n\f <&#;]{1,32};?)"
)
#: texts with fewer ``&`` than this go to :func:`html.unescape` at once (its callback costs less than
#: the tables below on a few references)
FEW = 64
#: names html.unescape also reads without a ``;`` ("legacy" names: ``&amp``, ``&not``), and as prefixes
_LEGACY = frozenset(name for name in html5 if not name.endswith(";"))
#: the longest of them (6: ``&curren``): no longer prefix of a name can match
_LEGACY_MAX = max(map(len, _LEGACY))
#: their first two characters (a prefix of 2 is the shortest html.unescape tries)
_LEGACY_STARTS = frozenset(name[:2] for name in _LEGACY)
#: numeric references per match, on average over the sample, from which runs are decoded in bulk (a run
#: costs about as much as two references decoded one by one)
RUN = 4
#: references read to tell runs of numeric references, repeats and distinct references apart
SAMPLE = 1_000
#: distinct references whose text is kept between calls (a few MB at most)
CACHE_SIZE = 65_536
_DECODED: dict[str, str] = {}
#: the base of a number, by whether it starts with ``0x``
_BASE = {False: 10, True: 16}
#: code points packed as native unsigned 32-bit integers and decoded as UTF-32 in the same byte order
_UINT32 = next(code for code in "IL" if array(code).itemsize == 4)
_UTF32 = f"utf-32-{'le' if sys.byteorder == 'little' else 'be'}"


@lru_cache(maxsize=1)
def special() -> dict[str, str]:
    """Character -> what its numeric reference gives, where html.unescape does not decode it as itself:
    found (once, on first use) by asking it about every control, noncharacter and surrogate, which holds
    its invalid-reference table and invalid code points (``tests/extract/test_entities.py`` checks)."""
    suspects = [
        *range(0x20), *range(0x7F, 0xA0), *range(0xFDD0, 0xFDF0),
        *(plane + low for plane in range(0, 0x110000, 0x10000) for low in (0xFFFE, 0xFFFF)),
    ]  # fmt: skip
    found = {chr(n): "\ufffd" for n in range(0xD800, 0xE000)}  # surrogates
    for n in suspects:
        decoded = html.unescape(f"&#{n};")
        if decoded != chr(n):
            found[chr(n)] = decoded
    return found


@lru_cache(maxsize=1)
def _special_translation() -> tuple[dict[int, str], re.Pattern[str]]:
    """:func:`special` as a ``str.translate`` table, and a pattern finding one of them (surrogates aside:
    the UTF-32 decoding has made them U+FFFD already)."""
    table = special()
    pattern = "".join(re.escape(c) for c in table if not "\ud800" <= c <= "\udfff")
    return {ord(c): v for c, v in table.items()}, re.compile(f"[{pattern}]")


def unescape(text: str) -> str:
    """:func:`html.unescape`, each distinct reference decoded once and runs of numeric ones in bulk.

    >>> unescape("a&amp;b &#x4e2d;&lt &notit; &bogus; &#32;&#0;&#128;&#xD800;&#1;" + "&amp;" * 60)[:30]
    'a&b 中< ¬it; &bogus;  �€�&&&&&&'
    """
    if "&" not in text:
        return text
    try:
        if text.count("&") < FEW:
            return html.unescape(text)
        sample = [m.group() for m in islice(_REFERENCE.finditer(text), SAMPLE)]
        if sum(map(str.count, sample, repeat("&#"))) >= RUN * len(sample):  # runs of numeric references
            return _REFERENCE.sub(_replace, text)
        if 2 * len(set(sample)) > len(sample):  # mostly distinct: a cache would only add its cost
            return html.unescape(text)
        return _cached(text)
    except ValueError:  # html.unescape on a number of more than 4,300 digits (int's limit on text)
        return _REFERENCE.sub(_replace, text)


def _replace(match: re.Match[str]) -> str:
    """What one match of :data:`_REFERENCE` stands for."""
    found = match.group(1)
    if found[0] != "#":
        return _name(found)
    return _run(match.group()) if "&#" in found else _one(match.group())


def _one(reference: str) -> str:
    """What one numeric reference stands for.

    >>> _one("&#x4e2d;"), _one("&#0065"), _one("&#128;"), _one("&#1;"), _one("&#xD800;"), _one("&#1114112;")
    ('中', 'A', '€', '', '�', '�')
    """
    digits = reference[2:].rstrip(";")
    if len(digits) > 9:  # leading zeros, or past U+10FFFF
        return _run(reference)
    number = int(digits[1:], 16) if digits[0] in "xX" else int(digits)
    if number > 0x10FFFF:
        return "\ufffd"
    character = chr(number)
    return special().get(character, character)


def _cached(text: str) -> str:
    """:func:`unescape` of a text whose references are mostly repeats: each distinct one decoded once."""
    parts = _REFERENCE.split(text)
    references = parts[1::2]  # without their first "&"
    distinct = set(references)
    missing = distinct.difference(_DECODED)
    known = _DECODED
    if missing:
        decoded = {ref: _REFERENCE.sub(_replace, "&" + ref) for ref in missing}
        if len(known) + len(decoded) <= CACHE_SIZE:
            known.update(decoded)
        else:
            known = {**{ref: _DECODED[ref] for ref in distinct - missing}, **decoded}
    parts[1::2] = map(known.__getitem__, references)
    return "".join(parts)


def _run(run: str) -> str:
    """What a run of numeric references stands for, without a Python call per reference: the digits of
    them all read by ``int`` (base 16 after ``x``), the code points packed as UTF-32 and decoded with
    U+FFFD for what is no character (surrogates, past U+10FFFF), then :func:`special`.

    >>> _run("&#x4e2d;&#25991&#1;&#128;&#xD800;&#99999999;")
    '中文€��'
    """
    # references one after the other, each ending at the next "&#" (';' is only ever a terminator here)
    joined = run.replace(";", "").replace("&#x", "&#0x").replace("&#X", "&#0X")
    digits = joined.split("&#")[1:]
    hexadecimal = joined.count("&#0")  # every "&#0x", and decimals written with a leading 0
    if not hexadecimal:
        bases: Iterable[int] = repeat(10)
    elif joined.count("&#0x") + joined.count("&#0X") == len(digits):
        bases = repeat(16)
    else:
        bases = map(_BASE.__getitem__, map(str.startswith, digits, repeat(("0x", "0X"))))
    try:
        numbers = list(map(int, digits, bases))
    except ValueError:  # more digits than int reads from text
        numbers = [_number(d) for d in digits]
    if max(numbers) > 0xFFFFFFFF:  # what UTF-32 cannot hold: past U+10FFFF all the same
        numbers = list(map(min, numbers, repeat(0x110000)))
    decoded = array(_UINT32, numbers).tobytes().decode(_UTF32, "replace")
    translation, any_special = _special_translation()
    return decoded.translate(translation) if any_special.search(decoded) else decoded


def _number(digits: str) -> int:
    """The number ``digits`` (decimal, or hexadecimal after ``0x``) stand for, or 0x110000 (past
    U+10FFFF, as they all are) when it has more than 8 digits besides leading zeros.

    >>> _number("0" * 5000 + "65"), _number("0x" + "0" * 5000 + "4e2d"), _number("9" * 5000)
    (65, 20013, 1114112)
    """
    base = 16 if digits[:2] in ("0x", "0X") else 10
    value = (digits[2:] if base == 16 else digits).lstrip("0") or "0"
    return int(value, base) if len(value) <= 8 else 0x110000


def _name(name: str) -> str:
    """html.unescape's reading of ``&name``: the whole name, else its longest legacy prefix of 2
    characters or more followed by the rest, else the reference as written.

    >>> _name("amp;"), _name("notit;"), _name("ampx"), _name("bogus;")
    ('&', '¬it;', '&x', '&bogus;')
    """
    whole = html5.get(name)
    if whole is not None:
        return whole
    if name[:2] in _LEGACY_STARTS:  # a prefix is never a name with ';' (only the last character is ';')
        for end in range(min(len(name) - 1, _LEGACY_MAX), 1, -1):
            if name[:end] in _LEGACY:
                return html5[name[:end]] + name[end:]
    return "&" + name
