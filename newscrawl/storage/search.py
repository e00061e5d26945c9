"""Full-text search over the SQLite store: an FTS5 index in the same database file.

The index ``articles_fts`` is an external-content FTS5 table over ``articles`` (title, author, text)
with the ``trigram`` tokenizer, so any substring of three or more characters is found: Chinese words,
which have no spaces between them, as well as English words (case-insensitively).

It is kept in step with the store: triggers follow every update and delete on ``articles``, whoever
writes them; new rows are indexed by :meth:`SqliteSink.write <newscrawl.storage.sqlite.SqliteSink.write>`
in the same transaction, one ``INSERT ... SELECT`` per batch (an insert trigger halves the load rate,
measured: about 1,500 against 3,000 records/s), and rows another writer inserted are caught up by
:func:`ensure_search_index` (run when the sink opens and by ``newscrawl search``).

A query is split on white space; every term must occur (AND). Terms of three or more characters are
FTS5 phrases ranked by BM25 (a title hit weighs :data:`TITLE_WEIGHT` times a body hit); shorter terms,
which trigrams cannot index (two-character Chinese words such as 天气), are matched with ``LIKE``.

>>> import sqlite3
>>> db = sqlite3.connect(":memory:")
>>> _ = db.execute("CREATE TABLE articles (canonical_url TEXT PRIMARY KEY, title TEXT, author TEXT, "
...                "text TEXT, site TEXT, published_at TEXT, crawled_at TEXT)")
>>> _ = db.execute("INSERT INTO articles VALUES ('http://a/1', '北京迎来降雪', NULL, "
...                "'北京市气象台发布降雪预报。', 'demo', '2026-11-20', '2026-11-20')")
>>> ensure_search_index(db)
>>> [(h.url, h.snippet) for h in search(db, "气象台")]
[('http://a/1', '北京市[气象台]发布降雪预报。')]
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass

TABLE = "articles"
FTS_TABLE = f"{TABLE}_fts"
#: the columns indexed, in FTS column order
INDEXED = ("title", "author", "text")
#: BM25 weight of a title hit against a body hit (1.0): a query naming an article's title ranks that
#: article first even when other articles mention the words more often in their text
TITLE_WEIGHT = 10.0
AUTHOR_WEIGHT = 2.0
#: trigram tokens: a term shorter than this cannot be looked up in the index
TRIGRAM = 3
#: tokens of context either side of a hit in a snippet (a trigram token is about one character)
SNIPPET_TOKENS = 24
#: FTS5 'automerge': segments of one level merged together. The default, 4, merges often; 16 spends about
#: a third less CPU per record loaded (measured on 5,000 records of 1,200 characters: 1,200 -> 1,800
#: records per CPU second) for more, smaller merges left to later and slightly slower queries
AUTOMERGE = 16
#: characters of context either side of a hit in snippets made for LIKE-only queries
SNIPPET_CHARS = 24
DEFAULT_LIMIT = 10
HIGHLIGHT = ("[", "]")
ELLIPSIS = "…"

_COLUMNS = ", ".join(INDEXED)
_NEW = ", ".join(f"new.{c}" for c in INDEXED)
_OLD = ", ".join(f"old.{c}" for c in INDEXED)
_SCHEMA = f"""
CREATE VIRTUAL TABLE IF NOT EXISTS {FTS_TABLE} USING fts5(
    {_COLUMNS}, content='{TABLE}', content_rowid='rowid', tokenize='trigram'
);
CREATE TRIGGER IF NOT EXISTS {FTS_TABLE}_ad AFTER DELETE ON {TABLE} BEGIN
    INSERT INTO {FTS_TABLE}({FTS_TABLE}, rowid, {_COLUMNS}) VALUES ('delete', old.rowid, {_OLD});
END;
CREATE TRIGGER IF NOT EXISTS {FTS_TABLE}_au AFTER UPDATE OF {_COLUMNS} ON {TABLE} BEGIN
    INSERT INTO {FTS_TABLE}({FTS_TABLE}, rowid, {_COLUMNS}) VALUES ('delete', old.rowid, {_OLD});
    INSERT INTO {FTS_TABLE}(rowid, {_COLUMNS}) VALUES (new.rowid, {_NEW});
END;
"""


@dataclass(frozen=True)
class Hit:
    """One search result; ``score`` is BM25 (lower is better; 0.0 for LIKE-only queries)."""

    url: str
    title: str | None
    site: str | None
    published_at: str | None
    snippet: str
    score: float


def has_search_index(db: sqlite3.Connection) -> bool:
    row = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (FTS_TABLE,)).fetchone()
    return row is not None


def ensure_search_index(db: sqlite3.Connection) -> None:
    """Create the index and its triggers when missing (indexing the rows stored before), else index the
    rows inserted since the last indexed one."""
    if has_search_index(db):
        with db:
            # indexes made by newscrawl 0.1 had an insert trigger; new rows are indexed by the sink now
            db.execute(f"DROP TRIGGER IF EXISTS {FTS_TABLE}_ai")
            index_new_rows(db, indexed_upto(db))
        return
    sqlite_version = tuple(int(p) for p in sqlite3.sqlite_version.split("."))
    if sqlite_version < (3, 34):
        raise RuntimeError(f"the search index needs SQLite >= 3.34 (trigram), not {sqlite3.sqlite_version}")
    with db:
        db.executescript(_SCHEMA)
        db.execute(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}, rank) VALUES ('automerge', {AUTOMERGE})")
        db.execute(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES ('rebuild')")


def indexed_upto(db: sqlite3.Connection) -> int:
    """The highest rowid of ``articles`` in the index (0 when empty)."""
    return int(db.execute(f"SELECT coalesce(max(id), 0) FROM {FTS_TABLE}_docsize").fetchone()[0])


def last_rowid(db: sqlite3.Connection) -> int:
    return int(db.execute(f"SELECT coalesce(max(rowid), 0) FROM {TABLE}").fetchone()[0])


def index_new_rows(db: sqlite3.Connection, after: int) -> None:
    """Index the rows of ``articles`` whose rowid is above ``after`` (call inside the writing transaction)."""
    db.execute(
        f"INSERT INTO {FTS_TABLE}(rowid, {_COLUMNS}) SELECT rowid, {_COLUMNS} FROM {TABLE} WHERE rowid > ?",
        (after,),
    )


def drop_search_index(db: sqlite3.Connection) -> None:
    """Remove the index and its triggers (writes get faster; search stops working)."""
    with db:
        for suffix in ("ai", "ad", "au"):
            db.execute(f"DROP TRIGGER IF EXISTS {FTS_TABLE}_{suffix}")
        db.execute(f"DROP TABLE IF EXISTS {FTS_TABLE}")


def query_terms(query: str) -> tuple[list[str], list[str]]:
    """(terms the trigram index can look up, shorter terms for LIKE), each term once.

    >>> query_terms('天气 北京大学 "AI" Beijing')
    (['北京大学', 'Beijing'], ['天气', 'AI'])
    """
    terms = [t.strip("\"'") for t in query.split()]
    terms = list(dict.fromkeys(t for t in terms if t))
    return [t for t in terms if len(t) >= TRIGRAM], [t for t in terms if len(t) < TRIGRAM]


def _phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _like(term: str) -> str:
    return "%" + re.sub(r"([%_\\])", r"\\\1", term) + "%"


def search(
    db: sqlite3.Connection,
    query: str,
    *,
    site: str | None = None,
    since: str | None = None,
    limit: int = DEFAULT_LIMIT,
    highlight: tuple[str, str] = HIGHLIGHT,
) -> list[Hit]:
    """Articles containing every term of ``query``, best first.

    ``site`` keeps one site's articles; ``since`` (ISO date or time) those published, or when the
    publish time is unknown crawled, at or after it.
    """
    indexed, short = query_terms(query)
    if not indexed and not short:
        return []
    where: list[str] = []
    params: list[object] = []
    if indexed:
        where.append(f"{FTS_TABLE} MATCH ?")
        params.append(" AND ".join(_phrase(t) for t in indexed))
    for term in short:
        where.append("(" + " OR ".join(f"a.{c} LIKE ? ESCAPE '\\'" for c in INDEXED) + ")")
        params.extend([_like(term)] * len(INDEXED))
    if site:
        where.append("a.site = ?")
        params.append(site)
    if since:
        where.append("COALESCE(a.published_at, a.crawled_at) >= ?")
        params.append(since)
    opening, closing = highlight
    if indexed:
        sql = (
            f"SELECT a.canonical_url, a.title, a.site, a.published_at, a.text, "
            f"snippet({FTS_TABLE}, 2, ?, ?, ?, {SNIPPET_TOKENS}), "
            f"bm25({FTS_TABLE}, {TITLE_WEIGHT}, {AUTHOR_WEIGHT}, 1.0) AS score "
            f"FROM {FTS_TABLE} JOIN {TABLE} a ON a.rowid = {FTS_TABLE}.rowid "
            f"WHERE {' AND '.join(where)} ORDER BY score LIMIT ?"
        )
        params = [opening, closing, ELLIPSIS, *params, limit]
    else:
        # no index lookup possible: title hits first, then the earlier the hit, the better
        first = short[0]
        sql = (
            f"SELECT a.canonical_url, a.title, a.site, a.published_at, a.text, NULL, 0.0 "
            f"FROM {TABLE} a WHERE {' AND '.join(where)} "
            f"ORDER BY instr(COALESCE(a.title, ''), ?) = 0, instr(COALESCE(a.text, ''), ?), "
            f"a.published_at DESC LIMIT ?"
        )
        params = [*params, first, first, limit]
    hits = []
    for url, title, site_name, published, text, snippet, score in db.execute(sql, params):
        if not snippet or opening not in snippet:
            snippet = make_snippet(text or "", [*indexed, *short], highlight) or snippet or ""
        hits.append(Hit(url, title, site_name, published, " ".join(snippet.split()), float(score)))
    return hits


def make_snippet(
    text: str, terms: list[str], highlight: tuple[str, str] = HIGHLIGHT, context: int = SNIPPET_CHARS
) -> str:
    """The stretch of ``text`` around the first occurrence of any term, every term in it highlighted.

    >>> make_snippet("今天北京天气晴朗，适合出行。", ["天气"], context=2)
    '…北京[天气]晴朗…'
    """
    lowered = text.lower()
    found = [(lowered.find(t.lower()), t) for t in terms]
    found = [(i, t) for i, t in found if i >= 0]
    if not found:
        return ""
    at, term = min(found)
    start, end = max(0, at - context), min(len(text), at + len(term) + context)
    piece = text[start:end]
    pattern = re.compile("|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True)), re.IGNORECASE)
    piece = pattern.sub(lambda m: f"{highlight[0]}{m.group(0)}{highlight[1]}", piece)
    return (ELLIPSIS if start > 0 else "") + piece + (ELLIPSIS if end < len(text) else "")
