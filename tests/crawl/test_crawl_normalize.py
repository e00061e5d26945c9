"""Record normalisation: white space, language codes, content hash (times: extract/test_overrides.py)."""

from __future__ import annotations

import pytest

from newscrawl.pipelines.normalize import (
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


@pytest.mark.parametrize(("value", "expected"), [("zh-CN", "zh"), ("en_US", "en"), ("ZH", "zh"), ("x", None)])
def test_language_codes(value, expected):
    assert normalize_language(value) == expected


def test_content_hash_ignores_white_space_only():
    assert content_hash("第一段\n第二段") == content_hash("第一段 第二段")
    assert content_hash("第一段") != content_hash("第二段")
