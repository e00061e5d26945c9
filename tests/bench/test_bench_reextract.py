"""``python -m newscrawl.bench.reextract``: its record comparison, and a small run end to end.

The 1,000-page figure is measured by hand (docs/CRAWLING.md): too slow for every test run.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from newscrawl.bench.reextract import bench_env, differences, parse_settings, reextract_settings

ARTICLES = 30


def write(path: Path, records: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def test_records_equal_but_for_crawl_times_have_no_differences(tmp_path: Path) -> None:
    a = write(tmp_path / "a.jsonl", [{"url": "u1", "title": "标题", "crawled_at": "2026-11-01T00:00:00"}])
    b = write(tmp_path / "b.jsonl", [{"url": "u1", "title": "标题", "crawled_at": "2026-11-24T00:00:00"}])
    assert differences(a, b) == []


def test_a_changed_field_and_a_missing_record_are_named(tmp_path: Path) -> None:
    a = write(tmp_path / "a.jsonl", [{"url": "u1", "title": "甲"}, {"url": "u2", "title": "乙"}])
    b = write(tmp_path / "b.jsonl", [{"url": "u1", "title": "丙", "duplicate_of": "u0"}])
    found = differences(a, b)
    assert "u2: only in the crawl" in found
    assert any(line.startswith("u1: title:") for line in found)
    assert any(line.startswith("u1: duplicate_of:") for line in found)


def test_settings_are_name_value_pairs() -> None:
    pairs = parse_settings(["NEWSCRAWL_EXTRACT_WORKERS=2", "A=b=c"])
    assert pairs == {"NEWSCRAWL_EXTRACT_WORKERS": "2", "A": "b=c"}
    with pytest.raises(ValueError, match="NAME=VALUE"):
        parse_settings(["NEWSCRAWL_EXTRACT_WORKERS"])


def test_reextract_extracts_in_one_worker_as_extract_does_unless_told_otherwise() -> None:
    assert reextract_settings([])["NEWSCRAWL_EXTRACT_WORKERS"] == "1"
    told = reextract_settings(["NEWSCRAWL_EXTRACT_WORKERS=2", "NEWSCRAWL_DEDUP=False"])
    assert told == {"NEWSCRAWL_EXTRACT_WORKERS": "2", "NEWSCRAWL_DEDUP": "False"}


def test_commands_run_with_a_bytecode_cache_in_the_work_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    env = bench_env(tmp_path)
    assert "PYTHONDONTWRITEBYTECODE" not in env and env["PYTHONPYCACHEPREFIX"] == str(tmp_path / "pycache")


def test_bench_archives_a_portal_times_both_commands_and_checks_the_records(tmp_path: Path) -> None:
    args = [sys.executable, "-m", "newscrawl.bench.reextract", "--pages", str(ARTICLES), "--repeat", "1",
            "--keep", str(tmp_path / "work")]
    done = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    out = done.stdout
    assert f"{ARTICLES} records" in out.splitlines()[0]
    assert f"records: equal to the crawl's, field for field ({ARTICLES})" in out
    assert "reextract throughput / extract:" in out
    # the timed extract read every HTML response of the archive: the articles, the list page and the home
    lines = (tmp_path / "work" / "extract-0.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == ARTICLES + 2
    stats = json.loads((tmp_path / "work" / "reextract-0.stats.json").read_text(encoding="utf-8"))["stats"]
    assert stats["newscrawl/workers/started"] == 1  # one extraction process, as extract has
    # newscrawl was compiled into the work folder's bytecode cache before the timed runs
    assert list((tmp_path / "work" / "pycache").rglob("newscrawl/crawl/replay.*.pyc"))


def test_bench_archives_real_pages_given_by_folder(tmp_path: Path) -> None:
    from tests.crawl.helpers import article_html

    pages = tmp_path / "pages"
    pages.mkdir()
    for n in range(3):
        text = f"第{n}篇：临江市今天召开新闻发布会，介绍了今年以来城市建设的进展，相关负责人表示将继续推进。"
        html = article_html(title=f"临江新闻{n}", paragraphs=(text, text[::-1]))
        (pages / f"{n}.html").write_text(html, encoding="utf-8")
    args = [sys.executable, "-m", "newscrawl.bench.reextract", "--pages-from", str(pages), "--repeat", "1",
            "--keep", str(tmp_path / "work")]
    done = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "3 records" in done.stdout.splitlines()[0]
    assert "records: equal to the crawl's, field for field (3)" in done.stdout
