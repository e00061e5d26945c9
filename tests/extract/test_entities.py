"""Character references decoded as html.unescape does, however many (newscrawl.extract.entities)."""

from __future__ import annotations

import html
import random
from html.entities import html5

import pytest

from newscrawl.extract import entities
from newscrawl.extract.entities import special, unescape

#: references of every kind html.unescape treats apart: named with and without ';', a name's prefix,
#: unknown, numeric in range, out of range, control, noncharacter, surrogate, and one standing for a space
PIECES = [
    "&amp;", "&amp", "&notit;", "&bogus;", "&#x4e2d;", "&#20013;", "&#0;", "&#1;", "&#128;", "&#x81;",
    "&#xD800;", "&#99999999;", "&#xFFFE;", "&#32;", "&#x20", "&ThinSpace;", "&nbsp", "&NotEqualTilde;",
    "&" + "a" * 40, "&#", "&#x", "&", ";", "#", " ", "\n", "a", "中",
    # numbers at and around the edges: leading zeros, the last code point, past it, digit counts
    "&#0000065;", "&#00000000065;", "&#x0000041;", "&#x000000000041", "&#1114111;", "&#1114112;",
    "&#x10FFFF;", "&#x110000;", "&#9999999;", "&#10000000;", "&#xFFFFFF;", "&#x1000000;", "&#13;",
    "&#x0D;", "&#127;", "&#159;", "&#160;", "&#xFDD0;", "&#xFDEF;", "&#x10FFFE;", "&#x1FFFF;", "&#xDFFF;",
    "&#55295;", "&#57344;", "&#38;", "&#38;amp;", "&#X41;", "&#x;", "&#;", "&#a;",
    # names: legacy prefixes of every length, a name followed by letters, longest-prefix choice
    "&notin;", "&notinx;", "&not", "&no", "&n", "&curren", "&currenx;", "&curre;", "&middotx",
    "&AElig", "&AEligx", "&AE", "&lt", "&ltx;", "&gtlt;", "&amp;amp;", "&Amp;", "&AMP;", "&AMP",
    "&" + "b" * 32 + ";", "&" + "c" * 31 + ";", "&&", "&;", "& ", "&\t", "&\f",
]  # fmt: skip


def test_random_mixtures_decode_as_html_unescape() -> None:
    rnd = random.Random(14)
    for _ in range(300):
        text = "".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 2_000)))
        assert unescape(text) == html.unescape(text)


@pytest.mark.parametrize("storm", ["&amp;&#x4e2d;&lt;" * 5_000, "&#32;&#x20;&amp" * 5_000])
def test_a_storm_of_repeated_references_decodes_as_html_unescape(storm: str) -> None:
    assert unescape(storm) == html.unescape(storm)


def test_a_storm_of_distinct_references_decodes_as_html_unescape() -> None:
    storm = "".join(f"&#{i};x" for i in range(0x4E00, 0x4E00 + 20_000))
    assert unescape(storm) == html.unescape(storm)


def test_repeats_after_distinct_ones_decode_as_html_unescape() -> None:
    text = "".join(f"&#{i};" for i in range(0x4E00, 0x4E00 + 3_000)) + "&amp;" * 10_000
    assert unescape("&lt;" * 2_000 + text) == html.unescape("&lt;" * 2_000 + text)


@pytest.mark.parametrize("form", ["&#{n};", "&#x{n:x}", "&#X{n:04X};"])
def test_every_code_point_decodes_as_html_unescape(form: str) -> None:
    # controls, C1, surrogates, noncharacters of every plane, the last code point and past it
    text = "".join(form.format(n=n) for n in range(0x110000 + 16))
    assert unescape(text) == html.unescape(text)


def test_the_special_table_holds_html_unescapes_own_tables() -> None:
    invalid_charrefs: dict[int, str] = getattr(html, "_invalid_charrefs", {})
    invalid_codepoints: set[int] = getattr(html, "_invalid_codepoints", set())
    if not invalid_charrefs or not invalid_codepoints:
        pytest.skip("this Python's html module keeps its tables elsewhere (the code point test covers it)")
    for n, text in invalid_charrefs.items():
        assert special().get(chr(n), chr(n)) == text
    for n in invalid_codepoints - set(invalid_charrefs):
        assert special()[chr(n)] == ""


def test_every_name_with_and_without_its_semicolon_and_a_tail_decodes_as_html_unescape() -> None:
    names = sorted(name.rstrip(";") for name in html5)
    text = "".join(f"&{n};&{n} &{n}x;&{n}xyz&{n[:-1]};" for n in names)
    assert unescape(text) == html.unescape(text)


def test_distinct_unknown_names_decode_as_html_unescape() -> None:
    rnd = random.Random(17)
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    text = "".join(
        "&" + "".join(rnd.choice(letters) for _ in range(rnd.randint(1, 34))) + rnd.choice([";", "", " "])
        for _ in range(20_000)
    )
    assert unescape(text) == html.unescape(text)


@pytest.mark.parametrize("count", [1, 100])
def test_a_number_too_long_for_int_is_read_as_html5_does(count: int) -> None:
    # html.unescape raises ValueError past Python's 4,300 digits for int() on text
    huge = "&#" + "9" * 5_000 + ";"
    zeros = "&#" + "0" * 5_000 + "65;"
    hex_zeros = "&#x" + "0" * 5_000 + "4e2d;"
    with pytest.raises(ValueError):
        html.unescape(huge)
    assert unescape((huge + zeros + hex_zeros + "&amp;") * count) == "\ufffdA中&" * count


def test_text_without_references_is_returned_as_it_is() -> None:
    text = "no references here; # x"
    assert unescape(text) is text
    assert entities.FEW > 1
