"""``newscrawl reextract`` on the archive engine: a hand-made archive of a small site, replayed.

The archive is written by :class:`~newscrawl.crawl.warc.WarcMiddleware` as a crawl writes it: a list page,
an article split over two pages, an article behind a redirect, an article served gzipped, a 404 and a
link to a page that was never fetched.
"""

from __future__ import annotations

import gzip
import json
import os
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from scrapy.downloadermiddlewares.httpcompression import HttpCompressionMiddleware
from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware, RedirectMiddleware
from scrapy.http import HtmlResponse, Request
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler

from newscrawl.crawl.replay import ArchiveEngine
from newscrawl.crawl.warc import WarcMiddleware, reextract_settings
from newscrawl.spiders.news import fetched_at
from newscrawl.storage.warc import ArchiveReader

from .helpers import HEAD_START_CLI, article_html

HOST = "https://news.example.cn"
SITE = f"""name = "replaysite"
allowed_domains = ["news.example.cn"]
timezone = "Asia/Shanghai"

[start]
pages = ["{HOST}/list.html"]

[patterns]
article = ['^https://news\\.example\\.cn/a/[\\w-]+\\.html$']
list = ['^https://news\\.example\\.cn/list\\.html$']
"""
PARAGRAPHS = {
    "one": ("第一页：临江市政府今天公布二〇二七年民生实事项目清单，共十个方面三十项任务，总投资八十亿元。",),
    "one_2": ("第二页：医疗方面，两个新城各建设一所三级综合医院，二十个社区卫生服务中心开设夜间门诊服务。",),
    "two": ("青禾县农业部门表示，今年冬季蔬菜供应充足，价格总体保持稳定，大棚种植面积比去年增加一成。",),
    "three": ("临江大桥维修工程预计明年上半年完工，施工期间桥面单向通行，有关部门提醒市民注意出行安全。",),
}


def url(name: str) -> str:
    return f"{HOST}/a/{name}.html"


def article(name: str, *links: str) -> bytes:
    html = article_html(title=f"临江新闻{name}", paragraphs=PARAGRAPHS[name])
    anchors = "".join(f'<a href="{link}">{n + 1}</a> ' for n, link in enumerate(links))
    return html.replace("</body>", f'<div class="pagebox">{anchors}</div></body>').encode()


def list_page() -> bytes:
    links = [url("one"), f"{HOST}/a/old.html", url("three"), url("missing"), url("gone")]
    items = "".join(f'<li><a href="{link}">新闻{n}</a></li>' for n, link in enumerate(links))
    return f"<html><body><ul>{items}</ul></body></html>".encode()


def write_archive(folder: Path) -> list[Path]:
    """The archive a crawl of the site writes (responses in the order the crawl received them)."""
    settings = {"NEWSCRAWL_WARC_DIR": str(folder / "warc"), "NEWSCRAWL_WARC_MAX_BYTES": 1_000_000}
    crawler = get_crawler(settings_dict=settings)
    mw = WarcMiddleware.from_crawler(crawler)
    spider = crawler._create_spider("replaysite")
    mw.spider_opened(spider)
    html = {"Content-Type": "text/html; charset=utf-8"}

    def fetched(link: str, kind: str, body: bytes, status: int = 200, **headers: str) -> None:
        request = Request(link, meta={"newscrawl_kind": kind})
        response = HtmlResponse(link, status=status, body=body, headers={**html, **headers}, request=request)
        mw.process_response(request, response)

    fetched(f"{HOST}/list.html", "list", list_page())
    fetched(url("one"), "article", article("one", url("one"), url("one_2")))
    fetched(url("one_2"), "later_page", article("one_2", url("one"), url("one_2")))
    fetched(f"{HOST}/a/old.html", "article", b"", status=301, Location=url("two"))
    fetched(url("two"), "article", article("two"))
    fetched(url("three"), "article", gzip.compress(article("three")), **{"Content-Encoding": "gzip"})
    fetched(url("gone"), "article", b"not found", status=404)
    mw.spider_closed(spider)
    assert mw.writer is not None
    return mw.writer.paths


@pytest.fixture(scope="module")
def replayed(tmp_path_factory: Any) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("replay")
    (folder / "sites").mkdir()
    (folder / "sites" / "replaysite.toml").write_text(SITE, encoding="utf-8")
    warcs = write_archive(folder)
    args = [
        sys.executable, "-m", "newscrawl.cli", "reextract", *map(str, warcs), "-o", str(folder / "out.jsonl"),
        "--db", str(folder / "store.sqlite3"), "-s", f"NEWSCRAWL_SITES_DIR={folder / 'sites'}",
        "-s", f"NEWSCRAWL_STATS_FILE={folder / 'stats.json'}", "-s", "NEWSCRAWL_EXTRACT_WORKERS=1",
    ]  # fmt: skip
    done = subprocess.run(args, cwd=folder, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    lines = (folder / "out.jsonl").read_text(encoding="utf-8").splitlines()
    return {
        "folder": folder,
        "stdout": done.stdout,
        "stderr": done.stderr,
        "records": {r["url"]: r for r in map(json.loads, lines)},
        "stats": json.loads((folder / "stats.json").read_text(encoding="utf-8")),
        "warcs": warcs,
    }


def archive_and_site(folder: Path, site: str) -> tuple[list[Path], str]:
    """The test archive written in ``folder`` and the setting naming a sites folder there holding ``site``
    (a site file's text)."""
    (folder / "sites").mkdir()
    (folder / "sites" / "replaysite.toml").write_text(site, encoding="utf-8")
    return write_archive(folder), f"NEWSCRAWL_SITES_DIR={folder / 'sites'}"


def run_reextract(
    folder: Path, warcs: list[Path], name: str, *settings: str, head_start: bool = False
) -> dict[str, Any]:
    """``newscrawl reextract`` of ``warcs`` with ``settings`` (NAME=VALUE): its records and stats; with
    ``head_start``, the workers compute ahead for a few seconds (``helpers.HEAD_START``) before the
    replay starts."""
    out, stats = folder / f"{name}.jsonl", folder / f"{name}.stats.json"
    command = [sys.executable, *(("-c", HEAD_START_CLI) if head_start else ("-m", "newscrawl.cli"))]
    args = [*command, "reextract", *map(str, warcs), "-o", str(out),
            "--db", str(folder / f"{name}.sqlite3"), "-s", f"NEWSCRAWL_STATS_FILE={stats}"]
    for setting in settings:
        args += ["-s", setting]
    done = subprocess.run(args, cwd=folder, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    records = {r["url"]: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    return {"records": records, "stats": json.loads(stats.read_text(encoding="utf-8"))["stats"]}


def test_the_worker_extracts_ahead_exactly_the_tasks_the_replay_asks_for(replayed: dict[str, Any]) -> None:
    # every page it computed ahead is one the replay asked for (how many it computes before the replay
    # asks depends on the machine's load: none to all three; counted only when some were)
    stats = replayed["stats"]["stats"]
    computed = stats.get("newscrawl/workers/ahead_computed", 0)
    assert computed == stats.get("newscrawl/workers/ahead_taken", 0) <= 3


def test_with_a_head_start_the_worker_extracts_every_page_ahead_as_the_replay_asks_for_it(
    tmp_path: Path,
) -> None:
    warcs, sites = archive_and_site(tmp_path, SITE)
    ahead = run_reextract(tmp_path, warcs, "ahead", sites, "NEWSCRAWL_EXTRACT_WORKERS=1", head_start=True)
    # one, two and three (gzipped); page 2 of one is no start point, the 301 and the 404 are not extracted
    stats = ahead["stats"]
    assert stats["newscrawl/workers/ahead_computed"] == stats["newscrawl/workers/ahead_taken"] == 3
    assert len(ahead["records"]) == 3


def test_two_workers_each_extract_ahead_their_share_and_give_the_records_of_one(tmp_path: Path) -> None:
    warcs, sites = archive_and_site(tmp_path, SITE)
    one = run_reextract(tmp_path, warcs, "one", sites, "NEWSCRAWL_EXTRACT_WORKERS=1")
    two = run_reextract(tmp_path, warcs, "two", sites, "NEWSCRAWL_EXTRACT_WORKERS=2", head_start=True)
    # one, two and three, each asked of the worker that computed it ahead (its share's)
    stats = two["stats"]
    assert stats["newscrawl/workers/started"] == 2
    assert stats["newscrawl/workers/ahead_computed"] == stats["newscrawl/workers/ahead_taken"] == 3
    assert two["records"] == one["records"] and len(one["records"]) == 3


def test_a_split_lookahead_gives_each_share_its_pages_in_replay_order(replayed: dict[str, Any]) -> None:
    from newscrawl.crawl.lookahead import ArchiveLookahead
    from newscrawl.crawl.workers import PageTask

    with ArchiveReader(replayed["warcs"]) as reader:
        urls = [url("one"), f"{HOST}/a/old.html", url("two"), url("three"), url("gone"), url("one")]
        whole = ArchiveLookahead(PageTask(b"", ""), [(reader.index[u], "article") for u in urls])
        shares = whole.split(2)
        computed = [[task.url for task in iter(share.next, None)] for share in shares]
    # positions 0, 2, 4 and 1, 3, 5: the redirect and the 404 are not extracted, the second "one" is read
    # by the replay as the first
    assert computed == [[url("one"), url("two")], [url("three")]]
    assert [shares[1].owner(PageTask(b"", u)) for u in urls] == [0, 1, 0, 1, 0, 0]
    assert shares[0].owner(PageTask(b"", url("missing"))) is None and shares[0].owner("other") is None


#: the site with fields and settings that change the extraction task of each page
SITE_WITH_OVERRIDES = SITE.replace('timezone = "Asia/Shanghai"', 'timezone = "Europe/Berlin"') + """
[xpath]
title = "//h1"
exclude = ["//div[@class='pagebox']"]

[settings]
NEWSCRAWL_ALGORITHM = "cetd"
NEWSCRAWL_MAX_NODES = 40000
"""


def test_pages_extracted_ahead_with_the_sites_fields_and_settings_give_the_records_extracted_inline(
    tmp_path: Path,
) -> None:
    warcs, sites = archive_and_site(tmp_path, SITE_WITH_OVERRIDES)
    ahead = run_reextract(tmp_path, warcs, "ahead", sites, "NEWSCRAWL_EXTRACT_WORKERS=1",
                          "NEWSCRAWL_TIME_BUDGET=30", head_start=True)
    inline = run_reextract(tmp_path, warcs, "inline", sites, "NEWSCRAWL_EXTRACT_WORKERS=0",
                           "NEWSCRAWL_TIME_BUDGET=30")
    # every task predicted as the spider and stage 1 made it (else it was computed again: not taken)
    stats = ahead["stats"]
    assert stats["newscrawl/workers/ahead_computed"] == stats["newscrawl/workers/ahead_taken"] == 3
    assert {r["algorithm"] for r in ahead["records"].values()} == {"cetd"}
    times = ("crawled_at", "first_crawled_at")
    assert {u: {k: v for k, v in r.items() if k not in times} for u, r in ahead["records"].items()} == {
        u: {k: v for k, v in r.items() if k not in times} for u, r in inline["records"].items()
    }


def test_every_article_is_one_record_and_a_split_article_is_joined(replayed: dict[str, Any]) -> None:
    records = replayed["records"]
    assert sorted(records) == [url("one"), url("three"), url("two")]
    one = records[url("one")]
    assert one["pages"] == 2
    assert one["text"].index("第一页") < one["text"].index("第二页")


def test_a_redirect_and_a_gzipped_page_are_replayed_as_the_crawl_received_them(
    replayed: dict[str, Any],
) -> None:
    records = replayed["records"]
    assert "青禾县" in records[url("two")]["text"]  # reached through the 301 of /a/old.html
    assert "临江大桥" in records[url("three")]["text"]  # decoded as the crawl's middleware decoded it


def test_redirects_are_replayed_with_the_crawls_referer_middleware_and_no_warning(
    replayed: dict[str, Any],
) -> None:
    assert "RefererMiddleware instance" not in replayed["stderr"], replayed["stderr"][-2000:]
    assert url("two") in replayed["records"]  # the article behind the redirect


def test_the_summary_line_counts_replayed_pages_records_and_missing_links(replayed: dict[str, Any]) -> None:
    # list, one, one_2, old (301), two, three, gone (404): 7 archived responses; "missing" never fetched
    assert (
        "7 archived responses replayed, 3 records written, 0 dropped, 1 links to pages not in the archives"
        in replayed["stdout"]
    )
    stats = replayed["stats"]["stats"] if "stats" in replayed["stats"] else replayed["stats"]
    assert stats["downloader/response_status_count/404"] == 1
    assert stats["newscrawl/multipage/articles"] == 1


def test_the_store_gets_the_records_and_the_crawl_history_row(replayed: dict[str, Any]) -> None:
    with sqlite3.connect(replayed["folder"] / "store.sqlite3") as db:
        stored = {row[0] for row in db.execute("SELECT canonical_url FROM articles")}
        crawls = db.execute("SELECT site, records FROM crawls").fetchall()
    assert stored == set(replayed["records"])
    assert crawls == [("replaysite", 3)]


def test_a_damaged_record_costs_its_page_only_and_is_counted_and_named(tmp_path: Path) -> None:
    (tmp_path / "sites").mkdir()
    (tmp_path / "sites" / "replaysite.toml").write_text(SITE, encoding="utf-8")
    (path,) = write_archive(tmp_path)
    with ArchiveReader([path]) as reader:
        offset = reader.index[url("two")].offset
    data = bytearray(path.read_bytes())
    for n in range(offset + 30, offset + 60):  # the deflate stream of that response's gzip member
        data[n] ^= 0xFF
    path.write_bytes(bytes(data))
    args = [
        sys.executable, "-m", "newscrawl.cli", "reextract", str(path), "-o", str(tmp_path / "out.jsonl"),
        "--db", str(tmp_path / "store.sqlite3"), "-s", f"NEWSCRAWL_SITES_DIR={tmp_path / 'sites'}",
        "-s", f"NEWSCRAWL_STATS_FILE={tmp_path / 'stats.json'}", "-s", "NEWSCRAWL_EXTRACT_WORKERS=1",
    ]  # fmt: skip
    done = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr[-3000:]
    assert "1 damaged records passed over" in done.stdout
    assert f"at byte {offset} is damaged" in done.stderr
    lines = (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()
    assert {json.loads(line)["url"] for line in lines} == {url("one"), url("three")}
    stats = json.loads((tmp_path / "stats.json").read_text(encoding="utf-8"))["stats"]
    assert stats["newscrawl/warc/damaged_records"] == 1


def test_the_reader_gives_start_points_in_archive_order_without_later_pages(
    replayed: dict[str, Any],
) -> None:
    with ArchiveReader(replayed["warcs"]) as reader:
        points = reader.start_points()
        assert [p for p, _ in points] == [
            f"{HOST}/list.html", url("one"), f"{HOST}/a/old.html", url("two"), url("three"), url("gone")
        ]
        assert dict(points)[f"{HOST}/list.html"] == "list"
        assert reader.spiders() == ["replaysite"]
        later = reader.get(url("one_2"))
        assert later is not None and later.kind == "later_page" and b"\xe7\xac\xac" in later.body
        assert reader.get(url("missing")) is None




class ProjectMetaRefresh(MetaRefreshMiddleware):
    """A project's meta-refresh middleware in Scrapy's place."""


def test_responses_go_through_the_crawls_own_decoding_and_redirect_middlewares_in_its_order() -> None:
    settings = Settings({"DOWNLOADER_MIDDLEWARES": {
        MetaRefreshMiddleware: None, ProjectMetaRefresh: 580, RedirectMiddleware: None,
    }})  # fmt: skip
    engine = ArchiveEngine.__new__(ArchiveEngine)
    engine.settings = settings
    assert engine._response_middlewares() == [ProjectMetaRefresh, HttpCompressionMiddleware]


def test_scrapys_other_downloader_middlewares_are_passed_over_without_being_imported() -> None:
    # a probe in a fresh interpreter: CookiesMiddleware's module imports tldextract (and requests)
    code = (
        "import sys; from scrapy.settings import Settings; from newscrawl.crawl.replay import ArchiveEngine; "
        "engine = ArchiveEngine.__new__(ArchiveEngine); engine.settings = Settings(); "
        "print([c.__name__ for c in engine._response_middlewares()], "
        "'scrapy.downloadermiddlewares.cookies' in sys.modules, 'tldextract' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.split("] ")[1].split() == ["False", "False"], done.stderr[-2000:]
    assert "'MetaRefreshMiddleware', 'HttpCompressionMiddleware', 'RedirectMiddleware'" in done.stdout


def test_none_of_scrapys_passed_over_downloader_middlewares_decodes_or_redirects() -> None:
    # what passing them over by name rests on, checked against the installed Scrapy
    from scrapy.downloadermiddlewares.redirect import BaseRedirectMiddleware
    from scrapy.settings.default_settings import DOWNLOADER_MIDDLEWARES_BASE
    from scrapy.utils.misc import load_object

    from newscrawl.crawl.replay import _other_scrapy_middleware

    passed = [name for name in DOWNLOADER_MIDDLEWARES_BASE if _other_scrapy_middleware(name)]
    assert "scrapy.downloadermiddlewares.cookies.CookiesMiddleware" in passed
    assert "scrapy.downloadermiddlewares.redirect.RedirectMiddleware" not in passed
    for name in passed:
        assert not issubclass(load_object(name), (HttpCompressionMiddleware, BaseRedirectMiddleware)), name
    assert not _other_scrapy_middleware("newscrawl.middlewares.MetaRefreshMiddleware")
    assert not _other_scrapy_middleware(ProjectMetaRefresh)


def test_a_replay_goes_without_scrapys_remote_control_server_and_takes_other_settings() -> None:
    crawl = Settings()
    crawl.setmodule("newscrawl.settings", priority="project")
    replay = reextract_settings({"NEWSCRAWL_ALGORITHM": "cetd"})
    remote = "scrapy.extensions.remote_control.RemoteControl"
    assert remote in crawl.get_component_priority_dict_with_base("EXTENSIONS")
    extensions = replay.get_component_priority_dict_with_base("EXTENSIONS")
    assert remote not in extensions
    assert "newscrawl.crawl.summary.CrawlSummary" in extensions
    assert replay.get("NEWSCRAWL_ALGORITHM") == "cetd" and replay.getbool("ROBOTSTXT_OBEY") is False


def test_a_replay_extracts_in_one_worker_per_cpu_unless_told_otherwise(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    assert reextract_settings().getint("NEWSCRAWL_EXTRACT_WORKERS") == 3  # a crawl's default: 2
    assert reextract_settings({"NEWSCRAWL_EXTRACT_WORKERS": "1"}).getint("NEWSCRAWL_EXTRACT_WORKERS") == 1
    # a site file's setting (spider priority) still wins over the replay's default
    replay = reextract_settings()
    replay.set("NEWSCRAWL_EXTRACT_WORKERS", 1, "spider")
    assert replay.getint("NEWSCRAWL_EXTRACT_WORKERS") == 1
    # so does the project's settings module
    (tmp_path / "myproject_settings.py").write_text("NEWSCRAWL_EXTRACT_WORKERS = 2\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("SCRAPY_SETTINGS_MODULE", "myproject_settings")
    assert reextract_settings().getint("NEWSCRAWL_EXTRACT_WORKERS") == 2


@pytest.mark.parametrize(("workers", "started"), [("2", 2), ("0", 0), ("", 3)])
def test_the_extraction_workers_are_forked_before_scrapy_is_imported_without_a_fork_server(
    workers: str, started: int
) -> None:
    code = (
        "import multiprocessing, os, sys; from multiprocessing import forkserver; "
        "os.sched_getaffinity = lambda pid: {0, 1, 2}; "  # 3 CPUs: by default, one worker each
        "from newscrawl.cli.warc import start_workers; "
        f"start_workers({{'NEWSCRAWL_EXTRACT_WORKERS': {workers!r}}}); "
        "print(len(multiprocessing.active_children()), forkserver._forkserver._forkserver_pid is not None, "
        "'scrapy' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == [str(started), "False", "False"], done.stderr[-2000:]


class Plain:
    def process_item(self, item: dict[str, Any]) -> dict[str, Any]:
        item["seen"] = [*item.get("seen", []), "plain"]
        return item


class Coroutine:
    async def process_item(self, item: dict[str, Any]) -> dict[str, Any]:
        item["seen"].append("coroutine")
        return item


class Deferring:
    def process_item(self, item: dict[str, Any]) -> Any:
        from twisted.internet.defer import succeed

        item["seen"].append("deferred")
        return succeed(item)


class Dropping:
    def process_item(self, item: dict[str, Any]) -> dict[str, Any]:
        from scrapy.exceptions import DropItem

        if item.get("drop"):
            raise DropItem("told to")
        return item


def engine_over(tmp_path: Path) -> ArchiveEngine:
    from scrapy.utils.test import get_crawler

    settings = {"ITEM_PIPELINES": {Plain: 1, Coroutine: 2, Deferring: 3, Dropping: 4}}
    crawler = get_crawler(settings_dict=settings)
    reader = ArchiveReader(write_archive(tmp_path))
    engine = ArchiveEngine(crawler, reader, reader.start_points())
    engine.spider = crawler._create_spider("replaytest")
    return engine


def test_items_go_through_each_kind_of_pipeline_and_reach_sync_and_async_signal_handlers(
    tmp_path: Path,
) -> None:
    import asyncio

    from scrapy import signals

    engine = engine_over(tmp_path)
    heard: list[str] = []

    def scraped(item: dict[str, Any]) -> None:
        heard.append(f"scraped {item['seen']}")

    async def scraped_later(item: dict[str, Any]) -> None:
        await asyncio.sleep(0)
        heard.append("scraped, awaited")

    def dropped(item: dict[str, Any], exception: BaseException) -> None:
        heard.append(f"dropped: {exception}")

    engine.signals.connect(scraped, signal=signals.item_scraped)
    engine.signals.connect(dropped, signal=signals.item_dropped)

    async def run() -> None:
        await engine._item({"url": "u1"}, None)
        await engine._item({"url": "u2", "drop": True}, None)
        engine.signals.connect(scraped_later, signal=signals.item_scraped)
        engine._plain_signals.clear()  # receivers changed
        await engine._item({"url": "u3"}, None)

    asyncio.run(run())
    assert heard == [
        "scraped ['plain', 'coroutine', 'deferred']",
        "dropped: told to",
        "scraped ['plain', 'coroutine', 'deferred']",
        "scraped, awaited",
    ]


def test_texts_are_fingerprinted_in_the_worker_until_items_wait_for_the_workers(tmp_path: Path) -> None:
    from newscrawl.crawl import replay
    from newscrawl.pipelines.extraction import ExtractionPipeline

    engine = engine_over(tmp_path)
    extraction = ExtractionPipeline(fingerprint=True)
    engine._fingerprinting = [extraction]
    engine._balance()
    assert extraction.fingerprint is True
    engine._items = {object() for _ in range(replay.REPLAY_ITEMS_IN_FLIGHT // 2)}  # type: ignore[misc]
    engine._balance()
    assert extraction.fingerprint is False
    engine._items = set()
    engine._balance()
    assert extraction.fingerprint is True


#: when the archive below was written: noon in Shanghai, long before any run of these tests
FETCHED = datetime(2026, 1, 10, 4, 0, tzinfo=UTC)


class _Then(datetime):
    @classmethod
    def now(cls, tz: Any = None) -> datetime:  # type: ignore[override]
        return FETCHED if tz is not None else FETCHED.replace(tzinfo=None)


def test_relative_publish_times_are_resolved_against_the_fetch_time_in_the_crawl_and_every_replay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make_spider: Any
) -> None:
    page = article_html(title="临江新闻相对时间", paragraphs=PARAGRAPHS["two"], published=None)
    page = page.replace("2026年11月20日 08:30 来源", "3小时前 来源").encode()
    link = url("relative")
    settings = {"NEWSCRAWL_WARC_DIR": str(tmp_path / "warc"), "NEWSCRAWL_WARC_MAX_BYTES": 1_000_000}
    crawler = get_crawler(settings_dict=settings)
    mw = WarcMiddleware.from_crawler(crawler)
    archiving = crawler._create_spider("replaysite")
    mw.spider_opened(archiving)
    request = Request(link, meta={"newscrawl_kind": "article"})
    response = HtmlResponse(link, body=page, headers={"Content-Type": "text/html; charset=utf-8"},
                            request=request)  # fmt: skip
    with monkeypatch.context() as m:  # the crawl, long ago
        m.setattr("newscrawl.crawl.warc.datetime", _Then)
        mw.process_response(request, response)
    mw.spider_closed(archiving)
    assert mw.writer is not None
    warcs = [str(p) for p in mw.writer.paths]

    # the crawl's spider: the record's fetch time is its crawled_at and its reference time
    spider = make_spider(site={"timezone": "Asia/Shanghai"})
    assert fetched_at(response) == FETCHED
    item = spider._item(response)
    extraction = spider._extract(response)
    assert item["crawled_at"] == "2026-01-10T04:00:00+00:00"
    assert extraction is not None and extraction.published_at == "2026-01-10T09:00:00+08:00"

    # the archive says when: a replay today resolves 3小时前 as the crawl did
    with ArchiveReader(warcs) as reader:
        archived = reader.get(link)
    assert archived is not None and archived.date == FETCHED

    (tmp_path / "sites").mkdir()
    (tmp_path / "sites" / "replaysite.toml").write_text(SITE, encoding="utf-8")
    args = [
        sys.executable, "-m", "newscrawl.cli", "reextract", *warcs, "-o", str(tmp_path / "out.jsonl"),
        "--db", str(tmp_path / "store.sqlite3"), "-s", f"NEWSCRAWL_SITES_DIR={tmp_path / 'sites'}",
        "-s", "NEWSCRAWL_EXTRACT_WORKERS=1",
    ]  # fmt: skip
    done = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    (record,) = map(json.loads, (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines())
    assert record["published_at"] == extraction.published_at
    assert record["crawled_at"] == item["crawled_at"]  # the page's fetch time, not the replay's
    with sqlite3.connect(tmp_path / "store.sqlite3") as db:
        (stored,) = db.execute("SELECT published_at, crawled_at, first_crawled_at FROM articles").fetchall()
        (started,) = db.execute("SELECT started_at FROM crawls").fetchone()
    assert stored[0].startswith("2026-01-10") and stored[1] == stored[2] == item["crawled_at"]
    assert started > "2026-01-11"  # the replay's own row in the crawl history carries the replay's time

    # newscrawl extract reads the archive with the record's date as the reference too
    args = [sys.executable, "-m", "newscrawl.cli", "extract", "--site", "replaysite", *warcs]
    done = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NEWSCRAWL_SITES_DIR": str(tmp_path / "sites")})  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    (line,) = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert line["published_at"] == extraction.published_at
