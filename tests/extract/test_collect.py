"""What a page says about itself: meta tags, JSON-LD, <title>, <time>, canonical link, <base>."""

from newscrawl.extract.document import parse_html
from newscrawl.extract.metadata.collect import collect_page_meta


def meta_of(head: str, body: str = "<p>正文</p>") -> object:
    return collect_page_meta(parse_html(f"<html lang='zh-CN'><head>{head}</head><body>{body}</body></html>"))


def test_meta_tags_by_name_property_and_itemprop_first_value_wins():
    pm = meta_of(
        "<meta name='Author' content=' 王五 '><meta property='og:title' content='标题'>"
        "<meta name='author' content='赵六'><meta itemprop='section' content='财经'><meta name='empty'>"
    )
    assert pm.meta == {"author": "王五", "og:title": "标题", "section": "财经"}
    assert pm.multi == {"author": ["王五", "赵六"]}


def test_json_ld_of_both_types_with_graph_flattened_and_broken_blocks_skipped():
    pm = meta_of(
        "<script type='application/ld+json'>{\"@graph\": [{\"@type\": \"NewsArticle\"}]}</script>"
        "<script type='application/json+ld'>[{\"@type\": \"Person\"}]</script>"
        "<script type='application/ld+json'>{broken</script><script type='text/json'>{\"a\": 1}</script>"
    )
    assert [o["@type"] for o in pm.json_ld if "@type" in o] == ["NewsArticle", "Person"]


def test_the_first_title_and_the_declared_language():
    pm = meta_of("<title> 第一 标题 </title><title>第二</title>")
    assert (pm.title, pm.language) == ("第一 标题", "zh-CN")


def test_times_in_document_order_from_time_elements_and_date_published_markup():
    pm = meta_of(
        "",
        "<time>没有属性</time><span itemprop='datePublished' datetime='2024-01-02'>x</span>"
        "<time pubdate>2024年1月3日</time><time datetime='2024-01-04T08:00'>y</time>"
        "<time itemprop='datePublished' datetime='2024-01-05'>z</time>"
        "<span itemprop='datePublished'>no datetime</span>",
    )
    assert pm.times == [
        ("2024-01-02", "itemprop"), ("2024年1月3日", "time"), ("2024-01-04T08:00", "time"),
        ("2024-01-05", "itemprop"),
    ]


def test_times_without_date_published_holders_are_the_dated_time_elements_in_document_order():
    # no itemprop holder to merge: the times come from the walk over the tags alone
    pm = meta_of(
        "<meta itemprop='datePublished' content='2024-04-30'><time datetime='2024-01-01'>head</time>",
        "<time>没有属性</time><time pubdate>2024年1月3日</time>"
        "<div><time datetime='2024-01-04'>y</time></div>"
        "<span itemprop='dateModified' content='2024-01-05'>z</span>",
    )
    assert pm.times == [("2024-01-01", "time"), ("2024年1月3日", "time"), ("2024-01-04", "time")]


def test_canonical_link_in_any_case_between_white_space_the_first_with_href():
    pm = meta_of(
        "<link rel='canonical nofollow' href='/not-1'><link rel='canonical'>"
        "<link rel=' CANONICAL\n' href='/a/1.html'><link rel='canonical' href='/a/2.html'>"
    )
    assert pm.canonical == "/a/1.html"
    assert meta_of("<link rel='canonical' href='  '>").canonical is None


def test_base_href_of_the_first_base_that_has_one():
    assert meta_of("<base target='_blank'><base href=' https://a.example/x/ '>").base == "https://a.example/x/"
    assert meta_of("<base target='_blank'>").base is None


def test_a_title_or_meta_value_of_megabytes_is_read_only_so_far() -> None:
    # a fuzzed page with a 7 MB <title> spent 3 s of CPU splitting and matching it for site names
    from newscrawl.extract import extract
    from newscrawl.extract.metadata.collect import META_VALUE_MAX_CHARS

    huge = "头条 " * 200_000
    html = f"<html><head><title>{huge}</title><meta name='description' content='{huge}'></head>"
    text = "临江大桥今天上午正式通车，全长三公里。" * 20
    html += f"<body><h1>临江大桥今日通车</h1><p>{text}</p></body></html>"
    meta = collect_page_meta(parse_html(html))
    assert meta.title is not None and len(meta.title) <= META_VALUE_MAX_CHARS
    assert len(meta.meta["description"]) <= META_VALUE_MAX_CHARS
    assert meta.title.startswith("头条 头条")
    assert extract(html).title == "临江大桥今日通车"


def _live_blog(updates: int) -> str:
    """A live blog's JSON-LD: the article's keys first, then a long list of updates with keys of their own."""
    update = (
        '{"@type": "BlogPosting", "datePublished": "2024-05-02T09:%02d:00Z", "headline": "Update \\"%d\\"",'
        ' "articleBody": "' + "Police say the road stays closed. " * 20 + '"}'
    )
    items = ", ".join(update % (i % 60, i) for i in range(updates))
    return (
        '{"@context": "https://schema.org", "@type": "LiveBlogPosting",'
        ' "datePublished": "2024-05-01T08:30:00Z", "dateModified": "2024-05-02T10:00:00Z",'
        ' "headline": "Storm LIVE: \\"red\\" warning", "author": [{"@type": "Person", "name": "Ann Lee"}],'
        f' "liveBlogUpdate": [{items}], "publisher": {{"name": "After the cut"}}}}'
    )


def test_an_oversized_json_ld_block_gives_its_top_level_article_keys() -> None:
    # a live blog's JSON-LD of 840 kB was skipped whole, and its datePublished with it
    from newscrawl.extract.metadata.collect import JSON_LD_MAX_CHARS

    ld = _live_blog(1000)
    assert len(ld) > JSON_LD_MAX_CHARS
    pm = meta_of(f"<script type='application/ld+json'>{ld}</script>")
    assert pm.json_ld == [{
        "@type": "LiveBlogPosting", "datePublished": "2024-05-01T08:30:00Z",
        "dateModified": "2024-05-02T10:00:00Z", "headline": 'Storm LIVE: "red" warning',
        "author": [{"@type": "Person", "name": "Ann Lee"}],
    }]


def test_an_oversized_json_ld_block_without_top_level_keys_in_its_head_gives_nothing() -> None:
    updates = _live_blog(1000).split('"liveBlogUpdate": [', 1)[1]
    nested_first = '{"@type": "LiveBlogPosting", "liveBlogUpdate": [' + updates
    pm = meta_of(f"<script type='application/ld+json'>{nested_first}</script>")
    assert pm.json_ld == []  # the updates' own datePublished are not the article's


def test_a_hostile_oversized_json_ld_block_costs_a_few_ms() -> None:
    import time

    blocks = [
        '{"author": ' + "[" * 3_000_000,  # nested past the recursion limit
        '{"headline": "' + "x" * 8_000_000 + '"}',  # one string of megabytes
        "{" + '"datePublished": {"a": "b"}, ' * 300_000,  # keys without end
        '{"a": "' + '\\"{[' * 2_000_000,  # escapes and brackets inside an unclosed string
    ]
    for ld in blocks:
        script = f"<script type='application/ld+json'>{ld}</script>"
        root = parse_html(f"<html><head>{script}</head><body></body></html>")
        t0 = time.process_time()
        collect_page_meta(root)
        assert time.process_time() - t0 < 0.05


def test_a_date_published_holder_may_give_its_value_in_content() -> None:
    # microdata on an element other than <meta> gives its machine value in content (datetime is <time>'s)
    pm = meta_of(
        "<meta itemprop='datePublished' content='2024-04-30'>",
        "<div itemprop='datePublished' content='2024-05-01T10:00:00+01:00'>1 May</div>"
        "<span itemprop='datePublished' content=''>2 May</span>",
    )
    assert pm.times == [("2024-05-01T10:00:00+01:00", "itemprop"), ("2 May", "itemprop")]
    assert pm.meta == {"datepublished": "2024-04-30"}


def test_a_reviews_date_published_is_not_the_pages() -> None:
    # a product page's reviews are microdata items of their own, each with a datePublished in content
    pm = meta_of(
        "",
        "<div itemscope itemtype='https://schema.org/Product'><h1>Hutch</h1>"
        "<div itemprop='review' itemscope itemtype='https://schema.org/Review'>"
        "<span itemprop='datePublished' content='2020-06-08 00:00:00'></span>"
        "<time itemprop='datePublished' datetime='2020-06-09'>9 June</time></div></div>"
        "<article itemscope itemtype='https://schema.org/NewsArticle'>"
        "<div itemprop='datePublished' content='2024-05-01T10:00:00+01:00'>1 May</div></article>",
    )
    assert pm.times == [("2020-06-09", "time"), ("2024-05-01T10:00:00+01:00", "itemprop")]
