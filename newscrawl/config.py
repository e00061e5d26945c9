"""Start-up checks: a bad setting or an output path that cannot be written stops a crawl before it starts.

Every check raises :class:`ConfigError`, whose message starts with what is wrong (the setting, the
argument or the path), e.g. ``NEWSCRAWL_SQLITE_PATH: cannot write /data/x.sqlite3: Read-only file
system``. ``scrapy crawl`` and ``newscrawl`` print it as one line, without a traceback.

>>> try:
...     check_output_file("/dev/null/x.sqlite3", "NEWSCRAWL_SQLITE_PATH")
... except ConfigError as e:
...     print(e)
NEWSCRAWL_SQLITE_PATH: cannot create the folder /dev/null: /dev/null is not a folder
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


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
