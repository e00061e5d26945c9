"""PostgreSQL sink (psycopg 3): one row per canonical URL, batched upserts, no record lost to an outage.

``open`` connects (a one-line :class:`PostgresUnavailable` naming host, port and database when it
cannot) and brings the schema to :data:`SCHEMA_VERSION` (table ``schema_version`` records where it
is; every step of :data:`MIGRATIONS` runs once, in a transaction). ``write`` queues records and
upserts the queue in one transaction per :data:`WRITE_CHUNK` rows.

When the server goes away (a restart, a network cut) the records stay queued: the next ``write``
reconnects once the back-off delay has passed, so the crawl is never stalled; ``close`` makes the
final attempt, waiting up to ``retry_seconds`` for the server to come back. Whatever still is not
written then goes to the JSONL spill file (one record per line, the sink's input), logged at ERROR
level with its path; so does the queue whenever it outgrows ``max_pending`` records.

A hung server (stopped with SIGSTOP, a network that drops packets) never holds a caller for long: the
connection is made within ``connect_timeout`` seconds and every statement is given up after ``timeout``
seconds, on the server (``statement_timeout``) and in the client (:class:`TimedConnection`: a server that
does not answer at all), which drops the connection and retries as for an outage. A spill file that
cannot be written loses its records: they are counted in ``lost`` and logged at ERROR level.

The DSN comes from the caller (setting or environment variable ``NEWSCRAWL_POSTGRES_DSN``), never
from a file in the repository; no message shows its password (:mod:`newscrawl.storage.redact`: libpq
quotes the part of a DSN it cannot parse, which may be the password).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict
from psycopg.types.json import Jsonb

from newscrawl.crawl import defaults
from newscrawl.extract.metadata.dates import parse_stamp
from newscrawl.storage.base import LIST_FIELDS, RECORD_FIELDS
from newscrawl.storage.redact import redact, secrets_of

logger = logging.getLogger(__name__)

TABLE = "articles"
#: record fields stored as ``timestamptz``: an instant, so a value without an offset (a date alone,
#: ``2024-09-03``, or a time where the page's zone is unknown) is stored as UTC (see ``_cell``)
TIME_FIELDS = ("published_at", "modified_at", "crawled_at")

#: the record fields of schema version 1 (the columns its CREATE TABLE made)
_V1_FIELDS: tuple[str, ...] = (
    "url", "site", "title", "published_at", "author", "text", "page_kind", "page_class", "algorithm",
    "language", "crawled_at", "content_hash", "reason", "duplicate_of",
)  # fmt: skip

#: schema steps; step i brings the schema from version i to i + 1. Append, never edit a released step.
MIGRATIONS: tuple[str, ...] = (
    f"""
    CREATE TABLE IF NOT EXISTS {TABLE} (
        canonical_url text PRIMARY KEY,
        {", ".join(f"{n} {'timestamptz' if n in TIME_FIELDS else 'text'}" for n in _V1_FIELDS)},
        first_crawled_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX IF NOT EXISTS {TABLE}_url ON {TABLE} (url);
    CREATE INDEX IF NOT EXISTS {TABLE}_site_published ON {TABLE} (site, published_at);
    """,
    f"ALTER TABLE {TABLE} ADD COLUMN IF NOT EXISTS modified_at timestamptz;",
    # people, provenance and the fields news-please / newspaper4k / Fundus users expect
    f"""
    ALTER TABLE {TABLE}
        ADD COLUMN IF NOT EXISTS authors jsonb,
        ADD COLUMN IF NOT EXISTS editor text,
        ADD COLUMN IF NOT EXISTS source text,
        ADD COLUMN IF NOT EXISTS original_title text,
        ADD COLUMN IF NOT EXISTS description text,
        ADD COLUMN IF NOT EXISTS images jsonb,
        ADD COLUMN IF NOT EXISTS tags jsonb,
        ADD COLUMN IF NOT EXISTS section text;
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)

#: rows per INSERT transaction
WRITE_CHUNK = 1000
#: first back-off delay in seconds; doubled after every failed attempt, up to MAX_BACKOFF
DEFAULT_BACKOFF = 0.5
MAX_BACKOFF = 8.0
#: queued records above which the queue is spilled rather than kept in memory
DEFAULT_MAX_PENDING = 50_000
DEFAULT_CONNECT_TIMEOUT = 5


class PostgresUnavailable(RuntimeError):
    """The server cannot be reached or refused the connection (one line, without the password)."""


class TimedConnection(psycopg.Connection[Any]):
    """A connection whose every wait for the server ends after ``io_timeout`` seconds (psycopg's
    ``_WaitTimeout``, an ``OperationalError``): libpq has no read timeout, and a stopped server's kernel
    still accepts and acknowledges, so without it a statement waits forever."""

    io_timeout: float = defaults.NEWSCRAWL_POSTGRES_TIMEOUT

    def wait(self, gen: Any, interval: float = 0.1, timeout: float | None = None) -> Any:
        return super().wait(gen, interval=interval, timeout=self.io_timeout if timeout is None else timeout)


def check_dsn(dsn: str) -> None:
    """Raise ``ValueError`` (without libpq's message, which may quote the password) for a DSN libpq
    cannot parse."""
    try:
        conninfo_to_dict(dsn)
    except psycopg.ProgrammingError:
        raise ValueError(
            "not a libpq DSN or URL that libpq can parse (its message is not shown: it may quote the "
            "password); check quoting (password='a b') and percent-encoding (%XX) in URLs"
        ) from None


def describe_dsn(dsn: str) -> str:
    """``host:port/dbname`` of a DSN, for messages (no user, no password).

    >>> describe_dsn("postgresql://crawler:secret@db.example:5433/news")
    'db.example:5433/news'
    >>> describe_dsn("dbname=test")
    'localhost:5432/test'
    """
    try:
        parts = conninfo_to_dict(dsn)
    except psycopg.ProgrammingError:
        return "(unparsable DSN)"
    host = parts.get("host") or parts.get("hostaddr") or "localhost"
    return f"{host}:{parts.get('port') or 5432}/{parts.get('dbname') or parts.get('user') or ''}"


def _one_line(error: BaseException, secrets: set[str] | None = None) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return redact("; ".join(lines), secrets or ()) if lines else type(error).__name__


def _instant(value: Any) -> datetime | str | None:
    """An aware datetime for a ``timestamptz`` column: a value's own offset, else UTC (a date alone is
    00:00 UTC), so the server's session time zone never decides. What does not parse goes as it is
    (the server rejects the row, which is spilled).

    >>> _instant("2024-09-03").isoformat(), _instant("2024-09-03T04:03:19+08:00").isoformat()
    ('2024-09-03T00:00:00+00:00', '2024-09-03T04:03:19+08:00')
    """
    if isinstance(value, datetime):
        return value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    if not isinstance(value, str) or not value:
        return None
    stamp = parse_stamp(value, slow=False)
    if stamp is None:
        return value
    return stamp.when if stamp.when.tzinfo is not None else stamp.when.replace(tzinfo=UTC)


def _cell(name: str, value: Any) -> Any:
    if value is None:
        return None
    if name in TIME_FIELDS:
        return _instant(value)
    if name in LIST_FIELDS:
        return Jsonb(value) if isinstance(value, list | tuple) else None
    if isinstance(value, str):
        return value.replace("\x00", "")  # PostgreSQL text cannot hold NUL
    return value if isinstance(value, int | float) else json.dumps(value, ensure_ascii=False, default=str)


class PostgresSink:
    """Upserts records into table ``articles`` of the database at ``dsn``."""

    def __init__(
        self,
        dsn: str,
        *,
        spill_path: str | Path = defaults.NEWSCRAWL_POSTGRES_SPILL,
        retry_seconds: float = defaults.NEWSCRAWL_POSTGRES_RETRY_SECONDS,
        backoff: float = DEFAULT_BACKOFF,
        max_pending: int = DEFAULT_MAX_PENDING,
        connect_timeout: int = DEFAULT_CONNECT_TIMEOUT,
        timeout: float = defaults.NEWSCRAWL_POSTGRES_TIMEOUT,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not dsn:
            raise ValueError("PostgresSink needs a DSN (NEWSCRAWL_POSTGRES_DSN)")
        self.dsn = dsn
        self.secrets = secrets_of(dsn)
        self.where = describe_dsn(dsn)
        self.timeout = timeout
        self.spill_path = Path(spill_path)
        self.retry_seconds = retry_seconds
        self.backoff = backoff
        self.max_pending = max_pending
        self.connect_timeout = connect_timeout
        self._sleep = sleep
        self._conn: psycopg.Connection[Any] | None = None
        self._pending: list[dict[str, Any]] = []
        self._delay = backoff
        self._next_attempt = 0.0
        self._spill_lock = threading.Lock()
        self.written = 0
        self.spilled = 0
        #: records neither written nor spilled (the spill file could not be written)
        self.lost = 0
        self.reconnects = 0

    # -- connection --------------------------------------------------------------------------------

    def _connect(self) -> psycopg.Connection[Any]:
        try:
            conn = TimedConnection.connect(self.dsn, connect_timeout=self.connect_timeout, autocommit=True)
            conn.io_timeout = self.timeout
            milliseconds = str(int(self.timeout * 1000))
            conn.execute("SELECT set_config('statement_timeout', %s, false)", (milliseconds,))
        except psycopg.Error as e:
            raise PostgresUnavailable(
                f"PostgreSQL at {self.where} unreachable: {_one_line(e, self.secrets)}"
            ) from None
        return conn

    def open(self) -> None:
        if self._conn is not None:
            return
        self._conn = self._connect()
        self.migrate()

    def schema_version(self) -> int:
        conn = self._require()
        with conn.transaction():
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)")
            row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    def migrate(self) -> None:
        """Run the steps of :data:`MIGRATIONS` the database has not seen, each in one transaction."""
        conn = self._require()
        version = self.schema_version()
        if version > SCHEMA_VERSION:
            raise PostgresUnavailable(
                f"PostgreSQL at {self.where}: schema version {version} is newer than this newscrawl's "
                f"{SCHEMA_VERSION}; upgrade newscrawl"
            )
        for step in range(version, SCHEMA_VERSION):
            with conn.transaction():
                # one writer migrates at a time (several crawler processes may start together)
                conn.execute("SELECT pg_advisory_xact_lock(hashtext('newscrawl.schema'))")
                row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
                if row is not None and int(row[0]) > step:
                    continue
                conn.execute(MIGRATIONS[step])
                conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (step + 1,))
            logger.info("PostgreSQL at %s: schema migrated to version %d", self.where, step + 1)
        with conn.transaction():
            # record fields added after the last migration get a text column, so no field is dropped
            conn.execute(
                sql.SQL(" ").join(
                    sql.SQL("ALTER TABLE {} ADD COLUMN IF NOT EXISTS {} text;").format(
                        sql.Identifier(TABLE), sql.Identifier(name)
                    )
                    for name in RECORD_FIELDS
                )
            )

    def _require(self) -> psycopg.Connection[Any]:
        if self._conn is None:
            raise RuntimeError(f"PostgresSink({self.where}) is not open")
        return self._conn

    def _drop_connection(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except psycopg.Error:
                pass
            self._conn = None

    # -- writing -----------------------------------------------------------------------------------

    @property
    def pending(self) -> int:
        """Records queued and not yet written."""
        return len(self._pending)

    def write(self, records: Sequence[Mapping[str, Any]]) -> None:
        for r in records:
            if not (r.get("canonical_url") or r.get("url")):
                raise ValueError(f"record without canonical_url or url: {dict(r)!r:.200}")
            self._pending.append(dict(r))
        if time.monotonic() >= self._next_attempt:
            self._try_flush()
        if len(self._pending) > self.max_pending:
            self.spill(f"more than {self.max_pending} records queued")

    def _try_flush(self) -> bool:
        """One attempt to write the queue; False (records kept, back-off advanced) when the server is gone."""
        try:
            if self._conn is None or self._conn.closed or self._conn.broken:
                self._conn = self._connect()
                self.reconnects += 1
                logger.warning("PostgreSQL at %s: reconnected, %d records queued", self.where, self.pending)
            self._upsert(self._pending)
        except (psycopg.OperationalError, psycopg.InterfaceError, PostgresUnavailable) as e:
            self._drop_connection()
            logger.warning(
                "PostgreSQL at %s: write failed (%s); %d records queued, retrying in %.1f s",
                self.where, _one_line(e, self.secrets), self.pending, self._delay,
            )
            self._next_attempt = time.monotonic() + self._delay
            self._delay = min(self._delay * 2, MAX_BACKOFF)
            return False
        except psycopg.Error as e:
            # the server is up but refuses the rows (a value it cannot store): never retried, kept aside
            self.spill(f"rejected by the server: {_one_line(e, self.secrets)}")
            return True
        self._delay = self.backoff
        self._next_attempt = 0.0
        return True

    def _upsert(self, records: list[dict[str, Any]]) -> None:
        conn = self._require()
        columns = RECORD_FIELDS
        statement = sql.SQL(
            "INSERT INTO {table} ({cols}) VALUES ({marks}) ON CONFLICT (canonical_url) DO UPDATE SET {sets}"
        ).format(
            table=sql.Identifier(TABLE),
            cols=sql.SQL(", ").join(map(sql.Identifier, columns)),
            marks=sql.SQL(", ").join(sql.Placeholder() * len(columns)),
            sets=sql.SQL(", ").join(
                [
                    sql.SQL("{c} = excluded.{c}").format(c=sql.Identifier(c))
                    for c in columns
                    if c != "canonical_url"
                ]
                + [sql.SQL("updated_at = now()")]
            ),
        )
        while records:
            chunk = records[:WRITE_CHUNK]
            rows = [
                [
                    (r.get("canonical_url") or r.get("url")) if c == "canonical_url" else _cell(c, r.get(c))
                    for c in columns
                ]
                for r in chunk
            ]
            with conn.transaction(), conn.cursor() as cur:
                cur.executemany(statement, rows)
            del records[: len(chunk)]  # only once committed: a failed chunk stays queued
            self.written += len(chunk)

    def flush(self, wait: float | None = None) -> bool:
        """Write the queue, retrying with back-off for up to ``wait`` seconds (default retry_seconds)."""
        deadline = time.monotonic() + (self.retry_seconds if wait is None else wait)
        while self._pending:
            if self._try_flush():
                return True
            pause = self._next_attempt - time.monotonic()
            if time.monotonic() + max(pause, 0) > deadline:
                return False
            self._sleep(max(pause, 0))
        return True

    def spill(self, reason: str) -> Path | None:
        """Append the queue to the spill file and empty it; log loudly where the records went."""
        if not self._pending:
            return None
        records, self._pending = self._pending, []
        return self.spill_records(records, reason)

    def spill_records(self, records: Sequence[Mapping[str, Any]], reason: str) -> Path | None:
        """Append ``records`` to the spill file (safe from several threads); when the file cannot be
        written they are counted in ``lost`` and None is returned. Logged at ERROR level either way."""
        if not records:
            return None
        with self._spill_lock:
            try:
                self.spill_path.parent.mkdir(parents=True, exist_ok=True)
                with self.spill_path.open("a", encoding="utf-8") as f:
                    for r in records:
                        f.write(json.dumps(r, ensure_ascii=False, default=str) + "\n")
            except OSError as e:
                self.lost += len(records)
                logger.error(
                    "PostgreSQL at %s: %d records LOST (%s) and the spill file %s cannot be written: %s",
                    self.where, len(records), reason, self.spill_path, e.strerror or e,
                )
                return None
            self.spilled += len(records)
        logger.error(
            "PostgreSQL at %s: %d records NOT WRITTEN (%s); saved to %s -- load them again with "
            "`newscrawl pg-load %s`",
            self.where, len(records), reason, self.spill_path.resolve(), self.spill_path,
        )
        return self.spill_path

    def close(self) -> None:
        try:
            if self._pending and not self.flush():
                self.spill(f"server unreachable for {self.retry_seconds:.0f} s at close")
        finally:
            self._drop_connection()

    # -- reading -----------------------------------------------------------------------------------

    def known_urls(self, urls: Iterable[str] | None = None) -> set[str]:
        conn = self._require()
        with conn.transaction():
            if urls is None:
                cur = conn.execute(f"SELECT url, canonical_url FROM {TABLE}")
                return {u for row in cur for u in row if u}
            wanted = list(dict.fromkeys(urls))
            cur = conn.execute(
                f"SELECT url, canonical_url FROM {TABLE} WHERE url = ANY(%s) OR canonical_url = ANY(%s)",
                (wanted, wanted),
            )
            chosen = set(wanted)
            return {u for row in cur for u in row if u in chosen}

    def count(self) -> int:
        conn = self._require()
        with conn.transaction():
            row = conn.execute(f"SELECT count(*) FROM {TABLE}").fetchone()
        return int(row[0]) if row else 0

    def get(self, canonical_url: str) -> dict[str, Any] | None:
        conn = self._require()
        with conn.transaction(), conn.cursor() as cur:
            cur.execute(f"SELECT * FROM {TABLE} WHERE canonical_url = %s", (canonical_url,))
            row = cur.fetchone()
            names = [d.name for d in cur.description or ()]
        return dict(zip(names, row, strict=True)) if row else None


def read_spill(path: str | Path) -> list[dict[str, Any]]:
    """The records of a spill file, to write again once the server is back."""
    with Path(path).open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]
