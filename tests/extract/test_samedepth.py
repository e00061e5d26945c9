"""samedepth (seed 004, algorithm 1): same-depth text-length standard deviation."""

import pytest

from newscrawl.extract import extract

PARA = "河口市今年新建的三座口袋公园已经全部开放，附近的老人和孩子傍晚时分都喜欢来这里散步、游戏和聊天。"
NAV = "<div class='nav'>" + "".join(f"<a href='/c{i}'>栏目{i}</a>" for i in range(10)) + "</div>"
FOOTER = "<div class='footer'>版权所有 示例网 联系电话 000-00000000</div>"


def page(paragraphs: int = 6) -> str:
    body = "".join(f"<p>{PARA}第{i}段</p>" for i in range(paragraphs))
    return (
        f"<html><body>{NAV}<div class='main'><h1>口袋公园开放</h1>"
        f"<div class='content'>{body}</div></div>{FOOTER}</body></html>"
    )


def test_descends_to_the_paragraph_container_and_drops_navigation_and_footer():
    r = extract(page(), algorithm="samedepth")
    assert r.text.splitlines() == [f"{PARA}第{i}段" for i in range(6)]
    assert r.node_path.endswith("div.content")


def test_link_only_regions_are_skipped():
    r = extract(page(), algorithm="samedepth")
    assert "栏目" not in r.text


def test_readings_of_the_garbled_lines_differ():
    # a short block before the long one: the printed code returns the earlier of m1 and m2
    html = (
        "<html><body><div class='intro'>" + "短" * 40 + "</div><div class='long'>"
        + "".join(f"<p>{PARA}{i}</p>" for i in range(8)) + "</div></body></html>"
    )
    printed = extract(html, algorithm="samedepth", reading="printed")
    hybrid = extract(html, algorithm="samedepth")
    assert printed.text == "短" * 40
    assert hybrid.text.splitlines() == [f"{PARA}{i}" for i in range(8)]


def test_min_gap_override_changes_behaviour():
    html = (
        "<html><body><div class='a'>" + "甲" * 30 + "</div><div class='b'>"
        + "".join(f"<p>{'乙' * 20}{i}</p>" for i in range(6)) + "</div></body></html>"  # distinct: no repeat
    )
    default = extract(html, algorithm="samedepth")  # gap 96 < 100: the body is the content
    small = extract(html, algorithm="samedepth", min_gap=50)  # gap 96 > 50: go into the long block
    assert "甲" in default.text
    assert "甲" not in small.text and small.text.count("乙") == 120


@pytest.mark.parametrize("params, name", [({"reading": "other"}, "reading"), ({"min_gap": 0}, "min_gap")])
def test_bad_parameter_raises_naming_it(params, name):
    with pytest.raises(ValueError, match=name):
        extract(page(), algorithm="samedepth", **params)
