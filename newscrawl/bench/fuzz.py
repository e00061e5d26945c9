"""Fuzzing ``extract()``: many generated inputs, the CPU and wall time of each, what failed and what was slow.

Input ``i`` of seed ``S`` is made from ``random.Random(f"{S}:{i}")`` alone, so any input can be made
again (``--only i``). Kinds, by share: hand-written seed pages mutated (truncation, byte flips, inserted
tags and hostile snippets, deletion, nesting up to 100,000 deep, repeated spans, random bytes, attribute
floods, long text runs, charset declarations, date storms, scripts), pages generated from a small grammar
of news pages (head metas, JSON-LD, nested blocks, tables, lists, links, dates in many spellings), those
mutated, tag soup, text (``str``) input, pages re-encoded in a charset other than the one declared, raw
binary, and a few large pages (100 KB to 8 MiB) of the shapes of :mod:`newscrawl.bench.shapes`.

Each input goes through the full ``extract()`` (metadata included) with an algorithm drawn for it (half
``auto``), in ``--jobs`` worker processes warmed up first. Per input: CPU seconds of the worker's thread
and wall seconds; an input over ``--limit`` CPU seconds is timed a second time (the first sight of a
language makes dateparser load its data, once per process: not the page's cost) and is *over the limit*
when both calls are. A failure is an exception escaping ``extract()``, an ``internal error`` (an
exception caught by its safety net), a metadata chain that failed, an ERROR logged, a malformed record
(:func:`problems`), or an input still running after ``--timeout`` seconds (its worker is killed). The
documented outcomes of a bad page (``undecodable page``, ``unparsable page``, a limit named in ``error``,
nothing found) are not failures.

Results are appended to ``OUT/results.jsonl`` as they come (a run stopped and started again with the
same ``--out`` and ``--seed`` goes on where it stopped); inputs over the limit and failures are written
to ``OUT/inputs/`` for reproduction, the summary to ``OUT/report.json`` and standard output. Exit code 1
when an input failed or was over the limit::

    nice python -m newscrawl.bench.fuzz --inputs 100000 --seed 14 --jobs 2 --out fuzz-14
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import multiprocessing
import multiprocessing.connection
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from datetime import date, datetime
from pathlib import Path
from typing import Any

#: CPU seconds of ``extract()`` no input may take (issue 14)
LIMIT_SECONDS = 1.0
#: wall seconds after which a worker still on one input is killed and the input counted as a failure
TIMEOUT_SECONDS = 60.0

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

#: hand-written pages the mutations start from
SEEDS: list[bytes] = [
    _ARTICLE_ZH.encode("utf-8"),
    _ARTICLE_ZH.replace('charset="utf-8"', 'charset="gb2312"').encode("gbk"),
    _ARTICLE_ZH.replace('<meta charset="utf-8">', "").encode("gbk"),
    _ARTICLE_EN.encode("utf-8"),
    _LIST_ZH.encode("utf-8"),
    b"<frameset><frame src='a.html'><noframes><p>" + _EN.encode() + b"</p></noframes></frameset>",
]

#: pieces of markup and text inserted by the mutations
SNIPPETS: list[bytes] = [
    b"<div>",
    b"</div>",
    b"<p>",
    b"</p>",
    b"<br>",
    b"<script>",
    b"</script>",
    b"<style>",
    b"<!--",
    b"-->",
    b"<![CDATA[",
    b"]]>",
    b"<table><tr><td>",
    b"</td></tr></table>",
    b"<a href='/x'>",
    b"</a>",
    b"<h1>",
    b"<meta charset='gbk'>",
    b"<meta charset='big5'>",
    b"<meta charset='utf-16'>",
    b"<?xml encoding='x'?>",
    b"<time datetime='2099-99-99'>",
    b"<meta property='article:published_time' content='0000'>",
    b"&#0;",
    b"&#xD800;",
    b"&#x110000;",
    b"&amp",
    b"<",
    b">",
    b"\x00",
    b"\xff\xfe",
    b"\xef\xbb\xbf",
    b"<frameset>",
    b"<noscript>",
    b"<template>",
    b"<svg><foreignObject>",
    b"<math>",
    b"<select><option>",
    b"<textarea>",
    b"<plaintext>",
    b"<xmp>",
    b"<iframe srcdoc='<p>x</p>'>",
    "发布时间：2021年1月1日".encode(),
    "来源：新华社 作者：张三".encode(),
    "昨天 10:00".encode(),
    "3小时前".encode("gbk"),
    b"<link rel='canonical' href='http://other.example/a'>",
    b"<base href='javascript:x'>",
    b'<script type="application/ld+json">{"@graph":[{"@type":"NewsArticle","datePublished":',
    b"}]}</script>",
    b"<html>",
    b"</html>",
    b"<body>",
    b"</body>",
    b"<head>",
    b"</head>",
    b"<title>",
    b"</title>",
    b"\xe4\xb8",
    b"\x81\x30",
    b"\x1b[31m",
    b"&#27;",
    b"\xc2\x9b",
    b"<?php echo 1 ?>",
    b"<!DOCTYPE x [",
]
NEST_TAGS = ["div", "b", "span", "table", "font", "li", "p", "td", "a", "section", "ul", "blockquote"]
#: cheap mutations: truncation, byte flips, an inserted snippet, deletion, nesting, repeated spans, random
#: bytes (the property test of tests/extract/test_fuzz.py draws from these alone, to stay quick)
BASIC_OPS = ["truncate", "flip", "insert", "delete", "nest", "repeat", "random"]
#: every mutation: the basic ones, attribute floods, long text runs, charset declarations, date storms,
#: scripts, entity storms
OPS = [*BASIC_OPS, "attributes", "text", "charset", "dates", "script", "entities"]
_CHARSETS = [
    "utf-8",
    "gbk",
    "gb2312",
    "gb18030",
    "big5",
    "shift_jis",
    "euc-kr",
    "iso-8859-1",
    "utf-16",
    "utf-7",
    "koi8-r",
    "x-user-defined",
    "nonsense",
]
_CODECS = ["gbk", "big5", "utf-16-le", "utf-16-be", "shift_jis", "euc-kr", "cp1252", "gb18030", "utf-32"]


def _date_text(rnd: random.Random) -> str:
    """A date or time as pages write them, valid or not."""
    y, mo, d = rnd.randint(1900, 2100), rnd.randint(0, 13), rnd.randint(0, 32)
    h, mi = rnd.randint(0, 25), rnd.randint(0, 61)
    forms = [
        f"{y}-{mo:02d}-{d:02d} {h:02d}:{mi:02d}",
        f"{y}年{mo}月{d}日 {h}:{mi:02d}",
        f"{y}/{mo}/{d}",
        f"{mo:02d}-{d:02d} {h:02d}:{mi:02d}",
        f"{rnd.randint(1, 99)}小时前",
        f"昨天 {h}:{mi:02d}",
        f"{y}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:00+0{rnd.randint(0, 9)}:00",
        f"{rnd.randint(0, 2**40)}",
        f"{d} {rnd.choice(['Jan', 'Okt', 'März', 'août', 'Dec'])} {y}",
        "0000-00-00",
        "Invalid Date",
        f"{y}{mo:02d}{d:02d}",
        f"发布时间：{y}.{mo}.{d}",
        f"{y}-{mo}-{d} " * rnd.randint(1, 50),
    ]
    return rnd.choice(forms)


def _words(rnd: random.Random, count: int) -> str:
    zh = rnd.random() < 0.6
    source = _ZH if zh else _EN
    start = rnd.randrange(len(source))
    text = (source * (count // len(source) + 2))[start : start + count]
    return text if rnd.random() < 0.9 else text.replace("，", "<br>").replace(", ", "&nbsp;")


_BLOCKS = [
    "div",
    "p",
    "section",
    "article",
    "ul",
    "li",
    "table",
    "tr",
    "td",
    "span",
    "h1",
    "h2",
    "h3",
    "blockquote",
    "pre",
    "header",
    "footer",
    "nav",
    "aside",
    "main",
    "figure",
    "center",
    "font",
]
_INLINE = ["a", "b", "i", "em", "strong", "span", "img", "br", "time", "small", "sup", "label"]
_CLASSES = [
    "article",
    "content",
    "main",
    "post",
    "text",
    "nav",
    "menu",
    "footer",
    "comment",
    "share",
    "ad",
    "related",
    "sidebar",
    "info",
    "source",
    "author",
    "editor",
    "time",
    "date",
    "title",
    "hidden",
]


def _attributes(rnd: random.Random) -> str:
    out = []
    for _ in range(rnd.choice([0, 0, 1, 1, 2, 3, 5])):
        name = rnd.choice(["class", "id", "style", "href", "data-x", "title", "datetime", "itemprop", "lang"])
        value = rnd.choice(_CLASSES) if name != "style" else rnd.choice(["display:none", "color:red", ""])
        if name == "datetime":
            value = _date_text(rnd)
        out.append(f' {name}="{value}"' if rnd.random() < 0.9 else f" {name}={value}")
    return "".join(out)


def generate_page(rnd: random.Random) -> str:
    """A news page from a small grammar: head (title, metas, JSON-LD) and a body of random nested blocks
    with text, links, dates, tables and scripts. Built with an explicit stack (no recursion)."""
    parts = ["<!DOCTYPE html>" if rnd.random() < 0.7 else "", f"<html{_attributes(rnd)}>"]
    parts.append("<head>")
    if rnd.random() < 0.6:
        parts.append(f'<meta charset="{rnd.choice(_CHARSETS[:4])}">')
    parts.append(f"<title>{_words(rnd, rnd.randint(0, 40))}</title>")
    for _ in range(rnd.randint(0, 6)):
        key = rnd.choice(
            [
                "og:title",
                "article:published_time",
                "author",
                "description",
                "keywords",
                "pubdate",
                "og:url",
                "article:modified_time",
                "source",
                "og:image",
            ]
        )
        value = _date_text(rnd) if "time" in key or key == "pubdate" else _words(rnd, rnd.randint(0, 30))
        parts.append(f'<meta {rnd.choice(["name", "property"])}="{key}" content="{value}">')
    if rnd.random() < 0.3:
        parts.append(f'<link rel="canonical" href="http://{rnd.choice(["example.com", "other.test"])}/a/1">')
    if rnd.random() < 0.3:
        body = json.dumps(_words(rnd, rnd.randint(0, 300)), ensure_ascii=rnd.random() < 0.5)
        parts.append(
            '<script type="application/ld+json">{"@type":"NewsArticle","headline":"h","datePublished":'
            f'"{_date_text(rnd)}","author":{{"name":"{_words(rnd, 4)}"}},"articleBody":{body}}}</script>'
        )
    parts.append("</head><body>")
    stack: list[str] = []
    for _ in range(rnd.randint(1, 400)):
        roll = rnd.random()
        if roll < 0.3 and len(stack) < 60:
            tag = rnd.choice(_BLOCKS)
            parts.append(f"<{tag}{_attributes(rnd)}>")
            stack.append(tag)
        elif roll < 0.5 and stack:
            tag = stack.pop()
            if rnd.random() < 0.95:  # sometimes left unclosed
                parts.append(f"</{tag}>")
        elif roll < 0.75:
            parts.append(_words(rnd, rnd.randint(0, 200)))
        elif roll < 0.82:
            tag = rnd.choice(_INLINE)
            parts.append(f"<{tag}{_attributes(rnd)}>{_words(rnd, rnd.randint(0, 30))}</{tag}>")
        elif roll < 0.88:
            parts.append(
                f'<a href="/news/{rnd.randint(0, 10**6)}.html">{_words(rnd, rnd.randint(0, 30))}</a>'
            )
        elif roll < 0.93:
            label = rnd.choice(["发布时间：", "来源：", "作者：", "责任编辑：", "By ", "Updated ", ""])
            parts.append(f"<span>{label}{_date_text(rnd) if rnd.random() < 0.6 else _words(rnd, 6)}</span>")
        elif roll < 0.96:
            rows = "".join(
                "<tr>" + "".join(f"<td>{_words(rnd, rnd.randint(0, 20))}</td>" for _ in range(3)) + "</tr>"
                for _ in range(rnd.randint(1, 20))
            )
            parts.append(f"<table>{rows}</table>")
        elif roll < 0.98:
            parts.append(f"<script>var x = {json.dumps(_words(rnd, 40))}; if (a < b) {{}}</script>")
        else:
            parts.append(f"<!-- {_words(rnd, 20)} -->")
    parts.extend(f"</{tag}>" for tag in reversed(stack))
    parts.append("</body></html>")
    return "".join(parts)


def mutate(page: bytes, ops: Sequence[str], rnd: random.Random) -> bytes:
    """``page`` after ``ops`` (see :data:`OPS`), positions and sizes drawn from ``rnd``."""
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
            depth = rnd.choice([rnd.randint(1, 60), rnd.randint(150, 5_000), rnd.randint(5_000, 100_000)])
            out[pos:pos] = f"<{rnd.choice(NEST_TAGS)}>".encode() * depth
        elif op == "repeat":
            out[pos:pos] = bytes(out[pos : pos + rnd.randint(1, 500)]) * rnd.randint(2, 200)
        elif op == "random":
            out[pos:pos] = rnd.randbytes(rnd.randint(0, 64))
        elif op == "attributes":
            count = rnd.choice([rnd.randint(1, 70), rnd.randint(60, 1_100), rnd.randint(1_000, 5_000)])
            attributes = " ".join(f"a{i}=v" for i in range(count)).encode()
            out[pos:pos] = (b"<div " + attributes + b">") * rnd.choice([1, 1, 2, 20, 200])
        elif op == "text":
            out[pos:pos] = _words(rnd, rnd.choice([1_000, 20_000, 300_000])).encode()
        elif op == "charset":
            out[pos:pos] = f'<meta charset="{rnd.choice(_CHARSETS)}">'.encode()
        elif op == "dates":
            value = " ".join(_date_text(rnd) for _ in range(rnd.randint(1, 300)))
            where = rnd.choice(
                [
                    '<meta property="article:published_time" content="{}">',
                    '<time datetime="{}">x</time>',
                    "<p>{}</p>",
                    '"datePublished":"{}"',
                ]
            )
            out[pos:pos] = where.format(value).encode()
        elif op == "script":
            body = rnd.choice(['{"a":' * 3_000, "window.__INITIAL_STATE__={", "<d)return a<b>c", "</scr"])
            out[pos:pos] = f"<script>{body * rnd.randint(1, 50)}".encode()
        elif op == "entities":
            out[pos:pos] = rnd.choice(
                [b"&amp;", b"&#x4e2d;", b"&#99999999;", b"&nbsp", b"&#27;"]
            ) * rnd.randint(1, 20_000)
    return bytes(out)


def _ops(rnd: random.Random) -> list[str]:
    return [rnd.choice(OPS) for _ in range(rnd.randint(1, 4))]


def _large(rnd: random.Random) -> tuple[str, bytes]:
    from newscrawl.bench.shapes import SHAPES

    name = rnd.choice(sorted(SHAPES))
    size = int(math.exp(rnd.uniform(math.log(100_000), math.log(8 * 1024 * 1024))))
    page = SHAPES[name](size)
    if rnd.random() < 0.3:
        page = mutate(page, [rnd.choice(["truncate", "flip", "insert", "delete"])], rnd)
    return f"large: {name}", page


def make_input(seed: int, index: int) -> tuple[str, bytes | str, str]:
    """Input ``index`` of run ``seed``: its kind, the page (bytes, or str for text input) and an algorithm."""
    from newscrawl.extract import ALGORITHMS

    rnd = random.Random(f"{seed}:{index}")
    algorithm = "auto" if rnd.random() < 0.5 else rnd.choice(ALGORITHMS)
    roll = rnd.random()
    page: bytes | str
    if roll < 0.30:
        kind, page = "mutated seed", mutate(rnd.choice(SEEDS), _ops(rnd), rnd)
    elif roll < 0.55:
        kind, page = "generated", generate_page(rnd).encode()
    elif roll < 0.70:
        kind, page = "mutated generated", mutate(generate_page(rnd).encode(), _ops(rnd), rnd)
    elif roll < 0.78:
        pieces = [
            rnd.choice(SNIPPETS).decode("utf-8", "replace") if rnd.random() < 0.5 else _words(rnd, 20)
            for _ in range(rnd.randint(0, 80))
        ]
        kind, page = "tag soup", "".join(pieces)
    elif roll < 0.83:
        text = mutate(rnd.choice(SEEDS), _ops(rnd), rnd).decode("utf-8", "surrogateescape")
        kind, page = "text input", text.replace("\udcff", "\ud800") if rnd.random() < 0.3 else text
    elif roll < 0.91:
        codec = rnd.choice(_CODECS)
        text = generate_page(rnd) if rnd.random() < 0.5 else rnd.choice(SEEDS).decode("utf-8", "replace")
        kind, page = f"re-encoded {codec}", text.encode(codec, "replace")
    elif roll < 0.95:
        kind, page = "binary", rnd.randbytes(rnd.randint(0, 5_000))
    elif roll < 0.995:
        heavy = rnd.sample(["attributes", "text", "nest", "dates", "entities", "script"], rnd.randint(1, 3))
        kind, page = "heavy", mutate(rnd.choice(SEEDS), heavy, rnd)
    else:
        kind, page = _large(rnd)
    return kind, page, algorithm


# --- what a well-formed record is ------------------------------------------------------------------------

_OPTIONAL_STR = ("title", "author", "url", "language", "encoding", "node_path", "error")


def _iso_problem(name: str, value: object) -> str | None:
    if value is None:
        return None
    try:
        if not isinstance(value, str):
            raise TypeError
        if len(value) == 10:
            date.fromisoformat(value)
        else:
            parsed = datetime.fromisoformat(value)
            if parsed.tzinfo is not None and parsed.utcoffset() is None:
                raise ValueError
    except (TypeError, ValueError):
        return f"{name} is not an ISO date or time: {value!r:.80}"
    return None


def problems(r: object) -> list[str]:
    """What is wrong with ``r`` as an ``Extraction``: every field of its documented type, no NUL in the text,
    times ISO 8601 (a date, or a time with or without an offset), an error only with an empty text,
    serialisable to JSON; and no metadata chain failed, no internal error. Empty when well-formed.

    >>> from newscrawl.extract import extract
    >>> problems(extract("<p>x</p>"))
    []
    """
    from newscrawl.extract import Extraction, ListEntry

    if not isinstance(r, Extraction):
        return [f"not an Extraction: {type(r).__name__}"]
    found = []
    if not isinstance(r.text, str) or "\x00" in r.text:
        found.append("text is not a str without NUL")
    found += [
        f"{n} is not a str: {getattr(r, n)!r:.80}"
        for n in _OPTIONAL_STR
        if not (getattr(r, n) is None or isinstance(getattr(r, n), str))
    ]
    found += [
        p
        for p in (_iso_problem("published_at", r.published_at), _iso_problem("modified_at", r.modified_at))
        if p
    ]
    if not (isinstance(r.algorithm, str) and isinstance(r.reason, str)):
        found.append("algorithm or reason is not a str")
    if r.page_class not in ("short", "long") or r.page_kind not in ("article", "list", "empty", "error"):
        found.append(f"page_class {r.page_class!r} or page_kind {r.page_kind!r} unknown")
    if not (isinstance(r.coarse_length, int) and r.coarse_length >= 0):
        found.append(f"coarse_length {r.coarse_length!r}")
    if not (
        isinstance(r.figures, Mapping) and isinstance(r.sources, Mapping) and isinstance(r.entries, tuple)
    ):
        found.append("figures, sources or entries of the wrong type")
    elif not all(
        isinstance(e, ListEntry)
        and isinstance(e.title, str)
        and isinstance(e.url, str)
        and (e.published_at is None or isinstance(e.published_at, str))
        for e in r.entries
    ):
        found.append("a list entry of the wrong type")
    if r.error is not None and not (r.error and r.text == ""):
        found.append("an error with text, or an empty error")
    if (r.error or "").startswith("internal error"):
        found.append(r.error or "")
    if isinstance(r.figures, Mapping) and "metadata_failures" in r.figures:
        found.append(f"metadata_failures: {dict(r.figures['metadata_failures'])!r:.300}")
    try:
        json.dumps(r.to_dict(), ensure_ascii=False)
    except (TypeError, ValueError) as e:
        found.append(f"not serialisable: {e}")
    return found


# --- workers ---------------------------------------------------------------------------------------------


class _Errors(logging.Handler):
    """Keeps the ERROR records logged while an input runs."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.name}: {record.getMessage()}"[:500])


def _outcome(error: str | None) -> str:
    if error is None:
        return "ok"
    for limit in ("max_body_bytes", "max_nodes", "max_depth", "max_attributes", "time_budget"):
        if limit in error:
            return f"refused: {limit}"
    return "error: " + error.split(":")[0][:60]


def warm_up() -> None:
    """One-time costs of a process (imports, dateparser's data, the language model) before timing."""
    from newscrawl.extract import ALGORITHMS, extract
    from newscrawl.extract.metadata.dates import warm_up as warm_dates

    warm_dates()  # what crawl workers do at start
    for seed in SEEDS:
        for algorithm in ALGORITHMS:
            extract(seed, algorithm=algorithm)
    extract(f"<html><body><p>{_EN * 3}</p><time>3 Okt 2021</time></body></html>")


def _timed(page: bytes | str, algorithm: str) -> tuple[object, float, float]:
    from newscrawl.extract import extract

    start, cpu = time.perf_counter(), time.thread_time()
    record = extract(page, url="http://example.com/a/1.html", algorithm=algorithm)
    return record, time.thread_time() - cpu, time.perf_counter() - start


def run_input(seed: int, index: int, limit: float = LIMIT_SECONDS) -> dict[str, Any]:
    """Make input ``index`` of ``seed``, extract it and return what the report needs (JSON-ready)."""
    kind, page, algorithm = make_input(seed, index)
    errors = _Errors()
    logging.getLogger().addHandler(errors)
    found: list[str] = []
    try:
        try:
            record, cpu, wall = _timed(page, algorithm)
        except Exception as e:  # extract() must not raise for a page
            return {
                "i": index,
                "kind": kind,
                "algorithm": algorithm,
                "size": len(page),
                "cpu": 0.0,
                "wall": 0.0,
                "outcome": "raised",
                "problems": [f"raised {type(e).__name__}: {e}"[:500]],
            }
        again = None
        if cpu > limit:  # a lazy load of the process, or the page's own cost? Timed again
            again = _timed(page, algorithm)[1]
        found = problems(record) + errors.messages
    finally:
        logging.getLogger().removeHandler(errors)
    error = getattr(record, "error", None)
    result = {
        "i": index,
        "kind": kind,
        "algorithm": algorithm,
        "size": len(page),
        "cpu": round(cpu, 6),
        "wall": round(wall, 6),
        "outcome": _outcome(error),
        "problems": found,
    }
    if again is not None:
        result["cpu_again"] = round(again, 6)
    return result


def _worker(connection: multiprocessing.connection.Connection, seed: int, limit: float) -> None:
    root = logging.getLogger()  # nothing printed: ERROR records reach the handler of each input
    root.handlers = [logging.NullHandler()]
    root.setLevel(logging.WARNING)
    warm_up()
    connection.send("ready")
    while True:
        index = connection.recv()
        if index is None:
            return
        connection.send(run_input(seed, index, limit))


class _Pool:
    """``jobs`` worker processes; one input each at a time, each killed after ``timeout`` seconds on one."""

    def __init__(self, jobs: int, seed: int, limit: float, timeout: float) -> None:
        self.seed, self.limit, self.timeout = seed, limit, timeout
        self.context = multiprocessing.get_context("spawn")
        self.workers: list[dict[str, Any]] = [self._start() for _ in range(jobs)]

    def _start(self) -> dict[str, Any]:
        parent, child = self.context.Pipe()
        process = self.context.Process(target=_worker, args=(child, self.seed, self.limit), daemon=True)
        process.start()
        child.close()
        return {"process": process, "connection": parent, "index": None, "since": 0.0, "ready": False}

    def run(self, indices: Iterator[int]) -> Iterator[dict[str, Any]]:
        pending = True
        while True:
            for w in self.workers:
                if w["ready"] and w["index"] is None and pending:
                    index = next(indices, None)
                    if index is None:
                        pending = False
                    else:
                        w["connection"].send(index)
                        w["index"], w["since"] = index, time.monotonic()
            busy = [w for w in self.workers if w["index"] is not None or not w["ready"]]
            if not busy:
                return
            now = time.monotonic()
            first_deadline = min(
                (w["since"] + self.timeout - now for w in busy if w["index"] is not None), default=1.0
            )
            ready = multiprocessing.connection.wait(
                [w["connection"] for w in busy], timeout=max(0.0, min(1.0, first_deadline))
            )
            for w in busy:
                if w["connection"] in ready:
                    try:
                        message = w["connection"].recv()
                    except EOFError:  # the worker died on this input
                        yield self._replace(w, "worker died")
                        continue
                    if message == "ready":
                        w["ready"] = True
                    else:
                        w["index"] = None
                        yield message
                elif w["index"] is not None and time.monotonic() - w["since"] > self.timeout:
                    yield self._replace(w, f"still running after {self.timeout:g} s")

    def _replace(self, w: dict[str, Any], why: str) -> dict[str, Any]:
        index = w["index"]
        w["process"].kill()
        w["process"].join()
        self.workers[self.workers.index(w)] = self._start()
        kind, page, algorithm = make_input(self.seed, index) if index is not None else ("?", b"", "?")
        return {
            "i": index,
            "kind": kind,
            "algorithm": algorithm,
            "size": len(page),
            "cpu": self.timeout,
            "wall": self.timeout,
            "outcome": "killed",
            "problems": [why],
        }

    def close(self) -> None:
        for w in self.workers:
            try:
                w["connection"].send(None)
            except (BrokenPipeError, OSError):
                pass
            w["process"].join(5)
            if w["process"].is_alive():
                w["process"].kill()


# --- the report ------------------------------------------------------------------------------------------


def percentile(values: Sequence[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank).

    >>> percentile(list(range(1, 1001)), 0.999)
    999
    """
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))] if ordered else 0.0


def over_limit(result: Mapping[str, Any], limit: float) -> bool:
    """Over ``limit`` CPU seconds on the first call and, when timed again, on the second too."""
    return bool(result["cpu"] > limit and result.get("cpu_again", result["cpu"]) > limit)


def summarize(results: Sequence[Mapping[str, Any]], limit: float) -> dict[str, Any]:
    """The figures of a run: counts by kind and outcome, CPU and wall percentiles, slow and failed inputs."""
    cpu = [min(r["cpu"], r.get("cpu_again", r["cpu"])) for r in results]
    wall = [r["wall"] for r in results]
    slowest = max(results, key=lambda r: r["cpu"], default=None)
    return {
        "inputs": len(results),
        "kinds": dict(Counter(r["kind"].split(":")[0] for r in results).most_common()),
        "outcomes": dict(Counter(r["outcome"] for r in results).most_common()),
        "bytes": {
            "median": statistics.median(r["size"] for r in results) if results else 0,
            "max": max((r["size"] for r in results), default=0),
        },
        "cpu_seconds": {
            "median": statistics.median(cpu) if cpu else 0.0,
            "p99": percentile(cpu, 0.99),
            "p99.9": percentile(cpu, 0.999),
            "max": max(cpu, default=0.0),
        },
        "first_call_cpu_max": slowest["cpu"] if slowest else 0.0,
        "wall_seconds": {
            "median": statistics.median(wall) if wall else 0.0,
            "p99.9": percentile(wall, 0.999),
            "max": max(wall, default=0.0),
        },
        "slowest": {k: slowest[k] for k in ("i", "kind", "algorithm", "size", "cpu", "outcome")}
        if slowest
        else None,
        "over_limit": [r for r in results if over_limit(r, limit)],
        "slow_first_calls": [r for r in results if r["cpu"] > limit and not over_limit(r, limit)],
        "failures": [r for r in results if r["problems"]],
    }


def save_input(out: Path, seed: int, result: Mapping[str, Any]) -> Path:
    """Write input ``result["i"]`` to ``out/inputs/`` (``.html`` bytes, ``.txt`` for text input, UTF-8
    with surrogates escaped) with its result beside it as JSON; return the page's path."""
    kind, page, algorithm = make_input(seed, result["i"])
    folder = out / "inputs"
    folder.mkdir(parents=True, exist_ok=True)
    stem = folder / f"{seed}-{result['i']}"
    if isinstance(page, str):
        path = stem.with_suffix(".txt")
        path.write_bytes(page.encode("utf-8", "surrogatepass"))
    else:
        path = stem.with_suffix(".html")
        path.write_bytes(page)
    stem.with_suffix(".json").write_text(json.dumps(dict(result), ensure_ascii=False, indent=1), "utf-8")
    return path


def _load(path: Path) -> dict[int, dict[str, Any]]:
    done: dict[int, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text("utf-8").splitlines():
            try:
                result = json.loads(line)
            except json.JSONDecodeError:  # a line cut by a stop
                continue
            done[result["i"]] = result
    return done


def _print_report(report: Mapping[str, Any], seed: int, limit: float, out: Path) -> None:
    cpu, wall = report["cpu_seconds"], report["wall_seconds"]
    print(
        f"fuzz seed {seed}: {report['inputs']:,} inputs (median {report['bytes']['median']:,.0f} bytes, "
        f"largest {report['bytes']['max']:,})"
    )
    print("kinds: " + ", ".join(f"{k} {v:,}" for k, v in report["kinds"].items()))
    print("outcomes: " + ", ".join(f"{k} {v:,}" for k, v in report["outcomes"].items()))
    print(
        f"CPU s per input: median {cpu['median']:.4f}, p99 {cpu['p99']:.3f}, p99.9 {cpu['p99.9']:.3f}, "
        f"max {cpu['max']:.3f} (first calls: max {report['first_call_cpu_max']:.3f})"
    )
    print(f"wall s per input: median {wall['median']:.4f}, p99.9 {wall['p99.9']:.3f}, max {wall['max']:.3f}")
    if report["slowest"]:
        print(f"slowest: {report['slowest']}")
    for name, rows in (
        ("over the limit", report["over_limit"]),
        ("slow only on a first call", report["slow_first_calls"]),
        ("failures", report["failures"]),
    ):
        print(f"{name} ({limit:g} s CPU): {len(rows)}" if name != "failures" else f"{name}: {len(rows)}")
        for r in rows[:20]:
            print(
                f"  input {r['i']} ({r['kind']}, {r['algorithm']}, {r['size']:,} bytes): cpu {r['cpu']:.3f}"
                f"{' then ' + format(r['cpu_again'], '.3f') if 'cpu_again' in r else ''} {r['outcome']} "
                f"{'; '.join(r['problems'])[:300]}"
            )
    print(f"inputs saved in {out / 'inputs'}; report {out / 'report.json'}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m newscrawl.bench.fuzz", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--inputs", type=int, default=1_000, help="inputs in all (default 1,000)")
    parser.add_argument("--first", type=int, default=0, help="number of the first input (default 0)")
    parser.add_argument("--seed", type=int, default=14, help="run seed (default 14)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--out", type=Path, default=Path("fuzz-out"), help="folder of results (fuzz-out)")
    parser.add_argument("--limit", type=float, default=LIMIT_SECONDS, help="CPU seconds per input (1)")
    parser.add_argument("--timeout", type=float, default=TIMEOUT_SECONDS, help="wall seconds per input (60)")
    parser.add_argument(
        "--only", type=int, action="append", metavar="I", help="run input I only (repeatable)"
    )
    args = parser.parse_args(argv)
    if args.inputs < 0 or args.first < 0 or args.jobs < 1 or args.limit <= 0 or args.timeout <= 0:
        parser.error(
            "--inputs and --first must be 0 or more, --jobs at least 1, --limit and --timeout positive"
        )
    args.out.mkdir(parents=True, exist_ok=True)
    if args.only:  # a reproduction: run here, no pool, nothing recorded
        logging.basicConfig(level=logging.WARNING)
        warm_up()
        for index in args.only:
            result = run_input(args.seed, index, args.limit)
            print(json.dumps(result, ensure_ascii=False))
            save_input(args.out, args.seed, result)
        return 0
    results_path = args.out / f"results-{args.seed}.jsonl"
    done = _load(results_path)
    wanted = range(args.first, args.first + args.inputs)
    todo = (i for i in wanted if i not in done)
    started, count = time.monotonic(), 0
    pool = _Pool(args.jobs, args.seed, args.limit, args.timeout)
    try:
        with results_path.open("a", encoding="utf-8") as f:
            for result in pool.run(todo):
                done[result["i"]] = result
                f.write(json.dumps(result, ensure_ascii=False) + "\n")
                f.flush()
                if result["problems"] or over_limit(result, args.limit):
                    save_input(args.out, args.seed, result)
                count += 1
                if count % 1_000 == 0:
                    rate = count / (time.monotonic() - started)
                    print(f"{len(done):,} inputs done ({rate:.1f}/s)", file=sys.stderr, flush=True)
    finally:
        pool.close()
    results = [done[i] for i in wanted if i in done]
    report = summarize(results, args.limit)
    report.update(seed=args.seed, limit_cpu_seconds=args.limit)
    (args.out / "report.json").write_text(json.dumps(report, ensure_ascii=False, indent=1), "utf-8")
    _print_report(report, args.seed, args.limit, args.out)
    return 1 if report["over_limit"] or report["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
