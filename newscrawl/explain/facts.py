"""The facts behind one extraction, as plain data: ``explain(html, url=None, algorithm="auto", **params)``.

``explain`` prepares the page with the library's own preparation step (``prepare_page``: decode, size cap,
parse, limits, page metadata, noise stripping, ``prune_xpath``), runs the extraction on it (``run``, as
``extract`` does), then calls the algorithms' own functions on the same prepared page to recompute their
signals. ``consistent`` says whether the algorithm, run again, gave the text of the result.

The facts (a JSON-serialisable dict):

- ``extraction``: the ``Extraction`` fields (text, title, ..., reason, figures, sources);
- ``decisions``: page class and coarse length (seed 000's classifier), page kind, the algorithm asked for,
  the one that produced the text and why;
- ``metadata``: title, publish time and author, each with the rule of its fallback chain that found it;
- ``blocks``: the page's text blocks in order (``unit`` says which: DOM paragraphs for the node-based
  algorithms, source blocks for ``blockstats``, formatter lines for ``linedensity``), each marked
  ``kept`` / ``partial`` / ``dropped`` with the figures that decided it and a short ``why``;
  ``unplaced`` lists extracted paragraphs no block accounts for (normally none);
- ``candidates``: the nodes with the highest content score ``S`` (``auto``'s rule: it takes the highest),
  with their figures and whether each is the content node, the few a reader compares first;
- ``signals``: seed 003's block counts raw and smoothed with N'min, Ncal and the main range; seed 001's
  per-line text density with its threshold; seed 000's node density along the page with the
  ``top_coef`` / ``bottom_coef`` band, the leading node and the candidates SCEDD rejected.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from lxml import etree

from newscrawl.extract.algorithms import REGISTRY, blockstats, cetd, linedensity, scedd
from newscrawl.extract.algorithms import auto as auto_algo
from newscrawl.extract.api import PageError, make_params, prepare_page, run
from newscrawl.extract.boilerplate import trim_edges
from newscrawl.extract.classify import SHORT_THRESHOLD_BYTES
from newscrawl.extract.document import Element, collapse, node_path, paragraphs
from newscrawl.extract.finish import finish_paragraphs
from newscrawl.extract.limits import Limits
from newscrawl.extract.page import Page
from newscrawl.extract.result import BodyResult, Extraction
from newscrawl.extract.stats import NodeStats
from newscrawl.extract.tags import BLOCK_TAGS

KEPT, PARTIAL, DROPPED = "kept", "partial", "dropped"
#: candidate content nodes listed in ``candidates``
TOP_CANDIDATES = 5


def explain(
    html: bytes | str,
    url: str | None = None,
    algorithm: str = "auto",
    *,
    http_charset: str | None = None,
    prune_xpath: str | Sequence[str] | None = None,
    field_xpaths: Mapping[str, str] | None = None,
    limits: Limits | None = None,
    reference_time: datetime | None = None,
    timezone: str | None = None,
    **params: Any,
) -> dict[str, Any]:
    """The facts behind ``extract(html, url, algorithm=algorithm, **params)``, as a JSON-ready dict.

    The page goes through the library's own stages (:func:`~newscrawl.extract.api.prepare_page`, then
    :func:`~newscrawl.extract.api.run`) with the same options as ``extract``, so a page is explained
    exactly as it is extracted (a site's ``prune_xpath``, ``field_xpaths``, zone and limits included).
    """
    algo_params = make_params(algorithm, params)  # ValueError for an unknown algorithm or parameter
    algo = REGISTRY[algorithm]
    prepared = None
    try:
        prepared = prepare_page(
            html, url, http_charset=http_charset, prune_xpath=prune_xpath, field_xpaths=field_xpaths,
            limits=limits,
        )  # fmt: skip
    except PageError as e:
        result = Extraction(url=url, encoding=e.encoding, error=str(e))
    else:
        result = run(prepared, algorithm, algo_params, reference_time=reference_time, timezone=timezone)
    facts: dict[str, Any] = {
        "url": url,
        "algorithm": algorithm,
        "params": _jsonable(_params_dict(algo_params)),
        "extraction": _jsonable({k: v for k, v in result.to_dict().items() if k != "figures"}),
        "decisions": _decisions(result, algorithm, algo_params),
        "metadata": {
            name: {"value": getattr(result, name), "source": result.sources.get(name)}
            | ({"zone": result.sources.get(f"{name}_zone")} if name == "published_at" else {})
            for name in ("title", "published_at", "modified_at", "author")
        },
        "content_node": result.node_path,
        "unit": None,
        "blocks": [],
        "unplaced": [],
        "candidates": [],
        "signals": {},
        "consistent": None,
        "error": result.error,
    }
    if result.error or prepared is None:
        return facts
    page = prepared.page
    body = algo.run(page, algo_params)
    # the text is the algorithm's paragraphs finished (no headline copy first, no paragraph twice in a row,
    # no byline paragraph at the head)
    credited = (*result.authors, *filter(None, (result.editor, result.source)))
    finished = finish_paragraphs(body.paragraphs, result.title, credited)
    facts["consistent"] = "\n".join(finished) == result.text
    facts["decisions"]["page_kind_features"] = _page_kind_features(page)
    facts["signals"] = {
        "blockstats": blockstats_signals(page.html, _own(algorithm, "blockstats", algo_params)),
        "linedensity": linedensity_signals(page.html, _own(algorithm, "linedensity", algo_params)),
        "scedd": scedd_signals(page, _own(algorithm, "scedd", algo_params)),
    }
    figures = _node_figures(page, algorithm, algo_params)
    facts["unit"], facts["blocks"], facts["unplaced"] = _blocks(
        page, algorithm, algo_params, body, facts["signals"], figures
    )
    facts["candidates"] = candidates(page, figures, body.node)
    return facts


def _own(algorithm: str, name: str, params: Any) -> Any:
    """The caller's parameters when they belong to ``name``, else ``name``'s defaults."""
    return params if algorithm == name else REGISTRY[name].make_params()


def _params_dict(params: Any) -> dict[str, Any]:
    return {name: getattr(params, name) for name in getattr(params, "__dataclass_fields__", {})}


def _jsonable(value: Any) -> Any:
    """Plain JSON types all the way down (tuples to lists, unknown objects to strings)."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if hasattr(value, "items"):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return str(value)


def _decisions(result: Extraction, algorithm: str, params: Any) -> dict[str, Any]:
    return {
        "page_class": result.page_class,
        "coarse_length": result.coarse_length,
        "short_threshold": getattr(params, "short_threshold", SHORT_THRESHOLD_BYTES),
        "coarse_node": result.figures.get("coarse_node"),
        "page_kind": result.page_kind,
        "algorithm_requested": algorithm,
        "algorithm_chosen": result.algorithm,
        "reason": result.reason,
        "figures": _jsonable(result.figures),
    }


def _page_kind_features(page: Page) -> dict[str, Any] | None:
    try:
        from newscrawl.extract.pagekind import classify_page_kind
    except ImportError:  # pragma: no cover - the classifier is optional for the report
        return None
    kind, features = classify_page_kind(page)
    return _jsonable({"kind": kind, **features})


# --- the three seeds' signals ----------------------------------------------------------------------------


def blockstats_signals(source: str, params: blockstats.BlockStatsParams) -> dict[str, Any]:
    """Seed 003: block counts raw and smoothed, N'min, Ncal, the rule-1 runs and the main range."""
    prof = blockstats.block_profile(source, params)
    return {
        "blocknum": list(prof.blocknum),
        "sblocknum": list(prof.sblocknum),
        "n_min": prof.n_min,
        "n_avg": prof.n_avg,
        "n_min_prime": prof.n_min_prime,
        "n_cal": prof.n_cal,
        "runs": [list(r) for r in prof.runs],
        "main": list(prof.main) if prof.main else None,
        "main_blocks": list(prof.main_blocks),
        "top_k": params.top_k,
        "smooth_kernel": list(params.smooth_kernel),
    }


def linedensity_signals(source: str, params: linedensity.LineDensityParams) -> dict[str, Any]:
    """Seed 001: every formatter line's text density and the threshold that keeps a line."""
    lines = linedensity.render_lines(source)
    threshold = params.threshold
    if params.estimate_threshold:
        threshold = linedensity.estimate_threshold(lines, params.min_estimate, params.max_estimate)
    return {
        "density": [round(ln.density, 4) for ln in lines],
        "text_bytes": [ln.text_bytes for ln in lines],
        "total_bytes": [ln.total_bytes for ln in lines],
        "threshold": threshold,
        "estimated": params.estimate_threshold,
    }


def scedd_signals(page: Page, params: scedd.SCEDDParams) -> dict[str, Any]:
    """Seed 000: weighted text density of every node with text along the page (by line number), the
    ``top_coef`` / ``bottom_coef`` band, the leading node, the rejected candidates and the threshold."""
    stats = page.stats
    line_sum = stats.line_sum
    out: dict[str, Any] = {
        "line_sum": line_sum,
        "top_coef": params.top_coef,
        "bottom_coef": params.bottom_coef,
        "band": [line_sum * params.top_coef, line_sum * params.bottom_coef],
        "nodes": [],
        "title_node": None,
        "leader": None,
        "rejected": [],
        "threshold": None,
    }
    if len(stats) == 0 or stats.chars[0] == 0:
        return out
    dens = scedd.weighted_densities(stats, params.link_weight)
    out["nodes"] = [
        {"node": i, "line": stats.line[i], "density": round(dens[i], 3), "tag": stats.tag[i]}
        for i in range(len(stats))
        if stats.chars[i]
    ]
    title = scedd.find_title_node(page, stats)
    out["title_node"] = _node_fact(stats, dens, title) if title is not None else None
    lo = stats.subtree_end(title) if title is not None else 1
    leader, rejected = scedd.search_leader(stats, dens, lo, params)
    out["rejected"] = [{**_node_fact(stats, dens, int(r["node"])), "why": r["why"]} for r in rejected]  # type: ignore[call-overload]
    if leader is not None:
        out["leader"] = _node_fact(stats, dens, leader)
        out["threshold"] = round(cetd.threshold_on_path(stats, dens, leader), 4)
    return out


def _node_fact(stats: NodeStats, dens: Sequence[float], i: int) -> dict[str, Any]:
    return {
        "node": i,
        "path": node_path(stats.elements[i]),
        "line": stats.line[i],
        "density": round(dens[i], 3),
        "chars": stats.chars[i],
    }


# --- text blocks -----------------------------------------------------------------------------------------


def text_blocks(body: Element) -> list[tuple[str, Element]]:
    """The paragraphs of ``body`` (as ``document.paragraphs`` splits them), each with the innermost
    block-level element that holds its first text."""
    out: list[tuple[str, Element]] = []
    buf: list[str] = []
    owner: list[Element | None] = [None]
    stack: list[Element] = [body]

    def flush() -> None:
        if buf:
            line = collapse("".join(buf))
            if line and owner[0] is not None:
                out.append((line, owner[0]))
            buf.clear()
        owner[0] = None

    def add(text: str) -> None:
        if owner[0] is None and text.strip():
            owner[0] = stack[-1]
        buf.append(text)

    for event, el in etree.iterwalk(body, events=("start", "end")):
        tag = el.tag
        if not isinstance(tag, str):  # comments and processing instructions: only their tails count
            if event == "start" and el is not body and el.tail:
                add(el.tail)
            continue
        if event == "start":
            if tag in BLOCK_TAGS:
                flush()
                stack.append(el)
            if el.text:
                add(el.text)
        else:
            if tag in BLOCK_TAGS:
                flush()
                stack.pop()
            if el is not body and el.tail:
                add(el.tail)
    flush()
    return out


def mark_blocks(texts: Sequence[str], kept: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Mark each of ``texts`` kept, partial or dropped by aligning it with the extracted paragraphs
    ``kept``; return ``(mark, fragments)`` per text, the fragments being the extracted paragraphs it holds.

    Texts equal to an extracted paragraph (aligned in order) are kept. Between two aligned runs, an
    extracted paragraph whose characters appear in order in an unaligned text (white space aside) makes
    that text partial (the algorithm left out part of it, e.g. a link).
    Extracted paragraphs placed nowhere are left out of the marks (see ``unplaced``).
    """
    out: list[tuple[str, list[str]]] = [(DROPPED, []) for _ in texts]
    bare = ["".join(t.split()) for t in texts]  # a skipped element can change the spacing between pieces
    sm = difflib.SequenceMatcher(None, list(texts), list(kept), autojunk=False)
    prev_a = prev_b = 0
    for a, b, size in sm.get_matching_blocks():
        i = prev_a
        for k in kept[prev_b:b]:
            k_bare = "".join(k.split())
            j = next((j for j in range(i, a) if _holds(bare[j], k_bare)), None)
            if j is not None:
                out[j] = (PARTIAL, [*out[j][1], k])
                i = j
        for j in range(a, a + size):
            out[j] = (KEPT, [texts[j]])
        prev_a, prev_b = a + size, b + size
    return out


def _holds(text: str, fragment: str) -> bool:
    """Whether the characters of ``fragment`` appear in ``text`` in order."""
    if fragment in text:
        return True
    chars = iter(text)
    return all(c in chars for c in fragment)


def unplaced(marks: Sequence[tuple[str, list[str]]], kept: Sequence[str]) -> list[str]:
    """The extracted paragraphs that no block accounts for (in order)."""
    placed = [f for _, frags in marks for f in frags]
    rest: list[str] = []
    sm = difflib.SequenceMatcher(None, placed, list(kept), autojunk=False)
    for op, _a0, _a1, b0, b1 in sm.get_opcodes():
        if op in ("insert", "replace"):
            rest.extend(kept[b0:b1])
    return rest


#: per node: auto's content score S and CETD's composite text density CTD
NodeFigures = tuple[list[float], list[float]]


def _node_figures(page: Page, algorithm: str, params: Any) -> NodeFigures:
    stats = page.stats
    auto_params = _own(algorithm, "auto", params)
    scores = auto_algo.content_scores(
        stats, auto_params.decay, auto_params.link_penalty, auto_params.comment_max_share
    )
    return scores, cetd.densities(stats, True)


def candidates(page: Page, figures: NodeFigures, content: Element | None) -> list[dict[str, Any]]:
    """The :data:`TOP_CANDIDATES` nodes of highest content score, best first, with their figures."""
    stats = page.stats
    scores, ctd = figures
    best = sorted(range(len(stats)), key=lambda i: scores[i], reverse=True)[:TOP_CANDIDATES]
    return [
        {
            "path": node_path(stats.elements[i]),
            "chosen": stats.elements[i] is content,
            "chars": stats.chars[i],
            "density": round(stats.text_density(i), 3),
            "composite_density": round(ctd[i], 3),
            "content_score": round(scores[i], 2),
            "link_share": round(stats.link_density(i), 3),
        }
        for i in best
        if scores[i] > 0
    ]


def _blocks(
    page: Page, algorithm: str, params: Any, body: BodyResult, signals: dict[str, Any], figures: NodeFigures
) -> tuple[str, list[dict[str, Any]], list[str]]:
    """The unit, the blocks, and the extracted paragraphs no block accounts for."""
    if algorithm == "blockstats":
        return "source-block", _source_blocks(page.html, params, signals["blockstats"]), []
    if algorithm == "linedensity":
        return "line", _lines(page.html, signals["linedensity"]), []
    blocks, missing = _dom_blocks(page, algorithm, params, body, figures)
    return "dom-paragraph", blocks, missing


def _source_blocks(source: str, params: Any, sig: dict[str, Any]) -> list[dict[str, Any]]:
    texts, _levels, _counts, _title = blockstats.split_blocks(source, params.keep_empty_blocks)
    main = set(sig["main_blocks"])
    rng = sig["main"]
    out = []
    for i, text in enumerate(texts):
        s = sig["sblocknum"][i] if i < len(sig["sblocknum"]) else 0.0
        if i in main:
            why = "inside the main range"
        elif rng is None:
            why = "no block run reaches Ncal"
        elif s < sig["n_min_prime"]:
            why = f"outside the main range (smoothed {s:g} < N'min {sig['n_min_prime']:g})"
        else:
            why = "outside the main range"
        out.append(
            {
                "index": i,
                "text": text,
                "mark": KEPT if i in main else DROPPED,
                "chars": sig["blocknum"][i] if i < len(sig["blocknum"]) else 0,
                "smoothed": s,
                "why": why,
            }
        )
    return out


def _lines(source: str, sig: dict[str, Any]) -> list[dict[str, Any]]:
    lines = linedensity.render_lines(source)
    t = sig["threshold"]
    out = []
    for i, ln in enumerate(lines):
        keep = ln.density > t
        out.append(
            {
                "index": i,
                "text": ln.text,
                "mark": KEPT if keep else DROPPED,
                "density": round(ln.density, 4),
                "text_bytes": ln.text_bytes,
                "total_bytes": ln.total_bytes,
                "why": f"density {ln.density:.2f} {'>' if keep else '<='} threshold {t:.2f}",
            }
        )
    return out


def _dom_blocks(
    page: Page, algorithm: str, params: Any, body: BodyResult, figures: NodeFigures
) -> tuple[list[dict[str, Any]], list[str]]:
    stats = page.stats
    if len(stats) == 0:
        return [], list(body.paragraphs)
    pairs = text_blocks(page.body)
    marks = mark_blocks([t for t, _ in pairs], body.paragraphs)
    missing = unplaced(marks, body.paragraphs)
    scores, ctd = figures
    why = _why_dropped(page, algorithm, params, body)
    index = stats.index
    out = []
    for k, ((text, el), (mark, fragments)) in enumerate(zip(pairs, marks, strict=True)):
        i = index.get(el, 0)
        out.append(
            {
                "index": k,
                "text": text,
                "mark": mark,
                "kept_text": fragments if mark == PARTIAL else None,
                "path": node_path(el),
                "chars": stats.chars[i],
                "density": round(stats.text_density(i), 3),
                "composite_density": round(ctd[i], 3),
                "content_score": round(scores[i], 2),
                "link_share": round(stats.link_density(i), 3),
                "line": stats.line[i],
                "depth": stats.depth[i],
                "why": "" if mark == KEPT else why(i, text),
            }
        )
    return out, missing


def _ancestors(stats: NodeStats, i: int) -> list[int]:
    """``i`` and its ancestors up to the body, innermost first."""
    out = [i]
    while i > 0:
        i = stats.parent[i]
        out.append(i)
    return out


def _why_dropped(page: Page, algorithm: str, params: Any, body: BodyResult) -> Any:
    """A function ``(node index, text) -> reason`` for a block the algorithm left out (or cut)."""
    stats = page.stats
    root = stats.index.get(body.node) if body.node is not None else None

    def outside(i: int) -> bool:
        return root is None or not (root <= i < stats.subtree_end(root))

    if algorithm == "auto" and root is not None and body.node is not None:
        skip, _ = auto_algo.prune(stats, root, params)
        skipped = {stats.index[e] for e in skip}
        before = tuple(paragraphs(body.node, skip=skip))
        trimmed = set(before) - set(trim_edges(before))

        def why_auto(i: int, text: str) -> str:
            if outside(i):
                return "outside the content root"
            for a in _ancestors(stats, i):
                if a in skipped:
                    el = stats.elements[a]
                    share = stats.link_density(a)
                    if share > params.max_link_share:
                        return f"pruned link list at {node_path(el)} (link share {share:.2f})"
                    return f"pruned page chrome at {node_path(el)}"
            if text in trimmed:
                return "trimmed at the edge of the text (boilerplate line)"
            return "left out inside the content root"

        return why_auto
    if algorithm in ("cetd", "scedd") and root is not None:
        if algorithm == "cetd":
            dens = cetd.densities(stats, params.use_composite)
            label = "CTD" if params.use_composite else "TD"
        else:
            dens = scedd.weighted_densities(stats, params.link_weight)
            label = "weighted TD"
        t = cetd.threshold_on_path(stats, dens, root)

        def why_density(i: int, text: str) -> str:
            low = [a for a in _ancestors(stats, i) if dens[a] < t]
            if low:
                return f"{label} {dens[low[0]]:.1f} below the threshold {t:.1f}"
            if outside(i):
                return "outside the content node"
            return "left out"

        return why_density
    return lambda i, text: "outside the content node" if body.node is not None and outside(i) else "left out"
