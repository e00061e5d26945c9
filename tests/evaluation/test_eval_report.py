import pytest

from newscrawl.evaluation.report import check_floors, load_floors, markdown_report, table, tables
from newscrawl.evaluation.runner import Run

RUNS = [
    Run("news", "auto", summary={"pages": 3, "text_pages": 3, "sh_f1": 0.9, "cjk_f1": 0.8, "exceptions": 0}),
    Run("dates", "auto", summary={"pages": 2, "date_pages": 2, "date_accuracy": 0.5, "exceptions": 1}),
]


def test_a_table_lists_only_runs_that_have_its_figures():
    md = table(RUNS, (("pages", "text_pages", "d"), ("SH F1", "sh_f1", ".3f"), ("CJK F1", "cjk_f1", ".3f")))
    assert "| news | auto | 3 | 0.900 | 0.800 |" in md
    assert "dates" not in md


def test_tables_skip_sections_without_runs():
    md = tables(RUNS)
    assert "## Body text" in md and "## Publish date" in md
    assert "## Title" not in md


def test_the_report_says_how_it_was_made():
    md = markdown_report(RUNS, "newscrawl eval x", "2030-01-01 00:00 UTC", "9.9")
    assert "newscrawl eval x" in md and "2030-01-01" in md and "9.9" in md


def test_figures_below_floors_and_above_ceilings_are_named():
    floors = {"news": {"auto": {"sh_f1": 0.95, "cjk_f1": 0.7}}, "dates": {"auto": {"max_exceptions": 0}}}
    failures = check_floors(RUNS, floors)
    assert len(failures) == 2
    assert "news/auto: sh_f1" in failures[0]
    assert "dates/auto: exceptions" in failures[1]


def test_a_floor_on_a_missing_figure_fails():
    assert check_floors(RUNS, {"news": {"auto": {"title_accuracy": 0.1}}})


def test_floors_for_runs_not_made_are_ignored():
    assert check_floors(RUNS, {"other": {"auto": {"sh_f1": 1.0}}, "news": {"cetd": {"sh_f1": 1.0}}}) == []


def test_floors_load_from_toml_and_json(tmp_path):
    (tmp_path / "f.toml").write_text('[news.auto]\nsh_f1 = 0.9\nmax_exceptions = 0\n')
    (tmp_path / "f.json").write_text('{"news": {"auto": {"sh_f1": 0.9}}}')
    assert load_floors(tmp_path / "f.toml") == {"news": {"auto": {"sh_f1": 0.9, "max_exceptions": 0.0}}}
    assert load_floors(tmp_path / "f.json") == {"news": {"auto": {"sh_f1": 0.9}}}


def test_a_floor_that_is_not_a_number_is_refused(tmp_path):
    (tmp_path / "f.toml").write_text('[news.auto]\nsh_f1 = "high"\n')
    with pytest.raises(ValueError, match="news.auto.sh_f1"):
        load_floors(tmp_path / "f.toml")


def test_the_report_names_the_revision_when_known():
    md = markdown_report(RUNS, "newscrawl eval x", "2030-01-01 00:00 UTC", "9.9", "commit abc1234")
    assert "9.9 at commit abc1234 on 2030-01-01" in md
