"""Train ``auto``'s block choice (``newscrawl.extract.blockchoice``) on datasets with truth.

For every page whose truth has body text or trafilatura's snippets, ``auto`` chooses its content root as
it does at run time; the page is then read from the root and from each candidate ancestor, and each
reading is scored against the truth with the dataset's main figure (CJK-aware token F1 of the body, or
snippet F1, micro over the dataset as the eval reports it). A candidate's label is whether it scores
better than the root; its weight is how much the dataset's figure moves when that page alone changes,
so every dataset weighs as ``newscrawl eval``'s leave-one-dataset-out tables weigh it (the mean of the
datasets' figures). Ties (the same text) are left out.

Run it in two steps (the first reads every page, the second is quick)::

    python -m newscrawl.evaluation.blocktrain collect ../shared/datasets/{chinese-wce,daniel-zh,\\
        scrapinghub,trafilatura,fundus} --rows /tmp/blockrows.jsonl --jobs 2
    python -m newscrawl.evaluation.blocktrain train /tmp/blockrows.jsonl --lodo \\
        --model newscrawl/data/block_model.json

``train --lodo`` prints, for each dataset, its figure with the root alone, with a model trained without it,
and with the model trained on all datasets. Training needs scikit-learn (the ``train`` extra); running the
model does not.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import multiprocessing
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from newscrawl.evaluation import metrics as m
from newscrawl.evaluation.datasets import Truth, open_dataset
from newscrawl.extract.algorithms import REGISTRY
from newscrawl.extract.algorithms.auto import AutoParams, choose_root, read_root
from newscrawl.extract.blockchoice import FEATURES, candidate_features, candidates

#: gradient boosting: trees, their depth and the learning rate (small: a few hundred labelled pages)
TREES = 200
DEPTH = 1
RATE = 0.1
MIN_LEAF = 20
#: a candidate is read instead of the root when its log-odds exceed this
THRESHOLD = 1.25


def _score(truth: Truth, text: str) -> dict[str, float]:
    """The page's figures the main figure is made from."""
    if truth.text is not None and truth.text.strip():
        return {"f1": m.cjk_token_prf(text, truth.text).f1}
    if truth.with_ is not None and truth.without is not None:
        c = m.snippet_counts(text, truth.with_, truth.without)
        return {"tp": c.tp, "fp": c.fp, "fn": c.fn}
    return {}


def page_rows(truth: Truth, html: bytes, dataset: str) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """The scores of the root's reading of one page, and one row per candidate ancestor: its features and
    the scores of both readings."""
    from newscrawl.extract import extract
    from newscrawl.extract.api import PageError, prepare_page

    base = _score(truth, extract(html, truth.http_url, block_model=False).text)  # the root's reading
    try:
        page = prepare_page(html, truth.http_url).page
    except PageError:
        return base, []
    stats = page.stats
    if len(stats) == 0 or stats.chars[0] == 0:
        return base, []
    params: AutoParams = REGISTRY["auto"].make_params({"block_model": False})
    choice = choose_root(stats, params)
    if choice.root != choice.thread_root:
        return base, []  # a thread's opening post is not widened
    root_score = _score(truth, read_root(page, choice, params).text)
    rows = []
    levels = {cand: n for n, cand in enumerate(candidates(stats, choice.root), 1)}
    for cand, x in candidate_features(stats, choice.scores, choice.root):
        wide = dataclasses.replace(choice, root=cand, thread_root=cand)
        text = read_root(page, wide, params).text
        rows.append(
            {
                "dataset": dataset,
                "id": truth.id,
                "levels": levels[cand],
                "x": x,
                "base": root_score,
                "cand": _score(truth, text),
            }
        )
    return base, rows


_WORK: dict[str, Any] = {}


def _work(i: int) -> tuple[dict[str, float], list[dict[str, Any]]]:
    truth, path, name = _WORK["pages"][i]
    return page_rows(truth, Path(path).read_bytes(), name)


def collect(paths: Iterable[str], jobs: int = 1) -> Iterable[dict[str, Any]]:
    """The rows of every page of every dataset; after each dataset's rows, a summary row: its pages and
    the sum of the root readings' scores (snippet F1 is micro: the totals make the figure)."""
    for path in paths:
        ds = open_dataset(path)
        truths = [t for t in ds.truths() if _score(t, "")]
        _WORK["pages"] = [(t, str(ds.page_path(t)), ds.name) for t in truths]
        totals: dict[str, float] = {}
        if jobs > 1:
            pool = multiprocessing.get_context("fork").Pool(jobs)
            results: Iterable[tuple[dict[str, float], list[dict[str, Any]]]] = pool.imap(
                _work, range(len(truths)), chunksize=4
            )
        else:
            pool, results = None, map(_work, range(len(truths)))
        try:
            for base, rows in results:
                for k, v in base.items():
                    totals[k] = totals.get(k, 0.0) + v
                yield from rows
        finally:
            if pool is not None:
                pool.close()
                pool.join()
        yield {"dataset": ds.name, "pages": len(truths), "totals": totals}


# --- figures -------------------------------------------------------------------------------------------


@dataclasses.dataclass
class DatasetRows:
    """One dataset's candidate rows grouped by page, and what its figure is made from."""

    name: str
    pages: int
    snippets: bool
    by_page: dict[str, list[dict[str, Any]]]
    #: the root readings' scores summed over the whole dataset (pages without candidates included)
    totals: dict[str, float] = dataclasses.field(default_factory=dict)


def _snippet_f1(tp: float, fp: float, fn: float) -> float:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


def figure_change(ds: DatasetRows, chosen: Mapping[str, dict[str, Any] | None]) -> float:
    """How much the dataset's main figure moves when each page reads its chosen candidate (None: root)."""
    if ds.snippets:
        tp, fp, fn = ds.totals["tp"], ds.totals["fp"], ds.totals["fn"]
        dtp = dfp = dfn = 0.0
        for row in chosen.values():
            if row is not None:
                dtp += row["cand"]["tp"] - row["base"]["tp"]
                dfp += row["cand"]["fp"] - row["base"]["fp"]
                dfn += row["cand"]["fn"] - row["base"]["fn"]
        return _snippet_f1(tp + dtp, fp + dfp, fn + dfn) - _snippet_f1(tp, fp, fn)
    return sum(r["cand"]["f1"] - r["base"]["f1"] for r in chosen.values() if r is not None) / ds.pages


def row_gain(ds: DatasetRows, row: Mapping[str, Any]) -> float:
    """The change of the dataset's figure when this row's page alone reads the candidate."""
    return figure_change(ds, {row["id"]: dict(row)})


def load_rows(path: str) -> dict[str, DatasetRows]:
    """Read ``collect``'s rows into datasets."""
    sets: dict[str, DatasetRows] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            ds = sets.setdefault(row["dataset"], DatasetRows(row["dataset"], 0, False, {}))
            if "pages" in row:
                ds.pages, ds.totals, ds.snippets = row["pages"], row["totals"], "tp" in row["totals"]
            else:
                ds.by_page.setdefault(row["id"], []).append(row)
    return sets


# --- training --------------------------------------------------------------------------------------------


def training_set(sets: Iterable[DatasetRows]) -> tuple[list[list[float]], list[int], list[float]]:
    """Features, labels (the candidate reads better) and weights (the size of the change) of every row
    that changes its dataset's figure."""
    xs: list[list[float]] = []
    ys: list[int] = []
    ws: list[float] = []
    for ds in sets:
        for rows in ds.by_page.values():
            for row in rows:
                gain = row_gain(ds, row)
                if abs(gain) < 1e-9:
                    continue
                xs.append(row["x"])
                ys.append(int(gain > 0))
                ws.append(abs(gain))
    return xs, ys, ws


def fit(sets: Sequence[DatasetRows], seed: int = 0) -> dict[str, Any]:
    """A model trained on ``sets``, as the JSON object ``BlockModel.from_json`` reads."""
    from sklearn.ensemble import GradientBoostingClassifier  # a training-time dependency only

    xs, ys, ws = training_set(sets)
    total = sum(ws)
    ws = [w * len(ws) / total for w in ws]  # mean weight 1
    clf = GradientBoostingClassifier(
        n_estimators=TREES, max_depth=DEPTH, learning_rate=RATE, min_samples_leaf=MIN_LEAF, random_state=seed
    )
    clf.fit(xs, ys, sample_weight=ws)
    init = float(clf._raw_predict_init([xs[0]])[0][0])
    return {
        "features": list(FEATURES),
        "init": init,
        "threshold": THRESHOLD,
        "steps": steps(clf.estimators_[:, 0], RATE),
        "trained_on": sorted(ds.name for ds in sets),
        "rows": len(xs),
        "stumps": TREES,
    }


def steps(stumps: Iterable[Any], rate: float) -> dict[str, dict[str, list[float]]]:
    """Stumps (sklearn trees of depth 1: ``x <= t`` goes left) summed into one step function per feature:
    sorted thresholds, and the summed output when ``j`` of them lie below the value."""
    split: dict[int, list[tuple[float, float, float]]] = {}
    for est in stumps:
        t = est.tree_
        if t.node_count == 1:
            continue  # a stump that never split adds a constant (none do with min_samples_leaf)
        left, right = t.value[t.children_left[0]][0][0], t.value[t.children_right[0]][0][0]
        split.setdefault(int(t.feature[0]), []).append((float(t.threshold[0]), rate * left, rate * right))
    out = {}
    for f, parts in sorted(split.items()):
        thresholds = sorted({th for th, _, _ in parts})
        values = [
            sum(r if th < x else lv for th, lv, r in parts)
            for x in [-math.inf] + [math.nextafter(th, math.inf) for th in thresholds]
        ]
        out[FEATURES[f]] = {"thresholds": thresholds, "values": [round(v, 6) for v in values]}
    return out


def choose(ds: DatasetRows, model: Any) -> dict[str, dict[str, Any] | None]:
    """Each page's candidate under ``model`` (a ``BlockModel``): the highest log-odds above threshold."""
    out: dict[str, dict[str, Any] | None] = {}
    for page, rows in ds.by_page.items():
        best, odds = None, -math.inf
        for row in rows:
            o = model.log_odds(row["x"])
            if o > odds:
                odds = o
                if o > model.threshold:
                    best = row
        out[page] = best
    return out


def lodo(sets: Mapping[str, DatasetRows]) -> list[tuple[str, float, float, float]]:
    """For each dataset: its figure's change under a model trained without it and one trained on all."""
    from newscrawl.extract.blockchoice import BlockModel

    everything = BlockModel.from_json(fit(list(sets.values())))
    out = []
    for name, ds in sets.items():
        others = [d for n, d in sets.items() if n != name]
        without = BlockModel.from_json(fit(others))
        change_without = figure_change(ds, choose(ds, without))
        out.append((name, base_figure(ds), change_without, figure_change(ds, choose(ds, everything))))
    return out


def base_figure(ds: DatasetRows) -> float:
    """The dataset's figure with every page read from its root."""
    if ds.snippets:
        return _snippet_f1(ds.totals["tp"], ds.totals["fp"], ds.totals["fn"])
    return ds.totals["f1"] / ds.pages


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m newscrawl.evaluation.blocktrain", description="train auto's block choice"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="read the datasets' pages into candidate rows")
    c.add_argument("datasets", nargs="+")
    c.add_argument("--rows", required=True)
    c.add_argument("--jobs", type=int, default=1)
    t = sub.add_parser("train", help="train on the rows, check leave-one-dataset-out, write the model")
    t.add_argument("rows")
    t.add_argument("--lodo", action="store_true")
    t.add_argument("--model")
    args = parser.parse_args(argv)
    if args.command == "collect":
        with open(args.rows, "w", encoding="utf-8") as out:
            for row in collect(args.datasets, args.jobs):
                out.write(json.dumps(row) + "\n")
        return 0
    sets = load_rows(args.rows)
    if args.lodo:
        print("| dataset | root alone | trained without it | trained on all |")
        for name, base, without, everything in lodo(sets):
            print(f"| {name} | {base:.4f} | {base + without:.4f} | {base + everything:.4f} |")
    if args.model:
        Path(args.model).write_text(json.dumps(fit(list(sets.values()))) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
