"""Class 4 of issue 11: the article only in script data, on hand-written pages (tests/fixtures/scriptdata)."""

import json
from pathlib import Path

import pytest

from newscrawl.extract import extract
from newscrawl.extract import scriptdata as sd

FIXTURES = Path(__file__).parent.parent / "fixtures" / "scriptdata"


def page(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def test_a_nextjs_shell_gives_the_article_from_next_data_and_says_so():
    r = extract(page("nextjs_shell.html"), algorithm="auto")
    assert r.text.splitlines()[0].startswith("The city council voted on Tuesday")
    assert len(r.text.splitlines()) == 4 and "Loading" not in r.text and "/img/depot.jpg" not in r.text
    assert r.figures["script_data"]["source"] == "__NEXT_DATA__"
    assert r.figures["script_data"]["dom_chars"] < 100
    assert "script data" in r.reason


def test_an_initial_state_object_with_html_content_gives_paragraphs():
    r = extract(page("initial_state.html"), algorithm="auto")
    lines = r.text.splitlines()
    assert lines[0].startswith("本市交通委员会昨日宣布") and len(lines) == 6
    assert "另一条新闻" not in r.text
    assert r.figures["script_data"]["source"] == "__INITIAL_STATE__"


def test_json_ld_article_body_replaces_a_teaser():
    r = extract(page("jsonld_teaser.html"), algorithm="auto")
    assert "brick facade" in r.text and "Subscribe" not in r.text
    assert r.figures["script_data"]["source"] == "json-ld"


def test_a_page_whose_dom_holds_the_article_keeps_the_dom_text():
    r = extract(page("jsonld_full_dom.html"), algorithm="auto")
    assert "script_data" not in r.figures
    assert r.text.count("brick facade") == 2  # the DOM's text (twice), not the JSON-LD's (once)


def test_the_seed_algorithms_do_not_read_script_data():
    assert "script_data" not in extract(page("nextjs_shell.html"), algorithm="cetd").figures


def next_page(payload: str) -> str:
    script = f'<script id="__NEXT_DATA__" type="application/json">{payload}</script>'
    return f"<html><body><p>x</p>{script}</body></html>"


def test_hostile_script_data_is_skipped_not_fatal():
    deep = "[" * 100_000 + "]" * 100_000  # deeper than the JSON parser's recursion limit
    wide = json.dumps({"props": {f"k{i}": {"body": "short"} for i in range(50_000)}})
    for payload in (deep, wide, "{not json", '{"body": ' + '"' + "a" * 10 + "}"):
        r = extract(next_page(payload), algorithm="auto")
        assert r.error is None and "script_data" not in r.figures


def test_the_json_walk_stops_at_its_node_cap(monkeypatch):
    nested = {"a": {"b": {"c": {"body": "A long enough paragraph of the article body. " * 10}}}}
    assert list(sd._body_candidates(nested))
    monkeypatch.setattr(sd, "MAX_JSON_NODES", 2)
    assert not list(sd._body_candidates(nested))


def test_scripts_over_the_size_cap_are_not_parsed(monkeypatch):
    html = (FIXTURES / "nextjs_shell.html").read_text("utf-8")
    assert sd.article_from_scripts(html, []) is not None
    monkeypatch.setattr(sd, "SCRIPT_MAX_CHARS", 100)
    assert sd.article_from_scripts(html, []) is None


def test_unclosed_scripts_end_the_scan():
    html = "<script>" * 50_000 + "window.__STATE__ = {}"
    assert list(sd._scripts(html)) == []
    two = "<script>a</script><script type='x'>b</script>"
    assert list(sd._scripts(two)) == [("", "a"), (" type='x'", "b")]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("<p>One.</p><p>Two <b>bold</b> words.</p>", ["One.", "Two bold words."]),
        ("One.\n\nTwo.", ["One.", "Two."]),
    ],
)
def test_body_strings_become_paragraphs(value, expected):
    assert sd.text_paragraphs(value) == expected


def test_a_state_pushed_onto_a_queue_gives_the_article_without_its_captions():
    # a dehydrated query cache pushed in a script, its HTML body with a picture and caption
    para = "市议会周二通过了新的公交计划，五条新线路将缩短北区的通勤时间。"
    body = "<div class='img-box'><img src='/a.jpg'><div class='caption'><p>市长讲话。图片社</p></div></div>"
    body += "".join(f"<p class='editor-p'>第{i}段：{para}</p>" for i in range(6))
    state = {"queries": [{"state": {"data": {"detail": {"title": "公交计划", "contentHtml": body}}}}]}
    html = (
        "<html><body><div id='root'></div>"
        f"<script>window[\"__RQ_R_1_\"] = window[\"__RQ_R_1_\"] || [];"
        f"window[\"__RQ_R_1_\"].push({json.dumps(state, ensure_ascii=False)});</script></body></html>"
    )
    r = extract(html, algorithm="auto")
    assert r.figures["script_data"]["source"] == "__RQ_R_1_"
    assert len(r.text.splitlines()) == 6 and r.text.startswith("第0段")
    assert "图片社" not in r.text


def test_json_ld_scripts_are_not_scanned_for_state_objects() -> None:
    # JSON-LD comes parsed with the page metadata; scanning 8 MB of it for `__X__ =` cost 0.4 s of CPU
    from newscrawl.extract.scriptdata import _data_blocks

    state = 'window.__APP_STATE__ = {"article": {"body": "text"}}'
    assert list(_data_blocks(f'<script type="application/ld+json">{state}</script>')) == []
    found = list(_data_blocks(f"<script>{state}</script>"))
    assert found == [("__APP_STATE__", {"article": {"body": "text"}})]


def test_scripts_end_at_a_closing_tag_in_any_case_of_its_ascii_letters():
    html = "<p>x</p><script a=1>one</SCRIPT><script>two</ScRiPt ><script>three</scrıpt></script><script>4"
    assert list(sd._scripts(html)) == [(" a=1", "one"), ("", "two"), ("", "three</scrıpt>")]


def test_a_dotted_capital_i_before_a_script_does_not_shift_where_it_ends():
    """U+0130 lower-cases to two characters; a search in a lower-cased copy cut the script one off."""
    html = "<p>İstanbul İzmir</p><script>one</script><script>two</SCRIPT>"
    assert list(sd._scripts(html)) == [("", "one"), ("", "two")]
    state = '{"article": {"body": "İ text"}}'
    found = list(sd._data_blocks(f"<h1>İ</h1><script>window.__APP_STATE__ = {state};</script>"))
    assert found == [("__APP_STATE__", {"article": {"body": "İ text"}})]
