"""bench-crawl --pages-from: given pages behind generated lists, served by a process of its own."""

from __future__ import annotations

import urllib.request
from pathlib import Path

import pytest

from newscrawl.bench.pages import PER_LIST, PagesRun, list_pages, page_files, run_pages_crawl, serve
from newscrawl.crawl.looplag import percentile

PARAGRAPH = "临江市今天召开新闻发布会，介绍了今年以来城市建设的进展，相关负责人表示下一步将继续推进。"


def write_pages(folder: Path, count: int) -> Path:
    (folder / "pages").mkdir(parents=True)
    for n in range(count):
        body = "".join(f"<p>第{n}篇第{k}段：{PARAGRAPH}</p>" for k in range(4))
        head = f'<head><meta charset="utf-8"><title>新闻{n}</title></head>'
        html = f"<html>{head}<body><h1>新闻{n}</h1>{body}</body></html>"
        (folder / "pages" / f"{n:03d}.html").write_text(html, encoding="utf-8")
    return folder


def test_pages_are_served_under_their_folder_behind_list_pages(tmp_path):
    folder = write_pages(tmp_path / "set", 3)
    paths = list(page_files([folder]))
    assert paths == ["/a/set/000.html", "/a/set/001.html", "/a/set/002.html"]
    with serve([folder]) as server:
        assert server.articles == 3
        home = urllib.request.urlopen(server.base_url + "/").read().decode()
        listing = urllib.request.urlopen(server.base_url + "/list/0.html").read().decode()
        page = urllib.request.urlopen(server.base_url + paths[1]).read()
        assert server.stats()["hits"] == {"/": 1, "/list/0.html": 1, paths[1]: 1}
    assert "/list/0.html" in home and all(p in listing for p in paths)
    assert page == (folder / "pages" / "001.html").read_bytes()


def test_list_pages_hold_at_most_per_list_links():
    pages = list_pages([f"/a/x/{n}.html" for n in range(PER_LIST + 1)])
    assert set(pages) == {"/", "/list/0.html", "/list/1.html"}
    assert pages["/list/1.html"].count(b"<li>") == 1


def test_a_folder_without_pages_is_refused(tmp_path):
    with pytest.raises(ValueError, match="no .html files"):
        page_files([tmp_path])


def test_percentile_is_nearest_rank():
    assert percentile(list(map(float, range(1, 101))), 0.99) == 99.0 and percentile([], 0.5) == 0.0


@pytest.mark.parametrize("workers", [0, 1])
def test_crawl_of_served_pages_extracts_each_once_and_measures_loop_lag(tmp_path, workers):
    folder = write_pages(tmp_path / "set", 6)
    run = run_pages_crawl([folder], extract=True, workers=workers, workdir=tmp_path)
    assert run.ok and run.pages == 1 + 1 + 6 and run.records == 6
    assert run.lag_samples > 0 and run.lag_max_ms >= run.lag_p99_ms >= run.lag_p50_ms >= 0
    # the reactor thread's own CPU between ticks: some work between some ticks, never more than the wall
    # clock allows (a tick's CPU fits in the interval plus the tick's lag)
    assert run.busy_max_ms > 0 and run.busy_max_ms >= run.busy_p99_ms
    assert run.busy_max_ms <= run.lag_max_ms + 10 * 1.5 + 1
    assert 20 < run.peak_rss_mb < 2000  # the crawler (and its worker) measured, in MB not KiB
    assert 0 < run.process_cpu < run.crawler_cpu  # start-up left out
    assert (run.workers_cpu > 0) == (workers > 0)
    assert run.crawler_cpu > 0 and run.server_cpu >= 0


def test_best_rate_is_bounded_by_cpus_workers_and_the_reactor():
    plain = PagesRun("x", 100, 1.0, 100, True, 0.0, 0.1, 0.0, 0.0, 1, process_cpu=0.2, workers_cpu=1.0)
    assert plain.cpu_per_page_ms() == pytest.approx((2.0, 10.0, 1.0))
    # 13 ms of CPU a page on 2 CPUs: 153.8 pages/s; one worker at 10 ms a page: 100 pages/s
    assert plain.best_rate(2, 1) == pytest.approx(100.0)
    assert plain.best_rate(2, 2) == pytest.approx(2 / 0.013)
    assert plain.best_rate(64, 64) == pytest.approx(500.0)  # the crawler's 2 ms a page: one CPU at most
