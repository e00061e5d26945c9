"""Shared by the hostile-input and fuzz tests: what a well-formed ``Extraction`` is."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date, datetime

from newscrawl.extract import Extraction, ListEntry

_OPTIONAL_STR = ("title", "author", "url", "language", "encoding", "node_path", "error")


def assert_iso_time(value: str | None) -> None:
    """None, an ISO date (``2024-09-03``) or an ISO time with or without an offset, to the second."""
    if value is None:
        return
    if len(value) == 10:
        date.fromisoformat(value)
    else:
        parsed = datetime.fromisoformat(value)
        assert parsed.tzinfo is None or parsed.utcoffset() is not None, value


def assert_well_formed(r: object) -> None:
    """Every field has its documented type; an error leaves the text empty; the record serialises."""
    assert isinstance(r, Extraction)
    assert isinstance(r.text, str) and "\x00" not in r.text
    for name in _OPTIONAL_STR:
        value = getattr(r, name)
        assert value is None or isinstance(value, str), (name, value)
    assert_iso_time(r.published_at)
    assert_iso_time(r.modified_at)
    assert isinstance(r.algorithm, str) and isinstance(r.reason, str)
    assert r.page_class in ("short", "long") and r.page_kind in ("article", "list")
    assert isinstance(r.coarse_length, int) and r.coarse_length >= 0
    assert isinstance(r.figures, Mapping) and isinstance(r.sources, Mapping)
    assert isinstance(r.entries, tuple)
    for entry in r.entries:
        assert isinstance(entry, ListEntry) and isinstance(entry.title, str) and isinstance(entry.url, str)
        # a list entry's time is kept as the page shows it (lists often omit the year): text, not ISO
        assert entry.published_at is None or isinstance(entry.published_at, str)
    if r.error is not None:
        assert r.error and r.text == ""
    json.dumps(r.to_dict(), ensure_ascii=False)
