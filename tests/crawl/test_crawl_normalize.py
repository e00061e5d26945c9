"""Record normalisation: white space, language codes, content hash (times: extract/test_overrides.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from newscrawl.extract.document import strip_text_controls
from newscrawl.pipelines.normalize import (
    _BLANK_LINES,
    _SPACES,
    clean_line,
    clean_text,
    content_hash,
    normalize_language,
)


def test_clean_line_collapses_white_space():
    assert clean_line("  标题\u3000 一\n二  ") == "标题 一 二"
    assert clean_line(" \n ") is None


def test_clean_text_keeps_one_paragraph_per_line():
    assert clean_text(" 第一段 \n\n\n  第二段\u00a0内容 \n") == "第一段\n第二段 内容"


def _clean_text_by_lines(value: str) -> str:
    # clean_text as it was before it learned to give back a text that is already clean, line by line
    value = strip_text_controls(value)
    lines = (_SPACES.sub(" ", line).strip() for line in _BLANK_LINES.sub("\n", value).split("\n"))
    return "\n".join(line for line in lines if line)


@pytest.mark.parametrize(
    "value",
    [
        "第一段\n第二段 内容",  # clean: given back
        "One line.\nAnother line.",
        "a\u200bb",  # a zero-width space is a run of spaces to clean it
        "a\u3000\u3000b\nc",
        "a\tb",
        "tail \nhead",
        "a\n \nb",
        "a\n\x1c\nb",  # a control character that is white space to str.split
        "so\xadft",
        "\nlead",
        "a\r\nb",
        "x\x85y",
        "end ",
    ],
)
def test_clean_text_gives_a_clean_text_back_as_cleaning_it_would(value):
    assert clean_text(value) == _clean_text_by_lines(value)


@given(st.text(alphabet=st.sampled_from("ab 中\n\t\r\u00a0\u3000\u200b\u2028\x1c\x85\xad\x07"), max_size=12))
def test_clean_text_is_the_line_by_line_cleaning(value):
    assert clean_text(value) == _clean_text_by_lines(value)


@pytest.mark.parametrize(("value", "expected"), [("zh-CN", "zh"), ("en_US", "en"), ("ZH", "zh"), ("x", None)])
def test_language_codes(value, expected):
    assert normalize_language(value) == expected


def test_content_hash_ignores_white_space_only():
    assert content_hash("第一段\n第二段") == content_hash("第一段 第二段")
    assert content_hash("第一段") != content_hash("第二段")
