"""Elasticsearch/OpenSearch bulk export of the store, and the index mapping file."""

import json
from pathlib import Path

from newscrawl.cli import main
from newscrawl.storage.base import RECORD_FIELDS
from newscrawl.storage.export import document_id, es_bulk_lines
from newscrawl.storage.sqlite import SqliteSink

MAPPING = Path(__file__).resolve().parents[2] / "data" / "es" / "mapping.json"


def rec(n: int, title: str) -> dict:
    url = f"http://news.example.cn/{n}.shtml"
    return {"url": url, "canonical_url": url, "site": "demo", "title": title, "text": "正文内容",
            "published_at": "2026-11-20T08:30:00+08:00", "crawled_at": "2026-11-21T00:00:00+00:00"}


def test_two_lines_per_record_action_then_document():
    lines = [json.loads(line) for line in es_bulk_lines([rec(1, "标题")], "news")]
    assert lines[0] == {"index": {"_index": "news", "_id": document_id("http://news.example.cn/1.shtml")}}
    assert lines[1]["title"] == "标题" and "author" not in lines[1]


def test_document_id_is_stable_and_short():
    long_url = "http://news.example.cn/" + "x" * 3000
    assert document_id(long_url) == document_id(long_url) and len(document_id(long_url)) == 40


def test_cli_exports_every_stored_record(tmp_path, capsys):
    sink = SqliteSink(tmp_path / "c.sqlite3")
    sink.open()
    sink.write([rec(1, "第一篇"), rec(2, "第二篇"), rec(1, "第一篇（更新）")])
    sink.close()
    out = tmp_path / "bulk.ndjson"
    assert main(["export", "--format", "es-bulk", "--db", sink.path, "-o", str(out), "--index", "x"]) == 0
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 4
    assert [d["title"] for d in lines[1::2]] == ["第一篇（更新）", "第二篇"]
    assert all(a["index"]["_index"] == "x" for a in lines[0::2])
    assert "2 records" in capsys.readouterr().err


def test_mapping_is_valid_json_covering_every_record_field():
    mapping = json.loads(MAPPING.read_text(encoding="utf-8"))
    properties = mapping["mappings"]["properties"]
    assert set(RECORD_FIELDS) <= set(properties)
    assert properties["published_at"]["type"] == properties["crawled_at"]["type"] == "date"
    assert properties["text"]["analyzer"] in mapping["settings"]["analysis"]["analyzer"]


def test_list_fields_round_trip_through_sqlite_and_export_as_arrays(tmp_path):
    sink = SqliteSink(tmp_path / "l.sqlite3")
    sink.open()
    record = rec(1, "标题") | {"authors": ["张三", "李四"], "tags": ["地铁"], "editor": "王五",
                               "images": [{"url": "http://news.example.cn/a.jpg", "caption": "图"}]}
    sink.write([record])
    stored = sink.get(record["canonical_url"])
    assert stored["authors"] == ["张三", "李四"] and stored["images"][0]["caption"] == "图"
    doc = json.loads(list(es_bulk_lines([stored], "x"))[1])
    assert doc["tags"] == ["地铁"] and doc["editor"] == "王五"
    sink.close()


def test_a_store_made_before_the_new_fields_gets_their_columns(tmp_path):
    import sqlite3

    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE articles (canonical_url TEXT PRIMARY KEY, url TEXT, site TEXT, title TEXT, "
               "author TEXT, crawled_at TEXT, first_crawled_at TEXT)")
    db.commit()
    db.close()
    sink = SqliteSink(path, search=False)
    sink.open()
    sink.write([rec(1, "标题") | {"source": "新京报", "tags": ["a"]}])
    assert sink.get("http://news.example.cn/1.shtml")["source"] == "新京报"
    sink.close()

