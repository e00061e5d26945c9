"""Speed of extraction against a floor: lxml parsing the same bytes and nothing else.

Pages are timed one at a time and interleaved (floor, then each algorithm, on the same page) so machine
noise hits all of them alike; with ``repeat`` > 1 each page keeps its fastest time. One process.
``clock`` is wall-clock time by default; ``time.process_time`` times CPU instead, which on a loaded
machine leaves out the waits for a core (a long call is preempted more often than a short one, so
wall-clock ratios to the floor grow with the load).
``metadata=True`` adds the metadata stage alone (:func:`find_metadata` on a prepared page and its main
text; with ``repeat`` > 1 the repeats find dateparser's per-value cache warm).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from lxml import etree

from newscrawl.evaluation.datasets import Dataset

FLOOR = "lxml parse (floor)"
METADATA = "metadata stage"


def parse_only(page: bytes) -> None:
    """The floor: what lxml alone takes to build a tree from the bytes."""
    try:
        etree.fromstring(page, etree.HTMLParser())
    except (etree.ParserError, ValueError):  # an empty document: still timed
        pass


@dataclass(frozen=True, slots=True)
class Timing:
    """Per-page times (ms) of one contender; ``name`` is an algorithm or ``FLOOR``."""

    name: str
    ms: tuple[float, ...]

    @property
    def median_ms(self) -> float:
        return statistics.median(self.ms) if self.ms else 0.0

    @property
    def pages_per_s(self) -> float:
        """Median-based throughput: 1000 / median ms."""
        return 1000 / self.median_ms if self.median_ms else 0.0

    @property
    def total_pages_per_s(self) -> float:
        """All pages over the total time."""
        total = sum(self.ms)
        return len(self.ms) * 1000 / total if total else 0.0


Clock = Callable[[], float]


def _best_of(
    repeat: int, clock: Clock, fn: Callable[..., object], *args: object, **kwargs: object
) -> float:
    """Fastest of ``repeat`` calls of ``fn(*args, **kwargs)`` by ``clock``, in ms."""
    best = float("inf")
    for _ in range(repeat):
        start = clock()
        fn(*args, **kwargs)
        best = min(best, clock() - start)
    return best * 1000


def bench(
    pages: Iterable[bytes],
    algorithms: Sequence[str],
    *,
    repeat: int = 1,
    extract: Callable[..., object] | None = None,
    metadata: bool = False,
    clock: Clock = time.perf_counter,
) -> list[Timing]:
    """Time the floor and every algorithm on each page by ``clock``; the floor comes first in the result,
    the metadata stage (after the first algorithm's body extraction) last."""
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat!r}")
    if extract is None:
        from newscrawl.extract import extract as extract_fn

        extract = extract_fn
    times: dict[str, list[float]] = {FLOOR: [], **{a: [] for a in algorithms}}
    if metadata:
        times[METADATA] = []
    for page in pages:
        times[FLOOR].append(_best_of(repeat, clock, parse_only, page))
        for algo in algorithms:
            times[algo].append(_best_of(repeat, clock, extract, page, algorithm=algo))
        if metadata:
            ms = metadata_ms(page, algorithms[0] if algorithms else "auto", repeat, clock)
            if ms is not None:
                times[METADATA].append(ms)
    return [Timing(name, tuple(ms)) for name, ms in times.items()]


def metadata_ms(
    page: bytes, algorithm: str = "auto", repeat: int = 1, clock: Clock = time.perf_counter
) -> float | None:
    """Milliseconds of the metadata stage on ``page`` once its body is extracted (the best of ``repeat``);
    None for a page that cannot be prepared."""
    from newscrawl.extract.algorithms import REGISTRY
    from newscrawl.extract.api import PageError, make_params, prepare_page
    from newscrawl.extract.metadata.stage import find_metadata

    try:
        prepared = prepare_page(page)
    except PageError:
        return None
    body = REGISTRY[algorithm].run(prepared.page, make_params(algorithm, {}))
    return _best_of(repeat, clock, find_metadata, prepared.page, body)


def dataset_pages(ds: Dataset, limit: int | None = None) -> list[bytes]:
    """The raw bytes of the dataset's pages (the first ``limit``), loaded before timing starts."""
    truths = list(ds.truths())[:limit]
    return [ds.read_page(t) for t in truths]


def bench_table(timings: Sequence[Timing]) -> str:
    """A Markdown table: median ms/page, pages/s both ways, and the ratio to the floor's median."""
    floor = next((t for t in timings if t.name == FLOOR), None)
    lines = [
        "| extractor | pages | median ms/page | pages/s (1000/median) | pages/s (total) | × floor |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for t in timings:
        ratio = t.median_ms / floor.median_ms if floor and floor.median_ms else float("nan")
        lines.append(
            f"| {t.name} | {len(t.ms)} | {t.median_ms:.2f} | {t.pages_per_s:,.0f} | "
            f"{t.total_pages_per_s:,.0f} | {ratio:.2f} |"
        )
    return "\n".join(lines)
