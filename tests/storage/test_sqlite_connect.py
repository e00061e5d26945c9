"""Opening a store while another connection writes to it."""

import sqlite3
import threading

import pytest

from newscrawl.storage.sqlite import SqliteSink, connect


def hold_write_lock(path, seconds: float) -> threading.Thread:
    """Another connection, in a thread, writes to ``path`` (still in rollback-journal mode) for a while."""
    ready = threading.Event()

    def write():
        db = sqlite3.connect(path, check_same_thread=False)
        db.execute("CREATE TABLE IF NOT EXISTS other (x)")
        db.commit()
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO other VALUES (1)")
        ready.set()
        threading.Event().wait(seconds)
        db.commit()
        db.close()

    thread = threading.Thread(target=write)
    thread.start()
    ready.wait(5)
    return thread


def test_switching_a_busy_new_file_to_wal_waits_for_the_writer(tmp_path):
    # SQLite itself answers "database is locked" at once here (two crawlers opening a new store)
    path = tmp_path / "new.sqlite3"
    writer = hold_write_lock(path, 0.3)
    db = connect(str(path))
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()
    writer.join()


def test_the_wait_has_a_limit(tmp_path):
    path = tmp_path / "new.sqlite3"
    writer = hold_write_lock(path, 1.0)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        connect(str(path), timeout=0.1)
    writer.join()


def test_a_sink_opens_while_another_process_creates_the_store(tmp_path):
    path = tmp_path / "store.sqlite3"
    writer = hold_write_lock(path, 0.3)
    sink = SqliteSink(path)
    sink.open()
    sink.write([{"url": "http://a/1", "canonical_url": "http://a/1", "title": "T", "text": "正文"}])
    assert sink.count() == 1
    sink.close()
    writer.join()


def test_a_store_whose_table_predates_the_site_column_opens_and_gets_it(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE articles (canonical_url TEXT PRIMARY KEY, url TEXT, title TEXT, text TEXT)")
    db.execute("INSERT INTO articles VALUES ('https://a.cn/1', 'https://a.cn/1', 't', 'x')")
    db.commit()
    db.close()
    sink = SqliteSink(path, search=False)
    sink.open()  # the site index used to be made before the missing column: "no such column: site"
    try:
        columns = {row[1] for row in sink.db.execute("PRAGMA table_info(articles)")}
        assert {"site", "pages", "crawled_at"} <= columns
        indexes = {row[0] for row in sink.db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
        assert "articles_site" in indexes
        sink.write([{"canonical_url": "https://a.cn/2", "url": "https://a.cn/2", "site": "a", "text": "y"}])
        assert sink.db.execute("SELECT count(*) FROM articles").fetchone()[0] == 2
    finally:
        sink.close()


def open_and_write(path: str, barrier, number: int) -> str | None:
    """In a process of its own: wait for the others, open the store, write one record; the error if any."""
    barrier.wait(30)
    try:
        sink = SqliteSink(path)
        sink.open()
        url = f"http://a/{number}"
        sink.write([{"url": url, "canonical_url": url, "title": f"标题{number}", "text": "正文"}])
        sink.close()
    except Exception as e:  # reported to the test, which names it
        return f"{type(e).__name__}: {e}"
    return None


#: processes opening one store at once
PROCESSES = 6


def opened_by_all_at_once(path: str) -> SqliteSink:
    """The store at ``path`` once :data:`PROCESSES` processes opened it together and wrote a record each."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    barrier = context.Manager().Barrier(PROCESSES)
    with context.Pool(PROCESSES) as pool:
        errors = pool.starmap(open_and_write, [(path, barrier, n) for n in range(PROCESSES)])
    assert errors == [None] * PROCESSES
    sink = SqliteSink(path)
    sink.open()
    assert sink.count() == PROCESSES
    return sink


@pytest.mark.parametrize("attempt", range(3))
def test_several_processes_open_one_new_store_at_once(tmp_path, attempt):
    # the schema, the WAL switch and the search index are made by whichever process comes first; the
    # others must wait for it and find them whole (two crawlers once raced on articles_fts_stale)
    from newscrawl.storage.search import search

    sink = opened_by_all_at_once(str(tmp_path / f"store-{attempt}.sqlite3"))
    assert {hit.url for hit in search(sink.db, "标题")} == {f"http://a/{n}" for n in range(PROCESSES)}
    sink.close()


@pytest.mark.parametrize("attempt", range(3))
def test_several_processes_upgrade_one_old_store_at_once(tmp_path, attempt):
    # each finds the columns of newer fields missing: one adds them, the others must not add them again
    path = str(tmp_path / f"old-{attempt}.sqlite3")
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE articles (canonical_url TEXT PRIMARY KEY, url TEXT, title TEXT, text TEXT)")
    db.commit()
    db.close()
    opened_by_all_at_once(path).close()
