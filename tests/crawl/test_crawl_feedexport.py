"""newscrawl's JSON-lines feed exporter writes Scrapy's bytes, whatever the item and the feed options."""

from __future__ import annotations

import dataclasses
import io
import subprocess
import sys
from typing import Any

import pytest
import scrapy
from hypothesis import given, settings
from hypothesis import strategies as st
from scrapy.exceptions import NotConfigured
from scrapy.exporters import JsonLinesItemExporter
from scrapy.settings import Settings
from scrapy.utils.misc import load_object
from scrapy.utils.test import get_crawler

from newscrawl.crawl.feedexport import JSON_LINES_EXPORTER, JSON_LINES_FORMATS, FeedAddon, OnDemand
from newscrawl.crawl.jsonlines import JsonLinesExporter
from newscrawl.items import EXPORT_FIELDS, NewsItem


@dataclasses.dataclass
class Point:
    """An item of another kind (itemadapter's dataclass adapter): Scrapy's path."""

    name: int
    count: int


class Serialized(scrapy.Item):
    name = scrapy.Field()
    count = scrapy.Field(serializer=lambda value: f"#{value}")


def lines(cls: type[JsonLinesItemExporter], items: list[Any], **options: Any) -> bytes:
    out = io.BytesIO()
    exporter = cls(out, **options)
    exporter.start_exporting()
    for item in items:
        exporter.export_item(item)
    exporter.finish_exporting()
    return out.getvalue()


def record(**fields: Any) -> NewsItem:
    base = {
        "url": "http://a.test/1", "canonical_url": "http://a.test/1", "title": "标题 \"quoted\"",
        "text": "第一段\n第二段 \u2028 \ud7ff", "authors": ["甲", "乙"], "images": [{"url": "http://a.test/i.jpg",
        "caption": None}], "tags": [], "pages": 1, "duplicate_of": None, "figures": {"n": 1.5},
    }  # fmt: skip
    return NewsItem(**{**base, **fields})


ITEMS = [
    record(),
    record(title=None, published_at="2024-09-03T04:03:19+08:00"),
    NewsItem(url="http://a.test/2"),  # most fields missing
    {"url": "http://a.test/3", "title": "a dict item", "text": "x", "extra": 1},
    Serialized(name="s", count=3),  # a field with a serializer: Scrapy's path
    Point(4, 5),  # an item of another kind: Scrapy's path
]
OPTIONS = [
    {"fields_to_export": list(EXPORT_FIELDS), "encoding": "utf-8"},  # what newscrawl's settings give
    {"fields_to_export": list(EXPORT_FIELDS), "encoding": None},  # ASCII escapes
    {"fields_to_export": list(EXPORT_FIELDS), "encoding": "utf-8", "export_empty_fields": True},
    {"fields_to_export": ["title", "url", "count"], "encoding": "latin-1", "ensure_ascii": True},
    {"fields_to_export": {"url": "link", "title": "headline"}, "encoding": "utf-8"},  # a mapping
    {"fields_to_export": None, "encoding": "utf-8"},
    {"fields_to_export": tuple(EXPORT_FIELDS), "encoding": "utf-8", "indent": 2},
]


@pytest.mark.parametrize("options", OPTIONS)
def test_the_feed_is_scrapys_byte_for_byte(options):
    assert lines(JsonLinesExporter, ITEMS, **options) == lines(JsonLinesItemExporter, ITEMS, **options)


def test_only_plain_items_and_fields_take_the_fast_path():
    exporter = JsonLinesExporter(io.BytesIO(), fields_to_export=["name", "count"])
    exporter.export_item(Serialized(name="s", count=3))
    exporter.export_item(record())
    exporter.export_item({"name": "d"})
    assert exporter._plain == {Serialized: False, NewsItem: True, dict: True}
    mapped = JsonLinesExporter(io.BytesIO(), fields_to_export={"url": "link"})
    assert mapped._names is None


def test_an_overridden_serialize_field_is_honoured():
    class Upper(JsonLinesExporter):
        def serialize_field(self, field: Any, name: str, value: Any) -> Any:
            return value.upper() if isinstance(value, str) else value

    out = lines(Upper, [record(title="abc")], fields_to_export=["title"], encoding="utf-8")
    assert out == b'{"title": "ABC"}\n'


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(EXPORT_FIELDS), json_values), st.booleans(), st.booleans())
def test_any_record_is_written_as_scrapy_writes_it(fields, utf8, empty):
    options = {"fields_to_export": list(EXPORT_FIELDS), "encoding": "utf-8" if utf8 else None,
               "export_empty_fields": empty}  # fmt: skip
    items = [NewsItem(**fields), dict(fields)]
    assert lines(JsonLinesExporter, items, **options) == lines(JsonLinesItemExporter, items, **options)


def test_the_addon_installs_it_for_json_lines_and_keeps_a_projects_own_exporters():
    own = {"csv": "my.CsvExporter", "jl": "my.JlExporter"}
    settings = Settings({"FEED_EXPORTERS": own}, priority="project")
    FeedAddon().update_settings(settings)
    exporters = settings.getdict("FEED_EXPORTERS")
    assert exporters == {"csv": "my.CsvExporter", "jl": "my.JlExporter", "jsonlines": JSON_LINES_EXPORTER}
    crawler = get_crawler(settings_dict={"ADDONS": {FeedAddon: 0}})
    got = crawler.settings.getwithbase("FEED_EXPORTERS")
    assert all(load_object(got[name]) is JsonLinesExporter for name in JSON_LINES_FORMATS)


def test_a_record_is_written_without_importing_itemadapter(tmp_path):
    # Scrapy's exporters module imports itemadapter, which imports pydantic and attrs when installed (80-85
    # ms of every reextract's start-up): newscrawl's JSON-lines feed writes records without either
    feed = tmp_path / "out.jsonl"
    script = f"""
import sys
from scrapy.utils.test import get_crawler
from newscrawl.crawl.feedexport import FeedAddon, FeedExporter
from newscrawl.items import NewsItem
crawler = get_crawler(settings_dict={{"ADDONS": {{FeedAddon: 0}},
                                      "FEEDS": {{{str(feed)!r}: {{"format": "jsonlines"}}}}}})
feed = FeedExporter.from_crawler(crawler)
assert "jsonlines" in feed.exporters and "nosuchformat" not in feed.exporters
exporter = feed.exporters["jsonlines"](open({str(feed)!r}, "wb"), encoding="utf-8",
                                       fields_to_export={list(EXPORT_FIELDS)!r})
exporter.export_item(NewsItem(url="http://a.test/1", title="标题", authors=["甲"]))
exporter.export_item({{"url": "http://a.test/2", "pages": 2}})
exporter.file.close()
print(sorted(m for m in ("itemadapter", "pydantic", "scrapy.exporters") if m in sys.modules))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
    items = [NewsItem(url="http://a.test/1", title="标题", authors=["甲"]),
             {"url": "http://a.test/2", "pages": 2}]  # fmt: skip
    expected = lines(JsonLinesItemExporter, items, encoding="utf-8", fields_to_export=list(EXPORT_FIELDS))
    assert feed.read_bytes() == expected


def test_without_itemadapter_items_take_the_paths_they_take_with_it(monkeypatch):
    with_it = JsonLinesExporter(io.BytesIO(), fields_to_export=["name", "count"])
    items = [Serialized(name="s", count=3), record(), {"name": "d"}, Point(1, 2)]
    decided = [with_it._plain_type(item) for item in items]
    for name in [m for m in sys.modules if m == "itemadapter" or m.startswith("itemadapter.")]:
        monkeypatch.delitem(sys.modules, name)
    without = JsonLinesExporter(io.BytesIO(), fields_to_export=["name", "count"])
    assert [without._plain_type(item) for item in items] == decided == [False, True, True, False]


class Failing:
    """A component whose import says it is switched off."""


def test_feed_components_are_loaded_when_asked_for(monkeypatch):
    loaded = []

    def load(path: str) -> Any:
        loaded.append(path)
        if path == "off.Component":
            raise NotConfigured
        return Failing

    monkeypatch.setattr("newscrawl.crawl.feedexport.load_object", load)
    components = OnDemand({"jsonlines": "my.Exporter", "off": "off.Component", "csv": "my.Csv"})
    assert loaded == []
    assert "jsonlines" in components and components["jsonlines"] is Failing
    assert loaded == ["my.Exporter"]
    assert "off" not in components and "none" not in components
    with pytest.raises(KeyError):
        components["off"]
    assert sorted(components) == ["csv", "jsonlines"] and len(components) == 2
    assert loaded == ["my.Exporter", "off.Component", "my.Csv"]  # each once
