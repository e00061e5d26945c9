"""Output paths that cannot be written stop a crawl at start-up; a full disk mid-crawl stops it cleanly."""

from __future__ import annotations

import errno
import json
import logging
import os
import sqlite3
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from scrapy.exceptions import DropItem
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from newscrawl.crawl.config import ConfigError, check_output_file
from newscrawl.crawl.demo import serve
from newscrawl.crawl.feedexport import FEED_FAILED
from newscrawl.crawl.jobdir import RUNNING_MARK
from newscrawl.pipelines.storage import SINK_FAILED, SinkPipeline, SqlitePipeline
from newscrawl.storage.sqlite import SqliteSink

from .test_crawl_e2e import DEMO_ARTICLES

ROOT = Path(__file__).resolve().parents[2]
as_root = hasattr(os, "geteuid") and os.geteuid() == 0


def record(n: int) -> dict[str, Any]:
    url = f"http://news.example.cn/a/{n}.html"
    return {"url": url, "canonical_url": url, "title": f"标题{n}", "text": "临江市今天举行新闻发布会。" * 20}


# -- output paths at start-up ---------------------------------------------------------------------------


def test_a_folder_given_as_the_file_is_named(tmp_path):
    with pytest.raises(ConfigError, match=rf"^NEWSCRAWL_SQLITE_PATH: {tmp_path} is a folder"):
        check_output_file(tmp_path, "NEWSCRAWL_SQLITE_PATH")


def test_a_file_in_the_way_of_the_folder_is_named(tmp_path):
    (tmp_path / "out").write_text("")
    with pytest.raises(ConfigError, match=f"{tmp_path / 'out'} is not a folder"):
        check_output_file(tmp_path / "out" / "db.sqlite3", "NEWSCRAWL_SQLITE_PATH")


@pytest.mark.skipif(as_root, reason="root writes into read-only folders")
def test_a_read_only_folder_is_named(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(ConfigError, match=f"cannot write {folder / 'db.sqlite3'}: Permission denied"):
            check_output_file(folder / "db.sqlite3", "NEWSCRAWL_SQLITE_PATH")
    finally:
        folder.chmod(0o755)


def test_check_creates_the_folder_and_leaves_an_existing_file_whole(tmp_path):
    assert check_output_file(tmp_path / "new" / "db.sqlite3", "X").parent.is_dir()
    existing = tmp_path / "kept.jsonl"
    existing.write_text("{}\n")
    check_output_file(existing, "X")
    assert existing.read_text() == "{}\n" and list(tmp_path.iterdir()) == [tmp_path / "new", existing]


def test_sqlite_pipeline_refuses_an_unwritable_path_at_start_up(tmp_path):
    (tmp_path / "out").write_text("")
    crawler = get_crawler(settings_dict={"NEWSCRAWL_SQLITE_PATH": str(tmp_path / "out" / "db.sqlite3")})
    with pytest.raises(ConfigError, match="^NEWSCRAWL_SQLITE_PATH: "):
        build_from_crawler(SqlitePipeline, crawler)


# -- writes failing during a crawl ----------------------------------------------------------------------


class FullDiskSink:
    """Takes ``room`` records, then fails as a full disk does."""

    path = "/data/full.sqlite3"

    def __init__(self, room: int) -> None:
        self.room = room
        self.records: list[Mapping[str, Any]] = []
        self.closed = False

    def open(self) -> None:
        pass

    def write(self, records: Sequence[Mapping[str, Any]]) -> None:
        if len(self.records) + len(records) > self.room:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.records.extend(records)

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def full_disk(caplog) -> tuple[SinkPipeline, FullDiskSink]:
    sink = FullDiskSink(room=2)
    crawler = get_crawler()
    pipeline = SinkPipeline(sink, batch_size=2, stats=crawler.stats)
    pipeline.open_spider()
    for n in range(4):
        pipeline.process_item(record(n))
    return pipeline, sink


def test_records_written_before_the_disk_filled_are_kept(full_disk):
    pipeline, sink = full_disk
    assert [r["url"] for r in sink.records] == [record(0)["url"], record(1)["url"]]
    assert pipeline.stats.get_value("newscrawl/sink/written") == 2


def test_a_failed_write_is_one_error_line_naming_the_sink_and_cause(full_disk, caplog):
    errors = [r for r in caplog.get_records("setup") if r.levelno >= logging.ERROR]
    assert len(errors) == 1
    message = errors[0].getMessage()
    assert "\n" not in message and errors[0].exc_info is None
    assert "/data/full.sqlite3" in message and "No space left on device" in message
    assert "2 record(s) not stored" in message
    assert full_disk[0].stats.get_value("newscrawl/sink/write_failed") == 2


def test_items_after_a_failed_write_are_dropped_as_not_stored(full_disk):
    pipeline, _ = full_disk
    with pytest.raises(DropItem, match="not stored"):
        pipeline.process_item(record(9))
    assert pipeline.stats.get_value("newscrawl/dropped/not_stored") == 1


def test_closing_after_a_failed_write_raises_nothing_and_closes_the_sink(full_disk):
    pipeline, sink = full_disk
    pipeline.close_spider()
    assert sink.closed


def test_a_full_sqlite_database_keeps_the_rows_written_before(tmp_path, caplog):
    sink = SqliteSink(tmp_path / "db.sqlite3")
    pipeline = SinkPipeline(sink, batch_size=1)
    pipeline.open_spider()
    pages = sink.db.execute("PRAGMA page_count").fetchone()[0]
    sink.db.execute(f"PRAGMA max_page_count = {pages + 6}")  # SQLite's own "disk full"
    for n in range(40):
        try:
            pipeline.process_item(record(n))
        except DropItem:
            pass
    stored = sink.count()
    pipeline.close_spider()
    assert 0 < stored < 40 and pipeline.failure and "database or disk is full" in pipeline.failure
    with sqlite3.connect(tmp_path / "db.sqlite3") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT COUNT(*) FROM articles").fetchone()[0] == stored


# -- a whole crawl whose database fills up --------------------------------------------------------------


def test_demo_crawl_stops_when_the_database_is_full_and_keeps_its_rows(tmp_path):
    pipelines = {
        "newscrawl.pipelines.extraction.ExtractionPipeline": 300,
        "newscrawl.pipelines.record.RecordPipeline": 400,
        "tests.crawl.full_disk.FullDiskSqlitePipeline": 800,
    }
    db = tmp_path / "crawl.sqlite3"
    env = dict(
        os.environ, SCRAPY_SETTINGS_MODULE="newscrawl.settings", PYTHONWARNINGS="ignore",
        PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    )
    with serve() as server:
        args = [sys.executable, "-m", "scrapy", "crawl", "demo", "-s", f"NEWSCRAWL_REPLAY_PREFIX={server}/"]
        args += ["-s", f"NEWSCRAWL_SQLITE_PATH={db}", "-s", "NEWSCRAWL_SINK_BATCH_SIZE=1"]
        args += ["-s", f"ITEM_PIPELINES={json.dumps(pipelines)}", "-s", "LOG_LEVEL=INFO"]
        done = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=90)
    log = done.stderr
    assert f"'finish_reason': '{SINK_FAILED}'" in log, log[-3000:]
    errors = [line for line in log.splitlines() if "database or disk is full" in line]
    assert errors and "ERROR" in errors[0] and "the crawl stops" in errors[0]
    assert "Traceback" not in log
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = conn.execute("SELECT COUNT(*) FROM articles").fetchone()[0]
    assert 0 < rows < DEMO_ARTICLES


def test_a_store_that_fails_as_it_closes_fails_the_crawl_and_its_jobdir_resumes_afresh(tmp_path):
    # the crawl has finished when the store's last batch fails: it once ended 'finished' with exit code 0,
    # and JOBDIR's mark was removed, so a resumed crawl skipped the unstored pages as seen
    pipelines = {
        "newscrawl.pipelines.extraction.ExtractionPipeline": 300,
        "newscrawl.pipelines.record.RecordPipeline": 400,
        "tests.crawl.full_disk.NoRoomSqlitePipeline": 800,
    }
    env = dict(
        os.environ, SCRAPY_SETTINGS_MODULE="newscrawl.settings", PYTHONWARNINGS="ignore",
        PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    )
    jobdir = tmp_path / "job"
    with serve() as server:
        args = [sys.executable, "-m", "scrapy", "crawl", "demo", "-s", f"NEWSCRAWL_REPLAY_PREFIX={server}/"]
        args += ["-s", f"NEWSCRAWL_SQLITE_PATH={tmp_path / 'crawl.sqlite3'}", "-s", f"JOBDIR={jobdir}"]
        args += ["-s", "NEWSCRAWL_SINK_BATCH_SIZE=1000", "-s", f"ITEM_PIPELINES={json.dumps(pipelines)}"]
        done = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=90)
    log = done.stderr
    assert f"'newscrawl/sqlite/write_failed': {DEMO_ARTICLES}" in log, log[-3000:]
    assert "database or disk is full" in log and "Traceback" not in log
    assert done.returncode == 1
    assert (jobdir / RUNNING_MARK).exists()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (every write: ENOSPC)")
def test_a_feed_on_a_full_disk_fails_the_crawl(tmp_path):
    # Scrapy alone logged a traceback per item and ended 'finished' with exit code 0 and a cut file
    env = dict(
        os.environ, SCRAPY_SETTINGS_MODULE="newscrawl.settings", PYTHONWARNINGS="ignore",
        PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    )
    with serve() as server:
        args = [sys.executable, "-m", "scrapy", "crawl", "demo", "-s", f"NEWSCRAWL_REPLAY_PREFIX={server}/"]
        args += ["-s", f"NEWSCRAWL_SQLITE_PATH={tmp_path / 'crawl.sqlite3'}", "-O", "/dev/full:jsonl"]
        done = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=90)
    log = done.stderr
    assert done.returncode == 1, log[-3000:]
    assert f"'finish_reason': '{FEED_FAILED}'" in log
    errors = [line for line in log.splitlines() if "ERROR" in line and "No space left on device" in line]
    assert errors and "feed /dev/full" in errors[0] and "the crawl stops" in errors[0]
