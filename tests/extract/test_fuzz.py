"""Property-based fuzzing: random and mutated HTML never makes ``extract`` raise or return a malformed record.

The default run is short (200 inputs). For a long run::

    NEWSCRAWL_FUZZ_EXAMPLES=100000 pytest -q tests/extract/test_fuzz.py --hypothesis-show-statistics

``--hypothesis-show-statistics`` prints the highest "seconds per page" hypothesis found (it steers
towards slow inputs with ``target``; an input over RETIME_SECONDS is timed twice and the faster time
kept); with ``NEWSCRAWL_FUZZ_REPORT=path.json`` the slowest input, its time and the slowest first call
are also written to that file. A record whose ``error`` says "internal error" (an exception caught
by extract's safety net) or whose metadata chain failed counts as a failure here: it is a bug.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hostile_support import assert_well_formed
from hypothesis import HealthCheck, given, settings, target
from hypothesis import strategies as st

from newscrawl.extract import ALGORITHMS, extract

EXAMPLES = int(os.environ.get("NEWSCRAWL_FUZZ_EXAMPLES", "200"))
REPORT = os.environ.get("NEWSCRAWL_FUZZ_REPORT")
#: an input slower than this is timed again, and the faster time kept: the first sight of a language
#: makes dateparser load its data (seconds, once per process), which is not the page's own cost
RETIME_SECONDS = 0.25

_ZH = "市政府昨天召开新闻发布会，介绍了今年城市建设的主要工作。负责人表示，新建道路将在年底前通车。"
_EN = "Officials said on Monday that the new bridge would open in the spring, after two years of work. "

_ARTICLE_ZH = (
    '<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8">\n'
    "<title>城市建设新进展_本地新闻_示例网</title>\n"
    '<meta property="og:title" content="城市建设新进展">\n'
    '<meta property="article:published_time" content="2021-03-04T08:30:00+08:00">\n'
    '<meta name="author" content="王小明">\n'
    '<script type="application/ld+json">'
    '{"@type":"NewsArticle","datePublished":"2021-03-04","author":{"name":"王小明"}}</script>\n'
    "<style>.ad{display:none}</style></head><body>\n"
    '<div id="nav"><a href="/">首页</a> | <a href="/local">本地</a> | <a href="/world">国际</a></div>\n'
    '<div class="article"><h1>城市建设新进展</h1>\n'
    '<div class="info">2021年03月04日 08:30 来源：示例日报 作者：王小明</div>\n'
    f"<p>{_ZH}</p><p>{_ZH}{_ZH}</p><p>　　{_ZH}</p>\n"
    '<div style="display:none">隐藏内容</div>\n'
    "<table><tr><td>数据</td><td>12.5%</td></tr></table><p>（责任编辑：李华）</p></div>\n"
    '<ul class="related"><li><a href="/a/1.html">相关新闻一</a></li>'
    '<li><a href="/a/2.html">相关新闻二</a></li></ul>\n'
    '<!-- comment --><div class="footer">Copyright &copy; 2021 示例网</div></body></html>'
)

_ARTICLE_EN = (
    "<html><head><title>Bridge to open in spring | Example News</title>\n"
    '<time datetime="2020-11-02T10:00:00Z">Nov 2</time></head><body>\n'
    '<header><nav><a href="/">Home</a></nav></header>\n'
    '<article><h2>Bridge to open in spring</h2><p class="byline">By Jane Doe</p>\n'
    f"<p>{_EN * 3}</p><p>{_EN * 2}</p><blockquote>{_EN}</blockquote></article>\n"
    '<aside><a href="/x">More</a></aside></body></html>'
)

_LIST_ZH = (
    "<html><head><title>滚动新闻</title></head><body><ul>"
    + "".join(
        f'<li><a href="/news/2021/{i}.html">第{i}条新闻的标题文字</a>'
        f"<span>03-0{i % 9 + 1} 10:0{i % 10}</span></li>"
        for i in range(40)
    )
    + "</ul></body></html>"
)

SEEDS: list[bytes] = [
    _ARTICLE_ZH.encode("utf-8"),
    _ARTICLE_ZH.replace('charset="utf-8"', 'charset="gb2312"').encode("gbk"),
    _ARTICLE_ZH.replace('<meta charset="utf-8">', "").encode("gbk"),
    _ARTICLE_EN.encode("utf-8"),
    _LIST_ZH.encode("utf-8"),
    b"<frameset><frame src='a.html'><noframes><p>" + _EN.encode() + b"</p></noframes></frameset>",
]

SNIPPETS: list[bytes] = [
    b"<div>", b"</div>", b"<p>", b"</p>", b"<br>", b"<script>", b"</script>", b"<style>", b"<!--", b"-->",
    b"<![CDATA[", b"]]>", b"<table><tr><td>", b"</td></tr></table>", b"<a href='/x'>", b"</a>", b"<h1>",
    b"<meta charset='gbk'>", b"<meta charset='big5'>", b"<meta charset='utf-16'>", b"<?xml encoding='x'?>",
    b"<time datetime='2099-99-99'>", b"<meta property='article:published_time' content='0000'>",
    b"&#0;", b"&#xD800;", b"&#x110000;", b"&amp", b"<", b">", b"\x00", b"\xff\xfe", b"\xef\xbb\xbf",
    b"<frameset>", b"<noscript>", b"<template>", b"<svg><foreignObject>", b"<math>", b"<select><option>",
    b"<textarea>", b"<plaintext>", b"<xmp>", b"<iframe srcdoc='<p>x</p>'>", "发布时间：2021年1月1日".encode(),
    "来源：新华社 作者：张三".encode(), "昨天 10:00".encode(), "3小时前".encode("gbk"),
]
NEST_TAGS = ["div", "b", "span", "table", "font", "li", "p", "td", "a"]
OPS = ["truncate", "flip", "insert", "delete", "nest", "repeat", "random"]


def mutate(page: bytes, ops: list[str], rnd: random.Random) -> bytes:
    """``page`` after ``ops`` (truncation, byte flips, tag insertion or deletion, deep nesting, repeated
    spans, random bytes), positions and sizes drawn from ``rnd``."""
    out = bytearray(page)
    for op in ops:
        pos = rnd.randint(0, len(out))
        if op == "truncate":
            del out[pos:]
        elif op == "flip" and out:
            for _ in range(rnd.randint(1, 16)):
                out[rnd.randrange(len(out))] = rnd.randrange(256)
        elif op == "insert":
            out[pos:pos] = rnd.choice(SNIPPETS) * rnd.randint(1, 3)
        elif op == "delete":
            del out[pos : pos + rnd.randint(1, 2_000)]
        elif op == "nest":
            depth = rnd.randint(1, 60) if rnd.random() < 0.5 else rnd.randint(150, 5_000)
            out[pos:pos] = f"<{rnd.choice(NEST_TAGS)}>".encode() * depth
        elif op == "repeat":
            out[pos:pos] = bytes(out[pos : pos + rnd.randint(1, 500)]) * rnd.randint(2, 200)
        elif op == "random":
            out[pos:pos] = rnd.randbytes(rnd.randint(0, 64))
    return bytes(out)


@st.composite
def mutated_pages(draw: st.DrawFn) -> bytes:
    """A seed page with one to four mutations. Few choices are drawn (the seed page, the operations and
    one random seed), so long runs stay valid; a failure shrinks to fewer operations and a simpler page."""
    page = draw(st.sampled_from(SEEDS))
    ops = draw(st.lists(st.sampled_from(OPS), min_size=1, max_size=4))
    return mutate(page, ops, random.Random(draw(st.integers(0, 2**32 - 1))))


_TAG_SOUP = st.lists(
    st.one_of(st.sampled_from(SNIPPETS).map(lambda b: b.decode("utf-8", "replace")), st.text(max_size=30)),
    max_size=60,
).map("".join)

PAGES = st.one_of(mutated_pages(), mutated_pages(), _TAG_SOUP, st.binary(max_size=3_000))

_slowest: dict[str, Any] = {"seconds": 0.0, "inputs": 0}


@pytest.fixture(scope="module", autouse=True)
def _warm_up_and_report() -> Iterator[None]:
    # one-time costs (dateparser loads its language data on first use: seconds) are not a page's cost
    for seed in SEEDS:
        for algorithm in ALGORITHMS:
            extract(seed, algorithm=algorithm)
    yield
    _write_report()


def _write_report() -> None:
    """The slowest input so far, rewritten each time a slower one appears (a long run can be watched)."""
    if REPORT:
        with open(REPORT, "w", encoding="utf-8") as f:
            json.dump(_slowest, f, ensure_ascii=False, indent=1)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)
@given(page=PAGES, algorithm=st.sampled_from(ALGORITHMS))
def test_extract_never_raises_and_returns_a_well_formed_record(page: bytes | str, algorithm: str) -> None:
    start = time.perf_counter()
    r = extract(page, url="http://example.com/a.html", algorithm=algorithm)
    seconds = time.perf_counter() - start
    if seconds > RETIME_SECONDS:  # a lazy load (dateparser reads a language's data on first sight)?
        start = time.perf_counter()
        extract(page, url="http://example.com/a.html", algorithm=algorithm)
        first, seconds = seconds, min(seconds, time.perf_counter() - start)
        _slowest["slowest_first_call"] = max(first, _slowest.get("slowest_first_call", 0.0))
    target(seconds, label="seconds per page")
    _slowest["inputs"] += 1
    if seconds > _slowest["seconds"]:
        _slowest.update(seconds=seconds, algorithm=algorithm, size=len(page), input=repr(page[:200_000]))
        _write_report()
    assert_well_formed(r)
    assert not (r.error or "").startswith("internal error"), r.error
    assert "metadata_failures" not in r.figures, r.figures.get("metadata_failures")
