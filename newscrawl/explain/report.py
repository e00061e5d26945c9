"""The explain facts as one self-contained HTML page: inline CSS, inline SVG charts, no scripts, no fonts
or images from the network. Every piece of page text is escaped (pages are hostile input).

``render_html(facts)`` takes the dict of :func:`newscrawl.explain.explain`; ``evaluation`` (optional) is a
small dict shown at the top and ``truth`` the annotated text (``newscrawl eval --explain-failures``).
The output is well-formed XML apart from the doctype, which the tests check.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from newscrawl.explain.svg import Band, HLine, Marker, Series, chart, esc

#: longest block text shown in the table (the JSON facts keep it whole)
MAX_BLOCK_CHARS = 400

GREY, BLUE, GREEN, ORANGE, RED, PURPLE = "#9aa0a6", "#1f6fb2", "#2e9d4a", "#e08a00", "#c62828", "#7b3fa0"

CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC","Microsoft YaHei",sans-serif;
margin:24px;color:#222;background:#fafafa}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd}
.sub{color:#666}.warn{background:#fff3cd;border:1px solid #e0c060;padding:6px 10px}
table{border-collapse:collapse;background:#fff;max-width:100%}td code{word-break:break-all}
td,th{border:1px solid #ddd;padding:3px 6px;vertical-align:top}
th{background:#f0f0f0;text-align:left}table.kv th{width:190px}
tr.kept td{background:#e6f4ea}tr.partial td{background:#fff4d6}tr.dropped td{color:#777}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.mark{font-weight:bold;white-space:nowrap}tr.kept td.mark{color:#2e7d32}tr.partial td.mark{color:#a66b00}
.chart{max-width:100%;height:auto;display:block;margin:6px 0 2px;border:1px solid #ddd}
.chart .title{font:bold 13px sans-serif}.chart .tick,.chart .legend,.chart .axis{font:11px sans-serif}
.chart .label{font:bold 11px sans-serif}.caption{color:#555;margin:0 0 12px;max-width:1000px}
pre{background:#fff;border:1px solid #ddd;padding:8px;white-space:pre-wrap;word-break:break-all}
code{font-size:12px}nav{margin:8px 0 0}nav a{margin-right:12px}
.summary{background:#fff;border:1px solid #ddd;padding:4px 14px 4px 30px;max-width:1000px}
.summary li{margin:3px 0}tr.chosen td{background:#e6f4ea;font-weight:bold}
dl.legend{max-width:1000px;display:grid;grid-template-columns:max-content 1fr;gap:3px 14px;margin:0}
dl.legend dt{font-weight:bold;white-space:nowrap}dl.legend dd{margin:0}
"""

#: the report's sections after the title, in order: (anchor, heading in the table of contents)
SECTIONS = (
    ("summary", "Summary"),
    ("legend", "How to read it"),
    ("decisions", "Decisions"),
    ("metadata", "Metadata"),
    ("signals", "Charts"),
    ("blocks", "Text blocks"),
    ("text", "Extracted text"),
    ("figures", "All figures"),
)

#: every column and chart label of the report in plain words: (term, meaning)
LEGEND: tuple[tuple[str, str], ...] = (
    ("kept, partial, dropped", "whether a block of the page's text is in the extracted text: whole (green "
     "row), in part (yellow: some words left out, such as a link) or not at all (grey)"),
    ("chars", "characters of text in the node, its descendants included"),
    ("TD", "text density: characters per tag in the node (chars / tags). Running text has many characters "
     "per tag; menus and link lists have few"),
    ("CTD", "composite text density (CETD, Sun et al. 2011): TD raised where little of the node's text is in "
     "links and lowered where much is. CETD keeps the nodes whose CTD reaches the lowest CTD on the path "
     "from its content node up to <body>"),
    ("score", "content score S (auto): the node's own text (negative inside links and comment or footer "
     "blocks) plus a share (decay, 0.75 by default) of its children's scores. auto's content node is the "
     "node of highest S"),
    ("links", "link share: the part of the node's characters that are inside links, from 0 to 1"),
    ("line, depth", "the node's line in the page's HTML source, and how many levels it sits under <body>"),
    ("content node", "the element the text was taken from, as a path /html/body/... with #id and .class"),
    ("page class", "short or long page by the bytes of main text, 450 bytes being the line (seed 000's "
     "design card, which measured it on the densest single block, the coarse node)"),
    ("seed 000, 001, 003", "the papers the algorithms come from: SCEDD and the design card (000), text "
     "density per line (001), characters per block (003); each chart shows one of them"),
    ("smoothed", "seed 003 (blockstats): a block's characters averaged with its neighbours' (1/4, 1/2, 1/4)"),
    ("density, text B, total B", "seed 001 (linedensity): a line's text bytes, all its bytes (tags included) "
     "and their ratio, the line's text density"),
    ("N'min, Ncal", "seed 003's two thresholds on the smoothed characters per block: a run of main text is "
     "made of blocks of at least N'min, one of which reaches Ncal"),
    ("threshold", "seed 001: the text density a line needs to be kept; seed 000: the lowest density on the "
     "path from the leading node up to <body>"),
    ("leader A, rejected", "seed 000's search: the densest node inside the band of lines where articles sit "
     "leads; candidates it rejected on the way are crossed, with the reason"),
)


def render_html(
    facts: Mapping[str, Any], evaluation: Mapping[str, Any] | None = None, truth: str | None = None
) -> str:
    """The whole report as an HTML string; ``truth``, when given, is shown beside the extracted text."""
    ext = facts.get("extraction") or {}
    heading = ext.get("title") or facts.get("url") or "page"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8"/>',
        '<meta name="viewport" content="width=device-width, initial-scale=1"/>',
        f"<title>newscrawl explain: {esc(heading)}</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>Why this extraction: {esc(heading)}</h1>",
        f'<p class="sub">URL: <code>{esc(facts.get("url") or "(none given)")}</code> · algorithm '
        f'<code>{esc(facts.get("algorithm"))}</code> · produced by <code>{esc(ext.get("algorithm"))}</code>'
        f' · content node <code>{esc(facts.get("content_node") or "(none)")}</code></p>',
    ]
    if facts.get("error"):
        parts.append(f'<p class="warn">Error: {esc(facts["error"])}</p>')
    if facts.get("consistent") is False:
        parts.append(
            '<p class="warn">The re-run for this report gave a different text than the extraction: the '
            "marks below may not match it.</p>"
        )
    parts.append(_nav(truth is not None))
    parts.append(_summary(facts))
    if evaluation:
        parts.append(_h2("evaluation", "Evaluation"))
        parts.append(_kv_table(evaluation))
    parts.append(_legend())
    parts.append(_decisions(facts))
    parts.append(_metadata(facts))
    parts.append(_charts(facts))
    parts.append(_blocks(facts))
    parts.append(_h2("text", "Extracted text"))
    parts.append(f"<pre>{esc(ext.get('text') or '')}</pre>")
    if truth is not None:
        parts.append(_h2("truth", "Truth text"))
        parts.append(f"<pre>{esc(truth)}</pre>")
    parts.append(_h2("figures", "All figures"))
    figures = (facts.get("decisions") or {}).get("figures") or {}
    parts.append(f"<pre>{esc(json.dumps(figures, ensure_ascii=False, indent=2, default=str))}</pre>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _h2(anchor: str, heading: str) -> str:
    return f'<h2 id="{anchor}">{esc(heading)}</h2>'


def _nav(with_truth: bool) -> str:
    sections = [*SECTIONS[:-1], ("truth", "Truth text"), SECTIONS[-1]] if with_truth else list(SECTIONS)
    return "<nav>" + "".join(f'<a href="#{a}">{esc(h)}</a>' for a, h in sections) + "</nav>"


def _summary(facts: Mapping[str, Any]) -> str:
    """What was chosen and why, in a few lines, then the top candidate nodes."""
    d = facts.get("decisions") or {}
    ext = facts.get("extraction") or {}
    text = ext.get("text") or ""
    blocks = facts.get("blocks") or []
    counts = {m: sum(1 for b in blocks if b["mark"] == m) for m in ("kept", "partial", "dropped")}
    chosen = d.get("algorithm_chosen") or ext.get("algorithm")
    asked = d.get("algorithm_requested")
    items = [
        f"<b>Text</b>: {len(text):,} characters in {text.count(chr(10)) + 1 if text else 0} paragraphs, "
        f"taken by <code>{esc(chosen)}</code>"
        + (f" (asked: <code>{esc(asked)}</code>)" if asked and asked != chosen else "")
        + f" from the content node <code>{esc(facts.get('content_node') or '(none)')}</code>.",
        f"<b>Why</b>: {esc(d.get('reason') or ext.get('error') or 'no reason recorded')}",
        f"<b>Page</b>: {esc(d.get('page_kind') or '?')}, {esc(d.get('page_class') or '?')} page. "
        f"<b>Blocks</b>: {counts['kept']} kept, {counts['partial']} partial, {counts['dropped']} dropped "
        '(<a href="#blocks">table</a>).',
    ]
    found = [
        f"{esc(name.replace('_', ' '))} <code>{_value(f.get('value'))}</code>"
        for name, f in (facts.get("metadata") or {}).items()
        if f.get("value")
    ]
    if found:
        items.append("<b>Found</b>: " + "; ".join(found) + ' (<a href="#metadata">where</a>).')
    listed = "".join(f"<li>{i}</li>" for i in items)
    table = _candidates(facts.get("candidates") or [])
    return _h2("summary", "Summary") + f'<ul class="summary">{listed}</ul>' + table


def _candidates(rows: Sequence[Mapping[str, Any]]) -> str:
    if not rows:
        return ""
    head = "".join(f"<th>{esc(h)}</th>" for _, h in CANDIDATE_COLUMNS)
    body = "".join(
        f'<tr class="{"chosen" if r["chosen"] else ""}"><td class="num">{k}</td>'
        f'<td><code>{esc(r["path"])}</code>{" ← content node" if r["chosen"] else ""}</td>'
        + "".join(f'<td class="num">{_value(r.get(key))}</td>' for key, _ in CANDIDATE_COLUMNS)
        + "</tr>"
        for k, r in enumerate(rows, 1)
    )
    return (
        '<p class="caption">The candidate content nodes of highest content score (auto takes the highest; '
        "the other algorithms choose by their own rule, shown under Decisions):</p>"
        f"<table><tr><th>#</th><th>node</th>{head}</tr>{body}</table>"
    )


def _legend() -> str:
    rows = "".join(f"<dt>{esc(term)}</dt><dd>{esc(meaning)}</dd>" for term, meaning in LEGEND)
    return _h2("legend", "How to read this report") + f'<dl class="legend">{rows}</dl>'


def _kv_table(rows: Mapping[str, Any]) -> str:
    body = "".join(f"<tr><th>{esc(k)}</th><td>{_value(v)}</td></tr>" for k, v in rows.items())
    return f'<table class="kv">{body}</table>'


def _value(v: Any) -> str:
    if v is None:
        return '<span class="sub">—</span>'
    if isinstance(v, float):
        return esc(f"{v:.4g}")
    if isinstance(v, Mapping | list | tuple):
        return f"<code>{esc(json.dumps(v, ensure_ascii=False, default=str))}</code>"
    return esc(v)


def _decisions(facts: Mapping[str, Any]) -> str:
    d = facts.get("decisions") or {}
    kind = d.get("page_kind_features") or {}
    rows = {
        "page class (seed 000's test)": f"{d.get('page_class')}: coarse text {d.get('coarse_length')} B "
        f"{'<' if d.get('page_class') == 'short' else '>='} {d.get('short_threshold')} B",
        "coarse node (max text density)": d.get("coarse_node"),
        "page kind": d.get("page_kind"),
        "page kind classifier": f"{kind.get('kind')}: {kind.get('reason')}" if kind else None,
        "algorithm requested": d.get("algorithm_requested"),
        "algorithm that produced the text": d.get("algorithm_chosen"),
        "why": d.get("reason"),
        "parameters": facts.get("params"),
    }
    return _h2("decisions", "Decisions") + _kv_table(rows)


def _metadata(facts: Mapping[str, Any]) -> str:
    def zone(f: Mapping[str, Any]) -> str:
        return f"; offset from: <code>{_value(f['zone'])}</code>" if f.get("zone") else ""

    rows = "".join(
        f"<tr><th>{esc(name)}</th><td>{_value(f.get('value'))}</td><td><code>{_value(f.get('source'))}"
        f"</code>{zone(f)}</td></tr>"
        for name, f in (facts.get("metadata") or {}).items()
    )
    return (
        _h2("metadata", "Metadata and where each field was found")
        + f'<table class="kv"><tr><th>field</th><th>value</th><th>rule of the fallback chain</th></tr>{rows}'
        "</table>"
    )


# --- charts ----------------------------------------------------------------------------------------------


def _charts(facts: Mapping[str, Any]) -> str:
    sig = facts.get("signals") or {}
    parts = [_h2("signals", "The algorithms' signals")]
    if not sig:
        return parts[0] + '<p class="sub">No signals (the page could not be processed).</p>'
    parts.append(blockstats_chart(sig["blockstats"]))
    parts.append(linedensity_chart(sig["linedensity"]))
    parts.append(scedd_chart(sig["scedd"]))
    return "".join(parts)


def blockstats_chart(sig: Mapping[str, Any]) -> str:
    """Seed 003: raw and smoothed block counts, N'min, Ncal and the main range."""
    raw = list(enumerate(sig["blocknum"]))
    smooth = list(enumerate(sig["sblocknum"]))
    hlines = [
        HLine(sig["n_min_prime"], f"N'min = {sig['n_min_prime']:g}", ORANGE),
        HLine(sig["n_cal"], f"Ncal = {sig['n_cal']:g}", RED),
    ]
    bands = []
    if sig["main"]:
        a, b = sig["main"]
        bands.append(Band(a - 0.5, b + 0.5, f"main text: blocks {a}-{b}", GREEN))
    svg = chart(
        [Series("blocknum (raw)", raw, GREY, "bar"), Series("sblocknum (smoothed 1/4[1 2 1])", smooth, BLUE)],
        title="Seed 003: characters per block",
        x_label="block",
        y_label="characters",
        hlines=hlines if sig["sblocknum"] else (),
        bands=bands,
    )
    caption = (
        f"N'min = (2·Nmin + Navg)/3 = (2·{sig['n_min']:g} + {sig['n_avg']:g})/3; Ncal = (sum of the "
        f"{sig['top_k']} largest smoothed counts + Navg)/10. A run of blocks all ≥ N'min with one ≥ Ncal is "
        f"main text; the gaps between runs too. Runs: {sig['runs']}; main range: {sig['main']}."
    )
    return svg + f'<p class="caption">{esc(caption)}</p>'


def linedensity_chart(sig: Mapping[str, Any]) -> str:
    """Seed 001: text density of every formatter line, and the threshold."""
    t = sig["threshold"]
    dens = sig["density"]
    kept = [(i, d) for i, d in enumerate(dens) if d > t]
    dropped = [(i, d) for i, d in enumerate(dens) if d <= t]
    svg = chart(
        [Series("line kept", kept, GREEN, "bar"), Series("line dropped", dropped, GREY, "bar")],
        title="Seed 001: text density per line",
        x_label="line",
        y_label="text bytes / total bytes",
        hlines=[HLine(t, f"threshold = {t:.2f}", RED)],
    )
    how = "estimated from the page (normal model)" if sig.get("estimated") else "fixed"
    caption = (
        f"{len(dens)} lines; density = text bytes / (text + tag bytes) of the line; lines above the "
        f"threshold ({how}) are kept: {len(kept)}."
    )
    return svg + f'<p class="caption">{esc(caption)}</p>'


def scedd_chart(sig: Mapping[str, Any]) -> str:
    """Seed 000: weighted node density along the page with the top/bottom band, leader and rejects."""
    pts = [(n["line"], n["density"]) for n in sig["nodes"]]
    top, bottom = sig["band"]
    markers = []
    for r in sig["rejected"]:
        markers.append(Marker(r["line"], r["density"], f"rejected: {r['why']}", ORANGE, "cross"))
    if sig.get("title_node"):
        tn = sig["title_node"]
        markers.append(Marker(tn["line"], tn["density"], "title", PURPLE))
    if sig.get("leader"):
        ld = sig["leader"]
        markers.append(Marker(ld["line"], ld["density"], "leader A", RED))
    t = sig.get("threshold")
    hlines = [HLine(t, f"threshold = {t:g}", RED)] if t else []
    svg = chart(
        [Series("node text density", pts, BLUE, "dots")],
        title="Seed 000 (SCEDD): node text density along the page",
        x_label="line number",
        y_label="weighted chars / tags",
        hlines=hlines,
        bands=[Band(top, bottom, f"top_coef..bottom_coef = lines {top:.4g}..{bottom:.4g}", GREEN, 0.08)],
        markers=markers,
    )
    rejected = "; ".join(f"{r['path']} (line {r['line']}, {r['why']})" for r in sig["rejected"]) or "none"
    leader = sig.get("leader") or {}
    caption = (
        f"line_sum = {sig['line_sum']}; band = line_sum·{sig['top_coef']:g} .. "
        f"line_sum·{sig['bottom_coef']:g}."
        f" Leader A: {leader.get('path')} (line {leader.get('line')}). Rejected candidates: {rejected}."
    )
    if leader and any(r["node"] == leader.get("node") for r in sig["rejected"]):
        caption += " The search ran out of candidates or rounds, so A is the last rejected node."
    return svg + f'<p class="caption">{esc(caption)}</p>'


# --- blocks ----------------------------------------------------------------------------------------------

#: the columns of the candidates table: (key, header)
CANDIDATE_COLUMNS: Sequence[tuple[str, str]] = (
    ("chars", "chars"), ("density", "TD"), ("composite_density", "CTD"), ("link_share", "links"),
    ("content_score", "score"),
)

#: the figure columns of each block unit: (key, header)
COLUMNS: dict[str, Sequence[tuple[str, str]]] = {
    "dom-paragraph": (
        ("chars", "chars"), ("density", "TD"), ("composite_density", "CTD"),
        ("content_score", "score"), ("link_share", "links"), ("line", "line"), ("depth", "depth"),
    ),
    "source-block": (("chars", "chars"), ("smoothed", "smoothed")),
    "line": (("density", "density"), ("text_bytes", "text B"), ("total_bytes", "total B")),
}


def _blocks(facts: Mapping[str, Any]) -> str:
    unit = facts.get("unit") or "dom-paragraph"
    cols = COLUMNS.get(unit, ())
    blocks = facts.get("blocks") or []
    counts = {m: sum(1 for b in blocks if b["mark"] == m) for m in ("kept", "partial", "dropped")}
    head = "".join(f"<th>{esc(h)}</th>" for _, h in cols)
    rows = []
    for b in blocks:
        text = b["text"]
        shown = text if len(text) <= MAX_BLOCK_CHARS else text[: MAX_BLOCK_CHARS - 1] + "…"
        where = f'<br/><code class="sub">{esc(b["path"])}</code>' if b.get("path") else ""
        cells = "".join(f'<td class="num">{_value(b.get(k))}</td>' for k, _ in cols)
        rows.append(
            f'<tr class="{esc(b["mark"])}"><td class="num">{b["index"]}</td><td class="mark">{esc(b["mark"])}'
            f"</td><td>{esc(shown)}{where}</td>{cells}<td>{esc(b.get('why') or '')}</td></tr>"
        )
    missing = facts.get("unplaced") or []
    note = (
        f'<p class="warn">{len(missing)} extracted paragraph(s) match no block: '
        f"{esc(' / '.join(missing)[:300])}</p>"
        if missing
        else ""
    )
    return (
        f"<h2 id=\"blocks\">Text blocks ({esc(unit)}): {counts['kept']} kept, {counts['partial']} partial, "
        f"{counts['dropped']} dropped</h2>{note}"
        f"<table><tr><th>#</th><th>mark</th><th>text</th>{head}<th>why</th></tr>{''.join(rows)}</table>"
    )
