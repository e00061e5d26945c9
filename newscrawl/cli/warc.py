"""``newscrawl reextract WARC...``: the pipelines run again over archived pages, without the network.

Follows :mod:`newscrawl.cli`'s pattern (``add_<name>(subparsers)`` sets ``run``); listed in
:data:`SUBCOMMANDS`, which :mod:`newscrawl.cli` appends to its own.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from newscrawl.cli.options import FAILED, OK, Subparsers, add_setting_option


def add_reextract(sub: Subparsers) -> None:
    p = sub.add_parser(
        "reextract", help="run the spider, extraction and sinks again over WARC archives of a crawl",
        description="Replay WARC archives written by a crawl with NEWSCRAWL_WARC_DIR through the site's "
        "spider, stage 1, stage 2 and the sinks, with no network: last month's crawl, today's extractor.",
    )
    p.add_argument("warcs", nargs="+", metavar="WARC", help=".warc or .warc.gz files")
    p.add_argument("--site", metavar="NAME", help="the site spider (default: the one named in the archives)")
    p.add_argument("--output", "-o", type=Path, metavar="FILE", help="also write the records as JSON lines")
    p.add_argument("--db", metavar="FILE", help="the SQLite store (default: setting NEWSCRAWL_SQLITE_PATH)")
    add_setting_option(p)
    p.set_defaults(run=run_reextract)


def start_workers(settings: Mapping[str, Any]) -> None:
    """Fork the extraction workers now, before Scrapy is imported (:func:`~newscrawl.crawl.workers.prestart`):
    they warm up (as the fork server would, :func:`~newscrawl.crawl.workers.warm_fork_server`) while this
    process imports Scrapy and builds the crawler, and no fork server imports the extraction library a
    second time. As many as ``-s NEWSCRAWL_EXTRACT_WORKERS`` says, else reextract's default (one per
    CPU: :func:`~newscrawl.crawl.workers.reextract_workers`); none for 0. A project or site setting asking
    for more has the others started by the pool; workers it does not take stay idle until the command
    ends."""
    value = str(settings.get("NEWSCRAWL_EXTRACT_WORKERS", "")).strip()
    if str(settings.get("NEWSCRAWL_EXTRACT_ENABLED", "")).strip().lower() in ("0", "false"):
        return
    from newscrawl.crawl.workers import (
        prestart,
        reextract_workers,
        run_page_job,
        warm_extraction,
        warm_fork_server,
    )

    try:
        count = int(value) if value else reextract_workers()
    except ValueError:
        return  # the crawler's settings check names it
    if count > 0:
        prestart(run_page_job, count, warm=warm_extraction, preload=warm_fork_server)


def run_reextract(args: argparse.Namespace) -> int:
    settings: dict[str, Any] = {"LOG_LEVEL": "WARNING", **dict(args.set)}
    start_workers(settings)
    from newscrawl.crawl.warc import reextract

    if args.output:
        settings["FEEDS"] = {str(args.output): {"format": "jsonlines", "overwrite": True}}
    if args.db:
        settings["NEWSCRAWL_SQLITE_PATH"] = args.db
    stats = reextract([str(p) for p in args.warcs], site=args.site, settings=settings)
    replayed = int(stats.get("newscrawl/warc/replayed", 0))
    items = int(stats.get("item_scraped_count", 0))
    dropped = int(stats.get("item_dropped_count", 0))
    missing = int(stats.get("newscrawl/warc/not_archived", 0))
    damaged = int(stats.get("newscrawl/warc/damaged_records", 0))
    print(
        f"newscrawl reextract: {replayed} archived responses replayed, {items} records written, "
        f"{dropped} dropped, {missing} links to pages not in the archives ignored"
        + (f", {damaged} damaged records passed over (named in the log)" if damaged else "")
    )
    return OK if stats.get("finish_reason") == "finished" and replayed and not damaged else FAILED


SUBCOMMANDS: list[Callable[[Subparsers], None]] = [add_reextract]
