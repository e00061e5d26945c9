"""The full-text index's text in C (``_csimhash.index_form``) against its Python reference
(``search.python_index_form``), character for character."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from newscrawl.extract import native
from newscrawl.storage import search
from newscrawl.storage.search import CJK_RANGES, index_form, python_index_form

needs_c = pytest.mark.skipif(
    native.csimhash is None, reason=f"the SimHash extension is not in use: {native.describe()}"
)


def c_index_form(text: str) -> str:
    assert native.csimhash is not None
    return native.csimhash.index_form(text)


WRITTEN = [
    "5G基站 on line",
    "新华社北京11月24日电（记者 王敏）临江市今天发布寒潮蓝色预警。",
    "カタカナとひらがな、한국어 문장, 繁體字與豈",
    "plain ASCII text\nover two lines",
    "café, naïve: Latin-1 only",
    "emoji 😀 and 𠀀 (extension B, outside the ranges) beside 字",
    "a lone surrogate \ud800 beside 字",
    "\u303f\u3040\u30ff\u3100\u33ff\u3400\u4dbf\u4dc0\u4dff\u4e00\u9fff\ua000\uf8ff\uf900\ufaff\ufb00",
]


@needs_c
@pytest.mark.parametrize("text", WRITTEN)
def test_c_and_python_agree_on_written_texts(text: str) -> None:
    assert c_index_form(text) == python_index_form(text)


@needs_c
def test_every_character_of_the_basic_multilingual_plane_is_spaced_as_python_spaces_it() -> None:
    text = "".join(map(chr, range(0x10000)))
    assert c_index_form(text) == python_index_form(text)
    spaced = sum(b - a + 1 for a, b in CJK_RANGES)
    assert len(c_index_form(text)) == len(text) + 2 * spaced


@needs_c
@settings(max_examples=500, deadline=None)
@given(st.text(st.sampled_from("ab 字基カ한\n\u3040\u30ff\u3100\ufaff😀")) | st.text())
def test_c_and_python_agree_on_any_text(text: str) -> None:
    assert c_index_form(text) == python_index_form(text)


@needs_c
def test_the_c_code_refuses_what_is_not_text() -> None:
    with pytest.raises(TypeError, match="takes a str"):
        native.csimhash.index_form(b"bytes")  # type: ignore[arg-type, union-attr]


def test_index_form_runs_the_python_code_without_the_extension(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "_c_index_form", lambda: None)
    assert index_form("5G基站") == "5G 基  站 " and index_form(None) is None and index_form("") == ""
