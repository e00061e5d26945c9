"""Feeds and sitemaps: entries found, entities never expanded, gzip capped, bad bodies give nothing."""

from __future__ import annotations

import gzip

from newscrawl.spiders.feeds import (
    gunzip_capped,
    iter_xml_feed,
    looks_like_json,
    looks_like_xml,
    parse_roll_feed,
    parse_xml_feed,
)

NEWS_SITEMAP = b"""<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
  <url><loc>https://news.example.cn/a/1.shtml</loc><lastmod>2026-11-19</lastmod>
    <news:news><news:publication_date>2026-11-20T08:30:00+08:00</news:publication_date>
    <news:title>\xe6\xa0\x87\xe9\xa2\x98</news:title></news:news></url>
  <url><loc>https://news.example.cn/a/2.shtml</loc><lastmod>2026-11-18</lastmod></url>
</urlset>"""


def test_news_sitemap_gives_urls_titles_and_publication_dates():
    entries = parse_xml_feed(NEWS_SITEMAP)
    assert [e.url for e in entries] == ["https://news.example.cn/a/1.shtml", "https://news.example.cn/a/2.shtml"]
    assert entries[0].published_at == "2026-11-20T08:30:00+08:00" and entries[0].title == "标题"
    assert entries[1].published_at == "2026-11-18"  # plain sitemap: lastmod


def test_sitemap_index_entries_are_sitemaps():
    body = b"""<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <sitemap><loc>https://news.example.cn/sitemap-1.xml</loc></sitemap></sitemapindex>"""
    (entry,) = parse_xml_feed(body)
    assert entry.kind == "sitemap" and entry.url.endswith("sitemap-1.xml")


def test_rss_items():
    body = b"""<?xml version="1.0"?><rss version="2.0"><channel><title>c</title>
      <item><title>One</title><link>https://e.example/1</link>
      <pubDate>Fri, 20 Nov 2026 08:30:00 +0800</pubDate></item>
      <item><title>No link</title></item></channel></rss>"""
    (entry,) = parse_xml_feed(body)
    assert (entry.url, entry.title, entry.published_at) == (
        "https://e.example/1", "One", "Fri, 20 Nov 2026 08:30:00 +0800"
    )


def test_atom_entries_use_alternate_links():
    body = b"""<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>A</title>
      <link rel="self" href="https://e.example/self"/><link href="https://e.example/a"/>
      <published>2026-11-20T00:30:00Z</published></entry></feed>"""
    (entry,) = parse_xml_feed(body)
    assert entry.url == "https://e.example/a" and entry.published_at == "2026-11-20T00:30:00Z"


def test_external_entities_are_not_resolved(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET", encoding="utf-8")
    body = f"""<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file://{secret}">]>
      <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <url><loc>https://e.example/&x;</loc></url></urlset>""".encode()
    assert all("TOPSECRET" not in e.url for e in parse_xml_feed(body))


def test_entity_bombs_are_not_expanded():
    lol = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 9))
    body = f"""<?xml version="1.0"?><!DOCTYPE r [<!ENTITY l0 "lol">{lol}]>
      <rss><channel><item><title>&l8;</title><link>https://e.example/1</link></item></channel></rss>""".encode()
    entries = parse_xml_feed(body)
    assert all(len(e.title or "") < 1000 for e in entries)


def test_garbage_is_not_a_feed():
    assert parse_xml_feed(b"\x89PNG\r\n\x1a\n\x00\x00") == []
    assert parse_xml_feed(b"<html><body>not a feed</body></html>") == []


def test_sina_shaped_roll_feed():
    body = (
        '{"result": {"status": {"code": 0}, "data": ['
        '{"title": "标题一", "url": "https://news.example.cn/c/1.shtml", "ctime": "1795140300"},'
        '{"title": "no url"},'
        '{"title": "标题二", "url": "/c/2.shtml", "ctime": 1795139100}]}}'
    ).encode()
    entries = parse_roll_feed(body)
    assert [e.url for e in entries] == ["https://news.example.cn/c/1.shtml", "/c/2.shtml"]
    assert entries[1].published_at == "1795139100"


def test_roll_feed_paths_and_jsonp_are_configurable():
    body = b'cb({"list": [{"link": "https://e.example/1", "name": "T", "time": "2026-11-20 08:30"}]});'
    (entry,) = parse_roll_feed(body, items="list", url="link", title="name", published_at="time")
    assert (entry.url, entry.title, entry.published_at) == ("https://e.example/1", "T", "2026-11-20 08:30")


def test_roll_feed_that_is_not_json_gives_nothing():
    assert parse_roll_feed(b"<html>oops</html>") == []
    assert parse_roll_feed(b'{"result": {"data": "nope"}}') == []


def test_body_sniffing():
    assert looks_like_xml(b"\xef\xbb\xbf  <?xml version='1.0'?><rss/>") and looks_like_xml(b"<urlset>")
    assert not looks_like_xml(b"<!DOCTYPE html><html>")
    xhtml = b'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml">'
    assert not looks_like_xml(xhtml + b"<body><p>rss feed</p></body></html>")
    assert looks_like_xml(b'<?xml version="1.0"?><?xml-stylesheet href="s.xsl"?><rdf:RDF xmlns:rdf="x">')
    assert looks_like_json(b' {"a": 1}') and not looks_like_json(b"<html>")


def test_gzip_sitemap_is_inflated():
    body = b"<urlset><url><loc>https://e.example/1</loc></url></urlset>"
    assert [e.url for e in parse_xml_feed(gzip.compress(body))] == ["https://e.example/1"]


def test_gzip_bomb_is_not_inflated_past_the_cap():
    bomb = gzip.compress(b"<urlset>" + bytes(4 * 1024 * 1024))  # 4 MiB of zeros in about 4 KiB
    assert len(bomb) < 10_000
    assert gunzip_capped(bomb, max_size=1024 * 1024) is None


def test_corrupt_gzip_is_not_a_feed():
    assert parse_xml_feed(gzip.compress(b"<urlset></urlset>")[:12]) == []


def test_a_sitemap_is_read_as_a_stream():
    body = (
        b'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        + b"".join(b"<url><loc>https://a.example/%d</loc></url>" % n for n in range(200_000))
        + b"</urlset>"
    )
    entries = iter_xml_feed(body)
    assert next(entries).url == "https://a.example/0"
    assert sum(1 for _ in entries) == 199_999


def test_a_truncated_feed_gives_the_entries_before_the_cut():
    body = NEWS_SITEMAP[: NEWS_SITEMAP.index(b"<url><loc>https://news.example.cn/a/2")] + b"<url><lo"
    assert [e.url for e in parse_xml_feed(body)] == ["https://news.example.cn/a/1.shtml"]
