"""Run extraction over evaluation datasets and score every page against its truth.

``evaluate`` yields one ``Run`` per (dataset, algorithm): a plain-dict record per page (what the ``--out``
JSONL holds) and the dataset figures, which ``summarize`` recomputes from those records alone. Every metric
the truth supports is scored: body-text metrics where the truth has text, snippet metrics where it has
``with``/``without``, title, author, editor, source, date and time where annotated, and the counters token F1
misses: broken paragraphs, empty texts on article pages, invented time-zone offsets, pages taken for error
pages. One process, pages in
file order: deterministic. A dataset whose text pages span several language groups (``LANG_GROUPS``) is
also reported per group, as ``<dataset>/<group>``.
"""

from __future__ import annotations

import statistics
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from newscrawl.evaluation import metrics as m
from newscrawl.evaluation.audit import CLASSES as AUDIT_CLASSES
from newscrawl.evaluation.audit import audit_record
from newscrawl.evaluation.datasets import Dataset, Truth
from newscrawl.evaluation.zones import ZoneSignals, invented_offset, value_offset, zone_signals

#: the fetch time the record audit holds publish times against: the evaluation's pages were fetched
#: before it runs, and ``extract`` resolves relative times against the clock, as a crawl does
_FETCHED_AT = datetime.now(UTC)

#: a page record: JSON-serialisable values only
Record = dict[str, Any]
Extractor = Callable[..., Any]


def score_page(
    truth: Truth,
    text: str,
    title: str | None,
    published_at: str | None,
    author: str | Sequence[str] | None = None,
    *,
    editor: str | None = None,
    source: str | None = None,
    page_kind: str | None = None,
    signals: ZoneSignals | None = None,
) -> dict[str, float | bool | int]:
    """Every per-page score the truth supports, by name (the names ``summarize`` reads).

    ``author`` may be a list of names; ``page_kind`` (the extractor's) decides whether a page without text
    or snippet truth is an article page; ``signals`` (the page's zone signals) enable the invented-offset
    check.
    The author figure scores the person the page credits: the writer, else the editor. That is what the
    truths hold: chinese-wce's annotators wrote the editor (责任编辑) where no writer is named, and fundus's
    People parser gives the 责编 as authors. ``writer_ok`` scores the writer alone.
    """
    scores: dict[str, float | bool | int] = {}
    if truth.text is not None and truth.text.strip():
        sh = m.shingle_counts(text, truth.text)
        scores.update(sh_tp=sh.tp, sh_fp=sh.fp, sh_fn=sh.fn, sh_exact=sh.exact)
        cjk = m.cjk_token_prf(text, truth.text)
        scores.update(cjk_precision=cjk.precision, cjk_recall=cjk.recall, cjk_f1=cjk.f1)
        lcs, cov = m.lcs_scores(text, truth.text)
        scores.update(lcs_error=lcs.error, lcs_correct=lcs.correct)
        scores.update(covered=cov.covered, noise=cov.noise, qualified=cov.qualified, excellent=cov.excellent)
        scores["broken"] = m.broken_paragraphs(text, truth.text)
    if truth.with_ is not None and truth.without is not None:
        sn = m.snippet_counts(text, truth.with_, truth.without)
        scores.update(snippet_tp=sn.tp, snippet_fp=sn.fp, snippet_fn=sn.fn, snippet_tn=sn.tn)
    if is_article(truth, page_kind):
        scores["empty_article"] = not text.strip()
    if truth.title:
        scores["title_ok"] = m.title_match(title, truth.title)
        scores["title_case_ok"] = m.title_match_case_aside(title, truth.title)
    if truth.author or truth.authors:
        names = truth.authors or truth.author or ""
        credited = author or editor
        scores["author_ok"] = m.author_match(credited, names)
        scores["author_found"] = bool(credited)
        scores["writer_ok"] = m.author_match(author, names)
    for name, truth_value, value in (("editor", truth.editor, editor), ("source", truth.news_source, source)):
        if truth_value:
            scores[f"{name}_ok"] = m.author_match(value, truth_value)
            scores[f"{name}_found"] = bool(value)
    if truth.has_date:
        scores["date_ok"] = m.date_match(published_at, truth.date)
        scores["date_found"] = published_at is not None
    if m.has_time(truth.date):
        scores["time_ok"] = m.time_match(published_at, truth.date or "")
        scores["time_found"] = m.gives_time(published_at)
    if signals is not None and value_offset(published_at) is not None:
        scores["zone_invented"] = invented_offset(published_at, signals)
    return scores


def is_article(truth: Truth, page_kind: str | None) -> bool:
    """An article page: the truth has body text or text that must appear; without such truth, the
    extractor's own page kind decides (``evaluate_page`` passes none for a page whose body has no text)."""
    if truth.text is not None or truth.with_ is not None:
        return bool((truth.text or "").strip() or truth.with_)
    return page_kind == "article"


def _blank(result: Any) -> bool:
    """Whether the page's body has no text at all (a bot-check page, an empty JavaScript app shell): the
    page-kind classifier calls such a page ``empty``: there is no article on it to miss."""
    kind = (getattr(result, "figures", None) or {}).get("page_kind")
    return isinstance(kind, Mapping) and kind.get("reason") == "no text"


def _names_of(result: Any) -> str | Sequence[str] | None:
    """The author names of a result: its ``authors`` list when it has one, else ``author``."""
    names = getattr(result, "authors", None)
    if isinstance(names, list | tuple) and names:
        return tuple(str(n) for n in names)
    return getattr(result, "author", None)


def evaluate_page(
    truth: Truth,
    page: bytes,
    algorithm: str,
    extract: Extractor,
    dataset: str,
    signals: ZoneSignals | None = None,
) -> Record:
    """Extract one page with ``algorithm``, time it, score it. An exception is caught and recorded (the
    page then scores as an empty extraction). ``signals``: the page's zone signals (computed when None)."""
    record: Record = {"id": truth.id, "dataset": dataset, "algorithm": algorithm, "lang": truth.lang}
    start = time.perf_counter()
    result: Any = None
    try:
        result = extract(page, url=truth.http_url, algorithm=algorithm)
    except Exception as e:  # extract() must never raise: count it, keep going
        record["ms"] = (time.perf_counter() - start) * 1000
        record["exception"] = f"{type(e).__name__}: {e}"
        record["traceback"] = traceback.format_exc(limit=-3)
        text, title, published, author, error = "", None, None, None, None
        editor = None
        record.update(chosen=None, page_class=None, reason=None, node_path=None)
    else:
        record["ms"] = (time.perf_counter() - start) * 1000
        record["exception"] = None
        text, title, published = result.text, result.title, result.published_at
        author, error = _names_of(result), result.error
        record.update(chosen=result.algorithm, page_class=result.page_class)
        record.update(reason=getattr(result, "reason", None), node_path=getattr(result, "node_path", None))
    editor, source = getattr(result, "editor", None), getattr(result, "source", None)
    kind = getattr(result, "page_kind", None)
    record.update(error=error, title=title, published_at=published, chars=len(text))
    record.update(author=author if author is None or isinstance(author, str) else list(author))
    record.update(editor=editor, source=source, page_kind=kind)
    if signals is None:
        signals = zone_signals(page, truth.http_url)
    record["scores"] = score_page(
        truth, text, title, published, author, editor=editor, source=source,
        page_kind=None if _blank(result) else kind, signals=signals,
    )
    record["defects"] = (
        []
        if error or record.get("exception")
        else audit_record(
            title=title, author=author, published_at=published, text=text, fetched_at=_FETCHED_AT,
            url=truth.http_url, site_name=getattr(result, "site_name", None),
        )
    )
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
        out["title_case_accuracy"] = _mean(titled, "title_case_ok")
    authored = [r for r in records if "author_ok" in r["scores"]]
    if authored:
        out.update(author_pages=len(authored), author_accuracy=_mean(authored, "author_ok"))
        found = [r for r in authored if r["scores"]["author_found"]]
        out["author_precision"] = _mean(found, "author_ok") if found else 0.0
        out["writer_accuracy"] = _mean(authored, "writer_ok")
    for name in ("editor", "source"):
        given = [r for r in records if f"{name}_ok" in r["scores"]]
        if given:
            out[f"{name}_pages"] = len(given)
            out[f"{name}_accuracy"] = _mean(given, f"{name}_ok")
    dated = [r for r in records if "date_ok" in r["scores"]]
    if dated:
        out.update(date_pages=len(dated), date_accuracy=_mean(dated, "date_ok"))
        found = [r for r in dated if r["scores"]["date_found"]]
        out["date_precision"] = _mean(found, "date_ok") if found else 0.0
    timed = [r for r in records if "time_ok" in r["scores"]]
    if timed:
        out.update(time_pages=len(timed), time_accuracy=_mean(timed, "time_ok"))
        found = [r for r in timed if r["scores"]["time_found"]]
        out["time_precision"] = _mean(found, "time_ok") if found else 0.0
    out.update(_counters(records))
    return out


def _counters(records: Sequence[Record]) -> dict[str, int]:
    """The counts token F1 misses (each a ceiling for the gate: ``max_<name>``)."""
    def count(key: str) -> int:
        return sum(1 for r in records if r["scores"].get(key))

    out = {"empty_articles": count("empty_article"), "invented_offsets": count("zone_invented")}
    # pages the extractor calls error pages (not found, removed, login wall, bot check): on datasets of
    # articles each is a real article the crawl would drop
    out["error_pages"] = sum(1 for r in records if r.get("page_kind") == "error")
    for name in AUDIT_CLASSES:  # what a reader would reject (audit.py), pages by class
        out[f"audit_{name}"] = sum(1 for r in records if name in (r.get("defects") or ()))
    broken = [int(r["scores"]["broken"]) for r in records if "broken" in r["scores"]]
    if broken:
        out.update(broken_pages=sum(1 for b in broken if b), broken_paragraphs=sum(broken))
    return out



@dataclass
class Run:
    """The records and figures of one algorithm on one dataset (or on one language group of it: then
    ``part_of`` names the dataset and ``dataset`` is ``<dataset>/<group>``)."""

    dataset: str
    algorithm: str
    records: list[Record] = field(default_factory=list)
    summary: dict[str, float | int] = field(default_factory=dict)
    part_of: str | None = None


#: language groups a multilingual dataset is also reported by (a page's ``lang``; anything else: "other")
LANG_GROUPS: tuple[tuple[str, frozenset[str]], ...] = (
    ("en", frozenset({"en"})),
    ("ja+ko+zh", frozenset({"ja", "ko", "zh"})),
)
OTHER_GROUP = "other"


def lang_group(lang: str | None) -> str:
    """The report group of a language code.

    >>> lang_group("en"), lang_group("ko"), lang_group("de"), lang_group(None)
    ('en', 'ja+ko+zh', 'other', 'other')
    """
    base = (lang or "").lower().split("-")[0]
    return next((name for name, langs in LANG_GROUPS if base in langs), OTHER_GROUP)


def group_runs(run: Run) -> list[Run]:
    """``run`` split by language group, when its text pages span more than one group (else nothing)."""
    text = [r for r in run.records if "sh_tp" in r["scores"]]
    if not text or any(r.get("lang") is None for r in text):
        return []
    groups: dict[str, list[Record]] = {}
    for rec in run.records:
        groups.setdefault(lang_group(rec.get("lang")), []).append(rec)
    if len({lang_group(r.get("lang")) for r in text}) < 2:
        return []
    order = [name for name, _ in LANG_GROUPS] + [OTHER_GROUP]
    return [
        Run(f"{run.dataset}/{g}", run.algorithm, groups[g], summarize(groups[g]), part_of=run.dataset)
        for g in order
        if g in groups
    ]


def _page_records(
    truth: Truth, page: bytes, dataset: str, runners: Mapping[str, Extractor]
) -> list[Record]:
    """One record per runner for one page (the page's zone signals computed once)."""
    signals = zone_signals(page, truth.http_url)
    return [evaluate_page(truth, page, name, fn, dataset, signals) for name, fn in runners.items()]


#: what forked workers read, set in the parent before its pool starts (fork shares it: nothing is pickled
#: but the page index going in and the records coming out)
_SHARED: dict[str, Any] = {}


def _worker_records(index: int) -> list[Record]:
    truth, path = _SHARED["pages"][index]
    with open(path, "rb") as f:
        page = f.read()
    return _page_records(truth, page, _SHARED["dataset"], _SHARED["runners"])


def _dataset_records(
    ds: Dataset, runners: Mapping[str, Extractor], limit: int | None, jobs: int
) -> Iterator[list[Record]]:
    """Each page's records, in file order; with ``jobs`` > 1 pages are extracted in forked processes."""
    if jobs <= 1:
        for i, (truth, page) in enumerate(ds):
            if limit is not None and i >= limit:
                return
            yield _page_records(truth, page, ds.name, runners)
        return
    import multiprocessing

    truths = list(ds.truths())[:limit]
    _SHARED.update(pages=[(t, ds.page_path(t)) for t in truths], dataset=ds.name, runners=runners)
    try:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            yield from pool.imap(_worker_records, range(len(truths)))
    finally:
        _SHARED.clear()


def evaluate(
    datasets: Iterable[Dataset],
    algorithms: Sequence[str],
    *,
    extract: Extractor | None = None,
    others: Mapping[str, Extractor] | None = None,
    limit: int | None = None,
    on_page: Callable[[Record], None] | None = None,
    jobs: int = 1,
) -> Iterator[Run]:
    """Evaluate every algorithm on every dataset; pages are read once and extracted by each algorithm in
    turn. ``others`` are more extractors by name (peers, see ``peers.py``; parameter variants, see
    ``lodo.py``), run on the same pages after the algorithms. ``on_page`` is called after each extraction
    (progress). ``limit`` keeps the first N pages. ``jobs`` > 1 extracts pages in that many forked
    processes (records and figures are the same; times are then taken under parallel load). Each dataset's
    runs come first, then its language groups' (``group_runs``)."""
    if extract is None:
        from newscrawl.extract import extract as extract_fn

        extract = extract_fn
    runners: dict[str, Extractor] = {a: extract for a in algorithms}
    runners.update(others or {})
    for ds in datasets:
        runs = {name: Run(ds.name, name) for name in runners}
        for records in _dataset_records(ds, runners, limit, jobs):
            for record in records:
                runs[record["algorithm"]].records.append(record)
                if on_page is not None:
                    on_page(record)
        for run in runs.values():
            run.summary = summarize(run.records)
            yield run
        order = [f"{ds.name}/{name}" for name, _ in LANG_GROUPS] + [f"{ds.name}/{OTHER_GROUP}"]
        grouped = [g for run in runs.values() for g in group_runs(run)]
        yield from sorted(grouped, key=lambda g: order.index(g.dataset))  # stable: runners keep their order


def public_record(record: Mapping[str, Any], with_text: bool = False) -> Record:
    """The record as written to JSONL: the extracted text only when asked for."""
    out = {k: v for k, v in record.items() if k != "_text"}
    if with_text:
        out["text"] = record.get("_text", "")
    return out
