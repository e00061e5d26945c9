"""What the tests of the C statistics pass share: the skip mark and the list-by-list comparison."""

from __future__ import annotations

import pytest
from lxml import etree

from newscrawl.extract import native
from newscrawl.extract.stats import NodeStats, compute_stats, python_attribute_values, python_stats

needs_c = pytest.mark.skipif(
    native.cstats is None, reason=f"the C extension is not in use: {native.describe()}"
)

FIELDS = (
    "elements", "tag", "index", "parent", "chars", "own_chars", "tags", "link_chars", "link_tags", "line",
    "depth", "line_sum", "classes", "ids",
)


def assert_equal_stats(body: etree._Element) -> NodeStats:
    c, python = compute_stats(body), python_stats(body)
    python_classes = python_attribute_values(python.elements, "class")
    python_ids = python_attribute_values(python.elements, "id")
    for name in FIELDS:  # (bool(): pytest's report of two long lists that differ takes minutes)
        assert bool(getattr(c, name) == getattr(python, name)), name
    assert bool(c.classes == python_classes)
    assert bool(c.ids == python_ids)
    return c
