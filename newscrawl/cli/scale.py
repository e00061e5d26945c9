"""Subcommands over the stored crawl and for scale: ``search``, ``export``, ``pg-load``, ``dedup-eval``,
``bench-crawl``.

Each follows :mod:`newscrawl.cli`'s pattern (``add_<name>(subparsers)`` sets ``run``) and is listed in
:data:`SUBCOMMANDS`, which :mod:`newscrawl.cli` appends to its own.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

from newscrawl.cli.options import BAD_INPUT, FAILED, OK, Subparsers, add_setting_option
from newscrawl.crawl import defaults

_BOLD, _RESET = "\x1b[1;31m", "\x1b[0m"


def _db_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--db",
        default=defaults.NEWSCRAWL_SQLITE_PATH,
        metavar="PATH",
        help="SQLite database of the crawl (default: %(default)s)",
    )


def _open_db(path: str, command: str) -> sqlite3.Connection | None:
    if not Path(path).is_file():
        print(f"newscrawl {command}: no database at {path} (crawl first, or pass --db)", file=sys.stderr)
        return None
    return sqlite3.connect(path, timeout=30)


# --- search ----------------------------------------------------------------------------------------------


def _iso_time(text: str) -> str:
    """An argparse type: an ISO 8601 date or time (``since_utc`` reads it; kept as written)."""
    from newscrawl.storage.search import since_utc

    try:
        since_utc(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def add_search(sub: Subparsers) -> None:
    p = sub.add_parser(
        "search", help="full-text search of the crawled articles",
        description="Search the crawl's SQLite store (FTS5; Chinese indexed character by character, so any "
        "Chinese substring is found; English by word, a term of 3+ letters also matching the words it "
        "begins). Every term must occur; A OR B for either, NOT A or -A to leave A out, \"a phrase\" for "
        "words side by side, word* for the words it begins. Hits are ranked by relevance (BM25, title hits "
        "weighted up; higher is better).",
    )
    p.add_argument("query", metavar="QUERY")
    _db_option(p)
    p.add_argument("--site", help="only articles of this site (spider name)")
    p.add_argument(
        "--since", type=_iso_time, metavar="DATE",
        help="only articles published (else crawled) at or after DATE, compared as instants: 2026-11-20, "
        "20261120, 2026-11-20T08:00+08:00; a date alone is 00:00 UTC, a time without offset UTC (so are "
        "stored dates and times without offset)",
    )
    p.add_argument("--limit", "-n", type=int, default=10, metavar="N", help="at most N hits (default: 10)")
    p.add_argument("--format", "-f", choices=("text", "jsonl"), default="text")
    p.set_defaults(run=run_search)


def run_search(args: argparse.Namespace) -> int:
    from newscrawl.storage.search import QueryError, ensure_search_index, parse_query, search

    if args.limit < 1:
        print("newscrawl search: --limit must be at least 1", file=sys.stderr)
        return BAD_INPUT
    try:
        query = parse_query(args.query)
    except QueryError as e:
        example = '(e.g. 寒潮 OR 暴雪, "intercity railway", harb*, -sports)'
        print(f"newscrawl search: {e} {example}", file=sys.stderr)
        return BAD_INPUT
    db = _open_db(args.db, "search")
    if db is None:
        return BAD_INPUT
    try:
        ensure_search_index(db, notify=lambda message: print(f"newscrawl search: {message}", file=sys.stderr))
        color = args.format == "text" and sys.stdout.isatty()
        highlight = (_BOLD, _RESET) if color else ("[", "]")
        hits = search(db, query, site=args.site, since=args.since, limit=args.limit, highlight=highlight)
    except sqlite3.Error as e:
        print(f"newscrawl search: {args.db}: {e}", file=sys.stderr)
        return FAILED
    finally:
        db.close()
    for rank, hit in enumerate(hits, 1):
        if args.format == "jsonl":
            print(json.dumps({"rank": rank, **asdict(hit)}, ensure_ascii=False))
            continue
        when = f", {hit.published_at}" if hit.published_at else ""
        print(f"{rank}. {hit.title or '(no title)'}  ({hit.site or '?'}{when})  relevance {hit.score:.2f}")
        print(f"   {hit.url}")
        if hit.snippet:
            print(f"   {hit.snippet}")
    if not hits:
        print(f"newscrawl search: no article matches {args.query!r}", file=sys.stderr)
        return FAILED
    return OK


# --- export ----------------------------------------------------------------------------------------------


def add_export(sub: Subparsers) -> None:
    p = sub.add_parser(
        "export", help="export the stored crawl (Elasticsearch/OpenSearch bulk NDJSON, JSONL)",
        description="Write every stored record. es-bulk: the _bulk API's NDJSON (action + document lines, "
        "_id = SHA-1 of the canonical URL); create the index first with data/es/mapping.json. "
        "jsonl: one record per line.",
    )
    p.add_argument("--format", "-f", choices=("es-bulk", "jsonl"), default="es-bulk")
    _db_option(p)
    p.add_argument("--output", "-o", metavar="FILE", help="write here instead of standard output")
    p.add_argument("--index", default="newscrawl", help="index name in action lines (default: %(default)s)")
    p.set_defaults(run=run_export)


def run_export(args: argparse.Namespace) -> int:
    from newscrawl.storage.export import es_bulk_lines, stored_records

    db = _open_db(args.db, "export")
    if db is None:
        return BAD_INPUT
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout
    count = 0
    try:
        records = stored_records(db)
        if args.format == "es-bulk":
            for n, line in enumerate(es_bulk_lines(records, args.index)):
                out.write(line + "\n")
                count += n % 2
        else:
            for record in records:
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
                count += 1
    except sqlite3.Error as e:
        print(f"newscrawl export: {args.db}: {e}", file=sys.stderr)
        return FAILED
    finally:
        db.close()
        if args.output:
            out.close()
    if args.output:
        print(f"newscrawl export: {count} records to {args.output}", file=sys.stderr)
    return OK


# --- pg-load ---------------------------------------------------------------------------------------------


def add_pg_load(sub: Subparsers) -> None:
    p = sub.add_parser(
        "pg-load", help="upsert a JSONL file of records (e.g. a PostgreSQL spill file) into PostgreSQL",
        description="Upsert the records of JSONL files into PostgreSQL, by canonical URL. The DSN comes from "
        "--dsn or the NEWSCRAWL_POSTGRES_DSN environment variable.",
    )
    p.add_argument("paths", nargs="+", metavar="FILE")
    p.add_argument("--dsn", help="libpq DSN or URL (default: $NEWSCRAWL_POSTGRES_DSN)")
    p.set_defaults(run=run_pg_load)


def run_pg_load(args: argparse.Namespace) -> int:
    import os

    from newscrawl.storage.postgres import PostgresSink, PostgresUnavailable, check_dsn, read_spill

    dsn = args.dsn or os.environ.get("NEWSCRAWL_POSTGRES_DSN")
    if not dsn:
        print("newscrawl pg-load: no DSN (pass --dsn or set NEWSCRAWL_POSTGRES_DSN)", file=sys.stderr)
        return BAD_INPUT
    try:
        check_dsn(dsn)
    except ValueError as e:
        print(f"newscrawl pg-load: DSN: {e}", file=sys.stderr)
        return BAD_INPUT
    try:
        batches = [(path, read_spill(path)) for path in args.paths]
    except (OSError, ValueError) as e:
        print(f"newscrawl pg-load: {e}", file=sys.stderr)
        return BAD_INPUT
    sink = PostgresSink(dsn, spill_path=Path(args.paths[0]).with_suffix(".again.jsonl"))
    try:
        sink.open()
    except PostgresUnavailable as e:
        print(f"newscrawl pg-load: {e}", file=sys.stderr)
        return FAILED
    for path, records in batches:
        sink.write(records)
        print(f"{path}: {len(records)} records")
    sink.close()
    print(f"written {sink.written}, not written {sink.spilled + sink.lost}" +
          (f" (saved to {sink.spill_path})" if sink.spilled else "") +
          (f" ({sink.lost} LOST: the spill file could not be written)" if sink.lost else ""))
    return FAILED if sink.spilled or sink.lost else OK


# --- dedup-eval ------------------------------------------------------------------------------------------


def add_dedup_eval(sub: Subparsers) -> None:
    p = sub.add_parser(
        "dedup-eval", help="measure near-duplicate detection on pairs built from dataset pages",
        description="Build same-text-other-chrome, repost and abridged copies of dataset pages at run time, "
        "compare them and all distinct-article pairs by SimHash, and print recall, false pairs and precision "
        "per Hamming threshold (as the banded index reports them).",
    )
    p.add_argument("datasets", nargs="+", metavar="DATASET_DIR")
    p.add_argument("--limit", type=int, metavar="N", help="only the first N pages of each dataset")
    p.add_argument("--max", type=int, default=15, metavar="K", help="thresholds 0..K (default: 15)")
    p.add_argument("--seed", type=int, default=1, help="seed of the template shuffle (default: 1)")
    p.set_defaults(run=run_dedup_eval)


def run_dedup_eval(args: argparse.Namespace) -> int:
    import logging

    from newscrawl.evaluation.datasets import open_dataset
    from newscrawl.evaluation.dedup import dedup_table, evaluate_dedup

    logging.getLogger("newscrawl.extract").setLevel(logging.CRITICAL)
    try:
        datasets = [open_dataset(d) for d in args.datasets if not Path(d).is_file()]
    except ValueError as e:
        print(f"newscrawl dedup-eval: {e}", file=sys.stderr)
        return BAD_INPUT
    report = evaluate_dedup(datasets, limit=args.limit, seed=args.seed)
    print(dedup_table(report, range(args.max + 1)))
    return OK


# --- bench-crawl -----------------------------------------------------------------------------------------


def add_bench_crawl(sub: Subparsers) -> None:
    p = sub.add_parser(
        "bench-crawl", help="crawl throughput on a generated loopback portal, and the cost of each sink",
        description="Serve a generated portal of N articles on 127.0.0.1, crawl it with the real spider in "
        "one process and in several processes sharing a Redis frontier, report pages/s (first to last "
        "request served) and pages fetched twice; then load records into each sink and report items/s.",
    )
    p.add_argument("--pages", type=int, default=5000, metavar="N", help="articles in the portal (5000)")
    p.add_argument("--processes", type=int, default=2, metavar="P", help="processes on Redis (default 2)")
    p.add_argument("--redis", default=None, metavar="URL",
                   help="Redis for the multi-process run (default: $NEWSCRAWL_REDIS_URL, else skipped)")
    p.add_argument("--postgres", default=None, metavar="DSN",
                   help="PostgreSQL for the sink figures (default: $NEWSCRAWL_POSTGRES_DSN, else skipped)")
    p.add_argument("--items", type=int, default=10000, metavar="N", help="records per sink (default 10000)")
    p.add_argument("--text-chars", type=int, default=1000, metavar="N",
                   help="least characters of text per sink record (default: 1000)")
    p.add_argument("--no-extract", action="store_true", help="crawl without extraction")
    p.add_argument("--pages-from", nargs="+", metavar="DIR",
                   help="crawl these folders' HTML pages (a dataset's pages/) behind generated list pages, "
                   "served by a process of its own, with and without extraction (see --workers), and "
                   "report pages/s and the reactor's loop lag instead of the generated portal's figures")
    p.add_argument("--workers", default="0,1,2", metavar="N,N...",
                   help="extraction worker counts to compare with --pages-from (default: 0,1,2)")
    p.add_argument("--skip-crawl", action="store_true", help="sink figures only")
    p.add_argument("--skip-sinks", action="store_true", help="crawl figures only")
    p.add_argument("--repeat", type=int, default=1, metavar="R",
                   help="run the crawls R times, one process then several each time, and report medians")
    add_setting_option(
        p, help="a Scrapy setting for the crawler processes (repeatable), e.g. -s NEWSCRAWL_DEDUP=False"
    )
    p.set_defaults(run=run_bench_crawl)


def run_bench_crawl(args: argparse.Namespace) -> int:
    import os
    import statistics  # here, not at the top: every newscrawl start would pay for it

    from newscrawl.bench.crawl import run_crawl, sink_figures, workdir

    redis = args.redis or os.environ.get("NEWSCRAWL_REDIS_URL")
    dsn = args.postgres or os.environ.get("NEWSCRAWL_POSTGRES_DSN")
    if args.repeat < 1:
        print("newscrawl bench-crawl: --repeat must be at least 1", file=sys.stderr)
        return BAD_INPUT
    settings = dict(args.set)
    if args.pages_from:
        return _bench_pages(args, settings)
    status = OK
    with workdir() as tmp:
        if not args.skip_crawl:
            print(f"crawl of a generated portal: {args.pages} articles + list pages, "
                  f"extraction {'off' if args.no_extract else 'on'}, SQLite + FTS + dedup sinks on\n")
            if settings:
                print("settings: " + " ".join(f"{k}={v}" for k, v in settings.items()) + "\n")
            print("| run | processes | pages | seconds | pages/s | fetched twice | crawler CPU s | "
                  "pages/CPU s | server CPU s |")
            print("|---|---|---|---|---|---|---|---|---|")
            runs: list[tuple[int, str | None]] = [(1, None)]
            if redis:
                runs.append((args.processes, redis))
            rates: dict[int, list[float]] = {}
            ratios: list[float] = []
            for rep in range(1, args.repeat + 1):
                base = None
                for processes, url in runs:
                    run = run_crawl(
                        args.pages, processes, redis_url=url, extract=not args.no_extract, workdir=Path(tmp),
                        settings=settings,
                    )
                    rates.setdefault(processes, []).append(run.pages_per_second)
                    base = base or run.pages_per_second
                    speedup = ""
                    if processes > 1 and base:
                        ratios.append(run.pages_per_second / base)
                        speedup = f" ({ratios[-1]:.2f}x)"
                    per_cpu = run.pages / run.cpu_seconds if run.cpu_seconds else 0.0
                    print(f"| {rep} | {processes}{' on Redis' if url else ''} | {run.pages} | "
                          f"{run.seconds:.1f} | {run.pages_per_second:.1f}{speedup} | {run.fetched_twice} | "
                          f"{run.cpu_seconds:.1f} | {per_cpu:.1f} | {run.server_cpu_seconds:.1f} |",
                          flush=True)
                    if not run.ok or run.fetched_twice:
                        status = FAILED
            if args.repeat > 1 or ratios:
                medians = ", ".join(f"{p} process{'es' if p > 1 else ''} {statistics.median(r):.1f} pages/s"
                                    for p, r in rates.items())
                ratio = (
                    f"; {args.processes} on Redis / 1, median of the {len(ratios)} side-by-side ratios: "
                    f"{statistics.median(ratios):.2f}x" if ratios else ""
                )
                print(f"\nmedians: {medians}{ratio}")
            if not redis:
                print("(multi-process run skipped: no --redis and no NEWSCRAWL_REDIS_URL)")
            print()
        if not args.skip_sinks:
            print(f"sinks: {args.items} distinct records of {args.text_chars}+ characters, batches of 100\n")
            print("| sink | items/s | items per CPU s of this process (a server's work not counted) |")
            print("|---|---|---|")
            for name, value in sink_figures(args.items, dsn, Path(tmp), args.text_chars).items():
                shown = f"{value[0]:,.0f} | {value[1]:,.0f}" if isinstance(value, tuple) else f"{value} | "
                print(f"| {name} | {shown} |", flush=True)
            print(f"\nload average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
                  f"on {os.cpu_count()} CPUs (other work on the machine slows every figure)")
    return status


def _bench_pages(args: argparse.Namespace, settings: dict[str, str]) -> int:
    """bench-crawl --pages-from: real pages, no extraction vs extraction with each worker count."""
    import os
    import statistics

    from newscrawl.bench.crawl import workdir
    from newscrawl.bench.pages import page_files, run_pages_crawl

    try:
        counts = [int(n) for n in args.workers.split(",") if n.strip()]
        if not counts or min(counts) < 0:
            raise ValueError
        pages = len(page_files(args.pages_from))
    except ValueError as e:
        detail = str(e) or f"--workers expects counts such as 0,1,2, not {args.workers!r}"
        print(f"newscrawl bench-crawl: {detail}", file=sys.stderr)
        return BAD_INPUT
    print(f"crawl of {pages} pages from {', '.join(args.pages_from)} behind generated list pages, served "
          f"on 127.0.0.1 by a process of its own; politeness off; SQLite + FTS + dedup on; "
          f"{args.repeat} round(s), each mode once per round, side by side\n")
    if settings:
        print("settings: " + " ".join(f"{k}={v}" for k, v in settings.items()) + "\n")
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    print("| round | mode | pages | records | seconds | pages/s | / no extraction | at most | "
          "loop lag p50 / p99 / max ms | reactor CPU per tick p99 / max ms | CPU ms per page: crawler + "
          "workers + server | crawler CPU s | server CPU s | peak RSS MB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    modes = [(False, 0)] + [(True, n) for n in counts]
    rates: dict[str, list[float]] = {}
    ratios: dict[str, list[float]] = {}
    lags: dict[str, list[float]] = {}
    busy: dict[str, list[float]] = {}
    bounds: dict[str, list[float]] = {}
    status = OK
    with workdir() as tmp:
        for rnd in range(1, args.repeat + 1):
            base = 0.0
            for extract, workers in modes:
                run = run_pages_crawl(
                    args.pages_from, extract=extract, workers=workers, workdir=Path(tmp), settings=settings
                )
                rates.setdefault(run.label, []).append(run.pages_per_second)
                lags.setdefault(run.label, []).append(run.lag_p99_ms)
                busy.setdefault(run.label, []).append(run.busy_p99_ms)
                ratio = bound = ""
                if not extract:
                    base = run.pages_per_second
                elif base:
                    ratios.setdefault(run.label, []).append(run.pages_per_second / base)
                    ratio = f"{ratios[run.label][-1]:.2f}x"
                    # what this run's CPU per page allows on this machine's CPUs, against the same base
                    bounds.setdefault(run.label, []).append(run.best_rate(cpus, workers) / base)
                    bound = f"{bounds[run.label][-1]:.2f}x"
                per_page = " + ".join(f"{ms:.1f}" for ms in run.cpu_per_page_ms())
                print(f"| {rnd} | {run.label} | {run.pages} | {run.records} | {run.seconds:.1f} | "
                      f"{run.pages_per_second:.1f} | {ratio} | {bound} | {run.lag_p50_ms:.0f} / "
                      f"{run.lag_p99_ms:.0f} / {run.lag_max_ms:.0f} | {run.busy_p99_ms:.0f} / "
                      f"{run.busy_max_ms:.0f} | {per_page} | {run.crawler_cpu:.1f} | {run.server_cpu:.1f} | "
                      f"{run.peak_rss_mb:.0f} |", flush=True)
                if not run.ok:
                    status = FAILED
    print("\nmedians over the rounds:")
    for label, values in rates.items():
        ratio = ""
        if label in ratios:
            ratio = (f", {statistics.median(ratios[label]):.2f}x no extraction (its CPU per page allows at "
                     f"most {statistics.median(bounds[label]):.2f}x on {cpus} CPUs)")
        print(f"  {label}: {statistics.median(values):.1f} pages/s{ratio}, "
              f"loop lag p99 {statistics.median(lags[label]):.0f} ms, "
              f"reactor CPU per tick p99 {statistics.median(busy[label]):.0f} ms")
    print("\n'at most': the ratio this crawl could reach if its CPU per page (crawler during the crawl, "
          "workers, server) had the machine's CPUs to itself, each worker and the reactor one CPU at most")
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    return status


#: the subcommands this module adds to ``newscrawl``
SUBCOMMANDS: list[Callable[[Subparsers], None]] = [
    add_search, add_export, add_pg_load, add_dedup_eval, add_bench_crawl
]
