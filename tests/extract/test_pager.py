"""Continuation pages of a split article are found from the shapes of their URLs, and nothing else is."""

import pytest

from newscrawl.extract.pager import MAX_PAGES, continuation_urls, first_page, page_number

FIRST = "https://news.example.cn/c/2026-11-20/doc-iabc123.shtml"


@pytest.mark.parametrize(
    ("link", "expected"),
    [
        ("https://news.example.cn/c/2026-11-20/doc-iabc123_2.shtml", 2),
        ("https://news.example.cn/c/2026-11-20/doc-iabc123-12.shtml", 12),
        ("https://news.example.cn/c/2026-11-20/doc-iabc123_2.shtml#top", 2),
        ("https://news.example.cn/c/2026-11-20/doc-iabc123_1.shtml", None),  # page 1 is the first page
        ("https://news.example.cn/c/2026-11-20/doc-ixyz999_2.shtml", None),  # another article's page 2
        ("https://news.example.cn/c/2026-11-20/doc-iabc123_2.html", None),  # another extension
        ("https://other.example.cn/c/2026-11-20/doc-iabc123_2.shtml", None),  # another host
        ("https://news.example.cn/c/index_2.html", None),  # a list's pagination
        ("https://news.example.cn/c/2026-11-20/doc-iabc123.shtml", None),  # the page itself
    ],
)
def test_page_number_of_suffixed_file_names(link: str, expected: int | None) -> None:
    assert page_number(link, FIRST) == expected


def test_page_number_of_query_parameters_keeps_the_other_parameters() -> None:
    first = "https://n.example.com/article?id=7"
    assert page_number("https://n.example.com/article?id=7&page=3", first) == 3
    assert page_number("https://n.example.com/article?page=3&id=7", first) == 3
    assert page_number("https://n.example.com/article?id=8&page=3", first) is None
    assert page_number("https://n.example.com/article?id=7&page=abc", first) is None


def test_continuations_are_ordered_deduplicated_and_capped() -> None:
    links = [
        "https://news.example.cn/c/2026-11-20/doc-iabc123_3.shtml",
        "https://news.example.cn/c/2026-11-20/doc-iabc123_2.shtml",
        "https://news.example.cn/c/2026-11-20/doc-iabc123_3.shtml",  # "3" and "下一页" link the same page
        "https://news.example.cn/c/2026-11-20/doc-iabc123_999.shtml",  # over the cap
        "https://news.example.cn/",
    ]
    assert continuation_urls(FIRST, links) == [
        "https://news.example.cn/c/2026-11-20/doc-iabc123_2.shtml",
        "https://news.example.cn/c/2026-11-20/doc-iabc123_3.shtml",
    ]
    assert MAX_PAGES < 999


def test_first_page_of_a_later_page() -> None:
    assert first_page("https://news.example.cn/c/doc-iabc123_2.shtml") == "https://news.example.cn/c/doc-iabc123.shtml"
    assert first_page("https://n.example.com/article?id=7&page=2") == "https://n.example.com/article?id=7"
    assert first_page("https://n.example.com/article?id=7&page=1") is None
    assert first_page(FIRST) is None


def test_the_cheap_byte_test_lets_a_page_with_a_pager_through_and_stops_the_rest() -> None:
    from newscrawl.extract.pager import may_link_later_pages

    assert may_link_later_pages(FIRST, b'<div class="pager"><a href="doc-iabc123_2.shtml">2</a></div>')
    assert may_link_later_pages("https://n.example.com/article?id=7", b'<a href="article?id=7&page=2">2</a>')
    assert not may_link_later_pages(FIRST, b"<p>no pager here</p><a href='/c/doc-ixyz999.shtml'>x</a>")
    # whenever the byte test says no, the parsed links hold no later page either
    links = ["https://news.example.cn/c/2026-11-20/doc-ixyz999_2.shtml"]
    body = b"".join(b'<a href="' + u.encode() + b'">2</a>' for u in links)
    assert not may_link_later_pages(FIRST, body) and continuation_urls(FIRST, links) == []


def test_the_byte_test_finds_a_later_page_after_many_plain_mentions_of_the_stem() -> None:
    from newscrawl.extract import pager

    plain = b'<a href="doc-iabc123.shtml">again</a>' * (pager._STEM_PLACES + 3)
    # the stem named often without a page mark, then once with one: past the places checked one by one
    assert pager.may_link_later_pages(FIRST, plain + b'<a href="doc-iabc123_2.shtml">2</a>')
    assert pager.may_link_later_pages(FIRST, b'<a href="doc-iabc123-2.shtml">2</a>' + plain)
    assert not pager.may_link_later_pages(FIRST, plain)
    # the stem as the body's last bytes has no mark after it
    assert not pager.may_link_later_pages(FIRST, b"<p>see doc-iabc123")
    # overlapping places: the second starts inside the first
    assert pager.may_link_later_pages("https://n.example.com/a/aa.html", b"xaaa_2")
