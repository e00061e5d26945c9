"""Full-text search over the SQLite store: an FTS5 index in the same database file.

The index ``articles_fts`` covers title, author and text of ``articles``. Chinese and Japanese have no
spaces between words, so the index takes each CJK character (and kana) as a token of its own and words
of other scripts whole (FTS5's ``unicode61`` tokenizer: case and diacritics folded), the way
Elasticsearch's standard analyzer does. A query term is a phrase: its characters must stand side by side,
so any Chinese substring is found, one or two characters long included, and an English term matches
whole words, and with three letters or more the words it begins (``harbo`` finds "harbour"). Every
term of a query must occur (AND); hits are ranked by BM25, a title hit weighing :data:`TITLE_WEIGHT`
times a body hit, and shown with a snippet of the text.

Against the ``trigram`` tokenizer this replaced, measured on the same 10,000 records of ~1,240
characters side by side (``newscrawl bench-crawl``): 3,379 against 1,430 records/s, an index of 61 MB
against 127 MB, the same query time for title words (0.45 ms), and two-character words found through the
index (trigram needed a scan with LIKE). Queries for very common characters read long posting lists:
about 9 ms for a two-character word found in every one of 10,000 articles.

The index is contentless (it stores tokens, not text; snippets are cut from ``articles``), so it is kept
in step in Python, inside the transaction that writes the rows: :func:`sync_search_index`, which
:meth:`SqliteSink.write <newscrawl.storage.sqlite.SqliteSink.write>` calls. Other writers (the sqlite3
shell, another program) need no newscrawl code: triggers on ``articles`` queue the rows they update or
delete, with the values the index holds, in ``articles_fts_stale``, and rows they insert lie above the
highest rowid indexed; the next sync (the sink's next write, opening a sink, ``newscrawl search``)
takes both. Until then a deleted article is still left out of results (hits are joined to ``articles``).

``since`` compares instants, not strings: an article's time is its publish time, else its crawl time,
as SQLite's ``datetime()`` reads it in UTC (``newscrawl.storage.sqlite.WHEN_UTC``; the sink keeps an
index on that expression, so it is stored and in step whoever writes the rows). A date alone counts as
00:00 UTC of that day and a time without an offset as UTC (as the PostgreSQL sink stores them); a
publish time SQLite cannot read counts as missing. :func:`since_utc` reads the ``since`` value the same
way.

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

import logging
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache

from newscrawl.extract.document import strip_text_controls
from newscrawl.storage.sqlite import WHEN_UTC

logger = logging.getLogger(__name__)

TABLE = "articles"
FTS_TABLE = f"{TABLE}_fts"
#: rows updated or deleted since they were indexed: rowid and the values the index holds for them
STALE_TABLE = f"{TABLE}_fts_stale"
#: the columns indexed, in FTS column order
INDEXED = ("title", "author", "text")
#: BM25 weight of a title hit against a body hit (1.0): a query naming an article's title ranks that
#: article first even when other articles mention the words more often in their text
TITLE_WEIGHT = 10.0
AUTHOR_WEIGHT = 2.0
TOKENIZER = "unicode61 remove_diacritics 2"
#: code points indexed one character per token: kana, CJK unified ideographs (extension A and the
#: basic block) and compatibility ideographs. Hangul is written with spaces and is indexed by word.
CJK_RANGES = ((0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF))
#: an English (or other spaced-script) term of at least this many letters also matches the words it begins
PREFIX_CHARS = 3
#: FTS5 'automerge': segments of one level merged together (the default, 4, merges more often)
AUTOMERGE = 16
#: characters of context either side of the first hit in a snippet of CJK text
SNIPPET_CHARS = 24
#: in text of spaced scripts (English), this many times as many characters: a word is several
SPACED_CONTEXT = 3
DEFAULT_LIMIT = 10
HIGHLIGHT = ("[", "]")
ELLIPSIS = "…"
#: rows read and indexed per statement when the whole table is indexed
_CHUNK = 500
_WHEN_FORMAT = "%Y-%m-%d %H:%M:%S"

_COLUMNS = ", ".join(INDEXED)
_OLD = ", ".join(f"old.{c}" for c in INDEXED)
_CHANGED = " OR ".join(f"old.{c} IS NOT new.{c}" for c in INDEXED)
# a row updated twice before a sync keeps the values of its first queueing, which are the values indexed
# (not INSERT OR IGNORE: an upsert's conflict handling overrides a trigger's)
_QUEUE = (
    f"INSERT INTO {STALE_TABLE} SELECT old.rowid, {_OLD} "
    f"WHERE NOT EXISTS (SELECT 1 FROM {STALE_TABLE} WHERE article = old.rowid)"
)
_SCHEMA = (
    f"CREATE VIRTUAL TABLE IF NOT EXISTS {FTS_TABLE} USING fts5("
    f"{_COLUMNS}, content='', tokenize='{TOKENIZER}')",
    f"CREATE TABLE IF NOT EXISTS {STALE_TABLE} (article INTEGER PRIMARY KEY, "
    + ", ".join(f"{c} TEXT" for c in INDEXED) + ")",
    f"CREATE TRIGGER IF NOT EXISTS {FTS_TABLE}_ad AFTER DELETE ON {TABLE} BEGIN {_QUEUE}; END",
    f"CREATE TRIGGER IF NOT EXISTS {FTS_TABLE}_au AFTER UPDATE OF {_COLUMNS} ON {TABLE} WHEN {_CHANGED} "
    f"BEGIN {_QUEUE}; END",
)


@dataclass(frozen=True)
class Hit:
    """One search result; ``score`` is its relevance, SQLite's BM25 negated: positive, higher is better."""

    url: str
    title: str | None
    site: str | None
    published_at: str | None
    snippet: str
    score: float


#: a run of CJK characters (the capturing group keeps the runs in ``re.split``'s answer)
_CJK_RUN = re.compile("([{}]+)".format("".join(f"{chr(a)}-{chr(b)}" for a, b in CJK_RANGES)))


def index_form(text: str | None) -> str | None:
    """``text`` as the index tokenizes it: every CJK character set apart by spaces (``" c "`` for each).

    In C where the extension is built (``newscrawl.extract._csimhash.index_form``: 1-3 us against 21-71 us
    a record's text in Python, the bench portal's and the real pages' texts, of the SQLite writer thread's
    CPU, which holds the GIL the crawl's reactor waits for); :func:`python_index_form` is its reference.

    >>> index_form("5G基站 on line")
    '5G 基  站  on line'
    """
    if not text:
        return text
    fast = _c_index_form()
    return fast(text) if fast is not None else python_index_form(text)


@cache
def _c_index_form() -> Callable[[str], str] | None:
    """The C index_form, or None: looked up on first use (the extraction library it is loaded through,
    :mod:`newscrawl.extract.native`, is not otherwise imported by a process that only searches)."""
    from newscrawl.extract.native import csimhash

    return None if csimhash is None else getattr(csimhash, "index_form", None)


def python_index_form(text: str | None) -> str | None:
    """:func:`index_form` in Python: the reference of the C code, and what runs without it.

    Each run of CJK characters is spaced by one join, not each character by a mapping: 0.16 against 0.22
    ms of the SQLite writer thread's CPU for a crawled text of 4,300 characters (``str.translate`` with a
    dict looks every character up, Latin ones included).

    >>> python_index_form("5G基站 on line")
    '5G 基  站  on line'
    """
    if not text:
        return text
    parts = _CJK_RUN.split(text)
    parts[1::2] = [f" {'  '.join(run)} " for run in parts[1::2]]
    return "".join(parts)


def has_search_index(db: sqlite3.Connection) -> bool:
    row = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (FTS_TABLE,)).fetchone()
    return row is not None


def _is_current(db: sqlite3.Connection) -> bool:
    """False for an index made by newscrawl 0.1 (trigram tokenizer, external content, insert trigger)."""
    sql = "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?"
    row = db.execute(sql, (FTS_TABLE,)).fetchone()
    return row is not None and "trigram" not in row[0]


@contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    """One transaction around the block, DDL included (Python's sqlite3 commits CREATE statements at once
    outside an explicit BEGIN); joins the caller's transaction when one is open."""
    if db.in_transaction:
        yield
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.rollback()
        raise
    db.commit()


def ensure_search_index(db: sqlite3.Connection, notify: Callable[[str], None] | None = None) -> None:
    """Create the index and its triggers when missing (or made by an older newscrawl), then index what is
    not indexed yet: every row of a new index, else the rows inserted, updated or deleted since.
    ``notify`` is told before a whole table is indexed (about 3,000 rows a second).

    All of it is one transaction: a file without an ``articles`` table (empty, or another program's)
    raises ``sqlite3.OperationalError`` and is left as it was, never with half an index whose missing
    triggers would miss every later update.
    """
    with _transaction(db):
        found = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (TABLE,))
        if found.fetchone() is None:
            raise sqlite3.OperationalError(f"no {TABLE} table: not a newscrawl store")
        if has_search_index(db) and not _is_current(db):
            _drop(db)
            reason = "replacing the search index an older newscrawl made"
        else:
            reason = "building the search index"
        if not has_search_index(db):
            for statement in _SCHEMA:
                db.execute(statement)
            db.execute(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}, rank) VALUES ('automerge', {AUTOMERGE})")
            rows = db.execute(f"SELECT COUNT(*) FROM {TABLE}").fetchone()[0]
            if rows:
                message = f"{reason} over {rows:,} stored articles"
                logger.info(message)
                if notify is not None:
                    notify(message)
        sync_search_index(db)


def indexed_upto(db: sqlite3.Connection) -> int:
    """The highest rowid of ``articles`` in the index (0 when empty)."""
    return int(db.execute(f"SELECT coalesce(max(id), 0) FROM {FTS_TABLE}_docsize").fetchone()[0])


def sync_search_index(db: sqlite3.Connection) -> int:
    """Bring the index in step with ``articles`` (call inside the writing transaction); rows indexed.

    Rows queued by the triggers lose their old tokens and are indexed afresh if they still exist; rows
    above the highest rowid indexed are indexed.
    """
    upto = indexed_upto(db)
    stale = db.execute(f"SELECT article, {_COLUMNS} FROM {STALE_TABLE}").fetchall()
    redo: set[int] = set()
    for article, *old in stale:
        if db.execute(f"SELECT 1 FROM {FTS_TABLE}_docsize WHERE id = ?", (article,)).fetchone():
            db.execute(
                f"INSERT INTO {FTS_TABLE}({FTS_TABLE}, rowid, {_COLUMNS}) VALUES ('delete', ?, ?, ?, ?)",
                (article, *(index_form(v) for v in old)),
            )
        redo.add(article)
    count = 0
    if stale:
        db.execute(f"DELETE FROM {STALE_TABLE}")
        ordered = sorted(redo)
        for i in range(0, len(ordered), _CHUNK):
            chunk = ordered[i : i + _CHUNK]
            marks = ", ".join("?" for _ in chunk)
            sql = f"SELECT rowid, {_COLUMNS} FROM {TABLE} WHERE rowid IN ({marks})"
            count += _index(db, db.execute(sql, chunk))
    # rows inserted since; those among them updated before this sync were indexed just above
    while True:
        rows = db.execute(
            f"SELECT rowid, {_COLUMNS} FROM {TABLE} WHERE rowid > ? ORDER BY rowid LIMIT {_CHUNK}", (upto,)
        ).fetchall()
        if not rows:
            return count
        count += _index(db, (row for row in rows if row[0] not in redo))
        upto = rows[-1][0]


def _index(db: sqlite3.Connection, rows: Iterable[tuple[int, str | None, str | None, str | None]]) -> int:
    values = [(rowid, *(index_form(v) for v in indexed)) for rowid, *indexed in rows]
    db.executemany(f"INSERT INTO {FTS_TABLE}(rowid, {_COLUMNS}) VALUES (?, ?, ?, ?)", values)
    return len(values)


def _drop(db: sqlite3.Connection) -> None:
    for suffix in ("ai", "ad", "au"):
        db.execute(f"DROP TRIGGER IF EXISTS {FTS_TABLE}_{suffix}")
    db.execute(f"DROP TABLE IF EXISTS {FTS_TABLE}")
    db.execute(f"DROP TABLE IF EXISTS {STALE_TABLE}")


def drop_search_index(db: sqlite3.Connection) -> None:
    """Remove the index, its queue and its triggers (writes get faster; search stops working)."""
    with db:
        _drop(db)


class QueryError(ValueError):
    """A query with nothing to look for (empty, only punctuation, only words left out)."""


_CJK_CLASS = "".join(f"{chr(a)}-{chr(b)}" for a, b in CJK_RANGES)
_CJK_CHAR = re.compile(f"[{_CJK_CLASS}]")
#: a letter or digit of a spaced script (not CJK): what a word outside CJK text is made of
_SPACED = rf"[^\W{_CJK_CLASS}]"
#: the letters and digits (not CJK) that end a term, if any
_SPACED_WORD_END = re.compile(_SPACED + "+$")


@dataclass(frozen=True)
class Term:
    """A word or a phrase to look for: its tokens side by side; ``prefix``: the last word may go on."""

    text: str
    prefix: bool = False

    @classmethod
    def of(cls, text: str, star: bool = False, quoted: bool = False) -> Term:
        """The term ``text`` (``star``: written with a trailing ``*``). A bare word of a spaced script of
        :data:`PREFIX_CHARS` letters or more also matches the words it begins; a quoted phrase only with
        ``*``; a term ending in CJK never (every CJK character is a token of its own)."""
        word = _SPACED_WORD_END.search(text)
        prefix = word is not None and (star or (not quoted and len(word.group()) >= PREFIX_CHARS))
        return cls(text, prefix)

    def fts(self) -> str:
        """The FTS5 phrase of the term.

        >>> Term("5G基站").fts(), Term("harbo", prefix=True).fts(), Term('a"b').fts()
        ('"5G 基 站"', '"harbo"*', '"a""b"')
        """
        tokens = " ".join((index_form(self.text) or "").split())
        return '"' + tokens.replace('"', '""') + '"' + ("*" if self.prefix else "")

    def pattern(self) -> str:
        """A regular expression for the term in stored text, for highlighting: whole words outside CJK
        text (``a`` is not the a of "wetland"), the phrase's words apart by punctuation or spaces."""
        tokens = [t for t in re.split(r"\W+", index_form(self.text) or "") if t]
        if not tokens:
            return re.escape(self.text)
        out = "" if _CJK_CHAR.match(tokens[0]) else f"(?<!{_SPACED})"
        for i, token in enumerate(tokens):
            if i:
                spaced = not _CJK_CHAR.match(tokens[i - 1]) and not _CJK_CHAR.match(token)
                out += r"\W+" if spaced else r"\W*"
            out += re.escape(token)
        if not _CJK_CHAR.match(tokens[-1]):
            out += f"{_SPACED}*" if self.prefix else f"(?!{_SPACED})"
        return out


@dataclass(frozen=True)
class Query:
    """A parsed query: every group of ``required`` must match (any one term of it); no ``excluded``
    term may."""

    required: tuple[tuple[Term, ...], ...]
    excluded: tuple[Term, ...] = ()

    @property
    def terms(self) -> list[Term]:
        """The terms looked for (for snippets), each once."""
        return list(dict.fromkeys(t for group in self.required for t in group))

    def match_expression(self) -> str:
        """The FTS5 query.

        >>> parse_query('railway OR battery "power cut" -寒潮 harb*').match_expression()
        '("railway"* OR "battery"*) AND "power cut" AND "harb"* NOT ("寒 潮")'
        """
        groups = [
            group[0].fts() if len(group) == 1 else "(" + " OR ".join(t.fts() for t in group) + ")"
            for group in self.required
        ]
        expression = " AND ".join(groups)
        if self.excluded:
            expression += " NOT (" + " OR ".join(t.fts() for t in self.excluded) + ")"
        return expression


#: a quoted phrase (optionally after - and before *), or anything up to white space
_QUERY_TOKEN = re.compile(r'(-?)"([^"]*)"(\*?)|(\S+)')


def parse_query(query: str) -> Query:
    """``query`` as terms: words and ``"quoted phrases"`` must all occur; ``A OR B`` either; ``NOT A``
    or ``-A`` leaves out the articles with A; ``word*`` also matches the words ``word`` begins (a bare
    word of :data:`PREFIX_CHARS` letters or more does so anyway). Bare punctuation is ignored;
    :class:`QueryError` when nothing is left to look for.

    >>> q = parse_query('天气 OR 降雪 "AI chips" NOT Beijing -x %')
    >>> [[t.text for t in g] for g in q.required], [t.text for t in q.excluded]
    ([['天气', '降雪'], ['AI chips']], ['Beijing', 'x'])
    """
    items: list[Term | str] = []  # terms, and "OR"
    excluded: list[Term] = []
    negate = False
    for m in _QUERY_TOKEN.finditer(query):
        minus, phrase, star, word = m.groups()
        if word in ("OR", "NOT"):
            if word == "OR":
                items.append("OR")
            else:
                negate = True
            continue
        if phrase is not None:
            text, quoted = phrase, True
        else:
            minus = "-" if word.startswith("-") and len(word) > 1 else ""
            text, quoted = word[len(minus) :].strip("\"'"), False
            star = "*" if text.endswith("*") else ""
            text = text.rstrip("*")
        if not re.search(r"\w", text):
            continue
        term = Term.of(text.strip(), star=bool(star), quoted=quoted)
        if minus or negate:
            excluded.append(term)
        else:
            items.append(term)
        negate = False
    groups: list[list[Term]] = []
    join = False
    for item in items:
        if isinstance(item, Term):
            if join:
                groups[-1].append(item)
            else:
                groups.append([item])
            join = False
        else:
            join = bool(groups)
    if not groups:
        if excluded:
            raise QueryError("NOT and - only leave articles out: give a word or phrase to look for too")
        raise QueryError("give a word or phrase to look for")
    required = tuple(dict.fromkeys(tuple(dict.fromkeys(g)) for g in groups))
    return Query(required, tuple(dict.fromkeys(excluded)))


def since_utc(value: str) -> str:
    """``value`` (ISO 8601: ``2026-11-20``, ``20261120``, ``2026-11-20T08:00``, with an offset or ``Z``) as
    the UTC text :data:`WHEN_UTC` gives; a value without an offset is UTC. ``ValueError`` otherwise.

    >>> since_utc("20261120"), since_utc("2026-11-20T08:00:00+08:00"), since_utc("2026-11-20T08:00Z")
    ('2026-11-20 00:00:00', '2026-11-20 00:00:00', '2026-11-20 08:00:00')
    """
    try:
        when = datetime.fromisoformat(value.strip())
    except ValueError:
        raise ValueError(
            f"not an ISO 8601 date or time: {value!r} (e.g. 2026-11-20, 20261120, 2026-11-20T08:00+08:00)"
        ) from None
    if when.tzinfo is not None:
        when = when.astimezone(UTC).replace(tzinfo=None)
    return when.strftime(_WHEN_FORMAT)


def search(
    db: sqlite3.Connection,
    query: str | Query,
    *,
    site: str | None = None,
    since: str | None = None,
    limit: int = DEFAULT_LIMIT,
    highlight: tuple[str, str] = HIGHLIGHT,
) -> list[Hit]:
    """Articles that match ``query`` (:func:`parse_query`; :class:`QueryError` when it has nothing to
    look for), most relevant first.

    ``site`` keeps one site's articles; ``since`` (ISO date or time, see :func:`since_utc`) those
    published, or when the publish time is unknown crawled, at or after that instant. Rows written
    since the last sync are not seen (``newscrawl search`` syncs first).
    """
    parsed = query if isinstance(query, Query) else parse_query(query)
    terms = parsed.terms
    since_text = since_utc(since) if since else None
    where = [f"{FTS_TABLE} MATCH ?"]
    params: list[object] = [parsed.match_expression()]
    if site:
        where.append("a.site = ?")
        params.append(site)
    if since_text:
        where.append(f"{WHEN_UTC} >= ?")  # the index has none of these columns: no alias needed
        params.append(since_text)
    sql = (
        f"SELECT a.canonical_url, a.title, a.author, a.site, a.published_at, a.text, "
        f"-bm25({FTS_TABLE}, {TITLE_WEIGHT}, {AUTHOR_WEIGHT}, 1.0) AS score "
        f"FROM {FTS_TABLE} JOIN {TABLE} a ON a.rowid = {FTS_TABLE}.rowid "
        f"WHERE {' AND '.join(where)} ORDER BY score DESC LIMIT ?"
    )
    hits = []
    for url, title, author, site_name, published, text, score in db.execute(sql, [*params, limit]):
        # rows another program wrote may hold control characters (ESC...): none reach a terminal
        url, title, author, site_name, published, text = (
            v and strip_text_controls(v) for v in (url, title, author, site_name, published, text)
        )
        cuts = (make_snippet(field, terms, highlight) for field in (text, title, author) if field)
        snippet = next((cut for cut in cuts if cut), _opening(text or ""))
        hits.append(Hit(url, title, site_name, published, " ".join(snippet.split()), float(score)))
    return hits


def make_snippet(
    text: str,
    terms: Sequence[Term | str],
    highlight: tuple[str, str] = HIGHLIGHT,
    context: int = SNIPPET_CHARS,
) -> str:
    """The stretch of ``text`` around the first occurrence of any term, every term in it highlighted
    (whole words outside CJK text; a prefix term with the rest of the word it starts). ``context``
    characters either side in CJK text; in other text :data:`SPACED_CONTEXT` times as many, cut at spaces.

    >>> make_snippet("今天北京天气晴朗，适合出行。", ["天气"], context=2)
    '…北京[天气]晴朗…'
    >>> make_snippet("The harbour board met on Tuesday to vote on the plan.", ["harbo"], context=4)
    'The [harbour] board met…'
    >>> make_snippet("A wetland and a lake", ["a"], context=20)
    '[A] wetland and [a] lake'
    """
    found = [t if isinstance(t, Term) else Term.of(t) for t in terms]
    patterns = [t.pattern() for t in sorted(found, key=lambda t: len(t.text), reverse=True)]
    pattern = re.compile("|".join(patterns), re.IGNORECASE)
    first = pattern.search(text)
    if first is None:
        return ""
    near = text[max(0, first.start() - context) : first.end() + context]
    if _CJK_CHAR.search(near):
        start, end = max(0, first.start() - context), min(len(text), first.end() + context)
    else:
        wide = context * SPACED_CONTEXT
        start = max(0, first.start() - wide)
        end = min(len(text), first.end() + wide)
        if start > 0:  # at the first space, so that no word is cut
            start = text.find(" ", start, first.start()) + 1 or start
        if end < len(text) and (space := text.rfind(" ", first.end(), end)) > 0:
            end = space
    piece = pattern.sub(lambda m: f"{highlight[0]}{m.group(0)}{highlight[1]}", text[start:end])
    return (ELLIPSIS if start > 0 else "") + piece + (ELLIPSIS if end < len(text) else "")


def _opening(text: str) -> str:
    """The first characters of ``text``, for a hit whose terms are in none of the fields shown."""
    cut = 2 * SNIPPET_CHARS
    return text[:cut] + (ELLIPSIS if len(text) > cut else "")
