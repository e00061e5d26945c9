"""List extraction (seed 004, algorithm 2) on hand-written portal list pages."""

import json
from pathlib import Path

import pytest

from newscrawl.extract import extract
from newscrawl.extract.document import parse_html
from newscrawl.extract.listpage import ListParams, extract_list, url_shape
from newscrawl.extract.page import Page

FIXTURES = Path(__file__).parent.parent / "fixtures" / "lists"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))
LISTS = sorted(name for name, e in EXPECTED.items() if e["kind"] == "list")


@pytest.mark.parametrize("name", LISTS)
def test_entries_are_exactly_the_article_links(name):
    r = extract((FIXTURES / name).read_bytes(), EXPECTED[name]["url"])
    got = {(e.title, e.url, e.published_at) for e in r.entries}
    assert got == {tuple(e) for e in EXPECTED[name]["entries"]}


def test_article_pages_have_no_entries():
    name = "article_sina_short.html"
    r = extract((FIXTURES / name).read_bytes(), EXPECTED[name]["url"])
    assert r.page_kind == "article" and r.entries == ()


def test_relative_links_are_made_absolute_and_shown_times_kept():
    html = (
        "<html><body><ul class='nav'><li><a href='/a/'>首页</a></li><li><a href='/b/'>国内</a></li></ul>"
        "<ul class='list'>"
        + "".join(
            f"<li><a href='../c/2024/{i}.html'>第{i}条新闻的标题文字</a><span>05-0{i} 10:3{i}</span></li>"
            for i in range(1, 6)
        )
        + "</ul></body></html>"
    )
    page = Page(html=html, root=parse_html(html), url="https://news.example.cn/roll/index.html")
    entries = extract_list(page).entries
    assert [(e.url, e.published_at) for e in entries] == [
        (f"https://news.example.cn/c/2024/{i}.html", f"05-0{i} 10:3{i}") for i in range(1, 6)
    ]


def test_merge_ratio_one_returns_the_seeds_single_key():
    html = (FIXTURES / "home_sina.html").read_text(encoding="utf-8")
    page = Page(html=html, root=parse_html(html), url=EXPECTED["home_sina.html"]["url"])
    merged = extract_list(page).entries
    single = extract_list(page, ListParams(merge_ratio=1.0, same_shape=False)).entries
    assert 0 < len(single) < len(merged)
    assert set(single) <= set(merged)


def test_url_shape_abstracts_ids_and_digits():
    assert url_shape("https://news.example.cn/c/2024-05-01/doc-iabc123def456.shtml?x=1") == (
        "news.example.cn/c/9-9-9/doc-X.shtml"
    )
    assert url_shape("https://news.example.cn/china/") != url_shape("https://news.example.cn/c/2024/1.html")


@pytest.mark.parametrize(
    "params, name",
    [({"top_n": 0}, "top_n"), ({"min_count": 0}, "min_count"), ({"merge_ratio": 0}, "merge_ratio")],
)
def test_bad_parameter_raises_naming_it(params, name):
    with pytest.raises(ValueError, match=name):
        ListParams(**params).validate()


def test_links_longer_than_a_crawl_would_request_are_not_entries():
    # fuzzing met list pages whose hrefs held 20 KB of digit runs: their URL shapes took over 1 s of CPU
    from newscrawl.extract.listpage import MAX_URL_CHARS

    long = "/c/" + "1a" * MAX_URL_CHARS + ".html"
    items = "".join(
        f"<li><a href='/c/2024/{i}.html'>第{i}条新闻的标题文字</a></li>"
        f"<li><a href='{long}{i}'>第{i}条很长的链接</a></li>"
        for i in range(1, 6)
    )
    html = f"<html><body><ul class='list'>{items}</ul></body></html>"
    page = Page(html=html, root=parse_html(html), url="https://news.example.cn/roll/index.html")
    assert [e.url for e in extract_list(page).entries] == [
        f"https://news.example.cn/c/2024/{i}.html" for i in range(1, 6)
    ]
