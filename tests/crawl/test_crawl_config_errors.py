"""Bad site files, spider arguments, settings and output paths: ``scrapy crawl`` and ``newscrawl demo``
print one line naming what is wrong, no traceback, and exit with 2 -- before fetching anything."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TIMEOUT = 60
GOOD_SITE = """allowed_domains = ["news.example.cn"]
[start]
pages = ["https://news.example.cn/"]
[patterns]
article = ["/a/"]
"""
BAD_SITE = """name = "broken"
allowed_domains = ["news.example.cn"]
[start]
pages = ["https://news.example.cn/"]
[patterns]
article = ["(["]
"""


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SCRAPY_SETTINGS_MODULE="newscrawl.settings", PYTHONWARNINGS="ignore")
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT)


def crawl(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # the store in cwd; the demo's start points never resolve, so nothing could be fetched anyway
    settings = ["-s", "NEWSCRAWL_SQLITE_PATH=store.sqlite3", "-s", "LOG_LEVEL=WARNING"]
    return run([sys.executable, "-m", "scrapy", "crawl", *args, *settings], cwd)


def assert_one_line(done: subprocess.CompletedProcess[str], prefix: str, *parts: str) -> None:
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(prefix), last
    for part in parts:
        assert part in last


@pytest.mark.parametrize(
    ("args", "parts"),
    [
        (["nosuch"], ["no spider named 'nosuch'"]),
        (["demo", "-a", "max_pages=many"], ["max_pages: expected a whole number, got 'many'"]),
        (["demo", "-s", "NEWSCRAWL_ALGORITHM=magic"], ["NEWSCRAWL_ALGORITHM: unknown algorithm 'magic'"]),
        (["demo", "-O", "taken/out.jsonl"], ["feed taken/out.jsonl: cannot create the folder taken"]),
    ],
)
def test_scrapy_crawl_refuses_with_one_line(tmp_path, args, parts):
    (tmp_path / "taken").write_text("a file where a folder is wanted")
    assert_one_line(crawl(tmp_path, *args), "scrapy crawl: ", *parts)
    assert not (tmp_path / "store.sqlite3").exists()


@pytest.mark.parametrize(
    ("args", "parts"),
    [
        (["-s", "NEWSCRAWL_TIME_BUDGET=nan"], ["NEWSCRAWL_TIME_BUDGET: must be a finite number"]),
        (["-s", "NEWSCRAWL_REDIS_URL=notaurl"], ["NEWSCRAWL_REDIS_URL: not a Redis URL"]),
        (["-s", "NEWSCRAWL_REDIS_URL=redis://127.0.0.1:1/0"], ["NEWSCRAWL_REDIS_URL: Redis at 127.0.0.1:1"]),
        ([], ["NEWSCRAWL_SQLITE_PATH: store.sqlite3 is not a usable SQLite database"]),  # corrupt store
        (
            ["-s", "NEWSCRAWL_POSTGRES_DSN=postgresql://u:S3cret@127.0.0.1:1/test"],
            ["NEWSCRAWL_POSTGRES_DSN: PostgreSQL at 127.0.0.1:1/test unreachable"],
        ),
        (["-s", "JOBDIR=taken/job"], ["JOBDIR: cannot create the folder taken/job"]),
        (["-s", "DOWNLOAD_DELAY=fast"], ["DOWNLOAD_DELAY: expected a number, got 'fast'"]),
    ],
)
def test_bad_values_and_unreachable_services_stop_the_crawl_with_one_line(tmp_path, args, parts):
    (tmp_path / "taken").write_text("a file where a folder is wanted")
    if not args:
        (tmp_path / "store.sqlite3").write_bytes(b"not a database " * 100)
    done = crawl(tmp_path, "demo", *args)
    assert_one_line(done, "scrapy crawl: ", *parts)
    assert "S3cret" not in done.stderr


@pytest.mark.parametrize(
    ("table", "parts"),
    [
        ("settings = 5\n", ["x.toml: settings: must be a table, not int"]),
        ('[settings]\nDOWNLOAD_DELAY = "fast"\n', ["x.toml: settings.DOWNLOAD_DELAY: expected a number"]),
        ('[xpath]\ntitle = "$nosuchvar"\n', ["x.toml: xpath.title: bad XPath '$nosuchvar'"]),
        ("[roll]\npages = 3000000\n", ["x.toml: roll.pages: must be between 1 and 1,000"]),
    ],
)
def test_scrapy_crawl_refuses_bad_site_files_with_one_line(tmp_path, table, parts):
    (tmp_path / "sites").mkdir()
    top, _, rest = GOOD_SITE.partition("[start]")
    text = top + table if not table.startswith("[") else GOOD_SITE + table
    if not table.startswith("["):
        text += "[start]" + rest
    (tmp_path / "sites" / "x.toml").write_text(text)
    done = crawl(tmp_path, "x", "-s", f"NEWSCRAWL_SITES_DIR={tmp_path / 'sites'}")
    assert_one_line(done, "scrapy crawl: ", *parts)


def test_scrapy_crawl_names_the_bad_site_file_and_field(tmp_path):
    (tmp_path / "sites").mkdir()
    (tmp_path / "sites" / "broken.toml").write_text(BAD_SITE)
    done = crawl(tmp_path, "broken", "-s", f"NEWSCRAWL_SITES_DIR={tmp_path / 'sites'}")
    assert_one_line(done, "scrapy crawl: ", "broken.toml: patterns.article[0]: bad regular expression")


def test_a_bad_site_file_disables_itself_only(tmp_path):
    sites = tmp_path / "sites"
    sites.mkdir()
    (sites / "broken.toml").write_text(BAD_SITE)
    (sites / "good.toml").write_text(BAD_SITE.replace("broken", "good").replace('["(["]', '["/a/"]'))
    listed = run([sys.executable, "-m", "scrapy", "list", "-s", f"NEWSCRAWL_SITES_DIR={sites}"], tmp_path)
    assert listed.returncode == 0 and "Traceback" not in listed.stderr
    assert listed.stdout.split() == ["good"]
    warnings = [line for line in listed.stderr.splitlines() if "site file disabled" in line]
    assert len(warnings) == 1 and "broken.toml: patterns.article[0]: bad regular expression" in warnings[0]


def test_newscrawl_demo_refuses_a_bad_setting_with_one_line(tmp_path):
    args = [sys.executable, "-m", "newscrawl.cli", "demo", "--output", str(tmp_path / "out")]
    done = run([*args, "-s", "NEWSCRAWL_SINK_BATCH_SIZE=0"], tmp_path)
    assert_one_line(done, "newscrawl demo: ", "NEWSCRAWL_SINK_BATCH_SIZE: must be at least 1")
