"""SQLite sink: the embedded default database, one row per canonical URL.

>>> sink = SqliteSink(":memory:"); sink.open()
>>> sink.write([{"url": "http://a/1", "canonical_url": "http://a/1", "title": "T", "crawled_at": "t1"}])
>>> sink.write([{"url": "http://a/1", "canonical_url": "http://a/1", "title": "T2", "crawled_at": "t2"}])
>>> sink.count(), sink.get("http://a/1")["title"]
(1, 'T2')
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from newscrawl.storage.base import RECORD_FIELDS, decode_row

TABLE = "articles"

#: the instant an article is filed under, in UTC, as text ``YYYY-MM-DD HH:MM:SS`` (to the second): its
#: publish time, else its crawl time, as SQLite's datetime() reads them (a date alone: 00:00 UTC; no
#: offset: UTC; unreadable: missing). An expression over the row, not a column, so exports and other
#: writers see the table as it was; an index stores it (_TIME_INDEX)
WHEN_UTC = "coalesce(datetime(published_at), datetime(crawled_at))"
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {TABLE} (
    canonical_url TEXT PRIMARY KEY,
    {", ".join(f"{name} TEXT" for name in RECORD_FIELDS if name != "canonical_url")},
    first_crawled_at TEXT
);
"""
#: made after an older store has been given the columns it lacks (its table may have no ``site`` yet)
_INDEXES = (
    f"CREATE INDEX IF NOT EXISTS {TABLE}_url ON {TABLE}(url)",
    f"CREATE INDEX IF NOT EXISTS {TABLE}_site ON {TABLE}(site)",
)
#: the articles' instants in UTC (``search --since``), stored in an index on the expression: made on open,
#: so a store of an older newscrawl gets it too, and kept in step by SQLite whoever writes the rows
_TIME_INDEX = f"CREATE INDEX IF NOT EXISTS {TABLE}_when_utc ON {TABLE}({WHEN_UTC})"
_COLUMNS = RECORD_FIELDS
_UPSERT = (
    f"INSERT INTO {TABLE} ({', '.join(_COLUMNS)}, first_crawled_at) "
    f"VALUES ({', '.join('?' for _ in _COLUMNS)}, ?) "
    f"ON CONFLICT(canonical_url) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in _COLUMNS if c != "canonical_url")
)
#: SQLite's default limit on host parameters is 999 in old builds; stay well below it
_QUERY_CHUNK = 500


#: seconds a connection waits for another one's lock
LOCK_TIMEOUT = 30.0


def connect(path: str, timeout: float = LOCK_TIMEOUT, *, any_thread: bool = False) -> sqlite3.Connection:
    """Open (creating its folder) an SQLite file in WAL mode, as every newscrawl store does.

    ``any_thread``: the connection may be used by another thread than this one (one thread at a time:
    the crawl's sink is opened on the reactor thread and written by a writer thread).

    Switching a file to WAL needs it to itself, and SQLite answers "database is locked" at once, without
    waiting, while another connection writes to a file not yet in WAL mode (two crawler processes
    opening a new store together): the switch is tried again until ``timeout``.
    """
    if path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=timeout, check_same_thread=not any_thread)
    deadline = time.monotonic() + timeout
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return db
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                db.close()
                raise
            time.sleep(0.02)


class SqliteSink:
    """Upserts records into table ``articles`` of the SQLite file at ``path`` (created with its folder).

    ``search=True`` keeps the full-text index of :mod:`newscrawl.storage.search` in the same file. The
    sink may be used from any thread, one at a time.
    """

    def __init__(self, path: str | Path, search: bool = True) -> None:
        self.path = str(path)
        self.search = search
        self._index_rows = False
        self._db: sqlite3.Connection | None = None

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise RuntimeError(f"SqliteSink({self.path!r}) is not open")
        return self._db

    def open(self) -> None:
        if self._db is not None:
            return
        self._db = connect(self.path, any_thread=True)
        self._make_schema(self._db)
        from newscrawl.storage.search import ensure_search_index, has_search_index  # it imports this module

        # an index made earlier is kept in step (and brought up to date with this newscrawl) even when this
        # sink was not asked for one
        if self.search or has_search_index(self._db):
            ensure_search_index(self._db)
        self._index_rows = has_search_index(self._db)

    @staticmethod
    def _make_schema(db: sqlite3.Connection) -> None:
        """Make the table and its indexes, or bring an older store's up to date, in one write transaction:
        processes opening one store together take turns, and each reads what is there only once it holds
        the lock (two that both found a column missing both added it: "duplicate column name")."""
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(_SCHEMA)
            # a database made before a record field existed gets the field's column
            have = {row[1] for row in db.execute(f"PRAGMA table_info({TABLE})")}
            for name in (*RECORD_FIELDS, "first_crawled_at"):
                if name not in have:
                    db.execute(f"ALTER TABLE {TABLE} ADD COLUMN {name} TEXT")
            for statement in (*_INDEXES, _TIME_INDEX):
                db.execute(statement)
        except BaseException:
            db.rollback()
            raise
        db.commit()

    def write(self, records: Sequence[Mapping[str, Any]]) -> None:
        # one row per key and batch, the last record winning (first_crawled_at from the first)
        by_key: dict[str, tuple[Any, ...]] = {}
        for r in records:
            key = r.get("canonical_url") or r.get("url")
            if not key:
                raise ValueError(f"record without canonical_url or url: {dict(r)!r:.200}")
            values = [key if c == "canonical_url" else _cell(r.get(c)) for c in _COLUMNS]
            first = by_key[key][-1] if key in by_key else _cell(r.get("crawled_at"))
            by_key[key] = (*values, first)
        with self.db:
            self.db.executemany(_UPSERT, list(by_key.values()))
            if self._index_rows:
                from newscrawl.storage.search import sync_search_index

                sync_search_index(self.db)  # in the same transaction: the index never lags the rows

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def known_urls(self, urls: Iterable[str] | None = None) -> set[str]:
        if urls is None:
            cur = self.db.execute(f"SELECT url, canonical_url FROM {TABLE}")
            return {u for row in cur for u in row if u}
        wanted = list(dict.fromkeys(urls))
        found: set[str] = set()
        for i in range(0, len(wanted), _QUERY_CHUNK):
            chunk = wanted[i : i + _QUERY_CHUNK]
            marks = ", ".join("?" for _ in chunk)
            cur = self.db.execute(
                f"SELECT url, canonical_url FROM {TABLE} "
                f"WHERE url IN ({marks}) OR canonical_url IN ({marks})",
                chunk + chunk,
            )
            found.update(u for row in cur for u in row if u in chunk)
        return found

    def count(self) -> int:
        return int(self.db.execute(f"SELECT COUNT(*) FROM {TABLE}").fetchone()[0])

    def get(self, canonical_url: str) -> dict[str, Any] | None:
        cur = self.db.execute(f"SELECT * FROM {TABLE} WHERE canonical_url = ?", (canonical_url,))
        row = cur.fetchone()
        return decode_row(dict(zip([d[0] for d in cur.description], row, strict=True))) if row else None


def _cell(value: Any) -> Any:
    if value is None or isinstance(value, str | int | float):
        return value
    if isinstance(value, list | tuple | dict):
        return json.dumps(value, ensure_ascii=False, default=str)  # list fields: JSON text
    return str(value)
