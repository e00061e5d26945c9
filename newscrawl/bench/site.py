"""A generated news portal served on 127.0.0.1, for crawl benchmarks and distributed-crawl tests.

The portal has a home page, ``ceil(articles / per_page)`` paginated list pages (each linking the next
one and ``per_page`` articles) and the articles: invented Chinese news, generated from a seed, of a
few hundred characters in portal-like chrome. Every GET is counted per path, so a test can check that
each page was fetched exactly once.

>>> with serve(articles=3, per_page=2) as site:
...     import urllib.request
...     _ = urllib.request.urlopen(site.base_url + "/").read()
...     site.hits["/"]
1
"""

from __future__ import annotations

import random
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from newscrawl.crawl import loopback
from newscrawl.crawl.loopback import NOT_FOUND, Reply, Site

SITE_NAME = "bench"
DEFAULT_PER_PAGE = 50
#: longest wait of a gated response, in seconds
GATE_TIMEOUT = 60
#: phrases the generated articles are made of (invented, no real news)
_PHRASES = (
    "临江市今天召开新闻发布会", "介绍了今年以来城市建设的进展", "相关负责人表示", "下一步将继续推进",
    "老旧小区改造工作", "截至目前已完成投资", "市民普遍反映", "交通出行更加便利", "青禾县农业部门",
    "冬季蔬菜供应充足", "价格总体保持稳定", "专家认为", "这一做法值得推广", "据统计", "同比增长",
    "记者在现场看到", "工作人员正在有序施工", "预计明年上半年完工", "有关部门提醒", "注意出行安全",
    "科技园区新增企业", "人工智能产业快速发展", "高校毕业生就业形势", "总体平稳向好", "文化活动丰富多彩",
)


def _filler(rnd: random.Random) -> str:
    """A few ideographs drawn from the first 3,000 of the CJK block, so articles differ as real ones do."""
    return "".join(chr(0x4E00 + rnd.randrange(3000)) for _ in range(rnd.randint(4, 12)))


def article_path(n: int) -> str:
    return f"/news/2026-11-{1 + n % 28:02d}/doc-i{n:08d}.shtml"


def list_path(k: int) -> str:
    return "/list/index.html" if k == 0 else f"/list/index_{k + 1}.html"


def _chrome(title: str, body: str) -> str:
    nav = "".join(f'<a href="/list/index.html">频道{i}</a> ' for i in range(8))
    return (
        f'<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><title>{title}_临江新闻网</title>'
        f'</head><body><div class="nav">{nav}</div>{body}'
        '<div class="footer">关于我们 | 联系方式 | 版权所有 临江新闻网</div></body></html>'
    )


def article_text(n: int) -> tuple[str, list[str]]:
    """Title and paragraphs of article ``n`` (the same every time)."""
    rnd = random.Random(n)
    title = f"第{n}号新闻：" + "".join(rnd.sample(_PHRASES, 2))
    paragraphs = [
        "，".join(rnd.choice(_PHRASES) + _filler(rnd) for _ in range(rnd.randint(4, 8))) + "。"
        for _ in range(rnd.randint(3, 6))
    ]
    return title, paragraphs


def article_html(n: int) -> str:
    title, paragraphs = article_text(n)
    day = 1 + n % 28
    body = (
        f'<div class="article"><h1 class="main-title">{title}</h1>'
        f'<div class="date-source"><span class="date">2026年11月{day:02d}日 {8 + n % 12:02d}:30</span>'
        f" 来源：临江日报</div>"
        + "".join(f"<p>{p}</p>" for p in paragraphs)
        + "</div>"
    )
    return _chrome(title, body)


def list_html(k: int, articles: int, per_page: int) -> str:
    first = k * per_page
    items = "".join(
        f'<li><a href="{article_path(n)}">第{n}号新闻</a></li>'
        for n in range(first, min(articles, first + per_page))
    )
    pages = -(-articles // per_page)
    more = f'<a class="next" href="{list_path(k + 1)}">下一页</a>' if k + 1 < pages else ""
    return _chrome(f"新闻列表 第{k + 1}页", f'<ul class="list">{items}</ul>{more}')


def home_html(lists: int = 1) -> str:
    """The home page: a link to every list page (a wide frontier from the start, as a portal's channel
    index gives; following "next" links alone would make the crawl a chain of list pages)."""
    links = "".join(f'<a href="{list_path(k)}">第{k + 1}页</a> ' for k in range(lists))
    return _chrome("临江新闻网", f'<div class="pages">滚动新闻 {links}</div>')


def crawler_env() -> dict[str, str]:
    """Environment for a ``scrapy crawl`` subprocess running this very copy of newscrawl."""
    import os

    root = str(Path(__file__).resolve().parents[2])
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
    return dict(os.environ, SCRAPY_SETTINGS_MODULE="newscrawl.settings", PYTHONPATH=path)


def crawl_command(spider: str, settings: Mapping[str, object]) -> list[str]:
    """``python -m scrapy crawl SPIDER -s NAME=VALUE ...`` (run it with :func:`crawler_env`).

    >>> crawl_command("bench", {"LOG_LEVEL": "INFO"})[-3:]
    ['bench', '-s', 'LOG_LEVEL=INFO']
    """
    args = [sys.executable, "-m", "scrapy", "crawl", spider]
    for name, value in settings.items():
        args += ["-s", f"{name}={value}"]
    return args


#: the ``[settings]`` of a benchmark's site file: politeness off (the server is our own, on loopback)
LOOPBACK_SETTINGS = """[settings]
ROBOTSTXT_OBEY = false
DOWNLOAD_DELAY = 0
AUTOTHROTTLE_ENABLED = false
CONCURRENT_REQUESTS = 32
CONCURRENT_REQUESTS_PER_DOMAIN = 32
DEPTH_LIMIT = 0
"""


def site_toml(base_url: str) -> str:
    """The site file of the generated portal at ``base_url`` (``http://127.0.0.1:PORT``)."""
    host = base_url.split("://", 1)[1]
    escaped = host.replace(".", r"\.")
    return f"""name = "{SITE_NAME}"
description = "generated portal for crawl benchmarks (newscrawl.bench.site)"
allowed_domains = ["127.0.0.1"]
timezone = "Asia/Shanghai"
language = "zh"

[start]
pages = ["{base_url}/"]

[patterns]
article = ['^http://{escaped}/news/\\d{{4}}-\\d{{2}}-\\d{{2}}/doc-i\\d{{8}}\\.shtml$']
list = ['^http://{escaped}/list/index(?:_\\d+)?\\.html$']

""" + LOOPBACK_SETTINGS


@dataclass
class GeneratedSite:
    base_url: str
    articles: int
    per_page: int
    hits: Counter[str] = field(default_factory=Counter)
    #: monotonic times of the first and the last request served
    first_hit: float | None = None
    last_hit: float | None = None

    @property
    def pages(self) -> list[str]:
        """Every path of the portal."""
        lists = -(-self.articles // self.per_page)
        return ["/", *(list_path(k) for k in range(lists)), *(article_path(n) for n in range(self.articles))]

    def write_site_file(self, folder: Path) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{SITE_NAME}.toml"
        path.write_text(site_toml(self.base_url), encoding="utf-8")
        return path


def _site(site: GeneratedSite, delay: float, gate: threading.Event | None) -> Site:
    """The portal as a loopback site: every GET counted, gated and delayed as asked."""
    # every page made before serving starts, so the server spends (almost) nothing per request
    lists = -(-site.articles // site.per_page)
    pages = {"/": home_html(lists)}
    pages.update((list_path(k), list_html(k, site.articles, site.per_page)) for k in range(lists))
    pages.update((article_path(n), article_html(n)) for n in range(site.articles))
    replies = {path: Reply(200, page.encode("utf-8")) for path, page in pages.items()}
    lock = threading.Lock()

    def respond(path: str) -> Reply:
        with lock:
            site.hits[path] += 1
            now = time.monotonic()
            if site.first_hit is None:
                site.first_hit = now
            site.last_hit = now
        if gate is not None:
            gate.wait(GATE_TIMEOUT)
        if delay:
            time.sleep(delay)
        return replies.get(path, NOT_FOUND)

    return respond


@contextmanager
def serve(
    articles: int = 5000,
    per_page: int = DEFAULT_PER_PAGE,
    delay: float = 0.0,
    gate: threading.Event | None = None,
) -> Iterator[GeneratedSite]:
    """Serve a portal of ``articles`` articles on a free loopback port for the ``with`` block.

    ``delay`` seconds are spent on every response (a slower server, as over a network); with a ``gate``,
    responses wait until it is set (so that several crawlers can be started before any page is served).
    """
    site = GeneratedSite("", articles, per_page)
    with loopback.serve(_site(site, delay, gate), name="benchsite") as base:
        site.base_url = base
        yield site
