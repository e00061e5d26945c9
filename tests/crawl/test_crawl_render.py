"""Sites whose pages are filled in by scripts: those pages, and only those, go through a headless Chromium."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from scrapy.settings import Settings

from newscrawl.crawl.demo import DEMO_DIR, serve
from newscrawl.crawl.errors import ConfigError
from newscrawl.crawl.render import HANDLER, RenderAddon, find_chromium
from newscrawl.crawl.sites import SiteFileError, parse_site

RENDERED = "http://demo.newscrawl.test/js/2026-11-20/doc-ihxqkzm3252501.shtml"
#: a sentence the page's script writes into it; the HTML as served holds only a loading line
SCRIPTED = "临江市智慧停车平台今天正式上线"
SITE_FILE = """name = "jsdemo"
allowed_domains = ["demo.newscrawl.test"]
timezone = "Asia/Shanghai"
{render}
[start]
pages = ["http://demo.newscrawl.test/"]
[patterns]
article = ['^https?://demo\\.newscrawl\\.test/[a-z]+/\\d{{4}}-\\d{{2}}-\\d{{2}}/doc-i[a-z0-9]{{8,}}\\.shtml$']
"""


def site(**extra: object):
    data = {"allowed_domains": ["news.example.cn"], "start": {"pages": ["https://news.example.cn/"]},
            "patterns": {"article": [r"/doc-\w+\.shtml$"]}, **extra}  # fmt: skip
    return parse_site(data, "x.toml")


def test_render_true_list_or_bad() -> None:
    assert site(render=True).needs_render("https://news.example.cn/a/doc-1.shtml")
    patterned = site(render=["/js/"])
    assert patterned.needs_render("https://news.example.cn/js/doc-1.shtml")
    assert not patterned.needs_render("https://news.example.cn/a/doc-1.shtml")
    assert not site().renders
    with pytest.raises(SiteFileError, match="x.toml: render: must be true, false or a list"):
        site(render="yes")
    with pytest.raises(SiteFileError, match=r"x.toml: render\[0\]: bad regular expression"):
        site(render=["(unclosed"])


def test_only_the_pages_that_need_it_are_marked_for_the_browser(make_spider) -> None:
    spider = make_spider(site={"render": ["/js/"]})
    assert spider.custom_settings["NEWSCRAWL_RENDER"] is True
    article = spider._request("https://news.example.cn/js/2026-11-20/doc-iabc12345.shtml", "article")
    plain = spider._request("https://news.example.cn/c/2026-11-20/doc-iabc12345.shtml", "article")
    feed = spider._request("https://news.example.cn/js/sitemap.xml", "feed")
    assert article is not None and article.meta.get("playwright") is True
    assert plain is not None and "playwright" not in plain.meta
    assert feed is not None and "playwright" not in feed.meta
    assert "NEWSCRAWL_RENDER" not in make_spider().custom_settings


def test_no_browser_is_one_clear_line() -> None:
    with pytest.raises(ConfigError, match="NEWSCRAWL_CHROMIUM_PATH: no browser at /nonexistent/chromium"):
        find_chromium("/nonexistent/chromium")
    settings = Settings({"NEWSCRAWL_RENDER": True, "NEWSCRAWL_CHROMIUM_PATH": "/nonexistent/chromium"})
    with pytest.raises(ConfigError, match="no browser"):
        RenderAddon().update_settings(settings)


def test_without_render_the_handlers_are_scrapy_s_own() -> None:
    settings = Settings()
    RenderAddon().update_settings(settings)
    assert HANDLER not in settings.getdict("DOWNLOAD_HANDLERS").values()


def crawl(tmp_path: Path, render: str) -> tuple[list[dict[str, object]], dict[str, object]]:
    sites = tmp_path / f"sites-{len(render)}"
    sites.mkdir()
    (sites / "jsdemo.toml").write_text(SITE_FILE.format(render=render), encoding="utf-8")
    out = sites / "out.jsonl"
    env = dict(os.environ, SCRAPY_SETTINGS_MODULE="newscrawl.settings", PYTHONWARNINGS="ignore")
    with serve(DEMO_DIR) as base:
        done = subprocess.run(
            [sys.executable, "-m", "scrapy", "crawl", "jsdemo", "-a", f"start_urls={RENDERED}",
             "-O", str(out), "-s", f"NEWSCRAWL_REPLAY_PREFIX={base}/", "-s", f"NEWSCRAWL_SITES_DIR={sites}",
             "-s", f"NEWSCRAWL_SQLITE_PATH={sites / 'store.sqlite3'}"],
            cwd=Path(__file__).resolve().parents[2], env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line.strip()]
    stats = json.loads(out.with_suffix(".stats.json").read_text(encoding="utf-8"))["stats"]
    return records, stats


NO_BROWSER = importlib.util.find_spec("scrapy_playwright") is None or shutil.which("chromium") is None


@pytest.mark.skipif(
    NO_BROWSER,
    reason="rendering needs scrapy-playwright and a headless Chromium (Debian: apt-get install chromium)",
)
def test_a_script_filled_article_is_extracted_through_the_browser(tmp_path: Path) -> None:
    records, stats = crawl(tmp_path, "render = ['/js/']")
    assert [r["url"] for r in records] == [RENDERED]
    assert SCRIPTED in str(records[0]["text"])
    assert stats["newscrawl/render/requests"] == 1  # the article; robots.txt came over plain HTTP
    assert stats.get("playwright/request_count/navigation") == 1


def test_the_same_article_without_rendering_has_no_text(tmp_path: Path) -> None:
    records, stats = crawl(tmp_path, "")
    assert records == [] and stats.get("newscrawl/dropped/no_text") == 1
    assert "newscrawl/render/requests" not in stats
