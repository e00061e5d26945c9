r"""Regular expressions compiled on first use, so that importing the library stays cheap.

``re.compile`` runs Python's regex compiler at import time; a class such as ``[\u3400-\u9fff]`` alone
costs about a millisecond (the compiler visits each of its 27,000 code points), and the metadata chains
hold dozens of such patterns, most of which a given page never reaches. ``lazy_compile`` returns a
stand-in that compiles on its first use and from then on hands out the compiled pattern's own bound
methods (``search``, ``sub``...), so a call costs what it costs on a ``re.Pattern``.

>>> han = lazy_compile(r"[\u3400-\u9fff]+")
>>> han.findall("北京 Beijing 上海")
['北京', '上海']
>>> han.pattern, han.flags == re.compile(han.pattern).flags
('[\\u3400-\\u9fff]+', True)

Pass it where a ``re.Pattern`` is expected, but not to the ``re`` module's functions (``re.sub(p, ...)``
wants a real pattern or a string): call its methods instead.
"""

from __future__ import annotations

import re
from typing import Any, AnyStr, cast


class _LazyPattern:
    """Compiles ``re.compile(pattern, flags)`` when an attribute other than ``pattern`` is first read."""

    def __init__(self, pattern: str | bytes, flags: int) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str) -> Any:
        # reached only for attributes not yet set on the instance: compile, then keep the attribute on
        # the instance so that later reads never come here again
        if name.startswith("__"):
            raise AttributeError(name)
        compiled = re.compile(self.pattern, self._flags)
        value = getattr(compiled, name)
        setattr(self, name, value)
        return value

    def __repr__(self) -> str:
        return f"lazy_compile({self.pattern!r}, {self._flags!r})"


def lazy_compile(pattern: AnyStr, flags: int | re.RegexFlag = 0) -> re.Pattern[AnyStr]:
    """``re.compile(pattern, flags)``, compiled when first used (see the module docstring)."""
    return cast("re.Pattern[AnyStr]", _LazyPattern(pattern, int(flags)))
