"""extract() is prepare_page() then run(); explain() uses the same two steps with the same options."""

import pytest

from newscrawl.explain import explain
from newscrawl.extract import extract
from newscrawl.extract.api import PageError, make_params, prepare_page, run
from newscrawl.extract.limits import Limits

PROMO = "<div class='promo'><p>" + "下载客户端，看更多精彩内容，参与抽奖赢取大礼。" * 4 + "</p></div>"
SENTENCE = "市政府今天召开新闻发布会，介绍了今年城市更新工作的进展情况。"
BODY = "".join(f"<p>第{i}段：{SENTENCE}</p>" for i in range(8))
PAGE = (
    "<html><head><title>城市更新进展_新闻</title><script>var x = 1;</script></head>"
    f"<body><h1>城市更新进展</h1><div class='article'>{PROMO}{BODY}</div></body></html>"
)


def test_prepare_then_run_gives_what_extract_gives() -> None:
    prepared = prepare_page(PAGE.encode(), "https://news.example.cn/a/1.html")
    assert prepared.encoding == "utf-8"
    assert prepared.removed_noise_tags >= 1  # the <script>
    assert run(prepared, "auto", make_params("auto", {})) == extract(
        PAGE.encode(), "https://news.example.cn/a/1.html"
    )


def test_prepare_applies_prune_xpath_and_counts_it() -> None:
    prepared = prepare_page(PAGE, prune_xpath="//div[@class='promo']")
    assert prepared.removed_by_prune_xpath == 1
    assert "下载客户端" not in prepared.page.html
    assert not prepared.page.root.xpath("//div[@class='promo']")


def test_prepare_refuses_a_page_over_a_limit_naming_it() -> None:
    with pytest.raises(PageError, match="max_nodes"):
        prepare_page(PAGE, limits=Limits(max_nodes=5))


def test_explain_takes_prune_xpath_and_explains_the_page_as_extract_sees_it() -> None:
    facts = explain(PAGE, prune_xpath=["//div[@class='promo']"])
    expected = extract(PAGE, prune_xpath=["//div[@class='promo']"])
    assert facts["error"] is None
    assert facts["extraction"]["text"] == expected.text
    assert "下载客户端" not in facts["extraction"]["text"]
    assert facts["consistent"] is True
    assert facts["blocks"]
    assert all("下载客户端" not in block["text"] for block in facts["blocks"])


def test_explain_applies_the_limits_extract_applies() -> None:
    facts = explain(PAGE, limits=Limits(max_nodes=5))
    assert facts["error"] == extract(PAGE, limits=Limits(max_nodes=5)).error
    assert "max_nodes" in facts["error"]
    assert facts["blocks"] == []


def test_explain_refuses_an_unknown_algorithm() -> None:
    with pytest.raises(ValueError, match="unknown algorithm"):
        explain(PAGE, algorithm="nosuch")
