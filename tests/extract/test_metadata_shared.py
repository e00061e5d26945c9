"""What the metadata chains share per run of the stage (newscrawl.extract.metadata.shared)."""

from __future__ import annotations

from datetime import UTC, datetime

from lxml import html as lxml_html

from newscrawl.extract.algorithms import REGISTRY
from newscrawl.extract.api import make_params, prepare_page
from newscrawl.extract.metadata import published
from newscrawl.extract.metadata.shared import body_tagged, page_tagged, shared
from newscrawl.extract.metadata.stage import find_metadata
from newscrawl.extract.page import Page

TEXT = "<p>" + "The council met on Monday and agreed on a new plan for the town's roads. " * 6 + "</p>"
PAGE = (
    "<html><head><title>Roads plan agreed - Example News</title>"
    '<script type="application/ld+json">{"@type": "NewsArticle", "author": {"name": "Jane Doe"}}</script>'
    "</head><body><div class='nav'>Home News</div><h1>Roads plan agreed</h1>"
    "<div class='info'>Published 3 May 2021. Updated 4 May 2021, 10:15</div>"
    f"<div class='content'>{TEXT}{TEXT}</div></body></html>"
)
REFERENCE = datetime(2021, 6, 1, tzinfo=UTC)


def _prepared() -> tuple[Page, object]:
    page = prepare_page(PAGE, "https://example.com/news/roads.html").page
    return page, REGISTRY["auto"].run(page, make_params("auto", {}))


def test_a_value_is_computed_once_per_key():
    page = Page("", lxml_html.fromstring("<html><body><p>x</p></body></html>"))
    calls: list[str] = []

    def compute(value: str) -> str:
        calls.append(value)
        return value.upper()

    assert shared(page, "k", compute, "a") == "A"
    assert shared(page, "k", compute, "b") == "A"
    assert shared(page, "other", compute, "b") == "B"
    assert calls == ["a", "b"]


def test_tagged_elements_are_the_trees_own_in_document_order():
    root = lxml_html.fromstring(
        "<html><head><title>t</title></head><body><h1>a</h1><div><time>1</time><h1>b</h1></div>"
        "<time>2</time></body></html>"
    )
    page = Page("", root)
    for tag in ("h1", "time", "p"):
        assert body_tagged(page, tag) == list(page.body.iter(tag))
        assert page_tagged(page, tag) == list(root.iter(tag))


def test_tagged_elements_of_a_page_without_body():
    root = lxml_html.fromstring("<div><h1>a</h1><p>b</p><h1>c</h1></div>")
    page = Page("", root)
    assert [h.text for h in page_tagged(page, "h1")] == ["a", "c"]
    assert [h.text for h in body_tagged(page, "h1")] == ["a", "c"]


def test_the_text_under_the_heading_is_read_once_per_run(monkeypatch):
    page, body = _prepared()
    calls: list[object] = []
    real = published._text_after

    def counted(el, *args, **kwargs):
        calls.append(el)
        return real(el, *args, **kwargs)

    monkeypatch.setattr(published, "_text_after", counted)
    found = find_metadata(page, body, reference_time=REFERENCE)
    heading = body_tagged(page, "h1")[0]
    assert found.fields["modified_at"] is not None
    assert calls.count(heading) == 1


def test_every_run_of_the_stage_starts_afresh():
    page, body = _prepared()
    first = find_metadata(page, body, reference_time=REFERENCE)
    assert first.fields["author"] == "Jane Doe"
    page.shared["json_ld_author"] = "Somebody Else"  # a value left from another run is not read
    again = find_metadata(page, body, reference_time=REFERENCE)
    assert again == first
