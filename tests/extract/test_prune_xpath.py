"""``extract(prune_xpath=...)``: elements removed before any extractor runs."""

import pytest

from newscrawl.extract import ALGORITHMS, extract

PROMO = "<div class='quote-box'><p>限时活动：点击参与投票，赢取大奖！</p></div>"
SENTENCE = "市政府今天公布了新的交通规划方案，计划三年内新建五条地铁线路。"
BODY = "".join(f"<p>正文第{i}段，{SENTENCE}</p>" for i in range(8))
PAGE = f"<html><body><h1>标题</h1><div id='content'>{PROMO}{BODY}</div></body></html>"


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_pruned_elements_never_reach_the_text(algorithm):
    r = extract(PAGE, algorithm=algorithm, prune_xpath="//div[@class='quote-box']")
    assert "限时活动" not in r.text
    assert r.figures["removed_by_prune_xpath"] == 1


def test_several_expressions_and_kept_tails():
    page = "<body><div id='c'><span class='x'>去掉</span>留下的尾巴" + BODY + "</div></body>"
    r = extract(page, prune_xpath=["//span[@class='x']", "//div[@id='nothing']"])
    assert "去掉" not in r.text and "留下的尾巴" in r.text


def test_without_pruning_the_promo_is_part_of_the_content():
    assert "限时活动" in extract(PAGE).text


def test_a_bad_expression_raises_early():
    with pytest.raises(ValueError, match="bad prune_xpath"):
        extract(PAGE, prune_xpath="//div[")
