"""URL keys: normalisation and the canonical URL a page may claim."""

from __future__ import annotations

import pytest

from newscrawl.extract import extract
from newscrawl.extract.urls import canonical_url, normalize_url, registrable_domain, same_site

PAGE = "https://news.sina.com.cn/c/2026-11-20/doc-i1.shtml"


@pytest.mark.parametrize(
    "url,key",
    [
        ("HTTP://News.Sina.COM.cn:80/a?b=1#frag", "http://news.sina.com.cn/a?b=1"),
        ("https://news.sina.com.cn:8443/a", "https://news.sina.com.cn:8443/a"),
        ("https://a.cn/x?utm_source=wx&id=3&UTM_Medium=m&fbclid=z&spm=1.2", "https://a.cn/x?id=3"),
        ("https://a.cn/x?utm_source=wx", "https://a.cn/x"),
        ("https://a.cn/x?q=%E4%B8%AD+1&r=", "https://a.cn/x?q=%E4%B8%AD+1&r="),  # spelling kept
        ("https://a.cn", "https://a.cn/"),
        ("https://[::1]:443/x", "https://[::1]/x"),
        ("https://a.cn:99999/x#y", "https://a.cn:99999/x"),  # a bad port: only the fragment goes
    ],
)
def test_normalize_url(url: str, key: str) -> None:
    assert normalize_url(url) == key


def test_registrable_domains_come_from_the_bundled_suffix_list() -> None:
    assert registrable_domain("news.sina.com.cn") == "sina.com.cn"
    assert registrable_domain("a.b.example.co.uk") == "example.co.uk"
    assert registrable_domain("alice.github.io") == "alice.github.io"  # a private suffix
    assert registrable_domain("127.0.0.1") == "127.0.0.1"


def test_same_site() -> None:
    assert same_site("https://finance.sina.com.cn/x", PAGE)
    assert not same_site("https://sina.com.cn.evil.cn/x", PAGE)
    assert not same_site("https://bob.github.io/x", "https://alice.github.io/y")
    assert same_site("https://www.bbc.co.uk/x", "https://www.bbc.com/y", ["bbc.com", "bbc.co.uk"])
    assert not same_site("https://finance.sina.com.cn/x", PAGE, ["news.sina.com.cn"])
    assert same_site("http://127.0.0.1:8000/x", "http://127.0.0.1:8000/y", ["example.cn"])  # own host


def test_canonical_url_accepts_only_the_pages_own_site() -> None:
    assert canonical_url(PAGE, ["/c/doc-i2.shtml?utm_campaign=x"]) == "https://news.sina.com.cn/c/doc-i2.shtml"
    assert canonical_url(PAGE, ["https://news.qq.com/a/1.html"]) == PAGE
    declared = [None, "", "https://news.qq.com/a/1.html", "/c/3.shtml"]
    assert canonical_url(PAGE, declared) == "https://news.sina.com.cn/c/3.shtml"
    assert canonical_url(PAGE, ["https://news.sina.com.cn/"]) == PAGE  # a home page claimed by an article
    assert canonical_url(PAGE + "?utm_source=x", []) == PAGE


def test_extract_reports_the_declared_canonical_as_written() -> None:
    page = (
        '<html><head><link rel=" Canonical " href="https://x.example/1?a=1&#38;b=2">'
        '<!-- <link rel="canonical" href="/commented"> --></head><body><p>text</p></body></html>'
    )
    assert extract(page, PAGE).canonical_link == "https://x.example/1?a=1&b=2"
    og = '<html><head><meta property="og:url" content="/c/9.shtml"></head><body><p>t</p></body></html>'
    assert extract(og, PAGE).canonical_link == "/c/9.shtml"
