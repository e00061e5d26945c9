"""The record audit: what a reader would reject in a record, found without truth."""

from datetime import UTC, datetime

import pytest

from newscrawl.evaluation.audit import CLASSES, audit_record
from newscrawl.evaluation.datasets import Truth
from newscrawl.evaluation.runner import evaluate_page, summarize

FETCHED = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)
BODY = "The harbour reopened on Monday after a week of repairs.\nFishing boats returned to their moorings."
GOOD = dict(title="Harbour reopens", author="Jane Smith", published_at="2026-11-23T08:00:00+00:00", text=BODY)


def found(**fields) -> list[str]:
    return audit_record(**{**GOOD, **fields}, fetched_at=FETCHED, url="https://news.example.com/a.html")


def test_a_good_record_shows_no_defect():
    assert found() == []


@pytest.mark.parametrize(
    "fields, defect",
    [
        ({"title": "新浪新闻"}, "title_site_name"),
        ({"title": "news.example.com"}, "title_site_name"),
        ({"title": "首页"}, "title_site_name"),
        ({"author": "新华网"}, "author_not_person"),
        ({"author": ["Jane Smith", "Associated Press"]}, "author_not_person"),
        ({"author": "Posted by the team on a rainy Monday after the meeting ended"}, "author_not_person"),
        ({"published_at": "2027-03-01T08:00:00+08:00"}, "date_future"),
        ({"published_at": "1970-01-01T00:00:00"}, "date_ancient"),
        ({"text": "A caption under the photograph of the harbour.\n" * 2 + BODY}, "dup_paragraph"),
        ({"text": "首页 > 新闻 > 正文\n" + BODY}, "lead_chrome"),
        ({"text": "当前位置：首页 > 国内新闻\n" + BODY}, "lead_chrome"),
        ({"text": "Share Facebook Twitter Email\n" + BODY}, "lead_chrome"),
        ({"text": "2026-11-23 18:40 · 来源：央视新闻\n" + BODY}, "lead_info_line"),
        ({"text": "2012-01-17 20:36:43 来源: 财华社(深圳) 有0人参与 手机看新闻\n" + BODY}, "lead_info_line"),
        ({"text": "2012年01月12日 10:10\n来源：长江商报 作者：罗义\n" + BODY}, "lead_info_line"),
        ({"text": "Caf\u00c3\u00a9 owners said " + BODY}, "mojibake"),
        ({"text": "锟斤拷锟斤拷 " + BODY}, "mojibake"),
        ({"text": "The harbour&nbsp;reopened " + BODY}, "markup_left"),
        ({"text": "<p>The harbour reopened</p>\n" + BODY}, "markup_left"),
        ({"text": "Harbour reopens\n" + BODY}, "title_first_line"),
    ],
)
def test_each_defect_is_found(fields, defect):
    assert found(**fields) == [defect]


@pytest.mark.parametrize(
    "fields",
    [
        {"title": "Flood waters rise in the valley"},
        {"author": "张三"},
        {"published_at": "2026-11-24T20:00:00+08:00"},  # later today in a zone east of UTC: not the future
        {"published_at": "1998-05-01"},
        {"text": "Yes\nYes\nA refrain sung here.\nA verse between.\nA refrain sung here.\n" + BODY},
        {"text": "Le procès pour » vol aggravé » opposant le commerçant au colonel a repris lundi.\n" + BODY},
        {"text": "Die Straße wurde für Fußgänger geöffnet. Größere Änderungen folgen.\n" + BODY},
        {"text": "AT&T said 3 < 4 and a <b is not a tag.\n" + BODY},
        {"text": "2026年11月23日，市政府召开新闻发布会，公布了十件民生实事。\n" + BODY},  # a dated lead
        {"text": "来源：新华网 记者从市交通委员会获悉，新线明年开工。\n" + BODY},
    ],
)
def test_ordinary_records_are_not_flagged(fields):
    assert found(**fields) == []


def test_eval_counts_pages_by_defect_class():
    truth = Truth("a", text=BODY)
    page = b"<html><body><p>x</p></body></html>"

    def result(text):
        return lambda *a, **k: type("R", (), dict(
            text=text, title="Harbour reopens", published_at=None, author=None, authors=(), error=None,
            algorithm="auto", page_class="long", page_kind="article", editor=None, source=None,
        ))()

    recs = [
        evaluate_page(truth, page, "auto", result("Harbour reopens\n" + BODY), "ds"),
        evaluate_page(truth, page, "auto", result(BODY), "ds"),
    ]
    s = summarize(recs)
    assert s["audit_title_first_line"] == 1 and recs[0]["defects"] == ["title_first_line"]
    assert all(s[f"audit_{name}"] == 0 for name in CLASSES if name != "title_first_line")
