"""Body-extraction algorithms, one module per source document, registered by name.

``REGISTRY`` maps each name to its :class:`Algorithm`; an algorithm's module is imported when it is first
asked for, so a process that runs ``auto`` only never loads the six others (start-up cost, issue 13).

>>> list(REGISTRY)[:2], REGISTRY["cetd"].name
(['auto', 'blockstats'], 'cetd')
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping

from newscrawl.extract.algorithms import base
from newscrawl.extract.algorithms.base import Algorithm

#: every algorithm's name and the module that registers it (``@register``), in the order listed to users
MODULES: Mapping[str, str] = {
    name: f"newscrawl.extract.algorithms.{name}"
    for name in ("auto", "blockstats", "cetd", "linedensity", "nodeweight", "samedepth", "scedd")
}


class _Registry(Mapping[str, Algorithm]):
    """The algorithms by name, each module imported on first lookup."""

    def __getitem__(self, name: str) -> Algorithm:
        module = MODULES.get(name)
        if module is None:
            raise KeyError(name)
        importlib.import_module(module)
        return base.REGISTRY[name]

    def __iter__(self) -> Iterator[str]:
        return iter(MODULES)

    def __len__(self) -> int:
        return len(MODULES)


REGISTRY: Mapping[str, Algorithm] = _Registry()

__all__ = ["MODULES", "REGISTRY", "Algorithm"]
