"""``newscrawl explain PAGE``: why a page was extracted the way it was (JSON facts or an HTML report).

Follows :mod:`newscrawl.cli`'s pattern (``add_<name>(subparsers)`` sets ``run``); listed in
:data:`SUBCOMMANDS`, which :mod:`newscrawl.cli` appends to its own.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable
from pathlib import Path

from newscrawl.cli.options import (
    BAD_INPUT,
    OK,
    Subparsers,
    add_fetched_option,
    add_site_options,
    site_options,
)


def add_explain(sub: Subparsers) -> None:
    from newscrawl.extract import ALGORITHMS

    p = sub.add_parser(
        "explain", help="show why a page was extracted the way it was",
        description="Explain one extraction: the page's text blocks marked kept or dropped with the figures "
        "that decided it, the algorithms' signals, the decisions, and where each metadata field was found.",
    )
    p.add_argument("page", metavar="PAGE", help="HTML file, or - for standard input")
    p.add_argument(
        "--algorithm", "-a", default="auto", choices=ALGORITHMS, metavar="NAME",
        help=f"extraction algorithm (one of: {', '.join(ALGORITHMS)}; default: %(default)s)",
    )
    p.add_argument("--url", help="the page's URL")
    p.add_argument(
        "--format", "-f", choices=("html", "json"), default="html",
        help="html: one self-contained report with charts; json: the same facts as data (default: html)",
    )
    p.add_argument("--output", "-o", type=Path, metavar="FILE", help="write here instead of standard output")
    add_fetched_option(p)
    add_site_options(p)
    p.set_defaults(run=run_explain)


def run_explain(args: argparse.Namespace) -> int:
    from newscrawl.cli import read_page  # the package imports this module
    from newscrawl.explain import explain, render_html

    try:
        page = read_page(args.page)
    except OSError as e:
        print(f"newscrawl explain: cannot read {args.page}: {e.strerror or e}", file=sys.stderr)
        return BAD_INPUT
    logging.getLogger("newscrawl.extract").setLevel(logging.CRITICAL)
    facts = explain(
        page, url=args.url, algorithm=args.algorithm, reference_time=args.fetched_at,
        **site_options(args.site, args.sites_dir),
    )
    if args.format == "json":
        out = json.dumps(facts, ensure_ascii=False, indent=2) + "\n"
    else:
        out = render_html(facts)
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(out, encoding="utf-8")
    else:
        sys.stdout.write(out)
    if facts["error"]:
        print(f"newscrawl explain: {args.page}: {facts['error']}", file=sys.stderr)
    return OK


SUBCOMMANDS: list[Callable[[Subparsers], None]] = [add_explain]
