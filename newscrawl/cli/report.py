"""``newscrawl report [SITE]``: the history of crawls in the store, and layout-drift alerts for cron.

Follows :mod:`newscrawl.cli`'s pattern (``add_<name>(subparsers)`` sets ``run``); listed in
:data:`SUBCOMMANDS`, which :mod:`newscrawl.cli` appends to its own.
"""

from __future__ import annotations

import argparse
import html
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from newscrawl.cli.options import BAD_INPUT, FAILED, OK, Subparsers

#: exit code when a site's latest crawl fell (as FAILED: for cron)
DRIFT = FAILED
#: crawls shown per site
SHOWN = 10


def add_report(sub: Subparsers) -> None:
    from newscrawl.storage.history import FILL_DROP, LENGTH_SHARE

    p = sub.add_parser(
        "report", help="show the history of crawls and flag sites whose extraction fell off",
        description="Per site, the recent crawls (pages, records, share of records with title, date, "
        "author and text, median text length) and an alert for a site whose latest crawl fell below its "
        "previous ones, as when a layout change breaks extraction. Exit status 1 when any site is flagged.",
    )
    p.add_argument("site", nargs="?", metavar="SITE", help="one site (default: every site in the store)")
    p.add_argument("--db", default="output/newscrawl.sqlite3", metavar="FILE", help="the SQLite store")
    p.add_argument(
        "--fill-drop", type=float, default=FILL_DROP, metavar="F",
        help="flag a fill rate this far below the previous crawls' median (default: %(default)s)",
    )
    p.add_argument(
        "--length-share", type=float, default=LENGTH_SHARE, metavar="F",
        help="flag a median text length under this share of the previous crawls' (default: %(default)s)",
    )
    p.add_argument("--chart", type=Path, metavar="FILE.html", help="also write the history as charts")
    p.set_defaults(run=run_report)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def run_report(args: argparse.Namespace) -> int:
    from newscrawl.storage.history import drift, drift_chart, history

    if not Path(args.db).is_file():
        print(f"newscrawl report: no store at {args.db} (crawl first, or give --db)", file=sys.stderr)
        return BAD_INPUT
    try:
        db = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
        crawls = history(db, args.site)
        alerts = drift(db, args.site, fill_drop=args.fill_drop, length_share=args.length_share)
    except sqlite3.DatabaseError as e:
        print(f"newscrawl report: {args.db}: not a newscrawl store: {e}", file=sys.stderr)
        return BAD_INPUT
    if not crawls:
        what = f"of site {args.site!r} " if args.site else ""
        print(f"newscrawl report: no crawl {what}recorded in {args.db}", file=sys.stderr)
        return BAD_INPUT
    by_site: dict[str, list[Any]] = {}
    for crawl in crawls:
        by_site.setdefault(crawl.site, []).append(crawl)
    header = (
        f"  {'started (UTC)':<26}{'pages':>7}{'records':>9}{'title':>7}{'date':>7}{'author':>8}{'text':>7}"
    )
    for site, rows in sorted(by_site.items()):
        print(f"{site}: {len(rows)} crawl(s)")
        print(header + f"{'median chars':>14}")
        for c in rows[-SHOWN:]:
            widths = (("title", 7), ("date", 7), ("author", 8))
            fill = "".join(f"{_pct(c.fill.get(k)):>{w}}" for k, w in widths)
            print(
                f"  {c.started_at:<26}{c.pages:>7}{c.records:>9}{fill}{_pct(c.fill.get('text')):>7}"
                f"{c.median_text_chars if c.median_text_chars is not None else '-':>14}"
            )
    if alerts:
        print("DRIFT: the latest crawl fell below the previous ones:")
        for alert in alerts:
            print(f"  {alert}")
    else:
        print("no drift: every site's latest crawl is in line with its previous ones")
    if args.chart:
        charts = "".join(
            f"<h2>{html.escape(site)}</h2>{drift_chart(rows[-SHOWN:])}"
            for site, rows in sorted(by_site.items())
        )
        page = f"<!doctype html><meta charset='utf-8'><title>newscrawl report</title><body>{charts}</body>"
        args.chart.parent.mkdir(parents=True, exist_ok=True)
        args.chart.write_text(page, encoding="utf-8")
    return DRIFT if alerts else OK


SUBCOMMANDS: list[Callable[[Subparsers], None]] = [add_report]
