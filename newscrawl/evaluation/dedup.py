"""Measure near-duplicate detection on pairs built at run time from dataset pages.

Positive pairs: page A's extracted text is put into page B's template (B's main-text element emptied and
filled with A's paragraphs), the new page is extracted again, and the two texts are compared -- the same
story inside different page chrome, as when one portal reposts another's article. The ``repost`` kind
also adds a source line at the top and an editor line at the end, as reposting portals do; the ``abridged``
kind also leaves out one paragraph from the middle (articles of four or more paragraphs).
Negative pairs: every pair of different pages' texts (distinct articles).

Nothing is written: the pages are read from the dataset folders when the evaluation runs.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from lxml import etree, html

from newscrawl.evaluation.datasets import Dataset
from newscrawl.extract import extract
from newscrawl.extract.decode import decode_html
from newscrawl.storage.dedup import bands, hamming, simhash

#: fewest characters an extracted text needs to take part (shorter "articles" are list pages or failures)
MIN_TEXT_CHARS = 200
#: characters of a paragraph used to find it in a template page
NEEDLE_CHARS = 12
REPOST_HEAD = "（来源：{site}）"
REPOST_TAIL = "责任编辑：王晓明"


#: a compared pair: (Hamming distance, whether the banded index would retrieve it -- one band equal)
Pair = tuple[int, bool]


@dataclass
class PairReport:
    pages: int = 0
    chrome: list[Pair] = field(default_factory=list)  # same text in other chrome
    repost: list[Pair] = field(default_factory=list)  # ... with a source and an editor line added
    abridged: list[Pair] = field(default_factory=list)  # ... and one paragraph left out
    negative: list[Pair] = field(default_factory=list)  # distinct articles
    skipped_templates: int = 0

    def row(self, threshold: int) -> dict[str, float]:
        """Figures at ``threshold`` for what the index reports: a pair within it sharing a band."""

        k = threshold

        def hits(pairs: list[Pair]) -> int:
            return sum(d <= threshold and banded for d, banded in pairs)

        tp = hits(self.chrome) + hits(self.repost) + hits(self.abridged)
        fp = hits(self.negative)
        return {
            "threshold": threshold,
            "recall_chrome": _share(hits(self.chrome), len(self.chrome)),
            "recall_repost": _share(hits(self.repost), len(self.repost)),
            "recall_abridged": _share(hits(self.abridged), len(self.abridged)),
            "recall_abridged_exact": _share(sum(d <= k for d, _ in self.abridged), len(self.abridged)),
            "false_pairs": fp,
            "false_rate": _share(fp, len(self.negative)),
            "precision": _share(tp, tp + fp) if tp + fp else 1.0,
        }


def _pair(a: int, b: int) -> Pair:
    return hamming(a, b), any(x == y for x, y in zip(bands(a), bands(b), strict=True))


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def _element_of(text_node: object) -> etree._Element:
    parent = text_node.getparent()  # type: ignore[attr-defined]
    return parent.getparent() if text_node.is_tail else parent  # type: ignore[attr-defined]


def _find(root: etree._Element, paragraph: str) -> etree._Element | None:
    needle = "".join(paragraph.split())[:NEEDLE_CHARS]
    if len(needle) < 4:
        return None
    for node in root.xpath("//body//text()"):
        if needle in "".join(str(node).split()):
            return _element_of(node)
    return None


def rewrap(template: bytes, template_text: str, paragraphs: Sequence[str]) -> bytes | None:
    """``template`` with the element holding its main text replaced by ``paragraphs``; None if not found."""
    lines = [p for p in template_text.split("\n") if len("".join(p.split())) >= NEEDLE_CHARS]
    if len(lines) < 2:
        return None
    root = html.fromstring(decode_html(template).text)
    first, last = _find(root, lines[0]), _find(root, lines[-1])
    if first is None or last is None:
        return None
    ancestors = {id(a): a for a in first.iterancestors()} | {id(first): first}
    box: etree._Element | None = last
    while box is not None and id(box) not in ancestors:
        box = box.getparent()
    if box is None or box.tag in ("html", "body"):
        return None
    for child in list(box):
        box.remove(child)
    box.text = None
    for paragraph in paragraphs:
        p = etree.SubElement(box, "p")
        p.text = paragraph
    for meta in root.xpath("//meta[@charset or @http-equiv]"):
        meta.getparent().remove(meta)
    return b'<meta charset="utf-8">' + html.tostring(root, encoding="utf-8")


def _texts(datasets: Iterable[Dataset], limit: int | None) -> list[tuple[str, bytes, str]]:
    out = []
    for ds in datasets:
        for n, (truth, page) in enumerate(ds):
            if limit is not None and n >= limit:
                break
            text = extract(page, truth.http_url).text
            if len("".join(text.split())) >= MIN_TEXT_CHARS:
                out.append((ds.name, page, text))
    return out


def evaluate_dedup(datasets: Iterable[Dataset], limit: int | None = None, seed: int = 1) -> PairReport:
    """Distances of the built positive pairs and of all distinct-article pairs."""
    pages = _texts(datasets, limit)
    report = PairReport(pages=len(pages))
    fingerprints = [simhash(text) for _, _, text in pages]
    report.negative = [_pair(a, b) for a, b in itertools.combinations(fingerprints, 2)]
    order = list(range(len(pages)))
    random.Random(seed).shuffle(order)
    for i, j in zip(order, order[1:] + order[:1], strict=True):
        name, _, text = pages[i]
        _, template, template_text = pages[j]
        paragraphs = text.split("\n")
        repost = [REPOST_HEAD.format(site=name), *paragraphs, REPOST_TAIL]
        kinds = [("chrome", paragraphs), ("repost", repost)]
        if len(paragraphs) >= 4:
            middle = len(paragraphs) // 2
            kinds.append(("abridged", repost[: middle + 1] + repost[middle + 2 :]))
        for kind, body in kinds:
            page = rewrap(template, template_text, body)
            if page is None:
                report.skipped_templates += 1
                break
            copy = extract(page, http_charset="utf-8").text
            getattr(report, kind).append(_pair(fingerprints[i], simhash(copy)))
    return report


def dedup_table(report: PairReport, thresholds: Iterable[int]) -> str:
    """A Markdown table of recall (per kind of copy), false pairs and precision per threshold."""
    lines = [
        f"{report.pages} pages; {len(report.chrome)} same-text-other-chrome pairs, {len(report.repost)} "
        f"repost pairs, {len(report.abridged)} abridged pairs, {len(report.negative)} distinct-article pairs "
        f"({report.skipped_templates} templates without a findable text element skipped)",
        "",
        "Recall and false pairs count what the banded index reports (distance within the threshold and one "
        "16-bit band equal); 'abridged, any band' is the recall an exhaustive comparison would give.",
        "",
        "| max distance | recall (chrome) | recall (repost) | recall (abridged) | abridged, any band "
        "| false pairs | false-pair rate | precision |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for k in thresholds:
        r = report.row(k)
        lines.append(
            f"| {k} | {r['recall_chrome']:.3f} | {r['recall_repost']:.3f} | {r['recall_abridged']:.3f} | "
            f"{r['recall_abridged_exact']:.3f} | {r['false_pairs']} | "
            f"{r['false_rate']:.5f} | {r['precision']:.3f} |"
        )
    return "\n".join(lines)
