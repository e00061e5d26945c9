"""Pages written for the crawler tests and responses built from them."""

from __future__ import annotations

from scrapy.http import HtmlResponse, Request

SITE = {
    "name": "portal",
    "allowed_domains": ["news.example.cn"],
    "language": "zh",
    "start": {"pages": ["https://news.example.cn/"], "sitemaps": ["https://news.example.cn/sitemap.xml"]},
    "patterns": {
        "article": [r"^https://news\.example\.cn/\w+/\d{4}-\d{2}-\d{2}/doc-i\w+\.shtml$"],
        "list": [r"^https://news\.example\.cn/(?:\w+/)?(?:index_\d+\.html)?$"],
        "deny": [r"/video/"],
    },
}

ARTICLE_TEXT = (
    "临江市今天举行新闻发布会，介绍全市老旧小区改造的进展情况。今年以来，全市已完成改造小区四十二个，"
    "惠及居民一万余户，加装电梯一百二十部。",
    "市住建局负责人表示，改造坚持先听居民意见，改造方案须经三分之二以上居民同意后方可实施，"
    "施工期间实行一楼一公示，夜间禁止噪声作业。",
    "下一步，该市将把老旧小区改造与完整社区建设结合起来，推动片区整体提升，让居民住得更舒心。",
)


def article_html(
    title: str = "临江市老旧小区改造进展顺利",
    paragraphs: tuple[str, ...] = ARTICLE_TEXT,
    published: str | None = "2026-11-20T08:30:00+08:00",
    canonical: str | None = None,
    charset: str | None = "utf-8",
) -> str:
    meta = f'<meta property="article:published_time" content="{published}">' if published else ""
    link = f'<link rel="canonical" href="{canonical}">' if canonical else ""
    declared = f'<meta charset="{charset}">' if charset else ""
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return (
        f"<html><head>{declared}<title>{title}_示例网</title>{meta}{link}</head><body>"
        '<div class="nav"><a href="/">首页</a> <a href="/china/">国内</a></div>'
        f'<h1 class="main-title">{title}</h1><div class="date">2026年11月20日 08:30 来源：临江日报</div>'
        f'<div class="article">{body}</div><div class="footer">版权所有</div></body></html>'
    )


def list_html(links: list[str]) -> str:
    items = "".join(f'<li><a href="{u}">新闻标题{i}</a></li>' for i, u in enumerate(links))
    return f'<html><head><meta charset="utf-8"><title>国内</title></head><body><ul>{items}</ul></body></html>'


def response(
    url: str, body: str | bytes, *, kind: str | None = None, headers: dict[str, str] | None = None
) -> HtmlResponse:
    """An HTML response for ``url``; ``kind`` goes where the spider's own requests put it."""
    data = body.encode("utf-8") if isinstance(body, str) else body
    meta = {"newscrawl_kind": kind} if kind else {}
    return HtmlResponse(url, body=data, headers=headers or {}, request=Request(url, meta=meta))


#: seconds of head start: a worker's warm-up takes 0.3-0.6 s, a page of the tests' archives a few ms
HEAD_START = 3.0
#: ``python -c`` code running ``newscrawl ARGS...`` whose main process pauses :data:`HEAD_START` seconds
#: once it has handed the workers their lookahead: how much they compute before the replay asks for a
#: page otherwise depends on the machine's load (none at all when the first tasks reach a worker before
#: its warm-up ends), so a test that counts the pages computed ahead gives them this head start
HEAD_START_CLI = f"""
import sys, time
import newscrawl.crawl.workers as workers
handed = workers.look_ahead
def look_ahead(*args, **kwargs):
    given = handed(*args, **kwargs)
    time.sleep({HEAD_START})
    return given
workers.look_ahead = look_ahead
from newscrawl.cli import entry_point
sys.argv[0] = "newscrawl"
sys.exit(entry_point())
"""
