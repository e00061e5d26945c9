"""``explain``: the facts behind an extraction, on pages written here."""

import json

import pytest

from newscrawl.explain import explain
from newscrawl.explain.facts import mark_blocks, text_blocks
from newscrawl.extract import extract
from newscrawl.extract.document import paragraphs, parse_html

SENTENCE = "区政府今天公布了新的公交线路调整方案，市民可以在车站查询详细信息。"
ARTICLE = f"""<html><head><meta charset="utf-8"><title>公交线路调整方案公布_本地新闻</title>
<meta name="author" content="张三"></head>
<body><div class="nav"><a href="/">首页</a> <a href="/local">本地</a> <a href="/sport">体育</a></div>
<h1>公交线路调整方案公布</h1>
<div id="main"><p>第一段：{SENTENCE}</p><p>第二段：{SENTENCE}{SENTENCE}</p><p>第三段：{SENTENCE}</p>
<div class="share">分享到微博</div></div>
<div class="footer">版权所有 联系我们</div></body></html>"""


def kept_text(facts: dict) -> str:
    """The extracted text rebuilt from the marks: kept blocks whole, partial blocks by their fragments."""
    pieces = []
    for block in facts["blocks"]:
        if block["mark"] == "kept":
            pieces.append(block["text"])
        elif block["mark"] == "partial":
            pieces.extend(block["kept_text"])
    return "\n".join(pieces)


@pytest.mark.parametrize("algorithm", ["auto", "cetd", "scedd", "nodeweight", "samedepth"])
def test_kept_blocks_rebuild_the_extracted_text(algorithm):
    facts = explain(ARTICLE, algorithm=algorithm)
    assert facts["consistent"] is True
    assert facts["unplaced"] == []
    assert kept_text(facts) == extract(ARTICLE, algorithm=algorithm).text


def test_navigation_and_footer_are_dropped_with_a_reason():
    blocks = {b["text"]: b for b in explain(ARTICLE)["blocks"]}
    assert blocks["首页 本地 体育"]["mark"] == "dropped"
    assert blocks["首页 本地 体育"]["why"] == "outside the content root"
    assert blocks["首页 本地 体育"]["link_share"] == 1.0
    assert blocks["分享到微博"]["why"] == "pruned page chrome at /html/body/div[2]/div.share"
    assert blocks[f"第一段：{SENTENCE}"]["mark"] == "kept"


def test_block_figures_are_those_of_its_element():
    block = next(b for b in explain(ARTICLE)["blocks"] if b["text"].startswith("第二段"))
    chars = len(f"第二段：{SENTENCE}{SENTENCE}")
    assert block["path"] == "/html/body/div[2]/p[2]"
    assert block["chars"] == chars
    assert block["density"] == chars  # a <p> with no children: C / max(T, 1)
    assert block["content_score"] == chars  # own text, no children
    assert block["link_share"] == 0.0


def test_content_node_is_the_extractions_node_path():
    facts = explain(ARTICLE)
    assert facts["content_node"] == extract(ARTICLE).node_path == "/html/body/div[2]#main"


def test_decisions_report_class_length_and_choice():
    d = explain(ARTICLE)["decisions"]
    result = extract(ARTICLE)
    assert (d["page_class"], d["coarse_length"]) == (result.page_class, result.coarse_length)
    assert d["short_threshold"] == 450
    assert d["algorithm_requested"] == "auto"
    assert d["algorithm_chosen"] == "auto"
    assert d["reason"] == result.reason
    assert d["page_kind"] == "article"


def test_metadata_names_the_rule_that_found_each_field():
    facts = explain(ARTICLE)
    result = extract(ARTICLE)
    for name in ("title", "modified_at", "author"):
        assert facts["metadata"][name] == {"value": getattr(result, name), "source": result.sources.get(name)}
    assert facts["metadata"]["published_at"] == {
        "value": result.published_at,
        "source": result.sources.get("published_at"),
        "zone": result.sources.get("published_at_zone"),
    }
    assert facts["metadata"]["title"]["source"] is not None


def test_facts_are_json_serialisable():
    facts = explain(ARTICLE.encode("utf-8"), url="https://news.example.cn/a/1.html")
    assert json.loads(json.dumps(facts, ensure_ascii=False))["url"] == "https://news.example.cn/a/1.html"


def test_unknown_algorithm_raises_early():
    with pytest.raises(ValueError, match="unknown algorithm"):
        explain(ARTICLE, algorithm="nope")


def test_params_reach_the_algorithm():
    facts = explain(ARTICLE, algorithm="scedd", top_coef=0.2)
    assert facts["params"]["top_coef"] == 0.2
    assert facts["signals"]["scedd"]["top_coef"] == 0.2


def test_an_unparsable_page_gives_the_error_and_no_blocks():
    facts = explain("   ")
    assert facts["error"]
    assert facts["blocks"] == []


# --- text blocks and marks -------------------------------------------------------------------------------


def test_text_blocks_split_like_paragraphs():
    body = parse_html(ARTICLE).find("body")
    assert [t for t, _ in text_blocks(body)] == paragraphs(body)


def test_text_block_owner_is_the_innermost_block_element():
    body = parse_html("<html><body><div><p>一 <b>二</b></p>三<br>四</div></body></html>").find("body")
    assert [(t, el.tag) for t, el in text_blocks(body)] == [("一 二", "p"), ("三", "div"), ("四", "div")]


def test_marks_align_in_order_and_find_partial_blocks():
    texts = ["导航", "正文一", "正文二 相关链接", "版权"]
    marks = mark_blocks(texts, ["正文一", "正文二"])
    assert [m for m, _ in marks] == ["dropped", "kept", "partial", "dropped"]
    assert marks[2][1] == ["正文二"]


def test_a_repeated_text_is_kept_where_the_extraction_took_it():
    texts = ["标题", "导航", "标题", "正文很长很长"]
    marks = [m for m, _ in mark_blocks(texts, ["标题", "正文很长很长"])]
    assert marks == ["dropped", "dropped", "kept", "kept"]


# --- seed 003: block statistics --------------------------------------------------------------------------

#: three blocks of 2, 8 and 4 characters (no links: seed 003 drops <a> with its text)
TINY_BLOCKS = "<html><head><title>t</title></head><body><p>ab</p><div>abcdefgh</div><p>abcd</p></body></html>"


def test_block_profile_thresholds_follow_the_formula():
    sig = explain(TINY_BLOCKS, algorithm="blockstats")["signals"]["blockstats"]
    assert sig["blocknum"] == [2, 8, 4]
    # 1/4 [1 2 1], zero outside: (2*2 + 8)/4, (2 + 2*8 + 4)/4, (8 + 2*4)/4
    assert sig["sblocknum"] == [3.0, 5.5, 4.0]
    n_avg = (3.0 + 5.5 + 4.0) / 3
    assert sig["n_avg"] == pytest.approx(n_avg, abs=1e-3)
    assert sig["n_min"] == 3.0
    assert sig["n_min_prime"] == pytest.approx((2 * 3.0 + n_avg) / 3, abs=1e-3)
    # fewer than 9 blocks: the "9 largest" are all of them
    assert sig["n_cal"] == pytest.approx((3.0 + 5.5 + 4.0 + n_avg) / 10, abs=1e-3)


def test_block_profile_main_range_marks_the_blocks():
    page = (
        "<html><body><p>导航</p><p>首页</p>"
        + "".join(f"<p>{SENTENCE}{i}</p>" for i in range(4))
        + "<p>版权</p><p>联系</p><p>关于</p></body></html>"
    )
    facts = explain(page, algorithm="blockstats")
    sig = facts["signals"]["blockstats"]
    assert facts["unit"] == "source-block"
    assert sig["main"] is not None
    kept = [b["index"] for b in facts["blocks"] if b["mark"] == "kept"]
    assert kept == sig["main_blocks"]
    assert "\n".join(b["text"] for b in facts["blocks"] if b["mark"] == "kept") == extract(
        page, algorithm="blockstats"
    ).text


# --- seed 001: line density ------------------------------------------------------------------------------


def test_line_density_keeps_the_lines_above_the_threshold():
    facts = explain(ARTICLE, algorithm="linedensity", threshold=0.6)
    sig = facts["signals"]["linedensity"]
    assert sig["threshold"] == 0.6
    assert facts["unit"] == "line"
    assert [b["density"] for b in facts["blocks"]] == sig["density"]
    assert all((b["mark"] == "kept") == (b["density"] > 0.6) for b in facts["blocks"])
    kept = [b["text"] for b in facts["blocks"] if b["mark"] == "kept"]
    r = extract(ARTICLE, algorithm="linedensity", threshold=0.6)
    # the algorithm kept the headline line too; the text leaves out that copy of the title
    assert kept[0] == r.title and "\n".join(kept[1:]) == r.text and facts["consistent"]


def test_line_density_is_text_bytes_over_total_bytes():
    sig = explain(ARTICLE)["signals"]["linedensity"]
    for d, t, total in zip(sig["density"], sig["text_bytes"], sig["total_bytes"], strict=True):
        assert d == pytest.approx(t / total, abs=1e-4)


# --- seed 000: SCEDD -------------------------------------------------------------------------------------


def test_scedd_band_is_line_sum_times_the_coefficients():
    sig = explain(ARTICLE, algorithm="scedd", top_coef=0.1, bottom_coef=0.8)["signals"]["scedd"]
    assert sig["line_sum"] > 0
    assert sig["band"] == [sig["line_sum"] * 0.1, sig["line_sum"] * 0.8]


def test_scedd_rejects_a_dense_node_above_the_band():
    # a dense block at the top of the page (line 2 of 11, below top_coef = 0.3) and a smaller article
    page = (
        f"<html><body><div class='top'>{SENTENCE * 3}</div>"
        + "".join(f"<p>{SENTENCE}</p>" for _ in range(8))
        + "<div>版权</div></body></html>"
    )
    sig = explain(page, algorithm="scedd", top_coef=0.3)["signals"]["scedd"]
    assert sig["rejected"][0]["why"] == "above top_coef"
    assert sig["rejected"][0]["path"] == "/html/body/div[1].top"
    assert sig["rejected"][0]["line"] < sig["band"][0]
    assert sig["band"][0] <= sig["leader"]["line"] <= sig["band"][1]


def test_scedd_leader_is_the_extractions_node():
    facts = explain(ARTICLE, algorithm="scedd")
    assert facts["signals"]["scedd"]["leader"]["path"] == facts["content_node"]
    assert facts["signals"]["scedd"]["threshold"] <= facts["signals"]["scedd"]["leader"]["density"]


def test_a_byline_left_out_of_the_text_is_counted_and_the_facts_stay_consistent():
    story = "".join(
        f"<p>Paragraph {n} of the council story tells how the vote on the new bike lanes went on Tuesday.</p>"
        for n in range(4)
    )
    page = (
        "<html><head><title>Council votes</title></head><body><article><h1>Council votes</h1>"
        f"<p>By Maria Lopez · Updated March 4, 2025</p>{story}</article></body></html>"
    )
    facts = explain(page)
    assert facts["decisions"]["figures"]["byline_paragraphs"] == 1
    assert facts["extraction"]["text"].startswith("Paragraph 0")
    assert facts["consistent"] is True
