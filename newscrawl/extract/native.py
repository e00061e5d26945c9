"""The optional C pass of the statistics (``newscrawl.extract._cstats``), and which one runs.

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
import os
from types import ModuleType


def _load() -> tuple[ModuleType | None, str]:
    # an environment variable, not a setting: it is read once, when the library is imported
    if os.environ.get("NEWSCRAWL_PURE_PYTHON") not in (None, "", "0"):
        return None, "NEWSCRAWL_PURE_PYTHON is set"
    if importlib.util.find_spec("newscrawl.extract._cstats") is None:
        return None, "C extension not built: no C compiler at install"
    try:
        from newscrawl.extract import _cstats
    except ImportError as e:  # built for another Python, or lxml's element layout differs
        return None, f"C extension not loaded: {e}"
    return _cstats, "newscrawl.extract._cstats"


#: the C extension module, or None when the pure-Python code runs
cstats, _WHY = _load()
#: "C" or "Python": which statistics pass runs
IMPLEMENTATION = "C" if cstats is not None else "Python"


def describe() -> str:
    """One line for users: which statistics pass runs, and why.

    >>> describe().startswith(("statistics pass: C", "statistics pass: Python"))
    True
    """
    return f"statistics pass: {IMPLEMENTATION} ({_WHY})"
