"""Explain the pages an evaluation got wrong: one ``newscrawl explain`` report per page whose F1 is below
a threshold, and an ``index.html`` listing them, worst first.

The per-page F1 is the CJK token F1 on Chinese datasets (truth ``lang`` starting with ``zh``) and the
ScrapingHub shingle F1 of the page alone elsewhere; pages without a text truth have none and are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from newscrawl.evaluation import metrics as m
from newscrawl.evaluation.datasets import Dataset, Truth
from newscrawl.evaluation.runner import Run

#: default ``--explain-threshold``: pages below this F1 get a report
DEFAULT_THRESHOLD = 0.8

_UNSAFE = re.compile(r"[^\w.-]+")


def is_chinese(truth: Truth) -> bool:
    """Whether the page's truth is annotated as Chinese."""
    return (truth.lang or "").startswith("zh")


def page_f1(scores: Mapping[str, Any], chinese: bool) -> tuple[str, float] | None:
    """``(metric name, F1)`` of one page's scores, or None when the truth has no text.

    >>> page_f1({"sh_tp": 0.5, "sh_fp": 0.5, "sh_fn": 0.0, "sh_exact": False, "cjk_f1": 0.9}, False)
    ('sh_f1', 0.6666666666666666)
    """
    if "sh_tp" not in scores:
        return None
    if chinese:
        return "cjk_f1", float(scores["cjk_f1"])
    counts = m.ShingleCounts(scores["sh_tp"], scores["sh_fp"], scores["sh_fn"], scores["sh_exact"])
    return "sh_f1", m.aggregate_shingles([counts]).f1


def safe_name(text: str) -> str:
    """``text`` as a file-name part: word characters, dots and dashes."""
    return _UNSAFE.sub("_", text).strip("._")[:120] or "page"


def write_failure_reports(
    runs: Iterable[Run], datasets: Sequence[Dataset], out_dir: Path, threshold: float = DEFAULT_THRESHOLD
) -> list[Path]:
    """Write a report for every page of ``runs`` whose F1 is below ``threshold``; return their paths.
    Language-group runs (their pages are in the dataset's run) and other extractors' runs are skipped."""
    from newscrawl.explain import explain, render_html
    from newscrawl.extract import ALGORITHMS

    out_dir.mkdir(parents=True, exist_ok=True)
    by_name = {d.name: d for d in datasets}
    written: list[tuple[float, str, Path]] = []
    for run in runs:
        if run.part_of is not None or run.algorithm not in ALGORITHMS:
            continue
        ds = by_name[run.dataset]
        truths = {t.id: t for t in ds.truths()}
        for record in run.records:
            truth = truths[record["id"]]
            score = page_f1(record["scores"], is_chinese(truth))
            if score is None or score[1] >= threshold:
                continue
            metric, f1 = score
            facts = explain(ds.read_page(truth), url=truth.http_url, algorithm=run.algorithm)
            evaluation = {
                "dataset": run.dataset,
                "page id": truth.id,
                metric: round(f1, 4),
                "threshold": threshold,
                "truth URL": truth.url,
            }
            path = out_dir / f"{safe_name(run.dataset)}.{run.algorithm}.{safe_name(truth.id)}.html"
            path.write_text(render_html(facts, evaluation, truth.text), encoding="utf-8")
            written.append((f1, f"{run.dataset} / {run.algorithm} / {truth.id} ({metric})", path))
    written.sort(key=lambda w: w[0])
    (out_dir / "index.html").write_text(_index(written, threshold), encoding="utf-8")
    return [p for _, _, p in written]


def _index(written: Sequence[tuple[float, str, Path]], threshold: float) -> str:
    from newscrawl.explain.svg import esc

    rows = "".join(
        f'<tr><td>{f1:.3f}</td><td><a href="{esc(path.name)}">{esc(label)}</a></td></tr>'
        for f1, label, path in written
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"/><title>Pages below F1 '
        f"{threshold:g}</title></head><body><h1>{len(written)} pages below F1 {threshold:g}</h1>"
        f"<table><tr><th>F1</th><th>page</th></tr>{rows}</table></body></html>\n"
    )
