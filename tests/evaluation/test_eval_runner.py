from types import SimpleNamespace

import pytest

from newscrawl.evaluation.datasets import Truth, open_dataset
from newscrawl.evaluation.runner import evaluate, evaluate_page, public_record, score_page, summarize


def fake_extract(text="", title=None, published_at=None, error=None):
    def run(page, url=None, algorithm="auto"):
        return SimpleNamespace(text=text, title=title, published_at=published_at, author=None, error=error,
                               algorithm=algorithm, page_class="long")
    return run


def test_text_truth_gets_every_text_metric_and_nothing_else():
    scores = score_page(Truth("a", text="一二三四五"), "一二三四五", None, None)
    assert {"sh_tp", "cjk_f1", "lcs_correct", "qualified", "excellent"} <= scores.keys()
    assert not {"snippet_tp", "title_ok", "date_ok"} & scores.keys()


def test_snippet_title_and_date_truth_get_their_metrics():
    truth = Truth("a", title="T", date="2020-01-02", with_=("x",), without=("y",))
    scores = score_page(truth, "x", "T", "2020-01-02T10:00:00+08:00")
    assert (scores["snippet_tp"], scores["title_ok"], scores["date_ok"]) == (1, True, True)
    assert "sh_tp" not in scores


def test_title_case_aside_is_scored_beside_title_exact():
    scores = score_page(Truth("a", title="COUNCIL PASSES BUDGET"), "", "Council passes budget", None)
    assert (scores["title_ok"], scores["title_case_ok"]) == (False, True)
    summary = summarize([{"ms": 1.0, "chars": 0, "scores": scores}])
    assert (summary["title_accuracy"], summary["title_case_accuracy"]) == (0.0, 1.0)


def test_author_truth_gets_an_author_score():
    scores = score_page(Truth("a", author="张三"), "", None, None, "张三")
    assert (scores["author_ok"], scores["author_found"]) == (True, True)


def test_an_exception_is_recorded_and_scored_as_an_empty_extraction():
    def boom(page, url=None, algorithm="auto"):
        raise RuntimeError("bad page")

    rec = evaluate_page(Truth("a", text="正文"), b"<html>", "auto", boom, "ds")
    assert rec["exception"] == "RuntimeError: bad page"
    assert rec["scores"]["cjk_f1"] == 0.0


def test_summary_counts_errors_exceptions_and_averages_scores():
    t = Truth("a", text="正文内容", date="2020-01-02")
    recs = [
        evaluate_page(t, b"", "auto", fake_extract("正文内容", published_at="2020-01-02"), "ds"),
        evaluate_page(t, b"", "auto", fake_extract(error="unparsable page"), "ds"),
    ]
    s = summarize(recs)
    assert (s["pages"], s["errors"], s["exceptions"], s["empty"]) == (2, 1, 0, 1)
    assert s["cjk_f1"] == pytest.approx(0.5)
    assert (s["date_accuracy"], s["date_precision"]) == (0.5, 1.0)


def test_evaluate_runs_each_algorithm_on_each_page_up_to_the_limit(tiny_dataset):
    seen = []
    runs = list(evaluate([open_dataset(tiny_dataset)], ["cetd", "auto"], extract=fake_extract("x"),
                         limit=1, on_page=lambda r: seen.append((r["id"], r["algorithm"]))))
    assert seen == [("zh1", "cetd"), ("zh1", "auto")]
    got = [(r.dataset, r.algorithm, r.summary["pages"]) for r in runs]
    assert got == [("tiny", "cetd", 1), ("tiny", "auto", 1)]


def test_text_is_written_only_when_asked():
    rec = {"id": "a", "_text": "body"}
    assert public_record(rec) == {"id": "a"}
    assert public_record(rec, with_text=True) == {"id": "a", "text": "body"}


def extraction(**fields):
    base = dict(text="", title=None, published_at=None, author=None, error=None, algorithm="auto",
                page_class="long", page_kind="article")
    return SimpleNamespace(**{**base, **fields})


def test_counters_see_broken_paragraphs_empty_articles_and_invented_offsets():
    truth = Truth("a", text="据报道，包括先锋领航、摩根大通等机构均已减持。\n第二段完整。", date="2024-09-03")
    page = b'<html lang="en"><meta content="2024-09-03T04:03:19">'
    broken = extraction(text="据报道，包括先锋领航、等机构均已减持。\n第二段完整。",
                        published_at="2024-09-03T04:03:19+08:00")
    recs = [
        evaluate_page(truth, page, "auto", lambda *a, **k: broken, "ds"),
        evaluate_page(truth, page, "auto", lambda *a, **k: extraction(published_at="2024-09-03T04:03"), "ds"),
    ]
    s = summarize(recs)
    assert (s["broken_pages"], s["broken_paragraphs"]) == (1, 1)
    assert (s["empty_articles"], s["invented_offsets"]) == (1, 1)


def test_pages_taken_for_error_pages_are_counted():
    truth = Truth("a", text="A story a reader wants.")
    page = b"<html><body><p>x</p></body></html>"
    error = extraction(text="x", page_kind="error")
    as_error = evaluate_page(truth, page, "auto", lambda *a, **k: error, "ds")
    as_article = evaluate_page(truth, page, "auto", lambda *a, **k: extraction(text="x"), "ds")
    assert summarize([as_error, as_article])["error_pages"] == 1
    assert summarize([as_article])["error_pages"] == 0


def test_without_text_truth_the_extractors_page_kind_says_whether_an_empty_text_counts():
    truth = Truth("a", title="T")
    as_list = evaluate_page(truth, b"", "auto", lambda *a, **k: extraction(page_kind="list"), "ds")
    as_article = evaluate_page(truth, b"", "auto", lambda *a, **k: extraction(), "ds")
    assert summarize([as_list])["empty_articles"] == 0
    assert summarize([as_article])["empty_articles"] == 1


def test_a_page_with_no_text_in_its_body_is_not_an_empty_article_without_text_truth():
    from newscrawl.extract import extract

    truth = Truth("a", date="2024-09-03")
    shell = b"<html><body><div id='root'></div><script src='/app.js'></script></body></html>"
    story = b"<html><body><p>" + b"A sentence a reader sees. " * 20 + b"</p></body></html>"
    blank = evaluate_page(truth, shell, "auto", lambda *a, **k: extract(shell), "ds")
    assert blank["page_kind"] == "empty" and summarize([blank])["empty_articles"] == 0
    emptied = extraction(figures={"page_kind": {"reason": "prose region of 520 chars"}})
    emptied_rec = evaluate_page(truth, story, "auto", lambda *a, **k: emptied, "ds")
    assert summarize([emptied_rec])["empty_articles"] == 1
    with_truth = evaluate_page(Truth("b", text="Body."), shell, "auto", lambda *a, **k: extract(shell), "ds")
    assert summarize([with_truth])["empty_articles"] == 1


def test_time_editor_source_and_author_lists_are_scored_where_the_truth_has_them():
    truth = Truth("a", date="2024-09-03 04:03:19+00:00", authors=("AFP, MANILA",), editor="王五",
                  news_source="新京报")
    result = extraction(published_at="2024-09-03T04:30:00+00:00", authors=["AFP, MANILA"],
                        author="AFP, MANILA", editor="王五", source="新华社")
    s = summarize([evaluate_page(truth, b"", "auto", lambda *a, **k: result, "ds")])
    assert (s["time_pages"], s["time_accuracy"]) == (1, 1.0)
    assert (s["author_accuracy"], s["editor_accuracy"], s["source_accuracy"]) == (1.0, 1.0, 0.0)


def test_a_multilingual_dataset_is_also_reported_by_language_group(tmp_path):
    from tests.conftest import PAGE_EN, PAGE_ZH, write_dataset

    root = write_dataset(tmp_path / "multi", {"e": PAGE_EN, "z": PAGE_ZH, "d": PAGE_EN}, [
        {"id": "e", "lang": "en", "text": "harbour"}, {"id": "z", "lang": "zh", "text": "城市"},
        {"id": "d", "lang": "de", "text": "Hafen"},
    ])
    runs = list(evaluate([open_dataset(root)], ["auto"], extract=fake_extract("harbour")))
    got = [(r.dataset, r.part_of, r.summary["pages"]) for r in runs]
    assert got == [("multi", None, 3), ("multi/en", "multi", 1), ("multi/ja+ko+zh", "multi", 1),
                   ("multi/other", "multi", 1)]
    assert runs[1].summary["cjk_f1"] == 1.0 and runs[2].summary["cjk_f1"] == 0.0


def test_a_one_language_dataset_is_not_split(tiny_dataset):
    runs = evaluate([open_dataset(tiny_dataset)], ["auto"], extract=fake_extract("x"))
    assert [r.dataset for r in runs] == ["tiny"]


def test_pages_extracted_in_several_processes_give_the_same_records(tiny_dataset):
    def strip(runs):
        return [(r.dataset, r.algorithm, [{k: v for k, v in rec.items() if k != "ms"} for rec in r.records])
                for r in runs]

    one = strip(evaluate([open_dataset(tiny_dataset)], ["auto", "cetd"]))
    two = strip(evaluate([open_dataset(tiny_dataset)], ["auto", "cetd"], jobs=2))
    assert one == two and len(one[0][2]) == 2
