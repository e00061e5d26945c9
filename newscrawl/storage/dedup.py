"""Near-duplicate articles: a 64-bit SimHash per text and a banded index to find the first copy.

SimHash (Charikar 2002; Manku, Jain & Das Sarma 2007, "Detecting near-duplicates for web crawling"):
every shingle of the text is hashed to 64 bits; bit i of the fingerprint is 1 when more shingles have
bit i set than not. Texts sharing most shingles get fingerprints a few bits apart, so two articles are
near-duplicates when the Hamming distance of their fingerprints is at most ``max_distance``.

Shingles are 3-grams of tokens, where a token is one CJK character or one word of other scripts: so
Chinese text gives character 3-grams and English text word 3-grams, and mixed text both.

The index splits a fingerprint into :data:`BANDS` bands of 16 bits; by the pigeonhole principle two
fingerprints at most ``BANDS - 1`` bits apart agree exactly on at least one band, so looking up the four
bands finds every candidate within distance 3 (larger distances are found when a band happens to match).

>>> a = simhash("临江市今天发布寒潮蓝色预警，预计最低气温将降至零下六摄氏度，请市民注意防寒保暖。")
>>> b = simhash("临江市今天发布寒潮蓝色预警，预计最低气温将降至零下六摄氏度，请广大市民注意防寒保暖。")
>>> c = simhash("The harbour board approved a new plan for the old docks on Tuesday evening.")
>>> hamming(a, b) < hamming(a, c)
True
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from newscrawl.crawl import defaults
from newscrawl.storage.sqlite import connect

BITS = 64
#: tokens per shingle
SHINGLE = 3
BANDS = 4
BAND_BITS = BITS // BANDS

#: scripts written without spaces between words: each character is a token
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+")
_MASK = (1 << BITS) - 1


def tokens(text: str) -> list[str]:
    """CJK characters one by one, other words whole, lower-cased; punctuation and spaces dropped.

    >>> tokens("新华社北京电 Hello, World!")
    ['新', '华', '社', '北', '京', '电', 'hello', 'world']
    """
    return _TOKEN.findall(text.lower())


def shingles(text: str, size: int = SHINGLE) -> set[str]:
    """The distinct ``size``-grams of :func:`tokens` (the whole text when it has fewer tokens)."""
    toks = tokens(text)
    if len(toks) < size:
        return {" ".join(toks)} if toks else set()
    # the n-grams as tuples (the shifted lists side by side, cut to the shortest), joined by map in C
    return set(map(" ".join, zip(*(toks[i:] for i in range(size)), strict=False)))


def shingle_hash(shingle: str) -> int:
    """A shingle's 64-bit hash: the 8-byte BLAKE2b of its UTF-8, read big-endian (the stored fingerprints
    depend on it: changing it breaks every duplicate index already written)."""
    return int.from_bytes(hashlib.blake2b(shingle.encode("utf-8"), digest_size=8).digest(), "big")


#: an empty 8-byte BLAKE2b, copied for each shingle: a copy fed the shingle gives :func:`shingle_hash`'s
#: digest in 0.37 us a shingle against 0.47 us for ``blake2b(data, digest_size=8)`` by ``map`` through a
#: ``functools.partial`` (which copies its keyword arguments into a new dict on every call); 1,810 shingles
#: of each of 120 crawled texts, CPU time
_BLAKE2B_8 = hashlib.blake2b(digest_size=8)


def _digests(grams: Iterable[str]) -> bytes:
    """The 8-byte hashes of :func:`shingle_hash`, side by side."""
    parts = []
    for gram in grams:
        h = _BLAKE2B_8.copy()
        h.update(gram.encode())
        parts.append(h.digest())
    return b"".join(parts)


def simhash(text: str, size: int = SHINGLE) -> int:
    """The 64-bit SimHash of ``text`` over its shingles (0 for a text without tokens).

    Bit i (from the most significant) is 1 when more than half of the distinct shingles'
    :func:`shingle_hash` values have bit i set. In C where the extension is built
    (``newscrawl.extract._csimhash``: 0.5 ms of a worker's page otherwise, most of it hashing shingles one
    Python call at a time); :func:`python_simhash` is its reference, and runs a text the C code leaves to
    it (one holding a lone surrogate).
    """
    fast = _c_simhash()
    if fast is not None:
        value = fast(text.lower(), size)
        if value is not None:
            return value
    return python_simhash(text, size)


@cache
def _c_simhash() -> Callable[[str, int], int | None] | None:
    """The C SimHash, or None: looked up on first use, as the extraction library it is loaded through
    (:mod:`newscrawl.extract.native`) is not otherwise imported by a process that only reads the index."""
    from newscrawl.extract.native import csimhash

    return None if csimhash is None else csimhash.simhash


def python_simhash(text: str, size: int = SHINGLE) -> int:
    """:func:`simhash` in Python: the reference of the C code, and what runs without it."""
    grams = shingles(text, size)
    if not grams:
        return 0
    # the 8-byte hashes side by side; column j (byte j of every hash) read as one big integer, whose
    # bit k of every byte is counted at once: shift, mask and bit_count run in C over the whole column
    # (4.7x faster than translating the column to 0/1 bytes once per bit and counting them)
    digests = _digests(grams)
    half = len(grams) / 2
    ones = int.from_bytes(b"\x01" * len(grams), "big")  # bit 0 of every byte
    value = 0
    for j in range(BITS // 8):
        column = int.from_bytes(digests[j::8], "big")
        for k in range(7, -1, -1):
            value = (value << 1) | (((column >> k) & ones).bit_count() > half)
    return value


def hamming(a: int, b: int) -> int:
    """Bits that differ between two fingerprints."""
    return ((a ^ b) & _MASK).bit_count()


def bands(fingerprint: int) -> tuple[int, ...]:
    """The :data:`BANDS` 16-bit bands of a fingerprint, most significant first."""
    mask = (1 << BAND_BITS) - 1
    return tuple((fingerprint >> (BAND_BITS * (BANDS - 1 - i))) & mask for i in range(BANDS))


def _signed(value: int) -> int:
    """SQLite integers are signed 64-bit."""
    return value - (1 << BITS) if value >= 1 << (BITS - 1) else value


def _unsigned(value: int) -> int:
    return value + (1 << BITS) if value < 0 else value


FINGERPRINTS = "fingerprints"
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {FINGERPRINTS} (
    canonical_url TEXT PRIMARY KEY,
    simhash INTEGER NOT NULL,
    {", ".join(f"b{i} INTEGER NOT NULL" for i in range(BANDS))}
);
{"".join(f"CREATE INDEX IF NOT EXISTS {FINGERPRINTS}_b{i} ON {FINGERPRINTS}(b{i});" for i in range(BANDS))}
"""


@dataclass(frozen=True)
class Match:
    canonical_url: str
    distance: int


#: fingerprints held in memory before one transaction writes them: a commit per article took the store's
#: write lock once per page, which two crawler processes sharing one store then queued for
DEFAULT_FLUSH_EVERY = 100


class DuplicateIndex:
    """Fingerprints of stored articles in table ``fingerprints`` of a SQLite file (the crawl's store).

    The first copy of a story is the one indexed first (lowest rowid); :meth:`add` returns it for
    every later near-copy. New fingerprints are written ``flush_every`` at a time (and by :meth:`flush`
    and :meth:`close`); until then :meth:`add` finds them in memory, so this process sees every one.
    Another process sharing the file sees them once written: two copies of one story indexed by two
    processes within one such window are both taken for first copies.

    >>> index = DuplicateIndex(":memory:"); index.open()
    >>> text = "寒潮蓝色预警发布，最低气温将降至零下六摄氏度，请市民注意防寒。"
    >>> index.add("http://a/1", text) is None, index.add("http://b/9", text).canonical_url
    (True, 'http://a/1')
    """

    def __init__(
        self,
        path: str | Path,
        max_distance: int = defaults.NEWSCRAWL_DUPLICATE_MAX_DISTANCE,
        flush_every: int = DEFAULT_FLUSH_EVERY,
    ) -> None:
        if not 0 <= max_distance < BITS:
            raise ValueError(f"max_distance must be between 0 and {BITS - 1}, not {max_distance!r}")
        if flush_every < 1:
            raise ValueError(f"flush_every must be at least 1, not {flush_every!r}")
        self.path = str(path)
        self.max_distance = max_distance
        self.flush_every = flush_every
        self._db: sqlite3.Connection | None = None
        #: canonical URL -> fingerprint, not yet written, in the order they were added
        self._pending: dict[str, int] = {}

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise RuntimeError(f"DuplicateIndex({self.path!r}) is not open")
        return self._db

    def open(self) -> None:
        if self._db is not None:
            return
        self._db = connect(self.path)
        # no fsync per commit: the fingerprints can be rebuilt from the store
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        self._db.commit()

    def close(self) -> None:
        if self._db is not None:
            try:
                self.flush()
            finally:
                self._db.close()
                self._db = None

    def flush(self) -> None:
        """Write the fingerprints held in memory, in one transaction (a re-added URL keeps its rowid)."""
        if not self._pending:
            return
        rows = [(url, _signed(fp), *bands(fp)) for url, fp in self._pending.items()]
        sets = ", ".join(["simhash = excluded.simhash", *(f"b{i} = excluded.b{i}" for i in range(BANDS))])
        with self.db:
            self.db.executemany(
                f"INSERT INTO {FINGERPRINTS} VALUES (?, ?, {', '.join('?' for _ in range(BANDS))}) "
                f"ON CONFLICT(canonical_url) DO UPDATE SET {sets}",
                rows,
            )
        self._pending.clear()

    def find(
        self, fingerprint: int, *, before: int | None = None, exclude: str | None = None
    ) -> Match | None:
        """The first-indexed article within ``max_distance`` of ``fingerprint`` among those written
        (rowid < ``before``)."""
        where = " OR ".join(f"b{i} = ?" for i in range(BANDS))
        sql = f"SELECT rowid, canonical_url, simhash FROM {FINGERPRINTS} WHERE ({where})"
        params: list[object] = list(bands(fingerprint))
        if before is not None:
            sql += " AND rowid < ?"
            params.append(before)
        best: tuple[int, str, int] | None = None
        for rowid, url, stored in self.db.execute(sql, params):
            if url == exclude:
                continue
            distance = hamming(fingerprint, _unsigned(stored))
            if distance <= self.max_distance and (best is None or rowid < best[0]):
                best = (rowid, url, distance)
        return Match(best[1], best[2]) if best else None

    def add(self, canonical_url: str, text: str) -> Match | None:
        """Index ``text`` under ``canonical_url``; the first copy it duplicates, if any."""
        return self.add_fingerprint(canonical_url, simhash(text))

    def add_fingerprint(self, canonical_url: str, fingerprint: int) -> Match | None:
        """:meth:`add` for a text whose :func:`simhash` is known (0: no tokens, not indexed)."""
        if fingerprint == 0:
            return None
        # one query for this URL's own row and the rows sharing a band: two cost the reactor two waits for
        # the GIL, which SQLite lets go of in every statement (the dispatcher and writer threads take it)
        where = " OR ".join(f"b{i} = ?" for i in range(BANDS))
        rows = self.db.execute(
            f"SELECT rowid, canonical_url, simhash FROM {FINGERPRINTS} WHERE canonical_url = ? OR {where}",
            (canonical_url, *bands(fingerprint)),
        ).fetchall()
        own = next((rowid for rowid, url, _ in rows if url == canonical_url), None)
        best: tuple[int, str, int] | None = None
        for rowid, url, stored in rows:
            if url == canonical_url or (own is not None and rowid >= own):
                continue
            distance = hamming(fingerprint, _unsigned(stored))
            if distance <= self.max_distance and (best is None or rowid < best[0]):
                best = (rowid, url, distance)
        match = Match(best[1], best[2]) if best else None
        if match is None and own is None:
            # not written yet: the copies held in memory that were added before this one
            for url, held in self._pending.items():
                if url == canonical_url:
                    break
                distance = hamming(fingerprint, held)
                if distance <= self.max_distance:
                    match = Match(url, distance)
                    break
        self._pending[canonical_url] = fingerprint
        if len(self._pending) >= self.flush_every:
            self.flush()
        return match
