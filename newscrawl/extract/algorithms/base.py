"""The extractor registry: every body-extraction algorithm, by name, with its parameter defaults."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from newscrawl.extract.page import Page
from newscrawl.extract.result import BodyResult

ExtractFn = Callable[[Page, Any], BodyResult]


@dataclass(frozen=True, slots=True)
class Algorithm:
    """A named extractor: ``run(page, params)`` with ``params`` an instance of ``params_type``."""

    name: str
    run: ExtractFn
    params_type: type
    summary: str

    def make_params(self, overrides: Mapping[str, Any] | None = None) -> Any:
        """Build the parameter object, failing early with the parameter's name on a bad value."""
        overrides = dict(overrides or {})
        known = {f.name for f in dataclasses.fields(self.params_type)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            takes = ", ".join(sorted(known))
            raise ValueError(f"algorithm {self.name!r} has no parameter {unknown[0]!r}; it takes: {takes}")
        try:
            params = self.params_type(**overrides)
        except (TypeError, ValueError) as e:
            raise ValueError(f"bad parameter for algorithm {self.name!r}: {e}") from e
        check = getattr(params, "validate", None)
        if check is not None:
            check()
        return params


REGISTRY: dict[str, Algorithm] = {}


def register(name: str, params_type: type, summary: str) -> Callable[[ExtractFn], ExtractFn]:
    """Decorator that adds an extractor to the registry under ``name``."""

    def deco(fn: ExtractFn) -> ExtractFn:
        if name in REGISTRY:
            raise ValueError(f"algorithm {name!r} registered twice")
        REGISTRY[name] = Algorithm(name, fn, params_type, summary)
        return fn

    return deco


def positive(name: str, value: float) -> None:
    if not value > 0:
        raise ValueError(f"{name} must be > 0, got {value!r}")


def fraction(name: str, value: float) -> None:
    if not 0 <= value <= 1:
        raise ValueError(f"{name} must be between 0 and 1, got {value!r}")
