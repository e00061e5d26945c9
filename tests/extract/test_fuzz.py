"""Property-based fuzzing: random and mutated HTML never makes ``extract`` raise or return a malformed record.

Seeds and mutations are those of ``python -m newscrawl.bench.fuzz`` (the long, reproducible runs: one
seed per run, many processes, every slow input saved); here hypothesis draws and shrinks them. The default
run is short (200 inputs). For a long run::

    NEWSCRAWL_FUZZ_EXAMPLES=100000 pytest -q tests/extract/test_fuzz.py --hypothesis-show-statistics

``--hypothesis-show-statistics`` prints the highest "seconds per page" hypothesis found (it steers
towards slow inputs with ``target``; an input over RETIME_SECONDS is timed twice and the faster time
kept); with ``NEWSCRAWL_FUZZ_REPORT=path.json`` the slowest input, its time and the slowest first call
are also written to that file. A record whose ``error`` says "internal error" (an exception caught
by extract's safety net) or whose metadata chain failed counts as a failure here: it is a bug.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hostile_support import assert_well_formed
from hypothesis import HealthCheck, given, settings, target
from hypothesis import strategies as st

from newscrawl.bench.fuzz import BASIC_OPS, SEEDS, SNIPPETS, mutate
from newscrawl.extract import ALGORITHMS, extract

EXAMPLES = int(os.environ.get("NEWSCRAWL_FUZZ_EXAMPLES", "200"))
REPORT = os.environ.get("NEWSCRAWL_FUZZ_REPORT")
#: an input slower than this is timed again, and the faster time kept: the first sight of a language
#: makes dateparser load its data (seconds, once per process), which is not the page's own cost
RETIME_SECONDS = 0.25


@st.composite
def mutated_pages(draw: st.DrawFn) -> bytes:
    """A seed page with one to four mutations. Few choices are drawn (the seed page, the operations and
    one random seed), so long runs stay valid; a failure shrinks to fewer operations and a simpler page."""
    page = draw(st.sampled_from(SEEDS))
    ops = draw(st.lists(st.sampled_from(BASIC_OPS), min_size=1, max_size=4))
    return mutate(page, ops, random.Random(draw(st.integers(0, 2**32 - 1))))


_TAG_SOUP = st.lists(
    st.one_of(st.sampled_from(SNIPPETS).map(lambda b: b.decode("utf-8", "replace")), st.text(max_size=30)),
    max_size=60,
).map("".join)

PAGES = st.one_of(mutated_pages(), mutated_pages(), _TAG_SOUP, st.binary(max_size=3_000))

_slowest: dict[str, Any] = {"seconds": 0.0, "inputs": 0}


@pytest.fixture(scope="module", autouse=True)
def _warm_up_and_report() -> Iterator[None]:
    # one-time costs (dateparser loads its language data on first use: seconds) are not a page's cost
    for seed in SEEDS:
        for algorithm in ALGORITHMS:
            extract(seed, algorithm=algorithm)
    yield
    _write_report()


def _write_report() -> None:
    """The slowest input so far, rewritten each time a slower one appears (a long run can be watched)."""
    if REPORT:
        with open(REPORT, "w", encoding="utf-8") as f:
            json.dump(_slowest, f, ensure_ascii=False, indent=1)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)
@given(page=PAGES, algorithm=st.sampled_from(ALGORITHMS))
def test_extract_never_raises_and_returns_a_well_formed_record(page: bytes | str, algorithm: str) -> None:
    start = time.perf_counter()
    r = extract(page, url="http://example.com/a.html", algorithm=algorithm)
    seconds = time.perf_counter() - start
    if seconds > RETIME_SECONDS:  # a lazy load (dateparser reads a language's data on first sight)?
        start = time.perf_counter()
        extract(page, url="http://example.com/a.html", algorithm=algorithm)
        first, seconds = seconds, min(seconds, time.perf_counter() - start)
        _slowest["slowest_first_call"] = max(first, _slowest.get("slowest_first_call", 0.0))
    target(seconds, label="seconds per page")
    _slowest["inputs"] += 1
    if seconds > _slowest["seconds"]:
        _slowest.update(seconds=seconds, algorithm=algorithm, size=len(page), input=repr(page[:200_000]))
        _write_report()
    assert_well_formed(r)
    assert not (r.error or "").startswith("internal error"), r.error
    assert "metadata_failures" not in r.figures, r.figures.get("metadata_failures")
