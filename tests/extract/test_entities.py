"""Character references decoded as html.unescape does, however many (newscrawl.extract.entities)."""

from __future__ import annotations

import html
import random

import pytest

from newscrawl.extract import entities
from newscrawl.extract.entities import unescape

#: references of every kind html.unescape treats apart: named with and without ';', a name's prefix,
#: unknown, numeric in range, out of range, control, noncharacter, surrogate, and one standing for a space
PIECES = [
    "&amp;", "&amp", "&notit;", "&bogus;", "&#x4e2d;", "&#20013;", "&#0;", "&#1;", "&#128;", "&#x81;",
    "&#xD800;", "&#99999999;", "&#xFFFE;", "&#32;", "&#x20", "&ThinSpace;", "&nbsp", "&NotEqualTilde;",
    "&" + "a" * 40, "&#", "&#x", "&", ";", "#", " ", "\n", "a", "中",
]


@pytest.fixture(autouse=True)
def empty_cache():
    entities._DECODED.clear()
    yield
    entities._DECODED.clear()


def test_random_mixtures_decode_as_html_unescape() -> None:
    rnd = random.Random(14)
    for _ in range(300):
        text = "".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 2_000)))
        assert unescape(text) == html.unescape(text)


@pytest.mark.parametrize("storm", ["&amp;&#x4e2d;&lt;" * 5_000, "&#32;&#x20;&amp" * 5_000])
def test_a_storm_of_repeated_references_decodes_as_html_unescape(storm: str) -> None:
    assert unescape(storm) == html.unescape(storm)
    assert unescape(storm) == html.unescape(storm)  # from the cache


def test_a_storm_of_distinct_references_decodes_as_html_unescape() -> None:
    storm = "".join(f"&#{i};x" for i in range(0x4E00, 0x4E00 + 20_000))
    assert unescape(storm) == html.unescape(storm)


def test_repeats_after_distinct_ones_decode_as_html_unescape() -> None:
    text = "".join(f"&#{i};" for i in range(0x4E00, 0x4E00 + 3_000)) + "&amp;" * 10_000
    assert unescape("&lt;" * 2_000 + text) == html.unescape("&lt;" * 2_000 + text)


def test_a_full_cache_still_decodes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(entities, "CACHE_SIZE", 10)
    text = "".join(f"&#{0x4E00 + i % 50};" for i in range(5_000))
    assert unescape(text) == html.unescape(text)
    assert len(entities._DECODED) <= 10
