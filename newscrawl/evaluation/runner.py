"""Run extraction over evaluation datasets and score every page against its truth.

``evaluate`` yields one ``Run`` per (dataset, algorithm): a plain-dict record per page (what the ``--out``
JSONL holds) and the dataset figures, which ``summarize`` recomputes from those records alone. Every metric
the truth supports is scored: body-text metrics where the truth has text, snippet metrics where it has
``with``/``without``, title, author and date where annotated. One process, pages in file order: deterministic.
"""

from __future__ import annotations

import statistics
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from newscrawl.evaluation import metrics as m
from newscrawl.evaluation.datasets import Dataset, Truth

#: a page record: JSON-serialisable values only
Record = dict[str, Any]
Extractor = Callable[..., Any]


def score_page(
    truth: Truth, text: str, title: str | None, published_at: str | None, author: str | None = None
) -> dict[str, float | bool | int]:
    """Every per-page score the truth supports, by name (the names ``summarize`` reads)."""
    scores: dict[str, float | bool | int] = {}
    if truth.text is not None and truth.text.strip():
        sh = m.shingle_counts(text, truth.text)
        scores.update(sh_tp=sh.tp, sh_fp=sh.fp, sh_fn=sh.fn, sh_exact=sh.exact)
        cjk = m.cjk_token_prf(text, truth.text)
        scores.update(cjk_precision=cjk.precision, cjk_recall=cjk.recall, cjk_f1=cjk.f1)
        lcs, cov = m.lcs_scores(text, truth.text)
        scores.update(lcs_error=lcs.error, lcs_correct=lcs.correct)
        scores.update(covered=cov.covered, noise=cov.noise, qualified=cov.qualified, excellent=cov.excellent)
    if truth.with_ is not None and truth.without is not None:
        sn = m.snippet_counts(text, truth.with_, truth.without)
        scores.update(snippet_tp=sn.tp, snippet_fp=sn.fp, snippet_fn=sn.fn, snippet_tn=sn.tn)
    if truth.title:
        scores["title_ok"] = m.title_match(title, truth.title)
    if truth.author:
        scores["author_ok"] = m.author_match(author, truth.author)
        scores["author_found"] = author is not None
    if truth.has_date:
        scores["date_ok"] = m.date_match(published_at, truth.date)
        scores["date_found"] = published_at is not None
    return scores


def evaluate_page(truth: Truth, page: bytes, algorithm: str, extract: Extractor, dataset: str) -> Record:
    """Extract one page with ``algorithm``, time it, score it. An exception is caught and recorded (the
    page then scores as an empty extraction)."""
    record: Record = {"id": truth.id, "dataset": dataset, "algorithm": algorithm}
    start = time.perf_counter()
    try:
        result = extract(page, url=truth.http_url, algorithm=algorithm)
    except Exception as e:  # extract() must never raise: count it, keep going
        record["ms"] = (time.perf_counter() - start) * 1000
        record["exception"] = f"{type(e).__name__}: {e}"
        record["traceback"] = traceback.format_exc(limit=-3)
        text, title, published, author, error = "", None, None, None, None
        record.update(chosen=None, page_class=None, reason=None, node_path=None)
    else:
        record["ms"] = (time.perf_counter() - start) * 1000
        record["exception"] = None
        text, title, published = result.text, result.title, result.published_at
        author, error = result.author, result.error
        record.update(chosen=result.algorithm, page_class=result.page_class)
        record.update(reason=getattr(result, "reason", None), node_path=getattr(result, "node_path", None))
    record.update(error=error, title=title, published_at=published, author=author, chars=len(text))
    record["scores"] = score_page(truth, text, title, published, author)
    record["_text"] = text  # dropped before writing unless texts are kept
    return record


def _mean(records: Sequence[Record], key: str) -> float:
    return statistics.fmean(float(r["scores"][key]) for r in records)


def summarize(records: Sequence[Record]) -> dict[str, float | int]:
    """Dataset figures from page records: counts, median time, and each metric with its page count."""
    out: dict[str, float | int] = {
        "pages": len(records),
        "errors": sum(1 for r in records if r.get("error")),
        "exceptions": sum(1 for r in records if r.get("exception")),
        "empty": sum(1 for r in records if not r.get("chars")),
    }
    if records:
        out["ms_median"] = statistics.median(r["ms"] for r in records)
    text = [r for r in records if "sh_tp" in r["scores"]]
    if text:
        sh = m.aggregate_shingles(
            [
                m.ShingleCounts(s["sh_tp"], s["sh_fp"], s["sh_fn"], s["sh_exact"])
                for s in (r["scores"] for r in text)
            ]
        )
        out.update(text_pages=len(text), sh_precision=sh.precision, sh_recall=sh.recall, sh_f1=sh.f1)
        out["sh_accuracy"] = sh.accuracy
        for key in ("cjk_precision", "cjk_recall", "cjk_f1", "lcs_correct", "qualified", "excellent"):
            out[key] = _mean(text, key)
    snip = [r for r in records if "snippet_tp" in r["scores"]]
    if snip:
        agg = m.aggregate_snippets(
            m.SnippetCounts(s["snippet_tp"], s["snippet_fp"], s["snippet_fn"], s["snippet_tn"])
            for s in (r["scores"] for r in snip)
        )
        out.update(snippet_pages=len(snip), snippet_precision=agg.precision, snippet_recall=agg.recall)
        out.update(snippet_f1=agg.f1, snippet_accuracy=agg.accuracy)
    titled = [r for r in records if "title_ok" in r["scores"]]
    if titled:
        out.update(title_pages=len(titled), title_accuracy=_mean(titled, "title_ok"))
    authored = [r for r in records if "author_ok" in r["scores"]]
    if authored:
        out.update(author_pages=len(authored), author_accuracy=_mean(authored, "author_ok"))
        found = [r for r in authored if r["scores"]["author_found"]]
        out["author_precision"] = _mean(found, "author_ok") if found else 0.0
    dated = [r for r in records if "date_ok" in r["scores"]]
    if dated:
        out.update(date_pages=len(dated), date_accuracy=_mean(dated, "date_ok"))
        found = [r for r in dated if r["scores"]["date_found"]]
        out["date_precision"] = _mean(found, "date_ok") if found else 0.0
    return out


@dataclass
class Run:
    """The records and figures of one algorithm on one dataset."""

    dataset: str
    algorithm: str
    records: list[Record] = field(default_factory=list)
    summary: dict[str, float | int] = field(default_factory=dict)


def evaluate(
    datasets: Iterable[Dataset],
    algorithms: Sequence[str],
    *,
    extract: Extractor | None = None,
    limit: int | None = None,
    on_page: Callable[[Record], None] | None = None,
) -> Iterator[Run]:
    """Evaluate every algorithm on every dataset; pages are read once and extracted by each algorithm in
    turn. ``on_page`` is called after each extraction (progress). ``limit`` keeps the first N pages."""
    if extract is None:
        from newscrawl.extract import extract as extract_fn

        extract = extract_fn
    for ds in datasets:
        runs = {a: Run(ds.name, a) for a in algorithms}
        for i, (truth, page) in enumerate(ds):
            if limit is not None and i >= limit:
                break
            for algo in algorithms:
                record = evaluate_page(truth, page, algo, extract, ds.name)
                runs[algo].records.append(record)
                if on_page is not None:
                    on_page(record)
        for run in runs.values():
            run.summary = summarize(run.records)
            yield run


def public_record(record: Mapping[str, Any], with_text: bool = False) -> Record:
    """The record as written to JSONL: the extracted text only when asked for."""
    out = {k: v for k, v in record.items() if k != "_text"}
    if with_text:
        out["text"] = record.get("_text", "")
    return out
