"""End to end: the demo portal crawled on loopback in subprocesses, the way users run it.

One fresh crawl, one incremental re-run, one full re-crawl into the same database, and a replay crawl
through ``scrapy crawl ... -s NEWSCRAWL_REPLAY_PREFIX=...``.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from newscrawl.crawl.demo import DEMO_HOST, serve
from newscrawl.items import EXPORT_FIELDS

#: the demo portal: 24 articles (3 of them in English; one GBK without declaration, one split over three
#: pages, one only in the
#: sitemap), plus a truncated page, a binary page served as HTML, and a page under a robots.txt-disallowed
#: path
DEMO_ARTICLES = 24
GBK_URL_PART = "/china/2026-11-18/doc-ihxqkzm3246011.shtml"
SITEMAP_ONLY_PART = "/world/2026-11-17/doc-ihxqkzm3244420.shtml"
TIMEOUT = 60


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SCRAPY_SETTINGS_MODULE="newscrawl.settings", PYTHONWARNINGS="ignore")
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def demo(out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return run([sys.executable, "-m", "newscrawl.cli", "demo", "--output", str(out), *extra], cwd=out.parent)


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def rows(db: Path) -> dict[str, str]:
    with sqlite3.connect(db) as conn:
        return dict(conn.execute("SELECT canonical_url, crawled_at FROM articles"))


def summary_count(stdout: str, label: str, key: str) -> int:
    line = next(line for line in stdout.splitlines() if line.strip().startswith(label))
    m = re.search(rf"{re.escape(key)} (\d+)", line)
    return int(m.group(1)) if m else 0


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("demo") / "output"
    first = demo(out)
    state: dict[str, Any] = {"out": out, "first": first, "records": records(out / "demo.jsonl")}
    state["rows_after_first"] = rows(out / "demo.sqlite3")
    state["second"] = demo(out, "--incremental")
    state["second_records"] = records(out / "demo.jsonl")
    state["third"] = demo(out, "--incremental", "-s", "NEWSCRAWL_INCREMENTAL=False")
    state["rows_after_third"] = rows(out / "demo.sqlite3")
    state["third_records"] = records(out / "demo.jsonl")
    return state


def test_demo_crawl_writes_one_record_per_article(runs):
    recs = runs["records"]
    assert len(recs) == DEMO_ARTICLES
    # the labelled sample of the demo (data/eval/demo) has one truth per record, under the record's URL
    truth = Path(__file__).resolve().parents[2] / "data" / "eval" / "demo" / "truth.jsonl"
    urls = {json.loads(line)["url"] for line in truth.read_text(encoding="utf-8").splitlines()}
    assert urls == {r["url"] for r in recs}
    assert len({r["url"] for r in recs}) == len({r["canonical_url"] for r in recs}) == DEMO_ARTICLES


def test_demo_split_article_is_one_record_of_three_pages(runs):
    split = [r for r in runs["records"] if "doc-ihxqkzm3252310" in r["url"]]
    assert [(r["url"].rsplit("/", 1)[-1], r["pages"]) for r in split] == [("doc-ihxqkzm3252310.shtml", 3)]
    text = split[0]["text"]
    # the first sentence of page 1, 2 and 3, in that order
    positions = [text.find(s) for s in ("临江市政府今天举行新闻发布会", "医疗方面", "住房方面")]
    assert -1 not in positions and positions == sorted(positions)
    assert all(r["pages"] == 1 for r in runs["records"] if r not in split)


def test_demo_records_have_the_public_fields_and_no_html(runs):
    for r in runs["records"]:
        assert set(r) <= set(EXPORT_FIELDS) and "body" not in r
        assert r["site"] == "demo" and r["title"] and len(r["text"]) >= 50
        assert r["published_at"].endswith("+08:00")
        assert r["language"] == ("en" if "/en/" in r["url"] else "zh"), r["url"]
        assert r["page_class"] in ("short", "long") and r["algorithm"] and len(r["content_hash"]) == 40
        assert "<p>" not in r["text"] and r["url"].startswith(f"{DEMO_HOST}/")


def test_gbk_page_without_declaration_is_decoded(runs):
    (rec,) = [r for r in runs["records"] if r["url"].endswith(GBK_URL_PART)]
    assert rec["title"] == "临江中小学试行课后服务“菜单制” 学生可按兴趣自主选课"
    assert "课后服务" in rec["text"]


def test_sitemap_and_roll_feed_are_start_points(runs):
    assert any(r["url"].endswith(SITEMAP_ONLY_PART) for r in runs["records"])  # linked from nowhere else
    assert summary_count(runs["first"].stdout, "pages by kind", "feed") == 2


def test_broken_binary_and_disallowed_pages_are_counted_not_fatal(runs):
    out = runs["first"].stdout
    assert summary_count(out, "failures", "no_text") == 1  # the truncated page
    assert summary_count(out, "failures", "binary") == 1
    assert summary_count(out, "skipped", "robots.txt forbids") == 1  # the site's wish, not a failure
    assert "robots" not in next(line for line in out.splitlines() if line.strip().startswith("failures"))
    assert not any("/internal/" in r["url"] for r in runs["records"])


def test_demo_writes_sqlite_with_one_row_per_article(runs):
    assert len(runs["rows_after_first"]) == DEMO_ARTICLES


def test_incremental_run_skips_stored_articles_and_revisits_lists(runs):
    out = runs["second"].stdout
    assert runs["second_records"] == runs["records"]  # nothing new: the file keeps the first run's records
    assert summary_count(out, "skipped", "stored") == DEMO_ARTICLES
    lists = summary_count(runs["first"].stdout, "pages by kind", "list")
    assert lists > 0 and summary_count(out, "pages by kind", "list") == lists


def test_recrawl_updates_rows_instead_of_duplicating(runs):
    before, after = runs["rows_after_first"], runs["rows_after_third"]
    assert set(after) == set(before)
    assert all(after[url] > before[url] for url in before)
    assert len(runs["third_records"]) == DEMO_ARTICLES  # a full crawl rewrites the file


# -- replay ---------------------------------------------------------------------------------------------


def test_scrapy_crawl_replays_from_the_prefix_and_keeps_original_urls(tmp_path):
    original = f"{DEMO_HOST}/china/index.html"  # .test never resolves: every page must come via the prefix
    with serve() as server:
        args = [sys.executable, "-m", "scrapy", "crawl", "demo", "-a", f"start_urls={original}"]
        args += ["-s", f"NEWSCRAWL_REPLAY_PREFIX={server}/", "-s", "NEWSCRAWL_SQLITE_PATH=replay.sqlite3"]
        run([*args, "-O", "replay.jsonl", "-s", "LOG_LEVEL=WARNING"], cwd=tmp_path)
    recs = records(tmp_path / "replay.jsonl")
    # every article reachable by links from the channel page: all but the one only the sitemap lists
    assert len(recs) == DEMO_ARTICLES - 1
    assert not any(r["url"].endswith(SITEMAP_ONLY_PART) for r in recs)
    assert all(r["url"].startswith(f"{DEMO_HOST}/") and r["canonical_url"] == r["url"] for r in recs)
    assert any(r["url"].endswith(GBK_URL_PART) and "课后服务" in r["text"] for r in recs)


def test_demo_crawl_leaves_its_summary_and_stats_beside_the_feed(runs):
    data = json.loads((runs["out"] / "demo.stats.json").read_text(encoding="utf-8"))
    summary = data["summary"]
    assert summary["records"] == DEMO_ARTICLES and summary["responses_by_status"]["200"] > DEMO_ARTICLES
    assert summary["dropped"] == {"binary": 1, "no_text": 1}
    rates = summary["fill_rates"]["demo"]
    assert rates["records"] == DEMO_ARTICLES and rates["title"] == rates["text"] == 1.0
    assert data["stats"]["item_scraped_count"] == DEMO_ARTICLES
