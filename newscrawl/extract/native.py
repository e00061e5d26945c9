"""The optional C pass of the statistics (``newscrawl.extract._cstats``) and of auto's content scores
(``newscrawl.extract._cscores``), and which one runs.

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


def _load(name: str = "_cstats") -> tuple[ModuleType | None, str]:
    # an environment variable, not a setting: it is read once, when the library is imported
    if os.environ.get("NEWSCRAWL_PURE_PYTHON") not in (None, "", "0"):
        return None, "NEWSCRAWL_PURE_PYTHON is set"
    if importlib.util.find_spec(f"newscrawl.extract.{name}") is None:
        return None, "C extension not built: no C compiler at install"
    try:
        module = importlib.import_module(f"newscrawl.extract.{name}")
    except ImportError as e:  # built for another Python, or lxml's element layout differs
        return None, f"C extension not loaded: {e}"
    return module, f"newscrawl.extract.{name}"


#: the C extension module, or None when the pure-Python code runs
cstats, _WHY = _load()
#: auto's content scores in C (``_cscores``, built and chosen as ``_cstats`` is), or None
cscores, _ = _load("_cscores")
#: "C" or "Python": which statistics pass runs
IMPLEMENTATION = "C" if cstats is not None else "Python"


def describe() -> str:
    """One line for users: which statistics pass runs, and why.

    >>> describe().startswith(("statistics pass: C", "statistics pass: Python"))
    True
    """
    return f"statistics pass: {IMPLEMENTATION} ({_WHY})"
