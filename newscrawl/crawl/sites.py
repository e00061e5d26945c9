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
import re._parser as sre
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from lxml import etree

from newscrawl.crawl.config import ConfigError, scrapy_value_problem
from newscrawl.crawl.shipped import shipped_dir
from newscrawl.extract.overrides import compile_field_xpaths

#: where the site files live when NEWSCRAWL_SITES_DIR is not set: the shipped ``settings/sites``
DEFAULT_SITES_DIR = shipped_dir("sites")

_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_SETTING = re.compile(r"^[A-Z][A-Z0-9_]*$")
_XPATH_FIELDS = ("title", "published_at", "modified_at", "author", "editor", "source", "body")
_TOP_KEYS = {
    "name", "allowed_domains", "timezone", "language", "start", "patterns", "xpath", "roll", "settings",
    "follow_from_articles", "description", "render",
}  # fmt: skip
_START_KEYS = {"pages", "roll", "feeds", "sitemaps"}
_PATTERN_KEYS = {"article", "list", "deny"}
_ROLL_KEYS = {"items", "url", "title", "published_at", "pages"}
#: pages of a roll feed walked at most (a roll feed of 50 entries a page: 50,000 entries, as a sitemap);
#: 3,000,000 pages had been accepted and took 4.8 GB
MAX_ROLL_PAGES = 1_000
#: a page to evaluate XPath overrides on once, at validation
_PROBE_PAGE = etree.fromstring("<html><head><title>t</title></head><body><p>p</p></body></html>")


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
    #: pages fetched through a headless browser: every page (``render = true``) or those matching
    render_all: bool = False
    render_patterns: tuple[re.Pattern[str], ...] = ()

    @property
    def renders(self) -> bool:
        """True when some of the site's pages are fetched through a headless browser."""
        return self.render_all or bool(self.render_patterns)

    def needs_render(self, url: str) -> bool:
        """True when ``url`` is fetched through a headless browser (``render`` in the site file)."""
        return self.render_all or any(p.search(url) for p in self.render_patterns)

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


_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", sre.MAX_REPEAT))


def _body(items: Any) -> list[Any]:
    """The items of a repeat's body, groups unwrapped."""
    items = list(items)
    while len(items) == 1 and items[0][0] == sre.SUBPATTERN:
        items = list(items[0][1][-1])
    return items


def _ambiguous(items: list[Any]) -> bool:
    """True when ``items`` is an unbounded repeat with nothing but optional items beside it (so a
    repetition of it can split one string in exponentially many ways), or a branch with such an arm."""
    if len(items) == 1 and items[0][0] == sre.BRANCH:
        return any(_ambiguous(_body(arm)) for arm in items[0][1][1])
    unbounded = [i[0] in _REPEATS and i[1][1] == sre.MAXREPEAT for i in items]
    rest = [i for i, u in zip(items, unbounded, strict=True) if not u and i[0] != sre.AT]
    return any(unbounded) and all(i[0] in _REPEATS and i[1][0] == 0 for i in rest)


def catastrophic(pattern: str) -> bool:
    r"""True when ``pattern`` repeats a repetition ambiguously, as ``(a+)+$`` or ``(\w+\s?)*$`` do:
    Python's regex engine backtracks exponentially on a near-miss. ``(?:\w+/)+`` is fine: the ``/``
    fixes where each repetition ends.

    >>> catastrophic(r"(a+)+$"), catastrophic(r"^(?:[\w-]+\.)+cn/\d+")
    (True, False)
    """
    stack = [list(sre.parse(pattern))]
    while stack:
        for op, av in stack.pop():
            if op in _REPEATS:
                low, high, sub = av
                if high > 1 and _ambiguous(_body(sub)):
                    return True
                stack.append(list(sub))
            elif op == sre.SUBPATTERN:
                stack.append(list(av[-1]))
            elif op == sre.BRANCH:
                stack.extend(list(arm) for arm in av[1])
            elif op in (sre.ASSERT, sre.ASSERT_NOT):
                stack.append(list(av[1]))
    return False


def _patterns(value: Any, source: str, field_name: str) -> tuple[re.Pattern[str], ...]:
    out = []
    for i, text in enumerate(_strings(value, source, field_name)):
        try:
            out.append(re.compile(text))
        except re.error as e:
            raise _fail(source, f"{field_name}[{i}]", f"bad regular expression {text!r}: {e}") from e
        if catastrophic(text):
            raise _fail(
                source,
                f"{field_name}[{i}]",
                f"{text!r} repeats a repetition ambiguously (as (a+)+ does): matching can take exponential "
                "time; make each repetition end on a fixed character",
            )
    return tuple(out)


_XPATH_STRINGS = re.compile(r"'[^']*'|\"[^\"]*\"")


def _check_xpath(expr: str, source: str, field_name: str) -> None:
    """Compile ``expr`` and run it once: an unknown variable or function compiles and then fails on
    every page. Variables are refused outright (none are ever bound; a predicate may not run here)."""
    if "$" in _XPATH_STRINGS.sub("", expr):
        problem = "it uses a variable ($...), and none are defined"
        raise _fail(source, field_name, f"bad XPath {expr!r}: {problem}")
    try:
        etree.XPath(expr)(_PROBE_PAGE)
    except etree.XPathError as e:
        raise _fail(source, field_name, f"bad XPath {expr!r}: {e}") from e


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
        _check_xpath(expr, source, f"xpath.exclude[{i}]")
    for key, expr in xpath.items():
        if not isinstance(expr, str):
            raise _fail(source, f"xpath.{key}", f"must be a string, not {expr!r}")
        _check_xpath(expr, source, f"xpath.{key}")
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
    if not 1 <= roll_values.get("pages", 1) <= MAX_ROLL_PAGES:
        pages = roll_values["pages"]
        raise _fail(source, "roll.pages", f"must be between 1 and {MAX_ROLL_PAGES:,}, not {pages}")

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

    render = data.get("render", False)
    render_patterns: tuple[re.Pattern[str], ...]
    if isinstance(render, bool):
        render_all, render_patterns = render, ()
    elif isinstance(render, list):
        render_all, render_patterns = False, _patterns(render, source, "render")
    else:
        raise _fail(source, "render", f"must be true, false or a list of URL patterns, not {render!r}")

    raw_settings = data.get("settings", {})
    names = set(raw_settings) if isinstance(raw_settings, Mapping) else set()
    settings = _table(data, "settings", source, names)
    for key, value in settings.items():
        if not _SETTING.match(key):
            raise _fail(source, f"settings.{key}", "Scrapy setting names are upper case, e.g. DOWNLOAD_DELAY")
        problem = scrapy_value_problem(key, value)
        if problem:
            raise _fail(source, f"settings.{key}", problem)

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
        render_all=render_all,
        render_patterns=render_patterns,
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


def read_sites(directory: str | Path | None = None) -> tuple[dict[str, Site], list[SiteFileError]]:
    """Every usable ``*.toml`` site file of ``directory`` (default :data:`DEFAULT_SITES_DIR`) by site name,
    and the error of each file that is not: a bad file disables itself only."""
    directory = Path(directory) if directory else DEFAULT_SITES_DIR
    if not directory.is_dir():
        return {}, [SiteFileError(str(directory), "(directory)", "no such directory of site files")]
    sites: dict[str, Site] = {}
    errors: list[SiteFileError] = []
    for path in sorted(directory.glob("*.toml")):
        try:
            site = load_site(path)
            if site.name in sites:
                first = sites[site.name].source
                raise _fail(str(path), "name", f"{site.name!r} is already defined by {first}")
        except SiteFileError as e:
            errors.append(e)
            continue
        sites[site.name] = site
    return sites, errors


def load_sites(directory: str | Path | None = None) -> dict[str, Site]:
    """Every ``*.toml`` site file of ``directory`` by site name; :class:`SiteFileError` for a bad one."""
    sites, errors = read_sites(directory)
    if errors:
        raise errors[0]
    return sites
