import pytest

from newscrawl.cli import main
from newscrawl.evaluation.lodo import Tuning, leave_one_out, lodo_markdown, parse_tune
from newscrawl.evaluation.runner import Run


def test_tune_specs_name_algorithm_parameter_and_values():
    assert parse_tune("cetd:threshold_factor=1,1.5") == Tuning("cetd", "threshold_factor", (1, 1.5))
    assert parse_tune("some_rule=true,false").values == (True, False)
    with pytest.raises(ValueError, match="two values"):
        parse_tune("decay=0.7")


def runs_of(tuning, table):
    """Runs from {value: {dataset: main figure}}."""
    pairs = [(v, ds, f) for v, by_ds in table.items() for ds, f in by_ds.items()]
    return [Run(ds, tuning.name(v), summary={"cjk_f1": f}) for v, ds, f in pairs]


def test_a_value_that_only_one_dataset_wants_shows_as_a_drop_on_that_dataset():
    t = Tuning("auto", "decay", (0.5, 0.9))
    # 0.9 wins on the mean only because of "c"; without "c", 0.5 is chosen and "c" drops 0.5
    runs = runs_of(t, {0.5: {"a": 0.90, "b": 0.90, "c": 0.30}, 0.9: {"a": 0.88, "b": 0.88, "c": 0.80}})
    rows = {r.dataset: r for r in leave_one_out(runs, t)}
    assert (rows["c"].chosen_with, rows["c"].chosen_without) == (0.9, 0.5)
    assert rows["c"].drop == pytest.approx(0.5)
    assert rows["a"].drop == 0 and rows["b"].drop == 0
    assert "Worst drop: 0.500 on c." in lodo_markdown(t, list(rows.values()))


def test_no_drop_when_every_dataset_agrees():
    t = Tuning("auto", "decay", (0.5, 0.9))
    runs = runs_of(t, {0.5: {"a": 0.9, "b": 0.8}, 0.9: {"a": 0.7, "b": 0.6}})
    rows = leave_one_out(runs, t)
    assert all(r.drop == 0 and r.chosen_without == 0.5 for r in rows)
    assert "Worst drop: 0 " in lodo_markdown(t, rows)


def test_eval_tune_reports_held_out_datasets_and_keeps_variants_out_of_the_tables(tmp_path, capsys):
    from tests.conftest import PAGE_EN, PAGE_ZH, write_dataset

    a = write_dataset(tmp_path / "a", {"z": PAGE_ZH}, [{"id": "z", "text": "城市更新座谈会召开"}])
    b = write_dataset(tmp_path / "b", {"e": PAGE_EN}, [{"id": "e", "text": "the harbour board approved"}])
    md = tmp_path / "EVAL.md"
    assert main(["eval", str(a), str(b), "--tune", "decay=0.5,0.75", "--markdown", str(md), "-q"]) == 0
    out = capsys.readouterr().out
    assert "| a | auto |" in out and "auto[decay=0.5]" not in out.split("## Leave one dataset out")[0]
    assert "| held out |" in out and "Worst drop" in out
    assert "## Leave one dataset out" in md.read_text("utf-8")


def test_a_bad_tuned_parameter_is_refused_before_any_page_is_read(tmp_path, capsys):
    from tests.conftest import PAGE_ZH, write_dataset

    a = write_dataset(tmp_path / "a", {"z": PAGE_ZH}, [{"id": "z", "text": "城市"}])
    assert main(["eval", str(a), "--tune", "no_such_param=1,2", "-q"]) == 2
    assert "no_such_param" in capsys.readouterr().err
