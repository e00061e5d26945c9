"""A hostile news site on 127.0.0.1: the bombs of issue 14, served to a real ``scrapy crawl``.

Bounded: it answers at most :data:`MAX_REQUESTS` requests (503 after that) and every body is made once,
before serving. Pages are written here (invented text), none copied from anywhere.
"""

from __future__ import annotations

import gzip
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from newscrawl.crawl import loopback
from newscrawl.crawl.loopback import NOT_FOUND, Reply

#: requests the server answers at most
MAX_REQUESTS = 400
#: entries of the long sitemap and of the long RSS feed
LONG_SITEMAP = 5_000
LONG_RSS = 10_000
#: article paths listed by the long feeds (numbered from here; all answer 404)
LISTED_FROM = 1_000
#: a value for another site's article, which a page here names as its canonical URL
VICTIM = "http://victim.example/news/1.html"

PARAGRAPH = (
    "临江市今天召开新闻发布会，介绍老旧小区改造的进展。今年以来已完成改造小区四十二个，惠及居民一万余户。"
)


def article(title: str, head: str = "", body_extra: str = "") -> bytes:
    paragraphs = "".join(f"<p>{PARAGRAPH}第{n}段。</p>" for n in range(5))
    return (
        f'<html><head><meta charset="utf-8"><title>{title}</title>{head}</head><body>'
        f'<div class="nav"><a href="/">首页</a></div>{body_extra}<h1>{title}</h1>'
        f'<div class="article">{paragraphs}</div></body></html>'
    ).encode()


def list_page(links: list[str], extra: str = "") -> bytes:
    items = "".join(f'<li><a href="{u}">新闻{i}</a></li>' for i, u in enumerate(links))
    head = '<head><meta charset="utf-8"><title>列表</title></head>'
    return f"<html>{head}<body>{extra}<ul>{items}</ul></body></html>".encode()


def sitemap(urls: list[str], index: bool = False) -> bytes:
    root, entry = ("sitemapindex", "sitemap") if index else ("urlset", "url")
    items = "".join(f"<{entry}><loc>{u}</loc></{entry}>" for u in urls)
    ns = "http://www.sitemaps.org/schemas/sitemap/0.9"
    return f'<?xml version="1.0"?><{root} xmlns="{ns}">{items}</{root}>'.encode()


def bodies(base: str) -> dict[str, tuple[bytes, str]]:
    """Every path of the site: (body, content type)."""
    html, xml = "text/html; charset=utf-8", "application/xml"
    flood = "<div " + " ".join(f"a{i}" for i in range(160_000)) + ">x</div>"
    robots = (
        b"User-agent: *\nDisallow: /a/7.html\n"
        + b"".join(b"# filler line %07d of a robots.txt far over 500 KiB\n" % n for n in range(20_000))
        + b"Disallow: /a/5.html\n"  # past the 500 KiB read: not obeyed
    )
    listed = [f"{base}/a/{LISTED_FROM + n}.html" for n in range(LONG_SITEMAP)]
    rss_items = "".join(
        f"<item><title>t{n}</title><link>{base}/a/{LISTED_FROM + n}.html</link></item>"
        for n in range(LONG_RSS)
    )
    xxe = (
        b'<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>&x;</loc></url></urlset>'
    )
    # issue 14 item 1: a date search quadratic in candidates
    date_meta = f'<meta property="article:published_time" content="{"2024-01-01 " * 8000}">'
    victim_link = f'<link rel="canonical" href="{VICTIM}">'
    shouted = base.upper()
    return {
        "/robots.txt": (robots, "text/plain"),
        "/": (list_page([*(f"/a/{n}.html" for n in range(1, 8)), "/list/flood.html"]), html),
        # an attribute flood in a list page: its links are not parsed (libxml2 is quadratic in them)
        "/list/flood.html": (list_page(["/a/99.html"], extra=flood), html),
        # a terminal escape in the title and text; a canonical naming another site's article
        "/a/1.html": (
            article("暴雪&#27;[2J预警", head=victim_link, body_extra="<p>&#27;]0;x&#7;</p>"),
            html,
        ),
        "/a/2.html": (article("属性炸弹", body_extra=flood), html),
        # 180,000 tags: under the tag count of max_nodes (200,000), so parsed and refused for its depth
        "/a/3.html": (article("深层嵌套", body_extra="<div>" * 90_000 + "</div>" * 90_000), html),
        "/a/4.html": (article("日期炸弹", head=date_meta), html),
        # a canonical on this site with a tracking parameter, and the host in capitals with its port
        "/a/5.html": (
            article("规范链接", head=f'<link rel="canonical" href="{shouted}/a/5.html?utm_source=x#top">'),
            html,
        ),
        "/a/6.html": (article("普通新闻"), html),
        "/a/7.html": (article("禁止抓取"), html),
        "/a/99.html": (article("不应抓取"), html),
        "/sitemap_index.xml": (
            sitemap([f"{base}/sitemap_index.xml", f"{base}/sitemap-long.xml", f"{base}/sitemap-bomb.xml.gz",
                     f"{base}/sitemap-xxe.xml"], index=True),
            xml,
        ),
        "/sitemap-long.xml": (sitemap(listed), xml),
        # a gzip bomb: 60 MiB of zeros (over the 50 MiB a sitemap may inflate to) in about 60 KB
        "/sitemap-bomb.xml.gz": (gzip.compress(bytes(60 * 1024 * 1024), compresslevel=9), "application/gzip"),
        "/sitemap-xxe.xml": (xxe, xml),
        "/rss.xml": (f"<rss><channel>{rss_items}</channel></rss>".encode(), xml),
        "/roll.json": (b"[" * 200_000 + b"]" * 200_000, "application/json"),
    }


@dataclass
class HostileSite:
    base_url: str = ""
    hits: Counter[str] = field(default_factory=Counter)

    @property
    def requests(self) -> int:
        return sum(self.hits.values())


def site_toml(base_url: str) -> str:
    host = base_url.split("://", 1)[1].replace(".", r"\.")
    return f"""name = "hostile"
allowed_domains = ["127.0.0.1"]
language = "zh"

[start]
pages = ["{base_url}/"]
sitemaps = ["{base_url}/sitemap_index.xml"]
feeds = ["{base_url}/rss.xml"]
roll = ["{base_url}/roll.json"]

[patterns]
article = ['^http://{host}/a/\\d+\\.html$']
list = ['^http://{host}/list/\\w+\\.html$']

[settings]
DOWNLOAD_DELAY = 0
AUTOTHROTTLE_ENABLED = false
CONCURRENT_REQUESTS_PER_DOMAIN = 8
CLOSESPIDER_TIMEOUT = 120
NEWSCRAWL_MAX_FEED_ENTRIES = 50
"""


@contextmanager
def serve() -> Iterator[HostileSite]:
    """Serve the hostile site on a free loopback port for the ``with`` block."""
    site = HostileSite()
    lock = threading.Lock()
    pages: dict[str, Reply] = {}

    def respond(path: str) -> Reply:
        with lock:
            site.hits[path] += 1
            over = site.requests > MAX_REQUESTS
        reply = pages.get(path, NOT_FOUND)
        return Reply(503, reply.body, reply.content_type) if over else reply

    with loopback.serve(respond, name="hostilesite") as base:
        site.base_url = base
        pages.update((path, Reply(200, body, kind)) for path, (body, kind) in bodies(base).items())
        yield site
