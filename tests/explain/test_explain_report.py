"""The explain report: well-formed, self-contained HTML with inline SVG charts, page text escaped."""

import re
import xml.etree.ElementTree as ET

import pytest

from newscrawl.cli import main
from newscrawl.explain import explain, render_html
from newscrawl.explain.svg import (
    HEIGHT,
    LABEL_GAP,
    MARGIN_BOTTOM,
    MARGIN_TOP,
    Band,
    HLine,
    Marker,
    Series,
    chart,
    nice_ticks,
)

SENTENCE = "市政府今天发布了新的垃圾分类管理办法，将从下个月起在全市推行。"
PAGE = f"""<html><head><meta charset="utf-8"><title>垃圾分类管理办法发布</title></head>
<body><div class="nav"><a href="/">首页</a> <a href="/city">城市</a></div>
<h1>垃圾分类管理办法发布</h1><div class="content">{"".join(f"<p>{SENTENCE}</p>" for _ in range(5))}</div>
<div class="footer">版权所有</div></body></html>"""

#: page text that would be markup if the report pasted it unescaped
HOSTILE = """<html><head><title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>
<meta name="author" content="&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"></head>
<body><h1>&lt;script&gt;alert(3)&lt;/script&gt;</h1><div>""" + "".join(
    f"<p>&lt;script src=&quot;https://evil.example/x.js&quot;&gt;&lt;/script&gt;{SENTENCE}</p>"
    for _ in range(4)
) + "</div></body></html>"


def parse(report: str) -> ET.Element:
    """The report as XML (it is written to be well-formed apart from the doctype)."""
    assert report.startswith("<!DOCTYPE html>")
    return ET.fromstring(report[len("<!DOCTYPE html>"):])


@pytest.fixture(scope="module")
def report() -> str:
    return render_html(explain(PAGE, url="https://news.example.cn/a/1.html"))


def test_report_is_well_formed(report):
    root = parse(report)
    assert root.tag == "html"
    assert root.find("body") is not None


def test_report_has_the_three_charts(report):
    svgs = parse(report).iter("svg")
    titles = [svg.get("aria-label") for svg in svgs]
    assert titles == [
        "Seed 003: characters per block",
        "Seed 001: text density per line",
        "Seed 000 (SCEDD): node text density along the page",
    ]


def test_report_needs_no_network(report):
    root = parse(report)
    for el in root.iter():
        for attr in ("src", "href"):
            value = el.get(attr)
            assert value is None or not re.match(r"\s*(https?:)?//", value), (el.tag, value)
    tags = {el.tag for el in root.iter()}
    assert not tags & {"script", "link", "img", "iframe", "object", "embed"}
    assert "url(" not in root.find("head/style").text
    assert "@import" not in root.find("head/style").text


def test_report_shows_blocks_with_their_marks(report):
    rows = [tr for tr in parse(report).iter("tr") if tr.get("class") in ("kept", "partial", "dropped")]
    marks = {tr.get("class") for tr in rows}
    assert marks == {"kept", "dropped"}
    kept_texts = [tr.findall("td")[2].text for tr in rows if tr.get("class") == "kept"]
    assert kept_texts == [SENTENCE] * 5


def test_report_names_the_metadata_sources(report):
    facts = explain(PAGE)
    assert facts["metadata"]["title"]["source"] in report


def test_hostile_page_text_cannot_inject_markup():
    facts = explain(HOSTILE, url='https://x.example/"><script>alert(4)</script>')
    assert any("<script" in b["text"] for b in facts["blocks"])  # the text really holds markup
    report = render_html(facts)
    root = parse(report)
    assert not {el.tag for el in root.iter()} & {"script", "img"}
    assert "<script" not in report.lower()
    assert "&lt;script&gt;alert(3)&lt;/script&gt;" in report


def test_evaluation_figures_are_shown_when_given():
    report = render_html(explain(PAGE), evaluation={"dataset": "tiny", "cjk_f1": 0.25})
    assert "cjk_f1" in report and "0.25" in report


def test_an_unparsable_page_still_gives_a_report():
    root = parse(render_html(explain("   ")))
    assert "Error" in "".join(root.itertext())


def test_cli_writes_the_html_report(tmp_path):
    page = tmp_path / "p.html"
    page.write_bytes(PAGE.encode("utf-8"))
    out = tmp_path / "report.html"
    assert main(["explain", str(page), "-o", str(out)]) == 0
    assert len(list(parse(out.read_text(encoding="utf-8")).iter("svg"))) == 3


# --- SVG helpers -----------------------------------------------------------------------------------------


def test_threshold_line_is_drawn_at_its_value():
    series = [Series("s", [(0, 0), (1, 10)], "#123456")]
    svg = ET.fromstring(chart(series, title="t", hlines=[HLine(5, "h", "#ff0000")]))
    line = next(el for el in svg.iter("line") if el.get("stroke") == "#ff0000")
    top, bottom = MARGIN_TOP, HEIGHT - MARGIN_BOTTOM
    assert float(line.get("y1")) == pytest.approx((top + bottom) / 2)


def test_band_spans_its_x_range():
    svg = ET.fromstring(
        chart([Series("s", [(0, 1), (100, 1)], "#123456")], title="t", bands=[Band(25, 75, "b", "#00ff00")])
    )
    rect = next(el for el in svg.iter("rect") if el.get("fill") == "#00ff00")
    axis = [el for el in svg.iter("line") if el.get("stroke") == "#555555" and el.get("x1") == el.get("x2")]
    left = float(axis[-1].get("x1"))  # the y axis
    x0, w = float(rect.get("x")), float(rect.get("width"))
    assert 2 * (x0 - left) == pytest.approx(w)  # the band starts a quarter in and is half the width


def test_markers_and_bars_are_drawn():
    svg = ET.fromstring(
        chart(
            [Series("bars", [(0, 1), (1, 2), (2, 3)], "#aaaaaa", "bar")],
            title="t",
            markers=[Marker(1, 2, "leader", "#c62828"), Marker(2, 3, "rejected", "#e08a00", "cross")],
        )
    )
    assert len([r for r in svg.iter("rect") if r.get("width") and r.get("height") and r.get("y") != "0"]) >= 3
    labels = [t.text for t in svg.iter("text")]
    assert "leader" in labels and "rejected" in labels


def test_colours_must_be_hex():
    with pytest.raises(ValueError, match="hex colour"):
        chart([Series("s", [(0, 1)], "red\" onload=\"x")], title="t")


def test_nice_ticks_cover_the_range():
    ticks = nice_ticks(0, 59.6)
    assert ticks[0] <= 0 and ticks[-1] >= 59.6
    assert 3 <= len(ticks) <= 8


def test_scedd_caption_says_when_the_leader_is_a_rejected_node():
    page = f"<html><body><div>{SENTENCE * 3}</div><p>短句一</p><p>短句二</p></body></html>"
    facts = explain(page, algorithm="scedd", top_coef=0.99, bottom_coef=0.995)
    sig = facts["signals"]["scedd"]
    assert sig["leader"]["node"] in [r["node"] for r in sig["rejected"]]
    assert "A is the last rejected node" in render_html(facts)


# --- reading order, legend, candidates -------------------------------------------------------------------


def section_order(root: ET.Element) -> list[str]:
    return [h.get("id") for h in root.iter("h2")]


def test_the_summary_comes_first_and_the_long_block_table_after_the_legend_and_charts(report):
    order = section_order(parse(report))
    assert order[:2] == ["summary", "legend"]
    assert order.index("signals") < order.index("blocks") < order.index("text")


def test_the_summary_says_what_was_chosen_and_why(report):
    facts = explain(PAGE, url="https://news.example.cn/a/1.html")
    root = parse(report)
    summary = root.find(".//ul[@class='summary']")
    words = "".join(summary.itertext())
    assert f"taken by {facts['decisions']['algorithm_chosen']}" in words
    assert facts["content_node"] in words and facts["decisions"]["reason"] in words
    assert "5 kept" in words


def test_the_top_candidates_are_listed_best_first_with_the_content_node_marked(report):
    facts = explain(PAGE, url="https://news.example.cn/a/1.html")
    cands = facts["candidates"]
    assert 1 < len(cands) <= 5
    scores = [c["content_score"] for c in cands]
    assert scores == sorted(scores, reverse=True)
    assert [c["path"] for c in cands if c["chosen"]] == [facts["content_node"]]
    chosen_rows = parse(report).findall(".//tr[@class='chosen']")
    assert len(chosen_rows) == 1 and facts["content_node"] in "".join(chosen_rows[0].itertext())


@pytest.mark.parametrize("algorithm", ["auto", "blockstats", "linedensity"])  # one per kind of block
def test_every_column_of_every_table_is_explained_in_the_legend(algorithm):
    root = parse(render_html(explain(PAGE, algorithm=algorithm)))
    terms = " ".join(dt.text for dt in root.iter("dt"))
    for term in ("TD", "CTD", "score", "links", "chars", "N'min", "Ncal", "kept", "partial", "dropped"):
        assert term in terms, term
    tables = [table for table in root.iter("table") if table.get("class") != "kv"]
    headers = {th.text for table in tables for th in table.iter("th")}
    unexplained = {h for h in headers - {"#", "node", "mark", "text", "why"} if h not in terms}
    assert unexplained == set()


def test_the_table_of_contents_links_sections_that_exist(report):
    root = parse(report)
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    links = [a.get("href") for a in root.find(".//nav").iter("a")]
    assert links and all(href.startswith("#") and href[1:] in ids for href in links)


def test_threshold_labels_sit_beside_the_plot_apart_from_each_other():
    # N'min and Ncal close together and low, over tall bars: their labels must not cover bars or each other
    bars = Series("raw", [(i, 100.0) for i in range(30)], "#9aa0a6", "bar")
    hlines = [HLine(6.0, "N'min = 6", "#e08a00"), HLine(8.0, "Ncal = 8", "#c62828")]
    svg = ET.fromstring(chart([bars], title="t", hlines=hlines))
    bar_ends = [float(r.get("x")) + float(r.get("width")) for g in svg.iter("g") for r in g.iter("rect")
                if g.get("fill") == "#9aa0a6" and r.get("height")]  # fmt: skip
    assert len(bar_ends) == 30
    labels = [t for t in svg.iter("text") if t.get("class") == "label"]
    assert sorted(t.text for t in labels) == ["N'min = 6", "Ncal = 8"]
    assert all(float(t.get("x")) > max(bar_ends) for t in labels)
    ys = sorted(float(t.get("y")) for t in labels)
    assert ys[1] - ys[0] >= LABEL_GAP
