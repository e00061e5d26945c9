"""WARC archives: the demo crawl archived, the archive valid, re-extracted into the same records."""

from __future__ import annotations

import gzip
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from scrapy.http import HtmlResponse, Request
from scrapy.utils.test import get_crawler
from warcio.archiveiterator import ArchiveIterator

from newscrawl.crawl.config import ConfigError
from newscrawl.crawl.warc import FETCHED_AT_META, WarcMiddleware, WarcReplayMiddleware
from newscrawl.storage.warc import ArchivedResponse, archived_responses
from tests.crawl.helpers import HEAD_START_CLI
from tests.crawl.test_crawl_e2e import DEMO_ARTICLES, demo, records, run


def page(n: int) -> bytes:
    return f"<html><body><h1>第{n}篇</h1><p>{'正文内容。' * 60}</p></body></html>".encode()


def archive(tmp_path: Path, pages: int, max_bytes: int = 1_000_000) -> WarcMiddleware:
    settings = {"NEWSCRAWL_WARC_DIR": str(tmp_path), "NEWSCRAWL_WARC_MAX_BYTES": max_bytes}
    crawler = get_crawler(settings_dict=settings)
    mw = WarcMiddleware.from_crawler(crawler)
    spider = crawler._create_spider("portal")
    mw.spider_opened(spider)
    for n in range(pages):
        request = Request(f"https://news.example.cn/a/{n}.html", meta={"newscrawl_kind": "article"})
        request.headers[b"User-Agent"] = b"newscrawl-test"
        gz = gzip.compress(page(n))
        headers = {"Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip"}
        mw.process_response(request, HtmlResponse(request.url, body=gz, headers=headers, request=request))
        mw.item_scraped({"url": request.url, "page_kind": "article"}, None, spider)
    mw.spider_closed(spider)
    return mw


def test_every_response_is_archived_with_its_request_and_metadata(tmp_path: Path) -> None:
    mw = archive(tmp_path, 3)
    assert mw.writer is not None and len(mw.writer.paths) == 1
    with mw.writer.paths[0].open("rb") as f:
        kinds = [(r.rec_type, r.rec_headers.get_header("WARC-Target-URI")) for r in ArchiveIterator(f)]
    assert kinds[0][0] == "warcinfo"
    url = "https://news.example.cn/a/0.html"
    assert kinds[1:5] == [("response", url), ("request", url), ("metadata", url), ("metadata", url)]
    assert [k for k, _ in kinds].count("response") == 3
    # the payload is stored as the server sent it (gzip), and read back decoded
    (first, *_) = archived_responses(mw.writer.paths)
    assert first.header("Content-Encoding") == "gzip"
    assert first.decoded_body() == page(0)
    assert first.kind == "article" and first.spider == "portal"
    done = subprocess.run(
        [sys.executable, "-m", "warcio.cli", "check", str(mw.writer.paths[0])], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_files_rotate_at_the_size_limit(tmp_path: Path) -> None:
    mw = archive(tmp_path, 12, max_bytes=2_000)
    assert mw.writer is not None
    assert len(mw.writer.paths) >= 3
    assert [a.url for a in archived_responses(sorted(mw.writer.paths))] == [
        f"https://news.example.cn/a/{n}.html" for n in range(12)
    ]


def test_replay_answers_from_the_archive_and_ignores_the_rest(tmp_path: Path) -> None:
    from scrapy.exceptions import IgnoreRequest

    mw = archive(tmp_path, 2)
    assert mw.writer is not None
    replay = WarcReplayMiddleware([str(p) for p in mw.writer.paths])
    assert replay.start_points() == [(f"https://news.example.cn/a/{n}.html", "article") for n in range(2)]
    request = Request("https://news.example.cn/a/1.html")
    response = replay.process_request(request)
    assert response.status == 200 and response.headers[b"Content-Encoding"] == b"gzip"
    # the fetch time the record carries (its WARC-Date) comes with the response, as the crawl had it
    fetched = request.meta[FETCHED_AT_META]
    assert fetched.tzinfo is not None and fetched == fetched.replace(microsecond=0)
    assert response.meta[FETCHED_AT_META] == fetched
    assert gzip.decompress(response.body) == page(1)
    with pytest.raises(IgnoreRequest):
        replay.process_request(Request("https://news.example.cn/a/9.html"))


def test_a_file_that_is_not_a_warc_is_a_config_error(tmp_path: Path) -> None:
    bad = tmp_path / "x.warc.gz"
    bad.write_bytes(b"<html>not an archive</html>")
    crawler = get_crawler(settings_dict={"NEWSCRAWL_WARC_REPLAY": [str(bad)]})
    with pytest.raises(ConfigError, match="x.warc.gz"):
        WarcReplayMiddleware.from_crawler(crawler)


def test_newscrawl_extract_names_a_damaged_record_and_extracts_the_others(tmp_path: Path) -> None:
    (path,) = archive(tmp_path, 3).writer.paths  # type: ignore[union-attr]
    from newscrawl.storage.warc import scan

    offset = scan(path)[1].offset
    data = bytearray(path.read_bytes())
    for n in range(offset + 30, offset + 60):
        data[n] ^= 0xFF
    path.write_bytes(bytes(data))
    args = [sys.executable, "-m", "newscrawl.cli", "extract", str(path)]
    done = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and f"a record at byte {offset} is damaged" in done.stderr, done.stderr
    urls = [json.loads(line)["url"] for line in done.stdout.splitlines()]
    assert urls == ["https://news.example.cn/a/0.html", "https://news.example.cn/a/2.html"]


def test_a_gzip_bomb_in_an_archive_is_cut() -> None:
    bomb = gzip.compress(b"<p>" + b"a" * 20_000_000)
    archived = ArchivedResponse("https://x.cn/", 200, [("Content-Encoding", "gzip")], bomb)
    assert len(archived.decoded_body(max_bytes=1_000_000)) == 1_000_000


@pytest.fixture(scope="module")
def crawled(tmp_path_factory: Any) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("warc") / "output"
    warcs = out.parent / "warc"
    demo(out, "-s", f"NEWSCRAWL_WARC_DIR={warcs}")
    return {"out": out, "warcs": sorted(warcs.glob("*.warc.gz"))}


@pytest.mark.parametrize("workers", [1, 2])  # the bench's equal footing; reextract's default on 2 CPUs
def test_demo_crawl_to_warc_to_reextract_gives_the_same_records(
    crawled: dict[str, Any], workers: int
) -> None:
    out = crawled["out"]
    again, stats = out.parent / f"again-{workers}.jsonl", out.parent / f"again-{workers}.stats.json"
    done = run(  # the workers given a head start, so that they compute ahead whatever the machine's load
        [sys.executable, "-c", HEAD_START_CLI, "reextract", *map(str, crawled["warcs"]), "-o", str(again),
         "--db", str(out.parent / f"again-{workers}.sqlite3"), "-s", f"NEWSCRAWL_EXTRACT_WORKERS={workers}",
         "-s", f"NEWSCRAWL_STATS_FILE={stats}"],
        cwd=out.parent,
    )
    assert f"{DEMO_ARTICLES} records written" in done.stdout
    # the workers looked ahead, each over its share, and were asked every page they computed ahead but one:
    # the binary file the demo serves as HTML, which stage 1 drops unextracted
    counts = json.loads(stats.read_text(encoding="utf-8"))["stats"]
    taken, computed = counts["newscrawl/workers/ahead_taken"], counts["newscrawl/workers/ahead_computed"]
    assert counts["newscrawl/workers/started"] == workers and 1 <= taken <= computed <= taken + 1
    first = {r["url"]: r for r in records(out / "demo.jsonl")}
    second = {r["url"]: r for r in records(again)}
    assert len(first) == DEMO_ARTICLES and first.keys() == second.keys()
    for url, record in first.items():  # crawled_at too: the record's WARC-Date is its fetch time
        for field in set(record) | set(second[url]):
            assert record.get(field) == second[url].get(field), (url, field)


def test_newscrawl_extract_reads_every_html_response_of_an_archive(crawled: dict[str, Any]) -> None:
    args = [sys.executable, "-m", "newscrawl.cli", "extract", *map(str, crawled["warcs"])]
    done = subprocess.run(args, cwd=crawled["out"], capture_output=True, text=True, timeout=300)
    # the demo serves one binary file as HTML: its record says why, and the command exits 1 for it
    assert done.returncode == 1 and done.stderr.count("binary data") == 1, done.stderr[-3000:]
    lines = [json.loads(line) for line in io.StringIO(done.stdout) if line.strip()]
    urls = {line["url"] for line in lines}
    stored = {r["url"] for r in records(crawled["out"] / "demo.jsonl")}
    assert stored <= urls
    gbk = next(line for line in lines if "doc-ihxqkzm3246011" in line["url"])
    assert gbk["encoding"] in ("gb18030", "gbk") and gbk["text"]
