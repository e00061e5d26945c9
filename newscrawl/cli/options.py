"""What the ``newscrawl`` command modules share: the exit codes, ``--site NAME`` (a site file applied as a
crawl of it does) and ``-s NAME=VALUE`` (a Scrapy setting)."""

from __future__ import annotations

import argparse
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

#: the subparsers of ``newscrawl``'s parser (argparse._SubParsersAction has no public name)
Subparsers = Any

#: exit codes: done; failed (or, for ``report``, a site's crawls fell); bad input or usage
OK, FAILED, BAD_INPUT = 0, 1, 2


def site_options(name: str | None, sites_dir: str | None = None) -> dict[str, Any]:
    """``extract()``'s options from site file ``name``: its ``[xpath] exclude``, XPath overrides and zone,
    as a crawl of that site applies them ({} without a name). ConfigError for an unknown or bad site."""
    if not name:
        return {}
    from newscrawl.crawl.errors import ConfigError
    from newscrawl.crawl.sites import read_sites

    sites, errors = read_sites(sites_dir or os.environ.get("NEWSCRAWL_SITES_DIR"))
    if name not in sites:
        bad = [e for e in errors if Path(e.source).stem == name]
        if bad:
            raise bad[0]
        raise ConfigError(f"--site: no site named {name!r}; one of: {', '.join(sorted(sites)) or 'none'}")
    site = sites[name]
    return {"prune_xpath": site.exclude, "field_xpaths": dict(site.xpath), "timezone": site.timezone}


def add_site_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--site", metavar="NAME",
        help="apply site file NAME's exclusions, XPath overrides and time zone, as a crawl of it does",
    )
    p.add_argument("--sites-dir", metavar="DIR", help="where site files are (default: the shipped ones)")


def fetch_time(value: str) -> datetime:
    """``--fetched-at``'s value: an ISO 8601 time with its UTC offset, or ``now``; an argparse type, so a
    time without an offset is a usage error (exit 2) rather than a guess at its zone.

    >>> fetch_time("2026-11-25T14:03+09:00").isoformat(), fetch_time("2026-11-25 05:03Z").isoformat()
    ('2026-11-25T14:03:00+09:00', '2026-11-25T05:03:00+00:00')
    >>> fetch_time("now").tzinfo is not None
    True
    """
    if value.strip().lower() == "now":
        return datetime.now(UTC)
    try:
        when = datetime.fromisoformat(value.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expects an ISO 8601 time or 'now', got {value!r}") from None
    if when.tzinfo is None:
        raise argparse.ArgumentTypeError(
            f"{value!r} has no UTC offset: give one (2026-11-25T14:03+08:00, ...Z) or 'now'"
        )
    return when


def add_fetched_option(p: argparse.ArgumentParser) -> None:
    """``--fetched-at WHEN``: the time a page file was fetched, which relative and year-less dates on it
    ("3小时前", "昨天 09:27", "11/25(水) 14:03配信") are read against; without it they stay unread."""
    p.add_argument(
        "--fetched-at", type=fetch_time, metavar="WHEN",
        help="when the page was fetched (ISO 8601 with offset, or 'now'): relative and year-less dates on "
        "it are read against this; without it they are left out (an archive's records carry their own)",
    )


def setting(pair: str) -> tuple[str, str]:
    """One ``-s NAME=VALUE`` as ``(NAME, VALUE)``; an argparse type, so a bad pair is a usage error (exit 2).

    >>> setting("DOWNLOAD_DELAY=0.5"), setting("NEWSCRAWL_SQLITE_PATH=")
    (('DOWNLOAD_DELAY', '0.5'), ('NEWSCRAWL_SQLITE_PATH', ''))
    """
    name, sep, value = pair.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expects NAME=VALUE, got {pair!r}")
    return name.strip(), value


def add_setting_option(p: argparse.ArgumentParser, help: str = "a Scrapy setting (repeatable)") -> None:  # noqa: A002
    """``-s/--set NAME=VALUE``, repeatable: ``dict(args.set)`` holds the settings."""
    p.add_argument("-s", "--set", action="append", default=[], type=setting, metavar="NAME=VALUE", help=help)
