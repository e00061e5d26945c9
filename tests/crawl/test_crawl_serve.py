"""`newscrawl serve DIR`: a folder of saved pages on loopback, for trying a site file without the network."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from newscrawl.crawl.demo import serve

PAGE = "<html><head><title>T</title></head><body><h1>T</h1><p>正文内容。</p></body></html>"


def saved_pages(root: Path) -> Path:
    page = root / "news" / "2026-11-20" / "doc-iabcdefgh1.shtml"
    page.parent.mkdir(parents=True)
    page.write_text(PAGE, encoding="utf-8")
    return root


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read().decode("utf-8")


def test_a_folder_without_index_is_served_as_a_list_of_its_files(tmp_path):
    with serve(saved_pages(tmp_path), index_required=False) as base:
        assert 'href="news/"' in get(base + "/")
        assert PAGE == get(f"{base}/https://news.example.cn/news/2026-11-20/doc-iabcdefgh1.shtml")


def test_serve_command_prints_the_replay_prefix_and_serves_until_stopped(tmp_path):
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    args = [sys.executable, "-m", "newscrawl.cli", "serve", str(saved_pages(tmp_path)), "--port", "0"]
    server = subprocess.Popen(args, stdout=subprocess.PIPE, text=True, env=env)
    try:
        first = server.stdout.readline() + server.stdout.readline()
        prefix = first.split("NEWSCRAWL_REPLAY_PREFIX=")[1].split()[0]
        assert PAGE == get(prefix + "http://news.example.cn/news/2026-11-20/doc-iabcdefgh1.shtml")
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_serve_command_names_a_missing_folder(tmp_path, capsys):
    from newscrawl.cli import BAD_INPUT, main

    assert main(["serve", str(tmp_path / "nowhere"), "--port", "0"]) == BAD_INPUT
    assert "nowhere" in capsys.readouterr().err


#: "Adding a site" (docs/CRAWLING.md) step by step: saved pages, a site file with credit overrides
SITE_FILE = """name = "example"
allowed_domains = ["news.example.cn"]

[start]
pages = ["https://news.example.cn/"]

[patterns]
article = ['^https://news\\.example\\.cn/news/\\d{4}-\\d{2}-\\d{2}/doc-i\\w+\\.shtml$']

[xpath]
author = "//span[@class='by']"
editor = "//p[@class='ed']"
source = "//span[@class='src']"
"""
ARTICLE_PATH = "news/2026-11-20/doc-iabcdefgh2.shtml"
PARAGRAPH = "临江市今天召开新闻发布会，介绍老旧小区改造的进展。今年以来已完成改造小区四十二个。"


def saved_site(root: Path) -> Path:
    (root / "saved" / "news" / "2026-11-20").mkdir(parents=True)
    (root / "saved" / "index.html").write_text(
        '<html><head><meta charset="utf-8"><title>首页</title></head><body>'
        f'<a href="/{ARTICLE_PATH}">新闻</a></body></html>',
        encoding="utf-8",
    )
    (root / "saved" / ARTICLE_PATH).write_text(
        '<html><head><meta charset="utf-8"><title>老旧小区改造进展顺利</title></head><body>'
        "<h1>老旧小区改造进展顺利</h1><div class='info'><span class='by'>本文作者：陈海波</span> "
        "<span class='src'>来源：临江日报</span></div>"
        + "".join(f"<p>{PARAGRAPH}第{n}段。</p>" for n in range(5))
        + "<p class='ed'>（责任编辑：周敏）</p></body></html>",
        encoding="utf-8",
    )
    (root / "sites").mkdir()
    (root / "sites" / "example.toml").write_text(SITE_FILE, encoding="utf-8")
    return root


@pytest.mark.parametrize("workers", ["0", "1"])
def test_a_site_file_tried_on_saved_pages_gives_credits_without_their_labels(tmp_path, workers):
    root = saved_site(tmp_path)
    env = dict(os.environ, PYTHONWARNINGS="ignore", SCRAPY_SETTINGS_MODULE="newscrawl.settings")
    with serve(root / "saved", index_required=False) as base:
        # the command of the walkthrough, with the test's own site folder and worker count
        args = [sys.executable, "-m", "scrapy", "crawl", "example", "-s", f"NEWSCRAWL_REPLAY_PREFIX={base}/",
                "-s", "NEWSCRAWL_SQLITE_PATH=", "-O", "try.jsonl",
                "-s", f"NEWSCRAWL_SITES_DIR={root / 'sites'}", "-s", f"NEWSCRAWL_EXTRACT_WORKERS={workers}",
                "-s", "DOWNLOAD_DELAY=0"]  # fmt: skip
        done = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = (tmp_path / "try.jsonl").read_text(encoding="utf-8").splitlines()
    (record,) = [json.loads(line) for line in lines]
    assert record["url"] == f"https://news.example.cn/{ARTICLE_PATH}"
    assert (record["author"], record["authors"], record["editor"], record["source"]) == (
        "陈海波", ["陈海波"], "周敏", "临江日报",
    )  # fmt: skip
