"""The optional C pass of the statistics (``newscrawl.extract._cstats``), of auto's content scores
(``newscrawl.extract._cscores``) and of the SimHash of near-duplicate detection
(``newscrawl.extract._csimhash``, used by ``newscrawl.storage.dedup``), and which one runs.

``setup.py`` builds the extension when a C compiler is there; without one everything works the same through
the pure-Python code, which stays the reference (tests hold the two equal list by list). Setting
``NEWSCRAWL_PURE_PYTHON=1`` before the library is imported runs the pure-Python code even where the
extension is built. :data:`IMPLEMENTATION` says which runs (``newscrawl --version`` and ``newscrawl bench``
show it).

>>> IMPLEMENTATION in ("C", "Python")
True
"""

from __future__ import annotations

import importlib.util
import logging
import os
from pathlib import Path
from types import ModuleType

logger = logging.getLogger(__name__)


def _load(name: str = "_cstats") -> tuple[ModuleType | None, str]:
    # an environment variable, not a setting: it is read once, when the library is imported
    if os.environ.get("NEWSCRAWL_PURE_PYTHON") not in (None, "", "0"):
        return None, "NEWSCRAWL_PURE_PYTHON is set"
    spec = importlib.util.find_spec(f"newscrawl.extract.{name}")
    if spec is None:
        return None, "C extension not built: no C compiler at install"
    stale = stale_build(Path(spec.origin)) if spec.origin else None
    if stale:
        logger.warning("newscrawl: %s; the pure-Python code runs, with the same records", stale)
        return None, stale
    try:
        module = importlib.import_module(f"newscrawl.extract.{name}")
    except ImportError as e:  # built for another Python, or lxml's element layout differs
        return None, f"C extension not loaded: {e}"
    return module, f"newscrawl.extract.{name}"


def stale_build(built: Path) -> str | None:
    """Why the built extension ``built`` must not be loaded, when its C source beside it (a checkout, an
    editable install) is newer than it: a ``git pull`` that changed the source leaves the old build in
    place, whose functions may take other arguments (every page would fail). None when it is not older,
    or when no source is beside it (a wheel ships none).

    >>> stale_build(Path("/nowhere/_cstats.cpython-311-x86_64-linux-gnu.so")) is None
    True
    """
    source = built.with_name(built.name.split(".", 1)[0] + ".c")
    try:
        if source.stat().st_mtime <= built.stat().st_mtime:
            return None
    except OSError:
        return None
    return f"C extension {built.name} is older than {source.name}: rebuild it with pip install -e ."


#: the C extension module, or None when the pure-Python code runs
cstats, _WHY = _load()
#: auto's content scores in C (``_cscores``, built and chosen as ``_cstats`` is), or None
cscores, _WHY_SCORES = _load("_cscores")
#: the SimHash in C (``_csimhash``, built and chosen as ``_cstats`` is), or None
csimhash, _WHY_SIMHASH = _load("_csimhash")
#: "C" or "Python": which statistics pass runs
IMPLEMENTATION = "C" if cstats is not None else "Python"


def describe() -> str:
    """One line for users: which statistics pass, content scores and SimHash run, and why (an extension
    built from an older checkout may hold the one and not the others).

    >>> describe().startswith(("statistics pass: C", "statistics pass: Python"))
    True
    >>> ", content scores: " in describe() and ", SimHash: " in describe()
    True
    """
    scores = "C" if cscores is not None else "Python"
    fingerprints = "C" if csimhash is not None else "Python"
    return (
        f"statistics pass: {IMPLEMENTATION} ({_WHY}), content scores: {scores} ({_WHY_SCORES}), "
        f"SimHash: {fingerprints} ({_WHY_SIMHASH})"
    )
