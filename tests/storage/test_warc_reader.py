"""Reading WARC files: the short path for files gzipped record by record reads what warcio reads; other
files are read by warcio."""

from __future__ import annotations

import dataclasses
import gzip
import io
import json
import random
import zlib
from pathlib import Path

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from newscrawl.storage import warc
from newscrawl.storage.warc import ArchiveReader, archived_responses

URL = "https://news.example.cn/a/{}.html"
PAGES = {
    "1": (200, [("Content-Type", "text/html; charset=utf-8")], "<p>临江市今天召开新闻发布会。</p>".encode()),
    "2": (200, [("Content-Type", "text/html"), ("Content-Encoding", "gzip")], gzip.compress(b"<p>gz</p>")),
    "3": (301, [("Location", "https://news.example.cn/a/1.html")], b""),
    # a non-ASCII header value (warcio writes it percent-encoded) and a GBK body
    "4": (200, [("Content-Type", "text/html; charset=gbk"), ("X-Note", "caf\xe9")], "新闻".encode("gbk")),
}


def write(path: Path, gzipped: bool = True) -> Path:
    """An archive as newscrawl writes it: response, request and metadata records per page."""
    out = io.BytesIO()
    writer = WARCWriter(out, gzip=gzipped, warc_version="1.1")
    writer.write_record(writer.create_warcinfo_record(path.name, {"software": "test"}))
    for name, (status, headers, body) in PAGES.items():
        http = StatusAndHeaders(f"{status} X", [(k, v) for k, v in headers], protocol="HTTP/1.1")
        resp = writer.create_warc_record(URL.format(name), "response", payload=io.BytesIO(body),
                                         http_headers=http)
        writer.write_record(resp)
        meta = json.dumps({"kind": "article", "spider": "site"}).encode()
        writer.write_record(writer.create_warc_record(
            URL.format(name), "metadata", payload=io.BytesIO(meta), warc_content_type="application/json",
            warc_headers_dict={"WARC-Concurrent-To": resp.rec_headers.get_header("WARC-Record-ID")},
        ))  # fmt: skip
    path.write_bytes(out.getvalue())
    return path


def as_tuples(items: list[object]) -> list[tuple[object, ...]]:
    return [dataclasses.astuple(i) for i in items]  # type: ignore[call-overload]


def test_the_short_path_reads_what_warcio_reads(tmp_path: Path) -> None:
    path = write(tmp_path / "a.warc.gz")
    fast = list(warc._scan(str(path)))
    slow = list(warc._scan_warcio(str(path)))
    assert as_tuples(fast) == as_tuples(slow) and len(fast) == len(PAGES)
    assert all(e.kind == "article" and e.spider == "site" for e in fast)
    with path.open("rb") as stream:
        for entry in fast:
            assert dataclasses.astuple(warc.read_at(stream, entry)) == dataclasses.astuple(
                warc._read_warcio(stream, entry)
            ), entry.url
    note = next(r for r in archived_responses([path]) if r.url == URL.format("4"))
    assert note.charset() == "gbk" and note.body == "新闻".encode("gbk")


def test_the_short_path_does_not_use_warcio(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path / "b.warc.gz")

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("warcio was used")

    monkeypatch.setattr(warc, "ArchiveIterator", refused)
    with ArchiveReader([path]) as reader:
        moved = reader.get(URL.format("3"))
        assert moved is not None and moved.status == 301
        assert moved.header("Location") == URL.format("1")
        packed = reader.get(URL.format("2"))
        assert packed is not None and packed.decoded_body() == b"<p>gz</p>"


def test_an_uncompressed_file_is_read_by_warcio(tmp_path: Path) -> None:
    path = write(tmp_path / "c.warc", gzipped=False)
    with ArchiveReader([path]) as reader:
        assert [u for u, _ in reader.start_points()] == [URL.format(n) for n in PAGES]
        first = reader.get(URL.format("1"))
        assert first is not None and first.body == PAGES["1"][2]


def test_a_gzipped_file_that_is_not_a_warc_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.warc.gz"
    path.write_bytes(gzip.compress(b"<html>no archive</html>"))
    with pytest.raises(ValueError, match="x.warc.gz"):
        ArchiveReader([path])


def big_archive(path: Path, sizes: list[int]) -> Path:
    """An archive (as :func:`write`) of pages of ``sizes`` bytes of text that compresses poorly, so that
    a record's compressed bytes outrun the reader's buffer when it is large."""
    rnd = random.Random(7)
    out = io.BytesIO()
    writer = WARCWriter(out, gzip=True, warc_version="1.1")
    writer.write_record(writer.create_warcinfo_record(path.name, {"software": "test"}))
    for n, size in enumerate(sizes):
        body = "".join(chr(0x4E00 + rnd.randrange(3000)) for _ in range(size // 3)).encode()
        http = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8")], protocol="HTTP/1.1")
        resp = writer.create_warc_record(
            URL.format(n), "response", payload=io.BytesIO(body), http_headers=http
        )
        writer.write_record(resp)
        rid = resp.rec_headers.get_header("WARC-Record-ID")
        request = StatusAndHeaders(f"GET /a/{n}.html HTTP/1.1", [("Host", "news.example.cn")], protocol="")
        writer.write_record(writer.create_warc_record(
            URL.format(n), "request", payload=io.BytesIO(b""), http_headers=request,
            warc_headers_dict={"WARC-Concurrent-To": rid},
        ))  # fmt: skip
        meta = json.dumps({"kind": "article", "spider": "site"}).encode()
        writer.write_record(writer.create_warc_record(
            URL.format(n), "metadata", payload=io.BytesIO(meta), warc_content_type="application/json",
            warc_headers_dict={"WARC-Concurrent-To": rid},
        ))  # fmt: skip
    path.write_bytes(out.getvalue())
    return path


#: pages smaller than the part of a record the scan inflates, a little larger, larger than the reader's
#: buffer, and a large one last (its end is the end of the file)
SIZES = [300, 5_000, 200_000, 40_000, 3_000, 150_000]


def test_the_scan_finds_every_record_without_inflating_the_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = big_archive(tmp_path / "big.warc.gz", SIZES)
    expected = as_tuples(list(warc._scan_warcio(str(path))))
    inflated: list[int] = []
    real = zlib.decompressobj

    class Counting:
        def __init__(self, wbits: int) -> None:
            self.inner = real(wbits)

        def decompress(self, data: bytes, max_length: int = 0) -> bytes:
            out = self.inner.decompress(data, max_length)
            inflated.append(len(out))
            return out

        def __getattr__(self, name: str) -> object:
            return getattr(self.inner, name)

    monkeypatch.setattr(warc.zlib, "decompressobj", Counting)
    found = as_tuples(list(warc._scan(str(path))))
    monkeypatch.undo()
    assert found == expected and len(found) == len(SIZES)
    # each record's first bytes at most: the pages, 400 KB in all, are left for the reads
    assert sum(inflated) < 3 * len(SIZES) * warc._HEAD
    with ArchiveReader([path]) as reader:
        for n, size in enumerate(SIZES):
            page = reader.get(URL.format(n))
            assert page is not None and size - 3 <= len(page.body) <= size, n


def test_a_members_end_is_found_only_after_the_inflated_length_it_was_told(tmp_path: Path) -> None:
    path = big_archive(tmp_path / "big.warc.gz", SIZES)
    # a wrong length is looked for in vain (then the scan inflates the record to find its end)
    assert warc._member_end(path.open("rb"), 0, 10**6) is None
    entries = list(warc._scan(str(path)))
    with path.open("rb") as stream:
        first = next(m for m in warc._gzip_members(stream, entries[2].offset, limit=1))
        assert warc._member_end(stream, entries[2].offset, len(first[1]) + 1) != first[2]
        assert warc._member_end(stream, entries[2].offset, len(first[1])) == first[2]


def damage(path: Path, start: int, count: int = 30) -> None:
    data = bytearray(path.read_bytes())
    for n in range(start, start + count):
        data[n] ^= 0xFF
    path.write_bytes(bytes(data))


def test_a_record_damaged_inside_its_page_is_named_when_read_and_the_others_are_read(tmp_path: Path) -> None:
    path = big_archive(tmp_path / "big.warc.gz", SIZES)
    entries = {e.url: e for e in warc.scan(path)}
    damage(path, entries[URL.format(2)].offset + 50_000)  # deep in a 200 KB page: the scan skips it
    warc._scan_cached.cache_clear()
    assert len(warc.scan(path)) == len(SIZES) and warc.damaged_records(path) == []
    with ArchiveReader([path]) as reader:
        where = f"{URL.format(2)} at byte {entries[URL.format(2)].offset}"
        with pytest.raises(warc.DamagedRecord, match=where):
            reader.get(URL.format(2))
        assert all(reader.get(URL.format(n)) is not None for n in range(len(SIZES)) if n != 2)
    damaged: list[warc.DamagedRecord] = []
    read = [a.url for a in archived_responses([path], damaged)]
    assert read == [URL.format(n) for n in range(len(SIZES)) if n != 2]
    assert [e.url for e in damaged] == [URL.format(2)]
    with pytest.raises(warc.DamagedRecord):
        list(archived_responses([path]))


def test_a_record_damaged_at_its_start_is_passed_over_by_the_scan_and_the_rest_is_found(
    tmp_path: Path,
) -> None:
    path = big_archive(tmp_path / "big.warc.gz", SIZES)
    entries = {e.url: e for e in warc.scan(path)}
    lost = entries[URL.format(4)].offset
    damage(path, lost + 12)  # the start of its deflate stream: the record's WARC headers are lost
    warc._scan_cached.cache_clear()
    found = [e.url for e in warc.scan(path)]
    assert found == [URL.format(n) for n in range(len(SIZES)) if n != 4]
    assert warc.damaged_records(path) == [lost]
    with ArchiveReader([path]) as reader:
        assert reader.damaged == [(str(path), lost)]
        assert reader.get(URL.format(5)) is not None and len(reader.get(URL.format(5)).body) > 140_000
    damaged: list[warc.DamagedRecord] = []
    assert len(list(archived_responses([path], damaged))) == len(SIZES) - 1
    assert [e.offset for e in damaged] == [lost]
