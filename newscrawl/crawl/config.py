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

import difflib
import logging
import math
import os
import sqlite3
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any
from urllib.parse import unquote, urlsplit

from scrapy.settings import BaseSettings, default_settings

from newscrawl.crawl.defaults import DEFAULTS
from newscrawl.crawl.errors import ConfigError  # its own module: importable without Scrapy
from newscrawl.extract import ALGORITHMS, Limits, params_of
from newscrawl.extract.limits import DEFAULT_LIMITS

logger = logging.getLogger(__name__)


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
    "NEWSCRAWL_MAX_FEED_ENTRIES": (1, None),
    "NEWSCRAWL_DUPLICATE_MAX_DISTANCE": (0, 63),  # a Hamming distance between 64-bit SimHashes
    "NEWSCRAWL_WARC_MAX_BYTES": (1_000, None),
}


#: newscrawl's settings in seconds and their lowest values (read with getfloat; must be finite)
FLOAT_SETTINGS: dict[str, float] = {
    "NEWSCRAWL_POSTGRES_RETRY_SECONDS": 0.0,
    "NEWSCRAWL_REDIS_POLL_INTERVAL": 0.0,
    "NEWSCRAWL_REDIS_IDLE_CLOSE": 0.0,
    # 0 is refused by the components themselves (a timeout or limit of 0 s would fail every call)
    "NEWSCRAWL_REDIS_TIMEOUT": 0.0,
    "NEWSCRAWL_REDIS_OUTAGE_LIMIT": 0.0,
    "NEWSCRAWL_POSTGRES_TIMEOUT": 0.0,
}
def scrapy_value_problem(name: str, value: Any) -> str | None:
    """What is wrong with ``value`` for Scrapy's numeric setting ``name`` (None: nothing, or not one of
    Scrapy's numeric settings). ``DOWNLOAD_DELAY = "fast"`` would fail deep inside Scrapy.

    >>> scrapy_value_problem("DOWNLOAD_DELAY", "fast"), scrapy_value_problem("DOWNLOAD_DELAY", "0.5")
    ("expected a number, got 'fast'", None)
    """
    default = getattr(default_settings, name, None)
    if isinstance(default, bool) or not isinstance(default, int | float) or value is None:
        return None
    if isinstance(value, bool):  # Scrapy writes some switches as 0/1 (TELNETCONSOLE_ENABLED)
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return f"expected a number, got {value!r}"
    if not math.isfinite(number):
        return f"expected a finite number, got {value!r}"
    return None


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
    "max_attributes": "NEWSCRAWL_MAX_ATTRIBUTES",
    "max_text_chars": "NEWSCRAWL_MAX_TEXT_CHARS",
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
        if not math.isfinite(number):
            raise ConfigError(f"{key}: must be a finite number (0: no limit), got {raw!r}")
        if number < 0:
            raise ConfigError(f"{key}: must be 0 (no limit) or more, got {raw!r}")
        values[field_name] = number or None
    try:
        return Limits(**values)  # type: ignore[arg-type]
    except ValueError as e:
        raise ConfigError(str(e)) from e


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


def _check_float(settings: BaseSettings, name: str, low: float) -> None:
    raw = settings.get(name)
    if raw is None or raw == "":
        return
    try:
        value = float(raw)
    except (TypeError, ValueError) as e:
        raise ConfigError(f"{name}: expected a number of seconds, got {raw!r}") from e
    if not math.isfinite(value) or value < low:
        raise ConfigError(f"{name}: must be a finite number of seconds, at least {low:g}, got {raw!r}")


def known_settings() -> set[str]:
    """Every ``NEWSCRAWL_*`` name newscrawl reads."""
    names = set(DEFAULTS)
    for algorithm in ALGORITHMS:
        names |= {f"NEWSCRAWL_{algorithm.upper()}_{p.upper()}" for p in params_of(algorithm)}
    return names


def warn_unknown_settings(settings: BaseSettings) -> list[str]:
    """Log a warning for each ``NEWSCRAWL_*`` setting newscrawl does not read (a typo is otherwise
    silently ignored), naming the closest known one; the warnings given."""
    known = known_settings()
    warnings = []
    for name in sorted(n for n in settings if isinstance(n, str) and n.startswith("NEWSCRAWL_")):
        if name in known:
            continue
        # compared without the prefix every name shares, which would make any two look alike
        prefix = len("NEWSCRAWL_")
        close = difflib.get_close_matches(name[prefix:], [k[prefix:] for k in known], n=1, cutoff=0.75)
        hint = f"; did you mean NEWSCRAWL_{close[0]}?" if close else ""
        warnings.append(f"{name}: unknown newscrawl setting, ignored{hint}")
        logger.warning("%s", warnings[-1])
    return warnings


def check_store(path: str | Path, what: str = "NEWSCRAWL_SQLITE_PATH") -> None:
    """Raise ConfigError when an existing file at ``path`` is not a readable SQLite database."""
    path = Path(path)
    if not path.is_file() or path.stat().st_size == 0:
        return
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
        try:
            conn.execute("PRAGMA schema_version").fetchone()
        finally:
            conn.close()
    except sqlite3.DatabaseError as e:
        raise ConfigError(f"{what}: {path} is not a usable SQLite database: {e}") from e


def check_output_folder(path: str | Path, what: str) -> Path:
    """Make sure the folder ``path`` exists (creating it) and can be written, or raise ConfigError."""
    folder = Path(path)
    check_output_file(folder / ".newscrawl-write-test", what)
    return folder


def check_redis(url: str) -> None:
    """Raise ConfigError unless ``url`` is a Redis URL whose server answers a PING."""
    try:
        import redis
    except ImportError:
        return  # the add-on says scrapy-redis is missing
    where = urlsplit(url).netloc.rpartition("@")[2] if "://" in url else url
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
    except ValueError as e:
        example = "redis://127.0.0.1:6379/0"
        raise ConfigError(f"NEWSCRAWL_REDIS_URL: not a Redis URL such as {example}: {e}") from e
    try:
        client.ping()
    except redis.RedisError as e:
        from newscrawl.storage.redact import redact, secrets_of

        reason = redact(str(e), secrets_of(url))
        raise ConfigError(f"NEWSCRAWL_REDIS_URL: Redis at {where} unreachable: {reason}") from None
    finally:
        client.close()


def check_postgres(dsn: str) -> None:
    """Raise ConfigError unless PostgreSQL at ``dsn`` accepts a connection (no password in the message)."""
    try:
        import psycopg
    except ImportError:
        return  # the pipeline says psycopg is missing
    from newscrawl.storage.postgres import check_dsn, describe_dsn
    from newscrawl.storage.redact import redact, secrets_of

    try:
        check_dsn(dsn)  # a DSN libpq cannot parse: its message may quote the password
    except ValueError as e:
        raise ConfigError(f"NEWSCRAWL_POSTGRES_DSN: {e}") from None
    where = describe_dsn(dsn)
    try:
        psycopg.connect(dsn, connect_timeout=5).close()
    except psycopg.Error as e:
        reason = "; ".join(line.strip() for line in str(e).splitlines() if line.strip())
        reason = redact(reason, secrets_of(dsn))
        raise ConfigError(f"NEWSCRAWL_POSTGRES_DSN: PostgreSQL at {where} unreachable: {reason}") from None


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
    for name, least in FLOAT_SETTINGS.items():
        _check_float(settings, name, least)
    for name in settings:
        # Scrapy's own defaults are right (and reading a deprecated one warns): only what was set
        if not isinstance(name, str) or (settings.getpriority(name) or 0) <= 0:
            continue
        problem = scrapy_value_problem(name, settings.get(name))
        if problem:
            raise ConfigError(f"{name}: {problem}")
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
        check_store(path)
    for uri, file in feed_files(settings):
        check_output_file(file, f"feed {uri}")
    if settings.get("JOBDIR"):
        check_output_folder(settings["JOBDIR"], "JOBDIR")
    warn_unknown_settings(settings)


def check_services(settings: BaseSettings) -> None:
    """The Redis and PostgreSQL servers the settings (or environment) name answer; or ConfigError."""
    redis_url = settings.get("NEWSCRAWL_REDIS_URL") or os.environ.get("NEWSCRAWL_REDIS_URL")
    if redis_url:
        check_redis(str(redis_url))
    dsn = settings.get("NEWSCRAWL_POSTGRES_DSN") or os.environ.get("NEWSCRAWL_POSTGRES_DSN")
    if dsn:
        check_postgres(str(dsn))


class ConfigAddon:
    """Add-on (in ``ADDONS``): newscrawl's defaults for what nothing else set, then :func:`check_settings`
    and :func:`check_services` on the crawl's final settings, before it starts."""

    def update_settings(self, settings: BaseSettings) -> None:
        apply_defaults(settings)
        check_settings(settings)
        check_services(settings)


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
