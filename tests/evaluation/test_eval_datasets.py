from pathlib import Path

import pytest

from newscrawl.evaluation.datasets import open_dataset, truth_from_json


def test_dataset_yields_truth_and_raw_bytes_in_file_order(tiny_dataset):
    ds = open_dataset(tiny_dataset)
    pairs = list(ds)
    assert [t.id for t, _ in pairs] == ["zh1", "en1"]
    assert pairs[0][1].startswith(b"<html>")
    assert len(ds) == 2
    assert ds.name == "tiny"


def test_a_directory_without_truth_is_refused(tmp_path):
    with pytest.raises(ValueError, match="truth.jsonl"):
        open_dataset(tmp_path)


def test_truth_keeps_snippets_and_the_no_date_flag():
    t = truth_from_json({"id": 7, "with": ["a"], "without": ["b"], "date": None, "date_expected_none": True})
    assert (t.id, t.with_, t.without) == ("7", ("a",), ("b",))
    assert t.has_date


def test_only_http_urls_are_passed_on():
    assert truth_from_json({"id": "x", "url": "hard::x.html"}).http_url is None
    assert truth_from_json({"id": "x", "url": "https://e.cn/1"}).http_url == "https://e.cn/1"


def test_a_bad_truth_line_names_file_and_line(tmp_path):
    (tmp_path / "pages").mkdir()
    (tmp_path / "truth.jsonl").write_text('{"id": "a"}\n{"url": "no id"}\n')
    with pytest.raises(ValueError, match=r"truth.jsonl:2"):
        list(open_dataset(tmp_path).truths())


def test_a_truth_may_name_a_page_kept_outside_the_dataset(tmp_path):
    site = tmp_path / "site" / "news"
    site.mkdir(parents=True)
    (site / "a.shtml").write_bytes(b"<html>a</html>")
    (tmp_path / "set").mkdir()
    (tmp_path / "set" / "truth.jsonl").write_text('{"id": "a", "page": "../site/news/a.shtml"}\n')
    ds = open_dataset(tmp_path / "set")
    (truth, page), = list(ds)
    assert (truth.page, page) == ("../site/news/a.shtml", b"<html>a</html>")
    assert ds.read_page("a") == ds.read_page(truth) == page


def test_without_pages_every_truth_must_name_its_page(tmp_path):
    (tmp_path / "truth.jsonl").write_text('{"id": "a", "page": "a.html"}\n{"id": "b"}\n')
    with pytest.raises(ValueError, match="not every truth names a page"):
        open_dataset(tmp_path)


def test_the_shipped_demo_sample_refers_to_the_demo_pages():
    from newscrawl.crawl.demo import DEMO_DIR

    root = Path(__file__).resolve().parents[2]
    ds = open_dataset(root / "data" / "eval" / "demo")
    paths = [ds.page_path(t).resolve() for t in ds.truths()]
    assert len(paths) == 24 and all(p.is_file() and p.is_relative_to(DEMO_DIR) for p in paths)
    assert not (root / "data" / "eval" / "demo" / "pages").exists()
