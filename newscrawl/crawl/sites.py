"""Site files: one small TOML file per site under ``settings/sites/``, validated when loaded.

A site file names the site, its domains, where a crawl starts (list pages, roll feeds, RSS/Atom feeds,
sitemaps), which URLs are articles and which are lists, optional XPath overrides, its time zone and its
own Scrapy settings. A bad file raises :class:`SiteFileError` whose message starts with the file and the
field, e.g. ``settings/sites/x.toml: patterns.article[0]: bad regular expression ...``.

>>> site = parse_site({"allowed_domains": ["example.com"],
...                    "start": {"pages": ["https://example.com/news/"]},
...                    "patterns": {"article": [r"/news/\\d+\\.html$"]}}, "example.toml")
>>> site.name, site.is_article("https://example.com/news/12.html")
('example', True)
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from lxml import etree

from newscrawl.crawl.config import ConfigError
from newscrawl.extract.overrides import compile_field_xpaths

#: where the site files live when NEWSCRAWL_SITES_DIR is not set: ``settings/sites`` next to the package
DEFAULT_SITES_DIR = Path(__file__).resolve().parents[2] / "settings" / "sites"

_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_SETTING = re.compile(r"^[A-Z][A-Z0-9_]*$")
_XPATH_FIELDS = ("title", "published_at", "modified_at", "author", "body")
_TOP_KEYS = {
    "name", "allowed_domains", "timezone", "language", "start", "patterns", "xpath", "roll", "settings",
    "follow_from_articles", "description",
}  # fmt: skip
_START_KEYS = {"pages", "roll", "feeds", "sitemaps"}
_PATTERN_KEYS = {"article", "list", "deny"}
_ROLL_KEYS = {"items", "url", "title", "published_at", "pages"}


class SiteFileError(ConfigError):
    """A site file that cannot be used; the message names the file and the field."""

    def __init__(self, source: str, field_name: str, problem: str) -> None:
        super().__init__(f"{source}: {field_name}: {problem}")
        self.source = source
        self.field = field_name
        self.problem = problem


@dataclass(frozen=True, slots=True)
class RollFeed:
    """How to read a JSON roll feed: dotted path to the entry list and the keys of one entry.

    ``pages`` > 1 walks the feed's pages by replacing ``{page}`` in each roll URL with 1..pages.
    """

    items: str = "result.data"
    url: str = "url"
    title: str = "title"
    published_at: str = "ctime"
    pages: int = 1


@dataclass(frozen=True, slots=True)
class Site:
    """One validated site definition."""

    name: str
    source: str
    allowed_domains: tuple[str, ...]
    article_patterns: tuple[re.Pattern[str], ...]
    list_patterns: tuple[re.Pattern[str], ...] = ()
    deny_patterns: tuple[re.Pattern[str], ...] = ()
    pages: tuple[str, ...] = ()
    roll: tuple[str, ...] = ()
    feeds: tuple[str, ...] = ()
    sitemaps: tuple[str, ...] = ()
    roll_feed: RollFeed = field(default_factory=RollFeed)
    xpath: Mapping[str, str] = field(default_factory=dict)
    #: elements removed before extraction (promo boxes inside the article, ...)
    exclude: tuple[str, ...] = ()
    #: the zone of the site's times without an offset; None: inferred per page (declared language and
    #: region, host), and no zone where nothing implies one
    timezone: str | None = None
    language: str | None = None
    follow_from_articles: bool = False
    settings: Mapping[str, Any] = field(default_factory=dict)

    def is_denied(self, url: str) -> bool:
        return any(p.search(url) for p in self.deny_patterns)

    def is_article(self, url: str) -> bool:
        """True when ``url`` matches an article pattern and no deny pattern."""
        return not self.is_denied(url) and any(p.search(url) for p in self.article_patterns)

    def is_list(self, url: str) -> bool:
        """True when ``url`` matches a list/pagination pattern (and is neither denied nor an article)."""
        return (
            not self.is_denied(url)
            and not self.is_article(url)
            and any(p.search(url) for p in self.list_patterns)
        )

    def roll_urls(self) -> list[str]:
        """Every roll-feed URL to request, with ``{page}`` expanded."""
        out: list[str] = []
        for url in self.roll:
            if "{page}" in url:
                out.extend(url.replace("{page}", str(n)) for n in range(1, self.roll_feed.pages + 1))
            else:
                out.append(url)
        return out


def _fail(source: str, field_name: str, problem: str) -> SiteFileError:
    return SiteFileError(source, field_name, problem)


def _table(data: Mapping[str, Any], key: str, source: str, allowed: set[str]) -> Mapping[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise _fail(source, key, f"must be a table, not {type(value).__name__}")
    for k in value:
        if k not in allowed:
            raise _fail(source, f"{key}.{k}", f"unknown field; expected one of {', '.join(sorted(allowed))}")
    return value


def _strings(value: Any, source: str, field_name: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise _fail(source, field_name, f"must be a list of non-empty strings, not {value!r}")
    return tuple(v.strip() for v in value)


def _urls(value: Any, source: str, field_name: str) -> tuple[str, ...]:
    urls = _strings(value, source, field_name)
    for i, url in enumerate(urls):
        if not re.match(r"^https?://[^/\s]+", url):
            raise _fail(source, f"{field_name}[{i}]", f"not an absolute http(s) URL: {url!r}")
    return urls


def _patterns(value: Any, source: str, field_name: str) -> tuple[re.Pattern[str], ...]:
    out = []
    for i, text in enumerate(_strings(value, source, field_name)):
        try:
            out.append(re.compile(text))
        except re.error as e:
            raise _fail(source, f"{field_name}[{i}]", f"bad regular expression {text!r}: {e}") from e
    return tuple(out)


def parse_site(data: Mapping[str, Any], source: str) -> Site:
    """Validate the decoded contents of one site file (``source`` names it in errors)."""
    for key in data:
        if key not in _TOP_KEYS:
            raise _fail(source, key, f"unknown field; expected one of {', '.join(sorted(_TOP_KEYS))}")
    stem = Path(source).stem
    name = data.get("name", stem)
    if not isinstance(name, str) or not _NAME.match(name):
        raise _fail(source, "name", f"must be lower-case letters, digits, '-' or '_', not {name!r}")

    domains = _strings(data.get("allowed_domains"), source, "allowed_domains")
    if not domains:
        raise _fail(source, "allowed_domains", "missing: list at least one domain")
    for i, d in enumerate(domains):
        if "/" in d or ":" in d or " " in d:
            raise _fail(source, f"allowed_domains[{i}]", f"a bare domain is expected, not {d!r}")

    start = _table(data, "start", source, _START_KEYS)
    pages = _urls(start.get("pages"), source, "start.pages")
    roll = _urls(start.get("roll"), source, "start.roll")
    feeds = _urls(start.get("feeds"), source, "start.feeds")
    sitemaps = _urls(start.get("sitemaps"), source, "start.sitemaps")
    if not (pages or roll or feeds or sitemaps):
        raise _fail(source, "start", "no start points: give pages, roll, feeds or sitemaps")

    patterns = _table(data, "patterns", source, _PATTERN_KEYS)
    article = _patterns(patterns.get("article"), source, "patterns.article")
    if not article:
        raise _fail(source, "patterns.article", "missing: give at least one article URL pattern")

    xpath = dict(_table(data, "xpath", source, {*_XPATH_FIELDS, "exclude"}))
    exclude = xpath.pop("exclude", [])
    if not isinstance(exclude, list) or not all(isinstance(e, str) for e in exclude):
        raise _fail(source, "xpath.exclude", f"must be a list of XPath strings, not {exclude!r}")
    for i, expr in enumerate(exclude):
        try:
            etree.XPath(expr)
        except etree.XPathSyntaxError as e:
            raise _fail(source, f"xpath.exclude[{i}]", f"bad XPath {expr!r}: {e}") from e
    for key, expr in xpath.items():
        if not isinstance(expr, str):
            raise _fail(source, f"xpath.{key}", f"must be a string, not {expr!r}")
        try:
            compile_field_xpaths({key: expr})  # what the extraction library runs, compiled the same way
        except ValueError as e:
            raise _fail(source, f"xpath.{key}", f"bad XPath {expr!r}: {e.__cause__ or e}") from e

    roll_table = _table(data, "roll", source, _ROLL_KEYS)
    roll_values: dict[str, Any] = {}
    for key, value in roll_table.items():
        expected = int if key == "pages" else str
        if not isinstance(value, expected) or isinstance(value, bool):
            raise _fail(source, f"roll.{key}", f"must be {expected.__name__}, not {value!r}")
        roll_values[key] = value
    if roll_values.get("pages", 1) < 1:
        raise _fail(source, "roll.pages", "must be at least 1")

    tz = data.get("timezone")
    if tz is not None:
        try:
            ZoneInfo(tz)
        except (ZoneInfoNotFoundError, ValueError, TypeError) as e:
            raise _fail(source, "timezone", f"unknown time zone {tz!r}") from e

    language = data.get("language")
    if language is not None and (
        not isinstance(language, str) or not re.match(r"^[a-z]{2,3}(-\w+)?$", language)
    ):
        raise _fail(source, "language", f"must be a language code such as 'zh' or 'en', not {language!r}")

    follow = data.get("follow_from_articles", False)
    if not isinstance(follow, bool):
        raise _fail(source, "follow_from_articles", f"must be true or false, not {follow!r}")

    settings = _table(data, "settings", source, set(data.get("settings", {}) or {}))
    for key in settings:
        if not _SETTING.match(key):
            raise _fail(source, f"settings.{key}", "Scrapy setting names are upper case, e.g. DOWNLOAD_DELAY")

    return Site(
        name=name,
        source=source,
        allowed_domains=domains,
        article_patterns=article,
        list_patterns=_patterns(patterns.get("list"), source, "patterns.list"),
        deny_patterns=_patterns(patterns.get("deny"), source, "patterns.deny"),
        pages=pages,
        roll=roll,
        feeds=feeds,
        sitemaps=sitemaps,
        roll_feed=RollFeed(**roll_values),
        xpath=dict(xpath),
        exclude=tuple(exclude),
        timezone=tz,
        language=language,
        follow_from_articles=follow,
        settings=dict(settings),
    )


def load_site(path: str | Path) -> Site:
    """Read and validate one site file."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise _fail(str(path), "(file)", f"not valid TOML: {e}") from e
    except (OSError, UnicodeDecodeError) as e:
        raise _fail(str(path), "(file)", f"cannot be read: {e}") from e
    return parse_site(data, str(path))


def load_sites(directory: str | Path | None = None) -> dict[str, Site]:
    """Every ``*.toml`` site file of ``directory`` (default :data:`DEFAULT_SITES_DIR`), by site name."""
    directory = Path(directory) if directory else DEFAULT_SITES_DIR
    if not directory.is_dir():
        raise SiteFileError(str(directory), "(directory)", "no such directory of site files")
    sites: dict[str, Site] = {}
    for path in sorted(directory.glob("*.toml")):
        site = load_site(path)
        if site.name in sites:
            raise _fail(str(path), "name", f"{site.name!r} is already defined by {sites[site.name].source}")
        sites[site.name] = site
    return sites
