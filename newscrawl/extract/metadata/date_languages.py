"""The languages dateparser is given for one value: never all of them.

Without ``languages`` dateparser tries every locale it has, and its first call in a process builds each
of the 205 it passes (1.5-2.1 s of CPU, once per process and worker, on whichever page first holds a
date string no locale reads; issue 14). The languages that can read a value are those whose date words
(month and weekday names, "ago", "am", skip words...) its words are: so a value is given

* the page's declared languages dateparser knows, with English, when the page declares one (as before);
* else English and the languages whose vocabulary holds the most of the value's words (``7 okt 2020``:
  the languages with ``okt``; ``07 أكتوبر 2020``: Arabic and the few others using that spelling), at most
  :data:`MAX_LANGUAGES` of them in dateparser's own order of use;
* every language written in the script of a word no vocabulary holds (Chinese, Japanese or Thai run
  their words together: ``2020年10月7日星期三`` is one letter run), at most :data:`MAX_LANGUAGES`;
* for a value without letters, one language of each date order (its digits read the same in every
  locale; only the order of day, month and year differs between them).

The vocabulary comes from dateparser's own data modules (:func:`vocabulary`, built on first use: about
0.1 s, against 1.5-2.1 s for building every locale), so it follows the installed dateparser.

>>> dateparser_languages("07 أكتوبر 2020", None)[:2]
['en', 'ar']
>>> dateparser_languages("12 03 2020", None)
['en', 'ru', 'ja']
"""

from __future__ import annotations

import sys
import unicodedata
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import import_module

from newscrawl.extract.lazyre import lazy_compile

#: most languages one value is given beside English and the declared ones: each costs its first load
#: (10-30 ms); a value of one-letter words that many vocabularies hold would otherwise bring back the
#: load of every locale
MAX_LANGUAGES = 8
#: keys of a locale's data that are not words of dates
_NOT_WORDS = frozenset({"name", "date_order", "sentence_splitter_group", "locale_specific"})
_LETTERS = lazy_compile(r"[^\W\d_]+")
_DATA = "dateparser.data.date_translation_data."


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """dateparser's date words: each language's place in dateparser's order (most used first), which
    languages use each word, which write each script (in that order), one language of each date order."""

    position: dict[str, int]
    words: dict[str, tuple[str, ...]]
    scripts: dict[str, tuple[str, ...]]
    date_orders: tuple[str, ...]


def _strings(value: object) -> Iterator[str]:
    """The strings of a locale's data value (lists, and the values of mappings: their keys are
    dateparser's English canonical forms, ``"1 year ago"``)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def script_of(char: str) -> str:
    """The Unicode script of a letter, as the first word of its name (``LATIN``, ``CJK``, ``ARABIC``).

    >>> script_of("é"), script_of("月"), script_of("ж")
    ('LATIN', 'CJK', 'CYRILLIC')
    """
    return unicodedata.name(char, "").split(" ", 1)[0]


@lru_cache(maxsize=1)
def vocabulary() -> Vocabulary:
    """Read dateparser's data modules once (their ``info`` mappings, without building locales) and drop
    the modules dateparser had not loaded, so they cost no memory after."""
    from dateparser.data.languages_info import language_order

    words: dict[str, list[str]] = {}
    scripts: dict[str, list[str]] = {}
    date_orders: dict[str, str] = {}
    for language in language_order:
        name = _DATA + language
        loaded = name in sys.modules
        info = import_module(name).info
        if not loaded:
            sys.modules.pop(name, None)
        if info.get("date_order"):
            date_orders.setdefault(info["date_order"], language)
        seen: set[str] = set()
        for key, value in info.items():
            if key in _NOT_WORDS:
                continue
            for text in _strings(value):
                seen.update(_LETTERS.findall(text.casefold()))
        for word in seen:
            words.setdefault(word, []).append(language)
        for script in {script_of(word[0]) for word in seen}:
            scripts.setdefault(script, []).append(language)
    return Vocabulary(
        {language: i for i, language in enumerate(language_order)},
        {word: tuple(langs) for word, langs in words.items()},
        {script: tuple(langs) for script, langs in scripts.items()},
        tuple(date_orders.values()),
    )


def dateparser_languages(value: str, declared: tuple[str, ...] | None) -> list[str]:
    """The languages dateparser is given for ``value`` on a page declaring ``declared`` (see the module
    docstring); English first, then in dateparser's order.

    >>> dateparser_languages("7. Oktober 2020", ("de",))
    ['de', 'en']
    >>> dateparser_languages("xqzt 12 vvv 2020", None)
    ['en']
    """
    vocab = vocabulary()
    known = [code for code in declared or () if code in vocab.position]
    if known:
        return [*dict.fromkeys([*known, "en"])]
    found = set(_LETTERS.findall(value.casefold()))
    if not found:
        return [*dict.fromkeys(["en", *vocab.date_orders])]
    counts: Counter[str] = Counter()
    unknown_scripts: set[str] = set()
    for word in found:
        users = vocab.words.get(word)
        if users is None:
            unknown_scripts.add(script_of(word[0]))
        else:
            counts.update(users)
    chosen: list[str] = []
    if counts:
        best = max(counts.values())
        chosen.extend(_first(vocab, (lang for lang, n in counts.items() if n == best)))
    unknown_scripts.discard("LATIN")  # a stray Latin word (a zone name, a label) names no language
    for script in sorted(unknown_scripts):
        chosen.extend(vocab.scripts.get(script, ())[:MAX_LANGUAGES])
    return [*dict.fromkeys(["en", *chosen])]


def _first(vocab: Vocabulary, languages: Iterator[str]) -> list[str]:
    """At most :data:`MAX_LANGUAGES` of ``languages``, the most used first."""
    return sorted(languages, key=vocab.position.__getitem__)[:MAX_LANGUAGES]
