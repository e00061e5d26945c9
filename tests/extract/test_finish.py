"""The body's paragraphs as a reader gets them: no headline copy first, no paragraph twice in a row."""

from newscrawl.extract import extract
from newscrawl.extract.finish import REPEAT_MIN_CHARS, finish_paragraphs

STORY = "<p>" + "The harbour reopened on Monday after a week of repairs to the old sea wall. " * 4 + "</p>"


def test_the_headline_inside_the_content_is_not_the_texts_first_line():
    html = (
        "<html><head><title>Harbour reopens after repairs - Example</title></head><body><article>"
        f"<h1>Harbour reopens after repairs</h1>{STORY}</article></body></html>"
    )
    r = extract(html)
    assert r.title == "Harbour reopens after repairs"
    assert r.text.startswith("The harbour reopened")


def test_a_caption_given_twice_is_kept_once():
    caption = "湘江长沙段水位降至历史最低值，本报记者摄于昨日下午。"
    story = "据水文部门介绍，今年入冬以来降水偏少，江水持续回落。" * 3
    body = "".join(f"<p>{s}</p>" for s in [caption, caption, story])
    r = extract(f"<html><body><div>{body}</div></body></html>")
    assert r.text.count(caption) == 1


def test_short_repeats_and_repeats_apart_stay():
    refrain = "A refrain that the song sings again"
    cells = ["获奖", "获奖", refrain, "A verse between", refrain]
    assert finish_paragraphs(cells, None) == tuple(cells)
    assert len(refrain.replace(" ", "")) >= REPEAT_MIN_CHARS


def test_a_text_that_is_only_the_title_is_kept():
    assert finish_paragraphs(["Only a headline"], "Only a headline") == ("Only a headline",)
    assert finish_paragraphs(["Headline", "Body."], "Another headline") == ("Headline", "Body.")
