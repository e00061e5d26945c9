"""The SQLite pipeline writes in a thread of its own: never on the caller's (the reactor's) thread, bounded,
and nothing handed over is lost when the spider closes."""

from __future__ import annotations

import errno
import logging
import os
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from scrapy.exceptions import DropItem
from scrapy.utils.test import get_crawler

from newscrawl.pipelines.storage import SqlitePipeline
from newscrawl.storage.sqlite import SqliteSink


def record(n: int) -> dict[str, Any]:
    url = f"http://news.example.cn/a/{n}.html"
    return {"url": url, "canonical_url": url, "title": f"标题{n}", "text": "临江市今天举行新闻发布会。" * 20}


class SlowSink(SqliteSink):
    """A real SQLite sink whose writes wait for ``gate`` and note the thread that made them."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.gate = threading.Event()
        self.gate.set()
        self.threads: set[int] = set()

    def write(self, records: Sequence[Mapping[str, Any]]) -> None:
        self.threads.add(threading.get_ident())
        assert self.gate.wait(30)
        super().write(records)


class ReactorStandIn(SqlitePipeline):
    """Runs what the writer thread hands to the reactor at once in that thread (no reactor in unit tests)."""

    def _on_reactor(self, call: Any) -> None:
        call()


def stored(path: Path) -> int:
    sink = SqliteSink(path)
    sink.open()
    try:
        return sink.count()
    finally:
        sink.close()


def test_batches_are_written_by_another_thread_and_close_waits_for_all(tmp_path):
    crawler = get_crawler()
    sink = SlowSink(tmp_path / "db.sqlite3")
    pipeline = SqlitePipeline(sink, batch_size=3, stats=crawler.stats)
    pipeline.open_spider()
    sink.gate.clear()  # nothing gets written until the items are all handed over
    for n in range(7):
        assert pipeline.process_item(record(n))["url"] == record(n)["url"]
    assert pipeline.sink.db.execute("SELECT COUNT(*) FROM articles").fetchone()[0] == 0
    sink.gate.set()
    pipeline.close_spider()
    assert stored(tmp_path / "db.sqlite3") == 7
    assert sink.threads and threading.get_ident() not in sink.threads
    assert crawler.stats.get_value("newscrawl/sqlite/written") == 7


def test_items_wait_while_the_writer_is_behind(tmp_path):
    sink = SlowSink(tmp_path / "db.sqlite3")
    pipeline = ReactorStandIn(sink, batch_size=1, max_queued=2)
    pipeline.open_spider()
    sink.gate.clear()
    assert pipeline.process_item(record(0))["url"] == record(0)["url"]  # one batch waiting: room for more
    waiting = pipeline.process_item(record(1))  # two batches waiting: this item waits
    results: list[Any] = []
    waiting.addCallback(results.append)
    time.sleep(0.2)
    assert results == []
    sink.gate.set()
    deadline = time.monotonic() + 30
    while not results and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [r["url"] for r in results] == [record(1)["url"]]
    pipeline.close_spider()
    assert stored(tmp_path / "db.sqlite3") == 2


class FullSink(SlowSink):
    """Takes ``room`` records, then fails as a full disk does."""

    def __init__(self, path: Path, room: int) -> None:
        super().__init__(path)
        self.room = room
        self.taken = 0

    def write(self, records: Sequence[Mapping[str, Any]]) -> None:
        if self.taken + len(records) > self.room:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.taken += len(records)
        super().write(records)


def test_a_failed_write_in_the_thread_is_one_line_counts_every_record_and_drops_later_items(tmp_path, caplog):
    crawler = get_crawler()
    sink = FullSink(tmp_path / "db.sqlite3", room=2)
    pipeline = ReactorStandIn(sink, batch_size=2, stats=crawler.stats, max_queued=100)
    pipeline.open_spider()
    sink.gate.clear()
    with caplog.at_level(logging.ERROR):
        for n in range(6):  # batches of 2: the second fails, the third is behind it
            pipeline.process_item(record(n))
        sink.gate.set()
        deadline = time.monotonic() + 30
        while pipeline.failure is None and time.monotonic() < deadline:
            time.sleep(0.01)
        with pytest.raises(DropItem, match="not stored"):
            pipeline.process_item(record(9))
        pipeline.close_spider()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "No space left on device" in errors[0].getMessage()
    assert stored(tmp_path / "db.sqlite3") == 2
    assert crawler.stats.get_value("newscrawl/sqlite/written") == 2
    assert crawler.stats.get_value("newscrawl/sqlite/write_failed") == 4
    assert crawler.stats.get_value("newscrawl/dropped/not_stored") == 1


def test_max_queued_must_be_positive(tmp_path):
    with pytest.raises(ValueError, match="max_queued"):
        SqlitePipeline(SqliteSink(tmp_path / "db.sqlite3"), max_queued=0)
