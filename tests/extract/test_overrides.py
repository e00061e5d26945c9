"""A site's XPath overrides run by the library (newscrawl.extract.overrides and extract(field_xpaths=))."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from newscrawl.extract import extract
from newscrawl.extract.overrides import compile_field_xpaths

BODY = "<p>" + "这是一段新闻正文，讲述了本地发生的一件事情。" * 12 + "</p>"


def page(info: str, head: str = "") -> str:
    return (
        f"<html><head>{head}<title>网页标题_某网</title></head><body><h1>自动标题</h1>"
        f"<div class='info'>{info}</div><div class='content'>{BODY}{BODY}</div></body></html>"
    )


REFERENCE = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
DATE = {"published_at": "//div[@class='info']/span[@class='date']"}


@pytest.mark.parametrize(
    "written, expected",
    [
        ("2026年11月20日 下午2:30", "2026-11-20T14:30:00+08:00"),
        ("Nov 20, 2026 02:30 PM", "2026-11-20T14:30:00+08:00"),
        ("发布时间：2026-11-20 08:30", "2026-11-20T08:30:00+08:00"),
        ("2026-11-20T08:30:00Z", "2026-11-20T16:30:00+08:00"),
        ("Fri, 20 Nov 2026 08:30:00 -0000", "2026-11-20T16:30:00+08:00"),  # RFC 2822: UTC
        ("2026年11月20日", "2026-11-20"),
        ("2026年11月20日08:30  来源：临江日报", "2026-11-20T08:30:00+08:00"),
        ("2026-11-20 08:30:45\u3000来源: 示例网", "2026-11-20T08:30:45+08:00"),
        ("2026/11/20", "2026-11-20"),
        ("1795140300", "2026-11-20T10:05:00+08:00"),
        ("1795140300000", "2026-11-20T10:05:00+08:00"),
    ],
)
def test_an_overridden_time_goes_through_the_date_parser(written: str, expected: str):
    html = page(f"<span class='date'>{written}</span>")
    r = extract(html, field_xpaths=DATE, timezone="Asia/Shanghai", reference_time=REFERENCE)
    assert (r.published_at, r.sources["published_at"]) == (expected, "xpath")


def test_an_override_that_does_not_parse_leaves_the_chain():
    html = page("<span class='date'>soon</span>", head='<meta name="pubdate" content="2026-11-19">')
    r = extract(html, field_xpaths=DATE)
    assert (r.published_at, r.sources["published_at"]) == ("2026-11-19", "meta:pubdate")


def test_title_author_body_and_modified_overrides():
    html = page("<span class='by'>张三</span><span class='mod'>2026-11-21 10:00</span>")
    xpaths = {
        "title": "//title",
        "author": "//span[@class='by']",
        "body": "//div[@class='content']",
        "modified_at": "//span[@class='mod']",
    }
    r = extract(html, field_xpaths=xpaths, timezone="Asia/Shanghai")
    assert r.title == "网页标题_某网" and r.author == "张三"
    assert r.text.split("\n") == [BODY[3:-4]] * 2
    assert r.modified_at == "2026-11-21T10:00:00+08:00"
    assert {k: r.sources[k] for k in ("title", "author", "text", "modified_at")} == dict.fromkeys(
        ("title", "author", "text", "modified_at"), "xpath"
    )


def test_an_expression_giving_a_string_or_attribute():
    html = page("", head='<meta name="x-date" content="2026-11-20 08:30">')
    r = extract(html, field_xpaths={"published_at": "//meta[@name='x-date']/@content"}, timezone="UTC")
    assert r.published_at == "2026-11-20T08:30:00+00:00"
    r = extract(html, field_xpaths={"title": "string(//h1)"})
    assert (r.title, r.sources["title"]) == ("自动标题", "xpath")


def test_an_override_matching_nothing_leaves_the_chain():
    r = extract(page(""), field_xpaths={"title": "//h2"})
    assert (r.title, r.sources["title"]) != (None, "xpath")


def test_bad_fields_and_expressions_raise_early():
    with pytest.raises(ValueError, match="unknown field 'summary'"):
        extract(page(""), field_xpaths={"summary": "//p"})
    with pytest.raises(ValueError, match="field_xpaths.title: bad XPath"):
        extract(page(""), field_xpaths={"title": "//h1["})


def test_expressions_are_compiled_once_per_set():
    assert compile_field_xpaths({"title": "//h1"}) is compile_field_xpaths({"title": "//h1"})


def test_an_expression_failing_on_one_page_does_not_fail_the_page():
    r = extract(page(""), field_xpaths={"title": "$nosuchvar"})
    assert r.error is None and r.sources["title"] != "xpath"


@pytest.mark.parametrize(
    "field, written, expected",
    [
        ("author", "作者：陈海波", "陈海波"),
        ("author", "本文作者：陈海波", "陈海波"),
        ("author", "新华社记者 陈海波 李明", "陈海波、李明"),
        ("author", "文｜陈海波", "陈海波"),
        ("author", "【作者：陈海波】", "陈海波"),
        ("author", "By Jane Doe", "Jane Doe"),
        ("editor", "责任编辑：周敏", "周敏"),
        ("editor", "（责任编辑：周敏 SN123）", "周敏"),
        ("editor", "本文编辑：周敏", "周敏"),
        ("editor", "Editor: Jane Doe", "Jane Doe"),
        ("source", "来源：新华网", "新华网"),
        ("source", "本文来源：新京报 2026-11-20", "新京报"),
    ],
)
def test_a_credit_override_loses_its_label(field: str, written: str, expected: str):
    html = page(f"<span class='credit'>{written}</span>")
    r = extract(html, field_xpaths={field: "//span[@class='credit']"})
    assert (getattr(r, field), r.sources[field]) == (expected, "xpath")


def test_an_override_given_as_a_text_node_or_attribute_loses_its_label_too():
    html = page("<span class='by' title='作者：陈海波'>责任编辑：周敏</span>")
    xpaths = {"author": "//span[@class='by']/@title", "editor": "//span[@class='by']/text()"}
    r = extract(html, field_xpaths=xpaths)
    assert (r.author, r.authors, r.editor) == ("陈海波", ("陈海波",), "周敏")


@pytest.mark.parametrize(
    "written", ["责任编辑：AP0015", "编辑：ZN012", "（责任编辑：NF075 (本文来源：财华社)）"]
)
def test_an_editor_override_holding_only_a_staff_number_gives_no_editor(written: str):
    html = page(f"<span class='credit'>{written}</span>")
    r = extract(html, field_xpaths={"editor": "//span[@class='credit']"})
    assert (r.editor, r.sources["editor"]) == (None, None)


@pytest.mark.parametrize("written", ["责任编辑：张三 AP0015", "（责任编辑：张三_NB10086）"])
def test_an_editor_override_keeps_the_name_before_a_staff_number(written: str):
    html = page(f"<span class='credit'>{written}</span>")
    r = extract(html, field_xpaths={"editor": "//span[@class='credit']"})
    assert (r.editor, r.sources["editor"]) == ("张三", "xpath")
