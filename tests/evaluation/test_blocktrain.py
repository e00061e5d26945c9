"""Training auto's block choice: rows from a hand-written dataset, the figures they move, stumps to steps."""

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from newscrawl.evaluation import blocktrain as bt
from newscrawl.extract.blockchoice import FEATURES, BlockModel

STORY = [
    "The harbour reopened on Monday after a week of repairs to the old sea wall and the piers.",
    "Fishing boats returned to their moorings and the market hall opened its doors again.",
    "The council said the work had cost less than expected and was finished ahead of time.",
]


def snippet_set(totals: tuple[float, float, float]) -> bt.DatasetRows:
    tp, fp, fn = totals
    return bt.DatasetRows("s", 10, True, {}, {"tp": tp, "fp": fp, "fn": fn})


def row(page: str, base: dict[str, float], cand: dict[str, float], x: float = 0.0) -> dict[str, object]:
    return {"id": page, "levels": 1, "x": [x] * len(FEATURES), "base": base, "cand": cand}


def test_a_snippet_sets_figure_moves_with_the_pages_counts_micro() -> None:
    ds = snippet_set((8, 1, 2))  # F1 = 16 / 19
    gained = row("a", {"tp": 1, "fp": 0, "fn": 1}, {"tp": 2, "fp": 0, "fn": 0})
    assert bt.row_gain(ds, gained) == pytest.approx(18 / 20 - 16 / 19)  # 9 found, 1 wrong, 1 missed
    assert bt.figure_change(ds, {"a": None}) == 0.0


def test_a_body_sets_figure_is_the_mean_of_its_pages() -> None:
    ds = bt.DatasetRows("b", 4, False, {}, {"f1": 3.6})
    assert bt.base_figure(ds) == pytest.approx(0.9)
    assert bt.row_gain(ds, row("a", {"f1": 0.5}, {"f1": 0.9})) == pytest.approx(0.1)


def test_ties_are_left_out_and_changes_weigh_by_their_size() -> None:
    ds = bt.DatasetRows("b", 2, False, {}, {"f1": 1.0})
    ds.by_page = {
        "a": [row("a", {"f1": 0.5}, {"f1": 0.9}, 1.0)],
        "b": [row("b", {"f1": 0.5}, {"f1": 0.5}, 2.0), row("b", {"f1": 0.5}, {"f1": 0.3}, 3.0)],
    }
    xs, ys, ws = bt.training_set([ds])
    assert [x[0] for x in xs] == [1.0, 3.0] and ys == [1, 0] and ws == pytest.approx([0.2, 0.1])


def stump(feature: int, threshold: float, left: float, right: float) -> SimpleNamespace:
    tree = SimpleNamespace(
        node_count=3,
        feature=[feature, -2, -2],
        threshold=[threshold, -2.0, -2.0],
        children_left=[1, -1, -1],
        children_right=[2, -1, -1],
        value=[[[0.0]], [[left]], [[right]]],
    )
    return SimpleNamespace(tree_=tree)


def test_stumps_add_up_to_one_step_function_per_feature() -> None:
    steps = bt.steps([stump(0, 1.0, -1.0, 1.0), stump(0, 2.0, -2.0, 2.0), stump(3, 0.5, 0.0, 4.0)], 0.5)
    assert steps[FEATURES[0]] == {"thresholds": [1.0, 2.0], "values": [-1.5, -0.5, 1.5]}
    assert steps[FEATURES[3]] == {"thresholds": [0.5], "values": [0.0, 2.0]}
    m = BlockModel.from_json({"features": list(FEATURES), "init": 0.0, "threshold": 0.0, "steps": steps})
    x = [0.0] * len(FEATURES)
    for value, odds in ((0.5, -1.5), (1.0, -1.5), (1.5, -0.5), (2.5, 1.5)):
        x[0] = value
        assert m.log_odds(x) == odds


def dataset(tmp_path: Path) -> Path:
    story = "".join(f"<p>{p}</p>" for p in STORY)
    html = (
        "<html><body><div class='page'><h1>Harbour reopens</h1><p class='date'>Monday, 4 May</p>"
        f"<div class='story'>{story}</div></div></body></html>"
    )
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "one.html").write_text(html, encoding="utf-8")
    truth = {"id": "one", "text": "\n".join(STORY)}
    (tmp_path / "truth.jsonl").write_text(json.dumps(truth) + "\n", encoding="utf-8")
    return tmp_path


def test_collect_scores_the_root_and_each_ancestor_that_adds_text(tmp_path: Path) -> None:
    rows = list(bt.collect([str(dataset(tmp_path))]))
    *pages, summary = rows
    assert summary == {"dataset": tmp_path.name, "pages": 1, "totals": {"f1": 1.0}}
    assert [r["levels"] for r in pages] == [1, 2]
    first = pages[0]
    assert len(first["x"]) == len(FEATURES) and first["base"] == {"f1": 1.0}
    assert first["cand"]["f1"] < 1.0  # the headline and date are not the truth's text
    out = tmp_path / "rows.jsonl"
    out.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    sets = bt.load_rows(str(out))
    assert sets[tmp_path.name].pages == 1 and bt.base_figure(sets[tmp_path.name]) == 1.0


def test_fit_writes_a_model_the_runtime_reads() -> None:
    pytest.importorskip("sklearn")
    ds = bt.DatasetRows("b", 60, False, {}, {"f1": 30.0})
    for i in range(60):
        better = i % 2 == 0
        r = row(str(i), {"f1": 0.5}, {"f1": 0.9 if better else 0.1}, 1.0 if better else 0.0)
        ds.by_page[str(i)] = [r]
    model = BlockModel.from_json(bt.fit([ds]))
    assert model.log_odds([1.0] * len(FEATURES)) > model.threshold > model.log_odds([0.0] * len(FEATURES))
    assert bt.figure_change(ds, bt.choose(ds, model)) == pytest.approx(30 * 0.4 / 60)
