"""PostgreSQL sink against the real server: schema, idempotent upserts, outages, restart mid-write."""

import json
import threading
import time
from datetime import UTC

import pytest

psycopg = pytest.importorskip("psycopg")

from newscrawl.storage.postgres import (  # noqa: E402
    SCHEMA_VERSION,
    PostgresSink,
    PostgresUnavailable,
    describe_dsn,
    read_spill,
)

UNREACHABLE = "host=127.0.0.1 port=1 dbname=test user=postgres"


def rec(n: int, title: str = "标题", **extra) -> dict:
    url = f"http://news.example.cn/a/{n}.shtml"
    return {"url": url, "canonical_url": url, "site": "demo", "title": f"{title}{n}", "text": "正文" * 20,
            "published_at": "2026-11-20T08:30:00+08:00", "crawled_at": "2026-11-21T01:00:00+00:00", **extra}


@pytest.fixture
def sink(pg_dsn, tmp_path):
    s = PostgresSink(pg_dsn, spill_path=tmp_path / "spill.jsonl", retry_seconds=20, backoff=0.1)
    s.open()
    yield s
    s.close()


def test_open_creates_the_schema_and_records_its_version(sink):
    assert sink.schema_version() == SCHEMA_VERSION
    assert sink.count() == 0


def test_reopening_a_migrated_database_changes_nothing(sink, pg_dsn):
    sink.write([rec(1)])
    sink.flush()
    again = PostgresSink(pg_dsn)
    again.open()
    assert again.schema_version() == SCHEMA_VERSION and again.count() == 1
    again.close()


def test_upsert_is_idempotent_by_canonical_url(sink):
    sink.write([rec(1), rec(2)])
    sink.write([rec(1, title="新标题")])
    sink.flush()
    assert sink.count() == 2
    assert sink.get("http://news.example.cn/a/1.shtml")["title"] == "新标题1"


def test_times_are_stored_as_timestamps(sink):
    sink.write([rec(1)])
    sink.flush()
    stored = sink.get("http://news.example.cn/a/1.shtml")["published_at"]
    assert stored.utcoffset() is not None and stored.isoformat().startswith("2026-11-20T00:30:00")


def test_a_date_alone_and_a_time_without_offset_are_stored_as_utc(sink):
    sink.write([rec(1, published_at="2026-11-20", modified_at="2026-11-21T09:15:00")])
    sink.flush()
    row = sink.get("http://news.example.cn/a/1.shtml")
    assert row["published_at"].astimezone(UTC).isoformat() == "2026-11-20T00:00:00+00:00"
    assert row["modified_at"].astimezone(UTC).isoformat() == "2026-11-21T09:15:00+00:00"


def test_known_urls(sink):
    sink.write([rec(1), rec(2)])
    sink.flush()
    assert sink.known_urls(["http://news.example.cn/a/2.shtml", "http://x/"]) == {
        "http://news.example.cn/a/2.shtml"
    }


def test_unreachable_server_fails_at_open_with_one_line_naming_the_host():
    s = PostgresSink(UNREACHABLE + " password=hunter2", connect_timeout=1)
    with pytest.raises(PostgresUnavailable) as e:
        s.open()
    message = str(e.value)
    assert "127.0.0.1:1/test" in message and "\n" not in message and "hunter2" not in message


def test_describe_dsn_hides_credentials():
    assert describe_dsn("postgresql://u:secret@db:6543/news") == "db:6543/news"


def test_records_the_server_never_took_are_spilled(sink, tmp_path, caplog):
    sink.dsn = UNREACHABLE  # the server "moves away": reconnects fail from now on
    sink._drop_connection()
    sink.retry_seconds = 0.3
    sink.write([rec(1), rec(2)])
    assert sink.pending == 2
    sink.close()
    assert [r["canonical_url"] for r in read_spill(tmp_path / "spill.jsonl")] == [
        rec(1)["canonical_url"], rec(2)["canonical_url"]
    ]
    assert "NOT WRITTEN" in caplog.text and "spill.jsonl" in caplog.text


def test_rows_the_server_rejects_are_spilled_not_retried(sink, tmp_path):
    sink.write([rec(1, published_at="not a time at all")])
    assert sink.pending == 0 and sink.spilled == 1
    assert json.loads((tmp_path / "spill.jsonl").read_text())["published_at"] == "not a time at all"


def private_sink(cluster, tmp_path, **options) -> PostgresSink:
    s = PostgresSink(cluster.dsn, spill_path=tmp_path / "spill.jsonl", backoff=0.1, **options)
    s.open()
    return s


def test_no_record_lost_when_the_server_restarts_mid_write(private_postgres, tmp_path):
    sink = private_sink(private_postgres, tmp_path, retry_seconds=20)
    restarted = threading.Event()

    def restart():
        time.sleep(0.3)
        private_postgres.restart()
        restarted.set()

    thread = threading.Thread(target=restart)
    thread.start()
    n = 0
    deadline = time.monotonic() + 20
    while (not restarted.is_set() or n < 400) and time.monotonic() < deadline:
        sink.write([rec(i) for i in range(n, n + 20)])
        n += 20
        time.sleep(0.02)
    thread.join()
    assert sink.flush(wait=20)
    assert sink.count() == n and sink.spilled == 0
    assert sink.reconnects >= 1
    sink.close()


def test_a_hung_server_does_not_hold_a_write(private_postgres, tmp_path, caplog):
    sink = private_sink(private_postgres, tmp_path, timeout=0.5, connect_timeout=1, retry_seconds=30)
    sink.write([rec(0)])
    private_postgres.hang()
    try:
        sink.write([rec(1), rec(2)])  # without a client-side timeout this waits as long as the server hangs
        assert sink.pending == 2
        assert "write failed" in caplog.text
    finally:
        private_postgres.resume()
    assert sink.flush(wait=30)
    assert sink.count() == 3 and sink.spilled == sink.lost == 0
    sink.close()


def test_records_are_counted_lost_when_the_spill_file_cannot_be_written(tmp_path, caplog):
    (tmp_path / "file").write_text("")
    spill = tmp_path / "file" / "spill.jsonl"  # under a file: cannot be made
    s = PostgresSink(UNREACHABLE, spill_path=spill, retry_seconds=0, connect_timeout=1)
    s.write([rec(1), rec(2)])
    s.close()
    assert (s.lost, s.spilled) == (2, 0)
    assert "2 records LOST" in caplog.text


def test_pg_load_writes_a_spill_file(pg_dsn, tmp_path, capsys):
    from newscrawl.cli import main

    spill = tmp_path / "spill.jsonl"
    lines = [json.dumps(rec(i), ensure_ascii=False) + "\n" for i in range(3)]
    spill.write_text("".join(lines), encoding="utf-8")
    assert main(["pg-load", str(spill), "--dsn", pg_dsn]) == 0
    check = PostgresSink(pg_dsn)
    check.open()
    assert check.count() == 3
    check.close()


# -- the pipeline ---------------------------------------------------------------------------------------


def test_pipeline_is_off_without_a_dsn(monkeypatch):
    from scrapy.exceptions import NotConfigured
    from scrapy.utils.misc import build_from_crawler
    from scrapy.utils.test import get_crawler

    from newscrawl.pipelines.postgres import PostgresPipeline

    monkeypatch.delenv("NEWSCRAWL_POSTGRES_DSN", raising=False)
    with pytest.raises(NotConfigured) as off:
        build_from_crawler(PostgresPipeline, get_crawler())
    # no reason given: Scrapy would log one as a warning on every crawl that does not use PostgreSQL
    assert off.value.args == ()


def test_pipeline_takes_the_dsn_from_the_environment(monkeypatch, pg_dsn, tmp_path):
    from scrapy.utils.misc import build_from_crawler
    from scrapy.utils.test import get_crawler

    from newscrawl.items import NewsItem
    from newscrawl.pipelines.postgres import PostgresPipeline

    monkeypatch.setenv("NEWSCRAWL_POSTGRES_DSN", pg_dsn)
    crawler = get_crawler(settings_dict={"NEWSCRAWL_SINK_BATCH_SIZE": 2})
    crawler.stats.open_spider()
    pipeline = build_from_crawler(PostgresPipeline, crawler)
    pipeline.open_spider()
    for i in range(5):
        pipeline.process_item(NewsItem(**rec(i)))
    pipeline.close_spider()
    assert crawler.stats.get_value("newscrawl/postgres/written") == 5
    check = PostgresSink(pg_dsn)
    check.open()
    assert check.count() == 5
    check.close()


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"NEWSCRAWL_POSTGRES_SPILL": "{tmp}/file/spill.jsonl"},
         "NEWSCRAWL_POSTGRES_SPILL: cannot create the folder"),
        ({"NEWSCRAWL_POSTGRES_TIMEOUT": "0"}, "NEWSCRAWL_POSTGRES_TIMEOUT: must be a positive number"),
        ({"NEWSCRAWL_POSTGRES_RETRY_SECONDS": "nan"}, "NEWSCRAWL_POSTGRES_RETRY_SECONDS: must be a number"),
        ({"NEWSCRAWL_POSTGRES_DSN": "host=h password=S3cret PWtail"},
         "NEWSCRAWL_POSTGRES_DSN: not a libpq DSN"),
    ],
)
def test_pipeline_settings_are_checked_at_start_up(tmp_path, settings, message):
    from scrapy.utils.misc import build_from_crawler
    from scrapy.utils.test import get_crawler

    from newscrawl.crawl.config import ConfigError
    from newscrawl.pipelines.postgres import PostgresPipeline

    (tmp_path / "file").write_text("")
    values = {"NEWSCRAWL_POSTGRES_DSN": UNREACHABLE, "NEWSCRAWL_POSTGRES_SPILL": f"{tmp_path}/spill.jsonl"}
    values |= {k: v.replace("{tmp}", str(tmp_path)) for k, v in settings.items()}
    with pytest.raises(ConfigError) as error:
        build_from_crawler(PostgresPipeline, get_crawler(settings_dict=values))
    assert str(error.value).startswith(message) and "S3cret" not in str(error.value)


def test_list_fields_are_jsonb_and_round_trip(sink):
    sink.write([rec(1, authors=["张三", "李四"], tags=["地铁"], editor="王五", source="新京报",
                    images=[{"url": "http://news.example.cn/a.jpg", "caption": None}])])
    sink.flush()
    row = sink.get("http://news.example.cn/a/1.shtml")
    assert row["authors"] == ["张三", "李四"] and row["tags"] == ["地铁"]
    assert row["images"] == [{"url": "http://news.example.cn/a.jpg", "caption": None}]
    assert (row["editor"], row["source"]) == ("王五", "新京报")
    types = dict(sink._require().execute(
        "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'articles'"
        " AND table_schema = current_schema()").fetchall())
    assert types["authors"] == types["tags"] == types["images"] == "jsonb" and types["editor"] == "text"


def test_a_version_1_database_is_migrated_and_keeps_its_rows(pg_dsn):
    from newscrawl.storage.postgres import MIGRATIONS

    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE schema_version (version integer NOT NULL)")
        conn.execute(MIGRATIONS[0])
        conn.execute("INSERT INTO schema_version VALUES (1)")
        conn.execute("INSERT INTO articles (canonical_url, title) VALUES ('http://a/1', 'x')")
    s = PostgresSink(pg_dsn)
    s.open()
    try:
        assert s.schema_version() == SCHEMA_VERSION
        s.write([rec(2, tags=["新"])])
        s.flush()
        assert s.get("http://a/1")["title"] == "x"
        assert s.get("http://news.example.cn/a/2.shtml")["tags"] == ["新"]
    finally:
        s.close()
