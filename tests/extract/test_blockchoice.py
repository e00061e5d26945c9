"""auto's learned block choice: reading the model file, the block features, widening (hand-written HTML)."""

import math

import pytest

from newscrawl.extract import blockchoice as bc
from newscrawl.extract import extract
from newscrawl.extract.algorithms import auto
from newscrawl.extract.api import prepare_page
from newscrawl.extract.stats import NodeStats

METHOD = [
    "Preheat the oven and butter a round tin before you start with the dough for the cake.",
    "Beat the soft butter with the sugar until it is pale, then add the eggs one by one.",
    "Fold in the flour and the baking powder, spread the dough in the tin and bake it for an hour.",
    "Let the cake cool completely before you spread the cream over it and serve it in slices.",
]
INGREDIENTS = ["250 g flour", "200 g sugar", "4 eggs", "1 tsp baking powder", "200 g butter", "500 ml cream"]


def recipe() -> str:
    items = "".join(f"<li>{i}</li>" for i in INGREDIENTS)
    method = "".join(f"<p>{p}</p>" for p in METHOD)
    return (
        "<html><body><nav><a href='/'>Home</a> <a href='/cakes'>Cakes</a></nav>"
        "<article class='recipe'><h1>Cream cake</h1><h2>Ingredients</h2>"
        f"<ul class='ingredients'>{items}</ul><div class='method'>{method}</div></article></body></html>"
    )


def stats_of(html: str) -> NodeStats:
    return prepare_page(html).page.stats


def model(init: float, steps: dict[str, dict[str, list[float]]] | None = None) -> bc.BlockModel:
    return bc.BlockModel.from_json(
        {"features": list(bc.FEATURES), "init": init, "threshold": 0.0, "steps": steps or {}}
    )


def index_of(stats: NodeStats, tag: str, cls: str | None = None) -> int:
    return next(i for i in range(len(stats)) if stats.tag[i] == tag and stats.classes[i] == cls)


def test_a_step_function_reads_its_value_by_the_thresholds_below() -> None:
    m = model(0.5, {"levels": {"thresholds": [1.0, 2.0], "values": [-1.0, 0.0, 1.0]}})
    x = [0.0] * len(bc.FEATURES)
    for levels, odds in ((1.0, -0.5), (1.5, 0.5), (2.0, 0.5), (3.0, 1.5)):
        x[bc.FEATURES.index("levels")] = levels
        assert m.log_odds(x) == odds  # a value equal to a threshold goes below it, as the trees split


def test_the_bound_is_the_highest_log_odds_the_scanned_features_allow() -> None:
    steps = {
        "levels": {"thresholds": [1.5], "values": [1.0, -1.0]},
        "added_li_share": {"thresholds": [0.5], "values": [-2.0, 3.0]},
    }
    m = model(0.0, steps)
    x = [0.0] * len(bc.FEATURES)
    x[bc.FEATURES.index("levels")] = 1.0
    assert m.log_odds(x) == -1.0 and m.bound(x) == 4.0
    x[bc.FEATURES.index("added_li_share")] = 0.8
    assert m.log_odds(x) == m.bound(x) == 4.0


def test_a_model_file_of_other_features_or_bad_steps_is_refused() -> None:
    with pytest.raises(ValueError, match="features"):
        bc.BlockModel.from_json({"features": ["levels"], "init": 0, "threshold": 0, "steps": {}})
    bad = {"levels": {"thresholds": [2.0, 1.0], "values": [0.0, 0.0, 0.0]}}
    with pytest.raises(ValueError, match="sorted thresholds"):
        model(0.0, bad)


def test_the_shipped_model_reads_and_names_this_codes_features() -> None:
    shipped = bc.shipped_model()
    assert shipped is not None and shipped.features == bc.FEATURES and shipped.steps


def test_candidates_are_the_ancestors_nearest_first() -> None:
    stats = stats_of(recipe())
    method = index_of(stats, "div", "method")
    assert bc.candidates(stats, method) == [index_of(stats, "article", "recipe"), 0]
    p = stats.children(method)[0]
    assert bc.candidates(stats, p) == [method, index_of(stats, "article", "recipe"), 0]


def test_the_features_say_what_an_ancestor_adds() -> None:
    stats = stats_of(recipe())
    method = index_of(stats, "div", "method")
    article = index_of(stats, "article", "recipe")
    content = auto.content_scores(stats, 0.75, 1.0, 0.9)
    found = dict(bc.candidate_features(stats, content, method))
    x = dict(zip(bc.FEATURES, found[article], strict=True))
    added = sum(len(i.replace(" ", "")) for i in INGREDIENTS) + len("Creamcake") + len("Ingredients")
    assert x["levels"] == 1
    assert x["added_li_share"] == pytest.approx(sum(len(i.replace(" ", "")) for i in INGREDIENTS) / added)
    assert x["added_heading_share"] == pytest.approx((len("Creamcake") + len("Ingredients")) / added)
    assert x["added_before_share"] == 1.0  # all of it stands above the method
    assert x["added_link_share"] == 0.0 and x["added_short_share"] == 1.0 and x["cand_section"] == 1.0
    body = dict(zip(bc.FEATURES, found[0], strict=True))
    assert body["levels"] == 2 and body["added_link_share"] > 0  # the body adds the navigation links


def test_an_ancestor_adding_no_text_is_no_candidate() -> None:
    stats = stats_of("<html><body><div><div class='x'><p>Only this text here.</p></div></div></body></html>")
    p = index_of(stats, "p")
    assert bc.candidate_features(stats, [1.0] * len(stats), p) == []


def test_widen_reads_the_ancestor_of_highest_odds_above_the_threshold() -> None:
    stats = stats_of(recipe())
    method = index_of(stats, "div", "method")
    article = index_of(stats, "article", "recipe")
    content = auto.content_scores(stats, 0.75, 1.0, 0.9)
    assert bc.widen(stats, content, method, None) == (method, -math.inf)
    assert bc.widen(stats, content, method, model(-1.0)) == (method, -math.inf)  # none could reach 0
    prefer_near = model(0.0, {"levels": {"thresholds": [1.0], "values": [2.0, 1.0]}})
    assert bc.widen(stats, content, method, prefer_near) == (article, 2.0)
    prefer_far = model(0.0, {"levels": {"thresholds": [1.0], "values": [1.0, 2.0]}})
    assert bc.widen(stats, content, method, prefer_far) == (0, 2.0)


def test_a_model_that_never_reaches_its_threshold_reads_no_element() -> None:
    stats = stats_of(recipe())
    method = index_of(stats, "div", "method")
    never = model(-5.0, {"added_li_share": {"thresholds": [0.5], "values": [0.0, 1.0]}})
    assert bc.candidate_features(stats, [1.0] * len(stats), method, never) == []


def test_auto_reads_the_widened_root_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    only_article = model(0.0, {"cand_section": {"thresholds": [0.5], "values": [-1.0, 1.0]}})
    monkeypatch.setattr(auto, "shipped_model", lambda: only_article)
    r = extract(recipe())
    assert "250 g flour" in r.text and METHOD[0] in r.text
    assert r.figures["widened_levels"] == 1 and r.figures["block_odds"] == 1.0
    off = extract(recipe(), block_model=False)
    assert "250 g flour" not in off.text and METHOD[0] in off.text
    assert off.figures["widened_levels"] == 0 and off.figures["block_odds"] is None
