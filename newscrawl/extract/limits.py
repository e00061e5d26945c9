"""Bounded work per page: named limits on size, element count, nesting depth and time.

Each limit is a field of :class:`Limits` (``None`` switches it off) and applies as follows:

=================  ===========  ==================================================================
limit              default      when a page goes over it
=================  ===========  ==================================================================
``max_body_bytes`` 8 MiB        the page is cut at the last ``<`` before the limit (characters for
                                ``str`` input) and extracted; ``figures["limits"]`` records the cut.
                                Article text comes early in a page; what lies megabytes in is
                                scripts, comments and endless listings, so a cut keeps the record.
``max_nodes``      50,000       ``error`` names the limit: the page is not extracted (every stage
                                is linear or worse in elements; a cut tree would be a wrong record).
``max_depth``      200          ``error`` names the limit. lxml's HTML parser stops reading at depth
                                256 and drops the rest of the page, so a page nested that deep
                                cannot be extracted faithfully; 200 reports it before that cut.
``time_budget``    5 s          checked after each stage (parse, clean, body, page kind, metadata);
                                a page over budget gives an ``error`` naming the stage. A running
                                stage is not interrupted: the size and element limits bound what one
                                stage costs, and a crawler's worker process is killed at a hard
                                limit (``NEWSCRAWL_EXTRACT_KILL_AFTER``).
=================  ===========  ==================================================================

Nothing in the extraction library recurses on tree depth (the walks are ``iter``/``iterwalk`` loops),
so depth costs no stack; the depth limit is about faithful results, not crashes.

>>> Limits(max_nodes=10).max_nodes, Limits.unlimited().time_budget
(10, None)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

from lxml import etree

from newscrawl.extract.document import Element

#: bytes of a page extracted at most; 5x the largest page of the evaluation sets (1.6 MB), and
#: extraction of an 8 MiB page stays within a few seconds on one core
MAX_BODY_BYTES = 8 * 1024 * 1024
#: elements of a page at most; 5x the largest page of the evaluation sets (9,748 elements)
MAX_NODES = 50_000
#: nesting depth at most; 4x the deepest page of the evaluation sets (50), below libxml2's cut at 256
MAX_DEPTH = 200
#: seconds of work per page, checked between stages; typical pages take 5-20 ms
TIME_BUDGET_SECONDS = 5.0
#: how far back from the byte limit a cut looks for a ``<`` to cut before
_CUT_LOOKBACK = 65_536


class LimitExceeded(Exception):
    """A page went over one of its :class:`Limits`; ``limit`` names the field."""

    def __init__(self, limit: str, message: str) -> None:
        super().__init__(message)
        self.limit = limit


@dataclass(frozen=True, slots=True)
class Limits:
    """Limits on the work spent on one page; ``None`` switches a limit off. Bad values raise early."""

    max_body_bytes: int | None = MAX_BODY_BYTES
    max_nodes: int | None = MAX_NODES
    max_depth: int | None = MAX_DEPTH
    time_budget: float | None = TIME_BUDGET_SECONDS

    def __post_init__(self) -> None:
        for name in ("max_body_bytes", "max_nodes", "max_depth", "time_budget"):
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise ValueError(f"limit {name} must be a positive number or None, got {value!r}")
            if name != "time_budget" and not isinstance(value, int):
                raise ValueError(f"limit {name} must be a whole number, got {value!r}")

    @classmethod
    def unlimited(cls) -> Limits:
        """No limits at all (for trusted input and measurements)."""
        return cls(None, None, None, None)


DEFAULT_LIMITS = Limits()


def cap_bytes(data: bytes, limits: Limits) -> tuple[bytes, int]:
    """``data`` cut to ``limits.max_body_bytes`` (before a ``<`` when one is near), and the bytes dropped.

    A ``<`` byte is never part of a multi-byte character in UTF-8 or GBK, so the cut splits no character.

    >>> cap_bytes(b"<p>abc</p><p>def</p>", Limits(max_body_bytes=15))
    (b'<p>abc</p>', 10)
    """
    cap = limits.max_body_bytes
    if cap is None or len(data) <= cap:
        return data, 0
    cut = data.rfind(b"<", max(0, cap - _CUT_LOOKBACK), cap)
    if cut <= 0:
        cut = cap
    return data[:cut], len(data) - cut


def cap_text(text: str, limits: Limits) -> tuple[str, int]:
    """The ``str`` form of :func:`cap_bytes`: the limit counts characters."""
    cap = limits.max_body_bytes
    if cap is None or len(text) <= cap:
        return text, 0
    cut = text.rfind("<", max(0, cap - _CUT_LOOKBACK), cap)
    if cut <= 0:
        cut = cap
    return text[:cut], len(text) - cut


_COUNT_ELEMENTS = etree.XPath("count(//*)")


@lru_cache(maxsize=8)
def _at_depth(depth: int) -> etree.XPath:
    # the elements ``depth`` levels below the root, found level by level in C (no Python per element)
    return etree.XPath("/*" + "/*" * depth)


def check_tree(root: Element, limits: Limits) -> int:
    """Raise :class:`LimitExceeded` when ``root``'s tree has too many elements or is nested too deeply.

    Returns the number of elements.
    """
    count = int(_COUNT_ELEMENTS(root))
    if limits.max_nodes is not None and count > limits.max_nodes:
        raise LimitExceeded(
            "max_nodes", f"page too large: {count} elements, over the limit max_nodes={limits.max_nodes}"
        )
    depth = limits.max_depth
    if depth is not None and count > depth and _at_depth(depth)(root):
        raise LimitExceeded(
            "max_depth", f"page nested too deeply: deeper than the limit max_depth={depth}"
        )
    return count


class Budget:
    """A per-page time budget, checked between stages with :meth:`check`."""

    __slots__ = ("seconds", "start")

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.start = time.perf_counter()

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def check(self, stage: str) -> None:
        """Raise :class:`LimitExceeded` if the budget is spent (``stage`` names the stage just done)."""
        if self.seconds is not None and (spent := self.elapsed()) > self.seconds:
            raise LimitExceeded(
                "time_budget",
                f"time budget exceeded: {spent:.2f} s after {stage}, "
                f"over the limit time_budget={self.seconds:g} s",
            )
