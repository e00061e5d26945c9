"""WARC 1.1 files (warcio): a size-rotating writer, and a reader of response records.

Scrapy-free, so ``newscrawl extract`` can read archives (newscrawl's own, or Common Crawl's CC-NEWS files)
without loading the crawler. The crawl side is :mod:`newscrawl.crawl.warc`.

Files gzipped record by record (what warcio, Common Crawl and other WARC writers make) are read by a short
path of this module: each gzip member inflated by zlib, the record's headers split where the format puts
them, as warcio reads them (a header line in UTF-8, else Latin-1); it is two to three times faster than
warcio's line-by-line reader, which reads anything else (a file gzipped whole, an uncompressed one, folded
header lines) and so decides what is and is not a WARC file.
"""

from __future__ import annotations

import json
import re
import struct
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import IO, Any

from warcio.archiveiterator import ArchiveIterator
from warcio.warcwriter import WARCWriter

_CHARSET = re.compile(r"charset\s*=\s*[\"']?([\w.:-]+)", re.IGNORECASE)


class RotatingWarcWriter:
    """Writes WARC 1.1 records to gzipped files in ``directory``, starting a new file at ``max_bytes``."""

    def __init__(self, directory: str | Path, prefix: str, max_bytes: int, info: dict[str, str]) -> None:
        self.directory = Path(directory)
        self.prefix = prefix
        self.max_bytes = max_bytes
        self.info = info
        self.started = datetime.now(UTC).strftime("%Y%m%d%H%M%S")
        self.serial = 0
        self.paths: list[Path] = []
        self._file: IO[bytes] | None = None
        self._writer: WARCWriter | None = None

    def _open(self) -> WARCWriter:
        if self._writer is None:
            self.directory.mkdir(parents=True, exist_ok=True)
            path = self.directory / f"{self.prefix}-{self.started}-{self.serial:05d}.warc.gz"
            self.serial += 1
            self._file = path.open("xb")
            self._writer = WARCWriter(self._file, gzip=True, warc_version="1.1")
            self.paths.append(path)
            self._writer.write_record(self._writer.create_warcinfo_record(path.name, self.info))
        return self._writer

    def write(self, record: Any) -> None:
        writer = self._open()
        writer.write_record(record)
        if self._file is not None and self._file.tell() >= self.max_bytes:
            self.close()

    def record(self, *args: Any, **kwargs: Any) -> Any:
        """A record made by the current file's writer (``WARCWriter.create_warc_record``'s arguments)."""
        return self._open().create_warc_record(*args, **kwargs)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
        self._file = None
        self._writer = None


@dataclass(frozen=True, slots=True)
class ArchivedResponse:
    """One response record of a WARC file: what was fetched, and how the crawl meant to handle it.

    ``body`` is the payload as the server sent it (``Content-Encoding`` still applied, see
    :meth:`decoded_body`); ``kind`` and ``spider`` come from newscrawl's metadata record, when present;
    ``date`` is the record's WARC-Date (when the page was fetched: newscrawl writes it at fetch time), the
    time relative publish times on the page ("3小时前") are resolved against; None when the record has no
    readable one.
    """

    url: str
    status: int
    headers: list[tuple[str, str]]
    body: bytes
    kind: str | None = None
    spider: str | None = None
    date: datetime | None = None

    def header(self, name: str) -> str:
        for key, value in self.headers:
            if key.lower() == name.lower():
                return value
        return ""

    def charset(self) -> str | None:
        """The charset the Content-Type header declares, if any."""
        m = _CHARSET.search(self.header("Content-Type"))
        return m.group(1) if m else None

    def is_html(self) -> bool:
        ctype = self.header("Content-Type").lower()
        return "html" in ctype or (not ctype and self.decoded_body(4096).lstrip()[:1] == b"<")

    def decoded_body(self, max_bytes: int = 8 * 1024 * 1024) -> bytes:
        """The payload with gzip/deflate content coding undone, at most ``max_bytes`` (a bomb is cut)."""
        coding = self.header("Content-Encoding").lower().strip()
        if coding not in ("gzip", "x-gzip", "deflate"):
            return self.body[:max_bytes]
        wbits = 47 if coding != "deflate" else 15  # 47: gzip or zlib header, detected
        try:
            inflater = zlib.decompressobj(wbits)
            out = inflater.decompress(self.body, max_bytes)
        except zlib.error:
            try:  # raw deflate, as some servers send it
                out = zlib.decompressobj(-15).decompress(self.body, max_bytes)
            except zlib.error:
                return self.body[:max_bytes]
        return out


#: bytes read at a time while walking the gzip members of a file (small: zlib copies what follows a member)
_CHUNK = 64 * 1024
_GZIP = b"\x1f\x8b"
#: inflated bytes of a record read to find its WARC headers, when the rest of it need not be inflated
_HEAD = 2048
#: records whose blocks the scan skips (:func:`_skim_members`): pages, read later by offset, and requests
_SKIMMED = ("response", "request")
_ISIZE = struct.Struct("<I")


class _NotPerRecord(Exception):
    """The file is not gzipped record by record as WARC writers do (warcio reads it instead)."""


class DamagedRecord(ValueError):
    """A record of a file gzipped record by record whose bytes do not inflate (a bad disk block, a copy
    cut or altered): that record is lost, the others of the file are read."""

    def __init__(self, path: str, offset: int, url: str | None = None) -> None:
        what = f"the record of {url}" if url else "a record"
        super().__init__(f"{path}: {what} at byte {offset} is damaged (its gzip member does not inflate)")
        self.path, self.offset, self.url = path, offset, url


def _gzip_members(
    stream: IO[bytes], start: int = 0, limit: int | None = None
) -> Iterator[tuple[int, bytes, int]]:
    """(offset, inflated bytes, offset after it) of each gzip member from ``start`` (at most ``limit``
    members)."""
    stream.seek(start)
    offset, buf, count = start, b"", 0
    while limit is None or count < limit:
        if not buf:
            buf = stream.read(_CHUNK)
            if not buf:
                return
        if not buf.startswith(_GZIP):
            raise _NotPerRecord(f"no gzip member at byte {offset}")
        inflater = zlib.decompressobj(31)
        parts: list[bytes] = []
        begin = offset
        while True:
            parts.append(inflater.decompress(buf))
            if inflater.eof:
                rest = inflater.unused_data
                offset += len(buf) - len(rest)
                buf = rest
                break
            offset += len(buf)
            buf = stream.read(_CHUNK)
            if not buf:
                raise _NotPerRecord(f"gzip member at byte {begin} is cut short")
        count += 1
        yield begin, b"".join(parts), offset


def _decode_line(line: bytes) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        return line.decode("latin-1")


def _header_lines(lines: list[bytes]) -> list[tuple[str, str]]:
    """``Name: value`` lines as warcio reads them (utf-8, else latin-1; a line without a colon is skipped);
    a folded (continued) header line is left to warcio."""
    pairs = []
    for raw in lines:
        line = _decode_line(raw).rstrip()
        if not line:
            continue
        if line[0] in " \t":
            raise _NotPerRecord("folded header line")
        name, sep, value = line.partition(":")
        if sep:
            pairs.append((name.rstrip(" \t"), value.lstrip()))
    return pairs


def _split_record(data: bytes) -> tuple[dict[str, str], bytes]:
    """The WARC headers (lower-case names) and the block of one record that fills ``data``."""
    end = data.find(b"\r\n\r\n")
    if not data.startswith(b"WARC/") or end < 0:
        raise _NotPerRecord("not one WARC record per gzip member")
    lines = data[:end].split(b"\n")
    headers = {name.lower(): value for name, value in _header_lines(lines[1:])}
    try:
        length = int(headers["content-length"])
    except (KeyError, ValueError) as e:
        raise _NotPerRecord("a record without Content-Length") from e
    block = data[end + 4 : end + 4 + length]
    if len(block) != length or data[end + 4 + length :].strip(b"\r\n"):
        raise _NotPerRecord("a gzip member holding other than one record")
    return headers, block


def _split_head(head: bytes) -> tuple[dict[str, str], bytes]:
    """The WARC headers (lower-case names) and the start of the block of a record of which ``head`` is
    the first bytes."""
    end = head.find(b"\r\n\r\n")
    if not head.startswith(b"WARC/") or end < 0:
        raise _NotPerRecord("not one WARC record per gzip member")
    headers = {name.lower(): value for name, value in _header_lines(head[:end].split(b"\n")[1:])}
    return headers, head[end + 4 :]


def _split_http(block: bytes) -> tuple[int, list[tuple[str, str]], bytes] | None:
    """Status, headers and payload of an HTTP response block (None when it is not one)."""
    if not block.startswith(b"HTTP/"):
        return None
    end, sep = block.find(b"\r\n\r\n"), 4
    if end < 0:
        end, sep = block.find(b"\n\n"), 2
        if end < 0:
            raise _NotPerRecord("HTTP headers without their end")
    lines = block[:end].split(b"\n")
    status_line = _decode_line(lines[0]).rstrip().split(" ", 2)
    try:
        status = int(status_line[1])
    except (IndexError, ValueError):
        status = 0
    return status, _header_lines(lines[1:]), block[end + sep :]


@dataclass(frozen=True, slots=True)
class ArchiveEntry:
    path: str
    offset: int
    url: str
    kind: str | None
    spider: str | None
    #: the response record's WARC-Date, as written
    date: str | None = None


def warc_date(value: str | None) -> datetime | None:
    """A WARC-Date (``2026-11-24T07:50:20Z``, with or without fractions of a second) as an aware UTC
    datetime; None when missing or unreadable."""
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)


def scan(path: str | Path) -> list[ArchiveEntry]:
    """The response records of one file (offsets, kinds from metadata), without keeping payloads.

    Cached per file (path, size, modification time): a re-extraction indexes an archive once.
    """
    return list(_scanned(path)[0])


def damaged_records(path: str | Path) -> list[int]:
    """The offsets of the damaged records (:class:`DamagedRecord`) :func:`scan` passed over in one file."""
    return list(_scanned(path)[1])


def _scanned(path: str | Path) -> tuple[tuple[ArchiveEntry, ...], tuple[int, ...]]:
    """:func:`_scan_cached` of one file, keyed by its resolved path, size and modification time."""
    p = Path(path).resolve()
    try:
        st = p.stat()
    except OSError as e:
        raise ValueError(f"{path}: cannot read: {e.strerror or e}") from e
    return _scan_cached(str(p), st.st_size, st.st_mtime_ns)


@lru_cache(maxsize=64)
def _scan_cached(path: str, size: int, mtime_ns: int) -> tuple[tuple[ArchiveEntry, ...], tuple[int, ...]]:
    damaged: list[int] = []
    return tuple(_scan(path, damaged)), tuple(damaged)


def _scan(path: str | Path, damaged: list[int] | None = None) -> Iterator[ArchiveEntry]:
    found: list[int] = []
    try:
        with open(path, "rb") as stream:
            if stream.read(2) == _GZIP:
                entries = list(_scan_members(str(path), stream, found))
                if damaged is not None:
                    damaged.extend(found)
                return iter(entries)
    except (_NotPerRecord, zlib.error):
        pass  # warcio reads it, or says why it is not a WARC file
    except OSError as e:
        raise ValueError(f"{path}: cannot read: {e.strerror or e}") from e
    return _scan_warcio(path)


def _skim_members(stream: IO[bytes]) -> Iterator[tuple[int, bytes, bool]]:
    """(offset, inflated bytes, whole) of each gzip member, as :func:`_gzip_members`, but a response or
    request record is inflated only as far as its first :data:`_HEAD` bytes (``whole`` False): its WARC
    headers say how long it is inflated, and the gzip trailer ends with that length, so the next member
    is found by looking for that length followed by a gzip header (:func:`_member_end`), without inflating
    the page. The page is inflated once, when it is read (:func:`read`). A record whose end is not found so
    is inflated whole, as before."""
    stream.seek(0)
    base, buf = 0, stream.read(_CHUNK)  # buf holds the file's bytes from offset base
    offset = 0
    while True:
        if offset + _HEAD >= base + len(buf):  # too little left in the buffer: read on from offset
            stream.seek(offset)
            base, buf = offset, stream.read(_CHUNK)
        rel = offset - base
        if rel >= len(buf):
            return
        if buf[rel : rel + 2] != _GZIP:
            raise _NotPerRecord(f"no gzip member at byte {offset}")
        inflater = zlib.decompressobj(31)
        try:
            head = inflater.decompress(memoryview(buf)[rel:], _HEAD)
        except zlib.error:
            head = None
        if head is None:
            yield offset, None, False  # damaged: the scan goes on at the next member that reads
            found = _next_member(stream, offset + 1)
            if found is None:
                return
            base, buf, offset = found, b"", found
            continue
        if inflater.eof:  # a small record, inflated whole already
            yield offset, head, True
            offset = base + len(buf) - len(inflater.unused_data)
            continue
        skip_to = None
        try:
            headers, block = _split_head(head)
        except _NotPerRecord:
            headers, block = {}, b""
        length = headers.get("content-length", "")
        if headers.get("warc-type") in _SKIMMED and length.isdigit():
            size = len(head) - len(block) + int(length) + 4
            needle = _ISIZE.pack(size & 0xFFFFFFFF) + _GZIP + b"\x08"
            found = buf.find(needle, rel + 10)
            if found >= 0:
                skip_to = base + found + 4
            else:
                skip_to = _member_end(stream, offset, size)
        if skip_to is not None:
            yield offset, head, False
            offset = skip_to
            continue
        try:
            for _, data, after in _gzip_members(stream, offset, limit=1):
                yield offset, data, True
                offset = after
        except zlib.error:
            yield offset, None, False
            found = _next_member(stream, offset + 1)
            if found is None:
                return
            offset = found
        base, buf = offset, b""


def _next_member(stream: IO[bytes], start: int) -> int | None:
    """The offset of the first gzip member at or after ``start`` whose first bytes inflate to a WARC
    record's start (after a damaged one); None when there is none."""
    pos = start
    while True:
        stream.seek(pos)
        chunk = stream.read(_CHUNK)
        if len(chunk) < 3:
            return None
        found = chunk.find(_GZIP + b"\x08")
        while found >= 0:
            try:
                head = zlib.decompressobj(31).decompress(chunk[found:], 5)
            except zlib.error:
                head = b""
            if head == b"WARC/":
                return pos + found
            found = chunk.find(_GZIP + b"\x08", found + 1)
        pos += len(chunk) - 2  # a header cut by the chunk's end is found by the next read


def _member_end(stream: IO[bytes], start: int, size: int) -> int | None:
    """The offset where the gzip member starting at ``start`` ends, ``size`` being its inflated size:
    the first place after it holding that size (the gzip trailer's ISIZE, little-endian) followed by the
    next member's gzip header, or the end of the file right after that size. None when it is not found
    within the longest a member of that size can be compressed (then the member is inflated instead).

    Compressed data holding those seven bytes by chance is about one in 2**56 per byte; a wrong end would
    not start with a gzip member holding a WARC record, and the file would then be read by warcio."""
    isize = _ISIZE.pack(size & 0xFFFFFFFF)
    needle = isize + _GZIP + b"\x08"
    budget = start + size + size // 100 + 4096  # deflate's worst case adds 5 bytes per 64 KB
    pos = start + 10  # past the member's gzip header
    stream.seek(pos)
    tail = b""
    while pos <= budget:
        chunk = stream.read(_CHUNK)
        if not chunk:
            return pos if tail.endswith(isize) else None
        buf = tail + chunk
        found = buf.find(needle)
        if found >= 0:
            return pos - len(tail) + found + len(isize)
        tail = buf[-(len(needle) - 1) :]
        pos += len(chunk)
    return None


def _scan_members(path: str, stream: IO[bytes], damaged: list[int]) -> Iterator[ArchiveEntry]:
    """:func:`_scan` of a file gzipped record by record, without warcio (several times faster); the
    offsets of damaged records (:class:`DamagedRecord`) are added to ``damaged``."""
    entries: dict[str, ArchiveEntry] = {}
    for offset, data, whole in _skim_members(stream):
        if data is None:
            damaged.append(offset)
            continue
        headers, block = _split_record(data) if whole else _split_head(data)
        rtype = headers.get("warc-type")
        if rtype == "response" and block.startswith(b"HTTP/"):
            rid = headers.get("warc-record-id", "")
            entries[rid] = ArchiveEntry(
                path, offset, headers.get("warc-target-uri", ""), None, None, headers.get("warc-date")
            )
        elif rtype == "metadata":
            old = entries.get(headers.get("warc-concurrent-to", ""))
            if old is None:
                continue
            try:
                facts = json.loads(block[:65_536])
            except ValueError:
                continue
            if isinstance(facts, dict):
                entries[headers["warc-concurrent-to"]] = ArchiveEntry(
                    old.path, old.offset, old.url, facts.get("kind"), facts.get("spider"), old.date
                )
    yield from entries.values()


def _scan_warcio(path: str | Path) -> Iterator[ArchiveEntry]:
    entries: dict[str, ArchiveEntry] = {}
    order: list[str] = []
    try:
        with open(path, "rb") as stream:
            it = ArchiveIterator(stream)
            for record in it:
                rtype = record.rec_type
                if rtype == "response" and record.http_headers is not None:
                    rid = record.rec_headers.get_header("WARC-Record-ID")
                    url = record.rec_headers.get_header("WARC-Target-URI")
                    date = record.rec_headers.get_header("WARC-Date")
                    entries[rid] = ArchiveEntry(str(path), it.get_record_offset(), url, None, None, date)
                    order.append(rid)
                elif rtype == "metadata":
                    to = record.rec_headers.get_header("WARC-Concurrent-To")
                    if to in entries:
                        try:
                            facts = json.loads(record.content_stream().read(65_536))
                        except ValueError:
                            continue
                        if isinstance(facts, dict):
                            old = entries[to]
                            entries[to] = ArchiveEntry(
                                old.path, old.offset, old.url, facts.get("kind"), facts.get("spider"),
                                old.date,
                            )
    except OSError as e:
        raise ValueError(f"{path}: cannot read: {e.strerror or e}") from e
    except Exception as e:  # warcio raises ArchiveLoadFailed and friends for what is not a WARC
        raise ValueError(f"{path}: not a WARC file: {e}") from e
    for rid in order:
        yield entries[rid]


def read(entry: ArchiveEntry) -> ArchivedResponse:
    with open(entry.path, "rb") as stream:
        return read_at(stream, entry)


def read_at(stream: IO[bytes], entry: ArchiveEntry) -> ArchivedResponse:
    """The response record at ``entry``, from its file opened already (binary): :func:`read` without the
    open; :class:`DamagedRecord` when its bytes do not inflate."""
    try:
        for _, data, _ in _gzip_members(stream, entry.offset, limit=1):
            http = _split_http(_split_record(data)[1])
            if http is not None:
                status, headers, body = http
                return ArchivedResponse(
                    entry.url, status, headers, body, entry.kind, entry.spider, warc_date(entry.date)
                )
    except zlib.error as e:
        raise DamagedRecord(entry.path, entry.offset, entry.url) from e
    except _NotPerRecord:
        pass
    try:
        return _read_warcio(stream, entry)
    except (zlib.error, EOFError, AssertionError, ValueError) as e:
        raise DamagedRecord(entry.path, entry.offset, entry.url) from e


def _read_warcio(stream: IO[bytes], entry: ArchiveEntry) -> ArchivedResponse:
    stream.seek(entry.offset)
    record = next(iter(ArchiveIterator(stream)))
    assert record.http_headers is not None
    return ArchivedResponse(
        url=entry.url,
        status=int(record.http_headers.get_statuscode() or 0),
        headers=list(record.http_headers.headers),
        body=record.raw_stream.read(),
        kind=entry.kind,
        spider=entry.spider,
        date=warc_date(entry.date),
    )


class ArchiveReader:
    """Random access to the response records of WARC files by URL (the first response of each URL).

    The files are indexed once (:func:`scan`); each is kept open while the reader is, so reading a
    record is a seek and the parse of one record. Raises ValueError for a file that is not a WARC.
    """

    def __init__(self, paths: Iterable[str | Path]) -> None:
        self.index: dict[str, ArchiveEntry] = {}
        #: the damaged records the scan passed over: (file, offset)
        self.damaged: list[tuple[str, int]] = []
        for path in paths:
            for entry in scan(path):
                self.index.setdefault(entry.url, entry)
            self.damaged += [(str(path), offset) for offset in damaged_records(path)]
        self._files: dict[str, IO[bytes]] = {}

    def start_points(self) -> list[tuple[str, str]]:
        """(url, kind) of every archived response a newscrawl spider handled, in archive order, but the
        later pages of split articles (their first page fetches them again, to join them)."""
        return [(e.url, e.kind) for e in self.index.values() if e.kind and e.kind != "later_page"]

    def spiders(self) -> list[str]:
        """The spiders named in the archives' metadata, sorted."""
        return sorted({e.spider for e in self.index.values() if e.spider})

    def get(self, url: str) -> ArchivedResponse | None:
        """The response archived for ``url`` (None if none is); :class:`DamagedRecord` when its record
        cannot be read."""
        entry = self.index.get(url)
        if entry is None:
            return None
        stream = self._files.get(entry.path)
        if stream is None:
            stream = self._files[entry.path] = open(entry.path, "rb")  # noqa: SIM115 - closed by close()
        return read_at(stream, entry)

    def close(self) -> None:
        for stream in self._files.values():
            stream.close()
        self._files.clear()

    def __enter__(self) -> ArchiveReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def archived_responses(
    paths: Iterable[str | Path], damaged: list[DamagedRecord] | None = None
) -> Iterator[ArchivedResponse]:
    """Every response record of the WARC files, in order; a file that is not a WARC raises ValueError.

    A damaged record (:class:`DamagedRecord`) is passed over and added to ``damaged`` when it is given,
    else raised (those the scan found first, once the file's readable records are given)."""
    for path in paths:
        for entry in scan(path):
            try:
                yield read(entry)
            except DamagedRecord as e:
                if damaged is None:
                    raise
                damaged.append(e)
        for offset in damaged_records(path):
            error = DamagedRecord(str(path), offset)
            if damaged is None:
                raise error
            damaged.append(error)


