"""The SimHash in C (``newscrawl.extract._csimhash``) against its Python reference
(``dedup.python_simhash``), bit for bit, and its BLAKE2b against hashlib's."""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from newscrawl.extract import native
from newscrawl.storage import dedup
from newscrawl.storage.dedup import python_simhash, shingles, simhash

needs_c = pytest.mark.skipif(
    native.csimhash is None, reason=f"the SimHash extension is not in use: {native.describe()}"
)


def c_simhash(text: str, size: int = dedup.SHINGLE) -> int | None:
    """The C function as :func:`dedup.simhash` calls it: on the lower-cased text."""
    assert native.csimhash is not None
    return native.csimhash.simhash(text.lower(), size)


def shingle_of(nbytes: int, char: str = "a") -> str:
    """Three tokens whose only shingle is ``nbytes`` bytes of UTF-8: a word of ``char`` and two letters."""
    width = len(char.encode())
    assert (nbytes - 4) % width == 0
    text = char * ((nbytes - 4) // width) + " b c"
    assert [len(g.encode()) for g in shingles(text)] == [nbytes]
    return text


STORY = (
    "临江市今天发布寒潮蓝色预警，受强冷空气影响，预计未来三天全市最低气温将降至零下六摄氏度。"
    "市气象台提醒市民注意防寒保暖，外出时关注道路结冰情况。"
)
ENGLISH = (
    "The harbour board approved a new plan for the old docks on Tuesday evening after a long debate. "
    "Work on the first warehouse is expected to start in the spring and to finish within two years."
)
TEXTS = {
    "chinese": STORY,
    "english": ENGLISH,
    "mixed": "新华社北京11月25日电 The State Council said on Monday 国务院常务会议 GDP增长5.2%。",
    "japanese and korean": "東京都は今日、新しい計画を発表した。서울시는 오늘 새로운 계획을 발표했다。",
    "digits": "2026 11 25 3.14159 ١٢٣ ४५६ 一二三 ½ ² Ⅻ",
    "underscores": "snake_case_name __init__ a_b_c _ __ x_ _y foo_bar baz",
    "lower() longer": "İstanbul İzmir KAYSERİ İİİ ẞ ΣΑΣ",  # İ lowers to i and a combining dot (two chars)
    "two tokens": "你好",
    "one token": "hello",
    "one CJK character": "中",
    "empty": "",
    "punctuation only": " ，。！？、…—“”《》 ;:,.!? -- ** __ ",
    "repeated shingles": "the cat sat " * 50 + "on the mat " * 7 + "猫坐在垫子上" * 30,
    "the same shingle only": "a b c a b c a b c",
    "latin-1 and beyond": "Ça va très bien, Øresund, naïve café, ÆØÅ, ß, µ, ª º, ÿ",
    "astral": "𠀀𠀁𠀂 𝐀𝐁𝐂 𝟎𝟏𝟐 😀 emoji 🙂 text 𐐀𐐨 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    "tabs and newlines": "line one\nline\ttwo\r\nline three\u2028four\u3000五六七",
    "hangul jamo and compatibility": "ᄀᄁ ㄱㄴㄷ 가각 힣 ힰ ힻ",
    "cjk range edges": "\u303f\u3040\u30ff\u3100\u33ff\u3400\u4dbf\u4dc0\u4dff\u4e00\u9fff\ua000"
    "\uabff\uac00\ud7af\ud7b0\uf8ff\uf900\ufaff\ufb00",
    "very long": (ENGLISH + " " + STORY + " ") * 400 + "end",
    **{f"one shingle of {n} bytes": shingle_of(n) for n in (127, 128, 129, 255, 256, 257)},
    **{f"one shingle of {n} bytes, 2-byte characters": shingle_of(n, "é") for n in (128, 256)},
    **{f"one shingle of {n} bytes, 3-byte characters": shingle_of(n, "ㄱ") for n in (127, 256)},
    "shingles across block boundaries": " ".join("x" * n for n in range(100, 140)),
}


@needs_c
@pytest.mark.parametrize("name", TEXTS)
def test_c_and_python_fingerprints_are_equal_on_written_texts(name: str) -> None:
    text = TEXTS[name]
    assert c_simhash(text) == python_simhash(text)
    assert simhash(text) == python_simhash(text)


@needs_c
@pytest.mark.parametrize("size", [1, 2, 3, 4, 7, 500, 0, -2, 10**30, -(10**30)])
def test_c_and_python_agree_on_every_shingle_size(size: int) -> None:
    for text in (STORY, ENGLISH, TEXTS["mixed"], "你好", "", "one"):
        assert c_simhash(text, size) == python_simhash(text, size), (text, size)


@needs_c
def test_repeated_shingles_count_once() -> None:
    # a majority of one shingle's bits would win if its copies counted: they do not, in either code
    once = "alpha beta gamma delta epsilon zeta eta theta iota kappa"
    repeated = once + " " + "alpha beta gamma " * 200
    twice = once + " alpha beta gamma alpha beta gamma"  # the same distinct shingles
    assert shingles(repeated) == shingles(twice)
    assert c_simhash(repeated) == python_simhash(repeated) == python_simhash(twice)


@needs_c
def test_empty_and_tokenless_texts_have_no_fingerprint() -> None:
    for text in ("", " ", "，。！", "___", "\u0307\u0308"):
        assert c_simhash(text) == 0 == python_simhash(text)


@needs_c
def test_the_basic_multilingual_plane_is_tokenized_as_python_does() -> None:
    # every character between a word's letters: it joins them (a letter or digit), splits them into three
    # tokens (CJK) or separates them (anything else); the three give different fingerprints, so a character
    # the C code classes otherwise than Python's re (dedup._CJK, \w less "_") shows here
    differ = [
        hex(c)
        for c in range(0x10000)
        if not 0xD800 <= c <= 0xDFFF and c_simhash(f"q{chr(c)}z w") != python_simhash(f"q{chr(c)}z w")
    ]
    assert differ == []


@needs_c
def test_other_planes_sampled_are_tokenized_as_python_does() -> None:
    rng = random.Random(7)
    chars = [chr(c) for c in range(0x10000, 0x110000, 97)]
    chars += [chr(rng.randrange(0x10000, 0x110000)) for _ in range(500)]
    assert [c for c in chars if c_simhash(f"q{c}z w") != python_simhash(f"q{c}z w")] == []


@needs_c
def test_a_lone_surrogate_is_left_to_python() -> None:
    # the C code takes no text it could not encode; Python never meets the surrogate in a token (it is not
    # a letter), so the fingerprint is Python's
    text = "the cat \ud800 sat on the mat"
    assert c_simhash(text) is None
    assert simhash(text) == python_simhash(text) == python_simhash("the cat sat on the mat")


@needs_c
def test_blake2b_8_is_hashlibs_for_every_length_up_to_300() -> None:
    assert native.csimhash is not None
    rng = random.Random(2026)
    for length in range(301):
        for _ in range(3):
            data = rng.randbytes(length)
            expected = int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")
            assert native.csimhash.blake2b_8(data) == expected, length
    assert native.csimhash.blake2b_8("ÿ".encode() * 500) == dedup.shingle_hash("ÿ" * 500)


@needs_c
def test_the_c_code_refuses_what_is_not_text() -> None:
    assert native.csimhash is not None
    with pytest.raises(TypeError):
        native.csimhash.simhash(b"bytes", 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        native.csimhash.simhash("text", 3.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        native.csimhash.simhash("text")  # type: ignore[call-arg]


#: text as crawled pages hold it: CJK, Latin with accents, digits, punctuation, spaces, astral characters
_ALPHABET = st.sampled_from(
    list("新华社北京电今天发布寒潮预警ひらがなカタカナ한국어") + list("abcxyzÉéİıßø_0123456789٣")
    + list(" \n\t，。!?-'\u3000\u0307") + ["𠀀", "😀", "𝐀"]
)  # fmt: skip


@needs_c
@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=300), st.integers(min_value=-1, max_value=6))
def test_c_and_python_agree_on_generated_texts(text: str, size: int) -> None:
    assert c_simhash(text, size) == python_simhash(text, size)


@needs_c
@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_c_and_python_agree_on_any_text(text: str) -> None:
    assert simhash(text) == python_simhash(text)


def test_the_python_simhash_runs_when_asked_for() -> None:
    # NEWSCRAWL_PURE_PYTHON: the extension is not loaded, and the fingerprints are the same
    code = (
        "from newscrawl.extract import native; from newscrawl.storage import dedup; "
        f"print(native.csimhash is None, dedup._c_simhash() is None, dedup.simhash({ENGLISH!r}))"
    )
    env = {**os.environ, "NEWSCRAWL_PURE_PYTHON": "1", "PYTHONPATH": str(Path(__file__).parents[2])}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "True", str(python_simhash(ENGLISH))]
    assert "SimHash: Python (NEWSCRAWL_PURE_PYTHON is set)" in subprocess.run(
        [sys.executable, "-c", "from newscrawl.extract import native; print(native.describe())"],
        env=env, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
