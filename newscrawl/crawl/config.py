"""Start-up checks: a bad setting or an output path that cannot be written stops a crawl before it starts.

Every check raises :class:`ConfigError`, whose message starts with what is wrong (the setting, the
argument or the path), e.g. ``NEWSCRAWL_SQLITE_PATH: cannot write /data/x.sqlite3: Read-only file
system``. ``scrapy crawl`` (:mod:`newscrawl.commands.crawl`) and ``newscrawl`` print it as one line,
without a traceback. :class:`ConfigAddon` runs :func:`check_settings` on every crawl's final settings
(project, site file, command line): newscrawl's true/false and numeric settings, the per-page limits,
the extractor and its ``NEWSCRAWL_<ALGO>_<PARAM>`` parameters (unknown names too), the replay prefix,
and the SQLite and feed files. Site files (:class:`~newscrawl.crawl.sites.SiteFileError`) and spider
arguments raise ConfigErrors too.

>>> try:
...     check_output_file("/dev/null/x.sqlite3", "NEWSCRAWL_SQLITE_PATH")
... except ConfigError as e:
...     print(e)
NEWSCRAWL_SQLITE_PATH: cannot create the folder /dev/null: /dev/null is not a folder
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from scrapy.settings import BaseSettings


class ConfigError(ValueError):
    """A setting, argument or output path that cannot be used; the message names it."""


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

#: newscrawl's true/false settings
BOOL_SETTINGS = (
    "NEWSCRAWL_EXTRACT_ENABLED", "NEWSCRAWL_EXPORT_FIGURES", "NEWSCRAWL_SEARCH_INDEX", "NEWSCRAWL_DEDUP",
    "NEWSCRAWL_INCREMENTAL",
)  # fmt: skip
#: newscrawl's whole-number settings and their (lowest, highest) values; None: no bound
INT_SETTINGS: dict[str, tuple[int | None, int | None]] = {
    "NEWSCRAWL_MIN_TEXT_CHARS": (0, None),
    "NEWSCRAWL_SINK_BATCH_SIZE": (1, None),
    "NEWSCRAWL_DUPLICATE_MAX_DISTANCE": (0, 63),  # a Hamming distance between 64-bit SimHashes
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


def check_algorithm_settings(settings: BaseSettings) -> None:
    """``NEWSCRAWL_ALGORITHM`` is a known extractor; every ``NEWSCRAWL_<ALGO>_<PARAM>`` a known, typed
    parameter of a known algorithm."""
    from newscrawl.extract import ALGORITHMS, params_of
    from newscrawl.pipelines.extraction import algorithm_params, check_algorithm

    check_algorithm(settings.get("NEWSCRAWL_ALGORITHM", "auto"))
    for algorithm in ALGORITHMS:
        prefix = f"NEWSCRAWL_{algorithm.upper()}_"
        known = {name.upper() for name in params_of(algorithm)}
        for name in settings:
            if isinstance(name, str) and name.startswith(prefix) and name[len(prefix) :] not in known:
                choices = ", ".join(prefix + k for k in sorted(known)) or "none"
                raise ConfigError(f"{name}: {algorithm} has no such parameter; its parameters: {choices}")
        algorithm_params(settings, algorithm)


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
    for name in BOOL_SETTINGS:
        try:
            settings.getbool(name)
        except ValueError as e:
            raise ConfigError(f"{name}: expected true or false, got {settings.get(name)!r}") from e
    for name, (low, high) in INT_SETTINGS.items():
        _check_int(settings, name, low, high)
    check_algorithm_settings(settings)
    from newscrawl.pipelines.extraction import limits_from_settings

    limits_from_settings(settings)
    prefix = settings.get("NEWSCRAWL_REPLAY_PREFIX")
    if prefix and not str(prefix).startswith(("http://", "https://")):
        raise ConfigError(f"NEWSCRAWL_REPLAY_PREFIX: not an http(s) URL prefix: {prefix!r}")
    path = settings.get("NEWSCRAWL_SQLITE_PATH")
    if path and path != ":memory:":
        check_output_file(path, "NEWSCRAWL_SQLITE_PATH")
    for uri, file in feed_files(settings):
        check_output_file(file, f"feed {uri}")


class ConfigAddon:
    """Add-on (in ``ADDONS``): :func:`check_settings` on the crawl's final settings, before it starts."""

    def update_settings(self, settings: BaseSettings) -> None:
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
