"""A SQLite pipeline whose database fills up after a few records, for crawls run in subprocesses.

SQLite's ``max_page_count`` caps the file's size, so writes past it fail with the error a full disk
gives (``database or disk is full``) through the real sink and driver.
"""

from __future__ import annotations

from newscrawl.pipelines.storage import SqlitePipeline
from newscrawl.storage.sqlite import SqliteSink

#: pages of 4 KiB the database may grow by after it is opened: room for a few demo articles
ROOM_PAGES = 12


class FullDiskSqlitePipeline(SqlitePipeline):
    room_pages = ROOM_PAGES

    def open_spider(self) -> None:
        super().open_spider()
        assert isinstance(self.sink, SqliteSink)
        pages = self.sink.db.execute("PRAGMA page_count").fetchone()[0]
        self.sink.db.execute(f"PRAGMA max_page_count = {pages + self.room_pages}")


class NoRoomSqlitePipeline(FullDiskSqlitePipeline):
    """A database with no room at all: with a batch larger than the crawl, the one write comes at close."""

    room_pages = 0
