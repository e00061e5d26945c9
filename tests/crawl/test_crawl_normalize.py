"""Record normalisation: times with offsets, white space, language codes, content hash."""

from __future__ import annotations

import pytest

from newscrawl.pipelines.normalize import (
    clean_line,
    clean_text,
    content_hash,
    normalize_language,
    normalize_time,
)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2026-11-20T08:30:00+08:00", "2026-11-20T08:30:00+08:00"),
        ("2026-11-20T00:30:00Z", "2026-11-20T00:30:00+00:00"),
        ("2026-11-20 08:30:00", "2026-11-20T08:30:00+08:00"),
        ("2026年11月20日 08:30", "2026-11-20T08:30:00+08:00"),
        ("2026年11月20日08:30  来源：临江日报", "2026-11-20T08:30:00+08:00"),
        ("2026-11-20 08:30:45\u3000来源: 示例网", "2026-11-20T08:30:45+08:00"),
        ("2026/11/20", "2026-11-20T00:00:00+08:00"),
        ("Fri, 20 Nov 2026 00:30:00 GMT", "2026-11-20T00:30:00+00:00"),
        ("1795140300", "2026-11-20T10:05:00+08:00"),
        ("1795140300000", "2026-11-20T10:05:00+08:00"),
    ],
)
def test_times_become_iso_with_offset(value, expected):
    assert normalize_time(value, "Asia/Shanghai") == expected


def test_times_without_offset_take_the_site_time_zone():
    assert normalize_time("2026-11-20 08:30", "Europe/London") == "2026-11-20T08:30:00+00:00"


@pytest.mark.parametrize("value", [None, "", "昨天", "2026年13月40日", True])
def test_unparsable_times_give_none(value):
    assert normalize_time(value) is None


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
