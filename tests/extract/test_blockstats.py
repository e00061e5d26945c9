"""blockstats (seed 003): block statistics on the source, title and report-time candidates."""

import pytest

from newscrawl.extract import extract
from newscrawl.extract.algorithms.blockstats import (
    block_profile,
    clean_page_title,
    main_runs,
    smooth,
    time_candidates,
    title_candidates,
)

PARA = "本市第一座社区图书馆今天开门迎客，馆内藏书两万余册，市民凭身份证即可免费借阅，周末还将举办读书沙龙。"
NAV = "<div class='nav'>" + " ".join(f"<a href='/c/{i}'>频道{i}</a>" for i in range(12)) + "</div>"
SIDE = "<div class='side'><div>热门</div><div>推荐</div><div>排行</div></div>"
FOOTER = "<div class='foot'>关于我们</div><div>版权所有</div>"


HEAD = "<h1>社区图书馆开门迎客</h1><div>2010年12月15日 来源：晨报</div>"


def page(paragraphs: int = 6, head: str = HEAD) -> str:
    body = "".join(f"<p>{PARA}第{i}段</p>" for i in range(paragraphs))
    return (
        "<html><head><title>社区图书馆开门迎客_新浪网</title><script>var a='脚本';</script></head><body>"
        f"{NAV}{SIDE}{head}<div id='text'>{body}</div>{SIDE}{FOOTER}</body></html>"
    )


def test_extracts_the_paragraph_blocks_without_navigation_or_footer():
    lines = extract(page(), algorithm="blockstats").text.splitlines()
    paragraphs = [f"{PARA}第{i}段" for i in range(6)]
    assert lines[lines.index(paragraphs[0]) :][:6] == paragraphs
    assert not any("频道" in line or "版权所有" in line for line in lines)


def test_smoothing_uses_the_kernel_one_two_one_over_four():
    assert smooth([0, 4, 0, 8]) == [1.0, 2.0, 3.0, 4.0]


def test_thresholds_follow_the_seed_formulas():
    prof = block_profile(page())
    s = prof.sblocknum
    avg = sum(s) / len(s)
    nmin = min(v for v in s if v > 0)
    assert prof.n_min_prime == pytest.approx((2 * nmin + avg) / 3, abs=1e-2)
    assert prof.n_cal == pytest.approx((sum(sorted(s, reverse=True)[:9]) + avg) / 10, abs=1e-2)


def test_rule_one_needs_a_block_reaching_ncal_and_rule_two_joins_runs():
    s = [1, 5, 9, 5, 1, 4, 4, 1, 6, 20, 6, 1]
    assert main_runs(s, n_min_prime=3, n_cal=10) == [(8, 11)]
    assert main_runs(s, n_min_prime=3, n_cal=8) == [(1, 4), (8, 11)]
    sizes = (2, 80, 90, 3, 85, 95, 2)
    prof = block_profile("<body>" + "".join(f"<p>{'字' * n}</p>" for n in sizes) + "</body>")
    assert prof.main is not None
    assert [prof.blocknum[i] for i in prof.main_blocks] == [80, 90, 3, 85, 95]


def test_type_one_tags_go_with_their_content_and_an_unclosed_link_is_repaired():
    html = (
        "<body><p>开头<a href='/x'>链接文字</a>结尾</p><form><input value='表单'>表单里的字</form>"
        f"<p>前文<a href='/y'>没有闭合的链接</p><p>{PARA}</p></body>"
    )
    prof = block_profile(html)
    blocks = prof.blocks
    assert prof.blocknum[blocks.index("开头链接文字结尾")] == 4  # link text is not counted, but not cut
    assert not any("表单" in b for b in blocks)
    assert any(PARA in b for b in blocks)


def test_title_candidate_is_the_heading_near_the_first_main_block():
    prof = block_profile(page())
    assert title_candidates(prof)[0] == "社区图书馆开门迎客"


def test_title_falls_back_to_the_cleaned_page_title():
    prof = block_profile(page(head="<div>2010-12-15</div>"))
    assert title_candidates(prof) == ["社区图书馆开门迎客"]
    assert clean_page_title("某地新闻标题在这里 - 新闻中心 - 搜狐") == "某地新闻标题在这里"


def test_report_time_candidates_come_from_blocks_around_the_main_text():
    assert time_candidates(block_profile(page())) == ["2010年12月15日"]
    chinese = page(head="<h1>标题</h1><div>二零一零年十二月十五日</div>")
    assert time_candidates(block_profile(chinese)) == ["二零一零年十二月十五日"]


def test_figures_carry_the_statistics_and_candidates():
    r = extract(page(), algorithm="blockstats")
    assert r.figures["main_range"] is not None
    assert r.figures["title_candidates"][0] == "社区图书馆开门迎客"
    assert r.figures["time_candidates"] == ["2010年12月15日"]


def test_top_k_override_changes_ncal():
    assert block_profile(page()).n_cal != extract(page(), algorithm="blockstats", top_k=1).figures["n_cal"]


@pytest.mark.parametrize(
    "params, name",
    [({"top_k": 0}, "top_k"), ({"smooth_kernel": (1, 1)}, "smooth_kernel"), ({"window": -1}, "window")],
)
def test_bad_parameter_raises_naming_it(params, name):
    with pytest.raises(ValueError, match=name):
        extract(page(), algorithm="blockstats", **params)


def test_a_head_without_end_tag_does_not_swallow_the_page():
    html = page().replace("</head>", "")
    assert any(PARA in b for b in block_profile(html).blocks)
    assert not any("脚本" in b for b in block_profile(html).blocks)
