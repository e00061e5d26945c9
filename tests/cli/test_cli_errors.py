"""Wrong arguments to ``newscrawl``: one line on standard error naming what is wrong, no traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from newscrawl.cli import BAD_INPUT, FAILED, main

TEXT = "区政府今天公布了新的公交线路调整方案。"
PAGE = f"<html><head><title>标题</title></head><body><p>{TEXT}</p></body></html>"


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    root = tmp_path / "mini"
    (root / "pages").mkdir(parents=True)
    (root / "pages" / "p1.html").write_text(PAGE, encoding="utf-8")
    row = {"id": "p1", "url": None, "title": "标题", "date": None, "text": TEXT}
    (root / "truth.jsonl").write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    return root


@pytest.fixture
def in_the_way(tmp_path: Path) -> Path:
    """A file where a folder is wanted."""
    path = tmp_path / "taken"
    path.write_text("")
    return path


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err
    return err.splitlines()[-1]


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["eval", "{dataset}", "--limit", "0"], "argument --limit: must be at least 1, got 0"),
        (["eval", "{dataset}", "--limit", "-3"], "argument --limit: must be at least 1, got -3"),
        (["bench", "{dataset}", "--limit", "x"], "argument --limit: expected a whole number, got 'x'"),
        (["bench", "{dataset}", "--repeat", "0"], "argument --repeat: must be at least 1, got 0"),
    ],
)
def test_bad_numbers_are_usage_errors(dataset, capsys, argv, problem):
    with pytest.raises(SystemExit) as caught:
        main([a.format(dataset=dataset) for a in argv])
    assert caught.value.code == 2
    assert problem in one_line(capsys)


def test_eval_output_folder_that_cannot_be_made_is_one_line(dataset, in_the_way, capsys):
    assert main(["eval", str(dataset), "-q", "--out", str(in_the_way / "out")]) == FAILED
    line = one_line(capsys)
    assert line.startswith("newscrawl eval: ") and str(in_the_way / "out") in line


def test_eval_markdown_file_that_cannot_be_written_is_one_line(dataset, in_the_way, capsys):
    assert main(["eval", str(dataset), "-q", "--markdown", str(in_the_way / "r.md")]) == FAILED
    assert one_line(capsys).startswith("newscrawl eval: ")


def test_demo_output_folder_that_cannot_be_made_is_named(in_the_way, capsys):
    assert main(["demo", "--output", str(in_the_way / "out")]) == BAD_INPUT
    line = one_line(capsys)
    assert line.startswith("newscrawl demo: --output: cannot create the folder") and str(in_the_way) in line


@pytest.mark.parametrize("command", [["demo"], ["bench-crawl"], ["reextract", "a.warc.gz"]])
@pytest.mark.parametrize("pair", ["NEWSCRAWL_ALGORITHM", "=cetd"])
def test_a_setting_without_a_name_or_value_is_a_usage_error_naming_it(command, pair, capsys):
    with pytest.raises(SystemExit) as caught:
        main([*command, "-s", pair])
    assert caught.value.code == BAD_INPUT
    assert f"argument -s/--set: expects NAME=VALUE, got {pair!r}" in one_line(capsys)


def test_unknown_command_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["crawl-everything"])
    assert caught.value.code == 2
    assert "invalid choice: 'crawl-everything'" in one_line(capsys)


def test_search_since_must_be_an_iso_date(tmp_path, capsys):
    with pytest.raises(SystemExit) as caught:
        main(["search", "公交", "--db", str(tmp_path / "none.sqlite3"), "--since", "2026-13-01"])
    assert caught.value.code == 2
    assert "argument --since: not an ISO 8601 date or time: '2026-13-01' (e.g. 2026-11-20" in one_line(capsys)


def test_a_binary_file_gives_an_error_record_with_no_page_kind_and_a_failing_exit(tmp_path, capsys):
    binary = tmp_path / "photo.html"
    binary.write_bytes(bytes(range(256)) * 20)
    assert main(["extract", str(binary)]) == FAILED
    captured = capsys.readouterr()
    record = json.loads(captured.out)
    assert record["error"] and "binary" in record["error"]
    assert record["page_kind"] is None and record["page_class"] is None
    assert "photo.html" in captured.err


def test_a_reader_that_goes_away_stops_extract_quietly(tmp_path):
    import subprocess
    import sys

    page = tmp_path / "a.html"
    page.write_text("<html><body>" + "<p>正文内容，临江市今天发布寒潮预警。</p>" * 50 + "</body></html>")
    pipeline = f"{sys.executable} -m newscrawl.cli extract {' '.join([str(page)] * 200)} | head -c 100"
    bash = ["bash", "-o", "pipefail", "-c", pipeline]
    # bytes: the 100 bytes head lets through may end inside a character (where depends on the path's length)
    done = subprocess.run(bash, capture_output=True, timeout=120)
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 0, err
    assert len(done.stdout) == 100 and "Broken pipe" not in err and "Traceback" not in err
