"""``newscrawl bench-crawl``: crawl throughput on a generated loopback portal, and the cost of each sink.

Crawls run the real ``bench`` site spider (:mod:`newscrawl.bench.site`) in separate ``scrapy crawl``
processes -- one, then several sharing a Redis frontier -- and pages/s is the pages served divided by the
time from the first request served to the last (process start-up left out, the same for every run).
Sink figures load synthetic records (Chinese text of about 1,000 characters) in batches, as the sink
pipeline does.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from newscrawl.bench.site import SITE_NAME, crawl_command, crawler_env, serve
from newscrawl.storage.redact import redact, secrets_of

#: records per sink write in the sink benchmark (the pipeline's default batch size)
SINK_BATCH = 100
#: characters of text per synthetic record, at least: about twice the median article body of daniel-zh
#: (641 characters), so the figures err on the slow side
TEXT_CHARS = 1000


@dataclass(frozen=True)
class CrawlRun:
    processes: int
    pages: int
    seconds: float
    fetched_twice: int
    ok: bool
    #: CPU seconds the crawler processes used (user + system), start-up included
    cpu_seconds: float = 0.0
    #: CPU seconds this process (the loopback server's threads) used while the crawlers ran
    server_cpu_seconds: float = 0.0

    @property
    def pages_per_second(self) -> float:
        return self.pages / self.seconds if self.seconds > 0 else 0.0


def run_crawl(
    articles: int,
    processes: int = 1,
    *,
    redis_url: str | None = None,
    extract: bool = True,
    workdir: Path,
    timeout: float = 1800,
    settings: Mapping[str, str] | None = None,
) -> CrawlRun:
    """Crawl a fresh generated portal with ``processes`` processes (more than one needs ``redis_url``);
    ``settings`` are passed to every crawler process (``-s NAME=VALUE``) after the benchmark's own."""
    if processes > 1 and not redis_url:
        raise ValueError("more than one crawler process needs a Redis URL (--redis)")
    run_dir = workdir / f"crawl-{processes}p-{uuid.uuid4().hex[:6]}"
    with serve(articles=articles) as site:
        site.write_site_file(run_dir / "sites")
        crawl_settings = {
            "NEWSCRAWL_SITES_DIR": str(run_dir / "sites"),
            "NEWSCRAWL_SQLITE_PATH": str(run_dir / "store.sqlite3"),
            "NEWSCRAWL_EXTRACT_ENABLED": str(extract),
            "LOG_LEVEL": "WARNING",
        }
        if redis_url:
            crawl_settings |= {
                "NEWSCRAWL_REDIS_URL": redis_url,
                "NEWSCRAWL_REDIS_PREFIX": f"bench-{uuid.uuid4().hex[:8]}",
                "NEWSCRAWL_REDIS_IDLE_CLOSE": "2",
            }
        crawl_settings |= dict(settings or {})
        args = crawl_command(SITE_NAME, crawl_settings)
        env = crawler_env()
        procs = [
            subprocess.Popen(
                args, cwd=run_dir, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
            )
            for _ in range(processes)
        ]
        cpu_before, server_before = _children_cpu(), time.process_time()
        errors = [p.communicate(timeout=timeout)[1] for p in procs]
        cpu, server_cpu = _children_cpu() - cpu_before, time.process_time() - server_before
        ok = all(p.returncode == 0 for p in procs)
        if not ok:
            secrets = set().union(*(secrets_of(str(v)) for v in crawl_settings.values()))
            sys.stderr.write(redact("".join(e[-2000:] for e in errors), secrets))
        pages = sum(site.hits.values())
        seconds = (site.last_hit or 0.0) - (site.first_hit or 0.0)
        twice = sum(1 for n in site.hits.values() if n > 1)
    return CrawlRun(processes, pages, seconds, twice, ok, cpu, server_cpu)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def synthetic_records(count: int, text_chars: int = TEXT_CHARS) -> list[dict[str, Any]]:
    """``count`` distinct records, as stage 2 makes them, with texts of at least ``text_chars``."""
    from newscrawl.bench.site import article_text

    records = []
    for n in range(count):
        title, paragraphs = article_text(n)
        text = "\n".join(paragraphs)
        k = n + 1_000_000
        while len(text) < text_chars:
            text += "\n" + "\n".join(article_text(k)[1])
            k += 1_000_000
        url = f"http://bench.newscrawl.test/news/doc-i{n:08d}.shtml"
        records.append(
            {
                "url": url,
                "canonical_url": url,
                "site": SITE_NAME,
                "title": title,
                "text": text,
                "published_at": "2026-11-20T08:30:00+08:00",
                "crawled_at": "2026-11-21T00:00:00+00:00",
                "page_kind": "article",
                "language": "zh",
            }
        )
    return records


def time_sink(open_sink: Callable[[], Any], records: list[dict[str, Any]]) -> float:
    """Items/s writing ``records`` in batches through a freshly opened sink, close included."""
    return time_sink_cpu(open_sink, records)[0]


def time_sink_cpu(open_sink: Callable[[], Any], records: list[dict[str, Any]]) -> tuple[float, float]:
    """Items per wall-clock second and per CPU second of this process (which excludes a server's work)."""
    sink = open_sink()
    sink.open()
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(0, len(records), SINK_BATCH):
        sink.write(records[i : i + SINK_BATCH])
    sink.close()
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return len(records) / wall, len(records) / cpu if cpu > 0 else 0.0


class TrigramSink:
    """The SQLite sink with the index newscrawl 0.1 kept: FTS5 ``trigram`` over the stored text (external
    content), new rows indexed per batch by one ``INSERT ... SELECT``. Only for ``bench-crawl``'s
    comparison with :mod:`newscrawl.storage.search`."""

    def __init__(self, path: Path) -> None:
        from newscrawl.storage.sqlite import SqliteSink

        self.sink = SqliteSink(path, search=False)

    def open(self) -> None:
        self.sink.open()
        self.sink.db.execute(
            "CREATE VIRTUAL TABLE trigram USING fts5(title, author, text, content='articles', "
            "content_rowid='rowid', tokenize='trigram')"
        )
        self.sink.db.execute("INSERT INTO trigram(trigram, rank) VALUES ('automerge', 16)")

    def write(self, records: list[dict[str, Any]]) -> None:
        db = self.sink.db
        before = db.execute("SELECT coalesce(max(rowid), 0) FROM articles").fetchone()[0]
        self.sink.write(records)
        with db:
            db.execute(
                "INSERT INTO trigram(rowid, title, author, text) "
                "SELECT rowid, title, author, text FROM articles WHERE rowid > ?",
                (before,),
            )

    def close(self) -> None:
        self.sink.close()


def sink_figures(
    count: int, postgres_dsn: str | None, workdir: Path, text_chars: int = TEXT_CHARS
) -> dict[str, tuple[float, float] | str]:
    """(items per wall second, items per CPU second of this process) of each sink and of the duplicate
    index loading ``count`` records; a reason string for a sink that was skipped."""
    from newscrawl.storage.dedup import DuplicateIndex
    from newscrawl.storage.sqlite import SqliteSink

    records = synthetic_records(count, text_chars)
    out: dict[str, tuple[float, float] | str] = {}
    out["SQLite + FTS5"] = time_sink_cpu(lambda: SqliteSink(workdir / "fts.sqlite3"), records)
    out["SQLite + FTS5 trigram (replaced; for comparison)"] = time_sink_cpu(
        lambda: TrigramSink(workdir / "trigram.sqlite3"), records
    )
    plain = workdir / "plain.sqlite3"
    out["SQLite, no FTS"] = time_sink_cpu(lambda: SqliteSink(plain, search=False), records)
    index = DuplicateIndex(workdir / "dedup.sqlite3")
    index.open()
    start, cpu = time.perf_counter(), time.process_time()
    for r in records:
        index.add(r["canonical_url"], r["text"])
    out["SimHash duplicate index"] = (
        count / (time.perf_counter() - start), count / max(time.process_time() - cpu, 1e-9)
    )
    index.close()
    if postgres_dsn:
        import psycopg

        from newscrawl.storage.postgres import PostgresSink, PostgresUnavailable

        schema = f"nc_bench_{uuid.uuid4().hex[:8]}"
        try:
            with psycopg.connect(postgres_dsn, autocommit=True, connect_timeout=5) as conn:
                conn.execute(f"CREATE SCHEMA {schema}")
            dsn = f"{postgres_dsn} options='-csearch_path={schema}'"
            spill = workdir / "spill.jsonl"
            out["PostgreSQL"] = time_sink_cpu(lambda: PostgresSink(dsn, spill_path=spill), records)
        except (psycopg.Error, PostgresUnavailable) as e:
            # libpq may quote the password of a DSN it cannot parse
            first = (str(e).splitlines() or [type(e).__name__])[0]
            out["PostgreSQL"] = f"skipped: {redact(first, secrets_of(postgres_dsn))}"
        finally:
            try:
                with psycopg.connect(postgres_dsn, autocommit=True, connect_timeout=5) as conn:
                    conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            except psycopg.Error:
                pass
    else:
        out["PostgreSQL"] = "skipped: no DSN (--postgres or NEWSCRAWL_POSTGRES_DSN)"
    return out


def workdir() -> tempfile.TemporaryDirectory[str]:
    return tempfile.TemporaryDirectory(prefix="newscrawl-bench-")
