"""The ``newscrawl`` command line, run in-process through ``main(argv)``."""

import io
import json
import sys
from pathlib import Path

import pytest

from newscrawl import __version__
from newscrawl.cli import main

SENTENCE = "区政府今天公布了新的公交线路调整方案，市民可以在车站查询详细信息。"
PARAGRAPHS = "".join(f"<p>第{i}段：{SENTENCE}</p>" for i in range(5))
PAGE = f"""<html><head><meta charset="utf-8"><title>公交线路调整方案公布</title></head>
<body><div class="nav"><a href="/">首页</a><a href="/x">本地</a></div>
<h1>公交线路调整方案公布</h1><div class="content">{PARAGRAPHS}</div></body></html>"""


@pytest.fixture
def page_file(tmp_path: Path) -> Path:
    path = tmp_path / "page.html"
    path.write_bytes(PAGE.encode("utf-8"))
    return path


def test_help_lists_the_subcommands(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert all(name in out for name in ("extract", "eval", "bench"))


def test_version(capsys):
    from newscrawl.extract.native import describe

    with pytest.raises(SystemExit):
        main(["--version"])
    # the version, and which statistics pass runs (the C extension or pure Python)
    assert " ".join(capsys.readouterr().out.split()) == f"newscrawl {__version__}, {describe()}"


def test_extract_one_file_prints_pretty_json(page_file, capsys):
    assert main(["extract", str(page_file)]) == 0
    out = capsys.readouterr().out
    record = json.loads(out)
    assert record["path"] == str(page_file)
    assert "区政府今天公布了新的公交线路调整方案" in record["text"]
    assert out.startswith("{\n")


def test_extract_several_files_prints_one_json_line_each(page_file, capsys):
    assert main(["extract", str(page_file), str(page_file), "--algorithm", "cetd"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert json.loads(lines[1])["algorithm"] == "cetd"


def test_extract_text_format_prints_title_then_text(page_file, capsys):
    assert main(["extract", str(page_file), "--format", "text"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("公交线路调整方案公布\n\n")
    assert "市民可以在车站查询详细信息" in out


def test_extract_reads_stdin_for_dash(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(PAGE.encode("utf-8"))))
    assert main(["extract", "-", "--url", "https://news.example.cn/1.html"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert (record["path"], record["url"]) == ("-", "https://news.example.cn/1.html")


def test_extract_missing_file_is_named_on_stderr_and_the_rest_still_runs(page_file, tmp_path, capsys):
    missing = tmp_path / "nope.html"
    assert main(["extract", str(missing), str(page_file)]) == 2
    captured = capsys.readouterr()
    assert str(missing) in captured.err
    assert len(captured.err.strip().splitlines()) == 1
    assert json.loads(captured.out)["path"] == str(page_file)


def test_extract_unknown_algorithm_is_a_usage_error(page_file):
    with pytest.raises(SystemExit) as exit_:
        main(["extract", str(page_file), "--algorithm", "nope"])
    assert exit_.value.code == 2


RELATIVE_PAGE = """<html lang="ja"><head><meta charset="utf-8">
<title>市役所が新庁舎へ移転</title></head><body>
<article><h1>市役所が新庁舎へ移転</h1><p class="date">11/24(火) 9:30配信</p>
<p>市役所は24日、駅前に完成した新しい庁舎で業務を始めた。初日は窓口に多くの市民が訪れた。</p>
<p>新庁舎は地上8階建てで、各階に案内係を置いている。旧庁舎は来年度に取り壊す予定だという。</p>
</article></body></html>"""


def test_extract_reads_a_year_less_date_against_the_fetch_time_given(tmp_path, capsys):
    page = tmp_path / "ja.html"
    page.write_text(RELATIVE_PAGE, encoding="utf-8")
    assert main(["extract", str(page)]) == 0
    assert json.loads(capsys.readouterr().out)["published_at"] is None  # no year, no fetch time: not read
    assert main(["extract", str(page), "--fetched-at", "2026-11-25T08:00:00Z"]) == 0
    assert json.loads(capsys.readouterr().out)["published_at"] == "2026-11-24T09:30:00+09:00"
    assert main(["extract", str(page), "--fetched-at", "2027-01-05T08:00:00+09:00"]) == 0
    assert json.loads(capsys.readouterr().out)["published_at"] == "2026-11-24T09:30:00+09:00"  # last year's


@pytest.mark.parametrize("when", ["2026-11-25T08:00", "yesterday", ""])
def test_extract_fetched_at_without_an_offset_is_a_usage_error(page_file, when, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["extract", str(page_file), "--fetched-at", when])
    assert exit_.value.code == 2
    assert "--fetched-at" in capsys.readouterr().err


# --- eval ---


def write_dataset(root: Path) -> Path:
    (root / "pages").mkdir(parents=True)
    (root / "pages" / "p1.html").write_bytes(PAGE.encode("utf-8"))
    (root / "pages" / "p2.html").write_bytes(PAGE.replace("utf-8", "gbk").encode("gbk"))
    truth = "\n".join(f"第{i}段：{SENTENCE}" for i in range(5))
    rows = [
        {"id": "p1", "url": None, "title": "公交线路调整方案公布", "date": None, "text": truth},
        {"id": "p2", "url": None, "title": None, "date": None, "text": truth},
    ]
    lines = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    (root / "truth.jsonl").write_text(lines, "utf-8")
    return root


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    return write_dataset(tmp_path / "mini")


def test_eval_writes_page_records_summary_and_markdown(dataset, tmp_path, capsys):
    out, md = tmp_path / "out", tmp_path / "EVAL.md"
    argv = ["eval", str(dataset), "-a", "auto", "-a", "cetd", "--out", str(out), "--markdown", str(md), "-q"]
    assert main(argv) == 0
    records = [json.loads(line) for line in (out / "mini.auto.jsonl").read_text("utf-8").splitlines()]
    assert [r["id"] for r in records] == ["p1", "p2"]
    keys = {"dataset", "algorithm", "scores", "title", "published_at", "author", "error", "exception", "ms"}
    assert keys <= records[0].keys()
    assert "cjk_f1" in records[0]["scores"] and "text" not in records[0]
    assert (out / "mini.cetd.jsonl").is_file()
    summary = json.loads((out / "summary.json").read_text("utf-8"))
    got = [(s["dataset"], s["algorithm"], s["pages"]) for s in summary]
    assert got == [("mini", "auto", 2), ("mini", "cetd", 2)]
    report = md.read_text("utf-8")
    assert "newscrawl eval " + str(dataset) in report
    assert "| mini | auto | 2 |" in report
    assert "| mini | auto |" in capsys.readouterr().out


def test_eval_all_runs_every_algorithm(dataset, tmp_path):
    from newscrawl.extract import ALGORITHMS

    out = tmp_path / "out"
    assert main(["eval", str(dataset), "--algorithm", "all", "--out", str(out), "--limit", "1", "-q"]) == 0
    assert sorted(p.name for p in out.glob("*.jsonl")) == sorted(f"mini.{a}.jsonl" for a in ALGORITHMS)


def test_eval_exits_nonzero_naming_each_figure_below_its_floor(dataset, tmp_path, capsys):
    floors = tmp_path / "floors.toml"
    floors.write_text("[mini.auto]\ncjk_f1 = 1.01\nsh_f1 = 0.0\nmax_exceptions = 0\n")
    assert main(["eval", str(dataset), "--floors", str(floors), "-q"]) == 1
    err = capsys.readouterr().err
    assert "mini/auto: cjk_f1" in err
    assert "sh_f1" not in err


def test_eval_passes_when_every_floor_holds(dataset, tmp_path):
    floors = tmp_path / "floors.toml"
    floors.write_text("[mini.auto]\ncjk_f1 = 0.0\nmax_exceptions = 0\n")
    assert main(["eval", str(dataset), "--floors", str(floors), "-q"]) == 0


def test_eval_refuses_a_directory_that_is_not_a_dataset(tmp_path, capsys):
    assert main(["eval", str(tmp_path), "-q"]) == 2
    assert "truth.jsonl" in capsys.readouterr().err


# --- bench ---


def test_bench_reports_the_floor_and_each_algorithm(dataset, capsys):
    assert main(["bench", str(dataset), "-a", "auto", "-a", "cetd", "-q"]) == 0
    out = capsys.readouterr().out
    assert "| lxml parse (floor) | 2 |" in out
    assert "| auto | 2 |" in out and "| cetd | 2 |" in out
    assert "wall-clock time" in out


def test_bench_times_cpu_when_asked(dataset, capsys):
    assert main(["bench", str(dataset), "--cpu", "--metadata", "-q"]) == 0
    out = capsys.readouterr().out
    assert "CPU time" in out and "| metadata stage | 2 |" in out


def test_eval_skips_plain_files_among_its_arguments(dataset, tmp_path, capsys):
    manifest = tmp_path / "MANIFEST.blobs"
    manifest.write_text("x\n")
    assert main(["eval", str(dataset), str(manifest), "-q"]) == 0
    assert "skipping" in capsys.readouterr().err


def test_eval_counts_exceptions_and_a_ceiling_of_zero_fails(dataset, tmp_path, monkeypatch, capsys):
    import newscrawl.extract

    def boom(page, url=None, algorithm="auto"):
        raise RuntimeError("broken")

    monkeypatch.setattr(newscrawl.extract, "extract", boom)
    floors = tmp_path / "floors.toml"
    floors.write_text("[mini.auto]\nmax_exceptions = 0\n")
    assert main(["eval", str(dataset), "--floors", str(floors), "-q"]) == 1
    captured = capsys.readouterr()
    assert "| mini | auto | 2 | 0 | 2 |" in captured.out
    assert "raised on 2 page(s)" in captured.err
    assert "mini/auto: exceptions = 2 is above its ceiling 0" in captured.err


def test_extract_reads_an_endless_input_only_up_to_the_page_limit(capsys):
    # /dev/zero would be read without end (2.5 GB in 5 s); now 8 MiB + 1 byte, then extraction says why
    from newscrawl.cli import read_page
    from newscrawl.extract.limits import MAX_BODY_BYTES

    assert len(read_page("/dev/zero")) == MAX_BODY_BYTES + 1
    assert main(["extract", "/dev/zero"]) == 1  # a page that cannot be extracted
    assert "binary data, not text" in capsys.readouterr().err
