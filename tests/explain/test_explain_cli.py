"""``newscrawl explain``, run in-process through ``main(argv)``."""

import io
import json
import sys
from pathlib import Path

import pytest

from newscrawl.cli import main

SENTENCE = "市图书馆今天起延长开放时间，周末晚上也可以借阅图书和使用自习室。"
PAGE = f"""<html><head><meta charset="utf-8"><title>图书馆延长开放时间</title></head>
<body><div class="nav"><a href="/">首页</a> <a href="/city">城市</a></div>
<h1>图书馆延长开放时间</h1><div class="content">{"".join(f"<p>{SENTENCE}</p>" for _ in range(4))}</div>
</body></html>"""


@pytest.fixture
def page_file(tmp_path: Path) -> Path:
    path = tmp_path / "page.html"
    path.write_bytes(PAGE.encode("utf-8"))
    return path


def test_explain_json_to_stdout(page_file, capsys):
    assert main(["explain", str(page_file), "--format", "json", "--url", "https://example.cn/a.html"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert facts["url"] == "https://example.cn/a.html"
    assert any(b["mark"] == "kept" and b["text"] == SENTENCE for b in facts["blocks"])


def test_explain_json_to_a_file_with_an_algorithm(page_file, tmp_path):
    out = tmp_path / "out" / "facts.json"
    assert main(["explain", str(page_file), "-f", "json", "-a", "blockstats", "-o", str(out)]) == 0
    facts = json.loads(out.read_text(encoding="utf-8"))
    assert facts["algorithm"] == "blockstats"
    assert facts["unit"] == "source-block"


def test_explain_reads_stdin(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(PAGE.encode("utf-8"))))
    assert main(["explain", "-", "-f", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["error"] is None


def test_explain_missing_file_is_bad_input(tmp_path, capsys):
    assert main(["explain", str(tmp_path / "nope.html"), "-f", "json"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_explain_reads_relative_times_against_the_fetch_time_given(tmp_path, capsys):
    page = tmp_path / "rel.html"
    page.write_bytes(PAGE.replace("<h1>", "<p>发布时间：昨天 09:27</p><h1>").encode("utf-8"))
    args = ["--url", "https://example.cn/a.html", "--fetched-at", "2026-11-25T10:00:00+08:00"]
    assert main(["explain", str(page), "-f", "json", *args]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert facts["extraction"]["published_at"] == "2026-11-24T09:27:00+08:00"
