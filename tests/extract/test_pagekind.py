"""Page kind (article vs list) on hand-written portal list pages and chrome-heavy article pages."""

import json
from pathlib import Path

import pytest

from newscrawl.extract import extract

FIXTURES = Path(__file__).parent.parent / "fixtures" / "lists"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))


def test_the_fixture_set_is_big_enough():
    kinds = [e["kind"] for e in EXPECTED.values()]
    assert kinds.count("list") >= 15 and kinds.count("article") >= 10


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_page_kind(name):
    r = extract((FIXTURES / name).read_bytes(), EXPECTED[name]["url"])
    assert r.page_kind == EXPECTED[name]["kind"], dict(r.figures["page_kind"])


def test_page_kind_is_filled_for_every_algorithm():
    html = (FIXTURES / "roll_sina.html").read_bytes()
    for algorithm in ("auto", "cetd", "scedd", "linedensity", "nodeweight", "blockstats", "samedepth"):
        assert extract(html, algorithm=algorithm).page_kind == "list"


def test_a_page_with_few_links_is_an_article():
    html = "<html><body><h1>短讯</h1><p>城南新建的过街天桥正式通行。</p><a href='/a'>返回</a></body></html>"
    r = extract(html)
    assert r.page_kind == "article" and r.entries == ()


def test_a_short_article_with_many_related_links_stays_an_article_when_it_shows_its_headline():
    related = "".join(f"<li><a href='/n/{i}.html'>相关新闻标题第{i}条内容</a></li>" for i in range(30))
    html = (
        "<html><head><title>城南过街天桥正式通行_示例网</title></head><body><h1>城南过街天桥正式通行</h1>"
        "<p>今天上午，城南新建的过街天桥正式通行，附近学校的学生上下学不用再绕行路口了。"
        "天桥两端都装了电梯，方便老人和推婴儿车的家长通行。</p>"
        f"<ul>{related}</ul></body></html>"
    )
    assert extract(html).page_kind == "article"
    assert extract(html.replace("<h1>城南过街天桥正式通行</h1>", "")).page_kind == "list"


def test_a_kind_the_caller_knows_skips_the_classifier():
    page = (FIXTURES / "home_sina.html").read_bytes()
    url = EXPECTED["home_sina.html"]["url"]
    assert extract(page, url).page_kind == "list"
    told = extract(page, url, page_kind="article")
    assert told.page_kind == "article" and told.entries == ()
    assert told.figures["page_kind"]["reason"] == "given by the caller"
    assert told.text == extract(page, url).text


def test_an_unknown_page_kind_raises_early():
    with pytest.raises(ValueError, match="page_kind"):
        extract("<p>x</p>", page_kind="gallery")


@pytest.mark.parametrize(
    "body",
    ["", "<div><img src='a.png'></div>", "<script>app()</script><noscript></noscript>", "<div> \n </div>"],
)
def test_a_page_whose_body_holds_no_text_is_empty_neither_article_nor_list(body: str) -> None:
    # a bot-check page or an empty JavaScript app shell: no article to keep, no list to follow
    r = extract(f"<html><head><title>Example News</title></head><body>{body}</body></html>")
    assert r.page_kind == "empty" and r.text == ""
    assert r.figures["page_kind"]["reason"] == "no text"


def test_a_page_with_text_is_never_empty() -> None:
    r = extract("<html><body><p>一句话。</p></body></html>")
    assert r.page_kind == "article"
