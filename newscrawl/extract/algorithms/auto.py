"""``auto``: the design card (seed 000) — classify the page short or long, then run the matching extractor.

Long pages go to CETD, short pages to SCEDD. Improvements beyond the papers live here, never in the
faithful extractors.
"""

from __future__ import annotations

from dataclasses import dataclass

from newscrawl.extract.algorithms.base import positive, register
from newscrawl.extract.algorithms.cetd import CETDParams, extract_cetd
from newscrawl.extract.algorithms.scedd import SCEDDParams, extract_scedd
from newscrawl.extract.classify import SHORT_THRESHOLD_BYTES, classify_length
from newscrawl.extract.page import Page
from newscrawl.extract.result import BodyResult, freeze


@dataclass(frozen=True, slots=True)
class AutoParams:
    short_threshold: int = SHORT_THRESHOLD_BYTES

    def validate(self) -> None:
        positive("short_threshold", self.short_threshold)


@register("auto", AutoParams, "the design card: short/long classification, then SCEDD or CETD")
def extract_auto(page: Page, params: AutoParams) -> BodyResult:
    cls = classify_length(page.stats, params.short_threshold)
    if cls.page_class == "short":
        res = extract_scedd(page, SCEDDParams())
        chosen, why = "scedd", f"short page: coarse text {cls.coarse_length} B < {params.short_threshold} B"
    else:
        res = extract_cetd(page, CETDParams())
        chosen, why = "cetd", f"long page: coarse text {cls.coarse_length} B >= {params.short_threshold} B"
    figures = dict(res.figures)
    figures.update({"chosen": chosen, "why": why})
    return BodyResult(res.paragraphs, res.node, freeze(figures), res.first, res.last)
