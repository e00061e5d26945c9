"""Hostile input through ``extract`` with every algorithm: never an exception, always a well-formed record.

Every input is generated here; none comes from a real site.
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Callable

import pytest
from hostile_support import assert_well_formed

from newscrawl.extract import ALGORITHMS, Limits, extract

ZH = "今天在北京举行的会议上，有关部门介绍了城市发展的新计划。记者从会上了解到，这项工作将在明年全面展开。"
EN = "The city council met on Tuesday to discuss the new plan for the river bank, which will open next year. "


def article(body: str = ZH * 6, head: str = "") -> str:
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>会议报道_新闻网</title>"
        f"{head}</head><body><div class='nav'><a href='/'>首页</a> <a href='/news'>新闻</a></div>"
        f"<div class='content'><h1>会议报道</h1><p>{body}</p><p>{body}</p></div>"
        "<div class='footer'>版权所有</div></body></html>"
    )


ARTICLE = article().encode("utf-8")


def _random_bytes(n: int, seed: int = 1) -> bytes:
    return random.Random(seed).randbytes(n)


def _with_nuls() -> bytes:
    return ARTICLE.replace(b"<p>", b"<p>\x00").replace("。".encode(), "。\x00\x00".encode()).replace(
        b"<div", b"<\x00div"
    )


def _mixed_charsets() -> bytes:
    gbk_part = ("<p>" + ZH + "</p>").encode("gbk")
    return article(EN * 3).encode("utf-8").replace(b"</div><div class='footer'>", gbk_part + b"</div>")


def _mixed_charsets_gbk_first() -> bytes:
    return article().encode("gbk").replace(b"</body>", ("<p>" + ZH + "</p>").encode("utf-8") + b"</body>")


def _invalid_dates() -> str:
    metas = "".join(
        f'<meta property="article:published_time" content="{v}">'
        for v in ("2019-13-45T25:61:00", "0000-00-00", "99999-01-01T00:00:00Z", "2019-02-30", "-1", "NaN")
    )
    ld = json.dumps({"@type": "NewsArticle", "datePublished": "2021-99-99", "dateModified": "not a date"})
    times = '<time datetime="yesterday-ish">sometime</time><time datetime="2020-00-00T99:99">x</time>'
    body = ZH * 3 + " 发布时间：2019年13月45日 25:61 　公元前99999年 "
    return article(body, metas + f'<script type="application/ld+json">{ld}</script>' + times)


def _deep_json_ld() -> str:
    ld = '{"@graph": [' * 5000 + "{}" + "]}" * 5000
    return article(head=f'<script type="application/ld+json">{ld}</script>')


# name -> (input, the page is unusable so error must be set)
HOSTILE: dict[str, tuple[Callable[[], bytes | str], bool]] = {
    "empty bytes": (lambda: b"", True),
    "empty str": (lambda: "", True),
    "whitespace": (lambda: b"  \n\t\r\n   \xe3\x80\x80  ", True),
    "random bytes": (lambda: _random_bytes(20_000), True),
    "png served as html": (lambda: b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + _random_bytes(5_000, 2), True),
    "gzip served as html": (lambda: gzip.compress(ARTICLE * 20), True),
    "mostly nul": (lambda: b"\x00" * 10_000 + ARTICLE, True),
    "truncated mid-tag": (lambda: ARTICLE[: ARTICLE.index(b"<div class='content'>") + 7], False),
    "truncated mid-text": (lambda: ARTICLE[: len(ARTICLE) // 2], False),
    "truncated mid-character": (lambda: ARTICLE[: ARTICLE.index("会议上".encode()) + 1], False),
    "truncated mid-comment": (lambda: ARTICLE.replace(b"<h1>", b"<!-- comment never closed <h1>"), False),
    "truncated mid-script": (lambda: ARTICLE.replace(b"<h1>", b"<script>var a = '<p>"), False),
    "nul bytes in text and tags": (_with_nuls, False),
    "nul characters in str": (lambda: _with_nuls().decode("utf-8"), False),
    "utf-8 page with a gbk paragraph": (_mixed_charsets, False),
    "gbk page with a utf-8 paragraph": (_mixed_charsets_gbk_first, False),
    "5 MB single text node": (lambda: "<html><body><p>" + "word " * 1_000_000 + "</p></body></html>", False),
    "20,000 sibling links": (
        lambda: "<html><body><ul>"
        + "".join(f'<li><a href="/news/{i}.html">第{i}条新闻标题</a></li>' for i in range(20_000))
        + "</ul></body></html>",
        False,
    ),
    "script only": (
        lambda: "<html><head><script>" + "var x = '<p>text</p>';" * 500 + "</script></head></html>", False
    ),
    "style only": (lambda: "<style>" + "p { color: red } " * 500 + "</style>", False),
    "frameset": (
        lambda: "<html><head><title>Frames</title></head><frameset cols='20%,80%'>"
        "<frame src='menu.html'><frame src='main.html'>"
        "<noframes>No frames here.</noframes></frameset></html>",
        False,
    ),
    "rss served as html": (
        lambda: '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>Feed</title>'
        + "".join(f"<item><title>Item {i}</title><link>http://example.com/{i}</link>"
                  f"<description><![CDATA[<p>{EN}</p>]]></description></item>" for i in range(50))
        + "</channel></rss>",
        False,
    ),
    "xml with entities": (
        lambda: '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>'
        "<r>&b;&b;&b;&b;</r>",
        False,
    ),
    "json served as html": (lambda: json.dumps({"title": "t", "body": ZH * 20, "items": list(range(500))}),
                            False),
    "svg served as html": (lambda: '<svg xmlns="http://www.w3.org/2000/svg"><text>hi</text></svg>', False),
    "invalid dates in metas": (_invalid_dates, False),
    "deeply nested json-ld": (_deep_json_ld, False),
    "100,000-deep nesting": (lambda: "<html><body>" + "<div>" * 100_000 + "x" + "</div>" * 100_000, True),
    "unclosed tags everywhere": (lambda: "<html><body>" + "<p><b><i><font>" * 2_000 + ZH, False),
    "entity storm": (
        lambda: article("&#0;&#xFFFFFFFF;&#x110000;&#xD800;&amp;&lt;&nbsp;&bogus;" * 200), False
    ),
    "lone surrogates in str": (lambda: article("\ud800\udfff\ud83d" + ZH * 4), False),
    "huge attribute": (lambda: f'<html><body><div class="{"x" * 2_000_000}"><p>{ZH}</p></div></body></html>',
                       False),
    "no tags at all": (lambda: (ZH + "\n") * 300, False),
    "angle bracket storm": (lambda: "<" * 50_000 + ZH + ">" * 50_000, False),
    "doctype only": (lambda: "<!DOCTYPE html>", True),
    "comment only": (lambda: "<!-- " + "x" * 10_000 + " -->", True),
}


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_input_gives_a_well_formed_extraction(name: str, algorithm: str) -> None:
    make, unusable = HOSTILE[name]
    r = extract(make(), url="http://example.com/page", algorithm=algorithm)
    assert_well_formed(r)
    if unusable:
        assert r.error, f"{name}: expected an error, got text {r.text[:80]!r}"


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_invalid_dates_give_no_published_time(algorithm: str) -> None:
    r = extract(_invalid_dates(), algorithm=algorithm)
    assert r.error is None and r.published_at is None


def test_truncated_page_keeps_the_text_before_the_cut() -> None:
    r = extract(ARTICLE[: ARTICLE.index(b"</p>") + 4])
    assert r.error is None and ZH[:20] in r.text


def test_mixed_charsets_keep_the_main_charset_text() -> None:
    r = extract(_mixed_charsets())
    assert r.encoding == "utf-8" and EN.strip()[:40] in r.text


def test_nul_bytes_do_not_hide_the_text() -> None:
    r = extract(_with_nuls())
    assert r.error is None and ZH[:10] in r.text


def test_five_megabyte_text_node_is_extracted_to_the_text_limit_and_the_cut_recorded() -> None:
    # text stages cost up to 0.2 us a character: 8 MB of text took 1.7 s of CPU, so a page's text is cut
    # at max_text_chars (1,000,000; twice the longest text of the evaluation sets), never silently
    page = "<html><body><p>" + "word " * 1_000_000 + "</p></body></html>"
    r = extract(page, limits=Limits(time_budget=None))
    assert r.error is None and 999_000 <= len(r.text) <= 1_000_000 and r.text.startswith("word word")
    assert r.figures["limits"]["cut_text_chars"] >= 3_999_000


def test_gzip_body_is_reported_as_binary() -> None:
    r = extract(gzip.compress(ARTICLE * 20))
    assert r.error and "binary" in r.error
