"""``newscrawl eval --explain-failures``: a report for each page whose F1 is below the threshold."""

import json
from pathlib import Path

import pytest

from newscrawl.cli import main
from newscrawl.evaluation.datasets import open_dataset
from newscrawl.evaluation.failures import page_f1, write_failure_reports
from newscrawl.evaluation.runner import evaluate

ZH = "本市今天举行了城市更新座谈会，多位居民代表就老旧小区改造提出了具体建议。"
EN = "The harbour board approved a new plan for the old docks on Tuesday evening after a long debate."


def page(paragraph: str) -> str:
    body = "".join(f"<p>{i}. {paragraph}</p>" for i in range(5))  # distinct: a repeat is kept once
    return (
        '<html><head><meta charset="utf-8"><title>t</title></head><body>'
        f'<div class="nav"><a href="/">home</a> <a href="/n">news</a></div><div class="article">{body}</div>'
        "</body></html>"
    )


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    """zh-good: truth equals the body; zh-bad: truth is other text; en-bad: English, wrong truth;
    en-snippets: no text truth (no F1, never explained)."""
    root = tmp_path / "mini"
    (root / "pages").mkdir(parents=True)
    pages = {"zh-good": page(ZH), "zh-bad": page(ZH), "en-bad": page(EN), "en-snippets": page(EN)}
    for pid, html in pages.items():
        (root / "pages" / f"{pid}.html").write_text(html, encoding="utf-8")
    truths = [
        {"id": "zh-good", "lang": "zh", "text": "\n".join(f"{i}. {ZH}" for i in range(5))},
        {"id": "zh-bad", "lang": "zh", "text": "完全不同的一篇文章，讲的是天气预报和明天的降雨情况。"},
        {"id": "en-bad", "lang": "en", "text": "An unrelated story about football results and tables."},
        {"id": "en-snippets", "lang": "en", "text": None, "with": ["harbour board"], "without": ["home"]},
    ]
    (root / "truth.jsonl").write_text("".join(json.dumps(t) + "\n" for t in truths), encoding="utf-8")
    return root


def test_page_f1_is_cjk_f1_for_chinese_pages():
    assert page_f1({"sh_tp": 0.0, "sh_fp": 1.0, "sh_fn": 0.0, "sh_exact": False, "cjk_f1": 0.75}, True) == (
        "cjk_f1", 0.75
    )


def test_page_f1_is_the_pages_scrapinghub_f1_elsewhere():
    name, f1 = page_f1({"sh_tp": 0.5, "sh_fp": 0.25, "sh_fn": 0.25, "sh_exact": False, "cjk_f1": 0.1}, False)
    assert name == "sh_f1"
    assert f1 == pytest.approx(2 / 3)  # precision 2/3, recall 2/3


def test_page_f1_is_none_without_text_truth():
    assert page_f1({"snippet_tp": 1}, False) is None


def test_reports_are_written_for_pages_below_the_threshold(dataset, tmp_path):
    ds = open_dataset(dataset)
    runs = list(evaluate([ds], ["auto"]))
    out = tmp_path / "failures"
    written = write_failure_reports(runs, [ds], out, threshold=0.5)
    assert sorted(p.name for p in written) == ["mini.auto.en-bad.html", "mini.auto.zh-bad.html"]
    report = (out / "mini.auto.zh-bad.html").read_text(encoding="utf-8")
    assert "cjk_f1" in report and "完全不同的一篇文章" in report  # the score and the truth are shown
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="mini.auto.en-bad.html"' in index and 'href="mini.auto.zh-bad.html"' in index


def test_a_threshold_of_zero_explains_nothing(dataset, tmp_path):
    ds = open_dataset(dataset)
    assert write_failure_reports(list(evaluate([ds], ["auto"])), [ds], tmp_path / "f", threshold=0.0) == []


def test_eval_cli_explains_failures(dataset, tmp_path, capsys):
    out = tmp_path / "why"
    args = ["eval", str(dataset), "-q", "--explain-failures", str(out), "--explain-threshold", "0.5"]
    assert main(args) == 0
    assert sorted(p.name for p in out.glob("*.html")) == [
        "index.html", "mini.auto.en-bad.html", "mini.auto.zh-bad.html"
    ]
    assert "2 page(s) below F1 0.5 explained" in capsys.readouterr().err


def test_eval_cli_rejects_a_threshold_outside_0_1(dataset, tmp_path):
    args = ["eval", str(dataset), "-q", "--explain-failures", str(tmp_path), "--explain-threshold", "2"]
    assert main(args) == 2
