"""Exports of the SQLite store: Elasticsearch/OpenSearch bulk NDJSON.

Each record becomes an action line and a document line (the ``_bulk`` API's format); the document id is
the SHA-1 of the canonical URL, so loading an export again updates documents instead of adding copies.
The index mapping (CJK bigram analyzer; smartcn/ik noted as options) is ``data/es/mapping.json``.

>>> lines = list(es_bulk_lines([{"canonical_url": "http://a/1", "title": "标题", "author": None}], "news"))
>>> lines[0]
'{"index": {"_index": "news", "_id": "1feefadbc173033154263b26347149f56aa664d6"}}'
>>> lines[1]
'{"canonical_url": "http://a/1", "title": "标题"}'
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from newscrawl.storage.base import decode_row
from newscrawl.storage.sqlite import TABLE

DEFAULT_INDEX = "newscrawl"


def document_id(canonical_url: str) -> str:
    """The document id of a record: SHA-1 of its canonical URL (ids are limited to 512 bytes)."""
    return hashlib.sha1(canonical_url.encode("utf-8")).hexdigest()


def es_bulk_lines(records: Iterable[Mapping[str, Any]], index: str = DEFAULT_INDEX) -> Iterator[str]:
    """Action and document lines, two per record; fields without a value are left out."""
    for record in records:
        key = record.get("canonical_url") or record.get("url")
        if not key:
            continue
        doc = {name: value for name, value in record.items() if value is not None}
        yield json.dumps({"index": {"_index": index, "_id": document_id(key)}}, ensure_ascii=False)
        yield json.dumps(doc, ensure_ascii=False)


def stored_records(db: sqlite3.Connection) -> Iterator[dict[str, Any]]:
    """Every row of the store as a record, in the order stored (list fields as lists)."""
    cur = db.execute(f"SELECT * FROM {TABLE} ORDER BY rowid")
    names = [d[0] for d in cur.description]
    for row in cur:
        yield decode_row(dict(zip(names, row, strict=True)))
