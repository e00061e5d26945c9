"""`newscrawl serve DIR`: a folder of saved pages on loopback, for trying a site file without the network."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.request
from pathlib import Path

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
