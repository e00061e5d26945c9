"""The per-page context handed to every extractor: decoded source, parsed tree, shared statistics.

A ``Page`` lives for one call of ``extract``; extractors read it and must not change ``root`` (an
extractor that needs a differently cleaned tree works on its own copy or on ``html``).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from newscrawl.extract.classify import PageClassification, classify_length
from newscrawl.extract.document import Element, body_of
from newscrawl.extract.stats import NodeStats, compute_stats

if TYPE_CHECKING:
    from newscrawl.extract.metadata.arc import ArcStory


@dataclass(slots=True)
class PageMeta:
    """What the page says about itself, collected before noise stripping removes <meta> and <script>."""

    meta: dict[str, str] = field(default_factory=dict)  # lower-cased name/property/itemprop -> content
    multi: dict[str, list[str]] = field(default_factory=dict)  # every value of a key given more than once
    json_ld: list[dict[str, Any]] = field(default_factory=list)  # every JSON-LD object, @graph flattened
    title: str | None = None  # the <title> text
    times: list[tuple[str, str]] = field(default_factory=list)  # (datetime attribute or text, where)
    language: str | None = None  # <html lang> or Content-Language meta
    canonical: str | None = None
    base: str | None = None  # <base href>, against which relative links resolve
    arc: ArcStory | None = None  # Arc XP's story record (metadata.arc) when the page has no JSON-LD article


@dataclass(slots=True)
class Page:
    html: str
    root: Element
    url: str | None = None
    meta: PageMeta = field(default_factory=PageMeta)
    #: the codec the page's bytes were read with (None for a page given as text or a tree)
    encoding: str | None = None
    _stats: NodeStats | None = None
    _classes: dict[int, PageClassification] = field(default_factory=dict)
    #: the CMS record in the source's comments (``metadata.title.page_enp``), None until first read
    enp: dict[str, str] | None = None
    #: what several metadata chains read off the page (the <h1>s, the text under the headline, the
    #: declared authors...), kept for one run of the metadata stage: ``metadata.shared.shared``
    shared: dict[Hashable, Any] = field(default_factory=dict)

    @property
    def body(self) -> Element:
        return body_of(self.root)

    @property
    def stats(self) -> NodeStats:
        """Node statistics of the body, computed on first use and cached."""
        if self._stats is None:
            self._stats = compute_stats(self.body)
        return self._stats

    def classification(self, short_threshold: int) -> PageClassification:
        """Seed 000's short/long classification of this page, computed once per threshold."""
        cls = self._classes.get(short_threshold)
        if cls is None:
            cls = self._classes[short_threshold] = classify_length(self.stats, short_threshold)
        return cls
