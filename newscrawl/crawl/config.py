"""Start-up checks: a bad setting or an output path that cannot be written stops a crawl before it starts.

Every check raises :class:`ConfigError`, whose message starts with what is wrong (the setting, the
argument or the path), e.g. ``NEWSCRAWL_SQLITE_PATH: cannot write /data/x.sqlite3: Read-only file
system``. ``scrapy crawl`` (:mod:`newscrawl.commands.crawl`) and ``newscrawl`` print it as one line,
without a traceback. :class:`ConfigAddon` runs :func:`check_settings` on every crawl's final settings
(project, site file, command line), after giving them newscrawl's defaults
(:mod:`newscrawl.crawl.defaults`) for what none of those set: newscrawl's true/false and numeric
settings, the per-page limits, the extraction workers and their kill limit, the extractor and its
``NEWSCRAWL_<ALGO>_<PARAM>`` parameters (unknown names too), the replay prefix, and the SQLite and feed
files. Site files (:class:`~newscrawl.crawl.sites.SiteFileError`) and spider arguments raise ConfigErrors
too.

>>> try:
...     check_output_file("/dev/null/x.sqlite3", "NEWSCRAWL_SQLITE_PATH")
... except ConfigError as e:
...     print(e)
NEWSCRAWL_SQLITE_PATH: cannot create the folder /dev/null: /dev/null is not a folder
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any
from urllib.parse import unquote, urlsplit

from scrapy.settings import BaseSettings

from newscrawl.crawl.defaults import DEFAULTS
from newscrawl.crawl.errors import ConfigError  # its own module: importable without Scrapy
from newscrawl.extract import ALGORITHMS, Limits, params_of
from newscrawl.extract.limits import DEFAULT_LIMITS


def _reason(e: OSError) -> str:
    return e.strerror or str(e)


def check_output_file(path: str | Path, what: str) -> Path:
    """Make sure ``path`` can be written (creating its folder), or raise :class:`ConfigError`.

    An existing file is opened for appending (never truncated); otherwise a probe file is created and
    removed next to it. ``what`` names the setting or option the path came from.
    """
    path = Path(path)
    if path.is_dir():
        raise ConfigError(f"{what}: {path} is a folder; give a file name")
    folder = path.parent
    for above in (folder, *folder.parents):
        if above.exists():
            if not above.is_dir():
                raise ConfigError(f"{what}: cannot create the folder {folder}: {above} is not a folder")
            break
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ConfigError(f"{what}: cannot create the folder {folder}: {_reason(e)}") from e
    try:
        if path.exists():
            with path.open("ab"):
                pass
        else:
            fd, probe = tempfile.mkstemp(dir=folder, prefix=".newscrawl-write-test-")
            os.close(fd)
            os.unlink(probe)
    except OSError as e:
        raise ConfigError(f"{what}: cannot write {path}: {_reason(e)}") from e
    return path


# -- settings -------------------------------------------------------------------------------------------


def apply_defaults(settings: BaseSettings) -> None:
    """Give ``settings`` every :mod:`newscrawl.crawl.defaults` value it lacks, at ``default`` priority."""
    for name, value in DEFAULTS.items():
        if settings.getpriority(name) is None:
            settings.set(name, value, priority="default")


def with_defaults(settings: BaseSettings | Mapping[str, Any]) -> BaseSettings:
    """``settings`` when it carries every newscrawl default already (a crawl's, after
    :class:`ConfigAddon`), otherwise a copy that does (settings built without the project's add-ons).

    >>> with_defaults({"NEWSCRAWL_SINK_BATCH_SIZE": 5}).getint("NEWSCRAWL_SINK_BATCH_SIZE")
    5
    >>> with_defaults({}).get("NEWSCRAWL_SQLITE_PATH")
    'output/newscrawl.sqlite3'
    """
    if isinstance(settings, BaseSettings):
        if all(settings.getpriority(name) is not None for name in DEFAULTS):
            return settings
        out = settings.copy()
        out.frozen = False  # a copy of a crawl's frozen settings, never the crawl's own
    else:
        out = BaseSettings(dict(settings), "project")
    apply_defaults(out)
    return out


#: newscrawl's true/false settings
BOOL_SETTINGS = (
    "NEWSCRAWL_EXTRACT_ENABLED", "NEWSCRAWL_EXPORT_FIGURES", "NEWSCRAWL_SEARCH_INDEX", "NEWSCRAWL_DEDUP",
    "NEWSCRAWL_INCREMENTAL", "NEWSCRAWL_CRAWL_HISTORY",
)  # fmt: skip
#: newscrawl's whole-number settings and their (lowest, highest) values; None: no bound
INT_SETTINGS: dict[str, tuple[int | None, int | None]] = {
    "NEWSCRAWL_MIN_TEXT_CHARS": (0, None),
    "NEWSCRAWL_SINK_BATCH_SIZE": (1, None),
    "NEWSCRAWL_DUPLICATE_MAX_DISTANCE": (0, 63),  # a Hamming distance between 64-bit SimHashes
    "NEWSCRAWL_WARC_MAX_BYTES": (1_000, None),
}


def _check_int(settings: BaseSettings, name: str, low: int | None, high: int | None) -> None:
    raw = settings.get(name)
    try:
        value = settings.getint(name)
    except (TypeError, ValueError) as e:
        raise ConfigError(f"{name}: expected a whole number, got {raw!r}") from e
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"between {low} and {high}" if high is not None else f"at least {low}"
        raise ConfigError(f"{name}: must be {bounds}, got {raw!r}")


def check_algorithm(algorithm: str) -> None:
    """Raise :class:`ConfigError` unless ``algorithm`` is one of :data:`newscrawl.extract.ALGORITHMS`."""
    if algorithm not in ALGORITHMS:
        choices = ", ".join(ALGORITHMS)
        raise ConfigError(f"NEWSCRAWL_ALGORITHM: unknown algorithm {algorithm!r}; one of {choices}")


#: how a true/false parameter may be written in a setting
_BOOLS = {
    "1": True, "true": True, "yes": True, "on": True, "0": False, "false": False, "no": False, "off": False,
}  # fmt: skip


def algorithm_params(settings: Mapping[str, Any], algorithm: str) -> dict[str, Any]:
    """Parameters of ``algorithm`` set as ``NEWSCRAWL_<ALGO>_<PARAM>`` settings, typed like the defaults.

    >>> algorithm_params({"NEWSCRAWL_CETD_USE_COMPOSITE": "false"}, "cetd")
    {'use_composite': False}
    """
    out: dict[str, Any] = {}
    for name, default in params_of(algorithm).items():
        key = f"NEWSCRAWL_{algorithm.upper()}_{name.upper()}"
        value = settings.get(key)
        if value is None:
            continue
        try:
            if isinstance(default, bool):
                value = value if isinstance(value, bool) else _BOOLS[str(value).strip().lower()]
            elif isinstance(default, int | float):
                value = type(default)(value)
        except (KeyError, TypeError, ValueError) as e:
            raise ConfigError(f"{key}: expected {type(default).__name__}, got {value!r}") from e
        out[name] = value
    return out


def check_algorithm_settings(settings: BaseSettings) -> None:
    """``NEWSCRAWL_ALGORITHM`` is a known extractor; every ``NEWSCRAWL_<ALGO>_<PARAM>`` a known, typed
    parameter of a known algorithm."""
    check_algorithm(settings.get("NEWSCRAWL_ALGORITHM"))
    for algorithm in ALGORITHMS:
        prefix = f"NEWSCRAWL_{algorithm.upper()}_"
        known = {name.upper() for name in params_of(algorithm)}
        for name in settings:
            if isinstance(name, str) and name.startswith(prefix) and name[len(prefix) :] not in known:
                choices = ", ".join(prefix + k for k in sorted(known)) or "none"
                raise ConfigError(f"{name}: {algorithm} has no such parameter; its parameters: {choices}")
        algorithm_params(settings, algorithm)


#: the settings of the per-page limits (newscrawl.extract.limits), by Limits field; 0 switches one off
LIMIT_SETTINGS = {
    "max_body_bytes": "NEWSCRAWL_MAX_BODY_BYTES",
    "max_nodes": "NEWSCRAWL_MAX_NODES",
    "max_depth": "NEWSCRAWL_MAX_DEPTH",
    "time_budget": "NEWSCRAWL_TIME_BUDGET",
}


def limits_from_settings(settings: Mapping[str, Any] | BaseSettings) -> Limits:
    """The per-page :class:`~newscrawl.extract.Limits` the ``NEWSCRAWL_MAX_*``/``NEWSCRAWL_TIME_BUDGET``
    settings give (unset: the library's default; 0: no limit)."""
    values: dict[str, int | float | None] = {}
    for field_name, key in LIMIT_SETTINGS.items():
        raw = settings.get(key)
        if raw is None or raw == "":
            values[field_name] = getattr(DEFAULT_LIMITS, field_name)
            continue
        kind = float if field_name == "time_budget" else int
        try:
            number = kind(raw)
        except (TypeError, ValueError) as e:
            raise ConfigError(f"{key}: expected a number (0: no limit), got {raw!r}") from e
        if number < 0:
            raise ConfigError(f"{key}: must be 0 (no limit) or more, got {raw!r}")
        values[field_name] = number or None
    return Limits(**values)  # type: ignore[arg-type]


def extract_workers(settings: Mapping[str, Any] | BaseSettings) -> int:
    """Worker processes ``NEWSCRAWL_EXTRACT_WORKERS`` asks for (None or '': CPUs - 1, at least 1)."""
    from newscrawl.crawl.workers import default_workers

    raw = settings.get("NEWSCRAWL_EXTRACT_WORKERS")
    if raw is None or raw == "":
        return default_workers()
    try:
        workers = int(raw)
    except (TypeError, ValueError) as e:
        raise ConfigError(
            f"NEWSCRAWL_EXTRACT_WORKERS: expected a whole number (0: inline), got {raw!r}"
        ) from e
    if workers < 0:
        raise ConfigError(f"NEWSCRAWL_EXTRACT_WORKERS: must be 0 (inline) or more, got {raw!r}")
    return workers


def kill_after(settings: Mapping[str, Any] | BaseSettings) -> float | None:
    """Seconds ``NEWSCRAWL_EXTRACT_KILL_AFTER`` gives a worker on one page (0, None or '': never killed)."""
    raw = settings.get("NEWSCRAWL_EXTRACT_KILL_AFTER")
    if raw is None or raw == "":
        return None
    try:
        seconds = float(raw)
    except (TypeError, ValueError) as e:
        raise ConfigError(f"NEWSCRAWL_EXTRACT_KILL_AFTER: expected seconds (0: never), got {raw!r}") from e
    if seconds < 0:
        raise ConfigError(f"NEWSCRAWL_EXTRACT_KILL_AFTER: must be 0 (never) or more, got {raw!r}")
    return seconds or None


@dataclass(frozen=True)
class ExtractorOptions:
    """What every extraction of a crawl uses, in the pipeline and in the spider (which extracts pages no
    URL pattern classifies): the algorithm, its parameters and the per-page limits.

    >>> ExtractorOptions.from_settings({"NEWSCRAWL_ALGORITHM": "cetd", "NEWSCRAWL_MAX_NODES": "0"})
    ... # doctest: +ELLIPSIS
    ExtractorOptions(algorithm='cetd', params=mappingproxy({}), limits=Limits(..., max_nodes=None, ...))
    """

    algorithm: str = "auto"
    #: keyword parameters of the algorithm (read-only)
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)
    limits: Limits = DEFAULT_LIMITS

    def __post_init__(self) -> None:
        check_algorithm(self.algorithm)
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any] | BaseSettings) -> ExtractorOptions:
        """The options ``NEWSCRAWL_ALGORITHM``, ``NEWSCRAWL_<ALGO>_<PARAM>`` and the limit settings give;
        :class:`ConfigError` naming the setting when one is wrong."""
        settings = with_defaults(settings)
        algorithm = settings.get("NEWSCRAWL_ALGORITHM")
        check_algorithm(algorithm)
        return cls(algorithm, algorithm_params(settings, algorithm), limits_from_settings(settings))


def feed_files(settings: BaseSettings) -> list[tuple[str, Path]]:
    """(URI, path) of every feed (``FEEDS``, ``-o``, ``-O``) written to a local file."""
    out = []
    for uri in settings.getdict("FEEDS"):
        text = str(uri)
        if "%(" in text:  # named per crawl (%(name)s, %(time)s): known only when the feed opens
            continue
        parts = urlsplit(text)
        if parts.scheme == "file":
            out.append((text, Path(unquote(parts.path))))
        elif len(parts.scheme) <= 1:  # no scheme, or a Windows drive letter
            out.append((text, Path(text)))
    return out


def check_settings(settings: BaseSettings) -> None:
    """Every newscrawl setting has a usable value and every output file can be written; or ConfigError."""
    settings = with_defaults(settings)
    for name in BOOL_SETTINGS:
        try:
            settings.getbool(name)
        except ValueError as e:
            raise ConfigError(f"{name}: expected true or false, got {settings.get(name)!r}") from e
    for name, (low, high) in INT_SETTINGS.items():
        _check_int(settings, name, low, high)
    check_algorithm_settings(settings)
    limits_from_settings(settings)
    extract_workers(settings)
    kill_after(settings)
    prefix = settings.get("NEWSCRAWL_REPLAY_PREFIX")
    if prefix and not str(prefix).startswith(("http://", "https://")):
        raise ConfigError(f"NEWSCRAWL_REPLAY_PREFIX: not an http(s) URL prefix: {prefix!r}")
    path = settings.get("NEWSCRAWL_SQLITE_PATH")
    if path and path != ":memory:":
        check_output_file(path, "NEWSCRAWL_SQLITE_PATH")
    for uri, file in feed_files(settings):
        check_output_file(file, f"feed {uri}")


class ConfigAddon:
    """Add-on (in ``ADDONS``): newscrawl's defaults for what nothing else set, then :func:`check_settings`
    on the crawl's final settings, before it starts."""

    def update_settings(self, settings: BaseSettings) -> None:
        apply_defaults(settings)
        check_settings(settings)


def on_start_up_error(handle: Any, callback: Callable[[BaseException], None]) -> None:
    """Call ``callback`` with the exception a crawl ended with, instead of logging its traceback.

    ``handle`` is what ``CrawlerProcess.crawl`` (a Deferred) or ``AsyncCrawlerProcess.crawl`` (an
    asyncio task) returns.
    """
    if hasattr(handle, "addErrback"):

        def errback(failure: Any) -> None:
            callback(failure.value)

        handle.addErrback(errback)
        return

    def done(task: Any) -> None:
        if not task.cancelled() and task.exception() is not None:
            callback(task.exception())

    handle.add_done_callback(done)
