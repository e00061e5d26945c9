"""Shared by the hostile-input and fuzz tests: what a well-formed ``Extraction`` is
(:func:`newscrawl.bench.fuzz.problems`, also what the fuzzing command checks)."""

from __future__ import annotations

from newscrawl.bench.fuzz import problems


def assert_well_formed(r: object) -> None:
    """Every field has its documented type; an error leaves the text empty; the record serialises; no
    internal error and no failed metadata chain."""
    found = problems(r)
    assert not found, found
