"""bench-crawl's parts: the generated portal, synthetic records, sink timing, a one-process crawl."""

import urllib.request

from newscrawl.bench.crawl import TEXT_CHARS, run_crawl, synthetic_records, time_sink
from newscrawl.bench.site import list_path, serve
from newscrawl.storage.sqlite import SqliteSink


def test_portal_serves_home_lists_and_articles_and_counts_hits():
    with serve(articles=5, per_page=2) as site:
        for path in site.pages:
            assert urllib.request.urlopen(site.base_url + path).status == 200
        assert len(site.pages) == 1 + 3 + 5 and set(site.hits.values()) == {1}


def test_list_pages_link_the_next_one():
    with serve(articles=5, per_page=2) as site:
        page = urllib.request.urlopen(site.base_url + list_path(0)).read().decode()
    assert list_path(1) in page and "doc-i00000001" in page and "doc-i00000002" not in page


def test_synthetic_records_are_distinct_and_long_enough():
    records = synthetic_records(20)
    assert len({r["canonical_url"] for r in records}) == len({r["text"] for r in records}) == 20
    assert all(len(r["text"]) >= TEXT_CHARS for r in records)


def test_time_sink_writes_every_record(tmp_path):
    records = synthetic_records(150)
    assert time_sink(lambda: SqliteSink(tmp_path / "s.sqlite3"), records) > 0
    sink = SqliteSink(tmp_path / "s.sqlite3")
    sink.open()
    assert sink.count() == 150
    sink.close()


def test_one_process_crawl_fetches_every_page_once(tmp_path):
    run = run_crawl(12, 1, workdir=tmp_path)
    assert run.ok and run.pages == 1 + 1 + 12 and run.fetched_twice == 0


def test_crawl_settings_reach_the_crawler_processes(tmp_path):
    # the store switched off through a passed setting: the crawl runs and writes no database
    run = run_crawl(6, 1, workdir=tmp_path, settings={"NEWSCRAWL_SQLITE_PATH": ""})
    assert run.ok and run.pages == 1 + 1 + 6
    assert not list(tmp_path.rglob("store.sqlite3"))
    assert run.server_cpu_seconds > 0
